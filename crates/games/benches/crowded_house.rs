//! What play uses in Crowded House, timed: random games (legal actions listed
//! and one applied, action after action) and the generic perft of the
//! positions below through the referee (every move is a ply).
//! See `benches/common` for what each number means.
//!
//! Run: `cargo bench -p chesskit-games --bench crowded_house` (add a position's name for one position)

mod common;

use chesskit_games::crowded_house::CrowdedHouseGame;
use common::{measure_play_of, BenchPosition};

const POSITIONS: [BenchPosition; 5] = [
    ("start", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\nhalf: king", 5),
    ("kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1\nhalf: king", 4),
    ("italian", "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4\nhalf: queen", 4),
    ("endgame", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1\nhalf: king", 6),
    ("middlegame", "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10\nhalf: queen", 4),
];

fn main() {
    measure_play_of::<CrowdedHouseGame>(&POSITIONS);
}
