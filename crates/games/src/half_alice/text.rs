//! The text position of Half Alice Chess (docs/games/half-alice.md): a FEN
//! in which a piece on the other side of the mirror (on a checker) is
//! followed by `{m}`, then, under the 12-checker option, `key: value`
//! lines for each player's free checkers.
//!
//! ```text
//! rnbqkbnr/pppp1ppp/8/4p{m}3/4P{m}3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2
//! white free checkers: 11
//! black free checkers: 11
//! ```

use std::collections::BTreeMap;

use chesskit_core::chess::fen::{self, CastlingNotation, Markers, Validation};
use chesskit_core::chess::{Bitboard, Color, File, Geometry, Square};
use chesskit_core::game::GameError;

use super::mirror::{AlicePosition, Side};

/// The marker of a piece on the other side of the mirror.
pub const MIRROR_MARKER: &str = "m";

fn key(color: Color) -> &'static str {
    color.fold_wb("white free checkers", "black free checkers")
}

/// The FEN line alone (what the PGN's FEN tag would hold, markers included).
pub fn fen_line(p: &AlicePosition) -> String {
    let markers: Markers = p.far().into_iter().map(|sq| (sq, MIRROR_MARKER.to_string())).collect();
    let pos = p.inner();
    fen::text_position_fen(pos, &markers, CastlingNotation::XFen)
}

/// The text of a position: the FEN, and the free checkers when limited.
pub fn write(p: &AlicePosition) -> String {
    let mut lines = vec![fen_line(p)];
    for color in Color::ALL {
        if let Some(free) = p.free_checkers(color) {
            lines.push(format!("{}: {free}", key(color)));
        }
    }
    lines.join("\n")
}

/// Read a text position under the given checker supply (`None`: unlimited).
pub fn read(text: &str, checkers: Option<u8>) -> Result<AlicePosition, GameError> {
    let err = |m: String| GameError::new(m);
    let (fen_line, key_lines) = fen::split_text_position(text).map_err(err)?;
    let validation = Validation { one_king_each: true, opponent_not_in_check: false, pawns_off_back_ranks: true };
    let (pos, markers) = fen::parse_fen_with(fen_line, Geometry::ORTHODOX, validation).map_err(err)?;
    let mut far = Bitboard::EMPTY;
    for (&sq, marker) in &markers {
        if marker != MIRROR_MARKER {
            return Err(err(format!(
                "unknown marker {{{marker}}} on {sq}: Half Alice Chess knows only {{m}}, a piece on the other side of the mirror"
            )));
        }
        if pos.board().piece_at(sq).is_none() {
            return Err(err(format!("the mirror marker on {sq} has no piece")));
        }
        far.add(sq);
    }
    let fields = key_lines.fields(&Color::ALL.map(key)).map_err(err)?;
    // An en passant square that no capture can use is dropped, as after a move.
    let alice = AlicePosition::from_parts(pos.clone(), far, checkers);
    check_castling(&alice)?;
    check_checkers(&alice, &fields)?;
    let mover = pos.turn();
    if alice.in_check(mover.other()) {
        return Err(err(format!(
            "the side not to move ({}) is in check on its side of the mirror",
            fen::color_name(mover.other())
        )));
    }
    Ok(alice)
}

/// Castling rights need the king on the e-file and rooks in the corners,
/// all of them on the board side: a king or rook that has moved has
/// switched, and lost its right.
fn check_castling(p: &AlicePosition) -> Result<(), GameError> {
    let pos = p.inner();
    for color in Color::ALL {
        let rights = pos.castling_rooks() & Bitboard::from_rank(color.backrank());
        if rights.is_empty() {
            continue;
        }
        let king_home = Square::from_coords(File::E, color.backrank());
        if pos.king_of(color) != Some(king_home) || !rights.is_subset(Bitboard::CORNERS) {
            return Err(GameError::new("castling needs the king on the e-file and rooks in the corners"));
        }
        if p.side_of(king_home) == Side::Far || rights.intersects(p.far()) {
            return Err(GameError::new(
                "a king or rook on the other side of the mirror has moved: it has no castling right",
            ));
        }
    }
    Ok(())
}

/// Under the checker option, each player's pieces on checkers are at most
/// the supply, and a written free count must agree with the board.
fn check_checkers(p: &AlicePosition, fields: &BTreeMap<&str, &str>) -> Result<(), GameError> {
    for color in Color::ALL {
        let used = (p.board().by_color(color) & p.far()).count();
        let written = fields.get(key(color));
        match p.checker_limit() {
            None => {
                if written.is_some() {
                    return Err(GameError::new(format!(
                        "`{}` applies only with 12 checkers each (the option twelve_checkers)",
                        key(color)
                    )));
                }
            }
            Some(limit) => {
                if used > usize::from(limit) {
                    return Err(GameError::new(format!(
                        "{} has {used} pieces on checkers but only {limit} checkers",
                        fen::color_name(color)
                    )));
                }
                if let Some(value) = written {
                    let free = p.free_checkers(color).expect("limited");
                    let n: u32 = value
                        .parse()
                        .map_err(|_| GameError::new(format!("bad {} {value:?}: expected a number", key(color))))?;
                    if n != free {
                        return Err(GameError::new(format!(
                            "{} has {limit} checkers and {used} of them under pieces, so {free} free, not {n}",
                            fen::color_name(color)
                        )));
                    }
                }
            }
        }
    }
    Ok(())
}
