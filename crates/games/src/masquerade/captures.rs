//! The book's table: which capture move each piece type uses, what a
//! capture attempt tells its player, and what follows from all of it.
//!
//! Rows of the table are a side's piece types above pawns (K Q R B N),
//! columns the capture moves they may be given (the captures of K Q R B N).
//! An [`Assignment`] circles one square in each row and column; an
//! [`Observation`] is one answered "Capture?"; [`Knowledge`] is what a
//! player may write in their own table: O where every assignment that fits
//! their observations agrees, X where none does.

use std::fmt;
use std::str::FromStr;

use chesskit_core::chess::{Bitboard, Color, Position, Role, Square};
use chesskit_core::rng::GameRng;

/// The piece types above pawns, in the order of the book's table rows and
/// columns. They are also the five capture moves.
pub const PIECE_TYPES: [Role; 5] = [Role::King, Role::Queen, Role::Rook, Role::Bishop, Role::Knight];

/// The row (or column) of a piece type in the table; `None` for pawns.
fn index(role: Role) -> Option<usize> {
    PIECE_TYPES.iter().position(|&r| r == role)
}

fn letter(role: Role) -> char {
    role.upper_char()
}

/// A piece type above pawns from its letter (K Q R B N, either case).
fn piece_type(c: char) -> Option<Role> {
    Role::from_char(c.to_ascii_lowercase()).filter(|&r| r != Role::Pawn)
}

/// Which capture move each of one side's piece types uses: one circle in
/// each row and each column of the table (a permutation of K Q R B N).
/// Both rooks, both bishops and both knights share their type's capture,
/// and a promoted pawn takes the capture of its new type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Assignment([Role; 5]);

impl Assignment {
    /// Every piece captures as it moves: the orthodox assignment.
    pub const ORTHODOX: Assignment = Assignment(PIECE_TYPES);

    /// The assignment giving `PIECE_TYPES[i]` the capture `captures[i]`, if
    /// that is a permutation.
    pub fn new(captures: [Role; 5]) -> Result<Assignment, String> {
        for (i, &capture) in captures.iter().enumerate() {
            if index(capture).is_none() {
                return Err(format!("{} is no capture move: use K Q R B N", letter(capture)));
            }
            if let Some(j) = captures[..i].iter().position(|&c| c == capture) {
                return Err(format!(
                    "capture {} is given to both {} and {}: each capture goes to exactly one piece type",
                    letter(capture),
                    letter(PIECE_TYPES[j]),
                    letter(PIECE_TYPES[i])
                ));
            }
        }
        Ok(Assignment(captures))
    }

    /// The capture move a piece of type `piece` uses. Pawns always capture
    /// with their standard capture.
    pub fn capture_of(&self, piece: Role) -> Role {
        index(piece).map_or(Role::Pawn, |i| self.0[i])
    }

    /// All 120 assignments, in the order of their text.
    pub fn all() -> Vec<Assignment> {
        let mut out = Vec::with_capacity(120);
        let mut current = Vec::with_capacity(5);
        permutations(&mut current, &mut out);
        out
    }

    /// One assignment drawn uniformly from `choices`, which must not be empty.
    pub fn draw(choices: &[Assignment], rng: &mut GameRng) -> Assignment {
        *rng.choose(choices).expect("at least one assignment to draw from")
    }
}

fn permutations(current: &mut Vec<Role>, out: &mut Vec<Assignment>) {
    if current.len() == 5 {
        let captures: [Role; 5] = current.clone().try_into().expect("five roles");
        out.push(Assignment(captures));
        return;
    }
    for role in PIECE_TYPES {
        if !current.contains(&role) {
            current.push(role);
            permutations(current, out);
            current.pop();
        }
    }
}

/// The book's combo column: `KR QK RN BB NQ` (piece, then the capture it uses).
impl fmt::Display for Assignment {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let pairs: Vec<String> = PIECE_TYPES
            .iter()
            .zip(self.0)
            .map(|(&piece, capture)| format!("{}{}", letter(piece), letter(capture)))
            .collect();
        f.write_str(&pairs.join(" "))
    }
}

/// Reads five pairs such as `KR QK RN BB NQ`, in any order and either case.
impl FromStr for Assignment {
    type Err = String;

    fn from_str(text: &str) -> Result<Assignment, String> {
        let pairs: Vec<&str> = text.split_whitespace().collect();
        if pairs.len() != 5 {
            return Err(format!(
                "an assignment gives each of K Q R B N one capture: expected 5 pairs like KR QK RN BB NQ, found {}",
                pairs.len()
            ));
        }
        let mut captures: [Option<Role>; 5] = [None; 5];
        for pair in pairs {
            let chars: Vec<char> = pair.chars().collect();
            let (piece, capture) = match chars[..] {
                [p, c] => (piece_type(p), piece_type(c)),
                _ => (None, None),
            };
            let (Some(piece), Some(capture)) = (piece, capture) else {
                return Err(format!(
                    "bad pair {pair:?}: write the piece, then the capture it uses, both from K Q R B N"
                ));
            };
            let row = index(piece).expect("a piece type");
            if captures[row].is_some() {
                return Err(format!("{} is given a capture twice", letter(piece)));
            }
            captures[row] = Some(capture);
        }
        Assignment::new(captures.map(|c| c.expect("five distinct pieces each got a capture")))
    }
}

/// A set of capture moves: those that could have made one capture.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct PatternSet(u8);

impl PatternSet {
    pub fn contains(self, capture: Role) -> bool {
        index(capture).is_some_and(|i| self.0 & (1 << i) != 0)
    }

    pub fn with(self, capture: Role) -> PatternSet {
        index(capture).map_or(self, |i| PatternSet(self.0 | (1 << i)))
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    pub fn union(self, other: PatternSet) -> PatternSet {
        PatternSet(self.0 | other.0)
    }

    /// The capture moves with which a piece of `color` on `from` could take
    /// a piece on `to`: sliding captures are blocked by any piece.
    pub fn reaching(pos: &Position, color: Color, from: Square, to: Square) -> PatternSet {
        Reach::from(pos, color, from).patterns_to(to)
    }
}

/// The squares each capture move of a piece on one square attacks, in the
/// order of [`PIECE_TYPES`]: worked out once for every target, as listing
/// a piece's capture attempts asks about each enemy piece in turn.
pub struct Reach([Bitboard; 5]);

impl Reach {
    /// Sliding captures are blocked by any piece.
    pub fn from(pos: &Position, color: Color, from: Square) -> Reach {
        let occupied = pos.board().occupied();
        Reach(PIECE_TYPES.map(|capture| pos.piece_attacks(from, capture.of(color), occupied)))
    }

    /// Every square some capture move reaches.
    pub fn squares(&self) -> Bitboard {
        self.0.iter().fold(Bitboard::EMPTY, |all, &squares| all | squares)
    }

    /// The capture moves that reach `to`.
    pub fn patterns_to(&self, to: Square) -> PatternSet {
        PIECE_TYPES.iter().zip(self.0).fold(PatternSet::default(), |set, (&capture, squares)| {
            if squares.contains(to) {
                set.with(capture)
            } else {
                set
            }
        })
    }
}

/// The letters of the set in table order: `QR`.
impl fmt::Display for PatternSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        PIECE_TYPES.iter().filter(|&&r| self.contains(r)).try_for_each(|&r| write!(f, "{}", letter(r)))
    }
}

impl FromStr for PatternSet {
    type Err = String;

    fn from_str(text: &str) -> Result<PatternSet, String> {
        let mut set = PatternSet::default();
        for c in text.chars() {
            let capture = piece_type(c).ok_or_else(|| format!("{c:?} is no capture move: use K Q R B N"))?;
            set = set.with(capture);
        }
        if set.is_empty() {
            return Err("an attempt needs at least one capture move that could have made it".to_string());
        }
        Ok(set)
    }
}

/// One answered capture attempt by a piece above pawns: which piece type
/// tried, from where to where, the capture moves that could have made it,
/// and the answer. (A pawn's attempt teaches nothing: pawns capture as usual.)
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Observation {
    pub piece: Role,
    pub from: Square,
    pub to: Square,
    pub patterns: PatternSet,
    pub success: bool,
}

impl Observation {
    /// Whether `assignment` gives this answer: a success says the piece's
    /// capture is one of those that could have made it, a failure that it
    /// is none of them.
    pub fn allows(&self, assignment: &Assignment) -> bool {
        self.patterns.contains(assignment.capture_of(self.piece)) == self.success
    }
}

/// `Nb1xc3 [QN] yes`: the attempt, the captures that could have made it, the answer.
impl fmt::Display for Observation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let answer = if self.success { "yes" } else { "no" };
        write!(f, "{}{}x{} [{}] {answer}", letter(self.piece), self.from, self.to, self.patterns)
    }
}

impl FromStr for Observation {
    type Err = String;

    fn from_str(text: &str) -> Result<Observation, String> {
        let bad = || format!("bad attempt {text:?}: expected e.g. \"Nb1xc3 [QN] yes\"");
        let words: Vec<&str> = text.split_whitespace().collect();
        let [attempt, patterns, answer] = words[..] else { return Err(bad()) };
        if !attempt.is_ascii() || attempt.len() != 6 || &attempt[3..4] != "x" {
            return Err(bad());
        }
        let piece =
            attempt.chars().next().filter(char::is_ascii_uppercase).and_then(piece_type).ok_or_else(|| {
                format!("bad attempt {text:?}: only pieces above pawns (K Q R B N) learn from attempts")
            })?;
        let square = |s: &str| chesskit_core::chess::fen::parse_square(s).ok_or_else(bad);
        let (from, to) = (square(&attempt[1..3])?, square(&attempt[4..6])?);
        let patterns = patterns
            .strip_prefix('[')
            .and_then(|p| p.strip_suffix(']'))
            .ok_or_else(bad)?
            .parse()
            .map_err(|e| format!("bad attempt {text:?}: {e}"))?;
        let success = match answer {
            "yes" => true,
            "no" => false,
            _ => return Err(format!("bad attempt {text:?}: the answer is yes or no")),
        };
        Ok(Observation { piece, from, to, patterns, success })
    }
}

/// Where one side's pieces above pawns could take the enemy king, as the
/// position stands, by piece type: the capture moves that would do it.
/// Met at the start of a turn, it is a chance the opponent left open —
/// a chance that is real only if the side's own captures (hidden from it)
/// include one of them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct KingInReach([PatternSet; 5]);

impl KingInReach {
    /// The capture moves with which `color`'s pieces above pawns could take
    /// the other king in `pos`, by the piece type that would make them.
    pub fn of(pos: &Position, color: Color) -> KingInReach {
        let mut reach = KingInReach::default();
        let Some(king) = pos.king_of(color.other()) else { return reach };
        let board = pos.board();
        for from in board.by_color(color) & !board.pawns() {
            if let Some(row) = board.role_at(from).and_then(index) {
                reach.0[row] = reach.0[row].union(PatternSet::reaching(pos, color, from, king));
            }
        }
        reach
    }

    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|set| set.is_empty())
    }

    /// Whether, with `assignment`, one of the pieces could take the king.
    pub fn open_with(&self, assignment: &Assignment) -> bool {
        PIECE_TYPES.iter().zip(self.0).any(|(&piece, set)| set.contains(assignment.capture_of(piece)))
    }
}

/// How likely a player who knows the opponent's captures (they assigned
/// them) is to end a turn with their king where one of those captures
/// takes it, as a share of the likelihood of any other turn. Small, as
/// leaving it is losing at once; not zero, as a player may have had no
/// other move, or may have missed it.
const KING_LEFT_IN_REACH: f64 = 0.1;

/// One of `choices` (not empty) drawn in proportion to how well it fits
/// the moves the opponent did not make: each time the opponent left their
/// king where an assignment's captures would take it, that assignment is
/// [`KING_LEFT_IN_REACH`] times as likely.
pub fn draw_fitting_the_opponents_care(
    choices: &[Assignment],
    kings_left: &[KingInReach],
    rng: &mut GameRng,
) -> Assignment {
    let times: Vec<usize> =
        choices.iter().map(|a| kings_left.iter().filter(|reach| reach.open_with(a)).count()).collect();
    let fewest = times.iter().copied().min().unwrap_or(0);
    // In one pass: each choice replaces the pick so far with its share of
    // the weight seen so far (weights relative to the likeliest, so that a
    // long game cannot round them all to zero).
    let mut seen = 0.0;
    let mut pick = None;
    for (assignment, times) in choices.iter().zip(times) {
        let weight = KING_LEFT_IN_REACH.powi(i32::try_from(times - fewest).unwrap_or(i32::MAX));
        seen += weight;
        if weight > 0.0 && rng.chance(weight / seen) {
            pick = Some(*assignment);
        }
    }
    pick.unwrap_or_else(|| Assignment::draw(choices, rng))
}

/// What a player may write in a table cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark {
    /// Known correct: every assignment that fits the observations agrees.
    O,
    /// Known impossible: no assignment that fits the observations has it.
    X,
    /// Not known yet.
    Open,
}

/// What a player knows of their own pieces' captures: the assignments that
/// fit everything they observed. Enumerating the 120 permutations carries
/// the one-per-row-and-column rule to its fixed point: an O forced by four
/// X's in a row or a column, and the X's that every O forces, all follow.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Knowledge {
    consistent: Vec<Assignment>,
}

impl Knowledge {
    pub fn from_observations(observations: &[Observation]) -> Knowledge {
        let consistent = Assignment::all().into_iter().filter(|a| observations.iter().all(|o| o.allows(a))).collect();
        Knowledge { consistent }
    }

    /// The assignments that fit everything observed.
    pub fn consistent(&self) -> &[Assignment] {
        &self.consistent
    }

    /// The mark in row `piece`, column `capture`.
    pub fn mark(&self, piece: Role, capture: Role) -> Mark {
        let agreeing = self.consistent.iter().filter(|a| a.capture_of(piece) == capture).count();
        if agreeing == 0 {
            Mark::X
        } else if agreeing == self.consistent.len() {
            Mark::O
        } else {
            Mark::Open
        }
    }

    /// The capture of `piece`, once known.
    pub fn known_capture(&self, piece: Role) -> Option<Role> {
        PIECE_TYPES.into_iter().find(|&capture| self.mark(piece, capture) == Mark::O)
    }
}
