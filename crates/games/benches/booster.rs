//! What play uses in Booster Chess, timed: random games (legal actions listed
//! and one applied, action after action) and the generic perft of the
//! positions below through the referee (every regular move, booster step, stop, card play and pass is a ply).
//! See `benches/common` for what each number means.
//!
//! Run: `cargo bench -p chesskit-games --bench booster` (add a position's name for one position)

mod common;

use chesskit_games::booster::BoosterGame;
use common::{measure_play_of, BenchPosition};

/// Boards with checkers (`{+n}` own, `{-n}` the opponent's) and no cards in
/// hand, so that a node is a move as in chess; the orthodox run reads the
/// boards without checkers.
const POSITIONS: [BenchPosition; 4] = [
    ("start", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 3),
    ("kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 2),
    ("middle game", "r3k2r/ppp2ppp/2n1b3/3q{+1}4/3P4/2N2N2/PPP2PPP/R2QK2R{-1} w KQkq - 0 10", 2),
    ("loaded", "r3k2r/p1ppqpb1/bn{+1}2pnp1/3PN3/1p2P3/2N2Q{+1}2/PPPBBP1P/R3K2R w KQkq - 0 1", 2),
];

fn main() {
    measure_play_of::<BoosterGame>(&POSITIONS);
}
