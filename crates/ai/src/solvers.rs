//! The place solvers register: the variants whose deals a solver of this
//! crate can analyse, and how. It names games by nature, like the solver
//! modules it points to; the server and the browser ask [`has_analysis`]
//! and [`analyse`] and never name one.

use chesskit_core::game::Game;
use chesskit_core::DynGame;

use crate::neighbour;

/// What a solver says of a game's deal: whether it could have been won,
/// and how well. Given by [`analyse`] for the variants in [`ANALYSES`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis {
    /// A short name of the verdict for programs (Neighbour's:
    /// `line_found`, `no_line_exists`, `ran_out`).
    pub verdict: &'static str,
    /// The verdict in words, for the player: it tells a deal proven lost
    /// from a search that only ran out.
    pub words: String,
    /// The best score found, if a line wins.
    pub score: Option<i64>,
    /// Whether the search finished: the score is the best possible, or,
    /// with no score, no line wins at all.
    pub proven: bool,
    /// The actions of the best line found, from the deal's start.
    pub line: Vec<String>,
    /// The nodes the search looked at.
    pub nodes: u64,
}

/// Runs a variant's solver on a game's start within a node limit: `None`
/// when the game is not the variant it was listed for.
type Analyser = fn(&dyn DynGame, u64) -> Option<Analysis>;

/// The variants whose deals a solver can analyse, and how: a new solver
/// registers here.
const ANALYSES: [(&str, Analyser); 1] = [(chesskit_games::neighbour::NeighbourGame::VARIANT, neighbour::analyse)];

/// Whether games of `variant` have an analysis ([`analyse`]).
pub fn has_analysis(variant: &str) -> bool {
    ANALYSES.iter().any(|(name, _)| *name == variant)
}

/// The analysis of the deal `start` (a game at its start, as its record
/// with no actions replays), searching at most `node_limit` nodes, so that
/// the answer is the same on every machine; `None` for a variant without
/// an analysis. It reads every secret of the deal: give it only once they
/// are public (the game is over).
pub fn analyse(start: &dyn DynGame, node_limit: u64) -> Option<Analysis> {
    let (_, analyser) = ANALYSES.iter().find(|(name, _)| *name == start.variant())?;
    analyser(start, node_limit)
}

#[cfg(test)]
mod tests {
    use super::*;
    use chesskit_core::Options;

    /// The analysis of a Neighbour deal is the solver's answer on the
    /// deal, in its words; a game without a solver has none.
    #[test]
    fn a_neighbour_deal_is_analysed_by_its_solver_and_chess_has_no_analysis() {
        let start = chesskit_games::create("neighbour", Options::new(), 1, None).unwrap();
        let analysis = analyse(start.as_ref(), 2_000_000).expect("neighbour has an analysis");
        let deal = <chesskit_games::neighbour::NeighbourGame as chesskit_core::Game>::new(&Options::new(), 1).unwrap();
        let solution = neighbour::solve(
            &deal,
            neighbour::SolveOptions { time_limit: None, node_limit: Some(2_000_000), progress: None },
        );
        assert_eq!(analysis.words, solution.in_words());
        assert_eq!((analysis.verdict, analysis.proven), ("line_found", true));
        assert_eq!(analysis.score, solution.score.map(|s| s as i64));
        assert_eq!(analysis.line.len(), solution.actions.len());
        assert!(has_analysis("neighbour") && !has_analysis("chess"));
        assert_eq!(analyse(chesskit_games::create("chess", Options::new(), 0, None).unwrap().as_ref(), 1_000), None);
    }
}
