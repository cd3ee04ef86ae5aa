//! What a player knows about the opponent's secret burials, and a random
//! re-draw of them consistent with it (for `sample_hidden`).
//!
//! Everything public about one player's burials is a chronological list of
//! clues: each burial (which piece, and the squares of the burier's pieces
//! at that moment), each square the burier left at the end of a turn with
//! what rose there or "no zombie", and each "I cannot bury this piece".
//! A burial sits on one square until the burier next leaves that square,
//! when it rises; so a burial made under square x is the one that rises at
//! the next check of x, and if x is announced empty first it was never there.

use chesskit_core::chess::{Bitboard, Role, Square};
use chesskit_core::rng::GameRng;

use super::turn::Burials;

/// One public fact about a player's burials.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Clue {
    /// A piece of this role was buried under one of these squares (the
    /// burier's pieces at the time).
    Buried { role: Role, under: Bitboard },
    /// The burier left this square at the end of a turn: what rose, or nothing.
    Checked { square: Square, rose: Option<Role> },
    /// "I cannot bury this piece": each of these squares (the burier's pieces)
    /// already had one of the burier's burials.
    CannotBury { pieces: Bitboard },
}

/// How many search steps one attempt of a re-draw may take.
const BUDGET: usize = 4_000;

/// How many attempts, each with fresh random choices: a backtracking search
/// that got stuck early is better restarted than continued.
const ATTEMPTS: usize = 10;

/// The budget of one last, patient attempt when the quick ones all ran out.
/// The clues of a real game always have a solution (the truth), so only a
/// budget stops this search short of one.
const LAST_BUDGET: usize = 1_000_000;

/// A random set of burials consistent with `clues`, or `None` when every
/// attempt ran out of budget. The caller must then draw a world without
/// reading the truth (a player's search may not peek at it).
pub fn sample_burials(clues: &[Clue], rng: &mut GameRng) -> Option<Burials> {
    let next_check = next_checks(clues);
    let budgets = std::iter::repeat_n(BUDGET, ATTEMPTS).chain([LAST_BUDGET]);
    for budget in budgets {
        let mut search = Search { clues, next_check: &next_check, rng: &mut *rng, steps: 0, budget };
        let mut alive: [Option<Role>; 64] = [None; 64];
        if search.run(0, &mut alive) {
            return Some(Square::ALL.into_iter().filter_map(|sq| alive[sq as usize].map(|role| (sq, role))).collect());
        }
    }
    None
}

/// For each clue index i and square, the index of the first `Checked` clue
/// of that square at or after i.
fn next_checks(clues: &[Clue]) -> Vec<[Option<usize>; 64]> {
    let mut table = vec![[None; 64]; clues.len() + 1];
    for i in (0..clues.len()).rev() {
        table[i] = table[i + 1];
        if let Clue::Checked { square, .. } = clues[i] {
            table[i][square as usize] = Some(i);
        }
    }
    table
}

struct Search<'a> {
    clues: &'a [Clue],
    next_check: &'a [[Option<usize>; 64]],
    rng: &'a mut GameRng,
    steps: usize,
    budget: usize,
}

impl Search<'_> {
    /// Place the burials of clues `i..`, given the burials alive before clue i.
    fn run(&mut self, i: usize, alive: &mut [Option<Role>; 64]) -> bool {
        self.steps += 1;
        if self.steps > self.budget {
            return false;
        }
        let Some(clue) = self.clues.get(i) else { return true };
        match *clue {
            Clue::Buried { role, under } => {
                let mut squares: Vec<Square> = under
                    .into_iter()
                    .filter(|&sq| alive[sq as usize].is_none())
                    .filter(|&sq| self.fate_allows(i + 1, sq, role))
                    .collect();
                self.rng.shuffle(&mut squares);
                for sq in squares {
                    alive[sq as usize] = Some(role);
                    if self.risings_still_possible(i + 1, alive) && self.run(i + 1, alive) {
                        return true;
                    }
                    alive[sq as usize] = None;
                    if self.steps > self.budget {
                        return false;
                    }
                }
                false
            }
            Clue::Checked { square, rose: None } => alive[square as usize].is_none() && self.run(i + 1, alive),
            Clue::Checked { square, rose: Some(role) } => {
                if alive[square as usize] != Some(role) {
                    return false;
                }
                alive[square as usize] = None;
                if self.run(i + 1, alive) {
                    return true;
                }
                alive[square as usize] = Some(role);
                false
            }
            Clue::CannotBury { pieces } => {
                pieces.into_iter().all(|sq| alive[sq as usize].is_some()) && self.run(i + 1, alive)
            }
        }
    }

    /// A burial of `role` under `sq` made before clue `from` rises at the
    /// next check of `sq`: that check must say this piece rose.
    fn fate_allows(&self, from: usize, sq: Square, role: Role) -> bool {
        match self.next_check[from][sq as usize] {
            None => true,
            Some(j) => matches!(self.clues[j], Clue::Checked { rose: Some(r), .. } if r == role),
        }
    }

    /// Every coming rising must still be possible: either the burial alive
    /// now rises there, or a later burial of that piece (after the previous
    /// check of the square) could be made under it.
    fn risings_still_possible(&self, from: usize, alive: &[Option<Role>; 64]) -> bool {
        let mut window_start: [Option<usize>; 64] = [None; 64];
        for j in from..self.clues.len() {
            if let Clue::Checked { square, rose } = self.clues[j] {
                let s = square as usize;
                let start = window_start[s];
                window_start[s] = Some(j + 1);
                let Some(role) = rose else { continue };
                if start.is_none() && alive[s].is_some() {
                    continue;
                }
                let start = start.unwrap_or(from);
                let reachable = self.clues[start..j]
                    .iter()
                    .any(|c| matches!(*c, Clue::Buried { role: r, under } if r == role && under.contains(square)));
                if !reachable {
                    return false;
                }
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn squares(names: &[Square]) -> Bitboard {
        names.iter().copied().collect()
    }

    #[test]
    fn a_square_announced_empty_after_the_burial_never_held_it() {
        // Buried under b2 or c3; then c3 was left and "no zombie at c3".
        let clues = [
            Clue::Buried { role: Role::Pawn, under: squares(&[Square::B2, Square::C3]) },
            Clue::Checked { square: Square::C3, rose: None },
        ];
        let mut rng = GameRng::from_seed(1);
        for _ in 0..20 {
            let burials = sample_burials(&clues, &mut rng).unwrap();
            assert_eq!(burials.into_iter().collect::<Vec<_>>(), vec![(Square::B2, Role::Pawn)]);
        }
    }

    #[test]
    fn a_risen_piece_is_the_one_buried_there_and_the_rest_stay_hidden() {
        // Two pawns buried; one rose on c6: the other is under a6 or b6.
        let under = squares(&[Square::A6, Square::B6, Square::C6]);
        let clues = [
            Clue::Buried { role: Role::Pawn, under },
            Clue::Buried { role: Role::Knight, under },
            Clue::Checked { square: Square::C6, rose: Some(Role::Knight) },
        ];
        let mut rng = GameRng::from_seed(2);
        let mut seen = std::collections::BTreeSet::new();
        for _ in 0..40 {
            let burials = sample_burials(&clues, &mut rng).unwrap();
            assert_eq!(burials.len(), 1);
            let (&sq, &role) = burials.iter().next().unwrap();
            assert_eq!(role, Role::Pawn);
            assert!(sq == Square::A6 || sq == Square::B6);
            seen.insert(sq);
        }
        assert_eq!(seen.len(), 2, "both places are drawn");
    }

    #[test]
    fn cannot_bury_means_every_piece_had_a_burial() {
        let under = squares(&[Square::E1, Square::H1, Square::G2]);
        let clues = [
            Clue::Buried { role: Role::Pawn, under },
            Clue::Buried { role: Role::Pawn, under },
            Clue::CannotBury { pieces: squares(&[Square::E1, Square::H1]) },
        ];
        let mut rng = GameRng::from_seed(3);
        for _ in 0..20 {
            let burials = sample_burials(&clues, &mut rng).unwrap();
            assert_eq!(burials.keys().copied().collect::<Vec<_>>(), vec![Square::E1, Square::H1]);
        }
    }
}
