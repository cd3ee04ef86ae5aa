//! Gravity Chess (new-rules-2025, "Gravity Chess"; RULINGS.md, "Gravity
//! Chess").
//!
//! Both players start with an empty board and move the same way: down,
//! towards rank 1. Each player holds a shuffled deck of the opponent's
//! twelve pieces. A turn has three phases: flip a card for your opponent,
//! move every one of your active pieces at least one row down (captures
//! may stay on their row), then add the opponent's piece of the card to
//! the top row in a column you choose. Pieces that reach the bottom, or
//! whose every downward move is blocked by stacked pieces, are stacked:
//! they stay for good and score their row number. Captures score one.
//!
//! * [`rules`]: the board rules (stacked pieces, downward moves).
//! * [`text`]: the text position.
//!
//! Actions: a move `e7f6` (one piece, in the order the player chooses),
//! `e8 stays` (a piece that cannot move now gives up its move, as the book's
//! "This pawn can't move"), and the addition `R@c8`. The flip is not an
//! action: it happens as the turn starts.

pub mod rules;
pub mod text;

#[cfg(test)]
mod tests;

use std::fmt;
use std::str::FromStr;

use chesskit_core::cards::{piece_deck, Card, Suit};
use chesskit_core::game::{Game, GameAction, GameError, Outcome, RuleError, Seat, SeatInfo, ToAct, Viewer};
use chesskit_core::options::Options;
use chesskit_core::rng::GameRng;
use chesskit_core::view::{ActionInfo, BoardView, CardZone, Journal, Marker, TableView, View};
use shakmaty::{Bitboard, Board, Color, Piece, Role, Square};

pub use rules::{moves_from, stacked};

/// The pieces of one colour: four pawns, two each of knights, bishops and
/// rooks, a queen and a king.
pub const SET: [(Role, usize); 6] =
    [(Role::Pawn, 4), (Role::Knight, 2), (Role::Bishop, 2), (Role::Rook, 2), (Role::Queen, 1), (Role::King, 1)];
/// Cards per deck: one per piece of a colour.
pub const DECK: usize = 12;

/// The seat of a colour: White is seat 0.
fn seat_of(colour: Color) -> Seat {
    colour.fold_wb(0, 1)
}

fn colour_of(seat: Seat) -> Color {
    if seat == 0 {
        Color::White
    } else {
        Color::Black
    }
}

fn colour_name(colour: Color) -> &'static str {
    colour.fold_wb("White", "Black")
}

fn piece_name(piece: Piece) -> String {
    format!("{} {}", colour::fold_wb_lower(piece.color), chesskit_core::chess::diagram::role_name(piece.role))
}

/// Lower-case colour names.
mod colour {
    use shakmaty::Color;

    pub fn fold_wb_lower(colour: Color) -> &'static str {
        colour.fold_wb("white", "black")
    }
}

/// The twelve cards of a colour's pieces (RULINGS: the book says only
/// "four pawns of each colour"; we take the 2 to 5 of hearts and of
/// spades, the suits of the queens and kings).
pub fn cards_of(colour: Color) -> Vec<Card> {
    let pawn_suit = colour.fold_wb(Suit::Hearts, Suit::Spades);
    piece_deck()
        .into_iter()
        .filter(|c| c.piece().is_some_and(|p| p.color == colour))
        .filter(|c| c.piece().is_some_and(|p| p.role != Role::Pawn) || c.suit == pawn_suit)
        .collect()
}

// ----------------------------------------------------------------------
// Actions

/// One step of a turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GravityAction {
    /// Move one active piece down (or capture along its row).
    Move { from: Square, to: Square },
    /// A piece that cannot move now gives up its move for this turn.
    Stay(Square),
    /// Add the flipped card's piece on the top row.
    Add { role: Role, to: Square },
}

impl fmt::Display for GravityAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GravityAction::Move { from, to } => write!(f, "{from}{to}"),
            GravityAction::Stay(square) => write!(f, "{square} stays"),
            GravityAction::Add { role, to } => write!(f, "{}@{to}", role.upper_char()),
        }
    }
}

impl FromStr for GravityAction {
    type Err = String;

    /// `e7f6` (also `e7-f6`, `e7xf6`), `e8 stays`, `R@c8`.
    fn from_str(text: &str) -> Result<GravityAction, String> {
        let text = text.trim();
        let square = |s: &str| s.parse::<Square>().map_err(|_| format!("{s:?} is not a square like e4"));
        if let Some(at) = text.strip_suffix("stays").or_else(|| text.strip_suffix("stay")) {
            return Ok(GravityAction::Stay(square(at.trim())?));
        }
        if let Some((role, to)) = text.split_once('@') {
            let mut chars = role.trim().chars();
            let role = match (chars.next(), chars.next()) {
                (Some(c), None) => Role::from_char(c.to_ascii_lowercase())
                    .ok_or_else(|| format!("{c:?} is not a piece letter (P, N, B, R, Q, K)"))?,
                _ => return Err(format!("expected a piece letter before @, like R@c8, in {text:?}")),
            };
            return Ok(GravityAction::Add { role, to: square(to.trim())? });
        }
        let compact: String = text.chars().filter(|c| !matches!(c, '-' | 'x' | ' ')).collect();
        if compact.len() == 4 && compact.is_ascii() {
            return Ok(GravityAction::Move { from: square(&compact[..2])?, to: square(&compact[2..])? });
        }
        Err(format!("unknown action {text:?}: expected a move like e7f6, a piece that stays like `e8 stays`, or an addition like R@c8"))
    }
}

impl GameAction for GravityAction {
    fn info(&self) -> ActionInfo {
        let mut info = ActionInfo::text_only(self.to_string());
        match *self {
            GravityAction::Move { from, to } => {
                info.from = Some(from.to_string());
                info.to = Some(to.to_string());
            }
            GravityAction::Stay(square) => {
                info.square = Some(square.to_string());
                info.label = Some(format!("The piece on {square} cannot move: it stays"));
            }
            GravityAction::Add { to, .. } => {
                info.square = Some(to.to_string());
                info.label = Some(format!("Add the piece on {to}"));
            }
        }
        info
    }
}

// ----------------------------------------------------------------------
// The table: everything the rules need, cheap to copy for the search.

/// What fills the empty slots of a [`Pile`].
const FILLER: Card = Card { rank: 2, suit: Suit::Spades };

/// A deck held face down, top card last, without allocation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pile {
    cards: [Card; DECK],
    len: u8,
}

impl Pile {
    fn new(cards: &[Card]) -> Pile {
        let mut pile = Pile { cards: [FILLER; DECK], len: 0 };
        for &card in cards.iter().rev() {
            pile.cards[pile.len as usize] = card;
            pile.len += 1;
        }
        pile
    }

    /// The cards, top first.
    pub fn top_first(&self) -> Vec<Card> {
        self.cards[..self.len as usize].iter().rev().copied().collect()
    }

    fn draw(&mut self) -> Option<Card> {
        self.len = self.len.checked_sub(1)?;
        // The slot is cleared, so that equal piles compare equal.
        Some(std::mem::replace(&mut self.cards[self.len as usize], FILLER))
    }

    pub fn len(&self) -> usize {
        self.len as usize
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// What happened on its own while a turn ended and the next began.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Event {
    /// The player to move flipped this card for the opponent.
    Flipped(Color, Card),
    /// The top row was full: the card's piece is set aside.
    SetAside(Card),
    /// The player to move has nothing to flip: their last turn.
    LastTurn(Color),
}

/// Where the turn stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Some active piece that has not had its move yet can move.
    Move,
    /// Every piece has had its move; the flipped piece is to be added.
    Add,
    /// The last turn is over.
    Over,
}

/// The state of play without the story.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Table {
    board: Board,
    turn: Color,
    /// The decks held by White (black cards) and Black (white cards).
    holds: [Pile; 2],
    flipped: Option<Card>,
    /// Where the mover's pieces that moved this turn stand now.
    moved: Bitboard,
    /// The mover's pieces that gave up their move this turn.
    stayed: Bitboard,
    /// The pieces White and Black have captured.
    captured: [u32; 2],
    set_aside: Vec<Card>,
}

impl Table {
    pub fn stacked(&self) -> Bitboard {
        stacked(&self.board)
    }

    /// The mover's active pieces that have not had their move this turn.
    fn waiting(&self, stacked: Bitboard) -> Bitboard {
        rules::active(&self.board, stacked, self.turn) & !self.moved & !self.stayed
    }

    /// The waiting pieces that can move now.
    fn movable(&self, stacked: Bitboard) -> Bitboard {
        let mut movable = Bitboard::EMPTY;
        for square in self.waiting(stacked) {
            if moves_from(&self.board, stacked, square).any() {
                movable.add(square);
            }
        }
        movable
    }

    pub fn phase(&self) -> Phase {
        if self.movable(self.stacked()).any() {
            Phase::Move
        } else if self.flipped.is_some() {
            Phase::Add
        } else {
            Phase::Over
        }
    }

    /// The empty squares of the top row.
    fn entry_squares(&self) -> Bitboard {
        Bitboard::from_rank(rules::TOP) & !self.board.occupied()
    }

    /// Every action open now, by calling `f` on each.
    pub fn for_each_action(&self, mut f: impl FnMut(GravityAction)) {
        let stacked = self.stacked();
        let movable = self.movable(stacked);
        if movable.any() {
            for from in self.waiting(stacked) {
                let moves = moves_from(&self.board, stacked, from);
                if moves.is_empty() {
                    f(GravityAction::Stay(from));
                }
                for to in moves {
                    f(GravityAction::Move { from, to });
                }
            }
        } else if let Some(card) = self.flipped {
            let role = card.piece().expect("a piece card").role;
            for to in self.entry_squares() {
                f(GravityAction::Add { role, to });
            }
        }
    }

    pub fn actions(&self) -> Vec<GravityAction> {
        let mut actions = Vec::new();
        self.for_each_action(|a| actions.push(a));
        actions
    }

    /// Why `action` is not allowed now, if it is not.
    fn check(&self, action: GravityAction) -> Result<(), String> {
        let stacked = self.stacked();
        let phase = self.phase();
        let mover = colour_name(self.turn);
        match action {
            GravityAction::Move { from, .. } | GravityAction::Stay(from) => {
                if phase != Phase::Move {
                    return Err("every piece has had its move this turn: add the flipped piece on the top row".into());
                }
                match self.board.piece_at(from) {
                    None => return Err(format!("there is no piece on {from}")),
                    Some(p) if p.color != self.turn => return Err(format!("the piece on {from} is not {mover}'s")),
                    Some(_) => {}
                }
                if stacked.contains(from) {
                    return Err(format!("the piece on {from} is stacked: it can no longer move"));
                }
                if self.moved.contains(from) {
                    return Err(format!("the piece on {from} has already moved this turn"));
                }
                if self.stayed.contains(from) {
                    return Err(format!("the piece on {from} gave up its move this turn"));
                }
                let moves = moves_from(&self.board, stacked, from);
                match action {
                    GravityAction::Move { to, .. } if !moves.contains(to) => Err(self.why_not(from, to, stacked)),
                    GravityAction::Stay(_) if moves.any() => Err(format!(
                        "the piece on {from} can move ({}): every active piece must move if it can",
                        moves.into_iter().map(|s| s.to_string()).collect::<Vec<_>>().join(", ")
                    )),
                    _ => Ok(()),
                }
            }
            GravityAction::Add { role, to } => {
                let Some(card) = self.flipped.filter(|_| phase == Phase::Add) else {
                    return Err(match phase {
                        Phase::Move => "move your active pieces first: a piece is added after the moves".into(),
                        _ => "there is no flipped card to add this turn".into(),
                    });
                };
                let piece = card.piece().expect("a piece card");
                if piece.role != role {
                    return Err(format!("the flipped card {card} is a {}, not a {}", piece_name(piece), role.char()));
                }
                if to.rank() != rules::TOP {
                    return Err(format!("pieces are added on the top row (rank 8), not on {to}"));
                }
                if self.board.piece_at(to).is_some() {
                    return Err(format!("{to} is occupied"));
                }
                Ok(())
            }
        }
    }

    /// Why the piece on `from` may not move to `to`.
    fn why_not(&self, from: Square, to: Square, stacked: Bitboard) -> String {
        let target = self.board.piece_at(to);
        if target.is_some_and(|p| p.color == self.turn) {
            format!("{to} holds one of your own pieces")
        } else if target.is_some() && stacked.contains(to) {
            format!("the piece on {to} is stacked: stacked pieces cannot be captured")
        } else if to.rank() > from.rank() {
            format!("{from}-{to} goes up: gravity pulls every move down")
        } else if to.rank() == from.rank() && target.is_none() {
            format!("{from}-{to} stays on its row: only a capture may end on the same row")
        } else {
            format!("the piece on {from} cannot move to {to}")
        }
    }

    /// Carry out a checked action; returns the captured piece, if any.
    /// Adding the piece ends the turn, and the next one starts.
    fn carry_out(&mut self, action: GravityAction, events: &mut Vec<Event>) -> Option<Piece> {
        match action {
            GravityAction::Move { from, to } => {
                let piece = self.board.remove_piece_at(from).expect("checked");
                let captured = self.board.remove_piece_at(to);
                if captured.is_some() {
                    self.captured[seat_of(self.turn)] += 1;
                }
                self.board.set_piece_at(to, piece);
                self.moved.add(to);
                captured
            }
            GravityAction::Stay(square) => {
                self.stayed.add(square);
                None
            }
            GravityAction::Add { role, to } => {
                self.board.set_piece_at(to, role.of(!self.turn));
                self.flipped = None;
                self.start_turn(!self.turn, events);
                None
            }
        }
    }

    /// Carry out what follows by itself: when no waiting piece can move
    /// the rest stay; then, with the top row full, the flipped piece is set
    /// aside and the next turn starts with its flip. Stops where a player
    /// must choose, or at the end of the last turn.
    fn settle(&mut self, events: &mut Vec<Event>) {
        while self.phase() == Phase::Add && self.entry_squares().is_empty() {
            let card = self.flipped.take().expect("the add phase has a card");
            self.set_aside.push(card);
            events.push(Event::SetAside(card));
            self.start_turn(!self.turn, events);
        }
    }

    /// A turn starts: phase 1, flip a card for the opponent from the deck
    /// you hold. With nothing to flip it is your last turn.
    fn start_turn(&mut self, turn: Color, events: &mut Vec<Event>) {
        self.turn = turn;
        self.moved = Bitboard::EMPTY;
        self.stayed = Bitboard::EMPTY;
        self.flipped = self.holds[seat_of(turn)].draw();
        events.push(match self.flipped {
            Some(card) => Event::Flipped(turn, card),
            None => Event::LastTurn(turn),
        });
    }

    /// The turns in which `colour` will still move pieces: the one under
    /// way, one per card in its deck, and White's last turn.
    pub fn turns_left(&self, colour: Color) -> u32 {
        let now = u32::from(self.turn == colour && self.phase() == Phase::Move);
        let last = u32::from(colour == Color::White && self.phase() != Phase::Over);
        now + self.holds[seat_of(colour)].len() as u32 + last
    }

    /// A player's points: their stacked pieces by row, and one per capture.
    pub fn score(&self, colour: Color) -> u32 {
        rules::stacked_points(&self.board, self.stacked(), colour) + self.captured[seat_of(colour)]
    }

    /// The end: most points wins; then most stacked pieces on the highest
    /// row where the players differ; else a tie.
    pub fn outcome(&self) -> Option<Outcome> {
        if self.phase() != Phase::Over {
            return None;
        }
        let scores = vec![i64::from(self.score(Color::White)), i64::from(self.score(Color::Black))];
        let stacked = self.stacked();
        let rows = Color::ALL.map(|c| rules::rows_top_down(&self.board, stacked, c));
        let winner = match scores[0].cmp(&scores[1]) {
            std::cmp::Ordering::Greater => Some((0, "more points".to_string())),
            std::cmp::Ordering::Less => Some((1, "more points".to_string())),
            std::cmp::Ordering::Equal => (0..8).find(|&i| rows[0][i] != rows[1][i]).map(|i| {
                let seat = if rows[0][i] > rows[1][i] { 0 } else { 1 };
                (seat, format!("tied on points; more stacked pieces on row {}", 8 - i))
            }),
        };
        Some(match winner {
            Some((seat, reason)) => Outcome::win(vec![seat], &reason).with_scores(scores),
            None => Outcome::draw("tied on points and on every row").with_scores(scores),
        })
    }
}

// ----------------------------------------------------------------------
// The game: the table and its story

/// A game of Gravity Chess.
#[derive(Clone, Debug, PartialEq)]
pub struct GravityGame {
    table: Table,
    journal: Journal,
    last_move: Vec<String>,
}

// ----------------------------------------------------------------------
// Setup

impl GravityGame {
    /// Setup: the board is empty; each player shuffles the twelve cards of
    /// the opponent's pieces face down; White starts by flipping.
    pub fn deal(seed: u64) -> GravityGame {
        let mut rng = GameRng::from_seed(seed);
        let mut holds = [Pile::new(&[]); 2];
        for seat in 0..2 {
            let mut cards = cards_of(!colour_of(seat));
            rng.shuffle(&mut cards);
            holds[seat] = Pile::new(&cards);
        }
        let table = Table {
            board: Board::empty(),
            turn: Color::White,
            holds,
            flipped: None,
            moved: Bitboard::EMPTY,
            stayed: Bitboard::EMPTY,
            captured: [0, 0],
            set_aside: Vec::new(),
        };
        let mut journal = Journal::default();
        journal.public(None, "Each player shuffles the opponent's twelve cards face down");
        GravityGame::begin(table, journal, true)
    }

    /// A game from a table: the first flip if the turn has not started,
    /// then whatever follows by itself.
    fn begin(mut table: Table, journal: Journal, flip: bool) -> GravityGame {
        let mut events = Vec::new();
        if flip {
            table.start_turn(table.turn, &mut events);
        }
        table.settle(&mut events);
        let mut game = GravityGame { table, journal, last_move: Vec::new() };
        game.log_events(&events);
        game
    }

    pub fn table(&self) -> &Table {
        &self.table
    }

    pub fn board(&self) -> &Board {
        &self.table.board
    }

    pub fn turn(&self) -> Color {
        self.table.turn
    }

    pub fn flipped(&self) -> Option<Card> {
        self.table.flipped
    }

    /// The deck held by `colour`'s player, top first (the whole truth).
    pub fn holds(&self, colour: Color) -> Vec<Card> {
        self.table.holds[seat_of(colour)].top_first()
    }

    pub fn captured(&self, colour: Color) -> u32 {
        self.table.captured[seat_of(colour)]
    }

    /// A position that can occur: the right cards in the right hands, as
    /// many of each piece as a set holds, deck sizes that fit the turn.
    fn from_parts(parts: text::Parts) -> Result<GravityGame, String> {
        check_cards(&parts)?;
        check_pieces(&parts)?;
        check_turn_marks(&parts)?;
        let flip = parts.flipped.is_none() && !parts.holds[seat_of(parts.turn)].is_empty();
        if flip && (parts.moved.any() || parts.stayed.any()) {
            return Err("moved or stayed pieces, but no flipped card: the turn's flip comes first".into());
        }
        let table = Table {
            board: parts.board,
            turn: parts.turn,
            holds: [Pile::new(&parts.holds[0]), Pile::new(&parts.holds[1])],
            flipped: parts.flipped,
            moved: parts.moved,
            stayed: parts.stayed,
            captured: parts.captured,
            set_aside: parts.set_aside,
        };
        let mut journal = Journal::default();
        journal.public(None, "Started from a position");
        Ok(GravityGame::begin(table, journal, flip))
    }

    fn parts(&self) -> text::Parts {
        let t = &self.table;
        text::Parts {
            board: t.board.clone(),
            turn: t.turn,
            holds: [t.holds[0].top_first(), t.holds[1].top_first()],
            flipped: t.flipped,
            moved: t.moved,
            stayed: t.stayed,
            captured: t.captured,
            set_aside: t.set_aside.clone(),
        }
    }
}

/// Each deck holds only cards of the opponent's colour, every card of the
/// 24 at most once, the flipped card from the mover's deck.
fn check_cards(parts: &text::Parts) -> Result<(), String> {
    let mut seen: Vec<Card> = Vec::new();
    let all = parts.holds.iter().flatten().chain(parts.flipped.iter()).chain(&parts.set_aside);
    for &card in all {
        if !cards_of(Color::White).contains(&card) && !cards_of(Color::Black).contains(&card) {
            return Err(format!(
                "{card} is not one of the 24 cards (pawns are the 2 to 5 of hearts and spades; knights 8, bishops 9, rooks 10; qh qs kh ks)"
            ));
        }
        if seen.contains(&card) {
            return Err(format!("{card} appears twice"));
        }
        seen.push(card);
    }
    for (seat, pile) in parts.holds.iter().enumerate() {
        let holder = colour_of(seat);
        if let Some(card) = pile.iter().find(|c| c.suit.colour() == holder) {
            return Err(format!(
                "{} holds {card}, a {} card: each player holds the opponent's cards",
                colour_name(holder),
                colour::fold_wb_lower(holder)
            ));
        }
    }
    if let Some(card) = parts.flipped.filter(|c| c.suit.colour() == parts.turn) {
        return Err(format!(
            "the flipped card {card} is {}'s own colour: {} flips for the opponent",
            colour_name(parts.turn),
            colour_name(parts.turn)
        ));
    }
    Ok(())
}

/// The pieces of each colour on the board, captured by the opponent, and
/// still in cards make exactly one set.
fn check_pieces(parts: &text::Parts) -> Result<(), String> {
    for colour in Color::ALL {
        let cards: Vec<Card> = parts.holds[seat_of(!colour)]
            .iter()
            .chain(parts.flipped.iter().filter(|c| c.suit.colour() == colour))
            .chain(parts.set_aside.iter().filter(|c| c.suit.colour() == colour))
            .copied()
            .collect();
        for (role, count) in SET {
            let piece = role.of(colour);
            let on_board = (parts.board.by_piece(piece)).count();
            let in_cards = cards.iter().filter(|c| c.piece() == Some(piece)).count();
            if on_board + in_cards > count {
                return Err(format!(
                    "too many {}s: {on_board} on the board and {in_cards} in cards, but the set has {count}",
                    piece_name(piece)
                ));
            }
        }
        let on_board = parts.board.by_color(colour).count();
        let captured = parts.captured[seat_of(!colour)] as usize;
        if on_board + cards.len() + captured != DECK {
            return Err(format!(
                "{} pieces on the board, {} in cards and {} captured by {} make {}, not the set of 12",
                colour_name(colour),
                on_board,
                cards.len(),
                colour_name(!colour),
                on_board + cards.len() + captured
            ));
        }
    }
    Ok(())
}

/// Deck sizes that fit whose turn it is (White flips first), and moved
/// and stayed squares that hold the mover's pieces.
fn check_turn_marks(parts: &text::Parts) -> Result<(), String> {
    let (white, black) = (parts.holds[0].len(), parts.holds[1].len());
    // White flips first: White has flipped one card more than Black from
    // its own flip until Black's.
    let white_ahead = (parts.turn == Color::White) == parts.flipped.is_some();
    let expected_white = if white_ahead { black.checked_sub(1) } else { Some(black) };
    if expected_white != Some(white) {
        return Err(format!(
            "White holds {white} cards and Black {black}: with {} to move{} White must hold {}",
            colour_name(parts.turn),
            if parts.flipped.is_some() { " after the flip" } else { " before the flip" },
            match expected_white {
                Some(n) => n.to_string(),
                None => "one card fewer than Black (Black has no last turn)".to_string(),
            }
        ));
    }
    if (parts.moved & parts.stayed).any() {
        return Err("a square is both moved and stayed".into());
    }
    for square in parts.moved | parts.stayed {
        if parts.board.color_at(square) != Some(parts.turn) {
            return Err(format!(
                "{square} is marked moved or stayed but holds none of {}'s pieces",
                colour_name(parts.turn)
            ));
        }
    }
    Ok(())
}

// ----------------------------------------------------------------------
// Play: a function per phase of the turn.

impl GravityGame {
    /// Phase 2, one piece at a time: move it (or say it cannot move).
    fn move_piece(&mut self, action: GravityAction) -> Vec<Event> {
        let seat = seat_of(self.table.turn);
        let text = match action {
            GravityAction::Move { from, to } => {
                let piece = self.table.board.piece_at(from).expect("checked");
                let captured = self.table.carry_out(action, &mut Vec::new());
                self.last_move = vec![from.to_string(), to.to_string()];
                match captured {
                    Some(victim) => format!("{} {from}x{to}, captures the {}", title(piece), piece_name(victim)),
                    None => format!("{} {from}-{to}", title(piece)),
                }
            }
            _ => {
                let square = action_square(action);
                let piece = self.table.board.piece_at(square).expect("checked");
                self.table.carry_out(action, &mut Vec::new());
                format!("{} on {square} cannot move", title(piece))
            }
        };
        self.journal.public(Some(seat), text);
        let mut events = Vec::new();
        if self.table.phase() != Phase::Move {
            self.log_stuck();
        }
        self.table.settle(&mut events);
        events
    }

    /// The waiting pieces that could not move when the moves ran out.
    fn log_stuck(&mut self) {
        let t = &self.table;
        let stuck = t.waiting(t.stacked());
        if stuck.any() {
            let names: Vec<String> = stuck.into_iter().map(|s| s.to_string()).collect();
            self.journal.public(Some(seat_of(t.turn)), format!("Cannot move: {}", names.join(", ")));
        }
    }

    /// Phase 3: add the opponent's piece of the flipped card on the top row.
    fn add_piece(&mut self, action: GravityAction) -> Vec<Event> {
        let seat = seat_of(self.table.turn);
        let card = self.table.flipped.expect("checked");
        let GravityAction::Add { to, .. } = action else { unreachable!("an addition") };
        self.journal
            .public(Some(seat), format!("Adds the {} ({card}) on {to}", piece_name(card.piece().expect("piece"))));
        self.last_move = vec![to.to_string()];
        let mut events = Vec::new();
        self.table.carry_out(action, &mut events);
        self.table.settle(&mut events);
        events
    }

    fn log_events(&mut self, events: &[Event]) {
        for &event in events {
            match event {
                Event::Flipped(colour, card) => self.journal.public(
                    Some(seat_of(colour)),
                    format!("Flips {card}: the {}", piece_name(card.piece().expect("piece"))),
                ),
                Event::SetAside(card) => self.journal.public(
                    None,
                    format!(
                        "The top row is full: the {} ({card}) is set aside",
                        piece_name(card.piece().expect("piece"))
                    ),
                ),
                Event::LastTurn(colour) => self.journal.public(
                    Some(seat_of(colour)),
                    format!("{}'s last turn: nothing to flip or add", colour_name(colour)),
                ),
            }
        }
        if let Some(outcome) = self.table.outcome() {
            let scores = outcome.scores.clone().unwrap_or_default();
            let result = match outcome.winners.first() {
                Some(&seat) => format!("{} wins", colour_name(colour_of(seat))),
                None => "A tie".to_string(),
            };
            self.journal.public(
                None,
                format!("Game over: {result} ({}), White {} – Black {}", outcome.reason, scores[0], scores[1]),
            );
        }
    }

    fn prompt(&self, viewer: Viewer) -> Option<String> {
        let seat = viewer.seat()?;
        if seat != seat_of(self.table.turn) {
            return None;
        }
        match self.table.phase() {
            Phase::Move => {
                let t = &self.table;
                let waiting = t.waiting(t.stacked()).count();
                Some(format!(
                    "Move your active pieces down, one at a time in the order you choose ({waiting} still to move); a piece that cannot move now may stay"
                ))
            }
            Phase::Add => self.table.flipped.map(|card| {
                format!(
                    "Add the {} ({card}) on the top row: choose its column",
                    piece_name(card.piece().expect("piece"))
                )
            }),
            Phase::Over => None,
        }
    }

    fn markers(&self, square: Square, stacked: Bitboard) -> Vec<Marker> {
        let t = &self.table;
        let mut markers = Vec::new();
        if t.board.piece_at(square).is_some() {
            if stacked.contains(square) {
                markers.push(Marker::new("stacked").text(&rules::row(square).to_string()));
            }
            if t.moved.contains(square) {
                markers.push(Marker::new("chosen").text("moved"));
            }
            if t.stayed.contains(square) {
                markers.push(Marker::new("label").text("stays"));
            }
        }
        markers
    }

    fn zones(&self) -> Vec<CardZone> {
        let t = &self.table;
        let mut zones: Vec<CardZone> = Color::ALL
            .into_iter()
            .map(|holder| CardZone {
                name: format!("{} holds {}'s cards", colour_name(holder), colour::fold_wb_lower(!holder)),
                owner: Some(seat_of(holder)),
                cards: Vec::new(),
                hidden: t.holds[seat_of(holder)].len(),
            })
            .collect();
        zones.push(CardZone {
            name: "Flipped card".to_string(),
            owner: None,
            cards: t.flipped.iter().map(|c| c.to_string()).collect(),
            hidden: 0,
        });
        if !t.set_aside.is_empty() {
            zones.push(CardZone {
                name: "Set aside (top row full)".to_string(),
                owner: None,
                cards: t.set_aside.iter().map(|c| c.to_string()).collect(),
                hidden: 0,
            });
        }
        zones
    }

    fn score_table(&self) -> TableView {
        let t = &self.table;
        let stacked = t.stacked();
        let rows = Color::ALL
            .into_iter()
            .map(|colour| {
                let per_row = rules::rows_top_down(&t.board, stacked, colour);
                vec![
                    colour_name(colour).to_string(),
                    rules::stacked_points(&t.board, stacked, colour).to_string(),
                    t.captured[seat_of(colour)].to_string(),
                    t.score(colour).to_string(),
                    per_row.iter().map(|n| n.to_string()).collect::<Vec<_>>().join(" "),
                ]
            })
            .collect();
        TableView {
            title: "Score".to_string(),
            columns: vec![
                "Player".to_string(),
                "Stacked points".to_string(),
                "Captures".to_string(),
                "Score".to_string(),
                "Stacked per row, 8 to 1".to_string(),
            ],
            rows,
        }
    }
}

/// The piece's name for a log line that already says whose it is: "Bishop".
fn title(piece: Piece) -> String {
    let name = chesskit_core::chess::diagram::role_name(piece.role);
    let mut chars = name.chars();
    chars.next().map(|c| c.to_ascii_uppercase().to_string() + chars.as_str()).unwrap_or_default()
}

fn action_square(action: GravityAction) -> Square {
    match action {
        GravityAction::Move { from, .. } | GravityAction::Stay(from) => from,
        GravityAction::Add { to, .. } => to,
    }
}

// ----------------------------------------------------------------------
// The referee

impl Game for GravityGame {
    type Action = GravityAction;

    const VARIANT: &'static str = "gravity";
    const TITLE: &'static str = "Gravity Chess";

    fn new(options: &Options, seed: u64) -> Result<Self, GameError> {
        options.validate(&Self::option_specs())?;
        Ok(GravityGame::deal(seed))
    }

    fn from_position(position: &str, options: &Options, _seed: u64) -> Result<Self, GameError> {
        options.validate(&Self::option_specs())?;
        let parts = text::read(position).map_err(GameError::new)?;
        GravityGame::from_parts(parts).map_err(GameError::new)
    }

    fn position(&self) -> String {
        text::write(&self.parts())
    }

    fn seats(&self) -> Vec<SeatInfo> {
        SeatInfo::white_black()
    }

    fn to_act(&self) -> ToAct {
        match self.table.outcome() {
            Some(outcome) => ToAct::Over(outcome),
            None => ToAct::one(seat_of(self.table.turn)),
        }
    }

    fn legal_actions(&self, seat: Seat) -> Vec<GravityAction> {
        if seat != seat_of(self.table.turn) {
            return Vec::new();
        }
        self.table.actions()
    }

    fn describe_action(&self, _seat: Seat, action: &GravityAction) -> ActionInfo {
        let mut info = action.info();
        let board = &self.table.board;
        info.label = Some(match *action {
            GravityAction::Move { from, to } => {
                let piece = board.piece_at(from).map(title).unwrap_or_default();
                match board.piece_at(to) {
                    Some(victim) => format!("{piece} {from}x{to} (captures the {})", piece_name(victim)),
                    None => format!("{piece} {from}-{to}"),
                }
            }
            GravityAction::Stay(square) => {
                format!(
                    "{} on {square} cannot move now: it stays",
                    board.piece_at(square).map(title).unwrap_or_default()
                )
            }
            GravityAction::Add { role, to } => format!("Add the {} on {to}", piece_name(role.of(!self.table.turn))),
        });
        info
    }

    fn apply(&mut self, seat: Seat, action: &GravityAction) -> Result<(), RuleError> {
        self.check_turn(seat)?;
        self.table.check(*action).map_err(|reason| RuleError::illegal(action, reason))?;
        let events = match action {
            GravityAction::Add { .. } => self.add_piece(*action),
            _ => self.move_piece(*action),
        };
        self.log_events(&events);
        Ok(())
    }

    fn view(&self, viewer: Viewer) -> View {
        let stacked = self.table.stacked();
        View {
            board: Some(BoardView::from_board(&self.table.board, Bitboard::FULL, &|sq| self.markers(sq, stacked))),
            zones: self.zones(),
            tables: vec![self.score_table()],
            log: self.journal.for_viewer(viewer, &self.seats()),
            prompt: self.prompt(viewer),
            last_move: self.last_move.clone(),
            ..View::default()
        }
    }

    /// Nobody knows the order of either deck, only which cards are left:
    /// deal both again at random.
    fn sample_hidden(&self, _seat: Seat, rng: &mut GameRng) -> Self {
        let mut game = self.clone();
        for pile in &mut game.table.holds {
            let mut cards = pile.top_first();
            // A canonical order first: where the cards really lie must not steer the draw.
            cards.sort();
            rng.shuffle(&mut cards);
            *pile = Pile::new(&cards);
        }
        game
    }

    /// "Add the piece" accepts `@c8`: the flipped card names the piece.
    fn parse_action(&self, _seat: Seat, text: &str) -> Result<GravityAction, RuleError> {
        let trimmed = text.trim();
        if let (Some(square), Some(card)) = (trimmed.strip_prefix('@'), self.table.flipped) {
            let to =
                square.trim().parse().map_err(|_| RuleError::malformed(text, format!("{square:?} is not a square")))?;
            return Ok(GravityAction::Add { role: card.piece().expect("piece").role, to });
        }
        trimmed.parse().map_err(|reason| RuleError::malformed(text, reason))
    }

    /// The score so far, and what the pieces still in play may yet score
    /// (the row each would land on falling straight down, discounted).
    fn heuristic(&self, seat: Seat) -> Option<f64> {
        let t = &self.table;
        let stacked = t.stacked();
        let me = colour_of(seat);
        let value = |colour: Color| {
            let score = rules::stacked_points(&t.board, stacked, colour) + t.captured[seat_of(colour)];
            f64::from(score) + rules::potential(&t.board, stacked, colour, t.turns_left(colour))
        };
        Some(value(me) - value(!me))
    }

    fn is_noisy(&self, action: &GravityAction) -> bool {
        matches!(*action, GravityAction::Move { to, .. } if self.table.board.piece_at(to).is_some())
    }
}

// ----------------------------------------------------------------------
// Perft

/// The number of action sequences of length `depth` from `game`, on the
/// table alone (no story): the move-generation measure of the benchmark.
pub fn perft(game: &GravityGame, depth: u32) -> u64 {
    fn count(table: &Table, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let mut nodes = 0;
        let mut events = Vec::new();
        table.for_each_action(|action| {
            let mut next = table.clone();
            next.carry_out(action, &mut events);
            next.settle(&mut events);
            events.clear();
            nodes += count(&next, depth - 1);
        });
        nodes
    }
    count(&game.table, depth)
}
