//! A second, deliberately simple move generator for the tests: it tries
//! every orthodox pseudo-legal move of the player's colour, keeps those
//! whose piece starts or ends on the player's files, plays each one, and
//! asks the next player's own move list whether any move they may make
//! lands on the mover's king. Castling is also tried square by square:
//! the king is set on its start, each square it crosses and its
//! destination (king and rook lifted), and the next player must not be
//! able to capture it on any of them.
//!
//! Nothing here is shared with the fast generator but the act of playing a
//! move (`Position::play_unchecked`).

use chesskit_core::chess::{Color, Move, Piece, Position, Role, Square};
use shakmaty::{CastlingSide, MoveList};

use super::house::HousePosition;

/// Whether `square` lies on the files of `seat`'s half (seats 0 and 1: e-h).
fn on_half(seat: usize, square: Square) -> bool {
    let queen_side = u32::from(square.file()) < 4;
    queen_side == (seat >= 2)
}

/// The squares the moving piece (the king, when castling) starts and ends on.
fn ends(m: Move, us: Color) -> (Square, Square) {
    match m {
        Move::Castle { king, rook } => (king, CastlingSide::from_king_side(rook.file() > king.file()).king_to(us)),
        other => (other.from().expect("a board move"), other.to()),
    }
}

/// Whether the seat to move in `pos` (the seat `seat`) has a move it may
/// make that captures on `target`.
fn can_capture(pos: &Position, seat: usize, target: Square) -> bool {
    let them = pos.turn();
    pos.pseudo_legal_moves().iter().any(|&m| {
        let (from, to) = ends(m, them);
        !m.is_castle() && to == target && (on_half(seat, from) || on_half(seat, to))
    })
}

/// Every legal move, found by brute force.
pub fn legal_moves(p: &HousePosition) -> Vec<Move> {
    let pos = p.inner();
    let us = pos.turn();
    let seat = p.seat();
    let next = (seat + 1) % 4;
    let mut candidates: MoveList = pos.pseudo_legal_moves();
    candidates.retain(|m| !m.is_castle());
    pos.castling_moves(false, &mut candidates);
    let mut legal = Vec::new();
    for &m in candidates.iter() {
        let (from, to) = ends(m, us);
        if !on_half(seat, from) && !on_half(seat, to) {
            continue;
        }
        let mut after = pos.clone();
        after.play_unchecked(m);
        let king = after.king_of(us).expect("one king each");
        if can_capture(&after, next, king) {
            continue;
        }
        if let Move::Castle { king, rook } = m {
            let dest = CastlingSide::from_king_side(rook.file() > king.file()).king_to(us);
            let step = if dest > king { 1 } else { -1 };
            let mut square = king;
            let mut safe = true;
            loop {
                let mut lifted = pos.clone();
                lifted.board_mut().discard_piece_at(king);
                lifted.board_mut().discard_piece_at(rook);
                lifted.board_mut().set_piece_at(square, Piece { color: us, role: Role::King });
                lifted.set_turn(us.other());
                lifted.set_ep_square(None);
                safe &= !can_capture(&lifted, next, square);
                if square == dest {
                    break;
                }
                square = square.offset(step).expect("on the back rank");
            }
            if !safe {
                continue;
            }
        }
        legal.push(m);
    }
    legal
}

/// Perft with the brute-force generator; a pass is one node.
pub fn perft(p: &HousePosition, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = legal_moves(p);
    if moves.is_empty() {
        let mut passed = p.clone();
        passed.pass();
        if can_capture(passed.inner(), passed.seat(), p.inner().king_of(p.turn()).expect("one king each")) {
            return 0;
        }
        return perft(&passed, depth - 1);
    }
    moves
        .into_iter()
        .map(|m| {
            let mut child = p.clone();
            child.play(m);
            perft(&child, depth - 1)
        })
        .sum()
}
