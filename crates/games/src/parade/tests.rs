//! One test per clause of "Parade Chess Solitaire" (new-rules-2025), the
//! book's example (crates/games/testdata/book-examples.md), and our rulings.

use chesskit_core::cards::{officer_deck, Card};
use chesskit_core::game::{Game, Outcome, RuleError, ToAct, Viewer};
use chesskit_core::options::Options;
use chesskit_core::rng::GameRng;
use chesskit_core::view::Journal;
use shakmaty::{Color, Piece, Role};

use super::*;
use crate::testing::{check_position_hash, refused_for, sq, try_act};

/// The book's layout: cards 9h 10h, then k r n N r b (Appendix A: B R k r n N r b).
const BOOK: &str = "
. . . . . . . .
. . . . . . . .
. . . . . . . .
. . . . . . . .
. r . . b . . .
. r . n . N . .
. . . . . k . .
. . B . . . R .
hand: 8d qs 10d 9c 9d 8c qh kh
discard: 9h 10h ks 10s 8s 8h 10c 9s
";

fn game(position: &str) -> ParadeGame {
    ParadeGame::from_position(position, &Options::new(), 0).unwrap()
}

fn cards(text: &str) -> Vec<Card> {
    text.split_whitespace().map(|c| c.parse().unwrap()).collect()
}

fn order_dests(game: &ParadeGame, by: &str, from: &str) -> Vec<String> {
    let mut dests: Vec<String> = game
        .legal_actions(0)
        .into_iter()
        .filter_map(|a| match a {
            ParadeAction::Order(o) if o.by == sq(by) && o.from == sq(from) => Some(o.to.to_string()),
            _ => None,
        })
        .collect();
    dests.sort();
    dests
}

#[test]
fn setup_uses_the_sixteen_officer_cards_dealt_into_two_piles_of_eight() {
    let game = ParadeGame::deal(7, &mut Journal::muted());
    assert_eq!(game.discard().len(), 8, "the laid-out pile");
    assert_eq!(game.hand().len(), 8, "the hand");
    let mut all: Vec<Card> = game.discard().iter().chain(game.hand()).copied().collect();
    all.sort();
    let mut deck = officer_deck();
    deck.sort();
    assert_eq!(all, deck, "no pawn cards, each officer card once");
    assert_eq!(game.board().occupied().count(), 8, "eight pieces placed");
    assert!(game.board().by_role(Role::Pawn).is_empty());
}

#[test]
fn setup_draws_one_card_at_a_time_from_a1_leaving_the_appendix_a_gap_book_example() {
    let board = lay_out(&cards("9h 10h ks 10s 8s 8h 10c 9s")).unwrap();
    assert_eq!(board, *game(BOOK).board(), "the book's diagram");
    assert_eq!(
        board.piece_at(sq("c1")),
        Some(Piece { color: Color::White, role: Role::Bishop }),
        "gap 2 before a bishop"
    );
    assert_eq!(board.piece_at(sq("g1")), Some(Piece { color: Color::White, role: Role::Rook }), "gap 3 before a rook");
    assert_eq!(
        board.piece_at(sq("f2")),
        Some(Piece { color: Color::Black, role: Role::King }),
        "gap 6 wraps to rank 2"
    );
    let queens = lay_out(&cards("qs qh")).unwrap();
    assert_eq!(queens.occupied().into_iter().map(|s| s.to_string()).collect::<Vec<_>>(), ["f1", "d2"], "gap 5");
}

#[test]
fn setup_is_driven_by_the_seed_alone() {
    assert_eq!(ParadeGame::deal(3, &mut Journal::muted()), ParadeGame::deal(3, &mut Journal::muted()));
    assert_ne!(
        ParadeGame::deal(3, &mut Journal::muted()).discard(),
        ParadeGame::deal(4, &mut Journal::muted()).discard()
    );
    let g = ParadeGame::new(&Options::new(), 11).unwrap();
    assert_eq!(lay_out(g.discard()).unwrap(), *g.board(), "the board is the laid-out pile");
}

#[test]
fn move_a_piece_between_squares_it_attacks_book_knight_example() {
    // "black knight at d3 could move the white bishop from c1 to b2, e1, f4, e5, or c5"
    let g = game(BOOK);
    assert_eq!(order_dests(&g, "d3", "c1"), ["b2", "c5", "e1", "e5", "f4"]);
}

#[test]
fn move_a_piece_the_king_moves_neighbours_to_its_other_neighbouring_squares() {
    // "The king could move either of the white pieces next to it to any of the other spaces next to it."
    let g = game(BOOK);
    let empty_neighbours = ["e1", "e2", "e3", "f1", "g2", "g3"];
    assert_eq!(order_dests(&g, "f2", "g1"), empty_neighbours);
    assert_eq!(order_dests(&g, "f2", "f3"), empty_neighbours);
}

#[test]
fn move_a_piece_the_moved_piece_is_picked_up_first_book_bishop_example() {
    // "using the black bishop at e4 to move the white knight from f3 to g2": g2 lies behind f3.
    let mut g = game(BOOK);
    assert!(order_dests(&g, "e4", "f3").contains(&"g2".to_string()));
    try_act(&mut g, "e4:f3-g2").unwrap();
    assert_eq!(g.board().piece_at(sq("g2")), Some(Piece { color: Color::White, role: Role::Knight }));
    assert_eq!(g.board().piece_at(sq("f3")), None);
}

#[test]
fn move_a_piece_only_pieces_of_the_opposite_colour() {
    let mut g = game(BOOK);
    // The black knight on d3 attacks the black rook on b4.
    refused_for(&mut g, "d3:b4-c5", "opposite colour");
    assert!(order_dests(&g, "d3", "b4").is_empty());
}

#[test]
fn move_a_piece_from_and_to_attacked_empty_squares_only() {
    let mut g = game(BOOK);
    refused_for(&mut g, "d3:g1-f4", "does not attack g1");
    refused_for(&mut g, "d3:c1-h8", "does not attack h8");
    refused_for(&mut g, "d3:c1-b4", "occupied");
    refused_for(&mut g, "a8:c1-b2", "no piece on a8");
    refused_for(&mut g, "d3:a1-b2", "no piece on a1");
}

#[test]
fn move_a_piece_spends_the_top_card_face_down() {
    let mut g = game(BOOK);
    try_act(&mut g, "d3:c1-e1").unwrap();
    assert_eq!(g.face_down(), cards("8d"));
    assert_eq!(g.hand().len(), 7);
    assert_eq!(g.discard().len(), 8, "nothing face up");
    let view = g.view(Viewer::Seat(0));
    let zone = |name: &str| view.zones.iter().find(|z| z.name == name).unwrap().clone();
    assert_eq!((zone("orders (face down)").hidden, zone("orders (face down)").cards.len()), (1, 0), "unseen face");
}

#[test]
fn add_a_piece_plays_the_top_card_face_up_after_the_last_piece_with_its_gap_book_example() {
    // The book: the 8 of diamonds adds a white knight "at g7"; by its own
    // rule (a one-square gap after the bishop on e4) the square is g4, our ruling.
    let mut g = game(BOOK);
    try_act(&mut g, "add").unwrap();
    assert_eq!(g.board().piece_at(sq("g4")), Some(Piece { color: Color::White, role: Role::Knight }));
    assert_eq!(g.discard().last(), Some(&"8d".parse().unwrap()), "face up onto the discard pile");
    assert_eq!(g.hand().len(), 7);
    // The next card, the black queen, leaves five squares after g4: e5.
    try_act(&mut g, "add").unwrap();
    assert_eq!(g.board().piece_at(sq("e5")), Some(Piece { color: Color::Black, role: Role::Queen }));
}

#[test]
fn add_a_piece_after_the_highest_rank_rightmost_piece_even_after_moves() {
    let mut g = game(BOOK);
    try_act(&mut g, "d3:c1-c5").unwrap(); // the bishop is now the last piece, on c5
    try_act(&mut g, "add").unwrap(); // qs, gap 5 after c5
    assert_eq!(g.board().piece_at(sq("a6")), Some(Piece { color: Color::Black, role: Role::Queen }));
}

#[test]
fn add_a_piece_that_does_not_fit_before_h8_spends_the_card_ruling() {
    let mut g = game(
        "
. . . . . . . R
. . . . . . . .
. . . . . . . .
. . . . . . . .
. r . . b . . .
. r . n . N . .
. . . . . k . .
. . B . . . . .
hand: kh qs 10d 9c 9d 8c qh 8d
discard: 9h 10h ks 10s 8s 8h 10c 9s
",
    );
    let before = g.board().clone();
    try_act(&mut g, "add").unwrap();
    assert_eq!(*g.board(), before, "no square after h8");
    assert_eq!(g.discard().last(), Some(&"kh".parse().unwrap()));
    assert_eq!(g.hand().len(), 7);
}

#[test]
fn winning_connection_counts_only_orthogonal_neighbours_ruling() {
    use shakmaty::Bitboard;
    let set = |names: &[&str]| names.iter().map(|n| sq(n)).collect::<Bitboard>();
    assert_eq!(groups(set(&["d4", "e5"])), 2, "diagonal neighbours don't count");
    assert_eq!(groups(set(&["d4", "e4", "e5"])), 1);
    assert_eq!(groups(set(&["h1", "a2"])), 2, "no wrap-around between h1 and a2");
    assert_eq!(groups(set(&["a1", "a2", "c1"])), 2);
}

#[test]
fn winning_score_is_the_cards_left_in_the_hand() {
    let mut g = game(
        "
. . . . . . . .
. . . . . . . .
. . . . . . . .
. . . . . . . .
. . . . . . . .
. . . . . . . .
. . . . . . . .
. . R r n N B .
hand: 8d qs 10d 9c 9d 8c qh kh
discard: 9h 10h ks 10s 8s 8h 10c 9s
",
    );
    // Already one group: the game is over at once with all 8 cards.
    assert_eq!(g.to_act(), ToAct::Over(Outcome::win(vec![0], "formed up").with_scores(vec![8])));
    refused_for(&mut g, "add", "over");

    let mut g = game(
        "
. . . . . . . .
. . . . . . . .
. . . . . . . .
. . . . . . . .
. . . . . . . .
. . . . . . . .
. . . . . . . .
. . R r . . . B
hand: 8d qs 10d 9c 9d 8c qh kh
discard: 9h 10h ks 10s 8s 8h 10c 9s
",
    );
    assert!(!g.to_act().is_over());
    // The black rook on d1 moves the white bishop from h1 to e1: one group.
    try_act(&mut g, "d1:h1-e1").unwrap();
    assert_eq!(g.to_act().outcome().unwrap().scores, Some(vec![7]), "8 cards less the one spent");
}

#[test]
fn running_out_of_cards_continues_with_negative_points_and_no_adding() {
    let mut g = game(
        "
. . . . . . . .
. . . . . . . .
. . . . . . . .
. . . . . . . .
. . . . . . . .
. . . . . . . .
. . . . . . . .
. . R r . . . B
hand: 8d
discard: 9h 10h ks 10s 8s 8h 10c 9s
face down: qs 10d 9c 9d 8c qh kh
",
    );
    try_act(&mut g, "d1:h1-g1").unwrap(); // the last card, still two groups
    assert_eq!(g.negative(), Some(0), "the 16 cards are picked up");
    assert!(!g.legal_actions(0).contains(&ParadeAction::Add));
    refused_for(&mut g, "add", "only move pieces");
    try_act(&mut g, "d1:g1-h1").unwrap();
    assert_eq!(g.score(), -1);
    try_act(&mut g, "d1:h1-e1").unwrap();
    assert_eq!(g.to_act(), ToAct::Over(Outcome::win(vec![0], "formed up").with_scores(vec![-2])));
}

#[test]
fn the_last_card_forming_the_group_scores_zero() {
    let mut g = game(
        "
. . . . . . . .
. . . . . . . .
. . . . . . . .
. . . . . . . .
. . . . . . . .
. . . . . . . .
. . . . . . . .
. . R r . . . B
hand: 8d
discard: 9h 10h ks 10s 8s 8h 10c 9s
face down: qs 10d 9c 9d 8c qh kh
",
    );
    try_act(&mut g, "d1:h1-e1").unwrap();
    assert_eq!(g.negative(), None);
    assert_eq!(g.to_act().outcome().unwrap().scores, Some(vec![0]));
}

#[test]
fn sixteen_negative_cards_spent_ends_the_game_at_minus_sixteen_ruling() {
    let mut g = game(
        "
. . . . . . . .
. . . . . . . .
. . . . . . . .
. . . . . . . .
. . . . . . . .
. . . . . . . .
. . . . . . . .
. . R r . . . B
hand:
discard: 9h 10h ks 10s 8s 8h 10c 9s
face down: 8d qs 10d 9c 9d 8c qh kh
negative: 15
",
    );
    try_act(&mut g, "d1:h1-g1").unwrap();
    let outcome = g.to_act().outcome().cloned().unwrap();
    assert!(outcome.winners.is_empty());
    assert_eq!(outcome.scores, Some(vec![-16]));
    refused_for(&mut g, "d1:g1-h1", "over");
}

#[test]
fn no_order_possible_in_the_continuation_ends_the_game_ruling() {
    // Two white pieces and nothing black: no order can be given.
    let g = game(
        "
. . . . . . . .
. . . . . . . .
. . . . . . . .
. . . . . . . .
. . . . . . . .
. . . . . . . .
. . . . . . . .
. . R . . . . B
hand:
discard: 9h 10h ks 10s 8s 8h 10c 9s
face down: 8d qs 10d 9c 9d 8c qh kh
negative: 3
",
    );
    let outcome = g.to_act().outcome().cloned().unwrap();
    assert_eq!((outcome.reason.as_str(), outcome.scores), ("no order possible", Some(vec![-16])));
}

#[test]
fn one_seat_without_colour() {
    let g = game(BOOK);
    assert_eq!(g.seats().len(), 1);
    assert_eq!(g.seats()[0].colour, None);
    assert!(g.legal_actions(1).is_empty());
    let mut g = g;
    assert!(matches!(g.apply(1, &ParadeAction::Add), Err(RuleError::NoSuchSeat { seat: 1 })));
}

#[test]
fn actions_have_canonical_text_and_bad_text_is_refused() {
    for (text, canonical) in [
        ("e4:f3-g2", "e4:f3-g2"),
        ("E4 F3 G2", "e4:f3-g2"),
        ("e4 moves f3 to g2", "e4:f3-g2"),
        ("e4:f3g2", "e4:f3-g2"),
        (" ADD ", "add"),
    ] {
        assert_eq!(text.parse::<ParadeAction>().unwrap().to_string(), canonical, "{text}");
    }
    let mut g = game(BOOK);
    for bad in ["", "e4", "e4:f3", "z9:f3-g2", "e4:f3-g2-h1", "discard"] {
        refused_for(&mut g, bad, "cannot read");
    }
}

#[test]
fn text_position_round_trips_and_rejects_impossible_positions() {
    let mut g = game(BOOK);
    try_act(&mut g, "e4:f3-g2").unwrap();
    try_act(&mut g, "add").unwrap();
    let text = g.position();
    let again = game(&text);
    assert_eq!(
        (again.board(), again.hand(), again.discard(), again.face_down()),
        (g.board(), g.hand(), g.discard(), g.face_down())
    );
    let no = |position: &str, needle: &str| {
        let err = ParadeGame::from_position(position, &Options::new(), 0).unwrap_err().0;
        assert!(err.contains(needle), "{err}");
    };
    no(&BOOK.replace("hand: 8d", "hand: 8d 8d"), "twice");
    no(&BOOK.replace("hand: 8d ", "hand: "), "missing: 8d");
    no(&BOOK.replace("hand: 8d", "hand: 2s"), "pawn");
    no(&BOOK.replace(". . B . . . R .", ". . B . . . R P"), "pawns");
    no(&BOOK.replace(". . B . . . R .", ". . B . . . R Q"), "white queen");
    no(&BOOK.replace(". . B . . . R .", ". . B . . . R . ."), "more than 8");
    no(&BOOK.replace("hand:", "hnad:"), "unknown key");
    no(&format!("{BOOK}negative: 2\n"), "negative count starts only when the hand is empty");
    no(&BOOK.replace(". . . . . . . .\n. . . . . . . .\n. . . . . . . .\n. . . . . . . .\n", ""), "board lines");
}

#[test]
fn the_hidden_order_of_the_hand_is_redrawn_and_never_shown() {
    let mut g = game(BOOK);
    try_act(&mut g, "d3:c1-e1").unwrap();
    let world = g.sample_hidden(0, &mut GameRng::from_seed(5));
    let mut known: Vec<Card> = g.hand().iter().chain(g.face_down()).copied().collect();
    let mut drawn: Vec<Card> = world.hand().iter().chain(world.face_down()).copied().collect();
    known.sort();
    drawn.sort();
    assert_eq!(known, drawn);
    assert_eq!(world.hand().len(), g.hand().len());
    assert_eq!(world.view(Viewer::Seat(0)), g.view(Viewer::Seat(0)));
    assert_eq!(world.legal_actions(0), g.legal_actions(0), "adding is offered whatever the top card");
}

/// The tree of orders and adds through the referee, pinned at the counts
/// the game's own fast perft (on the board rules alone) found before it was
/// removed, and across the end of the hand.
#[test]
fn perft_counts_what_the_referee_allows() {
    for (g, expected) in [
        (game(BOOK), [1, 27, 764]),
        (ParadeGame::deal(4, &mut Journal::muted()), [1, 47, 1931]),
        (ParadeGame::deal(9, &mut Journal::muted()), [1, 22, 614]),
    ] {
        let counts: Vec<u64> = (0..=2).map(|depth| chesskit_core::perft::count(&g, depth)).collect();
        assert_eq!(counts, expected, "{}", g.position());
    }
    let mut late = game(BOOK);
    for _ in 0..7 {
        try_act(&mut late, "add").unwrap();
    }
    assert_eq!(chesskit_core::perft::count(&late, 2), 12225, "across the end of the hand");
}

#[test]
fn the_search_estimate_is_the_score_less_half_a_point_per_group_beyond_one() {
    // The book's layout is in several groups: the estimate leads the
    // computer towards joining them, and a formed-up parade scores in full.
    let g = game(BOOK);
    let occupied = g.board().occupied();
    let groups = groups(occupied);
    assert!(groups > 1);
    let compactness = spread(occupied) as f64 * 0.001;
    assert!(compactness < 0.5, "the spread only breaks ties between as many groups");
    assert_eq!(g.heuristic(0), Some(g.score() as f64 - 0.5 * f64::from(groups - 1) - compactness));
}

/// Of two layouts with as many groups and cards, the estimate prefers the
/// more compact, which needs fewer orders to form up (the computer's
/// estimate, formerly a view-reading function of the crates/ai solver).
#[test]
fn the_estimate_prefers_a_compact_parade() {
    let cards = "hand: 8d qs 10d 9c 9d 8c qh kh\ndiscard: 9h 10h ks 10s 8s 8h 10c 9s";
    let layout = |rank_1: &str| game(&format!("{}{rank_1}\n{cards}\n", ". . . . . . . .\n".repeat(7)));
    let (apart, closer) = (layout(". . R r . . . B"), layout(". . R r . . B ."));
    assert_eq!(groups(apart.board().occupied()), groups(closer.board().occupied()));
    assert!(closer.heuristic(0).unwrap() > apart.heuristic(0).unwrap());
}

/// The search's transposition table may only share what the rules cannot
/// tell apart: see [`check_position_hash`].
#[test]
fn the_position_key_is_the_same_for_the_same_state_and_differs_for_any_change_the_rules_read() {
    check_position_hash::<ParadeGame>(&Options::new(), 3, 60);
}
