//! The round of Chess Golf (rules.md, "Chess Golf": Play, Difficulty
//! Level, Game End) through the Game trait and the registry.

use chesskit_core::cards::officer_deck;
use chesskit_core::game::{Game, Viewer};
use chesskit_core::rng::GameRng;
use chesskit_core::{DynGame, Options};
use chesskit_games::create;
use chesskit_games::golf::{GolfAction, GolfGame};

const OPENING_BOARD: &str = "\
. . B . . . R .
. . . . . k . .
. r . n . N . .
. r . . b . . .
R . . . . . q .
. B . n . N . .
b . . . . . . K
. . . . . Q . .
";

/// A round on the opening example's board, hole 1 dealt `deal` by `dealer`.
fn round(players: usize, dealer: usize, deal: &str) -> GolfGame {
    let dealt: Vec<String> = deal.split_whitespace().map(str::to_string).collect();
    let deck: Vec<String> = officer_deck().iter().map(|c| c.to_string()).filter(|c| !dealt.contains(c)).collect();
    let counts = vec!["-"; players].join(" ");
    let text = format!(
        "{OPENING_BOARD}players: {players}\nholes: 9\nmax cards: 6\nhole: 1\ndealer: {dealer}\ncards: {}\ndeck: {}\ndiscard:\ndeal: {deal}\ncounts: {counts}\nphase: counting\n",
        dealt.len(),
        deck.join(" ")
    );
    GolfGame::from_position(&text, &Options::new().with("players", players as i64), 7).unwrap_or_else(|e| panic!("{e}"))
}

fn act(game: &mut GolfGame, seat: usize, text: &str) {
    let action = game.parse_action(seat, text).unwrap_or_else(|e| panic!("{text}: {e}"));
    game.apply(seat, &action).unwrap_or_else(|e| panic!("{text} by seat {seat}: {e}"));
}

fn log(game: &GolfGame) -> Vec<String> {
    game.view(Viewer::Spectator).log.into_iter().map(|e| e.text).collect()
}

fn row(game: &GolfGame, hole: usize) -> Vec<String> {
    game.view(Viewer::Spectator).tables[0].rows[hole - 1].clone()
}

#[test]
fn counts_are_simultaneous_and_secret_until_all_are_given() {
    // "All players try to solve ... everyone reveals their move count at the same time."
    let mut game = round(3, 0, "kh 9s");
    assert_eq!(game.to_act().seats(), [0, 1, 2]);
    act(&mut game, 1, "count 3");
    assert_eq!(game.to_act().seats(), [0, 2]);
    assert!(game.legal_actions(1).is_empty(), "a count is final");
    let spectator = game.view(Viewer::Spectator);
    let other = game.view(Viewer::Seat(0));
    let own = game.view(Viewer::Seat(1));
    for view in [&spectator, &other] {
        let text = serde_json::to_string(view).unwrap();
        assert!(!text.contains("secret") && row(&game, 1)[3] == "ready", "{text}");
    }
    assert_eq!(own.tables[0].rows[0][3], "3 (secret)");
    // Re-drawing seat 1's secret count changes nothing seat 0 sees.
    let sampled = game.sample_hidden(0, &mut GameRng::from_seed(5));
    assert_eq!(sampled.view(Viewer::Seat(0)), game.view(Viewer::Seat(0)));
    act(&mut game, 0, "4");
    act(&mut game, 2, "impossible");
    assert!(log(&game).iter().any(|l| l == "Counts revealed: Player 1 4, Player 2 3, Player 3 impossible"));
}

#[test]
fn the_fewest_moves_demonstrate_and_the_pieces_stay() {
    // Player 2 counted 3, the fewest: they demonstrate e5g6 g6h5 h5h2, then
    // put the captured white king back on an empty square.
    let mut game = round(3, 0, "kh 9s");
    act(&mut game, 0, "count 5");
    act(&mut game, 1, "count 3");
    act(&mut game, 2, "impossible");
    assert_eq!(game.to_act().seats(), [1]);
    assert!(game.apply(1, &"e5h2".parse().unwrap()).is_err(), "the referee checks each move");
    act(&mut game, 1, "e5g6");
    act(&mut game, 1, "move g6h5");
    act(&mut game, 1, "h5h2");
    // "add any captured pieces back to the board in any empty squares"
    assert_eq!(game.to_act().seats(), [1]);
    assert!(game.apply(1, &"put a1".parse().unwrap()).is_ok());
    // Scores: 5, 3, and the impossible answer gets the maximum plus one.
    assert_eq!(row(&game, 1), ["1", "Kb", "5", "3", "6 (said impossible)"]);
    // The pieces stay in their final positions: the bishop on h2, the king on a1.
    let pos = game.position();
    assert!(pos.starts_with(". . B . . . R .\n. . . . . k . .\n. r . n . N . .\n. r . . . . . .\n"), "{pos}");
    assert!(pos.contains("\nb . . . . . . b\nK . . . . Q . .\n"), "{pos}");
    // "Pass the deck one player to the left": Player 2 deals hole 2.
    assert!(pos.contains("hole: 2\ndealer: 1\n"), "{pos}");
    assert_eq!(game.to_act().seats(), [0, 1, 2]);
}

#[test]
fn ties_go_to_the_dealer_first_then_to_the_left() {
    // "If some players are tied for fewest, start with the dealer and go
    // around to the left until you reach one of the tied players."
    let mut game = round(4, 2, "kh 9s");
    for (seat, count) in [(0, 3), (1, 3), (2, 4), (3, 3)] {
        act(&mut game, seat, &format!("count {count}"));
    }
    assert_eq!(game.to_act().seats(), [3], "dealer is seat 2 (count 4); to the left is seat 3");
}

#[test]
fn a_failed_demonstration_is_penalised_and_the_next_lowest_tries() {
    // "If the player can't demonstrate their path, then they get the maximum
    // of all the other players' numbers, plus a one-point penalty. Reset the
    // pieces to where they started and get the player with the next lowest
    // number to demonstrate."
    let mut game = round(3, 0, "kh 9s");
    act(&mut game, 0, "count 2");
    act(&mut game, 1, "count 3");
    act(&mut game, 2, "count 5");
    assert_eq!(game.to_act().seats(), [0]);
    act(&mut game, 0, "e5g6");
    act(&mut game, 0, "g6h5"); // two moves, the count, and not solved
    assert_eq!(game.to_act().seats(), [1]);
    assert!(game.position().starts_with(OPENING_BOARD), "the pieces are reset");
    act(&mut game, 1, "give up");
    assert_eq!(game.to_act().seats(), [2]);
    act(&mut game, 2, "b3c3");
    act(&mut game, 2, "b5b3");
    act(&mut game, 2, "a2h2");
    act(&mut game, 2, "put e4");
    assert_eq!(row(&game, 1), ["1", "Kb", "6 (said 2)", "6 (said 3)", "5"]);
}

#[test]
fn impossible_answers_are_settled_by_the_solver() {
    // Everyone says impossible, but the referee solves it in 3: each scores
    // the optimal length plus one.
    let mut game = round(2, 0, "kh 9s");
    act(&mut game, 0, "impossible");
    act(&mut game, 1, "0");
    assert!(log(&game).iter().any(|l| l.starts_with("The referee solves it in 3 moves")), "{:?}", log(&game));
    assert_eq!(row(&game, 1), ["1", "Kb", "4 (said impossible)", "4 (said impossible)"]);
    assert!(game.position().starts_with(OPENING_BOARD), "nobody demonstrated: the pieces stay");
}

#[test]
fn one_more_card_when_every_count_agrees() {
    // Difficulty Level: all players pick the same number, so later holes
    // deal three cards.
    let mut game = round(2, 0, "kh 9s");
    act(&mut game, 0, "count 3");
    act(&mut game, 1, "count 3");
    act(&mut game, 0, "e5g6");
    act(&mut game, 0, "g6h5");
    act(&mut game, 0, "h5h2");
    act(&mut game, 0, "put a1");
    assert_eq!(game.cards_per_hole(), 3);
    assert_eq!(game.view(Viewer::Spectator).zones[0].cards.len(), 3);
}

#[test]
fn the_round_ends_after_nine_holes_and_the_lowest_total_wins() {
    let mut game = GolfGame::new(&Options::new().with("players", 2), 11).unwrap();
    let mut holes = 0;
    while !game.to_act().is_over() {
        let seats = game.to_act().seats().to_vec();
        // Seat 0 always gives up at once; seat 1 always says impossible.
        for seat in seats {
            let text = match game.legal_actions(seat)[0] {
                GolfAction::Count(_) if seat == 0 => "count 1".to_string(),
                GolfAction::Count(_) => "impossible".to_string(),
                GolfAction::Move(_) => "give up".to_string(),
                other => other.to_string(),
            };
            act(&mut game, seat, &text);
        }
        holes += 1;
        assert!(holes < 100);
    }
    assert_eq!(game.hole_scores().len(), 9);
    let outcome = game.to_act().outcome().unwrap().clone();
    let totals = game.totals();
    assert_eq!(outcome.scores, Some(totals.clone()));
    let best = *totals.iter().min().unwrap();
    assert_eq!(outcome.winners, (0..2).filter(|&s| totals[s] == best).collect::<Vec<_>>());
}

#[test]
fn action_texts() {
    for (text, canonical) in [
        ("count 3", "count 3"),
        ("3", "count 3"),
        ("0", "impossible"),
        ("count 0", "impossible"),
        ("Impossible", "impossible"),
        ("move e5g6", "e5g6"),
        ("e5-g6", "e5g6"),
        ("give up", "give up"),
        ("put back e4", "put e4"),
    ] {
        assert_eq!(text.parse::<GolfAction>().unwrap().to_string(), canonical);
    }
    for bad in ["count x", "move", "put z9", "e5e5", "hello there"] {
        assert!(bad.parse::<GolfAction>().is_err(), "{bad}");
    }
}

#[test]
fn position_round_trips_mid_demonstration() {
    let mut game = round(3, 1, "kh 9s");
    act(&mut game, 0, "count 3");
    act(&mut game, 1, "count 4");
    act(&mut game, 2, "count 6");
    act(&mut game, 0, "e5g6");
    let text = game.position();
    let back = GolfGame::from_position(&text, &Options::new().with("players", 3), 7).unwrap();
    assert_eq!(back.position(), text);
    assert_eq!(back.legal_actions(0), game.legal_actions(0));
}

#[test]
fn bad_positions_and_options_are_refused() {
    let seven = OPENING_BOARD.lines().skip(1).collect::<Vec<_>>().join("\n");
    let err = GolfGame::from_position(&seven, &Options::new(), 0).unwrap_err();
    assert!(err.0.contains("7 board lines"), "{err}");
    let missing = OPENING_BOARD.replace("K\n", ".\n");
    assert!(GolfGame::from_position(&missing, &Options::new(), 0).unwrap_err().0.contains("16 pieces"));
    assert!(create("golf", Options::new().with("players", 9), 0, None).is_err());
    // A course alone starts a round on it.
    let game = create("golf", Options::new(), 3, Some(OPENING_BOARD)).unwrap();
    assert!(game.position().starts_with(OPENING_BOARD));
}

#[test]
fn registered_as_golf_with_one_to_eight_players() {
    for players in 1..=8 {
        let game: Box<dyn DynGame> = create("golf", Options::new().with("players", players), 1, None).unwrap();
        assert_eq!(game.title(), "Chess Golf");
        assert_eq!(game.seats().len(), players as usize);
        assert_eq!(game.to_act().seats().len(), players as usize, "everyone counts at once");
    }
}
