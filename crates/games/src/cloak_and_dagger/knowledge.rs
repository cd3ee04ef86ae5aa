//! What can be known about a player's checkers: the setups the Chess960
//! restrictions allow, the clues the game has made public, and the
//! deduction grid of the book ("a circle for each piece you know, and an X
//! for each piece you know is impossible").
//!
//! Every public event narrows one checker to a set of kinds: a move (the
//! kinds that can make it), castling (king and rook), a guess and its answer,
//! a capture or an uncloaking (the kind itself). So everything a player can
//! know about the opponent's checkers is one [`Clues`] value, and the setups
//! still possible are the Chess960 back ranks that agree with it. Both the
//! grid and `sample_hidden` are read from that set.

use std::sync::OnceLock;

use chesskit_core::chess::{chess960, RoleSet};
use chesskit_core::rng::GameRng;
use shakmaty::Role;

/// The kinds a checker can be, in the grid's row order.
pub const CHECKER_KINDS: [Role; 5] = [Role::King, Role::Queen, Role::Rook, Role::Bishop, Role::Knight];

/// A back rank of eight identities: checker 1 (file a) to checker 8 (file h).
pub type Setup = [Role; 8];

/// The 960 setups the Chess960 restrictions allow, in Chess960 numbering.
pub fn all_setups() -> &'static [Setup] {
    static SETUPS: OnceLock<Vec<Setup>> = OnceLock::new();
    SETUPS.get_or_init(|| (0..chess960::COUNT).filter_map(chess960::back_rank).collect())
}

/// A set of the 960 setups, one bit each, in Chess960 numbering.
type SetupSet = [u64; 15];

/// For each checker (0 to 7) and kind (row order of [`CHECKER_KINDS`]), the
/// setups in which that checker is that kind: the grid is read from these
/// with a few bitwise operations instead of walking the setups.
fn setups_by_checker_and_kind() -> &'static [[SetupSet; 5]; 8] {
    static TABLE: OnceLock<[[SetupSet; 5]; 8]> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut table = [[[0u64; 15]; 5]; 8];
        for (n, setup) in all_setups().iter().enumerate() {
            for (checker, role) in setup.iter().enumerate() {
                let row = CHECKER_KINDS.iter().position(|r| r == role).expect("a setup holds checker kinds only");
                table[checker][row][n / 64] |= 1 << (n % 64);
            }
        }
        table
    })
}

/// Any of the five checker kinds.
pub fn any_kind() -> RoleSet {
    CHECKER_KINDS.iter().fold(RoleSet::EMPTY, |set, &role| set.with(role))
}

/// The kinds in both sets.
pub fn intersect(a: RoleSet, b: RoleSet) -> RoleSet {
    a.iter().filter(|&role| b.contains(role)).fold(RoleSet::EMPTY, |set, role| set.with(role))
}

/// The kinds of `set` as letters, strongest first as the grid lists them (`KQRBN`).
pub fn letters(set: RoleSet) -> String {
    CHECKER_KINDS.iter().filter(|&&role| set.contains(role)).map(|role| role.upper_char()).collect()
}

/// The kinds named by letters such as `QRB`.
pub fn parse_kinds(text: &str) -> Result<RoleSet, String> {
    let mut set = RoleSet::EMPTY;
    for c in text.chars() {
        match Role::from_char(c).filter(|r| CHECKER_KINDS.contains(r)) {
            Some(role) => set = set.with(role),
            None => return Err(format!("{c:?} is not a checker's kind (K, Q, R, B or N)")),
        }
    }
    if set == RoleSet::EMPTY {
        return Err("a clue must name at least one kind".to_string());
    }
    Ok(set)
}

/// How likely a player is to end a turn with their cloaked king where a
/// piece the opponent sees could take it (losing at once), as a share of
/// the likelihood of any other turn. Not zero: a bluff, or no better move.
pub const KING_LEFT_IN_REACH: f64 = 0.2;

/// `candidates` in a random order in which each comes early in proportion
/// to its likelihood, [`KING_LEFT_IN_REACH`] to the power of the turns
/// `times_king_left` counts for it: weighted sampling without replacement,
/// each candidate keyed by ln(u) / weight for a uniform u, highest first.
pub fn in_likelihood_order<T>(
    mut candidates: Vec<T>,
    times_king_left: impl Fn(&T) -> usize,
    rng: &mut GameRng,
) -> Vec<T> {
    let times: Vec<usize> = candidates.iter().map(&times_king_left).collect();
    // Relative to the likeliest, so that a long game cannot round every weight to zero.
    let fewest = times.iter().copied().min().unwrap_or(0);
    let mut keys: Vec<(f64, usize)> = times
        .iter()
        .enumerate()
        .map(|(i, &t)| {
            let weight = KING_LEFT_IN_REACH.powi(i32::try_from(t - fewest).unwrap_or(i32::MAX));
            let uniform = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
            ((1.0 - uniform).ln() / weight, i)
        })
        .collect();
    keys.sort_by(|a, b| b.0.total_cmp(&a.0));
    let mut slots: Vec<Option<T>> = candidates.drain(..).map(Some).collect();
    keys.into_iter().filter_map(|(_, i)| slots[i].take()).collect()
}

/// Whether `setup` is a setup a player may choose: a standard set of
/// pieces under the Chess960 restrictions. The error names the problem.
pub fn check_setup(setup: &Setup) -> Result<(), String> {
    let count = |role: Role| setup.iter().filter(|&&r| r == role).count();
    let wanted = [(Role::King, 1), (Role::Queen, 1), (Role::Rook, 2), (Role::Bishop, 2), (Role::Knight, 2)];
    for (role, n) in wanted {
        if count(role) != n {
            return Err(format!(
                "you must have a standard set of pieces: one king, one queen, two rooks, two bishops and two \
                 knights (this placement has {} {})",
                count(role),
                role_plural(role, count(role))
            ));
        }
    }
    // Asked at every applied placement (the search's, at each of its 960
    // children), so the files are found without collecting them.
    let files_of = |role: Role| {
        let mut files = (0..8).filter(move |&i| setup[i] == role);
        (files.next().unwrap_or(0), files.next().unwrap_or(0))
    };
    let bishops = files_of(Role::Bishop);
    if bishops.0 % 2 == bishops.1 % 2 {
        return Err("place one of your bishops on a light square and one on a dark square".to_string());
    }
    let rooks = files_of(Role::Rook);
    let king = files_of(Role::King).0;
    if !(rooks.0 < king && king < rooks.1) {
        return Err("place your king somewhere between your two rooks".to_string());
    }
    Ok(())
}

fn role_plural(role: Role, n: usize) -> String {
    let name = chesskit_core::chess::diagram::role_name(role);
    if n == 1 {
        name.to_string()
    } else {
        format!("{name}s")
    }
}

/// The public clues about one player's eight checkers: for each, the kinds
/// it may still be.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Clues([RoleSet; 8]);

impl Default for Clues {
    fn default() -> Clues {
        Clues([any_kind(); 8])
    }
}

impl Clues {
    /// The kinds checker `index` (0 for checker 1) may still be.
    pub fn kinds(&self, index: usize) -> RoleSet {
        self.0[index]
    }

    /// Learn that checker `index` is one of `kinds`.
    pub fn narrow(&mut self, index: usize, kinds: RoleSet) {
        self.0[index] = intersect(self.0[index], kinds);
    }

    /// Learn that checker `index` is not a `role`.
    pub fn rule_out(&mut self, index: usize, role: Role) {
        self.0[index] = self.0[index].without(role);
    }

    /// Learn that checker `index` is a `role`.
    pub fn reveal(&mut self, index: usize, role: Role) {
        self.narrow(index, RoleSet::EMPTY.with(role));
    }

    pub fn allows(&self, setup: &Setup) -> bool {
        (0..8).all(|i| self.0[i].contains(setup[i]))
    }

    /// The Chess960 setups that agree with every clue.
    pub fn candidates(&self) -> Vec<&'static Setup> {
        all_setups().iter().filter(|setup| self.allows(setup)).collect()
    }

    /// The deduction grid: for each kind (rows K Q R B N) and each checker
    /// (columns 1 to 8), what the clues and the restrictions together prove.
    pub fn grid(&self) -> [[Cell; 8]; 5] {
        let table = setups_by_checker_and_kind();
        let mut fitting: SetupSet = [!0; 15];
        for (checker, kinds) in self.0.iter().enumerate() {
            let mut allowed: SetupSet = [0; 15];
            for (row, role) in CHECKER_KINDS.iter().enumerate() {
                if kinds.contains(*role) {
                    allowed.iter_mut().zip(&table[checker][row]).for_each(|(a, b)| *a |= b);
                }
            }
            fitting.iter_mut().zip(&allowed).for_each(|(f, a)| *f &= a);
        }
        let mut grid = [[Cell::Open; 8]; 5];
        for (row, cells) in grid.iter_mut().enumerate() {
            for (checker, cell) in cells.iter_mut().enumerate() {
                let with: SetupSet = std::array::from_fn(|w| fitting[w] & table[checker][row][w]);
                *cell = if with.iter().all(|&w| w == 0) {
                    Cell::Impossible
                } else if with == fitting {
                    Cell::Known
                } else {
                    Cell::Open
                };
            }
        }
        grid
    }

    /// The clues as text for a position: `2=QRB 7=N`, only checkers that
    /// are narrowed at all.
    pub fn to_text(&self) -> String {
        (0..8)
            .filter(|&i| self.0[i] != any_kind())
            .map(|i| format!("{}={}", i + 1, letters(self.0[i])))
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// Read clues written by [`Clues::to_text`].
    pub fn parse(text: &str) -> Result<Clues, String> {
        let mut clues = Clues::default();
        for item in text.split_whitespace() {
            let (number, kinds) =
                item.split_once('=').ok_or_else(|| format!("bad clue {item:?}: expected checker=kinds, like 3=QRB"))?;
            let index = parse_checker_number(number)?;
            clues.narrow(index, parse_kinds(kinds).map_err(|e| format!("bad clue {item:?}: {e}"))?);
        }
        Ok(clues)
    }
}

/// A checker number 1 to 8 as an index 0 to 7.
pub fn parse_checker_number(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(n @ 1..=8) => Ok(n - 1),
        _ => Err(format!("{text:?} is not a checker number (1 to 8)")),
    }
}

/// One cell of the deduction grid.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cell {
    /// A circle: this checker is this kind.
    Known,
    /// An X: this checker cannot be this kind.
    Impossible,
    /// Not yet known either way.
    Open,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn setup(letters: &str) -> Setup {
        let roles: Vec<Role> = letters.chars().map(|c| Role::from_char(c).unwrap()).collect();
        roles.try_into().unwrap()
    }

    #[test]
    fn there_are_960_setups_and_each_passes_the_restrictions() {
        assert_eq!(all_setups().len(), 960);
        for s in all_setups() {
            check_setup(s).unwrap();
        }
    }

    #[test]
    fn the_restrictions_refuse_with_a_reason() {
        // Setup: "you do have to have a standard set of pieces (You can't give yourself three queens!)".
        assert!(check_setup(&setup("RQBQKQNR")).unwrap_err().contains("3 queens"));
        // "Place one of your bishops on a light square and one on a dark square."
        assert!(check_setup(&setup("RBNQKBNR")).unwrap_err().contains("light square"));
        // "Place your king somewhere between your two rooks."
        assert!(check_setup(&setup("KRNBBQNR")).unwrap_err().contains("between your two rooks"));
    }

    /// The grid read from the bit sets is the one the book's reasoning gives:
    /// a kind is impossible for a checker when no setup that fits every clue
    /// has it there, known when every such setup has it there.
    #[test]
    fn the_grid_is_what_all_fitting_setups_agree_on() {
        let mut rng = chesskit_core::rng::GameRng::from_seed(11);
        for _ in 0..300 {
            let mut clues = Clues::default();
            for _ in 0..rng.below(6) {
                let index = rng.below(8);
                let role = CHECKER_KINDS[rng.below(5)];
                if rng.below(2) == 0 {
                    clues.rule_out(index, role);
                } else {
                    clues.reveal(index, role);
                }
            }
            let candidates = clues.candidates();
            let grid = clues.grid();
            for (row, &role) in CHECKER_KINDS.iter().enumerate() {
                for checker in 0..8 {
                    let hits = candidates.iter().filter(|setup| setup[checker] == role).count();
                    let expected = match hits {
                        0 => Cell::Impossible,
                        n if n == candidates.len() => Cell::Known,
                        _ => Cell::Open,
                    };
                    assert_eq!(grid[row][checker], expected, "{} row {row} checker {checker}", clues.to_text());
                }
            }
        }
    }

    #[test]
    fn the_grid_deduces_from_the_restrictions() {
        // Checkers 1 and 8 are rooks: then no other checker is a rook, and the
        // king is somewhere between them (it always is).
        let mut clues = Clues::default();
        clues.reveal(0, Role::Rook);
        clues.reveal(7, Role::Rook);
        let grid = clues.grid();
        let rook_row = 2;
        assert_eq!(grid[rook_row][0], Cell::Known);
        assert!((1..7).all(|c| grid[rook_row][c] == Cell::Impossible));
        // A bishop on checker 2 (a light file for White, b1 dark... parity 1)
        // forces the other bishop onto a square of the other colour.
        clues.reveal(1, Role::Bishop);
        let grid = clues.grid();
        let bishop_row = 3;
        assert!([3, 5].iter().all(|&c| grid[bishop_row][c] == Cell::Impossible), "same colour as checker 2");
        assert!([2, 4, 6].iter().all(|&c| grid[bishop_row][c] == Cell::Open));
    }

    #[test]
    fn clues_round_trip_as_text() {
        let mut clues = Clues::default();
        clues.narrow(1, RoleSet::EMPTY.with(Role::Queen).with(Role::Rook).with(Role::Bishop));
        clues.rule_out(6, Role::Knight);
        assert_eq!(clues.to_text(), "2=QRB 7=KQRB");
        assert_eq!(Clues::parse(&clues.to_text()).unwrap(), clues);
        assert!(Clues::parse("9=N").unwrap_err().contains("checker number"));
        assert!(Clues::parse("3=P").unwrap_err().contains("not a checker's kind"));
    }
}
