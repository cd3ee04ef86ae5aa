//! The round's expert: the count and the demonstration a computer player
//! gives, from the solver ([`Game::expert_action`](chesskit_core::Game::expert_action)).
//! A generic search would only guess a count (the score of a count shows
//! only after the reveal, far beyond its horizon), and testers saw counts
//! that looked random at every level. The puzzle and the demonstration are
//! public, so the solver reads nothing the seat may not see.

use chesskit_core::game::Seat;

use super::super::rules::Puzzle;
use super::super::solver::{solve_with, SolveOptions, Verdict};
use super::{GolfAction, GolfGame, Phase, MAX_COUNT};

impl GolfGame {
    /// The solver's advice for `seat` now: its count (over by `miss`, never
    /// under: see [`count`]) while the seat has still to count, the next move of its path while
    /// the seat demonstrates; None for every other decision.
    pub(super) fn expert(&self, seat: Seat, nodes: u64, miss: i64) -> Option<GolfAction> {
        let nodes = nodes.min(self.solver_nodes);
        match &self.phase {
            Phase::Counting if self.counts.get(seat) == Some(&None) => Some(count(&self.puzzle(), nodes, miss)),
            Phase::Demonstrating { .. } => {
                let (demonstrator, puzzle, moves_left) = self.demonstration()?;
                (demonstrator == seat).then(|| demonstrate(puzzle, nodes, moves_left))
            }
            _ => None,
        }
    }
}

fn verdict(puzzle: &Puzzle, nodes: u64) -> Verdict {
    solve_with(puzzle, &SolveOptions { max_nodes: nodes, ..SolveOptions::default() }).verdict
}

/// The length of the path the solver found within `nodes`, over by `miss`
/// (a negative miss counts as none), or "impossible" when it found no path
/// it could demonstrate. A count is only ever one the player can show:
/// counting under the path it found, or counting a path it never found,
/// fails the demonstration for certain (the level 4 counted 1 for
/// 2-move holes and gave up), and "impossible" never scores worse than a
/// failed count (docs/games/golf.md, "The computer").
fn count(puzzle: &Puzzle, nodes: u64, miss: i64) -> GolfAction {
    let found = match verdict(puzzle, nodes) {
        Verdict::Solved(path) if (1..=MAX_COUNT as usize).contains(&path.len()) => path.len() as u32,
        _ => return GolfAction::Impossible,
    };
    let over = u32::try_from(miss.max(0)).unwrap_or(MAX_COUNT);
    GolfAction::Count(found.saturating_add(over).min(MAX_COUNT))
}

/// The next move of the solver's path, or giving up when no path fits in
/// the moves left.
fn demonstrate(puzzle: &Puzzle, nodes: u64, moves_left: usize) -> GolfAction {
    match verdict(puzzle, nodes) {
        Verdict::Solved(path) if !path.is_empty() && path.len() <= moves_left => GolfAction::Move(path[0]),
        _ => GolfAction::GiveUp,
    }
}
