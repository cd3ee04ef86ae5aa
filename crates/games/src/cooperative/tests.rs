//! One test per clause of rules.md "Cooperative Chess" (the card list of
//! new-rules-2023b.md) and docs/games/cooperative.md, "Rulings" (texts quoted in
//! docs/games/cooperative.md). The book's example is in
//! testdata/book-examples.md, "Cooperative Chess (rules.md)".

use chesskit_core::cards::{piece_deck, Card};
use chesskit_core::chess::{Color, Role};
use chesskit_core::game::{Game, RuleError, ToAct, Viewer};
use chesskit_core::options::Options;
use chesskit_core::rng::GameRng;

use super::*;
use crate::testing::{act, check_position_hash, refused, sq, Told};

/// The book's example: "black has a knight card, a bishop card, and a king
/// card in hand" (testdata/book-examples.md).
const BOOK: &str = "rnbqkbnr/ppp1pppp/8/3P4/4P3/8/PP1P1PPP/RNBQKBNR b KQkq - 0 1";

/// A game from `fen` and card lines, every card the lines do not list put
/// in the draw pile (or, when the lines give a draw pile, in the captured
/// cards), so that the cards add up to the 32-card deck.
fn dealt(fen: &str, lines: &str) -> Told<CooperativeGame> {
    let listed: Vec<Card> = lines
        .lines()
        .filter_map(|line| line.split_once(':'))
        .filter(|(key, _)| {
            key.contains("hand") || key.contains("pile") || key.contains("discards") || key.contains("captured")
        })
        .flat_map(|(_, cards)| cards.split_whitespace().map(card))
        .collect();
    let mut rest = piece_deck();
    rest.retain(|c| !listed.contains(c));
    rest.sort();
    let rest: Vec<String> = rest.iter().map(Card::to_string).collect();
    let rest = rest.join(" ");
    let mut text = format!("{fen}\n{}", lines.trim());
    if lines.contains("draw pile:") {
        if let Some(start) = text.find("captured:") {
            let end = text[start..].find('\n').map_or(text.len(), |e| start + e);
            text.insert_str(end, &format!(" {rest}"));
        } else {
            text.push_str(&format!("\ncaptured: {rest}"));
        }
    } else {
        text.push_str(&format!("\ndraw pile: {rest}"));
    }
    Told::<CooperativeGame>::from_position(&text, &Options::new(), 1).unwrap_or_else(|e| panic!("{text}\n{e}"))
}

fn card(text: &str) -> Card {
    text.parse().unwrap()
}

fn texts(g: &Told<CooperativeGame>) -> Vec<String> {
    g.legal_actions(g.seat()).iter().map(|a| a.to_string()).collect()
}

#[test]
fn equipment_32_cards_as_in_the_card_list_red_cards_white_pieces() {
    let deck = piece_deck();
    assert_eq!(deck.len(), 32);
    assert_eq!(card("kh").piece(), Some(Role::King.of(Color::White)), "White King - King of Hearts");
    assert_eq!(card("qs").piece(), Some(Role::Queen.of(Color::Black)), "Black Queen - Queen of Spades");
    assert_eq!(card("10d").piece(), Some(Role::Rook.of(Color::White)), "White Rooks - 10 of Hearts and Diamonds");
    assert_eq!(card("9c").piece(), Some(Role::Bishop.of(Color::Black)), "Black Bishops - 9 of Spades and Clubs");
    assert_eq!(card("8h").piece(), Some(Role::Knight.of(Color::White)), "White Knights - 8 of Hearts and Diamonds");
    assert_eq!(card("4c").piece(), Some(Role::Pawn.of(Color::Black)), "Black Pawns - 2-5 of Spades and Clubs");
}

#[test]
fn setup_start_position_three_cards_each_the_rest_a_draw_pile() {
    let g = Told::<CooperativeGame>::new(&Options::new(), 5).unwrap();
    assert_eq!(g.pos, Position::startpos());
    assert_eq!([g.hands[0].len(), g.hands[1].len(), g.deck.len()], [3, 3, 26]);
    assert!(g.discards.iter().all(|stack| stack.is_empty()) && g.captured.is_empty());
    assert_eq!(g.to_act(), ToAct::one(0), "White plays the first turn");
    let other = Told::<CooperativeGame>::new(&Options::new(), 6).unwrap();
    assert_ne!(g.hands, other.hands, "the deal is shuffled by the seed");
}

#[test]
fn setup_two_seats_on_one_team_ruling_win_or_lose_together() {
    let g = Told::<CooperativeGame>::new(&Options::new(), 5).unwrap();
    let seats = g.seats();
    assert_eq!(seats.len(), 2);
    assert_eq!(seats[0].team, Some(0));
    assert_eq!(seats[1].team, Some(0));
}

#[test]
fn talking_hands_are_hidden_from_the_partner_the_stacks_are_face_up() {
    let mut g = Told::<CooperativeGame>::new(&Options::new(), 5).unwrap();
    let first = g.hands[0][0];
    act(&mut g, &format!("play {first}"));
    let zone = |view: &View, name: &str| view.zones.iter().find(|z| z.name == name).unwrap().clone();
    let white = g.view(Viewer::Seat(0));
    let black = g.view(Viewer::Seat(1));
    let watcher = g.view(Viewer::Spectator);
    assert_eq!(zone(&white, "White hand").cards.len(), 3);
    assert!(zone(&black, "White hand").cards.is_empty());
    assert_eq!(zone(&black, "White hand").hidden, 3, "the partner sees how many, not which");
    assert_eq!(zone(&watcher, "Black hand").hidden, 3);
    for view in [&white, &black, &watcher] {
        assert_eq!(zone(view, "White discards").cards, vec![first.to_string()], "the stacks are face up");
        assert_eq!(zone(view, "draw pile").hidden, 25);
    }
}

#[test]
fn talking_yes_no_questions_use_the_table_chat() {
    let g = Told::<CooperativeGame>::new(&Options::new(), 5).unwrap();
    assert_eq!(g.check_talk(0), Ok(()));
    assert_eq!(g.check_talk(1), Ok(()), "either partner may ask at any time");
}

#[test]
fn step_1_you_may_make_a_non_capturing_move() {
    let mut g = dealt(BOOK, "white hand: 2h 3h 4h\nblack hand: 8s 9c ks\nwhite discards: 2s 3s");
    let actions = texts(&g);
    assert!(actions.contains(&"c8e6".to_string()));
    assert!(actions.contains(&"play 9c".to_string()), "step 1 may be skipped");
    assert!(g.quiet_moves().iter().all(|m| m.capture().is_none()));
    act(&mut g, "Be6");
    assert_eq!(g.phase(), Phase::Play);
    assert_eq!(texts(&g), vec!["play 8s", "play 9c", "play ks"], "after the move, only the card");
}

#[test]
fn step_1_the_move_may_not_capture() {
    let mut g = dealt(
        "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1",
        "white hand: 9h 9d 2h\nblack hand: 8s 9c ks\nblack discards: 2s",
    );
    let err = refused(&mut g, "e4d5");
    assert!(err.contains("may not capture"), "{err}");
}

#[test]
fn step_2_you_must_play_a_card_from_your_hand() {
    let mut g = dealt(BOOK, "white hand: 2h 3h 4h\nblack hand: 8s 9c ks\nwhite discards: 2s 3s");
    act(&mut g, "c8e6");
    let err = refused(&mut g, "e6f5");
    assert!(err.contains("play a card"), "{err}");
    let err = refused(&mut g, "play qh");
    assert!(err.contains("you hold no qh"), "{err}");
    act(&mut g, "play 9c");
    assert_eq!(g.discards(Color::Black), [card("9c")]);
    assert_eq!(g.hand(Color::Black), [card("8s"), card("ks")]);
}

#[test]
fn step_3_book_example_bishop_to_e6_bishop_card_captures_both_pawns() {
    // rules.md: "They can move the bishop to e6, play their bishop card,
    // and then capture both pawns."
    let mut g = dealt(BOOK, "white hand: 2h 3h 4h\nblack hand: 8s 9c ks\nwhite discards: 2s 3s");
    act(&mut g, "c8e6");
    act(&mut g, "play 9c");
    assert_eq!(texts(&g), vec!["e6d5", "stop"]);
    act(&mut g, "e6d5");
    assert_eq!(g.discards(Color::White), [card("2s")]);
    assert_eq!(g.captured(), [card("3s")], "the captured piece's card moves to the captured cards");
    act(&mut g, "d5e4");
    assert_eq!(g.captured(), [card("3s"), card("2s")]);
    assert!(g.board().piece_at(sq("e4")) == Some(Role::Bishop.of(Color::Black)));
    assert_eq!(g.to_act(), ToAct::one(0), "no card left to capture: the turn ends by itself");
}

#[test]
fn step_3_the_capturing_piece_must_be_the_type_of_the_card_just_played() {
    let mut g = dealt(BOOK, "white hand: 2h 3h 4h\nblack hand: 8s 9c ks\nwhite discards: 2s 3s");
    act(&mut g, "c8e6");
    act(&mut g, "play 8s");
    // The knight card: the bishop that moved may not capture, and no
    // knight may either (all moves of a turn are made with one piece).
    assert_eq!(g.to_act(), ToAct::one(0), "no capture open: the turn ends");
    let mut g = dealt(BOOK, "white hand: 2h 3h 4h\nblack hand: 8s 9c ks\nwhite discards: 2s 3s");
    act(&mut g, "play ks");
    assert_eq!(g.to_act(), ToAct::one(0), "the king card: the king reaches no pawn");
}

#[test]
fn step_3_the_captured_piece_must_be_the_type_of_the_partners_top_card() {
    let mut g =
        dealt("4k1n1/8/8/3p4/4P3/8/8/4K2N w - - 0 1", "white hand: 2h 3h 4h\nblack hand: 8s 9c ks\nblack discards: 8c");
    act(&mut g, "play 2h");
    assert_eq!(g.to_act(), ToAct::one(1), "a knight card on top: the pawn e4 may not take the pawn d5");
    let mut g = dealt(
        "4k1n1/8/8/3p4/4P3/8/8/4K2N w - - 0 1",
        "white hand: 2h 3h 4h\nblack hand: 8s 9c ks\nblack discards: 8c 2c",
    );
    act(&mut g, "play 2h");
    assert_eq!(texts(&g), vec!["e4d5", "stop"]);
    let err = refused(&mut g, "h1g3");
    assert!(err.contains("must match the card you played"), "{err}");
}

#[test]
fn step_3_pieces_may_match_cards_of_either_colour() {
    for (played, top) in [("2h", "2c"), ("2s", "2d"), ("2d", "2s")] {
        let mut g = dealt(
            "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1",
            &format!("white hand: {played} 3h 4h\nblack hand: 8s 9c ks\nblack discards: {top}"),
        );
        act(&mut g, &format!("play {played}"));
        assert_eq!(texts(&g), vec!["e4d5", "stop"], "{played} on {top}");
    }
}

#[test]
fn step_3_all_moves_of_a_turn_are_made_with_one_piece() {
    let mut g = dealt(
        "4k3/8/8/3p1p2/4P3/6P1/8/4K3 w - - 0 1",
        "white hand: 2h 3h 4h\nblack hand: 8s 9c ks\nblack discards: 2c 3c",
    );
    act(&mut g, "g3g4");
    act(&mut g, "play 2h");
    assert_eq!(texts(&g), vec!["g4f5", "stop"], "only the pawn that moved may capture");
    let err = refused(&mut g, "e4d5");
    assert!(err.contains("one piece: the one on g4"), "{err}");
    act(&mut g, "g4f5");
    assert_eq!(g.to_act(), ToAct::one(1), "f5 reaches no other pawn");
}

#[test]
fn step_3_continue_down_the_stack_with_the_same_piece() {
    let mut g = dealt(
        "4k3/8/8/3p1p2/4P3/8/8/4K3 w - - 0 1",
        "white hand: 2h 3h 4h\nblack hand: 8s 9c ks\nblack discards: 2c 3c",
    );
    act(&mut g, "play 2h");
    act(&mut g, "e4d5");
    assert_eq!(g.to_act(), ToAct::one(1), "the pawn on d5 reaches nothing: the turn ends");
    assert_eq!(g.discards(Color::Black), [card("2c")], "the next card stays on the stack");
    let mut g = dealt(
        "4k2b/8/4p3/3p4/4Q3/8/8/4K3 w - - 0 1",
        "white hand: qh 3h 4h\nblack hand: 8s 9c ks\nblack discards: 9s 2d 3d",
    );
    act(&mut g, "play qh");
    act(&mut g, "e4d5");
    act(&mut g, "d5e6");
    assert_eq!(g.discards(Color::Black), [card("9s")], "a bishop card next, not wild: no bishop to take");
    assert_eq!(g.to_act(), ToAct::one(1));
}

#[test]
fn step_3_you_may_stop_capturing() {
    let mut g = dealt(BOOK, "white hand: 2h 3h 4h\nblack hand: 8s 9c ks\nwhite discards: 2s 3s");
    act(&mut g, "c8e6");
    act(&mut g, "play 9c");
    act(&mut g, "e6d5");
    act(&mut g, "stop");
    assert_eq!(g.to_act(), ToAct::one(0));
    assert_eq!(g.discards(Color::White), [card("2s")]);
    let err = refused(&mut g, "stop");
    assert!(err.contains("play a card first"), "{err}");
}

#[test]
fn step_4_draw_a_card_to_bring_your_hand_back_to_3() {
    let mut g = Told::<CooperativeGame>::new(&Options::new(), 9).unwrap();
    let top = *g.deck.last().unwrap();
    let first = g.hands[0][0];
    act(&mut g, &format!("play {first}"));
    if g.phase() == Phase::Capture {
        act(&mut g, "stop");
    }
    assert_eq!(g.hand(Color::White).len(), 3);
    assert!(g.hand(Color::White).contains(&top), "drawn from the top of the draw pile");
    assert_eq!(g.deck.len(), 25);
}

#[test]
fn wild_1_a_type_you_no_longer_have_is_wild_on_your_stack_for_capturing() {
    // White has no queen: a queen card on White's stack captures with any piece.
    let mut g =
        dealt("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", "white hand: qh 3h 4h\nblack hand: 8s 9c ks\nblack discards: 2c");
    act(&mut g, "play qh");
    assert!(g.wild_on_stack(card("qh"), Color::White));
    assert_eq!(texts(&g), vec!["e4d5", "stop"]);
}

#[test]
fn wild_1_a_type_your_partner_no_longer_has_lets_you_capture_any_of_their_pieces() {
    // Black has no queen: the queen card on Black's stack lets White take any black piece.
    let mut g =
        dealt("4k3/8/8/3n4/4P3/8/8/4K3 w - - 0 1", "white hand: 2h 3h 4h\nblack hand: 8s 9c ks\nblack discards: qs");
    act(&mut g, "play 2h");
    assert_eq!(texts(&g), vec!["e4d5", "stop"]);
    act(&mut g, "e4d5");
    assert_eq!(g.captured(), [card("qs")]);
}

#[test]
fn wild_1_may_match_different_types_when_capturing_and_when_captured() {
    // White has no knight and Black has no knight: the knight cards are wild
    // both ways, here a pawn takes a rook.
    let mut g =
        dealt("4k3/8/8/3r4/4P3/8/8/4K3 w - - 0 1", "white hand: 8h 3h 4h\nblack hand: 8s 9c ks\nblack discards: 8c");
    act(&mut g, "play 8h");
    assert_eq!(texts(&g), vec!["e4d5", "stop"]);
}

#[test]
fn wild_2_book_example_a_double_colour_match_makes_the_next_card_wild() {
    // rules.md: "since white's pawn card matches colour, black can make the
    // rook card wild by using a black card to capture a white pawn."
    let mut g = dealt(BOOK, "white hand: 2s 3s 4s\nblack hand: 8s 9c ks\nwhite discards: 10h 2h");
    act(&mut g, "c8e6");
    act(&mut g, "play 9c");
    act(&mut g, "e6d5");
    assert!(g.wild_next, "a black card took a white pawn whose card is red");
    let taken: Vec<String> = texts(&g);
    assert!(taken.contains(&"d5e4".to_string()), "the rook card is wild: the pawn on e4: {taken:?}");
    assert!(taken.contains(&"d5a2".to_string()), "or the pawn on a2: {taken:?}");
    act(&mut g, "d5e4");
    assert_eq!(g.captured(), [card("2h"), card("10h")]);
}

#[test]
fn wild_2_no_double_colour_match_no_wild_card() {
    // A red card played by Black does not match Black's colour.
    let mut g = dealt(BOOK, "white hand: 2s 3s 4s\nblack hand: 8s 9h ks\nwhite discards: 10h 2h");
    act(&mut g, "c8e6");
    act(&mut g, "play 9h");
    act(&mut g, "e6d5");
    assert!(!g.wild_next);
    assert_eq!(g.to_act(), ToAct::one(0), "the rook card is not wild: no capture open");
    // Nor a black pawn card on White's stack.
    let mut g = dealt(BOOK, "white hand: 2h 3h 4h\nblack hand: 8s 9c ks\nwhite discards: 10h 2s");
    act(&mut g, "c8e6");
    act(&mut g, "play 9c");
    act(&mut g, "e6d5");
    assert!(!g.wild_next);
    assert_eq!(g.to_act(), ToAct::one(0));
}

#[test]
fn castling_is_allowed_even_through_attacked_squares_ruling() {
    let mut g =
        dealt("r3k3/8/8/8/8/8/8/4K2R w K - 0 1", "white hand: kh 3h 4h\nblack hand: 8s 9c ks\nblack discards: 10s");
    let mut blocked =
        dealt("r3k3/8/8/8/8/8/8/4K1NR w K - 0 1", "white hand: kh 3h 4h\nblack hand: 8s 9c ks\nblack discards: 10s");
    assert!(!texts(&blocked).contains(&"e1g1".to_string()), "the path must be empty");
    let err = refused(&mut blocked, "O-O");
    assert!(!err.is_empty());
    let mut attacked =
        dealt("4kr2/8/8/8/8/8/8/4K2R w K - 0 1", "white hand: kh 3h 4h\nblack hand: 8s 9c ks\nblack discards: 10s");
    act(&mut attacked, "O-O");
    assert_eq!(attacked.board().piece_at(sq("g1")), Some(Role::King.of(Color::White)));
    act(&mut g, "e1g1");
    assert_eq!(g.board().piece_at(sq("f1")), Some(Role::Rook.of(Color::White)));
    assert_eq!(g.piece, Some(sq("g1")), "castling is a king move: the king makes the turn's captures");
}

#[test]
fn en_passant_capture_is_allowed_in_the_next_turn() {
    let mut g =
        dealt("4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1", "white hand: 2h 3h 4h\nblack hand: 2c 3c 4c\nwhite discards: 5h");
    act(&mut g, "d7d5");
    act(&mut g, "play 2c");
    assert_eq!(g.to_act(), ToAct::one(0));
    assert_eq!(g.ep_now, Some(sq("d6")));
    assert!(g.position().lines().next().unwrap().contains(" d6 "), "{}", g.position());
    act(&mut g, "play 2h");
    assert_eq!(texts(&g), vec!["e5d6", "stop"]);
    act(&mut g, "e5d6");
    assert!(g.board().piece_at(sq("d5")).is_none(), "the pawn that passed is taken");
    assert_eq!(g.captured(), [card("2c")]);
}

#[test]
fn promotion_to_any_other_piece_by_a_move_or_a_capture() {
    let mut g =
        dealt("1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1", "white hand: 2h 3h 4h\nblack hand: 8s 9c ks\nblack discards: 10s");
    let quiet = texts(&g);
    for promo in ["a7a8q", "a7a8r", "a7a8b", "a7a8n"] {
        assert!(quiet.contains(&promo.to_string()), "{quiet:?}");
    }
    act(&mut g, "play 2h");
    assert_eq!(texts(&g), vec!["a7b8q", "a7b8r", "a7b8b", "a7b8n", "stop"]);
    act(&mut g, "a7b8n");
    assert_eq!(g.board().piece_at(sq("b8")), Some(Role::Knight.of(Color::White)));
    assert!(g.board().pawns().is_empty());
    assert_eq!(g.types_removed(), 4, "pawns, bishops, rooks and queens gone: the last pawn promoted");
}

#[test]
fn kings_may_move_into_check_or_stay_in_check() {
    let g = dealt("4k3/8/8/8/8/8/3r4/4K3 w - - 0 1", "white hand: 2h 3h 4h\nblack hand: 8s 9c ks\nblack discards: 10s");
    let actions = texts(&g);
    assert!(actions.contains(&"e1f1".to_string()), "the king may stay in check");
    assert!(actions.contains(&"e1e2".to_string()), "and step into it");
    assert!(actions.contains(&"play 2h".to_string()), "or leave it in check without moving");
}

#[test]
fn winning_capture_a_king_to_end_the_game_and_score_the_types_removed() {
    // rules.md: "if you captured both queens, all four bishops, and a king,
    // but still had at least one pawn, one knight, one rook, and the other
    // king still on the board, then you would score 2 points."
    let mut g =
        dealt("rn2k3/p7/8/8/8/8/P3K3/RN6 w - - 0 1", "white hand: 10h 3h 4h\nblack hand: 8s 9c ks\nblack discards: kh");
    act(&mut g, "e2e3");
    act(&mut g, "play 10h");
    assert_eq!(g.to_act(), ToAct::one(1), "the rook cannot reach the king: nothing to capture");
    let mut g = dealt(
        "rn2k3/p7/8/8/8/8/P2K4/RN2R3 w - - 0 1",
        "white hand: 10h 3h 4h\nblack hand: 8s 9c ks\nblack discards: kh",
    );
    act(&mut g, "play 10h");
    act(&mut g, "e1e8");
    let outcome = g.to_act().outcome().cloned().expect("over");
    assert_eq!(outcome.winners, vec![0, 1], "the partners win together");
    assert_eq!(outcome.scores, Some(vec![2, 2]), "queens and bishops are gone");
}

#[test]
fn winning_you_lose_when_the_cards_run_out() {
    let mut g = dealt(
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
        "white hand: 2h\nblack hand:\ndraw pile:\nwhite discards:\nblack discards:",
    );
    assert!(g.to_act().outcome().is_none(), "the draw pile is empty: play on while cards last");
    act(&mut g, "play 2h");
    let outcome = g.to_act().outcome().cloned().expect("Black must play a card and holds none");
    assert!(outcome.winners.is_empty());
    assert_eq!(outcome.reason, "out of cards");
    assert_eq!(outcome.scores, Some(vec![0, 0]));
}

#[test]
fn out_of_turn_and_unreadable_actions_are_refused() {
    let mut g = Told::<CooperativeGame>::new(&Options::new(), 3).unwrap();
    let before = g.clone();
    assert_eq!(g.apply(1, &CoopAction::Stop), Err(RuleError::NotYourTurn { seat: 1 }));
    assert!(g.parse_action(0, "play").is_err());
    assert!(g.parse_action(0, "play 1x").is_err());
    assert!(g.parse_action(0, "fly away").is_err());
    assert_eq!(g, before);
}

#[test]
fn the_computer_partner_sees_only_its_own_hand() {
    let mut g = Told::<CooperativeGame>::new(&Options::new(), 3).unwrap();
    let first = g.hands[0][0];
    act(&mut g, &format!("play {first}"));
    let mut rng = GameRng::from_seed(1);
    let mut partners = std::collections::BTreeSet::new();
    for _ in 0..20 {
        let world = g.sample_hidden(1, &mut rng);
        assert_eq!(world.hands[1], g.hands[1], "its own hand is known");
        assert_eq!(world.discards, g.discards, "the stacks are face up");
        assert_eq!(world.deck.len(), g.deck.len());
        assert_eq!(world.hands[0].len(), g.hands[0].len());
        partners.insert(world.hands[0].to_vec());
    }
    assert!(partners.len() > 1, "the partner's hand is redrawn");
}

#[test]
fn text_position_round_trips() {
    let mut g = dealt(BOOK, "white hand: 3h 4h 5h\nblack hand: 8s 9c ks\nwhite discards: 10h 2h");
    for step in ["c8e6", "play 9c", "e6d5"] {
        let again = Told::<CooperativeGame>::from_position(&g.position(), &Options::new(), 1).unwrap();
        assert_eq!(again.position(), g.position());
        assert_eq!(texts(&again), texts(&g));
        act(&mut g, step);
    }
    assert!(g.position().contains("phase: capture d5\n"), "{}", g.position());
    assert!(g.position().contains("wild: yes"), "{}", g.position());
    let again = Told::<CooperativeGame>::from_position(&g.position(), &Options::new(), 1).unwrap();
    assert_eq!(texts(&again), texts(&g));
}

#[test]
fn text_position_bad_input_is_named() {
    let full = |lines: &str| format!("{BOOK}\n{lines}");
    let cases = [
        ("", "empty"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w - - 0 1", "king"),
        (&full("phase: fly") as &str, "phase: expected"),
        (&full("phase: play e4"), "no black piece"),
        (&full("phase: play"), "names the square"),
        (&full("phase: capture"), "discard stack is empty"),
        (&full("colour: red"), "unknown line"),
        (&full("white hand: 2h 2h"), "appears twice"),
        (&full("white hand: 6h"), "not one of the 32 cards"),
        (&full("white hand: 2h"), "do not add up"),
        (&full("wild: maybe"), "yes or no"),
        (&full("wild: yes"), "needs `phase: capture SQUARE`"),
        (&full("next en passant: e3"), "not behind this turn's piece"),
        ("4k3/8/8/8/8/8/8/4K3 w - e6 0 1", "does not follow a pawn's double step"),
        ("4k3/8/8/8/8/8/8/4K2N{x} w - - 0 1", "marker"),
    ];
    for (text, needle) in cases {
        let err = Told::<CooperativeGame>::from_position(text, &Options::new(), 1).unwrap_err().to_string();
        assert!(err.contains(needle), "{text:?}: {err}");
    }
}

#[test]
fn text_position_hands_hold_three_while_the_draw_pile_lasts() {
    let lines = "white hand: 2h 3h\nblack hand: 8s 9c ks";
    let mut listed: Vec<Card> = piece_deck();
    listed.retain(|c| !["2h", "3h", "8s", "9c", "ks"].contains(&c.to_string().as_str()));
    let rest: Vec<String> = listed.iter().map(Card::to_string).collect();
    let text = format!("{BOOK}\n{lines}\ndraw pile: {}", rest.join(" "));
    let err = Told::<CooperativeGame>::from_position(&text, &Options::new(), 1).unwrap_err().to_string();
    assert!(err.contains("white hand: 2 cards, but white holds 3"), "{err}");
}

/// The tree of actions through the referee (every non-capturing move,
/// card play, capture and stop is one ply), pinned at the counts the
/// game's own fast perft found before it was removed.
#[test]
fn perft_counts_moves_plays_captures_and_stops() {
    let start = Told::<CooperativeGame>::new(&Options::new(), 4).unwrap();
    let book = dealt(BOOK, "white hand: 3h 4h 5h\nblack hand: 8s 9c ks\nwhite discards: 10h 2h");
    for (g, expected) in [(&start, [23, 129, 1767, 13446]), (&book, [30, 186, 3226, 24773])] {
        let counts: Vec<u64> = (1..=4).map(|depth| chesskit_core::perft::count(g, depth)).collect();
        assert_eq!(counts, expected, "{}", g.position());
    }
}

#[test]
fn pgn_holds_one_move_per_turn() {
    let mut g = dealt(BOOK, "white hand: 2h 3h 4h\nblack hand: 8s 9c ks\nwhite discards: 2s 3s");
    act(&mut g, "c8e6");
    act(&mut g, "play 9c");
    act(&mut g, "e6d5");
    act(&mut g, "d5e4");
    let pgn = g.pgn().unwrap();
    assert!(pgn.contains("Bc8-e6xd5xe4"), "{pgn}");
}

#[test]
fn text_position_the_documents_example_reads() {
    let doc = include_str!("../../../../docs/games/cooperative.md");
    let start = doc.find("```text\n").expect("an example") + "```text\n".len();
    let example = &doc[start..start + doc[start..].find("```").unwrap()];
    let g = Told::<CooperativeGame>::from_position(example, &Options::new(), 1).unwrap();
    assert_eq!(g.position(), example.trim());
    assert!(g.wild_next);
    assert!(texts(&g).contains(&"d5e4".to_string()), "the rook card is wild");
}

/// "En passant capture is allowed": in the turn after the partner's pawn
/// double step, while that pawn stands where it landed, so a pawn may come
/// alongside with step 1 and take. The text written before it comes
/// alongside keeps the square (issue 23's random games: g5g4 then g4xh3).
#[test]
fn text_position_keeps_en_passant_for_the_turn_before_a_pawn_comes_alongside() {
    let fen = "rnbqkbnr/pppppp1p/8/6p1/7P/8/PPPPPPP1/RNBQKBNR b KQkq h3 0 1";
    let g = dealt(fen, "white hand: 2h 3h 4h\nblack hand: 2s 3s 4s");
    let written = g.position();
    assert!(written.starts_with(fen), "{written}");
    let back = Told::<CooperativeGame>::from_position(&written, &Options::new(), 1).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(back.position(), written);
}

/// The search's transposition table may only share what the rules cannot
/// tell apart: see [`check_position_hash`].
#[test]
fn the_position_key_is_the_same_for_the_same_state_and_differs_for_any_change_the_rules_read() {
    check_position_hash::<CooperativeGame>(&Options::new(), 3, 60);
}
