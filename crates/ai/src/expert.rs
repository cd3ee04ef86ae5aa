//! The computer where a game's own solver knows better than a search: it
//! takes the game's expert advice ([`DynGame::expert_action`]), as Chess
//! Golf's count and demonstration from its solver, so its counts mean
//! something. A generic search would only guess a count (the score of a
//! count shows only after the reveal, far beyond its horizon), and the
//! issue's testers saw counts that looked random at every level.
//!
//! What stays here is the level's skill, the same for every game: the
//! nodes the solver may spend, and how far an estimate may miss. The top
//! levels give exactly what the solver proves; the lower ones err by a
//! bounded amount that shrinks with the level, as a person's estimate
//! does: level 2 by up to 3, level 3 by 2, level 4 by 1. Level 1 stays
//! random. Every other decision is the level's own player's.

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

    /// How far this level's estimate may miss the solver's.
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

    /// A miss drawn within this level's bound.
    fn miss(&mut self) -> i64 {
        let bound = i64::from(Expert::error_bound(self.level));
        self.rng.below(2 * bound as usize + 1) as i64 - bound
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
    use crate::player_for_level;
    use chesskit_core::session::Session;
    use chesskit_core::{Options, ToAct};
    use chesskit_games::golf::{solve_with, GolfGame, SolveOptions};

    /// A golf round of two players, counted by `level` in both seats until
    /// the reveal; returns the optimal length the round proved and the counts.
    fn counts_at(level: &str, seed: u64) -> Option<(usize, Vec<u32>)> {
        let mut game = chesskit_games::create("golf", Options::new().with("players", 2), seed, None).unwrap();
        let round = game.as_any().downcast_ref::<Session<GolfGame>>().unwrap().game.clone();
        let optimal = solve_with(&round.puzzle(), &SolveOptions::default()).length()?;
        let mut players = [player_for_level(level, seed).unwrap(), player_for_level(level, seed + 1).unwrap()];
        for (seat, player) in players.iter_mut().enumerate() {
            let ToAct::Seats(_) = game.to_act() else { return None };
            let action = player.choose(game.as_ref(), seat).unwrap();
            game.apply(seat, &action).unwrap();
        }
        let round = &game.as_any().downcast_ref::<Session<GolfGame>>().unwrap().game;
        let given: Vec<u32> = (0..2).filter_map(|s| round.count_of(s)).collect();
        Some((optimal, given))
    }

    #[test]
    fn the_top_levels_count_what_the_solver_proves_and_lower_ones_err_within_their_bound() {
        let mut checked = 0;
        for seed in 0..12 {
            for (level, bound) in [("level8", 0), ("level5", 0), ("level4", 1), ("level2", 3)] {
                let Some((optimal, counts)) = counts_at(level, seed) else { continue };
                for count in counts {
                    let miss = (i64::from(count) - optimal as i64).unsigned_abs();
                    assert!(miss <= bound, "{level}, seed {seed}: counted {count} for an optimum of {optimal}");
                }
                checked += 1;
            }
        }
        assert!(checked >= 8, "only {checked} solvable deals checked");
    }
}
