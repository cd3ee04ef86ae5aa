//! What play uses in Cooperative Chess 2, timed: random games (legal actions listed
//! and one applied, action after action) and the generic perft of the
//! positions below through the referee (every card played, chess move and turn end is a ply).
//! See `benches/common` for what each number means.
//!
//! Run: `cargo bench -p chesskit-games --bench cooperative2` (add a position's name for one position)

mod common;

use chesskit_games::cooperative2::Cooperative2Game;
use common::{measure_play_of, BenchPosition};

/// Boards with the turn's card already played (step `move`), so that the
/// first ply is a chess move as in the orthodox run; lines that allow a few
/// captures. The draw piles are the rest of the 32 cards.
const POSITIONS: [BenchPosition; 3] = [
    (
        "start",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\nstep: move\nline: 2h 3h\nwhite hand: 4h\nblack hand: 2s 3s\n\
         draw pile: 5h 2d 3d 4d 5d 8h 8d 9h 9d 10h 10d qh kh 4s 5s 2c 3c 4c 5c 8s 8c 9s 9c 10s 10c qs ks\ndiscard:",
        4,
    ),
    (
        "kiwipete",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1\nstep: move\nline: 8h 2s 9h 8s\nwhite hand: 4h\nblack hand: 2c 3s\n\
         draw pile: 2h 3h 5h 2d 3d 4d 5d 8d 9d 10h 10d qh kh 4s 5s 3c 4c 5c 8c 9s 9c 10s 10c qs ks\ndiscard:",
        3,
    ),
    (
        "middle game",
        "r3k2r/ppp2ppp/2n1b3/3q4/3P4/2N2N2/PPP2PPP/R2QK2R w KQkq - 0 10\nstep: move\nline: 8h 2s qh 9s\nwhite hand: 4h\nblack hand: 2c 3s\n\
         draw pile: 2h 3h 5h 2d 3d 4d 8d 10h 10d kh 4s 5s 3c 8s 10s 10c qs ks\ndiscard: 5d 9h 9d 4c 5c 8c 9c",
        3,
    ),
];

fn main() {
    measure_play_of::<Cooperative2Game>(&POSITIONS);
}
