//! `chesskit golf ...`: the Chess Golf tools (docs/games/golf.md).
//!
//! * `solve [FILE]`: the proven shortest path, or `impossible`.
//! * `check FILE MOVES`: whether a path is legal and solves the puzzle.
//! * `new`: deal and rate a puzzle as the book does.
//! * `stats --games N`: the designer's report over random rounds.

use std::io::Read;
use std::path::PathBuf;

use chesskit_ai::golf::{generate, run_stats, NewOptions, StatsOptions};
use chesskit_games::golf::{parse_puzzle, puzzle_text, solve_with, GolfMove, Puzzle, SolveOptions, Verdict};
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::json;

#[derive(clap::Subcommand, Debug)]
pub enum GolfCommand {
    /// Solve a puzzle: the shortest path alone on the last line (e5g6 g6h5 h5h2), or `impossible`.
    Solve {
        /// The puzzle file (8 board lines, rank 8 first, then `chosen: Kb`); stdin when absent.
        file: Option<PathBuf>,
        /// Print {"length", "moves", "optimal", "nodes", "ms"} as JSON.
        #[arg(long)]
        json: bool,
        /// Only paths where a piece of this kind makes the captures (a letter: K, b, ...).
        #[arg(long, value_name = "PIECE")]
        capturer: Option<char>,
        /// Solve without the special king's move (as the book's problems were set).
        #[arg(long)]
        no_special_move: bool,
        /// Give up after this many search nodes (the answer is then not proven).
        #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
        max_nodes: Option<u64>,
    },
    /// Check a path: legal and solving, else the first bad move and why.
    Check {
        /// The puzzle file ("-" for stdin).
        file: PathBuf,
        /// The moves, as separate words or one quoted string: e5g6 g6h5 h5h2.
        #[arg(required = true, num_args = 1..)]
        moves: Vec<String>,
        /// Check without the special king's move.
        #[arg(long)]
        no_special_move: bool,
    },
    /// Deal a new puzzle as the book does and rate it (optimal length, search effort).
    New {
        /// How many chosen cards (2 to 16).
        #[arg(long, default_value_t = 2)]
        cards: usize,
        /// The seed of the deal; a random one when absent.
        #[arg(long)]
        seed: Option<u64>,
        /// Deal again until the optimal length is at least this.
        #[arg(long)]
        min_length: Option<usize>,
        /// Deal again until the optimal length is at most this.
        #[arg(long)]
        max_length: Option<usize>,
        /// Print the puzzle and its rating as JSON.
        #[arg(long)]
        json: bool,
        /// Give up rating a deal after this many search nodes (about 10 s):
        /// many cards can make the proof of the optimal length very long.
        #[arg(long, default_value_t = 100_000_000, value_parser = clap::value_parser!(u64).range(1..))]
        max_nodes: u64,
    },
    /// Play N random rounds and report the optimal lengths per number of cards and the round totals.
    Stats {
        /// How many rounds.
        #[arg(long, default_value_t = 100)]
        games: u64,
        /// Players per round (1 to 8).
        #[arg(long, default_value_t = 4)]
        players: usize,
        /// The first seed; round i uses seed + i.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Print the report as JSON.
        #[arg(long)]
        json: bool,
        /// No progress bar.
        #[arg(long)]
        quiet: bool,
        /// The solver's node limit per hole (about 5 million a second); holes that reach it are reported.
        #[arg(long, default_value_t = 50_000_000, value_parser = clap::value_parser!(u64).range(1..))]
        max_nodes: u64,
    },
}

pub fn run(command: GolfCommand) -> Result<(), String> {
    match command {
        GolfCommand::Solve { file, json, capturer, no_special_move, max_nodes } => {
            let puzzle = read_puzzle(file.as_deref(), no_special_move)?;
            let mut options = SolveOptions::default();
            if let Some(letter) = capturer {
                options.capturer = Some(chesskit_games::golf::rules::golf_piece(letter)?);
            }
            if let Some(n) = max_nodes {
                options.max_nodes = n;
            }
            solve_command(&puzzle, &options, json)
        }
        GolfCommand::Check { file, moves, no_special_move } => {
            let puzzle = read_puzzle(Some(&file), no_special_move)?;
            check_command(&puzzle, &moves)
        }
        GolfCommand::New { cards, seed, min_length, max_length, json, max_nodes } => {
            let seed = seed.unwrap_or_else(random_seed);
            let spinner = ProgressBar::new_spinner().with_message("dealing and rating (a proof of the optimal length)");
            spinner.enable_steady_tick(std::time::Duration::from_millis(120));
            let rated = generate(&NewOptions { cards, seed, min_length, max_length, max_nodes });
            spinner.finish_and_clear();
            let rated = rated?;
            if json {
                let value = json!({
                    "seed": rated.seed,
                    "puzzle": puzzle_text(&rated.deal.puzzle),
                    "layout": rated.deal.layout.iter().map(|c| c.to_string()).collect::<Vec<_>>(),
                    "chosen": rated.deal.chosen.iter().map(|c| c.to_string()).collect::<Vec<_>>(),
                    "length": rated.solution.length(),
                    "moves": rated.solution.moves().map(moves_text),
                    "nodes": rated.solution.nodes,
                    "ms": rated.solution.ms,
                    "difficulty": rated.difficulty(),
                });
                println!("{}", serde_json::to_string_pretty(&value).map_err(|e| e.to_string())?);
            } else {
                print!("{}", puzzle_text(&rated.deal.puzzle));
                println!(
                    "# seed {} ({} deal{} tried)",
                    rated.seed,
                    rated.tries,
                    if rated.tries == 1 { "" } else { "s" }
                );
                let cards: Vec<String> = rated.deal.chosen.iter().map(|c| c.to_string()).collect();
                println!("# chosen cards drawn: {}", cards.join(" "));
                match rated.solution.length() {
                    Some(length) => println!(
                        "# optimal length {length}; proven with {} search nodes in {:.1} ms; difficulty {}",
                        rated.solution.nodes,
                        rated.solution.ms,
                        rated.difficulty()
                    ),
                    None => match rated.solution.verdict {
                        Verdict::Unknown { at_least } => println!(
                            "# unrated: no path shorter than {}, not settled after {} search nodes \
                             (raise --max-nodes)",
                            plural(at_least as usize, "move"),
                            rated.solution.nodes
                        ),
                        _ => println!("# impossible (proven with {} search nodes)", rated.solution.nodes),
                    },
                }
            }
            Ok(())
        }
        GolfCommand::Stats { games, players, seed, json, quiet, max_nodes } => {
            if games == 0 {
                return Err("--games must be at least 1".to_string());
            }
            let bar = if quiet { ProgressBar::hidden() } else { ProgressBar::new(games) };
            bar.set_style(
                ProgressStyle::with_template("{bar:40} {pos}/{len} rounds, {elapsed} elapsed, about {eta} left")
                    .map_err(|e| e.to_string())?,
            );
            let report =
                run_stats(&StatsOptions { games, players, seed, max_nodes }, &mut |done| bar.set_position(done))?;
            bar.finish_and_clear();
            if json {
                println!("{}", serde_json::to_string_pretty(&report.to_json()).map_err(|e| e.to_string())?);
            } else {
                print!("{}", report.to_text());
            }
            Ok(())
        }
    }
}

fn random_seed() -> u64 {
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_nanos()).unwrap_or(0);
    (nanos as u64) ^ ((std::process::id() as u64) << 32)
}

/// Read and parse a puzzle from a file, or stdin for `None` or "-".
fn read_puzzle(file: Option<&std::path::Path>, no_special_move: bool) -> Result<Puzzle, String> {
    let (name, text) = match file {
        Some(path) if path.as_os_str() != "-" => {
            let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            (path.display().to_string(), text)
        }
        _ => {
            let mut text = String::new();
            std::io::stdin().read_to_string(&mut text).map_err(|e| format!("cannot read stdin: {e}"))?;
            ("stdin".to_string(), text)
        }
    };
    let puzzle = parse_puzzle(&text).map_err(|e| format!("{name}: {e}"))?;
    Ok(if no_special_move { puzzle.without_special_move() } else { puzzle })
}

/// `1 move`, `3 moves`.
fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}

fn moves_text(moves: &[GolfMove]) -> String {
    moves.iter().map(|m| m.to_string()).collect::<Vec<_>>().join(" ")
}

fn solve_command(puzzle: &Puzzle, options: &SolveOptions, json: bool) -> Result<(), String> {
    let solution = solve_with(puzzle, options);
    if json {
        let (length, moves, optimal) = match &solution.verdict {
            Verdict::Solved(path) => (json!(path.len()), json!(moves_text(path)), true),
            Verdict::Impossible => (json!(null), json!("impossible"), true),
            Verdict::Unknown { .. } => (json!(null), json!(null), false),
        };
        let value =
            json!({ "length": length, "moves": moves, "optimal": optimal, "nodes": solution.nodes, "ms": solution.ms });
        println!("{value}");
        return match solution.verdict {
            Verdict::Unknown { at_least } => {
                Err(format!("gave up after {} nodes: at least {}", solution.nodes, plural(at_least as usize, "move")))
            }
            _ => Ok(()),
        };
    }
    match &solution.verdict {
        Verdict::Solved(path) => {
            println!("optimal length {} (proven: {} search nodes, {:.1} ms)", path.len(), solution.nodes, solution.ms);
            println!("{}", moves_text(path));
            Ok(())
        }
        Verdict::Impossible => {
            println!("no path solves this puzzle (proven: {} search nodes, {:.1} ms)", solution.nodes, solution.ms);
            println!("impossible");
            Ok(())
        }
        Verdict::Unknown { at_least } => Err(format!(
            "gave up after {} search nodes: no path shorter than {}; raise --max-nodes",
            solution.nodes,
            plural(*at_least as usize, "move")
        )),
    }
}

fn check_command(puzzle: &Puzzle, words: &[String]) -> Result<(), String> {
    let mut moves = Vec::new();
    for (i, text) in words.iter().flat_map(|w| w.split([' ', ','])).filter(|w| !w.is_empty()).enumerate() {
        let m: GolfMove = text.parse().map_err(|e| format!("move {}: {e}", i + 1))?;
        moves.push(m);
    }
    match puzzle.check_path(&moves) {
        Ok(_) => {
            println!("ok: the path is legal and solves the puzzle in {}", plural(moves.len(), "move"));
            Ok(())
        }
        Err(e) => Err(e.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const OPENING: &str = ". . B . . . R .\n. . . . . k . .\n. r . n . N . .\n. r . . b . . .\nR . . . . . q .\n. B . n . N . .\nb . . . . . . K\n. . . . . Q . .\nchosen: Kb\n";

    fn words(text: &str) -> Vec<String> {
        vec![text.to_string()]
    }

    #[test]
    fn check_names_the_first_bad_move() {
        let puzzle = parse_puzzle(OPENING).unwrap();
        assert!(check_command(&puzzle, &words("e5g6 g6h5 h5h2")).is_ok());
        let err = check_command(&puzzle, &words("e5g6 g6h4 h5h2")).unwrap_err();
        assert!(err.starts_with("move 2 (g6h4) is illegal: "), "{err}");
        let err = check_command(&puzzle, &words("e5g6 g6h5 h5h9")).unwrap_err();
        assert!(err.starts_with("move 3: bad move \"h5h9\""), "{err}");
        let err = check_command(&puzzle, &words("e5g6")).unwrap_err();
        assert!(err.contains("not solved"), "{err}");
    }

    #[test]
    fn solve_refuses_an_impossible_node_budget_honestly() {
        let puzzle = parse_puzzle(OPENING).unwrap();
        assert!(solve_command(&puzzle, &SolveOptions::default(), false).is_ok());
        let tiny = SolveOptions { max_nodes: 1, ..SolveOptions::default() };
        assert!(solve_command(&puzzle, &tiny, true).unwrap_err().contains("gave up"));
    }
}
