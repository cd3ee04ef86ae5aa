//! Move generation speed of Booster Chess beside orthodox chess, on the
//! same boards in the same run: our perft (every regular move, booster
//! step, stop, card play and pass is a node) and the orthodox perft of the
//! board without its checkers. Prints nanoseconds per node and the ratio.
//!
//! Run: `cargo bench -p chesskit-games --bench booster` (add `-- middle` for one position)

use std::time::{Duration, Instant};

use chesskit_core::chess::{fen::parse_fen, perft as orthodox_perft};
use chesskit_core::game::Game;
use chesskit_core::options::Options;
use chesskit_games::booster::{perft, BoosterGame};

/// Boards with checkers (`{+n}` own, `{-n}` the opponent's) and no cards in
/// hand, so that a node is a move as in chess; the orthodox run reads the
/// boards without checkers.
const POSITIONS: [(&str, &str, u32); 4] = [
    ("start", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 3),
    ("kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 2),
    ("middle game", "r3k2r/ppp2ppp/2n1b3/3q{+1}4/3P4/2N2N2/PPP2PPP/R2QK2R{-1} w KQkq - 0 10", 2),
    ("loaded", "r3k2r/p1ppqpb1/bn{+1}2pnp1/3PN3/1p2P3/2N2Q{+1}2/PPPBBP1P/R3K2R w KQkq - 0 1", 2),
];

fn strip_markers(text: &str) -> String {
    let mut out = String::new();
    let mut inside = false;
    for c in text.chars() {
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
fn best_of_three(mut run: impl FnMut() -> u64) -> (u64, Duration) {
    let mut best = Duration::MAX;
    let mut nodes = 0;
    for _ in 0..3 {
        let start = Instant::now();
        nodes = std::hint::black_box(run());
        best = best.min(start.elapsed());
    }
    (nodes, best)
}

fn main() {
    println!(
        "{:<12} {:>5} {:>10} {:>10} {:>12} {:>12} {:>7}",
        "position", "depth", "nodes", "orthodox", "ours ns/node", "orth ns/node", "ratio"
    );
    let filter = std::env::args().nth(1).filter(|a| !a.starts_with('-'));
    let (mut ours_ns, mut theirs_ns) = (0.0, 0.0);
    for (name, text, depth) in POSITIONS {
        if filter.as_ref().is_some_and(|f| !name.contains(f.as_str())) {
            continue;
        }
        let game = BoosterGame::from_position(text, &Options::new(), 0).expect("valid position");
        let orthodox = parse_fen(&strip_markers(text.lines().next().unwrap())).expect("valid FEN");
        let (n1, t1) = best_of_three(|| perft(&game, depth));
        let (n2, t2) = best_of_three(|| orthodox_perft(&orthodox, depth));
        let per1 = t1.as_nanos() as f64 / n1.max(1) as f64;
        let per2 = t2.as_nanos() as f64 / n2.max(1) as f64;
        ours_ns += per1;
        theirs_ns += per2;
        println!("{name:<12} {depth:>5} {n1:>10} {n2:>10} {per1:>12.1} {per2:>12.1} {:>7.2}", per1 / per2);
    }
    println!("overall time per node, ours / orthodox: {:.2}", ours_ns / theirs_ns);
}
