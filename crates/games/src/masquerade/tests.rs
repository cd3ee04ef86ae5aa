//! Tests of Masquerade Chess, one or more per rule clause of rules.md
//! "Masquerade Chess", docs/games/masquerade.md.

use super::*;
use crate::testing::Told;
use chesskit_core::chess::Square;
use chesskit_core::session::{DynGame, Session};

/// The book's example: Bob's assignment of Alice's captures (testdata/book-examples.md).
const BOOK: &str = "KR QK RN BB NQ";
const ORTHODOX: &str = "KK QQ RR BB NN";

/// A game in play from a FEN, with the captures of White's and Black's pieces.
fn game(fen: &str, white: &str, black: &str) -> Told<MasqueradeGame> {
    let text = format!("{fen}\nwhite captures: {white}\nblack captures: {black}");
    Told::<MasqueradeGame>::from_position(&text, &Options::new(), 0).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn act_as(game: &mut Told<MasqueradeGame>, seat: Seat, text: &str) -> Result<(), RuleError> {
    let action = game.parse_action(seat, text)?;
    game.apply(seat, &action)
}

/// Play actions in turn order, each by the one seat to act.
fn play(game: &mut Told<MasqueradeGame>, texts: &str) {
    for text in texts.split(',').map(str::trim) {
        let seat = game.to_act().seats()[0];
        act_as(game, seat, text).unwrap_or_else(|e| panic!("{text}: {e}"));
    }
}

fn last_log(game: &Told<MasqueradeGame>) -> String {
    game.view(Viewer::Spectator).log.last().map(|e| e.text.clone()).unwrap_or_default()
}

fn piece_at(game: &Told<MasqueradeGame>, square: Square) -> Option<String> {
    game.position_now().board().piece_at(square).map(|p| p.char().to_string())
}

fn offered(game: &Told<MasqueradeGame>, seat: Seat, text: &str) -> bool {
    game.legal_actions(seat).iter().any(|a| a.to_string() == text)
}

fn find_table<'a>(view: &'a View, title_part: &str) -> &'a TableView {
    view.tables.iter().find(|t| t.title.contains(title_part)).unwrap_or_else(|| panic!("no table {title_part:?}"))
}

/// The O/X marks of one row of a table, as a string such as "X..OX" ('.' for open).
fn marks(table: &TableView, piece: &str) -> String {
    let row = table.rows.iter().find(|r| r[0] == piece).expect("a row for the piece");
    row[1..6].iter().map(|c| if c.is_empty() { '.' } else { c.chars().next().unwrap() }).collect()
}

fn marks_of(knowledge: &Knowledge, piece: Role) -> String {
    PIECE_TYPES
        .iter()
        .map(|&c| match knowledge.mark(piece, c) {
            Mark::O => 'O',
            Mark::X => 'X',
            Mark::Open => '.',
        })
        .collect()
}

// ----------------------------------------------------------------------
// Setup
// ----------------------------------------------------------------------

/// Setup, the book's example: "KR QK RN BB NQ" is K captures as R, Q as K,
/// R as N, B as B, N as Q; pairs may come in any order and either case.
#[test]
fn book_assignment_example_reads_in_any_order_and_prints_canonically() {
    let action: MasqueradeAction = "assign nq BB RN qk KR".parse().unwrap();
    assert_eq!(action.to_string(), "assign KR QK RN BB NQ");
    let MasqueradeAction::Assign(assignment) = action else { panic!("an assignment") };
    let expected =
        [(Role::King, Role::Rook), (Role::Queen, Role::King), (Role::Rook, Role::Knight), (Role::Bishop, Role::Bishop)];
    for (piece, capture) in expected.into_iter().chain([(Role::Knight, Role::Queen)]) {
        assert_eq!(assignment.capture_of(piece), capture);
    }
    assert_eq!(assignment.capture_of(Role::Pawn), Role::Pawn, "pawns always capture with their standard capture");
    assert_eq!(Assignment::all().len(), 120);
    assert!(Assignment::all().contains(&assignment));
}

/// "They then fill in the table for their opponent's pieces without letting
/// their opponent see": the opponent hears only that it is done, by a line
/// flagged as a secret choice.
#[test]
fn fill_in_the_table_without_letting_their_opponent_see_is_heard_as_a_secret_choice() {
    let mut game = Told::<MasqueradeGame>::new(&Options::new(), 0).unwrap();
    act_as(&mut game, 0, "assign KN QB RR BQ NK").unwrap();
    let line = game.view(Viewer::Seat(1)).log.last().cloned().expect("a line");
    assert_eq!((line.seat, line.secret_choice), (Some(0), true), "{}", line.text);
    assert!(!line.text.contains("KN"), "the assignment stays secret: {}", line.text);
}

/// Setup: both players assign at once and in secret; each assigns the
/// opponent's pieces, from the 120 permutations.
#[test]
fn setup_is_simultaneous_and_secret() {
    let mut game = Told::<MasqueradeGame>::new(&Options::new(), 0).unwrap();
    assert_eq!(game.to_act(), ToAct::Seats(vec![0, 1]));
    assert_eq!(game.legal_actions(0).len(), 120);
    assert_eq!(game.legal_actions(1).len(), 120);
    let black_view_before = game.view(Viewer::Seat(1));

    act_as(&mut game, 0, "assign KN QB RR BQ NK").unwrap();
    assert_eq!(game.to_act(), ToAct::Seats(vec![1]), "White has assigned; Black still must");
    assert_eq!(game.captures_of(1).unwrap().to_string(), "KN QB RR BQ NK", "White assigned Black's captures");
    assert_eq!(game.captures_of(0), None);
    let white_view = game.view(Viewer::Seat(0));
    assert_eq!(marks(find_table(&white_view, "Black's captures: your assignment"), "King"), "XXXXO");
    assert!(white_view.notes.iter().any(|n| n.contains("You assigned Black's captures: KN QB RR BQ NK")));

    // Black sees that White is done, but not what White wrote.
    let mut other = Told::<MasqueradeGame>::new(&Options::new(), 0).unwrap();
    act_as(&mut other, 0, "assign KK QQ RR BB NN").unwrap();
    assert_eq!(game.view(Viewer::Seat(1)), other.view(Viewer::Seat(1)));
    assert_ne!(game.view(Viewer::Seat(1)), black_view_before);
    assert!(!format!("{:?}", game.view(Viewer::Seat(1))).contains("KN QB RR BQ NK"));
    assert_eq!(game.view(Viewer::Spectator), other.view(Viewer::Spectator));

    act_as(&mut game, 1, &format!("assign {BOOK}")).unwrap();
    assert_eq!(game.captures_of(0).unwrap().to_string(), BOOK);
    assert_eq!(game.to_act(), ToAct::one(0), "then White moves first");
    assert!(game.legal_actions(1).is_empty());
}

/// Setup, bad input: an assignment must put one circle in each row and
/// each column; anything else is refused with the reason, and nothing changes.
#[test]
fn an_assignment_that_is_not_a_permutation_is_refused() {
    let mut game = Told::<MasqueradeGame>::new(&Options::new(), 0).unwrap();
    let before = game.clone();
    let cases = [
        ("assign KR QR RN BB NQ", "capture R is given to both K and Q"),
        ("assign KR QK RN BB", "expected 5 pairs"),
        ("assign KR QK RN BB NQ KK", "expected 5 pairs"),
        ("assign KR KQ RN BB NQ", "K is given a capture twice"),
        ("assign KP QK RN BB NQ", "bad pair \"KP\""),
        ("assign KRQ QK RN BB NQ", "bad pair"),
        ("assign", "expected 5 pairs"),
    ];
    for (text, expected) in cases {
        let err = act_as(&mut game, 0, text).unwrap_err();
        assert!(matches!(err, RuleError::Malformed { .. }), "{text}: {err}");
        assert!(err.to_string().contains(expected), "{text}: {err}");
        assert_eq!(game, before, "{text} changed the game");
    }
}

/// Setup and turns: an action out of turn is refused and changes nothing.
#[test]
fn actions_out_of_turn_are_refused() {
    let mut game = Told::<MasqueradeGame>::new(&Options::new(), 0).unwrap();
    let err = act_as(&mut game, 0, "e2e4").unwrap_err();
    assert!(err.to_string().contains("first both players assign"), "{err}");
    act_as(&mut game, 0, &format!("assign {ORTHODOX}")).unwrap();
    let before = game.clone();
    assert_eq!(act_as(&mut game, 0, &format!("assign {BOOK}")), Err(RuleError::NotYourTurn { seat: 0 }));
    assert_eq!(act_as(&mut game, 2, &format!("assign {BOOK}")), Err(RuleError::NoSuchSeat { seat: 2 }));
    assert_eq!(game, before);
    act_as(&mut game, 1, &format!("assign {BOOK}")).unwrap();
    let before = game.clone();
    assert_eq!(act_as(&mut game, 1, "e7e5"), Err(RuleError::NotYourTurn { seat: 1 }));
    let err = act_as(&mut game, 0, &format!("assign {BOOK}")).unwrap_err();
    assert!(err.to_string().contains("assigned at the start"), "{err}");
    assert_eq!(game, before);
}

// ----------------------------------------------------------------------
// Play: standard moves without capturing
// ----------------------------------------------------------------------

/// Play, "a threatened king doesn't have to evade capture. The king may
/// choose to bluff by staying where it is or even move into an attacked
/// square": no move is filtered for the king's safety.
#[test]
fn non_capturing_moves_ignore_check() {
    // The black rook on e8 attacks the white king and the d-file is open.
    let mut game = game("3rr1k1/8/8/8/8/8/P7/4K3 w - - 0 1", ORTHODOX, ORTHODOX);
    assert!(offered(&game, 0, "a2a3"), "a king left attacked is no obstacle");
    assert!(offered(&game, 0, "e1d1"), "a king may step onto an attacked square");
    assert!(offered(&game, 0, "e1e2"), "or stay on the attacked file");
    play(&mut game, "e1d1");
    assert_eq!(last_log(&game), "Ke1-d1");
    assert_eq!(game.to_act(), ToAct::one(1));
}

/// Play, "A king may castle out of check": castling keeps its conditions
/// on the squares crossed being empty, but none on attacks.
#[test]
fn castling_out_of_through_and_into_attack() {
    // Black rooks attack e1 (check), f1 and d1 (crossed) and g1 and c1 (destinations).
    let mut game = game("2rrrrrk/8/8/8/8/8/8/R3K2R w KQ - 0 1", ORTHODOX, ORTHODOX);
    assert!(offered(&game, 0, "e1g1"));
    assert!(offered(&game, 0, "e1c1"));
    // The king-takes-rook form is read too, and stored in the canonical form.
    assert_eq!(game.parse_action(0, "e1h1").unwrap().to_string(), "e1g1");
    play(&mut game, "e1h1");
    assert_eq!(last_log(&game), "O-O");
    assert_eq!(piece_at(&game, Square::G1).as_deref(), Some("K"));
    assert_eq!(piece_at(&game, Square::F1).as_deref(), Some("R"));

    // Castling still needs the squares between king and rook empty.
    let blocked = self::game("4k3/8/8/8/8/8/8/RN2K2R w KQ - 0 1", ORTHODOX, ORTHODOX);
    assert!(!offered(&blocked, 0, "e1c1"));
    assert!(offered(&blocked, 0, "e1g1"));
}

// ----------------------------------------------------------------------
// Play: capture attempts
// ----------------------------------------------------------------------

/// Play, the book's example: with Bob's assignment KR QK RN BB NQ, Alice's
/// king captures like a rook, her queen like a king, her knights like queens.
#[test]
fn book_example_alices_king_captures_like_a_rook() {
    let fen = "4k3/8/8/4p3/8/8/8/4K3 w - - 0 1";
    let mut alice = game(fen, BOOK, ORTHODOX);
    assert!(offered(&alice, 0, "e1e5"), "some capture move (rook, queen) could take e5 from e1");
    play(&mut alice, "e1e5");
    assert_eq!(last_log(&alice), "White's king on e1 tried to capture Black's pawn on e5: captured.");
    assert_eq!(piece_at(&alice, Square::E5).as_deref(), Some("K"));
    assert_eq!(piece_at(&alice, Square::E1), None);

    // Her queen captures like a king: only next to it.
    let mut far = game("4k3/3p4/8/8/8/8/8/3QK3 w - - 0 1", BOOK, ORTHODOX);
    play(&mut far, "d1d7");
    assert_eq!(last_log(&far), "White's queen on d1 tried to capture Black's pawn on d7: no capture.");
    let mut near = game("4k3/8/8/8/8/8/3p4/3QK3 w - - 0 1", BOOK, ORTHODOX);
    play(&mut near, "d1d2");
    assert_eq!(last_log(&near), "White's queen on d1 tried to capture Black's pawn on d2: captured.");

    // Her knight captures like a queen, along a diagonal.
    let mut knight = game("4k2r/8/8/8/8/8/1N6/4K3 w - - 0 1", BOOK, ORTHODOX);
    play(&mut knight, "b2h8");
    assert_eq!(last_log(&knight), "White's knight on b2 tried to capture Black's rook on h8: captured.");
}

/// Play: "If your opponent says the move is legal, perform the capture as
/// normal." The referee answers from the assigned capture.
#[test]
fn a_capture_succeeds_or_fails_by_the_assigned_capture() {
    // White's knights capture like queens (the book's assignment).
    let fen = "4k3/3p4/4p3/8/3N4/8/8/4K3 w - - 0 1";
    let mut along_a_file = game(fen, BOOK, ORTHODOX);
    play(&mut along_a_file, "d4d7");
    assert_eq!(last_log(&along_a_file), "White's knight on d4 tried to capture Black's pawn on d7: captured.");
    assert_eq!(piece_at(&along_a_file, Square::D7).as_deref(), Some("N"));

    let mut a_knights_jump = game(fen, BOOK, ORTHODOX);
    play(&mut a_knights_jump, "d4e6");
    assert_eq!(
        last_log(&a_knights_jump),
        "White's knight on d4 tried to capture Black's pawn on e6: no capture.",
        "this knight has no knight's capture"
    );
    assert_eq!(piece_at(&a_knights_jump, Square::E6).as_deref(), Some("p"));

    // Both knights share their type's capture (a queen's), and both rooks theirs (a knight's).
    let fen = "4k3/8/8/6p1/8/pp5p/8/RN2K1NR w - - 0 1";
    let mut pair = game(fen, BOOK, ORTHODOX);
    play(&mut pair, "g1g5, e8e7, b1a3");
    assert_eq!(
        pair.view(Viewer::Spectator).log[0].text,
        "White's knight on g1 tried to capture Black's pawn on g5: captured."
    );
    assert_eq!(last_log(&pair), "White's knight on b1 tried to capture Black's pawn on a3: no capture.");
    let mut rooks = game(fen, BOOK, ORTHODOX);
    play(&mut rooks, "h1h3, e8e7, a1b3");
    assert_eq!(
        rooks.view(Viewer::Spectator).log[0].text,
        "White's rook on h1 tried to capture Black's pawn on h3: no capture."
    );
    assert_eq!(last_log(&rooks), "White's rook on a1 tried to capture Black's pawn on b3: captured.");
}

/// Play: "sliding captures are blocked by any piece" (docs/games/masquerade.md, "Rulings"), and a
/// capture attempt needs an enemy piece that some capture move could take:
/// an empty square or an own piece is no attempt (bad input, refused).
#[test]
fn attempts_need_an_enemy_piece_some_capture_could_reach() {
    let mut game = game("3rk3/8/3p4/8/3N4/8/8/3QK3 w - - 0 1", BOOK, ORTHODOX);
    let before = game.clone();
    assert!(offered(&game, 0, "d4d6"));
    assert!(!offered(&game, 0, "d4d8"), "d6 blocks every sliding capture to d8");
    let cases = [
        ("d4d8", "no capture move (K Q R B N) could take d8 from d4"),
        ("d4b4", "b4 is empty, so that is no capture attempt, and the knight on d4 cannot move there"),
        ("d4d1", "d1 holds your own piece"),
        ("c3c4", "there is no piece on c3"),
        ("d6d5", "the piece on d6 is Black's"),
    ];
    for (text, expected) in cases {
        let err = act_as(&mut game, 0, text).unwrap_err();
        assert!(matches!(err, RuleError::Illegal { .. }), "{text}: {err}");
        assert!(err.to_string().contains(expected), "{text}: {err}");
        assert_eq!(game, before, "{text} changed the game");
    }
    let err = act_as(&mut game, 0, "capture d6").unwrap_err();
    assert!(matches!(err, RuleError::Malformed { .. }), "{err}");
    assert_eq!(game, before);
}

/// Play: "If not, you don't move anything, and your turn is over." The
/// attempt and its answer are public, and it counts as a turn.
#[test]
fn a_failed_attempt_moves_nothing_and_ends_the_turn() {
    let mut game = game("4k3/3p4/4p3/8/3N4/8/8/4K3 w - - 7 12", BOOK, ORTHODOX);
    let board = game.position_now().board().clone();
    play(&mut game, "d4e6");
    assert_eq!(game.position_now().board(), &board, "nothing moved");
    assert_eq!(game.to_act(), ToAct::one(1), "White's turn is over");
    assert_eq!(
        game.view(Viewer::Seat(1)).log.last().unwrap().text,
        "White's knight on d4 tried to capture Black's pawn on e6: no capture.",
        "Black hears the answer"
    );
    assert_eq!(game.view(Viewer::Spectator).last_move, vec!["d4", "e6"]);
    let position = game.position();
    assert!(position.starts_with("4k3/3p4/4p3/8/3N4/8/8/4K3 b - - 8 12"), "{position}");
    assert!(position.contains("white attempts: Nd4xe6 [N] no"), "{position}");
}

/// Play: "Remember that pawns always capture with their standard capture
/// moves", en passant included; a pawn's attempt teaches nothing.
#[test]
fn pawns_capture_as_usual_including_en_passant() {
    // Whatever the assignment, pawns capture diagonally forward.
    let mut game = game("4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1", BOOK, "KQ QK RB BR NN");
    play(&mut game, "d7d5");
    assert!(offered(&game, 0, "e5d6"));
    play(&mut game, "e5d6");
    assert_eq!(
        last_log(&game),
        "White's pawn on e5 tried to capture Black's pawn on d5 en passant: captured, the pawn moving to d6."
    );
    assert_eq!(piece_at(&game, Square::D5), None, "the pawn taken en passant is gone");
    assert_eq!(piece_at(&game, Square::D6).as_deref(), Some("P"));
    assert!(game.position().contains("white attempts: -"), "pawn attempts teach nothing");

    // A pawn does not capture straight ahead, nor further than one square.
    let mut blocked = self::game("4k3/8/8/8/4p3/4P3/8/4K3 w - - 0 1", ORTHODOX, ORTHODOX);
    let err = act_as(&mut blocked, 0, "e3e4").unwrap_err();
    assert!(err.to_string().contains("a pawn captures one square diagonally forward"), "{err}");

    // The en passant square is written in the position while it may be used.
    let mut ep = self::game("4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1", ORTHODOX, ORTHODOX);
    play(&mut ep, "d7d5");
    assert!(ep.position().starts_with("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2"), "{}", ep.position());
}

/// Setup: "a promoted pawn takes its new type's capture" (docs/games/masquerade.md, "Rulings").
#[test]
fn a_promoted_pawn_takes_its_new_types_capture() {
    // White's queens capture like kings, knights like queens.
    let fen = "r3k3/1P6/8/8/8/8/8/1n2K3 w - - 0 1";
    let mut game = game(fen, BOOK, ORTHODOX);
    play(&mut game, "b7b8q, e8e7, b8b1");
    assert_eq!(
        last_log(&game),
        "White's queen on b8 tried to capture Black's knight on b1: no capture.",
        "a new queen captures like a king, not along the file"
    );
    assert_eq!(piece_at(&game, Square::B1).as_deref(), Some("n"));

    // A capture with promotion: the new knight captures like a queen.
    let mut knight = self::game(fen, BOOK, ORTHODOX);
    play(&mut knight, "b7a8n");
    assert_eq!(
        last_log(&knight),
        "White's pawn on b7 tried to capture Black's rook on a8: captured, and the pawn becomes a knight."
    );
    play(&mut knight, "e8e7, a8b6");
    assert_eq!(last_log(&knight), "Na8-b6", "it moves like a knight");
    play(&mut knight, "e7e6, b6b1");
    assert_eq!(
        last_log(&knight),
        "White's knight on b6 tried to capture Black's knight on b1: captured.",
        "and captures along the file, like a queen"
    );
    assert!(knight.position().contains("white attempts: Nb6xb1 [QR] yes"), "{}", knight.position());
}

// ----------------------------------------------------------------------
// Game End
// ----------------------------------------------------------------------

/// Game End: "The game ends when one of the players captures the other's
/// king"; "There is no stalemate between kings: one king can capture
/// another to win the game."
#[test]
fn capturing_the_king_ends_the_game() {
    let mut game = game("8/8/8/8/8/3k4/8/3K4 b - - 0 1", ORTHODOX, BOOK);
    // Black's king captures like a rook: the white king on d1 is in reach along the file.
    play(&mut game, "d3d1");
    assert_eq!(last_log(&game), "Black captured the king and wins");
    assert_eq!(game.to_act(), ToAct::Over(Outcome::win(vec![1], "king captured")));
    assert!(game.legal_actions(0).is_empty() && game.legal_actions(1).is_empty());
    let before = game.clone();
    assert_eq!(act_as(&mut game, 0, "d1d2"), Err(RuleError::GameOver));
    assert_eq!(game, before);
    // Once the game is over the assignments are shown to everyone.
    let view = game.view(Viewer::Spectator);
    assert_eq!(marks(find_table(&view, "Black's captures, revealed"), "King"), "XXOXX");
    assert_eq!(marks(find_table(&view, "White's captures, revealed"), "King"), "OXXXX");
    // A finished game's position reads back as finished.
    let again = Told::<MasqueradeGame>::from_position(&game.position(), &Options::new(), 0).unwrap();
    assert_eq!(again.to_act(), ToAct::Over(Outcome::win(vec![1], "king captured")));
    assert_eq!(again.position(), game.position());
}

/// Ruling (docs/games/masquerade.md): a side with no move and no capture
/// attempt passes; passing is refused while anything else is possible.
#[test]
fn a_side_with_nothing_to_do_passes() {
    // White's pieces are walled in by their own, and no capture move of
    // any piece reaches the black king.
    let fen = "RRBBBBBB/PPPPPPPP/PPP5/PPP5/PPP5/PPP1k3/PPP5/KB6 w - - 0 1";
    let mut game = game(fen, ORTHODOX, ORTHODOX);
    assert_eq!(game.legal_actions(0), vec![MasqueradeAction::Pass]);
    assert_eq!(game.view(Viewer::Seat(0)).prompt.unwrap(), "White has no move and no capture attempt, and must pass");
    play(&mut game, "pass");
    assert_eq!(last_log(&game), "White has no move and passes");
    assert_eq!(game.to_act(), ToAct::one(1));
    assert!(game.position().starts_with(&fen.replace(" w - - 0 1", " b - - 1 1")), "{}", game.position());
    let before = game.clone();
    let err = act_as(&mut game, 1, "pass").unwrap_err();
    assert!(err.to_string().contains("only with no move and no capture attempt"), "{err}");
    assert_eq!(game, before);
}

/// Ruling: the fifty-move rule of regular chess ends a game with no
/// progress; failed attempts and passes count as turns.
#[test]
fn the_fifty_move_rule_counts_failed_attempts() {
    let mut game = game("4k3/3p4/4p3/8/3N4/8/8/4K3 w - - 99 80", BOOK, ORTHODOX);
    play(&mut game, "d4e6");
    assert_eq!(game.to_act(), ToAct::Over(Outcome::draw("fifty-move rule")));

    let mut progress = self::game("4k3/3p4/4p3/8/3N4/8/8/4K3 w - - 99 80", BOOK, ORTHODOX);
    play(&mut progress, "d4d7");
    assert!(!progress.to_act().is_over(), "a capture resets the count");
}

// ----------------------------------------------------------------------
// The knowledge table
// ----------------------------------------------------------------------

/// Play, "record what you learned in your table by writing X's for
/// combinations that you know are impossible": a success at a square
/// several capture moves could reach rules out only those that could not
/// have made it.
#[test]
fn knowledge_after_a_success_rules_out_the_captures_that_could_not_have_made_it() {
    // d4xd7 is a queen's or a rook's capture; White's knights capture like queens.
    let mut game = game("4k3/3p4/4p3/8/3N4/8/8/4K3 w - - 0 1", BOOK, ORTHODOX);
    play(&mut game, "d4d7");
    let view = game.view(Viewer::Seat(0));
    let table = find_table(&view, "White: your pieces' captures");
    assert_eq!(table.columns, vec!["piece", "K", "Q", "R", "B", "N", "combo"]);
    assert_eq!(marks(table, "Knight"), "X..XX");
    assert_eq!(marks(table, "King"), ".....", "the other rows may still have Q or R");
    assert_eq!(table.rows[4][6], "N?");
    assert!(view.notes.iter().any(|n| n.starts_with("48 of the 120")), "{:?}", view.notes);
}

/// Play: a failure rules out every capture move that could have made it.
#[test]
fn knowledge_after_a_failure_rules_out_every_capture_that_could_have_made_it() {
    // White's queen captures like a king: d1xd7 (queen's or rook's) fails.
    let mut game = game("4k3/3p4/8/8/8/8/8/3QK3 w - - 0 1", BOOK, ORTHODOX);
    play(&mut game, "d1d7");
    let view = game.view(Viewer::Seat(0));
    let table = find_table(&view, "White: your pieces' captures");
    assert_eq!(marks(table, "Queen"), ".XX..");
    assert_eq!(marks(table, "King"), ".....");
    assert!(view.notes.iter().any(|n| n.starts_with("72 of the 120")), "{:?}", view.notes);
}

/// Setup, "Each row must have one circle and each column must have one
/// circle": the table carries the deductions the permutation forces. Here
/// the king gets its O without ever attempting a capture.
#[test]
fn the_permutation_forces_an_o() {
    let text = "4k3/8/8/8/8/8/8/4K3 w - - 0 30\n\
                white captures: KR QK RN BB NQ\n\
                black captures: KK QQ RR BB NN\n\
                white attempts: Qd1xd7 [QR] no, Ra1xa7 [QR] no, Bc1xc7 [QR] no, Nb1xb7 [QR] yes";
    let mut game = Told::<MasqueradeGame>::from_position(text, &Options::new(), 0).unwrap();
    // Queen, rook and bishop have neither the queen's nor the rook's
    // capture, so king and knight share those two: the king has X's it
    // never tried.
    let view = game.view(Viewer::Seat(0));
    let table = find_table(&view, "White: your pieces' captures");
    assert_eq!(marks(table, "King"), "X..XX");
    assert_eq!(marks(table, "Knight"), "X..XX");
    assert_eq!(marks(table, "Queen"), ".XX..");

    // A diagonal success settles the knight as a queen, and so the king as a rook.
    game.attempts[0].push("Nb1xh7 [QB] yes".parse().unwrap());
    let view = game.view(Viewer::Seat(0));
    let table = find_table(&view, "White: your pieces' captures");
    assert_eq!(marks(table, "Knight"), "XOXXX");
    assert_eq!(marks(table, "King"), "XXOXX");
    assert_eq!(table.rows[0][6], "KR");
    assert_eq!(table.rows[4][6], "NQ");
    assert_eq!(marks(table, "Rook"), ".XX..");
    assert!(view.notes.iter().any(|n| n.starts_with("6 of the 120")), "{:?}", view.notes);

    // Four X's in a row force the O of the fifth column, and X's below it.
    let knowledge =
        Knowledge::from_observations(&["Ke1xe2 [KQR] no".parse().unwrap(), "Ke1xa5 [QB] no".parse().unwrap()]);
    assert_eq!(marks_of(&knowledge, Role::King), "XXXXO");
    for piece in [Role::Queen, Role::Rook, Role::Bishop, Role::Knight] {
        assert_eq!(knowledge.mark(piece, Role::Knight), Mark::X);
    }
    assert_eq!(knowledge.consistent().len(), 24);
}

/// Each player's table is theirs: the opponent sees their own table and
/// the table they assigned, spectators see no table at all.
#[test]
fn each_player_sees_only_their_own_tables() {
    let mut game = game("4k3/3p4/8/8/8/8/8/3QK3 w - - 0 1", BOOK, ORTHODOX);
    play(&mut game, "d1d7");
    let black = game.view(Viewer::Seat(1));
    let titles: Vec<&str> = black.tables.iter().map(|t| t.title.as_str()).collect();
    assert_eq!(titles, vec!["Black: your pieces' captures, as far as you know", "White's captures: your assignment"]);
    assert_eq!(marks(&black.tables[0], "Queen"), ".....", "White's attempt teaches Black nothing about Black");
    assert_eq!(marks(&black.tables[1], "Queen"), "OXXXX");
    let spectator = game.view(Viewer::Spectator);
    assert!(spectator.tables.is_empty() && spectator.notes.is_empty());
    assert_eq!(
        spectator.log.last().unwrap().text,
        "White's queen on d1 tried to capture Black's pawn on d7: no capture.",
        "the attempt and its answer are public"
    );
}

/// The secret stays secret: two games that differ only in Black's secret
/// (the captures Black gave White's pieces) look the same to White and to
/// spectators until a capture attempt gets different answers.
#[test]
fn games_differing_in_one_secret_look_alike_until_an_attempt_differs() {
    let start = |white_captures: &str| {
        let mut game = Told::<MasqueradeGame>::new(&Options::new(), 0).unwrap();
        act_as(&mut game, 0, &format!("assign {ORTHODOX}")).unwrap();
        act_as(&mut game, 1, &format!("assign {white_captures}")).unwrap();
        game
    };
    // White's knights capture like queens in one game, like rooks in the other.
    let mut queens = start(BOOK);
    let mut rooks = start("KQ QK RN BB NR");
    let same = |a: &Told<MasqueradeGame>, b: &Told<MasqueradeGame>| {
        a.view(Viewer::Seat(0)) == b.view(Viewer::Seat(0)) && a.view(Viewer::Spectator) == b.view(Viewer::Spectator)
    };
    assert!(same(&queens, &rooks));
    // Moves, an attempt both answer "no" (Nd5xc7, a knight's jump), one
    // both answer "yes" (Nd5xd7, along the file) and Black's reply.
    for text in ["b1c3", "e7e5", "c3d5", "a7a6", "d5c7", "h7h6", "d5d7", "e8d7", "g1f3", "a6a5"] {
        play(&mut queens, text);
        play(&mut rooks, text);
        assert!(same(&queens, &rooks), "after {text}");
    }
    assert_ne!(queens.view(Viewer::Seat(1)), rooks.view(Viewer::Seat(1)), "Black knows what Black assigned");
    // A diagonal attempt: a queen's capture, not a rook's.
    play(&mut queens, "f3b7");
    play(&mut rooks, "f3b7");
    assert_eq!(last_log(&queens), "White's knight on f3 tried to capture Black's pawn on b7: captured.");
    assert_eq!(last_log(&rooks), "White's knight on f3 tried to capture Black's pawn on b7: no capture.");
    assert_ne!(queens.view(Viewer::Seat(0)), rooks.view(Viewer::Seat(0)));
}

// ----------------------------------------------------------------------
// Positions, hidden information, actions
// ----------------------------------------------------------------------

/// docs/games/masquerade.md "Positions": the FEN, both assignments and each
/// side's answered attempts; `position()` writes what `from_position` reads.
#[test]
fn positions_round_trip() {
    let mut game = game("4k3/3p4/4p3/8/5N2/8/8/3QK3 w - - 0 1", BOOK, "KN QB RR BQ NK");
    play(&mut game, "f4e6, e8f7, d1d7");
    let text = game.position();
    let expected = "8/3p1k2/4p3/8/5N2/8/8/3QK3 b - - 3 2\n\
                    white captures: KR QK RN BB NQ\n\
                    black captures: KN QB RR BQ NK\n\
                    white attempts: Nf4xe6 [N] no, Qd1xd7 [QR] no\n\
                    black attempts: -";
    assert_eq!(text, expected);
    let again = Told::<MasqueradeGame>::from_position(&text, &Options::new(), 0).unwrap();
    assert_eq!(again.position(), text);
    assert_eq!(again.view(Viewer::Seat(0)).tables, game.view(Viewer::Seat(0)).tables);
    assert_eq!(again.to_act(), ToAct::one(1));

    // A position in the middle of the setup: Black has still to assign White's captures.
    let setup = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\nblack captures: KK QQ RR BB NN";
    let game = Told::<MasqueradeGame>::from_position(setup, &Options::new(), 0).unwrap();
    assert_eq!(game.to_act(), ToAct::Seats(vec![1]));
    assert!(game.position().contains("white captures: -\nblack captures: KK QQ RR BB NN"));
    // A bare FEN starts with both assignments to make.
    let fresh = Told::<MasqueradeGame>::from_position("4k3/8/8/8/8/8/8/4K3 w - - 0 1", &Options::new(), 0).unwrap();
    assert_eq!(fresh.to_act(), ToAct::Seats(vec![0, 1]));
}

/// Bad positions are refused with the reason.
#[test]
fn bad_positions_are_refused() {
    let fen = "4k3/8/8/8/8/8/8/4K3 w - - 0 1";
    let cases = [
        (format!("{fen}\nwhite captures: KR QR RN BB NQ"), "capture R is given to both K and Q"),
        (format!("{fen}\nwhite captures: {BOOK}\nwhite attempts: Nb1xb7 [QR] no"), "contradicts white captures"),
        (format!("{fen}\nwhite attempts: Nb1xb7 [QR] no"), "need white captures"),
        (format!("{fen}\nwhite captures: {BOOK}\nwhite attempts: Pb1xb7 [QR] no"), "only pieces above pawns"),
        (format!("{fen}\nwhite captures: {BOOK}\nwhite attempts: Nb1xb7 [] no"), "at least one capture move"),
        (format!("{fen}\nwhite captures: {BOOK}\nwhite attempts: Nb1xb7 [QR] maybe"), "the answer is yes or no"),
        (format!("{fen}\nwhite captures: {BOOK}\nwhite captures: {BOOK}"), "given twice"),
        (format!("{fen}\nred captures: {BOOK}"), "unknown key"),
        (format!("{fen}\nwhite captures"), "expected a `key: value` line"),
        ("4k3/8/8/8/8/8/8/3KK3 w - - 0 1".to_string(), "White has 2 kings"),
        ("8/8/8/8/8/8/8/8 w - - 0 1".to_string(), "both kings are missing"),
        ("4k3/8/8/8/8/8/8/3K3R w K - 0 1".to_string(), "castling needs the king on the e-file"),
        ("4k3/8/8/8/8/8/8/4K{z}3 w - - 0 1".to_string(), "no {...} markers"),
        (String::new(), "empty position"),
    ];
    for (text, expected) in cases {
        let err = Told::<MasqueradeGame>::from_position(&text, &Options::new(), 0).unwrap_err();
        assert!(err.to_string().contains(expected), "{text:?}: {err}");
    }
}

/// Hidden information: a player does not know their own pieces' captures,
/// so `sample_hidden` draws them again among the assignments that fit the
/// player's answers; the captures the player assigned stay.
#[test]
fn sample_hidden_redraws_only_what_the_seat_cannot_know() {
    let mut game = game("4k3/3p4/4p3/8/3N4/8/8/3QK3 w - - 0 1", BOOK, "KN QB RR BQ NK");
    play(&mut game, "d4d7");
    let fitting = game.knowledge(0);
    assert_eq!(fitting.consistent().len(), 48);
    let mut drawn = std::collections::HashSet::new();
    for seed in 0..40 {
        let sample = game.sample_hidden(0, &mut GameRng::from_seed(seed));
        let captures = sample.captures_of(0).unwrap();
        assert!(fitting.consistent().contains(&captures), "{captures} does not fit White's answers");
        assert_eq!(sample.captures_of(1), game.captures_of(1), "White assigned Black's captures");
        assert_eq!(sample.view(Viewer::Seat(0)), game.view(Viewer::Seat(0)));
        assert_eq!(sample.view(Viewer::Spectator), game.view(Viewer::Spectator));
        drawn.insert(captures);
    }
    assert!(drawn.len() > 10, "the draw varies: {} different", drawn.len());

    // Black's sample keeps White's captures (Black assigned them) and redraws Black's.
    let sample = game.sample_hidden(1, &mut GameRng::from_seed(3));
    assert_eq!(sample.captures_of(0), game.captures_of(0));
    assert_eq!(sample.view(Viewer::Seat(1)), game.view(Viewer::Seat(1)));
}

/// The moves the opponent did not make: Black, who assigned White's
/// captures, left the king on e8 a knight's move from White's knight. Had
/// White's knights the knight's capture, Black would have lost at once, so
/// White's draws give them it far less often than before Black's move.
#[test]
fn sample_hidden_weighs_a_king_the_opponent_left_in_reach() {
    let mut game = game("4k3/p7/3N4/8/8/8/8/K7 b - - 0 1", BOOK, "KN QB RR BQ NK");
    let knights_capture_as_knights = |game: &Told<MasqueradeGame>| {
        let draws = 400;
        let hits = (0..draws)
            .filter(|&seed| {
                let captures = game.sample_hidden(0, &mut GameRng::from_seed(seed)).captures_of(0).unwrap();
                captures.capture_of(Role::Knight) == Role::Knight
            })
            .count();
        hits as f64 / draws as f64
    };
    let before = knights_capture_as_knights(&game);
    assert!((0.12..0.28).contains(&before), "one assignment in five gives the knights their own capture: {before}");
    play(&mut game, "a7a6");
    let after = knights_capture_as_knights(&game);
    assert!(after < 0.08, "after Black left the king in reach: {after}");
}

/// A king left in reach is read from the board alone: two games that
/// differ only in White's captures (Black's secret) draw the same worlds
/// for White.
#[test]
fn a_king_left_in_reach_does_not_depend_on_the_secret_captures() {
    let draws = |white: &str| {
        let mut game = game("4k3/p7/3N4/8/8/8/8/K7 b - - 0 1", white, "KN QB RR BQ NK");
        play(&mut game, "a7a6");
        (0..30).map(|seed| game.sample_hidden(0, &mut GameRng::from_seed(seed)).captures_of(0)).collect::<Vec<_>>()
    };
    assert_eq!(draws(BOOK), draws(ORTHODOX));
}

/// Which capture moves of a side's pieces would take the enemy king, by
/// piece type, read from the board.
#[test]
fn a_king_in_reach_is_read_by_piece_type() {
    let pos = game("4k3/8/3N4/8/8/8/8/4K3 w - - 0 1", BOOK, BOOK).position_now().clone();
    let reach = KingInReach::of(&pos, Color::White);
    // The knight on d6 takes e8 with the knight's capture; the king on e1
    // with the queen's or the rook's, up the open e-file.
    let orthodox: Assignment = ORTHODOX.parse().unwrap();
    assert!(reach.open_with(&orthodox), "the knight's own capture takes the king");
    let none: Assignment = "KB QN RK BQ NR".parse().unwrap();
    assert!(!reach.open_with(&none), "no piece has a capture that reaches e8");
    let king_as_rook: Assignment = "KR QN RK BQ NB".parse().unwrap();
    assert!(reach.open_with(&king_as_rook), "the king with the rook's capture takes e8");
    let black = KingInReach::of(&pos, Color::Black);
    assert!(!black.open_with(&orthodox), "a king's own capture does not reach e1 from e8");
    assert!(black.open_with(&king_as_rook), "Black's king with the rook's capture takes e1 down the e-file");
    let bare = game("4k3/8/8/8/8/8/8/K7 w - - 0 1", BOOK, BOOK).position_now().clone();
    assert!(KingInReach::of(&bare, Color::White).is_empty(), "no capture move reaches e8 from a1");
}

/// Hidden information during the setup: an assignment already made must
/// not show to the other player, so it is redrawn in their samples.
#[test]
fn sample_hidden_during_the_setup_redraws_a_submitted_opponent_assignment() {
    let mut game = Told::<MasqueradeGame>::new(&Options::new(), 0).unwrap();
    act_as(&mut game, 0, &format!("assign {BOOK}")).unwrap();
    let drawn: std::collections::HashSet<_> =
        (0..20).map(|seed| game.sample_hidden(1, &mut GameRng::from_seed(seed)).captures_of(1).unwrap()).collect();
    assert!(drawn.len() > 5, "Black's captures, assigned by White, are redrawn for Black");
    for seed in 0..5 {
        let sample = game.sample_hidden(1, &mut GameRng::from_seed(seed));
        assert_eq!(sample.captures_of(0), None, "Black has not assigned yet");
        assert_eq!(sample.view(Viewer::Seat(1)), game.view(Viewer::Seat(1)));
        let white = game.sample_hidden(0, &mut GameRng::from_seed(seed));
        assert_eq!(white.captures_of(1), game.captures_of(1), "White knows what White assigned");
    }
}

/// Actions: moves and attempts carry their squares for dragging; an
/// assignment is a labelled text action.
#[test]
fn actions_carry_their_geometry_and_labels() {
    let mut session = Session::<MasqueradeGame>::start(Options::new(), 0, None).unwrap();
    let setup = session.view(Viewer::Seat(0));
    assert_eq!(setup.actions.len(), 120);
    let first = &setup.actions[0];
    assert_eq!(first.text, "assign KK QQ RR BB NN");
    assert_eq!(first.label.as_deref(), Some("Your opponent's king captures like a king, queen like a queen, rook like a rook, bishop like a bishop, knight like a knight"));
    assert_eq!(session.apply(0, "assign kk qq rr bb nn").unwrap(), "assign KK QQ RR BB NN");
    assert_eq!(session.apply(1, &format!("assign {BOOK}")).unwrap(), format!("assign {BOOK}"));
    let view = session.view(Viewer::Seat(0));
    let knight = view.actions.iter().find(|a| a.text == "b1c3").unwrap();
    assert_eq!((knight.from.as_deref(), knight.to.as_deref()), (Some("b1"), Some("c3")));
    assert_eq!(MasqueradeAction::Pass.info().label.as_deref(), Some("Pass (no move and no capture attempt)"));
    assert!(view.prompt.unwrap().starts_with("White to move"));
    let spectator = session.view(Viewer::Spectator);
    let log: Vec<&str> = spectator.log.iter().map(|e| e.text.as_str()).collect();
    assert_eq!(log, vec!["White has assigned Black's captures", "Black has assigned White's captures"]);
}

/// "each of the five piece types K Q R B N is given the capture move of one
/// piece type" (docs/games/masquerade.md, Setup): every offered
/// assignment declares its pairs in its pick (the browser draws them as a
/// picture and never reads the text), and the pick says what the text says.
#[test]
fn each_piece_type_is_given_the_capture_move_of_one_piece_type_in_the_pick_as_in_the_text() {
    let session = Session::<MasqueradeGame>::start(Options::new(), 0, None).unwrap();
    let setup = session.view(Viewer::Seat(0));
    for action in &setup.actions {
        let Some(chesskit_core::view::Pick::Assignment { pieces, captures }) = &action.pick else {
            panic!("{} has no assignment pick", action.text);
        };
        let pairs: Vec<String> = pieces.chars().zip(captures.chars()).map(|(p, c)| format!("{p}{c}")).collect();
        assert_eq!(action.text, format!("assign {}", pairs.join(" ")));
    }
    let pass = MasqueradeAction::Pass.info();
    assert_eq!(pass.pick, None, "passing is a plain button");
}

/// docs/games/masquerade.md: the example position of "Positions" reads and
/// is written back unchanged.
#[test]
fn the_documented_example_position_reads_back() {
    let doc = include_str!("../../../../docs/games/masquerade.md");
    let section = &doc[doc.find("## Positions").expect("a Positions section")..];
    let example: Vec<&str> =
        section.lines().skip_while(|l| !l.starts_with("    ")).take_while(|l| l.starts_with("    ")).collect();
    let text = example.iter().map(|l| l.trim()).collect::<Vec<_>>().join("\n");
    let game = Told::<MasqueradeGame>::from_position(&text, &Options::new(), 0).unwrap();
    assert_eq!(game.position(), text);
    assert_eq!(marks(find_table(&game.view(Viewer::Seat(0)), "White: your"), "Knight"), "....X");
}

/// Promotion (docs/games/masquerade.md): a pawn reaching the last rank
/// must name its new piece.
#[test]
fn a_promotion_must_name_the_new_piece() {
    let mut game = game("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", ORTHODOX, ORTHODOX);
    let before = game.clone();
    let err = act_as(&mut game, 0, "b7b8").unwrap_err();
    assert!(err.to_string().contains("must promote: add q, r, b or n"), "{err}");
    assert_eq!(game, before);
    play(&mut game, "b7b8r");
    assert_eq!(last_log(&game), "b7-b8=R");
}

/// Export: the PGN has a move per turn, a null move for a failed attempt,
/// the answers as comments, and both secret assignments as tags.
#[test]
fn pgn_shows_attempts_their_answers_and_the_assignments() {
    let mut game = Told::<MasqueradeGame>::new(&Options::new(), 0).unwrap();
    act_as(&mut game, 0, &format!("assign {ORTHODOX}")).unwrap();
    act_as(&mut game, 1, &format!("assign {BOOK}")).unwrap();
    // White's queen captures like a king (Black's assignment, the book's), so Qh5xf7 fails.
    play(&mut game, "e2e4, d7d5, e4d5, d8d5, b1c3, d5c4, d1h5, a7a6, h5f7");
    let pgn = game.pgn().unwrap();
    assert!(pgn.contains(&format!("[WhiteCaptures \"{BOOK}\"]\n[BlackCaptures \"{ORTHODOX}\"]")), "{pgn}");
    let movetext = pgn.split("\n\n").nth(1).unwrap().replace('\n', " ");
    let expected = "{White has assigned Black's captures} {Black has assigned White's captures} 1. e2-e4 d7-d5 \
                    2. e4xd5 {White's pawn on e4 tried to capture Black's pawn on d5: captured.} \
                    2... Qd8xd5 {Black's queen on d8 tried to capture White's pawn on d5: captured.} \
                    3. Nb1-c3 Qd5-c4 4. Qd1-h5 a7-a6 \
                    5. -- {White's queen on h5 tried to capture Black's pawn on f7: no capture.} *";
    assert_eq!(movetext.trim(), expected);
}

// ----------------------------------------------------------------------
// Issue 8: SAN, prompts, the attempt in words
// ----------------------------------------------------------------------

/// docs/protocol.md: "SAN such as Nf3 is accepted in chess games and
/// answered as g1f3". In Masquerade SAN names a move without capturing or a
/// capture attempt ("Point to the piece you want to move, then to the piece
/// you want to capture"), among those on offer.
#[test]
fn san_names_moves_and_capture_attempts_and_is_answered_in_uci() {
    let mut session = Session::<MasqueradeGame>::start(Options::new(), 0, None).unwrap();
    session.apply(0, &format!("assign {ORTHODOX}")).unwrap();
    session.apply(1, &format!("assign {BOOK}")).unwrap();
    assert_eq!(session.apply(0, "Nf3").unwrap(), "g1f3");
    assert_eq!(session.apply(1, "e5").unwrap(), "e7e5");
    assert_eq!(session.apply(0, "e4").unwrap(), "e2e4");
    assert_eq!(session.apply(1, "d5").unwrap(), "d7d5");
    // An attempt, with or without the capture sign (the target tells).
    assert_eq!(session.apply(0, "exd5").unwrap(), "e4d5");
    assert_eq!(session.apply(1, "Qd8xd5").unwrap(), "d8d5");
    // A knight attempting what only a rook could capture is still an attempt.
    assert_eq!(session.apply(0, "Nf3e5+").unwrap(), "f3e5");
    let mut game = game("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", ORTHODOX, ORTHODOX);
    assert_eq!(game.parse_action(0, "O-O").unwrap().to_string(), "e1g1");
    assert_eq!(game.parse_action(0, "0-0-0").unwrap().to_string(), "e1c1");
    // Black to move may not use White's pieces, nor act out of turn.
    assert_eq!(game.parse_action(1, "Ra2"), Err(RuleError::NotYourTurn { seat: 1 }));
    play(&mut game, "Ra2");
    assert_eq!(piece_at(&game, Square::A2).as_deref(), Some("R"));
    // En passant and promotion, as in chess.
    let mut pawns = self::game("4k3/1P1p4/8/4P3/8/8/8/4K3 b - - 0 1", BOOK, ORTHODOX);
    play(&mut pawns, "d5");
    assert_eq!(pawns.parse_action(0, "exd6").unwrap().to_string(), "e5d6");
    assert_eq!(pawns.parse_action(0, "b8=N").unwrap().to_string(), "b7b8n");
    assert!(pawns.parse_action(0, "b8").unwrap_err().to_string().contains("no pawn of yours can move to b8"));
}

#[test]
fn san_that_fits_no_move_or_several_is_refused_with_the_reason() {
    // Two knights could each attempt d5: the text must say which.
    let mut game = game("4k3/8/8/3p4/8/2N2N2/8/4K3 w - - 0 1", ORTHODOX, ORTHODOX);
    let before = game.clone();
    let refuse = |game: &mut Told<MasqueradeGame>, text: &str| {
        let err = act_as(game, 0, text).expect_err(text).to_string();
        assert_eq!(*game, before, "{text} changed the game");
        err
    };
    let err = refuse(&mut game, "Nxd5");
    assert!(err.contains("ambiguous: your knights on c3 and f3 could each do it"), "{err}");
    assert_eq!(game.parse_action(0, "Ncxd5").unwrap().to_string(), "c3d5");
    assert!(refuse(&mut game, "N3xd5").contains("ambiguous"), "both knights stand on the third rank");
    assert!(refuse(&mut game, "Nxe4").contains("no enemy piece on e4 to capture"));
    assert!(refuse(&mut game, "Qd4").contains("you have no queen"));
    assert!(refuse(&mut game, "Kxd5").contains("no king of yours could attempt a capture on d5"));
    assert!(refuse(&mut game, "Kxa8").contains("no king of yours can move to a8"));
    assert!(refuse(&mut game, "Nxd9").contains("SAN (Nf3, Nxc3)"), "unreadable text names both notations");
    assert!(refuse(&mut game, "O-O").contains("cannot castle king side"));
    // During the setup SAN names nothing yet.
    let mut setup = Told::<MasqueradeGame>::new(&Options::new(), 0).unwrap();
    assert!(act_as(&mut setup, 0, "Nf3").unwrap_err().to_string().contains("first both players assign"));
}

/// Play: "ask your opponent, 'Capture?' If yes, you make the capture as
/// normal. If not, you don't move anything, and your turn is over." The
/// question and the answer are said aloud: the log says them in a sentence.
#[test]
fn an_attempt_and_its_answer_are_logged_as_a_sentence_naming_the_squares() {
    let mut failed = game("4k3/3p4/4p3/8/3N4/8/8/4K3 w - - 0 1", BOOK, ORTHODOX);
    play(&mut failed, "d4e6");
    for viewer in [Viewer::Seat(0), Viewer::Seat(1), Viewer::Spectator] {
        assert_eq!(
            failed.view(viewer).log.last().unwrap().text,
            "White's knight on d4 tried to capture Black's pawn on e6: no capture."
        );
    }
    let mut made = game("4k3/3p4/4p3/8/3N4/8/8/4K3 w - - 0 1", BOOK, ORTHODOX);
    play(&mut made, "d4d7");
    assert_eq!(last_log(&made), "White's knight on d4 tried to capture Black's pawn on d7: captured.");
}

/// Ruling (docs/games/masquerade.md): "The setup is secret and simultaneous"; that a player has
/// finished is public, so a spectator's prompt says who is still assigning.
#[test]
fn a_spectators_prompt_names_who_is_still_assigning() {
    let mut game = Told::<MasqueradeGame>::new(&Options::new(), 0).unwrap();
    let prompt = |game: &Told<MasqueradeGame>, viewer| game.view(viewer).prompt.unwrap();
    assert_eq!(
        prompt(&game, Viewer::Spectator),
        "White and Black are both assigning each other's captures, in secret."
    );
    act_as(&mut game, 1, &format!("assign {BOOK}")).unwrap();
    assert_eq!(
        prompt(&game, Viewer::Spectator),
        "Black has assigned White's captures; White is still assigning Black's, in secret."
    );
    assert_eq!(prompt(&game, Viewer::Seat(1)), "Waiting for White to assign your captures.");
    assert!(prompt(&game, Viewer::Seat(0)).starts_with("Assign Black's captures in secret"));
    let mut other = Told::<MasqueradeGame>::new(&Options::new(), 0).unwrap();
    act_as(&mut other, 0, &format!("assign {ORTHODOX}")).unwrap();
    assert_eq!(
        prompt(&other, Viewer::Spectator),
        "White has assigned Black's captures; Black is still assigning White's, in secret."
    );
}

#[test]
fn prompts_and_labels_are_in_plain_words() {
    let command = |text: &str| {
        text.split(|c: char| !c.is_ascii_alphanumeric()).any(|w| {
            let pair = |w: &str| w.len() == 2 && w.chars().all(|c| "KQRBN".contains(c));
            pair(w) || (w.len() >= 4 && chesskit_core::chess::notation::parse_uci_parts(w).is_some())
        })
    };
    assert!(command("assign KR QK RN BB NQ") && command("e.g. e2e4"));
    let mut game = Told::<MasqueradeGame>::new(&Options::new(), 0).unwrap();
    let mut rng = GameRng::from_seed(5);
    for _ in 0..60 {
        if game.to_act().is_over() {
            break;
        }
        for viewer in [Viewer::Seat(0), Viewer::Seat(1), Viewer::Spectator] {
            let prompt = game.view(viewer).prompt.unwrap();
            assert!(!command(&prompt), "{viewer}: {prompt}");
        }
        let seat = game.to_act().seats()[0];
        for action in game.legal_actions(seat) {
            if let Some(label) = action.info().label {
                assert!(!command(&label), "{label}");
            }
        }
        let actions = game.legal_actions(seat);
        let action = *rng.choose(&actions).unwrap();
        game.apply(seat, &action).unwrap();
    }
}

/// "Players each draw two copies of this table": the book's table has a
/// row per piece type, a column per capture, and "the combo column ...
/// with the move and capture letters together". The view draws the capture
/// headers and the combo letters as pieces of the table's side.
#[test]
fn players_each_draw_two_copies_of_this_table_drawn_with_pieces_in_the_combo_column() {
    use chesskit_core::view::TableDrawing;
    let game = game("4k3/3p4/4p3/8/3N4/8/8/4K3 w - - 0 1", BOOK, ORTHODOX);
    let drawing = |colour: &str| TableDrawing::Pieces {
        columns: vec![6],
        headers: vec![1, 2, 3, 4, 5],
        colour: Some(colour.to_string()),
    };
    let black_view = game.view(Viewer::Seat(1));
    let own = find_table(&black_view, "Black: your pieces' captures");
    assert_eq!(own.drawn_as, Some(drawing("black")), "Black's own pieces, in black");
    let assigned = find_table(&black_view, "White's captures: your assignment");
    assert_eq!(assigned.drawn_as, Some(drawing("white")), "the opponent's pieces, in white");
    assert_eq!(assigned.rows[0][6], "KR", "the text keeps the combo letters");
}

/// The computer's transposition key (`Game::position_hash`) covers what the
/// rules read: the secret capture assignments (a search runs on a drawn
/// world) and the answered attempts the knowledge tables come from.
#[test]
fn the_zobrist_key_is_the_same_for_a_transposition_and_differs_for_any_change_the_rules_read() {
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let mut one = game(start, ORTHODOX, ORTHODOX);
    let mut other = one.clone();
    play(&mut one, "g1f3, b8c6, b1c3");
    play(&mut other, "b1c3, b8c6, g1f3");
    let (one, other) = (one.game, other.game);
    let swapped = game(start, BOOK, ORTHODOX).game.captures[0];
    let attempt = Observation {
        piece: Role::Knight,
        from: Square::C3,
        to: Square::D5,
        patterns: PatternSet::default(),
        success: false,
    };
    crate::testing::assert_the_key_follows_the_state(
        &one,
        &other,
        &[
            ("a piece", crate::testing::changed(&one, |g| g.pos.board_mut().discard_piece_at(Square::A2))),
            ("White's capture assignment", crate::testing::changed(&one, |g| g.captures[0] = swapped)),
            ("an unassigned side", crate::testing::changed(&one, |g| g.captures[1] = None)),
            ("an answered attempt", crate::testing::changed(&one, |g| g.attempts[0].push(attempt))),
            ("a king left in reach", crate::testing::changed(&one, |g| g.kings_left[1].push(KingInReach::default()))),
        ],
    );
}

/// The search's questions answered without building lists agree with
/// `to_act` and `legal_actions`, and `clone_from` with a fresh clone: see
/// [`crate::testing::check_allocation_free_answers`].
#[test]
fn the_allocation_free_answers_agree_with_to_act_legal_actions_and_clone() {
    crate::testing::check_allocation_free_answers::<MasqueradeGame>(&Options::new(), 3, 60);
}
