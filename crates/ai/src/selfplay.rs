//! Self-play statistics for game designers: play many games between
//! computer players and count who wins, why, and how long games last, so a
//! rule change can be judged by how it moves the balance.

use std::collections::BTreeMap;

use serde::Serialize;

use chesskit_core::{Options, ToAct};

use crate::player_for_level;

/// What to play.
#[derive(Clone, Debug)]
pub struct SelfPlay {
    pub variant: String,
    pub options: Options,
    /// One level per seat (see [`crate::LEVELS`]).
    pub levels: Vec<String>,
    pub games: u64,
    pub seed: u64,
    /// Games still running after this many actions are stopped and counted as unfinished.
    pub max_actions: usize,
}

/// The results of a self-play run.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Stats {
    pub games: u64,
    /// Wins per seat (a team win counts for each of its seats).
    pub wins: Vec<u64>,
    pub draws: u64,
    pub unfinished: u64,
    /// How games ended: reason -> count.
    pub reasons: BTreeMap<String, u64>,
    /// Mean number of actions per finished game.
    pub mean_actions: f64,
    total_actions: u64,
    /// Mean score per seat over the finished games that keep score
    /// (solitaires, Chess Golf); empty when none do.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub mean_scores: Vec<f64>,
    score_totals: Vec<i64>,
    scored_games: u64,
}

impl Stats {
    fn merge(&mut self, other: Stats) {
        self.games += other.games;
        if self.wins.len() < other.wins.len() {
            self.wins.resize(other.wins.len(), 0);
        }
        for (i, w) in other.wins.iter().enumerate() {
            self.wins[i] += w;
        }
        self.draws += other.draws;
        self.unfinished += other.unfinished;
        for (reason, n) in other.reasons {
            *self.reasons.entry(reason).or_default() += n;
        }
        self.total_actions += other.total_actions;
        if self.score_totals.len() < other.score_totals.len() {
            self.score_totals.resize(other.score_totals.len(), 0);
        }
        for (i, s) in other.score_totals.iter().enumerate() {
            self.score_totals[i] += s;
        }
        self.scored_games += other.scored_games;
        self.mean_scores = match self.scored_games {
            0 => Vec::new(),
            n => self.score_totals.iter().map(|&t| t as f64 / n as f64).collect(),
        };
        let finished = self.games - self.unfinished;
        self.mean_actions = if finished == 0 { 0.0 } else { self.total_actions as f64 / finished as f64 };
    }
}

/// Play game number `index` and add it to `stats`.
fn play_one(config: &SelfPlay, index: u64, stats: &mut Stats) -> Result<(), String> {
    let seed = config.seed.wrapping_add(index);
    let mut game = chesskit_games::create(&config.variant, config.options.clone(), seed, None).map_err(|e| e.0)?;
    let seats = game.seats().len();
    if config.levels.len() != seats {
        return Err(format!("{} has {seats} seats but {} players were given", config.variant, config.levels.len()));
    }
    let mut players = config
        .levels
        .iter()
        .enumerate()
        .map(|(i, level)| player_for_level(level, seed.wrapping_mul(31).wrapping_add(i as u64)))
        .collect::<Result<Vec<_>, _>>()?;
    stats.games += 1;
    stats.wins.resize(seats, 0);
    for actions in 0..config.max_actions {
        match game.to_act() {
            ToAct::Over(outcome) => {
                if outcome.winners.is_empty() {
                    stats.draws += 1;
                }
                for &w in &outcome.winners {
                    stats.wins[w] += 1;
                }
                if let Some(scores) = &outcome.scores {
                    stats.score_totals.resize(scores.len().max(stats.score_totals.len()), 0);
                    for (i, s) in scores.iter().enumerate() {
                        stats.score_totals[i] += s;
                    }
                    stats.scored_games += 1;
                }
                *stats.reasons.entry(outcome.reason).or_default() += 1;
                stats.total_actions += actions as u64;
                return Ok(());
            }
            ToAct::Seats(acting) => {
                let seat = acting[0];
                let action = players[seat].choose(game.as_ref(), seat).ok_or("a player found no action")?;
                game.apply(seat, &action).map_err(|e| format!("a computer player's action was refused: {e}"))?;
            }
        }
    }
    stats.unfinished += 1;
    Ok(())
}

/// Play every game on all cores; `progress` is called after each game.
pub fn run(config: &SelfPlay, progress: &(dyn Fn() + Sync)) -> Result<Stats, String> {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get()) as u64;
    let results: Vec<Result<Stats, String>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                scope.spawn(move || {
                    let mut stats = Stats::default();
                    let mut index = t;
                    while index < config.games {
                        play_one(config, index, &mut stats)?;
                        progress();
                        index += threads;
                    }
                    Ok(stats)
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap_or_else(|_| Err("a self-play thread panicked".into()))).collect()
    });
    let mut total = Stats::default();
    for result in results {
        total.merge(result?);
    }
    Ok(total)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_every_game_once() {
        let config = SelfPlay {
            variant: "chess".into(),
            options: Options::new(),
            levels: vec!["random".into(), "random".into()],
            games: 6,
            seed: 1,
            max_actions: 40,
        };
        let stats = run(&config, &|| {}).unwrap();
        assert_eq!(stats.games, 6);
        let finished: u64 = stats.reasons.values().sum();
        assert_eq!(finished + stats.unfinished, 6);
        assert_eq!(stats.wins.iter().sum::<u64>() + stats.draws, finished);
    }

    #[test]
    fn a_wrong_number_of_players_is_an_error() {
        let config = SelfPlay {
            variant: "chess".into(),
            options: Options::new(),
            levels: vec!["random".into()],
            games: 1,
            seed: 0,
            max_actions: 10,
        };
        assert!(run(&config, &|| {}).unwrap_err().contains("2 seats"));
    }
}
