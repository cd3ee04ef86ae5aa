//! Setup (rules.md, Chess Golf, "Setup"): the 16 piece cards without
//! pawns are shuffled and drawn one at a time; each piece goes on the board
//! after a gap of empty squares set by Appendix A (knight 1, bishop 2,
//! rook 3, queen 5, king 6), starting at a1 through h1, then a2 through h2,
//! all the way to h8.
//!
//! The gaps of the 16 pieces add up to 46, so the 16 pieces and their gaps
//! fill 62 squares and every deal fits: the last piece always lands on f8.

use chesskit_core::cards::{gap, officer_deck, Card};
use chesskit_core::rng::GameRng;
use shakmaty::{Piece, Square};

use super::rules::Board;

/// Lay out pieces in the order their cards were drawn. Fails if the gaps
/// run off the board (impossible with the 16-card deck).
pub fn layout(pieces: &[Piece]) -> Result<Board, String> {
    let mut board = Board::empty();
    let mut index = 0usize;
    for (i, piece) in pieces.iter().enumerate() {
        index += gap(piece.role);
        if index >= 64 {
            return Err(format!("card {} ({}) runs off the board after h8", i + 1, piece.char()));
        }
        board.put(Square::new(index as u32), *piece);
        index += 1;
    }
    Ok(board)
}

/// Lay out cards in the order they were drawn; every card must be a piece.
pub fn layout_cards(cards: &[Card]) -> Result<Board, String> {
    let pieces = cards
        .iter()
        .map(|card| card.piece().ok_or_else(|| format!("card {card} is not a piece card")))
        .collect::<Result<Vec<_>, _>>()?;
    layout(&pieces)
}

/// Shuffle the 16 officer cards and lay them out: a fresh course.
pub fn random_layout(rng: &mut GameRng) -> Board {
    let mut deck = officer_deck();
    rng.shuffle(&mut deck);
    layout_cards(&deck).expect("the 16 officer cards always fit on the board")
}
