//! `chesskit solve <variant> --seed S [--seconds T]`: the best score of a
//! solitaire deal, proven where the search can be finished in time,
//! otherwise the best found (`--nodes N` bounds Neighbour's search by
//! nodes instead, the same on every machine). One small function per variant below; the
//! dispatch in [`run`] names them.

use std::time::{Duration, Instant};

use chesskit_core::game::Game;
use chesskit_core::Options;
use chesskit_games::neighbour::NeighbourGame;
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::json;

/// The variants `chesskit solve` knows.
pub const SOLVABLE: &[&str] = &["parade", "neighbour", "cooperative2"];

#[derive(clap::Args, Debug)]
pub struct SolveArgs {
    /// The variant: parade, neighbour or cooperative2.
    pub variant: String,
    /// The seed of the deal (as `chesskit play <variant> --seed S` deals it).
    #[arg(long)]
    pub seed: u64,
    /// Stop searching after this long and print the best found (not proven).
    /// Default 10, unless --nodes is given.
    #[arg(long)]
    pub seconds: Option<f64>,
    /// Neighbour only: stop searching after this many nodes.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Solve from this text position instead of the deal.
    #[arg(long)]
    pub position: Option<String>,
    /// Print {"score", "proven", "actions", "nodes", "ms"} as JSON (Neighbour
    /// adds "verdict" and "message").
    #[arg(long)]
    pub json: bool,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
}

/// The time limit when neither --seconds nor --nodes is given.
const DEFAULT_SECONDS: f64 = 10.0;

impl SolveArgs {
    /// The time limit: --seconds, or the default when no limit is given.
    fn time_limit(&self) -> Option<f64> {
        match (self.seconds, self.nodes) {
            (Some(seconds), _) => Some(seconds),
            (None, Some(_)) => None,
            (None, None) => Some(DEFAULT_SECONDS),
        }
    }

    /// The time limit of the solvers that have no other limit.
    fn seconds(&self) -> f64 {
        self.seconds.unwrap_or(DEFAULT_SECONDS)
    }
}

pub fn run(args: SolveArgs) -> Result<(), String> {
    if let Some(seconds) = args.seconds.filter(|s| !(*s > 0.0 && *s <= 86_400.0)) {
        return Err(format!("--seconds must be more than 0 and at most a day, not {seconds}"));
    }
    if args.nodes == Some(0) {
        return Err("--nodes must be at least 1".to_string());
    }
    if args.nodes.is_some() && args.variant != "neighbour" {
        return Err(format!("--nodes bounds only the neighbour solver, not {:?}; use --seconds", args.variant));
    }
    match args.variant.as_str() {
        "parade" => parade(&args),
        "neighbour" => neighbour(&args),
        "cooperative2" => cooperative2(&args),
        other => Err(format!("no solver for {other:?} (solvers: {})", SOLVABLE.join(", "))),
    }
}

/// A progress bar over the time allowed, its message the search's state.
fn time_bar(seconds: f64, quiet: bool) -> Result<ProgressBar, String> {
    let ticks = (seconds * 10.0).ceil() as u64;
    let bar = if quiet { ProgressBar::hidden() } else { ProgressBar::new(ticks) };
    bar.set_style(
        ProgressStyle::with_template("{bar:30} {elapsed}/{len_secs} {msg}").map_err(|e| e.to_string())?.with_key(
            "len_secs",
            move |_: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                let _ = write!(w, "{seconds}s");
            },
        ),
    );
    Ok(bar)
}

fn parade(args: &SolveArgs) -> Result<(), String> {
    use chesskit_ai::parade::{solve, Progress, SolveOptions};
    use chesskit_games::parade::ParadeGame;

    let game = match &args.position {
        Some(text) => ParadeGame::from_position(text, &Options::new(), args.seed),
        None => ParadeGame::new(&Options::new(), args.seed),
    }
    .map_err(|e| e.0)?;
    let bar = time_bar(args.seconds(), args.quiet)?;
    let started = Instant::now();
    let progress = |p: Progress| {
        bar.set_position((started.elapsed().as_secs_f64() * 10.0) as u64);
        let best = p.best.map_or("none yet".to_string(), |b| b.to_string());
        let stage = p.depth.map_or("finding a good line".to_string(), |d| format!("proving: no group in {d} actions?"));
        bar.set_message(format!("best score {best}; {stage}; {} nodes", p.nodes));
    };
    let options = SolveOptions {
        time_limit: Duration::from_secs_f64(args.seconds()),
        progress: Some(&progress),
        ..SolveOptions::default()
    };
    let solution = solve(&game, &options);
    bar.finish_and_clear();
    let actions: Vec<String> = solution.actions.iter().map(|a| a.to_string()).collect();
    print_score(args.json, solution.score, solution.proven, solution.nodes, &actions, started);
    Ok(())
}

/// A best score: as one JSON object, or as lines a person reads.
fn print_score(json: bool, score: i64, proven: bool, nodes: u64, actions: &[String], started: Instant) {
    if json {
        let value = json!({
            "score": score,
            "proven": proven,
            "actions": actions,
            "nodes": nodes,
            "ms": started.elapsed().as_millis() as u64,
        });
        println!("{value}");
    } else {
        println!("score: {score}");
        println!("proven: {}", if proven { "yes" } else { "no (the best found in the time allowed)" });
        println!("nodes: {nodes}");
        println!("actions: {}", if actions.is_empty() { "(none)".to_string() } else { actions.join(" ") });
    }
}

/// Neighbour Chess Solitaire: the fewest cards spent to one group, and
/// the verdict in words: a line, no line at all, or a search that ran out.
fn neighbour(args: &SolveArgs) -> Result<(), String> {
    use chesskit_ai::neighbour::{solve, Progress, SolveOptions};
    let game = match &args.position {
        Some(text) => NeighbourGame::from_position(text, &Options::new(), args.seed),
        None => NeighbourGame::new(&Options::new(), args.seed),
    }
    .map_err(|e| e.0)?;
    let time_limit = args.time_limit().map(Duration::from_secs_f64);
    let bar = neighbour_bar(time_limit, args.nodes, args.quiet)?;
    let mut report = |p: &Progress| {
        match time_limit {
            Some(_) => bar.set_position(p.elapsed.as_millis() as u64),
            None => bar.set_position(p.nodes),
        }
        let best = p.best.map_or("none yet".to_string(), |b| b.to_string());
        bar.set_message(format!(
            "best {best}, no line keeps more than {} cards · {} nodes",
            game.cards_left().saturating_sub(p.cost_bound),
            p.nodes
        ));
    };
    let options = SolveOptions { time_limit, node_limit: args.nodes, progress: Some(&mut report) };
    let solution = solve(&game, options);
    bar.finish_and_clear();
    let texts: Vec<String> = solution.actions.iter().map(|a| a.to_string()).collect();
    check_line(&game, &solution.actions, solution.score)?;
    if args.json {
        let value = json!({
            "score": solution.score,
            "proven": solution.proven,
            "verdict": solution.verdict().code(),
            "message": solution.in_words(),
            "actions": texts,
            "nodes": solution.nodes,
            "ms": solution.elapsed.as_millis() as u64,
        });
        println!("{value}");
        return Ok(());
    }
    println!("{}.", solution.in_words());
    if !texts.is_empty() {
        println!("{}", texts.join(", "));
    }
    Ok(())
}

/// Neighbour's progress bar: over the time allowed when there is a time
/// limit, otherwise over the nodes allowed.
fn neighbour_bar(time_limit: Option<Duration>, nodes: Option<u64>, quiet: bool) -> Result<ProgressBar, String> {
    let (length, of) = match (time_limit, nodes) {
        (Some(limit), _) => (limit.as_millis() as u64, format!("{} s", limit.as_secs_f64())),
        (None, Some(nodes)) => (nodes, format!("{nodes} nodes")),
        (None, None) => (0, "no limit".to_string()),
    };
    let bar = if quiet { ProgressBar::hidden() } else { ProgressBar::new(length) };
    bar.set_style(
        ProgressStyle::with_template(&format!("{{bar:40}} {{elapsed}} of {of} · {{msg}}"))
            .map_err(|e| e.to_string())?,
    );
    Ok(bar)
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

/// Cooperative Chess 2: the best score of a deal with the draw pile known
/// (the solitaire; for two seats, as if both hands were known too: an
/// upper bound). `--option players=1` is implied unless the position says
/// otherwise: the solver solves the solitaire deal of the seed.
fn cooperative2(args: &SolveArgs) -> Result<(), String> {
    use chesskit_ai::cooperative2::{replay, solve, Progress, SolveOptions};
    use chesskit_games::cooperative2::Cooperative2Game;

    let solitaire = Options::new().with("players", 1);
    let game = match &args.position {
        Some(text) => Cooperative2Game::from_position(text, &solitaire, args.seed)
            .or_else(|_| Cooperative2Game::from_position(text, &Options::new(), args.seed)),
        None => Cooperative2Game::new(&solitaire, args.seed),
    }
    .map_err(|e| e.0)?;
    let bar = time_bar(args.seconds(), args.quiet)?;
    let started = Instant::now();
    let progress = |p: Progress| {
        bar.set_position((started.elapsed().as_secs_f64() * 10.0) as u64);
        let best = p.best.map_or("none yet".to_string(), |b| b.to_string());
        bar.set_message(format!("best score {best}; {}; {} nodes", p.stage, p.nodes));
    };
    let options = SolveOptions {
        time_limit: Duration::from_secs_f64(args.seconds()),
        progress: Some(&progress),
        seed: args.seed,
        ..SolveOptions::default()
    };
    let solution = solve(&game, &options);
    bar.finish_and_clear();
    // The referee replays the line to the score the solver claims.
    if !solution.actions.is_empty() {
        let replayed = replay(&game, &solution.actions)?;
        if replayed != solution.score {
            return Err(format!("the solver's line scores {replayed}, not the {} it claims", solution.score));
        }
    }
    let actions: Vec<String> = solution.actions.iter().map(|a| a.to_string()).collect();
    print_score(args.json, solution.score, solution.proven, solution.nodes, &actions, started);
    Ok(())
}
