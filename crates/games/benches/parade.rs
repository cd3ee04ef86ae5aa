//! Move generation speed of Parade Chess Solitaire beside orthodox chess,
//! on the same boards in the same run: our perft (every order and the add
//! are nodes) and the orthodox perft of the board as a chess position
//! (White to move). Prints nanoseconds per node and the ratio.
//!
//! Run: `cargo bench -p chesskit-games --bench parade` (add `-- book` for one position)

mod common;

use chesskit_core::game::Game;
use chesskit_core::options::Options;
use chesskit_games::parade::{perft, ParadeGame};
use common::compare_with_orthodox_fen;

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
    let load = |text: &str| ParadeGame::from_position(text, &Options::new(), 0).expect("valid position");
    compare_with_orthodox_fen(&POSITIONS, load, |_, game| fen_of(game), perft);
}
