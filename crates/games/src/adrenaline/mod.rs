//! Adrenaline Chess (rules.md, "Adrenaline Chess"; docs/games/adrenaline.md,
//! "Rulings"; new-rules-2023b for everything but castling).
//!
//! Chess where every turn with a capture ends with an adrenaline rush: a
//! checker under one of the opponent's pieces. A piece with checkers makes
//! its regular move, then may spend them one by one on extra king steps.
//!
//! A turn is several actions of the same seat (docs/games/adrenaline.md):
//! 1. the regular move (`e2e4`);
//! 2. while the moved piece has checkers: extra king steps (`step e5e6`),
//!    or `stop`;
//! 3. after a turn with a capture: `checker h7`, one checker under an
//!    enemy piece.
//!
//! Every step is judged by the extended attack (see [`attack`]): no step
//! may leave the own king where an enemy piece could capture it in its next
//! turn, extra moves and the checkers gained on the way included.

mod action;
pub mod attack;
mod text;
mod turn;

#[cfg(test)]
mod reference;
#[cfg(test)]
mod tests;

use chesskit_core::chess::diagram::role_name;
use chesskit_core::chess::fen::{self, CastlingNotation};
use chesskit_core::chess::notation::{long_algebraic, parse_san, CastlingStyle, UciAction};
use chesskit_core::chess::pgn::{self, PgnStart};
use chesskit_core::chess::{Bitboard, Board, Color, Move, Position, Role, Square};
use chesskit_core::game::{Game, GameError, Outcome, RuleError, Seat, SeatInfo, ToAct, Viewer};
use chesskit_core::options::{OptionSpec, Options};
use chesskit_core::search_node::hash_of;
use chesskit_core::view::{BoardView, Journal, Marker, View};

use crate::chess::{colour_word, seat_of, RepetitionKey};
use crate::clone_fields::clone_field_by_field;

pub use action::AdrenalineAction;
pub use attack::Stacks;
pub use turn::{Phase, Step, Table};

/// A game of Adrenaline Chess.
#[derive(Debug, PartialEq)]
pub struct AdrenalineGame {
    table: Table,
    /// Where the game started, for its PGN, when not from the orthodox start.
    start: Option<PgnStart>,
    /// The squares of the last move, for the view (squares rather than
    /// text, so that copying a game allocates nothing).
    last_move: Option<(Square, Square)>,
    /// Positions at turn starts since the last irreversible turn.
    repetition: Vec<(RepetitionKey, Stacks)>,
    outcome: Option<Outcome>,
}

clone_field_by_field!(AdrenalineGame { table, start, last_move, repetition, outcome });

/// "the black pawn on h7"
fn piece_on(board: &Board, sq: Square) -> String {
    match board.piece_at(sq) {
        Some(p) => format!("the {} {} on {sq}", colour_word(p.color), role_name(p.role)),
        None => format!("the empty square {sq}"),
    }
}

/// What one checker under a piece of `role` is worth to its owner, in
/// pawns: an extra king step, a tempo the opponent does not get, and a
/// threat the opponent must allow for ("a square is attacked when an enemy
/// piece could capture there ... as many extra steps as its checkers pay
/// for"). It goes with its piece when captured, so the search sees a loaded
/// piece as a richer prize. A knight's step reaches the squares its jump
/// misses and a queen's makes it hard to escape; a pawn's mostly hurries its
/// promotion; a king's mostly helps it run (and keeps it from castling), so
/// the checker the rules make you give away goes where it helps least.
fn checker_worth(role: Role) -> f64 {
    match role {
        Role::Pawn => 0.2,
        Role::Knight => 0.35,
        Role::Bishop | Role::Rook => 0.3,
        Role::Queen => 0.4,
        Role::King => 0.15,
    }
}

fn checkers_word(n: u32) -> String {
    if n == 1 {
        "1 checker".to_string()
    } else {
        format!("{n} checkers")
    }
}

// ----------------------------------------------------------------------
// Setup
// ----------------------------------------------------------------------

impl AdrenalineGame {
    /// "Set up the chess pieces in the standard start position ... Place
    /// the checkers beside the board."
    fn setup(story: &mut Journal) -> AdrenalineGame {
        AdrenalineGame::assemble(Table::new(Position::startpos(), Stacks::default()), story)
    }

    fn assemble(table: Table, story: &mut Journal) -> AdrenalineGame {
        let mut game = AdrenalineGame { table, start: None, last_move: None, repetition: Vec::new(), outcome: None };
        if game.table.phase == Phase::Regular {
            game.start_turn(story);
        }
        game
    }

    pub fn table(&self) -> &Table {
        &self.table
    }

    pub fn board(&self) -> &Board {
        self.table.board()
    }

    /// The number of checkers under the piece on `sq`.
    pub fn checkers_on(&self, sq: Square) -> u32 {
        self.table.stacks.get(sq)
    }

    /// What the checkers under `color`'s pieces are worth, in pawns.
    fn adrenaline(&self, color: Color) -> f64 {
        let board = self.board();
        let stacks = &self.table.stacks;
        (stacks.loaded() & board.by_color(color))
            .into_iter()
            .filter_map(|sq| Some(checker_worth(board.role_at(sq)?) * f64::from(stacks.get(sq))))
            .sum()
    }

    fn mover(&self) -> Color {
        self.table.us()
    }

    fn seat(&self) -> Seat {
        seat_of(self.mover())
    }
}

// ----------------------------------------------------------------------
// Play
// ----------------------------------------------------------------------

impl AdrenalineGame {
    /// Step 1: "All the regular chess rules apply". The piece brings its
    /// checkers along; a capture takes over the captured piece's checkers.
    fn regular_move(&mut self, action: UciAction, story: &mut Journal) -> Result<(), RuleError> {
        let shown = AdrenalineAction::Move(action);
        if self.table.phase != Phase::Regular {
            return Err(RuleError::illegal(shown, "the regular move of this turn is made: take an extra move or stop"));
        }
        let candidates = self.table.regular_candidates_from(action.from);
        let Some(m) = action.resolve(&candidates) else {
            return Err(RuleError::illegal(shown, self.why_not_a_move(action)));
        };
        let next = self.table.after_regular(m);
        if !next.safe() {
            return Err(RuleError::illegal(
                shown,
                "that would leave your king where an enemy piece could capture it next turn (extra moves included)",
            ));
        }
        if !next.completable() {
            return Err(RuleError::illegal(
                shown,
                "after that move no checker could be placed without exposing your king",
            ));
        }
        let gained = match m {
            Move::Normal { to, capture: Some(_), .. } => self.table.stacks.get(to),
            Move::EnPassant { from, to } => self.table.stacks.get(Square::from_coords(to.file(), from.rank())),
            _ => 0,
        };
        story.public_move_with(self.seat(), || {
            let mut text = long_algebraic(m);
            if m.is_en_passant() {
                text.push_str(" e.p.");
            }
            if gained > 0 {
                text.push_str(&format!(", taking its {}", checkers_word(gained)));
            }
            (long_algebraic(m), text)
        });
        let canonical = UciAction::from_move(m, CastlingStyle::Standard);
        self.last_move = Some((canonical.from, canonical.to));
        self.table = next;
        self.after_action(story);
        Ok(())
    }

    /// Why a move that is not even a candidate was refused.
    fn why_not_a_move(&self, action: UciAction) -> String {
        let board = self.board();
        if board.color_at(action.from) != Some(self.mover()) {
            return format!("{} holds no piece of yours", action.from);
        }
        let is_castle_attempt = board.kings().contains(action.from) && action.from.distance(action.to) > 1;
        if is_castle_attempt {
            let king = self.table.stacks.get(action.from);
            let rook_has =
                (board.rooks() & board.by_color(self.mover()) & Bitboard::from_rank(self.mover().backrank()))
                    .into_iter()
                    .any(|r| self.table.stacks.get(r) > 0);
            if king > 0 || rook_has {
                return "you may not castle while the king or the rook has checkers".to_string();
            }
            return "you may not castle now: the path must be free, the rights kept, and no square the king \
                    crosses attacked, extra moves included"
                .to_string();
        }
        "not a legal move in this position".to_string()
    }

    /// Step 2: "use up one of the checkers under that piece to make an
    /// extra move like a king". Extra moves may capture, and the capturer
    /// "keeps any adrenaline the captured piece had, and may immediately
    /// use the adrenaline".
    fn extra_move(&mut self, action: UciAction, story: &mut Journal) -> Result<(), RuleError> {
        let shown = AdrenalineAction::Step(action);
        let Phase::Extra(piece) = self.table.phase else {
            return Err(RuleError::illegal(shown, "no piece of yours has extra moves now"));
        };
        if action.from != piece {
            return Err(RuleError::illegal(
                shown,
                format!("only the piece that moved, on {piece}, may take extra moves"),
            ));
        }
        let step = Step { from: action.from, to: action.to, promotion: action.promotion };
        if !self.table.step_candidates().contains(&step) {
            let reason = if action.from.distance(action.to) != 1 {
                "an extra move is one step like a king".to_string()
            } else if self.board().color_at(action.to) == Some(self.mover()) {
                format!("{} holds your own piece", action.to)
            } else if action.promotion.is_some() {
                "only a pawn stepping onto its last rank names a promotion".to_string()
            } else {
                "a pawn stepping onto its last rank promotes: name the piece, as in e7e8q".to_string()
            };
            return Err(RuleError::illegal(shown, reason));
        }
        let next = self.table.after_step(step);
        if !next.completable() {
            return Err(RuleError::illegal(
                shown,
                "that would leave your king where an enemy piece could capture it next turn (extra moves included)",
            ));
        }
        story.public_with(Some(self.seat()), || self.extra_move_text(step));
        self.last_move = Some((step.from, step.to));
        self.table = next;
        self.after_action(story);
        Ok(())
    }

    /// "extra move e4-e5, taking its 2 checkers", for the log.
    fn extra_move_text(&self, step: Step) -> String {
        let capture = self.board().color_at(step.to) == Some(self.mover().other());
        let gained = self.table.stacks.get(step.to);
        let mut text = format!("extra move {}{}{}", step.from, if capture { 'x' } else { '-' }, step.to);
        if let Some(role) = step.promotion {
            text.push_str(&format!("={}", role.upper_char()));
        }
        if gained > 0 {
            text.push_str(&format!(", taking its {}", checkers_word(gained)));
        }
        text
    }

    /// `stop`: the extra moves are optional ("you may use up ... you may
    /// continue"), so the player may stop after any of them, or before the first.
    fn stop(&mut self, story: &mut Journal) -> Result<(), RuleError> {
        let shown = AdrenalineAction::Stop;
        let Phase::Extra(piece) = self.table.phase else {
            return Err(RuleError::illegal(shown, "there are no extra moves to stop now"));
        };
        let next = self.table.after_stop();
        if !next.completable() {
            return Err(RuleError::illegal(
                shown,
                "no checker could then be placed without exposing your king: take an extra move",
            ));
        }
        let left = self.table.stacks.get(piece);
        story.public_with(Some(self.seat()), || format!("stops, keeping {} on {piece}", checkers_word(left)));
        self.table = next;
        self.after_action(story);
        Ok(())
    }

    /// Step 3, the adrenaline rush: "If you captured one or more pieces,
    /// end your turn by placing a checker under one of your opponent's
    /// remaining pieces" (the king included; only one per turn). The
    /// checker may not hand an enemy piece the reach to capture your king.
    fn place_checker(&mut self, sq: Square, story: &mut Journal) -> Result<(), RuleError> {
        let shown = AdrenalineAction::Checker(sq);
        if self.table.phase != Phase::Checker {
            return Err(RuleError::illegal(shown, "no checker is due now: one is placed after a turn with a capture"));
        }
        if self.board().color_at(sq) != Some(self.mover().other()) {
            return Err(RuleError::illegal(shown, format!("{sq} holds no enemy piece: the checker goes under one")));
        }
        if !self.table.placement_is_safe_under(sq) {
            return Err(RuleError::illegal(
                shown,
                format!("with another checker, {} could capture your king next turn", piece_on(self.board(), sq)),
            ));
        }
        story.public_with(Some(self.seat()), || format!("puts a checker under {}", piece_on(self.board(), sq)));
        self.table.place_checker(sq);
        self.after_action(story);
        Ok(())
    }

    /// After each action: when nothing is left to do in the turn, it passes.
    fn after_action(&mut self, story: &mut Journal) {
        if self.table.phase == Phase::Over {
            self.table.pass_turn();
            self.start_turn(story);
        }
    }
}

// ----------------------------------------------------------------------
// Game End
// ----------------------------------------------------------------------

impl AdrenalineGame {
    /// "Win by checkmate, as in regular chess, but you may use extra moves
    /// to threaten the king." A player with no legal turn is checkmated if
    /// their king is attacked in the extended sense, else stalemated. The
    /// referee also claims threefold repetition (checkers included), the
    /// fifty-move rule (counted in turns; extra moves that capture or move a
    /// pawn reset it), and bare kings without checkers.
    fn start_turn(&mut self, story: &mut Journal) {
        if self.table.pos.halfmoves() == 0 {
            self.repetition.clear();
        }
        let key = (RepetitionKey::of(&self.table.pos), self.table.stacks.clone());
        self.repetition.push(key);
        let winner = seat_of(self.mover().other());
        let bare_kings = self.board().occupied() == self.board().kings() && self.table.stacks.loaded().is_empty();
        self.outcome = if !self.table.has_legal_regular_move() {
            Some(if self.table.in_check() {
                Outcome::win(vec![winner], "checkmate")
            } else {
                Outcome::draw("stalemate")
            })
        } else if bare_kings {
            Some(Outcome::draw("insufficient material"))
        } else if self.table.pos.halfmoves() >= 100 {
            Some(Outcome::draw("fifty-move rule"))
        } else if self.repetition.iter().filter(|k| Some(*k) == self.repetition.last()).count() >= 3 {
            Some(Outcome::draw("threefold repetition"))
        } else {
            None
        };
        if let Some(outcome) = &self.outcome {
            story.public(None, format!("game over: {}", outcome.reason));
        }
    }
}

// ----------------------------------------------------------------------
// The referee interface
// ----------------------------------------------------------------------

impl Game for AdrenalineGame {
    type Action = AdrenalineAction;
    const VARIANT: &'static str = "adrenaline";
    const TITLE: &'static str = "Adrenaline Chess";

    fn option_specs() -> Vec<OptionSpec> {
        Vec::new()
    }

    /// What the start announces is written to `story`.
    fn open(_options: &Options, _seed: u64, position: Option<&str>, story: &mut Journal) -> Result<Self, GameError> {
        match position {
            None => Ok(AdrenalineGame::setup(story)),
            Some(position) => {
                let table = text::read(position)?;
                let start = PgnStart::new(&table.pos, CastlingNotation::XFen, position);
                let mut game = AdrenalineGame::assemble(table, story);
                game.start = Some(start);
                if game.outcome.is_none() && game.legal_actions(game.seat()).is_empty() {
                    return Err(GameError::new("the turn in progress in this position cannot be completed legally"));
                }
                Ok(game)
            }
        }
    }

    fn position(&self) -> String {
        text::write(&self.table)
    }

    fn seats(&self) -> Vec<SeatInfo> {
        SeatInfo::white_black()
    }

    fn to_act(&self) -> ToAct {
        match &self.outcome {
            Some(outcome) => ToAct::Over(outcome.clone()),
            None => ToAct::one(self.seat()),
        }
    }

    /// Single-mover: the mover while the game goes on, without the list
    /// [`Game::to_act`] builds.
    fn first_to_act(&self) -> Option<Seat> {
        self.outcome.is_none().then(|| self.seat())
    }

    fn is_to_act(&self, seat: Seat) -> bool {
        self.first_to_act() == Some(seat)
    }

    /// The actions written into the search's list: the list every node
    /// keeps is reused rather than one allocated per node.
    fn legal_actions_into(&self, seat: Seat, into: &mut Vec<AdrenalineAction>) {
        if self.is_to_act(seat) {
            write_legal_actions(&self.table, into);
        } else {
            into.clear();
        }
    }

    fn apply_with(&mut self, seat: Seat, action: &AdrenalineAction, story: &mut Journal) -> Result<(), RuleError> {
        self.check_turn(seat)?;
        match *action {
            AdrenalineAction::Move(m) => self.regular_move(m, story),
            AdrenalineAction::Step(m) => self.extra_move(m, story),
            AdrenalineAction::Stop => self.stop(story),
            AdrenalineAction::Checker(sq) => self.place_checker(sq, story),
        }
    }

    /// Moves in UCI (either castling style) or SAN; during the extra moves a
    /// bare `e5e6` is read as the step `step e5e6`.
    fn parse_action(&self, _seat: Seat, text: &str) -> Result<AdrenalineAction, RuleError> {
        match text.parse::<AdrenalineAction>() {
            Ok(AdrenalineAction::Move(m)) if matches!(self.table.phase, Phase::Extra(_)) => {
                Ok(AdrenalineAction::Step(m))
            }
            Ok(AdrenalineAction::Move(m)) => {
                let candidates = self.table.regular_candidates();
                Ok(AdrenalineAction::Move(
                    m.resolve(&candidates).map_or(m, |found| UciAction::from_move(found, CastlingStyle::Standard)),
                ))
            }
            Ok(other) => Ok(other),
            Err(reason) => match parse_san(&self.table.pos, text) {
                Ok(m) if self.table.phase == Phase::Regular => {
                    Ok(AdrenalineAction::Move(UciAction::from_move(m, CastlingStyle::Standard)))
                }
                _ => Err(RuleError::malformed(text, reason)),
            },
        }
    }

    /// One move per turn in long algebraic notation; the extra moves and
    /// the checkers placed follow it as comments.
    fn pgn(&self, story: &Journal) -> Option<String> {
        Some(pgn::variant_pgn("Adrenaline", self.start.as_ref(), vec![], story, self.outcome.as_ref()))
    }

    // The key of everything the turn's rules read: the pieces, the
    // checkers, the step of the turn. The positions kept for repetition
    // are left out, as every chess engine's key leaves them.
    fn position_hash(&self) -> Option<u64> {
        let table = &self.table;
        let rest = (&table.stacks, table.phase, table.captured, table.next_ep, &self.outcome);
        Some(table.pos.zobrist() ^ hash_of(&rest))
    }

    /// The chess evaluation plus the checkers each side carries (see
    /// [`checker_worth`]): the side with more adrenaline stands better.
    fn heuristic(&self, seat: Seat) -> Option<f64> {
        let chess = crate::chess::position_heuristic(&self.table.pos, seat)?;
        let color = crate::chess::seat_color(seat);
        Some(chess + self.adrenaline(color) - self.adrenaline(!color))
    }

    fn is_noisy(&self, action: &AdrenalineAction) -> bool {
        match action {
            AdrenalineAction::Move(m) | AdrenalineAction::Step(m) => {
                crate::chess::takes_or_promotes(self.board(), None, m)
            }
            _ => false,
        }
    }

    fn view(&self, viewer: Viewer) -> View {
        let stacks = &self.table.stacks;
        let markers = |sq: Square| match stacks.get(sq) {
            0 => Vec::new(),
            n => vec![Marker::checkers("red", n)],
        };
        let mut view = View {
            board: Some(BoardView::from_board(self.board(), self.table.pos.mask(), &markers)),
            last_move: self.last_move.map_or_else(Vec::new, |(from, to)| vec![from.to_string(), to.to_string()]),
            ..View::default()
        };
        if self.table.phase == Phase::Regular && self.table.in_check() {
            view.check = self.table.pos.king_of(self.mover()).map(|k| k.to_string());
        }
        if self.outcome.is_none() {
            view.prompt = Some(self.prompt(viewer.seat() == Some(self.seat())));
        }
        view
    }
}

/// Every legal action of the mover in `table`.
pub fn legal_actions_of(table: &Table) -> Vec<AdrenalineAction> {
    let mut actions = Vec::new();
    write_legal_actions(table, &mut actions);
    actions
}

/// [`legal_actions_of`] written into `into` (emptied first), so that the
/// search's list for a node is reused rather than allocated.
fn write_legal_actions(table: &Table, into: &mut Vec<AdrenalineAction>) {
    into.clear();
    match table.phase {
        Phase::Regular => into.extend(
            table
                .legal_regular_moves()
                .map(|m| AdrenalineAction::Move(UciAction::from_move(m, CastlingStyle::Standard))),
        ),
        Phase::Extra(_) => {
            into.extend(
                table
                    .legal_steps()
                    .into_iter()
                    .map(|s| AdrenalineAction::Step(UciAction { from: s.from, to: s.to, promotion: s.promotion })),
            );
            if table.after_stop().completable() {
                into.push(AdrenalineAction::Stop);
            }
        }
        Phase::Checker => into.extend(table.safe_placements().map(AdrenalineAction::Checker)),
        Phase::Over => {}
    }
}

/// Apply `action` to `table` as the game would, returning the next table
/// (the opponent's turn start once the turn is over); `None` if illegal.
pub fn play_on(table: &Table, action: AdrenalineAction) -> Option<Table> {
    if !legal_actions_of(table).contains(&action) {
        return None;
    }
    let next = match action {
        AdrenalineAction::Move(a) => table.after_regular(a.resolve(&table.regular_candidates())?),
        AdrenalineAction::Step(a) => table.after_step(Step { from: a.from, to: a.to, promotion: a.promotion }),
        AdrenalineAction::Stop => table.after_stop(),
        AdrenalineAction::Checker(sq) => table.after_placement(sq),
    };
    Some(if next.phase == Phase::Over { next.into_next_turn() } else { next })
}

// ----------------------------------------------------------------------
// Views
// ----------------------------------------------------------------------

impl AdrenalineGame {
    /// What the player to move must do, in words; others see whose turn it is.
    fn prompt(&self, mine: bool) -> String {
        let name = fen::color_name(self.mover());
        if !mine {
            return match self.table.phase {
                Phase::Regular | Phase::Over => format!("{name} to move"),
                Phase::Extra(_) => format!("{name} is making extra moves"),
                Phase::Checker => format!("{name} is giving one of your pieces a checker"),
            };
        }
        match self.table.phase {
            Phase::Regular | Phase::Over => {
                if self.table.in_check() {
                    "Your move: your king is in check".to_string()
                } else {
                    "Your move".to_string()
                }
            }
            Phase::Extra(sq) => format!(
                "Your piece on {sq} has {}: move it one more step like a king (spending one), or stop",
                checkers_word(self.table.stacks.get(sq))
            ),
            Phase::Checker => "You captured this turn: put a checker under one of your opponent's pieces".to_string(),
        }
    }
}
