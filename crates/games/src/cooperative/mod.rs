//! Cooperative Chess (rules.md and new-rules-2023b.md, "Cooperative Chess";
//! docs/games/cooperative.md, "Rulings").
//!
//! "If you don't like battling your friend across the board, you can team
//! up against the game itself. A hand of cards limits what you can
//! capture, and you work together to eliminate as many *types* of pieces as
//! you can." White and Black are one team; each turn has four steps
//! (docs/games/cooperative.md):
//! 1. you may make a **non-capturing** chess move (`e2e4`);
//! 2. you must **play a card** from your hand to your discard stack (`play 9h`);
//! 3. you may make **capturing** moves with the same piece, if the cards
//!    allow (`e6d5`), or `stop`;
//! 4. the referee **draws** for you, back up to three cards.

mod action;
pub(crate) mod stack;
mod text;

#[cfg(test)]
mod tests;

use crate::chess::{colour_word, seat_of};
use chesskit_core::cards::{piece_deck, Card, Deck};
use chesskit_core::chess::diagram::role_name;
use chesskit_core::chess::fen::{self, CastlingNotation};
use chesskit_core::chess::notation::{long_algebraic, parse_san_among, CastlingStyle, UciAction};
use chesskit_core::chess::pgn::{self, PgnStart};
use chesskit_core::chess::{Bitboard, Board, Color, Move, MoveList, Position, Role, Square};
use chesskit_core::game::{Game, GameError, Outcome, RuleError, Seat, SeatInfo, ToAct, Viewer};
use chesskit_core::options::Options;
use chesskit_core::rng::GameRng;
use chesskit_core::search_node::hash_of;
use chesskit_core::view::{BoardView, CardZone, Journal, TableView, View};
use shakmaty::attacks;

pub use action::CoopAction;
use stack::CardStack;

/// "Deals 3 to each player": the hand a player draws back up to.
pub const HAND_SIZE: usize = 3;

/// How many pieces of each role a chess set holds (both colours), by
/// `Role as usize - 1`: what "completely removed from the board" is
/// measured against in the search's estimate.
const SET: [u32; 6] = [16, 4, 4, 4, 2, 2];

/// Cards left (hands and draw pile) below which the search's estimate
/// shrinks: a king must be taken before the cards run out, or every type
/// removed counts for nothing.
const CARDS_OF_SAFETY: f64 = 16.0;

/// The step of the turn the player to move is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// Step 1: "You may make a non-capturing chess move" (or play a card at once).
    Move,
    /// Step 2: "You must play a card from your hand to your discard stack."
    Play,
    /// Step 3: "You may make multiple capturing chess moves, if the cards allow."
    Capture,
}

/// A game of Cooperative Chess.
#[derive(Clone, Debug, PartialEq)]
pub struct CooperativeGame {
    /// The pieces; its turn is always the mover's, its en passant square unused.
    pub(crate) pos: Position,
    pub(crate) mover: Color,
    pub(crate) phase: Phase,
    /// Each player's hand, White first.
    pub(crate) hands: [CardStack; 2],
    /// The draw pile, top card last.
    pub(crate) deck: CardStack,
    /// "White's discards, Black's discards": top card last.
    pub(crate) discards: [CardStack; 2],
    /// "The captured cards", in the order they were captured.
    pub(crate) captured: CardStack,
    /// "On each turn, all moves must be made with one piece": where that
    /// piece stands, once it has moved this turn.
    pub(crate) piece: Option<Square>,
    /// "A double colour match makes the next capture wild."
    pub(crate) wild_next: bool,
    /// The square the mover may take en passant this turn.
    pub(crate) ep_now: Option<Square>,
    /// The square the partner may take en passant next turn (a double step now).
    pub(crate) ep_next: Option<Square>,
    /// This turn's moves so far, as one PGN token (`Bc8-e6xd5xe4`), for
    /// the log: left empty while the story is muted (a search's copies).
    pub(crate) turn_token: String,
    start: Option<PgnStart>,
    /// The squares of the last move, for the view (squares rather than
    /// text, so that copying a game allocates nothing).
    last_move: Option<(Square, Square)>,
    outcome: Option<Outcome>,
}

fn index(color: Color) -> usize {
    color.fold_wb(0, 1)
}

/// The piece type a card stands for (Appendix A; every card of the
/// 32-card deck stands for one).
fn card_role(card: Card) -> Role {
    card.piece().map_or(Role::Pawn, |p| p.role)
}

/// The colour a card matches: "White pieces match red cards."
fn card_colour(card: Card) -> Color {
    card.suit.colour()
}

// ----------------------------------------------------------------------
// Setup
// ----------------------------------------------------------------------

impl CooperativeGame {
    /// "One player stands the chess pieces in the standard start position.
    /// Meanwhile, the other player shuffles the 32 cards, deals 3 to each
    /// player, and places the rest of the cards next to the board as a draw
    /// pile." The pawns hidden in two hands only decide who sits at White:
    /// the seats are White and Black already.
    fn setup(seed: u64) -> CooperativeGame {
        let mut rng = GameRng::from_seed(seed);
        let mut deck = Deck::shuffled(piece_deck(), &mut rng);
        let white = deck.deal(HAND_SIZE);
        let black = deck.deal(HAND_SIZE);
        CooperativeGame::from_parts(Position::startpos(), Color::White, Phase::Move, [white, black], deck)
    }

    fn from_parts(pos: Position, mover: Color, phase: Phase, hands: [Vec<Card>; 2], deck: Deck) -> CooperativeGame {
        let [white, black] = hands;
        CooperativeGame {
            pos,
            mover,
            phase,
            hands: [white.into(), black.into()],
            deck: deck.cards().into(),
            discards: [CardStack::new(); 2],
            captured: CardStack::new(),
            piece: None,
            wild_next: false,
            ep_now: None,
            ep_next: None,
            turn_token: String::new(),
            start: None,
            last_move: None,
            outcome: None,
        }
    }

    fn seat(&self) -> Seat {
        seat_of(self.mover)
    }

    pub fn board(&self) -> &Board {
        self.pos.board()
    }

    pub fn hand(&self, color: Color) -> &[Card] {
        &self.hands[index(color)]
    }

    pub fn discards(&self, color: Color) -> &[Card] {
        &self.discards[index(color)]
    }

    pub fn captured(&self) -> &[Card] {
        &self.captured
    }

    pub fn phase(&self) -> Phase {
        self.phase
    }
}

// ----------------------------------------------------------------------
// Play: step 1, the non-capturing move
// ----------------------------------------------------------------------

impl CooperativeGame {
    /// "You may make a non-capturing chess move": every move of the mover's
    /// pieces to an empty square (pushes, double steps, promotions by a push,
    /// castling). "You may move a king into check or leave it in check", so no
    /// move is refused for the king's safety, and castling asks only for the
    /// empty path (our ruling, docs/games/cooperative.md: the attack conditions
    /// of castling guard a king that here may stand in check anyway).
    pub fn quiet_moves(&self) -> Vec<Move> {
        let mut moves = MoveList::new();
        self.quiet_moves_into(&mut moves);
        moves.into_iter().collect()
    }

    fn quiet_moves_into(&self, moves: &mut MoveList) {
        self.pos.pseudo_legal_moves_to(!self.pos.board().occupied(), moves);
        self.pos.castling_moves(false, moves);
    }

    /// Step 1 without its log line: play `m` and remember the piece.
    fn make_quiet_move(&mut self, m: Move) {
        self.pos.play_unchecked(m);
        self.pos.set_turn(self.mover);
        self.ep_next = self.pos.ep_square();
        self.pos.set_ep_square(None);
        // Castling is a king move: the king makes the turn's captures.
        self.piece = Some(match m {
            Move::Castle { king, rook } => {
                shakmaty::CastlingSide::from_king_side(rook.file() > king.file()).king_to(self.mover)
            }
            other => other.to(),
        });
        self.phase = Phase::Play;
    }

    /// The non-capturing moves of the piece on `from`: those of
    /// [`CooperativeGame::quiet_moves`] that start there, found without
    /// generating the other pieces' moves (a search applies a move at every
    /// node).
    fn quiet_moves_from(&self, from: Square) -> MoveList {
        let mut moves = MoveList::new();
        self.pos.piece_moves_into(Bitboard::from_square(from), &mut moves);
        moves.retain(|m| !m.is_capture());
        if self.pos.board().kings().contains(from) {
            self.pos.castling_moves(false, &mut moves);
        }
        moves
    }

    fn quiet_move(&mut self, action: UciAction, story: &mut Journal) -> Result<(), RuleError> {
        let shown = CoopAction::Move(action);
        let candidates = self.quiet_moves_from(action.from);
        let Some(m) = action.resolve(&candidates) else {
            return Err(RuleError::illegal(shown, self.why_not_quiet(action)));
        };
        self.make_quiet_move(m);
        // The turn's PGN token is read only when the turn is logged.
        if !story.is_muted() {
            self.turn_token = long_algebraic(m);
        }
        self.last_move = Some((action.from, action.to));
        story.public_with(Some(self.seat()), || long_algebraic(m));
        Ok(())
    }

    fn why_not_quiet(&self, action: UciAction) -> String {
        let board = self.pos.board();
        if board.color_at(action.from) != Some(self.mover) {
            return format!("{} holds no piece of yours", action.from);
        }
        if board.occupied().contains(action.to) {
            return "the move of step 1 may not capture: play a card first, then capture in step 3".to_string();
        }
        "not a move that piece can make".to_string()
    }
}

// ----------------------------------------------------------------------
// Play: step 2, the card
// ----------------------------------------------------------------------

impl CooperativeGame {
    /// Step 2 without its log line.
    fn make_play(&mut self, card: Card) {
        let hand = &mut self.hands[index(self.mover)];
        if let Some(i) = hand.iter().position(|&c| c == card) {
            hand.remove(i);
        }
        self.discards[index(self.mover)].push(card);
        self.phase = Phase::Capture;
    }

    /// "You must play a card from your hand to your discard stack" (playing
    /// it at once skips the optional move of step 1).
    fn play_card(&mut self, card: Card, story: &mut Journal) -> Result<(), RuleError> {
        let shown = CoopAction::Play(card);
        if self.phase == Phase::Capture {
            return Err(RuleError::illegal(shown, "you have played this turn's card already"));
        }
        if !self.hands[index(self.mover)].contains(&card) {
            return Err(RuleError::illegal(shown, format!("you hold no {card}")));
        }
        self.make_play(card);
        story.public_with(Some(self.seat()), || format!("plays the {card} ({})", card_name(card)));
        self.after_play(story);
        Ok(())
    }

    /// With no capture open after the card, the turn ends by itself.
    fn after_play(&mut self, story: &mut Journal) {
        if !self.any_capture() {
            self.end_turn(true, story);
        }
    }
}

fn card_name(card: Card) -> String {
    format!("{} {}", colour_word(card_colour(card)), role_name(card_role(card)))
}

// ----------------------------------------------------------------------
// Play: step 3, the captures
// ----------------------------------------------------------------------

/// Why a capture matches the cards, for the log and the tests.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Match {
    /// The next captured card becomes wild: "both the capturing piece and
    /// the captured piece match the colour of their cards".
    pub double_colour: bool,
}

impl CooperativeGame {
    /// "If you no longer have any pieces of a certain type, then that type
    /// of card is wild on your discard stack": a card on `owner`'s stack
    /// matches any piece when `owner` has no piece of the card's type.
    pub fn wild_on_stack(&self, card: Card, owner: Color) -> bool {
        self.pos.board().by_piece(card_role(card).of(owner)).is_empty()
    }

    /// "The capturing piece must be the same piece type as the card that
    /// the capturing player just played" (or that card is wild).
    fn capturer_matches(&self, role: Role) -> bool {
        match self.discards[index(self.mover)].last() {
            Some(&played) => card_role(played) == role || self.wild_on_stack(played, self.mover),
            None => false,
        }
    }

    /// "The captured piece must be the same piece type as the top card on
    /// the other player's discard stack" (or that card is wild: by the
    /// partner's missing type, or by the double colour match just made).
    fn captured_matches(&self, role: Role) -> bool {
        let partner = self.mover.other();
        match self.discards[index(partner)].last() {
            Some(&top) => self.wild_next || card_role(top) == role || self.wild_on_stack(top, partner),
            None => false,
        }
    }

    /// Whether capturing with the mover's piece matches both cards, and
    /// whether it is a double colour match ("White pieces match red
    /// cards"; the capturer is the mover's colour, the captured the partner's).
    pub fn capture_match(&self, capturer: Role, captured: Role) -> Option<Match> {
        if self.phase != Phase::Capture || !self.capturer_matches(capturer) || !self.captured_matches(captured) {
            return None;
        }
        let played = *self.discards[index(self.mover)].last()?;
        let top = *self.discards[index(self.mover.other())].last()?;
        Some(Match { double_colour: card_colour(played) == self.mover && card_colour(top) == self.mover.other() })
    }

    /// The pieces that may capture now: "all moves must be made with one
    /// piece", so the one that moved this turn, if any.
    fn capturers(&self) -> Bitboard {
        let ours = self.pos.board().by_color(self.mover);
        match self.piece {
            Some(sq) => ours & Bitboard::from_square(sq),
            None => ours,
        }
    }

    /// Every capture the cards allow now: ordinary chess captures of the
    /// partner's pieces (ruling, docs/games/cooperative.md: "captures are
    /// ordinary chess captures of enemy pieces; the cards only restrict
    /// which"), en passant included, a pawn reaching the last rank promoting.
    pub fn captures(&self) -> Vec<Move> {
        let mut moves = MoveList::new();
        self.captures_into(&mut moves);
        moves.into_iter().collect()
    }

    /// [`Self::captures`] into a list that needs no allocation.
    fn captures_into(&self, moves: &mut MoveList) {
        if self.phase != Phase::Capture || self.discards[index(self.mover.other())].is_empty() {
            return;
        }
        let board = self.pos.board();
        let theirs = board.by_color(self.mover.other());
        let occupied = board.occupied();
        let last_rank = Bitboard::from_rank(self.mover.other().backrank());
        for from in self.capturers() {
            let Some(piece) = board.piece_at(from) else { continue };
            if !self.capturer_matches(piece.role) {
                continue;
            }
            for to in self.pos.piece_attacks(from, piece, occupied) & theirs {
                let victim = board.role_at(to).expect("a piece stands there");
                if !self.captured_matches(victim) {
                    continue;
                }
                if piece.role == Role::Pawn && last_rank.contains(to) {
                    for role in [Role::Queen, Role::Rook, Role::Bishop, Role::Knight] {
                        moves.push(Move::Normal {
                            role: Role::Pawn,
                            from,
                            capture: Some(victim),
                            to,
                            promotion: Some(role),
                        });
                    }
                } else {
                    moves.push(Move::Normal { role: piece.role, from, capture: Some(victim), to, promotion: None });
                }
            }
            if let Some(m) = self.en_passant_from(from, piece.role) {
                moves.push(m);
            }
        }
    }

    /// Whether any capture is open now.
    fn any_capture(&self) -> bool {
        let mut moves = MoveList::new();
        self.captures_into(&mut moves);
        !moves.is_empty()
    }

    /// "En passant capture is allowed": in the turn after the partner's
    /// pawn double step, while that pawn stands where it landed.
    fn en_passant_from(&self, from: Square, role: Role) -> Option<Move> {
        let ep = self.ep_now?;
        if role != Role::Pawn || !attacks::pawn_attacks(self.mover, from).contains(ep) {
            return None;
        }
        let board = self.pos.board();
        let victim = Square::from_coords(ep.file(), from.rank());
        let theirs = board.piece_at(victim) == Some(Role::Pawn.of(self.mover.other()));
        (theirs && !board.occupied().contains(ep) && self.captured_matches(Role::Pawn))
            .then_some(Move::EnPassant { from, to: ep })
    }

    /// Step 3, one capture, without its log line: "remove the piece from
    /// the board, and move the captured piece's card from your partner's
    /// discard stack to the captured cards stack". Returns that card.
    fn take(&mut self, m: Move) -> Card {
        let captured_role = m.capture().unwrap_or(Role::Pawn);
        let matched = self.capture_match(m.role(), captured_role).expect("a generated capture matches");
        let card = self.discards[index(self.mover.other())].pop().expect("a capture takes the top card");
        self.captured.push(card);
        self.wild_next = matched.double_colour;
        self.pos.play_unchecked(m);
        self.pos.set_turn(self.mover);
        self.pos.set_ep_square(None);
        self.ep_now = None;
        self.ep_next = None;
        self.piece = Some(m.to());
        card
    }

    /// After a capture: a king ends the game, and a turn with no capture
    /// left open ends by itself.
    fn after_capture(&mut self, m: Move, log: bool, story: &mut Journal) {
        if m.capture() == Some(Role::King) {
            self.king_captured(log, story);
        } else if !self.any_capture() {
            self.end_turn(log, story);
        }
    }

    fn capture(&mut self, action: UciAction, story: &mut Journal) -> Result<(), RuleError> {
        let shown = CoopAction::Move(action);
        let candidates = self.captures();
        let Some(m) = action.resolve(&candidates) else {
            return Err(RuleError::illegal(shown, self.why_not_capture(action)));
        };
        if !story.is_muted() {
            let token = if self.turn_token.is_empty() { long_algebraic(m) } else { format!("x{}", m.to()) };
            self.turn_token.push_str(&token);
        }
        let wild = self.wild_next;
        let victim = m.capture().unwrap_or(Role::Pawn);
        let partner = colour_word(self.mover.other());
        let card = self.take(m);
        story.public_with(Some(self.seat()), || {
            format!(
                "{} takes the {partner} {} on {}; the {card} goes to the captured cards{}",
                long_algebraic(m),
                role_name(victim),
                m.to(),
                if wild { " (wild)" } else { "" }
            )
        });
        self.last_move = Some((action.from, action.to));
        self.after_capture(m, true, story);
        Ok(())
    }

    fn why_not_capture(&self, action: UciAction) -> String {
        let board = self.pos.board();
        let partner = self.mover.other();
        if let Some(sq) = self.piece {
            if action.from != sq {
                return format!("all moves of a turn are made with one piece: the one on {sq}");
            }
        }
        let Some(piece) = board.piece_at(action.from).filter(|p| p.color == self.mover) else {
            return format!("{} holds no piece of yours", action.from);
        };
        let Some(&top) = self.discards[index(partner)].last() else {
            return format!("the {} discard stack is empty: there is nothing to capture", colour_word(partner));
        };
        if !self.capturer_matches(piece.role) {
            let played = *self.discards[index(self.mover)].last().expect("played in step 2");
            return format!("the capturing piece must match the card you played, the {played} ({})", card_name(played));
        }
        match board.piece_at(action.to) {
            Some(p) if p.color == partner && !self.captured_matches(p.role) => {
                format!(
                    "the captured piece must match the top card of your partner's stack, the {top} ({})",
                    card_name(top)
                )
            }
            Some(p) if p.color == partner => "that piece cannot reach it".to_string(),
            _ => "a capture of step 3 must take one of your partner's pieces".to_string(),
        }
    }

    /// "You may make multiple capturing chess moves": or stop.
    fn stop(&mut self, story: &mut Journal) -> Result<(), RuleError> {
        if self.phase != Phase::Capture {
            return Err(RuleError::illegal(CoopAction::Stop, "there are no captures to stop: play a card first"));
        }
        story.public(Some(self.seat()), "stops capturing");
        self.end_turn(true, story);
        Ok(())
    }
}

// ----------------------------------------------------------------------
// Play: step 4, the draw, and the next turn
// ----------------------------------------------------------------------

impl CooperativeGame {
    /// "You must draw a card to bring your hand back to 3" (fewer once the
    /// draw pile is empty).
    fn draw_cards(&mut self) {
        let hand = &mut self.hands[index(self.mover)];
        while hand.len() < HAND_SIZE {
            match self.deck.pop() {
                Some(card) => hand.push(card),
                None => break,
            }
        }
    }

    /// The end of the turn; with `log`, the whole turn's moves go to the
    /// log as one PGN move (the steps were logged as they happened).
    fn end_turn(&mut self, log: bool, story: &mut Journal) {
        self.draw_cards();
        let token = std::mem::take(&mut self.turn_token);
        if log {
            self.log_turn(token, story);
        }
        self.next_turn(log, story);
    }

    fn log_turn(&mut self, token: String, story: &mut Journal) {
        let seat = self.seat();
        let (movetext, text) = if token.is_empty() {
            ("--".to_string(), "ends the turn without moving".to_string())
        } else {
            (token.clone(), format!("ends the turn: {token}"))
        };
        story.public_move(seat, movetext, text);
    }

    /// "White plays the first turn, and then players alternate."
    fn next_turn(&mut self, log: bool, story: &mut Journal) {
        self.mover = self.mover.other();
        self.pos.set_turn(self.mover);
        self.phase = Phase::Move;
        self.piece = None;
        self.wild_next = false;
        self.ep_now = self.ep_next.take();
        self.judge_cards(log, story);
    }
}

// ----------------------------------------------------------------------
// Game End
// ----------------------------------------------------------------------

impl CooperativeGame {
    /// "You then get a point for each piece type that was completely
    /// removed from the board, both colours."
    pub fn types_removed(&self) -> i64 {
        let board = self.pos.board();
        Role::ALL.iter().filter(|&&role| board.by_role(role).is_empty()).count() as i64
    }

    /// "The game ends immediately when you capture a king": the team wins and
    /// scores the types removed (ruling, docs/games/cooperative.md: "the
    /// players win or lose together").
    fn king_captured(&mut self, log: bool, story: &mut Journal) {
        let score = self.types_removed();
        self.outcome = Some(Outcome::win(vec![0, 1], "king captured").with_scores(vec![score, score]));
        let token = std::mem::take(&mut self.turn_token);
        if log {
            self.log_turn(token, story);
            story.public(None, format!("game over: a king is captured; the team scores {score}"));
        }
    }

    /// "If the draw pile is empty, continue playing until you run out of
    /// cards in your hands. If you run out of cards without capturing a
    /// king, you lose": a player who must play a card and holds none.
    fn judge_cards(&mut self, log: bool, story: &mut Journal) {
        if self.outcome.is_none() && self.hands[index(self.mover)].is_empty() {
            self.outcome =
                Some(Outcome { winners: Vec::new(), reason: "out of cards".to_string(), scores: Some(vec![0, 0]) });
            if log {
                story.public(None, "game over: the cards ran out before a king was captured; the team loses");
            }
        }
    }

    /// The search's estimate of the table, for both seats alike: the score
    /// so far (types gone), plus the progress towards the next types (the
    /// share of each type's pieces already gone, squared so that finishing
    /// a type counts more than starting one), worth less as the last
    /// [`CARDS_OF_SAFETY`] cards run out.
    pub fn estimate(&self) -> f64 {
        let board = self.pos.board();
        let mut value = 0.0;
        for role in Role::ALL {
            if role == Role::King {
                continue;
            }
            let left = board.by_role(role).count() as f64;
            let set = f64::from(SET[role as usize - 1]);
            let gone = (set - left).max(0.0) / set;
            value += if left == 0.0 { 1.0 } else { 0.5 * gone * gone };
        }
        // Types removed count only once a king is captured: as the cards
        // run out, a position is worth less than taking a king now.
        let cards_left = (self.deck.len() + self.hands.iter().map(|hand| hand.len()).sum::<usize>()) as f64;
        value * (cards_left / CARDS_OF_SAFETY).min(1.0)
    }
}

// ----------------------------------------------------------------------
// The referee interface
// ----------------------------------------------------------------------

impl Game for CooperativeGame {
    type Action = CoopAction;
    const VARIANT: &'static str = "cooperative";
    const TITLE: &'static str = "Cooperative Chess";

    /// What the start announces is written to `story`.
    fn open(_options: &Options, seed: u64, position: Option<&str>, story: &mut Journal) -> Result<Self, GameError> {
        match position {
            None => Ok(CooperativeGame::setup(seed)),
            Some(position) => {
                let mut game = text::read(position)?;
                game.start = Some(PgnStart::new(&game.pos, CastlingNotation::XFen, position));
                game.judge_cards(false, story);
                Ok(game)
            }
        }
    }

    fn position(&self) -> String {
        text::write(self)
    }

    fn seats(&self) -> Vec<SeatInfo> {
        vec![
            SeatInfo::new("White").with_colour("white").with_team(0),
            SeatInfo::new("Black").with_colour("black").with_team(0),
        ]
    }

    fn to_act(&self) -> ToAct {
        match &self.outcome {
            Some(outcome) => ToAct::Over(outcome.clone()),
            None => ToAct::one(self.seat()),
        }
    }

    fn legal_actions(&self, seat: Seat) -> Vec<CoopAction> {
        if self.outcome.is_some() || seat != self.seat() {
            return Vec::new();
        }
        let to_action = |m: Move| CoopAction::Move(UciAction::from_move(m, CastlingStyle::Standard));
        let mut actions: Vec<CoopAction> = Vec::new();
        match self.phase {
            Phase::Move | Phase::Play => {
                if self.phase == Phase::Move {
                    actions.extend(self.quiet_moves().into_iter().map(to_action));
                }
                let mut cards = self.hands[index(self.mover)].to_vec();
                cards.sort();
                actions.extend(cards.into_iter().map(CoopAction::Play));
            }
            Phase::Capture => {
                actions.extend(self.captures().into_iter().map(to_action));
                actions.push(CoopAction::Stop);
            }
        }
        actions
    }

    fn apply_with(&mut self, seat: Seat, action: &CoopAction, story: &mut Journal) -> Result<(), RuleError> {
        self.check_turn(seat)?;
        match *action {
            CoopAction::Move(m) => match self.phase {
                Phase::Move => self.quiet_move(m, story),
                Phase::Play => {
                    Err(RuleError::illegal(action, "you have made this turn's non-capturing move: play a card now"))
                }
                Phase::Capture => self.capture(m, story),
            },
            CoopAction::Play(card) => self.play_card(card, story),
            CoopAction::Stop => self.stop(story),
        }
    }

    /// Moves in UCI or SAN (`O-O`, `Bxd5`); castling also as king takes rook.
    fn parse_action(&self, _seat: Seat, text: &str) -> Result<CoopAction, RuleError> {
        let candidates: Vec<Move> = match self.phase {
            Phase::Move => self.quiet_moves(),
            Phase::Capture => self.captures(),
            Phase::Play => Vec::new(),
        };
        match text.parse::<CoopAction>() {
            Ok(CoopAction::Move(m)) => Ok(CoopAction::Move(
                m.resolve(&candidates).map_or(m, |found| UciAction::from_move(found, CastlingStyle::Standard)),
            )),
            Ok(other) => Ok(other),
            Err(reason) => match parse_san_among(&candidates, text) {
                Ok(m) => Ok(CoopAction::Move(UciAction::from_move(m, CastlingStyle::Standard))),
                Err(_) => Err(RuleError::malformed(text, reason)),
            },
        }
    }

    /// "Shouldn't just reveal their hands": the partner's hand and the
    /// draw pile's order are redrawn from the cards this seat has not seen
    /// (the stacks are face up), keeping every count.
    fn sample_hidden(&self, seat: Seat, rng: &mut GameRng) -> Self {
        let mut game = self.clone();
        let other = 1 - seat.min(1);
        let mut unseen: Vec<Card> = game.hands[other].to_vec();
        unseen.extend_from_slice(&game.deck);
        // A canonical order first: where the unseen cards really lie must
        // not steer the draw.
        unseen.sort();
        rng.shuffle(&mut unseen);
        let n = game.hands[other].len();
        game.hands[other] = unseen.split_off(unseen.len() - n).into();
        game.deck = unseen.into();
        game
    }

    fn pgn(&self, story: &Journal) -> Option<String> {
        Some(pgn::variant_pgn("Cooperative", self.start.as_ref(), vec![], story, self.outcome.as_ref()))
    }

    // The key of everything the rules read, the hidden cards included
    // (the search plays drawn worlds): pieces, hands, piles, the step of
    // the turn and what it allows. The turn's PGN token is left out.
    fn position_hash(&self) -> Option<u64> {
        let cards = (&self.hands, &self.deck, &self.discards, &self.captured);
        let turn = (self.mover, self.phase, self.piece, self.wild_next, self.ep_now, self.ep_next);
        Some(self.pos.zobrist() ^ hash_of(&(cards, turn, &self.outcome)))
    }

    fn heuristic(&self, _seat: Seat) -> Option<f64> {
        Some(self.estimate())
    }

    fn is_noisy(&self, action: &CoopAction) -> bool {
        matches!(action, CoopAction::Move(_)) && self.phase == Phase::Capture
    }

    fn view(&self, viewer: Viewer) -> View {
        let seats = self.seats();
        let mut zones = Vec::new();
        for color in Color::ALL {
            let seat = seat_of(color);
            let hand = &self.hands[index(color)];
            let mine = viewer.includes(seat, &seats);
            zones.push(CardZone {
                name: format!("{} hand", fen::color_name(color)),
                owner: Some(seat),
                cards: if mine { hand.iter().map(Card::to_string).collect() } else { Vec::new() },
                hidden: if mine { 0 } else { hand.len() },
            });
        }
        for color in Color::ALL {
            zones.push(CardZone {
                name: format!("{} discards", fen::color_name(color)),
                owner: Some(seat_of(color)),
                cards: self.discards[index(color)].iter().map(Card::to_string).collect(),
                hidden: 0,
            });
        }
        zones.push(CardZone {
            name: "captured cards".to_string(),
            owner: None,
            cards: self.captured.iter().map(Card::to_string).collect(),
            hidden: 0,
        });
        zones.push(CardZone { name: "draw pile".to_string(), owner: None, cards: Vec::new(), hidden: self.deck.len() });
        let mut view = View {
            board: Some(BoardView::from_board(self.pos.board(), self.pos.mask(), &|_| Vec::new())),
            zones,
            tables: vec![self.wild_table()],
            notes: self.notes(),
            last_move: self.last_move.map_or_else(Vec::new, |(from, to)| vec![from.to_string(), to.to_string()]),
            ..View::default()
        };
        if self.outcome.is_none() {
            view.prompt = Some(self.prompt(viewer.includes(self.seat(), &seats)));
        }
        view
    }
}

impl CooperativeGame {
    /// The wild cards at a glance: which types are gone for each colour
    /// (their cards are wild on that player's stack) and the score so far.
    fn wild_table(&self) -> TableView {
        let board = self.pos.board();
        let rows = Role::ALL
            .iter()
            .map(|&role| {
                let left = |c: Color| board.by_piece(role.of(c)).count();
                let cell = |c: Color| if left(c) == 0 { "gone: wild".to_string() } else { left(c).to_string() };
                vec![role_name(role).to_string(), cell(Color::White), cell(Color::Black)]
            })
            .collect();
        TableView {
            title: format!("Pieces left (types removed: {})", self.types_removed()),
            columns: vec!["Piece".to_string(), "White".to_string(), "Black".to_string()],
            rows,
            drawn_as: None,
        }
    }

    fn notes(&self) -> Vec<String> {
        let mut notes = Vec::new();
        if self.wild_next {
            notes.push("Double colour match: the next captured card is wild".to_string());
        }
        if let Some(sq) = self.piece {
            if self.outcome.is_none() {
                notes.push(format!("This turn's piece: the one on {sq}"));
            }
        }
        notes
    }

    fn prompt(&self, mine: bool) -> String {
        let name = fen::color_name(self.mover);
        if !mine {
            return match self.phase {
                Phase::Move => format!("{name} may move without capturing, then plays a card"),
                Phase::Play => format!("{name} plays a card"),
                Phase::Capture => format!("{name} is capturing"),
            };
        }
        match self.phase {
            Phase::Move => "Your turn: make a non-capturing move, or play a card at once".to_string(),
            Phase::Play => "Play a card from your hand to your discard stack".to_string(),
            Phase::Capture => {
                let top = self.discards[index(self.mover.other())].last().copied();
                let wanted = match top {
                    Some(card) if self.wild_next => format!("any piece (the {card} is wild)"),
                    Some(card) => format!("a piece like the {card}"),
                    None => "nothing".to_string(),
                };
                format!("Capture {wanted} with a piece like your card, or stop")
            }
        }
    }
}
