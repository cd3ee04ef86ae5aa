//! Chess Golf: the book's examples (crates/games/testdata/book-examples.md and
//! rules.md).

use chesskit_games::golf::{layout, parse_puzzle, puzzle_text, solve_with, GolfMove, Puzzle, SolveOptions};
use shakmaty::Piece;

/// The opening example's board (also the board of the round tests,
/// golf_round.rs).
pub const OPENING_BOARD: &str = "\
. . B . . . R .
. . . . . k . .
. r . n . N . .
. r . . b . . .
R . . . . . q .
. B . n . N . .
b . . . . . . K
. . . . . Q . .
";

/// The opening example: its board, with the king and bishop chosen.
fn opening() -> String {
    format!("{OPENING_BOARD}chosen: Kb\n")
}

const SETUP: &str = "\
. . . . . Q . .
b . . . . . . K
. B . n . N . .
R . . . . . q .
. r . . b . . .
. r . n . N . .
. . . . . k . .
. . B . . . R .
";

fn puzzle(text: &str) -> Puzzle {
    parse_puzzle(text).unwrap_or_else(|e| panic!("{e}"))
}

fn path(text: &str) -> Vec<GolfMove> {
    text.split([' ', ',']).filter(|s| !s.is_empty()).map(|m| m.parse().unwrap()).collect()
}

fn assert_solves(p: &Puzzle, moves: &str) {
    if let Err(e) = p.check_path(&path(moves)) {
        panic!("{moves}: {e}");
    }
}

/// The optimal length, after checking that the solver's path solves the puzzle.
fn optimum(p: &Puzzle, options: &SolveOptions) -> usize {
    let solution = solve_with(p, options);
    let moves = solution.moves().unwrap_or_else(|| panic!("no solution: {solution:?}"));
    if let Err(e) = p.check_path(moves) {
        panic!("the solver's path fails: {e}");
    }
    moves.len()
}

#[test]
fn opening_example_book_solutions_are_legal() {
    // "The bishop moves like a knight to g6 and then moves like a king to h5.
    // Then it borrows the queen's move to capture the king at h2."
    let p = puzzle(&opening());
    assert_solves(&p, "e5g6 g6h5 h5h2");
    // "The white bishop uses the rook's move to get out of the way, and then
    // the black rook comes down to b3. The bishop at a2 can now use the
    // rook's move to capture the king."
    assert_solves(&p, "b3c3 b5b3 a2h2");
}

#[test]
fn opening_example_borrowing_rules() {
    // "the bishop at e5 can only move like a knight and the king can't move
    // at all ... the bishop at a2 can't move at all."
    let p = puzzle(&opening());
    let moves = p.legal_moves();
    let mut from_e5: Vec<String> =
        moves.iter().filter(|m| m.from.to_string() == "e5").map(|m| m.to.to_string()).collect();
    from_e5.sort();
    // The knight's squares from e5, less d3, f3, f7 and g4, which hold pieces
    // that are not chosen.
    assert_eq!(from_e5, ["c4", "c6", "d7", "g6"]);
    assert!(!moves.iter().any(|m| m.from.to_string() == "h2"), "the white king cannot move");
    assert!(!moves.iter().any(|m| m.from.to_string() == "a2"), "the bishop at a2 cannot move");
    // Not with its own bishop's move: "the piece's original movement is irrelevant".
    let err = p.check_move("e5h2".parse().unwrap()).unwrap_err();
    assert!(err.contains("knight"), "{err}");
}

#[test]
fn opening_example_optimal_length_is_3() {
    assert_eq!(optimum(&puzzle(&opening()), &SolveOptions::default()), 3);
}

#[test]
fn opening_example_white_king_capturing_takes_4_without_the_special_move() {
    // "There are solutions that help the white king capture a black bishop,
    // but they take at least 4 moves." True under the borrowing rules alone:
    let king = Piece::from_char('K').unwrap();
    let options = SolveOptions { capturer: Some(king), ..SolveOptions::default() };
    let p = puzzle(&opening()).without_special_move();
    assert_eq!(optimum(&p, &options), 4);
    // With the special king's move (docs/games/golf.md, "Rulings") it takes 3: moving the bishop
    // b3 leaves White with no touching pair, so the queen steps to g1 like a
    // king and lends the white king her move along rank 2.
    let p = puzzle(&opening());
    assert_solves(&p, "b3b1 f1g1 h2a2");
    assert_eq!(optimum(&p, &options), 3);
    let last = p.check_path(&path("b3b1 f1g1 h2a2")).unwrap();
    assert_eq!(last.board.piece_at(last.capturer().unwrap()), Some(king));
}

#[test]
fn setup_example_lays_out_exactly() {
    // Cards drawn B R k r n N r b R q B n N b K Q.
    let pieces: Vec<Piece> = "BRkrnNrbRqBnNbKQ".chars().map(|c| Piece::from_char(c).unwrap()).collect();
    let board = layout(&pieces).unwrap();
    let text = puzzle_text(&Puzzle::new(board, "Kb".parse().unwrap()));
    assert_eq!(text, format!("{SETUP}chosen: Kb\n"));
}

#[test]
fn special_move_example_takes_2() {
    // The setup layout with chosen q and N: b6c6 breaks the last white pair,
    // then the knight f6 makes a king's move to g5, capturing the queen.
    let p = puzzle(&format!("{SETUP}chosen: qN\n"));
    assert!(p.check_move("f6g5".parse().unwrap()).is_err(), "the knight has no neighbour yet");
    assert_solves(&p, "b6c6 f6g5");
    assert_eq!(optimum(&p, &SolveOptions::default()), 2);
}
