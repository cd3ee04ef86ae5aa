//! Telepathy Chess through the real binary: the referee protocol (a team's
//! turn of prediction and move, the prediction hidden from the partner, the
//! team and the opponents; errors that change nothing; record and replay),
//! `play` in the terminal with four people at one keyboard, and a game of
//! four computers.

use std::io::Write;
use std::process::{Command, Stdio};

use crate::common::{error_of, screen_after_the_clear, Referee};
use serde_json::{json, Value};

fn zone(view: &Value, name: &str) -> Value {
    view["zones"].as_array().unwrap().iter().find(|z| z["name"] == name).cloned().unwrap()
}

#[test]
fn telepathy_is_listed_with_four_seats_and_hidden_information() {
    let mut r = Referee::start();
    let reply = r.send(json!({"cmd": "variants"}));
    let entry = reply["variants"].as_array().unwrap().iter().find(|v| v["name"] == "telepathy").cloned().unwrap();
    assert_eq!(entry["title"], "Telepathy Chess");
    assert_eq!(entry["seats"], json!(["White A", "Black A", "White B", "Black B"]));
    assert_eq!(entry["hidden_information"], true);
}

#[test]
fn telepathy_turn_through_the_protocol_hides_the_prediction() {
    let mut r = Referee::start();
    assert_eq!(r.send(json!({"cmd": "new", "variant": "telepathy"}))["ok"], true);
    let before = r.send(json!({"cmd": "position"}));
    assert!(error_of(&r.send(json!({"cmd": "act", "seat": 2, "action": "e2e4"}))).contains("not seat 2's turn"));
    assert!(error_of(&r.send(json!({"cmd": "act", "seat": 0, "action": "predict pawn"}))).contains("face-up"));
    assert!(error_of(&r.send(json!({"cmd": "act", "seat": 0, "action": "predict 8s"}))).contains("seven cards"));
    assert_eq!(r.send(json!({"cmd": "position"})), before);
    r.act_ok(0, "predict 8h");
    // The predictor sees the card; the partner, the team and a spectator do not.
    let own = r.send(json!({"cmd": "view", "viewer": 0}))["view"].clone();
    assert_eq!(zone(&own, "White face down")["cards"], json!(["8h"]));
    for viewer in [json!(2), json!({"team": 0}), json!(1), json!("spectator")] {
        let view = r.send(json!({"cmd": "view", "viewer": viewer.clone()}))["view"].clone();
        assert_eq!(zone(&view, "White face down")["cards"], json!([]), "{viewer}");
        assert_eq!(zone(&view, "White face down")["hidden"], 1, "{viewer}");
        assert!(!view.to_string().contains("\"8h\""), "{viewer}: {view}");
        for part in ["notes", "log", "prompt", "actions", "zones"] {
            assert!(!view[part].to_string().contains("knight"), "{viewer}'s {part}: {view}");
        }
    }
    r.act_ok(2, "Nf3");
    let view = r.send(json!({"cmd": "view", "viewer": "spectator"}))["view"].clone();
    assert!(view["log"].to_string().contains("flips the knight"), "{view}");
    assert_eq!(view["tables"][0]["rows"], json!([["", "", "●"]]), "pushed towards Black");
    // Record and replay give the same game.
    let record = r.send(json!({"cmd": "record"}))["record"].clone();
    let position = r.send(json!({"cmd": "position"}));
    assert_eq!(r.send(json!({"cmd": "replay", "record": record}))["ok"], true);
    assert_eq!(r.send(json!({"cmd": "position"})), position);
}

#[test]
fn telepathy_bad_positions_are_refused_clearly() {
    let mut r = Referee::start();
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let reply =
        r.send(json!({"cmd": "new", "variant": "telepathy", "position": format!("{start}\nwhite face up: 6h")}));
    assert!(error_of(&reply).contains("never left face up"));
}

#[test]
fn telepathy_four_people_share_one_keyboard() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_chesskit"))
        .args(["play", "telepathy", "--seats", "human,human,human,human"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Fool's mate with predictions that never run the coin off the track;
    // the keyboard is passed (Enter) before each seat acts.
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"\npredict knight\n\nf3\n\npredict knight\n\ne5\n\npredict pawn\n\ng4\n\npredict queen\n\nQh4\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("checkmate"), "{text}");
}

#[test]
fn telepathy_the_predictor_plays_a_card_face_down_and_the_screen_forgets_it_before_the_partner_comes() {
    // docs/games/telepathy.md: the card played face down is "seen only by
    // the predictor who played it". White A and White B share the keyboard.
    let out = crate::common::chesskit_with_input(
        &["play", "telepathy", "--seats", "human,computer:level1,human,computer:level1", "--seed", "1"],
        b"\npredict knight\n\n",
    );
    let text = String::from_utf8_lossy(&out.stdout);
    let partner = screen_after_the_clear(&text, "White A> ", "Pass the keyboard to White B");
    assert!(partner.contains("White B> "), "White B's screen follows: {partner}");
    for secret in ["predict knight", "knight", "8h"] {
        assert!(!partner.contains(secret), "{secret:?} shows after the clear: {partner}");
    }
}

#[test]
fn telepathy_four_computers_play_to_the_end() {
    let out = Command::new(env!("CARGO_BIN_EXE_chesskit"))
        .args(["selfplay", "telepathy", "--games", "2", "--players", "level2,random,level1,level3"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("2 games of telepathy"), "{text}");
}

#[test]
fn telepathy_a_human_plays_with_three_computers() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_chesskit"))
        .args(["play", "telepathy", "--seats", "human,computer,computer,computer"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(b"predict knight\n").unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("White B moves"), "the computer partner moved: {text}");
    assert!(text.contains("Your move"), "and the turn came back to the human: {text}");
}

/// "Definitely none before your move": the table chat refuses the team to
/// move, says why, and records nothing; its view carries the reason.
#[test]
fn telepathy_no_talking_before_your_move_through_the_protocol() {
    let mut r = Referee::start();
    assert_eq!(r.send(json!({"cmd": "new", "variant": "telepathy"}))["ok"], true);
    r.act_ok(0, "predict 8h");
    for seat in [0, 2] {
        let error = error_of(&r.act(seat, "say think knight")).to_string();
        assert!(error.contains("Definitely none before your move"), "seat {seat}: {error}");
    }
    assert_eq!(r.send(json!({"cmd": "record"}))["record"]["actions"].as_array().unwrap().len(), 1, "only the card");
    let view = r.send(json!({"cmd": "view", "viewer": 2}))["view"].clone();
    assert!(view["chat_closed"].as_str().unwrap().contains("no talking before your move"), "{view}");
    assert!(view.get("chat").is_none(), "nothing was said: {view}");
    // The opponents may talk: they are after their move (none yet) and before White's.
    r.act_ok(1, "say good luck");
    assert!(r.send(json!({"cmd": "view", "viewer": 1}))["view"].get("chat_closed").is_none());
}

#[test]
fn telepathy_no_talking_before_your_move_in_the_terminal() {
    let out = crate::common::chesskit_with_input(
        &["play", "telepathy", "--seats", "human,human,human,human"],
        b"\nsay it's a knight\npredict knight\n",
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("no talking before your move"), "{text}");
    assert!(!text.contains("says: it's a knight"), "{text}");
}
