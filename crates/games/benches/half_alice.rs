//! What play uses in Half Alice Chess, timed: random games (legal actions listed
//! and one applied, action after action) and the generic perft of the
//! positions below through the referee (every move is a ply).
//! See `benches/common` for what each number means.
//!
//! Run: `cargo bench -p chesskit-games --bench half_alice` (add a position's name for one position)

mod common;

use chesskit_games::half_alice::HalfAliceGame;
use common::{measure_play_of, BenchPosition};

/// Half Alice positions (`{m}`: a piece behind the mirror); the orthodox
/// run reads them without the markers.
const POSITIONS: [BenchPosition; 4] = [
    ("start", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 4),
    ("kiwipete", "r3k2r/p1p{m}pqpb1/bn{m}2pnp1/3P{m}N3/1p2P{m}3/2N2Q{m}1p/PPPBBPPP/R3K2R w KQkq - 0 1", 3),
    ("italian", "r1bqkb1r/pppp1ppp/2n{m}2n{m}2/4p{m}3/2B{m}1P{m}3/5N{m}2/PPPP1PPP/RNBQK2R w KQkq - 4 4", 4),
    ("endgame", "8/2p{m}5/3p4/KP{m}5r/1R3p1k/8/4P1P{m}1/8 w - - 0 1", 5),
];

fn main() {
    measure_play_of::<HalfAliceGame>(&POSITIONS);
}
