//! The text position of Adrenaline Chess (docs/games/adrenaline.md): a FEN
//! where a piece letter may be followed by `{3}` for the three checkers
//! under it, then `key: value` lines for a turn in progress.
//!
//! ```text
//! rnbqkbnr/pppppp1p/8/6P{2}/8/8/PPPP1PPP/RNBQKBNR w KQkq - 0 4
//! ```
//! and, in the middle of a turn:
//! ```text
//! rnbqkbnr/pppppp1p/6P{2}/8/8/8/PPPP1PPP/RNBQKBNR w KQkq - 0 4
//! phase: extra moves
//! piece: g6
//! captured: yes
//! ```

use chesskit_core::chess::fen::{self, parse_square, CastlingNotation, Markers, Validation};
use chesskit_core::chess::{Bitboard, Color, File, Geometry, Rank, Square};
use chesskit_core::game::GameError;

use super::attack::Stacks;
use super::turn::{Phase, Table};

const KEYS: [&str; 4] = ["phase", "piece", "captured", "next en passant"];

/// The most checkers one stack may hold in a text position: a real game
/// has at most one checker per captured piece.
const MAX_STACK: u32 = 30;

/// The text of a table.
pub fn write(table: &Table) -> String {
    let pos = &table.pos;
    let markers: Markers = table.stacks.loaded().into_iter().map(|sq| (sq, table.stacks.get(sq).to_string())).collect();
    let mut lines = vec![fen::text_position_fen(pos, &markers, CastlingNotation::XFen)];
    match table.phase {
        Phase::Regular | Phase::Over => {}
        Phase::Extra(sq) => {
            lines.push("phase: extra moves".to_string());
            lines.push(format!("piece: {sq}"));
            if table.captured {
                lines.push("captured: yes".to_string());
            }
        }
        Phase::Checker => lines.push("phase: checker".to_string()),
    }
    if let Some(ep) = table.next_ep {
        lines.push(format!("next en passant: {ep}"));
    }
    lines.join("\n")
}

/// Read a text position.
pub fn read(text: &str) -> Result<Table, GameError> {
    let err = |message: String| GameError::new(message);
    let (fen_line, key_lines) = fen::split_text_position(text).map_err(err)?;
    let validation = Validation { one_king_each: true, opponent_not_in_check: false, pawns_off_back_ranks: false };
    let (pos, markers) = fen::parse_fen_with(fen_line, Geometry::ORTHODOX, validation).map_err(err)?;
    let fields = key_lines.fields(&KEYS).map_err(err)?;
    let stacks = read_stacks(&markers, pos.board())?;
    let square = |key: &str| -> Result<Option<Square>, GameError> {
        match fields.get(key) {
            None | Some(&"-") => Ok(None),
            Some(value) => parse_square(value).map(Some).ok_or_else(|| err(format!("bad {key} square {value:?}"))),
        }
    };
    let piece = square("piece")?;
    let next_ep = square("next en passant")?;
    let captured = match fields.get("captured") {
        None | Some(&"no") => false,
        Some(&"yes") => true,
        Some(other) => return Err(err(format!("bad captured {other:?}: expected yes or no"))),
    };
    let phase = match (fields.get("phase").copied(), piece) {
        (None, None) => Phase::Regular,
        (None, Some(_)) => return Err(err("`piece` belongs to the extra moves phase only".into())),
        (Some("extra moves"), Some(sq)) => Phase::Extra(sq),
        (Some("extra moves"), None) => return Err(err("the extra moves phase needs a `piece: <square>` line".into())),
        (Some("checker"), None) => Phase::Checker,
        (Some("checker"), Some(_)) => return Err(err("`piece` belongs to the extra moves phase only".into())),
        (Some(other), _) => return Err(err(format!("bad phase {other:?}: expected extra moves or checker"))),
    };
    let captured = captured || phase == Phase::Checker;
    let table = Table { pos, stacks, phase, captured, next_ep };
    check(&table)?;
    Ok(table)
}

/// `{3}` markers: whole numbers of checkers under pieces.
fn read_stacks(markers: &Markers, board: &chesskit_core::chess::Board) -> Result<Stacks, GameError> {
    let mut stacks = Stacks::default();
    for (&sq, text) in markers {
        let n: u32 = text.parse().map_err(|_| {
            GameError::new(format!(
                "bad marker {{{text}}} on {sq}: Adrenaline Chess knows only checker counts like {{2}}"
            ))
        })?;
        if n == 0 || n > MAX_STACK {
            return Err(GameError::new(format!("{n} checkers on {sq}: a stack holds 1 to {MAX_STACK}")));
        }
        if board.piece_at(sq).is_none() {
            return Err(GameError::new(format!("the checkers on {sq} have no piece on them")));
        }
        stacks.set(sq, n);
    }
    Ok(stacks)
}

/// The position must be one the rules can reach.
fn check(table: &Table) -> Result<(), GameError> {
    let fail = |m: String| Err(GameError::new(m));
    let pos = &table.pos;
    let board = pos.board();
    let mover = pos.turn();
    for color in Color::ALL {
        let king_home = Square::from_coords(File::E, color.backrank());
        let rights = pos.castling_rooks() & Bitboard::from_rank(color.backrank());
        if rights.any() && (pos.king_of(color) != Some(king_home) || !rights.is_subset(Bitboard::CORNERS)) {
            return fail("castling needs the king on the e-file and rooks in the corners".into());
        }
        let last = Bitboard::from_rank(color.other().backrank());
        if let Some(sq) = (board.by_piece(color.pawn()) & last).first() {
            return fail(format!("a pawn on {sq} stands on its last rank: it would have promoted"));
        }
    }
    let pieces = board.occupied().count() as u32;
    let checkers = table.stacks.sum(Bitboard::FULL) + u32::from(table.phase == Phase::Checker);
    if checkers > 32u32.saturating_sub(pieces) {
        return fail(format!(
            "{checkers} checkers with {pieces} pieces on the board: each checker is given for a capture, so there can be at most {}",
            32u32.saturating_sub(pieces)
        ));
    }
    let mid_turn = table.phase != Phase::Regular;
    if mid_turn && pos.ep_square().is_some() {
        return fail(
            "the FEN's en passant square belongs to the start of a turn; mid-turn use `next en passant`".into(),
        );
    }
    match table.phase {
        Phase::Regular | Phase::Over => {
            if table.captured || table.next_ep.is_some() {
                return fail("`captured` and `next en passant` belong to a turn in progress".into());
            }
            if table.king_attacked(mover.other()) {
                return fail("the side not to move is in check".into());
            }
        }
        Phase::Extra(sq) => {
            if board.color_at(sq) != Some(mover) || table.stacks.get(sq) == 0 {
                return fail(format!("the piece taking extra moves on {sq} must be the mover's, with checkers"));
            }
            if let Some(ep) = table.next_ep {
                if table.captured {
                    return fail("a double step captures nothing: no `captured` with `next en passant`".into());
                }
                let pawn_square = ep.offset(mover.fold_wb(8, -8));
                let pawn_here = board.by_piece(mover.pawn()).contains(sq);
                if ep.rank() != mover.fold_wb(Rank::Third, Rank::Sixth) || pawn_square != Some(sq) || !pawn_here {
                    return fail(
                        "`next en passant` must be the square behind the pawn that just advanced two squares".into(),
                    );
                }
            }
            if !table.safe() {
                return fail("the player to move has left their king attacked".into());
            }
        }
        Phase::Checker => {
            if table.next_ep.is_some() {
                return fail("a double step captures nothing: no `next en passant` when a checker is due".into());
            }
            if !table.safe() {
                return fail("the player to move has left their king attacked".into());
            }
        }
    }
    Ok(())
}
