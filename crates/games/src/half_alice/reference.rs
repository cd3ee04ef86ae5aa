//! A second, deliberately simple move generator for the tests: it builds
//! each side of the mirror as an orthodox position of its own, takes the
//! core's orthodox pseudo-legal moves there, and keeps a move only if the
//! rule book's conditions hold when tried out one by one:
//!
//! 1. it does not end on a square holding a piece of the other side;
//! 2. played on the mover's side alone, the own king (if there) is not
//!    attacked there;
//! 3. played on the whole board with the switch, the own king is not
//!    attacked on its side;
//! 4. a piece without a checker needs a free checker (two for castling).
//!
//! Nothing here is shared with the fast generator but the act of playing a
//! move (`AlicePosition::play_unchecked`).

use chesskit_core::chess::{Bitboard, Board, Color, Geometry, Move, Position};
use shakmaty::CastlingSide;

use super::mirror::{AlicePosition, Side};

/// The orthodox position of one side of the mirror: only its pieces.
fn side_alone(p: &AlicePosition, side: Side) -> Position {
    let full = p.inner();
    let keep = p.on(side);
    let mut board = Board::empty();
    for sq in keep {
        board.set_piece_at(sq, full.board().piece_at(sq).expect("occupied"));
    }
    // En passant belongs to the side where the double-stepped pawn stands.
    let ep = full.ep_square().filter(|ep| {
        let victim = ep.offset(full.turn().fold_wb(-8, 8)).expect("behind the ep square");
        keep.contains(victim)
    });
    Position::from_parts(
        board,
        full.turn(),
        full.castling_rooks() & keep,
        ep,
        full.halfmoves(),
        full.fullmoves(),
        Geometry::ORTHODOX,
    )
}

/// Where the moved pieces land.
fn landing(m: Move, us: Color) -> Bitboard {
    match m {
        Move::Castle { king, rook } => {
            let side = CastlingSide::from_king_side(rook.file() > king.file());
            Bitboard::from_square(side.king_to(us)).with(side.rook_to(us))
        }
        other => Bitboard::from_square(other.to()),
    }
}

/// Every legal move, found by brute force.
pub fn legal_moves(p: &AlicePosition) -> Vec<Move> {
    let us = p.turn();
    let mut legal = Vec::new();
    for side in [Side::Near, Side::Far] {
        let alone = side_alone(p, side);
        let other_side = p.on(side.other());
        for &m in alone.pseudo_legal_moves().iter() {
            if landing(m, us).intersects(other_side) {
                continue;
            }
            if side == Side::Near {
                let needed = if m.is_castle() { 2 } else { 1 };
                if p.free_checkers(us).is_some_and(|free| free < needed) {
                    continue;
                }
            }
            let mut before_switch = alone.clone();
            before_switch.play_unchecked(m);
            if before_switch.king_of(us).is_some_and(|k| before_switch.is_attacked(k, us.other())) {
                continue;
            }
            let mut after = p.clone();
            after.play_unchecked(m);
            if let Some(king) = after.inner().king_of(us) {
                let king_side = side_alone(&after, after.side_of(king));
                if king_side.is_attacked(king, us.other()) {
                    continue;
                }
            }
            legal.push(m);
        }
    }
    legal
}

/// Perft with the brute-force generator.
pub fn perft(p: &AlicePosition, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    legal_moves(p)
        .into_iter()
        .map(|m| {
            let mut child = p.clone();
            child.play_unchecked(m);
            perft(&child, depth - 1)
        })
        .sum()
}
