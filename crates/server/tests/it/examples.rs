//! `GET /api/variants/{name}/examples` and `POST
//! /api/variants/{name}/examples/{index}` (docs/api.md): the book's worked
//! examples, set up and answered by the real referee.

use axum::http::StatusCode;
use serde_json::{json, Value};

use crate::common::TestServer;

/// Try `actions` on example `index` of `variant`.
async fn attempt(server: &TestServer, variant: &str, index: usize, actions: &[&str]) -> (StatusCode, Value) {
    let uri = format!("/api/variants/{variant}/examples/{index}");
    server.json("POST", &uri, Some(json!({ "actions": actions }))).await
}

#[tokio::test]
async fn every_example_of_the_book_is_served_with_its_position_set_up_for_the_mover() {
    let server = TestServer::new().await;
    for example in chesskit_games::examples::all() {
        let (status, list) = server.json("GET", &format!("/api/variants/{}/examples", example.variant), None).await;
        assert_eq!(status, StatusCode::OK, "{list}");
        let served = list.as_array().unwrap().iter().find(|e| e["title"] == example.title.as_str());
        let served = served.unwrap_or_else(|| panic!("{}: {} is not listed: {list}", example.variant, example.title));
        assert_eq!(served["clause"], example.clause.as_str());
        assert_eq!(served["source"], example.section.as_str());
        assert!(!served["view"]["actions"].as_array().unwrap().is_empty(), "{}: nothing to try", example.title);
    }
    let (status, list) = server.json("GET", "/api/variants/chess/examples", None).await;
    assert_eq!((status, list), (StatusCode::OK, json!([])), "a game the books give no example of");
}

#[tokio::test]
async fn the_falling_order_is_answered_move_by_move_as_the_book_says() {
    let server = TestServer::new().await;
    let (status, reply) = attempt(&server, "gravity", 0, &["e7f6"]).await;
    assert_eq!(status, StatusCode::OK, "{reply}");
    assert_eq!(reply["verdict"], "continue");
    let top_pawn = reply["view"]["actions"].as_array().unwrap().iter().any(|a| a["text"] == "e8e7");
    assert!(top_pawn, "with the bishop gone the top pawn can move: {}", reply["view"]["actions"]);
    let (_, reply) = attempt(&server, "gravity", 0, &["e7f6", "e8e7"]).await;
    assert_eq!(reply["verdict"], "correct", "{reply}");
    assert!(reply["message"].as_str().unwrap().ends_with(", as the book says."), "{reply}");
}

#[tokio::test]
async fn a_refused_move_gets_the_referees_reason_and_leaves_the_position_as_it_was() {
    let server = TestServer::new().await;
    let (_, list) = server.json("GET", "/api/variants/gravity/examples", None).await;
    let (status, reply) = attempt(&server, "gravity", 0, &["e7e1"]).await;
    assert_eq!(status, StatusCode::OK, "{reply}");
    assert_eq!(reply["verdict"], "refused");
    assert!(reply["message"].as_str().unwrap().starts_with("The referee refuses e7e1: "), "{reply}");
    assert_eq!(reply["view"]["board"], list[0]["view"]["board"]);
    let (_, reply) = attempt(&server, "gravity", 0, &["e8 stays"]).await;
    assert_eq!(reply["verdict"], "different", "legal, but not the book's move: {reply}");
}

#[tokio::test]
async fn unknown_variants_examples_and_too_many_moves_are_clear_errors() {
    let server = TestServer::new().await;
    let (status, reply) = server.json("GET", "/api/variants/shogi/examples", None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(reply["error"].as_str().unwrap().contains("no variant \"shogi\""), "{reply}");
    let (status, reply) = attempt(&server, "gravity", 9, &[]).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(reply["error"].as_str().unwrap().contains("there is no example 9"), "{reply}");
    let (status, reply) = attempt(&server, "crowded-house", 0, &["f1c4", "e8e7"]).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(reply["error"].as_str().unwrap().contains("2 actions for an example of 1 move"), "{reply}");
    let (status, _) = server.json("POST", "/api/variants/gravity/examples/0", Some(json!({ "moves": [] }))).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
}
