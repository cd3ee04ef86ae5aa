//! Split-Brain Chess through the real binary: the referee protocol (four
//! seats circling in secret, the opponents' chooser keeping the piece or
//! the target, refusals that change nothing) and `play` in the terminal,
//! hot-seat and with the computer in the other seats.

use std::process::Output;

use crate::common::{error_of, markers_on, screen_after_the_clear, Referee};
use serde_json::json;

#[test]
fn split_brain_through_the_protocol_circles_stay_secret_until_both_are_made() {
    let mut r = Referee::start();
    assert_eq!(r.send(json!({"cmd": "new", "variant": "split-brain"}))["ok"], true);
    assert_eq!(r.send(json!({"cmd": "legal", "seat": 0}))["actions"].as_array().unwrap().len(), 36);
    assert_eq!(r.send(json!({"cmd": "legal", "seat": 1}))["actions"].as_array().unwrap().len(), 0);
    r.act_ok(0, "circle c2");
    let partner = r.send(json!({"cmd": "view", "viewer": 2}));
    assert!(markers_on(&partner, "c2").is_empty(), "the partner does not see the circle");
    // The same game with another circle: the partner's view is identical.
    let mut other = Referee::start();
    other.send(json!({"cmd": "new", "variant": "split-brain"}));
    other.act_ok(0, "circle g7");
    assert_eq!(
        other.send(json!({"cmd": "view", "viewer": 2})),
        partner,
        "nothing in the partner's view depends on the circle"
    );
    let own = r.send(json!({"cmd": "view", "viewer": 0}));
    assert_eq!(markers_on(&own, "c2"), ["circle"]);
    r.act_ok(2, "circle e4");
    // c2 cannot reach e4: the black chooser (king-side Black) decides.
    assert_eq!(r.send(json!({"cmd": "legal", "seat": 1}))["actions"], json!(["keep piece", "keep target"]));
    let spectator = r.send(json!({"cmd": "view", "viewer": "spectator"}));
    assert_eq!(markers_on(&spectator, "c2"), ["chosen"]);
    assert_eq!(markers_on(&spectator, "e4"), ["circle"]);
    r.act_ok(1, "keep piece");
    let pos = r.send(json!({"cmd": "position"}));
    assert_eq!(pos["position"], "8/1rnqknr1/1pppppp1/8/3N4/1PPPPPP1/1R1QKNR1/8 b - - 1 1\nchecker: king-side");
    let pgn = r.send(json!({"cmd": "pgn"}));
    assert!(pgn["pgn"].as_str().unwrap().contains("Nc2-d4"), "{pgn}");
}

#[test]
fn split_brain_refusals_name_the_rule_and_change_nothing() {
    let mut r = Referee::start();
    assert_eq!(r.send(json!({"cmd": "new", "variant": "split-brain"}))["ok"], true);
    let before = r.send(json!({"cmd": "position"}));
    assert!(error_of(&r.act(0, "circle a1")).contains("off the 6x6 grid"));
    assert!(error_of(&r.act(1, "circle e6")).contains("not seat 1's turn"));
    assert!(error_of(&r.act(0, "keep piece")).contains("no piece or target"));
    assert!(error_of(&r.act(0, "scribble")).contains("cannot read"));
    assert_eq!(r.send(json!({"cmd": "position"})), before);
    let bad = r.send(json!({"cmd": "new", "variant": "split-brain", "position": "8/4k3/8/8/8/8/1B2K3/8 w - - 0 1"}));
    assert!(error_of(&bad).contains("no bishops"));
}

fn chesskit(args: &[&str], input: &[u8]) -> Output {
    crate::common::chesskit_with_input(args, input)
}

#[test]
fn split_brain_hot_seat_mate_in_the_terminal() {
    // Four people at one keyboard: each presses Enter at the privacy pause,
    // then circles. Rc5-c7 mates the king on g7.
    let position = "8/6k1/1R6/2R5/8/8/1K6/8 w - - 0 1";
    let input = b"\ncircle c5\n\nc7\n";
    let out = chesskit(&["play", "split-brain", "--seats", "human,human,human,human", "--position", position], input);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(text.contains("Pass the keyboard to Queen-side White"), "the privacy pause between seats: {text}");
    assert!(text.contains("checker"), "the checker is described under the board: {text}");
    assert!(text.contains("Game over"), "{text}");
    assert!(text.contains("checkmate"), "{text}");
}

#[test]
fn split_brain_one_person_and_three_computers_in_the_terminal() {
    let out = chesskit(&["play", "split-brain", "--seats", "random,random,random,random", "--seed", "3"], b"");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stdout).contains("Game over"));
    let out = chesskit(&["play", "split-brain", "--seats", "human,computer,computer,computer"], b"circle c2\n");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("You are the chooser"), "{text}");
    assert!(text.contains("has circled a square"), "{text}");
}

#[test]
fn split_brain_nobody_sees_a_circle_not_even_the_partner_and_the_screen_forgets_it_before_the_mover_comes() {
    // docs/games/split-brain.md: "Nobody sees a circle (not even the
    // partner) until both have circled".
    // The two white partners share the keyboard; the computer plays Black.
    let out = chesskit(
        &["play", "split-brain", "--seats", "human,computer:level1,human,computer:level1"],
        b"\ncircle c3\n\n",
    );
    let text = String::from_utf8_lossy(&out.stdout);
    let mover = screen_after_the_clear(&text, "King-side White> ", "Pass the keyboard to Queen-side White");
    assert!(mover.contains("Queen-side White> "), "the mover's screen follows: {mover}");
    assert!(mover.contains("has circled a square"), "the mover is told a circle was made: {mover}");
    assert!(!mover.contains("c3"), "the circled square shows after the clear: {mover}");
}

/// "While writing down their moves ... They may not say anything": the
/// table chat refuses the circling partners, says why, and records nothing.
#[test]
fn split_brain_no_talking_while_circling_through_the_protocol() {
    let mut r = Referee::start();
    assert_eq!(r.send(json!({"cmd": "new", "variant": "split-brain"}))["ok"], true);
    r.act_ok(0, "circle c2");
    let error = error_of(&r.act(2, "say pawn to d4")).to_string();
    assert!(error.contains("may not say anything"), "{error}");
    assert_eq!(r.send(json!({"cmd": "record"}))["record"]["actions"].as_array().unwrap().len(), 1, "only the circle");
    let view = r.send(json!({"cmd": "view", "viewer": 2}));
    assert!(view["view"]["chat_closed"].as_str().unwrap().contains("no talking while circling"), "{view}");
    r.act_ok(1, "say hurry up");
    r.act_ok(2, "circle d4");
    r.act_ok(2, "say well done");
}
