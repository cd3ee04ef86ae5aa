//! Property tests of the Chess Golf solver: every path it returns passes
//! the path check, and on small random puzzles a plain breadth-first
//! search over the rules' own moves agrees on the optimal length (and on
//! impossibility).

use std::collections::{HashSet, VecDeque};

use chesskit_core::rng::GameRng;
use chesskit_games::golf::rules::ROLES;
use chesskit_games::golf::{solve, solve_with, Board, Cards, Puzzle, SolveOptions, Verdict};
use proptest::prelude::*;
use shakmaty::{Color, Piece, Square};

/// A random puzzle with `pieces` pieces and 2 to 4 chosen cards among
/// them, spread over the board or (`crowded`) packed into a 4x4 corner so
/// that pieces lend each other moves.
fn random_puzzle(seed: u64, pieces: usize, special: bool) -> Puzzle {
    random_puzzle_in(seed, pieces, special, false)
}

fn random_puzzle_in(seed: u64, pieces: usize, special: bool, crowded: bool) -> Puzzle {
    let mut rng = GameRng::from_seed(seed);
    let mut set: Vec<Piece> = Vec::new();
    for color in [Color::White, Color::Black] {
        for role in ROLES {
            let n = if matches!(role, shakmaty::Role::King | shakmaty::Role::Queen) { 1 } else { 2 };
            for _ in 0..n {
                set.push(Piece { color, role });
            }
        }
    }
    rng.shuffle(&mut set);
    set.truncate(pieces);
    let mut squares: Vec<u32> =
        if crowded { (0..64).filter(|i| i % 8 < 4 && i / 8 < 4).collect() } else { (0..64).collect() };
    rng.shuffle(&mut squares);
    let mut board = Board::empty();
    for (piece, sq) in set.iter().zip(squares) {
        board.put(Square::new(sq), *piece);
    }
    let chosen_count = 2 + rng.below(3).min(pieces - 2);
    let mut chosen = set.clone();
    rng.shuffle(&mut chosen);
    let puzzle = Puzzle::new(board, Cards::from_pieces(chosen.into_iter().take(chosen_count)));
    if special {
        puzzle
    } else {
        puzzle.without_special_move()
    }
}

/// Plain breadth-first search: the optimal length, `Some(None)` when
/// impossible, `None` when it gives up.
fn bfs(start: &Puzzle, cap: usize) -> Option<Option<usize>> {
    let mut seen = HashSet::new();
    let mut queue = VecDeque::new();
    seen.insert(*start);
    queue.push_back((*start, 0usize));
    while let Some((p, depth)) = queue.pop_front() {
        if p.is_solved() {
            return Some(Some(depth));
        }
        for m in p.legal_moves() {
            let mut child = p;
            child.play(m).expect("legal moves play");
            if seen.insert(child) {
                if seen.len() > cap {
                    return None;
                }
                queue.push_back((child, depth + 1));
            }
        }
    }
    Some(None)
}

/// Solve and compare with breadth-first search: `true` when compared,
/// `false` when skipped (either search gave up).
fn agrees(seed: u64, pieces: usize, special: bool) -> bool {
    agrees_on(random_puzzle(seed, pieces, special), seed, pieces, special)
}

fn agrees_on(puzzle: Puzzle, seed: u64, pieces: usize, special: bool) -> bool {
    // A few sparse puzzles with both colours chosen are impossible in a
    // space too large to exhaust; those are skipped (Unknown).
    let solution = solve_with(&puzzle, &SolveOptions { max_nodes: 500_000, ..SolveOptions::default() });
    if let Verdict::Solved(path) = &solution.verdict {
        assert!(puzzle.check_path(path).is_ok(), "seed {seed}: the solver's path fails");
    }
    if matches!(solution.verdict, Verdict::Unknown { .. }) {
        return false;
    }
    let Some(expected) = bfs(&puzzle, 60_000) else { return false };
    assert_eq!(solution.length(), expected, "seed {seed}, {pieces} pieces, special {special}: {solution:?}");
    if expected.is_none() {
        assert_eq!(solution.verdict, Verdict::Impossible);
    }
    true
}

#[test]
fn breadth_first_search_agrees_on_small_puzzles() {
    let mut compared = 0;
    for seed in 0..100u64 {
        let pieces = 3 + (seed % 6) as usize;
        compared += agrees(seed, pieces, true) as usize;
        compared += agrees(seed, pieces, false) as usize;
    }
    assert!(compared >= 100, "only {compared} of 200 puzzles compared");
}

#[test]
fn breadth_first_search_agrees_on_crowded_puzzles() {
    // Pieces packed into a corner lend each other moves, so quiet moves
    // that prepare later captures are common.
    let mut compared = 0;
    for seed in 0..80u64 {
        let pieces = 5 + (seed % 5) as usize;
        for special in [true, false] {
            compared += agrees_on(random_puzzle_in(seed, pieces, special, true), seed, pieces, special) as usize;
        }
    }
    assert!(compared >= 100, "only {compared} of 160 puzzles compared");
}

#[test]
fn a_quiet_move_may_prepare_a_later_capture() {
    // The knight e3 borrows the rook's move to e7 while it still can; the
    // rook takes the bishop d7 with the queen's move and then the knight
    // f8 with the knight's: 3 moves. The knight's move does not enable the
    // first capture, only the second, and after the rook leaves d4 it
    // could no longer be made.
    let text = "5n2\n3b4\n8\n8\n3R4\n2Q1N3\n7k\nKB5q\nchosen: Rbn\n";
    let puzzle = chesskit_games::golf::parse_puzzle(text).unwrap();
    let path: Vec<_> = ["e3e7", "d4d7", "d7f8"].iter().map(|m| m.parse().unwrap()).collect();
    assert!(puzzle.check_path(&path).is_ok());
    assert_eq!(solve(&puzzle).length(), Some(3));
    assert_eq!(bfs(&puzzle, 1_000_000), Some(Some(3)));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    #[test]
    fn solver_paths_pass_the_check_on_dealt_boards(seed in any::<u64>(), cards in 2usize..=4) {
        // A full 16-piece layout with cards drawn from a shuffled deck.
        let mut rng = GameRng::from_seed(seed);
        let mut deck = chesskit_core::cards::officer_deck();
        rng.shuffle(&mut deck);
        let board = chesskit_games::golf::layout_cards(&deck).unwrap();
        rng.shuffle(&mut deck);
        let chosen = Cards::from_pieces(deck[..cards].iter().map(|c| c.piece().unwrap()));
        let puzzle = Puzzle::new(board, chosen);
        let solution = solve(&puzzle);
        let path = solution.moves().expect("dealt puzzles are solvable");
        prop_assert!(puzzle.check_path(path).is_ok());
        prop_assert!(path.len() >= cards - 1);
    }
}

#[test]
fn two_lone_knights_are_impossible() {
    // Knights borrow only each other's knight move, which never reaches a
    // neighbour, and a king's move never reaches a same-coloured piece
    // because the special move needs every pair apart: proven by exhausting.
    let text = "8\n8\n8\n8\n8\n8\n8\nNN6\nchosen: NN\n";
    let puzzle = chesskit_games::golf::parse_puzzle(text).unwrap();
    assert_eq!(solve(&puzzle).verdict, Verdict::Impossible);
    assert_eq!(bfs(&puzzle, 1_000_000), Some(None));
}
