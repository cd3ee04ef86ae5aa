//! `chesskit perft`: count the move tree of a position, the standard test of
//! a move generator. Chess960 castling rights are read from X-FEN or
//! Shredder-FEN.

use chesskit_core::chess::fen::parse_fen;
use chesskit_core::chess::notation::{to_uci, CastlingStyle};
use chesskit_core::chess::{perft, Bitboard, Color, File, Position, Square};

/// Run perft and return the output lines: with `divide`, one `move: count`
/// line per legal move, then the total alone on the last line.
pub fn run(fen: &str, depth: u32, divide: bool) -> Result<String, String> {
    let pos = parse_fen(fen).map_err(|e| format!("bad FEN: {e}"))?;
    if depth > 12 {
        return Err(format!("depth {depth} is too deep: perft grows about 30-fold per ply; use 12 or less"));
    }
    let mut out = String::new();
    if divide && depth > 0 {
        let style = castling_style(&pos);
        let mut lines: Vec<(String, u64)> = pos
            .legal_moves()
            .iter()
            .map(|&m| {
                let mut child = pos.clone();
                child.play_unchecked(m);
                (to_uci(m, style), perft(&child, depth - 1))
            })
            .collect();
        lines.sort();
        let total: u64 = lines.iter().map(|(_, n)| n).sum();
        for (uci, n) in lines {
            out.push_str(&format!("{uci}: {n}\n"));
        }
        out.push_str(&format!("{total}\n"));
    } else {
        out.push_str(&format!("{}\n", perft(&pos, depth)));
    }
    Ok(out)
}

/// Orthodox positions write castling as the king's two-square move; any
/// other castling right (a Chess960 setup) as the king taking its rook.
fn castling_style(pos: &Position) -> CastlingStyle {
    let orthodox = Color::ALL.into_iter().all(|color| {
        let rights = pos.castling_rooks() & Bitboard::from_rank(color.backrank());
        rights.is_empty()
            || (pos.king_of(color) == Some(Square::from_coords(File::E, color.backrank()))
                && rights.is_subset(Bitboard::CORNERS))
    });
    if orthodox {
        CastlingStyle::Standard
    } else {
        CastlingStyle::KingTakesRook
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn divide_lists_moves_then_the_total() {
        let out = run("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 2, true).unwrap();
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 21);
        assert!(lines.contains(&"e2e4: 20"));
        assert_eq!(lines.last(), Some(&"400"));
    }

    #[test]
    fn chess960_castling_is_king_takes_rook() {
        let out = run("bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w GEge - 0 1", 1, true).unwrap();
        assert_eq!(out.lines().last(), Some("20"));
        let out = run("4k3/8/8/8/8/8/8/1R3KR1 w GB - 0 1", 1, true).unwrap();
        assert!(out.contains("f1g1: 1") && out.contains("f1b1: 1"), "{out}");
    }

    #[test]
    fn bad_fen_is_an_error() {
        assert!(run("not a fen", 1, false).unwrap_err().starts_with("bad FEN"));
    }
}
