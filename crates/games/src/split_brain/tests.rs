//! Split-Brain Chess: one test per rule clause (new-rules-2025,
//! "Split-Brain Chess", and docs/games/split-brain.md, "Rulings"), named
//! after it, the book's start position (crates/games/testdata/book-examples.md), and the move
//! generator checked against the deliberately simple one.

use chesskit_core::chess::notation::{to_uci, CastlingStyle};
use chesskit_core::chess::{Move, Position, Square};
use chesskit_core::game::{Game, RuleError, ToAct, Viewer};
use chesskit_core::options::Options;
use chesskit_core::rng::GameRng;

use super::{reference, seat_of, Side, SplitBrainAction, SplitBrainGame, Step, START_FEN};
use crate::testing::{act_as, sq, Told};

const KW: usize = 0; // king-side White
const KB: usize = 1; // king-side Black
const QW: usize = 2; // queen-side White
const QB: usize = 3; // queen-side Black

fn from(position: &str) -> Told<SplitBrainGame> {
    Told::<SplitBrainGame>::from_position(position, &Options::new(), 0).unwrap_or_else(|e| panic!("{position}: {e}"))
}

fn start() -> Told<SplitBrainGame> {
    Told::<SplitBrainGame>::new(&Options::new(), 0).unwrap()
}

fn refusal(game: &mut Told<SplitBrainGame>, seat: usize, text: &str) -> String {
    let before = game.clone();
    let err = match game.parse_action(seat, text) {
        Ok(action) => game.apply(seat, &action).expect_err(text),
        Err(err) => err,
    };
    assert_eq!(*game, before, "a refused action changed the game");
    err.to_string()
}

fn actions(game: &Told<SplitBrainGame>, seat: usize) -> Vec<String> {
    let mut list: Vec<String> = game.legal_actions(seat).iter().map(|a| a.to_string()).collect();
    list.sort();
    list
}

fn last_move(game: &Told<SplitBrainGame>) -> String {
    game.view(Viewer::Spectator).last_move.join("")
}

// ----------------------------------------------------------------------
// Setup
// ----------------------------------------------------------------------

/// The book's start (book-examples.md, "Split-Brain Chess"), rank 8 first.
const BOOK_START: [&str; 8] = [
    ". . . . . . . .",
    ". r n q k n r .",
    ". p p p p p p .",
    ". . . . . . . .",
    ". . . . . . . .",
    ". P P P P P P .",
    ". R N Q K N R .",
    ". . . . . . . .",
];

#[test]
fn setup_los_alamos_start_on_the_inner_6x6_without_bishops_book_example() {
    let game = start();
    let board = game.board_position().board();
    for (i, row) in BOOK_START.iter().enumerate() {
        let rank = 7 - i as u32;
        for (file, cell) in row.split_whitespace().enumerate() {
            let square = Square::from_coords(
                chesskit_core::chess::File::new(file as u32),
                chesskit_core::chess::Rank::new(rank),
            );
            let want = cell.chars().next().unwrap();
            let got = board.piece_at(square).map_or('.', |p| p.char());
            assert_eq!(got, want, "{square}");
        }
    }
    assert!(board.bishops().is_empty(), "the bishops are put aside");
    let view = game.view(Viewer::Spectator);
    let active = view.board.unwrap().active.unwrap();
    assert_eq!(active.len(), 36, "only the inner 6x6 is in play");
    assert!(active.contains(&"b2".to_string()) && active.contains(&"g7".to_string()));
    assert!(!active.contains(&"a1".to_string()) && !active.contains(&"h8".to_string()));
}

#[test]
fn setup_checker_in_the_black_kings_corner() {
    let game = start();
    assert_eq!(game.checker(), Side::King);
    let view = game.view(Viewer::Spectator);
    let h8 = view.board.unwrap().square("h8").cloned().expect("the checker is drawn on h8");
    assert_eq!(h8.markers[0].kind, "checker");
    assert!(game.position().contains("checker: king-side"));
}

#[test]
fn setup_four_players_two_partnerships_one_partner_on_each_side() {
    let seats = start().seats();
    let names: Vec<&str> = seats.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["King-side White", "King-side Black", "Queen-side White", "Queen-side Black"]);
    let teams: Vec<usize> = seats.iter().map(|s| s.team.unwrap()).collect();
    assert_eq!(teams, [0, 1, 0, 1]);
    let colours: Vec<&str> = seats.iter().map(|s| s.colour.as_deref().unwrap()).collect();
    assert_eq!(colours, ["white", "black", "white", "black"]);
}

// ----------------------------------------------------------------------
// Play: Los Alamos rules
// ----------------------------------------------------------------------

#[test]
fn pawns_cannot_move_two_squares_on_their_first_move() {
    let mut game = start();
    assert!(super::Choices::new(game.board_position())
        .valid_targets()
        .into_iter()
        .all(|t| t.rank() == sq("e4").rank()));
    act_as(&mut game, KW, "circle e3");
    act_as(&mut game, QW, "circle e5");
    // No white piece can reach e5 (the pawn would need a double step), so
    // the mover's circle is corrected to e4.
    assert!(game.view(Viewer::Spectator).log.iter().any(|e| e.text.contains("target circle e5 is not valid")));
    assert_eq!(last_move(&game), "e3e4");
}

#[test]
fn no_castling() {
    let err = Told::<SplitBrainGame>::from_position("8/1r2k1r1/8/8/8/8/1R2K1R1/8 w KQ - 0 1", &Options::new(), 0)
        .unwrap_err()
        .to_string();
    assert!(err.contains("castling") || err.contains("castl"), "{err}");
    let game = from("8/1r2k1r1/8/8/8/8/1R2K1R1/8 w - - 0 1");
    let moves = super::Choices::new(game.board_position());
    assert!(moves.moves().iter().all(|m| !m.is_castle()));
    assert!(!moves.valid_targets().contains(sq("g2")) || moves.pair(sq("e2"), sq("g2")).is_empty());
}

#[test]
fn pawns_cannot_promote_to_bishops() {
    let mut game = from("8/6k1/2P5/8/8/8/1K6/8 w - - 0 1");
    act_as(&mut game, KW, "circle c6");
    act_as(&mut game, QW, "circle c7");
    assert_eq!(actions(&game, QW), ["c6c7n", "c6c7q", "c6c7r"], "no bishop among the promotions");
}

#[test]
fn no_bishops_in_a_position() {
    let err = Told::<SplitBrainGame>::from_position("8/4k3/8/8/8/8/1B2K3/8 w - - 0 1", &Options::new(), 0).unwrap_err();
    assert!(err.to_string().contains("no bishops"), "{err}");
}

// ----------------------------------------------------------------------
// Play: making a move
// ----------------------------------------------------------------------

#[test]
fn the_partner_on_the_same_side_as_the_checker_is_the_chooser() {
    let game = start();
    assert_eq!(game.to_act(), ToAct::Seats(vec![KW, QW]), "the two white players circle");
    let view = game.view(Viewer::Seat(KW));
    assert!(view.prompt.unwrap().contains("chooser"));
    assert!(game.view(Viewer::Seat(QW)).prompt.unwrap().contains("mover"));
    let queen_side = from("8/1rnqknr1/1pppppp1/8/8/1PPPPPP1/1RNQKNR1/8 w - - 0 1\nchecker: queen-side");
    assert!(queen_side.view(Viewer::Seat(QW)).prompt.unwrap().contains("chooser"));
    assert!(queen_side.view(Viewer::Seat(KW)).prompt.unwrap().contains("mover"));
}

#[test]
fn both_partners_circle_at_the_same_time_in_secret() {
    let mut a = start();
    let mut b = start();
    act_as(&mut a, KW, "circle c2");
    act_as(&mut b, KW, "circle g7");
    assert_eq!(a.to_act(), ToAct::Seats(vec![QW]), "the mover still circles");
    for viewer in
        [Viewer::Seat(QW), Viewer::Seat(KB), Viewer::Seat(QB), Viewer::Spectator, Viewer::Team(0), Viewer::Team(1)]
    {
        assert_eq!(a.view(viewer), b.view(viewer), "{viewer} may not see the chooser's circle");
    }
    for seat in [QW, KB, QB] {
        assert_eq!(a.legal_actions(seat), b.legal_actions(seat));
    }
    assert_ne!(a.view(Viewer::Seat(KW)), b.view(Viewer::Seat(KW)), "the chooser sees their own circle");
    let own = a.view(Viewer::Seat(KW));
    assert!(own.board.unwrap().square("c2").unwrap().markers.iter().any(|m| m.kind == "circle"));
    assert!(own.notes[0].contains("c2"));
    // A sample for the mover redraws the hidden circle, and the mover's view does not change.
    let mut rng = GameRng::from_seed(3);
    let samples: Vec<Told<SplitBrainGame>> = (0..8).map(|_| a.sample_hidden(QW, &mut rng)).collect();
    assert!(samples.iter().any(|s| s.step() != a.step()), "the unrevealed circle is redrawn");
    assert!(samples.iter().all(|s| s.view(Viewer::Seat(QW)) == a.view(Viewer::Seat(QW))));
    assert!(samples.iter().all(|s| s.sample_hidden(KW, &mut rng).step() == s.step()), "one's own circle stays");
}

/// The seats that may speak at the table now.
fn talkers(game: &Told<SplitBrainGame>) -> Vec<usize> {
    (0..4).filter(|&seat| game.check_talk(seat).is_ok()).collect()
}

/// "They may not ... look at their partner's paper": a circle is secret,
/// and the others hear only that a square was circled, by a line flagged
/// as a secret choice.
#[test]
fn not_look_at_their_partners_paper_a_circle_is_heard_as_a_secret_choice() {
    let mut game = start();
    act_as(&mut game, KW, "circle c2");
    for viewer in [Viewer::Seat(QW), Viewer::Seat(KB), Viewer::Spectator] {
        let line = game.view(viewer).log.last().cloned().expect("a line");
        assert_eq!((line.seat, line.text.as_str(), line.secret_choice), (Some(KW), "has circled a square", true));
    }
}

/// "While writing down their moves, players must follow these rules: They
/// may not say anything or look at their partner's paper."
#[test]
fn while_writing_down_their_moves_they_may_not_say_anything() {
    let mut game = start();
    assert_eq!(talkers(&game), vec![KB, QB], "White's partners are circling");
    let reason = game.check_talk(KW).unwrap_err();
    assert!(reason.contains("may not say anything"), "{reason}");
    act_as(&mut game, KW, "circle c2");
    assert_eq!(talkers(&game), vec![KB, QB], "the chooser has circled, the mover still writes");
    act_as(&mut game, QW, "circle e4");
    assert_eq!(game.step(), Step::Keeping { piece: sq("c2"), target: sq("e4") });
    assert_eq!(talkers(&game), vec![KW, KB, QW, QB], "the grids are revealed: nobody is writing");
    act_as(&mut game, KB, "keep piece");
    assert_eq!(talkers(&game), vec![KW, QW], "now Black's partners circle");
}

#[test]
fn once_both_have_circled_they_reveal_their_grids() {
    let mut game = start();
    act_as(&mut game, QW, "circle e4");
    act_as(&mut game, KW, "circle c2");
    assert_eq!(game.step(), Step::Keeping { piece: sq("c2"), target: sq("e4") });
    let view = game.view(Viewer::Spectator);
    let board = view.board.unwrap();
    assert!(board.square("c2").unwrap().markers.iter().any(|m| m.kind == "chosen"));
    assert!(board.square("e4").unwrap().markers.iter().any(|m| m.kind == "circle"));
    assert!(view.log.iter().any(|e| e.text.contains("piece circle c2, target circle e4")));
}

#[test]
fn if_the_chosen_piece_can_legally_move_to_the_target_the_mover_makes_that_move() {
    let mut game = start();
    act_as(&mut game, KW, "circle c2");
    act_as(&mut game, QW, "circle d4");
    assert_eq!(last_move(&game), "c2d4");
    assert_eq!(game.to_act(), ToAct::Seats(vec![KB, QB]), "the black team uses the same steps");
}

#[test]
fn if_not_the_opponents_chooser_chooses_piece_or_target() {
    let mut game = start();
    act_as(&mut game, KW, "circle c2");
    act_as(&mut game, QW, "circle e4");
    assert_eq!(game.to_act(), ToAct::one(KB), "the black chooser decides");
    assert_eq!(actions(&game, KB), ["keep piece", "keep target"]);
    assert!(game.legal_actions(KW).is_empty() && game.legal_actions(QW).is_empty());
}

#[test]
fn keeping_the_piece_the_mover_makes_the_legal_move_that_ends_closest_to_the_target() {
    let mut game = start();
    act_as(&mut game, KW, "circle c2");
    act_as(&mut game, QW, "circle e4");
    act_as(&mut game, KB, "keep piece");
    assert_eq!(last_move(&game), "c2d4", "d4 is one step from e4, b4 three");
}

#[test]
fn keeping_the_target_the_chooser_moves_the_piece_closest_to_the_one_they_chose() {
    // The pawn d3 cannot reach e4. Of the pieces that can, the pawn e3 is
    // 1 step from d3 and the knight f2 is 3.
    let mut game = start();
    act_as(&mut game, KW, "circle d3");
    act_as(&mut game, QW, "circle e4");
    act_as(&mut game, KB, "keep target");
    assert_eq!(last_move(&game), "e3e4");
}

#[test]
fn closest_means_manhattan_distance_without_diagonal_steps() {
    // The rook d2 cannot reach e6 (the knight f4 can). Of the rook's moves,
    // d6 and d7 are both one king step from e6, but d6 is 1 step without
    // diagonals and d7 is 2.
    let mut game = from("8/6k1/8/8/5N2/8/1K1R4/8 w - - 0 1");
    act_as(&mut game, KW, "circle d2");
    act_as(&mut game, QW, "circle e6");
    act_as(&mut game, KB, "keep piece");
    assert_eq!(last_move(&game), "d2d6");
    assert_eq!(super::manhattan(sq("d7"), sq("e6")), 2);
    assert_eq!(super::manhattan(sq("d6"), sq("e6")), 1);
}

#[test]
fn if_more_than_one_choice_is_the_same_distance_players_may_use_whichever_they_prefer() {
    // Keeping the target e4: the pawn e3 and the knight f2 are both 3 steps from c2.
    let mut game = start();
    act_as(&mut game, KW, "circle c2");
    act_as(&mut game, QW, "circle e4");
    act_as(&mut game, KB, "keep target");
    assert_eq!(game.to_act(), ToAct::one(KW), "the white chooser picks the piece");
    assert_eq!(actions(&game, KW), ["e3e4", "f2e4"]);
    let refused = refusal(&mut game, KW, "d3d4");
    assert!(refused.contains("e3-e4, Nf2-e4") || refused.contains("allow only"), "{refused}");
    act_as(&mut game, KW, "f2e4");
    assert_eq!(last_move(&game), "f2e4");
}

#[test]
fn a_promotion_by_the_pair_is_picked_by_the_mover() {
    let mut game = from("8/6k1/2P5/8/8/8/1K6/8 w - - 0 1");
    act_as(&mut game, KW, "circle c6");
    act_as(&mut game, QW, "circle c7");
    assert_eq!(game.to_act(), ToAct::one(QW));
    act_as(&mut game, QW, "c6c7r");
    assert_eq!(game.board_position().board().piece_at(sq("c7")).unwrap().char(), 'R');
}

// ----------------------------------------------------------------------
// Play: rules while writing down moves
// ----------------------------------------------------------------------

#[test]
fn the_chooser_must_circle_own_piece_with_a_legal_move_else_the_nearest_valid_square() {
    // e5 is empty: the nearest white piece with a legal move is the pawn e3.
    let mut game = start();
    act_as(&mut game, KW, "circle e5");
    act_as(&mut game, QW, "circle e4");
    assert_eq!(last_move(&game), "e3e4");
    let log = game.view(Viewer::Spectator).log;
    assert!(log.iter().any(|e| e.text.contains("piece circle e5 is not valid: the nearest valid square is e3")));
}

#[test]
fn the_mover_must_circle_a_square_some_piece_can_legally_move_to_else_the_nearest_valid_square() {
    // No white piece can reach e6; the nearest reachable square is e4.
    let mut game = start();
    act_as(&mut game, KW, "circle e3");
    act_as(&mut game, QW, "circle e6");
    assert_eq!(last_move(&game), "e3e4");
}

#[test]
fn equally_near_valid_squares_are_chosen_by_the_opponents_chooser() {
    // g2's rook cannot move: f2 and g3 are both one step away.
    let mut game = start();
    act_as(&mut game, KW, "circle g2");
    act_as(&mut game, QW, "circle g4");
    assert_eq!(game.to_act(), ToAct::one(KB));
    assert_eq!(actions(&game, KB), ["correct f2", "correct g3"]);
    assert!(refusal(&mut game, KB, "correct e3").contains("not one of the nearest"));
    act_as(&mut game, KB, "correct f2");
    assert_eq!(last_move(&game), "f2g4");
    // The mover's circle: f7 is 2 steps from d7, e6 and g6.
    let mut game = from("8/6k1/8/8/5N2/8/1K1R4/8 w - - 0 1");
    act_as(&mut game, KW, "circle f4");
    act_as(&mut game, QW, "circle f7");
    assert_eq!(actions(&game, KB), ["correct d7", "correct e6", "correct g6"]);
    act_as(&mut game, KB, "g6");
    assert_eq!(last_move(&game), "f4g6");
}

// ----------------------------------------------------------------------
// The checker
// ----------------------------------------------------------------------

#[test]
fn after_the_black_team_moves_the_checker_slides_to_the_other_corner() {
    let mut game = start();
    act_as(&mut game, KW, "circle e3");
    act_as(&mut game, QW, "circle e4");
    assert_eq!(game.checker(), Side::King, "not after White's move");
    act_as(&mut game, KB, "circle e6");
    act_as(&mut game, QB, "circle e5");
    assert_eq!(game.checker(), Side::Queen);
    let view = game.view(Viewer::Spectator);
    assert!(view.board.unwrap().square("a8").unwrap().markers.iter().any(|m| m.kind == "checker"));
    // Now the queen-side partners choose.
    assert!(game.view(Viewer::Seat(QW)).prompt.unwrap().contains("chooser"));
    act_as(&mut game, QW, "circle d3");
    act_as(&mut game, KW, "circle d4");
    assert_eq!(last_move(&game), "d3d4");
    act_as(&mut game, QB, "circle d6");
    act_as(&mut game, KB, "circle d5");
    assert_eq!(game.checker(), Side::King);
}

// ----------------------------------------------------------------------
// Game end
// ----------------------------------------------------------------------

#[test]
fn checkmate_wins_the_game_for_the_partnership() {
    let mut game = from("8/6k1/1R6/2R5/8/8/1K6/8 w - - 0 1");
    act_as(&mut game, KW, "circle c5");
    act_as(&mut game, QW, "circle c7");
    let outcome = game.to_act().outcome().cloned().expect("checkmate");
    assert_eq!(outcome.reason, "checkmate");
    assert_eq!(outcome.winners, [seat_of(chesskit_core::chess::Color::White, Side::King), QW]);
    assert!(game.pgn().unwrap().contains("[Result \"1-0\"]"));
}

#[test]
fn once_the_game_is_over_nobody_is_shown_circling() {
    let mut game = from("8/6k1/1R6/2R5/8/8/1K6/8 w - - 0 1");
    act_as(&mut game, KW, "circle c5");
    act_as(&mut game, QW, "circle c7");
    assert!(game.to_act().outcome().is_some(), "checkmate");
    let view = game.view(Viewer::Spectator);
    let statuses: Vec<&str> = view.tables[0].rows.iter().map(|row| row[3].as_str()).collect();
    assert!(statuses.iter().all(|s| *s == "game over"), "the Partners table's \"this move\": {statuses:?}");
}

#[test]
fn stalemate_is_a_draw_as_in_regular_chess() {
    let game = from("8/6k1/4Q3/8/8/8/1K6/8 b - - 0 1");
    let outcome = game.to_act().outcome().cloned().expect("stalemate");
    assert_eq!(outcome.reason, "stalemate");
    assert!(outcome.winners.is_empty());
}

// ----------------------------------------------------------------------
// Bad input
// ----------------------------------------------------------------------

#[test]
fn bad_actions_are_refused_and_change_nothing() {
    let mut game = start();
    assert!(refusal(&mut game, KW, "circle a1").contains("off the 6x6 grid"));
    assert!(refusal(&mut game, KW, "circle h5").contains("off the 6x6 grid"));
    assert!(refusal(&mut game, KB, "circle e6").contains("not seat 1's turn"));
    assert!(refusal(&mut game, KW, "keep piece").contains("no piece or target to keep"));
    assert!(refusal(&mut game, KW, "correct e3").contains("no circle is waiting"));
    assert!(refusal(&mut game, KW, "e3e4").contains("no move is to be picked"));
    assert!(refusal(&mut game, KW, "circle").contains("cannot read"));
    assert!(matches!(game.apply(7, &SplitBrainAction::Circle(sq("e3"))), Err(RuleError::NoSuchSeat { seat: 7 })));
    act_as(&mut game, KW, "circle c2");
    assert!(refusal(&mut game, KW, "circle e4").contains("not seat 0's turn"), "one circle each");
    act_as(&mut game, QW, "circle e4");
    assert!(refusal(&mut game, KW, "keep piece").contains("not seat 0's turn"), "only the opponents' chooser");
    assert!(refusal(&mut game, QB, "keep target").contains("not seat 3's turn"));
}

// ----------------------------------------------------------------------
// The text position
// ----------------------------------------------------------------------

#[test]
fn text_position_round_trips_every_step_secrets_included() {
    let mut game = start();
    assert_eq!(game.position(), format!("{START_FEN}\nchecker: king-side"));
    act_as(&mut game, KW, "circle c2");
    let text = game.position();
    assert!(text.contains("chooser circle: c2"), "{text}");
    assert_eq!(from(&text).position(), text);
    act_as(&mut game, QW, "circle e4");
    let text = game.position();
    assert!(text.ends_with("step: keep"), "{text}");
    assert_eq!(from(&text).step(), game.step());
    act_as(&mut game, KB, "keep target");
    let text = game.position();
    assert!(text.ends_with("step: finish target"), "{text}");
    let again = from(&text);
    assert_eq!(actions(&again, KW), ["e3e4", "f2e4"]);
    let mut game = start();
    act_as(&mut game, KW, "circle g2");
    act_as(&mut game, QW, "circle g4");
    let text = game.position();
    assert!(text.ends_with("step: correct piece"), "{text}");
    assert_eq!(from(&text).to_act(), ToAct::one(KB));
}

#[test]
fn text_positions_that_cannot_occur_are_refused() {
    let cases = [
        ("8/8/8/8/8/8/8/k6K w - - 0 1", "outside the board"),
        ("8/6k1/8/8/8/8/1K6/8 w - - 0 1\nchecker: middle", "bad checker"),
        ("8/6k1/8/8/8/8/1K6/8 w - - 0 1\nchooser circle: a1", "off the 6x6 grid"),
        (&format!("{START_FEN}\nchooser circle: c2\nmover circle: d4"), "say which `step`"),
        (&format!("{START_FEN}\nchooser circle: c2\nmover circle: d4\nstep: keep"), "nothing to keep"),
        (&format!("{START_FEN}\nchooser circle: e5\nmover circle: d4\nstep: correct piece"), "only one valid square"),
        (&format!("{START_FEN}\nchooser circle: c2\nmover circle: d4\nstep: correct piece"), "needs no correction"),
        (&format!("{START_FEN}\nchooser circle: c2\nmover circle: d4\nstep: finish pair"), "only one move"),
        (&format!("{START_FEN}\nchooser circle: c2\nstep: keep"), "needs both"),
        (&format!("{START_FEN}\nstep: dance\nchooser circle: c2\nmover circle: d4"), "bad step"),
        (&format!("{START_FEN}\ncolour: red"), "unknown line"),
        ("8/6k1/8/8/8/8/1K2p3/8 w - - 0 1", "first or last rank"),
        ("8/6k1/8/8/8/8/1K6/8 w - e6 0 1", "en passant"),
    ];
    for (text, expected) in cases {
        let err = Told::<SplitBrainGame>::from_position(text, &Options::new(), 0).unwrap_err().to_string();
        assert!(err.contains(expected), "{text:?}: {err}");
    }
}

// ----------------------------------------------------------------------
// Move generation
// ----------------------------------------------------------------------

/// Walk the tree of team moves to `depth`, comparing the game's moves
/// ([`super::Choices`]) with the simple generator's at every node, and
/// count its leaves. (The generic perft walks the seats' circles, not the
/// team moves, so the move tree is walked here, in place of the game's own
/// move perft.)
fn compare_move_trees(pos: &Position, depth: u32, path: &mut Vec<String>) -> u64 {
    if depth == 0 {
        return 1;
    }
    let uci = |m: &Move| to_uci(*m, CastlingStyle::Standard);
    let choices = super::Choices::new(pos);
    let mut fast: Vec<String> = choices.moves().iter().map(uci).collect();
    let mut slow: Vec<String> = reference::legal_moves(pos).iter().map(uci).collect();
    fast.sort();
    slow.sort();
    assert_eq!(fast, slow, "after {path:?}");
    let mut leaves = 0;
    for &m in choices.moves() {
        let mut child = pos.clone();
        child.play_unchecked(m);
        path.push(uci(&m));
        leaves += compare_move_trees(&child, depth - 1, path);
        path.pop();
    }
    leaves
}

#[test]
fn the_moves_match_the_simple_reference_generator_through_the_tree() {
    // (position, depth, leaves of the move tree): the positions and depths
    // at which the game's own move perft was checked against the simple
    // generator's (at depth 3 it counted 1212 from the start, 161 in the
    // pawn ending, 16560 in the middle game).
    let positions = [
        (START_FEN, 4, 14332),
        ("8/6k1/2P5/8/8/8/1K6/8 w - - 0 1", 4, 773),
        ("8/1r2k3/2p1np2/1P1q2P1/2NQ1p2/1P2P3/4K1R1/8 w - - 0 1", 3, 16560),
        ("8/1r1qk1r1/1pp1np2/3p2p1/2PnP3/1P1N1P2/2QK2R1/8 b - - 0 1", 3, 9739),
        ("8/6k1/1R6/2R5/8/8/1K6/8 w - - 0 1", 3, 567),
    ];
    for (fen, depth, leaves) in positions {
        let pos = from(fen).board_position().clone();
        assert_eq!(compare_move_trees(&pos, depth, &mut Vec::new()), leaves, "{fen}");
    }
}

#[test]
fn the_keep_rules_agree_with_a_brute_force_reading_in_random_positions() {
    // From random games: every pair of valid circles resolves to moves that
    // are legal, and keeping the piece never moves another piece.
    let mut rng = GameRng::from_seed(11);
    let mut game = start();
    for _ in 0..40 {
        if game.to_act().is_over() {
            break;
        }
        let choices = super::Choices::new(game.board_position());
        let legal = reference::legal_moves(game.board_position());
        for piece in choices.valid_pieces() {
            for target in choices.valid_targets() {
                for m in choices.keeping_piece(piece, target) {
                    assert!(legal.contains(&m) && m.from() == Some(piece));
                }
                for m in choices.keeping_target(piece, target) {
                    assert!(legal.contains(&m) && m.to() == target);
                }
            }
        }
        let moves = choices.moves();
        let m = moves[rng.below(moves.len())];
        let mut pos = game.board_position().clone();
        pos.play_unchecked(m);
        game = Told::<SplitBrainGame>::from_position(
            &format!(
                "{}\nchecker: king-side",
                chesskit_core::chess::fen::to_fen(&pos, chesskit_core::chess::fen::CastlingNotation::XFen)
            ),
            &Options::new(),
            0,
        )
        .unwrap();
    }
}

/// The computer's transposition key (`Game::position_hash`) covers what the
/// rules read: the board, the checker's side and the step of the turn with
/// its secret circles (a search runs on a drawn world). One state reached
/// two ways: the same board after another last move, which only the
/// record keeps.
#[test]
fn the_zobrist_key_is_the_same_for_a_transposition_and_differs_for_any_change_the_rules_read() {
    let one = start().game;
    let other = SplitBrainGame { last_move: vec![sq("c2"), sq("c3")], ..one.clone() };
    let circled =
        |chooser: Option<&str>, mover: Option<&str>| Step::Circling { chooser: chooser.map(sq), mover: mover.map(sq) };
    crate::testing::assert_the_key_follows_the_state(
        &one,
        &other,
        &[
            ("a piece", crate::testing::changed(&one, |g| g.pos.board_mut().discard_piece_at(sq("b3")))),
            ("the checker's side", crate::testing::changed(&one, |g| g.checker = g.checker.other())),
            ("the chooser's circle", crate::testing::changed(&one, |g| g.step = circled(Some("c3"), None))),
            ("the mover's circle", crate::testing::changed(&one, |g| g.step = circled(None, Some("c3")))),
            (
                "a keep to decide",
                crate::testing::changed(&one, |g| g.step = Step::Keeping { piece: sq("c3"), target: sq("c4") }),
            ),
        ],
    );
}
