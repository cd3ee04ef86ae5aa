//! Crowded House: one test per rule clause (rules.md and new-rules-2023a,
//! "Crowded House"; docs/games/crowded-house.md, "Rulings"), named after it, the
//! book's example (testdata/book-examples.md), and the fast move generator
//! checked against the brute-force one.

use std::path::PathBuf;

use chesskit_core::chess::notation::{to_uci, CastlingStyle};
use chesskit_core::game::{Game, Outcome, RuleError, ToAct, Viewer};
use chesskit_core::options::Options;
use chesskit_core::rng::GameRng;

use super::{reference, text, CrowdedAction, CrowdedHouseGame};
use crate::testing::{check_position_hash, mover, Told};

fn from_text(position: &str) -> Told<CrowdedHouseGame> {
    Told::<CrowdedHouseGame>::from_position(position, &Options::new(), 0).unwrap_or_else(|e| panic!("{position}: {e}"))
}

fn start() -> Told<CrowdedHouseGame> {
    Told::<CrowdedHouseGame>::new(&Options::new(), 0).unwrap()
}

fn legal(game: &Told<CrowdedHouseGame>) -> Vec<String> {
    let mut moves: Vec<String> = game.legal_actions(mover(game)).iter().map(|a| a.to_string()).collect();
    moves.sort();
    moves
}

fn play(game: &mut Told<CrowdedHouseGame>, moves: &str) {
    for text in moves.split_whitespace() {
        let seat = mover(game);
        let action = game.parse_action(seat, text).unwrap_or_else(|e| panic!("{text}: {e}"));
        game.apply(seat, &action).unwrap_or_else(|e| panic!("{text}: {e}"));
    }
}

/// The error of a refused action, checking that nothing changed.
fn refusal(game: &mut Told<CrowdedHouseGame>, action: &str) -> String {
    let before = game.clone();
    let seat = mover(game);
    let err = game.apply(seat, &action.parse::<CrowdedAction>().unwrap()).expect_err(action);
    assert_eq!(*game, before, "a refused action changed the game");
    err.to_string()
}

/// The book's diagram of the Crowded House section (testdata/book-examples.md,
/// copied from the team's fixtures), as the board field of a FEN.
fn fixture_board() -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("testdata/book-examples.md");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let section = text.split("## ").find(|s| s.starts_with("Crowded House")).expect("a Crowded House section");
    let rows: Vec<String> = section
        .lines()
        .filter(|l| l.starts_with("    "))
        .map(|row| {
            let mut fen = String::new();
            let mut empty = 0;
            for c in row.split_whitespace() {
                if c == "." {
                    empty += 1;
                } else {
                    if empty > 0 {
                        fen.push_str(&empty.to_string());
                        empty = 0;
                    }
                    fen.push_str(c);
                }
            }
            if empty > 0 {
                fen.push_str(&empty.to_string());
            }
            fen
        })
        .collect();
    assert_eq!(rows.len(), 8);
    rows.join("/")
}

// ----------------------------------------------------------------------
// Setup and the order of play
// ----------------------------------------------------------------------

#[test]
fn two_teams_of_two_seated_in_the_order_of_play() {
    let seats = start().seats();
    let names: Vec<&str> = seats.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["King-side White", "King-side Black", "Queen-side White", "Queen-side Black"]);
    let colours: Vec<&str> = seats.iter().map(|s| s.colour.as_deref().unwrap()).collect();
    assert_eq!(colours, ["white", "black", "white", "black"]);
    let teams: Vec<usize> = seats.iter().map(|s| s.team.unwrap()).collect();
    assert_eq!(teams, [0, 1, 0, 1], "team 0 is White, team 1 Black");
}

#[test]
fn setup_is_the_standard_start_and_king_side_white_moves_first() {
    let game = start();
    assert_eq!(game.position(), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\nhalf: king");
    assert_eq!(game.to_act(), ToAct::one(0));
}

#[test]
fn walter_betty_winnie_bob_walter_each_king_side_player_first_then_their_partner() {
    let mut game = start();
    let mut order = vec![mover(&game)];
    for m in ["e2e4", "e7e5", "d2d4", "d7d5", "g1f3"] {
        play(&mut game, m);
        order.push(mover(&game));
    }
    assert_eq!(order, [0, 1, 2, 3, 0, 1]);
}

// ----------------------------------------------------------------------
// The key rule: a piece that starts or ends on your side
// ----------------------------------------------------------------------

#[test]
fn book_example_queen_side_white_may_play_bf1_c4_but_not_bf1_e2() {
    let mut game = from_text(&format!("{} w KQkq - 0 2\nhalf: queen", fixture_board()));
    assert_eq!(mover(&game), 2, "Winnie, queen-side White, is to move");
    let moves = legal(&game);
    assert!(moves.contains(&"f1c4".to_string()), "ends on the queen side: {moves:?}");
    assert!(!moves.contains(&"f1e2".to_string()));
    let err = refusal(&mut game, "f1e2");
    assert!(err.contains("start and end on the king side"), "{err}");
    assert!(err.contains("files a-d"), "{err}");
    play(&mut game, "f1c4");
}

#[test]
fn a_piece_that_starts_on_your_side_may_go_anywhere_one_that_ends_there_may_come_from_anywhere() {
    // King-side White: the knight g1 starts there; the queen d1 may go to h5 (ends there).
    let mut game = start();
    play(&mut game, "e2e4 e7e5");
    play(&mut game, "b1c3 b8c6");
    assert_eq!(mover(&game), 0);
    let moves = legal(&game);
    assert!(moves.contains(&"d1h5".to_string()), "the queen ends on the king side");
    assert!(moves.contains(&"g1f3".to_string()), "the knight starts on the king side");
    assert!(!moves.contains(&"d2d4".to_string()), "a queen-side pawn stays on the queen side");
    assert!(!moves.contains(&"c3b5".to_string()));
    assert!(moves.contains(&"c3e2".to_string()), "the knight c3 ends on the king side");
}

#[test]
fn castling_is_a_king_move_long_for_either_player_short_for_the_king_side_only() {
    let kw = from_text("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1\nhalf: king");
    let moves = legal(&kw);
    assert!(moves.contains(&"e1g1".to_string()) && moves.contains(&"e1c1".to_string()), "{moves:?}");
    let qw = from_text("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1\nhalf: queen");
    let moves = legal(&qw);
    assert!(moves.contains(&"e1c1".to_string()), "the king ends on the queen side: {moves:?}");
    assert!(!moves.contains(&"e1g1".to_string()), "the king starts and ends on the king side");
}

// ----------------------------------------------------------------------
// A player with no such move passes
// ----------------------------------------------------------------------

#[test]
fn a_player_with_no_piece_that_can_start_or_end_on_their_side_passes() {
    let mut game = from_text("7k/5ppp/8/8/8/8/8/K7 b - - 0 1\nhalf: queen");
    assert_eq!(mover(&game), 3);
    assert_eq!(legal(&game), ["pass"], "the pass is the only action");
    let err = refusal(&mut game, "h7h6");
    assert!(err.contains("queen side"), "{err}");
    play(&mut game, "pass");
    assert_eq!(mover(&game), 0, "then the next player moves");
    assert!(game.position().starts_with("7k/5ppp/8/8/8/8/8/K7 w - - 0 2\nhalf: king"), "{}", game.position());
}

#[test]
fn a_player_with_a_legal_move_may_not_pass() {
    let mut game = start();
    let err = refusal(&mut game, "pass");
    assert!(err.contains("you have a legal move"), "{err}");
}

#[test]
fn a_player_whose_every_move_would_lose_the_king_but_who_is_not_in_check_passes() {
    // Queen-side White: the only piece on the queen side is the knight d3,
    // pinned to the king f1 by the bishop b5 that queen-side Black (next)
    // may use; the king cannot reach the queen side. Our ruling: no
    // stalemate, a pass.
    let mut game = from_text("4k3/8/8/1b6/8/3N4/8/5K2 w - - 0 1\nhalf: queen");
    assert_eq!(legal(&game), ["pass"]);
    play(&mut game, "pass");
    assert!(game.to_act().outcome().is_none());
}

// ----------------------------------------------------------------------
// Legality against the next player
// ----------------------------------------------------------------------

#[test]
fn a_king_may_step_into_check_when_the_next_player_cannot_make_the_capture() {
    // King-side White to move; the rook a2 is queen-side Black's to use.
    let mut game = from_text("4k3/8/8/8/8/8/r7/4K3 w - - 0 1\nhalf: king");
    let moves = legal(&game);
    assert!(moves.contains(&"e1d2".to_string()), "d2 is attacked, but king-side Black cannot capture there");
    assert!(!moves.contains(&"e1e2".to_string()), "Ra2xe2 ends on the king side: king-side Black may play it");
    let err = refusal(&mut game, "e1f2");
    assert!(err.contains("King-side Black could then capture your king"), "{err}");
    play(&mut game, "e1d2");
}

#[test]
fn check_is_what_the_next_player_could_capture_and_must_be_answered_then() {
    // White's king stands attacked on d2 by the rook a2 (queen side). King-side
    // Black cannot take it; after king-side Black's move, queen-side White must
    // answer, since queen-side Black could.
    let mut game = from_text("4k3/8/8/8/8/8/r7/4K3 w - - 0 1\nhalf: king");
    play(&mut game, "e1d2");
    assert!(game.view(Viewer::Spectator).check.is_none(), "king-side Black cannot capture d2");
    play(&mut game, "e8f8");
    assert_eq!(mover(&game), 2);
    assert_eq!(game.view(Viewer::Spectator).check.as_deref(), Some("d2"), "queen-side Black could capture next");
    let moves = legal(&game);
    assert!(moves.iter().all(|m| m.starts_with("d2")), "only king moves answer it: {moves:?}");
    assert!(!moves.contains(&"d2c2".to_string()) && !moves.contains(&"d2e2".to_string()), "{moves:?}");
    assert!(moves.contains(&"d2d3".to_string()));
}

#[test]
fn a_king_on_the_next_players_half_is_capturable_by_any_attacker() {
    // Queen-side White's king on c1 is attacked by the rook h1: the capture
    // Rh1xc1 ends on the queen side, so queen-side Black (next) may make it.
    let mut game = from_text("4k3/8/8/8/8/8/P7/2K4r w - - 0 1\nhalf: queen");
    assert_eq!(game.view(Viewer::Spectator).check.as_deref(), Some("c1"));
    let err = refusal(&mut game, "a2a3");
    assert!(err.contains("Queen-side Black could then capture your king"), "{err}");
}

#[test]
fn a_king_may_castle_out_of_check_when_the_next_player_cannot_make_the_capture() {
    // The rook e5 attacks e1 but stands on the king side: queen-side Black
    // (next after queen-side White) may not use it to capture on e1.
    let qw = from_text("4k3/8/8/4r3/8/8/8/R3K3 w Q - 0 1\nhalf: queen");
    assert!(legal(&qw).contains(&"e1c1".to_string()), "{:?}", legal(&qw));
    // King-side White, followed by king-side Black who may take on e1, may not.
    let kw = from_text("4k3/8/8/4r3/8/8/8/R3K3 w Q - 0 1\nhalf: king");
    assert!(!legal(&kw).contains(&"e1c1".to_string()));
}

#[test]
fn a_king_may_not_castle_through_a_square_the_next_player_could_capture_on() {
    // Our ruling: the rook d5 could take on d1 (queen side) for queen-side Black.
    let mut qw = from_text("4k3/8/8/3r4/8/8/8/R3K3 w Q - 0 1\nhalf: queen");
    let err = refusal(&mut qw, "e1c1");
    assert!(err.contains("Queen-side Black could then capture your king"), "{err}");
    // With the rook on the king side (f5), d1 is safe and castling is legal.
    let qw = from_text("4k3/8/8/5r2/8/8/8/R3K3 w Q - 0 1\nhalf: queen");
    assert!(legal(&qw).contains(&"e1c1".to_string()));
}

// ----------------------------------------------------------------------
// En passant
// ----------------------------------------------------------------------

#[test]
fn en_passant_only_for_the_next_player_right_after_the_double_step() {
    let mut game = from_text("4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1\nhalf: king");
    play(&mut game, "e2e4");
    assert_eq!(mover(&game), 1);
    assert!(legal(&game).contains(&"d4e3".to_string()), "king-side Black may capture: d4xe3 ends on e3");
    let mut captured = game.clone();
    play(&mut captured, "d4e3");
    assert!(captured.position().starts_with("4k3/8/8/8/8/4p3/8/4K3"), "{}", captured.position());
    // King-side Black moves otherwise: the chance is gone for queen-side Black.
    play(&mut game, "e8f8 e1d1");
    assert_eq!(mover(&game), 3);
    assert!(!legal(&game).contains(&"d4e3".to_string()), "{:?}", legal(&game));
    let err = refusal(&mut game, "d4e3");
    assert!(err.contains("cannot move to e3"), "{err}");
}

// ----------------------------------------------------------------------
// Winning
// ----------------------------------------------------------------------

#[test]
fn checkmate_when_no_move_avoids_the_next_players_capture_and_the_team_loses() {
    // King-side Black to move; the rook a8 is queen-side White's (next) to use.
    let game = from_text("R6k/5ppp/8/8/8/8/8/K7 b - - 0 1\nhalf: king");
    assert_eq!(game.to_act(), ToAct::Over(Outcome::win(vec![0, 2], "checkmate")));
    assert!(game.legal_actions(1).is_empty());
    let log = game.view(Viewer::Spectator).log;
    assert!(log.last().unwrap().text.contains("King-side Black is checkmated"), "{log:?}");
}

#[test]
fn no_mate_when_the_next_player_cannot_make_the_capture() {
    // The same mate with the rook on e8: queen-side White may not move it.
    let mut game = from_text("4R2k/5ppp/8/8/8/8/8/K7 b - - 0 1\nhalf: king");
    assert!(game.to_act().outcome().is_none());
    play(&mut game, "g7g6");
}

#[test]
fn checkmate_of_a_player_who_must_pass() {
    // Queen-side Black has nothing on the queen side, and king-side White
    // (next) could take the king with the rook e8: the pass does not save it.
    let game = from_text("4R2k/5ppp/8/8/8/8/8/K7 b - - 0 1\nhalf: queen");
    assert_eq!(game.to_act(), ToAct::Over(Outcome::win(vec![0, 2], "checkmate")));
}

#[test]
fn a_mate_played_on_the_board_ends_the_game_for_both_players_of_the_team() {
    // Fool's mate in four-player order. After Qd8-h4 queen-side White is
    // not in check (queen-side Black may not take on e1 from h4), but
    // king-side White is: king-side Black could, and nothing answers it.
    let mut game = start();
    play(&mut game, "f2f3 e7e5 a2a3 a7a6 g2g4 d8h4");
    assert!(game.view(Viewer::Spectator).check.is_none());
    play(&mut game, "a3a4 a6a5");
    assert_eq!(game.to_act(), ToAct::Over(Outcome::win(vec![1, 3], "checkmate")));
    let pgn = game.pgn().unwrap();
    assert!(pgn.contains("[Result \"0-1\"]") && pgn.contains("[Termination \"checkmate\"]"), "{pgn}");
    let movetext = pgn.split("\n\n").nth(1).unwrap().split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        movetext.starts_with("1. f2-f3 {King-side White} 1... e7-e5 {King-side Black} 2. a2-a3 {Queen-side White}"),
        "{pgn}"
    );
    assert!(movetext.ends_with("{game over: King-side White is checkmated, their team loses} 0-1"), "{pgn}");
}

#[test]
fn draw_by_threefold_repetition_with_the_same_seat_to_move() {
    let mut game = start();
    let round = "g1f3 g8f6 b1c3 b8c6 f3g1 f6g8 c3b1 c6b8";
    play(&mut game, round);
    assert!(game.to_act().outcome().is_none());
    play(&mut game, round);
    assert_eq!(game.to_act(), ToAct::Over(Outcome::draw("threefold repetition")));
}

#[test]
fn draw_by_the_fifty_move_rule_fifty_turns_for_each_player_passes_included() {
    let mut game = from_text("7k/5ppp/8/8/8/8/8/K7 b - - 0 1\nhalf: queen\nquiet turns: 199");
    assert!(game.position().ends_with("quiet turns: 199"));
    play(&mut game, "pass");
    assert_eq!(game.to_act(), ToAct::Over(Outcome::draw("fifty-move rule")));
}

// ----------------------------------------------------------------------
// Text positions and bad input
// ----------------------------------------------------------------------

#[test]
fn the_text_position_round_trips_with_the_half_to_move() {
    let mut game = start();
    play(&mut game, "e2e4 e7e5");
    let text = game.position();
    assert_eq!(text, "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2\nhalf: queen");
    assert_eq!(from_text(&text).position(), text);
    let (house, quiet, _) = text::read(&text).unwrap();
    assert_eq!((house.seat(), quiet), (2, 0));
}

#[test]
fn positions_that_cannot_occur_are_refused_with_the_reason() {
    let bad = |text: &str| Told::<CrowdedHouseGame>::from_position(text, &Options::new(), 0).unwrap_err().to_string();
    assert!(bad("8/8/8/8/8/8/8/8 w - - 0 1").contains("king"));
    assert!(bad("4k3/8/8/8/8/8/8/4K3 w - - 0 1\nhalf: middle").contains("bad half \"middle\""));
    assert!(bad("4k3/8/8/8/8/8/8/4K3 w - - 0 1\nquiet turns: x").contains("bad quiet turns"));
    assert!(bad("4k3/8/8/8/8/8/8/4K3 w - - 0 1\nseat: 2").contains("unknown line"));
    assert!(bad("4k{z}3/8/8/8/8/8/8/4K3 w - - 0 1").contains("no markers"));
    // King-side White to move could take the black king e8 with the rook e1:
    // queen-side Black, who just moved, left it there.
    let err = bad("4k3/8/8/8/8/8/8/K3R3 w - - 0 1\nhalf: king");
    assert!(err.contains("King-side White could capture the king of Queen-side Black"), "{err}");
}

#[test]
fn bad_actions_are_refused_by_name_and_change_nothing() {
    let mut game = start();
    let before = game.clone();
    assert!(matches!(game.parse_action(0, "e2e9"), Err(RuleError::Malformed { .. })));
    assert!(matches!(game.apply(1, &"e7e5".parse().unwrap()), Err(RuleError::NotYourTurn { seat: 1 })));
    assert!(matches!(game.apply(4, &CrowdedAction::Pass), Err(RuleError::NoSuchSeat { seat: 4 })));
    assert!(refusal(&mut game, "e7e5").contains("e7 holds no piece of yours"));
    assert!(refusal(&mut game, "e2e5").contains("the pawn on e2 cannot move to e5"));
    assert_eq!(game, before);
    let mut over = from_text("R6k/5ppp/8/8/8/8/8/K7 b - - 0 1\nhalf: king");
    assert_eq!(over.apply(1, &CrowdedAction::Pass), Err(RuleError::GameOver));
}

#[test]
fn moves_are_read_in_uci_san_and_long_algebraic_and_pass_in_any_case() {
    let game = start();
    for text in ["g1f3", "Nf3", "Ng1-f3"] {
        assert_eq!(game.parse_action(0, text).unwrap().to_string(), "g1f3", "{text}");
    }
    assert_eq!("PASS".parse::<CrowdedAction>(), Ok(CrowdedAction::Pass));
}

// ----------------------------------------------------------------------
// The view
// ----------------------------------------------------------------------

#[test]
fn the_view_names_the_seat_to_move_and_marks_its_half() {
    let mut game = start();
    play(&mut game, "e2e4 e7e5");
    let view = game.view(Viewer::Seat(1));
    assert_eq!(view.prompt.as_deref(), Some("Queen-side White to move (files a-d)"));
    let board = view.board.unwrap();
    assert_eq!(board.square("a1").unwrap().markers[0].kind, "zone");
    assert!(board.square("e1").unwrap().markers.is_empty());
    let table = &view.tables[0];
    assert_eq!(table.rows[2], ["Queen-side White", "queen side (a-d)", "White", "to move"]);
    assert_eq!(view.log.len(), 2);
}

// ----------------------------------------------------------------------
// The move generator against the brute-force one
// ----------------------------------------------------------------------

const PERFT_POSITIONS: [&str; 6] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\nhalf: king",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1\nhalf: queen",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1\nhalf: king",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1\nhalf: king",
    "4k3/8/8/4r3/8/8/8/R3K2R w KQ - 0 1\nhalf: queen",
    "4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1\nhalf: king",
];

#[test]
fn perft_agrees_with_the_brute_force_generator() {
    for text in PERFT_POSITIONS {
        let (house, _, _) = text::read(text).unwrap();
        for depth in 1..=3 {
            let counted = chesskit_core::perft::count(&from_text(text), depth);
            assert_eq!(counted, reference::perft(&house, depth), "{text} depth {depth}");
        }
    }
}

#[test]
fn legal_moves_agree_with_the_brute_force_generator_along_random_games() {
    for seed in 0..40 {
        let mut game = start();
        let mut rng = GameRng::from_seed(seed);
        for _ in 0..200 {
            let house = game.house().clone();
            let mut fast: Vec<String> =
                house.legal_moves().iter().map(|&m| to_uci(m, CastlingStyle::Standard)).collect();
            let mut slow: Vec<String> =
                reference::legal_moves(&house).into_iter().map(|m| to_uci(m, CastlingStyle::Standard)).collect();
            fast.sort();
            slow.sort();
            assert_eq!(fast, slow, "{}", game.position());
            let Some(&seat) = game.to_act().seats().first() else { break };
            let actions = game.legal_actions(seat);
            let action = *rng.choose(&actions).unwrap();
            game.apply(seat, &action).unwrap();
        }
    }
}

#[test]
fn perft_from_the_start_each_player_moving_a_half_of_the_army() {
    let house = from_text(PERFT_POSITIONS[0]);
    let counts: Vec<u64> = (1..=4).map(|depth| chesskit_core::perft::count(&house, depth)).collect();
    assert_eq!(counts, [10, 100, 1170, 13560], "king-side White: four pawns and a knight, two moves each");
}

// ----------------------------------------------------------------------
// The talking clock (new-rules-2023a, "Talking"; our ruling in
// docs/games/crowded-house.md: "The talking clock of new-rules-2023a is an
// option"), played through the session as a server plays it: every step
// with its time in ms since the game began.
// ----------------------------------------------------------------------

mod talking_clock {
    use chesskit_core::game::Viewer;
    use chesskit_core::options::Options;
    use chesskit_core::session::{DynGame, Session};

    use super::super::clock::{TalkingClock, MINUTE_MS};
    use super::super::{CrowdedHouseGame, TIME_FORFEIT};

    /// A game with `minutes` on each clock and coins worth `talk` minutes.
    fn clocked(minutes: i64, talk: i64) -> Box<dyn DynGame> {
        let options = Options::new().with("clock", minutes).with("talk", talk);
        Box::new(Session::<CrowdedHouseGame>::start(options, 0, None).unwrap())
    }

    fn clock(g: &dyn DynGame) -> TalkingClock {
        let session = g.as_any().downcast_ref::<Session<CrowdedHouseGame>>().unwrap();
        session.game.talking_clock().unwrap().clone()
    }

    fn last_log(g: &dyn DynGame) -> String {
        g.view(Viewer::Spectator).log.last().unwrap().text.clone()
    }

    fn replay(g: &dyn DynGame) -> Box<dyn DynGame> {
        crate::registry::replay(g.record()).unwrap()
    }

    const S: u64 = 1000;

    #[test]
    fn the_clock_is_an_option_off_by_default_and_a_talk_costs_two_minutes_by_default() {
        let mut plain = super::super::super::registry::create("crowded-house", Options::new(), 0, None).unwrap();
        plain.apply_at(0, "e2e4", Some(S)).unwrap();
        plain.apply_at(0, "say free talk", Some(2 * S)).unwrap();
        assert!(plain.view(Viewer::Spectator).clocks.is_empty(), "no clock without the option");
        assert_eq!(plain.deadline(), None);
        let g = clocked(30, 2);
        assert_eq!(clock(&*g), TalkingClock::new(30, 2));
        assert_eq!(clock(&*g).coin_ms, 2 * MINUTE_MS, "\"a 2-minute bonus for each time your opponents talk\"");
        let options = Options::new().with("clock", 30);
        let default = Session::<CrowdedHouseGame>::start(options, 0, None).unwrap();
        assert_eq!(default.game.talking_clock().unwrap().coin_ms, 2 * MINUTE_MS);
        for (name, value) in [("clock", -1), ("clock", 601), ("talk", 0)] {
            let options = Options::new().with("clock", 30).with(name, value);
            let error = Session::<CrowdedHouseGame>::start(options, 0, None).unwrap_err().to_string();
            assert!(error.contains(name), "{name}={value}: {error}");
        }
    }

    #[test]
    fn each_team_s_clock_runs_only_while_one_of_its_seats_is_to_move() {
        let mut g = clocked(30, 2);
        // The clocks start with the first timed step: nothing is charged for sitting down.
        g.apply_at(0, "e2e4", Some(5 * S)).unwrap();
        assert_eq!(clock(&*g).left_ms, [30 * MINUTE_MS; 2]);
        g.apply_at(1, "e7e5", Some(12 * S)).unwrap(); // Black thought 7 s
        g.apply_at(2, "d2d4", Some(15 * S)).unwrap(); // White 3 s
        g.apply_at(3, "d7d6", Some(25 * S)).unwrap(); // Black 10 s
        assert_eq!(clock(&*g).left_ms, [30 * MINUTE_MS - 3 * S, 30 * MINUTE_MS - 17 * S]);
        assert_eq!(g.deadline(), Some(25 * S + 30 * MINUTE_MS - 3 * S), "White's clock runs now");
        let views = g.view(Viewer::Seat(1)).clocks;
        assert_eq!((views[0].name.as_str(), views[0].running, views[1].running), ("White", true, false));
        assert_eq!(views[0].seats, [0, 2]);
    }

    #[test]
    fn whenever_a_team_with_no_coin_talks_a_coin_goes_from_the_centre_to_the_opponents_pile() {
        let mut g = clocked(30, 2);
        g.apply_at(0, "e2e4", Some(S)).unwrap();
        // Black to move; Black talks about it.
        g.apply_at(3, "say e5?", Some(2 * S)).unwrap();
        assert_eq!(clock(&*g).piles, [1, 0], "White's pile gets the coin");
        assert_eq!(clock(&*g).paid, [false, true]);
        assert_eq!(
            last_log(&*g),
            "Black pays for talk: a coin from the centre to White's pile (talk is free until Black moves)"
        );
        assert_eq!(g.view(Viewer::Spectator).clocks[0].coins, Some(1), "the pile is on the table for all to see");
    }

    #[test]
    fn whenever_a_team_with_coins_talks_a_coin_goes_from_its_pile_to_the_centre() {
        let mut g = clocked(30, 2);
        g.apply_at(0, "e2e4", Some(S)).unwrap();
        g.apply_at(1, "say hmm", Some(2 * S)).unwrap();
        g.apply_at(1, "e7e5", Some(3 * S)).unwrap();
        // White has Black's coin; White's talk gives it back to the centre.
        g.apply_at(2, "say Bc4 now", Some(4 * S)).unwrap();
        assert_eq!(clock(&*g).piles, [0, 0]);
        assert_eq!(
            last_log(&*g),
            "White pays for talk: a coin from its pile back to the centre (talk is free until White moves)"
        );
    }

    #[test]
    fn once_a_team_pays_a_coin_it_talks_freely_until_it_makes_a_move() {
        let mut g = clocked(30, 2);
        g.apply_at(0, "e2e4", Some(S)).unwrap();
        g.apply_at(1, "say what now?", Some(2 * S)).unwrap();
        g.apply_at(3, "say e5", Some(3 * S)).unwrap();
        g.apply_at(1, "say agreed", Some(4 * S)).unwrap();
        assert_eq!(clock(&*g).piles, [1, 0], "one coin for the whole discussion");
        g.apply_at(1, "e7e5", Some(5 * S)).unwrap();
        assert_eq!(clock(&*g).paid, [false, false], "the move ends the paid talk");
        // White (to move) talks while Black waits; then Black talks again: a new coin.
        g.apply_at(2, "say d4", Some(6 * S)).unwrap();
        g.apply_at(3, "say they will play d4", Some(7 * S)).unwrap();
        assert_eq!(clock(&*g).piles, [1, 0], "White gave Black's coin back to the centre; Black paid White a new one");
        assert_eq!(clock(&*g).paid, [true, true]);
    }

    #[test]
    fn talk_during_the_opponents_turn_is_charged_too() {
        let mut g = clocked(30, 2);
        g.apply_at(0, "e2e4", Some(S)).unwrap();
        // Black to move; White discusses its next move.
        g.apply_at(2, "say next we castle", Some(2 * S)).unwrap();
        assert_eq!(clock(&*g).piles, [0, 1]);
    }

    #[test]
    fn when_a_flag_falls_each_coin_in_the_pile_adds_the_bonus_and_the_pile_goes_back_to_the_centre() {
        let mut g = clocked(1, 2);
        g.apply_at(0, "e2e4", Some(0)).unwrap();
        g.apply_at(1, "say hm", Some(S)).unwrap();
        g.apply_at(3, "say yes", Some(2 * S)).unwrap(); // free: Black already paid
        g.apply_at(1, "e7e5", Some(3 * S)).unwrap();
        g.apply_at(2, "b1c3", Some(4 * S)).unwrap(); // White: 59 s left, 1 coin
        g.apply_at(3, "say hm", Some(5 * S)).unwrap(); // Black pays again: White has 2 coins
        g.apply_at(3, "b8c6", Some(6 * S)).unwrap();
        assert_eq!(clock(&*g).piles, [2, 0]);
        assert_eq!(g.deadline(), Some(65 * S), "White's 59 s from 6 s");
        // Nobody moves: at 65 s White's flag falls, and a claim records it.
        let error = g.apply_at(1, "flag", Some(64 * S)).unwrap_err().to_string();
        assert!(error.contains("no flag has fallen"), "{error}");
        assert_eq!(g.apply_at(1, "flag", Some(70 * S)).unwrap(), "flag");
        let c = clock(&*g);
        assert_eq!(
            (c.piles, c.left_ms[0]),
            ([0, 0], 4 * MINUTE_MS - 5 * S),
            "two coins, four minutes, 5 s of them spent"
        );
        assert_eq!(last_log(&*g), "White's flag falls: its 2 coins go back to the centre for 4:00 more");
        assert!(!g.to_act().is_over());
        g.apply_at(0, "f1c4", Some(71 * S)).unwrap();
        assert_eq!(clock(&*g).left_ms[0], 4 * MINUTE_MS - 6 * S);
    }

    #[test]
    fn a_team_whose_flag_falls_with_no_coin_loses_on_time() {
        let mut g = clocked(1, 2);
        g.apply_at(0, "e2e4", Some(0)).unwrap();
        assert_eq!(g.deadline(), Some(60 * S), "Black's minute");
        let before = g.clone();
        // A move after the fall is refused and changes nothing: the fall is recorded first.
        let error = g.apply_at(1, "e7e5", Some(61 * S)).unwrap_err().to_string();
        assert!(error.contains("a flag fell at 60000 ms") && error.contains("`flag`"), "{error}");
        assert!(g.same_state(&*before) && g.record() == before.record());
        g.apply_at(0, "flag", Some(61 * S)).unwrap();
        let outcome = g.to_act().outcome().cloned().unwrap();
        assert_eq!((outcome.winners, outcome.reason.as_str()), (vec![0, 2], TIME_FORFEIT));
        assert_eq!(last_log(&*g), "game over: Black's flag falls with no coin to buy time: Black loses on time");
        assert_eq!(clock(&*g).left_ms[1], 0);
        assert_eq!(g.deadline(), None);
        assert!(g.pgn().unwrap().contains("[Termination \"time forfeit\"]"));
        g.apply_at(1, "say good game", Some(62 * S)).expect("talk goes on after the end, free");
        assert_eq!(clock(&*g).piles, [0, 0]);
    }

    #[test]
    fn a_move_made_after_a_fall_that_coins_paid_for_stands_without_a_claim() {
        let mut g = clocked(1, 2);
        g.apply_at(0, "e2e4", Some(0)).unwrap();
        g.apply_at(2, "say hi", Some(S)).unwrap(); // White pays: Black gets a coin
                                                   // Black moves at 90 s: its
                                                   // flag fell at 60 s, its
                                                   // coin bought 2 minutes.
        g.apply_at(1, "e7e5", Some(90 * S)).unwrap();
        assert_eq!(clock(&*g).left_ms[1], 2 * MINUTE_MS - 30 * S);
        assert!(g
            .view(Viewer::Spectator)
            .log
            .iter()
            .any(|e| e.text.starts_with("Black's flag falls: its 1 coin goes back to the centre for 2:00 more")));
    }

    #[test]
    fn a_replayed_game_reaches_the_same_clocks() {
        let mut g = clocked(1, 2);
        g.apply_at(0, "e2e4", Some(0)).unwrap();
        g.apply_at(1, "say hm", Some(S)).unwrap();
        g.apply_at(1, "e7e5", Some(30 * S)).unwrap();
        g.apply_at(2, "d2d4", Some(95 * S)).unwrap(); // White's coin bought time
        g.apply_at(3, "flag", Some(400 * S)).unwrap(); // Black's flag: no coin
        assert!(g.to_act().is_over());
        let again = replay(&*g);
        assert!(again.same_state(&*g), "same clocks, piles and ending");
        assert_eq!(again.record(), g.record());
        let json = serde_json::to_string(g.record()).unwrap();
        let read: chesskit_core::GameRecord = serde_json::from_str(&json).unwrap();
        assert!(crate::registry::replay(&read).unwrap().same_state(&*g), "through the JSON log too");
    }

    #[test]
    fn an_old_log_without_times_still_loads_and_its_steps_took_no_time() {
        let old = r#"{"variant":"crowded-house","options":{"clock":5},"seed":0,
            "actions":[{"seat":0,"action":"e2e4"},{"seat":1,"action":"say hi"},{"seat":1,"action":"e7e5"}]}"#;
        let record: chesskit_core::GameRecord = serde_json::from_str(old).unwrap();
        let g = crate::registry::replay(&record).unwrap();
        let c = clock(&*g);
        assert_eq!((c.left_ms, c.piles), ([5 * MINUTE_MS; 2], [1, 0]), "talk still costs; time stood still");
        assert_eq!(g.deadline(), None, "no timed step yet: the clocks have not started");
    }

    #[test]
    fn the_clock_is_part_of_the_text_position() {
        let mut g = clocked(30, 2);
        g.apply_at(0, "e2e4", Some(0)).unwrap();
        g.apply_at(1, "say hm", Some(S)).unwrap();
        g.apply_at(1, "e7e5", Some(10 * S)).unwrap();
        g.apply_at(2, "say oh", Some(11 * S)).unwrap();
        let position = g.position();
        assert!(position.ends_with("clock: 1799000 1790000\ncoins: 0 0\npaid: white"), "{position}");
        let options = Options::new().with("clock", 30);
        let back = Session::<CrowdedHouseGame>::start(options.clone(), 0, Some(&position)).unwrap();
        let c = back.game.talking_clock().unwrap();
        assert_eq!((c.left_ms, c.piles, c.paid), ([1_799_000, 1_790_000], [0, 0], [true, false]));
        let error = Session::<CrowdedHouseGame>::start(Options::new(), 0, Some(&position)).unwrap_err().to_string();
        assert!(error.contains("has no clock"), "{error}");
        for (bad, word) in [("clock: 5", "two numbers"), ("coins: a b", "whole numbers"), ("paid: red", "bad paid")] {
            let text = format!("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n{bad}");
            let error = Session::<CrowdedHouseGame>::start(options.clone(), 0, Some(&text)).unwrap_err().to_string();
            assert!(error.contains(word), "{bad}: {error}");
        }
    }
}

#[test]
fn talking_clock_the_time_left_now_is_shown_without_recording_anything() {
    use chesskit_core::session::{DynGame, Session};
    let options = Options::new().with("clock", 1);
    let mut g: Box<dyn DynGame> = Box::new(Session::<CrowdedHouseGame>::start(options, 0, None).unwrap());
    assert!(g.at_time(50_000).same_state(&*g), "no clock runs before the first timed step");
    g.apply_at(0, "e2e4", Some(1_000)).unwrap();
    let now = g.at_time(21_000);
    let clocks = now.view(Viewer::Spectator).clocks;
    assert_eq!((clocks[1].remaining_ms, clocks[1].running), (40_000, true));
    assert_eq!(g.view(Viewer::Spectator).clocks[1].remaining_ms, 60_000, "the game itself is unchanged");
    assert_eq!(now.record(), g.record());
    assert!(g.at_time(500).same_state(&*g), "a time before the last step shows the game as it is");
    let fallen = g.at_time(70_000);
    assert_eq!(fallen.to_act().outcome().unwrap().reason, super::TIME_FORFEIT, "a view after the fall shows it");
    assert!(!g.to_act().is_over());
}

/// The search's transposition table may only share what the rules cannot
/// tell apart: see [`check_position_hash`].
#[test]
fn the_position_key_is_the_same_for_the_same_state_and_differs_for_any_change_the_rules_read() {
    check_position_hash::<CrowdedHouseGame>(&Options::new(), 3, 60);
}

/// The search's questions answered without building lists agree with
/// `to_act` and `legal_actions`, and `clone_from` with a fresh clone: see
/// [`crate::testing::check_allocation_free_answers`].
#[test]
fn the_allocation_free_answers_agree_with_to_act_legal_actions_and_clone() {
    crate::testing::check_allocation_free_answers::<CrowdedHouseGame>(&Options::new(), 3, 60);
}
