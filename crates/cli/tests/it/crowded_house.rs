//! Crowded House through the real binary: the referee protocol (four seats
//! in turn, a move refused for its half, the pass) and `play` in the
//! terminal with the computer in three seats.

use std::io::Write;
use std::process::{Command, Stdio};

use crate::common::{error_of, Referee};
use serde_json::json;

#[test]
fn crowded_house_through_the_protocol_four_seats_in_turn() {
    let mut r = Referee::start();
    assert_eq!(r.send(json!({"cmd": "new", "variant": "crowded-house"}))["ok"], true);
    assert_eq!(r.send(json!({"cmd": "legal", "seat": 0}))["actions"].as_array().unwrap().len(), 10);
    let err = error_of(&r.act(0, "d2d4")).to_string();
    assert!(err.contains("start and end on the queen side"), "{err}");
    for (seat, action) in [(0, "e4"), (1, "e7e5"), (2, "Bc4"), (3, "b8c6")] {
        r.act_ok(seat, action);
    }
    let pos = r.send(json!({"cmd": "position"}));
    assert_eq!(pos["position"], "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/8/PPPP1PPP/RNBQK1NR w KQkq - 2 3\nhalf: king");
    let err = error_of(&r.act(2, "a2a3")).to_string();
    assert!(err.contains("not seat 2's turn"), "{err}");
    let pgn = r.send(json!({"cmd": "pgn"}));
    let movetext = pgn["pgn"].as_str().unwrap().split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(movetext.contains("1... e7-e5 {King-side Black} 2. Bf1-c4 {Queen-side White}"), "{pgn}");
}

#[test]
fn crowded_house_a_player_with_nothing_on_their_half_passes() {
    let mut r = Referee::start();
    let position = "7k/5ppp/8/8/8/8/8/K7 b - - 0 1\nhalf: queen";
    assert_eq!(r.send(json!({"cmd": "new", "variant": "crowded-house", "position": position}))["ok"], true);
    assert_eq!(r.send(json!({"cmd": "legal", "seat": 3}))["actions"], json!(["pass"]));
    r.act_ok(3, "pass");
    // King-side White's king a1 cannot reach the king side: a pass too.
    assert_eq!(r.send(json!({"cmd": "legal", "seat": 0}))["actions"], json!(["pass"]));
    r.act_ok(0, "pass");
    assert!(r.send(json!({"cmd": "legal", "seat": 1}))["actions"].as_array().unwrap().contains(&json!("h8g8")));
}

#[test]
fn crowded_house_play_in_the_terminal_with_three_computers() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_chesskit"))
        .args(["play", "crowded-house", "--seats", "human,computer,computer,computer", "--seed", "3"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(b"d2d4\ne2e4\nquit\n").unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("King-side White to move (files e-h)"), "{text}");
    assert!(text.contains("start and end on the queen side"), "{text}");
    assert!(text.contains("Queen-side Black"), "{text}");
    assert!(text.contains("Order of play"), "{text}");
}

#[test]
fn crowded_house_talking_clock_through_the_protocol_with_times() {
    let mut r = Referee::start();
    let new = json!({"cmd": "new", "variant": "crowded-house", "options": {"clock": 1}});
    assert_eq!(r.send(new)["ok"], true);
    let reply = r.send(json!({"cmd": "act", "seat": 0, "action": "e4", "ms": 1000}));
    assert_eq!(reply["deadline"], 61_000, "Black's minute from the first timed move: {reply}");
    let reply = r.send(json!({"cmd": "act", "seat": 1, "action": "say hm", "ms": 2000}));
    assert_eq!(reply["ok"], true, "{reply}");
    let err = error_of(&r.send(json!({"cmd": "act", "seat": 1, "action": "e5", "ms": 1500}))).to_string();
    assert!(err.contains("time only goes forward"), "{err}");
    let err = error_of(&r.send(json!({"cmd": "act", "seat": 1, "action": "e5", "ms": "soon"}))).to_string();
    assert!(err.contains("\"ms\" must be"), "{err}");
    // Black's flag falls at 61 s; White's coin is no help to Black.
    let err = error_of(&r.send(json!({"cmd": "act", "seat": 1, "action": "e5", "ms": 70_000}))).to_string();
    assert!(err.contains("a flag fell at 61000 ms"), "{err}");
    let reply = r.send(json!({"cmd": "act", "seat": 0, "action": "flag", "ms": 70_000}));
    assert_eq!(reply["outcome"], json!({"winners": [0, 2], "reason": "time forfeit"}), "{reply}");
    let pos = r.send(json!({"cmd": "position"}));
    assert!(pos["position"].as_str().unwrap().ends_with("clock: 60000 0\ncoins: 1 0\npaid: black"), "{pos}");
}

#[test]
fn crowded_house_play_on_a_clock_the_flag_is_looked_at_the_next_input() {
    // Black has no time left: the flag falls as soon as White has moved,
    // and the terminal records it at the next input.
    let position = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\nclock: 60000 0";
    let out = crate::common::chesskit_with_input(
        &["play", "crowded-house", "--seats", "human,human,human,human", "--option", "clock=1", "--position", position],
        b"e2e4\ne7e5\n",
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("Clocks: White 1:00, 0 coins | Black 0:00, 0 coins\n"), "{text}");
    assert!(text.contains("Black 0:00, 0 coins <- running"), "{text}");
    assert!(text.contains("game over: Black's flag falls with no coin to buy time: Black loses on time"), "{text}");
    assert!(text.contains("Game over: King-side White and Queen-side White won (time forfeit)"), "{text}");
}
