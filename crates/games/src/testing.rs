//! Helpers shared by the games' unit tests: naming a square, playing an
//! action by its text, and checking that a refused action says why and
//! changes nothing. One copy here rather than one per game, so that every
//! game's tests hold refusals to the same standard.

use chesskit_core::chess::Square;
use chesskit_core::game::{Game, GameError, RuleError, ScoreOrder, Seat, SeatInfo, ToAct, Viewer};
use chesskit_core::options::{OptionSpec, Options};
use chesskit_core::rng::GameRng;
use chesskit_core::view::{ActionInfo, Journal, View};

/// The square named `name` ("e4"); a misspelt name is a mistake in the test.
pub fn sq(name: &str) -> Square {
    name.parse().unwrap_or_else(|e| panic!("{name:?} names no square: {e:?}"))
}

/// The seat whose action comes next: the first of the seats to act, or
/// seat 0 once the game is over (every seat is then refused alike).
pub fn mover<G: Game>(game: &G) -> Seat {
    game.to_act().seats().first().copied().unwrap_or(0)
}

/// Play `text` as `seat`'s action, read as the game reads a player's text.
pub fn try_act_as<G: Game>(game: &mut G, seat: Seat, text: &str) -> Result<(), RuleError> {
    let action = game.parse_action(seat, text)?;
    game.apply(seat, &action)
}

/// Play `text` as the next mover's action.
pub fn try_act<G: Game>(game: &mut G, text: &str) -> Result<(), RuleError> {
    try_act_as(game, mover(game), text)
}

/// Play `text` as `seat`'s action, which the test expects to be legal.
pub fn act_as<G: Game>(game: &mut G, seat: Seat, text: &str) {
    try_act_as(game, seat, text).unwrap_or_else(|e| panic!("seat {seat} {text}: {e}"));
}

/// Play `text` as the next mover's action, which the test expects to be legal.
pub fn act<G: Game>(game: &mut G, text: &str) {
    act_as(game, mover(game), text);
}

/// Why `seat`'s action `text` is refused (unreadable or against the
/// rules), checking that the refusal left the game as it was.
pub fn refused_as<G: Game>(game: &mut G, seat: Seat, text: &str) -> String {
    let before = game.clone();
    let err = try_act_as(game, seat, text).expect_err(&format!("{text} should be refused"));
    assert_eq!(*game, before, "refusing {text} changed the game");
    err.to_string()
}

/// Why the next mover's action `text` is refused; the game is unchanged.
pub fn refused<G: Game>(game: &mut G, text: &str) -> String {
    refused_as(game, mover(game), text)
}

/// The next mover's action `text` is refused for a reason that mentions
/// `needle`, and the game is unchanged.
pub fn refused_for<G: Game>(game: &mut G, text: &str, needle: &str) {
    let reason = refused(game, text);
    assert!(reason.contains(needle), "{text} was refused, but not for {needle:?}: {reason}");
}

/// A copy of `game` with `change` made: one of the states
/// [`assert_the_key_follows_the_state`] compares.
pub fn changed<G: Clone>(game: &G, change: impl FnOnce(&mut G)) -> G {
    let mut copy = game.clone();
    change(&mut copy);
    copy
}

/// The checks of a game's [`Game::position_hash`], as chess's Zobrist test
/// makes them: `one` and `other` are one state reached two ways (one key),
/// and each of `changes` is `one` with one thing the rules read changed,
/// named for the message: each gives a key of its own.
pub fn assert_the_key_follows_the_state<G: Game>(one: &G, other: &G, changes: &[(&str, G)]) {
    let key = |game: &G| game.position_hash().expect("the game keys its positions");
    assert_eq!(key(one), key(other), "one state reached two ways");
    let mut seen = std::collections::HashMap::from([(key(one), "the state itself")]);
    for (what, changed) in changes {
        assert_ne!(changed, one, "{what} changes the state");
        if let Some(earlier) = seen.insert(key(changed), what) {
            panic!("{what} gives the key of {earlier}");
        }
    }
}

/// A game with the journal its session would keep: for the unit tests
/// that read a game's log or PGN without a whole [`chesskit_core::Session`]
/// (the session keeps a game's story, the game keeps none). It is a
/// [`Game`] itself, so every helper here plays it; each action it takes
/// is told to its own journal, whatever story it is handed, and its view
/// carries that journal's log, as the session's does. Its other methods
/// are the game's (it dereferences to the game).
#[derive(Clone, Debug, PartialEq)]
pub struct Told<G> {
    pub game: G,
    pub story: Journal,
}

impl<G> std::ops::Deref for Told<G> {
    type Target = G;
    fn deref(&self) -> &G {
        &self.game
    }
}

impl<G> std::ops::DerefMut for Told<G> {
    fn deref_mut(&mut self) -> &mut G {
        &mut self.game
    }
}

impl<G: Game> Told<G> {
    /// The game's PGN, read from the story told so far.
    pub fn pgn(&self) -> Option<String> {
        self.game.pgn(&self.story)
    }
}

impl<G: Game> Game for Told<G> {
    type Action = G::Action;
    const VARIANT: &'static str = G::VARIANT;
    const TITLE: &'static str = G::TITLE;
    const SCORE_ORDER: ScoreOrder = G::SCORE_ORDER;
    const PUZZLE: bool = G::PUZZLE;

    fn option_specs() -> Vec<OptionSpec> {
        G::option_specs()
    }
    /// The start's announcements go to the game's own story.
    fn open(options: &Options, seed: u64, position: Option<&str>, _: &mut Journal) -> Result<Self, GameError> {
        let mut story = Journal::default();
        let game = G::open(options, seed, position, &mut story)?;
        Ok(Told { game, story })
    }
    fn position(&self) -> String {
        self.game.position()
    }
    fn seats(&self) -> Vec<SeatInfo> {
        self.game.seats()
    }
    fn to_act(&self) -> ToAct {
        self.game.to_act()
    }
    fn legal_actions(&self, seat: Seat) -> Vec<G::Action> {
        self.game.legal_actions(seat)
    }
    fn describe_action(&self, seat: Seat, action: &G::Action) -> ActionInfo {
        self.game.describe_action(seat, action)
    }
    /// Told to the game's own story; a refusal takes back what it wrote,
    /// as the session does.
    fn apply_with(&mut self, seat: Seat, action: &G::Action, _: &mut Journal) -> Result<(), RuleError> {
        let before = self.story.clone();
        let applied = self.game.apply_with(seat, action, &mut self.story);
        if applied.is_err() {
            self.story = before;
        }
        applied
    }
    /// The game's view with the log of its story, as the session fills it.
    fn view(&self, viewer: Viewer) -> View {
        View { log: self.story.for_viewer(viewer, &self.game.seats()), ..self.game.view(viewer) }
    }
    fn sample_hidden(&self, seat: Seat, rng: &mut GameRng) -> Self {
        Told { game: self.game.sample_hidden(seat, rng), story: self.story.clone() }
    }
    fn pgn(&self, story: &Journal) -> Option<String> {
        self.game.pgn(story)
    }
    fn parse_action(&self, seat: Seat, text: &str) -> Result<G::Action, RuleError> {
        self.game.parse_action(seat, text)
    }
    fn heuristic(&self, seat: Seat) -> Option<f64> {
        self.game.heuristic(seat)
    }
    fn foretells(&self, seat: Seat) -> Option<Seat> {
        self.game.foretells(seat)
    }
    fn prediction_for(&self, seat: Seat, expected: &str) -> Option<G::Action> {
        self.game.prediction_for(seat, expected)
    }
    fn is_noisy(&self, action: &G::Action) -> bool {
        self.game.is_noisy(action)
    }
    fn check_talk(&self, seat: Seat) -> Result<(), String> {
        self.game.check_talk(seat)
    }
}

/// Checks `G`'s [`Game::position_hash`] along `games` seeded random games
/// of at most `steps` actions each, from `G::open` with `options`: the
/// same state reached two ways (played, and read back from its position
/// text) has the same key, and any two states met on the way (every
/// child of every position walked) whose position texts differ, that is
/// that differ in something the rules read, have different keys.
pub fn check_position_hash<G: Game>(options: &Options, games: u64, steps: usize) {
    let seen: std::cell::RefCell<std::collections::HashMap<u64, String>> = Default::default();
    let remember = |game: &G| {
        let key = game.position_hash().expect("the game keys its positions");
        let text = game.position();
        let mut seen = seen.borrow_mut();
        let known = seen.entry(key).or_insert_with(|| text.clone());
        assert_eq!(*known, text, "two different states share the key {key:#x}");
    };
    walk_random_games::<G>(
        options,
        games,
        steps,
        |seed, game| {
            let resumed = G::from_position(&game.position(), options, seed).expect("a game resumes from its position");
            assert_eq!(resumed.position_hash(), game.position_hash(), "resumed {resumed:?}\nplayed {game:?}");
            remember(game);
        },
        |_, child| remember(child),
    );
}

/// Walks `games` seeded random games of at most `steps` actions each, from
/// `G::open` with `options`: `position` sees each position the walk acts
/// from or ends on (with the game's seed), `child` every child of each of
/// them (the action and the game after it).
fn walk_random_games<G: Game>(
    options: &Options,
    games: u64,
    steps: usize,
    mut position: impl FnMut(u64, &G),
    mut child: impl FnMut(&G::Action, &G),
) {
    for seed in 0..games {
        let mut game = G::open(options, seed, None, &mut Journal::default()).expect("the options open a game");
        let mut rng = GameRng::from_seed(seed);
        for _ in 0..steps {
            position(seed, &game);
            let ToAct::Seats(seats) = game.to_act() else { break };
            let seat = seats[0];
            let actions = game.legal_actions(seat);
            for action in &actions {
                let mut next = game.clone();
                if next.apply(seat, action).is_ok() {
                    child(action, &next);
                }
            }
            let Some(action) = rng.choose(&actions) else { break };
            game.apply(seat, action).expect("a legal action applies");
        }
    }
}

/// Checks the answers the search asks of `G` without building lists
/// (crates/core/src/search_node.rs) along `games` seeded random games of
/// at most `steps` actions each, from `G::open` with `options`:
/// [`Game::first_to_act`] and [`Game::is_to_act`] agree with
/// [`Game::to_act`], [`Game::legal_actions_into`] (into a list still
/// holding another position's actions) with [`Game::legal_actions`], and a
/// copy of another position rewritten by `clone_from` (every child of
/// every position walked) equals a fresh clone.
pub fn check_allocation_free_answers<G: Game>(options: &Options, games: u64, steps: usize) {
    let mut listed = Vec::new();
    let mut reused: Option<G> = None;
    walk_random_games::<G>(
        options,
        games,
        steps,
        |_, game| assert_the_search_answers_agree(game, &mut listed),
        |action, child| {
            let reused = reused.get_or_insert_with(|| G::clone(child));
            reused.clone_from(child);
            assert_eq!(reused, child, "clone_from after {action}");
        },
    );
}

/// One position's [`check_allocation_free_answers`], every seat asked.
fn assert_the_search_answers_agree<G: Game>(game: &G, listed: &mut Vec<G::Action>) {
    let to_act = game.to_act();
    assert_eq!(game.first_to_act(), to_act.seats().first().copied(), "{game:?}");
    for seat in 0..game.seats().len() {
        assert_eq!(game.is_to_act(seat), to_act.seats().contains(&seat), "seat {seat} of {game:?}");
        game.legal_actions_into(seat, listed);
        assert_eq!(*listed, game.legal_actions(seat), "seat {seat} of {game:?}");
    }
}
