//! Tests of Adrenaline Chess, each naming the rule clause it checks
//! (rules.md "Adrenaline Chess", docs/games/adrenaline.md, "Rulings").

use std::path::PathBuf;

use chesskit_core::chess::{File, Piece, Rank};
use chesskit_core::game::{Game, Viewer};
use chesskit_core::options::Options;

use chesskit_core::perft;

use super::reference::Ref;
use super::*;
use crate::testing::{check_position_hash, mover, refused, sq, Told};

// ----------------------------------------------------------------------
// Helpers
// ----------------------------------------------------------------------

fn game_from(text: &str) -> Told<AdrenalineGame> {
    Told::<AdrenalineGame>::from_position(text, &Options::new(), 0).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

/// Apply action texts, each by the seat to act.
fn play(game: &mut Told<AdrenalineGame>, actions: &str) {
    for text in actions.split(',').map(str::trim) {
        let seat = mover(game);
        let action = game.parse_action(seat, text).unwrap_or_else(|e| panic!("{text}: {e}"));
        game.apply(seat, &action).unwrap_or_else(|e| panic!("{text}: {e}\n{}", game.position()));
    }
}

fn actions(game: &Told<AdrenalineGame>) -> Vec<String> {
    let mut list: Vec<String> = game.legal_actions(mover(game)).iter().map(ToString::to_string).collect();
    list.sort();
    list
}

fn attacked_by(game: &Told<AdrenalineGame>, square: &str, by: Color) -> bool {
    attack::attacked(game.board(), &game.table().stacks, sq(square), by, None)
}

/// The diagrams of book-examples.md's Adrenaline Chess section (copied in
/// the repository from the team's fixtures; rules.md's first diagram).
fn fixture_board() -> Board {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("testdata/book-examples.md");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let section = text.split("## ").find(|s| s.starts_with("Adrenaline Chess")).expect("an Adrenaline section");
    let rows: Vec<&str> = section.lines().filter(|l| l.starts_with("    ")).map(str::trim).collect();
    assert_eq!(rows.len(), 8);
    let mut board = Board::empty();
    for (i, row) in rows.iter().enumerate() {
        for (file, c) in row.split_whitespace().enumerate() {
            if let Some(piece) = c.chars().next().and_then(Piece::from_char) {
                board.set_piece_at(Square::from_coords(File::new(file as u32), Rank::new(7 - i as u32)), piece);
            }
        }
    }
    board
}

// ----------------------------------------------------------------------
// Setup
// ----------------------------------------------------------------------

#[test]
fn setup_is_the_standard_start_without_checkers() {
    let game = Told::<AdrenalineGame>::new(&Options::new(), 0).unwrap();
    assert_eq!(game.position(), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    assert_eq!(actions(&game).len(), 20);
}

// ----------------------------------------------------------------------
// The adrenaline rush
// ----------------------------------------------------------------------

#[test]
fn book_example_white_captures_with_the_bishop_and_adds_a_checker_under_h7() {
    let mut game = Told::<AdrenalineGame>::new(&Options::new(), 0).unwrap();
    play(&mut game, "e2e3, a7a6, f1a6");
    assert_eq!(game.table().phase, Phase::Checker, "a capture ends with the adrenaline rush");
    assert_eq!(game.board(), &fixture_board());
    play(&mut game, "checker h7");
    assert_eq!(game.checkers_on(sq("h7")), 1);
    assert_eq!(mover(&game), 1, "the checker ends White's turn");
    assert_eq!(game.position(), "rnbqkbnr/1ppppppp{1}/B7/8/8/4P3/PPPP1PPP/RNBQK1NR b KQkq - 0 2");
}

#[test]
fn after_a_capture_exactly_one_checker_goes_under_any_enemy_piece_the_king_included() {
    let mut game = Told::<AdrenalineGame>::new(&Options::new(), 0).unwrap();
    play(&mut game, "e2e4, d7d5, e4d5");
    let expected: Vec<String> = game
        .board()
        .by_color(Color::Black)
        .into_iter()
        .map(|s| format!("checker {s}"))
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
    assert_eq!(actions(&game), expected, "any of Black's 15 remaining pieces");
    assert!(actions(&game).contains(&"checker e8".to_string()), "the king included");
    assert!(refused(&mut game, "checker e2").contains("no enemy piece"));
    assert!(refused(&mut game, "checker d5").contains("no enemy piece"), "not under your own piece");
    assert!(refused(&mut game, "checker e6").contains("no enemy piece"));
    play(&mut game, "checker e8");
    assert_eq!(game.checkers_on(sq("e8")), 1);
    assert_eq!(mover(&game), 1, "only one checker per turn");
    assert!(refused(&mut game, "checker e7").contains("no checker is due"));
}

#[test]
fn a_turn_without_capture_places_no_checker() {
    let mut game = Told::<AdrenalineGame>::new(&Options::new(), 0).unwrap();
    play(&mut game, "e2e4");
    assert_eq!(mover(&game), 1);
    assert!(game.table().stacks.loaded().is_empty());
}

#[test]
fn the_checker_may_not_give_an_enemy_piece_the_reach_to_capture_your_king() {
    // White takes on d5. With a checker, the knight on g3 could jump to e2
    // or f1 and step onto the king's square e1: that placement is refused.
    let mut game = game_from("4k3/8/8/3p4/4P3/6n1/8/4K3 w - - 0 1");
    play(&mut game, "e4d5");
    let list = actions(&game);
    assert!(!list.contains(&"checker g3".to_string()), "{list:?}");
    assert!(list.contains(&"checker e8".to_string()));
    assert!(refused(&mut game, "checker g3").contains("could capture your king"));
}

// ----------------------------------------------------------------------
// Extra moves
// ----------------------------------------------------------------------

#[test]
fn a_piece_with_checkers_makes_its_regular_move_then_extra_king_steps_one_checker_each() {
    let mut game = game_from("4k3/8/8/8/8/8/8/R{2}3K3 w - - 0 1");
    play(&mut game, "a1a5");
    assert_eq!(game.table().phase, Phase::Extra(sq("a5")), "the checkers came along");
    assert_eq!(game.checkers_on(sq("a5")), 2);
    let list = actions(&game);
    assert!(list.contains(&"step a5b6".to_string()) && list.contains(&"stop".to_string()), "{list:?}");
    assert!(!list.iter().any(|a| a == "step a5a7"), "one step like a king");
    play(&mut game, "step a5b6");
    assert_eq!(game.checkers_on(sq("b6")), 1, "one checker spent");
    play(&mut game, "step b6c6");
    assert_eq!(game.checkers_on(sq("c6")), 0);
    assert_eq!(mover(&game), 1, "out of checkers: the turn passes");
    assert!(game.table().stacks.loaded().is_empty(), "spent checkers leave the board");
}

#[test]
fn ruling_the_player_may_stop_the_extra_moves_early() {
    let mut game = game_from("4k3/8/8/8/8/8/8/R{2}3K3 w - - 0 1");
    play(&mut game, "a1a5, stop");
    assert_eq!(mover(&game), 1);
    assert_eq!(game.checkers_on(sq("a5")), 2, "unused checkers stay for a later turn");
    let mut game = game_from("4k3/8/8/8/8/8/8/R{2}3K3 w - - 0 1");
    play(&mut game, "a1a5, a5a6, done");
    assert_eq!(game.checkers_on(sq("a6")), 1);
}

#[test]
fn only_the_piece_that_moved_takes_extra_moves_and_only_after_its_regular_move() {
    let mut game = game_from("4k3/8/8/8/8/8/P{1}7/R{2}3K3 w - - 0 1");
    assert!(refused(&mut game, "step a1b1").contains("no piece of yours has extra moves"));
    play(&mut game, "a1d1");
    assert!(refused(&mut game, "step a2b3").contains("only the piece that moved"));
    assert!(refused(&mut game, "step d1d3").contains("one step like a king"));
    assert!(refused(&mut game, "a2a3").contains("only the piece that moved"), "no second regular move");
}

#[test]
fn extra_steps_may_capture_and_the_capturer_takes_over_the_checkers_at_once() {
    let mut game = game_from("4k3/8/8/1p{2}6/8/8/8/R{1}3K3 w - - 0 1");
    play(&mut game, "a1a4, step a4b5");
    assert_eq!(game.table().phase, Phase::Extra(sq("b5")), "the two checkers of the pawn are usable at once");
    assert_eq!(game.checkers_on(sq("b5")), 2);
    play(&mut game, "step b5c6, stop");
    assert_eq!(game.table().phase, Phase::Checker, "the extra move captured: a checker is due");
    play(&mut game, "checker e8");
    assert_eq!(game.checkers_on(sq("c6")), 1);
}

#[test]
fn a_regular_capture_takes_over_the_captured_pieces_checkers() {
    let mut game = game_from("4k3/8/8/1p{2}6/8/8/8/1R2K3 w - - 0 1");
    play(&mut game, "b1b5");
    assert_eq!(game.table().phase, Phase::Extra(sq("b5")));
    assert_eq!(game.checkers_on(sq("b5")), 2);
}

#[test]
fn a_pawn_promotes_on_the_back_rank_in_the_middle_of_the_turn_and_goes_on_stepping() {
    let mut game = game_from("8/8/1P{2}6/7k/8/8/8/4K3 w - - 0 1");
    play(&mut game, "b6b7, step b7c8q");
    assert_eq!(game.board().piece_at(sq("c8")), Some(Piece::from_char('Q').unwrap()), "promoted at once");
    assert_eq!(game.table().phase, Phase::Extra(sq("c8")), "and may go on");
    play(&mut game, "step c8d8");
    assert_eq!(game.board().piece_at(sq("d8")), Some(Piece::from_char('Q').unwrap()));
    // A regular move onto the back rank promotes too, then the steps follow.
    let mut game = game_from("8/2P{1}5/8/7k/8/8/8/4K3 w - - 0 1");
    assert!(refused(&mut game, "c7c8").contains("illegal"), "a promotion names its piece");
    play(&mut game, "c7c8n, step c8d8");
    assert_eq!(game.board().piece_at(sq("d8")), Some(Piece::from_char('N').unwrap()));
    let mut game = game_from("8/8/1P{2}6/7k/8/8/8/4K3 w - - 0 1");
    play(&mut game, "b6b7");
    assert!(refused(&mut game, "step b7c8").contains("name the piece"));
}

// ----------------------------------------------------------------------
// The extended attack
// ----------------------------------------------------------------------

#[test]
fn extended_attack_counts_the_regular_move_then_the_extra_steps() {
    // The book: "the black pawn at h5 has a checker" covers g3 (h5-h4, then h4xg3).
    let game = game_from("4k3/8/8/7p{1}/8/8/8/4K3 w - - 0 1");
    assert!(attacked_by(&game, "g3", Color::Black));
    assert!(attacked_by(&game, "g4", Color::Black), "h5-h4 then one step");
    assert!(!attacked_by(&game, "f3", Color::Black), "two steps need two checkers");
    let game = game_from("4k3/8/8/7p/8/8/8/4K3 w - - 0 1");
    assert!(!attacked_by(&game, "g3", Color::Black), "without the checker only the orthodox attack");
}

#[test]
fn extended_attack_includes_checkers_gained_by_capturing_along_the_way() {
    // The black rook has one checker; the white knight on c4 has two. The
    // rook takes it (c8xc4), gaining two, then walks c4-d3-e2: three steps.
    let game = game_from("2r{1}4k/8/8/8/2N{2}5/8/8/4K3 w - - 0 1");
    assert!(attacked_by(&game, "e2", Color::Black));
    assert!(attacked_by(&game, "f1", Color::Black), "c4-d3-e2-f1 with 3 checkers");
    assert!(!attacked_by(&game, "g1", Color::Black), "four steps are too many");
    // Stepping onto a loaded piece mid-walk gains its checkers too: the rook
    // moves c8-c5, then steps onto d4 (two checkers).
    let game = game_from("2r{1}4k/8/8/8/3N{2}4/8/8/7K w - - 0 1");
    assert!(attacked_by(&game, "f2", Color::Black), "c8-c5, c5xd4 (+2), d4-e3, e3xf2");
}

#[test]
fn no_step_may_leave_the_own_king_attacked() {
    // The white king is on e1; the black rook e8 is blocked by the white
    // rook on e4 which has a checker. Its regular move along the file is
    // fine, a step off the file would expose the king.
    let mut game = game_from("4r1k1/8/8/8/4R{1}3/8/8/4K3 w - - 0 1");
    play(&mut game, "e4e5");
    let list = actions(&game);
    assert!(list.contains(&"step e5e6".to_string()));
    assert!(!list.contains(&"step e5d6".to_string()), "{list:?}");
    assert!(refused(&mut game, "step e5f5").contains("capture it next turn"));
}

#[test]
fn no_move_may_reveal_a_check_even_if_an_extra_step_would_then_block_it() {
    // The bishop e5 with a checker could leave the file and step back onto it.
    let mut game = game_from("4r3/8/8/4B{1}2k/8/8/8/4K3 w - - 0 1");
    assert!(!game.table().in_check(), "the rook taking the bishop would walk only to e4");
    let list = actions(&game);
    assert!(!list.is_empty() && !list.iter().any(|a| a.starts_with("e5")), "{list:?}");
    assert!(refused(&mut game, "e5f6").contains("capture it next turn"));
    // A pinned piece with checkers is itself a danger: the rook takes it
    // and walks on with its checker to the king.
    let game = game_from("4r1k1/8/8/8/8/8/4B{1}3/4K3 w - - 0 1");
    assert_eq!(game.to_act().outcome().map(|o| o.reason.as_str()), Some("checkmate"));
    // Nor may an extra step: the rook that blocked the check by its regular
    // move may step only along the file, however far from the king.
    let game = game_from("k3r3/8/8/8/4R{2}3/8/8/4K3 w - - 0 1\nphase: extra moves\npiece: e4");
    assert_eq!(actions(&game), ["step e4e3", "step e4e5", "stop"]);
    assert_eq!(perft::count(&game, 1), 3, "perft through the referee says the same");
}

#[test]
fn the_king_may_not_move_where_extra_moves_attack() {
    let mut game = game_from("4k3/8/8/7p{1}/8/8/5K2/8 w - - 0 1");
    assert!(refused(&mut game, "f2g3").contains("capture it next turn"));
    play(&mut game, "f2e2");
}

// ----------------------------------------------------------------------
// Castling and en passant
// ----------------------------------------------------------------------

#[test]
fn no_castling_while_the_king_or_the_rook_has_checkers() {
    let mut game = game_from("4k3/8/8/8/8/8/8/R3K{1}2R w KQ - 0 1");
    assert!(refused(&mut game, "e1g1").contains("checkers"));
    assert!(refused(&mut game, "O-O-O").contains("checkers"));
    let mut game = game_from("4k3/8/8/8/8/8/8/R3K2R{1} w KQ - 0 1");
    assert!(refused(&mut game, "e1g1").contains("checkers"));
    play(&mut game, "e1c1");
    assert_eq!(game.board().piece_at(sq("d1")), Some(Piece::from_char('R').unwrap()));
}

#[test]
fn the_king_may_not_castle_through_squares_that_extra_moves_attack() {
    // The black pawn h3 with a checker pushes to h2 and steps to g1: O-O
    // is refused, though no orthodox attack touches e1, f1 or g1.
    let mut game = game_from("4k3/8/8/8/8/7p{1}/8/R3K2R w KQ - 0 1");
    assert!(refused(&mut game, "e1g1").contains("may not castle"));
    play(&mut game, "e1c1");
    // The crossed square f1: the knight h4 with a checker jumps to g2 and
    // steps onto f1. Long castling stays allowed.
    let mut game = game_from("4k3/8/8/8/7n{1}/8/8/R3K2R w KQ - 0 1");
    assert!(refused(&mut game, "e1g1").contains("may not castle"));
    assert!(actions(&game).contains(&"e1c1".to_string()));
}

#[test]
fn en_passant_only_after_a_regular_double_step_and_never_by_an_extra_step() {
    // The white pawn with a checker double-steps; if it stops, d4xe3 e.p. is allowed.
    let mut game = game_from("4k3/8/8/8/3p4/8/4P{1}3/K7 w - - 0 1");
    play(&mut game, "e2e4, stop");
    assert!(actions(&game).contains(&"d4e3".to_string()), "after a regular double step");
    play(&mut game, "d4e3");
    assert_eq!(game.table().phase, Phase::Extra(sq("e3")), "the capture took the pawn's checker");
    // If it takes an extra step, the right is gone.
    let mut game = game_from("4k3/8/8/8/3p4/8/4P{1}3/K7 w - - 0 1");
    play(&mut game, "e2e4, step e4f4");
    assert!(!actions(&game).iter().any(|a| a == "d4e3"), "the pawn used an extra move");
    // An extra step onto the en passant square captures nothing.
    let mut game = game_from("4k3/8/8/8/3p4/8/4P3/K5n{1}1 w - - 0 1");
    play(&mut game, "e2e4");
    play(&mut game, "g1f3, step f3e3");
    assert_eq!(game.board().piece_at(sq("e4")), Some(Piece::from_char('P').unwrap()), "no en passant by a step");
}

// ----------------------------------------------------------------------
// Winning
// ----------------------------------------------------------------------

/// rules.md's second example, rebuilt from its text (the diagram is not in
/// the repository): White's king on f2, the trapped bishop on c1 "full of
/// adrenaline" (three checkers), the black queen able to capture it and
/// walk to f2, the black bishop covering f3, and "the black pawn at h5 has
/// a checker" for g3.
const BOOK_MATE: &str = "k7/8/8/3b3p{1}/2q5/8/PP1P1KP1/2B{3}3N1 w - - 0 1";

#[test]
fn book_example_checkmate_uses_the_extra_moves_to_threaten_the_king() {
    let game = game_from(BOOK_MATE);
    assert_eq!(game.to_act(), ToAct::Over(Outcome::win(vec![1], "checkmate")));
    let ext = |s: &str| attacked_by(&game, s, Color::Black);
    assert!(ext("f2"), "Qxc1 then three steps to f2");
    assert!(ext("e1") && ext("e3"), "still in range for the queen");
    assert!(ext("e2") && ext("f1") && ext("f3"));
    assert!(ext("g3"), "the pawn at h5 has a checker");
    assert!(Ref::from_table(game.table()).legal().is_empty(), "the brute-force referee agrees");
    // Without the pawn's checker, g3 is the glimmer of hope.
    let game = game_from(&BOOK_MATE.replace("p{1}", "p"));
    assert!(game.to_act().outcome().is_none());
    assert_eq!(actions(&game), vec!["f2g3"]);
}

#[test]
fn checkmate_counts_extra_moves_and_stalemate_when_the_king_is_not_attacked() {
    // Orthodox chess would give the white king moves; the loaded black
    // king covers every square around it and the king itself.
    let game = game_from("8/8/8/8/8/2k{2}5/8/K7 w - - 0 1");
    assert_eq!(game.to_act().outcome().map(|o| o.reason.as_str()), Some("checkmate"));
    // a2 by the pawn; b1 and b2 by the black king's move and one step; a1
    // is three king moves from d3.
    let game = game_from("8/8/8/8/8/1p1k{1}4/8/K7 w - - 0 1");
    assert!(!game.table().in_check());
    assert_eq!(game.to_act().outcome().map(|o| o.reason.as_str()), Some("stalemate"));
}

#[test]
fn view_shows_checkers_as_markers_and_check_in_the_extended_sense() {
    let game = game_from(BOOK_MATE);
    let view = game.view(Viewer::Spectator);
    let board = view.board.unwrap();
    let c1 = board.square("c1").unwrap();
    assert_eq!(c1.markers, vec![Marker::checkers("red", 3)]);
    assert_eq!(view.check.as_deref(), Some("f2"));
}

// ----------------------------------------------------------------------
// Text positions, bad input, PGN
// ----------------------------------------------------------------------

#[test]
fn text_positions_round_trip_mid_turn() {
    let mut game = game_from("4k3/8/8/1p{2}6/8/8/8/R{1}3K3 w - - 0 1");
    play(&mut game, "a1a4, step a4b5");
    let text = game.position();
    assert_eq!(text, "4k3/8/8/1R{2}6/8/8/8/4K3 w - - 0 1\nphase: extra moves\npiece: b5\ncaptured: yes");
    let again = game_from(&text);
    assert_eq!(again.table(), game.table());
    play(&mut game, "stop");
    assert_eq!(game.position(), "4k3/8/8/1R{2}6/8/8/8/4K3 w - - 0 1\nphase: checker");
    let mut game = game_from("4k3/8/8/8/3p4/8/4P{1}3/K7 w - - 0 1");
    play(&mut game, "e2e4");
    assert!(game.position().ends_with("next en passant: e3"), "{}", game.position());
    assert_eq!(game_from(&game.position()).table(), game.table());
}

#[test]
fn bad_positions_are_refused_with_a_reason() {
    let bad = |text: &str, needle: &str| {
        let err = Told::<AdrenalineGame>::from_position(text, &Options::new(), 0).unwrap_err().0;
        assert!(err.contains(needle), "{text}: {err}");
    };
    bad("4k3/8/8/8/8/8/8/R{x}3K3 w - - 0 1", "bad marker");
    bad("4k3/8/8/8/8/8/8/R{0}3K3 w - - 0 1", "a stack holds");
    bad("4k3/8/8/8/8/8/8/.{2}3K3 w - - 0 1", "no piece");
    bad("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1R{1} w KQkq - 0 1", "");
    bad("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR{1} w KQkq - 0 1", "each checker is given for a capture");
    bad("4k3/8/8/8/8/8/8/R{2}3K3 w - - 0 1\nphase: extra moves", "needs a `piece");
    bad("4k3/8/8/8/8/8/8/R{2}3K3 w - - 0 1\nphase: extra moves\npiece: b2", "must be the mover's");
    bad("4k3/8/8/8/8/8/8/R{2}3K3 w - - 0 1\nturn: soon", "unknown line");
    bad("4k3/8/8/8/8/8/4r3/R{2}3K3 b - - 0 1", "not to move is in check");
    bad("4k3/8/8/8/8/8/4q{1}3/4K3 b - - 0 1", "not to move is in check");
    bad("1P2k3/8/8/8/8/8/8/4K3 w - - 0 1", "last rank");
}

#[test]
fn illegal_actions_change_nothing_and_say_why() {
    let mut game = Told::<AdrenalineGame>::new(&Options::new(), 0).unwrap();
    assert!(refused(&mut game, "e2e5").contains("not a legal move"));
    assert!(refused(&mut game, "stop").contains("no extra moves"));
    assert!(refused(&mut game, "checker e7").contains("no checker is due"));
    assert!(refused(&mut game, "hello").contains("expected a move"));
}

#[test]
fn pgn_has_one_move_per_turn_and_the_extras_as_comments() {
    let mut game = game_from("4k3/8/8/1p{2}6/8/8/8/R{1}3K3 w - - 0 1");
    play(&mut game, "a1a4, step a4b5, stop, checker e8");
    let pgn = game.pgn().unwrap();
    assert!(pgn.contains("[Variant \"Adrenaline\"]"), "{pgn}");
    assert!(pgn.contains("1. Ra1-a4 {White: extra move a4xb5, taking its 2 checkers}"), "{pgn}");
    assert!(pgn.contains("puts a checker under the black king on e8"), "{pgn}");
    assert!(pgn.contains("[ChesskitPosition"), "the start's checkers are kept: {pgn}");
}

// ----------------------------------------------------------------------
// Move counts against the brute-force referee
// ----------------------------------------------------------------------

/// Middle-game positions with checkers on both sides, en passant, castling
/// and promotion, and a turn in progress.
/// Their depth-3 counts, as both implementations found them.
const PERFT_COUNTS: [u64; 6] = [30196, 301, 1677, 16263, 4534, 286];

const PERFT_POSITIONS: [&str; 6] = [
    "r3k2r/ppp2ppp/2n1b3/3q{1}4/3P4/2N2N2/PPP2PPP/R2QK2R{1} w KQkq - 0 10",
    "4k3/1P{2}6/8/8/8/8/6p{1}1/4K3 w - - 0 40",
    "4k2r/8/8/8/3p4/8/4P{1}2P/4K2R w Kk - 0 30",
    "r1b1k2r/pp3ppp/2n{1}1p3/4p3/2B{1}1P3/5N2/PPP2PPP/R3K2R w KQkq - 0 9",
    "1r2k3/P{1}7/8/8/8/8/6p1/4K2R w K - 0 50",
    "4k3/8/8/1p{2}6/8/8/8/R{1}3K3 w - - 0 1\nphase: extra moves\npiece: a1",
];

/// Compare the legal action sets of both implementations along the tree.
fn compare_tree(table: &Table, reference: &Ref, depth: u32) {
    let mut fast: Vec<String> = legal_actions_of(table).iter().map(ToString::to_string).collect();
    let mut slow: Vec<(String, Ref)> = reference.legal();
    fast.sort();
    slow.sort_by(|a, b| a.0.cmp(&b.0));
    let slow_texts: Vec<&String> = slow.iter().map(|(t, _)| t).collect();
    assert_eq!(fast.iter().collect::<Vec<_>>(), slow_texts, "at\n{}", text::write(table));
    if depth <= 1 {
        return;
    }
    for (text, next_ref) in slow {
        let action: AdrenalineAction = text.parse().unwrap();
        let next = play_on(table, action).expect("legal");
        compare_tree(&next, &next_ref, depth - 1);
    }
}

#[test]
fn perft_from_the_start_matches_chess_and_the_reference() {
    let start = Told::<AdrenalineGame>::new(&Options::new(), 0).unwrap();
    let counts: Vec<u64> = (1..=3).map(|d| perft::count(&start, d)).collect();
    assert_eq!(counts, [20, 400, 8902], "no capture is possible in two moves: the orthodox counts");
    assert_eq!(Ref::from_table(start.table()).perft(3), 8902);
}

#[test]
fn perft_of_middle_games_matches_the_brute_force_reference() {
    for (text, expected) in PERFT_POSITIONS.into_iter().zip(PERFT_COUNTS) {
        let game = game_from(text);
        compare_tree(game.table(), &Ref::from_table(game.table()), 2);
        let fast = perft::count(&game, 3);
        let slow = Ref::from_table(game.table()).perft(3);
        assert_eq!(fast, slow, "{text}");
        assert_eq!(fast, expected, "{text}");
        println!("{fast:>8}  {}", text.replace('\n', " / "));
    }
}

#[test]
fn perft_without_checkers_counts_promotions_and_pinned_pieces_like_the_reference() {
    // Without checkers the regular chess rules apply: a rook pinned along
    // the last rank moves once per square, a push or capture onto it
    // promotes four ways, a pinned pawn promotes by taking its pinner.
    for text in ["K1nR3r/1P6/8/8/8/8/6pp/7k w - - 0 1", "2b4k/1P6/K7/8/8/8/6pp/8 w - - 0 1"] {
        let game = game_from(text);
        compare_tree(game.table(), &Ref::from_table(game.table()), 2);
        for depth in 1..=3 {
            assert_eq!(perft::count(&game, depth), Ref::from_table(game.table()).perft(depth), "{text}");
        }
    }
}

#[test]
fn random_playouts_agree_with_the_brute_force_reference_at_every_step() {
    // Random lines from the start and the perft positions, comparing both
    // implementations' legal actions after every action while the board
    // holds few enough checkers for the brute force to stay quick.
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let starts: Vec<&str> =
        std::iter::once("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").chain(PERFT_POSITIONS).collect();
    let mut compared = 0;
    for (i, text) in starts.iter().cycle().take(28).enumerate() {
        let mut table = game_from(text).table().clone();
        for _ in 0..60 + i {
            if table.stacks.sum(Bitboard::FULL) > 5 {
                break;
            }
            let mut fast: Vec<String> = legal_actions_of(&table).iter().map(ToString::to_string).collect();
            let mut slow: Vec<String> = Ref::from_table(&table).legal().into_iter().map(|(t, _)| t).collect();
            fast.sort();
            slow.sort();
            assert_eq!(fast, slow, "at\n{}", text::write(&table));
            compared += 1;
            if fast.is_empty() {
                break;
            }
            let pick = &fast[(next() % fast.len() as u64) as usize];
            table = play_on(&table, pick.parse().unwrap()).expect("legal");
        }
    }
    assert!(compared > 1000, "{compared} positions compared");
}

/// Every table along random games from the start and the perft
/// positions, handed to `check`; how many there were, and how many of
/// them in the extra steps and at the checker placement.
fn along_random_games(seed: u64, mut check: impl FnMut(&Table)) -> (usize, usize, usize) {
    let mut next = xorshift(seed);
    let starts: Vec<&str> =
        std::iter::once("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").chain(PERFT_POSITIONS).collect();
    let (mut tables, mut extra_steps, mut placements) = (0, 0, 0);
    for (i, text) in starts.iter().cycle().take(21).enumerate() {
        let mut table = game_from(text).table().clone();
        for _ in 0..80 + i {
            check(&table);
            tables += 1;
            extra_steps += usize::from(matches!(table.phase, Phase::Extra(_)));
            placements += usize::from(table.phase == Phase::Checker);
            let actions = legal_actions_of(&table);
            if actions.is_empty() {
                break;
            }
            let pick = actions[(next() % actions.len() as u64) as usize];
            table = play_on(&table, pick).expect("legal");
        }
    }
    (tables, extra_steps, placements)
}

#[test]
fn regular_move_and_extra_move_keep_the_positions_sums_and_key_and_the_applied_move_is_found_among_its_pieces() {
    // "All the regular chess rules apply" to the regular move; an extra
    // move is a king step. Both edit the table's position piece by piece
    // (its evaluation sums and Zobrist key kept up to date, not counted
    // again), and a regular move applied is looked for among its own
    // piece's candidates: along random games, the sums and key agree with
    // those counted again over the board, and each piece's candidates
    // with the whole list's moves of that piece.
    let (tables, extra_steps, _) = along_random_games(0x2545_f491_4f6c_dd1d, |table| {
        let pos = &table.pos;
        // An edit that changes nothing: its end counts the sums and key again.
        let mut recounted = pos.clone();
        drop(recounted.board_mut());
        assert_eq!(pos.piece_sums(), recounted.piece_sums(), "at\n{}", text::write(table));
        assert_eq!(pos.zobrist(), recounted.zobrist(), "at\n{}", text::write(table));
        if table.phase == Phase::Regular {
            let all = table.regular_candidates();
            for from in table.board().by_color(table.us()) {
                let of_piece: Vec<Move> = all.iter().copied().filter(|m| m.from() == Some(from)).collect();
                assert_eq!(table.regular_candidates_from(from).to_vec(), of_piece, "{from} at\n{}", text::write(table));
            }
        }
    });
    assert!(tables > 1000 && extra_steps > 20, "{tables} tables, {extra_steps} with extra steps");
}

#[test]
fn the_checker_placed_under_one_of_the_opponents_pieces_is_judged_alone_as_in_the_list_of_safe_placements() {
    // "End your turn by placing a checker under one of your opponent's
    // remaining pieces": a placement applied is judged for its piece
    // alone; along random games that agrees with the list of them all.
    let (_, _, placements) = along_random_games(0x9e37_79b9_7f4a_7c15, |table| {
        if table.phase == Phase::Checker {
            let listed: Vec<Square> = table.safe_placements().collect();
            for sq in table.board().by_color(table.us().other()) {
                assert_eq!(table.placement_is_safe_under(sq), listed.contains(&sq), "{sq} at\n{}", text::write(table));
            }
        }
    });
    assert!(placements > 50, "{placements} placements");
}

/// A small deterministic generator for the property tests below.
fn xorshift(seed: u64) -> impl FnMut() -> u64 {
    let mut state = seed;
    move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    }
}

/// Put up to `n` more checkers under random pieces of either side, one at a
/// time, keeping at most `per_piece` under a piece and `total` on the board,
/// and only where the side not to move is not left attacked (a position the
/// game cannot reach). Many checkers on both sides is the case the move
/// generator's shortcuts must get right and random play rarely reaches.
fn sprinkle(table: &mut Table, rng: &mut impl FnMut() -> u64, n: u32, per_piece: u32, total: u32) {
    for _ in 0..n {
        let pieces: Vec<Square> = table.board().occupied().into_iter().collect();
        let sq = pieces[(rng() % pieces.len() as u64) as usize];
        if table.stacks.get(sq) >= per_piece || table.stacks.sum(Bitboard::FULL) >= total {
            continue;
        }
        let before = table.stacks.clone();
        table.stacks.set(sq, table.stacks.get(sq) + 1);
        if table.king_attacked(table.us().other()) {
            table.stacks = before;
        }
    }
}

/// Random lines from the start and the perft positions, with checkers
/// sprinkled under pieces of both sides at each turn start; `visit` sees
/// every table along the way.
fn sprinkled_playouts(seed: u64, lines: usize, per_piece: u32, total: u32, mut visit: impl FnMut(&Table)) {
    let mut rng = xorshift(seed);
    let starts: Vec<&str> =
        std::iter::once("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").chain(PERFT_POSITIONS).collect();
    for (i, text) in starts.iter().cycle().take(lines).enumerate() {
        let mut table = game_from(text).table().clone();
        for _ in 0..30 + i % 20 {
            if table.phase == Phase::Regular {
                let n = (rng() % 3) as u32;
                sprinkle(&mut table, &mut rng, n, per_piece, total);
            }
            visit(&table);
            let actions = legal_actions_of(&table);
            if actions.is_empty() {
                break;
            }
            table = play_on(&table, actions[(rng() % actions.len() as u64) as usize]).expect("legal");
        }
    }
}

/// Castling by its definition, square by square with the full extended
/// attack: neither king nor rook has checkers, and no square of the king's
/// path (its start, the squares it crosses, its destination) is attacked
/// with the king standing there and the rook lifted. The fast generator
/// judges the path from maps made once per position.
fn castling_by_definition(table: &Table, m: Move) -> bool {
    let Move::Castle { king, rook } = m else { return false };
    if table.stacks.get(king) > 0 || table.stacks.get(rook) > 0 {
        return false;
    }
    let us = table.us();
    let king_to = Square::from_coords(if rook.file() > king.file() { File::G } else { File::C }, us.backrank());
    let path = shakmaty::attacks::between(king, king_to).with(king).with(king_to);
    path.into_iter().all(|sq| {
        let mut board = table.board().clone();
        board.discard_piece_at(king);
        board.discard_piece_at(rook);
        board.set_piece_at(sq, us.king());
        !attack::attacked(&board, &table.stacks, sq, us.other(), None)
    })
}

#[test]
fn fast_regular_moves_match_their_definition_with_many_checkers() {
    // The definition: a regular move is legal when the turn can be completed
    // after it (Ruling (docs/games/adrenaline.md): no step may leave the own king attacked in the
    // extended sense), judged by building the table after the move. The fast
    // generator's shortcuts (dependency sets, orthodox pins) must agree on
    // boards with up to 16 checkers, several under one piece.
    let mut compared = 0;
    sprinkled_playouts(0x2545_f491_4f6c_dd1d, 80, 4, 16, |table| {
        if table.phase != Phase::Regular {
            return;
        }
        let mut fast: Vec<String> = table.legal_regular_moves().map(long_algebraic).collect();
        let mut candidates = table.pos.pseudo_legal_moves();
        candidates.retain(|m| !m.is_castle() || castling_by_definition(table, *m));
        let mut slow: Vec<String> =
            candidates.into_iter().filter(|&m| table.after_regular(m).completable()).map(long_algebraic).collect();
        fast.sort();
        slow.sort();
        assert_eq!(fast, slow, "at\n{}", text::write(table));
        assert_eq!(table.in_check(), table.king_attacked(table.us()));
        compared += 1;
    });
    assert!(compared > 1000, "{compared} positions compared");
}

#[test]
fn a_turn_start_without_legal_turn_ends_the_game_and_a_quick_move_found_is_legal() {
    // "A player with no legal turn is checkmated ... else stalemated": the
    // end of the game asks at every turn start whether a legal regular
    // move exists, first by a quiet move the fast generator accepts at
    // once. Every such move must be one of the legal regular moves, and
    // the answer the same as the whole list's, with checkers on both sides.
    let (mut found, mut compared) = (0, 0);
    sprinkled_playouts(0x5851_f42d_4c95_7f2d, 80, 4, 16, |table| {
        if table.phase != Phase::Regular {
            return;
        }
        let legal: Vec<Move> = table.legal_regular_moves().collect();
        if let Some(quick) = table.quick_quiet_move() {
            assert!(legal.contains(&quick), "{} is not legal at\n{}", long_algebraic(quick), text::write(table));
            found += 1;
        }
        assert_eq!(table.has_legal_regular_move(), !legal.is_empty(), "at\n{}", text::write(table));
        compared += 1;
    });
    assert!(found > 100 && compared > found, "{found} quick moves found in {compared} positions");
}

#[test]
fn fast_legal_actions_match_the_reference_with_checkers_on_both_sides() {
    // The brute-force reference on random positions with checkers under
    // pieces of both sides (few enough for its exhaustive walks to stay
    // quick), every action of the turn compared.
    let mut compared = 0;
    sprinkled_playouts(0x9e37_79b9_7f4a_7c15, 24, 2, 7, |table| {
        let mut fast: Vec<String> = legal_actions_of(table).iter().map(ToString::to_string).collect();
        let mut slow: Vec<String> = Ref::from_table(table).legal().into_iter().map(|(t, _)| t).collect();
        fast.sort();
        slow.sort();
        assert_eq!(fast, slow, "at\n{}", text::write(table));
        compared += 1;
    });
    assert!(compared > 500, "{compared} positions compared");
}

#[test]
fn ruling_draws_bare_kings_without_checkers_and_the_fifty_move_rule() {
    let game = game_from("4k3/8/8/8/8/8/8/4K3 w - - 0 1");
    assert_eq!(game.to_act().outcome().map(|o| o.reason.as_str()), Some("insufficient material"));
    let game = game_from("4k3/8/8/8/8/8/8/4K{1}3 w - - 0 1");
    assert!(game.to_act().outcome().is_none(), "a king with a checker can still threaten");
    let game = game_from("4k3/8/8/8/8/8/8/R3K3 w - - 100 80");
    assert_eq!(game.to_act().outcome().map(|o| o.reason.as_str()), Some("fifty-move rule"));
}

#[test]
fn threefold_repetition_counts_the_checkers_too() {
    let mut game = game_from("4k3/8/8/8/8/8/8/R{1}3K3 w - - 0 1");
    play(&mut game, "e1d1, e8d8, d1e1, d8e8, e1d1, e8d8, d1e1");
    assert!(game.to_act().outcome().is_none());
    play(&mut game, "d8e8");
    assert_eq!(game.to_act().outcome().map(|o| o.reason.as_str()), Some("threefold repetition"));
}

/// The search's transposition table may only share what the rules cannot
/// tell apart: see [`check_position_hash`].
#[test]
fn the_position_key_is_the_same_for_the_same_state_and_differs_for_any_change_the_rules_read() {
    check_position_hash::<AdrenalineGame>(&Options::new(), 3, 60);
}

// ----------------------------------------------------------------------
// The computer's estimate
// ----------------------------------------------------------------------

fn estimate(text: &str, seat: Seat) -> f64 {
    game_from(text).heuristic(seat).expect("a chess estimate")
}

#[test]
fn estimate_a_piece_with_checkers_makes_extra_king_steps_so_its_side_stands_better() {
    let bare = estimate("4k3/pppp4/2n5/8/8/2N5/PPPP4/4K3 w - - 0 1", 0);
    let white_loaded = estimate("4k3/pppp4/2n5/8/8/2N{2}5/PPPP4/4K3 w - - 0 1", 0);
    let black_loaded = estimate("4k3/pppp4/2n{1}5/8/8/2N5/PPPP4/4K3 w - - 0 1", 0);
    assert!(white_loaded > bare + 0.5, "two checkers on White's knight: {bare} -> {white_loaded}");
    assert!(black_loaded < bare - 0.2, "a checker on Black's knight: {bare} -> {black_loaded}");
    let for_black = estimate("4k3/pppp4/2n5/8/8/2N{2}5/PPPP4/4K3 w - - 0 1", 1);
    assert!((for_black + white_loaded).abs() < 1e-9, "the two sides see opposite estimates");
}

#[test]
fn estimate_after_a_capture_the_checker_you_must_give_helps_a_king_least_and_a_queen_most() {
    let on_king = estimate("4k{1}3/7q/8/8/8/8/8/Q3K3 w - - 0 1", 0);
    let on_queen = estimate("4k3/7q{1}/8/8/8/8/8/Q3K3 w - - 0 1", 0);
    assert!(on_king > on_queen, "White gives Black's king the checker: {on_king} against {on_queen}");
}

/// The search's questions answered without building lists agree with
/// `to_act` and `legal_actions`, and `clone_from` with a fresh clone: see
/// [`crate::testing::check_allocation_free_answers`].
#[test]
fn the_allocation_free_answers_agree_with_to_act_legal_actions_and_clone() {
    crate::testing::check_allocation_free_answers::<AdrenalineGame>(&Options::new(), 3, 60);
}
