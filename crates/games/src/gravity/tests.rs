//! One test per clause of "Gravity Chess" (new-rules-2025), the book's
//! examples (crates/games/testdata/book-examples.md, "Gravity Chess"), and
//! our rulings (docs/games/gravity.md).

use chesskit_core::cards::Card;
use chesskit_core::game::{Game, RuleError, ToAct, Viewer};
use chesskit_core::options::Options;
use chesskit_core::rng::GameRng;
use chesskit_core::view::Journal;
use shakmaty::{Bitboard, Color, Piece, Role, Square};

use super::*;
use crate::testing::{check_position_hash, refused_for, sq, try_act, Told};

/// The book's order example: White has just flipped a black rook card.
///
/// ```text
/// . . . . P . . .
/// . . . . B . . .
/// r . . . P . . .
/// . n . . b . . .
/// (ranks 4 to 1 empty)
/// ```
///
/// The decks hold the rest of the 24 cards (no captures yet).
const ORDER_EXAMPLE: &str = "
4P3/4B3/r3P3/1n2b3/8/8/8/8 w
white holds: 2s 3s 4s 5s 8c 9c qs ks
black holds: 4h 5h 8h 8d 9d 10h 10d qh kh
flipped: 10s
";

/// The book's stacking example, White to move with the black king flipped:
///
/// ```text
/// p . . . . . . N
/// q . . . . . . .
/// . . . . . . . .
/// . . . . . . . .
/// . . . . . . . .
/// . . . B . . . .
/// . . Q . . r b .
/// . . . . . r n .
/// ```
const STACKING_EXAMPLE: &str = "
p6N/q7/8/8/8/3B4/2Q2rb1/5rn1 w
white holds: 2s 3s 4s 8s 9s
black holds: 2h 3h 4h 8h 9h kh
flipped: ks
captured: 0 3
";

fn game(position: &str) -> Told<GravityGame> {
    Told::<GravityGame>::from_position(position, &Options::new(), 0).unwrap()
}

fn squares(b: Bitboard) -> Vec<String> {
    let mut names: Vec<String> = b.into_iter().map(|s| s.to_string()).collect();
    names.sort();
    names
}

fn moves(game: &GravityGame, from: &str) -> Vec<String> {
    squares(moves_from(game.board(), game.table().stacked(), sq(from)))
}

fn texts(game: &GravityGame) -> Vec<String> {
    let seat = game.to_act().seats()[0];
    game.legal_actions(seat).iter().map(|a| a.to_string()).collect()
}

fn piece(colour: Color, role: Role) -> Option<Piece> {
    Some(Piece { color: colour, role })
}

// ----------------------------------------------------------------------
// Setup

#[test]
fn setup_each_player_holds_the_opponents_twelve_cards_face_down() {
    let g = GravityGame::deal(5, &mut Journal::muted());
    // White has already flipped the first card of the deck it holds.
    let mut white_holds = g.holds(Color::White);
    white_holds.push(g.flipped().unwrap());
    let black_holds = g.holds(Color::Black);
    assert_eq!((white_holds.len(), black_holds.len()), (12, 12), "24 cards in all");
    assert!(white_holds.iter().all(|c| c.suit.colour() == Color::Black), "White holds the black cards");
    assert!(black_holds.iter().all(|c| c.suit.colour() == Color::White), "Black holds the white cards");
    for (cards, colour) in [(white_holds, Color::Black), (black_holds, Color::White)] {
        for (role, count) in SET {
            assert_eq!(cards.iter().filter(|c| c.piece() == piece(colour, role)).count(), count, "{role:?}");
        }
    }
    assert_eq!(cards_of(Color::White).len(), 12, "four pawns, not eight");
}

#[test]
fn setup_starts_with_an_empty_board_and_shuffles_by_the_seed() {
    let g = GravityGame::deal(5, &mut Journal::muted());
    assert!(g.board().occupied().is_empty(), "all the pieces start beside the board");
    assert_eq!(GravityGame::deal(5, &mut Journal::muted()), g);
    assert!((0..8).any(|s| GravityGame::deal(s, &mut Journal::muted()).holds(Color::Black) != g.holds(Color::Black)));
}

// ----------------------------------------------------------------------
// Play: the three phases

#[test]
fn phase_1_white_flips_a_card_for_its_opponent_first() {
    let g = GravityGame::deal(1, &mut Journal::muted());
    assert_eq!(g.to_act(), ToAct::one(0), "White starts");
    let card = g.flipped().expect("flipped at the start of the turn");
    assert_eq!(card.suit.colour(), Color::Black, "a black card from the deck White holds");
    assert_eq!(g.holds(Color::White).len(), 11);
    assert!(g.view(Viewer::Spectator).zones.iter().any(|z| z.cards == [card.to_string()]), "the flip is public");
}

#[test]
fn white_has_no_active_pieces_on_the_first_turn_so_has_nothing_to_move() {
    let g = GravityGame::deal(1, &mut Journal::muted());
    let role = g.flipped().unwrap().piece().unwrap().role.upper_char();
    let expected: Vec<String> =
        ["a8", "b8", "c8", "d8", "e8", "f8", "g8", "h8"].iter().map(|s| format!("{role}@{s}")).collect();
    assert_eq!(texts(&g), expected, "only the addition, in any column");
}

#[test]
fn phase_3_adds_the_opponents_piece_on_the_top_row_in_the_column_the_player_chooses() {
    let mut g = GravityGame::deal(1, &mut Journal::muted());
    let card = g.flipped().unwrap();
    let role = card.piece().unwrap().role.upper_char();
    refused_for(&mut g, &format!("{role}@c7"), "top row");
    let wrong = if role == 'Q' { 'R' } else { 'Q' };
    refused_for(&mut g, &format!("{wrong}@c8"), "flipped card");
    try_act(&mut g, &format!("{role}@c8")).unwrap();
    assert_eq!(g.board().piece_at(sq("c8")), card.piece(), "the black piece of the black card");
    // Then Black's turn: Black flips a white card from the deck it holds.
    assert_eq!(g.to_act(), ToAct::one(1));
    assert_eq!(g.flipped().unwrap().suit.colour(), Color::White);
    assert_eq!(g.holds(Color::Black).len(), 11);
}

#[test]
fn phase_3_the_added_piece_goes_on_an_empty_square_of_the_top_row() {
    let mut g = game(
        "
3r4/8/8/8/8/8/8/8 w
white holds: 2s 3s 4s 5s 8s 8c 9s 9c 10c qs
black holds: 2h 3h 4h 5h 8h 8d 9h 9d 10h 10d qh
flipped: ks
captured: 0 1
",
    );
    assert_eq!(texts(&g).len(), 7, "every column but d");
    refused_for(&mut g, "K@d8", "occupied");
    try_act(&mut g, "@e8").unwrap();
    assert_eq!(g.board().piece_at(sq("e8")), piece(Color::Black, Role::King), "`@e8` names the flipped piece");
}

#[test]
fn phase_2_every_active_piece_must_move_if_it_can() {
    let mut g = game(ORDER_EXAMPLE);
    refused_for(&mut g, "@a8", "move your active pieces first");
    refused_for(&mut g, "e7 stays", "every active piece must move if it can");
    try_act(&mut g, "e7d6").unwrap();
    refused_for(&mut g, "d6c5", "already moved");
}

#[test]
fn moving_pieces_end_at_least_one_row_closer_to_the_bottom() {
    let mut g = game(ORDER_EXAMPLE);
    // The bishop on e7 may only go down its diagonals.
    assert_eq!(moves(&g, "e7"), ["a3", "b4", "c5", "d6", "f6", "g5", "h4"]);
    refused_for(&mut g, "e7d8", "goes up");
    refused_for(&mut g, "e7f7", "only a capture may end on the same row");
}

#[test]
fn a_capture_may_end_on_the_same_row() {
    let mut g = game(
        "
8/8/8/8/R2n4/8/8/8 w
white holds: 2s 3s 4s 5s 9s 9c 10s 10c qs ks
black holds: 2h 3h 4h 5h 8h 8d 9h 9d 10d qh kh
flipped: 8s
",
    );
    assert_eq!(moves(&g, "a4"), ["a1", "a2", "a3", "d4"], "down the file, or the capture along the row");
    refused_for(&mut g, "a4b4", "only a capture may end on the same row");
    try_act(&mut g, "a4xd4").unwrap();
    assert_eq!(g.captured(Color::White), 1);
    assert_eq!(g.board().piece_at(sq("d4")), piece(Color::White, Role::Rook));
}

#[test]
fn pawns_step_one_square_down_or_two_on_their_first_move_and_capture_diagonally_down() {
    let g = game(
        "
4P3/8/8/3n4/3P4/2b5/8/8 w
white holds: 2s 3s 4s 5s 9c 10s 10c qs ks
black holds: 4h 5h 8h 8d 9h 9d 10h 10d qh kh
flipped: 8s
",
    );
    assert_eq!(moves(&g, "e8"), ["e6", "e7"], "first move from the top row: one or two down");
    assert_eq!(moves(&g, "d4"), ["c3", "d3"], "one down, or capture diagonally down; never up or to d5");
}

#[test]
fn book_example_order_moving_the_bishop_first_lets_the_top_pawn_move() {
    // "If they move their bishop first, then the top pawn can also move."
    let mut g = game(ORDER_EXAMPLE);
    assert_eq!(moves(&g, "e8"), Vec::<String>::new(), "the top pawn is blocked by the bishop");
    assert_eq!(moves(&g, "e6"), Vec::<String>::new(), "the lower pawn is blocked by the black bishop");
    try_act(&mut g, "e7f6").unwrap();
    assert_eq!(moves(&g, "e8"), ["e7"], "the bishop has left e7 (two squares down is e6: occupied)");
    try_act(&mut g, "e8e7").unwrap();
    // "Either way, the lower pawn can't move": the moves are over, add the rook.
    assert_eq!(g.table().phase(), Phase::Add);
    assert_eq!(g.board().piece_at(sq("e6")), piece(Color::White, Role::Pawn));
    assert!(texts(&g).iter().all(|a| a.starts_with("R@")));
}

#[test]
fn book_example_order_moving_the_top_pawn_first_it_cannot_move() {
    // "If they move the top pawn first, they would say 'This pawn can't
    // move,' and then move the bishop."
    let mut g = game(ORDER_EXAMPLE);
    assert!(texts(&g).contains(&"e8 stays".to_string()));
    try_act(&mut g, "e8 stays").unwrap();
    try_act(&mut g, "e7d6").unwrap();
    assert_eq!(g.board().piece_at(sq("e8")), piece(Color::White, Role::Pawn), "the pawn stayed");
    assert_eq!(g.table().phase(), Phase::Add, "the pawn had its chance: the moves are over");
    assert!(g.view(Viewer::Spectator).log.iter().any(|l| l.text.contains("cannot move")));
}

#[test]
fn book_example_stacked_pieces() {
    let g = game(STACKING_EXAMPLE);
    let on_board = g.table().stacked();
    // "The two pieces on the bottom row are obviously stacked, but the only
    // one stacked in the second row is the rook."
    assert_eq!(squares(on_board), ["f1", "f2", "g1"]);
    // "The bishop can move down to h1, and the queen can move down to any of
    // the three squares below it."
    assert_eq!(moves(&g, "g2"), ["h1"]);
    assert_eq!(moves(&g, "c2"), ["b1", "c1", "d1"], "not the stacked rook on f2");
    // "If the rook weren't between them, the queen could capture the bishop."
    let mut board = g.board().clone();
    assert!(board.remove_piece_at(sq("f2")).is_some());
    assert!(moves_from(&board, stacked(&board), sq("c2")).contains(sq("g2")));
}

#[test]
fn stacked_pieces_cannot_be_moved_or_captured() {
    let mut g = game(STACKING_EXAMPLE);
    refused_for(&mut g, "c2f2", "stacked pieces cannot be captured");
    let mut black = game(
        "
p6N/q7/8/8/8/3B4/2Q2rb1/5rn1 b
white holds: 2s 3s 4s 8s 9s
black holds: 2h 3h 4h 8h 9h
flipped: kh
captured: 1 3
",
    );
    refused_for(&mut black, "f1e1", "stacked: it can no longer move");
    refused_for(&mut black, "f2e2", "stacked");
    assert!(texts(&black).iter().all(|a| !a.starts_with("f1") && !a.starts_with("f2") && !a.starts_with("g1")));
}

#[test]
fn a_piece_whose_downward_moves_are_all_blocked_by_stacked_pieces_is_stacked() {
    // A rook on a stacked column, a king over three stacked pieces, a knight
    // whose downward squares are all stacked, and a pawn on row 2 over a
    // stacked piece (it could only capture onto row 1, where all is stacked).
    let board: shakmaty::Board = "8/8/8/8/8/R1K2N2/Rkrqnbp1/rrrRqQrQ".parse().unwrap();
    let settled = stacked(&board);
    for square in ["a2", "a3", "b2", "c2", "c3", "d2", "e2", "f2", "g2"] {
        assert!(settled.contains(sq(square)), "{square} is stacked");
    }
    assert!(!settled.contains(sq("f3")), "the knight may still land on the empty h2");
    // Empty square below: not stacked.
    let loose: shakmaty::Board = "8/8/8/8/8/8/R7/8".parse().unwrap();
    assert!(stacked(&loose).is_empty());
}

/// A random board, dense at the bottom and thinning out upwards, so that
/// stacks of every height and every piece over every neighbourhood occur.
fn random_board_dense_at_the_bottom(rng: &mut GameRng) -> shakmaty::Board {
    let pieces: Vec<Piece> = Color::ALL.into_iter().flat_map(|c| Role::ALL.into_iter().map(move |r| r.of(c))).collect();
    let mut board = shakmaty::Board::empty();
    for square in Square::ALL {
        let fill = 0.95 - 0.1 * f64::from(u32::from(square.rank()));
        if rng.chance(fill.max(0.2)) {
            board.set_piece_at(square, *rng.choose(&pieces).unwrap());
        }
    }
    board
}

#[test]
fn stacked_row_at_a_time_agrees_with_the_square_by_square_definition() {
    let mut rng = GameRng::from_seed(11);
    for _ in 0..20_000 {
        let board = random_board_dense_at_the_bottom(&mut rng);
        assert_eq!(stacked(&board), rules::stacked_square_by_square(&board), "{}", board.board_fen());
    }
}

/// [`rules::landing_rows`] as it was first written: every square of
/// every file, bottom up.
fn landing_rows_square_by_square(board: &shakmaty::Board, stacked: Bitboard) -> [u32; 64] {
    let mut landing = [0; 64];
    for file in shakmaty::File::ALL {
        let mut next = 1;
        for rank in shakmaty::Rank::ALL {
            let square = Square::from_coords(file, rank);
            if !board.occupied().contains(square) {
                continue;
            }
            if stacked.contains(square) {
                next = rules::row(square) + 1;
            } else {
                landing[square as usize] = next;
                next += 1;
            }
        }
    }
    landing
}

#[test]
fn landing_rows_over_the_occupied_squares_agree_with_every_square_bottom_up() {
    let mut rng = GameRng::from_seed(12);
    for _ in 0..5_000 {
        let board = random_board_dense_at_the_bottom(&mut rng);
        let stacked = stacked(&board);
        assert_eq!(
            rules::landing_rows(&board, stacked),
            landing_rows_square_by_square(&board, stacked),
            "{}",
            board.board_fen()
        );
    }
}

#[test]
fn a_pawn_above_an_empty_diagonal_is_not_stacked_an_enemy_may_arrive_there() {
    let board: shakmaty::Board = "8/8/8/8/8/4P3/3rRr2/3RRR2".parse().unwrap();
    assert!(stacked(&board).contains(sq("e3")), "every square below is stacked");
    let open: shakmaty::Board = "8/8/8/8/8/4P3/4Rr2/3RRR2".parse().unwrap();
    assert!(!stacked(&open).contains(sq("e3")), "d2 is empty: a piece could come to be captured there");
}

#[test]
fn kings_have_no_check_and_are_captured_like_any_piece() {
    let mut g = game(
        "
8/8/8/8/8/3k4/4Q3/8 w
white holds: 2s 3s 4s 5s 8s 8c 9s 9c 10s 10c
black holds: 2h 3h 4h 5h 8h 8d 9h 9d 10h 10d kh
flipped: qs
",
    );
    try_act(&mut g, "e2xd3").unwrap_err();
    // The king is on a higher row: the queen may not go up. Put it on the row.
    let mut g = game(
        "
8/8/8/8/8/8/3kQ3/8 w
white holds: 2s 3s 4s 5s 8s 8c 9s 9c 10s 10c
black holds: 2h 3h 4h 5h 8h 8d 9h 9d 10h 10d kh
flipped: qs
",
    );
    try_act(&mut g, "e2xd2").unwrap();
    assert_eq!(g.captured(Color::White), 1, "one point, like any capture");
    assert!(!g.to_act().is_over(), "the game goes on");
}

#[test]
fn a_piece_that_cannot_move_may_stay_only_while_another_piece_can_move() {
    let mut g = game(ORDER_EXAMPLE);
    assert!(texts(&g).contains(&"e6 stays".to_string()));
    try_act(&mut g, "e8 stays").unwrap();
    try_act(&mut g, "e7c5").unwrap();
    // The lower pawn cannot move, and nothing else can: it stays by itself.
    assert_eq!(g.table().phase(), Phase::Add);
    refused_for(&mut g, "e6 stays", "every piece has had its move");
}

// ----------------------------------------------------------------------
// Game end

/// Black to add the last white piece; White then has one last turn.
const LAST_CARD: &str = "
8/8/8/8/8/8/B7/RRrr4 b
white holds:
black holds: 9d
captured: 10 8
";

#[test]
fn the_last_turn_white_moves_without_flipping_or_adding_then_the_game_ends() {
    let mut g = game(LAST_CARD);
    // Black has no active pieces: it flips the last white card and adds it.
    assert_eq!(g.flipped(), Some("9d".parse().unwrap()));
    try_act(&mut g, "B@h8").unwrap();
    assert_eq!(g.to_act(), ToAct::one(0), "White's last turn");
    assert_eq!(g.flipped(), None, "no flip");
    assert!(texts(&g).iter().all(|a| a.starts_with("h8") && !a.contains('@')), "moves only: {:?}", texts(&g));
    refused_for(&mut g, "a2b1", "stacked");
    refused_for(&mut g, "h8a1", "your own pieces");
    try_act(&mut g, "h8b2").unwrap();
    let outcome = g.to_act().outcome().cloned().expect("after White's last turn, the game ends");
    // White: a1, b1 (1 each), a2, b2 (2 each) and 10 captures; Black: c1, d1 and 8.
    assert_eq!(outcome.scores, Some(vec![16, 10]));
    assert_eq!(outcome.winners, vec![0]);
    assert!(g.view(Viewer::Spectator).log.iter().any(|l| l.text.contains("last turn")));
}

#[test]
fn score_stacked_pieces_count_their_row_and_captures_count_one() {
    let g = game(
        "
8/8/8/8/8/8/B7/RRrr4 w
white holds:
black holds:
captured: 10 9
",
    );
    // White: rooks a1 b1 (1 + 1) and the bishop a2 stacked over b1 (2), plus 10 captures.
    // Black: rooks c1 d1 (1 + 1), plus 9 captures.
    assert_eq!(g.table().score(Color::White), 14);
    assert_eq!(g.table().score(Color::Black), 11);
    let outcome = g.to_act().outcome().cloned().expect("no moves, no cards: over");
    assert_eq!((outcome.winners, outcome.scores), (vec![0], Some(vec![14, 11])), "the most points wins");
}

#[test]
fn score_unstacked_pieces_count_nothing() {
    let g = game(
        "
8/8/8/4q3/8/8/8/RR6 w
white holds:
black holds:
captured: 11 10
",
    );
    assert_eq!(g.table().score(Color::Black), 10, "the queen on e5 is not stacked");
    assert_eq!(g.table().score(Color::White), 13);
}

#[test]
fn score_tie_break_most_stacked_pieces_on_the_highest_row_then_lower_rows_then_a_tie() {
    // 12 points each; White has a stacked piece on row 2, Black none.
    let g = game(
        "
8/8/8/4q3/8/8/B7/RR3rnb w
white holds:
black holds:
captured: 8 9
",
    );
    let outcome = g.to_act().outcome().cloned().unwrap();
    assert_eq!(outcome.scores, Some(vec![12, 12]));
    assert_eq!(outcome.winners, vec![0]);
    assert!(outcome.reason.contains("row 2"), "{}", outcome.reason);
    // The same rows on both sides: a tie.
    let tied = game(
        "
8/8/8/8/8/8/B6b/RR4rr w
white holds:
black holds:
captured: 9 9
",
    );
    let outcome = tied.to_act().outcome().cloned().unwrap();
    assert!(outcome.winners.is_empty(), "every row ties: a tie");
    assert_eq!(outcome.scores, Some(vec![13, 13]));
}

#[test]
fn ruling_a_full_top_row_sets_the_flipped_piece_aside() {
    let g = game(
        "
RNBQKBNR/8/8/8/8/8/8/8 b
white holds: 2s 3s 4s
black holds: 3h 4h 5h
flipped: 2h
captured: 9 0
",
    );
    // Black has nothing to move and nowhere to add the pawn: it is set aside,
    // and White's turn starts with its flip.
    assert_eq!(g.to_act(), ToAct::one(0));
    assert_eq!(g.flipped(), Some("2s".parse().unwrap()));
    let view = g.view(Viewer::Spectator);
    assert!(view.zones.iter().any(|z| z.name.starts_with("Set aside") && z.cards == ["2h"]));
    assert!(view.log.iter().any(|l| l.text.contains("set aside")));
    assert!(g.position().contains("set aside: 2h"));
    assert_eq!(game(&g.position()).table(), g.table());
}

// ----------------------------------------------------------------------
// The text position, bad input, hidden information

#[test]
fn the_text_position_round_trips() {
    for position in [ORDER_EXAMPLE, STACKING_EXAMPLE, LAST_CARD] {
        let g = game(position);
        assert_eq!(game(&g.position()).table(), g.table(), "{}", g.position());
    }
    let mut g = GravityGame::deal(9, &mut Journal::muted());
    for _ in 0..40 {
        let Some(a) = texts(&g).first().cloned() else { break };
        try_act(&mut g, &a).unwrap();
        assert_eq!(game(&g.position()).table(), g.table(), "{}", g.position());
    }
}

#[test]
fn positions_that_cannot_occur_are_refused_with_the_reason() {
    let bad = |text: &str, needle: &str| {
        let err = Told::<GravityGame>::from_position(text, &Options::new(), 0).unwrap_err().to_string();
        assert!(err.contains(needle), "{needle:?} not in {err:?}");
    };
    bad("", "empty");
    bad("8/8/8/8/8/8/8/8", "w or b");
    bad("8/8/8/8/8/8/8/9 w", "FEN");
    bad("8/8/8/8/8/8/8/8 x", "w or b");
    bad(&ORDER_EXAMPLE.replace("flipped: 10s", "flipped: 2h"), "own colour");
    bad(&ORDER_EXAMPLE.replace("2s 3s", "3s 3s"), "appears twice");
    bad(&ORDER_EXAMPLE.replace("2s 3s", "6s 3s"), "not one of the 24 cards");
    bad(&ORDER_EXAMPLE.replace("white holds: 2s 3s", "white holds: 3s"), "make 11");
    bad(&ORDER_EXAMPLE.replace("flipped: 10s", "flipped: 10s\nmoved: a6"), "holds none of White's");
    bad(&ORDER_EXAMPLE.replace("flipped: 10s", "flipped: 10s\ncolour: red"), "unknown key");
    bad(&ORDER_EXAMPLE.replace("flipped: 10s", "flipped: 10s\ncaptured: x"), "two counts");
    bad(&ORDER_EXAMPLE.replace("4P3/", "4P3/Q7/").replace("/8/8/8/8 w", "/8/8/8 w"), "too many");
}

#[test]
fn bad_action_text_is_refused_and_changes_nothing() {
    let mut g = game(ORDER_EXAMPLE);
    refused_for(&mut g, "hello", "unknown action");
    refused_for(&mut g, "z9a1", "not a square");
    refused_for(&mut g, "a6a5", "not White's");
    refused_for(&mut g, "d4d3", "no piece on d4");
    refused_for(&mut g, "X@a8", "not a piece letter");
    assert!(matches!(g.apply(1, &GravityAction::Stay(sq("e8"))), Err(RuleError::NotYourTurn { .. })));
}

#[test]
fn the_deck_order_is_hidden_from_both_players() {
    let g = GravityGame::deal(3, &mut Journal::muted());
    let mut rng = GameRng::from_seed(1);
    let other = (0..20).map(|_| g.sample_hidden(0, &mut rng)).find(|s| s.holds(Color::Black) != g.holds(Color::Black));
    let other = other.expect("a reshuffled world");
    let sorted = |mut cards: Vec<Card>| {
        cards.sort();
        cards
    };
    assert_eq!(sorted(other.holds(Color::Black)), sorted(g.holds(Color::Black)), "the same cards, in another order");
    for viewer in [Viewer::Seat(0), Viewer::Seat(1), Viewer::Spectator] {
        assert_eq!(other.view(viewer), g.view(viewer), "no view shows the order");
    }
}

#[test]
fn the_view_shows_decks_the_flipped_card_and_stacked_pieces() {
    let g = game(STACKING_EXAMPLE);
    let view = g.view(Viewer::Seat(0));
    let board = view.board.unwrap();
    let marker =
        |square: &str| board.square(square).unwrap().markers.iter().map(|m| m.kind.clone()).collect::<Vec<_>>();
    assert_eq!(marker("f2"), ["stacked"]);
    assert!(marker("g2").is_empty());
    assert_eq!(view.zones.iter().map(|z| z.hidden).collect::<Vec<_>>()[..2], [5, 6]);
    assert!(view.zones.iter().any(|z| z.cards == ["ks"]));
    assert!(view.prompt.unwrap().contains("Move your active pieces"));
}

#[test]
fn heuristic_counts_the_score_so_far() {
    let g = game(
        "
8/8/8/8/8/8/B7/RRrr4 w
white holds:
black holds:
captured: 10 9
",
    );
    assert_eq!(g.heuristic(0), Some(3.0));
    assert_eq!(g.heuristic(1), Some(-3.0));
}

#[test]
fn heuristic_pieces_in_play_count_the_row_they_would_land_on() {
    let g = game(STACKING_EXAMPLE);
    let landing = rules::landing_rows(g.board(), g.table().stacked());
    let at = |s: &str| landing[sq(s) as usize];
    assert_eq!(
        (at("g2"), at("c2"), at("a7"), at("a8")),
        (2, 1, 1, 2),
        "on the stacked knight, on the floor, on the queen"
    );
    // A white piece over the stacked black rooks on f1 and f2 would land on row 3.
    let mut board = g.board().clone();
    board.set_piece_at(sq("f5"), Piece { color: Color::White, role: Role::Rook });
    assert_eq!(rules::landing_rows(&board, stacked(&board))[sq("f5") as usize], 3);
    assert!(
        rules::potential(&board, stacked(&board), Color::White, 3)
            > rules::potential(g.board(), g.table().stacked(), Color::White, 3)
    );
    assert_eq!(rules::potential(&board, stacked(&board), Color::White, 0), 0.0, "no turns left: nothing more to score");
}

/// The tree of actions through the referee, pinned at the counts the
/// game's own fast perft (on the table alone) found before it was removed;
/// the last card's hand ends the game after two plies.
#[test]
fn perft_counts_the_actions_of_the_book_examples() {
    for (position, expected) in
        [(ORDER_EXAMPLE, [9, 30, 133]), (STACKING_EXAMPLE, [6, 27, 66]), (LAST_CARD, [8, 54, 0])]
    {
        let g = game(position);
        let counts: Vec<u64> = (1..=3).map(|depth| chesskit_core::perft::count(&g, depth)).collect();
        assert_eq!(counts, expected, "{position}");
    }
}

/// "A stacked piece on the bottom row is worth one point, on the second row
/// is worth two points, and so on": the score table counts each player's
/// stacked pieces row by row, and the view draws those counts as stacks of
/// the player's pieces, row 8 at the top.
#[test]
fn score_stacked_pieces_row_by_row_are_drawn_as_stacks_of_each_players_pieces() {
    use chesskit_core::view::TableDrawing;
    let g = game(
        "
8/8/8/8/8/8/B7/RRrr4 w
white holds:
black holds:
captured: 10 9
",
    );
    let view = g.view(Viewer::Spectator);
    let score = view.tables.iter().find(|t| t.title == "Score").expect("the score table");
    let places: Vec<String> = (1..=8).rev().map(|row| format!("row {row}")).collect();
    assert_eq!(
        score.drawn_as,
        Some(TableDrawing::Stacks { column: 4, places, colours: vec!["white".to_string(), "black".to_string()] })
    );
    assert_eq!(score.rows[0][4], "0 0 0 0 0 0 1 2", "White: the bishop on row 2, two rooks on row 1");
    assert_eq!(score.rows[1][4], "0 0 0 0 0 0 0 2");
}

/// The search's transposition table may only share what the rules cannot
/// tell apart: see [`check_position_hash`].
#[test]
fn the_position_key_is_the_same_for_the_same_state_and_differs_for_any_change_the_rules_read() {
    check_position_hash::<GravityGame>(&Options::new(), 3, 60);
}

/// The search's questions answered without building lists agree with
/// `to_act` and `legal_actions`, and `clone_from` with a fresh clone: see
/// [`crate::testing::check_allocation_free_answers`].
#[test]
fn the_allocation_free_answers_agree_with_to_act_legal_actions_and_clone() {
    crate::testing::check_allocation_free_answers::<GravityGame>(&Options::new(), 3, 60);
}
