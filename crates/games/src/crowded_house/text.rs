//! The text position of Crowded House (docs/games/crowded-house.md): a FEN
//! (whose side to move is the colour of the player to move), then a line
//! naming the half of the player to move, and, when any have passed since
//! the last capture or pawn move, the count of quiet turns (the FEN's
//! halfmove clock does not count passes).
//!
//! ```text
//! rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2
//! half: queen
//! ```
//!
//! With the talking clock (the `clock` option) three more lines may
//! follow: `clock: <White ms> <Black ms>`, the time left on each team's
//! clock; `coins: <White> <Black>`, the coins in each team's pile; and
//! `paid: white`, `black` or `both`, the teams that have paid for talk
//! since they last moved. Missing lines mean full clocks, no coins and
//! nobody paid.

use chesskit_core::chess::fen::{self, CastlingNotation, Validation};
use chesskit_core::chess::Geometry;
use chesskit_core::game::GameError;

use super::clock::TalkingClock;
use super::house::{Half, HousePosition, SEAT_NAMES};

const HALF: &str = "half";
const QUIET_TURNS: &str = "quiet turns";
const CLOCK: &str = "clock";
const COINS: &str = "coins";
const PAID: &str = "paid";

/// The talking clock's lines of a text position, as read: each is None
/// when the line is missing.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ClockLines {
    pub left_ms: Option<[u64; 2]>,
    pub piles: Option<[u32; 2]>,
    pub paid: Option<[bool; 2]>,
}

impl ClockLines {
    pub fn is_empty(&self) -> bool {
        *self == ClockLines::default()
    }

    /// Set `clock` as the lines say.
    pub fn apply_to(&self, clock: &mut TalkingClock) {
        if let Some(left) = self.left_ms {
            clock.left_ms = left;
        }
        if let Some(piles) = self.piles {
            clock.piles = piles;
        }
        if let Some(paid) = self.paid {
            clock.paid = paid;
        }
    }
}

/// The talking clock's lines for a position text.
pub fn write_clock(clock: &TalkingClock) -> Vec<String> {
    let mut lines = vec![
        format!("{CLOCK}: {} {}", clock.left_ms[0], clock.left_ms[1]),
        format!("{COINS}: {} {}", clock.piles[0], clock.piles[1]),
    ];
    let paid = match clock.paid {
        [true, true] => Some("both"),
        [true, false] => Some("white"),
        [false, true] => Some("black"),
        [false, false] => None,
    };
    lines.extend(paid.map(|p| format!("{PAID}: {p}")));
    lines
}

/// Two numbers, White's and Black's.
fn pair<T: std::str::FromStr>(key: &str, value: &str) -> Result<[T; 2], String> {
    let numbers: Vec<T> = value
        .split_whitespace()
        .map(str::parse)
        .collect::<Result<_, _>>()
        .map_err(|_| format!("bad {key} {value:?}: expected two whole numbers, White's then Black's"))?;
    <[T; 2]>::try_from(numbers).map_err(|_| format!("bad {key} {value:?}: expected two numbers, White's then Black's"))
}

/// The text of a position: the FEN and the half to move, and the quiet
/// turns when they differ from the FEN's halfmove clock.
pub fn write(house: &HousePosition, quiet_turns: u32) -> String {
    let fen = fen::text_position_fen(house.inner(), &Default::default(), CastlingNotation::XFen);
    let mut lines = vec![fen, format!("{HALF}: {}", house.half().word())];
    if quiet_turns != house.inner().halfmoves() {
        lines.push(format!("{QUIET_TURNS}: {quiet_turns}"));
    }
    lines.join("\n")
}

/// Read a text position: the position and its quiet turns. A position the
/// game cannot reach is refused: the player who just moved may not have
/// left their king where the player to move could capture it.
pub fn read(text: &str) -> Result<(HousePosition, u32, ClockLines), GameError> {
    let err = |m: String| GameError::new(m);
    let (fen_line, key_lines) = fen::split_text_position(text).map_err(err)?;
    let validation = Validation { one_king_each: true, opponent_not_in_check: false, pawns_off_back_ranks: true };
    let (pos, markers) = fen::parse_fen_with(fen_line, Geometry::ORTHODOX, validation).map_err(err)?;
    if let Some((sq, marker)) = markers.iter().next() {
        return Err(err(format!("unexpected marker {{{marker}}} on {sq}: Crowded House has no markers")));
    }
    if !pos.castling_rights_valid() {
        return Err(err("castling rights need the king and the rook on their owner's back rank".to_string()));
    }
    let fields = key_lines.fields(&[HALF, QUIET_TURNS, CLOCK, COINS, PAID]).map_err(err)?;
    let clock = ClockLines {
        left_ms: fields.get(CLOCK).map(|v| pair(CLOCK, v)).transpose().map_err(err)?,
        piles: fields.get(COINS).map(|v| pair(COINS, v)).transpose().map_err(err)?,
        paid: match fields.get(PAID).copied() {
            None => None,
            Some("white") => Some([true, false]),
            Some("black") => Some([false, true]),
            Some("both") => Some([true, true]),
            Some(other) => return Err(err(format!("bad paid {other:?}: expected white, black or both"))),
        },
    };
    let half = match fields.get(HALF).copied() {
        None | Some("king") => Half::King,
        Some("queen") => Half::Queen,
        Some(other) => return Err(err(format!("bad half {other:?}: expected `king` or `queen`"))),
    };
    let quiet_turns = match fields.get(QUIET_TURNS) {
        None => pos.halfmoves(),
        Some(value) => value.parse().map_err(|_| err(format!("bad quiet turns {value:?}: expected a number")))?,
    };
    let seat = match (half, pos.turn().is_white()) {
        (Half::King, true) => 0,
        (Half::King, false) => 1,
        (Half::Queen, true) => 2,
        (Half::Queen, false) => 3,
    };
    let house = HousePosition::from_parts(pos, seat);
    let previous = (seat + 3) % 4;
    if house.king_capturable(house.turn().other()) {
        return Err(err(format!(
            "{} could capture the king of {}, who has just moved: that position cannot occur",
            SEAT_NAMES[seat], SEAT_NAMES[previous]
        )));
    }
    Ok((house, quiet_turns, clock))
}
