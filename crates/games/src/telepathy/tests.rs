//! One test per clause of new-rules-2025 "Telepathy Chess" and docs/games/telepathy.md,
//! "Rulings" (texts quoted in docs/games/telepathy.md), with the
//! book's one worked example (the coin beside the black side).

use chesskit_core::chess::{Color, Role};
use chesskit_core::game::{Game, Viewer};
use chesskit_core::options::Options;
use chesskit_core::rng::GameRng;

use super::*;
use crate::testing::{act, refused, sq, Told};

const AFTER_E4: &str = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";

fn game(position: &str) -> Told<TelepathyGame> {
    Told::<TelepathyGame>::from_position(position, &Options::new(), 1).unwrap_or_else(|e| panic!("{e}"))
}

fn fresh() -> Told<TelepathyGame> {
    Told::<TelepathyGame>::new(&Options::new(), 1).unwrap()
}

fn texts(g: &Told<TelepathyGame>) -> Vec<String> {
    g.legal_actions(g.seat()).iter().map(|a| a.to_string()).collect()
}

fn piece(role: Role) -> TeamCard {
    TeamCard::Piece(role)
}

/// Black to move after 1.e4, Black's predictor A has played `down` next
/// to the face-up `up`, the coin at `coin`.
fn black_to_move(up: &str, down: &str, coin: &str) -> Told<TelepathyGame> {
    game(&format!(
        "{AFTER_E4}\nphase: move\ntrophy track: {coin}\nwhite predictor: B\nblack face up: {up}\nblack face down: {down}"
    ))
}

// ----------------------------------------------------------------------
// Setup
// ----------------------------------------------------------------------

#[test]
fn setup_four_players_two_teams_white_and_black() {
    let seats = fresh().seats();
    assert_eq!(seats.len(), 4);
    let teams: Vec<_> = seats.iter().map(|s| (s.colour.clone().unwrap(), s.team.unwrap())).collect();
    assert_eq!(teams, vec![("white".into(), 0), ("black".into(), 1), ("white".into(), 0), ("black".into(), 1)]);
}

#[test]
fn setup_standard_start_position_and_the_coin_halfway_between_the_teams() {
    let g = fresh();
    assert_eq!(g.position().lines().next().unwrap(), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    assert_eq!(g.coin(), Coin::Middle);
}

#[test]
fn setup_each_team_seven_cards_the_predictor_plays_the_pawn_face_up() {
    let g = fresh();
    for colour in Color::ALL {
        let team = g.team(colour);
        assert_eq!(team.face_up, piece(Role::Pawn));
        assert_eq!(team.face_down, None);
        assert_eq!(
            team.hand(),
            vec![
                piece(Role::Knight),
                piece(Role::Bishop),
                piece(Role::Rook),
                piece(Role::Queen),
                piece(Role::King),
                TeamCard::Checker
            ]
        );
    }
    // Appendix A: the set of each colour as playing cards, the 6 as the checker.
    let white: Vec<String> = TeamCard::SET.iter().map(|c| c.card(Color::White).to_string()).collect();
    assert_eq!(white, ["2h", "8h", "9h", "10h", "qh", "kh", "6h"]);
    let black: Vec<String> = TeamCard::SET.iter().map(|c| c.card(Color::Black).to_string()).collect();
    assert_eq!(black, ["2s", "8s", "9s", "10s", "qs", "ks", "6s"]);
}

// ----------------------------------------------------------------------
// Play
// ----------------------------------------------------------------------

#[test]
fn play_the_predictor_plays_a_card_face_down_then_the_mover_moves() {
    let mut g = fresh();
    assert_eq!(g.to_act(), ToAct::one(0), "White's predictor A acts first");
    assert!(g.legal_actions(2).is_empty(), "the mover waits for the prediction");
    assert_eq!(texts(&g).len(), 6, "any card of the hand");
    act(&mut g, "predict knight");
    assert_eq!(g.team(Color::White).face_down, Some(piece(Role::Knight)));
    assert_eq!(g.to_act(), ToAct::one(2), "then the mover");
    assert!(texts(&g).contains(&"e2e4".to_string()));
    assert!(g.legal_actions(0).is_empty(), "the predictor does not move");
}

/// "The predictor will play a card face down": the others hear only that a
/// card was played, and the line says so by its flag (a client sounds a
/// secret choice from it without knowing the game).
#[test]
fn play_a_card_face_down_is_a_secret_choice_the_others_hear_without_what() {
    let mut g = fresh();
    act(&mut g, "predict knight");
    for viewer in [Viewer::Seat(1), Viewer::Seat(2), Viewer::Spectator] {
        let line = g.view(viewer).log.last().cloned().expect("a line");
        assert_eq!((line.seat, line.text.as_str(), line.secret_choice), (Some(0), "plays a card face down", true));
    }
}

#[test]
fn play_only_a_card_in_the_hand_may_be_predicted() {
    let mut g = fresh();
    assert!(refused(&mut g, "predict pawn").contains("face-up card"));
    assert!(refused(&mut g, "predict 8s").contains("not one of white's seven cards"));
    assert!(refused(&mut g, "predict 3h").contains("not one of white's seven cards"));
    assert!(refused(&mut g, "predict jh").contains("stands for no piece"));
    assert!(refused(&mut g, "predict dragon").contains("not a card"));
    act(&mut g, "predict 8h");
    assert_eq!(g.team(Color::White).face_down, Some(piece(Role::Knight)), "a card by its playing card");
}

#[test]
fn play_the_mover_makes_any_legal_chess_move() {
    let mut g = fresh();
    act(&mut g, "predict knight");
    assert!(refused(&mut g, "e2e5").contains("not a legal chess move"));
    assert!(refused(&mut g, "e7e5").contains("holds no white piece"));
    assert!(refused(&mut g, "predict bishop").contains("already on the table"));
    act(&mut g, "Nf3");
    assert_eq!(g.board().role_at(sq("f3")), Some(Role::Knight), "SAN is read too");
    // In check, the move must answer the check.
    let mut g = game("rnb1kbnr/pppp1ppp/8/4p3/7q/5P2/PPPPP1PP/RNBQKBNR w KQkq - 1 3\nphase: move\nwhite face down: 8h");
    assert!(refused(&mut g, "a2a3").contains("in check"));
}

#[test]
fn play_a_move_matching_the_face_down_card_pushes_the_coin_toward_the_opponents() {
    let mut g = black_to_move("2s", "8s", "middle");
    act(&mut g, "g8f6");
    assert_eq!(g.coin(), Coin::WhiteSide, "Black's good prediction pushes the coin towards White");
}

#[test]
fn play_a_move_matching_the_face_up_card_does_nothing() {
    let mut g = black_to_move("2s", "8s", "white side");
    act(&mut g, "g8f6");
    assert_eq!(g.coin(), Coin::Middle);
}

#[test]
fn play_a_move_matching_neither_card_pulls_the_coin_towards_you() {
    let mut g = black_to_move("10s", "9s", "middle");
    act(&mut g, "g8f6");
    assert_eq!(g.coin(), Coin::BlackSide, "pulled towards Black");
}

#[test]
fn play_the_checker_card_is_like_a_copy_of_the_face_up_card() {
    let mut g = black_to_move("2s", "6s", "middle");
    act(&mut g, "e7e5");
    assert_eq!(g.coin(), Coin::WhiteSide, "the checker copies the face-up pawn: a pawn move matches it");
    let mut g = black_to_move("2s", "6s", "middle");
    act(&mut g, "b8c6");
    assert_eq!(g.coin(), Coin::BlackSide, "a knight matches neither the pawn nor its copy");
}

/// What the computer predictor relies on: the card [`TelepathyGame::prediction_of`]
/// names for a move is the card that makes that move push the coin, for
/// every legal move: a pawn's under the face-up pawn (the checker, its
/// copy), castling (a king move), a promotion (a pawn move).
#[test]
fn play_the_card_that_foretells_a_move_pushes_the_coin_when_the_move_is_made() {
    let promotion_and_castling = "r3k2r/1P4pp/8/8/8/8/6PP/R3K2R w KQkq - 0 1";
    for start in [fresh(), game(promotion_and_castling)] {
        for m in start.legal_moves() {
            let uci = UciAction::from_move(m, CastlingStyle::Standard).to_string();
            let card = start.prediction_of(&uci).unwrap_or_else(|| panic!("{uci} is legal"));
            let mut g = start.clone();
            act(&mut g, &TelepathyAction::Predict(card).to_string());
            act(&mut g, &uci);
            assert_eq!(g.coin(), Coin::BlackSide, "{card} foretells {uci}: White's coin is pushed towards Black");
        }
    }
    let g = fresh();
    assert_eq!(g.prediction_of("Nf3"), Some(piece(Role::Knight)), "SAN is read too");
    assert_eq!(g.prediction_of("e2e4"), Some(TeamCard::Checker), "a pawn under the face-up pawn: its copy");
    assert_eq!(g.prediction_of("e2e5"), None, "not a legal move");
    assert_eq!(g.prediction_of("predict knight"), None, "not a move");
}

/// "The predictor plays a card face down ...: the piece they think their
/// partner will move" (docs/games/telepathy.md): the predictor's decision
/// foretells the partner's move, declared for the computer players, and
/// the prediction of an expected move is its card. Nobody else foretells.
#[test]
fn play_the_predictor_plays_the_card_of_the_piece_they_think_their_partner_will_move() {
    let mut g = fresh();
    let (predictor, mover) = (g.seat(), g.team(Color::White).mover());
    assert_eq!(g.foretells(predictor), Some(mover));
    assert_eq!(g.prediction_for(predictor, "g1f3"), Some(TelepathyAction::Predict(piece(Role::Knight))));
    assert_eq!(g.prediction_for(predictor, "e2e5"), None, "not a legal move");
    assert_eq!(g.foretells(mover), None, "the mover does not predict");
    assert_eq!(g.prediction_for(mover, "g1f3"), None);
    act(&mut g, "predict knight");
    assert_eq!((g.foretells(predictor), g.foretells(mover)), (None, None), "the card is down");
}

#[test]
fn play_book_example_coin_beside_the_black_side_and_no_match_black_removes_a_piece() {
    // "if it was beside the black side of the board and the black mover
    // didn't match either card, the black team would have to remove one of
    // their pieces from the board. After removing a piece, put the coin or
    // checker back beside the middle of the board."
    let mut g = black_to_move("10s", "9s", "black side");
    act(&mut g, "g8f6");
    assert_eq!(g.phase(), Phase::Remove(Color::Black));
    assert_eq!(g.coin(), Coin::Middle);
    assert_eq!(g.seat(), 3, "the black mover, who now holds Black's cards, chooses");
    act(&mut g, "remove a7");
    assert_eq!(g.board().piece_at(sq("a7")), None);
    assert_eq!(g.coin(), Coin::Middle);
    assert_eq!((g.phase(), g.turn()), (Phase::Predict, Color::White), "then White's turn");
}

#[test]
fn play_a_push_beyond_the_opponents_side_makes_the_opponents_remove_a_piece() {
    let mut g = black_to_move("2s", "8s", "white side");
    act(&mut g, "b8c6");
    assert_eq!(g.phase(), Phase::Remove(Color::White), "White is the losing team");
    assert_eq!(g.seat(), 2, "White's next predictor chooses");
    assert_eq!(g.coin(), Coin::Middle);
    act(&mut g, "remove d1");
    assert_eq!(g.board().piece_at(sq("d1")), None);
    assert_eq!(g.seat(), 2, "and then predicts");
}

#[test]
fn ruling_a_team_that_must_remove_chooses_any_piece_but_its_king() {
    let mut g = black_to_move("10s", "9s", "black side");
    act(&mut g, "g8f6");
    assert_eq!(texts(&g).len(), 15, "every black piece but the king");
    assert!(refused(&mut g, "remove e8").contains("any piece but its king"));
    assert!(refused(&mut g, "remove e4").contains("not black's"));
    assert!(refused(&mut g, "remove e5").contains("empty"));
    act(&mut g, "remove d8");
    assert_eq!(g.board().piece_at(sq("d8")), None, "even the queen");
}

#[test]
fn ruling_a_team_with_only_its_king_has_nothing_to_remove() {
    let mut g = game("4k3/8/8/8/8/8/3Q4/4K3 b - - 0 1\nphase: move\ntrophy track: black side\nblack face down: 8s");
    act(&mut g, "e8f7");
    assert_eq!(g.coin(), Coin::Middle);
    assert_eq!(g.phase(), Phase::Predict, "no removal to choose");
    assert_eq!(g.turn(), Color::White);
}

#[test]
fn play_the_mover_picks_up_the_checker_card_if_it_is_on_the_table() {
    let mut g = black_to_move("2s", "6s", "middle");
    act(&mut g, "g8f6");
    let team = g.team(Color::Black);
    assert_eq!(team.face_up, piece(Role::Pawn), "the face-up card stays");
    assert!(team.hand().contains(&TeamCard::Checker));
}

#[test]
fn play_otherwise_the_mover_picks_up_the_card_that_started_the_turn_face_up() {
    let mut g = black_to_move("2s", "8s", "white side");
    act(&mut g, "g8f6");
    let team = g.team(Color::Black);
    assert_eq!(team.face_up, piece(Role::Knight), "the prediction is the next face-up card");
    assert!(team.hand().contains(&piece(Role::Pawn)));
    assert_eq!(team.hand().len(), 6);
}

#[test]
fn play_players_take_turns_being_the_mover_and_the_predictor() {
    let mut g = fresh();
    let mut order = Vec::new();
    for (card, mv) in [("knight", "g1f3"), ("knight", "g8f6"), ("pawn", "e2e4"), ("pawn", "e7e5"), ("bishop", "f1c4")] {
        order.push(g.seat());
        act(&mut g, &format!("predict {card}"));
        order.push(g.seat());
        act(&mut g, mv);
    }
    assert_eq!(order, [0, 2, 1, 3, 2, 0, 3, 1, 0, 2], "the hand passes to the mover, who predicts next");
    assert_eq!(g.team(Color::White).predictor, 2);
}

#[test]
fn ruling_castling_is_a_king_move_for_the_prediction() {
    let base = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1\nphase: move\nwhite face up: 2h";
    let mut g = game(&format!("{base}\nwhite face down: kh"));
    act(&mut g, "e1g1");
    assert_eq!(g.coin(), Coin::BlackSide, "the king card predicted castling");
    let mut g = game(&format!("{base}\nwhite face down: 10h"));
    act(&mut g, "O-O-O");
    assert_eq!(g.coin(), Coin::WhiteSide, "the rook card did not");
}

#[test]
fn ruling_a_removed_pawn_cannot_be_taken_en_passant_and_a_removed_rook_cannot_castle() {
    // White pushes d2d4, matching neither card with the coin at the white
    // side, and removes that very pawn: no en passant square is left.
    let mut g = game(
        "4k3/8/8/8/4p3/8/3P4/R3K2R w KQ - 0 1\nphase: move\ntrophy track: white side\nwhite face down: 8h\nwhite face up: 9h",
    );
    act(&mut g, "d2d4");
    assert_eq!(g.pos.ep_square(), Some(sq("d3")), "while the pawn stands, e4 could take it en passant");
    act(&mut g, "remove d4");
    assert_eq!(g.pos.ep_square(), None);
    assert!(!g.legal_moves().iter().any(|m| m.is_en_passant()));
    let mut g = game("4k3/8/8/8/8/8/8/R3K2R b KQ - 0 1\nphase: remove white");
    act(&mut g, "remove h1");
    assert!(g.position().lines().next().unwrap().contains(" Q "), "{}", g.position());
}

// ----------------------------------------------------------------------
// Winning the Game
// ----------------------------------------------------------------------

#[test]
fn winning_capture_the_opponents_king_even_when_it_was_not_in_check() {
    // Black's pawn move matches neither card with the coin beside the
    // black side: Black must remove a piece, and its only one is the pawn
    // that shielded the king. White's rook may now take the king.
    let mut g = game(
        "4k3/4p3/8/8/8/8/8/4RK2 b - - 0 1\nphase: move\ntrophy track: black side\nblack face up: 10s\nblack face down: 8s",
    );
    act(&mut g, "e7e6");
    assert_eq!(g.phase(), Phase::Remove(Color::Black));
    act(&mut g, "remove e6");
    act(&mut g, "predict rook");
    assert!(texts(&g).contains(&"e1e8".to_string()));
    act(&mut g, "e1e8");
    let outcome = g.to_act().outcome().cloned().expect("over");
    assert_eq!(outcome.winners, vec![0, 2]);
    assert_eq!(outcome.reason, "king captured");
}

#[test]
fn winning_a_king_capture_is_allowed_even_with_the_own_king_in_check() {
    let mut g = game("7k/8/8/8/8/8/4r3/4K2R w - - 0 1\nphase: move\nwhite face down: 10h");
    let moves = texts(&g);
    assert!(moves.contains(&"h1h8".to_string()), "taking the king wins though White is in check");
    assert!(!moves.contains(&"h1h7".to_string()), "any other move must answer the check");
    act(&mut g, "h1h8");
    assert_eq!(g.to_act().outcome().unwrap().winners, vec![0, 2]);
}

#[test]
fn ruling_no_legal_move_in_check_loses_and_out_of_check_draws() {
    let g = game("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1");
    let outcome = g.to_act().outcome().cloned().expect("mate");
    assert_eq!((outcome.winners, outcome.reason.as_str()), (vec![0, 2], "checkmate"));
    let g = game("7k/8/6QK/8/8/8/8/8 b - - 0 1");
    assert_eq!(g.to_act().outcome().unwrap().reason, "stalemate");
}

/// A forced removal that opens the own king leaves the opponents a king
/// capture: "it may be possible to capture a king when they weren't in
/// check". White's bishop takes on d4 matching neither card with the coin
/// beside the white side, so White removes it, opening the a1-g7 diagonal.
/// What is left (a bishop against a bare king) could not mate in chess,
/// but the capture is on the board.
fn white_opens_its_king_by_removing_the_bishop(fen: &str, capture: &str) -> Told<TelepathyGame> {
    let mut g = game(&format!("{fen}\ntrophy track: white side\nwhite face up: 8h"));
    act(&mut g, "predict rook");
    act(&mut g, &format!("b2{capture}"));
    assert_eq!(g.phase(), Phase::Remove(Color::White), "the coin runs off White's side");
    act(&mut g, &format!("remove {capture}"));
    g
}

#[test]
fn winning_a_king_left_open_by_a_removal_may_be_captured_before_insufficient_material_is_claimed() {
    let mut g = white_opens_its_king_by_removing_the_bishop("8/6b1/8/7k/3p4/8/1B6/K7 w - - 0 1", "d4");
    assert_eq!(g.to_act(), ToAct::one(1), "no draw: Black's bishop on g7 attacks the king on a1");
    act(&mut g, "predict king");
    assert!(texts(&g).contains(&"g7a1".to_string()), "{:?}", texts(&g));
    act(&mut g, "g7a1");
    let outcome = g.to_act().outcome().cloned().expect("over");
    assert_eq!((outcome.winners, outcome.reason.as_str()), (vec![1, 3], "king captured"));
}

#[test]
fn winning_a_king_left_open_by_a_removal_may_be_captured_before_the_fifty_move_rule_is_claimed() {
    let mut g = white_opens_its_king_by_removing_the_bishop("7r/6b1/8/7k/8/8/1B6/K7 w - - 99 80", "c3");
    assert_eq!(g.to_act(), ToAct::one(1), "no draw: Black's bishop on g7 attacks the king on a1");
    act(&mut g, "predict bishop");
    act(&mut g, "g7a1");
    assert_eq!(g.to_act().outcome().unwrap().reason, "king captured");
}

/// "You should still say 'check,' when a piece is threatening the king":
/// also when a removal opens the king of the team that is not to move.
#[test]
fn winning_you_should_still_say_check_when_a_removal_leaves_a_piece_threatening_the_king() {
    let mut g = game("4r2k/8/8/8/8/8/4N3/4K3 b - - 0 1\nphase: remove white\nwhite predictor: B");
    assert_eq!(g.seat(), 2);
    act(&mut g, "remove e2");
    for viewer in all_viewers() {
        let view = g.view(viewer);
        assert_eq!(view.check.as_deref(), Some("e1"), "{viewer} sees the check");
        assert!(view.log.iter().any(|e| e.text.contains("check: the white king on e1")), "{viewer}: {:?}", view.log);
    }
    act(&mut g, "predict rook");
    assert!(texts(&g).contains(&"e8e1".to_string()));
}

#[test]
fn ruling_insufficient_material_and_the_fifty_move_rule_draw() {
    let g = game("7k/8/8/8/8/8/8/N6K w - - 0 1");
    assert_eq!(g.to_act().outcome().unwrap().reason, "insufficient material");
    let g = game("7k/8/8/8/8/8/8/R6K w - - 100 80");
    assert_eq!(g.to_act().outcome().unwrap().reason, "fifty-move rule");
}

// ----------------------------------------------------------------------
// Talking
// ----------------------------------------------------------------------

/// The seats that may speak at the table now.
fn talkers(g: &Told<TelepathyGame>) -> Vec<Seat> {
    (0..4).filter(|&seat| g.check_talk(seat).is_ok()).collect()
}

/// "Definitely none before your move, but it can be more fun to discuss
/// what you thought your partner would do after they move and before your
/// opponents move."
#[test]
fn talking_definitely_none_before_your_move_but_after_it_until_your_opponents_move() {
    let mut g = fresh();
    assert_eq!(talkers(&g), vec![1, 3], "White's team is to move: only Black's may talk");
    let reason = g.check_talk(2).unwrap_err();
    assert!(reason.contains("Definitely none before your move"), "{reason}");
    act(&mut g, "predict knight");
    assert_eq!(talkers(&g), vec![1, 3], "nor while the card lies face down");
    act(&mut g, "e2e4");
    assert_eq!(talkers(&g), vec![0, 2], "White's team may discuss its move; Black's is to move");
    // A team that must remove a piece before its own move is still before its move.
    let mut g = black_to_move("2s", "8s", "white side");
    act(&mut g, "g8f6");
    assert_eq!(g.phase(), Phase::Remove(Color::White), "the prediction came true: White removes");
    assert_eq!(talkers(&g), vec![1, 3], "White's team removes before its move: silent");
}

// ----------------------------------------------------------------------
// What each player sees
// ----------------------------------------------------------------------

fn all_viewers() -> Vec<Viewer> {
    vec![
        Viewer::Seat(0),
        Viewer::Seat(1),
        Viewer::Seat(2),
        Viewer::Seat(3),
        Viewer::Team(0),
        Viewer::Team(1),
        Viewer::Spectator,
    ]
}

#[test]
fn hidden_the_face_down_card_is_seen_by_its_predictor_only() {
    let mut knight = fresh();
    act(&mut knight, "predict knight");
    let mut bishop = fresh();
    act(&mut bishop, "predict bishop");
    for viewer in all_viewers() {
        let (a, b) = (knight.view(viewer), bishop.view(viewer));
        if viewer == Viewer::Seat(0) {
            assert_ne!(a, b, "the predictor sees the card played");
            assert!(a.notes.iter().any(|n| n.contains("knight")));
            let down = a.zones.iter().find(|z| z.name == "White face down").unwrap();
            assert_eq!(down.cards, vec!["8h"]);
        } else {
            assert_eq!(a, b, "{viewer}: the two games differ only in the hidden card");
            let down = a.zones.iter().find(|z| z.name == "White face down").unwrap();
            assert_eq!((down.cards.len(), down.hidden), (0, 1));
            let hand = a.zones.iter().find(|z| z.name == "White hand").unwrap();
            assert_eq!((hand.cards.len(), hand.hidden), (0, 5), "the hand would give the card away");
        }
        for seat in 0..4 {
            assert_eq!(
                knight.legal_actions(seat),
                bishop.legal_actions(seat),
                "the mover's choices do not depend on the prediction"
            );
        }
    }
    // Once flipped, everyone reads it in the log.
    act(&mut knight, "g1f3");
    let log = knight.view(Viewer::Spectator).log;
    assert!(log.iter().any(|e| e.text.contains("flips the knight")), "{log:?}");
}

#[test]
fn hidden_the_hands_are_public_when_no_card_is_face_down() {
    let g = fresh();
    let view = g.view(Viewer::Spectator);
    let hand = view.zones.iter().find(|z| z.name == "Black hand").unwrap();
    assert_eq!(hand.cards, vec!["8s", "9s", "10s", "qs", "ks", "6s"], "the team's seven less the face-up pawn");
    assert_eq!(hand.owner, Some(1));
    assert_eq!(view.tables[0].rows, vec![vec!["".to_string(), "●".to_string(), "".to_string()]], "trophy track");
}

#[test]
fn hidden_sample_hidden_redraws_the_face_down_card_from_what_it_could_be() {
    let mut g = fresh();
    act(&mut g, "predict queen");
    let mut rng = GameRng::from_seed(3);
    let mut seen = std::collections::BTreeSet::new();
    for _ in 0..60 {
        let sampled = g.sample_hidden(2, &mut rng);
        let down = sampled.team(Color::White).face_down.unwrap();
        assert_ne!(down, piece(Role::Pawn), "never the face-up card");
        seen.insert(down);
        assert_eq!(sampled.view(Viewer::Seat(2)), g.view(Viewer::Seat(2)));
        assert_eq!(sampled.view(Viewer::Team(0)), g.view(Viewer::Team(0)));
    }
    assert_eq!(seen.len(), 6, "any of the six");
    assert_eq!(g.sample_hidden(0, &mut rng), g, "the predictor knows it");
}

#[test]
fn random_games_team_views_never_show_the_prediction() {
    for seed in 0..6u64 {
        let mut g = fresh();
        let mut rng = GameRng::from_seed(seed);
        for step in 0..300 {
            let ToAct::Seats(seats) = g.to_act() else { break };
            let seat = seats[0];
            for s in 0..4 {
                let sampled = g.sample_hidden(s, &mut rng);
                assert_eq!(sampled.view(Viewer::Team(s % 2)), g.view(Viewer::Team(s % 2)), "step {step}");
                assert_eq!(sampled.view(Viewer::Seat(s)), g.view(Viewer::Seat(s)), "step {step}");
            }
            let actions = g.legal_actions(seat);
            let action = *rng.choose(&actions).unwrap();
            g.apply(seat, &action).unwrap();
            // The reference: a move is legal when orthodox-legal or when it takes the king.
            if g.phase() == Phase::Move {
                let mut ours: Vec<String> = g.legal_moves().iter().map(|m| m.to_string()).collect();
                let mut reference: Vec<String> = g
                    .pos
                    .pseudo_legal_moves()
                    .into_iter()
                    .filter(|&m| m.capture() == Some(Role::King) || g.pos.leaves_king_safe(m))
                    .map(|m| m.to_string())
                    .collect();
                ours.sort();
                reference.sort();
                assert_eq!(ours, reference);
            }
        }
    }
}

// ----------------------------------------------------------------------
// Text position, bad input, PGN
// ----------------------------------------------------------------------

#[test]
fn text_position_round_trips_every_phase() {
    let mut g = black_to_move("10s", "9s", "black side");
    assert_eq!(game(&g.position()).position(), g.position());
    assert!(g.position().contains("black face down: 9s"));
    assert!(g.position().contains("trophy track: black side"));
    act(&mut g, "g8f6");
    assert!(g.position().contains("phase: remove black"));
    assert_eq!(game(&g.position()).position(), g.position());
    let f = fresh();
    assert_eq!(game(&f.position()).position(), f.position());
}

#[test]
fn text_position_refuses_what_cannot_occur() {
    let bad = |text: &str| Told::<TelepathyGame>::from_position(text, &Options::new(), 0).unwrap_err().0;
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    assert!(bad(&format!("{start}\nwhite face up: 6h")).contains("never left face up"));
    assert!(bad(&format!("{start}\nwhite face down: 8h")).contains("only during its team's move"));
    assert!(bad(&format!("{start}\nphase: move")).contains("no card face down"));
    assert!(bad(&format!("{start}\nphase: move\nwhite face down: 2h")).contains("already face up"));
    assert!(bad(&format!("{start}\nwhite hand: 8h 9h")).contains("seven less"));
    assert!(bad(&format!("{start}\nwhite face up: 2s")).contains("not in white's set"));
    assert!(bad(&format!("{start}\ntrophy track: moon")).contains("trophy track"));
    assert!(bad(&format!("{start}\nwhite predictor: C")).contains("A or B"));
    assert!(bad(&format!("{start}\ncolour: red")).contains("unknown line"));
    assert!(bad("4k3/8/8/8/8/8/8/4K3 w - - 0 1\nphase: remove black").contains("nothing but its king"));
    assert!(bad("4k3/8/8/8/8/8/8/4K3 w - - 0 1\nphase: predict\nphase: move").contains("twice"));
}

#[test]
fn bad_input_is_refused_and_changes_nothing() {
    let mut g = fresh();
    assert!(refused(&mut g, "fly away").contains("expected"));
    assert!(refused(&mut g, "remove e2").contains("no team must remove"));
    assert!(refused(&mut g, "e2e4").contains("predictor plays a card"));
    let before = g.clone();
    let action = g.parse_action(0, "predict knight").unwrap();
    assert!(g.apply(2, &action).unwrap_err().to_string().contains("not seat 2's turn"));
    assert!(g.apply(7, &action).is_err());
    assert_eq!(g, before);
}

#[test]
fn pgn_records_the_moves_with_the_flips_as_comments() {
    let mut g = fresh();
    act(&mut g, "predict knight");
    act(&mut g, "e2e4");
    act(&mut g, "predict checker");
    act(&mut g, "e7e5");
    let pgn = g.pgn().unwrap();
    assert!(pgn.contains("[Variant \"Telepathy\"]"), "{pgn}");
    assert!(pgn.contains("1. e2-e4"), "{pgn}");
    assert!(pgn.contains("e7-e5"), "{pgn}");
    assert!(pgn.contains("flips the knight"), "{pgn}");
}

/// Perft through the referee: each prediction, move and removal is a ply.
/// (The game's own perft, now gone, fixed each prediction to the first
/// card of the hand and counted 20, 400, 8902 from the start, as chess;
/// here each team's turn is one of 6 cards, then one of chess's moves.)
#[test]
fn perft_counts_each_prediction_move_and_removal_as_a_ply() {
    let g = fresh();
    let counts: Vec<u64> = (1..=4).map(|depth| chesskit_core::perft::count(&g, depth)).collect();
    assert_eq!(counts, [6, 6 * 20, 6 * 20 * 6, 6 * 20 * 6 * 20], "no removal within a turn each from the start");
    // With the rook face up and the coin at the white side, a move that
    // matches the prediction pushes the coin to the middle (Black then
    // predicts: 6 cards); one that matches neither card pulls it off the
    // white side, and White removes one of its 15 pieces.
    let g =
        game("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\ntrophy track: white side\nwhite face up: 10h");
    let lines: std::collections::BTreeMap<String, u64> = chesskit_core::perft::divide(&g, 3).into_iter().collect();
    assert_eq!(lines["predict pawn"], 16 * 6 + 4 * 15, "16 pawn moves come true, 4 knight moves force a removal");
    assert_eq!(lines["predict knight"], 4 * 6 + 16 * 15, "4 knight moves come true, 16 pawn moves force a removal");
    for card in ["bishop", "queen", "king", "checker"] {
        assert_eq!(lines[&format!("predict {card}")], 20 * 15, "no {card} moves: every move forces a removal");
    }
    assert_eq!(lines.len(), 6, "the rook is face up, not in the hand");
}

// ----------------------------------------------------------------------
// The table as the book lays it out
// ----------------------------------------------------------------------

/// "The coin or checker can be in three positions: beside the middle of
/// the board, the white side, or the black side": the view draws the
/// trophy track as those three places with the coin on the one it is at.
#[test]
fn the_coin_can_be_in_three_positions_drawn_as_a_track_with_the_coin_on_it() {
    use chesskit_core::view::TableDrawing;
    for (place, coin) in [("white side", 0), ("middle", 1), ("black side", 2)] {
        let g = black_to_move("2s", "8s", place);
        let view = g.view(Viewer::Spectator);
        let track = view.tables.iter().find(|t| t.title == "Trophy track").expect("the trophy track");
        assert_eq!(track.columns, ["White side", "Middle", "Black side"]);
        assert_eq!(track.drawn_as, Some(TableDrawing::Track { coin }), "the coin at the {place}");
        assert_eq!(track.rows[0][coin], "●", "the text still marks the coin's place");
    }
}

/// The computer's transposition key (`Game::position_hash`) covers what the
/// rules read: the board, each team's cards (the prediction face down
/// included: a search runs on a drawn world) and predictor, the coin and
/// the phase. One state reached two ways: the same board after another
/// last move, which only the record keeps.
#[test]
fn the_zobrist_key_is_the_same_for_a_transposition_and_differs_for_any_change_the_rules_read() {
    let one = black_to_move("P", "N", "middle").game;
    let other = TelepathyGame { last_move: vec![sq("d2"), sq("d4")], ..one.clone() };
    crate::testing::assert_the_key_follows_the_state(
        &one,
        &other,
        &[
            ("a piece", crate::testing::changed(&one, |g| g.pos.board_mut().discard_piece_at(sq("a2")))),
            ("the side to move", crate::testing::changed(&one, |g| g.pos.set_turn(Color::White))),
            (
                "the prediction face down",
                crate::testing::changed(&one, |g| g.teams[1].face_down = Some(piece(Role::Bishop))),
            ),
            ("no prediction yet", crate::testing::changed(&one, |g| g.teams[1].face_down = None)),
            ("the card face up", crate::testing::changed(&one, |g| g.teams[1].face_up = piece(Role::Rook))),
            ("the predictor", crate::testing::changed(&one, |g| g.teams[0].predictor = partner(g.teams[0].predictor))),
            ("the coin", crate::testing::changed(&one, |g| g.coin = Coin::BlackSide)),
            ("the phase", crate::testing::changed(&one, |g| g.phase = Phase::Predict)),
        ],
    );
}
