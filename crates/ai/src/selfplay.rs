//! Self-play statistics for game designers: play many games between
//! computer players and count who wins, by how much, and how long games
//! last, so a rule change can be judged by how it moves the balance.
//!
//! Results are kept per player, not per seat: the players take turns in
//! the seats (game `i` seats player `(seat + i) mod n`), so no player keeps
//! the first move, and the first seat's own score is reported apart as the
//! first player's advantage.

use serde::Serialize;

use chesskit_core::session::sides;
use chesskit_core::{DynGame, Options, Seat, SeatInfo, ToAct};

use crate::search::{Budget, Clock, SearchPlayer, Techniques};
use crate::{player_on_clock, search_budget, with_game_hooks, Player, RandomPlayer};

/// What to play.
#[derive(Clone, Debug)]
pub struct SelfPlay {
    pub variant: String,
    pub options: Options,
    /// The players by level (see [`crate::LEVELS`]), a search level
    /// perhaps changed as [`player_from_spec`] reads: one per seat, or one
    /// per side in a game of two teams.
    pub players: Vec<String>,
    pub games: u64,
    pub seed: u64,
    /// Games still running after this many actions are stopped and counted
    /// as unfinished (and as draws in the scores).
    pub max_actions: usize,
    /// Actions played at random before the players take over, the same
    /// for each round of games that seats every player in every seat once:
    /// players on a node budget play the same game every time from the
    /// same start, so only different starts make the games a sample.
    pub random_opening: usize,
}

/// One player's results.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct PlayerStats {
    pub name: String,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    /// Wins plus half the draws, per game: from 0 to 1.
    pub score: f64,
    /// The half-width of the 95% confidence interval of `score`.
    pub score_ci95: f64,
    /// The mean of the game's own points (Golf, the solitaires), when it keeps them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mean_points: Option<f64>,
    /// Per-game results (1, 0.5, 0) and points, for the statistics.
    #[serde(skip)]
    results: Vec<f64>,
    #[serde(skip)]
    points: Vec<f64>,
}

/// The results of a self-play run.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Stats {
    pub variant: String,
    pub games: u64,
    pub players: Vec<PlayerStats>,
    /// The first seat's score, whoever sat there: above 0.5, moving
    /// first is an advantage.
    pub first_player_score: f64,
    pub first_player_ci95: f64,
    /// Mean number of actions per finished game.
    pub mean_actions: f64,
    pub unfinished: u64,
    /// How games ended: reason and count, most common first.
    pub reasons: Vec<(String, u64)>,
    #[serde(skip)]
    first_results: Vec<f64>,
    #[serde(skip)]
    total_actions: u64,
}

/// A game's result for a player: won, drawn (or unfinished), lost.
const WIN: f64 = 1.0;
const DRAW: f64 = 0.5;
const LOSS: f64 = 0.0;

/// How the players fill the seats: for each player, its seats in game 0.
fn seating(seats: &[SeatInfo], players: usize, variant: &str) -> Result<Vec<Vec<Seat>>, String> {
    if players == seats.len() {
        return Ok((0..players).map(|s| vec![s]).collect());
    }
    match sides(seats) {
        Some(sides) if players == 2 && seats.iter().any(|s| s.team.is_some()) => Ok(sides.to_vec()),
        _ => Err(format!(
            "{variant} has {} seats but {players} players were given (one per seat{})",
            seats.len(),
            if sides(seats).is_some() && seats.iter().any(|s| s.team.is_some()) { ", or one per team" } else { "" }
        )),
    }
}

/// The seats of player `p` in game `index`: the seating turned by one
/// place per game.
fn seats_of(seating: &[Vec<Seat>], p: usize, index: u64) -> &[Seat] {
    &seating[(p + index as usize) % seating.len()]
}

/// One finished (or stopped) game: each player's result and points, the
/// first seat's result, the length and the ending.
struct GameResult {
    results: Vec<f64>,
    points: Vec<Option<f64>>,
    first_seat: f64,
    actions: Option<usize>,
    reason: Option<String>,
}

fn play_one(config: &SelfPlay, seating: &[Vec<Seat>], index: u64) -> Result<GameResult, String> {
    let seed = config.seed.wrapping_add(index);
    let mut game = chesskit_games::create(&config.variant, config.options.clone(), seed, None).map_err(|e| e.0)?;
    let seat_count = game.seats().len();
    let mut owner = vec![0; seat_count];
    for p in 0..config.players.len() {
        for &seat in seats_of(seating, p, index) {
            owner[seat] = p;
        }
    }
    let mut players = config
        .players
        .iter()
        .enumerate()
        // CPU time, not wall time: a busy machine must not weaken the players.
        .map(|(i, spec)| player_from_spec(spec, seed.wrapping_mul(31).wrapping_add(i as u64)))
        .collect::<Result<Vec<_>, _>>()?;
    play_random_opening(game.as_mut(), config, config.seed.wrapping_add(index / seating.len() as u64));
    for actions in 0..config.max_actions {
        match game.to_act() {
            ToAct::Over(outcome) => {
                let result_of = |seats: &[Seat]| {
                    if seats.iter().any(|s| outcome.winners.contains(s)) {
                        WIN
                    } else if outcome.winners.is_empty() {
                        DRAW
                    } else {
                        LOSS
                    }
                };
                let points_of = |seats: &[Seat]| {
                    let scores = outcome.scores.as_ref()?;
                    Some(seats.iter().filter_map(|&s| scores.get(s)).sum::<i64>() as f64 / seats.len() as f64)
                };
                let players = 0..config.players.len();
                return Ok(GameResult {
                    results: players.clone().map(|p| result_of(seats_of(seating, p, index))).collect(),
                    points: players.map(|p| points_of(seats_of(seating, p, index))).collect(),
                    first_seat: result_of(&[0]),
                    actions: Some(actions),
                    reason: Some(outcome.reason),
                });
            }
            ToAct::Seats(acting) => {
                let seat = acting[0];
                let player = &mut players[owner[seat]];
                let action = player.choose(game.as_ref(), seat).ok_or("a player found no action")?;
                game.apply(seat, &action).map_err(|e| format!("a computer player's action was refused: {e}"))?;
            }
        }
    }
    Ok(GameResult {
        results: vec![DRAW; config.players.len()],
        points: vec![None; config.players.len()],
        first_seat: DRAW,
        actions: None,
        reason: None,
    })
}

/// The first [`SelfPlay::random_opening`] actions of a game, at random
/// from `seed`, stopping early should the game end.
fn play_random_opening(game: &mut dyn DynGame, config: &SelfPlay, seed: u64) {
    let mut random = RandomPlayer::new(seed);
    for _ in 0..config.random_opening {
        let ToAct::Seats(acting) = game.to_act() else { return };
        let Some(action) = random.choose(game, acting[0]) else { return };
        if game.apply(acting[0], &action).is_err() {
            return;
        }
    }
}

/// The player a self-play spec names: a level (see [`crate::LEVELS`]),
/// its search thinking on CPU time (a busy machine must not weaken the
/// players), or a search level changed by what follows it, each change
/// after a dash: `no-TECHNIQUE` plays without one engine technique
/// ([`Techniques::NAMES`], or `no-all` for none of them), `with-TECHNIQUE`
/// with one the level leaves out ([`Techniques::KEPT`]), `nodesN`
/// searches N nodes a decision instead of the level's time (the same
/// choices on any machine), and `worldsN` draws N worlds instead of the
/// level's number where something is hidden. `level6-no-lmr` against `level6` measures
/// what late-move reductions win; `level6-nodes20000-with-killers` against
/// `level6-nodes20000` what killer moves would win at equal nodes.
pub fn player_from_spec(spec: &str, seed: u64) -> Result<Box<dyn Player>, String> {
    let Some((level, changes)) = spec.split_once('-') else { return player_on_clock(spec, seed, Clock::ThreadCpu) };
    let number = level.strip_prefix("level").and_then(|n| n.parse::<u8>().ok());
    let Some((number, budget)) = number.and_then(|n| Some((n, search_budget(n)?))) else {
        return Err(format!("{spec:?}: only a search level (level4 to level8) takes changes after a dash"));
    };
    let mut budget = budget.on(Clock::ThreadCpu);
    let mut techniques = Techniques::default();
    let mut words = changes.split('-');
    while let Some(word) = words.next() {
        if word == "no" || word == "with" {
            let name = words.next().ok_or_else(|| format!("{spec:?}: \"{word}\" names no technique"))?;
            techniques = techniques.switched(name, word == "with").map_err(|e| format!("{spec:?}: {e}"))?;
        } else if let Some(nodes) = word.strip_prefix("nodes").and_then(|n| n.parse::<u64>().ok()).filter(|&n| n > 0) {
            budget = Budget::nodes(nodes, budget.worlds);
        } else if let Some(worlds) =
            word.strip_prefix("worlds").and_then(|n| n.parse::<usize>().ok()).filter(|&n| n > 0)
        {
            budget.worlds = worlds;
        } else {
            return Err(format!(
                "{spec:?}: unknown change {word:?} (known: no-TECHNIQUE, with-TECHNIQUE, nodesN, worldsN)"
            ));
        }
    }
    let search = SearchPlayer::new(seed, budget).with_techniques(techniques);
    Ok(with_game_hooks(number, Box::new(search), seed))
}

impl Stats {
    fn add(&mut self, game: GameResult) {
        self.games += 1;
        for (p, (result, points)) in game.results.iter().zip(&game.points).enumerate() {
            let player = &mut self.players[p];
            if *result == WIN {
                player.wins += 1;
            } else if *result == LOSS {
                player.losses += 1;
            } else {
                player.draws += 1;
            }
            player.results.push(*result);
            if let Some(points) = points {
                player.points.push(*points);
            }
        }
        self.first_results.push(game.first_seat);
        match (game.actions, game.reason) {
            (Some(actions), Some(reason)) => {
                self.total_actions += actions as u64;
                match self.reasons.iter_mut().find(|(r, _)| *r == reason) {
                    Some((_, n)) => *n += 1,
                    None => self.reasons.push((reason, 1)),
                }
            }
            _ => self.unfinished += 1,
        }
    }

    /// The means and intervals, once every game is in.
    fn finish(&mut self) {
        for player in &mut self.players {
            (player.score, player.score_ci95) = mean_and_ci95(&player.results);
            player.mean_points = (!player.points.is_empty()).then(|| mean_and_ci95(&player.points).0);
        }
        (self.first_player_score, self.first_player_ci95) = mean_and_ci95(&self.first_results);
        let finished = self.games - self.unfinished;
        self.mean_actions = if finished == 0 { 0.0 } else { self.total_actions as f64 / finished as f64 };
        self.reasons.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    }
}

/// The runs of one experiment taken together (several values of an
/// option, each played as its own run): the players' games pooled.
pub fn combine(runs: &[Stats]) -> Stats {
    let Some(first) = runs.first() else { return Stats::default() };
    let mut total = Stats {
        variant: first.variant.clone(),
        players: first.players.iter().map(|p| PlayerStats { name: p.name.clone(), ..PlayerStats::default() }).collect(),
        ..Stats::default()
    };
    for run in runs {
        total.games += run.games;
        total.unfinished += run.unfinished;
        total.total_actions += run.total_actions;
        total.first_results.extend(&run.first_results);
        for (mine, theirs) in total.players.iter_mut().zip(&run.players) {
            mine.wins += theirs.wins;
            mine.draws += theirs.draws;
            mine.losses += theirs.losses;
            mine.results.extend(&theirs.results);
            mine.points.extend(&theirs.points);
        }
        for (reason, n) in &run.reasons {
            match total.reasons.iter_mut().find(|(r, _)| r == reason) {
                Some((_, m)) => *m += n,
                None => total.reasons.push((reason.clone(), *n)),
            }
        }
    }
    total.finish();
    total
}

/// The mean of `values` and the half-width of its 95% confidence interval
/// (normal approximation: 1.96 standard errors).
pub fn mean_and_ci95(values: &[f64]) -> (f64, f64) {
    if values.is_empty() {
        return (0.0, 0.0);
    }
    let n = values.len() as f64;
    let mean = values.iter().sum::<f64>() / n;
    if values.len() < 2 {
        return (mean, 0.0);
    }
    let variance = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0);
    (mean, 1.96 * (variance / n).sqrt())
}

/// Play every game on all cores; `progress` is called after each game.
/// Games are numbered, seeded and seated by their number, so the result
/// does not depend on the number of threads.
pub fn run(config: &SelfPlay, progress: &(dyn Fn() + Sync)) -> Result<Stats, String> {
    let sample = chesskit_games::create(&config.variant, config.options.clone(), config.seed, None).map_err(|e| e.0)?;
    let seating = seating(&sample.seats(), config.players.len(), &config.variant)?;
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get()) as u64;
    let results: Vec<Result<Vec<(u64, GameResult)>, String>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let seating = &seating;
                scope.spawn(move || {
                    let mut done = Vec::new();
                    let mut index = t;
                    while index < config.games {
                        done.push((index, play_one(config, seating, index)?));
                        progress();
                        index += threads;
                    }
                    Ok(done)
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap_or_else(|_| Err("a self-play thread panicked".into()))).collect()
    });
    let mut games = Vec::new();
    for result in results {
        games.extend(result?);
    }
    games.sort_by_key(|(index, _)| *index);
    let mut stats = Stats {
        variant: config.variant.clone(),
        players: config
            .players
            .iter()
            .map(|name| PlayerStats { name: name.clone(), ..PlayerStats::default() })
            .collect(),
        ..Stats::default()
    };
    for (_, game) in games {
        stats.add(game);
    }
    stats.finish();
    Ok(stats)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(variant: &str, players: &[&str], games: u64) -> SelfPlay {
        SelfPlay {
            variant: variant.into(),
            options: Options::new(),
            players: players.iter().map(|p| p.to_string()).collect(),
            games,
            seed: 1,
            max_actions: 400,
            random_opening: 0,
        }
    }

    #[test]
    fn counts_every_game_once_per_player() {
        let stats = run(&config("chess", &["random", "random"], 6), &|| {}).unwrap();
        assert_eq!(stats.games, 6);
        for player in &stats.players {
            assert_eq!(player.wins + player.draws + player.losses, 6);
        }
        assert_eq!(stats.players[0].wins, stats.players[1].losses, "one player's win is the other's loss");
        let finished: u64 = stats.reasons.iter().map(|(_, n)| n).sum();
        assert_eq!(finished + stats.unfinished, 6);
    }

    #[test]
    fn players_take_turns_in_the_first_seat() {
        // Greedy against random: whoever sits first, the greedy player wins
        // nearly always, so its score is far above the first seat's.
        let stats = run(&config("chess", &["level2", "random"], 8), &|| {}).unwrap();
        assert!(stats.players[0].score > 0.8, "{stats:?}");
        assert!((0.3..=0.7).contains(&stats.first_player_score), "{stats:?}");
    }

    #[test]
    fn the_result_does_not_depend_on_the_threads() {
        let a = run(&config("chess", &["random", "level2"], 4), &|| {}).unwrap();
        let b = run(&config("chess", &["random", "level2"], 4), &|| {}).unwrap();
        assert_eq!(a, b);
    }

    #[test]
    fn a_player_spec_switches_a_named_technique_off_and_refuses_what_it_does_not_know() {
        for good in [
            "level2",
            "level6-no-lmr",
            "level5-nodes2000-no-aspiration-with-killers",
            "level4-no-all",
            "level4-with-all",
            "level8-nodes100000-worlds3-no-alike",
        ] {
            assert!(player_from_spec(good, 0).is_ok(), "{good}");
        }
        let refused = [
            ("level6-no-bogus", "unknown search technique \"bogus\""),
            ("level6-no", "names no technique"),
            ("level6-with", "\"with\" names no technique"),
            ("level2-no-lmr", "only a search level"),
            ("level6-nodes0", "unknown change \"nodes0\""),
            ("level8-worlds0", "unknown change \"worlds0\""),
            ("level6-fast", "unknown change \"fast\""),
            // Removed: it won no games (docs/dev/engine-speed.md).
            ("level6-with-pvs", "unknown search technique \"pvs\""),
        ];
        for (bad, says) in refused {
            let error = player_from_spec(bad, 0).err().unwrap_or_default();
            assert!(error.contains(says), "{bad}: {error}");
        }
        let error = run(&config("chess", &["level4-no-bogus", "random"], 1), &|| {}).unwrap_err();
        assert!(error.contains("unknown search technique"), "{error}");
    }

    #[test]
    fn a_player_on_a_node_budget_plays_the_same_games_every_time() {
        let mut short = config("chess", &["level4-nodes300-no-all", "level4-nodes300"], 2);
        short.max_actions = 12;
        assert_eq!(run(&short, &|| {}).unwrap(), run(&short, &|| {}).unwrap());
    }

    #[test]
    fn a_random_opening_is_played_once_with_each_player_in_each_seat() {
        // On a node budget the players play one game per seating; random
        // openings make the games differ, each opening seen from both seats.
        let mut openings = config("chess", &["level4-nodes200", "level4-nodes200-no-all"], 6);
        openings.max_actions = 6;
        openings.random_opening = 4;
        let stats = run(&openings, &|| {}).unwrap();
        assert_eq!(stats.games, 6);
        let played = |random_opening, index: u64| {
            let config = SelfPlay { random_opening, ..openings.clone() };
            let mut game = chesskit_games::create("chess", Options::new(), 0, None).unwrap();
            play_random_opening(game.as_mut(), &config, config.seed + index / 2);
            game.position()
        };
        assert_eq!(played(4, 0), played(4, 1), "a pair of games shares its opening");
        assert_ne!(played(4, 0), played(4, 2), "the next pair has another");
        assert_eq!(played(0, 0), played(0, 2), "without an opening every game starts alike");
    }

    #[test]
    fn a_wrong_number_of_players_is_an_error() {
        let error = run(&config("chess", &["random"], 1), &|| {}).unwrap_err();
        assert!(error.contains("2 seats but 1 players"), "{error}");
    }

    #[test]
    fn the_confidence_interval_narrows_with_more_games() {
        let few = mean_and_ci95(&[1.0, 0.0, 1.0, 0.0]);
        let many = mean_and_ci95(&[1.0, 0.0].repeat(50));
        assert_eq!(few.0, 0.5);
        assert!(many.1 < few.1 && many.1 > 0.0);
        assert_eq!(mean_and_ci95(&[1.0; 10]), (1.0, 0.0));
    }
}
