//! Each test names the clause of new-rules-2025 "Cloak and Dagger" (or the
//! ruling of docs/games/cloak-and-dagger.md) it checks.

use chesskit_core::view::PieceView;
use chesskit_core::{DynGame, Session};

use super::*;

const W: Seat = 0;
const B: Seat = 1;

fn session(position: Option<&str>) -> Session<CloakAndDagger> {
    Session::start(Options::new(), 7, position).unwrap_or_else(|e| panic!("{e}"))
}

/// A game where both players have placed: White `white`, Black `black`.
fn placed(white: &str, black: &str) -> Session<CloakAndDagger> {
    let mut s = session(None);
    play(&mut s, &[(W, &format!("place {white}")), (B, &format!("place {black}"))]);
    s
}

fn play(s: &mut Session<CloakAndDagger>, actions: &[(Seat, &str)]) {
    for &(seat, text) in actions {
        s.apply(seat, text).unwrap_or_else(|e| panic!("{text}: {e}\n{}", s.game.position()));
    }
}

/// Apply an action that must be refused; the game and its record stay as they were.
fn refused(s: &mut Session<CloakAndDagger>, seat: Seat, text: &str) -> String {
    let before = s.game.clone();
    let record = s.record().clone();
    let err = s.apply(seat, text).expect_err(text).to_string();
    assert_eq!(s.game, before, "{text} was refused but changed the game");
    assert_eq!(s.record(), &record);
    err
}

fn piece(s: &Session<CloakAndDagger>, viewer: Viewer, square: &str) -> Option<PieceView> {
    s.full_view(viewer).board.unwrap().square(square).and_then(|sq| sq.piece.clone())
}

fn markers(s: &Session<CloakAndDagger>, viewer: Viewer, square: &str) -> Vec<String> {
    let board = s.full_view(viewer).board.unwrap();
    board.square(square).map(|sq| sq.markers.iter().map(|m| m.kind.clone()).collect()).unwrap_or_default()
}

fn log(s: &Session<CloakAndDagger>, viewer: Viewer) -> String {
    s.full_view(viewer).log.iter().map(|e| e.text.clone()).collect::<Vec<_>>().join("\n")
}

fn actions(s: &Session<CloakAndDagger>, seat: Seat) -> Vec<String> {
    s.legal_actions(seat)
}

/// The grid table of `color` in `viewer`'s view, as rows of cells.
fn grid(s: &Session<CloakAndDagger>, viewer: Viewer, color: Color) -> Vec<Vec<String>> {
    let prefix = format!("{}'s checkers", color_name(color));
    let view = s.full_view(viewer);
    view.tables.iter().find(|t| t.title.starts_with(&prefix)).expect("a grid").rows.clone()
}

/// The cell of kind `role` (K Q R B N) for checker `number` in a grid.
fn cell(rows: &[Vec<String>], role: char, number: usize) -> String {
    rows.iter().find(|r| r[0] == role.to_string()).expect("a row")[number].clone()
}

const ORTHODOX: &str = "RNBQKBNR";

// ----------------------------------------------------------------------
// Setup
// ----------------------------------------------------------------------

#[test]
fn setup_pawns_in_place_numbered_checkers_on_the_back_rows_and_both_place_at_once() {
    // "Place all the pawns in their regular position ... write the numbers 1
    // to 8 on checkers for each player. Put the black checkers on black's
    // back row and the light checkers on white's back row."
    let s = session(None);
    assert_eq!(s.to_act(), ToAct::Seats(vec![W, B]), "both players place in secret at the same time");
    for viewer in [Viewer::Seat(W), Viewer::Seat(B), Viewer::Spectator] {
        for (file, number) in "abcdefgh".chars().zip(1..) {
            for (rank, colour) in [('1', "white"), ('8', "black")] {
                let p = piece(&s, viewer, &format!("{file}{rank}")).unwrap();
                assert_eq!((p.role, p.colour.as_str()), (None, colour), "{viewer}: {file}{rank} is a hidden checker");
                assert_eq!(p.label, Some(number.to_string()));
            }
            assert_eq!(piece(&s, viewer, &format!("{file}2")).unwrap().role.as_deref(), Some("pawn"));
            assert_eq!(piece(&s, viewer, &format!("{file}7")).unwrap().role.as_deref(), Some("pawn"));
        }
    }
    assert_eq!(actions(&s, W).len(), 960, "any of the 960 Chess960 setups");
    assert!(actions(&s, W).contains(&"place RNBQKBNR".to_string()));
}

#[test]
fn setup_each_players_placement_is_secret() {
    // "write two grids like this to secretly record your pieces"
    let mut s = session(None);
    play(&mut s, &[(W, "place BBRKRNNQ")]);
    assert_eq!(s.to_act(), ToAct::Seats(vec![B]));
    assert!(actions(&s, W).is_empty());
    let own = piece(&s, Viewer::Seat(W), "d1").unwrap();
    assert_eq!((own.role.as_deref(), own.label.as_deref()), (Some("king"), Some("4")));
    assert_eq!(markers(&s, Viewer::Seat(W), "d1"), vec!["cloaked"], "own cloaked piece: identity plus a marker");
    assert_eq!(piece(&s, Viewer::Seat(B), "d1").unwrap().role, None);
    assert_eq!(piece(&s, Viewer::Spectator, "d1").unwrap().role, None);
    assert!(s.full_view(Viewer::Seat(W)).notes[0].contains("B B R K R N N Q"));
    assert!(s.full_view(Viewer::Seat(B)).notes.is_empty());
    assert!(!log(&s, Viewer::Seat(B)).contains("BBRKRNNQ"));
    // White's own grid: a circle for each of its pieces.
    let rows = grid(&s, Viewer::Seat(W), Color::White);
    assert_eq!((cell(&rows, 'K', 4), cell(&rows, 'Q', 8), cell(&rows, 'Q', 4)), ("O".into(), "O".into(), "".into()));
    // Black's view of White's grid: only what the restrictions prove, a king
    // between two rooks is never on checker 1 or 8.
    let rows = grid(&s, Viewer::Seat(B), Color::White);
    assert_eq!((cell(&rows, 'K', 1), cell(&rows, 'K', 8)), ("X".into(), "X".into()));
    let open = rows.iter().flat_map(|r| r[1..].iter()).filter(|c| c.is_empty()).count();
    assert_eq!(open, 5 * 8 - 2);
    play(&mut s, &[(B, "place 518")]);
    assert_eq!(s.game.step(), Step::Start);
    assert_eq!(s.to_act(), ToAct::one(W));
    assert_eq!(s.game.placement(Color::Black), Some(&chess960::back_rank(518).unwrap()));
}

#[test]
fn setup_follows_the_chess960_restrictions_and_a_standard_set() {
    // "you do have to have a standard set of pieces. (You can't give yourself
    // three queens!) ... Place your king somewhere between your two rooks.
    // Place one of your bishops on a light square and one on a dark square."
    let mut s = session(None);
    assert!(refused(&mut s, W, "place RQBQKQNR").contains("standard set"));
    assert!(refused(&mut s, W, "place RBNQKBNR").contains("light square and one on a dark square"));
    assert!(refused(&mut s, W, "place KRNBBQNR").contains("between your two rooks"));
    assert!(refused(&mut s, W, "place RNBQKBN").contains("names 8 pieces"));
    assert!(refused(&mut s, W, "place 960").contains("0 to 959"));
    assert!(refused(&mut s, W, "e2e4").contains("first place your checkers"));
    assert_eq!(s.to_act(), ToAct::Seats(vec![W, B]));
}

#[test]
fn setup_at_random_is_an_option() {
    let options = Options::new().with("setup", "random");
    let a = CloakAndDagger::new(&options, 3).unwrap();
    let b = CloakAndDagger::new(&options, 3).unwrap();
    assert_eq!(a, b, "the same seed draws the same setups");
    assert_eq!(a.step(), Step::Start);
    for color in Color::ALL {
        check_setup(a.placement(color).unwrap()).unwrap();
    }
    let s = Session::<CloakAndDagger>::start(options, 3, None).unwrap();
    assert_eq!(s.full_view(Viewer::Seat(B)).board.unwrap().square("e1").unwrap().piece.as_ref().unwrap().role, None);
    assert!(Session::<CloakAndDagger>::start(Options::new().with("setup", "dice"), 3, None).is_err());
}

// ----------------------------------------------------------------------
// Play: moves
// ----------------------------------------------------------------------

#[test]
fn a_checker_moves_only_as_its_true_identity() {
    // Ruling (docs/games/cloak-and-dagger.md): "The referee knows every
    // checker's identity and allows only the moves that identity can make."
    let mut s = placed(ORTHODOX, ORTHODOX);
    let err = refused(&mut s, W, "b1b3");
    assert!(err.contains("your checker 2 (a knight) cannot move b1-b3"), "{err}");
    play(&mut s, &[(W, "b1c3"), (W, "done")]);
    assert!(log(&s, Viewer::Seat(B)).contains("checker 2 b1-c3."), "the move is public, the kind is not");
    // Only a knight goes from b1 to c3: both players now know it.
    let rows = grid(&s, Viewer::Seat(B), Color::White);
    assert_eq!(cell(&rows, 'N', 2), "O");
    assert_eq!(cell(&rows, 'N', 7), "", "the other knight could be any other checker");
    assert_eq!(cell(&rows, 'K', 2), "X");
    // A diagonal step shows a queen, bishop or king; a long diagonal a queen or bishop.
    play(&mut s, &[(B, "e7e5"), (B, "done"), (W, "e2e4"), (W, "done"), (B, "f8c5"), (B, "done")]);
    let rows = grid(&s, Viewer::Seat(W), Color::Black);
    assert_eq!(
        ['K', 'Q', 'R', 'B', 'N'].map(|r| cell(&rows, r, 6)),
        ["X", "", "X", "", "X"].map(String::from),
        "checker 6 went f8-c5: a queen or a bishop"
    );
}

#[test]
fn pawns_are_played_as_usual_and_a_promoted_pawn_is_uncloaked() {
    // "Pawns are played as usual": double step, en passant, promotion.
    let mut s = session(Some(
        "r{c1}1b{c3}q{c4}k{c5}b{c6}n{c7}r{c8}/1P1ppppp/8/4P3/8/8/5PPP/R{c1}1B{c3}Q{c4}K{c5}B{c6}N{c7}R{c8} b HAha - 0 1\n\
         white-clues: 2=N\nblack-clues: 2=N",
    ));
    play(&mut s, &[(B, "d7d5"), (B, "done"), (W, "e5d6"), (W, "done")]);
    assert!(log(&s, Viewer::Spectator).contains("e5xd6 en passant, capturing a pawn."));
    assert_eq!(s.game.hands.get(Color::Black), &1, "Black may take back the pawn");
    play(&mut s, &[(B, "e7e6"), (B, "done"), (W, "b7b8q"), (W, "done")]);
    let queen = piece(&s, Viewer::Seat(B), "b8").unwrap();
    assert_eq!((queen.role.as_deref(), queen.label), (Some("queen"), None), "an uncloaked queen, no checker");
    assert!(log(&s, Viewer::Seat(B)).contains("b7-b8, promoting to a queen."));
}

// ----------------------------------------------------------------------
// Play: the guess and the bonus move
// ----------------------------------------------------------------------

#[test]
fn a_right_guess_earns_a_bonus_move_after_the_regular_move() {
    // "If you guess correctly, you may make a bonus move after your regular move."
    let mut s = placed(ORTHODOX, ORTHODOX);
    play(&mut s, &[(W, "guess b8 N")]);
    assert!(log(&s, Viewer::Spectator).contains("White guesses that Black's checker 2 on b8 is a knight: right. White may make a bonus move after their regular move."));
    assert!(actions(&s, W).iter().all(|a| !a.starts_with("guess") && !a.starts_with("bonus")), "now the move");
    assert!(refused(&mut s, W, "guess g8 N").contains("now make your regular move"));
    play(&mut s, &[(W, "e2e4")]);
    assert_eq!(s.game.step(), Step::Bonus);
    let offered = actions(&s, W);
    assert!(offered.contains(&"bonus d2d4".to_string()) && offered.contains(&"bonus e4e5".to_string()));
    assert!(!offered.contains(&"g1f3".to_string()), "a bonus move is a pawn move");
    assert!(refused(&mut s, W, "bonus g1f3").contains("regular pawn move"));
    play(&mut s, &[(W, "bonus d2d4"), (W, "done")]);
    assert_eq!(s.to_act(), ToAct::one(B));
    assert!(actions(&s, B).iter().all(|a| !a.starts_with("bonus") && !a.starts_with("drop")), "Black owes nothing");
    // The guessed checker stays cloaked, and both players know it.
    assert_eq!(piece(&s, Viewer::Seat(W), "b8").unwrap().role, None);
    assert_eq!(cell(&grid(&s, Viewer::Seat(W), Color::Black), 'N', 2), "O");
}

/// Ruling (docs): en passant is allowed only on the opponent's move right
/// after the double step; a player who keeps the turn for a bonus move
/// cannot take their own pawn "en passant".
#[test]
fn a_bonus_move_is_no_en_passant_capture_of_the_own_double_step() {
    let mut s = placed(ORTHODOX, ORTHODOX);
    play(&mut s, &[(W, "guess b8 N"), (W, "e2e4")]);
    let offered = actions(&s, W);
    assert!(offered.contains(&"bonus d2d3".to_string()));
    assert!(
        !offered.contains(&"bonus d2e3".to_string()) && !offered.contains(&"bonus f2e3".to_string()),
        "{offered:?}"
    );
    assert!(refused(&mut s, W, "bonus d2e3").contains("bonus"));
}

/// An endgame: White's uncloaked king on e1, its d2 pawn pinned by Black's
/// uncloaked bishop on a5; Black's cloaked king on e8; the other checkers
/// captured, their identities known.
const PINNED_PAWN: &str = "4k{c5}3/8/8/b{6}7/8/8/3P3P/4K{5}3 w - - 0 20\n\
                           white-clues: 1=R 2=N 3=B 4=Q 6=B 7=N 8=R\n\
                           black-clues: 1=R 2=N 3=B 4=Q 6=B 7=N 8=R";

/// "Bonus moves ... must obey the check rules": a pinned pawn has no bonus move.
#[test]
fn a_bonus_move_may_not_expose_the_own_uncloaked_king() {
    let mut s = session(Some(PINNED_PAWN));
    play(&mut s, &[(W, "guess e8 K"), (W, "h2h3")]);
    let offered = actions(&s, W);
    assert!(offered.contains(&"bonus h3h4".to_string()), "{offered:?}");
    assert!(!offered.iter().any(|a| a.starts_with("bonus d2")), "the d2 pawn is pinned: {offered:?}");
    assert!(refused(&mut s, W, "bonus d2d3").contains("bonus"));
}

/// "Your opponent may make the same kind of bonus move": after White's
/// wrong guess, Black's bonus may be dropping a pawn taken back.
#[test]
fn the_opponents_bonus_after_a_wrong_guess_may_be_a_drop() {
    let mut s = session(Some(&format!("{PINNED_PAWN}\nblack-hand: 1")));
    play(&mut s, &[(W, "guess e8 Q"), (W, "h2h3")]);
    assert_eq!(s.to_act(), ToAct::one(B), "nothing of White's is cloaked: the turn is over");
    assert!(actions(&s, B).contains(&"drop e7".to_string()), "{:?}", actions(&s, B));
    play(&mut s, &[(B, "drop e7")]);
    assert!(log(&s, Viewer::Seat(W)).contains("bonus move: takes back a pawn and drops it on e7."));
    assert_eq!(s.game.hands.get(Color::Black), &0);
}

/// "You might want to write X's for your own pieces as your opponent
/// learns": the owner's grid shows an X where a wrong guess ruled a kind out.
#[test]
fn the_owners_grid_shows_what_the_opponent_ruled_out() {
    let mut s = placed(ORTHODOX, ORTHODOX);
    play(&mut s, &[(W, "e2e4"), (W, "done"), (B, "guess b1 Q")]);
    let own = grid(&s, Viewer::Seat(W), Color::White);
    assert_eq!(cell(&own, 'Q', 2), "X", "{own:?}");
    assert_eq!(cell(&own, 'N', 2), "O", "the owner knows the truth");
}

#[test]
fn a_wrong_guess_gives_the_opponent_a_bonus_move_before_their_next_turn() {
    // "If you guess incorrectly, your opponent may make the same kind of bonus
    // move before their next turn."
    let mut s = placed(ORTHODOX, ORTHODOX);
    play(&mut s, &[(W, "guess b8 Q"), (W, "e2e4")]);
    assert_eq!(s.game.step(), Step::Uncloak, "no bonus for the guesser");
    play(&mut s, &[(W, "done")]);
    let offered = actions(&s, B);
    assert!(offered.contains(&"bonus e7e5".to_string()) && offered.contains(&"e7e5".to_string()));
    assert!(offered.contains(&"guess b1 N".to_string()));
    play(&mut s, &[(B, "bonus d7d5")]);
    assert!(log(&s, Viewer::Seat(W)).contains("bonus move: d7-d5."));
    // Then Black's own turn: guess and move, no second bonus.
    assert!(refused(&mut s, B, "bonus e7e5").contains("no bonus move now"));
    play(&mut s, &[(B, "guess g1 N"), (B, "e7e5")]);
    assert_eq!(s.game.step(), Step::Bonus);
    // Guessing or moving first gives the owed bonus up.
    let mut s = placed(ORTHODOX, ORTHODOX);
    play(&mut s, &[(W, "guess b8 Q"), (W, "e2e4"), (W, "done"), (B, "e7e5")]);
    play(&mut s, &[(B, "done"), (W, "d2d4"), (W, "done")]);
    assert!(actions(&s, B).iter().all(|a| !a.starts_with("bonus")));
}

#[test]
fn the_bonus_move_may_take_back_a_captured_pawn_onto_an_empty_square_of_the_second_rank() {
    // "Your bonus move may be either a regular pawn move or to take back a pawn
    // that your opponent captured and drop it on an empty square in your second rank."
    let position = "r{c1}n{c2}b{c3}q{c4}k{c5}b{c6}n{c7}r{c8}/ppp1pppp/8/8/8/8/PPP1PPPP/R{c1}N{c2}B{c3}Q{c4}K{c5}B{c6}N{c7}R{c8} w HAha - 0 1\n\
                    step: bonus\nwhite-hand: 1";
    let mut s = session(Some(position));
    assert!(actions(&s, W).contains(&"drop d2".to_string()));
    assert!(refused(&mut s, W, "drop d3").contains("second rank"));
    assert!(refused(&mut s, W, "drop e2").contains("not empty"));
    play(&mut s, &[(W, "drop d2")]);
    assert!(log(&s, Viewer::Seat(B)).contains("bonus move: takes back a pawn and drops it on d2."));
    assert_eq!(s.game.hands.get(Color::White), &0);
    assert_eq!(s.game.board().piece_at(Square::D2), Some(Color::White.pawn()));
    // Without a captured pawn there is nothing to take back.
    let mut s = session(Some(&position.replace("white-hand: 1", "")));
    assert!(refused(&mut s, W, "drop d2").contains("no captured pawn"));
    // A captured pawn goes to its owner's hand.
    let mut s = placed(ORTHODOX, ORTHODOX);
    play(&mut s, &[(W, "e2e4"), (W, "done"), (B, "d7d5"), (B, "done"), (W, "e4d5"), (W, "done")]);
    assert_eq!(s.game.hands.get(Color::Black), &1);
    let captured = s.full_view(Viewer::Spectator).tables.into_iter().find(|t| t.title == "Captured").unwrap();
    assert_eq!(captured.rows[1], vec!["Black".to_string(), String::new(), "1".to_string()]);
}

#[test]
fn a_guess_names_one_of_the_opponents_cloaked_checkers() {
    // "guess the identity of one of your opponent's checkers"
    let position = "r{c1}n{c2}b{c3}q{c4}k{c5}b{c6}n{7}r{c8}/pppppppp/8/8/8/5Q{c4}2/PPPPPPPP/R{c1}N{c2}B{c3}1K{c5}B{c6}N{c7}R{c8} w HAha - 0 1";
    let mut s = session(Some(position));
    assert!(refused(&mut s, W, "guess g8 N").contains("is uncloaked: guess a cloaked checker"));
    assert!(refused(&mut s, W, "guess b1 N").contains("your own"));
    assert!(refused(&mut s, W, "guess e7 N").contains("pawn on e7 is not a checker"));
    assert!(refused(&mut s, W, "guess e5 N").contains("no piece on e5"));
    assert!(refused(&mut s, W, "guess 7 N").contains("uncloaked"), "by number too");
    assert!(refused(&mut s, W, "guess b8 P").contains("not a piece a checker can be"));
    play(&mut s, &[(W, "guess 2 N")]);
    assert!(log(&s, Viewer::Spectator).contains("checker 2 on b8 is a knight: right"));
}

// ----------------------------------------------------------------------
// Play: uncloaking and captures
// ----------------------------------------------------------------------

#[test]
fn checkers_are_uncloaked_at_the_end_of_the_turn() {
    // "At the end of your turn, you may replace any number of your checkers
    // with their uncloaked chess pieces."
    let mut s = placed(ORTHODOX, ORTHODOX);
    assert!(refused(&mut s, W, "uncloak b1").contains("at the start of your turn"));
    play(&mut s, &[(W, "g1f3"), (W, "uncloak f3"), (W, "uncloak 4")]);
    assert_eq!(s.game.step(), Step::Uncloak, "any number, until done");
    assert!(refused(&mut s, W, "uncloak f3").contains("already uncloaked"));
    assert!(refused(&mut s, W, "uncloak e2").contains("not a checker"));
    assert!(refused(&mut s, W, "uncloak b8").contains("not yours"));
    play(&mut s, &[(W, "done")]);
    let knight = piece(&s, Viewer::Seat(B), "f3").unwrap();
    assert_eq!((knight.role.as_deref(), knight.label.as_deref()), (Some("knight"), Some("7")));
    assert!(markers(&s, Viewer::Seat(B), "f3").is_empty());
    assert_eq!(piece(&s, Viewer::Spectator, "d1").unwrap().role.as_deref(), Some("queen"));
    assert!(log(&s, Viewer::Seat(B)).contains("White uncloaks checker 4 on d1: a queen."));
    assert_eq!(cell(&grid(&s, Viewer::Seat(B), Color::White), 'Q', 4), "O");
    // Uncloaking the last checker ends the turn by itself.
    let mut s = session(Some(
        "4k{c5}3/8/8/8/8/8/8/4K{c5}3 w - - 0 1\nwhite-clues: 1=R 2=N 3=B 4=Q 6=B 7=N 8=R\n\
         black-clues: 1=R 2=N 3=B 4=Q 6=B 7=N 8=R\nwhite-hand: 1",
    ));
    play(&mut s, &[(W, "e1d1"), (W, "uncloak d1")]);
    assert_eq!(s.to_act(), ToAct::one(B));
}

#[test]
fn a_captured_checker_is_told_to_the_opponent() {
    // "If one of your checkers is captured, tell your opponent which piece they captured."
    let mut s = placed(ORTHODOX, ORTHODOX);
    play(&mut s, &[(W, "e2e4"), (W, "done"), (B, "d7d5"), (B, "done"), (W, "f1b5"), (W, "done")]);
    play(&mut s, &[(B, "c8d7"), (B, "done"), (W, "b5d7"), (W, "done")]);
    for viewer in [Viewer::Seat(W), Viewer::Seat(B), Viewer::Spectator] {
        assert!(log(&s, viewer).contains("checker 6 b5xd7, capturing Black's checker 3: it was the bishop."));
        let captured = s.full_view(viewer).tables.into_iter().find(|t| t.title == "Captured").unwrap();
        assert_eq!(captured.rows[1][1], "3=B");
    }
    assert_eq!(cell(&grid(&s, Viewer::Seat(W), Color::Black), 'B', 3), "O");
    // The other bishop stands on a square of the other colour: not on an
    // odd-numbered checker's file.
    let rows = grid(&s, Viewer::Seat(W), Color::Black);
    assert_eq!([1, 5, 7].map(|n| cell(&rows, 'B', n)), ["X", "X", "X"].map(String::from));
}

// ----------------------------------------------------------------------
// Winning
// ----------------------------------------------------------------------

/// White: king checker 5 on g1 and rook checker 1 on a1, both cloaked; Black:
/// an uncloaked king on h8 behind pawns g7 h7. The other checkers are gone.
const BACK_RANK: &str = "7k{5}/6pp/8/8/8/8/8/R{c1}5K{c5}1 w - - 0 1\n\
                         white-clues: 2=N 3=B 4=Q 6=B 7=N 8=R\nblack-clues: 1=R 2=N 3=B 4=Q 6=B 7=N 8=R";

#[test]
fn checkmate_of_an_uncloaked_king_is_shown_by_uncloaking() {
    // "Win by ... putting an uncloaked king in checkmate. You might have to
    // uncloak some of your pieces to show the checkmate."
    let mut s = session(Some(BACK_RANK));
    play(&mut s, &[(W, "a1a8"), (W, "uncloak a8"), (W, "done")]);
    assert_eq!(s.to_act(), ToAct::Over(Outcome::win(vec![W], "checkmate")));
    assert!(log(&s, Viewer::Spectator).ends_with("White wins: checkmate."));
    // With the rook still cloaked Black cannot see the check: the game goes on.
    let mut s = session(Some(BACK_RANK));
    play(&mut s, &[(W, "a1a8"), (W, "done")]);
    assert_eq!(s.to_act(), ToAct::one(B));
    assert_eq!(s.full_view(Viewer::Seat(B)).check, None);
    // ... and Black's king may even step where the cloaked rook attacks.
    play(&mut s, &[(B, "h8g8")]);
    // Then the rook captures the uncloaked king: a captured king loses.
    play(&mut s, &[(W, "a8g8")]);
    assert_eq!(s.to_act(), ToAct::Over(Outcome::win(vec![W], "king captured")));
}

#[test]
fn capturing_a_cloaked_king_wins() {
    // "Win by capturing a cloaked king"
    let mut s = session(Some(
        "7k{c5}/6pp/8/8/8/8/8/R{c1}5K{c5}1 w - - 0 1\n\
         white-clues: 2=N 3=B 4=Q 6=B 7=N 8=R\nblack-clues: 1=R 2=N 3=B 4=Q 6=B 7=N 8=R",
    ));
    play(&mut s, &[(W, "a1a8"), (W, "done"), (B, "g7g6"), (B, "done")]);
    assert_eq!(s.to_act(), ToAct::one(W), "a cloaked king may stay in check");
    play(&mut s, &[(W, "a8h8")]);
    assert_eq!(s.to_act(), ToAct::Over(Outcome::win(vec![W], "king captured")));
    assert!(log(&s, Viewer::Seat(B)).contains("capturing Black's checker 5: it was the king"));
}

#[test]
fn a_cloaked_king_may_move_into_check_an_uncloaked_king_may_not() {
    // "A cloaked king may move into check, stay in check, or castle out of
    // check, because the opponent doesn't know it's in check." Check is what
    // both players see: an uncloaked rook attacks the f-file.
    let cloaked = "5r{1}1k{c5}/8/8/8/8/8/8/4K{c5}3 w - - 0 1\n\
                   white-clues: 1=R 2=N 3=B 4=Q 6=B 7=N 8=R\nblack-clues: 2=N 3=B 4=Q 6=B 7=N 8=R";
    let mut s = session(Some(cloaked));
    play(&mut s, &[(W, "e1f1")]);
    // ... and stay in check: another piece moves while the king stands attacked.
    let mut s = session(Some(&cloaked.replace("/8/4K{c5}3", "/P7/5K{c5}2")));
    play(&mut s, &[(W, "a2a3")]);
    let mut s = session(Some(&cloaked.replace("K{c5}", "K{5}")));
    assert!(!actions(&s, W).contains(&"e1f1".to_string()));
    assert!(refused(&mut s, W, "e1f1").contains("leave your uncloaked king in check"));
    play(&mut s, &[(W, "e1d1")]);
    // An uncloaked king may not be uncloaked into check either: the king
    // stays cloaked while a visible piece attacks it.
    let mut s = session(Some(&cloaked.replace("4K{c5}3", "5K{c5}2").replace("w - - 0 1", "w - - 0 1\nstep: uncloak")));
    assert!(refused(&mut s, W, "uncloak f1").contains("in check"));
    assert_eq!(actions(&s, W), vec!["done".to_string()]);
}

#[test]
fn two_pawn_moves_in_one_turn_can_take_an_uncloaked_king() {
    // Design Problems: "You're not even safe from the pawns, because your
    // opponent can sometimes make two pawn moves." After a right guess the
    // regular move gives check and the bonus pawn move takes the king.
    let mut s = session(Some(
        "8/8/4k{5}3/8/3P4/8/8/4K{c5}3 w - - 0 1\nstep: guessed-right\n\
         white-clues: 1=R 2=N 3=B 4=Q 6=B 7=N 8=R\nblack-clues: 1=R 2=N 3=B 4=Q 6=B 7=N 8=R",
    ));
    play(&mut s, &[(W, "d4d5"), (W, "bonus d5e6")]);
    assert_eq!(s.to_act(), ToAct::Over(Outcome::win(vec![W], "king captured")));
}

#[test]
fn even_a_king_capture_may_not_leave_the_own_uncloaked_king_in_check() {
    // Ruling: the check rule is the same for every move, so the moves allowed
    // never tell whether a checker is the king.
    let mut s = session(Some(
        "4r{1}2k{c5}/8/6N{c7}1/8/8/8/8/4K{5}3 w - - 0 1\n\
         white-clues: 1=R 2=N 3=B 4=Q 6=B 8=R\nblack-clues: 2=N 3=B 4=Q 6=B 7=N 8=R",
    ));
    assert!(refused(&mut s, W, "g6h8").contains("leave your uncloaked king in check"));
    play(&mut s, &[(W, "e1d2")]);
}

// ----------------------------------------------------------------------
// Castling
// ----------------------------------------------------------------------

#[test]
fn castling_is_chess960_castling_by_the_true_king_and_rook() {
    // "Castling is the same as in Chess 960: the king and rook end up on the
    // same squares they do in standard chess." Setup BBRKRNNQ: the king on
    // d1, rooks on c1 and e1; queen-side castling swaps king and rook.
    let mut s = placed("BBRKRNNQ", ORTHODOX);
    assert!(actions(&s, W).contains(&"d1c1".to_string()));
    play(&mut s, &[(W, "d1c1"), (W, "done")]);
    assert_eq!(s.game.board().piece_at(Square::C1), Some(Color::White.king()));
    assert_eq!(s.game.board().piece_at(Square::D1), Some(Color::White.rook()));
    assert_eq!(piece(&s, Viewer::Seat(B), "c1").unwrap().label.as_deref(), Some("4"), "the checkers swap places");
    assert!(log(&s, Viewer::Seat(B))
        .contains("castles queen side: checker 4 is the king (d1-c1), checker 3 the rook (c1-d1)."));
    let rows = grid(&s, Viewer::Seat(B), Color::White);
    assert_eq!((cell(&rows, 'K', 4), cell(&rows, 'R', 3)), ("O".into(), "O".into()));
    assert_eq!(cell(&rows, 'R', 1), "X", "one rook on each side of the king");
    // "All spaces between their start position and their end position must be
    // empty, except for the king and the castling rook."
    let mut s = placed(ORTHODOX, ORTHODOX);
    assert!(!actions(&s, W).contains(&"e1h1".to_string()));
    assert!(refused(&mut s, W, "e1h1").contains("cannot move e1-h1"));
    play(&mut s, &[(W, "g1f3"), (W, "done"), (B, "g8f6"), (B, "done"), (W, "e2e4"), (W, "done")]);
    play(&mut s, &[(B, "b8c6"), (B, "done"), (W, "f1c4"), (W, "done"), (B, "a7a6"), (B, "done")]);
    play(&mut s, &[(W, "e1g1")]);
    assert_eq!(s.game.board().piece_at(Square::F1), Some(Color::White.rook()), "the king's two-square form");
}

#[test]
fn an_uncloaked_king_does_not_castle_through_a_visible_attack_a_cloaked_king_may() {
    // "All spaces between the king's start and end positions must not be under
    // attack, if the king is uncloaked." ... "or castle out of check"
    let position = "4r{1}k{c5}2/8/8/8/8/8/8/4K{c5}2R{c8} w H - 0 1\n\
                    white-clues: 1=R 2=N 3=B 4=Q 6=B 7=N\nblack-clues: 2=N 3=B 4=Q 6=B 7=N 8=R\nblack-moved: 1 5";
    let mut s = session(Some(position));
    assert!(actions(&s, W).contains(&"e1h1".to_string()), "a cloaked king castles out of check");
    play(&mut s, &[(W, "e1h1")]);
    assert_eq!(s.game.board().piece_at(Square::G1), Some(Color::White.king()));
    let mut s = session(Some(&position.replace("K{c5}", "K{5}")));
    assert!(!actions(&s, W).contains(&"e1h1".to_string()));
    assert!(refused(&mut s, W, "e1h1").contains("may not castle out of, through or into check"));
    // Attacked only by a cloaked rook, the path looks free: the uncloaked king castles.
    let mut s = session(Some(&position.replace("K{c5}", "K{5}").replace("4r{1}", "4r{c1}")));
    play(&mut s, &[(W, "e1h1")]);
}

// ----------------------------------------------------------------------
// Game end: the orthodox draws
// ----------------------------------------------------------------------

#[test]
fn endless_play_ends_in_the_orthodox_draws() {
    // Ruling: threefold repetition, the fifty-move rule, bare kings with no
    // pawn to take back.
    let kings = "4k{c5}3/8/8/8/8/8/8/4K{c5}3 w - - 0 1\nwhite-clues: 1=R 2=N 3=B 4=Q 6=B 7=N 8=R\n\
                 black-clues: 1=R 2=N 3=B 4=Q 6=B 7=N 8=R";
    let s = session(Some(kings));
    assert_eq!(s.to_act(), ToAct::Over(Outcome::draw("insufficient material")));
    let with_hand = format!("{kings}\nwhite-hand: 1");
    let mut s = session(Some(&with_hand));
    assert_eq!(s.to_act(), ToAct::one(W), "a pawn to take back keeps the game alive");
    let cycle =
        [(W, "e1e2"), (W, "done"), (B, "e8e7"), (B, "done"), (W, "e2e1"), (W, "done"), (B, "e7e8"), (B, "done")];
    play(&mut s, &cycle);
    play(&mut s, &cycle);
    assert!(!s.to_act().is_over(), "the positions of the first round differ: the kings had not moved yet");
    play(&mut s, &cycle[..4]);
    assert_eq!(s.to_act(), ToAct::Over(Outcome::draw("threefold repetition")));
    let s = session(Some(&with_hand.replace("w - - 0 1", "w - - 100 80")));
    assert_eq!(s.to_act(), ToAct::Over(Outcome::draw("fifty-move rule")));
    // Stalemate: a lone uncloaked king with no move.
    let s = session(Some(
        "7k{5}/5Q{4}2/6K{5}1/8/8/8/8/8 b - - 0 1\nwhite-clues: 1=R 2=N 3=B 6=B 7=N 8=R\n\
         black-clues: 1=R 2=N 3=B 4=Q 6=B 7=N 8=R\nblack-hand: 1",
    ));
    assert_eq!(s.to_act(), ToAct::Over(Outcome::draw("stalemate")));
}

#[test]
fn random_games_end() {
    for seed in 0..40u64 {
        let mut game = CloakAndDagger::new(&Options::new(), seed).unwrap();
        let mut rng = GameRng::from_seed(seed);
        let mut steps = 0;
        while !game.to_act().is_over() {
            let seats = game.to_act().seats().to_vec();
            let seat = *rng.choose(&seats).unwrap();
            let mut actions = game.legal_actions(seat);
            if seed % 2 == 0 && actions.len() > 1 {
                actions.retain(|a| !matches!(a, CloakAction::Uncloak(..)));
            }
            let action = *rng.choose(&actions).unwrap();
            game.apply(seat, &action).unwrap();
            steps += 1;
            assert!(steps < 3000, "seed {seed}: no end in sight\n{}", game.position());
        }
    }
}

/// The turn start's test for a regular move (mate and stalemate), which
/// stops at the first piece with one, against the whole list, at every
/// step of random games.
#[test]
fn a_regular_move_is_found_exactly_when_the_list_of_regular_moves_has_one() {
    for seed in 0..20u64 {
        let mut game = CloakAndDagger::new(&Options::new(), seed).unwrap();
        let mut rng = GameRng::from_seed(seed + 50);
        while !game.to_act().is_over() {
            if game.step() != Step::Setup {
                assert_eq!(game.has_regular_move(), !game.regular_moves().is_empty(), "{}", game.position());
            }
            let seats = game.to_act().seats().to_vec();
            let seat = *rng.choose(&seats).unwrap();
            let action = *rng.choose(&game.legal_actions(seat)).unwrap();
            game.apply(seat, &action).unwrap();
        }
    }
}

/// The search's quiescence asks for the noisy actions alone, which are
/// generated without the guesses and quiet moves: they must be the noisy
/// ones of the whole list, in its order, at every step of random games.
#[test]
fn the_noisy_actions_are_those_of_the_whole_list_in_its_order() {
    let mut noisy_seen = 0;
    for seed in 0..30u64 {
        let mut game = CloakAndDagger::new(&Options::new(), seed).unwrap();
        let mut rng = GameRng::from_seed(seed + 90);
        let mut noisy = Vec::new();
        while !game.to_act().is_over() {
            for seat in [W, B] {
                let mut listed = game.legal_actions(seat);
                listed.retain(|a| game.is_noisy(a));
                game.noisy_actions_into(seat, &mut noisy);
                assert_eq!(noisy, listed, "seat {seat} at {:?}\n{}", game.step(), game.position());
                noisy_seen += noisy.len();
            }
            let seats = game.to_act().seats().to_vec();
            let seat = *rng.choose(&seats).unwrap();
            let action = *rng.choose(&game.legal_actions(seat)).unwrap();
            game.apply(seat, &action).unwrap();
        }
    }
    assert!(noisy_seen > 100, "{noisy_seen}");
}

/// The placement's descriptions the game keeps for the search
/// ([`Game::kept_search_actions`]) are what the search would work out: at
/// every step of random games, the search node's list for each seat is
/// the hash and `is_noisy` of each legal action, in order.
#[test]
fn the_kept_placement_descriptions_are_those_of_the_legal_actions_along_random_games() {
    let mut kept_seen = 0;
    for seed in 0..12u64 {
        let mut s = session(None);
        let mut rng = GameRng::from_seed(seed + 130);
        for _ in 0..30 {
            let ToAct::Seats(seats) = s.game.to_act() else { break };
            for seat in [W, B] {
                let plain: Vec<SearchAction> = s
                    .game
                    .legal_actions(seat)
                    .iter()
                    .map(|action| SearchAction { id: hash_of(action), noisy: s.game.is_noisy(action) })
                    .collect();
                kept_seen += usize::from(s.game.kept_search_actions(seat).is_some());
                assert_eq!(s.search_node().actions(seat), plain, "seat {seat} at {:?}", s.game.step());
            }
            let seat = *rng.choose(&seats).unwrap();
            let action = *rng.choose(&s.game.legal_actions(seat)).unwrap();
            s.apply(seat, &action.to_string()).unwrap();
        }
    }
    assert!(kept_seen >= 24, "both placements of every game: {kept_seen}");
}

/// The search tells actions apart by their hash: the 960 placements, read
/// as one word each, must stay apart from each other and from the rest.
#[test]
fn every_placement_and_other_action_hashes_apart() {
    use chesskit_core::search_node::hash_of;
    let mut actions: Vec<CloakAction> = all_setups().iter().map(|&s| CloakAction::Place(s)).collect();
    actions.extend([CloakAction::Done, CloakAction::Drop(Square::A2), CloakAction::Uncloak(Square::A2)]);
    actions.push(CloakAction::Guess { square: Square::A2, role: Role::Knight });
    let hashes: std::collections::HashSet<u64> = actions.iter().map(hash_of).collect();
    assert_eq!(hashes.len(), actions.len());
}

// ----------------------------------------------------------------------
// Hidden information
// ----------------------------------------------------------------------

#[test]
fn games_differing_only_in_a_secret_placement_look_the_same_until_the_rules_reveal_it() {
    // Black's king and queen swapped (both setups obey the restrictions).
    let mut a = placed(ORTHODOX, ORTHODOX);
    let mut b = placed(ORTHODOX, "RNBKQBNR");
    let same = |a: &Session<CloakAndDagger>, b: &Session<CloakAndDagger>| {
        for viewer in [Viewer::Seat(W), Viewer::Spectator] {
            assert_eq!(a.full_view(viewer), b.full_view(viewer), "{viewer}");
        }
    };
    same(&a, &b);
    let moves = [(W, "e2e4"), (W, "done"), (B, "e7e6"), (B, "done"), (W, "d2d4"), (W, "done"), (B, "d7d6")];
    play(&mut a, &moves);
    play(&mut b, &moves);
    same(&a, &b);
    // Checker 4 and checker 5 each step one square: a king or a queen either way.
    play(&mut a, &[(B, "done"), (W, "g1f3"), (W, "done"), (B, "d8d7"), (B, "done")]);
    play(&mut b, &[(B, "done"), (W, "g1f3"), (W, "done"), (B, "d8d7"), (B, "done")]);
    same(&a, &b);
    // A guess reveals the difference.
    play(&mut a, &[(W, "guess d7 Q")]);
    play(&mut b, &[(W, "guess d7 Q")]);
    assert_ne!(a.full_view(Viewer::Seat(W)), b.full_view(Viewer::Seat(W)));
}

#[test]
fn sample_hidden_redraws_the_opponents_setup_within_what_the_seat_has_seen() {
    let mut s = placed(ORTHODOX, "BBRKRNNQ");
    play(&mut s, &[(W, "e2e4"), (W, "done"), (B, "g8f6"), (B, "done"), (W, "guess f6 B"), (W, "d2d4")]);
    play(&mut s, &[(W, "done"), (B, "bonus b7b6"), (B, "a8b7"), (B, "done")]);
    let truth = s.game.clone();
    let mut seen = std::collections::HashSet::new();
    for seed in 0..40 {
        let sample = truth.sample_hidden(W, &mut GameRng::from_seed(seed));
        assert_eq!(sample.placement(Color::White), truth.placement(Color::White), "White's own setup is kept");
        let drawn = *sample.placement(Color::Black).unwrap();
        assert!(truth.clues(Color::Black).allows(&drawn));
        check_setup(&drawn).unwrap();
        assert_eq!(drawn[6], Role::Knight, "checker 7 went g8-f6: a knight");
        // Checker 1 stepped a8-b7: a king, queen or bishop, and a king on the
        // a-file has no rook beside it.
        assert!(matches!(drawn[0], Role::Queen | Role::Bishop));
        assert_ne!(drawn[6], Role::Bishop);
        assert_eq!(sample.view(Viewer::Seat(W)), truth.view(Viewer::Seat(W)));
        assert_eq!(sample.view(Viewer::Spectator), truth.view(Viewer::Spectator));
        assert_eq!(sample.legal_actions(W), truth.legal_actions(W));
        assert_eq!(sample.repetition, truth.repetition, "repetition does not hang on hidden identities");
        seen.insert(drawn);
    }
    assert!(seen.len() > 1, "the hidden setup is really re-drawn");
}

/// The moves the opponent did not make: Black opened the diagonal from
/// White's uncloaked queen on h5 to checker 5 on e8 and left it there. Had
/// checker 5 been Black's king, White could take it and win, so White's
/// draws make it the king far less often than before Black's move.
#[test]
fn sample_hidden_weighs_a_checker_the_opponent_left_in_reach() {
    let mut s = placed(ORTHODOX, "RNBQKBNR");
    play(&mut s, &[(W, "e2e4"), (W, "done"), (B, "a7a6"), (B, "done"), (W, "d1h5"), (W, "uncloak h5"), (W, "done")]);
    let checker_5_is_the_king = |game: &CloakAndDagger| {
        let draws = 300;
        let hits = (0..draws)
            .filter(|&seed| {
                game.sample_hidden(W, &mut GameRng::from_seed(seed)).placement(Color::Black).unwrap()[4] == Role::King
            })
            .count();
        hits as f64 / draws as f64
    };
    let before = checker_5_is_the_king(&s.game);
    play(&mut s, &[(B, "f7f6"), (B, "done")]);
    let after = checker_5_is_the_king(&s.game);
    assert!(before > 0.15, "checker 5 is the king in many setups: {before}");
    assert!(after < before / 2.5, "after Black left it to the queen: {after}, before: {before}");
}

/// What a player left in reach is read from what both players see: two
/// games that differ only in Black's secret setup draw the same worlds
/// for White.
#[test]
fn checkers_left_in_reach_do_not_depend_on_the_secret_setup() {
    let draws = |black: &str| {
        let mut s = placed(ORTHODOX, black);
        play(&mut s, &[(W, "e2e4"), (W, "done"), (B, "a7a6"), (B, "done"), (W, "d1h5"), (W, "uncloak h5")]);
        play(&mut s, &[(W, "done"), (B, "f7f6"), (B, "done")]);
        (0..30)
            .map(|seed| *s.game.sample_hidden(W, &mut GameRng::from_seed(seed)).placement(Color::Black).unwrap())
            .collect::<Vec<_>>()
    };
    assert_eq!(draws("RNBQKBNR"), draws("RNBKQBNR"));
}

/// Random games where checkers stay cloaked, checking at every step that no
/// view (with its legal actions) depends on what its viewer may not know.
#[test]
fn views_do_not_depend_on_hidden_identities() {
    for seed in 0..6u64 {
        let mut s = session(None);
        let mut rng = GameRng::from_seed(seed + 100);
        let mut step = 0;
        while !s.to_act().is_over() && step < 400 {
            if step % 3 == 0 {
                for seat in [W, B] {
                    let sample = s.sample_hidden(seat, step as u64);
                    assert_eq!(s.view(Viewer::Seat(seat)), sample.view(Viewer::Seat(seat)), "seed {seed} step {step}");
                    assert_eq!(s.view(Viewer::Spectator), sample.view(Viewer::Spectator));
                }
            }
            let seats = s.to_act().seats().to_vec();
            let seat = *rng.choose(&seats).unwrap();
            let mut actions = actions(&s, seat);
            if actions.len() > 1 {
                actions.retain(|a| !a.starts_with("uncloak"));
            }
            let action = rng.choose(&actions).unwrap().clone();
            s.apply(seat, &action).unwrap();
            step += 1;
        }
    }
}

// ----------------------------------------------------------------------
// Positions and bad input
// ----------------------------------------------------------------------

#[test]
fn positions_round_trip() {
    let mut s = placed(ORTHODOX, "BBRKRNNQ");
    let start = s.game.position();
    assert_eq!(
        start,
        "b{c1}b{c2}r{c3}k{c4}r{c5}n{c6}n{c7}q{c8}/pppppppp/8/8/8/8/PPPPPPPP/R{c1}N{c2}B{c3}Q{c4}K{c5}B{c6}N{c7}R{c8} \
         w HAec - 0 1\nstep: start"
    );
    let script = [
        (W, "e2e4"),
        (W, "uncloak g1"),
        (W, "done"),
        (B, "guess d1 K"),
        (B, "d7d5"),
        (B, "done"),
        (W, "bonus e4d5"),
        (W, "guess h8 Q"),
    ];
    for (i, &(seat, text)) in script.iter().enumerate() {
        let text_now = s.game.position();
        let read = CloakAndDagger::from_position(&text_now, &Options::new(), 0).unwrap();
        assert_eq!(read.position(), text_now, "after {i} actions");
        assert_eq!(read.legal_actions(seat), s.game.legal_actions(seat));
        play(&mut s, &[(seat, text)]);
    }
    // The example of docs/games/cloak-and-dagger.md.
    assert_eq!(
        s.game.position(),
        "b{c1}b{c2}r{c3}k{c4}r{c5}n{c6}n{c7}q{c8}/ppp1pppp/8/3P4/8/8/PPPP1PPP/R{c1}N{c2}B{c3}Q{c4}K{c5}B{c6}N{7}R{c8} \
         w HAec - 0 2\nstep: guessed-right\nblack-hand: 1\nwhite-clues: 4=QRBN 7=N\nblack-clues: 8=Q"
    );
    let setup = session(None).game.position();
    assert!(setup.ends_with("to-place: white black"));
    assert_eq!(CloakAndDagger::from_position(&setup, &Options::new(), 0).unwrap(), session(None).game);
}

#[test]
fn bad_positions_are_refused_with_a_reason() {
    let good = "r{c1}n{c2}b{c3}q{c4}k{c5}b{c6}n{c7}r{c8}/pppppppp/8/8/8/8/PPPPPPPP/R{c1}N{c2}B{c3}Q{c4}K{c5}B{c6}N{c7}R{c8} w HAha - 0 1";
    assert!(CloakAndDagger::from_position(good, &Options::new(), 0).is_ok());
    let cases = [
        (good.replace("Q{c4}", "Q{c9}"), "not a checker number"),
        (good.replace("Q{c4}", "Q{c2}"), "two pieces are White's checker 2"),
        (good.replace("K{c5}", "K"), "the king on e1 is a checker"),
        (good.replace("R{c1}N{c2}B{c3}Q{c4}", "R{c1}N{c2}Q{c3}Q{c4}"), "not a standard set"),
        (good.replace("HAha", "Aha"), "castling field"),
        (good.replace("/pppppppp/", "/ppppppp{c1}p/"), "cannot be a checker"),
        (format!("{good}\nstep: dancing"), "unknown step"),
        (format!("{good}\nbonus-for: black"), "bonus-for does not fit"),
        (format!("{good}\nwhite-hand: 3"), "more than 8 pawns"),
        (format!("{good}\ncolour: red"), "unknown key"),
        (format!("{good}\nwhite-clues: 2=Q"), "contradict white-clues"),
        (good.replace("R{c1}N{c2}B{c3}Q{c4}", "R{c1}1B{c3}1"), "captured checkers 2, 4 could be more than one setup"),
        (format!("{}\nto-place: black", good.replace("k{c5}", "k{5}")), "must stand cloaked on e8"),
    ];
    for (text, expected) in cases {
        let err = CloakAndDagger::from_position(&text, &Options::new(), 0).unwrap_err().to_string();
        assert!(err.contains(expected), "{text}\n{err}");
    }
}

#[test]
fn out_of_turn_and_malformed_actions_change_nothing() {
    let mut s = placed(ORTHODOX, ORTHODOX);
    assert!(matches!(s.apply(B, "e7e5"), Err(RuleError::NotYourTurn { seat: B })));
    assert!(refused(&mut s, W, "place RNBQKBNR").contains("at the start of your turn"));
    assert!(refused(&mut s, W, "done").contains("at the start of your turn"));
    assert!(refused(&mut s, W, "e2e5").contains("pawn cannot move e2-e5"));
    assert!(refused(&mut s, W, "e7e5").contains("not yours"));
    assert!(refused(&mut s, W, "fly").contains("expected a move"));
    assert!(refused(&mut s, W, "guess 9 N").contains("not a checker number"));
    assert!(s.record().actions.len() == 2);
}

/// Export: the PGN starts from the position after both placements, the
/// checkers shown as what they are, with one regular move per turn and the
/// guess, the bonus move and the uncloaking as comments.
#[test]
fn pgn_starts_after_the_placements_with_the_other_steps_as_comments() {
    let mut s = placed("NRBKQBRN", ORTHODOX);
    play(&mut s, &[(W, "guess b8 N"), (W, "e2e4"), (W, "bonus d2d4"), (W, "uncloak a1"), (W, "done"), (B, "e7e5")]);
    let pgn = s.pgn().unwrap();
    assert!(pgn.contains("[Variant \"Cloak and Dagger\"]\n"), "{pgn}");
    assert!(pgn.contains("[FEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/NRBKQBRN w KQkq - 0 1\"]"), "{pgn}");
    let movetext = pgn.split("\n\n").nth(1).unwrap().replace('\n', " ");
    assert!(
        movetext.contains(
            "{White guesses that Black's checker 2 on b8 is a knight: right. White may make a bonus move after their regular move.} 1. e2-e4"
        ),
        "{movetext}"
    );
    assert!(movetext.contains("{White: bonus move: d2-d4.} {White uncloaks checker 1 on a1: a knight.}"), "{movetext}");
    assert!(movetext.ends_with("1... e7-e5 * "), "{movetext}");
}

// ----------------------------------------------------------------------
// Issue 8: the castling ruling, labels, logs, prompts, the end
// ----------------------------------------------------------------------

/// The labels of `seat`'s offered actions, by action text.
fn labels(s: &Session<CloakAndDagger>, seat: Seat) -> Vec<(String, Option<String>)> {
    s.full_view(Viewer::Seat(seat)).actions.into_iter().map(|a| (a.text, a.label)).collect()
}

fn label(s: &Session<CloakAndDagger>, seat: Seat, text: &str) -> String {
    labels(s, seat)
        .into_iter()
        .find(|(t, _)| t == text)
        .unwrap_or_else(|| panic!("{text} is not offered"))
        .1
        .unwrap_or_else(|| panic!("{text} has no label"))
}

/// White: an uncloaked king on e1 and its cloaked rook (checker 8) on h1.
/// Black: its cloaked king (checker 5) on g8 between checkers 6 (f8) and 8
/// (h8), both cloaked, one a rook and the other a bishop: `checker_6` is
/// `r` or `b`. Both are Chess960 setups, and the public facts are the same.
fn castling_table(checker_6: char) -> String {
    let checker_8 = if checker_6 == 'r' { 'b' } else { 'r' };
    format!(
        "5{checker_6}{{c6}}k{{c5}}{checker_8}{{c8}}/8/8/8/8/8/8/4K{{5}}2R{{c8}} w H - 0 1\n\
         white-clues: 1=R 2=N 3=B 4=Q 6=B 7=N\n\
         black-clues: 1=R 2=N 3=B 4=Q 7=N"
    )
}

#[test]
fn ruling_castling_counts_only_attacks_both_players_can_see() {
    // Ruling (docs/games/cloak-and-dagger.md): "Check and the castling rule
    // ('spaces must not be under attack, if the king is uncloaked') count only
    // attacks by pieces both players can see, so that no legal-move list
    // reveals a cloaked identity." Black's cloaked checker 6 on f8 is a rook
    // (attacking f1, which White's uncloaked king crosses) in one game and a
    // bishop in the other.
    let rook = session(Some(&castling_table('r')));
    let bishop = session(Some(&castling_table('b')));
    assert_eq!(rook.game.board().role_at(Square::F8), Some(Role::Rook));
    assert_eq!(bishop.game.board().role_at(Square::F8), Some(Role::Bishop));
    assert!(actions(&rook, W).contains(&"e1h1".to_string()), "the cloaked rook's attack does not count");
    assert_eq!(actions(&rook, W), actions(&bishop, W), "the same castling and every other action");
    assert_eq!(rook.full_view(Viewer::Seat(W)), bishop.full_view(Viewer::Seat(W)));
    // Uncloaked, the rook's attack counts: the king may not castle through f1.
    let mut seen = session(Some(&castling_table('r').replace("r{c6}", "r{6}")));
    assert!(!actions(&seen, W).contains(&"e1h1".to_string()));
    assert!(refused(&mut seen, W, "e1h1").contains("may not castle out of, through or into check"));
    // Check alike: the uncloaked king on f1 below the cloaked checker is not
    // in check whatever that checker is, and may stay or move as it likes.
    let on_f1 = |table: String| session(Some(&table.replace("4K{5}2R{c8} w H", "5K{5}1R{c8} w -")));
    let (rook, bishop) = (on_f1(castling_table('r')), on_f1(castling_table('b')));
    assert_eq!(rook.full_view(Viewer::Seat(W)).check, None);
    assert!(actions(&rook, W).contains(&"f1f2".to_string()));
    assert_eq!(actions(&rook, W), actions(&bishop, W));
    assert_eq!(rook.full_view(Viewer::Seat(W)), bishop.full_view(Viewer::Seat(W)));
}

#[test]
fn ruling_a_guess_the_grid_rules_out_is_offered_and_labelled_already_ruled_out() {
    // "At the start of your turn, you may guess the identity of one of your
    // opponent's checkers": the book sets no limit, so every guess is
    // offered; one the guesser's grid already rules out says so.
    let mut s = placed(ORTHODOX, ORTHODOX);
    // From the start the king is never checker 1 (it stands between the rooks).
    assert_eq!(cell(&grid(&s, Viewer::Seat(W), Color::Black), 'K', 1), "X");
    assert_eq!(label(&s, W, "guess a8 K"), "Guess: the checker on a8 is a king (already ruled out)");
    assert_eq!(label(&s, W, "guess a8 R"), "Guess: the checker on a8 is a rook");
    // After a wrong guess the same guess is ruled out for the guesser.
    play(&mut s, &[(W, "guess b8 Q"), (W, "e2e4"), (W, "done"), (B, "e7e5"), (B, "done")]);
    assert_eq!(label(&s, W, "guess b8 Q"), "Guess: the checker on b8 is a queen (already ruled out)");
    assert_eq!(label(&s, W, "guess b8 N"), "Guess: the checker on b8 is a knight");
    // It is still a guess the rules allow, and it is wrong.
    play(&mut s, &[(W, "guess b8 Q")]);
    assert_eq!(s.game.step(), Step::Guessed { correct: false });
    // The mark rests on public facts only: a game where Black's setup differs
    // but every public fact is the same marks the same guesses.
    let mut other = placed(ORTHODOX, "RNBKQBNR");
    play(&mut other, &[(W, "guess b8 Q"), (W, "e2e4"), (W, "done"), (B, "e7e5"), (B, "done")]);
    let mut same = placed(ORTHODOX, ORTHODOX);
    play(&mut same, &[(W, "guess b8 Q"), (W, "e2e4"), (W, "done"), (B, "e7e5"), (B, "done")]);
    assert_eq!(labels(&other, W), labels(&same, W));
}

#[test]
fn bonus_move_labels_say_which_choice_keeps_the_turn_and_which_gives_the_bonus_up() {
    // "If you guess incorrectly, your opponent may make the same kind of bonus
    // move before their next turn": Black may play e7-e5 as the bonus move
    // (and keep the turn) or as the regular move (giving the bonus up).
    let mut s = placed(ORTHODOX, ORTHODOX);
    play(&mut s, &[(W, "guess b8 Q"), (W, "e2e4"), (W, "done")]);
    assert_eq!(label(&s, B, "bonus e7e5"), "e7-e5 as your bonus move (you keep your turn)");
    assert_eq!(label(&s, B, "e7e5"), "e7-e5 as your regular move (gives up your bonus move)");
    assert_eq!(label(&s, B, "g8f6"), "g8-f6 as your regular move (gives up your bonus move)");
    assert_eq!(label(&s, B, "guess b1 N"), "Guess: the checker on b1 is a knight (gives up your bonus move)");
    let view = s.full_view(Viewer::Seat(B));
    let both: Vec<_> =
        view.actions.iter().filter(|a| a.from.as_deref() == Some("e7") && a.to.as_deref() == Some("e5")).collect();
    assert_eq!(both.len(), 2, "one gesture, two choices: the labels tell them apart");
    // Once the bonus move is made, the regular moves cost nothing.
    play(&mut s, &[(B, "bonus e7e5")]);
    assert!(labels(&s, B)
        .iter()
        .all(|(text, label)| !text.starts_with("bonus") && label.as_deref().is_none_or(|l| !l.contains("bonus"))));
    // "If you guess correctly, you may make a bonus move after your regular
    // move": then uncloaking or ending the turn gives it up.
    let mut s = placed(ORTHODOX, ORTHODOX);
    play(&mut s, &[(W, "guess b8 N"), (W, "e2e4")]);
    assert_eq!(label(&s, W, "bonus d2d4"), "d2-d4 as your bonus move");
    assert_eq!(label(&s, W, "done"), "End your turn (gives up your bonus move)");
    assert_eq!(label(&s, W, "uncloak g1"), "Uncloak your checker on g1 (gives up your bonus move)");
    play(&mut s, &[(W, "bonus d2d4")]);
    assert_eq!(label(&s, W, "done"), "End your turn");
    assert_eq!(label(&s, W, "uncloak g1"), "Uncloak your checker on g1");
}

#[test]
fn a_wrong_guess_is_logged_as_a_sentence_naming_the_checker_its_square_and_the_answer() {
    // "If you guess incorrectly, your opponent may make the same kind of bonus
    // move before their next turn." The answer is public, in words.
    let mut s = placed(ORTHODOX, ORTHODOX);
    play(&mut s, &[(W, "guess b8 Q")]);
    for viewer in [Viewer::Seat(W), Viewer::Seat(B), Viewer::Spectator] {
        assert_eq!(
            s.full_view(viewer).log.last().unwrap().text,
            "White guesses that Black's checker 2 on b8 is a queen: wrong. Black may make a bonus move before their next turn."
        );
    }
}

/// Whether `text` holds command syntax rather than words: a move in UCI
/// (`e2e4`), a setup in letters (`RNBQKBNR`), or an action verb with its
/// argument (`guess c8`, `uncloak c1`, `drop d2`, `bonus e4e5`, `(done)`).
fn looks_like_command(text: &str) -> bool {
    let words: Vec<&str> = text.split(|c: char| !c.is_ascii_alphanumeric()).filter(|w| !w.is_empty()).collect();
    let square = |w: &str| w.len() == 2 && chesskit_core::chess::fen::parse_square(w).is_some();
    let uci = |w: &str| (4..=5).contains(&w.len()) && square(&w[..2]) && square(&w[2..4]);
    let letters = |w: &str| w.len() == 8 && w.chars().all(|c| "KQRBN".contains(c));
    words.iter().any(|w| uci(w) || letters(w))
        || words
            .windows(2)
            .any(|p| ["guess", "uncloak", "drop", "bonus", "place"].contains(&p[0]) && (square(p[1]) || uci(p[1])))
        || text.contains("(done)")
}

#[test]
fn prompts_and_labels_are_in_plain_words() {
    assert!(
        looks_like_command("guess c8 N") && looks_like_command("bonus e4e5") && looks_like_command("place RNBQKBNR")
    );
    assert!(
        !looks_like_command("Guess: the checker on c8 is a knight") && !looks_like_command("e2-e4 as your bonus move")
    );
    for seed in 0..4u64 {
        let mut s = session(None);
        let mut rng = GameRng::from_seed(seed);
        for _ in 0..120 {
            if s.to_act().is_over() {
                break;
            }
            for viewer in [Viewer::Seat(W), Viewer::Seat(B), Viewer::Spectator] {
                let view = s.full_view(viewer);
                if let Some(prompt) = &view.prompt {
                    assert!(!looks_like_command(prompt), "{viewer}: {prompt}");
                }
                for action in &view.actions {
                    if let Some(label) = &action.label {
                        assert!(!looks_like_command(label), "{}: {label}", action.text);
                    }
                }
            }
            let seat = s.to_act().seats()[0];
            let actions = actions(&s, seat);
            let action = rng.choose(&actions).unwrap().clone();
            s.apply(seat, &action).unwrap();
        }
    }
}

#[test]
fn a_spectators_prompt_names_who_is_still_placing() {
    // Both players place in secret at the same time; who has finished is public.
    let mut s = session(None);
    assert_eq!(
        s.full_view(Viewer::Spectator).prompt.unwrap(),
        "White and Black are both placing their checkers, in secret."
    );
    play(&mut s, &[(B, "place RNBQKBNR")]);
    assert_eq!(
        s.full_view(Viewer::Spectator).prompt.unwrap(),
        "Black has placed their checkers; White is still placing theirs, in secret."
    );
    assert_eq!(s.full_view(Viewer::Seat(B)).prompt.unwrap(), "Waiting for White to place their checkers.");
}

#[test]
fn once_the_game_is_over_every_view_shows_every_identity() {
    // Nothing is left to hide once a king is captured: each seat and the
    // spectator see every checker as the piece it is, cloaked or not.
    let mut s = session(Some(
        "7k{c5}/6pp/8/8/8/8/8/R{c1}5K{c5}1 w - - 0 1\n\
         white-clues: 2=N 3=B 4=Q 6=B 7=N 8=R\nblack-clues: 1=R 2=N 3=B 4=Q 6=B 7=N 8=R",
    ));
    play(&mut s, &[(W, "a1a8"), (W, "done"), (B, "g7g6"), (B, "done")]);
    assert_eq!(piece(&s, Viewer::Seat(B), "a8").unwrap().role, None, "hidden while the game runs");
    play(&mut s, &[(W, "a8h8")]);
    assert!(s.to_act().is_over());
    for viewer in [Viewer::Seat(W), Viewer::Seat(B), Viewer::Spectator] {
        let board = s.full_view(viewer).board.unwrap();
        for square in &board.squares {
            let p = square.piece.as_ref().unwrap();
            assert!(p.role.is_some(), "{viewer}: {} still hidden", square.square);
        }
        assert_eq!(piece(&s, viewer, "h8").unwrap().role.as_deref(), Some("rook"));
        assert_eq!(piece(&s, viewer, "g1").unwrap().role.as_deref(), Some("king"));
        let white = grid(&s, viewer, Color::White);
        assert_eq!(
            (cell(&white, 'R', 1), cell(&white, 'K', 5), cell(&white, 'K', 1)),
            ("O".into(), "O".into(), "X".into())
        );
        let notes = s.full_view(viewer).notes;
        assert!(
            notes.contains(
                &"White's checkers 1 to 8 were: rook, knight, bishop, queen, king, bishop, knight, rook.".to_string()
            ),
            "{notes:?}"
        );
    }
    // And a computer player's sample is the truth itself.
    assert_eq!(s.sample_hidden(W, 3).view(Viewer::Seat(W)), s.full_view(Viewer::Seat(W)));
}

/// The computer's transposition key (`Game::position_hash`) covers what the
/// rules read: the board with the true identities and the secret setups
/// (a search runs on a drawn world), the checkers, clues, hands, turns left
/// in reach, the step and a bonus owed. One state reached two ways: the
/// same board after another last move, which only the record keeps.
#[test]
fn the_zobrist_key_is_the_same_for_a_transposition_and_differs_for_any_change_the_rules_read() {
    let one = placed(ORTHODOX, ORTHODOX).game;
    let other = CloakAndDagger { last_move: vec![Square::D2, Square::D4], ..one.clone() };
    let swapped: Setup =
        [Role::Knight, Role::Rook, Role::Bishop, Role::Queen, Role::King, Role::Bishop, Role::Knight, Role::Rook];
    crate::testing::assert_the_key_follows_the_state(
        &one,
        &other,
        &[
            ("a piece", crate::testing::changed(&one, |g| g.pos.board_mut().discard_piece_at(Square::A2))),
            ("a secret setup", crate::testing::changed(&one, |g| g.placement[Color::Black] = Some(swapped))),
            (
                "a checker uncloaked",
                crate::testing::changed(&one, |g| {
                    g.checkers[Color::White][0].cloaked = !g.checkers[Color::White][0].cloaked
                }),
            ),
            ("a checker moved", crate::testing::changed(&one, |g| g.checkers[Color::Black][1].moved = true)),
            ("a clue", crate::testing::changed(&one, |g| g.clues[Color::White].rule_out(0, Role::Queen))),
            ("a pawn in hand", crate::testing::changed(&one, |g| g.hands[Color::White] += 1)),
            ("a turn left in reach", crate::testing::changed(&one, |g| g.left_in_reach[Color::Black].push(1))),
            ("the step", crate::testing::changed(&one, |g| g.step = Step::Uncloak)),
            ("a bonus owed", crate::testing::changed(&one, |g| g.bonus_for = Some(Color::White))),
        ],
    );
}

/// The search's questions answered without building lists agree with
/// `to_act` and `legal_actions`, and `clone_from` with a fresh clone: see
/// [`crate::testing::check_allocation_free_answers`].
#[test]
fn the_allocation_free_answers_agree_with_to_act_legal_actions_and_clone() {
    crate::testing::check_allocation_free_answers::<CloakAndDagger>(&Options::new(), 3, 60);
}
