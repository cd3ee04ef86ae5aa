//! Parade Chess Solitaire (new-rules-2025, "Parade Chess Solitaire";
//! docs/games/parade.md, "Rulings").
//!
//! Half the pieces (no pawns) are on parade and give each other orders
//! until they stand in one orthogonally connected group. The 16 officer
//! cards are dealt into two piles of eight: one is laid out on the board
//! with the gaps of Appendix A, the other is the hand, spent one card per
//! action on moving a piece or adding one. The score is the cards left in
//! the hand; when it runs out first, the 16 cards count negative points.
//!
//! * [`rules`]: the board rules (layout, orders, groups), shared with the solver.
//! * [`text`]: the text position (8 board lines, then `hand:`, `discard:`,
//!   `face down:` and `negative:` lines).
//!
//! A turn is one action: `add`, or an order `e4:f3-g2` (the piece on e4
//! moves the piece on f3 to g2).

pub mod rules;
pub mod text;

#[cfg(test)]
mod tests;

use std::fmt;
use std::str::FromStr;

use chesskit_core::cards::{officer_deck, Card, Deck};
use chesskit_core::game::{Game, GameAction, GameError, Outcome, RuleError, Seat, SeatInfo, ToAct, Viewer};
use chesskit_core::options::Options;
use chesskit_core::rng::GameRng;
use chesskit_core::search_node::hash_of;
use chesskit_core::view::{ActionInfo, BoardView, CardZone, Journal, TableView, View};
use shakmaty::{Bitboard, Board, Square};

use rules::spread;
pub use rules::{groups, is_connected, lay_out, next_square, officer, orders, Order};

/// Cards in each of the two piles.
pub const PILE: usize = 8;
/// The cards picked up to count negative points when the hand runs out.
pub const NEGATIVE_CARDS: u32 = 16;
/// The one seat.
const PLAYER: Seat = 0;

/// One action: spend the top card of the hand on an order or on adding a piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ParadeAction {
    /// Move a piece: the card goes face down.
    Order(Order),
    /// Add a piece: the card goes face up and its piece is laid out after the last one.
    Add,
}

impl fmt::Display for ParadeAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParadeAction::Order(order) => order.fmt(f),
            ParadeAction::Add => f.write_str("add"),
        }
    }
}

impl FromStr for ParadeAction {
    type Err = String;

    fn from_str(text: &str) -> Result<ParadeAction, String> {
        let text = text.trim();
        if text.eq_ignore_ascii_case("add") {
            return Ok(ParadeAction::Add);
        }
        text.parse().map(ParadeAction::Order)
    }
}

impl GameAction for ParadeAction {
    fn info(&self) -> ActionInfo {
        let mut info = ActionInfo::text_only(self.to_string());
        match self {
            ParadeAction::Order(order) => {
                info.from = Some(order.from.to_string());
                info.to = Some(order.to.to_string());
                info.label = Some(format!("Order from {}: {}-{}", order.by, order.from, order.to));
            }
            ParadeAction::Add => info.label = Some("Add the next piece (top card face up)".to_string()),
        }
        info
    }
}

/// A game of Parade Chess Solitaire.
#[derive(Clone, Debug, PartialEq)]
pub struct ParadeGame {
    board: Board,
    /// The hand (the second pile), top card first. Its order is hidden.
    hand: Vec<Card>,
    /// Face up: the laid-out cards in the order drawn, then every added card.
    discard: Vec<Card>,
    /// Face down: the cards spent on orders. Nobody sees them.
    face_down: Vec<Card>,
    /// Once the hand ran out before the group formed: how many of the 16
    /// negative cards are spent.
    negative: Option<u32>,
    /// The last order's squares (from and to) or the added piece's square,
    /// for the view: squares rather than text, so that a search's copies
    /// of the game allocate nothing for it.
    last_move: Option<(Option<Square>, Square)>,
}

// ----------------------------------------------------------------------
// Setup

impl ParadeGame {
    /// Setup: shuffle the 16 officer cards, deal two piles of eight, lay
    /// the first out from a1 with the gaps of Appendix A; the second is the hand.
    pub fn deal(seed: u64, story: &mut Journal) -> ParadeGame {
        let mut deck = Deck::shuffled(officer_deck(), &mut GameRng::from_seed(seed));
        let layout = deck.deal(PILE);
        let hand = deck.deal(PILE);
        let board = lay_out(&layout).expect("eight officers always fit: at most 8 x 7 squares");
        story.public(None, format!("Laid out {}", describe_cards(&layout)));
        ParadeGame::assemble(board, hand, layout, Vec::new(), None, story)
    }

    /// A game from its parts, with the hand's end settled (the negative
    /// count starts when the hand is empty and the group is not formed).
    fn assemble(
        board: Board,
        hand: Vec<Card>,
        discard: Vec<Card>,
        face_down: Vec<Card>,
        negative: Option<u32>,
        story: &mut Journal,
    ) -> ParadeGame {
        let mut game = ParadeGame { board, hand, discard, face_down, negative, last_move: None };
        game.start_negative_count_if_due(story);
        game
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The hand, top card first (the whole truth: its order is hidden from the player).
    pub fn hand(&self) -> &[Card] {
        &self.hand
    }

    pub fn discard(&self) -> &[Card] {
        &self.discard
    }

    pub fn face_down(&self) -> &[Card] {
        &self.face_down
    }

    /// The negative cards spent, once the hand ran out.
    pub fn negative(&self) -> Option<u32> {
        self.negative
    }
}

fn describe_cards(cards: &[Card]) -> String {
    cards
        .iter()
        .map(|c| match c.piece() {
            Some(p) => format!("{c} ({})", rules::piece_name(p)),
            None => c.to_string(),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

// ----------------------------------------------------------------------
// Play: each action spends one card.

impl ParadeGame {
    /// Move a piece: the top card goes face down (or, in the continuation,
    /// one negative card is counted), then the order is carried out.
    fn give_order(&mut self, order: Order, story: &mut Journal) -> Result<(), RuleError> {
        rules::check_order(&self.board, order).map_err(|reason| RuleError::illegal(order, reason))?;
        story.public_with(Some(PLAYER), || {
            let (by, moved) = (self.piece_name_at(order.by), self.piece_name_at(order.from));
            format!("The {by} on {} moves the {moved} from {} to {}", order.by, order.from, order.to)
        });
        self.spend_card_face_down();
        rules::carry_out(&mut self.board, order);
        self.last_move = Some((Some(order.from), order.to));
        Ok(())
    }

    fn spend_card_face_down(&mut self) {
        match &mut self.negative {
            Some(spent) => *spent += 1,
            None => {
                let card = self.hand.remove(0);
                self.face_down.push(card);
            }
        }
    }

    /// Add a piece: the top card goes face up and its piece is laid out
    /// after the last piece with its gap. A piece whose gap runs past h8
    /// does not fit: the card is spent face up and nothing is added
    /// (ruling, docs/games/parade.md: the book is silent; the player cannot know the top card
    /// before turning it up, so adding is always allowed).
    fn add_piece(&mut self, story: &mut Journal) -> Result<(), RuleError> {
        if self.negative.is_some() {
            return Err(RuleError::illegal(
                ParadeAction::Add,
                "the hand is spent: in the negative-score continuation you may only move pieces, not add any",
            ));
        }
        let card = self.hand.remove(0);
        self.discard.push(card);
        let piece = officer(card).expect("the hand holds officer cards");
        match next_square(&self.board, piece.role) {
            Some(square) => {
                self.board.set_piece_at(square, piece);
                story.public_with(Some(PLAYER), || format!("Adds {card}: a {} on {square}", rules::piece_name(piece)));
                self.last_move = Some((None, square));
            }
            None => {
                story.public_with(Some(PLAYER), || {
                    format!("Adds {card}: the {} does not fit before h8", rules::piece_name(piece))
                });
                self.last_move = None;
            }
        }
        Ok(())
    }

    /// Running out of cards before the group forms: pick up all 16 cards
    /// to count negative points.
    fn start_negative_count_if_due(&mut self, story: &mut Journal) {
        if self.hand.is_empty() && self.negative.is_none() && !is_connected(&self.board) {
            self.negative = Some(0);
            story.public(None, "The hand is spent: all 16 cards are picked up to count negative points");
        }
    }

    fn piece_name_at(&self, square: Square) -> String {
        self.board.piece_at(square).map(rules::piece_name).unwrap_or_default()
    }

    /// The actions open now (the same in every world the player may be in:
    /// nothing here depends on the hidden order of the hand).
    fn actions(&self) -> Vec<ParadeAction> {
        if self.outcome().is_some() {
            return Vec::new();
        }
        // One list, with room for a typical layout's orders and the addition.
        let mut actions = Vec::with_capacity(64);
        rules::for_each_order(&self.board, |order| actions.push(ParadeAction::Order(order)));
        if self.negative.is_none() {
            actions.push(ParadeAction::Add);
        }
        actions
    }
}

// ----------------------------------------------------------------------
// Game end

impl ParadeGame {
    /// The score now: the cards left in the hand, or minus the negative
    /// cards spent.
    pub fn score(&self) -> i64 {
        match self.negative {
            None => self.hand.len() as i64,
            Some(spent) => -i64::from(spent),
        }
    }

    /// Winning: one connected group scores the cards left (or the negative
    /// count). The game is lost at -16 when the 16 negative cards are spent,
    /// or when no order is possible in the continuation (ruling, docs/games/parade.md: the book
    /// is silent on both).
    pub fn outcome(&self) -> Option<Outcome> {
        if is_connected(&self.board) {
            return Some(Outcome::win(vec![PLAYER], "formed up").with_scores(vec![self.score()]));
        }
        let lost = |reason: &str| Outcome::draw(reason).with_scores(vec![-i64::from(NEGATIVE_CARDS)]);
        match self.negative {
            Some(spent) if spent >= NEGATIVE_CARDS => Some(lost("all 16 negative cards spent")),
            Some(_) if !rules::any_order(&self.board) => Some(lost("no order possible")),
            _ => None,
        }
    }
}

// ----------------------------------------------------------------------
// The referee

impl Game for ParadeGame {
    type Action = ParadeAction;

    const VARIANT: &'static str = "parade";
    const TITLE: &'static str = "Parade Chess Solitaire";

    /// What the start announces is written to `story`.
    fn open(_options: &Options, seed: u64, position: Option<&str>, story: &mut Journal) -> Result<Self, GameError> {
        match position {
            None => Ok(ParadeGame::deal(seed, story)),
            Some(position) => {
                let parts = text::read(position).map_err(GameError::new)?;
                story.public(None, "Started from a position");
                Ok(ParadeGame::assemble(parts.board, parts.hand, parts.discard, parts.face_down, parts.negative, story))
            }
        }
    }

    fn position(&self) -> String {
        text::write(&self.board, &self.hand, &self.discard, &self.face_down, self.negative)
    }

    fn seats(&self) -> Vec<SeatInfo> {
        vec![SeatInfo::new("Player")]
    }

    fn to_act(&self) -> ToAct {
        match self.outcome() {
            Some(outcome) => ToAct::Over(outcome),
            None => ToAct::one(PLAYER),
        }
    }

    fn legal_actions(&self, seat: Seat) -> Vec<ParadeAction> {
        if seat != PLAYER {
            return Vec::new();
        }
        self.actions()
    }

    fn describe_action(&self, _seat: Seat, action: &ParadeAction) -> ActionInfo {
        let mut info = action.info();
        if let ParadeAction::Order(order) = action {
            info.label = Some(format!(
                "The {} on {} moves the {} {}-{}",
                self.piece_name_at(order.by),
                order.by,
                self.piece_name_at(order.from),
                order.from,
                order.to
            ));
        }
        info
    }

    fn apply_with(&mut self, seat: Seat, action: &ParadeAction, story: &mut Journal) -> Result<(), RuleError> {
        self.check_turn(seat)?;
        match *action {
            ParadeAction::Order(order) => self.give_order(order, story)?,
            ParadeAction::Add => self.add_piece(story)?,
        }
        self.start_negative_count_if_due(story);
        if let Some(outcome) = self.outcome() {
            story.public_with(None, || {
                let score = outcome.scores.as_deref().and_then(<[i64]>::first).copied().unwrap_or_default();
                format!("Game over: {} with a score of {score}", outcome.reason)
            });
        }
        Ok(())
    }

    fn view(&self, viewer: Viewer) -> View {
        let mut zones = vec![
            CardZone { name: "hand".to_string(), owner: Some(PLAYER), cards: Vec::new(), hidden: self.hand.len() },
            CardZone {
                name: "discard (face up)".to_string(),
                owner: None,
                cards: self.discard.iter().map(|c| c.to_string()).collect(),
                hidden: 0,
            },
            CardZone {
                name: "orders (face down)".to_string(),
                owner: None,
                cards: Vec::new(),
                hidden: self.face_down.len(),
            },
        ];
        if let Some(spent) = self.negative {
            zones.push(CardZone {
                name: "negative cards left".to_string(),
                owner: Some(PLAYER),
                cards: Vec::new(),
                hidden: (NEGATIVE_CARDS - spent.min(NEGATIVE_CARDS)) as usize,
            });
        }
        View {
            board: Some(BoardView::from_board(&self.board, Bitboard::FULL, &|_| Vec::new())),
            zones,
            tables: vec![self.score_table()],
            prompt: self.prompt(viewer),
            last_move: self
                .last_move
                .map_or_else(Vec::new, |(from, to)| from.into_iter().chain([to]).map(|sq| sq.to_string()).collect()),
            ..View::default()
        }
    }

    /// The score now, less half a point for each group beyond one, then a
    /// little for how scattered the pieces are: the computer's way
    /// towards forming up while cards are left. (Without it the search
    /// read the material of the view, which means nothing here, and spent
    /// every negative card.)
    // The key of everything the rules read, the hidden hand included (the
    // search plays drawn worlds); the move log is left out.
    fn position_hash(&self) -> Option<u64> {
        Some(hash_of(&(&self.board, &self.hand, &self.discard, &self.face_down, self.negative)))
    }

    fn heuristic(&self, _seat: Seat) -> Option<f64> {
        let occupied = self.board.occupied();
        let groups = f64::from(groups(occupied));
        Some(self.score() as f64 - (groups - 1.0).max(0.0) * 0.5 - spread(occupied) as f64 * 0.001)
    }

    /// The player knows which cards are in the hand and face down only as
    /// a set: re-deal them at random.
    fn sample_hidden(&self, _seat: Seat, rng: &mut GameRng) -> Self {
        let mut game = self.clone();
        let mut unknown: Vec<Card> = game.hand.iter().chain(&game.face_down).copied().collect();
        // A canonical order first: where the cards really lie must not steer the draw.
        unknown.sort();
        rng.shuffle(&mut unknown);
        game.face_down = unknown.split_off(game.hand.len());
        game.hand = unknown;
        game
    }
}

impl ParadeGame {
    fn score_table(&self) -> TableView {
        let cards = match self.negative {
            None => self.hand.len().to_string(),
            Some(spent) => format!("0 (negative: {spent})"),
        };
        TableView {
            title: "Parade".to_string(),
            columns: vec!["Cards in hand".to_string(), "Groups".to_string(), "Score if formed now".to_string()],
            rows: vec![vec![cards, groups(self.board.occupied()).to_string(), self.score().to_string()]],
            drawn_as: None,
        }
    }

    fn prompt(&self, viewer: Viewer) -> Option<String> {
        if viewer != Viewer::Seat(PLAYER) || self.outcome().is_some() {
            return None;
        }
        Some(match self.negative {
            None => format!(
                "Spend a card ({} left): a piece moves an opposite-coloured piece between squares it attacks, or add the next piece",
                self.hand.len()
            ),
            Some(spent) => format!("Negative points: {spent}. Move pieces until they form one group (no adding)"),
        })
    }
}
