//! One test per clause of new-rules-2025, "Neighbour Chess Solitaire",
//! and per ruling of docs/games/neighbour.md. The book has no worked
//! example of this game (crates/games/testdata/book-examples.md has none).

use chesskit_core::cards::{Card, Deck};
use chesskit_core::chess::fen::parse_board;
use chesskit_core::game::{Game, RuleError, ToAct, Viewer};
use chesskit_core::options::Options;
use chesskit_core::rng::GameRng;
use shakmaty::{Color, Role};

use super::rules::{self, landing_squares, target_square};
use super::{NeighbourAction, NeighbourGame, Phase};
use crate::testing::{act, check_position_hash, refused, sq};

fn cards(text: &str) -> Vec<Card> {
    text.split_whitespace().map(|c| c.parse().unwrap()).collect()
}

/// A game in `phase` with `board` and the next cards of each deck (next
/// first); the discard piles are left empty, which the rules never read.
fn game(board: &str, phase: Phase, last: Option<&str>, pieces: &str, positions: &str) -> NeighbourGame {
    let mut game = NeighbourGame::new(&Options::new(), 0).unwrap();
    game.board = parse_board(board).unwrap().0;
    game.phase = phase;
    game.last = last.map(sq);
    game.pieces = Deck::new(cards(pieces).into_iter().rev().collect());
    game.positions = Deck::new(cards(positions).into_iter().rev().collect());
    game
}

fn texts(game: &NeighbourGame) -> Vec<String> {
    game.legal_actions(0).iter().map(|a| a.to_string()).collect()
}

fn score(game: &NeighbourGame) -> Option<i64> {
    game.to_act().outcome().and_then(|o| o.scores.as_ref()).map(|s| s[0])
}

#[test]
fn setup_the_pieces_deck_is_appendix_a_without_pawns() {
    let deck = rules::pieces_deck();
    assert_eq!(deck.len(), 16);
    for colour in Color::ALL {
        let count = |role: Role| deck.iter().filter(|c| c.piece() == Some(role.of(colour))).count();
        assert_eq!([Role::Knight, Role::Bishop, Role::Rook, Role::Queen, Role::King].map(count), [2, 2, 2, 1, 1]);
        assert_eq!(count(Role::Pawn), 0);
    }
}

#[test]
fn setup_the_positions_deck_is_2_to_6_of_every_suit() {
    let mut deck: Vec<String> = rules::positions_deck().iter().map(|c| c.to_string()).collect();
    deck.sort();
    let mut expected: Vec<String> =
        "2s 3s 4s 5s 6s 2h 3h 4h 5h 6h 2d 3d 4d 5d 6d 2c 3c 4c 5c 6c".split_whitespace().map(String::from).collect();
    expected.sort();
    assert_eq!(deck, expected);
}

#[test]
fn setup_shuffle_each_deck_from_the_seed() {
    let a = NeighbourGame::new(&Options::new(), 7).unwrap();
    let b = NeighbourGame::new(&Options::new(), 7).unwrap();
    let c = NeighbourGame::new(&Options::new(), 8).unwrap();
    assert_eq!(a, b, "the same seed deals the same decks");
    assert_ne!(a.pieces_to_come(), c.pieces_to_come());
    assert_eq!(a.pieces_to_come().len(), 16);
    assert_eq!(a.positions_to_come().len(), 20);
    assert!(a.board.occupied().is_empty(), "the pieces start beside the board");
    assert_eq!(texts(&a), ["add"], "the first thing to do is to add a piece");
}

#[test]
fn play_steps_1_to_4_the_first_piece_starts_above_the_bottom_left_corner() {
    let mut g = game("8/8/8/8/8/8/8/8", Phase::Adding, None, "10h 8s", "3d 4s");
    act(&mut g, "add");
    assert_eq!(g.board.piece_at(sq("d1")), Some(Role::Rook.of(Color::White)), "a1, three squares right");
    assert_eq!(g.pieces_discard, cards("10h"), "the piece card goes to its discard pile");
    assert_eq!(g.positions_discard, cards("3d"), "the position card goes to a second discard pile");
    assert_eq!(g.last, Some(sq("d1")));
}

#[test]
fn play_step_2_later_pieces_start_above_the_last_piece_added() {
    let mut g = game("8/8/8/8/8/8/8/8", Phase::Adding, None, "10h 8s", "3d 4s");
    act(&mut g, "add");
    act(&mut g, "add");
    assert_eq!(g.board.piece_at(sq("d5")), Some(Role::Knight.of(Color::Black)), "d1, four squares up");
}

#[test]
fn play_step_4_red_cards_move_right_black_cards_up() {
    assert_eq!(target_square(sq("b2"), "2h".parse().unwrap()), sq("d2"));
    assert_eq!(target_square(sq("b2"), "5d".parse().unwrap()), sq("g2"));
    assert_eq!(target_square(sq("b2"), "2s".parse().unwrap()), sq("b4"));
    assert_eq!(target_square(sq("b2"), "5c".parse().unwrap()), sq("b7"));
}

#[test]
fn play_step_4_off_the_edge_loop_around_and_keep_counting() {
    assert_eq!(target_square(sq("g3"), "4h".parse().unwrap()), sq("c3"), "g3 h3 | a3 b3 c3");
    assert_eq!(target_square(sq("e7"), "6s".parse().unwrap()), sq("e5"), "e7 e8 | e1 ... e5");
    assert_eq!(target_square(sq("a1"), "6c".parse().unwrap()), sq("a7"));
}

#[test]
fn play_step_5_an_occupied_square_sends_the_piece_to_a_neighbour_of_the_players_choice() {
    // The rook is on d1 (last added); 4 up would be d5, where a knight stands.
    let mut g = game("8/8/8/3n4/8/8/8/3R4", Phase::Adding, Some("d1"), "9h", "4c");
    act(&mut g, "add");
    assert_eq!(g.phase, Phase::Placing);
    assert_eq!(g.placing_target(), Some(sq("d5")));
    assert_eq!(
        texts(&g),
        ["place c4", "place d4", "place e4", "place c5", "place e5", "place c6", "place d6", "place e6"]
    );
    let error = refused(&mut g, "add");
    assert!(error.contains("d5, which is taken"), "{error}");
    let error = refused(&mut g, "place d3");
    assert!(error.contains("nearest empty squares"), "{error}");
    act(&mut g, "place e6");
    assert_eq!(g.board.piece_at(sq("e6")), Some(Role::Bishop.of(Color::White)));
    assert_eq!(g.last, Some(sq("e6")), "the next piece starts from where this one landed");
    assert_eq!(g.phase, Phase::Adding);
}

#[test]
fn play_step_5_when_all_eight_neighbours_are_occupied_go_to_their_neighbours() {
    let board = parse_board("8/8/8/2nnn3/2nNn3/2nnn3/8/8").unwrap().0;
    let landing = landing_squares(board.occupied(), sq("d4"));
    assert_eq!(landing.count(), 16, "the ring two squares away");
    assert!(landing.contains(sq("b2")) && landing.contains(sq("f6")) && !landing.contains(sq("c3")));
}

#[test]
fn play_step_5_no_wrap_around_so_corners_have_fewer_neighbours() {
    let board = parse_board("8/8/8/8/8/8/NN6/NN5N").unwrap().0;
    let landing = landing_squares(board.occupied(), sq("a1"));
    let names: Vec<String> = landing.into_iter().map(|s| s.to_string()).collect();
    assert_eq!(names, ["c1", "c2", "a3", "b3", "c3"], "h1 and the eighth rank are not next to a1");
}

#[test]
fn play_step_5_a_single_nearest_square_needs_no_choice() {
    // h1 full of neighbours but g2: the piece sent to h1 lands on g2 at once.
    let mut g = game("n7/8/8/8/8/8/7N/5RNB", Phase::Adding, Some("f1"), "kh", "2h");
    act(&mut g, "add");
    assert_eq!(g.board.piece_at(sq("g2")), Some(Role::King.of(Color::White)));
    assert_eq!(g.phase, Phase::Adding);
}

#[test]
fn after_adding_any_piece_you_may_stop_adding() {
    let mut g = game("8/8/8/8/8/8/8/8", Phase::Adding, None, "10h 8s", "3d 4s");
    let error = refused(&mut g, "stop");
    assert!(error.contains("at least one piece"), "{error}");
    act(&mut g, "add");
    assert_eq!(texts(&g), ["add", "stop"]);
    act(&mut g, "stop");
    assert_eq!(g.phase, Phase::Moving);
    let mut g = game("7n/8/8/8/8/8/1K6/R7", Phase::Moving, None, "8d", "2h");
    let error = refused(&mut g, "add");
    assert!(error.contains("stopped adding"), "{error}");
}

/// "You may choose to stop adding": a choice for good, so the view says
/// what it means before the player makes it, and says when stopping with
/// the pieces as they stand loses at once (one piece cannot move).
#[test]
fn stop_adding_is_asked_first_saying_it_ends_the_game_when_no_piece_could_move() {
    let confirm = |g: &NeighbourGame| {
        let stop = g.legal_actions(0).into_iter().find(|a| *a == NeighbourAction::Stop).expect("stop is offered");
        g.describe_action(0, &stop).confirm.expect("stopping is asked first")
    };
    let one = game("8/8/8/8/8/8/8/R7", Phase::Adding, Some("a1"), "10h 8s", "3d 4s");
    let warning = confirm(&one);
    assert!(warning.contains("No piece is added again"), "{warning}");
    assert!(warning.contains("ends the game at once with 0 points: no piece can move"), "{warning}");
    let three = game("7n/8/8/8/8/8/8/RR6", Phase::Adding, Some("b1"), "10h 8s", "3d 4s");
    let warning = confirm(&three);
    assert!(warning.contains("Stop adding with 3 pieces on the board?"), "{warning}");
    assert!(!warning.contains("ends the game"), "two rooks side by side can move: {warning}");
    assert_eq!(three.describe_action(0, &NeighbourAction::Add).confirm, None, "adding is not asked first");
}

#[test]
fn when_the_pieces_deck_is_empty_the_only_choice_is_to_stop() {
    let mut g = game("8/8/8/8/8/8/8/R1n5", Phase::Adding, Some("c1"), "", "2h 3h 4h 5h");
    assert_eq!(texts(&g), ["stop"]);
    let error = refused(&mut g, "add");
    assert!(error.contains("pieces deck is empty"), "{error}");
}

#[test]
fn moving_step_1_spend_a_card_before_each_move() {
    let mut g = game("7n/8/8/8/8/8/1K6/R7", Phase::Moving, None, "8d", "2h 3h");
    assert_eq!(g.cards_left(), 3);
    act(&mut g, "a1a2");
    assert_eq!(g.spent, cards("8d"), "the pieces deck pays first (our ruling)");
    assert_eq!(g.cards_left(), 2);
    act(&mut g, "a2a1");
    assert_eq!(g.spent, cards("8d 2h"), "then the positions deck");
}

#[test]
fn moving_step_2_a_piece_uses_the_move_of_a_same_coloured_neighbour() {
    // The white knight on b1 borrows the white rook's move; the rook borrows
    // the knight's jump; the black knight on g1 has no black neighbour.
    let g = game("8/8/8/8/8/8/8/RN4n1", Phase::Moving, None, "8d", "2h");
    let knight = rules::destinations(&g.board, sq("b1"));
    assert!(knight.contains(sq("b8")) && knight.contains(sq("f1")) && !knight.contains(sq("g1")));
    assert!(!knight.contains(sq("c3")), "not its own jump");
    let rook = rules::destinations(&g.board, sq("a1"));
    let names: Vec<String> = rook.into_iter().map(|s| s.to_string()).collect();
    assert_eq!(names, ["c2", "b3"], "a knight's jumps from a1");
}

#[test]
fn moving_step_2_sliding_moves_are_blocked_and_nothing_is_captured() {
    let mut g = game("8/8/8/8/4n3/8/8/3QN3", Phase::Moving, None, "8d", "2h");
    let knight = rules::destinations(&g.board, sq("e1"));
    assert!(knight.contains(sq("e3")) && knight.contains(sq("a5")), "the queen's lines");
    assert!(!knight.contains(sq("e4")), "no capture on e4");
    assert!(!knight.contains(sq("e5")), "the slide stops at e4");
    let queen_moves = rules::destinations(&g.board, sq("d1"));
    assert!(queen_moves.contains(sq("c3")) && queen_moves.contains(sq("f2")) && !queen_moves.contains(sq("d2")));
    let error = refused(&mut g, "e1d3");
    assert!(error.contains("cannot reach d3"), "{error}");
    let error = refused(&mut g, "d1e1");
    assert!(error.contains("occupied"), "{error}");
    // The knight lends no slide through d2 to d4: d4 is occupied anyway.
    let g2 = game("8/8/8/8/8/8/3n4/3RR3", Phase::Moving, None, "8d", "2h");
    let rook = rules::destinations(&g2.board, sq("d1"));
    assert!(!rook.contains(sq("d3")), "the black knight on d2 blocks the slide");
}

#[test]
fn moving_step_2_a_piece_with_no_same_coloured_neighbour_cannot_move() {
    let mut g = game("8/8/8/8/8/8/6QK/Rn1N4", Phase::Moving, None, "8d", "2h");
    assert!(rules::destinations(&g.board, sq("a1")).is_empty(), "its neighbour is black");
    let error = refused(&mut g, "a1a5");
    assert!(error.contains("no same-coloured neighbour"), "{error}");
    let g = game("8/8/8/8/8/8/8/Rn1N4", Phase::Moving, None, "8d", "2h");
    assert_eq!(g.to_act().outcome().unwrap().reason, "no piece can move", "nobody can move: the game is lost");
    assert_eq!(score(&g), Some(0));
}

#[test]
fn winning_all_eight_neighbours_connect_diagonals_included() {
    // docs/games/neighbour.md, "Rulings".
    assert!(rules::is_one_group(parse_board("8/8/8/8/8/2n5/1N6/R7").unwrap().0.occupied()));
    assert!(!rules::is_one_group(parse_board("8/8/8/8/2n5/8/1N6/R7").unwrap().0.occupied()));
    assert!(!rules::is_one_group(parse_board("8/8/8/8/8/8/8/R7").unwrap().0.occupied()), "one piece is no group");
    assert!(!rules::is_one_group(parse_board("8/8/8/8/8/8/8/R6N").unwrap().0.occupied()), "no wrap-around");
}

#[test]
fn winning_one_connected_group_scores_the_cards_left_in_both_draw_piles() {
    let mut g = game("8/8/8/8/8/8/3B4/RN6", Phase::Moving, None, "8d 9d", "2h 3h 4h");
    assert!(g.to_act().outcome().is_none(), "b1 and d2 are apart");
    act(&mut g, "a1c2");
    let ToAct::Over(outcome) = g.to_act() else { panic!("b1 c2 d2 are one group") };
    assert_eq!(outcome.winners, [0]);
    assert_eq!(outcome.reason, "one connected group");
    assert_eq!(score(&g), Some(4), "five cards less the one spent");
    assert!(g.legal_actions(0).is_empty());
    assert_eq!(refused(&mut g, "c1c5"), RuleError::GameOver.to_string());
}

#[test]
fn winning_is_checked_after_adding_too() {
    // d1 plus two to the right is f1, next to the queen on e2, which is next
    // to the rook on d1: one group at once, with no move.
    // b1 plus two to the right is d1, next to c2 (next to b1) and e2.
    let mut g = game("8/8/8/8/8/8/2N1Q3/1R6", Phase::Adding, Some("b1"), "8h 9h", "2h 3h");
    assert!(g.to_act().outcome().is_none());
    act(&mut g, "add");
    let outcome = g.to_act().outcome().cloned().expect("b1, c2, d1, e2 are one group");
    assert_eq!(outcome.winners, [0]);
    assert_eq!(score(&g), Some(2), "one card left in each deck");
    let mut g = game("8/8/8/8/8/8/2N1Q3/1R6", Phase::Adding, Some("b1"), "8h 9h", "3h 2h");
    act(&mut g, "add");
    assert!(g.to_act().outcome().is_none(), "e1 joins e2 only");
}

#[test]
fn the_game_is_lost_when_no_card_is_left_to_spend() {
    let g = game("8/8/8/8/8/8/8/RN4n1", Phase::Moving, None, "", "");
    let outcome = g.to_act().outcome().cloned().unwrap();
    assert!(outcome.winners.is_empty());
    assert_eq!(outcome.reason, "no card left to spend");
    assert_eq!(score(&g), Some(0));
}

#[test]
fn one_seat_without_colour() {
    let g = NeighbourGame::new(&Options::new(), 1).unwrap();
    let seats = g.seats();
    assert_eq!(seats.len(), 1);
    assert_eq!(seats[0].colour, None);
    assert!(g.legal_actions(1).is_empty());
    let mut g2 = g.clone();
    assert!(matches!(g2.apply(1, &NeighbourAction::Add), Err(RuleError::NoSuchSeat { .. })));
    assert_eq!(g, g2);
}

#[test]
fn actions_have_a_canonical_text() {
    for text in ["add", "stop", "place e4", "e4f6"] {
        assert_eq!(text.parse::<NeighbourAction>().unwrap().to_string(), text);
    }
    assert_eq!("E4-F6".parse::<NeighbourAction>().unwrap().to_string(), "e4f6");
    assert_eq!("move e4 f6".parse::<NeighbourAction>().unwrap().to_string(), "e4f6");
    assert_eq!("Stop adding".parse::<NeighbourAction>().unwrap().to_string(), "stop");
    for bad in ["", "fly", "place", "place z9", "e4", "e4f9", "e4f6g7", "é4f6"] {
        assert!(bad.parse::<NeighbourAction>().is_err(), "{bad}");
    }
}

/// A real game of a seed: add until `pieces` are on the board, choosing the
/// first landing square, then stop.
fn dealt(seed: u64, pieces: usize) -> NeighbourGame {
    let mut g = NeighbourGame::new(&Options::new(), seed).unwrap();
    while g.board.occupied().count() < pieces && g.to_act().outcome().is_none() {
        let action = g.legal_actions(0)[0];
        g.apply(0, &action).unwrap();
    }
    g
}

#[test]
fn text_position_round_trips_in_every_phase() {
    for seed in 0..30 {
        let mut g = dealt(seed, 6);
        let mut rng = GameRng::from_seed(seed);
        for _ in 0..40 {
            let text = g.position();
            let back =
                NeighbourGame::from_position(&text, &Options::new(), 0).unwrap_or_else(|e| panic!("{text}\n{e}"));
            assert_eq!(back.position(), text);
            assert_eq!(back.legal_actions(0), g.legal_actions(0));
            assert_eq!(back.to_act(), g.to_act());
            let actions = g.legal_actions(0);
            let Some(action) = rng.choose(&actions).copied() else { break };
            g.apply(0, &action).unwrap();
        }
    }
}

#[test]
fn text_position_example_of_the_docs() {
    let text = "8/8/8/8/8/8/8/3R4\nphase: adding\nlast: d1\n\
        pieces deck: 8s 9h qs 10c 8h 9s kh ks 10s 8c 10d 9c 9d qh 8d\n\
        positions deck: 5h 2c 6s 3h 4d 2s 6h 5c 3c 4h 3s 2d 5s 6c 4s 6d 2h 5d 4c\n\
        pieces discard: 10h\npositions discard: 3d\nspent:";
    let mut g = NeighbourGame::from_position(text, &Options::new(), 0).unwrap();
    assert_eq!(g.position(), text);
    act(&mut g, "add");
    assert_eq!(g.board.piece_at(sq("a1")), Some(Role::Knight.of(Color::Black)), "d1, five right, wraps to a1");
}

#[test]
fn text_position_refuses_what_cannot_occur() {
    let good = NeighbourGame::new(&Options::new(), 3).unwrap().position();
    let cases = [
        (good.replace("phase: adding", "phase: flying"), "phase"),
        (good.replace("8/8/8/8/8/8/8/8", "8/8/8/8/8/8/8/P7"), "no pawns"),
        (good.replace("8/8/8/8/8/8/8/8", "8/8/8/8/8/8/8/R7"), "flipped piece cards"),
        (good.replacen("pieces deck: ", "pieces deck: 2h ", 1), "twice"),
        (good.replacen("pieces deck: ", "pieces deck: 7h ", 1), "neither deck"),
        (good.replace("spent:", "spent: as"), "neither deck"),
        (format!("{good}\ncolour: red"), "unknown line"),
        (good.replace("last: -", "last: z9"), "last"),
        (String::new(), "empty"),
    ];
    for (text, expected) in cases {
        let error = NeighbourGame::from_position(&text, &Options::new(), 0).unwrap_err().0;
        assert!(error.contains(expected), "{expected:?} not in {error:?} for\n{text}");
    }
    let first = good.lines().nth(3).unwrap().split_whitespace().nth(2).unwrap().to_string();
    let missing = good.replacen(&format!(" {first}"), "", 1);
    let error = NeighbourGame::from_position(&missing, &Options::new(), 0).unwrap_err().0;
    assert!(error.contains("of the 36 cards"), "{error}");
}

#[test]
fn the_deck_order_is_hidden_and_resampled() {
    let g = dealt(5, 4);
    let mut rng = GameRng::from_seed(1);
    let sampled = g.sample_hidden(0, &mut rng);
    assert_eq!(sampled.view(Viewer::Seat(0)), g.view(Viewer::Seat(0)));
    assert_eq!(sampled.board, g.board);
    assert_eq!(sampled.cards_left(), g.cards_left());
    let view = serde_json::to_string(&g.view(Viewer::Spectator)).unwrap();
    let next = g.pieces_to_come()[0].to_string();
    assert!(!view.contains(&format!("\"{next}\"")), "the next piece card is face down");
}

#[test]
fn bad_actions_are_refused_with_the_reason_and_change_nothing() {
    let mut g = dealt(2, 3);
    let error = refused(&mut g, "a1a2");
    assert!(error.contains("add or stop"), "{error}");
    let mut g = game("7n/8/8/8/8/8/1K6/R7", Phase::Moving, None, "8d", "2h");
    let error = refused(&mut g, "e4e5");
    assert!(error.contains("no piece on e4"), "{error}");
    let error = refused(&mut g, "place e4");
    assert!(error.contains("move a piece"), "{error}");
}

/// The search's transposition table may only share what the rules cannot
/// tell apart: see [`check_position_hash`].
#[test]
fn the_position_key_is_the_same_for_the_same_state_and_differs_for_any_change_the_rules_read() {
    check_position_hash::<NeighbourGame>(&Options::new(), 3, 60);
}

/// The search's questions answered without building lists agree with
/// `to_act` and `legal_actions`, and `clone_from` with a fresh clone: see
/// [`crate::testing::check_allocation_free_answers`].
#[test]
fn the_allocation_free_answers_agree_with_to_act_legal_actions_and_clone() {
    crate::testing::check_allocation_free_answers::<NeighbourGame>(&Options::new(), 6, 80);
}
