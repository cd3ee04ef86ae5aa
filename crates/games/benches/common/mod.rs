//! The harness shared by the move-generation benchmarks of the games with
//! checkers under pieces: our perft beside the orthodox perft of the same
//! board without its markers, in the same run, as nanoseconds per node and
//! their ratio (the measure: within 2x of orthodox per node), the
//! fastest of samples taken in turn (each at least [`MIN_SAMPLE`] long, a
//! short perft run again within it), and the best-of-three timer every
//! games benchmark uses.
//!
//! On a busy machine wall-clock ratios wander; count instructions instead,
//! which do not. `BENCH_ONLY=ours` or `BENCH_ONLY=orthodox` runs one side
//! only, once per position instead of [`REPEATS`] times, so that a run under
//! `valgrind --tool=callgrind --collect-atstart=no
//! --toggle-collect='*common::timed_run*'` counts exactly the perft calls
//! of that side (reading positions left out); divide by the nodes the
//! table prints and compare the two sides per node, position by position.

// Each benchmark is its own crate and uses only some of these helpers.
#![allow(dead_code)]

use std::time::{Duration, Instant};

use chesskit_core::chess::{fen::parse_fen, perft as orthodox_perft};

/// A benchmark position: its name, the game's text position, the depth.
pub type BenchPosition = (&'static str, &'static str, u32);

/// The FEN of a text position's first line without its `{...}` markers.
fn orthodox_fen(text: &str) -> String {
    let mut out = String::new();
    let mut inside = false;
    for c in text.lines().next().unwrap_or("").chars() {
        match c {
            '{' => inside = true,
            '}' => inside = false,
            c if !inside => out.push(c),
            _ => {}
        }
    }
    out
}

/// The best of three timed runs.
pub fn best_of_three<T>(run: impl FnMut() -> T) -> (T, Duration) {
    best_of(3, run)
}

/// The best of `repeats` timed runs.
fn best_of<T>(repeats: u32, mut run: impl FnMut() -> T) -> (T, Duration) {
    let mut best = Duration::MAX;
    let mut result = None;
    for _ in 0..repeats.max(1) {
        let (value, elapsed) = timed_run(&mut run);
        result = Some(value);
        best = best.min(elapsed);
    }
    (result.expect("at least one run"), best)
}

/// One timed run; not inlined, so that callgrind can count it alone.
#[inline(never)]
fn timed_run<T>(run: &mut impl FnMut() -> T) -> (T, Duration) {
    let start = Instant::now();
    let value = std::hint::black_box(run());
    (value, start.elapsed())
}

/// Whether `side` (`ours` or `orthodox`) runs: both unless `BENCH_ONLY`
/// names one, which then runs once per position.
fn runs(side: &str) -> bool {
    std::env::var("BENCH_ONLY").map_or(true, |only| only == side)
}

/// How many times each side runs per position when both run, taking
/// turns: the fastest run of each counts. On a shared machine a run can
/// take twice as long as the next one (another job, a slower core), and
/// taking turns exposes both sides to the same spells of load.
const REPEATS: u32 = 11;

/// The nodes and the fastest time of `ours` and of `orthodox`: sampled in
/// turn [`REPEATS`] times ([`warm_sample`]), or run once when `BENCH_ONLY`
/// names one side (the other then counts zero nodes).
fn time_both(mut ours: impl FnMut() -> u64, mut orthodox: impl FnMut() -> u64) -> ((u64, Duration), (u64, Duration)) {
    let once = std::env::var("BENCH_ONLY").is_ok();
    let (mut fastest_ours, mut fastest_orthodox) = (None, None);
    for _ in 0..if once { 1 } else { REPEATS } {
        keep_fastest(&mut fastest_ours, "ours", once, &mut ours);
        keep_fastest(&mut fastest_orthodox, "orthodox", once, &mut orthodox);
    }
    (fastest_ours.unwrap_or_default(), fastest_orthodox.unwrap_or_default())
}

/// One timed sample of `side`, if it runs, kept in `fastest` when faster:
/// the nodes of one run and the time one run took (a single run when
/// `once`, for callgrind).
fn keep_fastest(fastest: &mut Option<(u64, Duration)>, side: &str, once: bool, run: &mut impl FnMut() -> u64) {
    if runs(side) {
        let (nodes, took) = if once { timed_run(run) } else { warm_sample(run) };
        if fastest.is_none_or(|(_, best)| took < best) {
            *fastest = Some((nodes, took));
        }
    }
}

/// The shortest a timed sample lasts: a perft that takes less is run again
/// back to back within the sample, and the sample's time divided by the
/// runs. A game's perft on a bench position can take ten microseconds where
/// the orthodox perft of the same board takes a millisecond; timed alone,
/// the short run pays for the branch predictors and caches the other side
/// left behind, which the long run pays once over a thousand times the
/// work. Repeated to the same length, both are timed warm, and the timer's
/// grain is small beside either.
const MIN_SAMPLE: Duration = Duration::from_millis(2);

/// `run` repeated until [`MIN_SAMPLE`] has passed: the nodes of one run
/// and the mean time of one run.
fn warm_sample(run: &mut impl FnMut() -> u64) -> (u64, Duration) {
    let start = Instant::now();
    let mut runs = 0;
    let nodes = loop {
        let nodes = std::hint::black_box(run());
        runs += 1;
        if start.elapsed() >= MIN_SAMPLE {
            break nodes;
        }
    };
    (nodes, start.elapsed() / runs)
}

/// Time `our_perft` on each position as `load` reads it, beside orthodox
/// perft, for every position (or those whose name contains the first
/// command-line argument), and print the table and the overall ratio.
/// Reading the position is not timed.
pub fn compare_with_orthodox<G>(
    positions: &[BenchPosition],
    load: impl Fn(&str) -> G,
    our_perft: impl Fn(&G, u32) -> u64,
) {
    compare_with_orthodox_fen(positions, load, |text, _| orthodox_fen(text), our_perft);
}

/// [`compare_with_orthodox`] for games whose text position does not start
/// with a FEN (a solitaire's board drawing): `orthodox_of` gives the FEN of
/// the orthodox position to time beside each loaded game.
pub fn compare_with_orthodox_fen<G>(
    positions: &[BenchPosition],
    load: impl Fn(&str) -> G,
    orthodox_of: impl Fn(&str, &G) -> String,
    our_perft: impl Fn(&G, u32) -> u64,
) {
    println!(
        "{:<12} {:>5} {:>10} {:>10} {:>12} {:>12} {:>7}",
        "position", "depth", "nodes", "orthodox", "ours ns/node", "orth ns/node", "ratio"
    );
    let filter = std::env::args().nth(1).filter(|a| !a.starts_with('-'));
    let (mut ours_ns, mut theirs_ns) = (0.0, 0.0);
    for &(name, text, depth) in positions {
        if filter.as_ref().is_some_and(|f| !name.contains(f.as_str())) {
            continue;
        }
        let ours = load(text);
        let orthodox = parse_fen(&orthodox_of(text, &ours)).expect("valid FEN");
        let ((n1, t1), (n2, t2)) = time_both(|| our_perft(&ours, depth), || orthodox_perft(&orthodox, depth));
        let per1 = t1.as_nanos() as f64 / n1.max(1) as f64;
        let per2 = t2.as_nanos() as f64 / n2.max(1) as f64;
        ours_ns += per1;
        theirs_ns += per2;
        println!("{name:<12} {depth:>5} {n1:>10} {n2:>10} {per1:>12.1} {per2:>12.1} {:>7.2}", per1 / per2);
    }
    println!("overall time per node, ours / orthodox: {:.2}", ours_ns / theirs_ns);
}
