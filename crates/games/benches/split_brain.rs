//! What play uses in Split-Brain Chess, timed: random games (legal actions listed
//! and one applied, action after action) and the generic perft of the
//! positions below through the referee (every circle, choice and move of a seat is a ply).
//! See `benches/common` for what each number means.
//!
//! Run: `cargo bench -p chesskit-games --bench split_brain` (add a position's name for one position)

mod common;

use chesskit_games::split_brain::SplitBrainGame;
use common::{measure_play_of, BenchPosition};

/// (name, Split-Brain position, depth).
const POSITIONS: [BenchPosition; 4] = [
    ("start", "8/1rnqknr1/1pppppp1/8/8/1PPPPPP1/1RNQKNR1/8 w - - 0 1", 5),
    ("middle", "8/1r2k3/2p1np2/1P1q2P1/2NQ1p2/1P2P3/4K1R1/8 w - - 0 1", 4),
    ("knights", "8/1r1qk1r1/1pp1np2/3p2p1/2PnP3/1P1N1P2/2QK2R1/8 b - - 0 1", 4),
    ("endgame", "8/6k1/2P5/3r4/8/4N3/1K6/8 w - - 0 1", 5),
];

fn main() {
    measure_play_of::<SplitBrainGame>(&POSITIONS);
}
