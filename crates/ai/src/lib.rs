//! chesskit-ai: computer players that use only the game's public interface
//! (the [`DynGame`] action text and views), and special solvers.

use chesskit_core::rng::GameRng;
use chesskit_core::{DynGame, Seat};

/// A computer player.
pub trait Player: Send {
    /// The action this player takes for `seat`, or `None` if it has none.
    fn choose(&mut self, game: &dyn DynGame, seat: Seat) -> Option<String>;
}

/// Picks uniformly among the legal actions. Seeded, so games replay.
pub struct RandomPlayer {
    rng: GameRng,
}

impl RandomPlayer {
    pub fn new(seed: u64) -> RandomPlayer {
        RandomPlayer { rng: GameRng::from_seed(seed) }
    }
}

impl Player for RandomPlayer {
    fn choose(&mut self, game: &dyn DynGame, seat: Seat) -> Option<String> {
        let actions = game.legal_actions(seat);
        self.rng.choose(&actions).cloned()
    }
}

/// The player for a level name as used by `computer:LEVEL` seats. Every
/// level is the random player until stronger players land.
pub fn player_for_level(level: &str, seed: u64) -> Result<Box<dyn Player>, String> {
    match level {
        "" | "random" | "level1" | "level2" | "level3" => Ok(Box::new(RandomPlayer::new(seed))),
        other => Err(format!("unknown computer level {other:?} (known: random, level1, level2, level3)")),
    }
}

pub mod golf;
