//! Neighbour Chess Solitaire move generation beside orthodox chess, in the
//! same run: perft of borrowed moves (the moving part; a board whose pieces
//! form one group ends the game and has no moves) on the same pieces as an
//! orthodox perft, reported as time per node and as a ratio. The target is
//! within 2x of orthodox per node.
//!
//! Run: `cargo bench -p chesskit-games --bench neighbour`

mod common;

use chesskit_core::chess::fen::parse_board;
use chesskit_games::neighbour::rules::{each_move, is_one_group, move_count};
use common::{compare_with_orthodox, BenchPosition};
use shakmaty::Board;

/// (name, orthodox FEN, depth): the board field is the Neighbour board.
const POSITIONS: [BenchPosition; 3] = [
    ("back-ranks", "rnbqkbnr/8/8/8/8/8/8/RNBQKBNR w - - 0 1", 4),
    ("scattered", "r3k3/1n4b1/7N/2Q1q3/3B4/BN3n2/5R2/2K1bR1r w - - 0 1", 4),
    ("few", "8/8/2k5/2q5/5Q2/6R1/8/5K2 w - - 0 1", 5),
];

fn perft(board: &Board, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if is_one_group(board.occupied()) {
        return 0;
    }
    if depth == 1 {
        return move_count(board);
    }
    each_move(board)
        .map(|(from, to)| {
            let mut next = board.clone();
            let piece = next.remove_piece_at(from).expect("a move starts on a piece");
            next.set_piece_at(to, piece);
            perft(&next, depth - 1)
        })
        .sum()
}

fn main() {
    compare_with_orthodox(
        &POSITIONS,
        |text| parse_board(text.split_whitespace().next().expect("a board")).expect("a board").0,
        perft,
    );
}
