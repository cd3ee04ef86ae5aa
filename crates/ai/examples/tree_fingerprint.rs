//! A fingerprint of the search's tree, to check that a change meant for
//! speed alone leaves the search as it was: for every game, from positions
//! along random games, each finished iteration of a search on a node
//! budget (its depth, best action, value and the nodes it took). Two
//! builds that print the same lines search the same trees.
//!
//! `cargo run --release -p chesskit-ai --example tree_fingerprint --
//! [NODES] [POSITIONS]`: defaults 20000 nodes, 3 positions a game.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use chesskit_ai::search::{analyse_with, Budget, Table, Techniques};
use chesskit_ai::{Player, RandomPlayer};
use chesskit_core::{DynGame, Options, Seat, ToAct};

fn arg<T: std::str::FromStr>(place: usize, default: T) -> T {
    std::env::args().nth(place).and_then(|a| a.parse().ok()).unwrap_or(default)
}

/// The first position along the random game seeded `seed` where the seat
/// to act has more than one action, after at least `plies` actions.
fn position(variant: &str, seed: u64, plies: usize) -> Option<(Box<dyn DynGame>, Seat)> {
    let mut game = chesskit_games::create(variant, Options::new(), seed, None).ok()?;
    let mut player = RandomPlayer::new(seed);
    for played in 0.. {
        let ToAct::Seats(seats) = game.to_act() else { return None };
        if played >= plies && game.legal_actions(seats[0]).len() > 1 {
            return Some((game, seats[0]));
        }
        let action = player.choose(game.as_ref(), seats[0])?;
        game.apply(seats[0], &action).ok()?;
    }
    None
}

fn main() {
    let nodes: u64 = arg(1, 20_000);
    let positions: u64 = arg(2, 3);
    for variant in chesskit_games::names() {
        for seed in 0..positions {
            let Some((game, seat)) = position(variant, seed, 4 * seed as usize) else { continue };
            let stop = Arc::new(AtomicBool::new(false));
            let budget = Budget::nodes(nodes, 1);
            let mut lines = Vec::new();
            analyse_with(game.as_ref(), seat, budget, Techniques::default(), &mut Table::default(), stop, &mut |it| {
                lines.push(format!("{} {} {:.6} {}", it.depth, it.best, it.value, it.nodes));
            });
            println!("{variant} {seed}: {}", lines.join(" | "));
        }
    }
}
