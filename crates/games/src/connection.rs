//! Connected groups of pieces, for the solitaires that are won by forming
//! one group: Parade Chess Solitaire connects orthogonal neighbours only,
//! Neighbour Chess Solitaire all eight (docs/games/neighbour.md, "Rulings"). Each passes its own
//! idea of a neighbour.

use shakmaty::{Bitboard, Square};

/// The connected groups of the pieces on `occupied`, where `grow` gives a
/// set of squares with its neighbours added.
pub fn groups_of(occupied: Bitboard, grow: impl Fn(Bitboard) -> Bitboard) -> Vec<Bitboard> {
    let mut left = occupied;
    let mut groups = Vec::new();
    while let Some(start) = left.first() {
        let group = group_of(occupied, start, &grow);
        left &= !group;
        groups.push(group);
    }
    groups
}

/// How many groups [`groups_of`] finds, without listing them (nothing
/// allocated: the solvers count groups at every node).
pub fn group_count(occupied: Bitboard, grow: impl Fn(Bitboard) -> Bitboard) -> usize {
    let mut left = occupied;
    let mut count = 0;
    while let Some(start) = left.first() {
        left &= !group_of(occupied, start, &grow);
        count += 1;
    }
    count
}

/// Whether the pieces on `occupied` form at most one group: the test a
/// search makes at every node, so it grows one group and allocates nothing.
pub fn at_most_one_group(occupied: Bitboard, grow: impl Fn(Bitboard) -> Bitboard) -> bool {
    occupied.first().is_none_or(|start| group_of(occupied, start, grow) == occupied)
}

/// The group of the pieces on `occupied` that holds the piece on `start`.
fn group_of(occupied: Bitboard, start: Square, grow: impl Fn(Bitboard) -> Bitboard) -> Bitboard {
    let mut group = Bitboard::from_square(start);
    loop {
        let grown = grow(group) & occupied;
        if grown == group {
            return group;
        }
        group = grown;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(squares: &[Square]) -> Bitboard {
        squares.iter().copied().collect()
    }

    #[test]
    fn diagonal_neighbours_join_a_group_only_when_the_neighbourhood_says_so() {
        let diagonal = set(&[Square::A1, Square::B2, Square::E5]);
        let orthogonal = |s: Bitboard| {
            s | s.shift(1) & !Bitboard::from_file(shakmaty::File::A)
                | s.shift(-1) & !Bitboard::from_file(shakmaty::File::H)
                | s.shift(8)
                | s.shift(-8)
        };
        let king_step = |s: Bitboard| s.into_iter().fold(s, |all, sq| all | shakmaty::attacks::king_attacks(sq));
        assert_eq!(groups_of(diagonal, orthogonal).len(), 3);
        assert_eq!(groups_of(diagonal, king_step), vec![set(&[Square::A1, Square::B2]), set(&[Square::E5])]);
        assert!(groups_of(Bitboard::EMPTY, king_step).is_empty());
        // Counted without listing, the same groups.
        for (occupied, grow) in [(diagonal, &orthogonal as &dyn Fn(Bitboard) -> Bitboard), (diagonal, &king_step)] {
            assert_eq!(group_count(occupied, grow), groups_of(occupied, grow).len());
            assert_eq!(at_most_one_group(occupied, grow), groups_of(occupied, grow).len() <= 1);
        }
        assert_eq!(group_count(Bitboard::EMPTY, king_step), 0);
    }
}
