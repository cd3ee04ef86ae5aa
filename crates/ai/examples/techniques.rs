//! What each engine technique of the search saves, load-independently:
//! nodes to finish each depth, and the depth finished within a node
//! budget, with the techniques the levels keep, every technique on, none,
//! every one but one in turn, and the kept ones with each switched the
//! other way in turn, over positions taken from games between
//! greedy players (level 2).
//! The games themselves are measured by `chesskit selfplay` (see
//! docs/dev/engine-speed.md).
//!
//! `cargo run --release -p chesskit-ai --example techniques -- [VARIANT]
//! [NODES] [POSITIONS] [DEPTH]`: defaults chess, 100000 nodes, 8
//! positions, nodes counted to depth 5.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use chesskit_ai::search::{analyse_with, Budget, Table, Techniques};
use chesskit_ai::{GreedyPlayer, Player};
use chesskit_core::{DynGame, Options, Seat, ToAct};

fn arg<T: std::str::FromStr>(place: usize, default: T) -> T {
    std::env::args().nth(place).and_then(|a| a.parse().ok()).unwrap_or(default)
}

/// A position after `plies` actions of greedy play from the game seeded
/// `seed`, with the seat to act, if the game lasts that long.
fn position(variant: &str, seed: u64, plies: usize) -> Option<(Box<dyn DynGame>, Seat)> {
    let mut game = chesskit_games::create(variant, Options::new(), seed, None).ok()?;
    let mut player = GreedyPlayer::new(seed);
    for _ in 0..plies {
        let ToAct::Seats(seats) = game.to_act() else { return None };
        let action = player.choose(game.as_ref(), seats[0])?;
        game.apply(seats[0], &action).ok()?;
    }
    let ToAct::Seats(seats) = game.to_act() else { return None };
    Some((game, seats[0]))
}

/// The nodes at each finished depth up to `max_depth`, and the deepest
/// finished within `nodes`.
fn measure(game: &dyn DynGame, seat: Seat, techniques: Techniques, nodes: u64, max_depth: u32) -> (Vec<u64>, u32) {
    let mut per_depth = Vec::new();
    let to_depth = Budget { max_depth, ..Budget::nodes(u64::MAX, 1) };
    let stop = Arc::new(AtomicBool::new(false));
    analyse_with(game, seat, to_depth, techniques, &mut Table::default(), stop.clone(), &mut |it| {
        per_depth.push(it.nodes)
    });
    let mut reached = 0;
    analyse_with(game, seat, Budget::nodes(nodes, 1), techniques, &mut Table::default(), stop, &mut |it| {
        reached = it.depth
    });
    (per_depth, reached)
}

fn main() {
    let variant: String = arg(1, "chess".to_string());
    let nodes: u64 = arg(2, 100_000);
    let positions: u64 = arg(3, 8);
    let max_depth: u32 = arg(4, 5);
    let games: Vec<_> = (0..positions).filter_map(|seed| position(&variant, seed, 10 + 2 * seed as usize)).collect();
    let mut settings = vec![
        ("kept".to_string(), Techniques::KEPT),
        ("all".to_string(), Techniques::ALL),
        ("none".to_string(), Techniques::NONE),
    ];
    for name in Techniques::NAMES {
        settings.push((format!("no-{name}"), Techniques::ALL.without(name).expect("a known name")));
    }
    // The kept search with each technique switched the other way: the pairs
    // `chesskit selfplay` plays (`level6-with-killers` against `level6`).
    for name in Techniques::NAMES {
        let with = Techniques::KEPT.switched(name, true).expect("a known name");
        settings.push(if with == Techniques::KEPT {
            (format!("kept-no-{name}"), Techniques::KEPT.without(name).expect("a known name"))
        } else {
            (format!("kept-with-{name}"), with)
        });
    }
    println!("{variant}: {} positions; mean nodes to finish each depth, mean depth within {nodes} nodes", games.len());
    for (label, techniques) in settings {
        let mut totals = vec![0u64; max_depth as usize];
        let mut depth_sum = 0;
        for (game, seat) in &games {
            let (per_depth, reached) = measure(game.as_ref(), *seat, techniques, nodes, max_depth);
            for (total, n) in totals.iter_mut().zip(per_depth) {
                *total += n;
            }
            depth_sum += reached;
        }
        let means: Vec<String> = totals.iter().map(|t| format!("{:>9}", t / games.len().max(1) as u64)).collect();
        println!("{label:<14} {}   depth {:.2}", means.join(""), f64::from(depth_sum) / games.len().max(1) as f64);
    }
}
