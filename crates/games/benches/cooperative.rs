//! What play uses in Cooperative Chess, timed: random games (legal actions listed
//! and one applied, action after action) and the generic perft of the
//! positions below through the referee (every move, card play, capture and stop is a ply).
//! See `benches/common` for what each number means.
//!
//! Run: `cargo bench -p chesskit-games --bench cooperative` (add a position's name for one position)

mod common;

use chesskit_games::cooperative::CooperativeGame;
use common::{measure_play_of, BenchPosition};

/// Boards with every card of the deck in a hand, a stack or the draw pile,
/// the stacks loaded so that captures (and the wild cards) come into play.
const POSITIONS: [BenchPosition; 3] = [
    (
        "start",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\nwhite hand: 2h 8h 9h\nblack hand: 2s 8s 9s\n\
         draw pile: 3h 3s 3d 3c 4h 4s 4d 4c 5h 5s 5d 5c 2d 2c 8d 8c 9d 9c 10h 10s 10d 10c qh qs kh ks",
        4,
    ),
    (
        "book",
        "rnbqkbnr/ppp1pppp/8/3P4/4P3/8/PP1P1PPP/RNBQKBNR b KQkq - 0 1\nwhite hand: 3h 4h 5h\n\
         black hand: 8s 9c ks\nwhite discards: 10h 2h\n\
         draw pile: 2s 2d 2c 3s 3d 3c 4s 4d 4c 5s 5d 5c 8h 8d 8c 9s 9h 9d 10s 10d 10c qs qh kh",
        4,
    ),
    (
        "kiwipete",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1\nwhite hand: 2h 8h 9h\n\
         black hand: 2s 8s 9s\nwhite discards: 3h 3s\nblack discards: 4h 4s 8c\n\
         draw pile: 3d 3c 4d 4c 5h 5s 5d 5c 2d 2c 8d 9d 9c 10h 10s 10d 10c qh qs kh ks",
        3,
    ),
];

fn main() {
    measure_play_of::<CooperativeGame>(&POSITIONS);
}
