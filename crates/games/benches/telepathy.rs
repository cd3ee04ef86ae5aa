//! What play uses in Telepathy Chess, timed: random games (legal actions listed
//! and one applied, action after action) and the generic perft of the
//! positions below through the referee (every prediction, move and removal is a ply).
//! See `benches/common` for what each number means.
//!
//! Run: `cargo bench -p chesskit-games --bench telepathy` (add a position's name for one position)

mod common;

use chesskit_games::telepathy::TelepathyGame;
use common::{measure_play_of, BenchPosition};

/// Boards with the mover to play (a card is face down), so that the first
/// ply is a chess move; the coin beside a side in two of them, so that
/// removals are in the tree.
const POSITIONS: [BenchPosition; 4] = [
    ("start", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\nphase: move\nwhite face down: 8h", 4),
    (
        "kiwipete",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1\nphase: move\nwhite face down: 6h",
        3,
    ),
    (
        "middle game",
        "r3k2r/ppp2ppp/2n1b3/3q4/3P4/2N2N2/PPP2PPP/R2QK2R w KQkq - 0 10\nphase: move\ntrophy track: white side\nwhite face down: qh",
        3,
    ),
    (
        "endgame",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1\nphase: move\ntrophy track: black side\nwhite face down: 10h",
        4,
    ),
];

fn main() {
    measure_play_of::<TelepathyGame>(&POSITIONS);
}
