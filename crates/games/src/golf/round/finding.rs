//! The referee's finding when it settles a hole (docs/games/golf.md,
//! "The referee's finding"): what its search concluded, as the short text
//! stored with the action that started the search, so that a replay takes
//! it instead of searching again.
//!
//! * `solved e5g6 g6h5 h5h2`: the shortest path the search found.
//! * `impossible`: the search proved that no path solves the puzzle.
//! * `unproven 9`: the search reached its limit having shown that at
//!   least 9 moves are needed.

use super::super::rules::{GolfMove, Puzzle};
use super::super::solver::Verdict;

const SOLVED: &str = "solved";
const IMPOSSIBLE: &str = "impossible";
const UNPROVEN: &str = "unproven";

/// The finding's text of a verdict.
pub(super) fn finding_text(verdict: &Verdict) -> String {
    match verdict {
        Verdict::Solved(path) => {
            let moves: Vec<String> = path.iter().map(ToString::to_string).collect();
            format!("{SOLVED} {}", moves.join(" ")).trim_end().to_string()
        }
        Verdict::Impossible => IMPOSSIBLE.to_string(),
        Verdict::Unknown { at_least } => format!("{UNPROVEN} {at_least}"),
    }
}

/// Read a stored finding for `puzzle`. A finding comes from the store,
/// which only the referee writes, so "impossible" and a lower bound are
/// taken on trust (checking them is the search the finding saves); but a
/// text that does not read, or a path that does not solve the puzzle, is
/// refused.
pub(super) fn read_finding(text: &str, puzzle: &Puzzle) -> Result<Verdict, String> {
    let mut words = text.split_whitespace();
    let verdict = match words.next() {
        Some(SOLVED) => Verdict::Solved(words.by_ref().map(str::parse).collect::<Result<Vec<GolfMove>, _>>()?),
        Some(IMPOSSIBLE) => Verdict::Impossible,
        Some(UNPROVEN) => {
            let bound = words.next().ok_or("an unproven finding needs the moves the puzzle needs at least")?;
            let at_least = bound.parse().map_err(|_| format!("{bound:?} is no number of moves"))?;
            Verdict::Unknown { at_least }
        }
        _ => return Err(format!("a finding reads solved MOVES, {IMPOSSIBLE} or {UNPROVEN} N, not {text:?}")),
    };
    if let Some(extra) = words.next() {
        return Err(format!("the finding {text:?} has {extra:?} too many"));
    }
    if let Verdict::Solved(path) = &verdict {
        puzzle.check_path(path).map_err(|e| format!("the stored path does not solve this hole: {e}"))?;
    }
    Ok(verdict)
}
