//! The command line: output formats, and clear one-line errors with a
//! non-zero exit for bad input.

use std::process::{Command, Output};

fn chesskit(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_chesskit")).args(args).output().expect("run chesskit")
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn perft_prints_the_count_alone_on_the_last_line() {
    let out = chesskit(&[
        "perft",
        "--fen",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "--depth",
        "3",
    ]);
    assert!(out.status.success());
    assert_eq!(stdout(&out).lines().last(), Some("97862"));
    let out = chesskit(&[
        "perft",
        "--fen",
        "bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w GEge - 0 1",
        "--depth",
        "2",
        "--divide",
    ]);
    assert_eq!(stdout(&out).lines().last(), Some("400"));
    assert_eq!(stdout(&out).lines().count(), 21);
}

#[test]
fn bad_input_exits_non_zero_with_one_clear_line() {
    let cases: [(&[&str], &str); 10] = [
        (&["perft", "--fen", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", "--depth", "2"], "expected 8 ranks"),
        (&["chess960", "--id", "960"], "0 to 959"),
        (&["chess960", "--cards", "1 3 N R Q R N R"], "one odd and one even"),
        (&["play", "checkers"], "unknown variant"),
        (&["play", "chess", "--seats", "human,robot"], "bad seat"),
        (&["cards", "--deal", "--count", "33"], "the pieces deck has 32"),
        (&["selfplay", "chess", "--players", ","], "no level for player 1"),
        (&["selfplay", "chess", "--games", "0"], "at least 1"),
        (&["selfplay", "chess", "--players", "level6-no-bogus,random"], "unknown search technique"),
        (&["selfplay", "golf", "--option", "players=9"], "players"),
    ];
    for (args, expected) in cases {
        let out = chesskit(args);
        assert!(!out.status.success(), "{args:?} should fail");
        let err = stderr(&out);
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("chesskit: ") && err.contains(expected), "{args:?}: {err}");
    }
}

/// Many cards can make the proof of a rating very long: `golf new` gives up
/// at its node limit and says the deal is unrated, instead of running on.
#[test]
fn golf_new_gives_up_rating_at_its_node_limit() {
    let out = chesskit(&["golf", "new", "--cards", "16", "--seed", "1", "--max-nodes", "1000"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("# unrated: no path shorter than"), "{}", stdout(&out));
    let zero = chesskit(&["golf", "solve", "--max-nodes", "0"]);
    assert!(!zero.status.success());
    assert!(stderr(&zero).contains("--max-nodes"), "{}", stderr(&zero));
}

/// A printing command whose reader has gone away ends quietly, as Unix
/// tools do, instead of panicking in `println!`.
#[test]
fn a_closed_output_pipe_is_no_panic() {
    let (reader, writer) = std::io::pipe().expect("a pipe");
    drop(reader);
    let out = Command::new(env!("CARGO_BIN_EXE_chesskit"))
        .args(["cards"])
        .stdout(writer)
        .stderr(std::process::Stdio::piped())
        .output()
        .expect("run chesskit");
    assert!(!stderr(&out).contains("panicked"), "{}", stderr(&out));
    assert_ne!(out.status.code(), Some(101), "{:?}", out.status);
}

#[test]
fn chess960_seed_alone_means_random_and_conflicts_with_a_number() {
    let a = chesskit(&["chess960", "--seed", "5"]);
    assert!(a.status.success(), "{}", stderr(&a));
    assert_eq!(stdout(&a), stdout(&chesskit(&["chess960", "--random", "--seed", "5"])));
    let both = chesskit(&["chess960", "--seed", "5", "--id", "4"]);
    assert!(!both.status.success());
    assert!(stderr(&both).contains("cannot be used with"), "{}", stderr(&both));
}

#[test]
fn chess960_by_number_and_cards() {
    let out = chesskit(&["chess960", "--id", "518"]);
    assert!(stdout(&out).contains("RNBQKBNR"));
    let out = chesskit(&["chess960", "--cards", "1 6 N R Q R N R"]);
    assert!(stdout(&out).contains("BNRQKBNR"), "{}", stdout(&out));
    let a = stdout(&chesskit(&["chess960", "--random", "--seed", "5"]));
    let b = stdout(&chesskit(&["chess960", "--random", "--seed", "5"]));
    assert_eq!(a, b);
}

#[test]
fn play_in_the_terminal_from_piped_input() {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_chesskit"))
        .args(["play", "chess", "--seats", "human,human"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(b"f3\ne5\ng4\nQh4\n").unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    assert!(stdout(&out).contains("Game over: Black won (checkmate)"));
}

/// A player at the keyboard resigns against the computer, after its
/// refusal of a draw, in a game with hidden information (Zombie Chess).
#[test]
fn play_in_the_terminal_resign_and_draw_words() {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_chesskit"))
        .args(["play", "zombie", "--seats", "human,computer", "--seed", "4"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(b"draw\nresign\n").unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("Black declines the draw; White plays on."), "{text}");
    assert!(text.contains("Game over: Black won (resignation)"), "{text}");
}

/// Every registered game plays to its end in the terminal with computer players in every seat.
#[test]
fn every_variant_plays_in_the_terminal() {
    let list = stdout(&chesskit(&["variants"]));
    for line in list.lines() {
        let name = line.split_whitespace().next().unwrap();
        let seats: usize = line.split(": ").nth(1).and_then(|s| s.split(' ').next()).unwrap().parse().unwrap();
        let seat_list = vec!["random"; seats].join(",");
        let out = chesskit(&["play", name, "--seats", &seat_list, "--seed", "2"]);
        assert!(out.status.success(), "{name}: {}", stderr(&out));
        assert!(stdout(&out).contains("Game over"), "{name}: {}", stdout(&out));
    }
}

/// The designer's balance lab: per-player results with the seats rotating,
/// and the JSON summary on the last line, as issue 12 specifies its fields.
#[test]
fn selfplay_reports_per_player_and_ends_with_one_line_of_json() {
    let out = chesskit(&["selfplay", "chess", "--games", "4", "--players", "level2,random", "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("the seats rotate between games"), "{text}");
    let summary: serde_json::Value = serde_json::from_str(text.lines().last().unwrap()).expect("the last line is JSON");
    for field in ["variant", "games", "players", "first_player_score", "mean_actions", "options"] {
        assert!(summary.get(field).is_some(), "{field} missing: {summary}");
    }
    assert_eq!(summary["games"], 4);
    let players = summary["players"].as_array().unwrap();
    assert_eq!(players[0]["name"], "level2");
    for player in players {
        for field in ["wins", "draws", "losses", "score"] {
            assert!(player.get(field).is_some(), "{field} missing: {player}");
        }
        let games = ["wins", "draws", "losses"].iter().map(|f| player[f].as_u64().unwrap()).sum::<u64>();
        assert_eq!(games, 4, "every game counted once for each player: {player}");
    }
}

#[test]
fn selfplay_help_tells_how_to_play_a_level_without_a_search_technique() {
    let out = chesskit(&["selfplay", "--help"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let help = stdout(&out);
    for words in ["level6-no-TECHNIQUE", "level6-with-TECHNIQUE", "killers, aspiration, lmr", "--random-opening"] {
        assert!(help.contains(words), "{words} missing: {help}");
    }
}

#[test]
fn selfplay_compares_the_values_of_a_repeated_option_side_by_side() {
    let args = ["selfplay", "chess960", "--games", "2", "--option", "id=518", "--option", "id=0", "--json"];
    let out = chesskit(&args);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("Side by side:") && text.contains("id=518") && text.contains("id=0"), "{text}");
    let summary: serde_json::Value = serde_json::from_str(text.lines().last().unwrap()).unwrap();
    assert_eq!(summary["options"], serde_json::json!({"id": [518, 0]}));
    assert_eq!(summary["games"], 4, "both runs pooled");
    assert_eq!(summary["runs"].as_array().unwrap().len(), 2);
}
