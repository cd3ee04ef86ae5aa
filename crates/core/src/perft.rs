//! Perft for every game: the leaves of the tree of actions to a depth,
//! walked through the referee itself ([`Game::legal_actions`] and
//! [`Game::apply`]), so that it checks the code players and the computer
//! use, and no second move generator is needed to measure or test a game.
//!
//! **What a node is.** One ply is one action of one seat, whatever the
//! game calls a turn: a turn of several steps (a move and its extra steps,
//! a card played then a move, a checker placed) is several plies. When
//! several seats must act at once (secret choices), the first seat that
//! [`Game::to_act`] lists acts first and the others follow one ply each,
//! so each combination of choices is counted once. A game that is over
//! has no actions: a line that ends before the depth counts no leaf, as
//! in orthodox perft. Chance (a card drawn, a die) comes from the game's
//! own seeded generator, carried in each copy, so the count of a position
//! is the same on every run.
//!
//! ```
//! # fn check<G: chesskit_core::Game>(game: &G) -> u64 {
//! chesskit_core::perft::count(game, 3)
//! # }
//! ```

use crate::game::{Game, Seat};

/// The leaves of the tree of actions of `game` to `depth` plies (see the
/// module's note on what a ply is). Depth 0 is the position itself: 1.
///
/// Each child is a copy of its parent with one legal action applied,
/// telling nobody ([`Game::apply`]): a game keeps no history of its own,
/// so a copy costs the same late in a game as early.
pub fn count<G: Game>(game: &G, depth: u32) -> u64 {
    count_below(game, depth)
}

/// One line per action of the seat that acts first at the root, with the
/// leaves below it, sorted by the action's text: perft's "divide", for
/// finding the branch where two counts part.
pub fn divide<G: Game>(game: &G, depth: u32) -> Vec<(String, u64)> {
    let root = game;
    let Some(seat) = root.first_to_act() else { return Vec::new() };
    if depth == 0 {
        return Vec::new();
    }
    let mut lines: Vec<(String, u64)> = root
        .legal_actions(seat)
        .iter()
        .map(|action| (action.to_string(), count_below(&after(root, seat, action), depth - 1)))
        .collect();
    lines.sort();
    lines
}

/// [`count`] below `game`.
fn count_below<G: Game>(game: &G, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let Some(seat) = game.first_to_act() else { return 0 };
    let actions = game.legal_actions(seat);
    if depth == 1 {
        return actions.len() as u64;
    }
    actions.iter().map(|action| count_below(&after(game, seat, action), depth - 1)).sum()
}

/// A copy of `game` with `seat`'s `action` applied. The action was listed
/// as legal by the game itself, so a refusal is a fault of the game's
/// rules, which perft exists to find: it says which action failed where.
fn after<G: Game>(game: &G, seat: Seat, action: &G::Action) -> G {
    let mut next = game.clone();
    if let Err(error) = next.apply(seat, action) {
        panic!("{}: the legal action {action} of seat {seat} was refused ({error}) in\n{}", G::TITLE, game.position());
    }
    next
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{GameAction, GameError, RuleError, SeatInfo, ToAct, Viewer};
    use crate::options::Options;
    use crate::view::{Journal, View};

    /// A counting game whose tree is known by hand: the seat to move adds
    /// 1 or 2 to a running total; at a total of 4 or more the game is over.
    /// Seats take turns, except that at a total of 2 both must choose at
    /// once (the first listed acts first, then the other).
    #[derive(Clone, Debug, PartialEq)]
    struct Race {
        total: u32,
        mover: Seat,
        chosen: Vec<Seat>,
    }

    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    struct Add(u32);

    impl std::fmt::Display for Add {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            write!(f, "+{}", self.0)
        }
    }

    impl std::str::FromStr for Add {
        type Err = String;
        fn from_str(s: &str) -> Result<Add, String> {
            s.trim_start_matches('+').parse().map(Add).map_err(|e| format!("{e}"))
        }
    }

    impl GameAction for Add {}

    impl Race {
        fn both_choose(&self) -> bool {
            self.total == 2
        }
    }

    impl Game for Race {
        type Action = Add;
        const VARIANT: &'static str = "race";
        const TITLE: &'static str = "Race";

        fn new(_: &Options, _: u64) -> Result<Race, GameError> {
            Ok(Race { total: 0, mover: 0, chosen: Vec::new() })
        }
        fn from_position(_: &str, options: &Options, seed: u64) -> Result<Race, GameError> {
            Race::new(options, seed)
        }
        fn position(&self) -> String {
            format!("{} {}", self.total, self.mover)
        }
        fn seats(&self) -> Vec<SeatInfo> {
            SeatInfo::white_black()
        }
        fn to_act(&self) -> ToAct {
            if self.total >= 4 {
                ToAct::Over(crate::game::Outcome::draw("done"))
            } else if self.both_choose() {
                ToAct::Seats([0, 1].into_iter().filter(|s| !self.chosen.contains(s)).collect())
            } else {
                ToAct::one(self.mover)
            }
        }
        fn legal_actions(&self, seat: Seat) -> Vec<Add> {
            if self.to_act().seats().contains(&seat) {
                vec![Add(1), Add(2)]
            } else {
                Vec::new()
            }
        }
        fn apply_with(&mut self, seat: Seat, action: &Add, _: &mut Journal) -> Result<(), RuleError> {
            self.check_turn(seat)?;
            if self.both_choose() {
                self.chosen.push(seat);
                if self.chosen.len() == 2 {
                    self.chosen.clear();
                    self.total += action.0;
                }
                return Ok(());
            }
            self.total += action.0;
            self.mover = 1 - self.mover;
            Ok(())
        }
        fn view(&self, _: Viewer) -> View {
            View::default()
        }
    }

    fn start() -> Race {
        Race::new(&Options::new(), 0).unwrap()
    }

    #[test]
    fn depth_zero_is_the_position_itself() {
        assert_eq!(count(&start(), 0), 1);
    }

    #[test]
    fn each_ply_is_one_action_of_one_seat() {
        // 0 -> {1, 2}: two leaves.
        assert_eq!(count(&start(), 1), 2);
        // From 1: +1 reaches 2, +2 reaches 3; from 2 both seats choose, so
        // the first ply there is the first seat's choice: 2 + 2.
        assert_eq!(count(&start(), 2), 4);
    }

    #[test]
    fn simultaneous_choices_are_one_ply_per_seat() {
        // Under +1: +1 reaches 2, where the first chooser's 2 choices are
        // the leaves; +2 reaches 3, one mover: 2. Under +2: the first
        // chooser's 2 choices, each followed by the second's 2: 4.
        assert_eq!(count(&start(), 3), 2 + 2 + 4);
    }

    #[test]
    fn a_line_that_ends_before_the_depth_counts_no_leaf() {
        let over = Race { total: 4, mover: 0, chosen: Vec::new() };
        assert_eq!(count(&over, 1), 0);
        let one_from_the_end = Race { total: 3, mover: 0, chosen: Vec::new() };
        assert_eq!(count(&one_from_the_end, 1), 2);
        assert_eq!(count(&one_from_the_end, 2), 0);
    }

    #[test]
    fn divide_splits_the_count_by_the_first_action() {
        let lines = divide(&start(), 3);
        assert_eq!(lines, vec![("+1".to_string(), 4), ("+2".to_string(), 4)]);
        assert_eq!(lines.iter().map(|(_, n)| n).sum::<u64>(), count(&start(), 3));
    }
}
