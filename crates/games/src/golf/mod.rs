//! Chess Golf (rules.md, "Chess Golf"): a series of puzzles. A piece may
//! only borrow the move of a same-coloured neighbour, and one chosen piece
//! must capture the others in as few moves as possible.
//!
//! * [`rules`]: the puzzle rules (borrowed moves, the special king's move,
//!   captures among the chosen pieces, the capturer rule).
//! * [`text`]: the puzzle text format (8 board lines and `chosen: Kb`).
//! * [`layout`]: the layout of the 16 pieces from a shuffled deck.
//! * [`round`]: the round of 9 holes for 1 to 8 players, [`GolfGame`],
//!   registered as variant `golf`.
//! * [`solver`]: the optimal solver. It lives here rather than in
//!   chesskit-ai because the referee of the round needs it to settle
//!   "impossible" answers, and games may not depend on the ai crate.

pub mod layout;
pub mod round;
pub mod rules;
pub mod solver;
pub mod text;

pub use layout::{layout, layout_cards, random_layout};
pub use round::{GolfAction, GolfGame};
pub use rules::{Board, Cards, GolfMove, PathError, Puzzle};
pub use solver::{solve, solve_with, Solution, SolveOptions, Verdict};
pub use text::{parse_puzzle, puzzle_text};
