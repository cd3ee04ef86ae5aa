//! The Neighbour Chess Solitaire solver benchmark: the deals of fixed
//! seeds (0 to N-1), each solved with a time limit; per deal the score,
//! whether it is proven, the time and the nodes, then the totals (proven
//! share, median and worst time, nodes per second, mean score).
//!
//! `cargo bench -p chesskit-ai --bench neighbour_solver`. Environment:
//! `NEIGHBOUR_BENCH_SEEDS` (deals, default 30), `NEIGHBOUR_BENCH_SECONDS`
//! (time limit per deal, default 5), `NEIGHBOUR_BENCH_NODES` (a node
//! limit per deal instead of the time limit: how long the server's
//! analysis, which is bounded by nodes, takes on this machine).

use std::time::Duration;

use chesskit_ai::neighbour::{solve, SolveOptions};
use chesskit_core::game::Game;
use chesskit_core::Options;
use chesskit_games::neighbour::NeighbourGame;

fn env<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

fn main() {
    let seeds: u64 = env("NEIGHBOUR_BENCH_SEEDS", 30);
    let seconds: f64 = env("NEIGHBOUR_BENCH_SECONDS", 5.0);
    let node_limit: Option<u64> = std::env::var("NEIGHBOUR_BENCH_NODES").ok().and_then(|v| v.parse().ok());
    println!("{:>5} {:>6} {:>7} {:>10} {:>12} {:>12}", "seed", "score", "proven", "ms", "nodes", "nodes/s");
    let mut ms = Vec::new();
    let (mut nodes, mut proven, mut scores) = (0u64, 0, Vec::new());
    for seed in 0..seeds {
        let game = NeighbourGame::new(&Options::new(), seed).expect("a deal");
        let options = match node_limit {
            Some(nodes) => SolveOptions { time_limit: None, node_limit: Some(nodes), progress: None },
            None => SolveOptions { time_limit: Some(Duration::from_secs_f64(seconds)), ..SolveOptions::default() },
        };
        let solution = solve(&game, options);
        let time = solution.elapsed.as_secs_f64() * 1000.0;
        println!(
            "{:>5} {:>6} {:>7} {:>10.1} {:>12} {:>12.0}",
            seed,
            solution.score.map_or("-".to_string(), |s| s.to_string()),
            if solution.proven { "yes" } else { "no" },
            time,
            solution.nodes,
            solution.nodes as f64 / (time / 1000.0).max(1e-9)
        );
        ms.push(time);
        nodes += solution.nodes;
        proven += usize::from(solution.proven);
        scores.extend(solution.score);
    }
    ms.sort_by(f64::total_cmp);
    let total: f64 = ms.iter().sum();
    println!(
        "{} deals, {} proven; median {:.1} ms, worst {:.1} ms; {:.0} nodes/s; mean score {:.2} over {} won deals",
        seeds,
        proven,
        ms[ms.len() / 2],
        ms[ms.len() - 1],
        nodes as f64 / (total / 1000.0).max(1e-9),
        scores.iter().sum::<usize>() as f64 / scores.len().max(1) as f64,
        scores.len()
    );
}
