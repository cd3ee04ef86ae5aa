//! What play uses in Neighbour Chess Solitaire, timed: random games
//! (legal actions listed and one applied, action after action) and the
//! generic perft through the referee of the deals of a few seeds (every
//! card spent and every move is a ply). See `benches/common` for what each
//! number means.
//!
//! Run: `cargo bench -p chesskit-games --bench neighbour` (add a position's name for one position)

mod common;

use chesskit_core::game::Game;
use chesskit_core::options::Options;
use chesskit_games::neighbour::NeighbourGame;
use common::{measure_play, BenchPosition};

/// (name, the seed of the deal, depth).
const POSITIONS: [BenchPosition; 3] = [("seed 1", "1", 4), ("seed 2", "2", 4), ("seed 3", "3", 4)];

fn main() {
    measure_play(&POSITIONS, |seed| {
        NeighbourGame::new(&Options::new(), seed.parse().expect("a seed")).expect("a new deal")
    });
}
