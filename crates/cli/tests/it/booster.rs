//! Booster Chess through the real binary: the referee protocol (a turn of
//! move, booster steps and a card play; hidden hands; errors that change
//! nothing; record and replay) and `play` in the terminal.

use std::io::Write;
use std::process::{Command, Stdio};

use crate::common::{error_of, Referee};
use serde_json::json;

/// Every card of the 36-card deck in a hand or the draw pile (top card last).
const BOOSTED: &str = "4k3/8/8/8/8/8/8/N{+2}3K3 w - - 0 1\nwhite hand: 8h 2s 3s 4s\nblack hand: 5c 9c 2c 3c 4c 8c\n\
    draw pile: 5s 8s 9s qs ks 6s 2h 3h 4h 5h 9h 10h qh kh 6h 2d 3d 4d 5d 8d 9d 10d 6d 6c 10c 10s\n\
    white checkers: 4\nblack checkers: 6";

#[test]
fn booster_is_listed_as_experimental_with_hidden_information() {
    let mut r = Referee::start();
    let reply = r.send(json!({"cmd": "variants"}));
    let entry = reply["variants"].as_array().unwrap().iter().find(|v| v["name"] == "booster").cloned().unwrap();
    assert_eq!(entry["title"], "Booster Chess");
    assert_eq!(entry["experimental"], true);
    assert_eq!(entry["hidden_information"], true);
}

#[test]
fn booster_turn_move_steps_card_and_draw_through_the_protocol() {
    let mut r = Referee::start();
    assert_eq!(r.send(json!({"cmd": "new", "variant": "booster", "position": BOOSTED}))["ok"], true);
    // Bad input is named and changes nothing.
    let before = r.send(json!({"cmd": "position"}));
    assert!(error_of(&r.send(json!({"cmd": "act", "seat": 0, "action": "stop"}))).contains("no booster moves"));
    assert!(error_of(&r.send(json!({"cmd": "act", "seat": 0, "action": "play 8h"}))).contains("play 9h e4"));
    assert!(error_of(&r.send(json!({"cmd": "act", "seat": 1, "action": "e8e7"}))).contains("not seat 1's turn"));
    assert_eq!(r.send(json!({"cmd": "position"})), before);
    r.act_ok(0, "a1b3");
    let reply = r.act_ok(0, "b3c4");
    assert_eq!(reply["action"], "step b3c4", "a bare move while spending is a step");
    // The view shows the checker under the knight, White's own cards, only
    // the count of Black's.
    let view = r.send(json!({"cmd": "view", "viewer": 0}))["view"].clone();
    let c4 = view["board"]["squares"].as_array().unwrap().iter().find(|s| s["square"] == "c4").cloned().unwrap();
    assert_eq!(
        c4["markers"][0],
        json!({"kind": "checkers", "colour": "white", "count": 1, "draw": [{"shape": "stack", "fill": "white", "text": "1"}]})
    );
    let zones = view["zones"].as_array().unwrap();
    let black = zones.iter().find(|z| z["name"] == "Black hand").unwrap();
    assert_eq!((black["cards"].as_array().map_or(0, |c| c.len()), black["hidden"].as_u64()), (0, Some(6)));
    r.act_ok(0, "stop");
    r.act_ok(0, "play 8h c4");
    // One checker spent, one added: four in front; three cards left, so one is drawn.
    let pos = r.send(json!({"cmd": "position"}))["position"].as_str().unwrap().to_string();
    assert!(pos.starts_with("4k3/8/8/8/2N{+2}5/8/8/4K3 b"), "{pos}");
    assert!(pos.contains("white hand: 2s 3s 4s 10s\n"), "{pos}");
    assert!(pos.contains("white checkers: 4"), "{pos}");
    // Record and replay give the same game; the PGN names the booster move.
    let record = r.send(json!({"cmd": "record"}))["record"].clone();
    let position = r.send(json!({"cmd": "position"}));
    assert_eq!(r.send(json!({"cmd": "replay", "record": record}))["ok"], true);
    assert_eq!(r.send(json!({"cmd": "position"})), position);
    let pgn = r.send(json!({"cmd": "pgn"}))["pgn"].as_str().unwrap().to_string();
    assert!(pgn.contains("[Variant \"Booster\"]") && pgn.contains("booster move b3-c4"), "{pgn}");
}

#[test]
fn booster_bad_positions_are_refused_clearly() {
    let mut r = Referee::start();
    let reply = r.send(json!({"cmd": "new", "variant": "booster", "position": "4k3/8/8/8/8/8/8/R{x}3K3 w - - 0 1"}));
    assert!(error_of(&reply).contains("expected +N"));
    let reply = r.send(
        json!({"cmd": "new", "variant": "booster", "position": "4k3/8/8/8/8/8/8/4K3 w - - 0 1\nwhite hand: 9h 9h"}),
    );
    assert!(error_of(&reply).contains("twice"));
    let missing_cards = "4k3/8/8/8/8/8/8/4K3 w - - 0 1\nwhite hand: 9h";
    let reply = r.send(json!({"cmd": "new", "variant": "booster", "position": missing_cards}));
    assert!(error_of(&reply).contains("do not add up to the 36-card deck"));
}

#[test]
fn booster_plays_in_the_terminal() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_chesskit"))
        .args(["play", "booster", "--seats", "human,human"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Fool's mate, passing on the cards: nothing is boosted or hobbled. The
    // hands are hidden, so the keyboard is passed (Enter) before each turn.
    child.stdin.take().unwrap().write_all(b"\nf3\npass\n\ne5\npass\n\ng4\npass\n\nQh4\npass\n").unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("Game over: Black won (checkmate)"), "{text}");
}

#[test]
fn booster_selfplay_finishes() {
    let out = Command::new(env!("CARGO_BIN_EXE_chesskit"))
        .args(["selfplay", "booster", "--games", "2", "--players", "level2,random"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}
