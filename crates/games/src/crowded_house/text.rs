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

use chesskit_core::chess::fen::{self, CastlingNotation, Validation};
use chesskit_core::chess::Geometry;
use chesskit_core::game::GameError;

use super::house::{Half, HousePosition, SEAT_NAMES};

const HALF: &str = "half";
const QUIET_TURNS: &str = "quiet turns";

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
pub fn read(text: &str) -> Result<(HousePosition, u32), GameError> {
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
    let fields = key_lines.fields(&[HALF, QUIET_TURNS]).map_err(err)?;
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
    Ok((house, quiet_turns))
}
