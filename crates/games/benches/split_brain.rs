//! Split-Brain Chess move generation beside orthodox chess, in the same
//! run: the tree of team moves on the 6x6 (at every node the legal moves
//! and the squares each partner may validly circle) and orthodox perft of
//! the same FEN on the 8x8, as time per node and their ratio. The target
//! is within 2x of orthodox per node.
//!
//! Run: `cargo bench -p chesskit-games --bench split_brain`

mod common;

use chesskit_games::split_brain::{perft, text};

/// (name, Split-Brain position, depth).
const POSITIONS: [common::BenchPosition; 4] = [
    ("start", "8/1rnqknr1/1pppppp1/8/8/1PPPPPP1/1RNQKNR1/8 w - - 0 1", 5),
    ("middle", "8/1r2k3/2p1np2/1P1q2P1/2NQ1p2/1P2P3/4K1R1/8 w - - 0 1", 4),
    ("knights", "8/1r1qk1r1/1pp1np2/3p2p1/2PnP3/1P1N1P2/2QK2R1/8 b - - 0 1", 4),
    ("endgame", "8/6k1/2P5/3r4/8/4N3/1K6/8 w - - 0 1", 5),
];

fn main() {
    common::compare_with_orthodox(&POSITIONS, |t| text::read(t).expect("valid Split-Brain position").pos, perft);
}
