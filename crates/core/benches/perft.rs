//! Perft speed: our move generator beside shakmaty's `perft`, on the same
//! positions in the same run. Prints nodes per second and the ratio.
//! Both do the same work: list the legal moves at every node, the last ply
//! included, and count the last ply's list without playing its moves.
//!
//! Run: `cargo bench -p chesskit-core --bench perft`
//!
//! Each generator runs five times per position, the two taking turns, and
//! keeps its fastest run (`PERFT_REPEATS=n` to change the five).
//!
//! On a busy machine wall-clock ratios wander; count instructions instead,
//! which do not: run the bench binary under `valgrind --tool=callgrind`
//! once with `PERFT_ONLY=ours` and once with `PERFT_ONLY=shakmaty` (each
//! generator then runs once), with `PERFT_SHALLOWER=1` to take a ply off
//! every depth, counting only inside `timed_run`, and divide the two
//! totals; `PERFT_POSITION=start` (a name in the table) runs one position:
//!
//! ```text
//! PERFT_ONLY=ours PERFT_SHALLOWER=1 PERFT_POSITION=start \
//!   valgrind --tool=callgrind --collect-atstart=no \
//!   --toggle-collect='*timed_run*' <bench binary>
//! ```

use std::time::{Duration, Instant};

use chesskit_core::chess::fen::parse_fen;
use chesskit_core::chess::perft;
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess};

const POSITIONS: [(&str, &str, u32); 6] = [
    ("start", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 5),
    ("kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 4),
    ("cpw pos3", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 6),
    ("cpw pos4", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 4),
    ("cpw pos5", "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", 4),
    ("chess960 #0", "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1", 5),
];

/// Which generators run (`PERFT_ONLY`: ours, shakmaty; default both).
fn runs(name: &str) -> bool {
    std::env::var("PERFT_ONLY").map_or(true, |only| only == name)
}

/// Whether the position called `name` runs (`PERFT_POSITION`; default all).
fn selected(name: &str) -> bool {
    std::env::var("PERFT_POSITION").map_or(true, |only| only == name)
}

/// A generator's fastest run so far and the node count it returned.
struct Best {
    nodes: u64,
    time: Duration,
}

impl Best {
    fn new() -> Best {
        Best { nodes: 0, time: Duration::ZERO }
    }

    /// Time one run and keep it if it is the fastest.
    fn time(&mut self, run: &mut impl FnMut() -> u64) {
        let start = Instant::now();
        self.nodes = timed_run(run);
        let elapsed = start.elapsed();
        if self.time.is_zero() || elapsed < self.time {
            self.time = elapsed;
        }
    }
}

/// How many times each generator runs (`PERFT_REPEATS`; 5, or 1 when only
/// one generator runs). The two take turns, so that a burst of load from
/// elsewhere on the machine falls on both alike, and each keeps its best.
fn repeats() -> u32 {
    let default = if std::env::var("PERFT_ONLY").is_ok() { 1 } else { 5 };
    std::env::var("PERFT_REPEATS").ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// One perft run, never inlined: the function callgrind counts.
#[inline(never)]
fn timed_run(run: &mut impl FnMut() -> u64) -> u64 {
    std::hint::black_box(run())
}

fn main() {
    println!(
        "{:<12} {:>5} {:>12} {:>14} {:>14} {:>7}",
        "position", "depth", "nodes", "ours (Mn/s)", "shakmaty", "ratio"
    );
    let (mut ours_total, mut theirs_total) = (Duration::ZERO, Duration::ZERO);
    let shallower: u32 = std::env::var("PERFT_SHALLOWER").ok().and_then(|v| v.parse().ok()).unwrap_or(0);
    for (name, fen, depth) in POSITIONS.into_iter().filter(|(name, ..)| selected(name)) {
        let depth = depth.saturating_sub(shallower).max(1);
        let ours = parse_fen(fen).expect("valid FEN");
        let theirs: Chess = fen.parse::<Fen>().unwrap().into_position(CastlingMode::Chess960).unwrap();
        let (mut ours_best, mut theirs_best) = (Best::new(), Best::new());
        for _ in 0..repeats() {
            if runs("ours") {
                ours_best.time(&mut || perft(&ours, depth));
            }
            if runs("shakmaty") {
                theirs_best.time(&mut || shakmaty::perft(&theirs, depth));
            }
        }
        let (n1, t1, n2, t2) = (ours_best.nodes, ours_best.time, theirs_best.nodes, theirs_best.time);
        if runs("ours") && runs("shakmaty") {
            assert_eq!(n1, n2, "{name}: node counts differ");
        }
        let n1 = n1.max(n2);
        ours_total += t1;
        theirs_total += t2;
        let rate = |t: Duration| n1 as f64 / t.as_secs_f64() / 1e6;
        println!(
            "{name:<12} {depth:>5} {n1:>12} {:>14.1} {:>14.1} {:>7.2}",
            rate(t1),
            rate(t2),
            t2.as_secs_f64() / t1.as_secs_f64()
        );
    }
    println!("overall speed ratio (ours / shakmaty): {:.2}", theirs_total.as_secs_f64() / ours_total.as_secs_f64());
}
