//! The Parade Chess Solitaire solver benchmark: fixed seeds 1 to N (the
//! deals `chesskit play parade --seed S` makes), each solved with a time
//! limit; per deal the score, whether it was proven, the nodes and the
//! time; then the median and worst time, nodes per second, the share
//! proven, the score distribution and the peak memory (VmHWM). Every
//! answer is replayed through the game's referee to the score it claims.
//!
//! `cargo bench -p chesskit-ai --bench parade_solver`. Environment:
//! `PARADE_BENCH_DEALS` (default 20), `PARADE_BENCH_SECONDS` (the limit
//! per deal, default 10).

use std::time::{Duration, Instant};

use chesskit_ai::parade::{replay, solve, SolveOptions};
use chesskit_core::game::Game;
use chesskit_core::Options;
use chesskit_games::parade::ParadeGame;

fn env<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

fn peak_memory_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn main() {
    let deals: u64 = env("PARADE_BENCH_DEALS", 20);
    let seconds: f64 = env("PARADE_BENCH_SECONDS", 10.0);
    println!("{:>5} {:>6} {:>7} {:>12} {:>10}", "seed", "score", "proven", "nodes", "ms");
    let mut times = Vec::new();
    let (mut nodes, mut proven) = (0u64, 0u64);
    let mut scores = Vec::new();
    for seed in 1..=deals {
        let game = ParadeGame::new(&Options::new(), seed).expect("parade deals with no options");
        let options = SolveOptions { time_limit: Duration::from_secs_f64(seconds), ..SolveOptions::default() };
        let start = Instant::now();
        let solution = solve(&game, &options);
        let ms = start.elapsed().as_secs_f64() * 1000.0;
        if !solution.actions.is_empty() {
            assert_eq!(replay(&game, &solution.actions), Ok(solution.score), "seed {seed}: the answer replays");
        }
        println!("{seed:>5} {:>6} {:>7} {:>12} {ms:>10.1}", solution.score, solution.proven, solution.nodes);
        times.push(ms);
        nodes += solution.nodes;
        proven += u64::from(solution.proven);
        scores.push(solution.score);
    }
    times.sort_by(f64::total_cmp);
    let total: f64 = times.iter().sum();
    println!(
        "deals {deals}, limit {seconds} s: median {:.1} ms, worst {:.1} ms, {:.0} nodes/s, proven {proven}/{deals}, mean score {:.2}",
        times[times.len() / 2],
        times[times.len() - 1],
        nodes as f64 / (total / 1000.0).max(1e-9),
        scores.iter().sum::<i64>() as f64 / scores.len() as f64
    );
    if let Some(kib) = peak_memory_kib() {
        println!("peak memory: {} MiB", kib / 1024);
    }
}
