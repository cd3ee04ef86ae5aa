//! The referee protocol end to end through the real binary: every command,
//! and every kind of error leaving the game unchanged.

use crate::common::{error_of, Referee};
use serde_json::json;

#[test]
fn variants_lists_every_registered_game() {
    let mut r = Referee::start();
    let reply = r.send(json!({"cmd": "variants"}));
    assert_eq!(reply["ok"], true);
    let names: Vec<&str> = reply["variants"].as_array().unwrap().iter().map(|v| v["name"].as_str().unwrap()).collect();
    assert!(names.contains(&"chess") && names.contains(&"chess960"), "{names:?}");
}

#[test]
fn a_game_of_chess_through_the_protocol() {
    let mut r = Referee::start();
    let reply = r.send(json!({"cmd": "new", "variant": "chess", "seed": 7}));
    assert_eq!(reply["ok"], true);
    assert_eq!(reply["to_act"], json!([0]));
    assert_eq!(r.send(json!({"cmd": "status"})), json!({"ok": true, "over": false, "to_act": [0], "outcome": null}));
    let legal = r.send(json!({"cmd": "legal", "seat": 0}));
    assert_eq!(legal["actions"].as_array().unwrap().len(), 20);
    assert!(legal["actions"].as_array().unwrap().contains(&json!("e2e4")));
    assert_eq!(r.send(json!({"cmd": "legal", "seat": 1}))["actions"], json!([]));
    for (seat, action) in [(0, "f2f3"), (1, "e7e5"), (0, "g2g4"), (1, "Qh4#")] {
        let reply = r.send(json!({"cmd": "act", "seat": seat, "action": action}));
        assert_eq!(reply["ok"], true, "{reply}");
    }
    let status = r.send(json!({"cmd": "status"}));
    assert_eq!(status["over"], true);
    assert_eq!(status["outcome"]["winners"], json!([1]));
    assert_eq!(status["outcome"]["reason"], "checkmate");
    let log = r.send(json!({"cmd": "log"}));
    assert_eq!(log["actions"][3], json!({"seat": 1, "action": "d8h4"}), "SAN input is logged canonically");
    let view = r.send(json!({"cmd": "view", "viewer": "spectator"}));
    assert_eq!(view["view"]["outcome"]["reason"], "checkmate");
    assert!(r.send(json!({"cmd": "pgn"}))["pgn"].as_str().unwrap().contains("2. g4 Qh4# 0-1"));
}

#[test]
fn chess960_from_a_position_and_by_option() {
    let mut r = Referee::start();
    let reply = r.send(json!({"cmd": "new", "variant": "chess960", "options": {"id": 518}}));
    assert_eq!(reply["ok"], true, "{reply}");
    let pos = r.send(json!({"cmd": "position"}));
    assert_eq!(pos["position"], "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1");
    let fen = "bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w GEge - 0 1";
    assert_eq!(r.send(json!({"cmd": "new", "variant": "chess960", "position": fen}))["ok"], true);
    assert_eq!(r.send(json!({"cmd": "position"}))["position"], fen);
}

#[test]
fn errors_are_clear_and_change_nothing() {
    let mut r = Referee::start();
    assert!(error_of(&r.send(json!({"cmd": "status"}))).contains("no game"));
    assert!(error_of(&r.send_raw("this is not json")).contains("not a JSON object"));
    assert!(error_of(&r.send_raw("[1,2]")).contains("must be a JSON object"));
    assert!(error_of(&r.send(json!({"verb": "status"}))).contains("missing \"cmd\""));
    assert!(error_of(&r.send(json!({"cmd": "dance"}))).contains("unknown cmd"));
    assert!(error_of(&r.send(json!({"cmd": "new", "variant": "checkers"}))).contains("unknown variant"));
    assert!(error_of(&r.send(json!({"cmd": "new", "variant": "chess960", "options": {"id": 960}}))).contains("to 959"));
    assert!(error_of(&r.send(json!({"cmd": "new", "variant": "chess", "options": {"colour": 1}})))
        .contains("unknown option"));
    assert!(error_of(&r.send(json!({"cmd": "new", "variant": "chess", "position": "8/8/8 w"}))).contains("8 ranks"));

    assert_eq!(r.send(json!({"cmd": "new", "variant": "chess"}))["ok"], true);
    r.send(json!({"cmd": "act", "seat": 0, "action": "e2e4"}));
    let before = r.send(json!({"cmd": "position"}));
    assert!(error_of(&r.send(json!({"cmd": "act", "seat": 0, "action": "d2d4"}))).contains("not seat 0's turn"));
    assert!(error_of(&r.send(json!({"cmd": "act", "seat": 1, "action": "e7e4"}))).contains("illegal action"));
    assert!(error_of(&r.send(json!({"cmd": "act", "seat": 1, "action": "xyzzy"}))).contains("cannot read action"));
    assert!(error_of(&r.send(json!({"cmd": "act", "seat": 5, "action": "e7e5"}))).contains("no seat 5"));
    assert!(error_of(&r.send(json!({"cmd": "act", "seat": "one", "action": "e7e5"}))).contains("seat number"));
    assert!(error_of(&r.send(json!({"cmd": "act", "seat": 1}))).contains("missing \"action\""));
    assert!(error_of(&r.send(json!({"cmd": "legal", "seat": 9}))).contains("no seat 9"));
    assert!(error_of(&r.send(json!({"cmd": "view", "viewer": "everyone"}))).contains("bad viewer"));
    assert!(error_of(&r.send(json!({"cmd": "view", "viewer": {"team": 9}}))).contains("no team 9"));
    assert!(error_of(&r.send(json!({"cmd": "new", "variant": "chess", "sed": 7}))).contains("unknown field \"sed\""));
    assert!(error_of(&r.send(json!({"cmd": "status", "extra": 1}))).contains("takes no fields"));
    assert!(error_of(&r.send_bytes(b"{\"cmd\":\"status\"}\xff\xfe")).contains("not valid UTF-8"));
    let huge = "x".repeat(1_000_000);
    let reply = r.send(json!({"cmd": "act", "seat": 1, "action": huge}));
    assert!(error_of(&reply).len() < 2000, "a huge action is quoted back shortened");
    assert_eq!(r.send(json!({"cmd": "position"})), before);
    assert_eq!(r.send(json!({"cmd": "log"}))["actions"].as_array().unwrap().len(), 1);
}

#[test]
fn replay_rebuilds_a_game_from_its_record() {
    let mut r = Referee::start();
    r.send(json!({"cmd": "new", "variant": "chess960", "seed": 42}));
    let action = r.send(json!({"cmd": "legal", "seat": 0}))["actions"][3].clone();
    r.send(json!({"cmd": "act", "seat": 0, "action": action}));
    let record = r.send(json!({"cmd": "record"}))["record"].clone();
    let position = r.send(json!({"cmd": "position"}));
    let mut other = Referee::start();
    assert_eq!(other.send(json!({"cmd": "replay", "record": record}))["ok"], true);
    assert_eq!(other.send(json!({"cmd": "position"})), position);
    assert!(error_of(&other.send(json!({"cmd": "replay", "record": {"variant": "chess"}}))).contains("bad record"));
}

/// Every registered game plays through the protocol: random legal actions
/// until the game ends, with each seat's view served on the way.
#[test]
fn every_variant_plays_to_the_end_through_the_protocol() {
    let mut r = Referee::start();
    let variants = r.send(json!({"cmd": "variants"}))["variants"].as_array().unwrap().clone();
    for variant in variants {
        let name = variant["name"].as_str().unwrap();
        let seats = variant["seats"].as_array().unwrap().len();
        let reply = r.send(json!({"cmd": "new", "variant": name, "seed": 3}));
        assert_eq!(reply["ok"], true, "{name}: {reply}");
        let mut pick = 0usize;
        for _ in 0..3000 {
            let status = r.send(json!({"cmd": "status"}));
            if status["over"] == true {
                break;
            }
            let seat = status["to_act"][0].as_u64().unwrap();
            let view = r.send(json!({"cmd": "view", "viewer": seat}));
            assert_eq!(view["ok"], true, "{name}: {view}");
            let actions = r.send(json!({"cmd": "legal", "seat": seat}))["actions"].as_array().unwrap().clone();
            pick = pick.wrapping_mul(31).wrapping_add(7);
            let action = &actions[pick % actions.len()];
            let reply = r.send(json!({"cmd": "act", "seat": seat, "action": action}));
            assert_eq!(reply["ok"], true, "{name}: {reply}");
        }
        assert!(r.send(json!({"cmd": "view", "viewer": "spectator"}))["ok"] == true);
        assert!(seats >= 1);
    }
}

/// The table actions (docs/protocol.md) are actions like any move: any
/// seat of either side sends them, the log records them, `replay` ends the
/// game the same way, and ones that do not fit are refused, changing nothing.
#[test]
fn table_actions_through_the_protocol() {
    let mut r = Referee::start();
    r.send(json!({"cmd": "new", "variant": "chess", "seed": 1}));
    let error = error_of(&r.send(json!({"cmd": "act", "seat": 1, "action": "accept draw"}))).to_string();
    assert_eq!(error, "illegal action \"accept draw\": no draw offer is open");
    let reply = r.send(json!({"cmd": "act", "seat": 1, "action": "offer draw"}));
    assert_eq!(reply["action"], "offer draw", "{reply}");
    assert_eq!(reply["to_act"], json!([0]), "an offer out of turn changes no turn");
    let view = r.send(json!({"cmd": "view", "viewer": 0}));
    assert_eq!(view["view"]["draw_offer"], 1);
    assert_eq!(view["view"]["session_actions"], json!(["resign", "accept draw", "decline draw"]), "Black has acted");
    assert_eq!(r.send(json!({"cmd": "act", "seat": 0, "action": "decline draw"}))["ok"], true);
    assert_eq!(r.send(json!({"cmd": "act", "seat": 0, "action": "e4"}))["ok"], true);
    let reply = r.send(json!({"cmd": "act", "seat": 0, "action": "resign"}));
    assert_eq!(reply["over"], true);
    assert_eq!(reply["outcome"], json!({"winners": [1], "reason": "resignation"}));
    assert_eq!(error_of(&r.send(json!({"cmd": "act", "seat": 1, "action": "resign"}))), "the game is over");
    let pgn = r.send(json!({"cmd": "pgn"}))["pgn"].as_str().unwrap().to_string();
    assert!(pgn.contains("[Result \"0-1\"]") && pgn.ends_with("1. e4 {White resigns.} 0-1\n"), "{pgn}");
    let record = r.send(json!({"cmd": "record"}))["record"].clone();
    let actions: Vec<&str> =
        record["actions"].as_array().unwrap().iter().map(|a| a["action"].as_str().unwrap()).collect();
    assert_eq!(actions, ["offer draw", "decline draw", "e2e4", "resign"]);
    let again = r.send(json!({"cmd": "replay", "record": record}));
    assert_eq!(again["outcome"], json!({"winners": [1], "reason": "resignation"}), "{again}");

    // Abort: only while the other side has not acted.
    r.send(json!({"cmd": "new", "variant": "chess"}));
    r.send(json!({"cmd": "act", "seat": 0, "action": "e4"}));
    let error = error_of(&r.send(json!({"cmd": "act", "seat": 1, "action": "abort"}))).to_string();
    assert!(error.contains("only while the other side has not yet acted"), "{error}");
    let reply = r.send(json!({"cmd": "act", "seat": 0, "action": "abort"}));
    assert_eq!(reply["outcome"], json!({"winners": [], "reason": "aborted"}));
}

/// The PGN names its date (by default the day the game was begun here) and
/// its players (`?` unless given).
#[test]
fn pgn_names_the_date_and_the_players() {
    let mut r = Referee::start();
    r.send(json!({"cmd": "new", "variant": "chess"}));
    let pgn = r.send(json!({"cmd": "pgn"}))["pgn"].as_str().unwrap().to_string();
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs() as i64;
    let today = chesskit_core::chess::pgn::date_tag(now);
    assert!(pgn.contains(&format!("[Date \"{today}\"]")), "{pgn}");
    assert!(pgn.contains("[White \"?\"]\n[Black \"?\"]"), "{pgn}");
    let reply = r.send(json!({"cmd": "pgn", "white": "Ada", "black": "Bot (level3)", "date": "2026.11.??"}));
    let pgn = reply["pgn"].as_str().unwrap();
    assert!(pgn.contains("[Date \"2026.11.??\"]\n[Round \"-\"]\n[White \"Ada\"]\n[Black \"Bot (level3)\"]"), "{pgn}");
    let error = error_of(&r.send(json!({"cmd": "pgn", "date": "23/11/2026"}))).to_string();
    assert!(error.contains("expected YYYY.MM.DD"), "{error}");
    assert!(error_of(&r.send(json!({"cmd": "pgn", "white": 3}))).contains("\"white\" must be a string"));
    assert!(error_of(&r.send(json!({"cmd": "pgn", "whte": "A"}))).contains("unknown field \"whte\""));
}

/// The referee protocol is for the program that runs the game, so it shows
/// secrets while the game runs (docs/protocol.md): the PGN of a Masquerade
/// game in progress carries both secret assignments, and `legal` answers
/// for a seat that is not the asker's. The server keeps them back instead.
#[test]
fn secrets_are_shown_to_the_program_running_the_game() {
    let mut r = Referee::start();
    r.send(json!({"cmd": "new", "variant": "masquerade", "seed": 3}));
    for seat in [0, 1] {
        let legal = r.send(json!({"cmd": "legal", "seat": seat}));
        let action = legal["actions"][0].as_str().unwrap().to_string();
        assert_eq!(r.send(json!({"cmd": "act", "seat": seat, "action": action}))["ok"], true);
    }
    assert_eq!(r.send(json!({"cmd": "status"}))["over"], false);
    let pgn = r.send(json!({"cmd": "pgn"}))["pgn"].as_str().unwrap().to_string();
    assert!(pgn.contains("[WhiteCaptures ") && pgn.contains("[BlackCaptures "), "{pgn}");
}

#[test]
fn think_answers_the_computers_choice_without_playing_it() {
    let mut r = Referee::start();
    r.send(json!({"cmd": "new", "variant": "chess", "position": "6k1/5ppp/8/8/8/8/8/4R1K1 w - - 0 1"}));
    let reply = r.send(json!({"cmd": "think", "seat": 0, "level": "level8", "ms": 300}));
    assert_eq!(reply, json!({"ok": true, "seat": 0, "level": "level8", "action": "e1e8"}), "the mate in one");
    assert_eq!(r.send(json!({"cmd": "log"}))["actions"], json!([]), "nothing was played");
    let default = r.send(json!({"cmd": "think", "seat": 0}));
    assert_eq!(default["level"], "level4");
    for (request, error) in [
        (json!({"cmd": "think", "seat": 1}), "seat 1 need not act now"),
        (json!({"cmd": "think", "seat": 0, "ms": 0}), "\"ms\" must be a whole number of milliseconds"),
        (json!({"cmd": "think", "seat": 0, "ms": 600_000}), "from 1 to 60000"),
        (json!({"cmd": "think", "seat": 0, "level": "level99"}), "unknown computer level \"level99\""),
        (json!({"cmd": "think", "seat": 0, "depth": 3}), "unknown field \"depth\""),
        (json!({"cmd": "think", "seat": 5}), "seat 5"),
    ] {
        let reply = r.send(request.clone());
        let message = error_of(&reply);
        assert!(message.contains(error), "{request}: {message}");
    }
    r.send(json!({"cmd": "act", "seat": 0, "action": "e1e8"}));
    assert!(error_of(&r.send(json!({"cmd": "think", "seat": 1}))).contains("the game is over"));
}
