//! The state of play without its story, and the rules of a turn on it:
//! the phases, what may be done in each, what follows by itself, and the
//! score at the end. Cheap to clone, for the search and the perft.

use chesskit_core::cards::{Card, Suit};
use chesskit_core::game::Outcome;
use shakmaty::{Bitboard, Board, Color, Piece, Square};

use super::rules::{self, moves_from, role_moves, stacked};
use super::{colour_name, piece_name, seat_of, GravityAction, DECK};

/// What fills the empty slots of a [`Pile`].
const FILLER: Card = Card { rank: 2, suit: Suit::Spades };

/// A deck held face down, top card last, without allocation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Pile {
    cards: [Card; DECK],
    len: u8,
}

impl Pile {
    pub(super) fn new(cards: &[Card]) -> Pile {
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

    pub(super) fn draw(&mut self) -> Option<Card> {
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

/// The cards set aside, in the order they were, without allocation: at
/// most the 24 cards of the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SetAside {
    cards: [Card; 2 * DECK],
    len: u8,
}

impl SetAside {
    pub(super) fn new(cards: &[Card]) -> SetAside {
        let mut set_aside = SetAside { cards: [FILLER; 2 * DECK], len: 0 };
        for &card in cards {
            set_aside.push(card);
        }
        set_aside
    }

    pub(super) fn push(&mut self, card: Card) {
        self.cards[self.len as usize] = card;
        self.len += 1;
    }

    /// The cards, the first set aside first.
    pub fn cards(&self) -> &[Card] {
        &self.cards[..self.len as usize]
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// What happened on its own while a turn ended and the next began.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Event {
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
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Table {
    pub(super) board: Board,
    pub(super) turn: Color,
    /// The decks held by White (black cards) and Black (white cards).
    pub(super) holds: [Pile; 2],
    pub(super) flipped: Option<Card>,
    /// Where the mover's pieces that moved this turn stand now.
    pub(super) moved: Bitboard,
    /// The mover's pieces that gave up their move this turn.
    pub(super) stayed: Bitboard,
    /// The pieces White and Black have captured.
    pub(super) captured: [u32; 2],
    pub(super) set_aside: SetAside,
    /// The stacked pieces, [`stacked`] of the board: they only ever grow,
    /// and only when a piece lands stacked (see [`Table::restack`]), so
    /// they are kept rather than worked out at every look.
    pub(super) stacked: Bitboard,
}

impl Table {
    pub fn stacked(&self) -> Bitboard {
        self.stacked
    }

    /// Keep [`Table::stacked`] up to date after `piece` landed on
    /// `square` (moved, captured, or added). Nothing else on the board
    /// changed but the square it left, which held an active piece, as did
    /// `square` if anything: the rows below `square` are as they were, and
    /// unless the piece lands stacked, so is every row.
    fn restack(&mut self, piece: Piece, square: Square) {
        if rules::is_stacked_on(piece, square, self.stacked) {
            self.stacked = stacked(&self.board);
        }
        debug_assert_eq!(self.stacked, stacked(&self.board), "the kept stacked pieces");
    }

    /// The mover's active pieces that have not had their move this turn.
    pub(super) fn waiting(&self, stacked: Bitboard) -> Bitboard {
        rules::active(&self.board, stacked, self.turn) & !self.moved & !self.stayed
    }

    /// Whether some waiting piece can move now.
    fn any_movable(&self, stacked: Bitboard) -> bool {
        self.waiting(stacked).into_iter().any(|square| moves_from(&self.board, stacked, square).any())
    }

    pub fn phase(&self) -> Phase {
        if self.any_movable(self.stacked()) {
            Phase::Move
        } else if self.flipped.is_some() {
            Phase::Add
        } else {
            Phase::Over
        }
    }

    /// The empty squares of the top row.
    pub(super) fn entry_squares(&self) -> Bitboard {
        Bitboard::from_rank(rules::TOP) & !self.board.occupied()
    }

    /// Every action open now, by calling `f` on each.
    pub fn for_each_action(&self, mut f: impl FnMut(GravityAction)) {
        let stacked = self.stacked();
        let occupied = self.board.occupied();
        let capturable = self.board.by_color(!self.turn) & !stacked;
        // Each waiting piece's moves, worked out once.
        let mut moves = [(Square::A1, Bitboard::EMPTY); 16];
        let mut count = 0;
        for from in self.waiting(stacked) {
            let role = self.board.role_at(from).expect("a waiting piece");
            moves[count] = (from, role_moves(role, from, occupied, capturable));
            count += 1;
        }
        let moves = &moves[..count];
        if moves.iter().any(|(_, to)| to.any()) {
            for &(from, targets) in moves {
                if targets.is_empty() {
                    f(GravityAction::Stay(from));
                }
                for to in targets {
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
    pub(super) fn check(&self, action: GravityAction) -> Result<(), String> {
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
    pub(super) fn why_not(&self, from: Square, to: Square, stacked: Bitboard) -> String {
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
    pub(super) fn carry_out(&mut self, action: GravityAction, events: &mut Vec<Event>) -> Option<Piece> {
        match action {
            GravityAction::Move { from, to } => {
                // The mover's piece: only its role is to be looked up.
                let piece = self.board.role_at(from).expect("checked").of(self.turn);
                let captured = if self.board.occupied().contains(to) { self.board.piece_at(to) } else { None };
                if captured.is_some() {
                    self.captured[seat_of(self.turn)] += 1;
                }
                self.board.discard_piece_at(from);
                // Setting a piece discards whatever stood there.
                self.board.set_piece_at(to, piece);
                self.moved.add(to);
                self.restack(piece, to);
                captured
            }
            GravityAction::Stay(square) => {
                self.stayed.add(square);
                None
            }
            GravityAction::Add { role, to } => {
                let piece = role.of(!self.turn);
                self.board.set_piece_at(to, piece);
                self.restack(piece, to);
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
    #[inline]
    pub(super) fn settle(&mut self, events: &mut Vec<Event>) {
        // The cheap tests first (inlined: nearly always there is nothing
        // to do): the phase is worked out only with the top row full and
        // a card to add.
        if self.flipped.is_some() && self.entry_squares().is_empty() {
            self.settle_full_top_row(events);
        }
    }

    fn settle_full_top_row(&mut self, events: &mut Vec<Event>) {
        while self.flipped.is_some() && self.entry_squares().is_empty() && self.phase() == Phase::Add {
            let card = self.flipped.take().expect("the add phase has a card");
            self.set_aside.push(card);
            events.push(Event::SetAside(card));
            self.start_turn(!self.turn, events);
        }
    }

    /// A turn starts: phase 1, flip a card for the opponent from the deck
    /// you hold. With nothing to flip it is your last turn.
    pub(super) fn start_turn(&mut self, turn: Color, events: &mut Vec<Event>) {
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
