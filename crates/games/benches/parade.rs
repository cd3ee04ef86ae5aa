//! Move generation speed of Parade Chess Solitaire beside orthodox chess,
//! on the same boards in the same run: our perft (every order and the add
//! are nodes) and the orthodox perft of the board as a chess position
//! (White to move). Prints nanoseconds per node and the ratio.
//!
//! Run: `cargo bench -p chesskit-games --bench parade` (add `-- book` for one position)

mod common;

use chesskit_core::chess::{fen::parse_fen, perft as orthodox_perft};
use chesskit_core::game::Game;
use chesskit_core::options::Options;
use chesskit_games::parade::{perft, ParadeGame};
use common::best_of_three;

/// Boards with both kings (orthodox chess needs them), as parade text
/// positions: the book's layout with the white king added, and a later
/// parade with queens.
const POSITIONS: [(&str, &str, u32); 2] = [
    (
        "book",
        ". . . . . . . .\n. . . . . . . .\n. . . . . . . .\n. . . . . . . K\n. r . . b . . .\n. r . n . N . .\n. . . . . k . .\n. . B . . . R .\n\
         hand: 8d qs 10d 9c 9d 8c qh\ndiscard: 9h 10h ks 10s 8s 8h 10c 9s kh\n",
        3,
    ),
    (
        "queens",
        ". . . . . . . .\n. . . . . . . .\n. . . q . . . .\n. . . . . . . K\n. r . . b . Q .\n. r . n . N . .\n. . . . . k . .\n. . B . . . R .\n\
         hand: 8d 10d 9c 9d 8c\ndiscard: 9h 10h ks 10s 8s 8h 10c 9s kh qs qh\n",
        3,
    ),
];

/// The board of a parade position as FEN, White to move, no castling.
fn fen_of(game: &ParadeGame) -> String {
    format!("{} w - - 0 1", game.board().board_fen())
}

fn main() {
    println!(
        "{:<12} {:>5} {:>10} {:>10} {:>12} {:>12} {:>7}",
        "position", "depth", "nodes", "orthodox", "ours ns/node", "orth ns/node", "ratio"
    );
    let filter = std::env::args().nth(1).filter(|a| !a.starts_with('-'));
    let (mut ours_ns, mut theirs_ns) = (0.0, 0.0);
    for (name, text, depth) in POSITIONS {
        if filter.as_ref().is_some_and(|f| !name.contains(f.as_str())) {
            continue;
        }
        let game = ParadeGame::from_position(text, &Options::new(), 0).expect("valid position");
        let orthodox = parse_fen(&fen_of(&game)).expect("a legal chess position");
        let (n1, t1) = best_of_three(|| perft(&game, depth));
        let (n2, t2) = best_of_three(|| orthodox_perft(&orthodox, depth));
        let per1 = t1.as_nanos() as f64 / n1.max(1) as f64;
        let per2 = t2.as_nanos() as f64 / n2.max(1) as f64;
        ours_ns += per1;
        theirs_ns += per2;
        println!("{name:<12} {depth:>5} {n1:>10} {n2:>10} {per1:>12.1} {per2:>12.1} {:>7.2}", per1 / per2);
    }
    println!("overall time per node, ours / orthodox: {:.2}", ours_ns / theirs_ns);
}
