//! The text position of Masquerade Chess (docs/games/masquerade.md): a FEN,
//! then `key: value` lines for both assignments and each side's answered
//! capture attempts.
//!
//! ```text
//! rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1
//! white captures: KR QK RN BB NQ
//! black captures: KK QQ RR BB NN
//! white attempts: Nb1xc3 [QN] yes, Qd1xd7 [QR] no
//! black attempts: -
//! ```

use chesskit_core::chess::fen::{self, CastlingNotation, Markers, Validation};
use chesskit_core::chess::{Bitboard, Color, File, Geometry, Position, Square};
use chesskit_core::game::GameError;

use super::captures::{Assignment, Observation};

/// Everything a position text holds, indexed by seat (White 0, Black 1).
#[derive(Clone, Debug, PartialEq)]
pub(super) struct PositionText {
    pub pos: Position,
    /// The captures each side's pieces use (assigned by the opponent); `None`
    /// while the opponent has not assigned them.
    pub captures: [Option<Assignment>; 2],
    /// Each side's answered capture attempts with pieces above pawns.
    pub attempts: [Vec<Observation>; 2],
}

const COLOURS: [&str; 2] = ["white", "black"];

impl PositionText {
    pub fn read(text: &str) -> Result<PositionText, GameError> {
        let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty());
        let fen_line = lines.next().ok_or_else(|| GameError::new("empty position: expected a FEN"))?;
        let pos = read_fen(fen_line)?;
        let mut captures: [Option<Assignment>; 2] = [None, None];
        let mut attempts: [Vec<Observation>; 2] = [Vec::new(), Vec::new()];
        let mut seen: Vec<String> = Vec::new();
        for line in lines {
            let (key, value) = line
                .split_once(':')
                .ok_or_else(|| GameError::new(format!("expected a `key: value` line after the FEN, not {line:?}")))?;
            let key = key.trim().to_ascii_lowercase();
            let value = value.trim();
            if seen.contains(&key) {
                return Err(GameError::new(format!("the key {key:?} is given twice")));
            }
            seen.push(key.clone());
            let (colour, field) = key.split_once(' ').unwrap_or((&key, ""));
            let seat = COLOURS.iter().position(|&c| c == colour);
            match (seat, field) {
                (Some(seat), "captures") => captures[seat] = read_assignment(&key, value)?,
                (Some(seat), "attempts") => attempts[seat] = read_attempts(&key, value)?,
                _ => {
                    return Err(GameError::new(format!(
                        "unknown key {key:?}: expected white captures, black captures, white attempts or black attempts"
                    )))
                }
            }
        }
        let text = PositionText { pos, captures, attempts };
        text.check_attempts()?;
        Ok(text)
    }

    /// Every recorded answer must be the one the assignment gives.
    fn check_attempts(&self) -> Result<(), GameError> {
        for ((colour, captures), attempts) in COLOURS.iter().zip(self.captures).zip(&self.attempts) {
            let Some(assignment) = captures else {
                if let Some(first) = attempts.first() {
                    return Err(GameError::new(format!(
                        "{colour} attempts ({first}) need {colour} captures: nobody has attempted a capture before the assignment"
                    )));
                }
                continue;
            };
            if let Some(wrong) = attempts.iter().find(|o| !o.allows(&assignment)) {
                return Err(GameError::new(format!(
                    "the {colour} attempt {wrong} contradicts {colour} captures {assignment}: its {} captures as {}",
                    wrong.piece.upper_char(),
                    assignment.capture_of(wrong.piece).upper_char()
                )));
            }
        }
        Ok(())
    }

    pub fn write(&self) -> String {
        let mut out = write_fen(&self.pos);
        for (colour, captures) in COLOURS.iter().zip(self.captures) {
            let value = captures.map_or("-".to_string(), |a| a.to_string());
            out.push_str(&format!("\n{colour} captures: {value}"));
        }
        for (colour, attempts) in COLOURS.iter().zip(&self.attempts) {
            let value = if attempts.is_empty() {
                "-".to_string()
            } else {
                attempts.iter().map(Observation::to_string).collect::<Vec<_>>().join(", ")
            };
            out.push_str(&format!("\n{colour} attempts: {value}"));
        }
        out
    }
}

fn read_assignment(key: &str, value: &str) -> Result<Option<Assignment>, GameError> {
    if value == "-" {
        return Ok(None);
    }
    value.parse().map(Some).map_err(|e| GameError::new(format!("{key}: {e}")))
}

fn read_attempts(key: &str, value: &str) -> Result<Vec<Observation>, GameError> {
    if value == "-" {
        return Ok(Vec::new());
    }
    value.split(',').map(|item| item.trim().parse().map_err(|e| GameError::new(format!("{key}: {e}")))).collect()
}

/// The FEN of a Masquerade position: kings may stand attacked, and a side
/// whose king was captured has none.
fn read_fen(line: &str) -> Result<Position, GameError> {
    let validation = Validation { one_king_each: false, opponent_not_in_check: false, pawns_off_back_ranks: true };
    let (pos, markers) = fen::parse_fen_with(line, Geometry::ORTHODOX, validation).map_err(GameError::new)?;
    if let Some(sq) = markers.keys().next() {
        return Err(GameError::new(format!(
            "unexpected marker on {sq}: Masquerade positions carry no {{...}} markers"
        )));
    }
    let kings = |color: Color| (pos.board().kings() & pos.board().by_color(color)).count();
    for color in Color::ALL {
        if kings(color) > 1 {
            return Err(GameError::new(format!("{} has {} kings: at most one", fen::color_name(color), kings(color))));
        }
    }
    if kings(Color::White) + kings(Color::Black) == 0 {
        return Err(GameError::new("both kings are missing: only one king can be captured"));
    }
    for color in Color::ALL {
        let rights = pos.castling_rooks() & Bitboard::from_rank(color.backrank());
        let king_home = Square::from_coords(File::E, color.backrank());
        if rights.any() && (pos.king_of(color) != Some(king_home) || !rights.is_subset(Bitboard::CORNERS)) {
            return Err(GameError::new("castling needs the king on the e-file and the rooks in the corners"));
        }
    }
    Ok(pos)
}

/// The FEN, with the en passant square whenever a pawn may capture there
/// (a Masquerade king may be left attacked, so the orthodox filter is wrong here).
fn write_fen(pos: &Position) -> String {
    let ep = pos
        .ep_square()
        .filter(|&ep| pos.pseudo_legal_moves().iter().any(|m| m.is_en_passant() && m.to() == ep))
        .map_or("-".to_string(), |sq| sq.to_string());
    format!(
        "{} {} {} {ep} {} {}",
        fen::board_fen(pos.board(), &Markers::new()),
        pos.turn().fold_wb('w', 'b'),
        fen::castling_field(pos, CastlingNotation::XFen),
        pos.halfmoves(),
        pos.fullmoves()
    )
}
