//! Split-Brain Chess (new-rules-2025, "Split-Brain Chess"; docs/games/split-brain.md,
//! "Rulings").
//!
//! Four players in two partnerships play Los Alamos chess on the inner 6x6
//! of the board (b2 to g7). Each move is made by two partners together: the
//! chooser secretly circles the piece to move, the mover secretly circles
//! the target square, and the pair is resolved by the rules of "Making a
//! Move". Which partner chooses is decided by the checker's corner, which
//! slides after every Black move.
//!
//! Seats (the Crowded House order): 0 king-side White, 1 king-side Black,
//! 2 queen-side White, 3 queen-side Black. Teams: 0 White, 1 Black.
//!
//! Actions: `circle e4` (a secret circle), `correct e4` (the opponents'
//! chooser breaking a tie between nearest valid squares), `keep piece` /
//! `keep target` (the opponents' chooser, when the circles do not make a
//! legal move), and a move in UCI (`c2d4`, `c6c7q`) when the rules leave
//! several moves equally close.

pub mod choices;
pub mod text;

#[cfg(test)]
mod reference;
#[cfg(test)]
mod tests;

use std::fmt;
use std::str::FromStr;

use crate::chess::colour_word;
use chesskit_core::chess::fen::{self, parse_square, CastlingNotation};
use chesskit_core::chess::notation::{long_algebraic, CastlingStyle, UciAction};
use chesskit_core::chess::pgn::{self, PgnText};
use chesskit_core::chess::{Bitboard, Color, Geometry, Move, Position, Square};
use chesskit_core::game::{Game, GameAction, GameError, Outcome, RuleError, Seat, SeatInfo, ToAct, Viewer};
use chesskit_core::options::Options;
use chesskit_core::rng::GameRng;
use chesskit_core::search_node::hash_of;
use chesskit_core::view::{ActionInfo, BoardView, Journal, Marker, MarkerDrawing, TableView, View};

pub use choices::{manhattan, Choices};

// ----------------------------------------------------------------------
// Seats, sides and partners
// ----------------------------------------------------------------------

/// A half of the board: the king side (files e to h) or the queen side
/// (files a to d). Each team has one partner on each side, and the checker
/// stands in a corner of one side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    King,
    Queen,
}

impl Side {
    pub fn other(self) -> Side {
        match self {
            Side::King => Side::Queen,
            Side::Queen => Side::King,
        }
    }

    pub fn word(self) -> &'static str {
        match self {
            Side::King => "king-side",
            Side::Queen => "queen-side",
        }
    }

    /// The corner the checker stands in on this side: the black king's
    /// corner (h8) or the black queen's corner (a8), off the 6x6 board.
    pub fn corner(self) -> Square {
        match self {
            Side::King => Square::H8,
            Side::Queen => Square::A8,
        }
    }
}

/// The two halves of a move: "The chooser chooses which piece to move. The
/// other is the mover, who decides where to move it."
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Partner {
    Chooser,
    Mover,
}

impl Partner {
    /// What this partner's circle stands for.
    fn circle_word(self) -> &'static str {
        match self {
            Partner::Chooser => "piece",
            Partner::Mover => "target",
        }
    }
}

/// The seat of `colour`'s partner on `side`.
pub fn seat_of(colour: Color, side: Side) -> Seat {
    let side_index = match side {
        Side::King => 0,
        Side::Queen => 2,
    };
    side_index + colour.fold_wb(0, 1)
}

/// The colour and side of a seat.
fn place_of(seat: Seat) -> (Color, Side) {
    let colour = if seat.is_multiple_of(2) { Color::White } else { Color::Black };
    let side = if seat < 2 { Side::King } else { Side::Queen };
    (colour, side)
}

/// A circled square: a blue pencil ring, dashed, and what it circles.
fn circle_marker(what: &str) -> Marker {
    Marker::new("circle")
        .colour("blue")
        .text(what)
        .drawn(MarkerDrawing::Ring { colour: "blue".to_string(), dashed: true })
}

fn seat_name(seat: Seat) -> String {
    let (colour, side) = place_of(seat);
    let side = if side == Side::King { "King-side" } else { "Queen-side" };
    format!("{side} {}", fen::color_name(colour))
}

// ----------------------------------------------------------------------
// Actions
// ----------------------------------------------------------------------

/// Which circle the opponents' chooser keeps when the pair is not a legal move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Keep {
    Piece,
    Target,
}

/// One action of Split-Brain Chess.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SplitBrainAction {
    /// A partner's secret circle on the paper grid.
    Circle(Square),
    /// The opponents' chooser picks among tied nearest valid squares.
    Correct(Square),
    /// The opponents' chooser keeps the piece or the target.
    Keep(Keep),
    /// The move the finishing partner picks among equally close moves.
    Move(UciAction),
}

impl fmt::Display for SplitBrainAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SplitBrainAction::Circle(sq) => write!(f, "circle {sq}"),
            SplitBrainAction::Correct(sq) => write!(f, "correct {sq}"),
            SplitBrainAction::Keep(Keep::Piece) => f.write_str("keep piece"),
            SplitBrainAction::Keep(Keep::Target) => f.write_str("keep target"),
            SplitBrainAction::Move(m) => write!(f, "{m}"),
        }
    }
}

impl FromStr for SplitBrainAction {
    type Err = String;

    fn from_str(text: &str) -> Result<SplitBrainAction, String> {
        let words: Vec<&str> = text.split_whitespace().collect();
        let square = |word: &str| parse_square(word).ok_or_else(|| format!("{word:?} is not a square like e4"));
        match words[..] {
            ["circle", sq] => Ok(SplitBrainAction::Circle(square(sq)?)),
            ["correct", sq] => Ok(SplitBrainAction::Correct(square(sq)?)),
            ["keep", "piece"] => Ok(SplitBrainAction::Keep(Keep::Piece)),
            ["keep", "target"] => Ok(SplitBrainAction::Keep(Keep::Target)),
            [uci] => uci.parse().map(SplitBrainAction::Move).map_err(|_| {
                format!(
                    "expected `circle e4`, `correct e4`, `keep piece`, `keep target` or a move like c2d4, not {text:?}"
                )
            }),
            _ => Err(format!(
                "expected `circle e4`, `correct e4`, `keep piece`, `keep target` or a move like c2d4, not {text:?}"
            )),
        }
    }
}

impl GameAction for SplitBrainAction {
    fn info(&self) -> ActionInfo {
        match self {
            SplitBrainAction::Circle(sq) => ActionInfo {
                text: self.to_string(),
                square: Some(sq.to_string()),
                label: Some(format!("Circle {sq}")),
                ..ActionInfo::default()
            },
            SplitBrainAction::Correct(sq) => ActionInfo {
                text: self.to_string(),
                square: Some(sq.to_string()),
                label: Some(format!("Use {sq}")),
                ..ActionInfo::default()
            },
            SplitBrainAction::Keep(keep) => ActionInfo {
                text: self.to_string(),
                label: Some(match keep {
                    Keep::Piece => "Keep the piece".to_string(),
                    Keep::Target => "Keep the target".to_string(),
                }),
                ..ActionInfo::default()
            },
            SplitBrainAction::Move(m) => m.info(),
        }
    }
}

// ----------------------------------------------------------------------
// The state of a move in progress
// ----------------------------------------------------------------------

/// How the finishing move was reached, which says who picks among ties.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Route {
    /// The circles make a legal move: the mover makes it (and picks the promotion).
    Pair,
    /// The piece was kept: the mover moves it as close to the target as it can go.
    Piece,
    /// The target was kept: the chooser moves the closest piece that can go there.
    Target,
}

impl Route {
    fn finisher(self) -> Partner {
        match self {
            Route::Pair | Route::Piece => Partner::Mover,
            Route::Target => Partner::Chooser,
        }
    }

    fn word(self) -> &'static str {
        match self {
            Route::Pair => "pair",
            Route::Piece => "piece",
            Route::Target => "target",
        }
    }
}

/// Where the team to move is in making its move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Step {
    /// Both partners circle in secret; a circle is `Some` once made.
    Circling { chooser: Option<Square>, mover: Option<Square> },
    /// A circle is invalid and several valid squares are nearest: the
    /// opponents' chooser picks one. `chooser` and `mover` are the circles
    /// as they stand (the chooser's already corrected when `partner` is the mover).
    Correcting { partner: Partner, chooser: Square, mover: Square },
    /// The circles are valid but no legal move: the opponents' chooser keeps one.
    Keeping { piece: Square, target: Square },
    /// Several moves are equally close: the finishing partner picks one.
    Finishing { route: Route, piece: Square, target: Square },
}

// ----------------------------------------------------------------------
// The game
// ----------------------------------------------------------------------

/// A game of Split-Brain Chess.
#[derive(Clone, Debug, PartialEq)]
pub struct SplitBrainGame {
    pos: Position,
    /// The side of the board the checker's corner is on.
    checker: Side,
    step: Step,
    /// Where the game started, when not from the Los Alamos start, for its PGN.
    start: Option<Start>,
    last_move: Vec<Square>,
    /// Positions (and checker sides) since the last capture or pawn move.
    repetition: Vec<(Position, Side)>,
    outcome: Option<Outcome>,
}

/// A start other than the Los Alamos start: the FEN for the PGN's tags,
/// and the text position when it says more (the checker, circles).
#[derive(Clone, Debug, PartialEq)]
struct Start {
    fen: String,
    fullmove: u32,
    to_move: Color,
    text: Option<String>,
}

impl Start {
    fn new(pos: &Position, text: &str) -> Start {
        let fen = fen::to_fen(pos, CastlingNotation::XFen);
        let text = (text.trim() != fen).then(|| text.trim().to_string());
        Start { fen, fullmove: pos.fullmoves(), to_move: pos.turn(), text }
    }
}

// ----------------------------------------------------------------------
// Setup
// ----------------------------------------------------------------------

/// "Los Alamos chess is played on a 6x6 board, without bishops": the
/// starting position on the inner 6x6 of the 8x8 board.
pub const START_FEN: &str = "8/1rnqknr1/1pppppp1/8/8/1PPPPPP1/1RNQKNR1/8 w - - 0 1";

/// Los Alamos chess on b2 to g7: no double step, no castling, no promotion
/// to bishop (the core's geometry).
pub fn geometry() -> Geometry {
    Geometry::los_alamos()
}

impl SplitBrainGame {
    /// "Place the checker or coin in the black king's corner."
    fn setup(story: &mut Journal) -> SplitBrainGame {
        let pos = text::read(START_FEN).expect("the start position reads").pos;
        SplitBrainGame::from_parts(pos, Side::King, Step::Circling { chooser: None, mover: None }, None, story)
    }

    fn from_parts(
        pos: Position,
        checker: Side,
        step: Step,
        start: Option<Start>,
        story: &mut Journal,
    ) -> SplitBrainGame {
        let mut game = SplitBrainGame {
            repetition: vec![(pos.clone(), checker)],
            pos,
            checker,
            step,
            start,
            last_move: Vec::new(),
            outcome: None,
        };
        game.judge(story);
        game
    }

    pub fn board_position(&self) -> &Position {
        &self.pos
    }

    pub fn checker(&self) -> Side {
        self.checker
    }

    pub fn step(&self) -> Step {
        self.step
    }

    fn team(&self) -> Color {
        self.pos.turn()
    }

    /// "The partner on the same side as the checker is the chooser."
    pub fn seat_of_partner(&self, colour: Color, partner: Partner) -> Seat {
        match partner {
            Partner::Chooser => seat_of(colour, self.checker),
            Partner::Mover => seat_of(colour, self.checker.other()),
        }
    }

    /// What `seat` is this turn, if it is on the team to move.
    fn partner_of(&self, seat: Seat) -> Option<Partner> {
        let (colour, side) = place_of(seat);
        (colour == self.team()).then(|| if side == self.checker { Partner::Chooser } else { Partner::Mover })
    }

    /// The opponents' chooser, who settles ties and keeps piece or target.
    fn opponents_chooser(&self) -> Seat {
        self.seat_of_partner(self.team().other(), Partner::Chooser)
    }

    fn choices(&self) -> Choices {
        Choices::new(&self.pos)
    }
}

// ----------------------------------------------------------------------
// Play
// ----------------------------------------------------------------------

impl SplitBrainGame {
    /// "They both shield their paper grids from each other ... and circle a
    /// square." A circle is any square of the 6x6 grid; an invalid one is
    /// corrected once both are revealed. It stays secret until then.
    fn circle(&mut self, seat: Seat, square: Square, story: &mut Journal) -> Result<(), RuleError> {
        let action = SplitBrainAction::Circle(square);
        let Step::Circling { chooser, mover } = self.step else {
            return Err(RuleError::illegal(action, "the circles are already revealed"));
        };
        let Some(partner) = self.partner_of(seat) else {
            return Err(RuleError::NotYourTurn { seat });
        };
        if !self.pos.mask().contains(square) {
            return Err(RuleError::illegal(action, format!("{square} is off the 6x6 grid (b2 to g7)")));
        }
        let (chooser, mover) = match partner {
            Partner::Chooser => (Some(square), mover),
            Partner::Mover => (chooser, Some(square)),
        };
        self.step = Step::Circling { chooser, mover };
        // Only that a circle was made is public; the square is in the
        // seat's own view notes until both are revealed.
        story.public_secret_choice(seat, "has circled a square");
        if let (Some(chooser), Some(mover)) = (chooser, mover) {
            self.reveal(chooser, mover, story);
        }
        Ok(())
    }

    /// "Once they've both circled a square, they reveal their grids."
    fn reveal(&mut self, chooser: Square, mover: Square, story: &mut Journal) {
        let colour = fen::color_name(self.team());
        story.public_with(None, || format!("{colour} reveals: piece circle {chooser}, target circle {mover}"));
        // The position stands until the move: one list of its moves
        // serves the corrections, the pair and the finishing moves.
        let choices = self.choices();
        self.correct(&choices, Partner::Chooser, chooser, mover, story);
    }

    /// "If either player circles an invalid square, they must circle the
    /// nearest valid square instead. If more than one valid square is the
    /// same distance, the opponents' chooser may choose which one to use."
    /// The chooser's circle is corrected first, then the mover's.
    fn correct(&mut self, choices: &Choices, partner: Partner, chooser: Square, mover: Square, story: &mut Journal) {
        let (circle, candidates) = match partner {
            Partner::Chooser => (chooser, choices.piece_candidates(chooser)),
            Partner::Mover => (mover, choices.target_candidates(mover)),
        };
        if candidates.contains(circle) {
            return self.after_correction(choices, partner, chooser, mover, story);
        }
        match candidates.single_square() {
            Some(nearest) => {
                story.public_with(None, || {
                    format!(
                        "the {} circle {circle} is not valid: the nearest valid square is {nearest}",
                        partner.circle_word()
                    )
                });
                let (chooser, mover) = match partner {
                    Partner::Chooser => (nearest, mover),
                    Partner::Mover => (chooser, nearest),
                };
                self.after_correction(choices, partner, chooser, mover, story);
            }
            None => {
                story.public_with(None, || {
                    format!(
                        "the {} circle {circle} is not valid: {} are equally near, the opponents' chooser picks",
                        partner.circle_word(),
                        squares_text(candidates)
                    )
                });
                self.step = Step::Correcting { partner, chooser, mover };
            }
        }
    }

    fn after_correction(
        &mut self,
        choices: &Choices,
        partner: Partner,
        chooser: Square,
        mover: Square,
        story: &mut Journal,
    ) {
        match partner {
            Partner::Chooser => self.correct(choices, Partner::Mover, chooser, mover, story),
            Partner::Mover => self.resolve(choices, chooser, mover, story),
        }
    }

    /// The opponents' chooser picks one of the tied nearest valid squares.
    fn pick_correction(&mut self, seat: Seat, square: Square, story: &mut Journal) -> Result<(), RuleError> {
        let action = SplitBrainAction::Correct(square);
        let Step::Correcting { partner, chooser, mover } = self.step else {
            return Err(RuleError::illegal(action, "no circle is waiting for a correction"));
        };
        let choices = self.choices();
        let candidates = correction_candidates(&choices, partner, chooser, mover);
        if !candidates.contains(square) {
            return Err(RuleError::illegal(
                action,
                format!("{square} is not one of the nearest valid squares ({})", squares_text(candidates)),
            ));
        }
        story.public_with(Some(seat), || format!("picks {square} for the {} circle", partner.circle_word()));
        let (chooser, mover) = match partner {
            Partner::Chooser => (square, mover),
            Partner::Mover => (chooser, square),
        };
        self.after_correction(&choices, partner, chooser, mover, story);
        Ok(())
    }

    fn correction_candidates(&self, partner: Partner, chooser: Square, mover: Square) -> Bitboard {
        correction_candidates(&self.choices(), partner, chooser, mover)
    }

    /// "If the chosen piece can legally move to the target square, the
    /// mover makes that move. If not, the opponents' chooser chooses
    /// whether they must use the chosen piece or the target square."
    fn resolve(&mut self, choices: &Choices, piece: Square, target: Square, story: &mut Journal) {
        if choices.pair(piece, target).is_empty() {
            story.public_with(None, || {
                format!("{piece} cannot move to {target}: the opponents' chooser keeps the piece or the target")
            });
            self.step = Step::Keeping { piece, target };
        } else {
            self.finish(choices, Route::Pair, piece, target, story);
        }
    }

    /// The opponents' chooser keeps the piece or the target.
    fn keep(&mut self, seat: Seat, keep: Keep, story: &mut Journal) -> Result<(), RuleError> {
        let Step::Keeping { piece, target } = self.step else {
            return Err(RuleError::illegal(SplitBrainAction::Keep(keep), "there is no piece or target to keep now"));
        };
        let (route, what) = match keep {
            Keep::Piece => (Route::Piece, format!("the piece {piece}")),
            Keep::Target => (Route::Target, format!("the target {target}")),
        };
        story.public_with(Some(seat), || format!("keeps {what}"));
        self.finish(&self.choices(), route, piece, target, story);
        Ok(())
    }

    /// The moves the route allows: the pair itself, the kept piece's moves
    /// ending closest to the target, or the moves to the kept target by the
    /// pieces closest to the chosen one. "If more than one choice is the
    /// same distance, players may use whichever they prefer."
    fn finishing_moves(&self, route: Route, piece: Square, target: Square) -> Vec<Move> {
        finishing_moves_among(&self.choices(), route, piece, target)
    }

    /// Play the move when the route leaves one, else let the finishing
    /// partner pick among the equally close ones.
    fn finish(&mut self, choices: &Choices, route: Route, piece: Square, target: Square, story: &mut Journal) {
        match finishing_moves_among(choices, route, piece, target)[..] {
            [m] => self.play(m, route.finisher(), story),
            _ => {
                let seat = self.seat_of_partner(self.team(), route.finisher());
                story.public_with(None, || format!("several moves are equally close: {} picks", seat_name(seat)));
                self.step = Step::Finishing { route, piece, target };
            }
        }
    }

    /// The finishing partner picks one of the equally close moves.
    fn pick_move(&mut self, action: UciAction, story: &mut Journal) -> Result<(), RuleError> {
        let Step::Finishing { route, piece, target } = self.step else {
            return Err(RuleError::illegal(action, "no move is to be picked now: circle a square"));
        };
        let options = self.finishing_moves(route, piece, target);
        match action.resolve(&options) {
            Some(m) => {
                self.play(m, route.finisher(), story);
                Ok(())
            }
            None => Err(RuleError::illegal(
                action,
                format!(
                    "the rules allow only {}",
                    options.iter().map(|&m| long_algebraic(m)).collect::<Vec<_>>().join(", ")
                ),
            )),
        }
    }

    /// `partner` makes the move; "after the black team finishes their
    /// move, they slide the checker from the king's corner to the queen's
    /// corner, or vice versa."
    fn play(&mut self, m: Move, partner: Partner, story: &mut Journal) {
        let colour = self.team();
        let seat = self.seat_of_partner(colour, partner);
        story.public_move_with(seat, || {
            let text = long_algebraic(m);
            let words = format!("{} plays {text}", fen::color_name(colour));
            (text, words)
        });
        if m.is_zeroing() {
            self.repetition.clear();
        }
        self.pos.play_unchecked(m);
        let canonical = UciAction::from_move(m, CastlingStyle::Standard);
        self.last_move = vec![canonical.from, canonical.to];
        if colour == Color::Black {
            self.checker = self.checker.other();
            story.public_with(None, || format!("the checker slides to the {} corner", self.checker.word()));
        }
        self.step = Step::Circling { chooser: None, mover: None };
        self.repetition.push((self.pos.clone(), self.checker));
        self.judge(story);
    }
}

/// [`SplitBrainGame::finishing_moves`] among `choices`, the position's.
fn finishing_moves_among(choices: &Choices, route: Route, piece: Square, target: Square) -> Vec<Move> {
    match route {
        Route::Pair => choices.pair(piece, target),
        Route::Piece => choices.keeping_piece(piece, target),
        Route::Target => choices.keeping_target(piece, target),
    }
}

/// The candidates for the circle of `partner` among `choices`.
fn correction_candidates(choices: &Choices, partner: Partner, chooser: Square, mover: Square) -> Bitboard {
    match partner {
        Partner::Chooser => choices.piece_candidates(chooser),
        Partner::Mover => choices.target_candidates(mover),
    }
}

fn squares_text(set: Bitboard) -> String {
    set.into_iter().map(|sq| sq.to_string()).collect::<Vec<_>>().join(", ")
}

// ----------------------------------------------------------------------
// Game End
// ----------------------------------------------------------------------

impl SplitBrainGame {
    /// "As in regular chess, put the opponent's king in checkmate to win
    /// the game." The draws of regular chess apply too (stalemate,
    /// threefold repetition with the checker in the same corner, the
    /// fifty-move rule, insufficient material).
    fn judge(&mut self, story: &mut Journal) {
        let us = self.team();
        // The choices are empty exactly when no legal move is left.
        self.outcome = if !self.pos.has_legal_move() {
            Some(if self.pos.is_check() {
                let colour = us.other();
                Outcome::win(vec![seat_of(colour, Side::King), seat_of(colour, Side::Queen)], "checkmate")
            } else {
                Outcome::draw("stalemate")
            })
        } else if self.pos.is_insufficient_material() {
            Some(Outcome::draw("insufficient material"))
        } else if self.pos.halfmoves() >= 100 {
            Some(Outcome::draw("fifty-move rule"))
        } else if self.repetitions() >= 3 {
            Some(Outcome::draw("threefold repetition"))
        } else {
            None
        };
        if let Some(outcome) = &self.outcome {
            story.public(None, format!("game over: {}", outcome.reason));
        }
    }

    fn repetitions(&self) -> usize {
        let same = |(p, side): &(Position, Side)| {
            *side == self.checker && p.board() == self.pos.board() && p.turn() == self.pos.turn()
        };
        self.repetition.iter().filter(|entry| same(entry)).count()
    }
}

// ----------------------------------------------------------------------
// The referee interface
// ----------------------------------------------------------------------

impl Game for SplitBrainGame {
    type Action = SplitBrainAction;
    const VARIANT: &'static str = "split-brain";
    const TITLE: &'static str = "Split-Brain Chess";

    /// What the start announces is written to `story`.
    fn open(_options: &Options, _seed: u64, position: Option<&str>, story: &mut Journal) -> Result<Self, GameError> {
        match position {
            None => Ok(SplitBrainGame::setup(story)),
            Some(position) => {
                let read = text::read(position)?;
                let start = Start::new(&read.pos, position);
                let game = SplitBrainGame::from_parts(read.pos, read.checker, read.step, Some(start), story);
                if game.outcome.is_some() && read.step != (Step::Circling { chooser: None, mover: None }) {
                    return Err(GameError::new("the game is over in this position: no move can be in progress"));
                }
                text::check_step(&game)?;
                Ok(game)
            }
        }
    }

    fn position(&self) -> String {
        text::write(self)
    }

    fn seats(&self) -> Vec<SeatInfo> {
        (0..4)
            .map(|seat| {
                let (colour, _) = place_of(seat);
                SeatInfo::new(&seat_name(seat)).with_colour(colour_word(colour)).with_team(colour.fold_wb(0, 1))
            })
            .collect()
    }

    fn to_act(&self) -> ToAct {
        if let Some(outcome) = &self.outcome {
            return ToAct::Over(outcome.clone());
        }
        let team = self.team();
        match self.step {
            Step::Circling { chooser, mover } => {
                let mut seats = Vec::new();
                if chooser.is_none() {
                    seats.push(self.seat_of_partner(team, Partner::Chooser));
                }
                if mover.is_none() {
                    seats.push(self.seat_of_partner(team, Partner::Mover));
                }
                seats.sort_unstable();
                ToAct::Seats(seats)
            }
            Step::Correcting { .. } | Step::Keeping { .. } => ToAct::one(self.opponents_chooser()),
            Step::Finishing { route, .. } => ToAct::one(self.seat_of_partner(team, route.finisher())),
        }
    }

    fn legal_actions(&self, seat: Seat) -> Vec<SplitBrainAction> {
        if !self.to_act().seats().contains(&seat) {
            return Vec::new();
        }
        match self.step {
            Step::Circling { .. } => self.pos.mask().into_iter().map(SplitBrainAction::Circle).collect(),
            Step::Correcting { partner, chooser, mover } => {
                self.correction_candidates(partner, chooser, mover).into_iter().map(SplitBrainAction::Correct).collect()
            }
            Step::Keeping { .. } => vec![SplitBrainAction::Keep(Keep::Piece), SplitBrainAction::Keep(Keep::Target)],
            Step::Finishing { route, piece, target } => self
                .finishing_moves(route, piece, target)
                .into_iter()
                .map(|m| SplitBrainAction::Move(UciAction::from_move(m, CastlingStyle::Standard)))
                .collect(),
        }
    }

    fn apply_with(&mut self, seat: Seat, action: &SplitBrainAction, story: &mut Journal) -> Result<(), RuleError> {
        self.check_turn(seat)?;
        match *action {
            SplitBrainAction::Circle(square) => self.circle(seat, square, story),
            SplitBrainAction::Correct(square) => self.pick_correction(seat, square, story),
            SplitBrainAction::Keep(keep) => self.keep(seat, keep, story),
            SplitBrainAction::Move(m) => self.pick_move(m, story),
        }
    }

    /// The game as PGN: one move per team turn in long algebraic notation,
    /// the circles and rulings as comments. The two PGN sides are the teams.
    fn pgn(&self, story: &Journal) -> Option<String> {
        let result = match &self.outcome {
            None => "*",
            Some(o) if o.winners.contains(&seat_of(Color::White, Side::King)) => "1-0",
            Some(o) if o.winners.contains(&seat_of(Color::Black, Side::King)) => "0-1",
            Some(_) => "1/2-1/2",
        };
        let mut tags = pgn::seven_tag_roster("chesskit split-brain game", result);
        tags.retain(|(name, _)| *name != "White" && *name != "Black");
        tags.insert(4, ("White", format!("{} and {}", seat_name(0), seat_name(2))));
        tags.insert(5, ("Black", format!("{} and {}", seat_name(1), seat_name(3))));
        tags.push(("Variant", "Split-Brain".to_string()));
        tags.push(("SetUp", "1".to_string()));
        let (fen_text, fullmove, to_move) = match &self.start {
            Some(start) => (start.fen.clone(), start.fullmove, start.to_move),
            None => (START_FEN.to_string(), 1, Color::White),
        };
        tags.push(("FEN", fen_text));
        if let Some(text) = self.start.as_ref().and_then(|s| s.text.as_ref()) {
            tags.push(("ChesskitPosition", text.replace('\n', " / ")));
        }
        if let Some(outcome) = &self.outcome {
            tags.push(("Termination", outcome.reason.clone()));
        }
        let movetext = pgn::journal_movetext(story, &seat_name);
        Some(PgnText { tags, first_fullmove: fullmove, first_to_move: to_move, movetext, result }.render())
    }

    /// "While writing down their moves, players must follow these rules:
    /// They may not say anything or look at their partner's paper." Both
    /// partners of the team to move are silent while the circles are being
    /// made (until both are revealed); everyone may talk at other times.
    fn check_talk(&self, seat: Seat) -> Result<(), String> {
        let circling = matches!(self.step, Step::Circling { .. }) && self.outcome.is_none();
        if !circling || place_of(seat).0 != self.team() {
            return Ok(());
        }
        Err(format!(
            "no talking while circling: {}'s partners are writing down their move, and \"They may not say \
             anything\" until both grids are revealed",
            fen::color_name(self.team())
        ))
    }

    /// The board's Zobrist key and the rest of what the rules read: the
    /// checker's side and the step of the turn (secret circles included:
    /// a search runs on a drawn world). Left out, as in chess: the record
    /// (PGN start, last move) and the repetition history.
    fn position_hash(&self) -> Option<u64> {
        Some(self.pos.zobrist() ^ hash_of(&(self.checker, self.step, self.outcome.is_some())))
    }

    fn heuristic(&self, seat: Seat) -> Option<f64> {
        crate::chess::position_heuristic(&self.pos, seat)
    }

    fn view(&self, viewer: Viewer) -> View {
        let board = BoardView::from_board(self.pos.board(), self.pos.mask(), &|sq| self.markers(viewer, sq));
        let mut view = View {
            board: Some(board),
            last_move: self.last_move.iter().map(ToString::to_string).collect(),
            tables: vec![self.roles_table()],
            ..View::default()
        };
        view.check = self.pos.is_check().then(|| self.pos.king_of(self.team())).flatten().map(|k| k.to_string());
        if let Some(seat) = viewer.seat() {
            if let Some(square) = self.own_secret_circle(seat) {
                view.notes.push(format!("You circled {square}; it stays secret until your partner circles too."));
            }
        }
        if self.outcome.is_none() {
            view.prompt = Some(self.prompt(viewer));
        }
        view
    }

    /// Unrevealed circles of the other seats are redrawn anywhere on the
    /// grid: a seat knows only that they have been made.
    fn sample_hidden(&self, seat: Seat, rng: &mut GameRng) -> Self {
        let mut sample = self.clone();
        if let Step::Circling { chooser, mover } = self.step {
            let squares: Vec<Square> = self.pos.mask().into_iter().collect();
            let mut redraw = |circle: Option<Square>, partner: Partner| {
                let own = self.partner_of(seat) == Some(partner);
                circle.map(|sq| if own { sq } else { *rng.choose(&squares).expect("a 6x6 grid") })
            };
            let chooser = redraw(chooser, Partner::Chooser);
            let mover = redraw(mover, Partner::Mover);
            sample.step = Step::Circling { chooser, mover };
        }
        sample
    }

    fn parse_action(&self, seat: Seat, text: &str) -> Result<SplitBrainAction, RuleError> {
        let text_trimmed = text.trim();
        if let Ok(action) = text_trimmed.parse::<SplitBrainAction>() {
            return Ok(action);
        }
        // A bare square, typed at the terminal: the correction when one is
        // asked for, else a circle.
        if let Some(square) = parse_square(text_trimmed) {
            if self.legal_actions(seat).contains(&SplitBrainAction::Correct(square)) {
                return Ok(SplitBrainAction::Correct(square));
            }
            return Ok(SplitBrainAction::Circle(square));
        }
        Err(RuleError::malformed(
            text,
            "expected `circle e4` (or just e4), `correct e4`, `keep piece`, `keep target`, or a move like c2d4",
        ))
    }
}

// ----------------------------------------------------------------------
// Views
// ----------------------------------------------------------------------

impl SplitBrainGame {
    /// The circle `seat` has made and that is still secret.
    fn own_secret_circle(&self, seat: Seat) -> Option<Square> {
        let Step::Circling { chooser, mover } = self.step else { return None };
        match self.partner_of(seat)? {
            Partner::Chooser => chooser,
            Partner::Mover => mover,
        }
    }

    /// The circles everyone sees: none while secret, the revealed (or
    /// corrected) pair afterwards.
    fn public_circles(&self) -> Option<(Square, Square)> {
        match self.step {
            Step::Circling { .. } => None,
            Step::Correcting { chooser, mover, .. } => Some((chooser, mover)),
            Step::Keeping { piece, target } | Step::Finishing { piece, target, .. } => Some((piece, target)),
        }
    }

    fn markers(&self, viewer: Viewer, square: Square) -> Vec<Marker> {
        let mut markers = Vec::new();
        if square == self.checker.corner() {
            let words = format!("{} chooses", self.checker.word());
            let disc = MarkerDrawing::Disc { fill: "red".to_string(), text: words.clone() };
            markers.push(Marker::new("checker").colour("red").text(&words).drawn(disc));
        }
        if let Some((piece, target)) = self.public_circles() {
            if square == piece {
                markers.push(Marker::new("chosen").colour("green").text("piece").drawn(MarkerDrawing::ring("green")));
            }
            if square == target {
                markers.push(circle_marker("target"));
            }
        }
        if let Some(own) = viewer.seat().and_then(|seat| self.own_secret_circle(seat)) {
            if own == square {
                markers.push(circle_marker("your circle"));
            }
        }
        markers
    }

    /// Who chooses and who moves this turn, and who has circled.
    fn roles_table(&self) -> TableView {
        let circled = |seat: Seat| match (self.step, self.partner_of(seat)) {
            (Step::Circling { chooser, .. }, Some(Partner::Chooser)) => chooser.is_some(),
            (Step::Circling { mover, .. }, Some(Partner::Mover)) => mover.is_some(),
            (_, Some(_)) => true,
            _ => false,
        };
        let rows = (0..4)
            .map(|seat| {
                let (colour, side) = place_of(seat);
                let role = if side == self.checker { "chooser" } else { "mover" };
                let status = match self.partner_of(seat) {
                    _ if self.outcome.is_some() => "game over".to_string(),
                    None => "waiting".to_string(),
                    Some(_) if circled(seat) => "circled".to_string(),
                    Some(_) => "circling".to_string(),
                };
                vec![seat_name(seat), fen::color_name(colour).to_string(), role.to_string(), status]
            })
            .collect();
        TableView {
            title: format!("Partners (checker in the {} corner)", self.checker.word()),
            columns: vec!["seat".into(), "team".into(), "role".into(), "this move".into()],
            rows,
            drawn_as: None,
        }
    }

    fn prompt(&self, viewer: Viewer) -> String {
        let team = fen::color_name(self.team());
        let Some(seat) = viewer.seat() else {
            return format!("{team} to move");
        };
        let acting = self.to_act().seats().contains(&seat);
        match self.step {
            Step::Circling { .. } if acting => match self.partner_of(seat) {
                Some(Partner::Chooser) => {
                    "You are the chooser: circle one of your pieces that has a legal move, in secret".to_string()
                }
                _ => "You are the mover: circle a square one of your pieces can legally move to, in secret".to_string(),
            },
            Step::Circling { .. } => match self.partner_of(seat) {
                Some(_) => "Waiting for your partner to circle".to_string(),
                None => format!("{team} is circling"),
            },
            Step::Correcting { partner, chooser, mover } if acting => {
                let candidates = self.correction_candidates(partner, chooser, mover);
                let squares: Vec<String> = candidates.into_iter().map(|sq| sq.to_string()).collect();
                format!(
                    "Pick which of the nearest valid squares, {}, {team}'s {} circle becomes",
                    squares.join(" or "),
                    partner.circle_word()
                )
            }
            Step::Keeping { piece, target } if acting => {
                format!("{piece} cannot move to {target}: keep the piece or the target")
            }
            Step::Finishing { .. } if acting => "Pick one of the equally close moves".to_string(),
            _ => format!("{team}: waiting for {}", seat_name(self.to_act().seats()[0])),
        }
    }
}
