//! Cooperative Chess 2 through the real binary: the referee protocol (a
//! turn of card, move and captures; the partner's hand hidden; errors that
//! change nothing; record and replay), `play` in the terminal, the
//! solitaire, and computers playing to the end.

use std::io::Write;
use std::process::{Command, Stdio};

use crate::common::{error_of, Referee};
use serde_json::{json, Value};

fn zone(view: &Value, name: &str) -> Value {
    view["zones"].as_array().unwrap().iter().find(|z| z["name"] == name).cloned().unwrap()
}

/// The book's example (testdata/book-examples.md): Black holds 8s and 3h,
/// the line is 3c 2h 9s; the draw pile holds the rest of the cards.
fn book_position() -> String {
    let named = ["3c", "2h", "9s", "4h", "5h", "8s", "3h", "2c"];
    let mut pile = Vec::new();
    for suit in ["s", "h", "d", "c"] {
        for rank in ["2", "3", "4", "5", "8", "9", "10"] {
            let card = format!("{rank}{suit}");
            if !named.contains(&card.as_str()) {
                pile.push(card);
            }
        }
    }
    pile.extend(["qs", "qh", "ks", "kh"].map(String::from));
    format!(
        "rnbqkbnr/ppp1pppp/8/3P4/4P3/8/PP1P1PPP/RNBQKBNR b KQkq - 0 1\nstep: play\nline: 3c 2h 9s\n\
         white hand: 4h 5h\nblack hand: 8s 3h\ndraw pile: {}\ndiscard: 2c",
        pile.join(" ")
    )
}

#[test]
fn cooperative2_is_listed_with_two_seats_and_hidden_information() {
    let mut r = Referee::start();
    let reply = r.send(json!({"cmd": "variants"}));
    let entry = reply["variants"].as_array().unwrap().iter().find(|v| v["name"] == "cooperative2").cloned().unwrap();
    assert_eq!(entry["title"], "Cooperative Chess 2");
    assert_eq!(entry["seats"], json!(["White", "Black"]));
    assert_eq!(entry["hidden_information"], true);
}

#[test]
fn cooperative2_the_books_turn_through_the_protocol() {
    let mut r = Referee::start();
    assert_eq!(r.send(json!({"cmd": "new", "variant": "cooperative2", "position": book_position()}))["ok"], true);
    let before = r.send(json!({"cmd": "position"}));
    assert!(error_of(&r.act(0, "play 4h")).contains("not seat 0's turn"));
    assert!(error_of(&r.act(1, "c8e6")).contains("play a card"));
    assert!(error_of(&r.act(1, "play 9h")).contains("not in your hand"));
    assert!(error_of(&r.act(1, "play")).contains("cannot read"));
    assert_eq!(r.send(json!({"cmd": "position"})), before, "refusals change nothing");
    // White sees its own hand, not Black's; a spectator sees neither.
    let white = r.send(json!({"cmd": "view", "viewer": 0}))["view"].clone();
    assert_eq!(zone(&white, "white hand")["cards"], json!(["4h", "5h"]));
    assert_eq!(zone(&white, "black hand")["cards"], json!([]));
    assert_eq!(zone(&white, "black hand")["hidden"], 2);
    let spectator = r.send(json!({"cmd": "view", "viewer": "spectator"}))["view"].clone();
    assert!(!spectator["zones"].to_string().contains("\"8s\""), "{spectator}");
    assert_eq!(zone(&spectator, "face-up line")["cards"], json!(["3c", "2h", "9s"]));
    r.act_ok(1, "play 3h");
    r.act_ok(1, "Be6");
    r.act_ok(1, "Bxd5 x2h");
    r.act_ok(1, "Bxe4");
    let view = r.send(json!({"cmd": "view", "viewer": "spectator"}))["view"].clone();
    assert_eq!(zone(&view, "face-up line")["cards"], json!(["3c", "9s"]));
    assert_eq!(zone(&view, "discard pile")["cards"], json!(["2c", "2h", "3h"]));
    assert_eq!(view["to_act"], json!([0]), "no capture left: White's turn");
    // Record and replay give the same game.
    let record = r.send(json!({"cmd": "record"}))["record"].clone();
    let position = r.send(json!({"cmd": "position"}));
    assert_eq!(r.send(json!({"cmd": "replay", "record": record}))["ok"], true);
    assert_eq!(r.send(json!({"cmd": "position"})), position);
}

#[test]
fn cooperative2_bad_positions_and_options_are_refused_clearly() {
    let mut r = Referee::start();
    let bad = book_position().replace("discard: 2c", "discard:");
    let reply = r.send(json!({"cmd": "new", "variant": "cooperative2", "position": bad}));
    assert!(error_of(&reply).contains("cards missing: 2c"), "{reply}");
    let reply = r.send(json!({"cmd": "new", "variant": "cooperative2", "options": {"players": 3}}));
    assert!(error_of(&reply).contains("players"), "{reply}");
}

#[test]
fn cooperative2_solitaire_has_one_seat() {
    let mut r = Referee::start();
    let reply = r.send(json!({"cmd": "new", "variant": "cooperative2", "seed": 3, "options": {"players": 1}}));
    assert_eq!(reply["ok"], true, "{reply}");
    let view = r.send(json!({"cmd": "view", "viewer": 0}))["view"].clone();
    assert_eq!(view["seats"].as_array().unwrap().len(), 1);
    assert!(!zone(&view, "face-up line")["cards"].as_array().unwrap().is_empty());
    r.act_ok(0, "e2e4");
    r.act_ok(0, "e7e5");
}

#[test]
fn cooperative2_two_people_share_one_keyboard() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_chesskit"))
        .args(["play", "cooperative2", "--seats", "human,human", "--seed", "1"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Play whatever card comes first; the terminal offers the legal actions.
    child.stdin.take().unwrap().write_all(b"\nnonsense\nend\n").unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    assert!(text.contains("face-up line"), "the line is drawn: {text}");
    assert!(text.contains("cannot read"), "nonsense is refused: {text}");
}

#[test]
fn cooperative2_computers_play_to_the_end() {
    let out = Command::new(env!("CARGO_BIN_EXE_chesskit"))
        .args(["selfplay", "cooperative2", "--games", "2", "--players", "level2,random"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("2 games of cooperative2"), "{text}");
    let out = Command::new(env!("CARGO_BIN_EXE_chesskit"))
        .args(["selfplay", "cooperative2", "--games", "1", "--players", "level1", "--option", "players=1"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}

/// Issue 23's review position: after a pawn's double step and a capture
/// by that same pawn in one turn, the referee's own `position` starts a
/// new game (it named a double step whose pawn had moved on, and `new`
/// refused it).
#[test]
fn cooperative2_the_position_after_a_double_step_and_a_capture_by_that_pawn_loads_back() {
    let mut r = Referee::start();
    let start = "4k2r/p3b3/8/3n4/8/8/PP6/R2QK3 w - - 0 1\nstep: move\nline: 2h 2s 9s 10h kh 8s 10s\n\
                 draw pile: qh 2d ks\n\
                 discard: 2c 3s 3h 3d 3c 4s 4h 4d 4c 5s 5h 5d 5c 8h 8d 8c 9h 9d 9c 10d 10c qs";
    let solo = json!({"players": 1});
    let reply = r.send(json!({"cmd": "new", "variant": "cooperative2", "options": solo, "position": start}));
    assert_eq!(reply["ok"], true, "{reply}");
    for action in ["d1d4", "a7a5", "b2b4", "b4a5 x2s"] {
        r.act_ok(0, action);
    }
    let position = r.send(json!({"cmd": "position"}))["position"].as_str().unwrap().to_string();
    let reply = r.send(json!({"cmd": "new", "variant": "cooperative2", "options": solo, "position": position}));
    assert_eq!(reply["ok"], true, "{reply}");
    assert_eq!(r.send(json!({"cmd": "position"}))["position"], position);
}
