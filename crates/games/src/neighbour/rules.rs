//! The board rules of Neighbour Chess Solitaire as plain functions of a
//! board, shared by the referee ([`super::NeighbourGame`]) and the solver
//! (chesskit-ai), which must agree on them exactly.

use chesskit_core::cards::{officer_deck, Card, Suit};
use shakmaty::{Bitboard, Board, File, Rank, Square};

use crate::borrowed::{borrowed_reach, lenders};

/// Setup: "a deck of 16 cards for the chess pieces, as shown in appendix
/// A. You don't need the pawn cards."
pub fn pieces_deck() -> Vec<Card> {
    officer_deck()
}

/// Setup: "a deck for the positions on the board: 2 - 6 of Hearts,
/// Diamonds, Spades, and Clubs."
pub fn positions_deck() -> Vec<Card> {
    Suit::ALL.into_iter().flat_map(|suit| (2..=6).map(move |rank| Card::new(rank, suit))).collect()
}

/// Whether `card` belongs to the positions deck.
pub fn is_position_card(card: Card) -> bool {
    (2..=6).contains(&card.rank)
}

/// Play, step 2: the square a new piece is held above. "If it's the first
/// piece, hold it above the bottom left corner. Otherwise, hold it above
/// the last piece you added."
pub fn held_square(last: Option<Square>) -> Square {
    last.unwrap_or(Square::A1)
}

/// Play, step 4: "If the position card is a red card, move the piece that
/// many squares to the right, otherwise move the piece that many squares
/// up. If you move off the edge of the board, loop around to the opposite
/// side and keep counting."
pub fn target_square(held: Square, card: Card) -> Square {
    let steps = u32::from(card.rank) % 8;
    if is_red(card) {
        let file = (u32::from(held.file()) + steps) % 8;
        Square::from_coords(File::new(file), held.rank())
    } else {
        let rank = (u32::from(held.rank()) + steps) % 8;
        Square::from_coords(held.file(), Rank::new(rank))
    }
}

/// Play, step 5: where a piece may land when its target is occupied. "You
/// may move to any of the 8 neighbour spaces. If all of them are occupied,
/// you may move to any of their neighbours, and so on. You may not wrap
/// around the edge of the board in this case." The nearest ring of empty
/// squares around `target`, or `target` itself when it is empty. Sixteen
/// pieces never fill the board, so the answer is never empty.
pub fn landing_squares(occupied: Bitboard, target: Square) -> Bitboard {
    if !occupied.contains(target) {
        return Bitboard::from_square(target);
    }
    let mut seen = Bitboard::from_square(target);
    let mut ring = Bitboard::from_square(target);
    loop {
        let next = dilate(ring) & !seen;
        if next.is_empty() {
            return Bitboard::EMPTY;
        }
        let empty = next & !occupied;
        if empty.any() {
            return empty;
        }
        seen |= next;
        ring = next;
    }
}

/// Moving, step 2: the squares the piece on `sq` may move to. "It doesn't
/// use its usual move. Instead, use the move of one of its neighbours of
/// the same colour in the 8 squares around it. If a piece has no
/// neighbours of the same colour, it cannot move." Sliding moves are
/// blocked by any piece, and nothing is captured (a move goes to an empty
/// square; docs/games/neighbour.md).
pub fn destinations(board: &Board, sq: Square) -> Bitboard {
    let Some(piece) = board.piece_at(sq) else { return Bitboard::EMPTY };
    let lenders = lenders(sq, board.by_color(piece.color));
    borrowed_reach(sq, lenders, board.occupied(), |role| board.by_role(role)) & !board.occupied()
}

/// Every move on `board`, as (from, to), from square a1 up.
pub fn moves(board: &Board) -> Vec<(Square, Square)> {
    each_move(board).collect()
}

/// [`moves`] one by one, without a list: for the searches and the perft
/// that walk every move of every node, so that a node allocates nothing.
pub fn each_move(board: &Board) -> impl Iterator<Item = (Square, Square)> + '_ {
    board.occupied().into_iter().flat_map(|from| destinations(board, from).into_iter().map(move |to| (from, to)))
}

/// How many moves [`moves`] lists, counted by destination squares.
pub fn move_count(board: &Board) -> u64 {
    board.occupied().into_iter().map(|from| destinations(board, from).count() as u64).sum()
}

/// Winning: "If you can get from any piece to any other piece on the board
/// only stepping on neighbouring pieces, then you have formed one
/// connected group." All eight neighbours connect (docs/games/neighbour.md, "Rulings"). A group
/// needs two pieces: with one piece there is no other to reach (the book
/// has "pairs of chess pieces help each other").
pub fn is_one_group(occupied: Bitboard) -> bool {
    // Grows the one group from a piece, allocating nothing (a test the
    // solver makes at every node).
    occupied.more_than_one() && crate::connection::at_most_one_group(occupied, dilate)
}

/// How many connected groups the pieces on `occupied` form.
pub fn groups(occupied: Bitboard) -> usize {
    crate::connection::group_count(occupied, dilate)
}

/// `squares` and every square next to one of them (no wrap-around).
#[inline]
pub fn dilate(squares: Bitboard) -> Bitboard {
    const NOT_A: u64 = !0x0101_0101_0101_0101;
    const NOT_H: u64 = !0x8080_8080_8080_8080;
    let b = squares.0;
    let row = b | ((b & NOT_H) << 1) | ((b & NOT_A) >> 1);
    Bitboard(row | (row << 8) | (row >> 8))
}

/// Red cards (hearts, diamonds) move a piece right, black cards up.
pub fn is_red(card: Card) -> bool {
    matches!(card.suit, Suit::Hearts | Suit::Diamonds)
}
