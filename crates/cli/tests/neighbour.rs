//! Neighbour Chess Solitaire through the real binary: the referee protocol
//! (one seat, the decks as card zones, refusals that change nothing),
//! `play` in the terminal, and `solve`.

mod common;

use std::process::Output;

use common::{error_of, Referee};
use serde_json::{json, Value};

fn chesskit(args: &[&str], input: &[u8]) -> Output {
    common::chesskit_with_input(args, input)
}

fn zone<'a>(view: &'a Value, name: &str) -> &'a Value {
    view["view"]["zones"].as_array().unwrap().iter().find(|z| z["name"] == name).unwrap()
}

#[test]
fn neighbour_through_the_protocol_adds_from_the_decks_and_refuses_bad_actions() {
    let mut r = Referee::start();
    // The rook is on d1; the black knight comes 5 right, wrapping to a1.
    let position = "8/8/8/8/8/8/8/3R4\nphase: adding\nlast: d1\n\
        pieces deck: 8s 9h qs 10c 8h 9s kh ks 10s 8c 10d 9c 9d qh 8d\n\
        positions deck: 5h 2c 6s 3h 4d 2s 6h 5c 3c 4h 3s 2d 5s 6c 4s 6d 2h 5d 4c\n\
        pieces discard: 10h\npositions discard: 3d\nspent:";
    assert_eq!(r.send(json!({"cmd": "new", "variant": "neighbour", "position": position}))["ok"], true);
    assert_eq!(r.send(json!({"cmd": "legal", "seat": 0}))["actions"], json!(["add", "stop"]));
    let err = error_of(&r.act(0, "d1d5")).to_string();
    assert!(err.contains("add or stop"), "{err}");
    assert!(error_of(&r.act(0, "fly away")).contains("cannot read"));
    assert_eq!(r.send(json!({"cmd": "position"}))["position"], position, "refusals change nothing");
    r.act_ok(0, "add");
    let view = r.send(json!({"cmd": "view", "viewer": "spectator"}));
    assert_eq!(zone(&view, "Pieces discard")["cards"], json!(["10h", "8s"]));
    assert_eq!(zone(&view, "Pieces deck")["hidden"], 14, "the deck is face down");
    assert_eq!(zone(&view, "Positions discard")["cards"], json!(["3d", "5h"]));
    let pos = r.send(json!({"cmd": "position"}));
    assert!(pos["position"].as_str().unwrap().starts_with("8/8/8/8/8/8/8/n2R4"), "{pos}");
    let bad = r.send(json!({"cmd": "new", "variant": "neighbour", "position": "8/8/8/8/8/8/8/P7\nphase: adding"}));
    assert!(error_of(&bad).contains("no pawns"), "{bad}");
}

#[test]
fn neighbour_plays_in_the_terminal_and_the_computer_finishes_a_game() {
    let out = chesskit(&["play", "neighbour", "--seed", "2"], b"add\nadd\nadd\nstop\n");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(text.contains("Pieces deck: [13 face down]"), "{text}");
    assert!(text.contains("Game over"), "{text}");
    for level in ["computer:random", "computer:level2"] {
        let out = chesskit(&["play", "neighbour", "--seats", level, "--seed", "4"], b"");
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        assert!(String::from_utf8_lossy(&out.stdout).contains("Game over"));
    }
}

#[test]
fn solve_neighbour_proves_a_best_score_and_prints_its_line() {
    let out = chesskit(&["solve", "neighbour", "--seed", "1", "--seconds", "20", "--quiet"], b"");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(text.starts_with("best score 21 (proven"), "{text}");
    assert!(text.lines().nth(1).unwrap().starts_with("add, add"), "{text}");
    let out = chesskit(&["solve", "parity", "--seed", "1"], b"");
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("no solver for \"parity\""));
}
