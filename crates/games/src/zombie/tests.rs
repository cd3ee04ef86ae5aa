//! Tests of Zombie Chess, each naming the rule clause it checks
//! (rules.md "Zombie Chess", docs/games/zombie.md, "Rulings").

use std::path::PathBuf;

use chesskit_core::chess::{Board, File, Piece, Rank};
use chesskit_core::game::{Game, GameAction, RuleError, Viewer};
use chesskit_core::view::View;

use super::*;
use crate::testing::{mover, refused_as, sq, Told};

// ----------------------------------------------------------------------
// Helpers
// ----------------------------------------------------------------------

fn game_from(text: &str) -> Told<ZombieGame> {
    Told::<ZombieGame>::from_position(text, &Options::new(), 0).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

/// Apply action texts, each by the seat to act.
fn play(game: &mut Told<ZombieGame>, actions: &str) {
    for text in actions.split(',').map(str::trim) {
        let seat = mover(game);
        let action = game.parse_action(seat, text).unwrap_or_else(|e| panic!("{text}: {e}"));
        game.apply(seat, &action).unwrap_or_else(|e| panic!("{text}: {e}\n{}", game.position()));
    }
}

fn log(game: &Told<ZombieGame>, viewer: Viewer) -> Vec<String> {
    game.view(viewer).log.into_iter().map(|e| e.text).collect()
}

fn public_log(game: &Told<ZombieGame>) -> Vec<String> {
    log(game, Viewer::Spectator)
}

fn actions(game: &Told<ZombieGame>) -> Vec<String> {
    game.legal_actions(mover(game)).iter().map(ToString::to_string).collect()
}

fn burials(game: &Told<ZombieGame>, color: Color) -> Vec<(String, char)> {
    game.burials_of(color).iter().map(|(s, r)| (s.to_string(), r.upper_char())).collect()
}

fn markers(view: &View, square: &str) -> Vec<String> {
    let board = view.board.as_ref().unwrap();
    board.square(square).map(|s| s.markers.iter().map(|m| m.kind.clone()).collect()).unwrap_or_default()
}

/// The two diagrams of the Zombie Chess section of the book-example fixtures.
fn fixture_diagrams() -> Vec<Board> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("testdata/book-examples.md");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let section = text.split("## ").find(|s| s.starts_with("Zombie Chess")).expect("a Zombie Chess section");
    let rows: Vec<&str> = section.lines().filter(|l| l.starts_with("    ")).map(str::trim).collect();
    rows.chunks(8)
        .map(|diagram| {
            let mut board = Board::empty();
            for (i, row) in diagram.iter().enumerate() {
                for (file, c) in row.split_whitespace().enumerate() {
                    if let Some(piece) = c.chars().next().and_then(Piece::from_char) {
                        board.set_piece_at(Square::from_coords(File::new(file as u32), Rank::new(7 - i as u32)), piece);
                    }
                }
            }
            board
        })
        .collect()
}

// ----------------------------------------------------------------------
// The book's example
// ----------------------------------------------------------------------

/// rules.md's example game: Black plays e5xd4 and buries the pawn under the
/// knight on c6 (first diagram); White plays Nf3xd4, says "no zombies
/// anywhere", buries under b2; Black plays Nc6xd4, the white pawn rises on
/// c6 as a white zombie, and Black buries the knight under g7 (second diagram).
#[test]
fn book_example_burials_and_the_rising_on_c6() {
    let diagrams = fixture_diagrams();
    assert_eq!(diagrams.len(), 2);
    let mut game = Told::<ZombieGame>::new(&Options::new(), 0).unwrap();
    play(&mut game, "e2e4, e7e5, g1f3, b8c6, d2d4, e5d4");
    assert_eq!(game.step(), Step::Bury, "a capture is followed by a burial");
    assert_eq!(actions(&game).len(), 16, "under any one of Black's sixteen pieces");
    play(&mut game, "bury c6");
    assert_eq!(game.board(), &diagrams[0]);
    assert_eq!(burials(&game, Color::Black), vec![("c6".into(), 'P')]);

    play(&mut game, "f3d4");
    assert_eq!(public_log(&game).last().unwrap(), "no zombies anywhere", "no black piece is in the graveyard");
    play(&mut game, "bury b2");
    assert_eq!(burials(&game, Color::White), vec![("b2".into(), 'P')]);

    play(&mut game, "c6d4");
    assert!(public_log(&game).contains(&"a white zombie pawn rises on c6".to_string()));
    play(&mut game, "bury g7");
    assert_eq!(game.board(), &diagrams[1]);
    assert_eq!(game.zombies(), Bitboard::from_square(Square::C6), "a coin under the risen pawn");
    assert_eq!(burials(&game, Color::Black), vec![("g7".into(), 'N')], "the P is erased from the grid");
    assert_eq!(
        game.position(),
        "r1bqkbnr/pppp1ppp/2P{z}5/8/3nP3/8/PPP2PPP/RNBQKB1R w KQkq - 0 5\n\
         white burials: b2=P\nblack burials: g7=N\ngraveyard: N p\ndust bin: -"
    );
    // White's zombie pawn may now capture, or stay and be destroyed.
    assert!(actions(&game).contains(&"c6b7".to_string()) && actions(&game).contains(&"c6d7".to_string()));
}

// ----------------------------------------------------------------------
// Burials
// ----------------------------------------------------------------------

/// "Secretly bury it under one of your pieces": not under an opponent's
/// piece, not on an empty square, and only when a burial is due.
#[test]
fn a_burial_goes_under_one_of_the_capturers_own_pieces_and_only_after_a_capture() {
    let mut game = Told::<ZombieGame>::new(&Options::new(), 0).unwrap();
    let err = refused_as(&mut game, 0, "bury e2");
    assert!(err.contains("no burial is due"), "{err}");
    play(&mut game, "e2e4, d7d5, e4d5");
    assert!(refused_as(&mut game, 0, "bury d8").contains("holds no piece of yours"));
    assert!(refused_as(&mut game, 0, "bury e4").contains("holds no piece of yours"));
    assert!(refused_as(&mut game, 0, "e1e2").contains("bury the captured piece first"));
    assert!(matches!(game.apply(1, &"bury d8".parse().unwrap()), Err(RuleError::NotYourTurn { seat: 1 })));
    play(&mut game, "bury d5");
    assert_eq!(burials(&game, Color::White), vec![("d5".into(), 'P')]);
}

/// "You can't bury more than one of your opponent's zombie pieces under one
/// of your pieces"; the other player's burial on the same square is no obstacle.
#[test]
fn one_burial_per_square_per_player() {
    let mut game = game_from("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1\nwhite burials: d5=N\nblack burials: d5=R");
    play(&mut game, "e4d5");
    let err = refused_as(&mut game, 0, "bury d5");
    assert!(err.contains("already have a burial under d5"), "{err}");
    play(&mut game, "bury e1");
    assert_eq!(burials(&game, Color::White), vec![("e1".into(), 'P'), ("d5".into(), 'N')]);
    // Black's burial under d5 stays under White's pawn: it waits for Black.
    assert_eq!(burials(&game, Color::Black), vec![("d5".into(), 'R')]);
}

/// "In the very unlikely event that you capture a piece and already have a
/// piece buried under each of your pieces, move it directly to the dust
/// bin and say, 'I cannot bury this piece.'"
#[test]
fn i_cannot_bury_this_piece() {
    let mut game = game_from("4k3/8/8/8/3p4/8/8/3RK3 w - - 0 1\nwhite burials: d4=N e1=P");
    play(&mut game, "d1d4");
    assert_eq!(game.to_act(), ToAct::one(1), "no burial to make: the turn passes");
    let log = public_log(&game);
    assert!(log.contains(&"no zombie at d1".to_string()));
    assert_eq!(log.last().unwrap(), "I cannot bury this piece: the black pawn goes to the dust bin");
    assert_eq!(game.dust_bin(), &[Piece::from_char('p').unwrap()]);
    assert_eq!(burials(&game, Color::White), vec![("e1".into(), 'P'), ("d4".into(), 'N')]);
}

/// Bad input: a move out of turn, a seat that does not exist, a nonsense
/// action, a move that is not legal - a clear error, and nothing changed.
#[test]
fn out_of_turn_and_malformed_actions_change_nothing() {
    let mut game = Told::<ZombieGame>::new(&Options::new(), 0).unwrap();
    assert!(refused_as(&mut game, 1, "e7e5").contains("not seat 1's turn"));
    assert!(refused_as(&mut game, 2, "e2e4").contains("no seat 2"));
    assert!(refused_as(&mut game, 0, "dig a hole").contains("expected a move"));
    assert!(refused_as(&mut game, 0, "e2e5").contains("not a legal move"));
    assert!(refused_as(&mut game, 0, "e7e5").contains("holds no piece of yours"));
    assert!(refused_as(&mut game, 0, "promote e2 q").contains("no zombie pawn of yours"));
    play(&mut game, "Nf3");
    assert_eq!(public_log(&game)[0], "Ng1-f3", "SAN is read too; the log writes long algebraic");
}

/// The public line of a burial is flagged as a secret choice, so a client
/// can tell the opponent that something was buried without knowing the game.
#[test]
fn a_burial_is_heard_by_the_opponent_as_a_secret_choice() {
    let mut game = Told::<ZombieGame>::new(&Options::new(), 0).unwrap();
    play(&mut game, "e2e4, d7d5, e4d5, bury a1");
    let public = game.view(Viewer::Seat(1)).log;
    let line = public.iter().find(|e| e.text == "buries the black pawn").expect("the public line");
    assert_eq!((line.seat, line.secret_choice), (Some(0), true));
    assert!(public.iter().filter(|e| e.secret_choice).count() == 1, "the moves are no secret: {public:?}");
}

/// The opponent learns only that a burial happened and which piece; the
/// square is the burier's secret (Journal::private).
#[test]
fn a_burial_is_private_to_the_burier() {
    let mut game = Told::<ZombieGame>::new(&Options::new(), 0).unwrap();
    play(&mut game, "e2e4, d7d5, e4d5, bury a1");
    let mine = log(&game, Viewer::Seat(0));
    assert!(mine.contains(&"you buried the black pawn under a1".to_string()));
    for viewer in [Viewer::Seat(1), Viewer::Spectator] {
        let theirs = log(&game, viewer);
        assert!(theirs.contains(&"buries the black pawn".to_string()));
        assert!(!theirs.iter().any(|t| t.contains("a1")), "{viewer}: {theirs:?}");
    }
}

// ----------------------------------------------------------------------
// Rising
// ----------------------------------------------------------------------

/// "When castling, complete the move before revealing any zombies": both
/// squares the king and rook left are checked, after the move.
#[test]
fn castling_raises_zombies_on_both_squares_after_the_move() {
    let mut game = game_from("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1\nwhite burials: e1=N h1=B");
    assert!(actions(&game).contains(&"e1g1".to_string()));
    play(&mut game, "e1h1");
    let log = public_log(&game);
    assert!(log.contains(&"a black zombie knight rises on e1".to_string()), "{log:?}");
    assert!(log.contains(&"a black zombie bishop rises on h1".to_string()));
    assert!(game.position().starts_with("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3n{z}RKb{z} b kq - 0 1"));
    assert!(game.burials_of(Color::White).is_empty());
}

/// "If not, say 'no zombie' and say the coordinate you checked"; a player
/// with nothing buried checks nothing, and says nothing after a quiet move.
#[test]
fn no_zombie_at_the_square_checked() {
    let mut game = game_from("4k3/8/8/8/8/8/3P4/4K1N1 w - - 0 1\nwhite burials: d2=Q");
    play(&mut game, "g1f3");
    assert_eq!(public_log(&game).last().unwrap(), "no zombie at g1");
    play(&mut game, "e8d8");
    assert_eq!(public_log(&game).last().unwrap(), "Ke8-d8", "Black has nothing buried and captured nothing");
}

/// Our ruling on the log: "no zombies anywhere" is said where the book's
/// example says it, when a player with nothing buried has captured and is
/// about to bury ("First, they check for zombies. There are no black pieces
/// in the graveyard, so they say 'no zombies anywhere'. Then, they choose
/// where to bury"), and not after every move of a game with an empty graveyard.
#[test]
fn no_zombies_anywhere_is_said_before_a_burial_not_after_every_move() {
    let mut game = Told::<ZombieGame>::new(&Options::new(), 0).unwrap();
    play(&mut game, "e2e4, e7e5, g1f3, b8c6, d2d4");
    assert!(!public_log(&game).iter().any(|t| t == "no zombies anywhere"), "{:?}", public_log(&game));
    play(&mut game, "e5d4");
    assert_eq!(public_log(&game).last().unwrap(), "no zombies anywhere", "Black captured with nothing buried");
    play(&mut game, "bury c6, f3d4");
    assert_eq!(public_log(&game).last().unwrap(), "no zombies anywhere", "so did White");
    play(&mut game, "bury b2, c6d4, bury g7, f1c4");
    let said = public_log(&game).iter().filter(|t| *t == "no zombies anywhere").count();
    assert_eq!(said, 2, "{:?}", public_log(&game));
}

/// Ruling (docs/games/zombie.md): a burial stays when the piece on top is captured, and the
/// opponent leaving the square does not raise it.
#[test]
fn a_burial_stays_when_the_piece_on_top_is_captured() {
    let mut game = game_from("4k3/7p/8/2p5/3N4/8/8/4K3 b - - 0 1\nwhite burials: d4=R");
    play(&mut game, "c5d4, bury h7");
    assert_eq!(burials(&game, Color::White), vec![("d4".into(), 'R')]);
    play(&mut game, "e1e2, d4d3");
    assert_eq!(public_log(&game).last().unwrap(), "no zombie at d4", "Black checks only its own grid");
    assert_eq!(burials(&game, Color::White), vec![("d4".into(), 'R')]);
    assert!(!public_log(&game).iter().any(|t| t.contains("rises")));
}

/// The burial under d4 rises when White stands there and leaves again.
#[test]
fn a_burial_rises_when_its_owner_stands_there_and_leaves_again() {
    let mut game = game_from("7k/8/8/8/3p4/4K3/P7/8 w - - 0 1\nwhite burials: d4=R");
    play(&mut game, "e3d4");
    assert_eq!(public_log(&game).last().unwrap(), "no zombie at e3", "moving onto d4 raises nothing");
    play(&mut game, "bury a2, h8g8, d4c5");
    assert!(public_log(&game).contains(&"a black zombie rook rises on d4".to_string()));
    assert_eq!(game.board().piece_at(sq("d4")), Some(Piece::from_char('r').unwrap()));
    assert!(game.zombies().contains(sq("d4")));
}

/// Ruling (docs/games/zombie.md): "A zombie pawn that rises on its last rank promotes at once
/// (the owner chooses the piece on their next turn, before moving it)".
#[test]
fn a_zombie_pawn_rising_on_its_last_rank_promotes() {
    let mut game = game_from("4k3/8/8/8/8/8/7K/1N6 w - - 0 1\nwhite burials: b1=P");
    play(&mut game, "b1c3");
    let rose = "a black zombie pawn rises on b1 and promotes: its owner chooses the piece";
    assert!(public_log(&game).contains(&rose.to_string()));
    assert_eq!(actions(&game), vec!["promote b1 q", "promote b1 r", "promote b1 b", "promote b1 n"]);
    assert!(refused_as(&mut game, 1, "e8d8").contains("first choose"));
    play(&mut game, "promote b1 r");
    assert_eq!(game.board().piece_at(sq("b1")), Some(Piece::from_char('r').unwrap()));
    assert!(game.zombies().contains(sq("b1")), "still a zombie");
    assert!(actions(&game).contains(&"b1b8".to_string()));
}

/// Ruling: a pawn rising on its own first rank moves one square forward,
/// never two (only a pawn on its second rank has the double step).
#[test]
fn a_zombie_pawn_rising_on_its_first_rank_steps_one_square() {
    let mut game = game_from("4k3/8/8/8/8/8/7K/1n6 b - - 0 1\nblack burials: b1=P");
    play(&mut game, "b1c3");
    assert!(public_log(&game).contains(&"a white zombie pawn rises on b1".to_string()), "{:?}", public_log(&game));
    let offered = actions(&game);
    assert!(offered.contains(&"b1b2".to_string()), "{offered:?}");
    assert!(!offered.contains(&"b1b3".to_string()), "{offered:?}");
}

/// "If moving a piece would put your king in check by revealing a zombie,
/// you may not move that piece" - a rising pawn that will promote counts as
/// any piece its owner may choose.
#[test]
fn no_move_may_reveal_a_zombie_that_checks_the_own_king() {
    let mut game = game_from("4k3/8/8/8/8/8/8/3QK3 w - - 0 1\nwhite burials: d1=P");
    let err = refused_as(&mut game, 0, "d1d5");
    assert!(err.contains("would leave your king in check"), "{err}");
    assert!(!actions(&game).iter().any(|a| a.starts_with("d1")));

    let game = game_from("4k3/8/8/8/8/8/4N3/4K3 w - - 0 1\nwhite burials: e2=R");
    assert!(!actions(&game).iter().any(|a| a.starts_with("e2")), "the rook would rise on e2 and check e1");
    let game = game_from("4k3/8/8/8/8/8/4N3/4K3 w - - 0 1\nwhite burials: e2=N");
    assert!(actions(&game).contains(&"e2c3".to_string()), "a knight on e2 gives no check to e1");
}

/// The zombie marker: a coin in the view, `{z}` in the text position.
#[test]
fn zombies_are_marked() {
    let game = game_from("4k3/8/2P{z}5/8/8/8/8/4K3 w - - 0 1");
    assert!(game.zombies().contains(sq("c6")));
    for viewer in [Viewer::Seat(0), Viewer::Seat(1), Viewer::Spectator] {
        assert_eq!(markers(&game.view(viewer), "c6"), vec!["zombie"]);
    }
    assert!(game.position().starts_with("4k3/8/2P{z}5/"));
}

// ----------------------------------------------------------------------
// The horde
// ----------------------------------------------------------------------

/// "You can move all of them on one turn, although each piece can only move
/// once per turn"; Ruling (docs/games/zombie.md): before or after the regular move. The turn ends
/// by itself when nothing is left to move.
#[test]
fn each_zombie_moves_once_before_or_after_the_regular_move() {
    let mut game = game_from("4k3/7p/8/8/8/1N{z}4B{z}1/7P/4K3 w - - 0 1");
    play(&mut game, "b3d4");
    assert!(refused_as(&mut game, 0, "d4f5").contains("already moved this turn"));
    play(&mut game, "e1d2");
    assert!(refused_as(&mut game, 0, "d2d3").contains("already made your regular move"));
    assert_eq!(mover(&game), 0, "the bishop may still move");
    assert!(actions(&game).contains(&"done".to_string()));
    play(&mut game, "g3e5");
    assert_eq!(mover(&game), 1, "nothing left to move: the turn ends by itself");
    assert_eq!(game.zombies().count(), 2, "both zombies moved and survive");
    assert!(game.dust_bin().is_empty());
}

/// "Any that you don't move will be destroyed at the end of your turn."
#[test]
fn zombies_that_did_not_move_are_destroyed() {
    let mut game = game_from("4k3/7p/8/8/8/1N{z}4B{z}1/7P/4K3 w - - 0 1");
    assert!(refused_as(&mut game, 0, "done").contains("regular move first"));
    play(&mut game, "e1d1, b3c5, done");
    assert_eq!(mover(&game), 1);
    assert!(public_log(&game).contains(&"the white bishop zombie on g3 is destroyed".to_string()));
    assert_eq!(game.dust_bin(), &[Piece::from_char('B').unwrap()]);
    assert_eq!(game.zombies(), Bitboard::from_square(sq("c5")));
    let dust_bin = game.view(Viewer::Spectator).tables.into_iter().find(|t| t.title == "Dust bin").unwrap();
    assert_eq!(dust_bin.rows, vec![vec!["white", "B"], vec!["black", ""]]);
}

/// A captured zombie goes to the dust bin, not the graveyard (docs/games/zombie.md, "Rulings"); a
/// piece a zombie captures is buried like any other.
#[test]
fn a_captured_zombie_goes_to_the_dust_bin_and_zombies_capture_too() {
    let mut game = game_from("4k3/7p/8/3n4/8/2P{z}5/7P/4K3 b - - 0 1");
    play(&mut game, "d5c3");
    assert_eq!(mover(&game), 0, "nothing to bury");
    assert_eq!(game.dust_bin(), &[Piece::from_char('P').unwrap()]);
    assert!(game.graveyard().is_empty());
    let mut game = game_from("4k3/7p/8/3n4/8/2P{z}5/7P/4K3 w - - 0 1");
    play(&mut game, "c3c4, e1e2");
    assert_eq!(mover(&game), 1, "no capture, nothing to bury: the turn passes");
    let mut game = game_from("4k3/7p/8/3n4/2P{z}5/8/7P/4K3 w - - 0 1");
    play(&mut game, "c4d5, e1e2");
    assert_eq!(game.step(), Step::Bury);
    play(&mut game, "bury d5");
    assert_eq!(burials(&game, Color::White), vec![("d5".into(), 'N')]);
}

/// Ruling (docs/games/zombie.md), "zombie turn" option: moving your zombies
/// may be your whole turn.
#[test]
fn the_zombie_turn_option() {
    let text = "4k3/7p/8/8/8/1N{z}6/7P/4K3 w - - 0 1";
    let mut plain = game_from(text);
    play(&mut plain, "b3d4");
    assert!(refused_as(&mut plain, 0, "done").contains("make your regular move first"));
    let options = Options::new().with("zombie_turn", true);
    let mut game = Told::<ZombieGame>::from_position(text, &options, 0).unwrap();
    assert!(!actions(&game).contains(&"done".to_string()), "a zombie must move first");
    play(&mut game, "b3d4");
    assert!(actions(&game).contains(&"done".to_string()));
    play(&mut game, "done");
    assert_eq!(mover(&game), 1);
    assert!(ZombieGame::option_specs().iter().any(|s| s.name == "zombie_turn"));
}

// ----------------------------------------------------------------------
// Game end
// ----------------------------------------------------------------------

/// "Checkmate your opponent's king": the only block would reveal a black
/// zombie knight that checks the king, so White is mated; without the
/// burial the block is legal.
#[test]
fn checkmate_when_every_escape_reveals_a_zombie() {
    let position = "4k3/8/8/8/8/8/5NPP/r6K w - - 0 1";
    let game = game_from(&format!("{position}\nwhite burials: f2=N"));
    assert_eq!(game.to_act(), ToAct::Over(Outcome::win(vec![1], "checkmate")));
    let game = game_from(position);
    assert_eq!(actions(&game), vec!["f2d1"]);
}

/// Stalemate: not in check, but every way to complete a turn leaves the
/// king in check (here: Kg1 would raise a black rook on h1).
#[test]
fn stalemate_when_no_turn_can_be_completed() {
    let position = "8/8/8/8/8/5k1p/7P/7K w - - 0 1";
    let game = game_from(&format!("{position}\nwhite burials: h1=R"));
    assert_eq!(game.to_act(), ToAct::Over(Outcome::draw("stalemate")));
    assert!(game_from(position).to_act().seats() == [0]);
}

/// "Every move must leave your own king out of check": the turn must be
/// completable, so a zombie that shields the king and cannot move keeps the
/// other moves from being legal unless they save the king themselves.
#[test]
fn a_step_is_legal_only_if_the_turn_can_still_be_completed() {
    // The zombie knight on e2 shields the king from the rook: if it moves,
    // or stays and is destroyed, the king is in check.
    let mut game = game_from("4r2k/8/8/8/8/8/P3N{z}3/4K3 w - - 0 1");
    let err = refused_as(&mut game, 0, "a2a3");
    assert!(err.contains("could not be completed"), "{err}");
    let legal = actions(&game);
    assert!(legal.iter().all(|a| a.starts_with("e1")), "{legal:?}");
    play(&mut game, "e1d1");
    assert_eq!(mover(&game), 0, "the zombie may still move");
    play(&mut game, "done");
    assert!(game.zombies().is_empty());
}

/// Insufficient material ends the game only when nothing can rise any more.
#[test]
fn insufficient_material_needs_an_empty_graveyard() {
    assert_eq!(game_from("4k3/8/8/8/8/8/8/4K3 w - - 0 1").to_act().outcome().unwrap().reason, "insufficient material");
    assert!(!game_from("4k3/8/8/8/8/8/8/4K3 w - - 0 1\nwhite burials: e1=N").to_act().is_over());
}

// ----------------------------------------------------------------------
// En passant in a turn of several steps
// ----------------------------------------------------------------------

/// Ruling of ours: the en passant right from a double step lasts through the
/// opponent's whole next turn, whatever else moved in the turn.
#[test]
fn en_passant_survives_the_other_steps_of_a_turn() {
    let mut game = game_from("4k3/8/8/8/3p4/8/4P3/N{z}3K3 w - - 0 1");
    play(&mut game, "e2e4, a1b3");
    assert!(game.position().contains(" b - e3 "), "{}", game.position());
    assert!(actions(&game).contains(&"d4e3".to_string()));
}

// ----------------------------------------------------------------------
// Views and hidden information
// ----------------------------------------------------------------------

/// Each seat sees its own grid (markers of kind "burial" with the letter),
/// never the opponent's; spectators see neither.
#[test]
fn each_seat_sees_only_its_own_grid() {
    let game = game_from("4k3/8/8/8/8/8/8/4K3 w - - 0 1\nwhite burials: e1=N\nblack burials: e8=N");
    let view = game.view(Viewer::Seat(0));
    let e1 = view.board.as_ref().unwrap().square("e1").unwrap();
    let burial = &e1.markers[0];
    assert_eq!(
        (burial.kind.as_str(), burial.colour.as_deref(), burial.text.as_deref()),
        ("burial", Some("black"), Some("N"))
    );
    assert!(markers(&view, "e8").is_empty());
    assert_eq!(markers(&game.view(Viewer::Seat(1)), "e8"), vec!["burial"]);
    assert!(markers(&game.view(Viewer::Seat(1)), "e1").is_empty());
    let spectator = game.view(Viewer::Spectator);
    assert!(markers(&spectator, "e1").is_empty() && markers(&spectator, "e8").is_empty());
    let graveyard = &spectator.tables[0];
    assert_eq!(graveyard.title, "Graveyard");
    assert_eq!(graveyard.rows, vec![vec!["white", "N"], vec!["black", "n"]]);
}

/// Whether the turn ends by itself must not depend on a secret: here White's
/// zombie knight may not leave e2 in one game (White buried a black rook
/// under it, which would rise next to the king) and may in the other, so
/// both turns wait for White's "done" and Black sees the same.
#[test]
fn the_turn_does_not_end_by_itself_on_what_the_burials_forbid() {
    let board = "4k3/8/8/8/8/8/4N{z}2P/4K3 w - - 0 1";
    let mut forbidden = game_from(&format!("{board}\nwhite burials: e2=R"));
    let mut free = game_from(&format!("{board}\nwhite burials: e1=R"));
    for game in [&mut forbidden, &mut free] {
        play(game, "h2h3");
        assert_eq!(mover(game), 0, "White's turn goes on until done");
    }
    assert_eq!(actions(&forbidden), vec!["done"], "the zombie may not move: the rook would rise beside the king");
    assert!(actions(&free).contains(&"e2c3".to_string()));
    assert_eq!(forbidden.view(Viewer::Seat(1)), free.view(Viewer::Seat(1)));
    assert_eq!(forbidden.view(Viewer::Spectator), free.view(Viewer::Spectator));
}

/// Two games that differ only in Black's secret burial give White (and a
/// spectator) identical views until the rules reveal the difference: the
/// pawn rising on c6 in one game and not the other.
#[test]
fn secret_burials_do_not_show_until_a_zombie_rises() {
    let mut a = Told::<ZombieGame>::new(&Options::new(), 0).unwrap();
    let mut b = a.clone();
    play(&mut a, "e2e4, e7e5, g1f3, b8c6, d2d4, e5d4, bury c6");
    play(&mut b, "e2e4, e7e5, g1f3, b8c6, d2d4, e5d4, bury a8");
    assert_ne!(a.view(Viewer::Seat(1)), b.view(Viewer::Seat(1)), "Black knows where it buried");
    for moves in ["f3d4, bury b2", "g8f6, f1c4", "f8c5, e1g1"] {
        play(&mut a, moves);
        play(&mut b, moves);
        assert_eq!(a.view(Viewer::Seat(0)), b.view(Viewer::Seat(0)));
        assert_eq!(a.view(Viewer::Spectator), b.view(Viewer::Spectator));
    }
    play(&mut a, "c6d4");
    play(&mut b, "c6d4");
    assert_ne!(a.view(Viewer::Seat(0)), b.view(Viewer::Seat(0)), "the rising shows the difference");
    assert!(log(&a, Viewer::Seat(0)).contains(&"a white zombie pawn rises on c6".to_string()));
    assert!(log(&b, Viewer::Seat(0)).contains(&"no zombie at c6".to_string()));
}

/// `sample_hidden` re-draws the opponent's burials consistently with what
/// the seat has seen, and keeps its own.
#[test]
fn sampled_burials_are_consistent_with_what_the_seat_has_seen() {
    // Black buries under h8 while its pieces stand on ranks 7 and 8 (but
    // d7, d8) and on d5; then leaves d5 with "no zombie at d5".
    let mut game = Told::<ZombieGame>::new(&Options::new(), 0).unwrap();
    play(&mut game, "e2e4, d7d5, e4d5, bury d5, d8d5, bury h8, g1f3, d5d8");
    assert!(public_log(&game).contains(&"no zombie at d5".to_string()));
    let mut rng = GameRng::from_seed(9);
    let mut seen = std::collections::BTreeSet::new();
    for _ in 0..60 {
        let sampled = game.sample_hidden(0, &mut rng);
        assert_eq!(sampled.burials_of(Color::White), game.burials_of(Color::White), "White's own grid is kept");
        let black = sampled.burials_of(Color::Black);
        assert_eq!(black.values().copied().collect::<Vec<_>>(), vec![Role::Pawn]);
        let (&square, _) = black.iter().next().unwrap();
        assert!(square != sq("d5") && square != sq("d8") && square != sq("d7"), "{square}");
        assert!(Bitboard::from_rank(Rank::Seventh).with(Bitboard::from_rank(Rank::Eighth)).contains(square));
        seen.insert(square);
        assert_eq!(sampled.view(Viewer::Seat(0)), game.view(Viewer::Seat(0)));
        assert_eq!(sampled.view(Viewer::Spectator), game.view(Viewer::Spectator));
    }
    assert!(seen.len() > 5, "the burial is re-drawn among many squares: {seen:?}");
}

/// The moves the opponent did not make: Black's queen stood on d5 with
/// a dozen moves on offer for four turns while Black only shuffled a
/// knight, so a burial under d5 (which moving the queen would raise) fits
/// Black's choices better than one under a piece that could not move.
/// White's re-draws put it there more often than right after the burial.
#[test]
fn sampled_burials_weigh_the_moves_the_opponent_did_not_make() {
    let mut game = Told::<ZombieGame>::new(&Options::new(), 0).unwrap();
    play(&mut game, "e2e4, d7d5, e4d5, bury d5, d8d5, bury h8");
    let share_under_the_queen = |game: &Told<ZombieGame>| {
        let mut rng = GameRng::from_seed(11);
        let draws = 400;
        let hits =
            (0..draws).filter(|_| game.sample_hidden(0, &mut rng).burials_of(Color::Black).contains_key(&sq("d5")));
        hits.count() as f64 / draws as f64
    };
    let right_after_the_burial = share_under_the_queen(&game);
    play(&mut game, "a2a3, b8c6, b2b3, c6b8, h2h3, b8c6, g2g3, c6b8, a3a4");
    let after_four_still_turns = share_under_the_queen(&game);
    assert!(
        after_four_still_turns > 2.0 * right_after_the_burial,
        "under the queen: {right_after_the_burial} right after the burial, {after_four_still_turns} after it stood still"
    );
}

/// Where a turn is a chess move, `Table::legal_moves` takes chess's legal
/// moves for the steps that raise no burial: along random games (with
/// burials, risings and zombies) it lists what trying every candidate
/// step lists.
#[test]
fn every_move_must_leave_your_own_king_out_of_check_the_chess_shortcut_agrees_along_random_games() {
    let mut chess_turns = 0;
    for seed in 0..40 {
        let mut game = Told::<ZombieGame>::new(&Options::new(), seed).unwrap();
        let mut rng = GameRng::from_seed(seed);
        for _ in 0..300 {
            let Some(seat) = game.game.first_to_act() else { break };
            let table = &game.game.table;
            let rules = game.game.rules();
            chess_turns += usize::from(table.chess_turn());
            assert_eq!(table.legal_moves(rules), table.legal_moves_tried_one_by_one(rules), "seed {seed}");
            let actions = game.game.legal_actions(seat);
            let action = *rng.choose(&actions).unwrap();
            game.game.apply(seat, &action).unwrap();
        }
    }
    assert!(chess_turns > 1000, "the shortcut was tried: {chess_turns}");
}

/// The search's shortcuts list what the full lists give: quiescence's
/// captures and promotions are the legal actions that are noisy, in their
/// order, and a move is resolved among its piece's candidates as among
/// every candidate. Along random games with burials, risings and zombies.
#[test]
fn the_noisy_steps_and_a_pieces_candidates_agree_with_the_full_lists_along_random_games() {
    let (mut noisy_seen, mut zombie_steps) = (0, 0);
    for seed in 0..30 {
        let mut game = Told::<ZombieGame>::new(&Options::new(), seed).unwrap();
        let mut rng = GameRng::from_seed(seed);
        for _ in 0..300 {
            let Some(seat) = game.game.first_to_act() else { break };
            let actions = game.game.legal_actions(seat);
            let mut noisy = Vec::new();
            game.game.noisy_actions_into(seat, &mut noisy);
            let expected: Vec<ZombieAction> = actions.iter().copied().filter(|a| game.game.is_noisy(a)).collect();
            assert_eq!(noisy, expected, "seed {seed}\n{}", game.position());
            noisy_seen += noisy.len();
            let table = &game.game.table;
            let all = table.candidate_moves();
            for m in &all {
                let named = UciAction::from_move(*m, CastlingStyle::Standard);
                let mut of_piece = MoveList::new();
                table.candidate_moves_of(named.from, &mut of_piece);
                assert_eq!(named.resolve(&of_piece), named.resolve(&all), "seed {seed} {named}");
                zombie_steps += usize::from(table.is_zombie_move(*m));
            }
            let action = *rng.choose(&actions).unwrap();
            game.game.apply(seat, &action).unwrap();
        }
    }
    assert!(noisy_seen > 1000 && zombie_steps > 100, "{noisy_seen} noisy actions, {zombie_steps} zombie steps");
}

/// The moves on offer are counted on the board alone: two games that
/// differ only in where Black buried draw the same worlds for White.
#[test]
fn the_moves_offered_do_not_depend_on_the_secret_burials() {
    let sampled = |burial: &str| {
        let mut game = Told::<ZombieGame>::new(&Options::new(), 0).unwrap();
        play(&mut game, &format!("e2e4, d7d5, e4d5, bury d5, d8d5, {burial}, g1f3, b8c6, f3g1, c6b8"));
        let mut rng = GameRng::from_seed(12);
        (0..50).map(|_| *game.sample_hidden(0, &mut rng).burials_of(Color::Black)).collect::<Vec<_>>()
    };
    assert_eq!(sampled("bury h8"), sampled("bury a7"));
}

// ----------------------------------------------------------------------
// Text positions
// ----------------------------------------------------------------------

/// `position()` writes what `from_position` reads back exactly, at every
/// step of a turn (moves in progress, burials due).
#[test]
fn text_positions_round_trip_at_every_step() {
    let mut game = game_from("4k3/8/8/3n4/2P{z}5/1N{z}6/4P3/4K3 w - - 0 1\nwhite burials: e1=P\nblack burials: d5=B");
    let mut texts = vec![game.position()];
    for action in ["c4d5", "b3a5", "e2e4", "bury d5"] {
        play(&mut game, action);
        texts.push(game.position());
    }
    assert!(texts[1].contains("zombies moved: d5\nleft: c4\nto bury: N"), "{}", texts[1]);
    assert!(texts[3].contains("step: bury\nto bury: N\nnext en passant: e3"), "{}", texts[3]);
    for text in texts {
        assert_eq!(game_from(&text).position(), text);
    }
}

/// Bad positions are refused with a clear reason.
#[test]
fn bad_positions_are_refused() {
    let cases = [
        ("4k3/8/8/8/8/8/8/4K{z}3 w - - 0 1", "cannot be a zombie"),
        ("4k3/8/8/8/8/8/8/4KN{x}2 w - - 0 1", "unknown marker"),
        ("4k3/8/8/8/8/8/8/P3K3 w - - 0 1", "only a zombie pawn"),
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1\nwhite burials: e1=P e1=N", "one per square"),
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1\nwhite burials: e1=K", "bad buried piece"),
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1\nwhite burials: e1=P\ngraveyard: P", "graveyard"),
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1\ncolour: red", "unknown line"),
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1\nstep: bury", "to bury"),
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1\nregular move: made", "left"),
        ("4k3/8/8/8/8/8/8/R{z}3K2R w KQ - 0 1", "zombie rook"),
    ];
    for (text, expected) in cases {
        let err = Told::<ZombieGame>::from_position(text, &Options::new(), 0).unwrap_err();
        assert!(err.0.contains(expected), "{text}: {err}");
    }
}

/// Options are checked: a misspelt option is an error.
#[test]
fn unknown_options_are_refused() {
    assert!(Told::<ZombieGame>::new(&Options::new().with("zombie_tun", true), 0).is_err());
}

/// In random games, every re-draw keeps the pieces of the opponent's
/// graveyard (only their squares are secret), keeps the seat's own grid,
/// and does move burials around.
#[test]
fn sampled_grids_keep_the_graveyard_in_random_games() {
    let mut redrawn = 0;
    for seed in 0..6 {
        let mut game = Told::<ZombieGame>::new(&Options::new(), seed).unwrap();
        let mut rng = GameRng::from_seed(seed);
        for _ in 0..400 {
            let Some(&seat) = game.to_act().seats().first() else { break };
            for viewer in [0, 1] {
                let sampled = game.sample_hidden(viewer, &mut rng);
                let own = seat_color(viewer);
                assert_eq!(sampled.burials_of(own), game.burials_of(own));
                let roles = |g: &Told<ZombieGame>| {
                    let mut r: Vec<Role> = g.burials_of(own.other()).values().copied().collect();
                    r.sort();
                    r
                };
                assert_eq!(roles(&sampled), roles(&game));
                if sampled.burials_of(own.other()) != game.burials_of(own.other()) {
                    redrawn += 1;
                }
            }
            let actions = game.legal_actions(seat);
            let action = *rng.choose(&actions).unwrap();
            game.apply(seat, &action).unwrap();
        }
    }
    assert!(redrawn > 100, "burials are re-drawn ({redrawn} times)");
}

// ----------------------------------------------------------------------
// Export
// ----------------------------------------------------------------------

/// The book's sequence as PGN: one move per turn in long algebraic
/// notation, and the burials (where, too: the export is for finished games)
/// and the rising as comments.
#[test]
fn pgn_has_a_move_per_turn_and_the_burials_as_comments() {
    let mut game = Told::<ZombieGame>::new(&Options::new(), 0).unwrap();
    play(&mut game, "e2e4, e7e5, g1f3, b8c6, d2d4, e5d4, bury c6, f3d4, bury b2, c6d4, bury g7");
    let pgn = game.pgn().unwrap();
    assert!(pgn.contains("[Variant \"Zombie\"]") && pgn.contains("[Result \"*\"]"), "{pgn}");
    assert!(!pgn.contains("[FEN"), "the orthodox start needs no FEN tag: {pgn}");
    let movetext = pgn.split("\n\n").nth(1).unwrap().replace('\n', " ");
    assert!(movetext.starts_with("1. e2-e4 e7-e5 2. Ng1-f3 Nb8-c6 3. d2-d4"), "{movetext}");
    for expected in [
        "3. d2-d4 e5xd4 {Black: no zombies anywhere} {Black: buries the white pawn} \
         {Black, privately: you buried the white pawn under c6} 4. Nf3xd4",
        "{White, privately: you buried the black pawn under b2}",
        "4... Nc6xd4 {Black: a white zombie pawn rises on c6}",
        "{Black, privately: you buried the white knight under g7} *",
    ] {
        assert!(movetext.contains(expected), "{expected} in {movetext}");
    }
}

/// A turn of zombie moves only ("zombie turn" option) is a null move, and a
/// game from a text position carries it in the FEN tag.
#[test]
fn pgn_of_a_zombie_turn_from_a_position() {
    let text = "4k3/7p/8/8/8/1N{z}6/7P/4K3 w - - 0 1";
    let options = Options::new().with("zombie_turn", true);
    let mut game = Told::<ZombieGame>::from_position(text, &options, 0).unwrap();
    play(&mut game, "b3d4, done, h7h6");
    let pgn = game.pgn().unwrap();
    assert!(pgn.contains("[SetUp \"1\"]\n[FEN \"4k3/7p/8/8/8/1N6/7P/4K3 w - - 0 1\"]"), "{pgn}");
    assert!(pgn.contains(&format!("[ChesskitPosition \"{text}\"]")), "the zombie on b3: {pgn}");
    let movetext = pgn.split("\n\n").nth(1).unwrap().replace('\n', " ");
    assert!(
        movetext.starts_with(
            "1. {White: zombie Nb3-d4} {White: ends the moves of the turn} -- {moved only zombies this turn} 1... h7-h6"
        ),
        "{movetext}"
    );
}

/// The zombie moves made before a turn's regular move are part of that
/// turn: they come after the turn's number, before the move; those made
/// after it follow the move.
#[test]
fn pgn_writes_zombie_moves_before_the_regular_move_after_the_turn_number() {
    let mut game = game_from("4k3/7p/1n{z}6/8/8/1N{z}6/7P/4K3 w - - 0 1");
    play(&mut game, "b3d4, h2h3, b6c4, h7h6, e1e2, d4f5");
    let pgn = game.pgn().unwrap();
    let movetext = pgn.split("\n\n").nth(1).unwrap().replace('\n', " ");
    assert!(
        movetext.starts_with("1. {White: zombie Nb3-d4} h2-h3 1... {Black: zombie Nb6-c4} h7-h6 2. Ke1-e2"),
        "{movetext}"
    );
    assert!(movetext.contains("2. Ke1-e2 {White: zombie Nd4-f5}"), "{movetext}");
}

/// A game that starts in the middle of a turn whose regular move is made
/// numbers the next player's move: here Black has taken on d5 and buries.
#[test]
fn pgn_of_a_game_started_after_the_regular_move() {
    let mut game = game_from("4k3/8/8/3p4/8/8/8/4K3 b - - 0 7\nstep: bury\nto bury: N\ngraveyard: N");
    play(&mut game, "bury d5, e1e2");
    let pgn = game.pgn().unwrap();
    let movetext = pgn.split("\n\n").nth(1).unwrap().replace('\n', " ");
    assert!(movetext.contains("{Black: buries the white knight}"), "{movetext}");
    assert!(movetext.contains("8. Ke1-e2"), "White's move is the first of turn 8: {movetext}");
}

// ----------------------------------------------------------------------
// Rulings: each step of a turn is judged when it is made
// ----------------------------------------------------------------------

/// Ruling (docs/games/zombie.md) "Each step of a turn is judged when it is made": a king in check
/// at the start of the turn may castle once a zombie move of the same turn
/// has blocked the check - not before, while it is still in check.
#[test]
fn ruling_a_king_in_check_may_castle_once_a_zombie_move_has_blocked_the_check() {
    let mut game = game_from("k3r3/8/8/8/8/2N{z}5/8/4K2R w K - 0 1");
    assert!(!actions(&game).contains(&"e1g1".to_string()), "in check: no castling yet");
    refused_as(&mut game, 0, "e1g1");
    play(&mut game, "c3e2");
    assert!(actions(&game).contains(&"e1g1".to_string()), "{:?}", actions(&game));
    play(&mut game, "e1g1");
    assert_eq!(game.board().piece_at(sq("g1")), Some(Piece::from_char('K').unwrap()));
    assert_eq!(game.board().piece_at(sq("f1")), Some(Piece::from_char('R').unwrap()));
    assert_eq!(mover(&game), 1, "nothing left to move: the turn is over");
}

/// The same ruling: "as long as it ... passes no attacked square, when it
/// castles": the bishop on h3 attacks f1, so the block does not allow castling.
#[test]
fn ruling_castling_after_the_block_still_passes_no_attacked_square() {
    let mut game = game_from("k3r3/8/8/8/8/2N{z}4b/8/4K2R w K - 0 1");
    play(&mut game, "c3e2");
    assert!(!actions(&game).contains(&"e1g1".to_string()), "{:?}", actions(&game));
    refused_as(&mut game, 0, "e1g1");
}

/// Ruling (docs/games/zombie.md): "A zombie pawn that rises on its second rank may make a double
/// step, as a pawn there may."
#[test]
fn ruling_a_zombie_pawn_rising_on_its_second_rank_may_double_step() {
    let mut game = game_from("4k3/8/8/8/3p4/8/4n3/K7 b - - 0 1\nblack burials: e2=P");
    play(&mut game, "e2g3");
    assert!(public_log(&game).contains(&"a white zombie pawn rises on e2".to_string()), "{:?}", public_log(&game));
    let offered = actions(&game);
    assert!(offered.contains(&"e2e4".to_string()) && offered.contains(&"e2e3".to_string()), "{offered:?}");
    play(&mut game, "e2e4, a1b1");
    assert!(actions(&game).contains(&"d4e3".to_string()), "the double step gives en passant: {}", game.position());
}

/// Our ruling: a player who can move zombies but cannot make a regular move
/// is stalemated (the zombies' moves alone are not a turn), and the log says
/// why; with the "zombie turn" option those moves are a turn.
#[test]
fn stalemate_with_zombie_moves_but_no_regular_move_unless_the_zombie_turn_option() {
    let text = "k7/8/8/8/8/8/5q2/N{z}6K w - - 0 1";
    let game = game_from(text);
    assert_eq!(game.to_act(), ToAct::Over(Outcome::draw("stalemate")));
    let log = public_log(&game);
    assert!(
        log.iter().any(|t| t.contains("can move zombies but cannot make a regular move") && t.contains("zombie turn")),
        "{log:?}"
    );
    let options = Options::new().with("zombie_turn", true);
    let mut game = Told::<ZombieGame>::from_position(text, &options, 0).unwrap();
    let mut offered = actions(&game);
    offered.sort();
    assert_eq!(offered, vec!["a1b3", "a1c2"]);
    play(&mut game, "a1b3, done");
    assert_eq!(mover(&game), 1);
    // A stalemate with no zombie to move says nothing more.
    let game = game_from("k7/8/8/8/8/8/5q2/7K w - - 0 1");
    assert!(!public_log(&game).iter().any(|t| t.contains("zombie")), "{:?}", public_log(&game));
}

// ----------------------------------------------------------------------
// Prompts and labels in words
// ----------------------------------------------------------------------

fn prompt(game: &Told<ZombieGame>) -> String {
    game.view(Viewer::Seat(mover(game))).prompt.unwrap()
}

/// What the player is asked to do reads as English, not as action syntax.
#[test]
fn prompts_and_labels_are_plain_words() {
    let mut game = game_from("4k3/7p/8/3p4/4P3/1N{z}4B{z}1/7P/4K3 w - - 0 1");
    assert_eq!(
        prompt(&game),
        "Your move: make your regular move; your zombies on b3 and g3 may each move once, before or after it, \
         and those that do not move are destroyed"
    );
    assert_eq!(game.view(Viewer::Seat(1)).prompt.unwrap(), "White to move");
    play(&mut game, "b3d2, e4d5");
    assert_eq!(prompt(&game), "Move your zombie on g3, or end the turn: it is destroyed if it does not move");
    play(&mut game, "done");
    assert_eq!(prompt(&game), "Choose one of your pieces to bury the captured black pawn under");
    let label = |game: &Told<ZombieGame>, text: &str| {
        let action: ZombieAction = text.parse().unwrap();
        assert!(game.legal_actions(mover(game)).contains(&action), "{text}");
        action.info().label.unwrap()
    };
    assert_eq!(label(&game, "bury d5"), "Bury it under your piece on d5");
    let game = game_from("4k3/8/8/8/8/8/7K/1N6 w - - 0 1\nwhite burials: b1=P");
    let mut game = game;
    play(&mut game, "b1c3");
    assert_eq!(
        prompt(&game),
        "Your zombie pawn on b1 promotes: choose what it becomes (a queen, rook, bishop or knight)"
    );
    assert_eq!(label(&game, "promote b1 q"), "Promote the zombie pawn on b1 to a queen");
    assert!(refused_as(&mut game, 1, "e8d8").contains("a queen, rook, bishop or knight"));
}

/// In random games, no prompt, label or note shows action syntax.
#[test]
fn prompts_labels_and_notes_never_show_action_syntax_in_random_games() {
    for seed in 0..4 {
        let mut game = Told::<ZombieGame>::new(&Options::new(), seed).unwrap();
        let mut rng = GameRng::from_seed(seed);
        for _ in 0..300 {
            let Some(&seat) = game.to_act().seats().first() else { break };
            let view = game.view(Viewer::Seat(seat));
            let mut texts: Vec<String> = view.prompt.into_iter().chain(view.notes).collect();
            let actions = game.legal_actions(seat);
            texts.extend(actions.iter().filter_map(|a| a.info().label));
            for text in texts {
                let syntax = ["<", "`", "bury c", "(bury", "(promote", "done", "=", "(q"];
                assert!(!syntax.iter().any(|s| text.contains(s)), "{text}");
                assert!(text.starts_with(|c: char| c.is_uppercase()), "{text}");
            }
            let action = *rng.choose(&actions).unwrap();
            game.apply(seat, &action).unwrap();
        }
    }
}

/// The rules panel shows the sections "The rules in our words" and
/// "Rulings" of docs/games/zombie.md (docs/api.md serves them): they are written for
/// players, without code, action syntax or text positions.
#[test]
fn the_rules_panel_sections_are_for_players() {
    let page = include_str!("../../../../docs/games/zombie.md");
    let start = page.find("## The rules in our words").expect("the rules section");
    let rulings = page.find("## Rulings").expect("the rulings section");
    let end = page[rulings + 3..].find("\n## ").map_or(page.len(), |i| rulings + 3 + i);
    assert!(start < rulings);
    let panel = &page[start..end];
    for developer in ["`", ".rs", ".md", "crates/", "{z}", "zombie_turn", "bury c", "promote b", "seat 0", "UCI"] {
        assert!(!panel.contains(developer), "{developer:?} in the rules panel");
    }
    for clause in ["Each step of a turn is judged when it is made", "second rank", "Zombie moves alone are not a turn"]
    {
        assert!(panel.contains(clause), "{clause:?} missing");
    }
}

/// The horde of the bug report (issue 8), as it was reported: the idle
/// zombie knight on b1 shields the king from the rook on h1, six zombie
/// knights are free, and only Rg7-g1 saves the king, so `a2b3` is refused.
/// (It took seconds per request; the bench `zombie` times it.)
#[test]
fn the_reported_horde_refuses_a_move_after_which_the_turn_cannot_be_completed() {
    let mut game = game_from(
        "7k/3N{z}2R1/2N{z}1N{z}3/3N{z}1N{z}2/4N{z}3/pp6/PP6/KN{z}5r w - - 0 1\n\
         white burials: -\nblack burials: -\ngraveyard: -\ndust bin: -",
    );
    let legal = actions(&game);
    assert!(legal.contains(&"g7g1".to_string()) && !legal.contains(&"a2b3".to_string()), "{legal:?}");
    let err = refused_as(&mut game, 0, "a2b3");
    assert!(err.contains("could not be completed"), "{err}");
    play(&mut game, "g7g1, b1c3, done");
    assert_eq!(mover(&game), 1);
}

/// A zombie rises on the square a pawn left by its double step (the pawn
/// moved off a burial): the en passant square behind it stays open
/// ("when the capturer moves off that square"), and the text position
/// that names it loads back although the pawn's starting square is taken.
#[test]
fn text_position_en_passant_behind_a_pawn_whose_double_step_raised_a_zombie_loads_back() {
    let text = "4k1N{z}r/r4p1q/3Q4/2n1p1p1/1p1pP2b/BpP5/P3n{z}1P1/R2K1BN1 b k e3 0 33\n\
                white burials: g2=P a3=B c3=P\nblack burials: e5=P g5=P f7=R e8=P h8=N\n\
                graveyard: P P P N R p p b\ndust bin: -";
    let g = game_from(text);
    assert_eq!(g.position(), text);
    assert!(g.legal_actions(1).iter().any(|a| a.to_string() == "d4e3"), "en passant d4xe3");
}

/// "Move it directly to the dust bin" and the graveyard the zombies rise
/// from: both are piles of pieces beside the board, and the view draws
/// them as pieces (each letter a piece, white upper case) while its text
/// still lists the letters.
#[test]
fn the_graveyard_and_the_dust_bin_beside_the_board_are_drawn_as_their_pieces() {
    use chesskit_core::view::TableDrawing;
    let game = game_from(
        "r1bqkbnr/pppp1ppp/2P{z}5/8/3nP3/8/PPP2PPP/RNBQKB1R w KQkq - 0 5\n\
         white burials: b2=P\nblack burials: g7=N\ngraveyard: N p\ndust bin: B",
    );
    let view = game.view(Viewer::Spectator);
    for (title, white, black) in [("Graveyard", "N", "p"), ("Dust bin", "B", "")] {
        let table = view.tables.iter().find(|t| t.title == title).unwrap_or_else(|| panic!("no {title}"));
        assert_eq!(table.rows, vec![vec!["white", white], vec!["black", black]], "{title}");
        assert_eq!(
            table.drawn_as,
            Some(TableDrawing::Pieces { columns: vec![1], headers: vec![], colour: None }),
            "the {title} drawn as pieces"
        );
    }
}

/// The computer's transposition key (`Game::position_hash`) covers what the
/// rules read, the secret burials included: a search runs on a drawn world.
#[test]
fn the_zobrist_key_is_the_same_for_a_transposition_and_differs_for_any_change_the_rules_read() {
    let start = || Told::<ZombieGame>::new(&Options::new(), 0).unwrap();
    let (mut one, mut other) = (start(), start());
    play(&mut one, "g1f3, b8c6, b1c3");
    play(&mut other, "b1c3, b8c6, g1f3");
    let (one, other) = (one.game, other.game);
    crate::testing::assert_the_key_follows_the_state(
        &one,
        &other,
        &[
            ("a piece", crate::testing::changed(&one, |g| g.table.pos.board_mut().discard_piece_at(sq("a2")))),
            ("a zombie", crate::testing::changed(&one, |g| g.table.zombies.toggle(sq("a2")))),
            ("a zombie moved", crate::testing::changed(&one, |g| g.table.moved.toggle(sq("a2")))),
            ("a square left", crate::testing::changed(&one, |g| g.table.left.toggle(sq("b1")))),
            ("the regular move made", crate::testing::changed(&one, |g| g.table.regular_done = !g.table.regular_done)),
            ("an en passant square to come", crate::testing::changed(&one, |g| g.table.next_ep = Some(sq("e6")))),
            ("the burial step", crate::testing::changed(&one, |g| g.step = Step::Bury)),
            ("the zombie turn option", crate::testing::changed(&one, |g| g.zombie_turn = !g.zombie_turn)),
            (
                "a secret burial",
                crate::testing::changed(&one, |g| {
                    g.burials[0].insert(sq("a2"), Role::Knight);
                }),
            ),
            ("a piece to bury", crate::testing::changed(&one, |g| g.to_bury.push(Role::Knight))),
        ],
    );
}

// ----------------------------------------------------------------------
// The computer's estimate
// ----------------------------------------------------------------------

fn estimate(text: &str, seat: Seat) -> f64 {
    game_from(text).heuristic(seat).expect("a chess estimate")
}

#[test]
fn estimate_a_piece_buried_by_the_opponent_may_rise_again_for_its_owner() {
    // The same board: Black's captured knight in the dust bin, or buried by
    // White under the pawn on b2, from where it rises as Black's zombie.
    let board = "4k3/pppp4/8/8/8/8/PPPP4/4K3 w - - 0 1";
    let destroyed = estimate(&format!("{board}\nwhite burials: -\nblack burials: -\ngraveyard: -\ndust bin: n"), 1);
    let buried = estimate(&format!("{board}\nwhite burials: b2=N\nblack burials: -\ngraveyard: n\ndust bin: -"), 1);
    assert!(buried > destroyed + 0.5, "for Black: {destroyed} -> {buried}");
    let for_white = estimate(&format!("{board}\nwhite burials: b2=N\nblack burials: -\ngraveyard: n\ndust bin: -"), 0);
    assert!((for_white + buried).abs() < 1e-9, "the two sides see opposite estimates");
}

#[test]
fn estimate_zombies_must_keep_moving_so_a_zombie_is_worth_less_than_a_piece() {
    let piece = estimate("4k3/8/2N5/8/8/8/8/4K3 w - - 0 1", 0);
    let zombie = estimate("4k3/8/2N{z}5/8/8/8/8/4K3 w - - 0 1", 0);
    assert!(zombie < piece - 0.5, "a knight {piece}, a zombie knight {zombie}");
    assert!(zombie > 2.0, "but still worth most of a knight: {zombie}");
}

/// The search's questions answered without building lists agree with
/// `to_act` and `legal_actions`, and `clone_from` with a fresh clone: see
/// [`crate::testing::check_allocation_free_answers`].
#[test]
fn the_allocation_free_answers_agree_with_to_act_legal_actions_and_clone() {
    crate::testing::check_allocation_free_answers::<ZombieGame>(&Options::new(), 3, 60);
}

/// "Secretly bury it under one of your own pieces": where changes nothing
/// on the board until the burier leaves the square, so the search's
/// quiescence, finishing a capture's turn, tries one burial of the free
/// squares; every other step keeps its whole list.
#[test]
fn quiescence_finishes_a_capture_with_one_burial_of_the_free_squares() {
    let rest = |game: &Told<ZombieGame>| {
        let mut into = Vec::new();
        ZombieGame::quiescence_rest_of_turn_into(game, mover(game), &mut into);
        into.iter().map(ToString::to_string).collect::<Vec<_>>()
    };
    let mut game = Told::<ZombieGame>::new(&Options::new(), 0).unwrap();
    assert_eq!(rest(&game), actions(&game), "a move step keeps every action");
    play(&mut game, "e2e4, d7d5, e4d5");
    let burials = actions(&game);
    assert_eq!(burials.len(), 16, "every white piece can take the pawn: {burials:?}");
    assert_eq!(rest(&game), burials[..1], "one burial stands for the rest");
}
