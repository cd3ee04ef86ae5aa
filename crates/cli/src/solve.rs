//! `chesskit solve <variant> --seed S`: the best score for a deal of a
//! solitaire, from the variant's own solver (a small dispatch, one function
//! per variant).

use std::time::Duration;

use chesskit_core::game::Game;
use chesskit_core::Options;
use chesskit_games::neighbour::NeighbourGame;
use indicatif::{ProgressBar, ProgressStyle};

/// The variants with a solver.
pub const SOLVABLE: [&str; 1] = ["neighbour"];

pub fn run(variant: &str, seed: u64, seconds: f64, quiet: bool) -> Result<(), String> {
    if !(seconds.is_finite() && seconds > 0.0) {
        return Err(format!("--seconds must be a positive number, not {seconds}"));
    }
    match variant {
        "neighbour" => neighbour(seed, Duration::from_secs_f64(seconds.min(86_400.0)), quiet),
        other => Err(format!("no solver for {other:?} (solvers: {})", SOLVABLE.join(", "))),
    }
}

/// Neighbour Chess Solitaire: the fewest cards spent to one group.
fn neighbour(seed: u64, limit: Duration, quiet: bool) -> Result<(), String> {
    use chesskit_ai::neighbour::{solve, Progress, SolveOptions};
    let game = NeighbourGame::new(&Options::new(), seed).map_err(|e| e.0)?;
    let bar = if quiet { ProgressBar::hidden() } else { ProgressBar::new(limit.as_millis() as u64) };
    bar.set_style(ProgressStyle::with_template("{bar:40} {elapsed}/{msg}").map_err(|e| e.to_string())?);
    bar.set_message(format!("{}s", limit.as_secs_f64()));
    let mut report = |p: &Progress| {
        bar.set_position(p.elapsed.as_millis() as u64);
        let best = p.best.map_or("none yet".to_string(), |b| b.to_string());
        bar.set_message(format!(
            "{}s · best {best}, no line keeps more than {} cards · {} nodes",
            limit.as_secs_f64(),
            game.cards_left().saturating_sub(p.cost_bound),
            p.nodes
        ));
    };
    let solution = solve(&game, SolveOptions { time_limit: limit, progress: Some(&mut report) });
    bar.finish_and_clear();
    let texts: Vec<String> = solution.actions.iter().map(|a| a.to_string()).collect();
    check_line(&game, &solution.actions, solution.score)?;
    let how = format!("{} search nodes, {:.2} s", solution.nodes, solution.elapsed.as_secs_f64());
    match (solution.score, solution.proven) {
        (Some(score), true) => println!("best score {score} (proven: {how})"),
        (Some(score), false) => println!(
            "score {score}, the best found in the time (not proven: no line keeps more than {} cards; {how})",
            solution.upper_bound
        ),
        (None, true) => println!("no line forms one group: the deal is lost (proven: {how})"),
        (None, false) => println!("no winning line found in the time (not proven; {how})"),
    }
    println!("{}", texts.join(", "));
    Ok(())
}

/// The line replayed by the referee must win with the score the solver claims.
fn check_line(
    game: &NeighbourGame,
    actions: &[chesskit_games::neighbour::NeighbourAction],
    score: Option<usize>,
) -> Result<(), String> {
    let Some(score) = score else { return Ok(()) };
    let mut replay = game.clone();
    for action in actions {
        replay.apply(0, action).map_err(|e| format!("the solver's line is refused at {action}: {e}"))?;
    }
    let outcome = replay.outcome().ok_or("the solver's line does not end the game")?;
    match outcome.scores.as_deref() {
        Some([s]) if !outcome.winners.is_empty() && *s as usize == score => Ok(()),
        _ => Err(format!("the solver's line ends with {outcome:?}, not a win scoring {score}")),
    }
}
