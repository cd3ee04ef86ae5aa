//! Half Alice Chess (rules.md, "Half Alice Chess"; docs/games/half-alice.md, "Rulings").
//!
//! Alice Chess on one board: a piece on a checker stands on the other side
//! of the mirror. Each move is an orthodox move on the mover's side of the
//! mirror, after which the moved piece switches side. The board and its
//! legality live in [`mirror`]; this module is the referee: setup, the
//! turn, the end of the game, text positions, views and PGN.
//!
//! A turn is one action: a move in UCI (`e2e4`, `e7e8q`, castling `e1g1`).

pub mod mirror;
pub mod text;

#[cfg(test)]
mod reference;
#[cfg(test)]
mod tests;

use crate::chess::{colour_word, seat_of};
use crate::clone_fields::clone_field_by_field;
use chesskit_core::chess::diagram::role_name;
use chesskit_core::chess::fen::{self, CastlingNotation};
use chesskit_core::chess::notation::{long_algebraic, CastlingStyle, UciAction};
use chesskit_core::chess::pgn::{self, PgnStart};
use chesskit_core::chess::{Bitboard, Color, Move, Role, Square};
use chesskit_core::game::{Game, GameError, Outcome, RuleError, Seat, SeatInfo, ToAct, Viewer};
use chesskit_core::options::{OptionSpec, Options};
use chesskit_core::view::{BoardView, Corner, Journal, Marker, MarkerDrawing, TableView, View};

pub use mirror::{AlicePosition, Side};

/// The 12-checker option: off for unlimited checkers (the original Alice rules).
const TWELVE_CHECKERS: &str = "twelve_checkers";

/// A game of Half Alice Chess.
#[derive(Debug, PartialEq)]
pub struct HalfAliceGame {
    pos: AlicePosition,
    /// Where the game started, for its PGN, when not from the orthodox start.
    start: Option<PgnStart>,
    last_move: Vec<Square>,
    /// Positions since the last capture or pawn move, for repetition.
    repetition: Vec<AlicePosition>,
    outcome: Option<Outcome>,
}

clone_field_by_field!(HalfAliceGame { pos, start, last_move, repetition, outcome });

/// The checker supply the options ask for.
fn checker_limit(options: &Options) -> Option<u8> {
    options.bool(TWELVE_CHECKERS, false).then_some(12)
}

// ----------------------------------------------------------------------
// Setup
// ----------------------------------------------------------------------

impl HalfAliceGame {
    /// "Place the chess pieces in their standard opening position, give the
    /// light checkers to White and the dark checkers to Black."
    fn setup(options: &Options, story: &mut Journal) -> HalfAliceGame {
        HalfAliceGame::from_start(AlicePosition::startpos(checker_limit(options)), None, story)
    }

    fn from_start(pos: AlicePosition, start: Option<PgnStart>, story: &mut Journal) -> HalfAliceGame {
        let mut game =
            HalfAliceGame { repetition: vec![pos.clone()], pos, start, last_move: Vec::new(), outcome: None };
        game.judge(story);
        game
    }

    pub fn position_now(&self) -> &AlicePosition {
        &self.pos
    }

    fn mover(&self) -> Color {
        self.pos.turn()
    }
}

// ----------------------------------------------------------------------
// Play
// ----------------------------------------------------------------------

impl HalfAliceGame {
    /// One turn: "the move must be legal under orthodox chess rules" on the
    /// mover's side, then "switch the moved piece to the other side of the
    /// mirror after it moves", and the own king must not be in check then.
    fn make_move(&mut self, action: UciAction, story: &mut Journal) -> Result<(), RuleError> {
        let Some(m) = action.resolve(&self.pos.legal_moves_from(action.from)) else {
            return Err(RuleError::illegal(action, self.why_illegal(action)));
        };
        story.public_move_with(seat_of(self.mover()), || {
            let text = long_algebraic(m);
            let words = self.move_words(m, &text);
            (text, words)
        });
        if m.is_zeroing() {
            self.repetition.clear();
        }
        self.pos.play_unchecked(m);
        let canonical = UciAction::from_move(m, CastlingStyle::Standard);
        self.last_move = vec![canonical.from, canonical.to];
        self.repetition.push(self.pos.clone());
        self.judge(story);
        Ok(())
    }

    /// The log line of a move: its long algebraic text, and where the piece
    /// went ("through the mirror" onto a checker, or back off it).
    fn move_words(&self, m: Move, text: &str) -> String {
        let en_passant = if m.is_en_passant() { " e.p." } else { "" };
        let from = m.from().unwrap_or(m.to());
        let side = match self.pos.side_of(from).other() {
            Side::Far => "through the mirror",
            Side::Near => "back from the mirror",
        };
        let what = if m.is_castle() { "king and rook go" } else { "goes" };
        format!("{text}{en_passant} ({what} {side})")
    }

    /// Why a move that is not legal was refused, in the rules' words.
    fn why_illegal(&self, action: UciAction) -> String {
        let us = self.mover();
        let board = self.pos.board();
        let Some(piece) = board.piece_at(action.from).filter(|p| p.color == us) else {
            return format!("{} holds no piece of yours", action.from);
        };
        let side = self.pos.side_of(action.from);
        if side == Side::Near && self.pos.free_checkers(us) == Some(0) {
            return "you have no free checker, so you may move only pieces that stand on checkers".to_string();
        }
        let castling = piece.role == Role::King && action.from.distance(action.to) > 1;
        if castling && side == Side::Near && self.pos.free_checkers(us) == Some(1) {
            return "castling takes the king and the rook through the mirror: it needs two free checkers".to_string();
        }
        if let Some(target) = board.piece_at(action.to) {
            if self.pos.side_of(action.to) != side {
                return format!(
                    "{} holds a piece on the other side of the mirror: a square holds at most one piece",
                    action.to
                );
            }
            if target.color == us {
                return format!("{} holds a piece of yours", action.to);
            }
        }
        let mut pseudo = chesskit_core::chess::MoveList::new();
        self.pos.pseudo_legal_moves(&mut pseudo);
        match action.resolve(&pseudo) {
            Some(m) if piece.role == Role::King || m.is_castle() => {
                "your king would be in check, before or after it switches side".to_string()
            }
            Some(_) => "your king would be in check on its side of the mirror after the move".to_string(),
            None => {
                format!("the {} on {} cannot move so on its side of the mirror", role_name(piece.role), action.from)
            }
        }
    }
}

// ----------------------------------------------------------------------
// Game End
// ----------------------------------------------------------------------

impl HalfAliceGame {
    /// "Place the opponent's king in checkmate": a player with no legal
    /// move is checkmated when in check on the king's side of the mirror,
    /// stalemated otherwise. The referee also claims the draws of chess
    /// that apply here (our ruling): threefold repetition, the fifty-move
    /// rule, and bare kings. Other material can mate through the mirror, so
    /// no other position is drawn for lack of material.
    fn judge(&mut self, story: &mut Journal) {
        let us = self.mover();
        self.outcome = if !self.pos.has_legal_move() {
            Some(if self.pos.in_check(us) {
                Outcome::win(vec![seat_of(us.other())], "checkmate")
            } else {
                Outcome::draw("stalemate")
            })
        } else if self.pos.bare_kings() {
            Some(Outcome::draw("insufficient material"))
        } else if self.pos.inner().halfmoves() >= 100 {
            Some(Outcome::draw("fifty-move rule"))
        } else if self.repetition.iter().filter(|p| self.same_position(p)).count() >= 3 {
            Some(Outcome::draw("threefold repetition"))
        } else {
            None
        };
        if let Some(outcome) = &self.outcome {
            story.public(None, format!("game over: {}", outcome.reason));
        }
    }

    /// The same position for repetition: the same pieces on the same sides
    /// of the mirror, the same player to move, the same castling rights and
    /// en passant (the clocks aside; free checkers follow from the board).
    fn same_position(&self, other: &AlicePosition) -> bool {
        let (a, b) = (self.pos.inner(), other.inner());
        self.pos.far() == other.far()
            && a.board() == b.board()
            && a.turn() == b.turn()
            && a.castling_rooks() == b.castling_rooks()
            && a.ep_square() == b.ep_square()
    }
}

// ----------------------------------------------------------------------
// The referee interface
// ----------------------------------------------------------------------

impl Game for HalfAliceGame {
    type Action = UciAction;
    const VARIANT: &'static str = "half-alice";
    const TITLE: &'static str = "Half Alice Chess";

    fn option_specs() -> Vec<OptionSpec> {
        vec![OptionSpec::bool(
            TWELVE_CHECKERS,
            false,
            "play with 12 checkers each, as in a checkers set: a piece without a checker may move only while \
             its owner has a free checker (off: unlimited checkers, the original Alice rules)",
        )
        .label("Twelve checkers each")]
    }

    /// What the start announces is written to `story`.
    fn open(options: &Options, _seed: u64, position: Option<&str>, story: &mut Journal) -> Result<Self, GameError> {
        match position {
            None => Ok(HalfAliceGame::setup(options, story)),
            Some(position) => {
                let pos = text::read(position, checker_limit(options))?;
                let start = PgnStart::new(pos.inner(), CastlingNotation::XFen, position);
                Ok(HalfAliceGame::from_start(pos, Some(start), story))
            }
        }
    }

    fn position(&self) -> String {
        text::write(&self.pos)
    }

    fn seats(&self) -> Vec<SeatInfo> {
        SeatInfo::white_black()
    }

    fn to_act(&self) -> ToAct {
        match &self.outcome {
            Some(outcome) => ToAct::Over(outcome.clone()),
            None => ToAct::one(seat_of(self.mover())),
        }
    }

    /// Single-mover: the mover while the game goes on, without the list
    /// [`Game::to_act`] builds.
    fn first_to_act(&self) -> Option<Seat> {
        self.outcome.is_none().then(|| seat_of(self.mover()))
    }

    fn is_to_act(&self, seat: Seat) -> bool {
        self.first_to_act() == Some(seat)
    }

    /// The moves written into the search's list: the list every node keeps
    /// is reused rather than one allocated per node.
    fn legal_actions_into(&self, seat: Seat, into: &mut Vec<UciAction>) {
        into.clear();
        if self.is_to_act(seat) {
            into.extend(self.pos.legal_moves().iter().map(|&m| UciAction::from_move(m, CastlingStyle::Standard)));
        }
    }

    fn apply_with(&mut self, seat: Seat, action: &UciAction, story: &mut Journal) -> Result<(), RuleError> {
        self.check_turn(seat)?;
        self.make_move(*action, story)
    }

    /// Moves in UCI (either castling style), SAN (`Nf3`, `O-O`) or long
    /// algebraic (`Ng1-f3`), all read against this game's legal moves.
    fn parse_action(&self, _seat: Seat, text: &str) -> Result<UciAction, RuleError> {
        let legal = self.pos.legal_moves();
        if let Ok(action) = text.trim().parse::<UciAction>() {
            return Ok(action.resolve(&legal).map_or(action, |m| UciAction::from_move(m, CastlingStyle::Standard)));
        }
        match read_move(&legal, text) {
            Some(m) => Ok(UciAction::from_move(m, CastlingStyle::Standard)),
            None => Err(RuleError::malformed(
                text,
                "not a legal move here; write moves in UCI (e2e4), SAN (Nf3) or long algebraic (Ng1-f3)",
            )),
        }
    }

    /// The game as PGN: one move per turn in long algebraic notation (the
    /// moves are chess moves, but their legality is not chess's), with the
    /// side each piece went to as a comment.
    fn pgn(&self, story: &Journal) -> Option<String> {
        Some(pgn::variant_pgn("Half Alice", self.start.as_ref(), vec![], story, self.outcome.as_ref()))
    }

    fn heuristic(&self, seat: Seat) -> Option<f64> {
        crate::chess::position_heuristic(self.pos.inner(), seat)
    }

    /// [`AlicePosition::zobrist`]. Left out, as in chess: the record
    /// (PGN start, last move) and the repetition history.
    fn position_hash(&self) -> Option<u64> {
        Some(self.pos.zobrist() ^ u64::from(self.outcome.is_some()))
    }

    fn is_noisy(&self, action: &UciAction) -> bool {
        crate::chess::takes_or_promotes(self.pos.board(), None, action)
    }

    fn view(&self, _viewer: Viewer) -> View {
        let far = self.pos.far();
        let board = self.pos.board();
        let markers = |square: Square| {
            if !far.contains(square) {
                return Vec::new();
            }
            let owner = board.color_at(square).map_or("white", colour_word);
            // The checker under the piece, and an "M" in a mirror-blue badge clear of the rank numbers.
            let mirror = MarkerDrawing::badge(Corner::TopLeft, "#90caf9", "M").rim("#0d47a1");
            vec![Marker::checkers(owner, 1), Marker::new("mirror").text("M").drawn(mirror)]
        };
        let mut view = View {
            board: Some(BoardView::from_board(board, Bitboard::FULL, &markers)),
            last_move: self.last_move.iter().map(ToString::to_string).collect(),
            ..View::default()
        };
        if self.pos.checker_limit().is_some() {
            view.tables.push(self.checkers_table());
        }
        view.check = Color::ALL
            .into_iter()
            .find(|&c| self.pos.in_check(c))
            .and_then(|c| self.pos.inner().king_of(c))
            .map(|k| k.to_string());
        if self.outcome.is_none() {
            view.prompt = Some(format!("{} to move", fen::color_name(self.mover())));
        }
        view
    }
}

impl HalfAliceGame {
    /// Each player's free checkers, under the 12-checker option.
    fn checkers_table(&self) -> TableView {
        let rows = Color::ALL
            .into_iter()
            .map(|c| {
                let free = self.pos.free_checkers(c).unwrap_or_default();
                vec![colour_word(c).to_string(), free.to_string()]
            })
            .collect();
        TableView {
            title: "Free checkers".to_string(),
            columns: vec!["colour".to_string(), "free".to_string()],
            rows,
            drawn_as: None,
        }
    }
}

/// The legal move written in SAN or long algebraic notation, if exactly one
/// matches (`+ # ! ?` ignored, `0-0` read as `O-O`).
pub(crate) fn read_move(legal: &[Move], text: &str) -> Option<Move> {
    let clean = |s: &str| s.trim().trim_end_matches(['+', '#', '!', '?']).replace('0', "O").replace("e.p.", "");
    let wanted = clean(text);
    let mut found = legal.iter().copied().filter(|&m| {
        let long = long_algebraic(m);
        let san = san(legal, m);
        [long.clone(), long.replace('-', ""), san.clone(), san.replace('=', "")]
            .iter()
            .any(|form| clean(form) == wanted || clean(form).replace('x', "") == wanted.replace('x', ""))
    });
    let first = found.next()?;
    found.next().is_none().then_some(first)
}

/// The SAN of a legal move, disambiguated among `legal` (without `+`).
fn san(legal: &[Move], m: Move) -> String {
    match m {
        Move::Castle { king, rook } => if rook.file() > king.file() { "O-O" } else { "O-O-O" }.to_string(),
        Move::EnPassant { from, to } => format!("{}x{to}", from.file().char()),
        Move::Put { role, to } => format!("{}@{to}", role.upper_char()),
        Move::Normal { role: Role::Pawn, from, capture, to, promotion } => {
            let take = if capture.is_some() { format!("{}x", from.file().char()) } else { String::new() };
            let promo = promotion.map_or(String::new(), |p| format!("={}", p.upper_char()));
            format!("{take}{to}{promo}")
        }
        Move::Normal { role, from, capture, to, .. } => {
            let rivals: Vec<Square> = legal
                .iter()
                .filter_map(|o| match *o {
                    Move::Normal { role: r, from: f, to: t, .. } if r == role && t == to && f != from => Some(f),
                    _ => None,
                })
                .collect();
            let which = if rivals.is_empty() {
                String::new()
            } else if rivals.iter().all(|r| r.file() != from.file()) {
                from.file().char().to_string()
            } else if rivals.iter().all(|r| r.rank() != from.rank()) {
                from.rank().char().to_string()
            } else {
                from.to_string()
            };
            format!("{}{which}{}{to}", role.upper_char(), if capture.is_some() { "x" } else { "" })
        }
    }
}
