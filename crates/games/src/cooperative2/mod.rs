//! Cooperative Chess 2 (new-rules-2025, "Cooperative Chess 2"; docs/games/cooperative2.md,
//! "Rulings").
//!
//! "You team up against the game itself. A line of cards limits what you
//! can capture, and you work together to capture as many pieces as you
//! can, with bonus points for each type of piece you eliminate." Two seats,
//! White and Black, on one team; or one seat playing both colours (the
//! solitaire, option `players=1`). A turn (docs/games/cooperative2.md):
//!
//! 1. **play a card** from the hand to the end of the face-up line (in the
//!    solitaire: draw one and add it);
//! 2. **may make a non-capturing chess move**;
//! 3. **may make capturing moves**, each allowed by a card like the
//!    capturing piece beside a card like the captured piece in the line,
//!    whose card then goes to the discard pile, by any pieces;
//! 4. **draw** back to two cards. King cards go to the line on sight.
//!
//! Capturing a king ends the game: a point per piece captured, ten per
//! piece type gone from the board; under 32 is a loss, and so is running
//! out of cards.
//!
//! * [`line`]: the card rules (matching, the score), shared with the solver.
//! * [`action`]: the action texts. [`text`]: the text position.

pub mod action;
mod captures;
mod estimate;
pub mod line;
mod text;

#[cfg(test)]
mod tests;

use crate::chess::colour_word;
use chesskit_core::cards::{piece_deck, Card};
use chesskit_core::chess::diagram::role_name;
use chesskit_core::chess::fen::{self, CastlingNotation};
use chesskit_core::chess::notation::{parse_san, CastlingStyle, UciAction};
use chesskit_core::chess::{Color, Move, MoveList, Piece, Position, Role, Square};
use chesskit_core::game::{Game, GameAction, GameError, Outcome, RuleError, Seat, SeatInfo, ToAct, Viewer};
use chesskit_core::options::{OptionSpec, Options};
use chesskit_core::rng::GameRng;
use chesskit_core::search_node::hash_of;
use chesskit_core::view::{ActionInfo, BoardView, CardZone, Journal, TableView, View};

use crate::clone_fields::clone_field_by_field;
use crate::cooperative::stack::CardStack;
pub use action::{ChessStep, Coop2Action};
use captures::{legal_captures_on, LineFacts};
pub use line::{capture_cards, captured, like, score, types_removed, WINNING_SCORE};

/// Cards in a full hand.
pub const HAND: usize = 2;

/// The part of a turn still open.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Step {
    /// Step 1: play a card from the hand (two seats only).
    Play,
    /// Step 2 (and 3): the card is played; a non-capturing move, a
    /// capture or the end of the turn may follow.
    Move,
    /// Step 3: after a move of this turn, only captures or the end.
    Capture,
}

/// A game of Cooperative Chess 2.
#[derive(Debug, PartialEq)]
pub struct Cooperative2Game {
    /// The board; its side to move is the colour whose turn it is, and its
    /// en passant square the one open to that colour now.
    pub(crate) pos: Position,
    /// One seat playing both colours, no hands.
    pub(crate) solitaire: bool,
    /// White's hand, then Black's (empty in the solitaire).
    pub(crate) hands: [CardStack; 2],
    /// The draw pile, top card last. Its order is hidden from everyone.
    pub(crate) pile: CardStack,
    /// The face-up line, from the end by the draw pile.
    pub(crate) line: CardStack,
    pub(crate) discard: CardStack,
    pub(crate) step: Step,
    /// The en passant square the other colour's last double step opened
    /// for this whole turn.
    pub(crate) turn_ep: Option<Square>,
    /// The square behind a pawn this colour advanced two squares this turn,
    /// the other colour's en passant square next turn.
    pub(crate) double_step: Option<Square>,
    outcome: Option<Outcome>,
    /// The squares of the last chess step, for the view (a pair of
    /// squares rather than text, so that copying a game allocates nothing).
    last_move: Option<(Square, Square)>,
}

// `clone_from` reuses the outcome's allocations: the search rewrites a
// copy per child (crates/games/src/clone_fields.rs).
clone_field_by_field!(Cooperative2Game {
    pos,
    solitaire,
    hands,
    pile,
    line,
    discard,
    step,
    turn_ep,
    double_step,
    outcome,
    last_move
});

fn index(colour: Color) -> usize {
    colour.fold_wb(0, 1)
}

fn piece_words(piece: Piece) -> String {
    format!("{} {}", colour_word(piece.color), role_name(piece.role))
}

fn card_piece(card: Card) -> Piece {
    card.piece().expect("the 32 piece cards stand for pieces")
}

// ----------------------------------------------------------------------
// Setup
// ----------------------------------------------------------------------

impl Cooperative2Game {
    /// "One player stands the chess pieces in the standard start position.
    /// Meanwhile, the other player shuffles the 32 cards, deals 2 to each
    /// player, and places the rest of the cards next to the board as a
    /// draw pile." The solitaire deals no hands. White plays first.
    pub fn deal(solitaire: bool, seed: u64, story: &mut Journal) -> Cooperative2Game {
        let mut pile = piece_deck();
        GameRng::from_seed(seed).shuffle(&mut pile);
        let mut game = Cooperative2Game {
            pos: Position::startpos(),
            solitaire,
            hands: [CardStack::new(); 2],
            pile: pile.into(),
            line: CardStack::new(),
            discard: CardStack::new(),
            step: Step::Play,
            turn_ep: None,
            double_step: None,
            outcome: None,
            last_move: None,
        };
        if !solitaire {
            for colour in Color::ALL {
                game.refill_hand(colour, story);
            }
        }
        game.start_turn(Color::White, story);
        game
    }

    /// "If you ever draw or deal a king card, immediately add it to the
    /// face-up line and draw a replacement card." The first card that is
    /// not a king, if the pile holds one.
    fn draw(&mut self, story: &mut Journal) -> Option<Card> {
        loop {
            let card = self.pile.pop()?;
            if card_piece(card).role != Role::King {
                return Some(card);
            }
            self.line.push(card);
            story.public_with(None, || format!("A king card, {card}, is drawn and goes to the face-up line"));
        }
    }

    /// Step 4: "draw a card to bring your hand back to 2, unless the draw
    /// pile is empty". Also the deal.
    fn refill_hand(&mut self, colour: Color, story: &mut Journal) {
        while self.hands[index(colour)].len() < HAND {
            let Some(card) = self.draw(story) else { break };
            self.hands[index(colour)].push(card);
            let seat = self.seat_of(colour);
            story.private_with(&[seat], Some(seat), || format!("You draw {card} ({})", piece_words(card_piece(card))));
            story.public_with(Some(seat), || format!("{} draws a card", capitalised(colour_word(colour))));
        }
    }

    pub fn is_solitaire(&self) -> bool {
        self.solitaire
    }

    pub fn position_now(&self) -> &Position {
        &self.pos
    }

    pub fn line(&self) -> &[Card] {
        &self.line
    }

    pub fn discard(&self) -> &[Card] {
        &self.discard
    }

    /// The draw pile, top card last (the whole truth).
    pub fn pile(&self) -> &[Card] {
        &self.pile
    }

    pub fn hand(&self, colour: Color) -> &[Card] {
        &self.hands[index(colour)]
    }

    /// The cards still to play: both hands and the draw pile.
    pub fn cards_left(&self) -> usize {
        self.pile.len() + self.hands.iter().map(|hand| hand.len()).sum::<usize>()
    }

    pub fn step(&self) -> Step {
        self.step
    }

    /// The colour whose turn it is.
    pub fn turn(&self) -> Color {
        self.pos.turn()
    }

    /// The seat that plays `colour`: White 0 and Black 1, or the one seat
    /// of the solitaire.
    pub fn seat_of(&self, colour: Color) -> Seat {
        if self.solitaire {
            0
        } else {
            index(colour)
        }
    }
}

fn capitalised(word: &str) -> String {
    let mut chars = word.chars();
    chars.next().map_or_else(String::new, |c| c.to_uppercase().chain(chars).collect())
}

// ----------------------------------------------------------------------
// Play
// ----------------------------------------------------------------------

impl Cooperative2Game {
    /// The start of `colour`'s turn. The solitaire's step 1: "At the
    /// beginning of each turn, draw a card and add it to the face-up line";
    /// with nothing left to draw the cards have run out.
    fn start_turn(&mut self, colour: Color, story: &mut Journal) {
        self.pos.set_turn(colour);
        self.pos.set_ep_square(self.open_ep());
        self.double_step = None;
        self.step = Step::Play;
        if !self.solitaire {
            return;
        }
        match self.draw(story) {
            Some(card) => {
                self.line.push(card);
                story.public_with(Some(0), || {
                    format!("{}'s turn: {card} is drawn to the line", capitalised(colour_word(colour)))
                });
                self.step = Step::Move;
            }
            None => self.out_of_cards(story),
        }
    }

    /// The en passant square open to the side to move: the other colour's
    /// double step of its last turn, while that pawn still stands there.
    fn open_ep(&self) -> Option<Square> {
        open_ep_on(&self.pos, self.turn_ep)
    }

    /// Step 1: "You must play a card from your hand to a face-up line beside
    /// the draw pile. Add to the end away from the draw pile."
    fn play_card(&mut self, card: Card, story: &mut Journal) -> Result<(), RuleError> {
        let action = Coop2Action::Play(card);
        if self.step != Step::Play {
            return Err(RuleError::illegal(action, "this turn's card is already in the line"));
        }
        let us = self.turn();
        let hand = &mut self.hands[index(us)];
        let Some(at) = hand.iter().position(|&c| c == card) else {
            let held = hand.iter().map(|c| c.to_string()).collect::<Vec<_>>().join(" ");
            return Err(RuleError::illegal(action, format!("{card} is not in your hand (you hold {held})")));
        };
        hand.remove(at);
        self.line.push(card);
        self.step = Step::Move;
        story.public_with(Some(self.seat_of(us)), || {
            format!("plays {card} ({}) to the line", piece_words(card_piece(card)))
        });
        Ok(())
    }

    /// The chess moves open now with the cards they move: at step 2 every
    /// legal non-capturing move (a pawn reaches the last rank only as the
    /// promotion rule allows) and the captures the line allows; at step 3
    /// the captures only. "All individual moves must be legal chess moves,
    /// so you may not move a king into check or leave it in check"; a
    /// capture of the enemy king ends the game whatever it leaves.
    pub fn chess_steps(&self) -> Vec<(ChessStep, Move)> {
        let mut moves = MoveList::new();
        self.chess_moves_into(&self.line_facts(), &mut moves);
        // Most moves are one step: room for those at once, not grown step by step.
        let mut steps = Vec::with_capacity(moves.len());
        for &m in &moves {
            self.steps_of_move(m, &mut steps);
        }
        steps
    }

    /// The move of `step` if it is one of [`Self::chess_steps`]: only the
    /// moves it names get their cards listed, as a search applies a step
    /// at every node. A step names its move by its UCI (`uci_of`), so
    /// those moves' steps hold every step equal to it.
    fn move_of_step(&self, step: ChessStep) -> Option<Move> {
        let mut moves = MoveList::new();
        self.chess_moves_into(&self.line_facts(), &mut moves);
        let mut steps = Vec::new();
        for &m in moves.iter().filter(|&&m| uci_of(m) == step.uci) {
            self.steps_of_move(m, &mut steps);
        }
        steps.iter().find(|(s, _)| *s == step).map(|&(_, m)| m)
    }

    /// The steps of move `m` (from [`Self::chess_moves_into`]) with its cards.
    fn steps_of_move(&self, m: Move, steps: &mut Vec<(ChessStep, Move)>) {
        match m.capture() {
            None => {
                let plain = ChessStep { uci: uci_of(m), captured_card: None, pawn_card: None, place: None };
                self.with_promotion(m, plain, &self.line, steps)
            }
            Some(_) => self.capture_steps(m, steps),
        }
    }

    /// The chess moves [`Self::chess_steps`] gives their cards to (each
    /// once, before the cards are chosen), into a list the caller owns: a
    /// capture the line allows no card for is among them and gets no step.
    /// `facts` is what the line allows the side to move ([`Self::line_facts`]).
    fn chess_moves_into(&self, facts: &LineFacts, moves: &mut MoveList) {
        moves.clear();
        if self.outcome.is_some() || self.step == Step::Play {
            return;
        }
        let captures_possible = facts.pairs != 0;
        if self.step == Step::Capture {
            // Only captures may follow: those alone are generated.
            legal_captures_on(&self.pos, facts.pairs, moves);
            return;
        }
        self.pos.legal_moves_into(moves);
        if captures_possible {
            let left_out = self.king_captures_left_out(moves);
            moves.extend(left_out);
        }
    }

    /// The captures of the enemy king that `legal` (the orthodox legal
    /// moves of the board) leaves out, those that leave the own king
    /// attacked, which step 2 allows when the line allows some capture:
    /// "the game ends immediately when you capture a king".
    fn king_captures_left_out(&self, legal: &[Move]) -> Vec<Move> {
        let us = self.pos.turn();
        let mut left_out = Vec::new();
        if let Some(king) = self.pos.king_of(us.other()) {
            if self.pos.is_attacked(king, us) {
                for m in self.pos.pseudo_legal_moves() {
                    if m.capture() == Some(Role::King) && !legal.contains(&m) {
                        left_out.push(m);
                    }
                }
            }
        }
        left_out
    }

    /// How many steps [`Self::chess_steps`] lists, without listing them:
    /// each move counted with its cards by [`LineFacts::steps_of`]. `moves`
    /// is the caller's scratch list.
    pub(crate) fn count_chess_steps(&self, moves: &mut MoveList) -> u64 {
        let facts = self.line_facts();
        self.chess_moves_into(&facts, moves);
        self.steps_of_moves(&facts, moves)
    }

    /// The steps `moves` (from [`Self::chess_moves_into`]) make with their cards.
    fn steps_of_moves(&self, facts: &LineFacts, moves: &[Move]) -> u64 {
        let mut steps = 0;
        for &m in moves {
            steps += match m {
                // Most moves: one step, no cards.
                Move::Normal { capture: None, promotion: None, .. } => 1,
                _ => facts.steps_of(m, |role| self.may_promote_to(role)),
            };
        }
        steps
    }

    /// What the line allows the side to move.
    fn line_facts(&self) -> LineFacts {
        LineFacts::read(&self.line, self.turn())
    }

    /// Whether a card of the side to move's `role` is in the discard pile:
    /// a pawn may become only a piece already captured.
    fn may_promote_to(&self, role: Role) -> bool {
        let piece = role.of(self.turn());
        self.discard.iter().any(|&c| like(c, piece))
    }

    /// The steps of capture `m`: one for each card of the line it may send
    /// to the discard pile (none if the line allows it no card).
    fn capture_steps(&self, m: Move, steps: &mut Vec<(ChessStep, Move)>) {
        let us = self.pos.turn();
        let Some(victim) = m.capture() else { return };
        let plain = ChessStep { uci: uci_of(m), captured_card: None, pawn_card: None, place: None };
        let cards = capture_cards(&self.line, m.role().of(us), victim.of(us.other()));
        for i in bits(cards) {
            let mut after = self.line;
            let card = after.remove(i);
            let step = ChessStep { captured_card: Some(card), ..plain };
            self.with_promotion(m, step, &after, steps);
        }
    }

    /// Step 3's captures ([`legal_captures_on`] with the pairs the line
    /// allows), into a new list, for the tests.
    #[cfg(test)]
    fn legal_captures(&self) -> MoveList {
        let mut moves = MoveList::new();
        legal_captures_on(&self.pos, self.line_facts().pairs, &mut moves);
        moves
    }

    /// "You may only move a pawn to the last rank if it has a matching card
    /// in the face-up line. Promote the pawn to any other piece type that
    /// has already been captured": a move that is no promotion passes as it
    /// is; a promotion once for each pawn card it may discard and each
    /// place its new card may take, if a card of the new piece (type and
    /// colour, ruling in docs/games/cooperative2.md) is in the discard pile.
    fn with_promotion(&self, m: Move, step: ChessStep, line: &[Card], out: &mut Vec<(ChessStep, Move)>) {
        let Some(role) = m.promotion() else {
            out.push((step, m));
            return;
        };
        let us = self.pos.turn();
        if !self.discard.iter().any(|&c| like(c, role.of(us))) {
            return;
        }
        for i in bits(line::cards_like(line, Role::Pawn.of(us))) {
            for place in 0..line.len() {
                out.push((ChessStep { pawn_card: Some(line[i]), place: Some(place), ..step }, m));
            }
        }
    }

    /// Steps 2 and 3: a chess move, its cards, and the end of the game when
    /// it takes a king.
    fn chess_move(&mut self, step: ChessStep, story: &mut Journal) -> Result<(), RuleError> {
        let action = Coop2Action::Move(step);
        if self.step == Step::Play {
            return Err(RuleError::illegal(action, "play a card to the line first (step 1)"));
        }
        let Some(m) = self.move_of_step(step) else {
            return Err(RuleError::illegal(action, self.why_not(step, &self.chess_steps())));
        };
        self.play_step(step, m, story);
        Ok(())
    }

    /// A legal step played: the board, the cards, and then what follows.
    fn play_step(&mut self, step: ChessStep, m: Move, story: &mut Journal) {
        if self.make_step(step, m, story) == Some(false) {
            self.end_turn(story);
        }
    }

    /// [`Self::play_step`] up to the end of the turn that follows by
    /// itself: returns whether any step is open after it (step 3's
    /// captures; false when nothing is left to capture and the turn is to
    /// end), or None when the move took a king and the game is over.
    pub(crate) fn make_step(&mut self, step: ChessStep, m: Move, story: &mut Journal) -> Option<bool> {
        if self.make_move(step, m, story) {
            return None;
        }
        // Nothing left to capture: the turn ends by itself.
        Some(self.count_chess_steps(&mut MoveList::new()) > 0)
    }

    /// The board and the cards of step `step` (move `m`); true when it
    /// took a king and the game is over.
    fn make_move(&mut self, step: ChessStep, m: Move, story: &mut Journal) -> bool {
        let us = self.pos.turn();
        let mover = m.role().of(us);
        self.pos.play_unchecked(m);
        self.pos.set_turn(us);
        if let Some(card) = step.captured_card {
            self.discard_from_line(card);
        }
        if let (Some(pawn_card), Some(place), Some(role)) = (step.pawn_card, step.place, m.promotion()) {
            self.promote(pawn_card, role.of(us), place);
        }
        if let (Role::Pawn, Some(from)) = (m.role(), m.from()) {
            if from.distance(m.to()) == 2 && m.capture().is_none() {
                self.double_step = from.offset(us.fold_wb(8, -8));
            }
        }
        self.forget_pawns_gone();
        self.pos.set_ep_square(self.turn_ep);
        self.step = Step::Capture;
        story.public_with(Some(self.seat_of(us)), || self.describe_step(&step, mover, m));
        self.last_move = Some((step.uci.from, step.uci.to));
        if m.capture() == Some(Role::King) {
            self.king_captured(story);
            return true;
        }
        false
    }

    /// Forget a double step whose pawn has moved on (this turn's, or the
    /// other colour's of its last turn, taken): no pawn comes back to that
    /// square this turn (after the one non-capturing move only captures
    /// follow, and only of the other colour's pieces), so en passant over
    /// it cannot open again, and the text position names only what holds.
    fn forget_pawns_gone(&mut self) {
        self.turn_ep = self.open_ep();
        let us = self.pos.turn();
        let pawn_of = |square: Square| square.offset(us.fold_wb(8, -8));
        self.double_step = self
            .double_step
            .filter(|&square| pawn_of(square).and_then(|p| self.pos.board().piece_at(p)) == Some(Role::Pawn.of(us)));
    }

    /// "Remove the piece from the board, and move the captured piece's card
    /// from the face-up line to the discard pile."
    fn discard_from_line(&mut self, card: Card) {
        if let Some(at) = self.line.iter().position(|&c| c == card) {
            self.discard.push(self.line.remove(at));
        }
    }

    /// "Move the pawn's card from the face-up line to the discard pile,
    /// then find the promoted piece's card in the discard pile, and place
    /// it anywhere in the face-up line."
    fn promote(&mut self, pawn_card: Card, piece: Piece, place: usize) {
        self.discard_from_line(pawn_card);
        if let Some(at) = self.discard.iter().position(|&c| like(c, piece)) {
            let card = self.discard.remove(at);
            self.line.insert(place.min(self.line.len()), card);
        }
    }

    fn why_not(&self, step: ChessStep, steps: &[(ChessStep, Move)]) -> String {
        let us = self.pos.turn();
        let same_move: Vec<String> =
            steps.iter().filter(|(s, _)| s.uci == step.uci).map(|(s, _)| format!("`{s}`")).collect();
        if !same_move.is_empty() {
            return format!("this move needs its cards named: one of {}", same_move.join(", "));
        }
        let board = self.pos.board();
        if board.color_at(step.uci.from) != Some(us) {
            return format!("{} holds no {} piece", step.uci.from, colour_word(us));
        }
        let mut all = self.pos.pseudo_legal_moves();
        all.retain(|m| UciAction::from_move(*m, CastlingStyle::Standard) == step.uci);
        let Some(m) = all.first().copied() else {
            return "not a chess move here".to_string();
        };
        if !self.pos.leaves_king_safe(m) && m.capture() != Some(Role::King) {
            return "it would leave your king in check".to_string();
        }
        if let Some(victim) = m.capture() {
            let capturer = m.role().of(us);
            return format!(
                "no card like the {} lies beside a card like the {} in the face-up line",
                piece_words(capturer),
                piece_words(victim.of(us.other()))
            );
        }
        if self.step == Step::Capture {
            return "after a move of this turn only captures may follow".to_string();
        }
        if let Some(role) = m.promotion() {
            if line::cards_like(&self.line, Role::Pawn.of(us)) == 0 {
                return format!("a pawn reaches the last rank only with a {} pawn card in the line", colour_word(us));
            }
            return format!(
                "a pawn promotes only to a piece already captured: no {} card is in the discard pile",
                piece_words(role.of(us))
            );
        }
        "not a legal move here".to_string()
    }

    /// The end of the moves: step 4, the draw, then the next turn. A
    /// player whose hand is empty once the pile is gone cannot play step 1,
    /// so the partner plays on; when both hands are empty the cards have
    /// run out (our ruling, docs/games/cooperative2.md: "continue playing until you run out of
    /// cards in your hands").
    fn end_turn(&mut self, story: &mut Journal) {
        let us = self.pos.turn();
        if !self.solitaire {
            self.refill_hand(us, story);
        }
        self.turn_ep = self.double_step.take();
        let them = us.other();
        let next = match self.next_colour(us, &self.hands[index(us)]) {
            Some(next) if next == them => them,
            Some(_) => {
                story.public_with(None, || {
                    format!("{} has no card left: {} plays again", capitalised(colour_word(them)), colour_word(us))
                });
                self.turn_ep = None;
                us
            }
            None => {
                self.out_of_cards(story);
                return;
            }
        };
        self.start_turn(next, story);
    }

    /// Who plays after `us`'s turn, `our_hand` being `us`'s hand after
    /// the draw: the other colour, or `us` again when the other hand is
    /// empty, or nobody when both are (the cards have run out).
    fn next_colour(&self, us: Color, our_hand: &[Card]) -> Option<Color> {
        let them = us.other();
        if self.solitaire || !self.hands[index(them)].is_empty() {
            Some(them)
        } else if !our_hand.is_empty() {
            Some(us)
        } else {
            None
        }
    }

    fn end(&mut self, outcome: Outcome, story: &mut Journal) {
        story.public_with(None, || format!("Game over: {}", outcome.reason));
        self.outcome = Some(outcome);
    }

    fn all_seats(&self) -> Vec<Seat> {
        (0..self.seats().len()).collect()
    }

    /// "The game ends immediately when you capture a king. You then get a
    /// point for each piece that you captured, plus ten points for each
    /// piece type that was completely removed from the board, both
    /// colours. ... Anything lower than 32 points is a loss."
    fn king_captured(&mut self, story: &mut Journal) {
        let points = score(self.pos.board());
        let scores = vec![i64::from(points); self.seats().len()];
        let great = if points > 50 { " (great!)" } else { "" };
        let outcome = if points >= WINNING_SCORE {
            Outcome::win(self.all_seats(), &format!("king captured: {points} points{great}"))
        } else {
            Outcome::draw(&format!("king captured: {points} points, under {WINNING_SCORE} is a loss"))
        };
        self.end(outcome.with_scores(scores), story);
    }

    /// "If you run out of cards without capturing a king, you lose": no points
    /// (our ruling, docs/games/cooperative2.md: points are counted only when a
    /// king is taken).
    fn out_of_cards(&mut self, story: &mut Journal) {
        let scores = vec![0; self.seats().len()];
        self.end(Outcome::draw("out of cards without capturing a king: a loss").with_scores(scores), story);
    }
}

/// The UCI action of a move (castling as the king's two-square step),
/// built without the text round trip of `UciAction::from_move`: this runs
/// for every move generated.
fn uci_of(m: Move) -> UciAction {
    match m {
        Move::Castle { king, rook } => {
            let side = shakmaty::CastlingSide::from_king_side(rook.file() > king.file());
            UciAction { from: king, to: Square::from_coords(side.king_to_file(), king.rank()), promotion: None }
        }
        _ => UciAction { from: m.from().unwrap_or(m.to()), to: m.to(), promotion: m.promotion() },
    }
}

/// The en passant square open to the side to move of `pos`: `turn_ep`
/// (the other colour's double step of its last turn), while that pawn
/// still stands there.
fn open_ep_on(pos: &Position, turn_ep: Option<Square>) -> Option<Square> {
    let ep = turn_ep?;
    let us = pos.turn();
    let pawn = ep.offset(us.fold_wb(-8, 8))?;
    (pos.board().piece_at(pawn) == Some(Role::Pawn.of(us.other()))).then_some(ep)
}

/// The positions of the set bits, lowest first.
fn bits(mut set: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (set != 0).then(|| {
            let i = set.trailing_zeros() as usize;
            set &= set - 1;
            i
        })
    })
}

// ----------------------------------------------------------------------
// Describing
// ----------------------------------------------------------------------

impl Cooperative2Game {
    fn describe_step(&self, step: &ChessStep, mover: Piece, m: Move) -> String {
        let mut text = match m {
            Move::Castle { .. } => format!("castles ({})", step.uci),
            _ => format!(
                "{} {}{}{}",
                capitalised(&piece_words(mover)),
                step.uci.from,
                if m.is_capture() { "x" } else { "-" },
                step.uci.to
            ),
        };
        if let Some(card) = step.captured_card {
            text.push_str(&format!(", taking the {} ({card} to the discard pile)", piece_words(card_piece(card))));
        }
        if let (Some(pawn), Some(place), Some(role)) = (step.pawn_card, step.place, m.promotion()) {
            text.push_str(&format!(
                ", promoting to a {} ({pawn} to the discard pile, the {} card placed after {place} line cards)",
                role_name(role),
                role_name(role)
            ));
        }
        text
    }

    fn label(&self, step: &ChessStep, m: Move) -> String {
        let us = self.pos.turn();
        let mover = capitalised(role_name(m.role()));
        let mut text = match m {
            Move::Castle { .. } => format!("Castle {}", step.uci),
            _ => format!("{mover} {}{}{}", step.uci.from, if m.is_capture() { "×" } else { "-" }, step.uci.to),
        };
        if let Some(card) = step.captured_card {
            text.push_str(&format!(", {card} to the discard pile"));
        }
        if let (Some(pawn), Some(place), Some(role)) = (step.pawn_card, step.place, m.promotion()) {
            text.push_str(&format!(
                " = {} ({pawn} out, {} card after {place} line cards)",
                role_name(role),
                piece_words(role.of(us))
            ));
        }
        text
    }
}

// ----------------------------------------------------------------------
// The referee interface
// ----------------------------------------------------------------------

impl Game for Cooperative2Game {
    type Action = Coop2Action;
    const VARIANT: &'static str = "cooperative2";
    const TITLE: &'static str = "Cooperative Chess 2";

    fn option_specs() -> Vec<OptionSpec> {
        vec![OptionSpec::int(
            "players",
            1,
            2,
            2,
            "2: White and Black on one team; 1: the solitaire, one player for both",
        )
        .label("Number of players")]
    }

    /// What the start announces is written to `story`.
    fn open(options: &Options, seed: u64, position: Option<&str>, story: &mut Journal) -> Result<Self, GameError> {
        match position {
            None => Ok(Cooperative2Game::deal(options.int("players", 2) == 1, seed, story)),
            Some(position) => {
                let solitaire = options.int("players", 2) == 1;
                let parts = text::read(position, solitaire)
                    .map_err(|e| GameError::new(format!("bad Cooperative Chess 2 position: {e}")))?;
                let mut game = Cooperative2Game {
                    pos: parts.pos,
                    solitaire,
                    hands: parts.hands.map(Into::into),
                    pile: parts.pile.into(),
                    line: parts.line.into(),
                    discard: parts.discard.into(),
                    step: parts.step,
                    turn_ep: None,
                    double_step: parts.double_step,
                    outcome: None,
                    last_move: None,
                };
                game.turn_ep = game.pos.ep_square();
                game.pos.set_ep_square(game.open_ep());
                if game.turn_ep.is_some() && game.pos.ep_square().is_none() {
                    return Err(GameError::new("bad Cooperative Chess 2 position: no pawn of the other colour stands in front of the en passant square"));
                }
                story.public(None, "Started from a position");
                Ok(game)
            }
        }
    }

    fn position(&self) -> String {
        text::write(self)
    }

    fn seats(&self) -> Vec<SeatInfo> {
        if self.solitaire {
            vec![SeatInfo::new("Player").with_team(0)]
        } else {
            vec![
                SeatInfo::new("White").with_colour("white").with_team(0),
                SeatInfo::new("Black").with_colour("black").with_team(0),
            ]
        }
    }

    fn to_act(&self) -> ToAct {
        match &self.outcome {
            Some(outcome) => ToAct::Over(outcome.clone()),
            None => ToAct::one(self.seat_of(self.turn())),
        }
    }

    fn first_to_act(&self) -> Option<Seat> {
        self.outcome.is_none().then(|| self.seat_of(self.turn()))
    }

    fn is_to_act(&self, seat: Seat) -> bool {
        self.first_to_act() == Some(seat)
    }

    fn legal_actions_into(&self, seat: Seat, into: &mut Vec<Coop2Action>) {
        into.clear();
        if !self.is_to_act(seat) {
            return;
        }
        if self.step == Step::Play {
            let mut hand = self.hands[index(self.turn())].to_vec();
            hand.sort();
            hand.dedup();
            into.extend(hand.into_iter().map(Coop2Action::Play));
            return;
        }
        into.extend(self.chess_steps().into_iter().map(|(s, _)| Coop2Action::Move(s)));
        into.push(Coop2Action::End);
    }

    fn describe_action(&self, _seat: Seat, action: &Coop2Action) -> ActionInfo {
        let mut info = action.info();
        if let Coop2Action::Move(step) = action {
            if let Some((_, m)) = self.chess_steps().into_iter().find(|(s, _)| s == step) {
                info.label = Some(self.label(step, m));
            }
        }
        info
    }

    fn apply_with(&mut self, seat: Seat, action: &Coop2Action, story: &mut Journal) -> Result<(), RuleError> {
        self.check_turn(seat)?;
        match *action {
            Coop2Action::Play(card) => self.play_card(card, story),
            Coop2Action::Move(step) => self.chess_move(step, story),
            Coop2Action::End => {
                if self.step == Step::Play {
                    return Err(RuleError::illegal(action, "you must play a card to the line first (step 1)"));
                }
                self.end_turn(story);
                Ok(())
            }
        }
    }

    /// Moves in UCI or SAN; the cards may be left out when only one choice
    /// fits (`e6d5` for `e6d5 x3h`).
    fn parse_action(&self, _seat: Seat, text: &str) -> Result<Coop2Action, RuleError> {
        let action = match text.trim().parse::<Coop2Action>() {
            Ok(action) => action,
            Err(reason) => {
                let mut words = text.split_whitespace();
                let first = words.next().unwrap_or("");
                let rest: Vec<&str> = words.collect();
                match parse_san(&self.pos, first) {
                    Ok(m) => {
                        let uci = UciAction::from_move(m, CastlingStyle::Standard).to_string();
                        let joined = std::iter::once(uci.as_str()).chain(rest).collect::<Vec<_>>().join(" ");
                        joined.parse().map_err(|e: String| RuleError::malformed(text, e))?
                    }
                    Err(_) => return Err(RuleError::malformed(text, reason)),
                }
            }
        };
        let Coop2Action::Move(step) = action else { return Ok(action) };
        let steps = self.chess_steps();
        let fits = |(s, m): &(ChessStep, Move)| {
            let named = s.uci == step.uci || UciAction::from_move(*m, CastlingStyle::KingTakesRook) == step.uci;
            named
                && step.captured_card.is_none_or(|c| s.captured_card == Some(c))
                && step.pawn_card.is_none_or(|c| s.pawn_card == Some(c))
                && step.place.is_none_or(|p| s.place == Some(p))
        };
        let matching: Vec<ChessStep> = steps.iter().filter(|x| fits(x)).map(|(s, _)| *s).collect();
        match matching.as_slice() {
            [one] => Ok(Coop2Action::Move(*one)),
            _ => Ok(action),
        }
    }

    /// Each seat knows its own hand, the line, the discard pile and the
    /// board; the partner's hand and the draw pile are redrawn from the
    /// cards they hold together (a hand never holds a king).
    fn sample_hidden(&self, seat: Seat, rng: &mut GameRng) -> Self {
        let mut game = self.clone();
        let partner = (!self.solitaire).then(|| index(if seat == 0 { Color::Black } else { Color::White }));
        let mut unknown: Vec<Card> = game.pile.to_vec();
        if let Some(p) = partner {
            unknown.extend(game.hands[p].iter().copied());
        }
        // A canonical order first: where the cards really lie must not steer the draw.
        unknown.sort();
        rng.shuffle(&mut unknown);
        if let Some(p) = partner {
            let wanted = game.hands[p].len();
            let mut hand = Vec::new();
            unknown.retain(|&c| {
                if hand.len() < wanted && card_piece(c).role != Role::King {
                    hand.push(c);
                    false
                } else {
                    true
                }
            });
            hand.sort();
            game.hands[p] = hand.into();
        }
        game.pile = unknown.into();
        game
    }

    // The key of everything the rules read, the hidden pile included (the
    // search plays drawn worlds): pieces, hands, pile, line, discards, the
    // step of the turn and its en passant squares.
    fn position_hash(&self) -> Option<u64> {
        let cards = (&self.hands, &self.pile, &self.line, &self.discard);
        let turn = (self.solitaire, self.step, self.turn_ep, self.double_step);
        Some(self.pos.zobrist() ^ hash_of(&(cards, turn, &self.outcome)))
    }

    /// What the team may still score ([`estimate::estimate`]): the score
    /// so far (what capturing a king now would bring) and what the cards
    /// still to play and the types nearly gone promise, falling as the
    /// last cards go unless a king capture is set up.
    fn heuristic(&self, _seat: Seat) -> Option<f64> {
        Some(estimate::estimate(self))
    }

    fn is_noisy(&self, action: &Coop2Action) -> bool {
        matches!(action, Coop2Action::Move(step) if step.captured_card.is_some() || step.place.is_some())
    }

    fn view(&self, viewer: Viewer) -> View {
        let mut zones = vec![CardZone {
            name: "face-up line".to_string(),
            owner: None,
            cards: self.line.iter().map(|c| c.to_string()).collect(),
            hidden: 0,
        }];
        if !self.solitaire {
            for colour in Color::ALL {
                let seat = self.seat_of(colour);
                let hand = &self.hands[index(colour)];
                let mine = viewer == Viewer::Seat(seat);
                zones.push(CardZone {
                    name: format!("{} hand", colour_word(colour)),
                    owner: Some(seat),
                    cards: if mine { hand.iter().map(|c| c.to_string()).collect() } else { Vec::new() },
                    hidden: if mine { 0 } else { hand.len() },
                });
            }
        }
        zones.push(CardZone { name: "draw pile".to_string(), owner: None, cards: Vec::new(), hidden: self.pile.len() });
        zones.push(CardZone {
            name: "discard pile".to_string(),
            owner: None,
            cards: self.discard.iter().map(|c| c.to_string()).collect(),
            hidden: 0,
        });
        let board = self.pos.board();
        let removed: Vec<&str> = types_removed(board).into_iter().map(role_name).collect();
        let tables = vec![TableView {
            title: "Score".to_string(),
            columns: vec![
                "Captured".to_string(),
                "Types removed".to_string(),
                "Score if a king fell now".to_string(),
                "To win".to_string(),
            ],
            rows: vec![vec![
                captured(board).to_string(),
                if removed.is_empty() { "none".to_string() } else { removed.join(", ") },
                score(board).to_string(),
                format!("{WINNING_SCORE} or more"),
            ]],
            drawn_as: None,
        }];
        let mut view = View {
            board: Some(BoardView::from_board(board, self.pos.mask(), &|_| Vec::new())),
            zones,
            tables,
            last_move: self.last_move.map_or_else(Vec::new, |(from, to)| vec![from.to_string(), to.to_string()]),
            ..View::default()
        };
        if self.outcome.is_none() {
            if self.pos.is_check() {
                view.check = self.pos.king_of(self.turn()).map(|k| k.to_string());
            }
            view.prompt = Some(self.prompt(viewer == Viewer::Seat(self.seat_of(self.turn()))));
        }
        view
    }
}

impl Cooperative2Game {
    fn prompt(&self, mine: bool) -> String {
        let colour = capitalised(colour_word(self.turn()));
        match (self.step, mine) {
            (Step::Play, true) => "Play a card from your hand to the end of the face-up line".to_string(),
            (Step::Move, true) => format!(
                "{colour} to move: a non-capturing move, captures the line allows (a card like the capturer beside a card like the captured piece), or end the turn"
            ),
            (Step::Capture, true) => format!("{colour}: more captures the line allows, or end the turn"),
            (_, false) => format!("{colour} is playing"),
        }
    }
}

/// The FEN of the board part of a position (for the PGN-less export and tests).
pub fn board_fen(game: &Cooperative2Game) -> String {
    fen::to_fen(&game.pos, CastlingNotation::XFen)
}
