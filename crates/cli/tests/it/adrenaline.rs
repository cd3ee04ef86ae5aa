//! Adrenaline Chess through the real binary: the referee protocol (a turn
//! of several actions, the checker placement, errors that change nothing,
//! record and replay) and `play` in the terminal.

use std::io::Write;
use std::process::{Command, Stdio};

use crate::common::{error_of, Referee};
use serde_json::json;

#[test]
fn adrenaline_is_listed_with_its_title() {
    let mut r = Referee::start();
    let reply = r.send(json!({"cmd": "variants"}));
    let entry = reply["variants"].as_array().unwrap().iter().find(|v| v["name"] == "adrenaline").cloned();
    let entry = entry.expect("adrenaline is registered");
    assert_eq!(entry["title"], "Adrenaline Chess");
    assert_eq!(entry["pgn"], true);
    assert_eq!(entry["hidden_information"], false);
}

#[test]
fn adrenaline_turn_of_several_actions_through_the_protocol() {
    let mut r = Referee::start();
    assert_eq!(r.send(json!({"cmd": "new", "variant": "adrenaline", "seed": 1}))["ok"], true);
    // The book's example: White captures with the bishop and adds a checker under h7.
    r.act_ok(0, "e3");
    r.act_ok(1, "a7a6");
    let reply = r.act_ok(0, "Bxa6");
    assert_eq!(reply["action"], "f1a6", "SAN is answered in UCI");
    assert_eq!(reply["to_act"], json!([0]), "White still acts: the checker is due");
    let legal = r.send(json!({"cmd": "legal", "seat": 0}));
    let actions: Vec<&str> = legal["actions"].as_array().unwrap().iter().map(|a| a.as_str().unwrap()).collect();
    assert_eq!(actions.len(), 15, "{actions:?}");
    assert!(actions.contains(&"checker h7") && actions.contains(&"checker e8"));
    // A refused action changes nothing.
    let before = r.send(json!({"cmd": "position"}));
    assert!(error_of(&r.send(json!({"cmd": "act", "seat": 0, "action": "checker e2"}))).contains("no enemy piece"));
    assert!(error_of(&r.send(json!({"cmd": "act", "seat": 1, "action": "b7b6"}))).contains("not seat 1's turn"));
    assert!(error_of(&r.send(json!({"cmd": "act", "seat": 0, "action": "checker"}))).contains("checker h7"));
    assert_eq!(r.send(json!({"cmd": "position"})), before);
    r.act_ok(0, "checker h7");
    let pos = r.send(json!({"cmd": "position"}));
    assert_eq!(pos["position"], "rnbqkbnr/1ppppppp{1}/B7/8/8/4P3/PPPP1PPP/RNBQK1NR b KQkq - 0 2");
    // The loaded pawn moves, then steps; the view shows the checkers.
    r.act_ok(1, "h7h6");
    let view = r.send(json!({"cmd": "view", "viewer": 1}));
    assert_eq!(view["view"]["to_act"], json!([1]));
    let h6 = view["view"]["board"]["squares"].as_array().unwrap().iter().find(|s| s["square"] == "h6").cloned();
    assert_eq!(
        h6.unwrap()["markers"][0],
        json!({"kind": "checkers", "colour": "red", "count": 1, "draw": [{"shape": "stack", "fill": "red", "text": "1"}]})
    );
    let reply = r.act_ok(1, "h6g5");
    assert_eq!(reply["action"], "step h6g5", "a bare move during the extra moves is a step");
    assert_eq!(reply["to_act"], json!([0]), "the last checker is spent: the turn passes");
    // Record and replay give the same game.
    let record = r.send(json!({"cmd": "record"}))["record"].clone();
    let position = r.send(json!({"cmd": "position"}));
    assert_eq!(r.send(json!({"cmd": "replay", "record": record}))["ok"], true);
    assert_eq!(r.send(json!({"cmd": "position"})), position);
    let pgn = r.send(json!({"cmd": "pgn"}))["pgn"].as_str().unwrap().to_string();
    assert!(
        pgn.contains("[Variant \"Adrenaline\"]") && pgn.contains("puts a checker under the black pawn on h7"),
        "{pgn}"
    );
}

#[test]
fn adrenaline_bad_positions_are_refused_clearly() {
    let mut r = Referee::start();
    let reply = r.send(json!({"cmd": "new", "variant": "adrenaline", "position": "4k3/8/8/8/8/8/8/R{x}3K3 w - - 0 1"}));
    assert!(error_of(&reply).contains("bad marker"));
    let reply = r.send(json!({"cmd": "new", "variant": "adrenaline", "position": "4k3/8/8/8/8/8/8/R{2}3K3 w - - 0 1"}));
    assert_eq!(reply["ok"], true);
}

#[test]
fn adrenaline_plays_in_the_terminal() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_chesskit"))
        .args(["play", "adrenaline", "--seats", "human,human"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Fool's mate: adrenaline changes nothing without captures.
    child.stdin.take().unwrap().write_all(b"f3\ne5\ng4\nQh4\n").unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("Game over: Black won (checkmate)"), "{text}");
}

#[test]
fn adrenaline_selfplay_finishes() {
    let out = Command::new(env!("CARGO_BIN_EXE_chesskit"))
        .args(["selfplay", "adrenaline", "--games", "2", "--players", "level2,random"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}
