//! Gravity Chess (new-rules-2025, "Gravity Chess"; docs/games/gravity.md, "Rulings").
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
//! * [`table`]: the state of play and the rules of a turn on it (phases,
//!   what follows by itself, the score at the end).
//! * [`action`]: the actions of a turn.
//! * [`text`]: the text position; [`position`]: which positions can occur.
//!
//! This file: Setup, Play (a function per phase, with the story told in
//! the log), the view, and the referee.
//!
//! Actions: a move `e7f6` (one piece, in the order the player chooses),
//! `e8 stays` (a piece that cannot move now gives up its move, as the book's
//! "This pawn can't move"), and the addition `R@c8`. The flip is not an
//! action: it happens as the turn starts.

pub mod action;
pub mod position;
pub mod rules;
pub mod table;
pub mod text;

#[cfg(test)]
mod tests;

use crate::chess::{seat_color, seat_of};
use crate::clone_fields::clone_field_by_field;
use chesskit_core::cards::{piece_deck, Card, Suit};
use chesskit_core::game::{Game, GameAction, GameError, RuleError, Seat, SeatInfo, ToAct, Viewer};
use chesskit_core::options::Options;
use chesskit_core::rng::GameRng;
use chesskit_core::search_node::hash_of;
use chesskit_core::view::{
    ActionInfo, BoardView, CardZone, Corner, Journal, Marker, MarkerDrawing, TableDrawing, TableView, View,
};
use shakmaty::{Bitboard, Board, Color, Piece, Role, Square};

pub use action::GravityAction;
pub use rules::{moves_from, stacked};
use table::Event;
pub use table::{Phase, Pile, SetAside, Table};

/// The pieces of one colour: four pawns, two each of knights, bishops and
/// rooks, a queen and a king.
pub const SET: [(Role, usize); 6] =
    [(Role::Pawn, 4), (Role::Knight, 2), (Role::Bishop, 2), (Role::Rook, 2), (Role::Queen, 1), (Role::King, 1)];
/// Cards per deck: one per piece of a colour.
pub const DECK: usize = 12;

fn colour_name(colour: Color) -> &'static str {
    colour.fold_wb("White", "Black")
}

/// "white" or "black".
fn lower_name(colour: Color) -> &'static str {
    colour.fold_wb("white", "black")
}

/// "black rook".
fn piece_name(piece: Piece) -> String {
    format!("{} {}", lower_name(piece.color), chesskit_core::chess::diagram::role_name(piece.role))
}

/// The twelve cards of a colour's pieces (ruling, docs/games/gravity.md: the book says only
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
// The game: the table and its story

/// A game of Gravity Chess.
#[derive(Debug, PartialEq)]
pub struct GravityGame {
    table: Table,
    /// The last move's squares (from, if a piece moved, and to) or the
    /// addition's, for the view: squares rather than text, so that a
    /// search's copies of the game allocate nothing for it.
    last_move: Option<(Option<Square>, Square)>,
}

clone_field_by_field!(GravityGame { table, last_move });

// ----------------------------------------------------------------------
// Setup

impl GravityGame {
    /// Setup: the board is empty; each player shuffles the twelve cards of
    /// the opponent's pieces face down; White starts by flipping.
    pub fn deal(seed: u64, story: &mut Journal) -> GravityGame {
        let mut rng = GameRng::from_seed(seed);
        let mut holds = [Pile::new(&[]); 2];
        for (seat, pile) in holds.iter_mut().enumerate() {
            let mut cards = cards_of(!seat_color(seat));
            rng.shuffle(&mut cards);
            *pile = Pile::new(&cards);
        }
        let table = Table {
            board: Board::empty(),
            turn: Color::White,
            holds,
            flipped: None,
            moved: Bitboard::EMPTY,
            stayed: Bitboard::EMPTY,
            captured: [0, 0],
            set_aside: SetAside::new(&[]),
            stacked: Bitboard::EMPTY,
        };
        story.public(None, "Each player shuffles the opponent's twelve cards face down");
        GravityGame::begin(table, true, story)
    }

    /// A game from a table: the first flip if the turn has not started,
    /// then whatever follows by itself.
    fn begin(mut table: Table, flip: bool, story: &mut Journal) -> GravityGame {
        let mut events = Vec::new();
        if flip {
            table.start_turn(table.turn, &mut events);
        }
        table.settle(&mut events);
        let mut game = GravityGame { table, last_move: None };
        game.log_events(&events, story);
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
    fn from_parts(parts: text::Parts, story: &mut Journal) -> Result<GravityGame, String> {
        position::check(&parts)?;
        let flip = parts.flipped.is_none() && !parts.holds[seat_of(parts.turn)].is_empty();
        if flip && (parts.moved.any() || parts.stayed.any()) {
            return Err("moved or stayed pieces, but no flipped card: the turn's flip comes first".into());
        }
        let table = Table {
            stacked: stacked(&parts.board),
            board: parts.board,
            turn: parts.turn,
            holds: [Pile::new(&parts.holds[0]), Pile::new(&parts.holds[1])],
            flipped: parts.flipped,
            moved: parts.moved,
            stayed: parts.stayed,
            captured: parts.captured,
            set_aside: SetAside::new(&parts.set_aside),
        };
        story.public(None, "Started from a position");
        Ok(GravityGame::begin(table, flip, story))
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
            set_aside: t.set_aside.cards().to_vec(),
        }
    }
}

// ----------------------------------------------------------------------
// Play: a function per phase of the turn.

impl GravityGame {
    /// Phase 2, one piece at a time: move it (or say it cannot move).
    /// The line for the log is worded only for a journal that keeps it.
    fn move_piece(&mut self, action: GravityAction, story: &mut Journal) -> Vec<Event> {
        let seat = seat_of(self.table.turn);
        match action {
            GravityAction::Move { from, to } => {
                let piece = self.table.board.piece_at(from).expect("checked");
                let captured = self.table.carry_out(action, &mut Vec::new());
                self.last_move = Some((Some(from), to));
                story.public_with(Some(seat), || match captured {
                    Some(victim) => format!("{} {from}x{to}, captures the {}", title(piece), piece_name(victim)),
                    None => format!("{} {from}-{to}", title(piece)),
                });
            }
            _ => {
                let square = action_square(action);
                let piece = self.table.board.piece_at(square).expect("checked");
                self.table.carry_out(action, &mut Vec::new());
                story.public_with(Some(seat), || format!("{} on {square} cannot move", title(piece)));
            }
        }
        let mut events = Vec::new();
        if self.table.phase() != Phase::Move {
            self.log_stuck(story);
        }
        self.table.settle(&mut events);
        events
    }

    /// The waiting pieces that could not move when the moves ran out.
    fn log_stuck(&mut self, story: &mut Journal) {
        let t = &self.table;
        let stuck = t.waiting(t.stacked());
        if stuck.any() {
            story.public_with(Some(seat_of(t.turn)), || {
                let names: Vec<String> = stuck.into_iter().map(|s| s.to_string()).collect();
                format!("Cannot move: {}", names.join(", "))
            });
        }
    }

    /// Phase 3: add the opponent's piece of the flipped card on the top row.
    fn add_piece(&mut self, action: GravityAction, story: &mut Journal) -> Vec<Event> {
        let seat = seat_of(self.table.turn);
        let card = self.table.flipped.expect("checked");
        let GravityAction::Add { to, .. } = action else { unreachable!("an addition") };
        story.public_with(Some(seat), || {
            format!("Adds the {} ({card}) on {to}", piece_name(card.piece().expect("piece")))
        });
        self.last_move = Some((None, to));
        let mut events = Vec::new();
        self.table.carry_out(action, &mut events);
        self.table.settle(&mut events);
        events
    }

    /// The lines a muted journal (a search's copy) would drop are not
    /// worded at all: wording them was a quarter of a search node.
    fn log_events(&mut self, events: &[Event], story: &mut Journal) {
        if story.is_muted() {
            return;
        }
        for &event in events {
            match event {
                Event::Flipped(colour, card) => story.public(
                    Some(seat_of(colour)),
                    format!("Flips {card}: the {}", piece_name(card.piece().expect("piece"))),
                ),
                Event::SetAside(card) => story.public(
                    None,
                    format!(
                        "The top row is full: the {} ({card}) is set aside",
                        piece_name(card.piece().expect("piece"))
                    ),
                ),
                Event::LastTurn(colour) => story.public(
                    Some(seat_of(colour)),
                    format!("{}'s last turn: nothing to flip or add", colour_name(colour)),
                ),
            }
        }
        if let Some(outcome) = self.table.outcome() {
            let result = match outcome.winners.first() {
                Some(&seat) => format!("{} wins", colour_name(seat_color(seat))),
                None => "A tie".to_string(),
            };
            let [white, black] = Color::ALL.map(|colour| self.table.score(colour));
            story.public(None, format!("Game over: {result} ({}), White {white} – Black {black}", outcome.reason));
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
                // A brown frame and tint: stacked for good; its row, the points it scores, in the corner.
                let row = rules::row(square).to_string();
                let frame = MarkerDrawing::Frame { fill: "#8d6e63".to_string(), rim: "#5d4037".to_string() };
                let points = MarkerDrawing::badge(Corner::TopRight, "#ffb300", &row);
                markers.push(Marker::new("stacked").text(&row).drawn(frame).drawn(points));
            }
            if t.moved.contains(square) {
                markers.push(Marker::new("chosen").text("moved").drawn(MarkerDrawing::ring("green")));
            }
            if t.stayed.contains(square) {
                let badge = MarkerDrawing::badge(Corner::TopLeft, "#455a64", "stays");
                markers.push(Marker::new("label").text("stays").drawn(badge));
            }
        }
        markers
    }

    fn zones(&self) -> Vec<CardZone> {
        let t = &self.table;
        let mut zones: Vec<CardZone> = Color::ALL
            .into_iter()
            .map(|holder| CardZone {
                name: format!("{} holds {}'s cards", colour_name(holder), lower_name(!holder)),
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
                cards: t.set_aside.cards().iter().map(|c| c.to_string()).collect(),
                hidden: 0,
            });
        }
        zones
    }

    /// Each player's points, and their stacked pieces row by row (the
    /// tie-break), drawn as stacks of the player's pieces so the rows that
    /// score can be read at a glance.
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
        let stacks = TableDrawing::Stacks {
            column: 4,
            places: (1..=8).rev().map(|row| format!("row {row}")).collect(),
            colours: Color::ALL.into_iter().map(|c| c.fold_wb("white", "black").to_string()).collect(),
        };
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
            drawn_as: Some(stacks),
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

    /// What the start announces is written to `story`.
    fn open(_options: &Options, seed: u64, position: Option<&str>, story: &mut Journal) -> Result<Self, GameError> {
        match position {
            None => Ok(GravityGame::deal(seed, story)),
            Some(position) => {
                let parts = text::read(position).map_err(GameError::new)?;
                GravityGame::from_parts(parts, story).map_err(GameError::new)
            }
        }
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

    /// Single-mover: the side to move while the game goes on, without the
    /// list [`Game::to_act`] builds.
    fn first_to_act(&self) -> Option<Seat> {
        (self.table.phase() != Phase::Over).then(|| seat_of(self.table.turn))
    }

    fn is_to_act(&self, seat: Seat) -> bool {
        self.first_to_act() == Some(seat)
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

    fn apply_with(&mut self, seat: Seat, action: &GravityAction, story: &mut Journal) -> Result<(), RuleError> {
        self.check_turn(seat)?;
        self.table.check(*action).map_err(|reason| RuleError::illegal(action, reason))?;
        let events = match action {
            GravityAction::Add { .. } => self.add_piece(*action, story),
            _ => self.move_piece(*action, story),
        };
        self.log_events(&events, story);
        Ok(())
    }

    fn view(&self, viewer: Viewer) -> View {
        let stacked = self.table.stacked();
        View {
            board: Some(BoardView::from_board(&self.table.board, Bitboard::FULL, &|sq| self.markers(sq, stacked))),
            zones: self.zones(),
            tables: vec![self.score_table()],
            prompt: self.prompt(viewer),
            last_move: self
                .last_move
                .map_or_else(Vec::new, |(from, to)| from.into_iter().chain([to]).map(|sq| sq.to_string()).collect()),
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
    // The key of the whole table, the face-down decks included (the search
    // plays drawn worlds); the move log is left out.
    fn position_hash(&self) -> Option<u64> {
        Some(hash_of(&self.table))
    }

    fn heuristic(&self, seat: Seat) -> Option<f64> {
        let t = &self.table;
        let stacked = t.stacked();
        let me = seat_color(seat);
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
