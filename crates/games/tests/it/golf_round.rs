//! The round of Chess Golf (rules.md, "Chess Golf": Play, Difficulty
//! Level, Game End) through the Game trait and the registry.

use chesskit_core::cards::{officer_deck, Card};
use chesskit_core::game::{Game, GameAction, ScoreOrder, Viewer};
use chesskit_core::rng::GameRng;
use chesskit_core::view::{Journal, View};
use chesskit_core::{ActionRecord, DynGame, GameRecord, Options};
use chesskit_games::golf::round::{DEFAULT_SOLVER_NODES, MAX_SOLVER_NODES};
use chesskit_games::golf::{solve_with, GolfAction, GolfGame, SolveOptions, Verdict};
use chesskit_games::{create, replay};
use shakmaty::Piece;

use crate::golf_book::OPENING_BOARD;

/// A round on the opening example's board, hole 1 dealt `deal` by `dealer`.
fn round(players: usize, dealer: usize, deal: &str) -> Round {
    round_with(players, dealer, deal, Options::new().with("players", players as i64))
}

fn round_with(players: usize, dealer: usize, deal: &str, options: Options) -> Round {
    let mut story = Journal::default();
    let game = GolfGame::open(&options, 7, Some(&round_text(players, dealer, deal)), &mut story)
        .unwrap_or_else(|e| panic!("{e}"));
    Round { game, story }
}

/// A round with the journal its session would keep (a game keeps none):
/// its actions are told there, and its view carries that log.
#[derive(Clone, Debug)]
struct Round {
    game: GolfGame,
    story: Journal,
}

/// `game`, with the story told from now on.
fn told(game: GolfGame) -> Round {
    Round { game, story: Journal::default() }
}

impl std::ops::Deref for Round {
    type Target = GolfGame;
    fn deref(&self) -> &GolfGame {
        &self.game
    }
}

impl Round {
    fn apply(&mut self, seat: usize, action: &GolfAction) -> Result<(), chesskit_core::RuleError> {
        self.game.apply_with(seat, action, &mut self.story)
    }

    fn view(&self, viewer: Viewer) -> View {
        View { log: self.story.for_viewer(viewer, &self.game.seats()), ..self.game.view(viewer) }
    }
}

/// The text position of a round on the opening example's board, hole 1
/// dealt `deal` by `dealer`.
fn round_text(players: usize, dealer: usize, deal: &str) -> String {
    let dealt: Vec<String> = deal.split_whitespace().map(str::to_string).collect();
    let deck: Vec<String> = officer_deck().iter().map(|c| c.to_string()).filter(|c| !dealt.contains(c)).collect();
    let counts = vec!["-"; players].join(" ");
    format!(
        "{OPENING_BOARD}players: {players}\nholes: 9\nmax cards: 6\nhole: 1\ndealer: {dealer}\ncards: {}\ndeck: {}\ndiscard:\ndeal: {deal}\ncounts: {counts}\nphase: counting\n",
        dealt.len(),
        deck.join(" ")
    )
}

fn act(game: &mut Round, seat: usize, text: &str) {
    let action = game.parse_action(seat, text).unwrap_or_else(|e| panic!("{text}: {e}"));
    game.apply(seat, &action).unwrap_or_else(|e| panic!("{text} by seat {seat}: {e}"));
}

fn log(game: &Round) -> Vec<String> {
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
    assert_eq!(sampled.view(Viewer::Seat(0)), game.game.view(Viewer::Seat(0)));
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
    let mut game = told(GolfGame::new(&Options::new().with("players", 2), 11).unwrap());
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

/// "After 9 holes the lowest total wins" (docs/games/golf.md): declared,
/// so that the computer players count a total the right way round.
#[test]
fn the_lowest_total_wins_is_declared_for_the_computer_players() {
    assert_eq!(GolfGame::SCORE_ORDER, ScoreOrder::Lowest);
    assert_eq!(create("golf", Options::new(), 0, None).unwrap().score_order(), ScoreOrder::Lowest);
}

/// The computer's expert advice comes from the solver: the count it
/// proves (over by what the level asks, never under, within the largest
/// count), then, for the seat that demonstrates, the moves of its path.
/// The opening example's hole takes 3 moves.
#[test]
fn the_expert_counts_what_the_solver_proves_and_demonstrates_its_path() {
    let nodes = DEFAULT_SOLVER_NODES;
    let mut game = round(2, 0, "kh 9s");
    assert_eq!(game.expert_action(0, nodes, 0), Some(GolfAction::Count(3)));
    assert_eq!(game.expert_action(0, nodes, 2), Some(GolfAction::Count(5)));
    assert_eq!(game.expert_action(0, nodes, -9), Some(GolfAction::Count(3)), "never below its path");
    act(&mut game, 0, "count 3");
    assert_eq!(game.expert_action(0, nodes, 0), None, "a count is final");
    act(&mut game, 1, "count 5");
    for made in 0..3 {
        assert_eq!(game.expert_action(1, nodes, 0), None, "seat 1 does not demonstrate");
        let Some(GolfAction::Move(m)) = game.expert_action(0, nodes, 0) else {
            panic!("move {} of the path", made + 1)
        };
        act(&mut game, 0, &m.to_string());
    }
    assert_eq!(row(&game, 1)[2], "3", "the demonstration solved the hole in the count");
    assert_eq!(game.expert_action(0, nodes, 0), None, "putting pieces back is the players' own");
}

/// "A failed demonstration is wrong" (docs/games/golf.md): so the expert
/// never gives a count it cannot demonstrate, neither below the path it
/// found (the issue's level 4 counted 1 for a 3-move hole and gave up) nor
/// when its nodes found no path at all; then it says impossible, which
/// never scores worse than a failed count.
#[test]
fn a_failed_demonstration_is_wrong_so_the_expert_counts_only_what_it_can_demonstrate() {
    let game = round(2, 0, "kh 9s");
    let nodes = DEFAULT_SOLVER_NODES;
    for miss in [-1, -2, -20] {
        assert_eq!(game.expert_action(0, nodes, miss), Some(GolfAction::Count(3)), "miss {miss}");
    }
    assert_eq!(game.expert_action(0, 0, 0), Some(GolfAction::Impossible), "no nodes find no path");
}

/// Issue 26: "Resign and Offer a draw do not appear in a puzzle round":
/// golf declares itself a puzzle round, so a two-player round offers
/// neither, and refuses both.
#[test]
fn resign_and_offer_a_draw_do_not_appear_in_a_puzzle_round() {
    let mut game = create("golf", Options::new().with("players", 2), 3, None).unwrap();
    for seat in 0..2 {
        let offered = game.view(Viewer::Seat(seat)).session_actions;
        assert!(!offered.iter().any(|a| a == "resign" || a == "offer draw"), "seat {seat}: {offered:?}");
    }
    assert!(game.apply(0, "resign").unwrap_err().to_string().contains("puzzle round"));
    assert!(game.apply(1, "offer draw").unwrap_err().to_string().contains("puzzle round"));
    assert!(game.record().actions.is_empty());
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

fn total_row(game: &GolfGame, viewer: Viewer) -> Vec<String> {
    game.view(viewer).tables[0].rows.last().unwrap().clone()
}

#[test]
fn a_refused_move_ends_the_demonstration_as_a_failure() {
    // Rulings: a move the referee refuses is a failed demonstration, as the
    // book gives no time to search ("they can't sit and try to solve it at
    // this point"); the demonstrator may not try another move.
    let mut game = round(3, 0, "kh 9s");
    act(&mut game, 0, "count 3");
    act(&mut game, 1, "count 4");
    act(&mut game, 2, "count 5");
    // The bishop on e5 borrows only the knight's move, not its own.
    act(&mut game, 0, "e5h2");
    assert!(
        log(&game)
            .iter()
            .any(|l| l.starts_with("Player 1 tries to move the black bishop from e5 to h2, which is not allowed: ")),
        "{:?}",
        log(&game)
    );
    assert!(game.legal_actions(0).is_empty(), "no second try");
    assert_eq!(game.to_act().seats(), [1]);
    assert!(game.position().starts_with(OPENING_BOARD), "the pieces are reset");
    // A refused move later in the path fails too: after b3c3 the bishop on
    // a2 has no black neighbour to borrow from (the book needs b5b3 first).
    act(&mut game, 1, "b3c3");
    act(&mut game, 1, "a2h2");
    assert_eq!(game.to_act().seats(), [2]);
    assert!(game.position().starts_with(OPENING_BOARD), "the pieces are reset");
    for m in ["b3c3", "b5b3", "a2h2", "put e4"] {
        act(&mut game, 2, m);
    }
    assert_eq!(row(&game, 1), ["1", "Kb", "6 (said 3)", "6 (said 4)", "5"]);
}

#[test]
fn a_bluffed_low_count_never_scores_less_than_an_honest_impossible() {
    // Rulings, scoring: every wrong answer scores the same penalty. The
    // opening example takes 3 moves. Player 1 honestly says impossible;
    // Player 2 bluffs 1 and fails. Both answers are wrong: each scores the
    // larger of the highest count (1) and the moves needed (3), plus one.
    // (The penalty "highest count plus one" alone would give the bluff 2.)
    let mut game = round(2, 0, "kh 9s");
    act(&mut game, 0, "impossible");
    act(&mut game, 1, "count 1");
    act(&mut game, 1, "e5g6");
    assert_eq!(row(&game, 1), ["1", "Kb", "4 (said impossible)", "4 (said 1)"]);
    // Had Player 2 said impossible honestly, they would score the same 4.
    let mut honest = round(2, 0, "kh 9s");
    act(&mut honest, 0, "impossible");
    act(&mut honest, 1, "impossible");
    assert_eq!(row(&honest, 1), ["1", "Kb", "4 (said impossible)", "4 (said impossible)"]);
    // Two bluffs and nobody saying impossible: the referee still settles
    // the hole, so the bluffs cannot escape with the highest count plus one (3).
    let mut bluffs = round(2, 0, "kh 9s");
    act(&mut bluffs, 0, "count 1");
    act(&mut bluffs, 1, "count 2");
    act(&mut bluffs, 0, "e5g6");
    act(&mut bluffs, 1, "give up");
    assert!(log(&bluffs).iter().any(|l| l.starts_with("The referee solves it in 3 moves")));
    assert_eq!(row(&bluffs, 1), ["1", "Kb", "4 (said 1)", "4 (said 2)"]);
    // After a successful demonstration the book's numbers stand: the
    // failed bluff and "impossible" both score the highest count plus one.
    let mut demo = round(3, 0, "kh 9s");
    act(&mut demo, 0, "count 1");
    act(&mut demo, 1, "count 3");
    act(&mut demo, 2, "impossible");
    act(&mut demo, 0, "give up");
    for m in ["e5g6", "g6h5", "h5h2", "put a1"] {
        act(&mut demo, 1, m);
    }
    assert_eq!(row(&demo, 1), ["1", "Kb", "4 (said 1)", "3", "4 (said impossible)"]);
}

#[test]
fn an_impossible_the_referee_cannot_prove_counts_as_wrong() {
    // Rulings: "impossible" scores 0 only when the referee proves it. Here
    // the search limit (solver_nodes) is 1, so the search stops with only a
    // lower bound: the answers are wrong and score that bound plus one.
    let options = Options::new().with("players", 2).with("solver_nodes", 1);
    let mut game = round_with(2, 0, "kh 9s", options);
    let limited = SolveOptions { max_nodes: 1, ..SolveOptions::default() };
    let Verdict::Unknown { at_least } = solve_with(&game.puzzle(), &limited).verdict else {
        panic!("one node cannot settle the opening example")
    };
    assert!(at_least >= 1);
    act(&mut game, 0, "impossible");
    act(&mut game, 1, "impossible");
    assert!(log(&game).iter().any(|l| l.contains("reaches its limit without a proof")), "{:?}", log(&game));
    let wrong = format!("{} (said impossible)", at_least + 1);
    assert_eq!(row(&game, 1), ["1".to_string(), "Kb".to_string(), wrong.clone(), wrong]);
}

/// Play a round to its end: every seat counts `count(hole, seat)`, and a
/// demonstrator gives up at once. Returns the cards dealt per hole.
fn play_out(game: &mut Round, count: impl Fn(usize, usize) -> &'static str) -> Vec<usize> {
    let mut dealt = Vec::new();
    while !game.to_act().is_over() {
        if game.to_act().seats().len() == game.seats().len() && game.count_of(0).is_none() {
            dealt.push(game.cards_per_hole());
        }
        for seat in game.to_act().seats().to_vec() {
            match game.legal_actions(seat)[0] {
                GolfAction::Count(_) => act(game, seat, count(game.hole(), seat)),
                _ => act(game, seat, "give up"),
            }
        }
    }
    dealt
}

#[test]
fn the_cards_grow_as_the_book_allows_ten_in_nine_holes() {
    // Difficulty Level: "If all players pick the same number of moves on a
    // turn with three cards, the dealer may increase to four cards, and so
    // on": no cap but the 16 cards. A solitaire round agrees every hole, so
    // 9 holes deal 2, 3, ..., 10 cards.
    let spec = GolfGame::option_specs().into_iter().find(|o| o.name == "max_cards").unwrap();
    assert_eq!(spec.default, 16);
    let options = Options::new().with("players", 1).with("solver_nodes", 2000);
    let mut game = told(GolfGame::new(&options, 5).unwrap());
    assert_eq!(play_out(&mut game, |_, _| "count 1"), (2..=10).collect::<Vec<_>>());
    // The table may cap it lower.
    let mut capped = told(GolfGame::new(&options.clone().with("max_cards", 4), 5).unwrap());
    assert_eq!(play_out(&mut capped, |_, _| "count 1"), [2, 3, 4, 4, 4, 4, 4, 4, 4]);
}

#[test]
fn the_discard_pile_is_shuffled_back_in_when_the_deck_runs_short() {
    // Game End: "If you don't have enough cards to deal, shuffle the
    // discard pile back in before you deal." Two cards a hole (the counts
    // never agree): after 8 holes the 16 cards are used, so hole 9 reshuffles.
    let options = Options::new().with("players", 2).with("solver_nodes", 2000);
    let mut game = told(GolfGame::new(&options, 3).unwrap());
    let zones = |game: &GolfGame| {
        let view = game.view(Viewer::Spectator);
        (view.zones[1].hidden, view.zones[2].cards.len())
    };
    while game.hole() < 9 {
        let seats = game.to_act().seats().to_vec();
        for seat in seats {
            match game.legal_actions(seat)[0] {
                GolfAction::Count(_) => act(&mut game, seat, if seat == 0 { "count 1" } else { "count 2" }),
                _ => act(&mut game, seat, "give up"),
            }
        }
        if game.hole() == 8 {
            assert_eq!(zones(&game), (0, 14), "hole 8 drew the last two cards");
        }
    }
    assert!(log(&game).iter().any(|l| l == "The discard pile is shuffled back into the deck"));
    assert_eq!(zones(&game), (14, 0), "16 cards shuffled, 2 of them dealt");
}

#[test]
fn tied_totals_share_the_win() {
    // Game End: the lowest total wins; "a tie goes to the best dressed
    // player" is left to the table (Rulings): both players win.
    let options = Options::new().with("players", 2).with("solver_nodes", 2000);
    let mut game = told(GolfGame::new(&options, 8).unwrap());
    play_out(&mut game, |_, _| "impossible");
    let totals = game.totals();
    assert_eq!(totals[0], totals[1]);
    let outcome = game.to_act().outcome().unwrap().clone();
    assert_eq!(outcome.winners, [0, 1]);
    assert!(log(&game).iter().any(|l| l == "The round is over: Player 1 and Player 2 share the win"));
}

/// Hole 2 of a round on the opening board, 3 cards `deal` (piece letters)
/// after a first hole where both players counted 3 (so the cards grew).
fn hole_two_of_three_cards(deal: &str) -> Round {
    let mut deck: Vec<String> = officer_deck().iter().map(|c| c.to_string()).collect();
    deck.retain(|c| c != "kh" && c != "9s");
    let mut dealt = Vec::new();
    for c in deal.chars() {
        let piece = Piece::from_char(c).unwrap();
        let i = deck.iter().position(|d| d.parse::<Card>().unwrap().piece() == Some(piece)).unwrap();
        dealt.push(deck.remove(i));
    }
    let text = format!(
        "{OPENING_BOARD}players: 2\nholes: 9\nmax cards: 6\nhole: 2\ndealer: 0\ncards: 3\ndeck: {}\ndiscard: kh 9s\n\
         deal: {}\ncounts: - -\nplayed: Kb | 3 3 | 3 3\nphase: counting\n",
        deck.join(" "),
        dealt.join(" ")
    );
    told(GolfGame::from_position(&text, &Options::new(), 7).unwrap_or_else(|e| panic!("{e}")))
}

#[test]
fn several_captured_pieces_are_put_back_one_at_a_time() {
    // Play: "add any captured pieces back to the board in any empty
    // squares". Chosen white rook, black rook, black bishop: the rook on
    // a4 captures the rook on b5, the bishop steps to c4, and the rook takes it.
    let mut game = hole_two_of_three_cards("Rrb");
    act(&mut game, 0, "count 3");
    act(&mut game, 1, "count 4");
    for m in ["a4b5", "e5c4", "b5c4"] {
        act(&mut game, 0, m);
    }
    assert!(log(&game).iter().any(|l| l == "Player 1 solves the puzzle in 3 moves"), "{:?}", log(&game));
    let prompt = game.view(Viewer::Seat(0)).prompt.unwrap();
    assert_eq!(prompt, "Put the captured black bishop back: choose an empty square");
    // The scores are settled once the demonstration succeeds: the sheet
    // and the total show them during the put-back.
    assert_eq!(row(&game, 2), ["2", "Rrb", "3", "4"]);
    assert_eq!(total_row(&game, Viewer::Spectator), ["Total", "", "6", "7"]);
    assert!(game.apply(0, &"put c4".parse().unwrap()).is_err(), "c4 is not empty");
    act(&mut game, 0, "put e5");
    // Half way: the position reads back as it was written.
    let text = game.position();
    let back = GolfGame::from_position(&text, &Options::new(), 7).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(back.position(), text);
    assert_eq!(game.view(Viewer::Seat(0)).prompt.unwrap(), "Put the captured black rook back: choose an empty square");
    act(&mut game, 0, "put b5");
    let pos = game.position();
    assert!(
        pos.starts_with(". . B . . . R .\n. . . . . k . .\n. r . n . N . .\n. r . . b . . .\n. . R . . . q .\n"),
        "{pos}"
    );
    assert!(pos.contains("hole: 3\n"), "{pos}");
    assert_eq!(total_row(&game, Viewer::Spectator), ["Total", "", "6", "7"]);
}

#[test]
fn texts_for_players_are_plain_words() {
    let mut game = round(2, 0, "kh 9s");
    let prompt = game.view(Viewer::Seat(0)).prompt.unwrap();
    assert!(prompt.starts_with("How many moves does it take"), "{prompt}");
    assert!(!prompt.contains("count N"), "{prompt}");
    act(&mut game, 0, "count 1");
    act(&mut game, 1, "count 3");
    // "1 move", never "1 moves".
    assert!(log(&game).iter().any(|l| l == "Player 1 demonstrates a path of 1 move"), "{:?}", log(&game));
    let prompt = game.view(Viewer::Seat(0)).prompt.unwrap();
    assert_eq!(prompt, "Demonstrate your path: make move 1 of at most 1, or give up. A move that is not allowed ends your demonstration");
    let labels: Vec<String> = game.legal_actions(0).iter().filter_map(|a| a.info().label).collect();
    assert!(
        labels.contains(&"Move from e5 to g6".to_string()) && labels.contains(&"Give up".to_string()),
        "{labels:?}"
    );
    act(&mut game, 0, "e5g6");
    assert!(log(&game).iter().any(|l| l == "Player 1 moves the black bishop from e5 to g6"), "{:?}", log(&game));
    assert!(log(&game).iter().any(|l| l.starts_with("Player 1 used every move of the count")), "{:?}", log(&game));
    for m in ["e5g6", "g6h5"] {
        act(&mut game, 1, m);
    }
    act(&mut game, 1, "h5h2");
    assert!(log(&game).iter().any(|l| l == "Player 2 captures the white king on h2 with the black bishop from h5"));
    let labels: Vec<String> = game.legal_actions(1).iter().filter_map(|a| a.info().label).collect();
    assert!(labels.contains(&"Put it back on a1".to_string()), "{labels:?}");
    let counts: Vec<String> = [GolfAction::Count(1), GolfAction::Count(3), GolfAction::Impossible]
        .iter()
        .map(|a| a.info().label.unwrap())
        .collect();
    assert_eq!(counts, ["1 move", "3 moves", "Impossible"]);
}

/// A valid position at hole 2 after one hole: counts 5, 3, impossible.
fn after_one_hole() -> String {
    let mut game = round(3, 0, "kh 9s");
    act(&mut game, 0, "count 5");
    act(&mut game, 1, "count 3");
    act(&mut game, 2, "impossible");
    for m in ["e5g6", "g6h5", "h5h2", "put a1"] {
        act(&mut game, 1, m);
    }
    game.position()
}

fn refusal(text: &str) -> String {
    match GolfGame::from_position(text, &Options::new(), 7) {
        Ok(_) => panic!("accepted:\n{text}"),
        Err(e) => e.0,
    }
}

#[test]
fn a_resumed_position_that_play_cannot_reach_is_refused() {
    let good = after_one_hole();
    assert!(good.contains("played: Kb | 5 3 0 | 5 3 6\n"), "{good}");
    assert!(good.contains("discard: kh 9s\n"), "{good}");
    assert!(GolfGame::from_position(&good, &Options::new(), 7).is_ok());
    let cases: Vec<(String, &str)> = vec![
        (good.replace("hole: 2\n", "hole: 3\n"), "the score sheet needs 2 played: lines, found 1"),
        (good.replace("hole: 2\n", "hole: 12\n"), "(hole): 12 is not within 1 to 9"),
        (good.replace("cards: 2\n", "cards: 3\n"), "the difficulty rule gives 2 cards per hole now, not 3"),
        (good.replace("dealer: 1\n", "dealer: 3\n"), "(dealer): 3 is not within 0 to 2"),
        (
            good.replace("| 5 3 6\n", "| 5 3 4\n"),
            "a wrong answer scores 4, but the penalty is more than the highest count, 5",
        ),
        (good.replace("| 5 3 6\n", "| 5 4 6\n"), "the wrong answers score differently"),
        (good.replace("| 5 3 6\n", "| 5 3 0\n"), "a count stands and an impossible stands"),
        (good.replace("| 5 3 0 |", "| 5 3 25 |"), "counts are 0 to 20"),
        (good.replace("played: Kb |", "played: Kbb |"), "hole 1 deals 2 cards by the difficulty rule, not 3"),
        (good.replace("counts: - - -\n", "counts: 1 2 3\n"), "some count is still to come"),
        (good.replace("counts: - - -\n", "counts: - -\n"), "2 counts for 3 players"),
        (
            good.replace("discard: kh 9s\n", "discard: kh\n").replace("deck: ", "deck: 9s "),
            "discard: white king are not the cards",
        ),
        (good.replace("phase: counting\n", "phase: over\n"), "a finished round of 9 holes ends on hole 9, not 2"),
        (good.replacen("R . . . . . q .", "R . . . . . Q .", 1), "the 16 pieces of the Chess Golf set"),
    ];
    for (text, want) in cases {
        let err = refusal(&text);
        assert!(err.contains(want), "want {want:?}, got {err:?}");
    }
    // Mid-demonstration: the demonstrator must be next in the order.
    let mut game = round(3, 0, "kh 9s");
    act(&mut game, 0, "count 3");
    act(&mut game, 1, "count 4");
    act(&mut game, 2, "count 6");
    act(&mut game, 0, "e5g6");
    let good = game.position();
    assert!(good.contains("demonstrator: 0\n"), "{good}");
    let err = refusal(&good.replace("demonstrator: 0\n", "demonstrator: 1\n"));
    assert!(err.contains("after failed [] seat 0 demonstrates, not 1"), "{err}");
    let err = refusal(&good.replace("failed: \n", "failed: 1\n").replace("demonstrator: 0\n", "demonstrator: 2\n"));
    assert!(err.contains("demonstrator: with these counts players demonstrate in the order 0 1 2"), "{err}");
    let err = refusal(&good.replace("counts: 3 4 6\n", "counts: 1 4 6\n"));
    assert!(err.contains("path: 1 move, but a demonstration of 1 move ends there"), "{err}");
}

#[test]
fn every_position_play_reaches_reads_back() {
    // The checks on a resumed position refuse only what play cannot reach:
    // play rounds where counts are near the optimum (so demonstrations both
    // succeed and fail, holes grow cards, and some are settled by the
    // referee) and read every position back.
    let mut seen = std::collections::BTreeSet::new();
    for (seed, players) in [(1u64, 1usize), (2, 2), (3, 3), (4, 4)] {
        let options = Options::new().with("players", players as i64).with("solver_nodes", 20_000);
        let mut game = told(GolfGame::new(&options, seed).unwrap());
        let mut rng = GameRng::from_seed(seed);
        let limits = SolveOptions { max_nodes: 20_000, ..SolveOptions::default() };
        let mut path = Vec::new();
        let mut steps = 0;
        while !game.to_act().is_over() {
            steps += 1;
            assert!(steps < 2000, "the round ends");
            let seat = game.to_act().seats()[0];
            let action = match game.legal_actions(seat)[0] {
                GolfAction::Count(_) | GolfAction::Impossible => {
                    let solution = solve_with(&game.puzzle(), &limits);
                    path = solution.moves().map(<[_]>::to_vec).unwrap_or_default();
                    let optimum = path.len() as u32;
                    match (optimum, rng.below(4)) {
                        (0, _) | (_, 0) => GolfAction::Impossible,
                        (n, 1) => GolfAction::Count(n.saturating_sub(1).max(1)),
                        (n, 2) => GolfAction::Count(n),
                        (n, _) => GolfAction::Count((n + 1).min(20)),
                    }
                }
                GolfAction::Move(_) | GolfAction::GiveUp => {
                    let made = game.demonstration_moves();
                    match path.get(made) {
                        Some(&m) if game.count_of(seat).unwrap() as usize >= path.len() => GolfAction::Move(m),
                        _ => *rng.choose(&game.legal_actions(seat)).unwrap(),
                    }
                }
                GolfAction::Put(_) => *rng.choose(&game.legal_actions(seat)).unwrap(),
            };
            game.apply(seat, &action).unwrap_or_else(|e| panic!("{action}: {e}"));
            let text = game.position();
            let back = GolfGame::from_position(&text, &options, 7).unwrap_or_else(|e| panic!("{e}\n{text}"));
            assert_eq!(back.position(), text);
            for (what, found) in [
                ("returning", text.contains("phase: returning")),
                ("failed", text.lines().any(|l| l.starts_with("failed: ") && l.len() > 8)),
                ("mid-path", text.contains("phase: demonstrating") && !text.contains("path: \n")),
                ("grown", text.contains("cards: 4\n")),
                ("settled", log(&game).iter().any(|l| l.starts_with("The referee"))),
            ] {
                if found {
                    seen.insert(what);
                }
            }
        }
    }
    assert_eq!(seen.len(), 5, "the rounds reach every kind of position: {seen:?}");
}

#[test]
fn a_refused_move_is_recorded_and_replays() {
    // The refused move is an accepted action (its effect is the failure),
    // so the record replays to the same state.
    let mut game = create("golf", Options::new().with("players", 2), 4, Some(OPENING_BOARD)).unwrap();
    let seats = game.to_act().seats().to_vec();
    for seat in seats {
        game.apply(seat, "count 3").unwrap();
    }
    let demonstrator = game.to_act().seats()[0];
    // The white king on h2 has no white neighbour: it cannot move.
    assert_eq!(game.apply(demonstrator, "h2h3").unwrap(), "h2h3");
    assert!(!game.to_act().seats().contains(&demonstrator), "the demonstration failed");
    let rebuilt = chesskit_games::replay(game.record()).unwrap();
    assert!(rebuilt.same_state(game.as_ref()));
}

/// A registered two-player round on the opening example, hole 1 dealt the
/// white king and the black bishop (the referee solves it in 3), after
/// both players said impossible: the second "impossible" settles the hole.
fn settled_by_the_referee(options: Options) -> Box<dyn DynGame> {
    let mut game = create("golf", options.with("players", 2), 7, Some(&round_text(2, 0, "kh 9s"))).unwrap();
    game.apply(0, "impossible").unwrap();
    game.apply(1, "impossible").unwrap();
    game
}

fn dyn_log(game: &dyn DynGame) -> Vec<String> {
    game.view(Viewer::Spectator).log.into_iter().map(|e| e.text).collect()
}

/// `record` with the round's search limit set to `nodes`.
fn with_solver_nodes(record: &GameRecord, nodes: i64) -> GameRecord {
    let mut record = record.clone();
    record.options = record.options.clone().with("solver_nodes", nodes);
    record
}

#[test]
fn the_referees_finding_is_stored_with_the_action_that_settled_the_hole() {
    // docs/games/golf.md, "The referee's finding": the search runs once,
    // when the action that leaves nobody to demonstrate is taken, and what
    // it concluded is stored with that action.
    let game = settled_by_the_referee(Options::new());
    let actions = &game.record().actions;
    assert_eq!(actions[0].found, None, "the first count settles nothing");
    let found = actions[1].found.as_deref().expect("the last count settled the hole");
    assert_eq!(found.split_whitespace().collect::<Vec<_>>()[0], "solved", "{found}");
    assert_eq!(found.split_whitespace().count(), 4, "the referee's 3 moves: {found}");
    let json = serde_json::to_string(&actions[1]).unwrap();
    assert!(json.contains(&format!(r#""found":"{found}""#)), "{json}");
}

#[test]
fn a_replay_takes_the_stored_finding_and_does_not_search_again() {
    // The replay's search limit is lowered to 1 position, where the search
    // can only stop unproven: the replay still tells the stored path and
    // scores, so it searched nothing.
    let game = settled_by_the_referee(Options::new());
    let starved = with_solver_nodes(game.record(), 1);
    let replayed = replay(&starved).unwrap();
    assert!(dyn_log(&*replayed).iter().any(|l| l.starts_with("The referee solves it in 3 moves")));
    assert_eq!(dyn_log(&*replayed), dyn_log(&*game));
    assert_eq!(replayed.record().actions, game.record().actions, "the finding is kept for the next replay");
    // Without the finding (a log from before findings were kept) the
    // replay searches, and with 1 position it cannot settle the hole.
    let mut old = starved;
    old.actions.iter_mut().for_each(|a| a.found = None);
    let searched = replay(&old).unwrap();
    assert!(dyn_log(&*searched).iter().any(|l| l.contains("reaches its limit without a proof")));
}

#[test]
fn a_stored_finding_that_does_not_fit_is_refused_and_changes_nothing() {
    // A finding from the store is trusted for what only a search could
    // check (a proof of impossible, a lower bound), but one that does not
    // read, whose path does not solve the hole, or that sits on an action
    // settling nothing, is refused with a clear error.
    let game = settled_by_the_referee(Options::new());
    let record = game.record();
    let bad = [
        (1, "solved h2h3", "the stored path does not solve this hole"),
        (1, "solved", "the stored path does not solve this hole"),
        (1, "perhaps", "a finding reads solved MOVES, impossible or unproven N"),
        (1, "unproven many", "is no number of moves"),
        (1, "impossible indeed", "too many"),
        (0, "impossible", "this action settles none"),
    ];
    for (index, found, reason) in bad {
        let mut tampered = record.clone();
        tampered.actions[index].found = Some(found.to_string());
        let error = replay(&tampered).err().unwrap_or_else(|| panic!("{found:?} on action {index} replays")).0;
        assert!(error.contains(reason), "{found:?}: {error}");
        let mut before = replay(&GameRecord { actions: record.actions[..index].to_vec(), ..record.clone() }).unwrap();
        let unchanged = before.clone_box();
        assert!(before.apply_record(&tampered.actions[index]).is_err());
        assert!(before.same_state(&*unchanged) && before.record() == unchanged.record(), "{found:?} changed the game");
    }
    let mut chat = create("golf", Options::new(), 7, Some(&round_text(2, 0, "kh 9s"))).unwrap();
    let said = ActionRecord::new(0, "say hi").with_found(Some("impossible".to_string()));
    let error = chat.apply_record(&said).unwrap_err().to_string();
    assert!(error.contains("a step of the table finds nothing"), "{error}");
    assert!(chat.record().actions.is_empty());
}

#[test]
fn solver_nodes_above_the_servers_limit_is_refused_naming_it() {
    // Issue 24: a one-player round at hole 14 of 18 with 15 cards
    // (tests/data/golf_stall_hole14.txt, from the issue) was created with
    // solver_nodes 10^13, and its "impossible" searched without end. A
    // round may ask for at most MAX_SOLVER_NODES positions.
    let stalled = include_str!("../data/golf_stall_hole14.txt");
    let greedy = Options::new().with("players", 1).with("solver_nodes", 10_000_000_000_000_i64);
    let error = create("golf", greedy, 0, Some(stalled)).err().expect("10^13 positions is refused").0;
    assert!(error.contains(&MAX_SOLVER_NODES.to_string()), "the error names the limit: {error}");
    let direct = GolfGame::from_position(stalled, &Options::new().with("solver_nodes", MAX_SOLVER_NODES as i64 + 1), 0);
    assert!(direct.unwrap_err().0.contains(&MAX_SOLVER_NODES.to_string()));
    let capped = Options::new().with("players", 1).with("solver_nodes", MAX_SOLVER_NODES as i64);
    assert_eq!(GolfGame::from_position(stalled, &capped, 0).unwrap().solver_nodes(), MAX_SOLVER_NODES);
    let spec = GolfGame::option_specs().into_iter().find(|o| o.name == "solver_nodes").unwrap();
    assert_eq!(spec.default, DEFAULT_SOLVER_NODES as i64);
    assert!(GolfGame::new(&Options::new(), 0).unwrap().solver_nodes() <= MAX_SOLVER_NODES, "the default is allowed");
}
