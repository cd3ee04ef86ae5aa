//! Half Alice Chess through the real binary: the referee protocol (moves,
//! the mirror markers, the 12-checker option, refusals that change
//! nothing) and `play` in the terminal.

use std::process::Output;

use crate::common::{error_of, markers_on, Referee};
use serde_json::json;

#[test]
fn half_alice_through_the_protocol_moves_switch_sides_of_the_mirror() {
    let mut r = Referee::start();
    assert_eq!(r.send(json!({"cmd": "new", "variant": "half-alice"}))["ok"], true);
    assert_eq!(r.send(json!({"cmd": "legal", "seat": 0}))["actions"].as_array().unwrap().len(), 20);
    assert_eq!(r.act(0, "e4")["ok"], true, "SAN is read");
    assert_eq!(r.act(1, "e7e5")["ok"], true);
    let pos = r.send(json!({"cmd": "position"}));
    assert_eq!(pos["position"], "rnbqkbnr/pppp1ppp/8/4p{m}3/4P{m}3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
    let view = r.send(json!({"cmd": "view", "viewer": "spectator"}));
    assert_eq!(markers_on(&view, "e4"), ["checkers", "mirror"]);
    assert!(markers_on(&view, "d2").is_empty());
    // The pawns on e4 and e5 stand on the same side: neither may advance.
    let legal = r.send(json!({"cmd": "legal", "seat": 0}));
    assert!(!legal["actions"].as_array().unwrap().contains(&json!("e4e5")));
    let log = r.send(json!({"cmd": "log"}));
    assert_eq!(log["actions"][0], json!({"seat": 0, "action": "e2e4"}), "logged canonically");
    let pgn = r.send(json!({"cmd": "pgn"}));
    assert!(pgn["pgn"].as_str().unwrap().contains("[Variant \"Half Alice\"]"), "{pgn}");
}

#[test]
fn half_alice_refusals_name_the_rule_and_change_nothing() {
    let mut r = Referee::start();
    // The white rook a1 on the board side; a black knight on a checker on a4.
    let position = "4k3/8/8/8/n{m}7/8/8/R3K3 w - - 0 1";
    assert_eq!(r.send(json!({"cmd": "new", "variant": "half-alice", "position": position}))["ok"], true);
    let err = error_of(&r.act(0, "a1a4")).to_string();
    assert!(err.contains("other side of the mirror"), "{err}");
    assert_eq!(r.send(json!({"cmd": "position"}))["position"], position);
    assert!(error_of(&r.act(0, "castle please")).contains("cannot read"));
    assert_eq!(r.act(0, "a1a8")["ok"], true, "the rook passes the knight on the other side and gives check");
    let bad = r.send(json!({"cmd": "new", "variant": "half-alice", "position": "4k3/8/8/8/8/8/8/R{x}3K3 w - - 0 1"}));
    assert!(error_of(&bad).contains("unknown marker {x}"));
}

#[test]
fn half_alice_twelve_checkers_by_option_in_the_protocol() {
    let mut r = Referee::start();
    let reply = r.send(json!({"cmd": "new", "variant": "half-alice", "options": {"twelve_checkers": true}}));
    assert_eq!(reply["ok"], true, "{reply}");
    assert_eq!(r.act(0, "e2e4")["ok"], true);
    let pos = r.send(json!({"cmd": "position"}));
    assert!(pos["position"].as_str().unwrap().ends_with("white free checkers: 11\nblack free checkers: 12"), "{pos}");
    let view = r.send(json!({"cmd": "view", "viewer": "spectator"}));
    assert_eq!(view["view"]["tables"][0]["title"], "Free checkers", "{view}");
    let bad = r.send(json!({"cmd": "new", "variant": "half-alice", "options": {"twelve_checkers": 12}}));
    assert!(error_of(&bad).contains("true or false"));
}

fn chesskit(args: &[&str], input: &[u8]) -> Output {
    crate::common::chesskit_with_input(args, input)
}

#[test]
fn half_alice_plays_to_checkmate_in_the_terminal() {
    // The knight on a checker on d5 goes to b6 and back to the board side:
    // mate, the white king on a checker on b7 covering a7 and b8 through the mirror.
    let position = "k7/1K{m}6/8/3N{m}4/8/8/8/8 w - - 0 1";
    let out = chesskit(&["play", "half-alice", "--seats", "human,human", "--position", position], b"Nb6\n");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(text.contains("mirror"), "the markers are described under the board: {text}");
    assert!(text.contains("Game over: White won (checkmate)"), "{text}");
}

#[test]
fn half_alice_computer_players_finish_a_game_in_the_terminal() {
    let out = chesskit(&["play", "half-alice", "--seats", "random,random", "--seed", "3"], b"");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stdout).contains("Game over"));
}
