//! How fast the referee of a Chess Golf round settles a hole: reads a
//! round's text position (docs/games/golf.md) from the file named first,
//! solves this hole's puzzle with at most the node limit given second
//! (default the round's cap), and prints the verdict, the positions
//! searched, the time and the rate. The cap on `solver_nodes` is sized by
//! this rate (docs/games/golf.md, "The solver"):
//!
//! `cargo run --release -p chesskit-games --example golf_settle -- FILE [NODES]`

use chesskit_core::{Game, Options};
use chesskit_games::golf::round::MAX_SOLVER_NODES;
use chesskit_games::golf::{solve_with, GolfGame, SolveOptions};

fn main() -> Result<(), String> {
    let mut args = std::env::args().skip(1);
    let file = args.next().ok_or("usage: golf_settle FILE [NODES]")?;
    let nodes = match args.next() {
        Some(text) => text.parse::<u64>().map_err(|e| format!("bad node limit {text:?}: {e}"))?,
        None => MAX_SOLVER_NODES,
    };
    let text = std::fs::read_to_string(&file).map_err(|e| format!("cannot read {file}: {e}"))?;
    let round = GolfGame::from_position(&text, &Options::new(), 0).map_err(|e| e.to_string())?;
    let solution = solve_with(&round.puzzle(), &SolveOptions { max_nodes: nodes, ..SolveOptions::default() });
    let rate = solution.nodes as f64 / (solution.ms / 1000.0);
    println!(
        "{:?}: {} positions in {:.0} ms, {:.2} million a second",
        solution.verdict,
        solution.nodes,
        solution.ms,
        rate / 1e6
    );
    Ok(())
}
