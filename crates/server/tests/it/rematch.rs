//! `POST /api/games/{id}/rematch` (docs/api.md): the rematch reaches
//! everyone at the table, each seat with its own token, and only that seat.

use crate::common::{id, token, TestServer};
use axum::http::StatusCode;
use serde_json::{json, Value};

async fn rematch(server: &TestServer, g: &str, token: Option<&str>) -> (StatusCode, Value) {
    server.json("POST", &format!("/api/games/{g}/rematch"), Some(json!({ "token": token }))).await
}

/// A chess game between two people, over: Black resigned.
async fn finished(server: &TestServer) -> (String, String, String) {
    let game = server.create(json!({"variant": "chess", "seats": ["human", "open"]})).await;
    let (g, white, black) = (id(&game), token(&game, 0), token(&game, 1));
    assert_eq!(server.act(&g, &white, "e4").await.0, StatusCode::OK);
    assert_eq!(server.act(&g, &black, "resign").await.0, StatusCode::OK);
    (g, white, black)
}

#[tokio::test]
async fn each_seat_gets_its_own_seat_in_one_rematch_with_colours_swapped() {
    let server = TestServer::new().await;
    let (g, white, black) = finished(&server).await;
    let (status, summary) = server.json("GET", &format!("/api/games/{g}"), None).await;
    assert_eq!(status, StatusCode::OK);
    assert!(summary.get("rematch").is_none(), "no rematch until a seat starts it: {summary}");

    let (status, mine) = rematch(&server, &g, Some(&white)).await;
    assert_eq!(status, StatusCode::CREATED, "{mine}");
    let next = mine["id"].as_str().unwrap().to_string();
    assert_ne!(next, g);
    assert_eq!(mine["seat"], 1, "White of the finished game plays Black");
    let (_, summary) = server.json("GET", &format!("/api/games/{g}"), None).await;
    assert_eq!(summary["rematch"], next, "the finished game names its rematch for the other seats' pages");

    let (status, theirs) = rematch(&server, &g, Some(&black)).await;
    assert_eq!(status, StatusCode::OK, "the same rematch, found: {theirs}");
    assert_eq!(theirs["id"], next);
    assert_eq!(theirs["seat"], 0, "Black of the finished game plays White");
    assert_ne!(theirs["token"], mine["token"]);
    let (my_token, their_token) = (mine["token"].as_str().unwrap(), theirs["token"].as_str().unwrap());
    assert_eq!(server.view(&next, Some(my_token)).await["seat"], 1);
    assert_eq!(server.view(&next, Some(their_token)).await["seat"], 0);
    assert_ne!(their_token, black, "a new token, not the finished game's");
    let (status, again) = rematch(&server, &g, Some(&white)).await;
    assert_eq!((status, again["token"].as_str()), (StatusCode::OK, Some(my_token)), "asking again changes nothing");
    assert_eq!(server.act(&next, their_token, "e4").await.0, StatusCode::OK, "the new White moves first");
}

#[tokio::test]
async fn a_rematch_needs_a_seat_token_of_a_finished_game_that_was_not_aborted() {
    let server = TestServer::new().await;
    let game = server.create(json!({"variant": "chess", "seats": ["human", "open"]})).await;
    let (g, white) = (id(&game), token(&game, 0));
    let (status, reply) = rematch(&server, &g, Some(&white)).await;
    assert_eq!(status, StatusCode::CONFLICT, "not over yet: {reply}");
    assert_eq!(server.act(&g, &white, "abort").await.0, StatusCode::OK);
    let (status, reply) = rematch(&server, &g, Some(&white)).await;
    assert_eq!(status, StatusCode::CONFLICT, "aborted: {reply}");

    let (g, _, _) = finished(&server).await;
    for bad in [None, Some(""), Some("not-a-seat-token")] {
        let (status, reply) = rematch(&server, &g, bad).await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{bad:?}: {reply}");
    }
    let (_, summary) = server.json("GET", &format!("/api/games/{g}"), None).await;
    assert!(summary.get("rematch").is_none(), "a refused request starts nothing: {summary}");
    let (status, _) = rematch(&server, "no-such-game", Some("x")).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn the_computer_keeps_its_level_and_a_table_of_four_keeps_its_places() {
    let server = TestServer::new().await;
    let game = server
        .create(json!({"variant": "crowded-house", "seats": ["human", "computer:random", "open", "computer:level2"]}))
        .await;
    let (g, me) = (id(&game), token(&game, 0));
    // Crowded House is played by two teams: resigning is a table action there too.
    let (status, reply) = server.act(&g, &me, "resign").await;
    assert_eq!(status, StatusCode::OK, "{reply}");
    let (status, mine) = rematch(&server, &g, Some(&me)).await;
    assert_eq!(status, StatusCode::CREATED, "{mine}");
    assert_eq!(mine["seat"], 0);
    let next = mine["id"].as_str().unwrap();
    let (_, summary) = server.json("GET", &format!("/api/games/{next}"), None).await;
    let kinds: Vec<&str> = summary["seats"].as_array().unwrap().iter().map(|s| s["kind"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["human", "computer:random", "open", "computer:level2"]);
}
