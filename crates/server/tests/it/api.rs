//! Every endpoint of docs/api.md: its answers, and its refusals (wrong
//! token, malformed body, out of turn, illegal, game over), after each of
//! which nothing has changed. And the views: exactly the token's seat's.

use crate::common::{id, stored_actions, token, TestServer};
use axum::http::StatusCode;
use chesskit_core::{DynGame, GameRng, Options, Viewer};
use serde_json::{json, Value};

// ---------------------------------------------------------------- variants

#[tokio::test]
async fn variants_lists_the_registry() {
    let server = TestServer::new().await;
    let (status, variants) = server.json("GET", "/api/variants", None).await;
    assert_eq!(status, StatusCode::OK);
    // The registry's descriptions, each with whether its finished games have an analysis.
    let mut registry = serde_json::to_value(chesskit_games::variants()).unwrap();
    for variant in registry.as_array_mut().unwrap() {
        let analysis = chesskit_ai::has_analysis(variant["name"].as_str().unwrap());
        variant["analysis"] = serde_json::json!(analysis);
    }
    assert_eq!(variants, registry);
    assert!(variants.as_array().unwrap().iter().any(|v| v["name"] == "chess"));
}

#[tokio::test]
async fn every_variant_serves_its_rules_document_as_markdown() {
    let server = TestServer::new().await;
    let docs = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/games");
    for variant in chesskit_games::variants() {
        let (status, content_type, text) = server.get_typed(&format!("/api/variants/{}/rules", variant.name)).await;
        assert_eq!(status, StatusCode::OK, "{}: {text}", variant.name);
        assert_eq!(content_type, "text/markdown; charset=utf-8");
        let file = docs.join(format!("{}.md", variant.name));
        let page = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        // The title line, then the player-facing sections only (docs/web.md), if the page has them.
        let title = page.lines().next().unwrap();
        assert!(text.starts_with(&format!("{title}\n\n")), "{}: {text}", variant.name);
        if page.contains("\n## The rules in our words\n") {
            assert!(text.contains("\n## The rules in our words\n"), "{}: {text}", variant.name);
            assert!(!text.contains("\n## Actions\n"), "{}: the developers' part is left out: {text}", variant.name);
        } else {
            assert_eq!(text, page, "{}: a page not yet in the players' shape is served whole", variant.name);
        }
    }
}

#[tokio::test]
async fn rules_of_an_unknown_variant_are_a_json_404() {
    let server = TestServer::new().await;
    let (status, reply) = server.json("GET", "/api/variants/shogi/rules", None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(reply["error"].as_str().unwrap().contains("no variant \"shogi\""), "{reply}");
    let (status, reply) = server.json("GET", "/api/variants/..%2F..%2FCargo.toml/rules", None).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{reply}");
    let (status, reply) = server.json("POST", "/api/variants/chess/rules", None).await;
    assert_eq!(status, StatusCode::METHOD_NOT_ALLOWED, "{reply}");
}

// ---------------------------------------------------------------- create

#[tokio::test]
async fn create_gives_each_human_and_open_seat_its_own_token() {
    let server = TestServer::new().await;
    let game = server.create(json!({"variant": "chess", "seats": ["human", "open"]})).await;
    let id = id(&game);
    assert_eq!(game["variant"], "chess");
    assert_eq!(id.len(), 12);
    let seats = game["seats"].as_array().unwrap();
    assert_eq!(seats.len(), 2);
    for (n, seat) in seats.iter().enumerate() {
        assert_eq!(seat["seat"], n);
        let token = seat["token"].as_str().unwrap();
        assert_eq!(token.len(), 22, "128 bits in URL-safe base64");
        assert!(token.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'-' || c == b'_'));
        assert_eq!(seat["invite"], format!("/play/{id}?token={token}"));
    }
    assert_eq!(seats[0]["name"], "White");
    assert_eq!(seats[0]["kind"], "human");
    assert_eq!(seats[1]["name"], "Black");
    assert_eq!(seats[1]["kind"], "open");
    assert_ne!(seats[0]["token"], seats[1]["token"]);
    // Stored before the reply.
    assert_eq!(stored_actions(&server.db(), &id), vec![]);
}

/// The number of seats comes from the created game, so an option that sets
/// it (Chess Golf's `players`) is honoured: 3 seats for `players: 3`, and
/// the default seat count is refused.
#[tokio::test]
async fn create_takes_its_seat_count_from_the_game_options() {
    let server = TestServer::new().await;
    let game = server
        .create(json!({"variant": "golf", "options": {"players": 3}, "seats": ["human", "open", "computer"]}))
        .await;
    let seats = game["seats"].as_array().unwrap();
    let names: Vec<&str> = seats.iter().map(|s| s["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["Player 1", "Player 2", "Player 3"]);
    assert_eq!(seats[2]["kind"], "computer");
    let view = server.view(&id(&game), Some(&token(&game, 0))).await;
    assert_eq!(view["view"]["seats"].as_array().unwrap().len(), 3);

    let (status, body) = server
        .json(
            "POST",
            "/api/games",
            Some(json!({"variant": "golf", "options": {"players": 3}, "seats": ["human", "open"]})),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert!(body["error"].as_str().unwrap_or_default().contains("has 3 seats"), "{body}");
}

#[tokio::test]
async fn create_defaults_to_a_human_and_open_seats_and_computers_get_no_token() {
    let server = TestServer::new().await;
    let game = server.create(json!({"variant": "chess960"})).await;
    assert_eq!(game["seats"][0]["kind"], "human");
    assert_eq!(game["seats"][1]["kind"], "open");
    let game = server.create(json!({"variant": "chess", "seats": ["human", "computer:level1"]})).await;
    assert_eq!(game["seats"][1]["kind"], "computer:level1");
    assert!(game["seats"][1].get("token").is_none());
    assert!(game["seats"][1].get("invite").is_none());
}

#[tokio::test]
async fn create_honours_seed_and_position() {
    let server = TestServer::new().await;
    // Chess960 position 518 is the orthodox start; another seed gives another setup.
    let a = server.create(json!({"variant": "chess960", "seed": 7})).await;
    let b = server.create(json!({"variant": "chess960", "seed": 7})).await;
    let view_a = server.view(&id(&a), None).await;
    let view_b = server.view(&id(&b), None).await;
    assert_eq!(view_a["view"]["board"], view_b["view"]["board"], "same seed, same setup");
    let fen = "4k3/8/8/8/8/8/8/4K2R w K - 0 1";
    let game = server.create(json!({"variant": "chess", "position": fen})).await;
    let view = server.view(&id(&game), None).await;
    assert_eq!(view["view"]["board"]["squares"].as_array().unwrap().len(), 3);
}

#[tokio::test]
async fn create_refuses_bad_requests_and_stores_nothing() {
    let server = TestServer::new().await;
    let cases: Vec<(&str, StatusCode, &str)> = vec![
        ("{", StatusCode::BAD_REQUEST, "JSON"),
        ("[]", StatusCode::BAD_REQUEST, "JSON"),
        (r#"{"seats": ["human", "open"]}"#, StatusCode::BAD_REQUEST, "missing field `variant`"),
        (r#"{"variant": "chess", "colour": "white"}"#, StatusCode::BAD_REQUEST, "unknown field `colour`"),
        (r#"{"variant": "chess", "seed": -1}"#, StatusCode::BAD_REQUEST, "expected u64"),
        (r#"{"variant": "chess", "seats": ["human"]}"#, StatusCode::BAD_REQUEST, "2 seats"),
        (r#"{"variant": "chess", "seats": ["human", "robot"]}"#, StatusCode::BAD_REQUEST, "unknown seat kind"),
        (r#"{"variant": "chess", "seats": ["human", "computer:grandmaster"]}"#, StatusCode::BAD_REQUEST, "level"),
        (r#"{"variant": "shogi"}"#, StatusCode::NOT_FOUND, "no variant \"shogi\""),
        (r#"{"variant": "chess", "options": {"zombies": true}}"#, StatusCode::UNPROCESSABLE_ENTITY, "unknown option"),
        (r#"{"variant": "chess", "options": [1]}"#, StatusCode::UNPROCESSABLE_ENTITY, "options must be"),
        (r#"{"variant": "chess", "position": "not a fen"}"#, StatusCode::UNPROCESSABLE_ENTITY, ""),
        (r#"{"variant": "chess", "seats": ["computer:", "human"]}"#, StatusCode::BAD_REQUEST, "names no level"),
    ];
    for (body, status, words) in cases {
        let (got, text) = server.send("POST", "/api/games", Some(body)).await;
        assert_eq!(got, status, "{body}: {text}");
        let reply: Value = serde_json::from_str(&text).unwrap();
        let error = reply["error"].as_str().unwrap_or_else(|| panic!("{body}: no error message in {text}"));
        assert!(error.contains(words), "{body}: {error:?} should mention {words:?}");
        assert!(!error.is_empty());
    }
    assert_eq!(server.state.game_count(), 0);
    assert!(chesskit_server::store::read_games(&server.db()).unwrap().is_empty());
}

/// A long position is quoted back shortened; paths that are not UTF-8 and
/// misspelt query fields get JSON errors too.
#[tokio::test]
async fn odd_requests_get_short_json_errors() {
    let server = TestServer::new().await;
    let huge = "x".repeat(1_000_000);
    let (status, reply) = server.json("POST", "/api/games", Some(json!({"variant": "chess", "position": huge}))).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(reply["error"].as_str().unwrap().len() < 2000, "the error quotes a megabyte back");
    for uri in ["/api/games/%ff%fe", "/api/variants/%ff/rules"] {
        let (status, reply) = server.json("GET", uri, None).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{uri}");
        assert!(reply["error"].as_str().unwrap().contains("UTF-8"), "{uri}: {reply}");
    }
    let game = server.create(json!({"variant": "chess"})).await;
    let (status, reply) = server.json("GET", &format!("/api/games/{}/view?tok=x", id(&game)), None).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(reply["error"].as_str().unwrap().contains("unknown field `tok`"), "{reply}");
    let golf = server.create(json!({"variant": "golf"})).await;
    let (status, reply) = server.json("GET", &format!("/api/games/{}/export?format=pgn", id(&golf)), None).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "golf has no PGN, over or not: {reply}");
}

// ---------------------------------------------------------------- summary

#[tokio::test]
async fn summary_describes_the_game_without_tokens() {
    let server = TestServer::new().await;
    let game = server.create(json!({"variant": "chess", "seats": ["human", "open"]})).await;
    let id = id(&game);
    let (status, text) = server.send("GET", &format!("/api/games/{id}"), None).await;
    assert_eq!(status, StatusCode::OK);
    assert!(!text.contains(&token(&game, 0)) && !text.contains(&token(&game, 1)), "no tokens in {text}");
    let summary: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(summary["id"], id.as_str());
    assert_eq!(summary["variant"], "chess");
    assert_eq!(summary["title"], "Chess");
    assert_eq!(
        summary["seats"],
        json!([
            {"seat": 0, "name": "White", "kind": "human", "joined": false},
            {"seat": 1, "name": "Black", "kind": "open", "joined": false}
        ])
    );
    assert_eq!(summary["over"], false);
    assert_eq!(summary["outcome"], Value::Null);
    assert_eq!(summary["to_act"], json!([0]));
    assert_eq!(summary["version"], 0);
    assert!(summary["created"].as_i64().unwrap() > 1_600_000_000);

    let (status, reply) = server.json("GET", "/api/games/nosuchgame", None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(reply["error"].as_str().unwrap().contains("nosuchgame"));
}

/// The seats' "joined" flags of a game, from its summary.
async fn joined(server: &TestServer, id: &str) -> Vec<Value> {
    let (status, summary) = server.json("GET", &format!("/api/games/{id}"), None).await;
    assert_eq!(status, StatusCode::OK);
    summary["seats"].as_array().unwrap().iter().map(|s| s.get("joined").cloned().unwrap_or(Value::Null)).collect()
}

#[tokio::test]
async fn a_seat_has_joined_once_its_token_fetched_a_view_or_an_action_was_accepted() {
    let server = TestServer::new().await;
    let game = server.create(json!({"variant": "chess", "seats": ["human", "open"]})).await;
    let (id, white, black) = (id(&game), token(&game, 0), token(&game, 1));
    assert_eq!(joined(&server, &id).await, [json!(false), json!(false)], "nobody yet");
    // A spectator, a wrong token and a refused action with no token join nobody.
    server.view(&id, None).await;
    let (status, _) = server.json("GET", &format!("/api/games/{id}/view?token=nobody"), None).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, _) = server.json("POST", &format!("/api/games/{id}/actions"), Some(json!({"action": "e4"}))).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert_eq!(joined(&server, &id).await, [json!(false), json!(false)]);
    // The creator's page fetches White's view.
    let view = server.view(&id, Some(&white)).await;
    assert_eq!(joined(&server, &id).await, [json!(true), json!(false)]);
    assert_eq!(
        view["seats"],
        json!([
            {"seat": 0, "name": "White", "kind": "human", "joined": true},
            {"seat": 1, "name": "Black", "kind": "open", "joined": false}
        ]),
        "the view response carries the seats too"
    );
    // A refused action changes nothing, not even the flag; an accepted one joins.
    let (status, _) = server.act(&id, &black, "e5").await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(joined(&server, &id).await, [json!(true), json!(false)]);
    assert_eq!(server.act(&id, &white, "e4").await.0, StatusCode::OK);
    assert_eq!(server.act(&id, &black, "e5").await.0, StatusCode::OK);
    assert_eq!(joined(&server, &id).await, [json!(true), json!(true)]);

    let game = server.create(json!({"variant": "chess", "seats": ["open", "computer:level1"]})).await;
    let other = game["id"].as_str().unwrap();
    assert_eq!(joined(&server, other).await, [json!(false), Value::Null], "a computer seat has no flag");
    server.view(other, Some(&token(&game, 0))).await;
    assert_eq!(joined(&server, other).await, [json!(true), Value::Null]);
}

// ---------------------------------------------------------------- view

#[tokio::test]
async fn view_is_the_tokens_seat_or_a_spectator() {
    let server = TestServer::new().await;
    let game = server.create(json!({"variant": "chess"})).await;
    let id = id(&game);
    let white = server.view(&id, Some(&token(&game, 0))).await;
    assert_eq!(white["seat"], 0);
    assert_eq!(white["version"], 0);
    assert_eq!(white["title"], "Chess");
    assert_eq!(white["view"]["viewer"], json!({"seat": 0}));
    assert_eq!(white["view"]["actions"].as_array().unwrap().len(), 20, "White's 20 first moves");
    let black = server.view(&id, Some(&token(&game, 1))).await;
    assert_eq!(black["seat"], 1);
    assert_eq!(black["view"]["actions"], json!([]), "not Black's turn");
    let spectator = server.view(&id, None).await;
    assert_eq!(spectator["seat"], Value::Null);
    assert_eq!(spectator["view"]["viewer"], "spectator");
    assert_eq!(server.view(&id, Some("")).await["seat"], Value::Null);

    let (status, reply) = server.json("GET", &format!("/api/games/{id}/view?token=guess"), None).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "a wrong token is refused, not served a spectator's view");
    assert!(reply["error"].as_str().unwrap().contains("token"));
    let (status, _) = server.json("GET", &format!("/api/games/{id}/view?token={}x", token(&game, 0)), None).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, _) = server.json("GET", "/api/games/nope/view", None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

// ---------------------------------------------------------------- actions

#[tokio::test]
async fn an_action_is_applied_stored_and_answered_with_the_actors_view() {
    let server = TestServer::new().await;
    let game = server.create(json!({"variant": "chess"})).await;
    let (id, white, black) = (id(&game), token(&game, 0), token(&game, 1));
    let (status, reply) = server.act(&id, &white, "e4").await;
    assert_eq!(status, StatusCode::OK, "{reply}");
    assert_eq!(reply["action"], "e2e4", "SAN is accepted, the canonical text returned");
    assert_eq!(reply["version"], 1);
    assert_eq!(reply["view"]["viewer"], json!({"seat": 0}));
    assert_eq!(reply["view"]["to_act"], json!([1]));
    assert_eq!(stored_actions(&server.db(), &id), vec![(0, "e2e4".to_string())]);
    let (status, reply) = server.act(&id, &black, "c7c5").await;
    assert_eq!(status, StatusCode::OK, "{reply}");
    assert_eq!(reply["version"], 2);
    assert_eq!(stored_actions(&server.db(), &id), vec![(0, "e2e4".into()), (1, "c7c5".into())]);
    assert_eq!(server.version(&id).await, 2);
}

#[tokio::test]
async fn refused_actions_change_nothing() {
    let server = TestServer::new().await;
    let game = server.create(json!({"variant": "chess"})).await;
    let (id, white, black) = (id(&game), token(&game, 0), token(&game, 1));
    server.act(&id, &white, "e2e4").await;
    let before = server.view(&id, Some(&white)).await;
    let uri = format!("/api/games/{id}/actions");
    let cases: Vec<(String, StatusCode, &str)> = vec![
        (json!({"token": white, "action": "d2d4"}).to_string(), StatusCode::CONFLICT, "turn"),
        (json!({"token": "guess", "action": "e7e5"}).to_string(), StatusCode::FORBIDDEN, "token"),
        (json!({"token": "", "action": "e7e5"}).to_string(), StatusCode::FORBIDDEN, "token"),
        (json!({"action": "e7e5"}).to_string(), StatusCode::FORBIDDEN, "token"),
        (json!({"token": black, "action": "e7e4"}).to_string(), StatusCode::UNPROCESSABLE_ENTITY, "e7e4"),
        (json!({"token": black, "action": "hello"}).to_string(), StatusCode::UNPROCESSABLE_ENTITY, "hello"),
        (json!({"token": black, "action": "e2e4"}).to_string(), StatusCode::UNPROCESSABLE_ENTITY, "e2e4"),
        (json!({"token": black}).to_string(), StatusCode::BAD_REQUEST, "missing field `action`"),
        (json!({"token": black, "action": 5}).to_string(), StatusCode::BAD_REQUEST, "invalid type"),
        (json!({"token": black, "action": "e7e5", "seat": 0}).to_string(), StatusCode::BAD_REQUEST, "unknown field"),
        (r#"{"token": "#.to_string(), StatusCode::BAD_REQUEST, "JSON"),
        ("".to_string(), StatusCode::BAD_REQUEST, "JSON"),
    ];
    for (body, status, words) in cases {
        let (got, text) = server.send("POST", &uri, Some(&body)).await;
        assert_eq!(got, status, "{body}: {text}");
        let error = serde_json::from_str::<Value>(&text).unwrap()["error"].as_str().unwrap().to_string();
        assert!(error.contains(words), "{body}: {error:?} should mention {words:?}");
    }
    let (status, _) = server.act("nosuchgame", &black, "e7e5").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    // Another game's token is no token here.
    let other = server.create(json!({"variant": "chess"})).await;
    let (status, _) = server.act(&id, &token(&other, 1), "e7e5").await;
    assert_eq!(status, StatusCode::FORBIDDEN);

    assert_eq!(server.view(&id, Some(&white)).await, before, "nothing changed");
    assert_eq!(stored_actions(&server.db(), &id), vec![(0, "e2e4".to_string())]);
}

#[tokio::test]
async fn no_action_after_the_end() {
    let server = TestServer::new().await;
    let game = server.create(json!({"variant": "chess"})).await;
    let (id, white, black) = (id(&game), token(&game, 0), token(&game, 1));
    // Fool's mate.
    for (token, action) in [(&white, "f3"), (&black, "e5"), (&white, "g4"), (&black, "Qh4")] {
        let (status, reply) = server.act(&id, token, action).await;
        assert_eq!(status, StatusCode::OK, "{action}: {reply}");
    }
    let (_, summary) = server.json("GET", &format!("/api/games/{id}"), None).await;
    assert_eq!(summary["over"], true);
    assert_eq!(summary["outcome"]["winners"], json!([1]));
    assert_eq!(summary["outcome"]["reason"], "checkmate");
    assert_eq!(summary["to_act"], json!([]));
    for token in [&white, &black] {
        let (status, reply) = server.act(&id, token, "a2a3").await;
        assert_eq!(status, StatusCode::CONFLICT);
        assert!(reply["error"].as_str().unwrap().contains("over"), "{reply}");
    }
    assert_eq!(stored_actions(&server.db(), &id).len(), 4);
    // A finished game stays readable.
    assert_eq!(server.view(&id, None).await["view"]["outcome"]["reason"], "checkmate");
}

// ---------------------------------------------------------------- computer seats

#[tokio::test]
async fn a_computer_seat_answers_each_move() {
    let server = TestServer::new().await;
    let game = server.create(json!({"variant": "chess", "seats": ["human", "computer"]})).await;
    let (id, white) = (id(&game), token(&game, 0));
    for n in 0..5u64 {
        let view = server.view(&id, Some(&white)).await;
        let action = view["view"]["actions"][0]["text"].as_str().unwrap().to_string();
        let (status, reply) = server.act(&id, &white, &action).await;
        assert_eq!(status, StatusCode::OK, "{reply}");
        assert_eq!(reply["version"], 2 * n + 1);
        server.wait_for_version(&id, 2 * n + 2).await;
    }
    let stored = stored_actions(&server.db(), &id);
    assert_eq!(stored.len(), 10);
    assert!(stored.iter().enumerate().all(|(i, (seat, _))| *seat == i % 2), "alternating seats: {stored:?}");
}

#[tokio::test]
async fn the_lobbys_three_computer_levels_are_accepted_and_play() {
    let server = TestServer::new().await;
    for level in ["random", "level2", "level3"] {
        let kind = format!("computer:{level}");
        let game = server.create(json!({"variant": "chess", "seats": ["human", kind]})).await;
        assert_eq!(game["seats"][1]["kind"], kind.as_str());
        let (id, white) = (id(&game), token(&game, 0));
        assert_eq!(server.act(&id, &white, "e4").await.0, StatusCode::OK);
        server.wait_for_version(&id, 2).await;
        let (_, summary) = server.json("GET", &format!("/api/games/{id}"), None).await;
        assert_eq!(summary["seats"][1]["kind"], kind.as_str());
        assert_eq!(summary["to_act"], json!([0]), "{kind} answered");
    }
}

/// The computer thinks on a blocking thread, never on the async threads:
/// this test's runtime has one thread, and it keeps answering requests
/// while the slowest level (flat Monte Carlo) thinks. Were the thinking
/// done on that thread, the computer's task (spawned before the reply to
/// the move) would hold it until the answer was applied, and the first
/// request after the move would already see version 2.
#[tokio::test]
async fn a_thinking_computer_does_not_stall_the_server() {
    let server = TestServer::new().await;
    let game = server.create(json!({"variant": "chess", "seats": ["human", "computer:level3"]})).await;
    let (id, white) = (id(&game), token(&game, 0));
    assert_eq!(server.act(&id, &white, "e4").await.0, StatusCode::OK);
    let started = std::time::Instant::now();
    let mut answered_while_thinking = 0;
    loop {
        let version = server.version(&id).await;
        if version == 2 {
            break;
        }
        answered_while_thinking += 1;
        assert!(started.elapsed() < std::time::Duration::from_secs(30), "the computer never moved");
        tokio::time::sleep(std::time::Duration::from_millis(1)).await;
    }
    eprintln!("{answered_while_thinking} requests answered in {:?} of thinking", started.elapsed());
    assert!(answered_while_thinking > 0, "no request was answered while the computer thought");
}

#[tokio::test]
async fn a_computer_that_moves_first_moves_at_creation() {
    let server = TestServer::new().await;
    let game = server.create(json!({"variant": "chess", "seats": ["computer", "human"]})).await;
    let id = id(&game);
    assert!(game["seats"][0].get("token").is_none());
    server.wait_for_version(&id, 1).await;
    let black = server.view(&id, Some(&token(&game, 1))).await;
    assert_eq!(black["view"]["to_act"], json!([1]));
    assert_eq!(server.version(&id).await, 1, "the computer waits for Black");
}

#[tokio::test]
async fn computers_play_a_whole_game() {
    let server = TestServer::new().await;
    let game = server.create(json!({"variant": "chess", "seats": ["computer:random", "computer:level2"]})).await;
    let id = id(&game);
    for _ in 0..2000 {
        let (_, summary) = server.json("GET", &format!("/api/games/{id}"), None).await;
        if summary["over"] == true {
            let stored = stored_actions(&server.db(), &id);
            assert_eq!(stored.len() as u64, summary["version"].as_u64().unwrap());
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    panic!("the computers did not finish within 20 s");
}

/// With only computers seated, each waits the server's pace before acting,
/// so a spectator can follow; a computer facing a person does not wait.
#[tokio::test]
async fn computers_among_themselves_play_at_the_servers_pace() {
    let server = TestServer::paced(std::time::Duration::from_secs(60)).await;
    let watched = server.create(json!({"variant": "chess", "seats": ["computer:random", "computer:random"]})).await;
    let versus = server.create(json!({"variant": "chess", "seats": ["computer:random", "human"]})).await;
    let server = &server;
    let version = |game: &Value| {
        let uri = format!("/api/games/{}", id(game));
        async move { server.json("GET", &uri, None).await.1["version"].as_u64().unwrap() }
    };
    let started = std::time::Instant::now();
    while version(&versus).await == 0 {
        assert!(started.elapsed() < std::time::Duration::from_secs(20), "the computer facing a person never moved");
        tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    }
    assert_eq!(version(&watched).await, 0, "the computers among themselves wait their pace");
}

// ---------------------------------------------------------------- export

#[tokio::test]
async fn export_gives_the_log_and_pgn() {
    let server = TestServer::new().await;
    let game = server.create(json!({"variant": "chess", "seed": 42})).await;
    let (id, white, black) = (id(&game), token(&game, 0), token(&game, 1));
    server.act(&id, &white, "e4").await;
    server.act(&id, &black, "e5").await;
    // Chess hides nothing, so its log is public at any time.
    let (status, text) = server.send("GET", &format!("/api/games/{id}/export?format=log"), None).await;
    assert_eq!(status, StatusCode::OK);
    let record: chesskit_core::GameRecord = serde_json::from_str(&text).unwrap();
    assert_eq!(record.variant, "chess");
    assert_eq!(record.seed, 42);
    assert_eq!(record.actions.iter().map(|a| a.action.as_str()).collect::<Vec<_>>(), ["e2e4", "e7e5"]);
    let replayed = chesskit_games::replay(&record).unwrap();
    assert_eq!(replayed.record(), &record);
    let (status, default) = server.send("GET", &format!("/api/games/{id}/export"), None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(default, text, "log is the default format");

    let (status, pgn) = server.send("GET", &format!("/api/games/{id}/export?format=pgn"), None).await;
    assert_eq!(status, StatusCode::OK);
    assert!(pgn.contains("1. e4 e5"), "{pgn}");
    assert!(pgn.contains("[Result \"*\"]"));

    let (status, reply) = server.json("GET", &format!("/api/games/{id}/export?format=fen"), None).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(reply["error"].as_str().unwrap().contains("fen"));
    let (status, _) = server.json("GET", "/api/games/nope/export?format=pgn", None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

/// Every variant: a game that hides information exports its log (and PGN)
/// only once over; one that hides nothing, at any time; PGN only where the
/// game is chess-like.
#[tokio::test]
async fn export_of_every_variant_keeps_secrets_until_the_end() {
    let server = TestServer::new().await;
    for info in chesskit_games::variants() {
        let game = server.create(json!({"variant": info.name, "seed": 1})).await;
        let id = id(&game);
        let (status, _) = server.send("GET", &format!("/api/games/{id}/export?format=log"), None).await;
        let expected = if info.hidden_information { StatusCode::CONFLICT } else { StatusCode::OK };
        assert_eq!(status, expected, "{}: log export during play", info.name);
        let (status, _) = server.send("GET", &format!("/api/games/{id}/export?format=pgn"), None).await;
        let expected = match (info.pgn, info.hidden_information) {
            (false, _) => StatusCode::NOT_FOUND,
            (true, true) => StatusCode::CONFLICT,
            (true, false) => StatusCode::OK,
        };
        assert_eq!(status, expected, "{}: PGN export during play", info.name);
    }
}

/// A finished Masquerade game (White's pawn takes the king) exports its
/// PGN, with both secret assignments.
#[tokio::test]
async fn a_finished_hidden_game_exports_its_pgn_with_its_secrets() {
    let server = TestServer::new().await;
    let position = "4k3/3P4/8/8/8/8/8/4K3 w - - 0 1\nwhite captures: KR QK RN BB NQ\nblack captures: KK QQ RR BB NN";
    let game = server.create(json!({"variant": "masquerade", "position": position, "seats": ["human", "human"]})).await;
    let id = id(&game);
    let (status, reply) = server.act(&id, &token(&game, 0), "d7e8q").await;
    assert_eq!(status, StatusCode::OK, "{reply}");
    let (status, pgn) = server.send("GET", &format!("/api/games/{id}/export?format=pgn"), None).await;
    assert_eq!(status, StatusCode::OK, "{pgn}");
    for part in ["[Variant \"Masquerade\"]", "[Result \"1-0\"]", "[WhiteCaptures \"KR QK RN BB NQ\"]", "1. d7xe8=Q"] {
        assert!(pgn.contains(part), "{part} in {pgn}");
    }
}

// ---------------------------------------------------------------- no leaks

/// For every registered variant, play a random game through the API with
/// every seat human, and at every step check that each seat's view from the
/// API is exactly `view(Viewer::Seat(s))` of the same game replayed here,
/// and the spectator's exactly `view(Viewer::Spectator)`: the server adds
/// nothing from another seat, in the view endpoint and in action replies.
/// Every seat has come (fetched its view) before the first check, so the
/// server offers nobody "abort", which the bare game offers by its log alone.
#[tokio::test]
async fn every_variants_views_are_exactly_the_seats_own() {
    let server = TestServer::new().await;
    let mut rng = GameRng::from_seed(2024);
    for info in chesskit_games::variants() {
        let seed = 1000 + rng.below(1000) as u64;
        let seats = vec!["human"; info.seats.len()];
        let game = server.create(json!({"variant": info.name, "seed": seed, "seats": seats})).await;
        let id = id(&game);
        let tokens: Vec<String> = (0..info.seats.len()).map(|s| token(&game, s)).collect();
        let mut local = chesskit_games::create(info.name, Options::new(), seed, None).unwrap();
        for token in &tokens {
            server.view(&id, Some(token)).await;
        }
        for step in 0..60 {
            check_views(&server, &id, &tokens, &*local, info.name, step).await;
            let to_act = local.to_act();
            let Some(&seat) = to_act.seats().first() else { break };
            let actions = local.legal_actions(seat);
            let action = rng.choose(&actions).unwrap().clone();
            let (status, reply) = server.act(&id, &tokens[seat], &action).await;
            assert_eq!(status, StatusCode::OK, "{}: {action}: {reply}", info.name);
            local.apply(seat, &action).unwrap();
            let own = everyone_came(local.view(Viewer::Seat(seat)));
            assert_eq!(reply["view"], own, "{}: the reply to seat {seat}'s action is its own view", info.name);
        }
    }
}

/// A game's view as the server shows it when every seat's player has come:
/// nobody is waited for, so "abort" is not offered.
fn everyone_came(mut view: chesskit_core::View) -> Value {
    view.session_actions.retain(|a| a != "abort");
    serde_json::to_value(view).unwrap()
}

async fn check_views(
    server: &TestServer,
    id: &str,
    tokens: &[String],
    local: &dyn DynGame,
    variant: &str,
    step: usize,
) {
    let version = local.record().actions.len();
    for (seat, token) in tokens.iter().enumerate() {
        let got = server.view(id, Some(token)).await;
        assert_eq!(got["version"], version);
        let expected = everyone_came(local.view(Viewer::Seat(seat)));
        assert_eq!(got["view"], expected, "{variant}, step {step}: seat {seat}'s view");
    }
    let got = server.view(id, None).await;
    let expected = serde_json::to_value(local.view(Viewer::Spectator)).unwrap();
    assert_eq!(got["view"], expected, "{variant}, step {step}: the spectator's view");
}

// ---------------------------------------------------------------- static files and unknown paths

#[tokio::test]
async fn without_a_built_client_the_page_says_how_to_build_it() {
    let server = TestServer::new().await;
    for path in ["/", "/play/abc"] {
        let (status, page) = server.send("GET", path, None).await;
        assert_eq!(status, StatusCode::OK);
        assert!(page.contains("npm --prefix web ci &amp;&amp; npm --prefix web run build"), "{page}");
    }
}

#[tokio::test]
async fn the_built_client_is_served() {
    let dir = tempfile::tempdir().unwrap();
    let web = dir.path().join("dist");
    std::fs::create_dir_all(web.join("assets")).unwrap();
    std::fs::write(web.join("index.html"), "<!doctype html><title>client</title>").unwrap();
    std::fs::write(web.join("assets/app.js"), "console.log('chesskit')").unwrap();
    let server = TestServer::open(dir, web).await;
    for path in ["/", "/play/abc123"] {
        let (status, page) = server.send("GET", path, None).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(page, "<!doctype html><title>client</title>");
    }
    let (status, script) = server.send("GET", "/assets/app.js", None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(script, "console.log('chesskit')");
    let (status, _) = server.send("GET", "/assets/missing.js", None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, _) = server.send("GET", "/assets/../../chesskit.db", None).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "nothing outside the client's directory");
}

#[tokio::test]
async fn unknown_api_paths_and_methods_answer_json() {
    let server = TestServer::new().await;
    for path in ["/api", "/api/", "/api/game", "/api/games/x/y/z"] {
        let (status, reply) = server.json("GET", path, None).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{path}");
        assert!(reply["error"].as_str().unwrap().contains("docs/api.md"), "{path}: {reply}");
    }
    let (status, reply) = server.json("DELETE", "/api/variants", None).await;
    assert_eq!(status, StatusCode::METHOD_NOT_ALLOWED);
    assert!(reply["error"].as_str().unwrap().contains("DELETE"));
    let (status, reply) = server.json("GET", "/api/games", None).await;
    assert_eq!(status, StatusCode::METHOD_NOT_ALLOWED, "{reply}");
}

// ---------------------------------------------------------------- storage failures

/// When the database refuses an action's row, the action is undone, the
/// client gets a generic 500, and play goes on once the database accepts
/// writes again.
#[tokio::test]
async fn an_action_the_store_refuses_is_undone() {
    let server = TestServer::new().await;
    let game = server.create(json!({"variant": "chess"})).await;
    let (id, white) = (id(&game), token(&game, 0));
    let before = server.view(&id, Some(&white)).await;
    // Another connection takes the row the server's next write needs.
    let other = rusqlite::Connection::open(server.db()).unwrap();
    other.busy_timeout(std::time::Duration::from_secs(5)).unwrap();
    other.execute("INSERT INTO actions (game_id, idx, seat, action) VALUES (?1, 0, 0, 'a2a3')", [&id]).unwrap();
    let (status, reply) = server.act(&id, &white, "e2e4").await;
    assert_eq!(status, StatusCode::INTERNAL_SERVER_ERROR);
    let error = reply["error"].as_str().unwrap();
    assert!(error.starts_with("internal server error") && !error.contains("UNIQUE"), "generic: {error}");
    assert_eq!(server.view(&id, Some(&white)).await, before, "undone");
    other.execute("DELETE FROM actions WHERE game_id = ?1", [&id]).unwrap();
    let (status, reply) = server.act(&id, &white, "e2e4").await;
    assert_eq!(status, StatusCode::OK, "{reply}");
    assert_eq!(stored_actions(&server.db(), &id), vec![(0, "e2e4".to_string())]);
}
