//! A player's secret grid of burials: under each square at most one, the
//! role of the opponent's piece buried there (docs/games/zombie.md).
//!
//! Kept as a grid the size of the board rather than as a map: the search
//! copies the game at every node it makes, and a map cost an allocation
//! and a free at each copy, and a walk of its nodes at each estimate.

use std::fmt;
use std::hash::{Hash, Hasher};

use chesskit_core::chess::{Bitboard, Role, Square};

/// One player's burials, read and written like a map from square to role,
/// in square order.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Burials {
    /// The squares with a burial under them.
    squares: Bitboard,
    /// The buried role under each square of `squares`; None elsewhere.
    roles: [Option<Role>; 64],
}

impl Default for Burials {
    fn default() -> Burials {
        Burials { squares: Bitboard::EMPTY, roles: [None; 64] }
    }
}

impl Burials {
    pub fn new() -> Burials {
        Burials::default()
    }

    pub fn len(&self) -> usize {
        self.squares.count()
    }

    pub fn is_empty(&self) -> bool {
        self.squares.is_empty()
    }

    /// The squares with a burial under them.
    pub fn squares(&self) -> Bitboard {
        self.squares
    }

    pub fn get(&self, square: &Square) -> Option<&Role> {
        self.roles[*square as usize].as_ref()
    }

    pub fn contains_key(&self, square: &Square) -> bool {
        self.squares.contains(*square)
    }

    /// Buries `role` under `square`; the role buried there before, if any.
    pub fn insert(&mut self, square: Square, role: Role) -> Option<Role> {
        self.squares.add(square);
        self.roles[square as usize].replace(role)
    }

    /// Takes the burial under `square` off the grid (it rises).
    pub fn remove(&mut self, square: &Square) -> Option<Role> {
        self.squares.discard(*square);
        self.roles[*square as usize].take()
    }

    /// The burials, in square order.
    pub fn iter(&self) -> impl Iterator<Item = (&Square, &Role)> + '_ {
        self.squares.into_iter().filter_map(|square| {
            let role = self.roles[square as usize].as_ref()?;
            Some((&Square::ALL[square as usize], role))
        })
    }

    pub fn keys(&self) -> impl Iterator<Item = &Square> + '_ {
        self.iter().map(|(square, _)| square)
    }

    pub fn values(&self) -> impl Iterator<Item = &Role> + '_ {
        self.iter().map(|(_, role)| role)
    }
}

impl FromIterator<(Square, Role)> for Burials {
    fn from_iter<I: IntoIterator<Item = (Square, Role)>>(burials: I) -> Burials {
        let mut grid = Burials::new();
        for (square, role) in burials {
            grid.insert(square, role);
        }
        grid
    }
}

impl IntoIterator for Burials {
    type Item = (Square, Role);
    type IntoIter = std::vec::IntoIter<(Square, Role)>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter().map(|(&square, &role)| (square, role)).collect::<Vec<_>>().into_iter()
    }
}

/// The words a map of the same burials hashes (its length, then each
/// square and role in square order): the search's keys, and so the trees
/// it searches, stay those of the map this grid replaced.
impl Hash for Burials {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_usize(self.len());
        for (square, role) in self.iter() {
            square.hash(state);
            role.hash(state);
        }
    }
}

impl fmt::Debug for Burials {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_burial_per_square_read_back_in_square_order() {
        let mut grid = Burials::new();
        assert_eq!(grid.insert(Square::H1, Role::Queen), None);
        assert_eq!(grid.insert(Square::A2, Role::Pawn), None);
        assert_eq!(grid.insert(Square::H1, Role::Rook), Some(Role::Queen));
        assert_eq!(grid.len(), 2);
        let burials: Vec<(Square, Role)> = grid.into_iter().collect();
        assert_eq!(burials, vec![(Square::H1, Role::Rook), (Square::A2, Role::Pawn)]);
        assert_eq!(grid.remove(&Square::H1), Some(Role::Rook));
        assert_eq!(grid.remove(&Square::H1), None);
        assert!(!grid.contains_key(&Square::H1) && grid.get(&Square::A2) == Some(&Role::Pawn));
        assert_eq!(grid, [(Square::A2, Role::Pawn)].into_iter().collect());
    }
}
