//! Move generation speed of Adrenaline Chess beside orthodox chess, on the
//! same boards in the same run: our perft (every regular move, extra step,
//! stop and checker placement is a node) and the orthodox perft of the
//! board without its checkers. Prints nanoseconds per node and the ratio.
//!
//! Run: `cargo bench -p chesskit-games --bench adrenaline` (add `-- middle` for one position)

mod common;

use chesskit_core::game::Game;
use chesskit_core::options::Options;
use chesskit_games::adrenaline::{perft, AdrenalineGame};
use common::{compare_with_orthodox, BenchPosition};

/// Boards with checkers (`{n}`); the orthodox run reads them without.
const POSITIONS: [BenchPosition; 5] = [
    ("start", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 4),
    ("kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 3),
    ("middle game", "r3k2r/ppp2ppp/2n1b3/3q{1}4/3P4/2N2N2/PPP2PPP/R2QK2R{1} w KQkq - 0 10", 4),
    ("italian", "r1b1k2r/pp3ppp/2n{1}1p3/4p3/2B{1}1P3/5N2/PPP2PPP/R3K2R w KQkq - 0 9", 4),
    ("loaded", "r3k2r/p1ppqpb1/bn{1}2pnp1/3PN3/1p2P3/2N2Q{1}2/PPPBBP1P/R3K2R w KQkq - 0 1", 3),
];

fn main() {
    compare_with_orthodox(
        &POSITIONS,
        |text| AdrenalineGame::from_position(text, &Options::new(), 0).expect("valid position"),
        |game, depth| perft(game.table(), depth),
    );
}
