//! Parade Chess Solitaire through the real binary: `chesskit solve parade`
//! (its answer replays through the referee protocol to the score it
//! claims), refusals that change nothing, and `play` in the terminal.

use std::io::Write;
use std::process::{Command, Stdio};

use crate::common::{error_of, Referee};
use serde_json::{json, Value};

fn chesskit(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_chesskit")).args(args).output().unwrap()
}

#[test]
fn the_solver_answer_replays_through_the_referee_to_its_score() {
    let out = chesskit(&["solve", "parade", "--seed", "2", "--seconds", "20", "--json", "--quiet"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let answer: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(answer["proven"], true, "{answer}");
    let mut r = Referee::start();
    assert_eq!(r.send(json!({"cmd": "new", "variant": "parade", "seed": 2}))["ok"], true);
    for action in answer["actions"].as_array().unwrap() {
        r.act_ok(0, action.as_str().unwrap());
    }
    let view = r.send(json!({"cmd": "view", "viewer": 0}));
    assert_eq!(view["view"]["outcome"]["scores"][0], answer["score"], "{view}");
}

#[test]
fn solve_refuses_unknown_variants_and_bad_times() {
    let out = chesskit(&["solve", "chess", "--seed", "1"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("(solvers: parade, neighbour, cooperative2)"));
    let out = chesskit(&["solve", "parade", "--seed", "1", "--seconds", "0"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("--seconds"));
}

#[test]
fn refused_actions_change_nothing() {
    let mut r = Referee::start();
    assert_eq!(r.send(json!({"cmd": "new", "variant": "parade", "seed": 5}))["ok"], true);
    let before = r.send(json!({"cmd": "position"}));
    for (bad, needle) in [("a1:a2-a3", "no piece on a1"), ("nonsense", "cannot read"), ("", "cannot read")] {
        let reply = r.act(0, bad);
        assert!(error_of(&reply).contains(needle), "{bad}: {reply}");
    }
    assert!(error_of(&r.act(1, "add")).contains("seat 1"));
    assert_eq!(r.send(json!({"cmd": "position"})), before);
}

#[test]
fn play_in_the_terminal_adds_a_piece() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_chesskit"))
        .args(["play", "parade", "--seed", "3", "--seats", "human"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.as_mut().unwrap().write_all(b"add\nquit\n").unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("Parade Chess Solitaire"), "{text}");
    assert!(text.contains("Player: Adds"), "{text}");
    assert!(text.contains("hand (Player): [7 face down]"), "{text}");
}
