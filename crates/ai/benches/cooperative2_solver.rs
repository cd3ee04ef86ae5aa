//! The Cooperative Chess 2 solver benchmark: fixed seeds 1 to N (the deals
//! `chesskit play cooperative2 --option players=1 --seed S` makes), each
//! solved with a time limit; per deal the score, whether it was proven, the
//! nodes and the time; then the median and worst time, the share proven
//! and the mean score. Every answer is replayed through the referee to the
//! score it claims. A whole deal is never proven (see the solver's
//! documentation); the end-of-cards positions are, and are timed too.
//!
//! `cargo bench -p chesskit-ai --bench cooperative2_solver`. Environment:
//! `COOP2_BENCH_DEALS` (default 10), `COOP2_BENCH_SECONDS` (the limit per
//! deal, default 5).

use std::time::{Duration, Instant};

use chesskit_ai::cooperative2::{replay, solve, SolveOptions};
use chesskit_core::game::Game;
use chesskit_core::Options;
use chesskit_games::cooperative2::Cooperative2Game;

fn env<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// Solitaire positions near the end of the cards, which the search proves.
const ENDINGS: [&str; 2] = [
    "4k3/8/8/8/4Q3/8/PP6/4K3 w - - 0 1\nstep: move\nline: kh qh ks 2h 3h\ndraw pile:\n\
     discard: 4h 5h 2d 3d 4d 5d 8h 8d 9h 9d 10h 10d 2s 3s 4s 5s 2c 3c 4c 5c 8s 8c 9s 9c 10s 10c qs",
    "4k3/8/8/8/4Q3/8/PP6/4K3 w - - 0 1\nstep: move\nline: 2h kh ks 3h\ndraw pile: qh\n\
     discard: 4h 5h 2d 3d 4d 5d 8h 8d 9h 9d 10h 10d 2s 3s 4s 5s 2c 3c 4c 5c 8s 8c 9s 9c 10s 10c qs",
];

fn main() {
    let deals: u64 = env("COOP2_BENCH_DEALS", 10);
    let seconds: f64 = env("COOP2_BENCH_SECONDS", 5.0);
    let solitaire = Options::new().with("players", 1);
    println!("{:>8} {:>6} {:>7} {:>12} {:>10}", "deal", "score", "proven", "nodes", "ms");
    let mut times = Vec::new();
    let mut proven = 0u64;
    let mut scores = Vec::new();
    let mut run = |name: String, game: Cooperative2Game| {
        let options = SolveOptions { time_limit: Duration::from_secs_f64(seconds), ..SolveOptions::default() };
        let start = Instant::now();
        let solution = solve(&game, &options);
        let ms = start.elapsed().as_secs_f64() * 1000.0;
        if !solution.actions.is_empty() {
            assert_eq!(replay(&game, &solution.actions), Ok(solution.score), "{name}: the answer replays");
        }
        println!("{name:>8} {:>6} {:>7} {:>12} {ms:>10.1}", solution.score, solution.proven, solution.nodes);
        times.push(ms);
        proven += u64::from(solution.proven);
        scores.push(solution.score);
    };
    for (i, text) in ENDINGS.iter().enumerate() {
        run(format!("ending{}", i + 1), Cooperative2Game::from_position(text, &solitaire, 0).expect("valid"));
    }
    for seed in 1..=deals {
        run(format!("seed {seed}"), Cooperative2Game::new(&solitaire, seed).expect("a solitaire deal"));
    }
    let total = times.len();
    times.sort_by(f64::total_cmp);
    println!(
        "{total} problems ({} endings, {deals} deals), limit {seconds} s: median {:.1} ms, worst {:.1} ms, proven {proven}/{total}, mean score of the deals {:.2}",
        ENDINGS.len(),
        times[total / 2],
        times[total - 1],
        scores[ENDINGS.len()..].iter().sum::<i64>() as f64 / deals.max(1) as f64
    );
}
