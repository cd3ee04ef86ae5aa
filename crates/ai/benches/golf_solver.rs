//! The Chess Golf solver benchmark.
//!
//! 1. Generated puzzles: a fixed set of deals as `chesskit golf new` makes
//!    them (a fresh course, cards drawn from a shuffled deck), 100 each of
//!    2, 3 and 4 cards; per card count the median and worst solve time,
//!    nodes per second and mean optimal length.
//! 2. Boards met in rounds: the holes of fixed simulated rounds (4
//!    players), where the course has been reshaped by earlier holes, with
//!    the same figures and how many reached the node limit.
//!
//! Then the peak memory of the process (VmHWM).
//!
//! `cargo bench -p chesskit-ai --bench golf_solver`. Environment:
//! `GOLF_BENCH_PUZZLES` (generated puzzles per card count, default 100),
//! `GOLF_BENCH_CARDS` (card counts, default 2,3,4), `GOLF_BENCH_ROUNDS`
//! (simulated rounds, default 100; 0 skips part 2).

use chesskit_ai::golf::{deal, simulate_round, HoleStat};
use chesskit_games::golf::solve;

fn peak_memory_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn env<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

fn header() {
    println!(
        "{:>5} {:>8} {:>10} {:>10} {:>10} {:>12} {:>7} {:>6}",
        "cards", "puzzles", "median ms", "worst ms", "mean ms", "nodes/s", "length", "limit"
    );
}

fn row(cards: usize, holes: &[HoleStat]) {
    if holes.is_empty() {
        return;
    }
    let mut ms: Vec<f64> = holes.iter().map(|h| h.ms).collect();
    ms.sort_by(f64::total_cmp);
    let total_ms: f64 = ms.iter().sum();
    let nodes: u64 = holes.iter().map(|h| h.nodes).sum();
    let solved: Vec<usize> = holes.iter().filter_map(|h| h.length).collect();
    println!(
        "{:>5} {:>8} {:>10.3} {:>10.2} {:>10.3} {:>12.0} {:>7.2} {:>6}",
        cards,
        holes.len(),
        ms[ms.len() / 2],
        ms[ms.len() - 1],
        total_ms / holes.len() as f64,
        nodes as f64 / (total_ms / 1000.0).max(1e-9),
        solved.iter().sum::<usize>() as f64 / solved.len().max(1) as f64,
        holes.iter().filter(|h| h.unsettled).count()
    );
}

fn main() {
    let per_count: u64 = env("GOLF_BENCH_PUZZLES", 100);
    let cards_list: Vec<usize> = std::env::var("GOLF_BENCH_CARDS")
        .ok()
        .map(|v| v.split(',').filter_map(|c| c.trim().parse().ok()).collect())
        .unwrap_or(vec![2, 3, 4]);
    println!("Generated puzzles (golf new deals, seeds 1000000*cards + i)");
    header();
    for &cards in &cards_list {
        let holes: Vec<HoleStat> = (0..per_count)
            .map(|i| {
                let d = deal(1_000_000 * cards as u64 + i, cards).expect("a deal");
                let s = solve(&d.puzzle);
                HoleStat { puzzle: d.puzzle, cards, length: s.length(), unsettled: false, nodes: s.nodes, ms: s.ms }
            })
            .collect();
        row(cards, &holes);
    }
    let rounds: u64 = env("GOLF_BENCH_ROUNDS", 100);
    if rounds > 0 {
        println!("\nBoards met in rounds ({rounds} simulated rounds of 4 players, seeds 1.., node limit 50 million)");
        header();
        let mut holes = Vec::new();
        for seed in 1..=rounds {
            holes.extend(simulate_round(4, seed, 50_000_000).expect("a round").0);
        }
        let most = holes.iter().map(|h| h.cards).max().unwrap_or(2);
        for cards in 2..=most {
            let these: Vec<HoleStat> = holes.iter().filter(|h| h.cards == cards).cloned().collect();
            row(cards, &these);
        }
    }
    if let Some(kib) = peak_memory_kib() {
        println!("\npeak memory (VmHWM): {:.1} MiB", kib as f64 / 1024.0);
    }
}
