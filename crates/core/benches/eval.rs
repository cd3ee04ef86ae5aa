//! The cost of one call of the chess evaluation (`chess::eval::evaluate`),
//! which the search makes at every node of every game on a chess board: the
//! mean over a handful of positions from the opening to the endgame, in
//! nanoseconds per call.
//!
//! Run: `cargo bench -p chesskit-core --bench eval` (`EVAL_CALLS=n` for
//! the number of calls, 2,000,000 by default). On a busy machine count
//! instructions instead: `valgrind --tool=callgrind <bench binary>` with
//! `EVAL_CALLS=100000`, and divide by the calls.

use std::hint::black_box;
use std::time::Instant;

use chesskit_core::chess::eval::evaluate;
use chesskit_core::chess::{Bitboard, Geometry, Position};
use shakmaty::{Board, Color};

/// Boards of every phase: the start, a middlegame, a heavy-piece middlegame
/// with the kings castled, a rook ending, a pawn ending.
const BOARDS: [&str; 5] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR",
    "r1bqk2r/pp2bppp/2n1pn2/3p4/2PP4/2N2N2/PP3PPP/R2QKB1R",
    "2kr3r/ppp2ppp/2n5/4q3/8/2P2Q2/PP3PPP/R4RK1",
    "6k1/5ppp/8/1P6/8/8/r4PPP/3R2K1",
    "8/5k2/3p4/1p1P4/1P3K2/8/8/8",
];

fn main() {
    let calls: usize = std::env::var("EVAL_CALLS").ok().and_then(|v| v.parse().ok()).unwrap_or(2_000_000);
    let positions: Vec<Position> = BOARDS
        .iter()
        .map(|b| {
            let board: Board = b.parse().expect("a valid board");
            Position::from_parts(board, Color::White, Bitboard::EMPTY, None, 0, 1, Geometry::ORTHODOX)
        })
        .collect();
    let started = Instant::now();
    let mut sum = 0.0;
    for i in 0..calls {
        let color = if i % 2 == 0 { Color::White } else { Color::Black };
        sum += evaluate(black_box(&positions[i % positions.len()]), color);
    }
    let nanos = started.elapsed().as_nanos() as f64 / calls as f64;
    println!("chess evaluation: {nanos:.1} ns per call over {calls} calls (checksum {sum:.1})");
}
