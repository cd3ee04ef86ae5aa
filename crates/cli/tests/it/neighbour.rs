//! Neighbour Chess Solitaire through the real binary: the referee protocol
//! (one seat, the decks as card zones, refusals that change nothing),
//! `play` in the terminal, and `solve`.

use std::process::Output;

use crate::common::{error_of, Referee};
use serde_json::{json, Value};

fn chesskit(args: &[&str], input: &[u8]) -> Output {
    crate::common::chesskit_with_input(args, input)
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
    // Seed 1 is proven in 47 322 nodes (2026-11-28).
    let out = chesskit(&["solve", "neighbour", "--seed", "1", "--nodes", "1000000", "--quiet"], b"");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(
        text.starts_with("Best score 21, proven: the solver searched every line that keeps more cards ("),
        "{text}"
    );
    assert!(text.lines().nth(1).unwrap().starts_with("add, add"), "{text}");
    let out = chesskit(&["solve", "parity", "--seed", "1"], b"");
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("no solver for \"parity\""));
}

/// White king and knight on a1 and b1, black knight and king on g8 and h8,
/// 7 cards left: the pairs need 8 moves to meet ("Before each move, spend
/// a card"), so the deal is lost, proven in 84 174 nodes (2026-11-28).
const PAIRS_APART: &str = "6nk/8/8/8/8/8/8/KN6\nphase: moving\nlast: -\npieces deck:\n\
    positions deck: 5s 6s 2c 3c 4c 5c 6c\npieces discard: kh 8h ks 8s\npositions discard: 2h 3h 4h 5h\n\
    spent: 8c 8d 9s 9c 9h 9d 10s 10c 10h 10d qs qh 6h 2d 3d 4d 5d 6d 2s 3s 4s";

#[test]
fn solve_neighbour_says_in_words_whether_no_line_exists_or_the_search_ran_out() {
    let args = ["solve", "neighbour", "--seed", "0", "--position", PAIRS_APART, "--quiet", "--nodes"];
    let out = chesskit(&[&args[..], &["1000000"]].concat(), b"");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(text.starts_with("No winning line exists: the solver searched every line ("), "{text}");
    assert_eq!(text.lines().count(), 1, "no line of actions: {text}");

    let out = chesskit(&[&args[..], &["100", "--json"]].concat(), b"");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let value: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(value["score"], Value::Null);
    assert_eq!(value["proven"], false);
    assert_eq!(value["verdict"], "ran_out");
    assert_eq!(
        value["message"],
        "No winning line found within the search limit of 100 nodes; the deal may still be winnable"
    );

    let out = chesskit(&["solve", "parade", "--seed", "1", "--nodes", "100"], b"");
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--nodes bounds only the neighbour solver"));
}
