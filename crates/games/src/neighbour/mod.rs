//! Neighbour Chess Solitaire (new-rules-2025, "Neighbour Chess Solitaire";
//! docs/games/neighbour.md, "Rulings"): one player adds the pieces as two decks
//! of cards say, then moves them, each with a move borrowed from a
//! same-coloured neighbour, until they form one connected group. The score is
//! the cards left in the two draw piles.
//!
//! * **Setup** ([`NeighbourGame::setup`]): the 16-card pieces deck (Appendix
//!   A without pawns) and the 20-card positions deck (2 to 6 of each suit),
//!   each shuffled from the seed.
//! * **Adding** ([`NeighbourGame::add`], [`NeighbourGame::place`]): flip a
//!   piece card and a position card; the piece goes that many squares right
//!   (red) or up (black) from the last piece added (from a1 for the first),
//!   wrapping around the edge; on an occupied square it goes to one of the
//!   nearest empty squares, which the player chooses. After any piece the
//!   player may **stop** ([`NeighbourGame::stop`]).
//! * **Moving** ([`NeighbourGame::move_piece`]): spend a card, then move a
//!   piece with the move of a same-coloured neighbour.
//! * **Game end** ([`NeighbourGame::outcome`]): one connected group of all
//!   the pieces (all eight neighbours connect) wins, scoring the cards left
//!   in the draw piles; a player who cannot move has lost.
//!
//! Rulings of our own are in docs/games/neighbour.md.

mod action;
pub mod rules;
mod text;

#[cfg(test)]
mod tests;

use crate::clone_fields::clone_field_by_field;
use chesskit_core::cards::{Card, Deck};
use chesskit_core::chess::diagram::role_name;
use chesskit_core::game::{Game, GameAction, GameError, Outcome, RuleError, Seat, SeatInfo, ToAct, Viewer};
use chesskit_core::options::Options;
use chesskit_core::rng::GameRng;
use chesskit_core::search_node::hash_of;
use chesskit_core::view::{ActionInfo, BoardView, CardZone, Corner, Journal, Marker, MarkerDrawing, View};
use shakmaty::{Bitboard, Board, Piece, Square};

pub use action::NeighbourAction;
use rules::{destinations, each_move, held_square, is_one_group, landing_squares, target_square};

/// Where the game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// The first part of the game: add the next piece, or stop adding.
    Adding,
    /// The piece just flipped was sent to an occupied square: the player
    /// chooses one of the nearest empty squares.
    Placing,
    /// The second part: spend a card and move a piece, until one group.
    Moving,
}

/// A game of Neighbour Chess Solitaire.
#[derive(Debug, PartialEq)]
pub struct NeighbourGame {
    pub(crate) board: Board,
    /// The pieces deck, face down (top last).
    pub(crate) pieces: Deck,
    /// The positions deck, face down (top last).
    pub(crate) positions: Deck,
    /// The piece cards flipped, in order (face up; top last).
    pub(crate) pieces_discard: Vec<Card>,
    /// The position cards flipped, in order (face up; top last).
    pub(crate) positions_discard: Vec<Card>,
    /// The cards spent on moves, face down, in order.
    pub(crate) spent: Vec<Card>,
    /// The square of the last piece added.
    pub(crate) last: Option<Square>,
    pub(crate) phase: Phase,
    /// The last move, for the view.
    pub(crate) last_move: Option<(Square, Square)>,
}

// `clone_from` reuses the decks' and piles' allocations: the search
// rewrites a copy per child (crates/games/src/clone_fields.rs).
clone_field_by_field!(NeighbourGame {
    board,
    pieces,
    positions,
    pieces_discard,
    positions_discard,
    spent,
    last,
    phase,
    last_move
});

/// The only seat.
const PLAYER: Seat = 0;

fn piece_words(piece: Piece) -> String {
    format!("{} {}", piece.color.fold_wb("white", "black"), role_name(piece.role))
}

fn card_piece(card: Card) -> Piece {
    card.piece().expect("the pieces deck holds only piece cards")
}

impl NeighbourGame {
    /// Setup: "shuffle each deck and place them next to the board as the
    /// two draw piles." The pieces deck is shuffled first, then the
    /// positions deck, both from the game's seed.
    fn setup(seed: u64) -> NeighbourGame {
        let mut rng = GameRng::from_seed(seed);
        let pieces = Deck::shuffled(rules::pieces_deck(), &mut rng);
        let positions = Deck::shuffled(rules::positions_deck(), &mut rng);
        NeighbourGame {
            board: Board::empty(),
            pieces,
            positions,
            pieces_discard: Vec::new(),
            positions_discard: Vec::new(),
            spent: Vec::new(),
            last: None,
            phase: Phase::Adding,
            last_move: None,
        }
    }

    /// The board as it stands.
    pub fn board(&self) -> &Board {
        &self.board
    }

    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The square of the last piece added, which the next one starts from.
    pub fn last_added(&self) -> Option<Square> {
        self.last
    }

    /// The piece cards still to come, next first (the solver plans with them).
    pub fn pieces_to_come(&self) -> Vec<Card> {
        self.pieces.cards().iter().rev().copied().collect()
    }

    /// The position cards still to come, next first.
    pub fn positions_to_come(&self) -> Vec<Card> {
        self.positions.cards().iter().rev().copied().collect()
    }

    /// The cards left in the two draw piles: the score if the pieces formed
    /// one group now.
    pub fn cards_left(&self) -> usize {
        self.pieces.len() + self.positions.len()
    }

    /// How many moves were made (one card spent for each).
    pub fn moves_made(&self) -> usize {
        self.spent.len()
    }

    /// The square the piece being placed was sent to (occupied).
    pub fn placing_target(&self) -> Option<Square> {
        let card = self.positions_discard.last()?;
        (self.phase == Phase::Placing).then(|| target_square(held_square(self.last), *card))
    }

    /// The piece waiting to be placed.
    pub fn placing_piece(&self) -> Option<Piece> {
        (self.phase == Phase::Placing).then(|| self.pieces_discard.last().map(|c| card_piece(*c))).flatten()
    }

    /// Adding, steps 1 to 4: flip the top card of each deck and add the
    /// piece on its square, or wait for the player's choice (step 5) when
    /// that square is occupied and more than one empty square is nearest.
    fn add(&mut self, story: &mut Journal) {
        let piece_card = self.pieces.draw().expect("add is offered only while the pieces deck has cards");
        let position_card = self.positions.draw().expect("the positions deck outlasts the pieces deck");
        self.pieces_discard.push(piece_card);
        self.positions_discard.push(position_card);
        let piece = card_piece(piece_card);
        let held = held_square(self.last);
        let target = target_square(held, position_card);
        let way = if rules::is_red(position_card) { "right" } else { "up" };
        story.public_with(Some(PLAYER), || {
            format!(
                "Flipped {piece_card} (the {}) and {position_card}: {} {way} from {held} is {target}",
                piece_words(piece),
                position_card.rank
            )
        });
        let landing = landing_squares(self.board.occupied(), target);
        match landing.single_square() {
            Some(sq) => self.put(piece, sq, story),
            None => {
                story.public_with(Some(PLAYER), || {
                    format!("{target} is taken: choose one of {}", squares_text(landing))
                });
                self.phase = Phase::Placing;
            }
        }
    }

    /// Adding, step 5: the player puts the flipped piece on one of the
    /// nearest empty squares around its occupied target.
    fn place(&mut self, sq: Square, story: &mut Journal) {
        let piece = self.placing_piece().expect("place is offered only while placing");
        self.put(piece, sq, story);
    }

    fn put(&mut self, piece: Piece, sq: Square, story: &mut Journal) {
        self.board.set_piece_at(sq, piece);
        self.last = Some(sq);
        self.phase = Phase::Adding;
        story.public_with(Some(PLAYER), || format!("Added the {} on {sq}", piece_words(piece)));
    }

    /// "After adding any piece, you may choose to stop adding and try to
    /// move the pieces into one connected group."
    fn stop(&mut self, story: &mut Journal) {
        self.phase = Phase::Moving;
        story.public_with(Some(PLAYER), || {
            format!("Stopped adding with {} on the board", plural(self.board.occupied().count(), "piece"))
        });
    }

    /// What stopping now means, in words: no piece is added again, the
    /// moving part starts, and, when the pieces as they stand cannot go on
    /// (one piece alone has no neighbour to borrow a move from), that the
    /// game ends at once with 0 points, and why.
    fn stop_warning(&self) -> String {
        let pieces = plural(self.board.occupied().count(), "piece");
        let meaning = format!(
            "Stop adding with {pieces} on the board? No piece is added again: from now on each move spends a card, \
             and you win when every piece is in one connected group."
        );
        let mut stopped = self.clone();
        stopped.stop(&mut Journal::muted());
        match stopped.outcome() {
            Some(outcome) if outcome.winners.is_empty() => {
                format!("{meaning} Stopping now ends the game at once with 0 points: {}.", outcome.reason)
            }
            _ => meaning,
        }
    }

    /// Moving, steps 1 and 2: "spend a card from one of the draw piles to a
    /// discard pile", then move the piece with a borrowed move. The card is
    /// taken from the pieces deck while it lasts (which pile pays never
    /// matters once adding has stopped: docs/games/neighbour.md).
    fn move_piece(&mut self, from: Square, to: Square, story: &mut Journal) {
        let card =
            self.pieces.draw().or_else(|| self.positions.draw()).expect("a move is offered only with a card to spend");
        self.spent.push(card);
        let piece = self.board.remove_piece_at(from).expect("a move starts on a piece");
        self.board.set_piece_at(to, piece);
        self.last_move = Some((from, to));
        story.public_with(Some(PLAYER), || {
            format!("Spent a card ({} left); {} {from}–{to}", self.cards_left(), piece_words(piece))
        });
    }

    /// Game end: one group wins with the cards left; in the moving part, no
    /// card to spend or no piece able to move loses (score 0).
    pub fn outcome(&self) -> Option<Outcome> {
        if self.is_won() {
            let score = self.cards_left() as i64;
            return Some(Outcome::win(vec![PLAYER], "one connected group").with_scores(vec![score]));
        }
        let reason = self.why_lost()?;
        Some(Outcome { winners: Vec::new(), reason: reason.to_string(), scores: Some(vec![0]) })
    }

    /// Whether the game is over, without building its outcome: asked
    /// before every action and at every node of a search.
    fn is_over(&self) -> bool {
        self.is_won() || self.why_lost().is_some()
    }

    /// Whether the pieces, all placed, form one connected group.
    fn is_won(&self) -> bool {
        self.phase != Phase::Placing && is_one_group(self.board.occupied())
    }

    /// Why the game is lost, if it is (no card or no move left while moving).
    fn why_lost(&self) -> Option<&'static str> {
        if self.phase != Phase::Moving {
            None
        } else if self.cards_left() == 0 {
            Some("no card left to spend")
        } else if each_move(&self.board).next().is_none() {
            Some("no piece can move")
        } else {
            None
        }
    }

    /// The legal actions, into `actions` (cleared first, its allocation
    /// kept: the search lists them at every node).
    fn actions_into(&self, actions: &mut Vec<NeighbourAction>) {
        actions.clear();
        if self.is_over() {
            return;
        }
        match self.phase {
            Phase::Adding => {
                if !self.pieces.is_empty() {
                    actions.push(NeighbourAction::Add);
                }
                if self.board.occupied().any() {
                    actions.push(NeighbourAction::Stop);
                }
            }
            Phase::Placing => {
                let target = self.placing_target().expect("placing has a target");
                actions.extend(landing_squares(self.board.occupied(), target).into_iter().map(NeighbourAction::Place));
            }
            Phase::Moving => {
                actions.extend(each_move(&self.board).map(|(from, to)| NeighbourAction::Move { from, to }));
            }
        }
    }

    /// Whether `action` is one of [`NeighbourGame::actions`], asked without
    /// listing them (a search applies an action at every node).
    fn allows(&self, action: &NeighbourAction) -> bool {
        if self.is_over() {
            return false;
        }
        match (self.phase, *action) {
            (Phase::Adding, NeighbourAction::Add) => !self.pieces.is_empty(),
            (Phase::Adding, NeighbourAction::Stop) => self.board.occupied().any(),
            (Phase::Placing, NeighbourAction::Place(sq)) => {
                self.placing_target().is_some_and(|target| landing_squares(self.board.occupied(), target).contains(sq))
            }
            (Phase::Moving, NeighbourAction::Move { from, to }) => destinations(&self.board, from).contains(to),
            _ => false,
        }
    }

    /// Why `action` may not be taken now, naming the rule.
    fn refusal(&self, action: &NeighbourAction) -> String {
        match (self.phase, action) {
            (Phase::Placing, _) => {
                let target = self.placing_target().expect("placing has a target");
                format!(
                    "the {} was sent to {target}, which is taken: place it on one of the nearest empty squares ({})",
                    self.placing_piece().map(piece_words).unwrap_or_default(),
                    squares_text(landing_squares(self.board.occupied(), target))
                )
            }
            (Phase::Adding, NeighbourAction::Add) => "the pieces deck is empty: stop adding".to_string(),
            (Phase::Adding, NeighbourAction::Stop) => "add at least one piece before you stop adding".to_string(),
            (Phase::Adding, _) => "you are adding pieces: add or stop".to_string(),
            (Phase::Moving, NeighbourAction::Move { from, to }) => self.move_refusal(*from, *to),
            (Phase::Moving, _) => "you stopped adding: move a piece".to_string(),
        }
    }

    fn move_refusal(&self, from: Square, to: Square) -> String {
        let Some(piece) = self.board.piece_at(from) else { return format!("there is no piece on {from}") };
        if self.board.occupied().contains(to) {
            return format!("{to} is occupied, and nothing is captured");
        }
        if (crate::borrowed::lenders(from, self.board.by_color(piece.color))).is_empty() {
            return format!(
                "the {} on {from} has no same-coloured neighbour to borrow a move from",
                piece_words(piece)
            );
        }
        let reach = destinations(&self.board, from);
        format!(
            "the {} on {from} cannot reach {to} with its neighbours' moves (it can reach {})",
            piece_words(piece),
            if reach.is_empty() { "no square".to_string() } else { squares_text(reach) }
        )
    }

    fn prompt(&self) -> Option<String> {
        if self.is_over() {
            return None;
        }
        Some(match self.phase {
            Phase::Adding if self.pieces.is_empty() => "Every piece is on the board: stop adding.".to_string(),
            Phase::Adding if self.board.occupied().is_empty() => "Add the first piece.".to_string(),
            Phase::Adding => "Add another piece, or stop adding and move them into one group.".to_string(),
            Phase::Placing => format!(
                "{} is taken: place the {} on one of the nearest empty squares.",
                self.placing_target().expect("placing has a target"),
                self.placing_piece().map(piece_words).unwrap_or_default()
            ),
            Phase::Moving => format!(
                "Move a piece with a same-coloured neighbour's move ({} to spend).",
                plural(self.cards_left(), "card")
            ),
        })
    }

    fn markers(&self, sq: Square) -> Vec<Marker> {
        let mut markers = Vec::new();
        if self.phase == Phase::Placing && self.placing_target() == Some(sq) {
            // A ring around the taken square the piece was sent to.
            markers.push(Marker::new("chosen").text("target").drawn(MarkerDrawing::ring("green")));
        }
        if self.phase != Phase::Moving && self.last == Some(sq) {
            let badge = MarkerDrawing::badge(Corner::TopLeft, "#455a64", "last");
            markers.push(Marker::new("label").text("last").drawn(badge));
        }
        markers
    }

    fn cards_zone(name: &str, cards: &[Card]) -> CardZone {
        CardZone { name: name.to_string(), owner: None, cards: cards.iter().map(Card::to_string).collect(), hidden: 0 }
    }

    fn pile_zone(name: &str, count: usize) -> CardZone {
        CardZone { name: name.to_string(), owner: None, cards: Vec::new(), hidden: count }
    }
}

fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}

fn squares_text(squares: Bitboard) -> String {
    squares.into_iter().map(|sq| sq.to_string()).collect::<Vec<_>>().join(", ")
}

impl Game for NeighbourGame {
    type Action = NeighbourAction;

    const VARIANT: &'static str = "neighbour";
    const TITLE: &'static str = "Neighbour Chess Solitaire";

    fn new(_options: &Options, seed: u64) -> Result<Self, GameError> {
        Ok(NeighbourGame::setup(seed))
    }

    fn from_position(position: &str, _options: &Options, _seed: u64) -> Result<Self, GameError> {
        text::read(position)
    }

    fn position(&self) -> String {
        text::write(self)
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

    fn first_to_act(&self) -> Option<Seat> {
        (!self.is_over()).then_some(PLAYER)
    }

    fn is_to_act(&self, seat: Seat) -> bool {
        seat == PLAYER && !self.is_over()
    }

    fn legal_actions_into(&self, seat: Seat, into: &mut Vec<NeighbourAction>) {
        if seat == PLAYER {
            self.actions_into(into);
        } else {
            into.clear();
        }
    }

    /// "Stop adding" is for good, and may lose at once: the player is told
    /// what it means and asked first (see [`NeighbourGame::stop_warning`]).
    fn describe_action(&self, _seat: Seat, action: &NeighbourAction) -> ActionInfo {
        let mut info = action.info();
        if *action == NeighbourAction::Stop {
            info.confirm = Some(self.stop_warning());
        }
        info
    }

    fn apply_with(&mut self, seat: Seat, action: &NeighbourAction, story: &mut Journal) -> Result<(), RuleError> {
        self.check_turn(seat)?;
        if !self.allows(action) {
            return Err(RuleError::illegal(action, self.refusal(action)));
        }
        match *action {
            NeighbourAction::Add => self.add(story),
            NeighbourAction::Place(sq) => self.place(sq, story),
            NeighbourAction::Stop => self.stop(story),
            NeighbourAction::Move { from, to } => self.move_piece(from, to, story),
        }
        if let Some(outcome) = self.outcome() {
            story.public_with(None, || {
                let score = outcome.scores.as_ref().and_then(|s| s.first()).copied().unwrap_or(0);
                if outcome.winners.is_empty() {
                    format!("Lost: {}", outcome.reason)
                } else {
                    format!("Won: one connected group, scoring {}", plural(score as usize, "point"))
                }
            });
        }
        Ok(())
    }

    fn view(&self, _viewer: Viewer) -> View {
        let board = BoardView::from_board(&self.board, Bitboard::FULL, &|sq| self.markers(sq));
        View {
            seats: self.seats(),
            board: Some(board),
            zones: vec![
                NeighbourGame::pile_zone("Pieces deck", self.pieces.len()),
                NeighbourGame::cards_zone("Pieces discard", &self.pieces_discard),
                NeighbourGame::pile_zone("Positions deck", self.positions.len()),
                NeighbourGame::cards_zone("Positions discard", &self.positions_discard),
                NeighbourGame::pile_zone("Spent", self.spent.len()),
            ],
            notes: vec![format!(
                "Cards left in the draw piles: {} (the score if the pieces form one group now).",
                self.cards_left()
            )],
            prompt: self.prompt(),
            last_move: self.last_move.map(|(a, b)| vec![a.to_string(), b.to_string()]).unwrap_or_default(),
            ..View::default()
        }
    }

    /// The cards left (the score of a win), less half a point for each
    /// group beyond one: the search's way towards one group.
    // The key of everything the rules read, the face-down decks included
    // (the search plays drawn worlds); the last move only marks the view.
    fn position_hash(&self) -> Option<u64> {
        let decks = (self.pieces.cards(), self.positions.cards());
        let flipped = (&self.pieces_discard, &self.positions_discard, &self.spent);
        Some(hash_of(&(&self.board, decks, flipped, self.last, self.phase)))
    }

    fn heuristic(&self, _seat: Seat) -> Option<f64> {
        let groups = rules::groups(self.board.occupied()) as f64;
        Some(self.cards_left() as f64 - (groups - 1.0).max(0.0) * 0.5)
    }

    /// The order of the cards still face down (the two decks and the spent
    /// cards) is the only secret: re-deal the unseen cards of each deck.
    fn sample_hidden(&self, _seat: Seat, rng: &mut GameRng) -> Self {
        let mut game = self.clone();
        let unseen =
            |deck: Vec<Card>, seen: &[Card]| -> Vec<Card> { deck.into_iter().filter(|c| !seen.contains(c)).collect() };
        let mut pieces = unseen(rules::pieces_deck(), &self.pieces_discard);
        let mut positions = unseen(rules::positions_deck(), &self.positions_discard);
        rng.shuffle(&mut pieces);
        rng.shuffle(&mut positions);
        let spent_pieces = pieces.split_off(self.pieces.len());
        let spent_positions = positions.split_off(self.positions.len());
        game.pieces = Deck::new(pieces);
        game.positions = Deck::new(positions);
        game.spent = spent_pieces.into_iter().chain(spent_positions).collect();
        game
    }
}
