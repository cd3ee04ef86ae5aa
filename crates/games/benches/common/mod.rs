//! The harness shared by the games' benchmarks: they time what play uses,
//! the referee's [`Game::legal_actions`] and [`Game::apply`], and nothing
//! else.
//!
//! * **Random games**: seeded games of random legal actions from the
//!   start, as the random-games test plays them: games per second, and
//!   microseconds per action (listing the legal actions, choosing one,
//!   applying it), which is what a player waits for on each action and
//!   what the computer players' search repeats at every node.
//! * **Perft**: the generic perft ([`chesskit_core::perft::count`]) of
//!   bench positions, as nanoseconds per leaf: the same two calls, on
//!   copies, over the whole tree of a position.
//!
//! The best of three timed runs counts; run a bench alone for stable
//! numbers. A first command-line argument keeps only the positions whose
//! name contains it.

// Each benchmark is its own crate and uses only some of these helpers.
#![allow(dead_code)]

use std::time::{Duration, Instant};

use chesskit_core::game::Game;
use chesskit_core::options::Options;
use chesskit_core::perft;
use chesskit_core::rng::GameRng;

/// A benchmark position: its name, the game's text position, the depth.
pub type BenchPosition = (&'static str, &'static str, u32);

/// How many random games a bench plays, and the most actions of each: a
/// game that runs longer is cut off there, so that one endless shuffle
/// does not weigh more than the rest.
const RANDOM_GAMES: u64 = 20;
const MOST_ACTIONS: usize = 400;

/// The best of three timed runs.
pub fn best_of_three<T>(mut run: impl FnMut() -> T) -> (T, Duration) {
    let mut best = Duration::MAX;
    let mut result = None;
    for _ in 0..3 {
        let start = Instant::now();
        let value = std::hint::black_box(run());
        best = best.min(start.elapsed());
        result = Some(value);
    }
    (result.expect("three runs"), best)
}

/// Random games of `G` from its start, then the generic perft of each
/// position as `load` reads it; prints both tables.
pub fn measure_play<G: Game>(positions: &[BenchPosition], load: impl Fn(&str) -> G) {
    random_games::<G>();
    perft_table(positions, load);
}

/// [`measure_play`] reading the positions with [`Game::from_position`].
pub fn measure_play_of<G: Game>(positions: &[BenchPosition]) {
    measure_play(positions, |text| G::from_position(text, &Options::new(), 0).expect("a valid bench position"));
}

/// Plays [`RANDOM_GAMES`] seeded random games and prints their speed.
pub fn random_games<G: Game>() {
    let (actions, took) = best_of_three(|| (0..RANDOM_GAMES).map(random_game::<G>).sum::<usize>());
    let seconds = took.as_secs_f64();
    println!(
        "random games: {RANDOM_GAMES} games, {actions} actions, {:.1} games/s, {:.2} us/action (legal_actions + apply)",
        RANDOM_GAMES as f64 / seconds,
        seconds * 1e6 / actions.max(1) as f64
    );
}

/// One random game of seed `seed`: the number of actions applied.
fn random_game<G: Game>(seed: u64) -> usize {
    let mut game = G::new(&Options::new(), seed).expect("a new game");
    let mut rng = GameRng::from_seed(seed);
    for played in 0..MOST_ACTIONS {
        let Some(&seat) = game.to_act().seats().first() else { return played };
        let actions = game.legal_actions(seat);
        let Some(action) = rng.choose(&actions) else { return played };
        game.apply(seat, action).expect("a legal action is accepted");
    }
    MOST_ACTIONS
}

/// The generic perft of each position (or those whose name contains the
/// first command-line argument): leaves and nanoseconds per leaf.
pub fn perft_table<G: Game>(positions: &[BenchPosition], load: impl Fn(&str) -> G) {
    println!("{:<14} {:>5} {:>10} {:>10} {:>12}", "position", "depth", "leaves", "ms", "ns/leaf");
    let filter = std::env::args().nth(1).filter(|a| !a.starts_with('-'));
    for &(name, text, depth) in positions {
        if filter.as_ref().is_some_and(|f| !name.contains(f.as_str())) {
            continue;
        }
        let game = load(text);
        let (leaves, took) = best_of_three(|| perft::count(&game, depth));
        let per_leaf = took.as_nanos() as f64 / leaves.max(1) as f64;
        println!("{name:<14} {depth:>5} {leaves:>10} {:>10.1} {per_leaf:>12.1}", took.as_secs_f64() * 1e3);
    }
}
