//! What play uses in Parade Chess Solitaire, timed: random games (legal actions listed
//! and one applied, action after action) and the generic perft of the
//! positions below through the referee (every order and the add are plies).
//! See `benches/common` for what each number means.
//!
//! Run: `cargo bench -p chesskit-games --bench parade` (add a position's name for one position)

mod common;

use chesskit_games::parade::ParadeGame;
use common::{measure_play_of, BenchPosition};

/// Boards with both kings (orthodox chess needs them), as parade text
/// positions: the book's layout with the white king added, and a later
/// parade with queens.
const POSITIONS: [BenchPosition; 2] = [
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

fn main() {
    measure_play_of::<ParadeGame>(&POSITIONS);
}
