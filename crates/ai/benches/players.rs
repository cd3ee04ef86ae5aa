//! How fast the computer players think, per game: random playouts per
//! second (a whole game of random actions, what flat Monte Carlo spends its
//! time on) and search nodes per second (the level 4 to 8 player, on a
//! fixed node budget from the first position where the first seat must
//! choose among several actions). Every registered game, one line each.
//!
//! `cargo bench -p chesskit-ai --bench players`. Environment:
//! `PLAYERS_BENCH_PLAYOUTS` (playouts per game, default 20),
//! `PLAYERS_BENCH_NODES` (search nodes per game, default 20000),
//! `PLAYERS_BENCH_GAMES` (a comma-separated list of the games to measure,
//! default all), so that a profile or an instruction count covers one game.

use std::time::Instant;

use chesskit_ai::search::{Budget, SearchPlayer};
use chesskit_ai::{Player, RandomPlayer};
use chesskit_core::{DynGame, Options, ToAct};

fn env<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// Random games from the start to the end (or 1000 actions): games and
/// actions per second.
fn playouts(variant: &str, games: u64) -> (f64, f64) {
    let started = Instant::now();
    let mut actions = 0u64;
    for seed in 0..games {
        let mut game = chesskit_games::create(variant, Options::new(), seed, None).expect("default options");
        let mut player = RandomPlayer::new(seed);
        for _ in 0..1000 {
            let ToAct::Seats(seats) = game.to_act() else { break };
            let Some(action) = player.choose(game.as_ref(), seats[0]) else { break };
            game.apply(seats[0], &action).expect("a legal action applies");
            actions += 1;
        }
    }
    let seconds = started.elapsed().as_secs_f64();
    (games as f64 / seconds, actions as f64 / seconds)
}

/// The first position, along a random game, where the seat to act has a
/// real choice: more than four actions, or, in a game that never offers
/// that many (a solitaire's few cards), the first with more than one.
fn a_decision(variant: &str) -> (Box<dyn DynGame>, usize) {
    let mut game = chesskit_games::create(variant, Options::new(), 1, None).expect("default options");
    let mut player = RandomPlayer::new(1);
    let mut first_choice = None;
    loop {
        let ToAct::Seats(seats) = game.to_act() else {
            return first_choice.unwrap_or_else(|| panic!("{variant} ended before a decision"));
        };
        let choices = game.legal_actions(seats[0]).len();
        if choices > 4 {
            return (game, seats[0]);
        }
        if choices > 1 && first_choice.is_none() {
            first_choice = Some((game.clone_box(), seats[0]));
        }
        let action = player.choose(game.as_ref(), seats[0]).expect("an action");
        game.apply(seats[0], &action).expect("a legal action applies");
    }
}

/// Search nodes per second on a fixed budget, one world.
fn search_speed(variant: &str, nodes: u64) -> f64 {
    let (game, seat) = a_decision(variant);
    let mut player = SearchPlayer::new(1, Budget::nodes(nodes, 1));
    let started = Instant::now();
    player.choose(game.as_ref(), seat);
    nodes as f64 / started.elapsed().as_secs_f64()
}

/// Whether `variant` is among the games `PLAYERS_BENCH_GAMES` names (all
/// when it is unset or empty).
fn chosen(variant: &str) -> bool {
    let wanted = std::env::var("PLAYERS_BENCH_GAMES").unwrap_or_default();
    wanted.trim().is_empty() || wanted.split(',').any(|name| name.trim() == variant)
}

fn main() {
    let games = env("PLAYERS_BENCH_PLAYOUTS", 20u64);
    let nodes = env("PLAYERS_BENCH_NODES", 20_000u64);
    println!("{:<18} {:>12} {:>14} {:>14}", "game", "playouts/s", "actions/s", "search nodes/s");
    for variant in chesskit_games::names().into_iter().filter(|variant| chosen(variant)) {
        let (per_second, actions) = playouts(variant, games);
        let search = search_speed(variant, nodes);
        println!("{variant:<18} {per_second:>12.1} {actions:>14.0} {search:>14.0}");
    }
}
