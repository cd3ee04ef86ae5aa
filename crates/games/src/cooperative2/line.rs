//! The face-up line: which captures the cards allow, and the score. These
//! are the rules the solver (crates/ai) shares with the referee.
//!
//! "You can only make a capturing move if a card like the capturing piece
//! is beside a card like the captured piece in the face-up line."
//! Ruling (docs/games/cooperative2.md): "a card like the piece" matches both type and colour.

use chesskit_core::cards::Card;
use chesskit_core::chess::{Board, Piece, Role};

/// The pieces of a full chess set, 16 a side: what the capture count is
/// measured from (a promotion changes a piece, never the count).
pub const FULL_SET: u32 = 32;
/// Points for each piece type gone from the board, both colours.
pub const TYPE_BONUS: u32 = 10;
/// "Anything lower than 32 points is a loss."
pub const WINNING_SCORE: u32 = 32;

/// Whether `card` is "a card like" `piece`: the same type and colour.
pub fn like(card: Card, piece: Piece) -> bool {
    card.piece() == Some(piece)
}

/// The positions of the cards like `captured` that lie beside a card like
/// `capturer`, as a bit set (bit i for line position i): each is a card the
/// capture may send to the discard pile.
pub fn capture_cards(line: &[Card], capturer: Piece, captured: Piece) -> u64 {
    let mut found = 0u64;
    for (i, &card) in line.iter().enumerate().take(64) {
        if !like(card, captured) {
            continue;
        }
        let left = i > 0 && like(line[i - 1], capturer);
        let right = i + 1 < line.len() && like(line[i + 1], capturer);
        if left || right {
            found |= 1 << i;
        }
    }
    found
}

/// The positions of the cards like `piece` in the line, as a bit set.
pub fn cards_like(line: &[Card], piece: Piece) -> u64 {
    line.iter().enumerate().take(64).filter(|(_, &c)| like(c, piece)).fold(0, |set, (i, _)| set | (1 << i))
}

/// The pieces captured so far: the full set less the pieces on the board.
pub fn captured(board: &Board) -> u32 {
    FULL_SET.saturating_sub(board.occupied().count() as u32)
}

/// The piece types of which no piece of either colour is left.
pub fn types_removed(board: &Board) -> Vec<Role> {
    Role::ALL.into_iter().filter(|&role| board.by_role(role).is_empty()).collect()
}

/// "A point for each piece that you captured, plus ten points for each
/// piece type that was completely removed from the board, both colours."
pub fn score(board: &Board) -> u32 {
    captured(board) + TYPE_BONUS * types_removed(board).len() as u32
}
