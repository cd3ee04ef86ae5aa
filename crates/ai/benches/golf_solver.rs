//! The Chess Golf solver benchmark: a fixed set of dealt puzzles of 2, 3
//! and 4 cards, solved one by one; per card count the median and worst
//! solve time and nodes per second, and the peak memory of the process.
//!
//! `cargo bench -p chesskit-ai --bench golf_solver` (or run the built
//! binary); `GOLF_BENCH_PUZZLES=N` sets the puzzles per card count
//! (default 100, so 300 in all).

use chesskit_ai::golf::deal;
use chesskit_games::golf::solve;

fn peak_memory_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn main() {
    let per_count: u64 = std::env::var("GOLF_BENCH_PUZZLES").ok().and_then(|v| v.parse().ok()).unwrap_or(100);
    println!(
        "{:>5} {:>8} {:>10} {:>10} {:>10} {:>12} {:>7}",
        "cards", "puzzles", "median ms", "worst ms", "mean ms", "nodes/s", "length"
    );
    for cards in std::env::var("GOLF_BENCH_CARDS")
        .ok()
        .map(|v| v.split(",").map(|c| c.parse().unwrap()).collect::<Vec<usize>>())
        .unwrap_or(vec![2usize, 3, 4])
    {
        let mut times = Vec::new();
        let mut nodes = 0u64;
        let mut total_ms = 0.0;
        let mut lengths = Vec::new();
        let mut worst = (0.0, 0u64);
        for i in 0..per_count {
            let seed = 1_000_000 * cards as u64 + i;
            let d = deal(seed, cards).expect("a deal");
            let s = solve(&d.puzzle);
            if s.ms > worst.0 {
                worst = (s.ms, seed);
            }
            times.push(s.ms);
            nodes += s.nodes;
            total_ms += s.ms;
            lengths.push(s.length().map_or(-1, |l| l as i64));
        }
        times.sort_by(|a, b| a.partial_cmp(b).unwrap());
        let median = times[times.len() / 2];
        let mean_len = lengths.iter().filter(|&&l| l >= 0).sum::<i64>() as f64 / lengths.len() as f64;
        println!(
            "{:>5} {:>8} {:>10.2} {:>10.2} {:>10.2} {:>12.0} {:>7.2}   (worst: seed {})",
            cards,
            per_count,
            median,
            worst.0,
            total_ms / per_count as f64,
            nodes as f64 / (total_ms / 1000.0),
            mean_len,
            worst.1
        );
    }
    if let Some(kib) = peak_memory_kib() {
        println!("peak memory (VmHWM): {:.1} MiB", kib as f64 / 1024.0);
    }
}
