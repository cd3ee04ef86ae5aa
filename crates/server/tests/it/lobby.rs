//! The lobby (docs/api.md, "The lobby"): open challenges that strangers
//! take a seat in under a name of their choice, a seat nobody took filled
//! with a computer, and the live games anyone may watch.

use crate::common::{id, token, TestServer};
use axum::http::StatusCode;
use serde_json::{json, Value};

/// A chess challenge opened by `name`: White is the creator's, Black waits.
async fn challenge(server: &TestServer, name: &str) -> Value {
    server.create(json!({"variant": "chess", "seats": ["human", "open"], "open": true, "name": name})).await
}

async fn take(server: &TestServer, g: &str, seat: usize, name: &str) -> (StatusCode, Value) {
    server.json("POST", &format!("/api/games/{g}/take"), Some(json!({"seat": seat, "name": name}))).await
}

async fn fill(server: &TestServer, g: &str, token: &str, seat: usize, level: &str) -> (StatusCode, Value) {
    let body = json!({"token": token, "seat": seat, "level": level});
    server.json("POST", &format!("/api/games/{g}/fill"), Some(body)).await
}

async fn list(server: &TestServer, which: &str) -> Vec<Value> {
    let (status, games) = server.json("GET", &format!("/api/{which}"), None).await;
    assert_eq!(status, StatusCode::OK, "{games}");
    games.as_array().unwrap().clone()
}

/// The listed game `g`, if `which` lists it.
async fn listed(server: &TestServer, which: &str, g: &str) -> Option<Value> {
    list(server, which).await.into_iter().find(|game| game["id"] == g)
}

#[tokio::test]
async fn an_open_challenge_is_listed_until_a_stranger_takes_its_seat_then_it_is_live() {
    let server = TestServer::new().await;
    let game = challenge(&server, "  Ada ").await;
    let (g, white) = (id(&game), token(&game, 0));
    assert!(game["seats"][1].get("token").is_none(), "the open seat's token is for its taker only: {game}");

    let listed_game = listed(&server, "challenges", &g).await.expect("the challenge is listed");
    assert_eq!(listed_game["creator"], "Ada", "the name is trimmed");
    assert_eq!(listed_game["variant"], "chess");
    assert_eq!(listed_game["title"], "Chess");
    assert!(listed_game["created"].as_i64().unwrap() > 0);
    assert_eq!(listed_game["seats"][0], json!({"seat": 0, "name": "White", "kind": "human", "player": "Ada"}));
    assert_eq!(listed_game["seats"][1], json!({"seat": 1, "name": "Black", "kind": "open"}), "free: no player");
    assert!(listed(&server, "live", &g).await.is_none(), "not live while a seat is free");

    let (status, taken) = take(&server, &g, 1, " Bob").await;
    assert_eq!(status, StatusCode::OK, "{taken}");
    assert_eq!(taken["player"], "Bob");
    assert_eq!(taken["name"], "Black");
    let black = taken["token"].as_str().unwrap().to_string();
    assert_eq!(taken["play"], format!("/play/{g}?token={black}"));
    assert!(listed(&server, "challenges", &g).await.is_none(), "a challenge with no seat free leaves the list");
    let summary = server.json("GET", &format!("/api/games/{g}"), None).await.1;
    assert_eq!(summary["players"], json!(["Ada", "Bob"]), "the table names its strangers: {summary}");

    assert_eq!(server.act(&g, &white, "e4").await.0, StatusCode::OK);
    assert_eq!(server.act(&g, &black, "e5").await.0, StatusCode::OK, "the taken token plays Black");
    assert_eq!(server.act(&g, &white, "say good luck").await.0, StatusCode::OK);
    let live = listed(&server, "live", &g).await.expect("a game with every seat held is live");
    assert_eq!(live["moves"], 2, "chat lines are not moves: {live}");
    assert_eq!(live["seats"][1]["player"], "Bob");

    assert_eq!(server.act(&g, &black, "resign").await.0, StatusCode::OK);
    assert!(listed(&server, "live", &g).await.is_none(), "a game that is over is not live");
}

#[tokio::test]
async fn taking_a_taken_seat_is_refused_and_names_who_plays_it() {
    let server = TestServer::new().await;
    let g = id(&challenge(&server, "Ada").await);
    assert_eq!(take(&server, &g, 1, "Bob").await.0, StatusCode::OK);

    let (status, error) = take(&server, &g, 1, "Cleo").await;
    assert_eq!(status, StatusCode::CONFLICT, "{error}");
    assert!(error["error"].as_str().unwrap().contains("Bob plays it"), "{error}");
    let (status, error) = take(&server, &g, 0, "Cleo").await;
    assert_eq!(status, StatusCode::CONFLICT, "the creator's seat is held: {error}");
    let (status, error) = take(&server, &g, 2, "Cleo").await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "chess has no seat 2: {error}");
    assert_eq!(take(&server, "nosuchgame", 1, "Cleo").await.0, StatusCode::NOT_FOUND);

    let private = server.create(json!({"variant": "chess", "seats": ["human", "open"]})).await;
    let (status, error) = take(&server, &id(&private), 1, "Cleo").await;
    assert_eq!(status, StatusCode::CONFLICT, "a game with an invite link is no challenge: {error}");
    assert!(error["error"].as_str().unwrap().contains("not an open challenge"), "{error}");
}

#[tokio::test]
async fn bad_names_get_a_clear_400_and_change_nothing() {
    let server = TestServer::new().await;
    let open = |name: &str| json!({"variant": "chess", "open": true, "name": name});
    for (name, why) in [("   ", "a name is needed"), ("Ada\u{7}", "U+0007"), (&"x".repeat(25), "at most 24")] {
        let (status, error) = server.json("POST", "/api/games", Some(open(name))).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{name:?}: {error}");
        assert!(error["error"].as_str().unwrap().contains(why), "{name:?}: {error}");
    }
    let (status, error) = server.json("POST", "/api/games", Some(json!({"variant": "chess", "open": true}))).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "a challenge needs its creator's name: {error}");
    let (status, error) = server.json("POST", "/api/games", Some(json!({"variant": "chess", "name": "Ada"}))).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "a name without open: {error}");
    let no_open_seat = json!({"variant": "chess", "seats": ["human", "computer"], "open": true, "name": "Ada"});
    let (status, error) = server.json("POST", "/api/games", Some(no_open_seat)).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{error}");
    assert!(error["error"].as_str().unwrap().contains("needs a seat of kind \"open\""), "{error}");
    assert_eq!(server.state.game_count(), 0, "no game was made");
    assert!(list(&server, "challenges").await.is_empty());

    let g = id(&challenge(&server, "Ada").await);
    let (status, error) = take(&server, &g, 1, "Bob\nBobby").await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{error}");
    assert!(listed(&server, "challenges", &g).await.is_some(), "the seat is still free");
}

#[tokio::test]
async fn the_creator_fills_the_empty_seat_with_a_computer_at_the_chosen_level() {
    let server = TestServer::new().await;
    let game = challenge(&server, "Ada").await;
    let (g, white) = (id(&game), token(&game, 0));

    assert_eq!(fill(&server, &g, "not-a-token", 1, "level1").await.0, StatusCode::FORBIDDEN);
    let (status, error) = fill(&server, &g, &white, 1, "level99").await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{error}");
    let (status, error) = fill(&server, &g, &white, 0, "level1").await;
    assert_eq!(status, StatusCode::CONFLICT, "the creator's own seat is not open: {error}");

    let (status, filled) = fill(&server, &g, &white, 1, "level1").await;
    assert_eq!(status, StatusCode::OK, "{filled}");
    assert_eq!(filled["kind"], "computer:level1");
    assert_eq!(filled["player"], "Computer (level1)");
    let (_, summary) = server.json("GET", &format!("/api/games/{g}"), None).await;
    assert_eq!(summary["seats"][1]["kind"], "computer:level1", "{summary}");

    assert_eq!(server.act(&g, &white, "e4").await.0, StatusCode::OK);
    server.wait_for_version(&g, 2).await;
    let live = listed(&server, "live", &g).await.expect("a filled game is live");
    assert_eq!(live["seats"][1]["player"], "Computer (level1)");
    assert_eq!(take(&server, &g, 1, "Bob").await.0, StatusCode::CONFLICT, "the computer holds the seat");
    assert_eq!(fill(&server, &g, &white, 1, "level2").await.0, StatusCode::CONFLICT, "filled once");

    let stored = chesskit_server::store::read_games(&server.db()).unwrap();
    let kinds = &stored.iter().find(|game| game.id == g).unwrap().seat_kinds;
    assert_eq!(kinds, &["human", "computer:level1"], "a restart finds the computer in its seat");
}

#[tokio::test]
async fn each_list_holds_at_most_fifty_games() {
    let server = TestServer::new().await;
    for n in 0..52 {
        challenge(&server, &format!("Player {n}")).await;
    }
    assert_eq!(list(&server, "challenges").await.len(), 50);
}
