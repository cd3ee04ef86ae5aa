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
//!
//! The moves the burier did *not* make say something too. Leaving a
//! burial raises the opponent's piece as the opponent's zombie, so a player
//! rarely moves a piece off one of their own burials while other moves are
//! open. At the start of each of the burier's turns the clues record how
//! many legal regular moves each square offered (public: the board and the
//! rules of chess, the secret burials aside). A re-draw weighs each
//! candidate world by how likely the burier's choices were in it, and
//! picks among several candidates by that weight.

use chesskit_core::chess::{Bitboard, Role, Square};
use std::sync::Arc;

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
    /// The burier's turn began with these regular moves on offer.
    Offered(MovesOffered),
}

/// The public clues about one player's burials, oldest first, kept as a
/// list the game's copies share: adding a clue (at every turn start of
/// the burier's, once something is buried) copies nothing, where a
/// shared vector was copied whole by every copy the search made.
#[derive(Clone, Debug, Default)]
pub struct ClueLog {
    last: Option<Arc<ClueLink>>,
}

/// One clue and the clues before it.
#[derive(Debug)]
struct ClueLink {
    clue: Clue,
    before: Option<Arc<ClueLink>>,
}

impl ClueLog {
    /// The clues in `clues`, in order.
    pub fn of(clues: impl IntoIterator<Item = Clue>) -> ClueLog {
        let mut log = ClueLog::default();
        clues.into_iter().for_each(|clue| log.push(clue));
        log
    }

    pub fn push(&mut self, clue: Clue) {
        self.last = Some(Arc::new(ClueLink { clue, before: self.last.take() }));
    }

    pub fn is_empty(&self) -> bool {
        self.last.is_none()
    }

    /// The clues, oldest first (for the sampler, which reads them by index).
    pub fn to_vec(&self) -> Vec<Clue> {
        let mut clues: Vec<Clue> = std::iter::successors(self.last.as_deref(), |link| link.before.as_deref())
            .map(|link| link.clue.clone())
            .collect();
        clues.reverse();
        clues
    }
}

impl PartialEq for ClueLog {
    fn eq(&self, other: &ClueLog) -> bool {
        self.to_vec() == other.to_vec()
    }
}

impl Drop for ClueLog {
    /// Unlinks the links this log alone holds one by one: the default drop
    /// would recurse once per clue, as deep as the game is long.
    fn drop(&mut self) {
        let mut next = self.last.take();
        while let Some(link) = next {
            next = match Arc::try_unwrap(link) {
                Ok(mut alone) => alone.before.take(),
                Err(_) => None,
            };
        }
    }
}

/// The legal regular moves a player had at the start of a turn, counted by
/// the square they leave: what an onlooker knows of the choice the player
/// then made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MovesOffered {
    from: [u8; 64],
    total: u16,
}

impl MovesOffered {
    /// Counts the moves by the square they leave.
    pub fn count(froms: impl IntoIterator<Item = Square>) -> MovesOffered {
        let mut offered = MovesOffered { from: [0; 64], total: 0 };
        for from in froms {
            let count = &mut offered.from[from as usize];
            *count = count.saturating_add(1);
            offered.total = offered.total.saturating_add(1);
        }
        offered
    }

    /// The log of how likely the move made was, up to a factor that is the
    /// same in every world: a move off a live burial is
    /// [`LEAVING_A_BURIAL_WEIGHT`] times as likely as any other, so the
    /// chance of one particular other move is one over the weighted total.
    fn log_likelihood(&self, alive: &[Option<Role>; 64]) -> f64 {
        let leaving: u32 = Square::ALL
            .into_iter()
            .filter(|&sq| alive[sq as usize].is_some())
            .map(|sq| u32::from(self.from[sq as usize]))
            .sum();
        let weighted_total = f64::from(self.total) - (1.0 - LEAVING_A_BURIAL_WEIGHT) * f64::from(leaving);
        if weighted_total > 0.0 {
            -weighted_total.ln()
        } else {
            0.0
        }
    }
}

/// How much less likely a player is to move a piece off one of their own
/// burials than any other piece. Not zero: a player may have to (the only
/// way out of check), may not care, or may not remember. A quarter keeps a
/// burial under a piece that stood still for two or three turns with many
/// moves likelier, without ruling out the squares it left.
const LEAVING_A_BURIAL_WEIGHT: f64 = 0.25;

/// How many candidate worlds a re-draw weighs against each other.
const CANDIDATES: usize = 8;

/// How many search steps one attempt of a re-draw may take.
const BUDGET: usize = 4_000;

/// How many attempts, each with fresh random choices: a backtracking search
/// that got stuck early is better restarted than continued.
const ATTEMPTS: usize = 10;

/// The budget of one last, patient attempt when the quick ones all ran out.
/// The clues of a real game always have a solution (the truth), so only a
/// budget stops this search short of one.
const LAST_BUDGET: usize = 1_000_000;

/// A random set of burials consistent with `clues`, the likelier the
/// better the burier's choices of move fit it: [`CANDIDATES`] consistent
/// draws, one of them picked in proportion to its likelihood. `None` when
/// no draw came within budget; the caller must then draw a world without
/// reading the truth (a player's search may not peek at it).
pub fn sample_burials(clues: &[Clue], rng: &mut GameRng) -> Option<Burials> {
    let next_check = next_checks(clues);
    let first = draw_consistent(clues, &next_check, rng, LAST_BUDGET)?;
    let mut candidates = vec![first];
    // The later draws skip the patient attempt: the first one showed the
    // clues can be met, and a draw that runs out is just left out.
    candidates.extend((1..CANDIDATES).filter_map(|_| draw_consistent(clues, &next_check, rng, BUDGET)));
    let best = candidates.iter().map(|(_, log_likelihood)| *log_likelihood).fold(f64::NEG_INFINITY, f64::max);
    // One candidate in proportion to its likelihood, in one pass: the k-th
    // replaces the pick so far with its share of the weight seen so far.
    let mut seen = 0.0;
    let mut pick = None;
    for (burials, log_likelihood) in candidates {
        let weight = (log_likelihood - best).exp();
        seen += weight;
        if rng.chance(weight / seen) {
            pick = Some(burials);
        }
    }
    pick
}

/// One random set of burials consistent with `clues`, and the log of how
/// likely the burier's choices of move were with it; the quick attempts
/// first, then one last attempt of `last_budget` steps.
fn draw_consistent(
    clues: &[Clue],
    next_check: &[[Option<usize>; 64]],
    rng: &mut GameRng,
    last_budget: usize,
) -> Option<(Burials, f64)> {
    let budgets = std::iter::repeat_n(BUDGET, ATTEMPTS).chain([last_budget]);
    for budget in budgets {
        let mut search = Search { clues, next_check, rng: &mut *rng, steps: 0, budget, log_likelihood: 0.0 };
        let mut alive: [Option<Role>; 64] = [None; 64];
        if search.run(0, &mut alive, 0.0) {
            let burials = Square::ALL.into_iter().filter_map(|sq| alive[sq as usize].map(|role| (sq, role))).collect();
            return Some((burials, search.log_likelihood));
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
    /// The log-likelihood of the burier's choices in the world found.
    log_likelihood: f64,
}

impl Search<'_> {
    /// Place the burials of clues `i..`, given the burials alive before clue
    /// i and the log-likelihood of the choices before it.
    fn run(&mut self, i: usize, alive: &mut [Option<Role>; 64], log_likelihood: f64) -> bool {
        self.steps += 1;
        if self.steps > self.budget {
            return false;
        }
        let Some(clue) = self.clues.get(i) else {
            self.log_likelihood = log_likelihood;
            return true;
        };
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
                    if self.risings_still_possible(i + 1, alive) && self.run(i + 1, alive, log_likelihood) {
                        return true;
                    }
                    alive[sq as usize] = None;
                    if self.steps > self.budget {
                        return false;
                    }
                }
                false
            }
            Clue::Checked { square, rose: None } => {
                alive[square as usize].is_none() && self.run(i + 1, alive, log_likelihood)
            }
            Clue::Checked { square, rose: Some(role) } => {
                if alive[square as usize] != Some(role) {
                    return false;
                }
                alive[square as usize] = None;
                if self.run(i + 1, alive, log_likelihood) {
                    return true;
                }
                alive[square as usize] = Some(role);
                false
            }
            Clue::CannotBury { pieces } => {
                pieces.into_iter().all(|sq| alive[sq as usize].is_some()) && self.run(i + 1, alive, log_likelihood)
            }
            Clue::Offered(offered) => self.run(i + 1, alive, log_likelihood + offered.log_likelihood(alive)),
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

    /// Six turns of the burier with a pawn under a1 or h1: each time the
    /// rook on h1 offered 6 of the 10 moves and the rook on a1 none, and
    /// neither rook moved.
    fn six_still_turns() -> Vec<Clue> {
        let offered = MovesOffered::count(std::iter::repeat_n(Square::H1, 6).chain(std::iter::repeat_n(Square::C3, 4)));
        let mut clues = vec![Clue::Buried { role: Role::Pawn, under: squares(&[Square::A1, Square::H1]) }];
        clues.extend(std::iter::repeat_n(Clue::Offered(offered), 6));
        clues
    }

    fn share_under(square: Square, clues: &[Clue], seed: u64) -> f64 {
        let mut rng = GameRng::from_seed(seed);
        let draws = 400;
        let hits = (0..draws).filter(|_| sample_burials(clues, &mut rng).unwrap().contains_key(&square)).count();
        hits as f64 / draws as f64
    }

    /// The moves not made: a piece that stood still while it had moves on
    /// offer more likely stands on a burial (moving it would raise the
    /// opponent's zombie) than one that could not move anyway. In this
    /// model h1 is (10 / 5.5)^6, about 36 times, as likely as a1.
    #[test]
    fn a_piece_that_stood_still_with_moves_on_offer_likelier_hides_the_burial() {
        let clues = six_still_turns();
        let with_choices = share_under(Square::H1, &clues, 4);
        assert!(with_choices > 0.8, "h1 drawn {with_choices}");
        let without_choices = share_under(Square::H1, &clues[..1], 4);
        assert!((0.35..0.65).contains(&without_choices), "h1 drawn {without_choices} without the choices");
    }

    /// What was announced still decides: a likelihood only weighs worlds
    /// that fit every announcement.
    #[test]
    fn the_moves_not_made_never_override_an_announcement() {
        let mut clues = six_still_turns();
        clues.push(Clue::Checked { square: Square::H1, rose: None });
        assert_eq!(share_under(Square::A1, &clues, 5), 1.0);
    }

    #[test]
    fn moves_offered_are_counted_by_the_square_they_leave() {
        let offered = MovesOffered::count([Square::E2, Square::E2, Square::G1]);
        assert_eq!((offered.total, offered.from[Square::E2 as usize], offered.from[Square::G1 as usize]), (3, 2, 1));
        let mut alive = [None; 64];
        assert_eq!(offered.log_likelihood(&alive), -(3.0f64).ln());
        alive[Square::E2 as usize] = Some(Role::Pawn);
        assert_eq!(offered.log_likelihood(&alive), -(3.0 - 2.0 * (1.0 - LEAVING_A_BURIAL_WEIGHT)).ln());
    }
}
