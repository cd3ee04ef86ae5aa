//! A computer player never reads what its seat may not see: in games that
//! hide something, its choice is the same in any game that differs from the
//! real one only in what is hidden from its seat (a world drawn by
//! `sample_hidden`, which keeps everything the seat knows). Checked for
//! every level, along random games of every game with hidden information.

use chesskit_ai::predictor::Predictor;
use chesskit_ai::search::{Budget, SearchPlayer, Techniques};
use chesskit_ai::{player_for_level, Player};
use chesskit_core::{DynGame, GameRng, Options, ToAct};

/// Players whose choices depend only on their seed and what they are
/// shown: every level, the search on a node budget so that the machine's
/// speed cannot change its choice, alone and as Telepathy's predictor.
fn players(seed: u64) -> Vec<(String, Box<dyn Player>)> {
    let mut players: Vec<(String, Box<dyn Player>)> = ["level1", "level2", "level3"]
        .into_iter()
        .map(|level| (level.to_string(), player_for_level(level, seed).unwrap()))
        .collect();
    players.push(("search".into(), Box::new(SearchPlayer::new(seed, Budget::nodes(400, 3)))));
    let search = Box::new(SearchPlayer::new(seed, Budget::nodes(400, 3)));
    players.push(("predictor".into(), Box::new(Predictor::new(search))));
    players
}

fn check_variant(variant: &str, seed: u64) {
    let mut checked = 0;
    along_a_random_game(variant, seed, 60, |step, game, seat| {
        if step % 7 == 3 {
            let other: Box<dyn DynGame> = game.sample_hidden(seat, 1000 + step);
            for ((name, mut mine), (_, mut theirs)) in players(step).into_iter().zip(players(step)) {
                let real = mine.choose(game, seat);
                let changed = theirs.choose(other.as_ref(), seat);
                assert_eq!(real, changed, "{variant} step {step}: {name} chose by something seat {seat} may not see");
            }
            checked += 1;
        }
    });
    assert!(checked > 0, "{variant}: no decision was checked");
}

/// Plays `steps` random actions of `variant` from `seed`, showing `decide`
/// the step, the game and the seat to act before each.
fn along_a_random_game(variant: &str, seed: u64, steps: u64, mut decide: impl FnMut(u64, &dyn DynGame, usize)) {
    let mut game = chesskit_games::create(variant, Options::new(), seed, None).unwrap();
    let mut rng = GameRng::from_seed(seed);
    for step in 0..steps {
        let ToAct::Seats(seats) = game.to_act() else { break };
        let seat = seats[0];
        decide(step, game.as_ref(), seat);
        let actions = game.legal_actions(seat);
        let action = rng.choose(&actions).unwrap().clone();
        game.apply(seat, &action).unwrap();
    }
}

#[test]
fn every_player_chooses_alike_in_worlds_that_differ_only_in_secrets() {
    for info in chesskit_games::variants() {
        if info.hidden_information {
            check_variant(info.name, 5);
        }
    }
}

/// A player that keeps its transposition table from one decision to the
/// next (`Techniques::kept_table`) carries into each decision only what it
/// found in worlds drawn from what its seat saw: shown the real game at
/// every decision of one seat, or each time a world that differs from it
/// only in what that seat may not see, it makes the same choices.
#[test]
fn a_table_kept_between_decisions_carries_nothing_the_seat_may_not_see() {
    for info in chesskit_games::variants() {
        if info.hidden_information {
            check_decisions_with_a_kept_table(info.name, 5);
        }
    }
}

fn check_decisions_with_a_kept_table(variant: &str, seed: u64) {
    let keeping = || {
        let techniques = Techniques { kept_table: true, ..Techniques::default() };
        SearchPlayer::new(seed, Budget::nodes(2_000, 3)).with_techniques(techniques)
    };
    let (mut mine, mut theirs) = (keeping(), keeping());
    let mut decisions = 0;
    along_a_random_game(variant, seed, 40, |step, game, seat| {
        if seat == 0 {
            let other: Box<dyn DynGame> = game.sample_hidden(seat, 1000 + step);
            let real = mine.choose(game, seat);
            let changed = theirs.choose(other.as_ref(), seat);
            assert_eq!(real, changed, "{variant} step {step}: the kept table told seat 0 what it may not see");
            decisions += 1;
        }
    });
    assert!(decisions >= 2, "{variant}: {decisions} decision(s) of seat 0, no table kept between two");
}
