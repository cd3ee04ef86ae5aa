//! The computer where a game's own solver knows better than a search: it
//! takes the game's expert advice ([`DynGame::expert_action`]), as Chess
//! Golf's count and demonstration from its solver, so its counts mean
//! something. A generic search would only guess a count (the score of a
//! count shows only after the reveal, far beyond its horizon), and the
//! issue's testers saw counts that looked random at every level.
//!
//! What stays here is the level's skill, the same for every game: the
//! nodes the solver may spend, and how far an estimate may miss. The top
//! levels give exactly what the solver proves; the lower ones count over
//! it by a bounded amount that shrinks with the level, as a cautious
//! person's estimate does: levels 1 and 2 by up to 3, level 3 by 2, level
//! 4 by 1. A miss is never under the path found: a count below it cannot
//! be demonstrated, and the level 4 counted 1 and gave up at most
//! holes. Every other decision is the level's own player's (level 1's
//! random).

use chesskit_core::game::Seat;
use chesskit_core::rng::GameRng;
use chesskit_core::DynGame;

use crate::Player;

/// A player that follows the game's expert advice where the game gives
/// some, and leaves everything else (and every other game) to `inner`.
pub struct Expert {
    level: u8,
    inner: Box<dyn Player>,
    rng: GameRng,
}

impl Expert {
    pub fn new(level: u8, inner: Box<dyn Player>, seed: u64) -> Expert {
        Expert { level, inner, rng: GameRng::from_seed(seed ^ 0x9e37_79b9_7f4a_7c15) }
    }

    /// How far over the solver's count this level's count may be.
    pub fn error_bound(level: u8) -> u32 {
        match level {
            0..=2 => 3,
            3 => 2,
            4 => 1,
            _ => 0,
        }
    }

    /// Nodes this level lets the game's solver spend on one decision (the
    /// game spends no more than it allows its own solver).
    fn solver_nodes(&self) -> u64 {
        1_000_000u64 << self.level.min(8)
    }

    /// A miss drawn within this level's bound, over the count only.
    fn miss(&mut self) -> i64 {
        let bound = Expert::error_bound(self.level) as usize;
        self.rng.below(bound + 1) as i64
    }
}

impl Player for Expert {
    fn choose(&mut self, game: &dyn DynGame, seat: Seat) -> Option<String> {
        let miss = self.miss();
        match game.expert_action(seat, self.solver_nodes(), miss) {
            // Only what the rules allow now.
            Some(advice) if game.legal_actions(seat).contains(&advice) => Some(advice),
            _ => self.inner.choose(game, seat),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Expert;
    use crate::player_for_level;
    use chesskit_core::session::Session;
    use chesskit_core::{Options, ToAct};
    use chesskit_games::golf::{solve_with, GolfGame, SolveOptions};

    /// The first hole of a seeded golf round of two players, both seats
    /// played by `level` until the hole's first demonstration ends: the
    /// optimal length the solver proves within the level's nodes, the
    /// counts given, and whether the demonstrator solved the hole (it then
    /// puts pieces back) rather than giving up. Bounded by nodes: the
    /// level's solver budget per decision and at most 2 counts and 20 moves.
    fn first_hole_at(level: &str, seed: u64) -> Option<(usize, Vec<u32>, bool)> {
        let mut game = chesskit_games::create("golf", Options::new().with("players", 2), seed, None).unwrap();
        let round = game.as_any().downcast_ref::<Session<GolfGame>>().unwrap().game.clone();
        let number: u8 = level.trim_start_matches("level").parse().unwrap();
        let nodes = Expert::new(number, Box::new(crate::RandomPlayer::new(0)), 0).solver_nodes();
        let options = SolveOptions { max_nodes: nodes.min(round.solver_nodes()), ..SolveOptions::default() };
        let optimal = solve_with(&round.puzzle(), &options).length()?;
        let mut players = [player_for_level(level, seed).unwrap(), player_for_level(level, seed + 1).unwrap()];
        for _ in 0..22 {
            let ToAct::Seats(seats) = game.to_act() else { return None };
            let seat = seats[0];
            let action = players[seat].choose(game.as_ref(), seat).unwrap();
            if action.starts_with("put") || action == "give up" {
                let round = &game.as_any().downcast_ref::<Session<GolfGame>>().unwrap().game;
                let counts: Vec<u32> = (0..2).filter_map(|s| round.count_of(s)).collect();
                return Some((optimal, counts, action.starts_with("put")));
            }
            game.apply(seat, &action).unwrap();
        }
        panic!("{level}, seed {seed}: the hole's demonstration did not end within 20 moves")
    }

    /// "Every level counts within its documented error of the solver's
    /// count and can demonstrate what it counted" (issue 26): levels 1 to
    /// 8, over seeded holes, count from the solver's length up to their
    /// bound over it, and the demonstration solves the hole.
    #[test]
    fn every_level_counts_within_its_error_and_demonstrates_what_it_counted() {
        for number in 1..=8u8 {
            let level = format!("level{number}");
            let bound = Expert::error_bound(number);
            let mut checked = 0;
            for seed in 0..8 {
                let Some((optimal, counts, solved)) = first_hole_at(&level, seed) else { continue };
                for count in &counts {
                    let over = i64::from(*count) - optimal as i64;
                    assert!(
                        (0..=i64::from(bound)).contains(&over),
                        "{level}, seed {seed}: counted {count} for {optimal}"
                    );
                }
                assert!(solved, "{level}, seed {seed}: counted {counts:?} for {optimal} and gave up");
                checked += 1;
            }
            assert!(checked >= 5, "{level}: only {checked} solvable holes checked");
        }
    }
}
