//! Half Alice Chess: one test per rule clause (rules.md, "Half Alice
//! Chess", and docs/games/half-alice.md, "Rulings"), named after it, and the fast move generator
//! checked against the brute-force one.

use chesskit_core::chess::notation::{to_uci, CastlingStyle, UciAction};
use chesskit_core::chess::{Bitboard, Color, Square};
use chesskit_core::game::{Game, Outcome, RuleError, ToAct, Viewer};
use chesskit_core::options::Options;
use chesskit_core::{DynGame, Session};

use super::mirror::{AlicePosition, Side};
use super::{reference, text, HalfAliceGame};
use crate::testing::Told;

fn game(position: &str) -> Told<HalfAliceGame> {
    Told::<HalfAliceGame>::from_position(position, &Options::new(), 0).unwrap_or_else(|e| panic!("{position}: {e}"))
}

fn twelve(position: &str) -> Told<HalfAliceGame> {
    Told::<HalfAliceGame>::from_position(position, &Options::new().with("twelve_checkers", true), 0)
        .unwrap_or_else(|e| panic!("{position}: {e}"))
}

fn legal(game: &Told<HalfAliceGame>) -> Vec<String> {
    let seat = game.to_act().seats().first().copied().unwrap_or(0);
    let mut moves: Vec<String> = game.legal_actions(seat).iter().map(|a| a.to_string()).collect();
    moves.sort();
    moves
}

fn play(game: &mut Told<HalfAliceGame>, moves: &str) {
    for text in moves.split_whitespace() {
        let seat = game.to_act().seats()[0];
        let action = game.parse_action(seat, text).unwrap_or_else(|e| panic!("{text}: {e}"));
        game.apply(seat, &action).unwrap_or_else(|e| panic!("{text}: {e}"));
    }
}

fn refusal(game: &mut Told<HalfAliceGame>, uci: &str) -> String {
    let before = game.clone();
    let seat = game.to_act().seats()[0];
    let err = game.apply(seat, &uci.parse::<UciAction>().unwrap()).expect_err(uci);
    assert_eq!(*game, before, "a refused move changed the game");
    err.to_string()
}

fn side(game: &Told<HalfAliceGame>, square: Square) -> Side {
    game.position_now().side_of(square)
}

// ----------------------------------------------------------------------
// Setup and the board
// ----------------------------------------------------------------------

#[test]
fn setup_standard_opening_position_all_pieces_without_checkers() {
    let game = Told::<HalfAliceGame>::new(&Options::new(), 0).unwrap();
    assert_eq!(game.position(), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    assert_eq!(legal(&game).len(), 20, "the first move is an orthodox first move");
}

#[test]
fn one_physical_board_each_piece_on_one_side_a_checker_marks_the_other() {
    let mut game = Told::<HalfAliceGame>::new(&Options::new(), 0).unwrap();
    play(&mut game, "e4");
    assert_eq!(side(&game, Square::E4), Side::Far, "the moved pawn switched: it stands on a checker");
    assert_eq!(side(&game, Square::D2), Side::Near);
    assert_eq!(game.position(), "rnbqkbnr/pppppppp/8/8/4P{m}3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    // The knight goes through the mirror and, moving again, comes back.
    play(&mut game, "e5 Ng1-f3 Nb8-c6");
    assert_eq!(side(&game, Square::F3), Side::Far);
    play(&mut game, "Nf3-g1");
    assert_eq!(side(&game, Square::G1), Side::Near, "a piece on a checker that moves comes back off it");
}

#[test]
fn the_view_marks_the_mirror_side_with_a_checker_and_the_mirror_marker() {
    let mut game = Told::<HalfAliceGame>::new(&Options::new(), 0).unwrap();
    play(&mut game, "e4 d5");
    let view = game.view(Viewer::Spectator);
    let board = view.board.unwrap();
    let e4 = board.square("e4").unwrap();
    let kinds: Vec<&str> = e4.markers.iter().map(|m| m.kind.as_str()).collect();
    assert_eq!(kinds, ["checkers", "mirror"]);
    assert_eq!(e4.markers[0].colour.as_deref(), Some("white"), "White's checkers are the light ones");
    assert_eq!(e4.markers[0].count, Some(1));
    assert_eq!(board.square("d5").unwrap().markers[0].colour.as_deref(), Some("black"));
    assert!(board.square("d2").unwrap().markers.is_empty(), "a piece without a checker has no marker");
    assert_eq!(view.last_move, ["d7", "d5"]);
    assert!(view.tables.is_empty(), "unlimited checkers: no count of free checkers");
}

#[test]
fn a_square_holds_at_most_one_piece_a_move_may_not_end_on_a_piece_of_the_other_side() {
    // The white rook a1 (board side); a black knight on a checker on a4,
    // a white bishop on a checker on a2.
    let mut game = game("4k3/8/8/8/n{m}7/8/B{m}7/R3K3 w - - 0 1");
    let moves = legal(&game);
    assert!(!moves.contains(&"a1a2".to_string()) && !moves.contains(&"a1a4".to_string()));
    let err = refusal(&mut game, "a1a4");
    assert!(err.contains("other side of the mirror") && err.contains("at most one piece"), "{err}");
}

#[test]
fn passing_through_pieces_of_the_other_side() {
    // The rook passes the knight and bishop on checkers; the pawn's double
    // step passes a piece on a checker; the king e1 is not blocked either.
    let game = game("4k3/8/8/8/n{m}7/8/B{m}3P{m}3/R3K3 w - - 0 1");
    let moves = legal(&game);
    for m in ["a1a3", "a1a5", "a1a8"] {
        assert!(moves.contains(&m.to_string()), "{m} in {moves:?}");
    }
    let game2 = game_with_double_step();
    assert!(legal(&game2).contains(&"e2e4".to_string()), "the pawn passes over e3's piece on the other side");
}

fn game_with_double_step() -> Told<HalfAliceGame> {
    game("4k3/8/8/8/8/4n{m}3/4P3/4K3 w - - 0 1")
}

#[test]
fn captures_only_on_the_same_side() {
    // The rook (board side) meets a black knight on a checker on a4 and a
    // black pawn on the board side on a7: it captures the pawn, not the knight.
    let mut game = game("4k3/p7/8/8/n{m}7/8/8/R3K3 w - - 0 1");
    let moves = legal(&game);
    assert!(moves.contains(&"a1a7".to_string()));
    assert!(!moves.contains(&"a1a4".to_string()));
    play(&mut game, "a1a7");
    assert_eq!(side(&game, Square::A7), Side::Far, "the capturer switches after capturing");
    // A pawn captures diagonally only on its own side.
    let game = game_pawn();
    assert_eq!(legal(&game).iter().filter(|m| m.starts_with("e4")).cloned().collect::<Vec<_>>(), ["e4d5", "e4e5"]);
}

fn game_pawn() -> Told<HalfAliceGame> {
    // White pawn e4 (board side); black pawns d5 (board side) and f5 (on a checker).
    game("4k3/8/8/3p1p{m}2/4P3/8/8/4K3 w - - 0 1")
}

// ----------------------------------------------------------------------
// Legality: before and after the switch
// ----------------------------------------------------------------------

/// The book's example ("Winning"): the king cannot move to a8, because it
/// would still be in check by the queen before switching; it can't move to
/// b7, because it would be in check by the rook after switching; the only
/// legal move is to a7. The book shows it in two diagrams that the rule
/// texts lack; this position is rebuilt from the words: the black king b8
/// and pawn c7, the white queen h8 on the board side, the white rook b2 on
/// a checker.
#[test]
fn book_example_the_king_may_not_evade_check_by_switching_only_move_is_a7() {
    let mut game = game("1k5Q/2p5/8/8/8/8/1R{m}6/6K1 b - - 0 1");
    assert!(game.position_now().in_check(Color::Black));
    assert_eq!(legal(&game), ["b8a7"]);
    let a8 = refusal(&mut game, "b8a8");
    assert!(a8.contains("check"), "{a8}");
    refusal(&mut game, "b8b7");
    play(&mut game, "b8a7");
    assert_eq!(side(&game, Square::A7), Side::Far);
}

#[test]
fn legality_on_the_movers_side_before_the_switch_only_its_pieces_count() {
    // The black rook e8 checks the white king e1 on the board side: the
    // white knight on a checker on e4 does not shield it.
    let game = game("4r1k1/8/8/8/4N{m}3/8/8/4K3 w - - 0 1");
    assert!(game.position_now().in_check(Color::White));
    // The king may not step along the file to e2 (in check before the switch).
    assert!(!legal(&game).contains(&"e1e2".to_string()));
    // Stepping off the file is safe on both sides.
    for m in ["e1d1", "e1d2", "e1f1", "e1f2"] {
        assert!(legal(&game).contains(&m.to_string()), "{m}");
    }
}

#[test]
fn after_the_switch_the_own_king_is_not_in_check_on_its_side() {
    // A pinned rook may slide along the pin on its side, but then it
    // switches and uncovers the king: refused. Capturing the pinner is fine.
    let mut game = game("4r1k1/8/8/8/8/8/4R3/4K3 w - - 0 1");
    let moves = legal(&game);
    for m in ["e2e3", "e2e5", "e2e7", "e2d2"] {
        assert!(!moves.contains(&m.to_string()), "{m} uncovers the king after the switch");
    }
    assert!(moves.contains(&"e2e8".to_string()));
    let err = refusal(&mut game, "e2e4");
    assert!(err.contains("check"), "{err}");
    // A king step that is safe on its side but attacked on the other side
    // after the switch is refused: the black rook on a checker on d8 covers d1.
    let game = game_king_step();
    let moves = legal(&game);
    assert!(!moves.contains(&"e1d1".to_string()) && !moves.contains(&"e1d2".to_string()));
    assert!(moves.contains(&"e1f1".to_string()));
}

#[test]
fn after_the_switch_a_capture_that_leaves_the_kings_side_takes_both_pieces_off_its_lines() {
    // The capturing piece does not stay where it captured: it switches, so
    // the captured piece and the capturer both leave the king's side and
    // whatever stood behind either of them may now give check there.
    // (fen, the refused capture, a legal move beside it)
    let cases = [
        // The black rook c3 shields e1 from the bishop a5; Nd1xc3 opens the diagonal.
        ("4k3/8/8/b7/8/2r5/8/3NK3 w - - 0 1", "d1c3", "d1e3"),
        // The bishop d2 is pinned by the bishop c3 with the queen a5 behind it:
        // taking the pinner still leaves the queen's line open.
        ("4k3/8/8/q7/8/2b5/3B4/4K3 w - - 0 1", "d2c3", "e1f1"),
        // The bishop c3 gives check with the queen a5 behind it: taking the
        // checker with the knight uncovers the queen.
        ("4k3/8/8/q7/8/2b5/8/3NK3 w - - 0 1", "d1c3", "e1f1"),
        // All on the far side (from the italian benchmark position after Qe2
        // Ke7 Nxe5): the knight f6 may not take the pawn e4 that stands
        // between its king e7 and the queen e2.
        ("r1bq1b1r/ppppk{m}ppp/2n{m}2n{m}2/4N3/2B{m}1P{m}3/8/PPPPQ{m}PPP/RNB1K2R b KQ - 0 5", "f6e4", "f6g4"),
    ];
    for (fen, refused, allowed) in cases {
        let game = game(fen);
        let moves = legal(&game);
        assert!(!moves.contains(&refused.to_string()), "{refused} in {fen}");
        assert!(moves.contains(&allowed.to_string()), "{allowed} in {fen}");
        let p = game.position_now();
        let mut slow: Vec<String> =
            reference::legal_moves(p).iter().map(|&m| to_uci(m, CastlingStyle::Standard)).collect();
        slow.sort();
        assert_eq!(moves, slow, "{fen}");
    }
}

fn game_king_step() -> Told<HalfAliceGame> {
    game("3r{m}2k1/8/8/8/8/8/8/4K3 w - - 0 1")
}

#[test]
fn a_piece_arriving_through_the_mirror_may_shield_its_king() {
    // White king e1 in check by the rook e8 on the board side. The knight
    // on a checker on c5 moves to e4 on its side and switches to the board
    // side there: it blocks the check. The board-side knight c3 can
    // interpose on e4 too, but then it switches away: refused.
    let game = game("4r1k1/8/8/2N{m}5/8/2N5/8/4K3 w - - 0 1");
    let moves = legal(&game);
    assert!(moves.contains(&"c5e4".to_string()));
    assert!(!moves.contains(&"c3e4".to_string()) && !moves.contains(&"c3e2".to_string()));
}

// ----------------------------------------------------------------------
// Castling and en passant
// ----------------------------------------------------------------------

#[test]
fn castling_switches_both_king_and_rook() {
    let mut game = game("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    play(&mut game, "O-O");
    assert_eq!(side(&game, Square::G1), Side::Far);
    assert_eq!(side(&game, Square::F1), Side::Far);
    assert_eq!(game.position(), "r3k2r/8/8/8/8/8/8/R4R{m}K{m}1 b kq - 1 1");
    play(&mut game, "e8c8");
    assert_eq!(game.position(), "2k{m}r{m}3r/8/8/8/8/8/8/R4R{m}K{m}1 w - - 2 2");
}

#[test]
fn castling_is_blocked_on_its_side_and_by_any_piece_where_king_or_rook_lands() {
    // A knight on a checker on b1 (crossed by the rook only) does not block;
    // on d1 (where the rook lands) it does; on the board side on b1 it does.
    assert!(legal(&game("4k3/8/8/8/8/8/8/Rn{m}2K3 w Q - 0 1")).contains(&"e1c1".to_string()));
    assert!(!legal(&game("4k3/8/8/8/8/8/8/R2n{m}K3 w Q - 0 1")).contains(&"e1c1".to_string()));
    assert!(!legal(&game("4k3/8/8/8/8/8/8/Rn2K3 w Q - 0 1")).contains(&"e1c1".to_string()));
    // Through an attacked square on the board side: refused.
    assert!(!legal(&game("3rk3/8/8/8/8/8/8/R3K3 w Q - 0 1")).contains(&"e1c1".to_string()));
    // Attacked on the other side only: the squares crossed do not matter there...
    assert!(legal(&game("3r{m}k3/8/8/8/8/8/8/R3K3 w Q - 0 1")).contains(&"e1c1".to_string()));
    // ...but the king must not land in check there after the switch.
    assert!(!legal(&game("2r{m}1k3/8/8/8/8/8/8/R3K3 w Q - 0 1")).contains(&"e1c1".to_string()));
}

#[test]
fn castling_the_rook_switching_with_the_king_may_shield_it() {
    // The black rook on a checker on a1 sweeps the first rank through the
    // mirror; after O-O the white rook stands on f1 beside the king on that
    // side and blocks the attack on g1.
    assert!(legal(&game("4k3/8/8/8/8/8/8/r{m}3K2R w K - 0 1")).contains(&"e1g1".to_string()));
    // O-O-O: the rook on d1 shields the king on c1 from a rook on h1, not from a bishop on a3.
    assert!(legal(&game("4k3/8/8/8/8/8/8/R3K2r{m} w Q - 0 1")).contains(&"e1c1".to_string()));
    assert!(!legal(&game("4k3/8/8/8/8/b{m}7/8/R3K3 w Q - 0 1")).contains(&"e1c1".to_string()));
}

#[test]
fn en_passant_on_the_same_side() {
    // The white pawn's double step takes it through the mirror to e4. The
    // black pawn on a checker on d4 stands on that side and may take it en
    // passant; the board-side pawn f4 may not.
    let mut game = game("4k3/8/8/8/3p{m}1p2/8/4P3/4K3 w - - 0 1");
    play(&mut game, "e2e4");
    assert!(game.position().contains(" b - e3 "), "{}", game.position());
    let moves = legal(&game);
    assert!(moves.contains(&"d4e3".to_string()));
    assert!(!moves.contains(&"f4e3".to_string()));
    play(&mut game, "d4e3");
    assert_eq!(game.position(), "4k3/8/8/8/5p2/4p3/8/4K3 w - - 0 2");
    // No en passant pawn on the pawn's side: no en passant square at all.
    let mut game = game_pawn_alone();
    play(&mut game, "e2e4");
    assert!(game.position().contains(" b - - "), "{}", game.position());
}

fn game_pawn_alone() -> Told<HalfAliceGame> {
    game("4k3/8/8/8/5p2/8/4P3/4K3 w - - 0 1")
}

// ----------------------------------------------------------------------
// The checkers
// ----------------------------------------------------------------------

/// White: king e1 and rook h1 on the board side, eleven pieces on checkers.
const ELEVEN_ON_CHECKERS: &str = "4k3/8/8/8/8/N{m}N{m}B{m}5/P{m}P{m}P{m}P{m}P{m}P{m}P{m}P{m}/4K2R w K - 0 1";

#[test]
fn unlimited_checkers_by_default() {
    let game = game(ELEVEN_ON_CHECKERS);
    assert!(legal(&game).contains(&"e1g1".to_string()));
    assert_eq!(game.position().lines().count(), 1, "no free checker lines when unlimited");
    let default = Told::<HalfAliceGame>::new(&Options::new(), 0).unwrap();
    assert_eq!(default.position_now().checker_limit(), None);
}

#[test]
fn twelve_checker_option_a_piece_without_a_checker_moves_only_with_a_free_checker() {
    let game = twelve(ELEVEN_ON_CHECKERS);
    assert_eq!(game.position().lines().nth(1), Some("white free checkers: 1"));
    let moves = legal(&game);
    assert!(moves.contains(&"e1f1".to_string()), "one free checker: a board-side piece may move");
    assert!(!moves.contains(&"e1g1".to_string()), "castling moves two pieces through: it needs two checkers");
    let err = refusal(&mut game.clone(), "e1g1");
    assert!(err.contains("two free checkers"), "{err}");
    // With a twelfth piece on a checker (d3), no piece without a checker may move.
    let mut full = twelve("4k3/8/8/8/8/N{m}N{m}B{m}B{m}4/P{m}P{m}P{m}P{m}P{m}P{m}P{m}P{m}/4K2R w K - 0 1");
    let moves = legal(&full);
    assert!(moves.iter().all(|m| !m.starts_with("e1") && !m.starts_with("h1")), "{moves:?}");
    assert!(moves.contains(&"e2e3".to_string()), "pieces on checkers still move (and give their checker back)");
    let err = refusal(&mut full, "e1f1");
    assert!(err.contains("no free checker"), "{err}");
    play(&mut full, "e2e3");
    assert_eq!(full.position_now().free_checkers(Color::White), Some(1));
    let table = &full.view(Viewer::Spectator).tables[0];
    assert_eq!(table.title, "Free checkers");
    assert_eq!(table.rows, [["white", "1"], ["black", "12"]]);
}

#[test]
fn a_captured_piece_gives_its_checker_back_to_its_owner() {
    // Black's rook on a checker captures White's knight on a checker: the
    // knight's checker returns to White; the rook comes off its own.
    let mut game = twelve("4k3/8/8/8/8/8/8/r{m}N{m}2K3 b - - 0 1");
    assert_eq!(game.position_now().free_checkers(Color::White), Some(11));
    play(&mut game, "a1b1");
    assert_eq!(game.position_now().free_checkers(Color::White), Some(12));
    assert_eq!(game.position_now().free_checkers(Color::Black), Some(12));
}

// ----------------------------------------------------------------------
// Game end
// ----------------------------------------------------------------------

#[test]
fn checkmate_king_and_knight_mate_through_the_mirror() {
    // The black king a8 is checked by the knight b6 on the board side; the
    // white king on a checker on b7 covers a7 and b8 on the other side and
    // fills b7 itself.
    let game = game("k7/1K{m}6/1N6/8/8/8/8/8 b - - 0 1");
    assert_eq!(game.to_act(), ToAct::Over(Outcome::win(vec![0], "checkmate")));
    assert_eq!(game.view(Viewer::Spectator).check.as_deref(), Some("a8"));
}

#[test]
fn checkmate_by_play_ends_the_game() {
    // One move before the mate above: the knight c4... here the knight d5
    // (on a checker) goes to b6 and comes back to the board side: mate.
    let mut game = game("k7/1K{m}6/8/3N{m}4/8/8/8/8 w - - 0 1");
    play(&mut game, "Nb6");
    assert_eq!(game.to_act().outcome().map(|o| o.reason.as_str()), Some("checkmate"));
    assert!(game.pgn().unwrap().contains("1. Nd5-b6 {Nd5-b6 (goes back from the mirror)} {game over: checkmate} 1-0"));
}

#[test]
fn stalemate_no_legal_move_and_no_check() {
    let game = game("k7/2K{m}5/2N5/8/8/8/8/8 b - - 0 1");
    assert!(!game.position_now().in_check(Color::Black));
    assert_eq!(game.to_act(), ToAct::Over(Outcome::draw("stalemate")));
}

#[test]
fn check_is_an_attack_on_the_kings_own_side_only() {
    // The rook on a checker on e8 is on the other side from the king e1.
    let game = game("4r{m}1k1/8/8/8/8/8/8/4K3 w - - 0 1");
    assert!(!game.position_now().in_check(Color::White));
    assert_eq!(game.view(Viewer::Spectator).check, None);
}

#[test]
fn draws_threefold_repetition_counts_the_sides_of_the_mirror() {
    let mut game = Told::<HalfAliceGame>::new(&Options::new(), 0).unwrap();
    // The knights go through the mirror and back: the start position again.
    play(&mut game, "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1");
    assert!(!game.to_act().is_over());
    play(&mut game, "Ng8");
    assert_eq!(game.to_act().outcome().unwrap().reason, "threefold repetition");
    // The same squares with a piece on the other side are not a repetition.
    let a = game_pos("4k3/8/8/8/8/8/8/R3K3 w - - 0 1");
    let b = game_pos("4k3/8/8/8/8/8/8/R{m}3K3 w - - 0 1");
    assert_ne!(a, b);
}

fn game_pos(fen: &str) -> AlicePosition {
    text::read(fen, None).unwrap()
}

#[test]
fn draws_fifty_move_rule_and_bare_kings_but_a_minor_piece_can_still_mate() {
    let fifty = game("4k3/8/8/8/8/8/8/R3K3 w - - 100 80");
    assert_eq!(fifty.to_act().outcome().unwrap().reason, "fifty-move rule");
    let bare = game("4k3/8/8/8/8/8/8/4K{m}3 w - - 0 1");
    assert_eq!(bare.to_act().outcome().unwrap().reason, "insufficient material");
    // King and bishop against king is no draw here: it can mate through the mirror.
    let bishop = game("k7/1K{m}6/8/8/4B3/8/8/8 b - - 0 1");
    assert_eq!(bishop.to_act().outcome().unwrap().reason, "checkmate");
    assert!(!game("4k3/8/8/8/8/8/8/2B1K3 w - - 0 1").to_act().is_over());
}

// ----------------------------------------------------------------------
// Text positions, input and PGN
// ----------------------------------------------------------------------

#[test]
fn text_position_round_trips_with_mirror_markers_and_free_checkers() {
    let texts = [
        "rnbqkbnr/pppp1ppp/8/4p{m}3/4P{m}3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
        "2k{m}r{m}3r/8/8/8/8/8/8/R4R{m}K{m}1 w - - 2 2",
    ];
    for t in texts {
        assert_eq!(game(t).position(), t);
    }
    let limited = "4k3/8/8/8/8/8/8/R{m}3K3 w - - 0 1\nwhite free checkers: 11\nblack free checkers: 12";
    assert_eq!(twelve(limited).position(), limited);
}

#[test]
fn bad_positions_are_refused_with_the_reason() {
    let cases = [
        ("4k3/8/8/8/8/8/8/R{z}3K3 w - - 0 1", Options::new(), "unknown marker {z}"),
        ("4k3/8/8/8/8/8/8/.{m}3K3 w - - 0 1", Options::new(), "has no piece"),
        ("4k3/8/8/8/8/8/8/R3K{m}3 w Q - 0 1", Options::new(), "no castling right"),
        ("4k3/8/8/8/8/8/8/R{m}3K3 w Q - 0 1", Options::new(), "no castling right"),
        ("4k3/8/8/8/8/8/8/4R1K1 w - - 0 1", Options::new(), "in check on its side"),
        ("4k3/8/8/8/8/8/8/R3K3 w - - 0 1\nwhite free checkers: 12", Options::new(), "applies only"),
        (
            "4k3/8/8/8/8/8/8/R{m}3K3 w - - 0 1\nwhite free checkers: 12",
            Options::new().with("twelve_checkers", true),
            "so 11 free, not 12",
        ),
        ("4k3/8/8/8/8/8/8/R3K3 w - - 0 1\nclocks: 3", Options::new(), "unknown line"),
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1", Options::new().with("twelve_checkers", 12), "true or false"),
        (
            "4k3/8/8/8/8/Q{m}Q{m}Q{m}Q{m}Q{m}Q{m}Q{m}1/Q{m}Q{m}Q{m}Q{m}Q{m}Q{m}2/4K3 w - - 0 1",
            Options::new().with("twelve_checkers", true),
            "13 pieces on checkers",
        ),
    ];
    for (position, options, expected) in cases {
        let err = Told::<HalfAliceGame>::from_position(position, &options, 0).expect_err(position).to_string();
        assert!(err.contains(expected), "{position}: {err}");
    }
}

#[test]
fn moves_are_read_in_uci_san_and_long_algebraic() {
    let game = Told::<HalfAliceGame>::new(&Options::new(), 0).unwrap();
    for (text, uci) in [("e2e4", "e2e4"), ("e4", "e2e4"), ("Nf3", "g1f3"), ("Ng1-f3", "g1f3"), ("Ng1f3", "g1f3")] {
        assert_eq!(game.parse_action(0, text).unwrap().to_string(), uci, "{text}");
    }
    assert!(matches!(game.parse_action(0, "Qh5"), Err(RuleError::Malformed { .. })));
    let castle = self::game("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    assert_eq!(castle.parse_action(0, "O-O").unwrap().to_string(), "e1g1");
    assert_eq!(castle.parse_action(0, "e1h1").unwrap().to_string(), "e1g1", "king takes rook is read too");
}

#[test]
fn illegal_and_out_of_turn_actions_change_nothing() {
    let mut session = Session::<HalfAliceGame>::start(Options::new(), 0, None).unwrap();
    let before = session.game.clone();
    assert!(matches!(session.apply(1, "e7e5"), Err(RuleError::NotYourTurn { seat: 1 })));
    assert!(matches!(session.apply(0, "e2e5"), Err(RuleError::Illegal { .. })));
    assert!(matches!(session.apply(0, "nonsense"), Err(RuleError::Malformed { .. })));
    assert!(session.apply(0, "e1e2").unwrap_err().to_string().contains("holds a piece of yours"));
    assert!(session.apply(0, "e3e4").unwrap_err().to_string().contains("holds no piece of yours"));
    assert_eq!(session.game, before);
    assert!(session.record().actions.is_empty());
}

#[test]
fn pgn_has_long_algebraic_moves_the_start_and_the_result() {
    let mut game = Told::<HalfAliceGame>::new(&Options::new(), 0).unwrap();
    play(&mut game, "e4 e5");
    let pgn = game.pgn().unwrap();
    assert!(pgn.contains("[Variant \"Half Alice\"]"), "{pgn}");
    assert!(pgn.contains("1. e2-e4 {e2-e4 (goes through the mirror)} 1... e7-e5"), "{pgn}");
    assert!(pgn.trim_end().ends_with('*'));
    let from = game_with_double_step();
    let pgn = from.pgn().unwrap();
    assert!(pgn.contains("[FEN \"4k3/8/8/8/8/4n3/4P3/4K3 w - - 0 1\"]"), "{pgn}");
    assert!(pgn.contains("[ChesskitPosition \"4k3/8/8/8/8/4n{m}3/4P3/4K3 w - - 0 1\"]"), "{pgn}");
}

// ----------------------------------------------------------------------
// Move counts: the fast generator against the brute-force one
// ----------------------------------------------------------------------

/// Middle-game positions with pieces on both sides, checks through the
/// mirror, castling rights, en passant and promotions.
const MIDDLE_GAMES: [(&str, Option<u8>); 6] = [
    ("r3k2r/p1p{m}pqpb1/bn{m}2pnp1/3P{m}N3/1p2P{m}3/2N2Q{m}1p/PPPBBPPP/R3K2R w KQkq - 0 1", None),
    ("8/2p{m}5/3p4/KP{m}5r/1R3p1k/8/4P1P{m}1/8 w - - 0 1", None),
    ("r1bqkb1r/pppp1ppp/2n{m}2n{m}2/4p{m}3/2B{m}1P{m}3/5N{m}2/PPPP1PPP/RNBQK2R w KQkq - 4 4", None),
    ("4k3/1P{m}6/8/3pP3/8/8/6p{m}1/R3K2R w KQ d6 0 1", None),
    ("rnbqkbnr/pppp1ppp/8/4p{m}3/4P{m}3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2", Some(12)),
    ("4k3/8/8/8/8/N{m}N{m}B{m}B{m}4/P{m}P{m}P{m}P{m}P{m}P{m}P{m}1/4K2R w K - 0 1", Some(12)),
];

/// Walk the tree to `depth`, comparing the two generators' move sets at
/// every node (not only the counts).
fn compare_trees(p: &AlicePosition, depth: u32, path: &mut Vec<String>) {
    let uci = |m: &chesskit_core::chess::Move| to_uci(*m, CastlingStyle::Standard);
    let mut fast: Vec<String> = p.legal_moves().iter().map(uci).collect();
    let mut slow: Vec<String> = reference::legal_moves(p).iter().map(uci).collect();
    fast.sort();
    slow.sort();
    assert_eq!(fast, slow, "after {path:?} in {}", text::write(p));
    if depth <= 1 {
        return;
    }
    for m in p.legal_moves() {
        let mut child = p.clone();
        child.play_unchecked(m);
        path.push(uci(&m));
        compare_trees(&child, depth - 1, path);
        path.pop();
    }
}

#[test]
fn perft_to_depth_3_from_the_start_agrees_with_brute_force() {
    let start = AlicePosition::startpos(None);
    compare_trees(&start, 3, &mut Vec::new());
    let game = Told::<HalfAliceGame>::new(&Options::new(), 0).unwrap();
    let counts: Vec<u64> = (1..=3).map(|d| chesskit_core::perft::count(&game, d)).collect();
    assert_eq!(counts, (1..=3).map(|d| reference::perft(&start, d)).collect::<Vec<_>>());
    // Our own numbers, kept as a regression guard (docs/games/half-alice.md).
    assert_eq!(counts, PERFT_START);
    let twelve = Told::<HalfAliceGame>::new(&Options::new().with("twelve_checkers", true), 0).unwrap();
    assert_eq!(chesskit_core::perft::count(&twelve, 3), reference::perft(&AlicePosition::startpos(Some(12)), 3));
}

/// perft(1..=3) from the start, found by both generators.
const PERFT_START: [u64; 3] = [20, 400, 9384];

#[test]
fn perft_to_depth_3_from_middle_games_agrees_with_brute_force() {
    for (fen, checkers) in MIDDLE_GAMES {
        let p = text::read(fen, checkers).unwrap_or_else(|e| panic!("{fen}: {e}"));
        assert_eq!(text::write(&p).lines().next(), Some(fen), "the position is kept as written");
        compare_trees(&p, 3, &mut Vec::new());
        let game = if checkers.is_some() { twelve(fen) } else { game(fen) };
        assert_eq!(chesskit_core::perft::count(&game, 3), reference::perft(&p, 3), "{fen}");
    }
}

#[test]
fn random_games_the_fast_generator_agrees_with_brute_force_at_every_step() {
    // Random walks reach what hand-picked positions miss (pieces of both
    // sides tangled on the king's lines, checks through the mirror), with
    // and without the 12-checker option.
    let uci = |m: &chesskit_core::chess::Move| to_uci(*m, CastlingStyle::Standard);
    for seed in 0..120 {
        let mut rng = chesskit_core::rng::GameRng::from_seed(seed);
        let mut p = AlicePosition::startpos(if seed % 3 == 0 { Some(12) } else { None });
        for ply in 0..160 {
            let moves = p.legal_moves();
            let mut fast: Vec<String> = moves.iter().map(uci).collect();
            let mut slow: Vec<String> = reference::legal_moves(&p).iter().map(uci).collect();
            fast.sort();
            slow.sort();
            assert_eq!(fast, slow, "seed {seed} ply {ply}: {}", text::write(&p));
            let Some(&m) = rng.choose(&moves) else { break };
            p.play_unchecked(m);
        }
    }
}

#[test]
fn random_games_whether_a_move_exists_and_each_pieces_moves_agree_with_the_whole_list() {
    // The referee asks `has_legal_move` at every turn (mate and stalemate)
    // and looks for an applied move among `legal_moves_from` its square.
    for seed in 0..60 {
        let mut rng = chesskit_core::rng::GameRng::from_seed(seed);
        let mut p = AlicePosition::startpos(if seed % 3 == 0 { Some(12) } else { None });
        for ply in 0..160 {
            let moves = p.legal_moves();
            assert_eq!(p.has_legal_move(), !moves.is_empty(), "seed {seed} ply {ply}: {}", text::write(&p));
            for from in Square::ALL {
                let of_piece: Vec<_> = moves.iter().copied().filter(|m| m.from() == Some(from)).collect();
                assert_eq!(p.legal_moves_from(from).to_vec(), of_piece, "seed {seed} ply {ply} from {from}");
            }
            let Some(&m) = rng.choose(&moves) else { break };
            p.play_unchecked(m);
        }
    }
}

#[test]
fn random_games_through_the_registry_stay_legal_and_replay() {
    // A short random walk, checking the fast generator at every step.
    let mut game = chesskit_games_create();
    let mut rng = chesskit_core::rng::GameRng::from_seed(11);
    for _ in 0..200 {
        if game.to_act().is_over() {
            break;
        }
        let seat = game.to_act().seats()[0];
        let actions = game.legal_actions(seat);
        let action = rng.choose(&actions).unwrap().clone();
        game.apply(seat, &action).unwrap();
    }
    let rebuilt = crate::registry::replay(game.record()).unwrap();
    assert!(rebuilt.same_state(game.as_ref()));
}

fn chesskit_games_create() -> Box<dyn DynGame> {
    crate::registry::create("half-alice", Options::new(), 1, None).unwrap()
}

/// The computer's transposition key (`Game::position_hash`) covers what the
/// rules read: the pieces, the side of the mirror each stands on and the
/// checker supply.
#[test]
fn the_zobrist_key_is_the_same_for_a_transposition_and_differs_for_any_change_the_rules_read() {
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let (mut one, mut other) = (game(start), game(start));
    play(&mut one, "g1f3 b8c6 b1c3");
    play(&mut other, "b1c3 b8c6 g1f3");
    let (one, other) = (one.game, other.game);
    let with = |far: Bitboard, checkers: Option<u8>, remove: Option<Square>| {
        let mut inner = one.pos.inner().clone();
        if let Some(square) = remove {
            inner.board_mut().discard_piece_at(square);
        }
        HalfAliceGame { pos: AlicePosition::from_parts(inner, far, checkers), ..one.clone() }
    };
    let (far, limit) = (one.pos.far(), one.pos.checker_limit());
    crate::testing::assert_the_key_follows_the_state(
        &one,
        &other,
        &[
            ("a piece", with(far, limit, Some(Square::A2))),
            ("a piece through the mirror", with(far ^ Bitboard::from(Square::F3), limit, None)),
            ("the checker supply", with(far, Some(limit.map_or(12, |n| n - 1)), None)),
        ],
    );
}

/// The search's questions answered without building lists agree with
/// `to_act` and `legal_actions`, and `clone_from` with a fresh clone: see
/// [`crate::testing::check_allocation_free_answers`].
#[test]
fn the_allocation_free_answers_agree_with_to_act_legal_actions_and_clone() {
    crate::testing::check_allocation_free_answers::<HalfAliceGame>(&Options::new(), 3, 60);
}
