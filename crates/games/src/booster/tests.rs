//! One test per clause of rules.md "Booster Chess" and docs/games/booster.md,
//! "Rulings" (texts quoted in docs/games/booster.md).

use chesskit_core::cards::Card;
use chesskit_core::chess::{Color, Role, Square};
use chesskit_core::game::{Game, Viewer};
use chesskit_core::options::Options;
use chesskit_core::rng::GameRng;

use super::*;
use crate::testing::{act, check_position_hash, refused, sq};

fn game(position: &str) -> BoosterGame {
    BoosterGame::from_position(position, &Options::new(), 1).unwrap()
}

/// The position with every card of the deck it does not list put at the
/// bottom of its draw pile (or, when it gives an empty draw pile, of its
/// discard pile), so that its cards add up to the 36-card deck.
fn with_the_rest_of_the_deck(position: &str) -> String {
    let listed: Vec<Card> = position
        .lines()
        .filter_map(|line| line.split_once(':'))
        .filter(|(key, _)| key.contains("hand") || key.contains("pile"))
        .flat_map(|(_, cards)| cards.split_whitespace().map(card))
        .collect();
    let mut rest = Setup { white_checkers: 0, black_checkers: 0, checker_cards: 4 }.deck();
    rest.retain(|c| !listed.contains(c));
    rest.sort();
    let rest: Vec<String> = rest.iter().map(Card::to_string).collect();
    let rest = rest.join(" ");
    let pile = if position.contains("draw pile:\n") { "discard pile:" } else { "draw pile:" };
    if position.contains(pile) {
        position.replace(pile, &format!("{pile} {rest}")).replace(&format!("{rest} \n"), &format!("{rest}\n"))
    } else {
        format!("{position}\n{pile} {rest}")
    }
}

/// A game from a position whose cards are completed to the deck, White
/// and Black playing with the given numbers of checkers.
fn dealt(position: &str, white: u32, black: u32) -> BoosterGame {
    let options = Options::new().with("white_checkers", i64::from(white)).with("black_checkers", i64::from(black));
    BoosterGame::from_position(&with_the_rest_of_the_deck(position), &options, 1).unwrap()
}

fn card(text: &str) -> Card {
    text.parse().unwrap()
}

fn texts(g: &BoosterGame) -> Vec<String> {
    g.legal_actions(g.seat()).iter().map(|a| a.to_string()).collect()
}

#[test]
fn equipment_the_deck_is_36_cards_the_32_piece_cards_and_the_four_sixes() {
    let deck = Setup { white_checkers: 6, black_checkers: 6, checker_cards: 4 }.deck();
    assert_eq!(deck.len(), 36);
    assert_eq!(deck.iter().filter(|c| c.rank == 6).count(), 4);
    assert_eq!(deck.iter().filter(|c| c.piece().is_some()).count(), 32);
}

#[test]
fn setup_six_checkers_and_six_cards_each() {
    let g = BoosterGame::new(&Options::new(), 7).unwrap();
    assert_eq!((g.reserve(Color::White), g.reserve(Color::Black)), (6, 6));
    assert_eq!((g.hand(Color::White).len(), g.hand(Color::Black).len()), (6, 6));
    assert_eq!(g.deck_len(), 24);
    let other = BoosterGame::new(&Options::new(), 8).unwrap();
    assert_ne!(g.hand(Color::White), other.hand(Color::White), "the deck is shuffled by the seed");
}

#[test]
fn setup_hands_are_hidden_a_view_shows_own_faces_and_the_opponents_count() {
    let g = BoosterGame::new(&Options::new(), 7).unwrap();
    let view = g.view(Viewer::Seat(0));
    let white = view.zones.iter().find(|z| z.name == "White hand").unwrap();
    let black = view.zones.iter().find(|z| z.name == "Black hand").unwrap();
    assert_eq!(white.cards.len(), 6);
    assert_eq!((black.cards.len(), black.hidden), (0, 6));
    let spectator = g.view(Viewer::Spectator);
    assert!(spectator.zones.iter().all(|z| z.name == "discard pile" || z.cards.is_empty()));
    let json = serde_json::to_string(&g.view(Viewer::Seat(1))).unwrap();
    for c in g.hand(Color::White) {
        let zone = g.view(Viewer::Seat(1)).zones.into_iter().find(|z| z.name == "White hand").unwrap();
        assert!(!zone.cards.contains(&c.to_string()), "{json}");
    }
}

#[test]
fn variants_fewer_or_more_checkers_and_handicap_are_options() {
    let g = BoosterGame::new(&Options::new().with("checkers", 4), 1).unwrap();
    assert_eq!((g.reserve(Color::White), g.hand(Color::Black).len()), (4, 4));
    let g = BoosterGame::new(&Options::new().with("black_checkers", 3), 1).unwrap();
    assert_eq!((g.reserve(Color::White), g.reserve(Color::Black)), (6, 3));
    assert_eq!(g.hand(Color::Black).len(), 3, "always deal one card for each checker");
    let g = BoosterGame::new(&Options::new().with("checker_cards", 8), 1).unwrap();
    assert_eq!(g.deck_len() + 12, 40);
    assert!(BoosterGame::new(&Options::new().with("checkers", 99), 1).is_err());
}

#[test]
fn boosted_piece_steps_like_a_king_after_its_move_spending_a_checker_to_its_owner() {
    let mut g = game("4k3/8/8/8/8/8/8/N{+2}3K3 w - - 0 1\nwhite checkers: 4\nblack checkers: 6");
    act(&mut g, "a1b3");
    assert_eq!(g.phase(), Phase::Spend(sq("b3")));
    act(&mut g, "step b3c4");
    assert_eq!(g.reserve(Color::White), 5, "the spent checker goes back in front of its owner");
    assert_eq!(g.stacks().get(sq("c4"), Color::White), 1);
    assert_eq!(g.phase(), Phase::Spend(sq("c4")), "more than one checker: more king's moves");
    act(&mut g, "step c4d5");
    assert_eq!(g.stacks().get(sq("d5"), Color::White), 0);
    assert_eq!(g.reserve(Color::White), 6);
}

#[test]
fn boosted_piece_may_stop_spending() {
    let mut g = dealt("4k3/8/8/8/8/8/8/N{+2}3K3 w - - 0 1\nwhite checkers: 4\nwhite hand: 2h 3h 4h 5h", 6, 0);
    act(&mut g, "a1b3");
    act(&mut g, "stop");
    assert_eq!(g.stacks().get(sq("b3"), Color::White), 2, "it brings its checkers along");
    assert_eq!(g.phase(), Phase::Add);
}

#[test]
fn hobbled_pawn_cannot_move_at_all() {
    let mut g = game("4k3/8/8/8/8/8/4P{-1}3/4K3 w - - 0 1");
    assert!(refused(&mut g, "e2e3").contains("cannot move at all"));
}

#[test]
fn hobbled_pieces_move_like_pawns_without_the_double_step() {
    let g = game("4k3/8/8/8/8/2p5/8/1R{-2}2K3 w - - 0 1");
    let moves: Vec<String> = texts(&g).into_iter().filter(|t| t.starts_with("b1")).collect();
    assert_eq!(moves, vec!["b1b2".to_string()], "one square forward, no rook moves");
    let g = game("4k3/8/8/8/8/8/8/1N{-1}2K3 w - - 0 1");
    assert!(!texts(&g).contains(&"b1b3".to_string()), "no two-square first move");
    let g = game("4k3/8/8/8/8/2p5/1N{-1}6/4K3 w - - 0 1");
    assert!(texts(&g).contains(&"b2c3".to_string()), "captures diagonally forward");
}

#[test]
fn hobbled_pawn_has_no_double_step() {
    // A pawn is hobbled: no move at all, so no double step either.
    let g = game("4k3/8/8/8/8/8/P{-1}7/4K3 w - - 0 1");
    assert!(!texts(&g).iter().any(|t| t.starts_with("a2")));
}

#[test]
fn opposite_checkers_cancel_in_pairs_at_once() {
    // White's knight with two boosters captures a black bishop on one of its own
    // (boosted) checkers: those are hobble checkers for the knight now, and cancel.
    let mut g = game("4k3/8/8/8/8/1b{+1}6/8/N{+2}3K3 w - - 0 1\nwhite checkers: 4\nblack checkers: 5");
    act(&mut g, "a1b3");
    assert_eq!(g.stacks().get(sq("b3"), Color::White), 1);
    assert_eq!(g.stacks().get(sq("b3"), Color::Black), 0);
    assert_eq!((g.reserve(Color::White), g.reserve(Color::Black)), (5, 6), "one pair back to the owners");
}

#[test]
fn capturing_keeps_the_captured_pieces_checkers_a_hobbled_victim_boosts() {
    let mut g = game("4k3/8/8/8/8/1b{-2}6/8/N3K3 w - - 0 1\nwhite checkers: 4");
    act(&mut g, "a1b3");
    assert_eq!(g.stacks().get(sq("b3"), Color::White), 2, "capturing a hobbled piece leaves you boosted");
    assert_eq!(g.phase(), Phase::Spend(sq("b3")));
}

#[test]
fn capturing_a_boosted_piece_leaves_you_hobbled() {
    let mut g = game("4k3/8/8/8/8/1b{+1}6/8/N3K3 w - - 0 1\nblack checkers: 5");
    act(&mut g, "a1b3");
    assert_eq!(g.stacks().get(sq("b3"), Color::Black), 1);
    assert!(table::hobbled(g.position_board(), g.stacks(), sq("b3")));
}

#[test]
fn hobble_checker_leaves_on_the_far_rank_white_rank_8() {
    let mut g = game("4k3/2N{-1}5/8/8/8/8/8/4K3 w - - 0 1\nblack checkers: 5");
    act(&mut g, "c7c8");
    assert_eq!(g.stacks().get(sq("c8"), Color::Black), 0);
    assert_eq!(g.reserve(Color::Black), 6, "returned to the opponent");
}

#[test]
fn hobble_checker_leaves_on_the_far_rank_black_rank_1() {
    let mut g = game("4k3/8/8/8/8/8/2n{-1}5/6K1 b - - 0 1\nwhite checkers: 5");
    act(&mut g, "c2c1");
    assert_eq!(g.stacks().get(sq("c1"), Color::White), 0);
    assert_eq!(g.reserve(Color::White), 6);
}

#[test]
fn adding_a_checker_by_playing_a_matching_card() {
    let mut g = dealt("4k3/8/8/8/8/8/8/N3K3 w - - 0 1\nwhite hand: 8h 2s\nwhite checkers: 2", 2, 0);
    act(&mut g, "a1b3");
    assert!(refused(&mut g, "play 8h e1").contains("does not match"));
    assert!(refused(&mut g, "play 9h b3").contains("you hold no"));
    act(&mut g, "play 8h b3");
    assert_eq!(g.stacks().get(sq("b3"), Color::White), 1);
    assert_eq!(g.reserve(Color::White), 1);
    assert_eq!(g.hand(Color::White), &[card("2s")], "no draw: one card per checker in front");
    assert_eq!(g.discard, vec![card("8h")]);
}

#[test]
fn checker_cards_match_any_piece_of_their_colour() {
    // A black six: one of White's checkers under any black piece (hobbling it).
    let mut g = dealt("4k3/8/8/8/8/8/8/N3K3 w - - 0 1\nwhite hand: 6s\nwhite checkers: 1", 1, 0);
    act(&mut g, "a1b3");
    assert!(texts(&g).contains(&"play 6s e8".to_string()));
    act(&mut g, "play 6s e8");
    assert_eq!(g.stacks().get(sq("e8"), Color::White), 1);
    assert!(table::hobbled(g.position_board(), g.stacks(), sq("e8")));
}

#[test]
fn no_match_card_adds_to_any_piece_of_its_colour() {
    // No white queen on the board: the queen of hearts works like a red six.
    let mut g = dealt("4k3/8/8/8/8/8/8/N3K3 w - - 0 1\nwhite hand: qh\nwhite checkers: 1", 1, 0);
    act(&mut g, "a1b3");
    assert!(texts(&g).contains(&"play qh e1".to_string()));
    assert!(texts(&g).contains(&"play qh b3".to_string()));
    // The knight of hearts matches a white knight only while one stands.
    let mut g = dealt("4k3/8/8/8/8/8/8/N3K3 w - - 0 1\nwhite hand: 8h\nwhite checkers: 1", 1, 0);
    act(&mut g, "a1b3");
    assert!(!texts(&g).contains(&"play 8h e1".to_string()));
}

#[test]
fn drawing_to_the_number_of_checkers_off_the_board() {
    let mut g =
        dealt("4k3/8/8/8/8/8/8/N{+1}3K3 w - - 0 1\nwhite hand: 2s\ndraw pile: 3s 4s 5s\nwhite checkers: 1", 2, 0);
    let pile = g.deck_len();
    act(&mut g, "a1b3");
    act(&mut g, "step b3c4");
    act(&mut g, "pass");
    assert_eq!(g.hand(Color::White), &[card("2s"), card("5s")], "spent a booster: draw one, the top card");
    assert_eq!(g.deck_len(), pile - 1);
}

#[test]
fn the_discard_pile_is_reshuffled_when_the_draw_pile_runs_out() {
    let mut g = dealt(
        "4k3/8/8/8/8/8/8/N{+1}3K3 w - - 0 1\nwhite hand: 2s\ndraw pile:\ndiscard pile: 3s 4s\nwhite checkers: 1",
        2,
        0,
    );
    let discarded = g.discard.len();
    act(&mut g, "a1b3");
    act(&mut g, "step b3c4");
    act(&mut g, "pass");
    assert_eq!(g.hand(Color::White).len(), 2);
    assert_eq!(g.deck_len(), discarded - 1, "the whole discard pile became the draw pile");
    assert!(g.discard.is_empty());
}

#[test]
fn castling_not_with_a_boosted_king_or_rook() {
    let g = game("4k3/8/8/8/8/8/8/R3K2R{+1} w KQ - 0 1\nwhite checkers: 5");
    assert!(!texts(&g).contains(&"e1g1".to_string()));
    assert!(texts(&g).contains(&"e1c1".to_string()));
}

/// "You may not castle, if either the king or the rook is boosted": only
/// boosted, so a rook on a hobble checker castles and takes its checker
/// along ("when you move a piece, it brings any checkers along with it").
#[test]
fn castling_forbidden_only_if_either_the_king_or_the_rook_is_boosted_a_hobbled_rook_castles() {
    let mut g = game("4k3/8/8/8/8/8/8/R3K2R{-1} w KQ - 0 1");
    assert!(texts(&g).contains(&"e1g1".to_string()), "the hobbled rook on h1 may castle");
    act(&mut g, "e1g1");
    assert_eq!(g.stacks().get(sq("f1"), Color::Black), 1, "the hobble checker went with the rook to f1");
    assert_eq!(g.stacks().get(sq("h1"), Color::Black), 0);
}

#[test]
fn castling_not_through_squares_booster_moves_attack() {
    // The black knight on f4 with one booster: after Nf4-h3 it steps to g2
    // and on to... one step only: from h3 it reaches g2, h2, g4; from e2 it reaches f1.
    let g = game("4k3/8/8/8/5n{+1}2/8/8/R3K2R w KQ - 0 1");
    assert!(!texts(&g).contains(&"e1g1".to_string()), "f1 is reachable by a booster step");
    let g = game("4k3/8/8/8/5n2/8/8/R3K2R w KQ - 0 1");
    assert!(texts(&g).contains(&"e1g1".to_string()));
}

#[test]
fn en_passant_after_a_regular_double_step_not_after_a_booster_move() {
    let mut g = game("4k3/4p3/8/3P4/8/8/8/4K3 b - - 0 1");
    act(&mut g, "e7e5");
    assert!(texts(&g).contains(&"d5e6".to_string()), "en passant at the usual square");
    let mut g = game("4k3/4p{+1}3/8/3P4/8/8/8/4K3 b - - 0 1\nblack checkers: 5");
    act(&mut g, "e7e5");
    act(&mut g, "step e5f5");
    assert!(!texts(&g).iter().any(|t| t == "d5e6"), "no en passant after a booster move");
}

#[test]
fn promotion_then_booster_moves_while_still_boosted() {
    let mut g = game("k7/4P{+1}3/8/8/8/8/8/4K3 w - - 0 1\nwhite checkers: 5");
    act(&mut g, "e7e8q");
    assert_eq!(g.position_board().role_at(sq("e8")), Some(Role::Queen));
    assert_eq!(g.phase(), Phase::Spend(sq("e8")));
    act(&mut g, "step e8d7");
}

#[test]
fn a_booster_step_may_promote_a_pawn() {
    let mut g = game("k7/8/4P{+1}3/8/8/8/8/4K3 w - - 0 1\nwhite checkers: 5");
    act(&mut g, "e6e7");
    assert!(refused(&mut g, "step e7e8").contains("promotes"));
    act(&mut g, "step e7e8n");
    assert_eq!(g.position_board().role_at(sq("e8")), Some(Role::Knight));
}

#[test]
fn no_revealing_check_even_if_a_booster_move_would_block_it() {
    // The boosted knight on e2 shields the king from the rook on e8.
    let mut g = game("4r2k/8/8/8/8/8/4N{+1}3/4K3 w - - 0 1\nwhite checkers: 5");
    assert!(refused(&mut g, "e2c3").contains("capture it next turn"));
}

#[test]
fn check_counts_booster_moves_ruling() {
    // The black knight on a4 cannot reach e1, but with two boosters: Nc3 (or Nb2,
    // etc.) then two king steps... c3-d2-e1: White is in check.
    let g = game("7k/8/8/8/n{+2}7/8/8/4K3 w - - 0 1");
    assert!(g.king_attacked(Color::White));
    let g = game("7k/8/8/8/n{+1}7/8/8/4K3 w - - 0 1");
    assert!(!g.king_attacked(Color::White), "one step from c3 or b2 does not reach e1");
    let g = game("7k/8/8/8/n7/8/8/4K3 w - - 0 1");
    assert!(!g.king_attacked(Color::White));
}

#[test]
fn check_ruling_steps_start_only_where_the_regular_move_goes() {
    // A boosted black pawn on d4 attacks c3 and e3, but it cannot go to an
    // empty diagonal: next turn it pushes to d3 and steps once, never to f2.
    let g = game("7k/8/8/8/3p{+1}4/8/5K2/8 w - - 0 1");
    assert!(!g.king_attacked(Color::White));
    let g = game("7k/8/8/8/3p{+1}4/8/4K3/8 w - - 0 1");
    assert!(g.king_attacked(Color::White), "d3, then one step to e2");
}

#[test]
fn check_ruling_an_en_passant_capture_brings_the_victims_checkers() {
    // After e2e4 the boosted black pawn on d4 may take en passant on e3,
    // but it takes over the pawn's white checker, which cancels its own:
    // no step left to reach f2. So the king on f2 stays safe and e2e4 is legal.
    let g = game("7k/8/8/8/3p{+1}4/8/4P{+1}K2/8 w - - 0 1");
    assert!(texts(&g).contains(&"e2e4".to_string()));
    // Without the white checker on the pawn, the capture keeps one step: e3-f2.
    let g = game("7k/8/8/8/3p{+1}4/8/4PK2/8 w - - 0 1");
    assert!(!texts(&g).contains(&"e2e4".to_string()));
}

#[test]
fn checkmate_as_in_regular_chess() {
    let mut g = game("7k/R7/6K1/8/8/8/8/8 w - - 0 1");
    act(&mut g, "a7a8");
    assert_eq!(g.to_act().outcome().map(|o| o.reason.as_str()), Some("checkmate"));
}

#[test]
fn text_position_round_trips() {
    let text = with_the_rest_of_the_deck("4k3/8/8/8/8/1b{-1}6/8/N{+2}3K3 w - - 0 1\nphase: move\nwhite hand: 9h 2s\nblack hand: 3c 4c 5d 9c 10c\ndraw pile: 5c\ndiscard pile: 6h\nwhite checkers: 3\nblack checkers: 5");
    let g = BoosterGame::from_position(&text, &Options::new().with("black_checkers", 5), 1).unwrap();
    assert_eq!(g.position(), text);
    assert_eq!(g.stacks().get(sq("a1"), Color::White), 2);
    assert_eq!(g.stacks().get(sq("b3"), Color::White), 1);
    let start = BoosterGame::new(&Options::new(), 3).unwrap();
    assert_eq!(game(&start.position()).position(), start.position());
}

/// "You may capture a pawn en passant at the usual square after a regular
/// move of two squares": the square stays open while the mover still adds
/// a checker, so the text written then keeps it (the FEN cannot: its side
/// to move is the mover, the square is the opponent's) and loads back.
#[test]
fn text_position_keeps_the_en_passant_square_of_a_two_square_move_while_the_mover_adds() {
    let mut g = dealt("4k3/4p3/8/3P4/8/8/8/4K3 b - - 0 1\nwhite hand: 9h\nblack hand: 3c", 1, 1);
    act(&mut g, "e7e5");
    assert_eq!(g.phase(), Phase::Add);
    let written = g.position();
    let options = Options::new().with("white_checkers", 1).with("black_checkers", 1);
    let mut back = BoosterGame::from_position(&written, &options, 1).unwrap_or_else(|e| panic!("{e}\n{written}"));
    assert_eq!(back.position(), written);
    act(&mut back, "pass");
    assert!(texts(&back).contains(&"d5e6".to_string()), "en passant at the usual square after loading");
}

/// "A position with no card line at all is a board study with no cards in
/// play" (docs/games/booster.md): the text such a game writes has no card
/// line either, so it loads back (empty lines claimed the deck).
#[test]
fn text_position_of_a_board_study_writes_no_card_line_and_loads_back() {
    let g = game("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    let written = g.position();
    assert!(!written.contains("hand"), "{written}");
    assert_eq!(game(&written).position(), written);
}

/// "You may capture a pawn en passant at the usual square after a regular
/// move of two squares", judged by Booster's check: a hobbled rook attacks
/// like a pawn, so it pins nothing along the rank, and the capture the
/// orthodox rule would forbid stays open in the text written and loaded.
#[test]
fn text_position_keeps_en_passant_that_only_booster_check_allows() {
    let mut g = game("4k3/2p5/8/KP5r{-1}/8/8/8/8 b - - 0 1");
    act(&mut g, "c7c5");
    assert!(texts(&g).contains(&"b5c6".to_string()), "no orthodox pin by a hobbled rook");
    let written = g.position();
    let back = game(&written);
    assert_eq!(back.position(), written);
    assert!(texts(&back).contains(&"b5c6".to_string()), "en passant after loading:\n{written}");
}

/// "You may move it like a king, one space in any direction": a boosted
/// pawn may step back onto its own first rank, and the text written then
/// loads back; a pawn on its last rank would have promoted and is refused.
#[test]
fn text_position_a_boosted_pawn_stepped_back_to_its_first_rank_loads_back() {
    let mut g = game("4k3/3p{+2}4/8/8/8/8/8/4K3 b - - 0 1\nblack checkers: 4");
    act(&mut g, "d7d6");
    act(&mut g, "step d6d7");
    act(&mut g, "step d7d8");
    let written = g.position();
    assert!(written.starts_with("3pk3/"), "{written}");
    assert_eq!(game(&written).position(), written);
    let promoted_long_ago = "3Pk3/8/8/8/8/8/8/4K3 w - - 0 1";
    assert!(refused_position(promoted_long_ago, &Options::new()).contains("last rank"));
}

#[test]
fn text_position_bad_input_is_named() {
    for (text, says) in [
        ("4k3/8/8/8/4.{+2}3/8/8/4K3 w - - 0 1", "empty square"),
        ("4k3/8/8/8/4N{x}3/8/8/4K3 w - - 0 1", "expected +N"),
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1\nwhite hand: 9h 9h", "twice"),
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1\nwhite hand: as", "not in the Booster deck"),
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1\ncolour: red", "unknown line"),
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1\nphase: spend e4", "no boosted piece"),
    ] {
        let err = BoosterGame::from_position(text, &Options::new(), 1).unwrap_err().to_string();
        assert!(err.contains(says), "{text}: {err}");
    }
}

fn refused_position(position: &str, options: &Options) -> String {
    BoosterGame::from_position(position, options, 1).unwrap_err().to_string()
}

#[test]
fn position_cards_must_add_up_to_the_36_card_deck() {
    let err = refused_position("4k3/8/8/8/8/8/8/4K3 w - - 0 1\nwhite hand: 9h 2s", &Options::new());
    assert!(err.contains("do not add up to the 36-card deck: 34 missing"), "{err}");
    let whole = with_the_rest_of_the_deck(
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1\nwhite hand: 9h 2s 3s 4s 5s 8s\nblack hand: 2c 3c 4c 5c 8c 9c",
    );
    assert!(BoosterGame::from_position(&whole, &Options::new(), 1).is_ok(), "every card once: accepted");
}

#[test]
fn position_cards_must_be_in_this_games_deck_the_sevens_only_by_option() {
    let sevens = with_the_rest_of_the_deck(
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1\nwhite hand: 7h 2s 3s 4s 5s 8s\nblack hand: 2c 3c 4c 5c 8c 9c",
    );
    let err = refused_position(&sevens, &Options::new());
    assert!(err.contains("the 7h is not in this game's deck"), "{err}");
    let with_sevens = sevens.replace("draw pile:", "draw pile: 7s 7d 7c");
    assert!(BoosterGame::from_position(&with_sevens, &Options::new().with("checker_cards", 8), 1).is_ok());
}

#[test]
fn position_a_hand_holds_no_more_cards_than_checkers_in_front() {
    let text = "4k3/8/8/8/8/8/8/N{+1}3K3 w - - 0 1\nwhite hand: 9h 2s 3s 4s 5s 8s\nblack hand: 2c 3c 4c 5c 8c 9c";
    let err = refused_position(&with_the_rest_of_the_deck(text), &Options::new());
    assert!(err.contains("white hand: 6 cards, but only 5 checkers in front of white"), "{err}");
}

#[test]
fn position_the_player_who_just_drew_holds_one_card_per_checker_in_front() {
    let short = "4k3/8/8/8/8/8/8/4K3 w - - 0 1\nwhite hand: 9h 2s\nblack hand: 2c 3c 4c 5c 8c";
    let err = refused_position(&with_the_rest_of_the_deck(short), &Options::new());
    assert!(err.contains("black hand: 5 cards, but black drew at the end of the last turn up to 6"), "{err}");
    // The mover may hold fewer: checkers came back during the opponent's turn.
    let full = "4k3/8/8/8/8/8/8/4K3 w - - 0 1\nwhite hand: 9h 2s\nblack hand: 2c 3c 4c 5c 8c 9c";
    assert!(BoosterGame::from_position(&with_the_rest_of_the_deck(full), &Options::new(), 1).is_ok());
}

#[test]
fn position_checkers_in_front_and_on_the_board_make_the_players_six() {
    let err = refused_position("4k3/8/8/8/8/8/8/N{+2}3K3 w - - 0 1\nwhite checkers: 5", &Options::new());
    assert!(err.contains("white checkers: 5 in front of white and 2 on the board make 7"), "{err}");
    let err = refused_position("4k3/8/8/8/8/8/8/N{+2}3K3 w - - 0 1\nblack checkers: 5", &Options::new());
    assert!(err.contains("black checkers: 5 in front of black and 0 on the board make 5"), "{err}");
}

#[test]
fn position_no_more_checkers_on_the_board_than_the_player_has() {
    let err = refused_position("4k3/8/8/8/8/8/8/N{+4}3K{+3}3 w - - 0 1", &Options::new());
    assert!(err.contains("7 white checkers on the board, but white plays with 6 checkers in all"), "{err}");
}

#[test]
fn position_checker_counts_follow_the_options_fewer_more_and_handicap() {
    let text = "4k3/8/8/8/8/8/8/N{+2}3K3 w - - 0 1\nwhite checkers: 2";
    assert!(BoosterGame::from_position(text, &Options::new().with("checkers", 4), 1).is_ok());
    let err = refused_position(text, &Options::new());
    assert!(err.contains("plays with 6"), "{err}");
    let g = BoosterGame::from_position(text, &Options::new().with("white_checkers", 4).with("black_checkers", 9), 1)
        .unwrap();
    assert_eq!((g.reserve(Color::White), g.reserve(Color::Black)), (2, 9), "the rest in front of the player");
}

#[test]
fn sample_hidden_redraws_the_opponents_hand_and_the_deck_consistently() {
    let g = BoosterGame::new(&Options::new(), 11).unwrap();
    let mut rng = GameRng::from_seed(5);
    let s = g.sample_hidden(0, &mut rng);
    assert_eq!(s.hand(Color::White), g.hand(Color::White), "own hand kept");
    assert_eq!(s.hand(Color::Black).len(), 6);
    assert_ne!(s.hand(Color::Black), g.hand(Color::Black));
    let mut before: Vec<Card> = g.hand(Color::Black).iter().chain(g.deck.cards()).copied().collect();
    let mut after: Vec<Card> = s.hand(Color::Black).iter().chain(s.deck.cards()).copied().collect();
    before.sort();
    after.sort();
    assert_eq!(before, after, "the same unseen cards");
    assert_eq!(s.view(Viewer::Seat(0)), g.view(Viewer::Seat(0)), "the seat sees the same");
}

#[test]
fn bad_actions_are_refused_and_change_nothing() {
    let mut g = BoosterGame::new(&Options::new(), 2).unwrap();
    assert!(refused(&mut g, "e2e5").contains("not a legal move"));
    assert!(refused(&mut g, "stop").contains("no booster moves"));
    assert!(refused(&mut g, "pass").contains("no card play"));
    assert!(g.parse_action(0, "play zz e4").is_err());
}

/// The deliberately simple second generator: every text an action could
/// have (all square pairs with and without promotion, as moves and steps;
/// every card of the deck on every square; stop; pass), kept when the game
/// accepts it.
fn brute_force_actions(g: &BoosterGame) -> Vec<String> {
    let seat = g.seat();
    let mut texts = vec!["stop".to_string(), "pass".to_string()];
    let board = g.position_board();
    for from in Square::ALL {
        for to in Square::ALL {
            // Castling written king-onto-rook (`e1h1`) is the same move as
            // `e1g1`: count it once.
            let ours = board.color_at(from).filter(|&c| board.color_at(to) == Some(c));
            if ours.is_some() && board.kings().contains(from) && board.rooks().contains(to) {
                continue;
            }
            for promo in ["", "q", "r", "b", "n"] {
                texts.push(format!("{from}{to}{promo}"));
                texts.push(format!("step {from}{to}{promo}"));
            }
        }
    }
    let mut deck = Setup { white_checkers: 0, black_checkers: 0, checker_cards: 8 }.deck();
    deck.sort();
    for c in deck {
        for s in Square::ALL {
            texts.push(format!("play {c} {s}"));
        }
    }
    // A refused action changes nothing (tested above), so one probe serves
    // until an action is accepted.
    let mut probe = g.clone();
    let mut legal: Vec<String> = texts
        .into_iter()
        .filter(|t| {
            let Ok(action) = t.parse::<BoosterAction>() else { return false };
            let ok = probe.apply(seat, &action).is_ok();
            if ok {
                probe = g.clone();
            }
            ok
        })
        .collect();
    legal.sort();
    legal.dedup();
    legal
}

fn brute_perft(g: &BoosterGame, depth: u32) -> u64 {
    if depth == 0 || g.to_act().is_over() {
        return u64::from(depth == 0);
    }
    let seat = g.seat();
    brute_force_actions(g)
        .iter()
        .map(|t| {
            let mut next = g.clone();
            next.apply(seat, &t.parse().unwrap()).unwrap();
            brute_perft(&next, depth - 1)
        })
        .sum()
}

/// `position`, dealt `white` and `black` checkers when it names hands.
fn perft_root(position: &str, white: u32, black: u32) -> BoosterGame {
    if position.contains("hand") {
        dealt(position, white, black)
    } else {
        game(position)
    }
}

/// Perft of `position` (see [`perft_root`]) to `depth`, against the
/// brute-force generator.
fn perft_matches_the_brute_force_generator(position: &str, white: u32, black: u32, depth: u32) {
    let g = perft_root(position, white, black);
    assert_eq!(chesskit_core::perft::count(&g, depth), brute_perft(&g, depth), "{position}");
}

/// One part of [`perft_matches_the_brute_force_generator`], for a perft
/// too deep for one test: the first actions are the brute-force
/// generator's, and below every `parts`-th of them from the `part`-th the
/// leaves count alike. The parts together check every first action, and
/// the harness runs them side by side.
fn perft_part_matches_the_brute_force_generator(position: &str, white: u32, black: u32, depth: u32, part: usize) {
    const PARTS: usize = 2;
    let g = perft_root(position, white, black);
    let divided = chesskit_core::perft::divide(&g, depth);
    let first: Vec<&String> = divided.iter().map(|(text, _)| text).collect();
    assert_eq!(first, brute_force_actions(&g).iter().collect::<Vec<_>>(), "{position}: the first actions");
    let seat = g.seat();
    for (text, leaves) in divided.iter().skip(part).step_by(PARTS) {
        let mut next = g.clone();
        next.apply(seat, &text.parse().unwrap()).unwrap();
        assert_eq!(*leaves, brute_perft(&next, depth - 1), "{position}: below {text}");
    }
}

// One test per position, so that the harness runs them side by side.

#[test]
fn perft_matches_the_brute_force_generator_from_the_start_with_cards_in_hand() {
    perft_matches_the_brute_force_generator("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\nwhite hand: 8h 6s\nblack hand: 2s 6d\ndraw pile: 3s 4s 5s\nwhite checkers: 2\nblack checkers: 2", 2, 2, 2);
}

// The deepest perft here, in two parts that run side by side.
const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

#[test]
fn perft_matches_the_brute_force_generator_from_the_start_with_six_checkers_each_part_0() {
    perft_part_matches_the_brute_force_generator(START, 6, 6, 3, 0);
}

#[test]
fn perft_matches_the_brute_force_generator_from_the_start_with_six_checkers_each_part_1() {
    perft_part_matches_the_brute_force_generator(START, 6, 6, 3, 1);
}

#[test]
fn perft_matches_the_brute_force_generator_in_a_middle_game_with_boosted_and_hobbled_pieces() {
    perft_matches_the_brute_force_generator("r3k2r/ppp2ppp/2n1b3/3q{+1}4/3P4/2N2N2/PPP2PPP/R2QK2R{-1} w KQkq - 0 10\nwhite hand: qh 10s\nblack hand: 9c 2c 3c 4c\ndraw pile: 2h 3h\nwhite checkers: 4\nblack checkers: 4", 4, 6, 2);
}

#[test]
fn perft_matches_the_brute_force_generator_in_an_ending_with_checkers_under_both_sides() {
    perft_matches_the_brute_force_generator("4k3/8/8/8/8/1b{-1}6/8/N{+2}3K3 w - - 0 1\nwhite hand: 9h 2s\nblack hand: 3c\ndraw pile: 5c\nwhite checkers: 3\nblack checkers: 1", 6, 1, 3);
}

/// The fast legality test (the orthodox shortcut with no checkers on the
/// board, trial boards, the pruned extended attack) against the simple
/// reference (full copies, every enemy move walked), on every position of
/// random games: with twelve checkers each and eight checker cards many
/// pieces end up boosted and hobbled. Random moves favour card plays so
/// the board fills with checkers early.
/// Moves in a fixed order, to compare lists as sets.
fn in_order(mut moves: Vec<Move>) -> Vec<Move> {
    moves.sort_by_key(|m| format!("{m:?}"));
    moves
}

#[test]
fn property_fast_legality_matches_the_simple_reference_in_random_games() {
    let mut loaded_positions = 0;
    for seed in 0..24u64 {
        let options =
            if seed % 2 == 0 { Options::new().with("checkers", 12).with("checker_cards", 8) } else { Options::new() };
        let mut g = BoosterGame::new(&options, seed).unwrap();
        let mut rng = GameRng::from_seed(seed + 100);
        for _ in 0..120 {
            if g.to_act().is_over() {
                break;
            }
            let context = g.position();
            if g.phase() == Phase::Move {
                // The same moves; the fast generator lists them in its own order.
                assert_eq!(in_order(g.legal_moves()), in_order(reference::legal_moves(&g)), "moves in\n{context}");
                // The turn start's test, which stops at the first move found.
                assert_eq!(g.has_legal_move(), !reference::legal_moves(&g).is_empty(), "any move in\n{context}");
            }
            assert_eq!(g.legal_steps(), reference::legal_steps(&g), "steps in\n{context}");
            assert_eq!(g.legal_plays(), reference::legal_plays(&g), "plays in\n{context}");
            if !g.stacks().loaded().is_empty() {
                loaded_positions += 1;
            }
            let actions = g.legal_actions(g.seat());
            let plays: Vec<&BoosterAction> = actions.iter().filter(|a| matches!(a, BoosterAction::Play(..))).collect();
            let action = if plays.is_empty() || rng.chance(0.2) {
                *rng.choose(&actions).unwrap()
            } else {
                **rng.choose(&plays).unwrap()
            };
            let seat = g.seat();
            g.apply(seat, &action).unwrap();
        }
    }
    assert!(loaded_positions > 1000, "only {loaded_positions} positions with checkers");
}

#[test]
fn perft_from_the_start_position() {
    let g = game("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    // No cards in hand: one ply per move, as orthodox chess.
    let counts: Vec<u64> = (1..=3).map(|depth| chesskit_core::perft::count(&g, depth)).collect();
    assert_eq!(counts, [20, 400, 8902]);
}

/// The rules panel shows `## The rules in our words` and `## Rulings`:
/// player words, no code paths, no action syntax, no text positions.
#[test]
fn the_rules_panel_sections_read_for_players() {
    let doc = include_str!("../../../../docs/games/booster.md");
    let start = doc.find("## The rules in our words").expect("the rules section");
    let end = doc.find("## For developers").expect("the developer section");
    let text = &doc[start..end];
    assert!(text.contains("## Rulings"));
    for word in ["`", "{", "|", "crates/", ".rs", ".md", "FEN", "UCI", "e2e4", "step e", "play 9h"] {
        assert!(!text.contains(word), "{word:?} in the player's part");
    }
}

/// The search's transposition table may only share what the rules cannot
/// tell apart: see [`check_position_hash`].
#[test]
fn the_position_key_is_the_same_for_the_same_state_and_differs_for_any_change_the_rules_read() {
    check_position_hash::<BoosterGame>(&Options::new(), 3, 60);
}

// ----------------------------------------------------------------------
// The computer's estimate
// ----------------------------------------------------------------------

fn estimate(game: &BoosterGame, seat: usize) -> f64 {
    game.heuristic(seat).expect("a chess estimate")
}

#[test]
fn estimate_a_boosted_piece_may_move_again_so_its_side_stands_better() {
    let plain = game("4k3/pppp4/8/8/8/8/PPPP4/N3K3 w - - 0 1");
    let boosted = game("4k3/pppp4/8/8/8/8/PPPP4/N{+2}3K3 w - - 0 1");
    assert!(estimate(&boosted, 0) > estimate(&plain, 0) + 0.3, "{} -> {}", estimate(&plain, 0), estimate(&boosted, 0));
    assert!((estimate(&boosted, 0) + estimate(&boosted, 1)).abs() < 1e-9, "the two sides see opposite estimates");
}

#[test]
fn estimate_any_other_hobbled_piece_moves_like_a_pawn_so_hobbling_a_queen_beats_hobbling_a_pawn() {
    let pawn_hobbled = game("3qk3/p{-1}7/8/8/8/8/P7/1Q2K3 w - - 0 1");
    let queen_hobbled = game("3q{-1}k3/p7/8/8/8/8/P7/1Q2K3 w - - 0 1");
    let free = game("3qk3/p7/8/8/8/8/P7/1Q2K3 w - - 0 1");
    assert!(estimate(&pawn_hobbled, 0) > estimate(&free, 0), "a hobbled pawn cannot move at all");
    assert!(estimate(&queen_hobbled, 0) > estimate(&pawn_hobbled, 0) + 1.0);
}

#[test]
fn estimate_a_card_in_hand_with_a_checker_to_play_is_a_checker_to_come() {
    let with_cards =
        dealt("4k3/pppp4/8/8/8/8/PPPP4/N3K3 w - - 0 1\nwhite hand: 6h 9h\nblack hand: 6s 9s 2s 3s 4s 5s", 6, 6);
    let mut without = with_cards.clone();
    without.hands[0].clear();
    assert!(estimate(&with_cards, 0) > estimate(&without, 0));
}

/// The search's questions answered without building lists agree with
/// `to_act` and `legal_actions`, and `clone_from` with a fresh clone: see
/// [`crate::testing::check_allocation_free_answers`].
#[test]
fn the_allocation_free_answers_agree_with_to_act_legal_actions_and_clone() {
    crate::testing::check_allocation_free_answers::<BoosterGame>(&Options::new(), 3, 60);
}
