//! Cooperative Chess through the real binary: the referee protocol (a
//! turn of move, card and captures; hidden hands; the table chat; errors
//! that change nothing; record and replay) and `play` in the terminal
//! with a computer partner.

use crate::common::{chesskit_with_input, error_of, Referee};
use serde_json::json;

/// The book's example (rules.md, "Cooperative Chess"; testdata/book-examples.md):
/// Black holds a knight, a bishop and a king card; White's stack has a red
/// pawn card on a rook card. Every card of the deck is listed.
const BOOK: &str = "rnbqkbnr/ppp1pppp/8/3P4/4P3/8/PP1P1PPP/RNBQKBNR b KQkq - 0 1\nwhite hand: 3h 4h 5h\n\
    black hand: 8s 9c ks\nwhite discards: 10h 2h\n\
    draw pile: 2s 2d 2c 3s 3d 3c 4s 4d 4c 5s 5d 5c 8h 8d 8c 9s 9h 9d 10s 10d 10c qs qh kh";

#[test]
fn cooperative_is_listed_with_two_seats_on_one_team() {
    let mut r = Referee::start();
    let reply = r.send(json!({"cmd": "variants"}));
    let entry = reply["variants"].as_array().unwrap().iter().find(|v| v["name"] == "cooperative").cloned().unwrap();
    assert_eq!(entry["title"], "Cooperative Chess");
    assert_eq!(entry["hidden_information"], true);
    assert_eq!(r.send(json!({"cmd": "new", "variant": "cooperative", "seed": 3}))["ok"], true);
    let view = r.send(json!({"cmd": "view", "viewer": 0}))["view"].clone();
    assert_eq!(view["seats"][0]["team"], 0);
    assert_eq!(view["seats"][1]["team"], 0);
}

#[test]
fn cooperative_turn_of_the_book_example_through_the_protocol() {
    let mut r = Referee::start();
    assert_eq!(r.send(json!({"cmd": "new", "variant": "cooperative", "position": BOOK}))["ok"], true);
    let before = r.send(json!({"cmd": "position"}));
    assert!(error_of(&r.act(1, "stop")).contains("play a card first"));
    assert!(error_of(&r.act(1, "play qh")).contains("you hold no qh"));
    assert!(error_of(&r.act(0, "e4e5")).contains("not seat 0's turn"));
    assert_eq!(r.send(json!({"cmd": "position"})), before, "refusals change nothing");
    // Yes/no questions at the table, not moves.
    r.act_ok(0, "say do you hold a bishop?");
    r.act_ok(1, "say yes");
    r.act_ok(1, "Be6");
    r.act_ok(1, "play 9c");
    r.act_ok(1, "e6d5");
    // The double colour match made the rook card wild: the bishop takes e4.
    r.act_ok(1, "Bxe4");
    let view = r.send(json!({"cmd": "view", "viewer": 0}))["view"].clone();
    let zone = |name: &str| view["zones"].as_array().unwrap().iter().find(|z| z["name"] == name).cloned().unwrap();
    assert_eq!(zone("captured cards")["cards"], json!(["2h", "10h"]));
    assert_eq!(zone("Black discards")["cards"], json!(["9c"]));
    assert_eq!(zone("Black hand")["cards"], json!([]), "White does not see Black's hand");
    assert_eq!(zone("Black hand")["hidden"], 3);
    assert_eq!(zone("White hand")["cards"], json!(["3h", "4h", "5h"]));
    assert_eq!(view["chat"].as_array().unwrap().len(), 2, "{view}");
    let record = r.send(json!({"cmd": "record"}))["record"].clone();
    let position = r.send(json!({"cmd": "position"}));
    assert_eq!(r.send(json!({"cmd": "replay", "record": record}))["ok"], true);
    assert_eq!(r.send(json!({"cmd": "position"})), position);
    let pgn = r.send(json!({"cmd": "pgn"}))["pgn"].as_str().unwrap().to_string();
    assert!(pgn.contains("[Variant \"Cooperative\"]") && pgn.contains("Bc8-e6xd5xe4"), "{pgn}");
}

#[test]
fn cooperative_bad_positions_are_refused_clearly() {
    let mut r = Referee::start();
    for (position, needle) in [
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1\nwhite hand: 9h 9h", "appears twice"),
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1\nwhite hand: 9h", "do not add up to the 32-card deck"),
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1\nphase: dance", "phase: expected"),
    ] {
        let reply = r.send(json!({"cmd": "new", "variant": "cooperative", "position": position}));
        assert!(error_of(&reply).contains(needle), "{reply}");
    }
}

#[test]
fn cooperative_plays_in_the_terminal_with_a_computer_partner() {
    let white_to_move = BOOK.replace(" b KQkq", " w KQkq");
    let out = chesskit_with_input(
        &["play", "cooperative", "--seats", "human,computer:level2", "--position", &white_to_move],
        b"say do you hold a king?\nNc3\nplay 3h\nquit\n",
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("Talk: White: do you hold a king?"), "{text}");
    assert!(text.contains("White: plays the 3h (white pawn)"), "{text}");
    assert!(text.contains("Black: plays the"), "the computer partner took its turn: {text}");
    assert!(text.contains("Black hand (Black): [3 face down]"), "{text}");
}

#[test]
fn cooperative_selfplay_finishes_with_computers_in_both_seats() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_chesskit"))
        .args(["selfplay", "cooperative", "--games", "2", "--players", "level2,random"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}
