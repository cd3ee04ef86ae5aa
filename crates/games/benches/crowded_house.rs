//! Crowded House move generation beside orthodox chess, in the same run:
//! perft on the same boards (the orthodox position is the Crowded House
//! one without its `half:` line), reported as time per node and as a
//! ratio. The target is within 2x of orthodox per node.
//!
//! Run: `cargo bench -p chesskit-games --bench crowded_house`

mod common;

use chesskit_games::crowded_house::{perft, text};
use common::{compare_with_orthodox, BenchPosition};

const POSITIONS: [BenchPosition; 5] = [
    ("start", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\nhalf: king", 5),
    ("kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1\nhalf: king", 4),
    ("italian", "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4\nhalf: queen", 4),
    ("endgame", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1\nhalf: king", 6),
    ("middlegame", "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10\nhalf: queen", 4),
];

fn main() {
    compare_with_orthodox(&POSITIONS, |t| text::read(t).expect("a Crowded House position").0, perft);
}
