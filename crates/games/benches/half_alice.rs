//! Half Alice Chess move generation beside orthodox chess, in the same run:
//! perft on the same squares (the orthodox position is the Half Alice one
//! with every piece on the board side), reported as time per node and as a
//! ratio. The target is within 2x of orthodox per node.
//!
//! Run: `cargo bench -p chesskit-games --bench half_alice`
//!
//! On a busy machine wall-clock ratios wander; count instructions instead.
//! `BENCH_ONLY=ours` or `BENCH_ONLY=orthodox` runs one side only, once per
//! position (or only the positions whose name contains the first
//! command-line argument), so that a run under `valgrind --tool=callgrind
//! --collect-atstart=no --toggle-collect='*half_alice::timed_run*'` counts
//! exactly the perft calls of that side; divide by the nodes the table
//! prints.

use std::time::{Duration, Instant};

use chesskit_core::chess::fen::parse_fen;
use chesskit_core::chess::perft as orthodox_perft;
use chesskit_games::half_alice::{perft, text};

/// (name, Half Alice position, depth). The orthodox twin drops the `{m}` markers.
const POSITIONS: [(&str, &str, u32); 4] = [
    ("start", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 4),
    ("kiwipete", "r3k2r/p1p{m}pqpb1/bn{m}2pnp1/3P{m}N3/1p2P{m}3/2N2Q{m}1p/PPPBBPPP/R3K2R w KQkq - 0 1", 3),
    ("italian", "r1bqkb1r/pppp1ppp/2n{m}2n{m}2/4p{m}3/2B{m}1P{m}3/5N{m}2/PPPP1PPP/RNBQK2R w KQkq - 4 4", 4),
    ("endgame", "8/2p{m}5/3p4/KP{m}5r/1R3p1k/8/4P1P{m}1/8 w - - 0 1", 5),
];

/// Two runs timed in turn, five times each, keeping each one's best: the
/// machine's load then weighs on both alike. With `BENCH_ONLY` set, the
/// side it names runs once and the other not at all (zero nodes).
fn best_of_five_alternating(mut a: impl FnMut() -> u64, mut b: impl FnMut() -> u64) -> [(u64, Duration); 2] {
    let only = std::env::var("BENCH_ONLY").ok();
    let repeats = if only.is_some() { 1 } else { 5 };
    let mut best = [(0, Duration::MAX); 2];
    for _ in 0..repeats {
        for (i, run) in [&mut a as &mut dyn FnMut() -> u64, &mut b].into_iter().enumerate() {
            if only.as_deref().is_some_and(|side| side != ["ours", "orthodox"][i]) {
                best[i] = (0, Duration::ZERO);
                continue;
            }
            let (nodes, elapsed) = timed_run(run);
            best[i] = (nodes, best[i].1.min(elapsed));
        }
    }
    best
}

/// One timed run; not inlined, so that callgrind can count it alone.
#[inline(never)]
fn timed_run(run: &mut dyn FnMut() -> u64) -> (u64, Duration) {
    let start = Instant::now();
    let nodes = std::hint::black_box(run());
    (nodes, start.elapsed())
}

fn main() {
    println!(
        "{:<10} {:>5} {:>10} {:>12} {:>10} {:>12} {:>16}",
        "position", "depth", "alice", "alice ns/n", "orthodox", "ortho ns/n", "ratio per node"
    );
    let filter = std::env::args().nth(1).filter(|a| !a.starts_with('-'));
    let (mut alice_ns, mut ortho_ns) = (0.0, 0.0);
    for (name, fen, depth) in POSITIONS {
        if filter.as_ref().is_some_and(|f| !name.contains(f.as_str())) {
            continue;
        }
        let alice = text::read(fen, None).expect("valid Half Alice position");
        let orthodox = parse_fen(&fen.replace("{m}", "")).expect("valid FEN");
        let [(n1, t1), (n2, t2)] =
            best_of_five_alternating(|| perft(&alice, depth), || orthodox_perft(&orthodox, depth));
        let per_node = |t: Duration, n: u64| t.as_secs_f64() * 1e9 / n.max(1) as f64;
        let (a, o) = (per_node(t1, n1), per_node(t2, n2));
        alice_ns += a;
        ortho_ns += o;
        println!("{name:<10} {depth:>5} {n1:>10} {a:>12.1} {n2:>10} {o:>12.1} {:>16.2}", a / o);
    }
    println!("overall time per node, Half Alice / orthodox: {:.2} (target: at most 2)", alice_ns / ortho_ns);
}
