//! Masquerade Chess (rules.md, "Masquerade Chess"; the rules in
//! our words, the rulings and the text formats are in docs/games/masquerade.md).
//!
//! Regular chess, but every piece above pawns has a secret identity when it
//! captures. Each player assigns the capture moves of the opponent's pieces,
//! and learns their own only by attempting captures. There is no check: the
//! game ends when a king is captured.
//!
//! The module follows the book: Setup (the secret, simultaneous
//! assignment), Play (a non-capturing move, or a capture attempt the
//! referee answers), Game End (a captured king). `captures` holds the
//! book's table: assignments, observations and what they prove.

mod captures;
mod san;
#[cfg(test)]
mod tests;
mod text;

use std::fmt;
use std::str::FromStr;

use crate::chess::seat_of;
use crate::clone_fields::clone_field_by_field;
use chesskit_core::chess::fen::color_name;
use chesskit_core::chess::notation::{find_uci, long_algebraic, CastlingStyle, UciAction};
use chesskit_core::chess::pgn::{self, PgnStart, NULL_MOVE};
use chesskit_core::chess::{Bitboard, Color, Move, MoveList, Position, Role, Square};
use chesskit_core::game::{Game, GameAction, GameError, Outcome, RuleError, Seat, SeatInfo, ToAct, Viewer};
use chesskit_core::options::Options;
use chesskit_core::rng::GameRng;
use chesskit_core::search_node::hash_of;
use chesskit_core::view::{ActionInfo, BoardView, Journal, Pick, TableDrawing, TableView, View};

use captures::{draw_fitting_the_opponents_care, KingInReach, Reach};
pub use captures::{Assignment, Knowledge, Mark, Observation, PatternSet, PIECE_TYPES};
use san::San;
use text::PositionText;

/// One step of Masquerade Chess.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MasqueradeAction {
    /// Setup: `assign KR QK RN BB NQ`, the captures of the opponent's pieces.
    Assign(Assignment),
    /// Play: a non-capturing move (`g1f3`, `e1g1`) or a capture attempt on
    /// an enemy piece (`b1c3`, `e5d6` en passant, `b7a8q`), in UCI.
    Play(UciAction),
    /// Play: only when the side to move has no move and no capture attempt.
    Pass,
}

impl fmt::Display for MasqueradeAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MasqueradeAction::Assign(assignment) => write!(f, "assign {assignment}"),
            MasqueradeAction::Play(uci) => write!(f, "{uci}"),
            MasqueradeAction::Pass => f.write_str("pass"),
        }
    }
}

impl FromStr for MasqueradeAction {
    type Err = String;

    fn from_str(text: &str) -> Result<MasqueradeAction, String> {
        let text = text.trim();
        let (first, rest) = text.split_once(char::is_whitespace).unwrap_or((text, ""));
        if first.eq_ignore_ascii_case("assign") {
            return rest.parse().map(MasqueradeAction::Assign);
        }
        if text.eq_ignore_ascii_case("pass") {
            return Ok(MasqueradeAction::Pass);
        }
        text.parse().map(MasqueradeAction::Play).map_err(|_| {
            format!(
                "expected a move or capture attempt in UCI (e2e4, b1c3) or SAN (Nf3, Nxc3), `assign KR QK RN BB NQ` \
                 or `pass`, not {text:?}"
            )
        })
    }
}

impl GameAction for MasqueradeAction {
    fn info(&self) -> ActionInfo {
        match self {
            MasqueradeAction::Play(uci) => uci.info(),
            MasqueradeAction::Assign(assignment) => ActionInfo {
                text: self.to_string(),
                label: Some(assignment_words(assignment)),
                pick: Some(assignment_pick(assignment)),
                ..ActionInfo::default()
            },
            MasqueradeAction::Pass => ActionInfo {
                text: self.to_string(),
                label: Some("Pass (no move and no capture attempt)".to_string()),
                ..ActionInfo::default()
            },
        }
    }
}

/// An assignment in words, for its label: "Your opponent's king captures
/// like a rook, queen like a king, rook like a knight, bishop like a
/// bishop, knight like a queen".
fn assignment_words(assignment: &Assignment) -> String {
    let name = chesskit_core::chess::diagram::role_name;
    let pairs: Vec<String> = PIECE_TYPES
        .iter()
        .enumerate()
        .map(|(i, &piece)| {
            let verb = if i == 0 { " captures" } else { "" };
            format!("{}{verb} like a {}", name(piece), name(assignment.capture_of(piece)))
        })
        .collect();
    format!("Your opponent's {}", pairs.join(", "))
}

/// How a client offers an assignment: as a pairing of the piece types with
/// the capture moves they use, drawn as a picture (not 120 buttons).
fn assignment_pick(assignment: &Assignment) -> Pick {
    Pick::Assignment {
        pieces: PIECE_TYPES.iter().map(|r| r.upper_char()).collect(),
        captures: PIECE_TYPES.iter().map(|&r| assignment.capture_of(r).upper_char()).collect(),
    }
}

/// A capture the side to move may attempt: the capture made if the answer
/// is yes, and for a piece above pawns the capture moves that could make it
/// (`None` for a pawn, which captures as usual).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct CaptureAttempt {
    capture: Move,
    patterns: Option<PatternSet>,
}

/// What a play action resolves to.
enum Turn {
    Move(Move),
    Attempt(CaptureAttempt),
}

/// A game of Masquerade Chess. White is seat 0, Black seat 1; arrays
/// indexed by seat belong to that side.
#[derive(Debug, PartialEq)]
pub struct MasqueradeGame {
    pos: Position,
    /// The captures each side's pieces use, assigned by the opponent;
    /// `None` until the opponent has assigned them.
    captures: [Option<Assignment>; 2],
    /// Each side's answered capture attempts with pieces above pawns: what
    /// that side's knowledge table is deduced from.
    attempts: [Vec<Observation>; 2],
    /// Each side's turns that began with the enemy king in reach of some
    /// capture move of its pieces: the opponent, who knows those pieces'
    /// captures, let it stand, which says something about them.
    kings_left: [Vec<KingInReach>; 2],
    /// Where the game started, for its PGN, when not from the orthodox start.
    start: Option<PgnStart>,
    last_move: Vec<Square>,
    outcome: Option<Outcome>,
}

clone_field_by_field!(MasqueradeGame { pos, captures, attempts, kings_left, start, last_move, outcome });

fn name(seat: Seat) -> &'static str {
    ["White", "Black"][seat]
}

impl MasqueradeGame {
    fn from_text(text: PositionText, story: &mut Journal) -> MasqueradeGame {
        let mut game = MasqueradeGame {
            pos: text.pos,
            captures: text.captures,
            attempts: text.attempts,
            kings_left: [Vec::new(), Vec::new()],
            start: None,
            last_move: Vec::new(),
            outcome: None,
        };
        game.check_game_end(story);
        game
    }

    /// The captures `seat`'s pieces use, once assigned.
    pub fn captures_of(&self, seat: Seat) -> Option<Assignment> {
        self.captures.get(seat).copied().flatten()
    }

    /// What `seat` has learned about its own pieces' captures.
    pub fn knowledge(&self, seat: Seat) -> Knowledge {
        Knowledge::from_observations(self.attempts.get(seat).map_or(&[], Vec::as_slice))
    }

    pub fn position_now(&self) -> &Position {
        &self.pos
    }

    // ------------------------------------------------------------------
    // Setup
    // ------------------------------------------------------------------

    /// Whether a player has still to fill in the table of the opponent's pieces.
    fn setting_up(&self) -> bool {
        self.captures.iter().any(Option::is_none)
    }

    /// "They then fill in the table for their opponent's pieces without
    /// letting their opponent see": `seat` assigns the opponent's captures.
    /// Only the fact that it is done is public.
    fn assign(&mut self, seat: Seat, assignment: Assignment, story: &mut Journal) {
        let opponent = 1 - seat;
        self.captures[opponent] = Some(assignment);
        story.public_secret_choice(seat, format!("{} has assigned {}'s captures", name(seat), name(opponent)));
    }

    // ------------------------------------------------------------------
    // Play: "either make a standard move without capturing, or attempt a capture"
    // ------------------------------------------------------------------

    /// Standard moves without capturing. There is no check, so nothing is
    /// filtered for the king's safety, and castling has no check conditions:
    /// a king may castle out of, through or into attack.
    fn non_capturing_moves(&self) -> MoveList {
        let mut moves = MoveList::new();
        self.non_capturing_moves_into(&mut moves);
        moves
    }

    /// [`Self::non_capturing_moves`] into a list on the caller's stack
    /// (cleared first): the search lists them at every node and again for
    /// each action it applies. The pseudo-legal moves to the empty squares
    /// (no en passant: it captures), then castling.
    fn non_capturing_moves_into(&self, moves: &mut MoveList) {
        moves.clear();
        self.pos.pseudo_legal_moves_to(!self.pos.board().occupied(), moves);
        self.pos.castling_moves(false, moves);
    }

    /// The capture attempts on offer. Pawns capture with their standard
    /// captures, en passant included. A piece above pawns may attempt any
    /// enemy piece that some capture move (K Q R B N) could take from where
    /// it stands: the player cannot know which capture their piece has.
    fn capture_attempts(&self) -> Vec<CaptureAttempt> {
        self.capture_attempts_between(Bitboard::FULL, Bitboard::FULL)
    }

    /// The capture attempts from a square of `froms` to a square of `tos`,
    /// in the order of [`Self::capture_attempts`]: applying one attempt
    /// needs the attempts of its two squares alone.
    fn capture_attempts_between(&self, froms: Bitboard, tos: Bitboard) -> Vec<CaptureAttempt> {
        let us = self.pos.turn();
        let board = self.pos.board();
        let mut pawn_moves = MoveList::new();
        self.pos.piece_moves_into(froms & board.pawns(), &mut pawn_moves);
        let mut attempts: Vec<CaptureAttempt> = pawn_moves
            .iter()
            .filter(|m| m.is_capture() && tos.contains(m.to()))
            .map(|&capture| CaptureAttempt { capture, patterns: None })
            .collect();
        for from in board.by_color(us) & !board.pawns() & froms {
            let Some(role) = board.role_at(from) else { continue };
            let reach = Reach::from(&self.pos, us, from);
            for to in board.by_color(us.other()) & tos & reach.squares() {
                let patterns = reach.patterns_to(to);
                let capture = Move::Normal { role, from, capture: board.role_at(to), to, promotion: None };
                attempts.push(CaptureAttempt { capture, patterns: Some(patterns) });
            }
        }
        attempts
    }

    /// The move or capture attempt a play action names, or why it is none.
    fn resolve(&self, uci: &UciAction) -> Result<Turn, RuleError> {
        let mut moves = MoveList::new();
        self.non_capturing_moves_into(&mut moves);
        if let Some(m) = uci.resolve(&moves) {
            return Ok(Turn::Move(m));
        }
        let (from, to) = (Bitboard::from_square(uci.from), Bitboard::from_square(uci.to));
        self.capture_attempts_between(from, to)
            .into_iter()
            .find(|a| UciAction::from_move(a.capture, CastlingStyle::Standard) == *uci)
            .map(Turn::Attempt)
            .ok_or_else(|| RuleError::illegal(uci, self.why_not(uci)))
    }

    /// Why `uci` is neither a move nor a capture attempt here.
    fn why_not(&self, uci: &UciAction) -> String {
        let board = self.pos.board();
        let (from, to) = (uci.from, uci.to);
        let Some(piece) = board.piece_at(from) else { return format!("there is no piece on {from}") };
        if piece.color != self.pos.turn() {
            return format!("the piece on {from} is {}'s", color_name(piece.color));
        }
        let mut candidates =
            self.non_capturing_moves().into_iter().chain(self.capture_attempts().into_iter().map(|a| a.capture));
        if candidates.any(|m| m.from() == Some(from) && m.to() == to && m.is_promotion()) {
            return "a pawn reaching the last rank must promote: add q, r, b or n (e.g. e7e8q)".to_string();
        }
        let role = chesskit_core::chess::diagram::role_name(piece.role);
        match board.piece_at(to) {
            Some(target) if target.color == piece.color => {
                format!("{to} holds your own piece: a capture attempt must target an enemy piece")
            }
            Some(_) if piece.role == Role::Pawn => "a pawn captures one square diagonally forward".to_string(),
            Some(_) => {
                format!("no capture move (K Q R B N) could take {to} from {from}, so that is no capture attempt")
            }
            None => format!("{to} is empty, so that is no capture attempt, and the {role} on {from} cannot move there"),
        }
    }

    /// A standard move without capturing.
    fn make_move(&mut self, m: Move, story: &mut Journal) {
        story.public_move_with(seat_of(self.pos.turn()), || (long_algebraic(m), describe(m)));
        self.last_move = move_squares(m);
        self.pos.play_unchecked(m);
    }

    /// "Point to the piece you want to move, then to the piece you want to
    /// capture, and ask your opponent, 'Capture?'" The question and the
    /// answer are public. If yes, the capture is made as normal; if not,
    /// nothing moves and the turn is over. Either way the attempt is
    /// recorded for the attacker's table.
    fn attempt_capture(&mut self, attempt: CaptureAttempt, story: &mut Journal) {
        let seat = seat_of(self.pos.turn());
        let success = self.answer(attempt);
        story.public_move_with(seat, || {
            let token = if success { long_algebraic(attempt.capture) } else { NULL_MOVE.to_string() };
            (token, self.attempt_sentence(attempt.capture, success))
        });
        self.last_move = move_squares(attempt.capture);
        if let (Some(patterns), Move::Normal { role, from, to, .. }) = (attempt.patterns, attempt.capture) {
            self.attempts[seat].push(Observation { piece: role, from, to, patterns, success });
        }
        if success {
            self.pos.play_unchecked(attempt.capture);
        } else {
            self.end_turn_in_place();
        }
    }

    /// The attempt and its answer as a sentence, for the log (said before
    /// the capture is made): "White's queen on h5 tried to capture Black's
    /// pawn on f7: no capture."
    fn attempt_sentence(&self, capture: Move, success: bool) -> String {
        let name = chesskit_core::chess::diagram::role_name;
        let us = self.pos.turn();
        let (from, to) = (capture.from().expect("a capture starts on a square"), capture.to());
        let (target, en_passant) = match capture {
            Move::EnPassant { .. } => (Square::from_coords(to.file(), from.rank()), " en passant"),
            _ => (to, ""),
        };
        let victim = self.pos.board().role_at(target).unwrap_or(Role::Pawn);
        let mut answer = if success { "captured".to_string() } else { "no capture".to_string() };
        if !en_passant.is_empty() && success {
            answer.push_str(&format!(", the pawn moving to {to}"));
        }
        if let (Some(role), true) = (capture.promotion(), success) {
            answer.push_str(&format!(", and the pawn becomes a {}", name(role)));
        }
        format!(
            "{}'s {} on {from} tried to capture {}'s {} on {target}{en_passant}: {answer}.",
            color_name(us),
            name(capture.role()),
            color_name(us.other()),
            name(victim)
        )
    }

    /// The opponent's answer to "Capture?": pawns always capture with their
    /// standard captures; a piece above pawns succeeds when its type's
    /// assigned capture is one of those that could make this capture.
    fn answer(&self, attempt: CaptureAttempt) -> bool {
        let Some(patterns) = attempt.patterns else { return true };
        let captures = self.captures_of(seat_of(self.pos.turn())).expect("play starts once both sides are assigned");
        patterns.contains(captures.capture_of(attempt.capture.role()))
    }

    /// Ruling: a side with no move and no capture attempt passes.
    fn pass(&mut self, story: &mut Journal) {
        let seat = seat_of(self.pos.turn());
        story.public_move(seat, NULL_MOVE, format!("{} has no move and passes", name(seat)));
        self.last_move.clear();
        self.end_turn_in_place();
    }

    /// The turn ends with nothing moved (a failed attempt, a pass). It counts
    /// for the fifty-move rule, and an en passant chance is gone.
    fn end_turn_in_place(&mut self) {
        let halfmoves = self.pos.halfmoves() + 1;
        self.pos.pass_turn();
        self.pos.set_halfmoves(halfmoves);
    }

    fn play_turn(&mut self, turn: Turn, story: &mut Journal) {
        match turn {
            Turn::Move(m) => self.make_move(m, story),
            Turn::Attempt(attempt) => self.attempt_capture(attempt, story),
        }
        self.check_game_end(story);
        if self.outcome.is_none() {
            self.note_king_left_in_reach();
        }
    }

    /// For the mover's inferences (see `sample_hidden`): the opponent ended
    /// their turn with their king where some capture move of the mover's
    /// pieces would take it. Read from the board alone, so it is public.
    fn note_king_left_in_reach(&mut self) {
        let reach = KingInReach::of(&self.pos, self.pos.turn());
        if !reach.is_empty() {
            self.kings_left[seat_of(self.pos.turn())].push(reach);
        }
    }

    /// The move or capture attempt a SAN text names, among those on offer
    /// to `seat`: a capture sign asks for an attempt; without it the target
    /// square tells (an enemy piece there makes it an attempt). Ambiguous
    /// or impossible texts are refused with the reason.
    fn resolve_san(&self, seat: Seat, text: &str, san: San) -> Result<MasqueradeAction, RuleError> {
        self.check_turn(seat)?;
        if self.setting_up() {
            return Err(RuleError::illegal(text, "first both players assign each other's captures"));
        }
        let moves = self.non_capturing_moves();
        let attempts: Vec<Move> = self.capture_attempts().into_iter().map(|a| a.capture).collect();
        let fitting = |list: &[Move]| list.iter().copied().filter(|&m| san.matches(m)).collect::<Vec<Move>>();
        let (fit_moves, fit_attempts) = (fitting(&moves), fitting(&attempts));
        let piece = san.piece_name();
        let found = match (san.says_capture(), fit_moves.as_slice(), fit_attempts.as_slice()) {
            (true, [_, ..], []) => {
                let to = fit_moves[0].to();
                return Err(RuleError::illegal(
                    text,
                    format!("there is no enemy piece on {to} to capture; without the x it is a move to {to}"),
                ));
            }
            (true, _, found) => found.to_vec(),
            (false, moves, attempts) => moves.iter().chain(attempts).copied().collect(),
        };
        match found.as_slice() {
            [m] => Ok(MasqueradeAction::Play(UciAction::from_move(*m, CastlingStyle::Standard))),
            [] => Err(RuleError::illegal(text, self.why_no_san(san))),
            several => {
                let from: Vec<String> = several.iter().filter_map(|m| m.from()).map(|sq| sq.to_string()).collect();
                Err(RuleError::illegal(
                    text,
                    format!(
                        "ambiguous: your {piece}s on {} could each do it; name the one you mean by its file or rank, \
                         or write the move in UCI",
                        from.join(" and ")
                    ),
                ))
            }
        }
    }

    /// Why no move or attempt fits a SAN text.
    fn why_no_san(&self, san: San) -> String {
        let us = self.pos.turn();
        match san {
            San::Castle { king_side } => {
                format!("you cannot castle {} side now", if king_side { "king" } else { "queen" })
            }
            San::Piece { role, to, .. } => {
                let name = chesskit_core::chess::diagram::role_name(role);
                if (self.pos.board().by_role(role) & self.pos.board().by_color(us)).is_empty() {
                    return format!("you have no {name}");
                }
                match self.pos.board().piece_at(to) {
                    Some(p) if p.color == us => format!("{to} holds your own piece"),
                    Some(_) => format!("no {name} of yours could attempt a capture on {to}"),
                    None => format!("no {name} of yours can move to {to}"),
                }
            }
        }
    }

    fn play_actions(&self) -> Vec<MasqueradeAction> {
        let mut actions = Vec::new();
        self.play_actions_into(&mut actions);
        actions
    }

    /// The moves, then the capture attempts, as actions appended to
    /// `actions` (the search's list, its allocation kept).
    fn play_actions_into(&self, actions: &mut Vec<MasqueradeAction>) {
        let play = |m: Move| MasqueradeAction::Play(UciAction::from_move(m, CastlingStyle::Standard));
        let mut moves = MoveList::new();
        self.non_capturing_moves_into(&mut moves);
        actions.extend(moves.iter().map(|&m| play(m)));
        actions.extend(self.capture_attempts().into_iter().map(|a| play(a.capture)));
    }

    // ------------------------------------------------------------------
    // Game End
    // ------------------------------------------------------------------

    /// "The game ends when one of the players captures the other's king."
    /// Ruling: the fifty-move rule of regular chess stands (every turn
    /// counts, failed attempts and passes too; a pawn move or a capture
    /// resets it), so that a game with no way forward ends in a draw.
    fn check_game_end(&mut self, story: &mut Journal) {
        if self.outcome.is_some() {
            return;
        }
        if let Some(loser) = Color::ALL.into_iter().find(|&c| self.pos.king_of(c).is_none()) {
            let winner = seat_of(loser.other());
            story.public(Some(winner), format!("{} captured the king and wins", name(winner)));
            self.outcome = Some(Outcome::win(vec![winner], "king captured"));
        } else if self.pos.halfmoves() >= 100 {
            story.public(None, "Fifty moves without a pawn move or a capture: a draw");
            self.outcome = Some(Outcome::draw("fifty-move rule"));
        }
    }

    // ------------------------------------------------------------------
    // Views
    // ------------------------------------------------------------------

    /// The table a player fills in for their own pieces: O and X from their
    /// attempts, with every deduction the one-per-row-and-column rule forces.
    fn knowledge_table(&self, seat: Seat) -> TableView {
        let knowledge = self.knowledge(seat);
        let rows = PIECE_TYPES
            .iter()
            .map(|&piece| {
                let mut row = vec![type_name(piece).to_string()];
                row.extend(PIECE_TYPES.iter().map(|&capture| match knowledge.mark(piece, capture) {
                    Mark::O => "O".to_string(),
                    Mark::X => "X".to_string(),
                    Mark::Open => String::new(),
                }));
                let known = knowledge.known_capture(piece).map_or('?', Role::upper_char);
                row.push(format!("{}{known}", piece.upper_char()));
                row
            })
            .collect();
        TableView::text(format!("{}: your pieces' captures, as far as you know", name(seat)), columns(), rows)
            .drawn_as(pieces_of(seat))
    }

    /// What the viewer is asked to do, in words. During the secret setup
    /// everyone sees who is still assigning (that a player has finished is
    /// public; what they assigned is not).
    fn prompt(&self, viewer: Viewer) -> Option<String> {
        if self.outcome.is_some() {
            return None;
        }
        if self.setting_up() {
            let assigning: Vec<Seat> = (0..2).filter(|&seat| self.captures[1 - seat].is_none()).collect();
            return Some(match (viewer.seat().filter(|&s| s < 2), assigning.as_slice()) {
                (Some(seat), _) if assigning.contains(&seat) => format!(
                    "Assign {}'s captures in secret: give each of their piece types (king, queen, rook, bishop, \
                     knight) the capture of one piece type, using each capture once.",
                    name(1 - seat)
                ),
                (Some(seat), _) => format!("Waiting for {} to assign your captures.", name(1 - seat)),
                (None, [one]) => format!(
                    "{} has assigned {}'s captures; {} is still assigning {}'s, in secret.",
                    name(1 - one),
                    name(*one),
                    name(*one),
                    name(1 - one)
                ),
                (None, _) => "White and Black are both assigning each other's captures, in secret.".to_string(),
            });
        }
        let mover = name(seat_of(self.pos.turn()));
        Some(if self.play_actions().is_empty() {
            format!("{mover} has no move and no capture attempt, and must pass")
        } else {
            format!("{mover} to move: a move without capturing, or a capture attempt")
        })
    }

    fn notes(&self, seat: Seat) -> Vec<String> {
        let mut notes = Vec::new();
        if let Some(assignment) = self.captures[1 - seat] {
            notes.push(format!("You assigned {}'s captures: {assignment}", name(1 - seat)));
        }
        let fitting = self.knowledge(seat).consistent().len();
        notes.push(format!("{fitting} of the 120 possible assignments of your captures fit what you have seen"));
        notes
    }
}

fn columns() -> Vec<String> {
    let mut columns = vec!["piece".to_string()];
    columns.extend(PIECE_TYPES.iter().map(|r| r.upper_char().to_string()));
    columns.push("combo".to_string());
    columns
}

/// How the book's table is drawn: the capture headers and the combo
/// letters as pictures of `seat`'s pieces, whose captures the table holds.
fn pieces_of(seat: Seat) -> TableDrawing {
    TableDrawing::Pieces {
        columns: vec![PIECE_TYPES.len() + 1],
        headers: (1..=PIECE_TYPES.len()).collect(),
        colour: Some(if seat == 0 { "white" } else { "black" }.to_string()),
    }
}

/// A table with one circle (O) in each row and column: an assignment of
/// `seat`'s pieces' captures.
fn assignment_table(title: String, seat: Seat, assignment: Assignment) -> TableView {
    let rows = PIECE_TYPES
        .iter()
        .map(|&piece| {
            let capture = assignment.capture_of(piece);
            let mut row = vec![type_name(piece).to_string()];
            row.extend(PIECE_TYPES.iter().map(|&c| if c == capture { "O" } else { "X" }.to_string()));
            row.push(format!("{}{}", piece.upper_char(), capture.upper_char()));
            row
        })
        .collect();
    TableView::text(title, columns(), rows).drawn_as(pieces_of(seat))
}

fn type_name(role: Role) -> &'static str {
    match role {
        Role::King => "King",
        Role::Queen => "Queen",
        Role::Rook => "Rook",
        Role::Bishop => "Bishop",
        Role::Knight => "Knight",
        Role::Pawn => "Pawn",
    }
}

/// A move or attempt in long algebraic notation for the log: `Ng1-f3`,
/// `Nb1xc3`, `e5xd6 e.p.`, `b7xa8=Q`, `O-O`.
fn describe(m: Move) -> String {
    let en_passant = if m.is_en_passant() { " e.p." } else { "" };
    format!("{}{en_passant}", long_algebraic(m))
}

fn move_squares(m: Move) -> Vec<Square> {
    let action = UciAction::from_move(m, CastlingStyle::Standard);
    vec![action.from, action.to]
}

impl Game for MasqueradeGame {
    type Action = MasqueradeAction;
    const VARIANT: &'static str = "masquerade";
    const TITLE: &'static str = "Masquerade Chess";

    /// What the start announces is written to `story`.
    fn open(_options: &Options, _seed: u64, position: Option<&str>, story: &mut Journal) -> Result<Self, GameError> {
        match position {
            // "Set up the chess board normally"; both tables are still empty.
            None => Ok(MasqueradeGame::from_text(
                PositionText { pos: Position::startpos(), captures: [None, None], attempts: [Vec::new(), Vec::new()] },
                story,
            )),
            Some(position) => {
                let text = PositionText::read(position)?;
                let start = PgnStart::new(&text.pos, chesskit_core::chess::CastlingNotation::XFen, position);
                Ok(MasqueradeGame { start: Some(start), ..MasqueradeGame::from_text(text, story) })
            }
        }
    }

    fn position(&self) -> String {
        PositionText { pos: self.pos.clone(), captures: self.captures, attempts: self.attempts.clone() }.write()
    }

    fn seats(&self) -> Vec<SeatInfo> {
        SeatInfo::white_black()
    }

    /// The game as PGN: one move per turn (`--` for a failed capture attempt
    /// or a pass) with the answers to "Capture?" as comments, and both
    /// secret assignments as tags: a game is exported only once it is over.
    fn pgn(&self, story: &Journal) -> Option<String> {
        let assignments = [("WhiteCaptures", 0), ("BlackCaptures", 1)]
            .into_iter()
            .filter_map(|(tag, seat)| self.captures_of(seat).map(|captures| (tag, captures.to_string())))
            .collect();
        Some(pgn::variant_pgn("Masquerade", self.start.as_ref(), assignments, story, self.outcome.as_ref()))
    }

    /// Both players assign at once; then the side to move.
    fn to_act(&self) -> ToAct {
        if let Some(outcome) = &self.outcome {
            return ToAct::Over(outcome.clone());
        }
        if self.setting_up() {
            return ToAct::Seats((0..2).filter(|&seat| self.captures[1 - seat].is_none()).collect());
        }
        ToAct::one(seat_of(self.pos.turn()))
    }

    /// [`Game::to_act`]'s first seat without its list: in the setup, the
    /// first player still to assign; then the side to move.
    fn first_to_act(&self) -> Option<Seat> {
        (0..2).find(|&seat| self.is_to_act(seat))
    }

    fn is_to_act(&self, seat: Seat) -> bool {
        if self.outcome.is_some() || seat > 1 {
            return false;
        }
        if self.setting_up() {
            return self.captures[1 - seat].is_none();
        }
        seat == seat_of(self.pos.turn())
    }

    fn legal_actions_into(&self, seat: Seat, into: &mut Vec<MasqueradeAction>) {
        into.clear();
        if !self.is_to_act(seat) {
            return;
        }
        if self.setting_up() {
            into.extend(Assignment::all().into_iter().map(MasqueradeAction::Assign));
            return;
        }
        self.play_actions_into(into);
        if into.is_empty() {
            into.push(MasqueradeAction::Pass);
        }
    }

    fn apply_with(&mut self, seat: Seat, action: &MasqueradeAction, story: &mut Journal) -> Result<(), RuleError> {
        self.check_turn(seat)?;
        match action {
            MasqueradeAction::Assign(assignment) if self.setting_up() => self.assign(seat, *assignment, story),
            MasqueradeAction::Assign(_) => {
                return Err(RuleError::illegal(action, "the captures were assigned at the start of the game"))
            }
            _ if self.setting_up() => {
                return Err(RuleError::illegal(action, "first both players assign each other's captures"))
            }
            MasqueradeAction::Play(uci) => {
                let turn = self.resolve(uci)?;
                self.play_turn(turn, story);
            }
            MasqueradeAction::Pass if self.play_actions().is_empty() => {
                self.pass(story);
                self.check_game_end(story);
            }
            MasqueradeAction::Pass => {
                return Err(RuleError::illegal(action, "you may pass only with no move and no capture attempt"))
            }
        }
        Ok(())
    }

    /// Castling may be written king-takes-rook too (`e1h1`); it is stored
    /// in the canonical standard form (`e1g1`). As in chess games, SAN is
    /// read too (`Nf3`, `Nxc3`, `O-O`) and answered in UCI.
    fn parse_action(&self, seat: Seat, text: &str) -> Result<MasqueradeAction, RuleError> {
        let action: MasqueradeAction = match text.trim().parse() {
            Ok(action) => action,
            Err(reason) => match San::read(text) {
                Some(san) => return self.resolve_san(seat, text, san),
                None => return Err(RuleError::malformed(text, reason)),
            },
        };
        if let MasqueradeAction::Play(uci) = action {
            if let Some(m) = find_uci(&self.non_capturing_moves(), &uci.to_string()) {
                return Ok(MasqueradeAction::Play(UciAction::from_move(m, CastlingStyle::Standard)));
            }
        }
        Ok(action)
    }

    /// Everyone sees the board and the public log (moves, attempts and
    /// answers, who has assigned). A player also sees the table of their
    /// own pieces (what they deduced) and the table they filled in for the
    /// opponent. Once the game is over both assignments are revealed.
    fn heuristic(&self, seat: Seat) -> Option<f64> {
        crate::chess::position_heuristic(&self.pos, seat)
    }

    /// A capture attempt that succeeds in this game (the search asks only
    /// in worlds it drew, where every assignment is known), or a
    /// promotion. Failed attempts change nothing on the board: looking past
    /// the search's depth at them would only multiply the work.
    /// The board's Zobrist key and the rest of what the rules read: the
    /// secret capture assignments (a search runs on a drawn world) and
    /// each side's answered attempts and kings left in reach, which its
    /// knowledge is deduced from. Left out: the record (PGN start, last move).
    fn position_hash(&self) -> Option<u64> {
        let knowledge = (&self.attempts, &self.kings_left);
        Some(self.pos.zobrist() ^ hash_of(&(&self.captures, knowledge, self.outcome.is_some())))
    }

    fn is_noisy(&self, action: &MasqueradeAction) -> bool {
        let MasqueradeAction::Play(m) = action else { return false };
        if self.setting_up() || !crate::chess::is_capture_or_promotion(&self.pos, m) {
            return false;
        }
        let board = self.pos.board();
        let Some(piece) = board.piece_at(m.from) else { return false };
        let victim = board.color_at(m.to);
        if piece.role == Role::Pawn || victim != Some(piece.color.other()) {
            return true; // pawns capture as usual; a promotion by a push
        }
        let capture =
            Move::Normal { role: piece.role, from: m.from, capture: board.role_at(m.to), to: m.to, promotion: None };
        let patterns = PatternSet::reaching(&self.pos, piece.color, m.from, m.to);
        !patterns.is_empty() && self.answer(CaptureAttempt { capture, patterns: Some(patterns) })
    }

    fn view(&self, viewer: Viewer) -> View {
        let mut view = View {
            board: Some(BoardView::from_board(self.pos.board(), self.pos.mask(), &|_| Vec::new())),
            last_move: self.last_move.iter().map(ToString::to_string).collect(),
            prompt: self.prompt(viewer),
            ..View::default()
        };
        if let Some(seat) = viewer.seat().filter(|&s| s < 2) {
            view.tables.push(self.knowledge_table(seat));
            if let Some(assignment) = self.captures[1 - seat] {
                let title = format!("{}'s captures: your assignment", name(1 - seat));
                view.tables.push(assignment_table(title, 1 - seat, assignment));
            }
            view.notes = self.notes(seat);
        }
        if self.outcome.is_some() {
            for seat in 0..2 {
                if let Some(assignment) = self.captures[seat] {
                    view.tables.push(assignment_table(
                        format!("{}'s captures, revealed", name(seat)),
                        seat,
                        assignment,
                    ));
                }
            }
        }
        view
    }

    /// `seat` does not know its own pieces' captures: they are drawn again
    /// among the assignments that fit every answer `seat` has had, each
    /// weighed by the moves the opponent did not make. The opponent knows
    /// them (they assigned them), so an assignment under which the opponent
    /// left their king to be taken is the less likely. The captures `seat`
    /// assigned to the opponent stay.
    fn sample_hidden(&self, seat: Seat, rng: &mut GameRng) -> Self {
        let mut game = self.clone();
        if seat < 2 && self.outcome.is_none() && self.captures[seat].is_some() {
            let knowledge = self.knowledge(seat);
            let captures = draw_fitting_the_opponents_care(knowledge.consistent(), &self.kings_left[seat], rng);
            game.captures[seat] = Some(captures);
        }
        game
    }
}
