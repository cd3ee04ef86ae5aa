//! `GET /api/games/{id}/analysis` (issue 23): whether a finished Neighbour
//! deal could have been won, in the solver's words. Refused while the game
//! is on (the solver reads the hidden cards), answered after, searched
//! once, bounded by the server's node limit, and refused for a game with
//! no solver.

use crate::common::{id, token, TestServer};
use axum::http::StatusCode;
use chesskit_ai::neighbour::{solve, SolveOptions};
use chesskit_core::{Game, Options};
use chesskit_games::neighbour::NeighbourGame;
use chesskit_server::{app, Limits};
use serde_json::{json, Value};

/// Nodes enough to prove the deal of seed 1 (its best score; the solver's
/// tests prove it within 2 million).
const NODES_TO_PROVE_SEED_1: u64 = 2_000_000;

/// A server whose analyses search at most `nodes` nodes.
async fn server_with_analysis_nodes(nodes: u64) -> TestServer {
    let mut server = TestServer::new().await;
    server.state = server.state.clone().with_limits(Limits { analysis_nodes: nodes, ..Limits::default() });
    server.app = app(server.state.clone());
    server
}

/// A Neighbour game of `seed` for one person: the create reply.
async fn neighbour(server: &TestServer, seed: u64) -> Value {
    server.create(json!({"variant": "neighbour", "seed": seed, "seats": ["human"]})).await
}

/// Play the game to its end, quickly: two pieces added (each landing
/// wherever it may), then stop, then the first move offered until the
/// game is over (won or lost).
async fn play_to_the_end(server: &TestServer, game: &Value) {
    let (id, token) = (id(game), token(game, 0));
    for _ in 0..100 {
        let view = server.view(&id, Some(&token)).await;
        if !view["view"]["outcome"].is_null() {
            return;
        }
        let texts: Vec<&str> =
            view["view"]["actions"].as_array().unwrap().iter().filter_map(|a| a["text"].as_str()).collect();
        let pieces =
            view["view"]["board"]["squares"].as_array().unwrap().iter().filter(|s| !s["piece"].is_null()).count();
        let action = match texts.iter().find(|t| t.starts_with("place ")) {
            Some(place) => place,
            None if texts.contains(&"add") && pieces < 2 => "add",
            None if texts.contains(&"stop") => "stop",
            None => texts.first().unwrap_or_else(|| panic!("no action in {view}")),
        };
        let (status, reply) = server.act(&id, &token, action).await;
        assert_eq!(status, StatusCode::OK, "{action}: {reply}");
    }
    panic!("game {id} did not end in 100 actions");
}

async fn analysis(server: &TestServer, id: &str) -> (StatusCode, Value) {
    server.json("GET", &format!("/api/games/{id}/analysis"), None).await
}

/// The solver's answer on the deal of `seed` within `nodes`, as the CLI gives it.
fn solved(seed: u64, nodes: u64) -> chesskit_ai::neighbour::Solution {
    let deal = NeighbourGame::new(&Options::new(), seed).unwrap();
    solve(&deal, SolveOptions { time_limit: None, node_limit: Some(nodes), progress: None })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_deal_is_analysed_only_once_the_game_is_over_in_the_solvers_words() {
    let server = server_with_analysis_nodes(NODES_TO_PROVE_SEED_1).await;
    let game = neighbour(&server, 1).await;
    let (status, refused) = analysis(&server, &id(&game)).await;
    assert_eq!(status, StatusCode::CONFLICT, "{refused}");
    let message = refused["error"].as_str().unwrap();
    assert!(message.contains("only once it is over") && message.contains("hidden"), "{message}");
    assert_eq!(server.state.analyses_searched(), 0, "a refusal searches nothing");

    play_to_the_end(&server, &game).await;
    let (status, answer) = analysis(&server, &id(&game)).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    let expected = solved(1, NODES_TO_PROVE_SEED_1);
    assert_eq!(answer["words"], json!(expected.in_words()));
    assert_eq!(answer["verdict"], "line_found");
    assert_eq!(answer["proven"], true);
    assert_eq!(answer["score"], json!(expected.score));
    assert_eq!(answer["nodes"], json!(expected.nodes));
    assert_eq!(answer["node_limit"], json!(NODES_TO_PROVE_SEED_1));
    let line: Vec<String> = expected.actions.iter().map(ToString::to_string).collect();
    assert_eq!(answer["line"], json!(line));

    // The line is the deal's own: played from the start, it wins with the score.
    let replay = neighbour(&server, 1).await;
    for action in &line {
        let (status, reply) = server.act(&id(&replay), &token(&replay, 0), action).await;
        assert_eq!(status, StatusCode::OK, "{action}: {reply}");
    }
    let summary = server.json("GET", &format!("/api/games/{}", id(&replay)), None).await.1;
    assert_eq!(summary["outcome"]["scores"], json!([expected.score]), "{summary}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_analysis_is_kept_so_a_second_request_searches_nothing() {
    let server = server_with_analysis_nodes(NODES_TO_PROVE_SEED_1).await;
    let game = neighbour(&server, 1).await;
    play_to_the_end(&server, &game).await;
    let id = id(&game);
    let (first, second) = tokio::join!(analysis(&server, &id), analysis(&server, &id));
    assert_eq!((first.0, second.0), (StatusCode::OK, StatusCode::OK));
    assert_eq!(server.state.analyses_searched(), 1, "two requests at once share one search");
    let (status, third) = analysis(&server, &id).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!((&first.1, &second.1), (&third, &third), "the same answer every time");
    assert_eq!(server.state.analyses_searched(), 1, "the answer was kept, not searched again");
}

/// The node bound is the server's: a deal the solver cannot settle within
/// it gets an answer that says the search stopped at the limit, and no
/// more nodes were searched than the limit allows.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_analysis_searches_no_more_than_the_servers_node_limit() {
    const NODES: u64 = 1_000;
    let server = server_with_analysis_nodes(NODES).await;
    let game = neighbour(&server, 3).await;
    play_to_the_end(&server, &game).await;
    let (status, answer) = analysis(&server, &id(&game)).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert!(answer["nodes"].as_u64().unwrap() <= NODES, "{answer}");
    assert_eq!(answer["node_limit"], json!(NODES));
    assert_eq!(answer["proven"], false, "{answer}");
    let words = answer["words"].as_str().unwrap();
    assert!(words.contains("within the search limit of 1000 nodes"), "{words}");
    assert_eq!(answer["words"], json!(solved(3, NODES).in_words()));
}

#[tokio::test]
async fn a_game_without_a_solver_has_no_analysis() {
    let server = TestServer::new().await;
    let chess = server.create(json!({"variant": "chess"})).await;
    let (status, refused) = analysis(&server, &id(&chess)).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{refused}");
    assert_eq!(refused["error"], "Chess has no analysis: no solver searches its games");
    let (status, _) = analysis(&server, "no-such-game").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(server.state.analyses_searched(), 0);
}

#[tokio::test]
async fn the_variants_say_which_have_an_analysis() {
    let server = TestServer::new().await;
    let (status, variants) = server.json("GET", "/api/variants", None).await;
    assert_eq!(status, StatusCode::OK);
    let analysis =
        |name: &str| variants.as_array().unwrap().iter().find(|v| v["name"] == name).unwrap()["analysis"].clone();
    assert_eq!(analysis("neighbour"), json!(true));
    assert_eq!(analysis("chess"), json!(false));
    assert_eq!(analysis("parade"), json!(false), "a solver of the CLI's only is not offered");
}
