//! chesskit-ai: computer players that use only the game's public interface
//! (the [`DynGame`] action text and views), so every registered game gets
//! them for free, and self-play statistics built on them.
//!
//! * level 1, [`RandomPlayer`]: uniformly random legal actions (but for a
//!   game's expert advice, [`expert::Expert`], as every level takes).
//! * level 2, [`GreedyPlayer`]: tries each action once and keeps the best by
//!   a generic evaluation (the outcome, else the material on the board as
//!   the seat's view shows it).
//! * level 3, [`MonteCarloPlayer`]: flat Monte Carlo search over the legal
//!   actions, with the hidden information re-drawn for every simulation
//!   (`sample_hidden`), so it never peeks at secrets it may not know.
//! * levels 4 to 8, [`search::SearchPlayer`]: alpha-beta with iterative
//!   deepening over the game's own actions, in worlds drawn from what the
//!   seat knows, with more time and more worlds at each level.

use chesskit_core::game::{Seat, ToAct, Viewer};
use chesskit_core::rng::GameRng;
use chesskit_core::view::View;
use chesskit_core::DynGame;

pub mod expert;
pub mod predictor;
pub mod search;
pub mod selfplay;
pub mod solvers;

// The solvers of single games: the only modules here that name a game.
pub mod cooperative2;
pub mod golf;
pub mod neighbour;
pub mod parade;

pub use solvers::{analyse, has_analysis, Analysis};

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

/// The score of a finished game for `seat`, or of an unfinished one by
/// the game's own estimate ([`DynGame::heuristic`]), else by material. A
/// game that keeps score also counts its score, the way the game declares
/// ([`DynGame::score_order`]: higher is better, or lower as in Chess
/// Golf), so that a solitaire is played for points, not only to finish.
/// The estimate may read the whole truth: call it on a world drawn by
/// [`DynGame::sample_hidden`], as the players here do.
pub fn evaluate(game: &dyn DynGame, seat: Seat) -> f64 {
    match game.to_act() {
        ToAct::Over(outcome) => {
            // A solitaire that ends without a win is lost, not drawn.
            let base = if outcome.winners.contains(&seat) {
                WIN
            } else if outcome.winners.is_empty() && game.seats().len() > 1 {
                0.0
            } else {
                -WIN
            };
            let score = outcome.scores.as_ref().and_then(|s| s.get(seat)).map_or(0.0, |&s| s as f64);
            base + game.score_order().value(score)
        }
        ToAct::Seats(_) => {
            game.heuristic(seat).unwrap_or_else(|| material_balance(&game.view(Viewer::Seat(seat)), seat))
        }
    }
}

const WIN: f64 = 1000.0;

/// Material on the board from `seat`'s side: its colour's pieces minus the
/// others', with the usual values (a hidden piece counts as a minor piece).
/// Games without coloured seats score 0 here and are judged by outcomes.
pub fn material_balance(view: &View, seat: Seat) -> f64 {
    let Some(colour) = view.seats.get(seat).and_then(|s| s.colour.clone()) else { return 0.0 };
    let Some(board) = &view.board else { return 0.0 };
    board
        .squares
        .iter()
        .filter_map(|sq| sq.piece.as_ref())
        .map(|piece| {
            let value = match piece.role.as_deref() {
                Some("pawn") => 1.0,
                Some("knight") | Some("bishop") | None => 3.0,
                Some("rook") => 5.0,
                Some("queen") => 9.0,
                _ => 0.0,
            };
            if piece.colour == colour {
                value
            } else {
                -value
            }
        })
        .sum()
}

/// Tries every legal action once in a game re-drawn from what the seat
/// knows, and keeps the best by [`evaluate`]; ties are broken at random.
pub struct GreedyPlayer {
    rng: GameRng,
}

impl GreedyPlayer {
    pub fn new(seed: u64) -> GreedyPlayer {
        GreedyPlayer { rng: GameRng::from_seed(seed) }
    }
}

impl Player for GreedyPlayer {
    fn choose(&mut self, game: &dyn DynGame, seat: Seat) -> Option<String> {
        let actions = game.legal_actions(seat);
        let world = game.sample_hidden(seat, self.rng.next_u64());
        let mut best: Vec<&String> = Vec::new();
        let mut best_score = f64::NEG_INFINITY;
        for action in &actions {
            let mut next = world.clone_box();
            let score = match next.apply(seat, action) {
                Ok(_) => evaluate(next.as_ref(), seat),
                Err(_) => continue,
            };
            if score > best_score {
                best_score = score;
                best.clear();
            }
            if score == best_score {
                best.push(action);
            }
        }
        self.rng.choose(&best).map(|a| (*a).clone()).or_else(|| actions.first().cloned())
    }
}

/// Flat Monte Carlo: each simulation re-draws the hidden information,
/// plays one candidate action, then random actions for a few plies, and
/// scores the result; the action with the best mean wins.
pub struct MonteCarloPlayer {
    rng: GameRng,
    simulations: usize,
    depth: usize,
}

impl MonteCarloPlayer {
    pub fn new(seed: u64, simulations: usize, depth: usize) -> MonteCarloPlayer {
        MonteCarloPlayer { rng: GameRng::from_seed(seed), simulations, depth }
    }

    fn rollout(&mut self, mut game: Box<dyn DynGame>, seat: Seat) -> f64 {
        for _ in 0..self.depth {
            let to_act = game.to_act();
            let Some(&actor) = self.rng.choose(to_act.seats()) else { break };
            let actions = game.legal_actions(actor);
            let Some(action) = self.rng.choose(&actions).cloned() else { break };
            if game.apply(actor, &action).is_err() {
                break;
            }
        }
        evaluate(game.as_ref(), seat)
    }
}

impl Player for MonteCarloPlayer {
    fn choose(&mut self, game: &dyn DynGame, seat: Seat) -> Option<String> {
        let actions = game.legal_actions(seat);
        if actions.len() <= 1 {
            return actions.into_iter().next();
        }
        let mut totals = vec![0.0; actions.len()];
        let mut counts = vec![0usize; actions.len()];
        for i in 0..self.simulations.max(actions.len()) {
            let index = i % actions.len();
            let mut world = game.sample_hidden(seat, self.rng.next_u64());
            if world.apply(seat, &actions[index]).is_err() {
                continue;
            }
            totals[index] += self.rollout(world, seat);
            counts[index] += 1;
        }
        let mean = |i: usize| if counts[i] == 0 { f64::NEG_INFINITY } else { totals[i] / counts[i] as f64 };
        let best = (0..actions.len()).max_by(|&a, &b| mean(a).total_cmp(&mean(b)))?;
        Some(actions[best].clone())
    }
}

/// The levels a `computer:LEVEL` seat may name, weakest first (`random`
/// is level 1's other name).
pub const LEVELS: [&str; 9] =
    ["random", "level1", "level2", "level3", "level4", "level5", "level6", "level7", "level8"];

/// The budget of a search level (4 to 8): time per decision and worlds
/// drawn when something is hidden. Level 8 answers within about a second.
pub fn search_budget(level: u8) -> Option<search::Budget> {
    let (millis, worlds) = match level {
        4 => (60, 3),
        5 => (150, 4),
        6 => (300, 6),
        7 => (550, 8),
        8 => (900, 12),
        _ => return None,
    };
    Some(search::Budget::timed(std::time::Duration::from_millis(millis), worlds))
}

/// The player for a level, thinking for `time` per decision instead of its
/// own budget when given (a search level; levels 1 to 3 do not search and
/// take no time to speak of).
pub fn player_with_time(level: &str, seed: u64, time: Option<std::time::Duration>) -> Result<Box<dyn Player>, String> {
    let searched = level.strip_prefix("level").and_then(|n| n.parse().ok()).and_then(search_budget);
    match (searched, time) {
        (Some(budget), Some(time)) => Ok(timed_search(level, seed, search::Budget { time: Some(time), ..budget })),
        _ => player_for_level(level, seed),
    }
}

/// The moves to come a computer on a game clock shares its time out over:
/// a game on a clock is played to its end on it (no time controls).
const CLOCK_MOVES_TO_GO: u32 = 30;

/// Time a computer on a game clock keeps in hand for its action to reach
/// the game after its search (the server stamps it on arrival).
const CLOCK_OVERHEAD: std::time::Duration = std::time::Duration::from_millis(100);

/// How long a search level thinks on a running game clock with `left` on
/// it, and the hard limit it never passes ([`search::Budget::hard`]): a
/// share of what is left, not its fixed time. Level 8 takes an even share
/// of the moves to come; a lower level the same fraction of that share as
/// its own time is of level 8's, so that the levels keep their order. The
/// hard limit keeps the overhead and half the rest in hand, so the flag
/// never falls while a move is possible. None for levels that do not
/// search (they take no time to speak of).
pub fn time_on_clock(level: &str, left: std::time::Duration) -> Option<(std::time::Duration, std::time::Duration)> {
    let own = level.strip_prefix("level").and_then(|n| n.parse().ok()).and_then(search_budget)?.time?;
    let strongest = search_budget(8)?.time?;
    let in_hand = left.saturating_sub(CLOCK_OVERHEAD);
    let least = std::time::Duration::from_millis(1);
    let hard = (in_hand / 2).max(least);
    let share = (in_hand / CLOCK_MOVES_TO_GO).mul_f64(own.as_secs_f64() / strongest.as_secs_f64());
    Some((share.clamp(least, hard), hard))
}

/// The player for a level on a running game clock with `left` on it: a
/// search level thinks for [`time_on_clock`]; other levels are as ever.
pub fn player_on_game_clock(level: &str, seed: u64, left: std::time::Duration) -> Result<Box<dyn Player>, String> {
    let searched = level.strip_prefix("level").and_then(|n| n.parse().ok()).and_then(search_budget);
    match (searched, time_on_clock(level, left)) {
        (Some(budget), Some((time, hard))) => {
            let budget = search::Budget { time: Some(time), hard: Some(hard), ..budget };
            Ok(timed_search(level, seed, budget))
        }
        _ => player_for_level(level, seed),
    }
}

/// A search level's player with `budget`, and the game's hooks.
fn timed_search(level: &str, seed: u64, budget: search::Budget) -> Box<dyn Player> {
    let number = level.trim_start_matches("level").parse().unwrap_or(8);
    with_game_hooks(number, Box::new(search::SearchPlayer::new(seed, budget)), seed)
}

/// The player for a level name as used by `computer:LEVEL` seats. Every
/// level takes a game's expert advice ([`expert::Expert`]:
/// Chess Golf's counts from its solver), with an error that shrinks as
/// the level grows.
pub fn player_for_level(level: &str, seed: u64) -> Result<Box<dyn Player>, String> {
    player_on_clock(level, seed, search::Clock::Wall)
}

/// [`player_for_level`] with a search level's time measured on `clock`
/// (self-play measures CPU time, so that its statistics do not depend on
/// how busy the machine is).
pub fn player_on_clock(level: &str, seed: u64, clock: search::Clock) -> Result<Box<dyn Player>, String> {
    let (number, player): (u8, Box<dyn Player>) = match level {
        // Random in everything but the game's expert advice, so that even
        // level 1 gives only counts it can demonstrate.
        "random" | "level1" => return Ok(Box::new(expert::Expert::new(1, Box::new(RandomPlayer::new(seed)), seed))),
        "" | "level2" | "greedy" => (2, Box::new(GreedyPlayer::new(seed))),
        "level3" | "montecarlo" => (3, Box::new(MonteCarloPlayer::new(seed, 200, 6))),
        other => {
            let number: Option<u8> = other.strip_prefix("level").and_then(|n| n.parse().ok());
            match number.and_then(|n| Some((n, search_budget(n)?))) {
                Some((n, budget)) => (n, Box::new(search::SearchPlayer::new(seed, budget.on(clock)))),
                None => return Err(format!("unknown computer level {other:?} (known: {})", LEVELS.join(", "))),
            }
        }
    };
    Ok(with_game_hooks(number, player, seed))
}

/// A level's player with what every level above random does where a game
/// asks for more than a search: the game's expert advice
/// ([`expert::Expert`]) and predictions of another seat's move
/// ([`predictor::Predictor`]), both declared by the game.
pub(crate) fn with_game_hooks(level: u8, player: Box<dyn Player>, seed: u64) -> Box<dyn Player> {
    Box::new(expert::Expert::new(level, Box::new(predictor::Predictor::new(player)), seed))
}

#[cfg(test)]
mod tests {
    use super::*;
    use chesskit_core::game::{GameError, Outcome, RuleError, ScoreOrder, SeatInfo};
    use chesskit_core::view::Journal;
    use chesskit_core::{Options, Session};

    fn game(fen: &str) -> Box<dyn DynGame> {
        chesskit_games::create("chess", Options::new(), 0, Some(fen)).unwrap()
    }

    #[test]
    fn greedy_takes_a_free_queen_and_mates_in_one() {
        let hanging_queen = game("4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1");
        assert_eq!(GreedyPlayer::new(1).choose(hanging_queen.as_ref(), 0).as_deref(), Some("d2d5"));
        let mate_in_one = game("6k1/5ppp/8/8/8/8/8/4R1K1 w - - 0 1");
        assert_eq!(GreedyPlayer::new(1).choose(mate_in_one.as_ref(), 0).as_deref(), Some("e1e8"));
    }

    #[test]
    fn monte_carlo_finds_mate_in_one() {
        let mate_in_one = game("6k1/5ppp/8/8/8/8/8/4R1K1 w - - 0 1");
        assert_eq!(MonteCarloPlayer::new(3, 100, 4).choose(mate_in_one.as_ref(), 0).as_deref(), Some("e1e8"));
    }

    /// A solitaire of one choice that ends the game with that score, and
    /// says only "finished": how the score counts is declared, and the
    /// players must read the declaration, not the words.
    #[derive(Clone, Debug, PartialEq)]
    struct OneChoice<const LOWEST_WINS: bool> {
        score: Option<i64>,
    }

    impl<const LOWEST_WINS: bool> chesskit_core::Game for OneChoice<LOWEST_WINS> {
        type Action = Pick;
        const VARIANT: &'static str = "one-choice";
        const TITLE: &'static str = "One Choice";
        const SCORE_ORDER: ScoreOrder = if LOWEST_WINS { ScoreOrder::Lowest } else { ScoreOrder::Highest };

        fn new(_: &Options, _: u64) -> Result<Self, GameError> {
            Ok(OneChoice { score: None })
        }
        fn from_position(_: &str, options: &Options, seed: u64) -> Result<Self, GameError> {
            Self::new(options, seed)
        }
        fn position(&self) -> String {
            format!("{:?}", self.score)
        }
        fn seats(&self) -> Vec<SeatInfo> {
            vec![SeatInfo::new("Player")]
        }
        fn to_act(&self) -> ToAct {
            match self.score {
                None => ToAct::one(0),
                Some(score) => ToAct::Over(Outcome::win(vec![0], "finished").with_scores(vec![score])),
            }
        }
        fn legal_actions(&self, seat: Seat) -> Vec<Pick> {
            if seat == 0 && self.score.is_none() {
                (1..=3).map(Pick).collect()
            } else {
                Vec::new()
            }
        }
        fn apply_with(&mut self, seat: Seat, action: &Pick, _: &mut Journal) -> Result<(), RuleError> {
            self.check_turn(seat)?;
            self.score = Some(action.0);
            Ok(())
        }
        fn view(&self, _: Viewer) -> View {
            View::default()
        }
    }

    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    struct Pick(i64);

    impl std::fmt::Display for Pick {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            write!(f, "score {}", self.0)
        }
    }

    impl std::str::FromStr for Pick {
        type Err = String;
        fn from_str(text: &str) -> Result<Pick, String> {
            text.strip_prefix("score ")
                .and_then(|n| n.parse().ok())
                .map(Pick)
                .ok_or_else(|| format!("not a pick: {text}"))
        }
    }

    impl chesskit_core::GameAction for Pick {}

    /// The choice of each kind of player in a game of one choice.
    fn choices<const LOWEST_WINS: bool>() -> Vec<String> {
        let game = Session::<OneChoice<LOWEST_WINS>>::start(Options::new(), 0, None).unwrap();
        let mut players: Vec<Box<dyn Player>> = vec![
            Box::new(GreedyPlayer::new(1)),
            Box::new(MonteCarloPlayer::new(1, 30, 2)),
            Box::new(search::SearchPlayer::new(1, search::Budget::nodes(200, 1))),
        ];
        players.iter_mut().map(|p| p.choose(&game, 0).unwrap()).collect()
    }

    /// Chess Golf: "the lowest total wins" (docs/games/golf.md). A game
    /// that declares so is played for the lowest score by every player,
    /// whatever its outcome's reason says; every other for the highest.
    #[test]
    fn the_lowest_total_wins_where_the_game_declares_it_and_the_highest_elsewhere() {
        assert_eq!(choices::<true>(), ["score 1"; 3]);
        assert_eq!(choices::<false>(), ["score 3"; 3]);
    }

    #[test]
    fn on_a_game_clock_a_level_spends_a_share_of_the_time_left_not_its_own_time() {
        let ms = std::time::Duration::from_millis;
        let (level8, hard) = time_on_clock("level8", ms(1_800_000)).unwrap();
        assert_eq!(
            level8,
            (ms(1_800_000) - CLOCK_OVERHEAD) / CLOCK_MOVES_TO_GO,
            "a thirtieth of 30 minutes, not 0.9 s"
        );
        assert_eq!(hard, (ms(1_800_000) - CLOCK_OVERHEAD) / 2);
        let (level4, _) = time_on_clock("level4", ms(1_800_000)).unwrap();
        assert_eq!(level4, level8.mul_f64(60.0 / 900.0), "level 4 keeps its place below level 8");
        assert_eq!(time_on_clock("level2", ms(60_000)), None, "a level that does not search takes no time");
        // The flag never falls while a move is possible: whatever is left,
        // the whole decision keeps the overhead and half the rest in hand.
        for left in [0, 1, 99, 100, 101, 250, 700, 1_000, 60_000, 36_000_000] {
            for level in ["level4", "level5", "level6", "level7", "level8"] {
                let (time, hard) = time_on_clock(level, ms(left)).unwrap();
                let in_hand = ms(left).saturating_sub(CLOCK_OVERHEAD);
                assert!(time <= hard && !time.is_zero(), "{level}, {left} ms: {time:?} of {hard:?}");
                assert!(hard <= (in_hand / 2).max(ms(1)), "{level}, {left} ms: {hard:?}");
            }
        }
    }

    #[test]
    fn levels_are_named() {
        for level in LEVELS {
            assert!(player_for_level(level, 0).is_ok());
        }
        assert!(player_for_level("grandmaster", 0).err().unwrap().contains("unknown computer level"));
    }
}
