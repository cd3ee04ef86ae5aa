//! What play uses in Adrenaline Chess, timed: random games (legal actions listed
//! and one applied, action after action) and the generic perft of the
//! positions below through the referee (every regular move, extra step, stop and checker placement is a ply).
//! See `benches/common` for what each number means.
//!
//! Run: `cargo bench -p chesskit-games --bench adrenaline` (add a position's name for one position)

mod common;

use chesskit_games::adrenaline::AdrenalineGame;
use common::{measure_play_of, BenchPosition};

/// Boards with checkers (`{n}`); the orthodox run reads them without.
const POSITIONS: [BenchPosition; 5] = [
    ("start", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 4),
    ("kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 3),
    ("middle game", "r3k2r/ppp2ppp/2n1b3/3q{1}4/3P4/2N2N2/PPP2PPP/R2QK2R{1} w KQkq - 0 10", 4),
    ("italian", "r1b1k2r/pp3ppp/2n{1}1p3/4p3/2B{1}1P3/5N2/PPP2PPP/R3K2R w KQkq - 0 9", 4),
    ("loaded", "r3k2r/p1ppqpb1/bn{1}2pnp1/3PN3/1p2P3/2N2Q{1}2/PPPBBP1P/R3K2R w KQkq - 0 1", 3),
];

fn main() {
    measure_play_of::<AdrenalineGame>(&POSITIONS);
}
