//! Gravity Chess through the real binary: the referee protocol (a game from
//! the book's order example, refusals that change nothing, what each seat
//! sees) and `play` in the terminal, people and computers.

use std::process::Output;

use crate::common::{error_of, markers_on, Referee};
use serde_json::{json, Value};

/// The book's order example: White has just flipped the black rook.
const ORDER_EXAMPLE: &str = "4P3/4B3/r3P3/1n2b3/8/8/8/8 w
white holds: 2s 3s 4s 5s 8c 9c qs ks
black holds: 4h 5h 8h 8d 9d 10h 10d qh kh
flipped: 10s
";

fn chesskit(args: &[&str], input: &[u8]) -> Output {
    crate::common::chesskit_with_input(args, input)
}

fn legal(r: &mut Referee, seat: u64) -> Vec<String> {
    let reply = r.send(json!({"cmd": "legal", "seat": seat}));
    reply["actions"].as_array().unwrap().iter().map(|a| a.as_str().unwrap().to_string()).collect()
}

#[test]
fn the_referee_plays_the_books_order_example() {
    let mut r = Referee::start();
    assert_eq!(r.send(json!({"cmd": "new", "variant": "gravity", "position": ORDER_EXAMPLE}))["ok"], true);
    let actions = legal(&mut r, 0);
    assert!(actions.contains(&"e8 stays".to_string()) && actions.contains(&"e7f6".to_string()), "{actions:?}");
    r.act_ok(0, "e7f6");
    r.act_ok(0, "e8e7");
    // The lower pawn cannot move: the moves are over, the rook goes on the top row.
    assert_eq!(legal(&mut r, 0), ["R@a8", "R@b8", "R@c8", "R@d8", "R@e8", "R@f8", "R@g8", "R@h8"]);
    r.act_ok(0, "R@h8");
    let view: Value = r.send(json!({"cmd": "view", "viewer": 1}));
    assert_eq!(view["view"]["to_act"], json!([1]), "{view}");
    let zones = view["view"]["zones"].as_array().unwrap();
    let flipped = zones.iter().find(|z| z["name"] == "Flipped card").unwrap();
    assert_eq!(flipped["cards"].as_array().unwrap().len(), 1, "Black flipped a white card: {view}");
    assert_eq!(zones[1]["hidden"], 8, "Black's deck, face down: {view}");
    let position = r.send(json!({"cmd": "position"}))["position"].as_str().unwrap().to_string();
    assert!(position.starts_with("7r/4P3/r3PB2/1n2b3/8/8/8/8 b"), "{position}");
}

#[test]
fn refused_actions_and_positions_change_nothing() {
    let mut r = Referee::start();
    assert_eq!(r.send(json!({"cmd": "new", "variant": "gravity", "position": ORDER_EXAMPLE}))["ok"], true);
    let before = r.send(json!({"cmd": "position"}));
    for (bad, needle) in [
        ("e7d8", "goes up"),
        ("e7 stays", "must move if it can"),
        ("R@a8", "move your active pieces first"),
        ("a6a5", "not White's"),
        ("nonsense", "cannot read"),
    ] {
        let reply = r.act(0, bad);
        assert!(error_of(&reply).contains(needle), "{bad}: {reply}");
    }
    assert!(error_of(&r.act(1, "a6a5")).contains("seat 1"));
    assert_eq!(r.send(json!({"cmd": "position"})), before);
    let bad = r.send(
        json!({"cmd": "new", "variant": "gravity", "position": ORDER_EXAMPLE.replace("flipped: 10s", "flipped: 10h")}),
    );
    assert!(error_of(&bad).contains("10h"), "{bad}");
}

#[test]
fn stacked_pieces_are_marked_and_the_decks_are_counted_not_shown() {
    let mut r = Referee::start();
    let stacking = "p6N/q7/8/8/8/3B4/2Q2rb1/5rn1 w
white holds: 2s 3s 4s 8s 9s
black holds: 2h 3h 4h 8h 9h kh
flipped: ks
captured: 0 3
";
    assert_eq!(r.send(json!({"cmd": "new", "variant": "gravity", "position": stacking}))["ok"], true);
    let view = r.send(json!({"cmd": "view", "viewer": "spectator"}));
    assert_eq!(markers_on(&view, "f2"), ["stacked"]);
    assert_eq!(markers_on(&view, "g1"), ["stacked"]);
    assert!(markers_on(&view, "g2").is_empty(), "the bishop can still go to h1");
    let text = view.to_string();
    assert!(!text.contains("2s") && !text.contains("9h"), "the decks' cards are not shown: {text}");
}

#[test]
fn people_play_gravity_in_the_terminal() {
    let out = chesskit(
        &["play", "gravity", "--seats", "human,human", "--position", ORDER_EXAMPLE],
        b"\ne8 stays\ne7d6\n@c8\n\nquit\n",
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(text.contains("White: Pawn on e8 cannot move"), "{text}");
    assert!(text.contains("Adds the black rook (10s) on c8"), "{text}");
    assert!(text.contains("Black: Flips"), "{text}");
}

#[test]
fn computers_finish_a_game_of_gravity_in_the_terminal() {
    let out = chesskit(&["play", "gravity", "--seats", "random,computer:level2", "--seed", "4"], b"");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(text.contains("Game over"), "{text}");
    assert!(text.contains("White's last turn"), "{text}");
}
