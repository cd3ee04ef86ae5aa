//! Random simulation of every registered game (OpenSpiel's RandomSimTest):
//! random legal actions until the game ends, checking at every step that
//!
//! * only the seats that must act have actions, and each of them has one;
//! * action texts are unique and canonical (they apply as they are written);
//! * a nonsense action and an out-of-turn action are refused and change nothing;
//! * no view leaks: a seat's view is the same in any game consistent with
//!   what that seat knows (`sample_hidden`), and so is a spectator's;
//! * a world drawn for a seat depends only on what the seat knows and the
//!   seed: drawn from two games the seat cannot tell apart, it is the same
//!   (else a computer player's choices would betray the truth);
//! * replaying the record from seed and actions gives the identical state;
//! * a copy that forgot its history (`forget_history`, as the computer's
//!   search does), played along with the game, keeps the same position,
//!   turn, legal actions and heuristic: the history is only for the log;
//! * every marker on the board says how it is drawn (`Marker::draw`), so
//!   a client draws it without knowing the game;
//! * a view sent as a change (`view_since` a version a viewer holds) holds
//!   nothing the whole view would not: its log and chat are what the whole
//!   view added since that version, everything else is the whole view's.
//!
//! * the position text loads back (every `REBUILD_EVERY`-th step): a game
//!   started from `position()` writes the same text, offers every seat the
//!   same actions, shows every viewer the same view (less what only the
//!   history holds: the log, chat, last move, table actions); and played
//!   along with the game until the next check it writes the same text, as
//!   long as what happens does not hang on the seed (the game's random
//!   number stream is not in every text): two games loaded with two seeds
//!   are played along, and once they part (a reshuffle) the text no longer
//!   tells the future. A draw pile's order in the text must be the order
//!   the cards are drawn in.
//!
//! `CHESSKIT_SIM_GAMES` sets the number of games per variant (default 12).
//! Each variant is its own test (`survives_random_games::<variant>`), so
//! the harness plays the variants side by side.

use std::collections::HashSet;

use chesskit_core::game::Viewer;
use chesskit_core::rng::GameRng;
use chesskit_core::{DynGame, Options, View};
use chesskit_games::{create, names, replay};

const MAX_ACTIONS: usize = 600;

/// How often the position text is loaded back: every this many steps.
const REBUILD_EVERY: usize = 8;

fn games_per_variant() -> u64 {
    std::env::var("CHESSKIT_SIM_GAMES").ok().and_then(|v| v.parse().ok()).unwrap_or(12)
}

fn check_views_do_not_leak(game: &dyn DynGame, step: usize) {
    let seats = game.seats().len();
    for seat in 0..seats {
        for sample_seed in 0..2 {
            let sampled = game.sample_hidden(seat, step as u64 * 31 + sample_seed);
            assert_eq!(
                game.view(Viewer::Seat(seat)),
                sampled.view(Viewer::Seat(seat)),
                "{}: seat {seat}'s view depends on something it may not know (step {step})",
                game.variant()
            );
            let again = sampled.sample_hidden(seat, 7 + sample_seed);
            assert!(
                again.same_state(game.sample_hidden(seat, 7 + sample_seed).as_ref()),
                "{}: a world drawn for seat {seat} depends on more than the seat knows (step {step}): \
                 drawn from the real game and from another world the seat cannot tell apart, with one seed, \
                 they differ",
                game.variant()
            );
            assert_eq!(
                game.view(Viewer::Spectator),
                sampled.view(Viewer::Spectator),
                "{}: the spectator's view depends on something hidden from seat {seat} (step {step})",
                game.variant()
            );
        }
    }
}

/// Every marker every viewer sees says how it is drawn: the browser draws
/// the layers of `draw` and knows no marker kinds.
fn check_markers_say_how_they_are_drawn(game: &dyn DynGame, step: usize) {
    for viewer in viewers(game) {
        let view = game.view(viewer);
        let squares = view.board.iter().flat_map(|board| &board.squares);
        for (square, marker) in squares.flat_map(|sq| sq.markers.iter().map(move |m| (&sq.square, m))) {
            assert!(
                !marker.draw.is_empty(),
                "{}: the {:?} marker on {square} does not say how it is drawn (step {step})",
                game.variant(),
                marker.kind
            );
        }
    }
}

/// A copy without history plays by the same rules as the game.
fn check_same_rules(game: &dyn DynGame, copy: &dyn DynGame, step: usize) {
    let variant = game.variant();
    assert_eq!(
        game.position(),
        copy.position(),
        "{variant}: forgetting the history changed the position (step {step})"
    );
    assert_eq!(game.to_act(), copy.to_act(), "{variant}: forgetting the history changed the turn (step {step})");
    for seat in 0..game.seats().len() {
        assert_eq!(
            game.search_actions(seat),
            copy.search_actions(seat),
            "{variant}: forgetting the history changed seat {seat}'s actions (step {step})"
        );
        assert_eq!(game.heuristic(seat), copy.heuristic(seat), "{variant}: heuristic (step {step})");
    }
}

/// Every viewer of a game: each seat and a spectator.
fn viewers(game: &dyn DynGame) -> Vec<Viewer> {
    (0..game.seats().len()).map(Viewer::Seat).chain([Viewer::Spectator]).collect()
}

/// The view each viewer holds, and its version: what a client has.
type Held = Vec<(Viewer, usize, View)>;

fn hold_views(game: &dyn DynGame) -> Held {
    let version = game.record().actions.len();
    viewers(game).into_iter().map(|viewer| (viewer, version, game.view(viewer))).collect()
}

/// The change since the version each viewer holds, appended to the view it
/// holds, is exactly the whole view now: nothing in the change is hidden
/// from the viewer (the whole view is checked against leaks above), and
/// nothing is lost.
fn check_changes_add_up(game: &dyn DynGame, held: &Held, step: usize) {
    let variant = game.variant();
    for (viewer, version, before) in held {
        let whole = game.view(*viewer);
        let change = game
            .view_since(*viewer, *version)
            .unwrap_or_else(|| panic!("{variant}: no change since version {version} for {viewer:?} (step {step})"));
        assert!(
            whole.log.ends_with(&change.log) && whole.chat.ends_with(&change.chat),
            "{variant}: {viewer:?}'s change since {version} has log or chat lines its whole view lacks (step {step})"
        );
        let mut caught_up = change.clone();
        caught_up.log = [before.log.clone(), change.log].concat();
        caught_up.chat = [before.chat.clone(), change.chat].concat();
        assert_eq!(caught_up, whole, "{variant}: {viewer:?}'s view since {version} does not add up (step {step})");
    }
}

/// What a view shows that the position text claims to carry: the view
/// less the history (log, chat, last move) and the session's table
/// actions and draw offer, which belong to the table, not the position.
fn positional(mut view: View) -> View {
    view.log.clear();
    view.chat.clear();
    view.last_move.clear();
    view.session_actions.clear();
    view.draw_offer = None;
    view
}

/// The game started from `game`'s position text, checked to be the same
/// game as far as the text tells: the text itself, every seat's actions
/// and every viewer's view.
fn rebuilt_from_position(game: &dyn DynGame, seed: u64, step: usize) -> Box<dyn DynGame> {
    let variant = game.variant();
    let position = game.position();
    let options = game.record().options.clone();
    let rebuilt = create(variant, options, seed, Some(&position))
        .unwrap_or_else(|e| panic!("{variant}: its own position does not load back (step {step}): {e}\n{position}"));
    check_same_position(game, rebuilt.as_ref(), step);
    rebuilt
}

/// `rebuilt`, loaded from `game`'s text (and maybe played along since),
/// holds what the text claims: the same text, actions and views.
fn check_same_position(game: &dyn DynGame, rebuilt: &dyn DynGame, step: usize) {
    let variant = game.variant();
    let position = game.position();
    assert_eq!(
        rebuilt.position(),
        position,
        "{variant}: the position text does not load back as written (step {step})"
    );
    assert_eq!(rebuilt.to_act(), game.to_act(), "{variant}: loaded back, the turn differs (step {step})\n{position}");
    for seat in 0..game.seats().len() {
        assert_eq!(
            rebuilt.legal_actions(seat),
            game.legal_actions(seat),
            "{variant}: loaded back, seat {seat}'s actions differ (step {step})\n{position}"
        );
    }
    for viewer in viewers(game) {
        assert_eq!(
            positional(rebuilt.view(viewer)),
            positional(game.view(viewer)),
            "{variant}: loaded back, {viewer:?}'s view differs (step {step})\n{position}"
        );
    }
}

/// Play `action` of `seat`, just applied to `game`, in the games loaded
/// back from its text (two seeds), and check they are still `game`;
/// forget them once they part from each other: from there on the seed
/// decides, and the seed is not in the text.
fn play_along_loaded_back(
    game: &dyn DynGame,
    loaded_back: &mut Vec<Box<dyn DynGame>>,
    seat: usize,
    action: &str,
    step: usize,
) {
    let variant = game.variant();
    let before = loaded_back.first().map(|copy| copy.position()).unwrap_or_default();
    for copy in loaded_back.iter_mut() {
        copy.apply(seat, action)
            .unwrap_or_else(|e| panic!("{variant}: the game loaded back refused {action} (step {step}): {e}"));
    }
    if loaded_back.windows(2).any(|pair| pair[0].position() != pair[1].position()) {
        loaded_back.clear();
    }
    for copy in loaded_back.iter() {
        // The text only: the whole check is made when it is loaded. (A
        // draw by repetition is judged from the history, which no text
        // holds, so the turn may differ after the last action.)
        assert_eq!(
            copy.position(),
            game.position(),
            "{variant}: played along, it parts (step {step}, {action} from\n{before})"
        );
    }
}

fn check_refusals(game: &mut Box<dyn DynGame>, to_act: &[usize]) {
    let before = game.clone_box();
    let seat = to_act[0];
    assert!(game.apply(seat, "not-an-action 999").is_err());
    if let Some(idle) = (0..game.seats().len()).find(|s| !to_act.contains(s)) {
        if let Some(action) = game.legal_actions(seat).first().cloned() {
            assert!(game.apply(idle, &action).is_err(), "{}: seat {idle} acted out of turn", game.variant());
        }
    }
    assert!(game.apply(game.seats().len() + 3, "e2e4").is_err());
    assert!(game.same_state(before.as_ref()), "{}: a refused action changed the game", game.variant());
    assert_eq!(game.record(), before.record());
}

fn simulate(variant: &str, seed: u64) {
    let mut game = create(variant, Options::new(), seed, None).unwrap_or_else(|e| panic!("{variant}: {e}"));
    let mut rng = GameRng::from_seed(seed ^ 0x5eed);
    let mut forgetful: Option<Box<dyn DynGame>> = None;
    let mut held = hold_views(game.as_ref());
    let mut loaded_back: Vec<Box<dyn DynGame>> = Vec::new();
    for step in 0..MAX_ACTIONS {
        if step == 5 {
            let mut copy = game.clone_box();
            copy.forget_history();
            forgetful = Some(copy);
        }
        if let Some(copy) = &forgetful {
            check_same_rules(game.as_ref(), copy.as_ref(), step);
        }
        let to_act = game.to_act();
        if to_act.is_over() {
            break;
        }
        if step % REBUILD_EVERY == 0 {
            loaded_back = vec![
                rebuilt_from_position(game.as_ref(), seed, step),
                rebuilt_from_position(game.as_ref(), seed ^ 0x9e37_79b9, step),
            ];
        }
        let acting = to_act.seats().to_vec();
        assert!(!acting.is_empty(), "{variant}: nobody to act but the game is not over");
        for seat in 0..game.seats().len() {
            let actions = game.legal_actions(seat);
            if acting.contains(&seat) {
                assert!(!actions.is_empty(), "{variant}: seat {seat} must act but has no action");
                let unique: HashSet<&String> = actions.iter().collect();
                assert_eq!(unique.len(), actions.len(), "{variant}: duplicate action texts");
            } else {
                assert!(actions.is_empty(), "{variant}: seat {seat} has actions out of turn");
            }
        }
        if step % 7 == 0 {
            check_views_do_not_leak(game.as_ref(), step);
            check_markers_say_how_they_are_drawn(game.as_ref(), step);
            check_refusals(&mut game, &acting);
        }
        let seat = *rng.choose(&acting).expect("someone acts");
        let actions = game.legal_actions(seat);
        let action = rng.choose(&actions).expect("an action").clone();
        let canonical =
            game.apply(seat, &action).unwrap_or_else(|e| panic!("{variant}: legal action {action} refused: {e}"));
        assert_eq!(canonical, action, "{variant}: legal action texts must be canonical");
        if let Some(copy) = &mut forgetful {
            copy.apply(seat, &action)
                .unwrap_or_else(|e| panic!("{variant}: the copy without history refused {action}: {e}"));
        }
        play_along_loaded_back(game.as_ref(), &mut loaded_back, seat, &action, step);
        serde_json::to_string(&game.view(Viewer::Spectator)).expect("views serialise");
        check_changes_add_up(game.as_ref(), &held, step);
        if step % 5 == 4 {
            held = hold_views(game.as_ref());
        }
    }
    check_pgn(variant, game.as_ref());
    let rebuilt = replay(game.record()).unwrap_or_else(|e| panic!("{variant}: replay failed: {e}"));
    assert!(rebuilt.same_state(game.as_ref()), "{variant}: replay from the record differs (seed {seed})");
    assert_eq!(rebuilt.position(), game.position());
}

/// A game with a PGN form writes it at any point, its result tag agreeing
/// with the outcome and its movetext ending in the same result.
fn check_pgn(variant: &str, game: &dyn DynGame) {
    let Some(pgn) = game.pgn() else { return };
    // The winners' colour: White's seats (seat 0 alone in two-seat games) win 1-0.
    let seats = game.seats();
    let colour = |winners: &[usize]| {
        let colours: HashSet<Option<&str>> = winners.iter().map(|&s| seats[s].colour.as_deref()).collect();
        (colours.len() == 1).then(|| colours.into_iter().next().flatten()).flatten()
    };
    let result = match game.to_act().outcome() {
        None => "*",
        Some(o) if colour(&o.winners) == Some("white") => "1-0",
        Some(o) if colour(&o.winners) == Some("black") => "0-1",
        Some(_) => "1/2-1/2",
    };
    assert!(pgn.contains(&format!("[Result \"{result}\"]")), "{variant}: {pgn}");
    assert!(pgn.trim_end().ends_with(result), "{variant}: {pgn}");
    assert_eq!(pgn.matches('{').count(), pgn.matches('}').count(), "{variant}: unbalanced comments in {pgn}");
}

/// Every seed of one variant: the games a variant's test plays.
fn survives_random_games(variant: &str) {
    for seed in 0..games_per_variant() {
        simulate(variant, seed);
    }
}

/// One test per variant, so that the harness runs them side by side (they
/// are independent); `SIMULATED` lists them for the completeness check.
macro_rules! one_test_per_variant {
    ($($test:ident => $variant:literal,)*) => {
        /// The variants that have a test below.
        const SIMULATED: &[&str] = &[$($variant),*];

        /// `cargo test -p chesskit-games --test it survives_random_games::zombie`
        /// runs one variant, while working on it.
        mod survives_random_games {
            $(
                #[test]
                fn $test() {
                    super::survives_random_games($variant);
                }
            )*
        }
    };
}

one_test_per_variant! {
    chess => "chess",
    chess960 => "chess960",
    zombie => "zombie",
    masquerade => "masquerade",
    cloak_and_dagger => "cloak-and-dagger",
    adrenaline => "adrenaline",
    booster => "booster",
    half_alice => "half-alice",
    telepathy => "telepathy",
    crowded_house => "crowded-house",
    golf => "golf",
    split_brain => "split-brain",
    neighbour => "neighbour",
    parade => "parade",
    cooperative => "cooperative",
    cooperative2 => "cooperative2",
    gravity => "gravity",
}

/// A variant added to the registry gets its random games only once it is
/// named above: this fails until it is.
#[test]
fn every_registered_variant_has_its_random_games_test() {
    let registered = names();
    let missing: Vec<&str> = registered.iter().copied().filter(|name| !SIMULATED.contains(name)).collect();
    assert!(
        missing.is_empty(),
        "variants without a random-games test: {missing:?} (add them to one_test_per_variant!)"
    );
    let unknown: Vec<&str> = SIMULATED.iter().copied().filter(|name| !registered.contains(name)).collect();
    assert!(unknown.is_empty(), "random-games tests of no registered variant: {unknown:?}");
}
