//! Borrowed moves, shared by the games where a piece moves only with the
//! move of a same-coloured neighbour: Chess Golf (rules.md, "Chess Golf")
//! and Neighbour Chess Solitaire (new-rules-2025, "Neighbour Chess
//! Solitaire"). Ruling (docs/games/neighbour.md): the neighbours are the eight surrounding
//! squares, and sliding moves are blocked by any piece.

use shakmaty::attacks::{bishop_attacks, king_attacks, knight_attacks, rook_attacks};
use shakmaty::{Bitboard, Role, Square};

/// Every square a piece on `sq` reaches with the moves it borrows from its
/// `lenders` (the squares of its same-coloured neighbours), empty or not:
/// `role_squares` says where the pieces of each role stand, and `occupied`
/// blocks the sliding moves. No lender, no move. Pawns lend nothing (no
/// game of borrowed moves has them).
#[inline]
pub fn borrowed_reach(
    sq: Square,
    lenders: Bitboard,
    occupied: Bitboard,
    role_squares: impl Fn(Role) -> Bitboard,
) -> Bitboard {
    if lenders.is_empty() {
        return Bitboard::EMPTY;
    }
    let queens = role_squares(Role::Queen);
    let mut reach = Bitboard::EMPTY;
    if lenders.intersects(role_squares(Role::Rook) | queens) {
        reach |= rook_attacks(sq, occupied);
    }
    if lenders.intersects(role_squares(Role::Bishop) | queens) {
        reach |= bishop_attacks(sq, occupied);
    }
    if lenders.intersects(role_squares(Role::Knight)) {
        reach |= knight_attacks(sq);
    }
    if lenders.intersects(role_squares(Role::King)) {
        reach |= king_attacks(sq);
    }
    reach
}

/// The squares of the same-coloured neighbours of a piece on `sq`, given
/// the squares of its colour.
#[inline]
pub fn lenders(sq: Square, own_colour: Bitboard) -> Bitboard {
    king_attacks(sq) & own_colour
}
