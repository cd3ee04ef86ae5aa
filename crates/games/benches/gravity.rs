//! What play uses in Gravity Chess, timed: random games (legal actions
//! listed and one applied, action after action) and the generic perft of
//! the positions below through the referee (every action of the turn, one
//! piece at a time, and the addition, are plies). See `benches/common` for
//! what each number means.
//!
//! Run: `cargo bench -p chesskit-games --bench gravity` (add a position's name for one position)

mod common;

use chesskit_core::cards::Card;
use chesskit_games::gravity::{cards_of, GravityGame};
use common::{measure_play_of, BenchPosition};
use shakmaty::{Board, Color};

/// Boards with both kings and no pawn on the first or last rank (orthodox
/// chess needs that), White to move; the decks are filled in by [`position`].
const POSITIONS: [BenchPosition; 3] = [
    ("early", "2n1k3/3p4/1Q6/4K3/8/8/8/8", 4),
    ("middle", "r3k1n1/1p2b3/2N2q2/1B2P3/3K1p2/2r5/1P3R2/R3b3", 4),
    ("late", "4k3/8/3Q4/8/1n6/2K5/1b1r4/RqBrnRbN", 5),
];

/// A Gravity text position of `board`, White to move having flipped: the
/// cards of the pieces not on the board fill the decks, and as many as
/// needed are counted captured so that the decks fit the turn.
fn position(board_fen: &str) -> String {
    let board: Board = board_fen.parse().expect("a board");
    let left = |colour: Color| -> Vec<Card> {
        let mut cards = cards_of(colour);
        for square in board.by_color(colour) {
            let piece = board.piece_at(square).expect("occupied");
            let i = cards.iter().position(|c| c.piece() == Some(piece)).expect("one set");
            cards.remove(i);
        }
        cards
    };
    let (mut black_cards, mut white_cards) = (left(Color::Black), left(Color::White));
    let n = black_cards.len().min(white_cards.len());
    let captured = [black_cards.len() - n, white_cards.len() - n];
    black_cards.truncate(n);
    white_cards.truncate(n);
    let flipped = black_cards.pop().expect("a card to flip");
    let words = |cards: &[Card]| cards.iter().map(|c| c.to_string()).collect::<Vec<_>>().join(" ");
    format!(
        "{board_fen} w\nwhite holds: {}\nblack holds: {}\nflipped: {flipped}\ncaptured: {} {}\n",
        words(&black_cards),
        words(&white_cards),
        captured[0],
        captured[1]
    )
}

fn main() {
    let texts: Vec<BenchPosition> = POSITIONS
        .iter()
        .map(|&(name, fen, depth)| (name, &*Box::leak(position(fen).into_boxed_str()), depth))
        .collect();
    measure_play_of::<GravityGame>(&texts);
}
