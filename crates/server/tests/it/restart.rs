//! A restart restores every game from the database: in progress, finished,
//! and with a computer seat due to move. (The SIGKILL test of the real
//! binary is crates/cli/tests/it/server_restart.rs.)

use crate::common::{id, stored_actions, token, TestServer};
use axum::http::StatusCode;
use chesskit_core::{ActionRecord, GameRecord};
use chesskit_server::store::{Store, StoredGame};
use serde_json::json;

/// Stop a server without any shutdown step, as a crash would, keeping its directory.
fn crash(server: TestServer) -> tempfile::TempDir {
    let TestServer { dir, state, app } = server;
    drop(app);
    drop(state);
    dir
}

#[tokio::test]
async fn every_game_is_restored_as_it_was() {
    let server = TestServer::new().await;
    let playing = server.create(json!({"variant": "chess960", "seed": 99})).await;
    let (p, p_white, p_black) = (id(&playing), token(&playing, 0), token(&playing, 1));
    let finished = server.create(json!({"variant": "chess"})).await;
    let f = id(&finished);
    for (token, action) in [(&p_white, "e2e3"), (&p_black, "e7e6"), (&p_white, "d2d3")] {
        assert_eq!(server.act(&p, token, action).await.0, StatusCode::OK);
    }
    for (seat, action) in [(0, "f3"), (1, "e5"), (0, "g4"), (1, "Qh4")] {
        assert_eq!(server.act(&f, &token(&finished, seat), action).await.0, StatusCode::OK);
    }
    let mut before = Vec::new();
    for (game, id) in [(&playing, &p), (&finished, &f)] {
        let (_, summary) = server.json("GET", &format!("/api/games/{id}"), None).await;
        let views = [server.view(id, Some(&token(game, 0))).await, server.view(id, Some(&token(game, 1))).await];
        let (_, log) = server.send("GET", &format!("/api/games/{id}/export"), None).await;
        before.push((summary, views, log));
    }
    let web = server.dir.path().join("no-client");

    let server = TestServer::open(crash(server), web).await;
    assert_eq!(server.state.game_count(), 2);
    for ((game, id), (summary, views, log)) in [(&playing, &p), (&finished, &f)].into_iter().zip(before) {
        assert_eq!(server.json("GET", &format!("/api/games/{id}"), None).await.1, summary);
        assert_eq!(server.view(id, Some(&token(game, 0))).await, views[0], "the tokens still work");
        assert_eq!(server.view(id, Some(&token(game, 1))).await, views[1]);
        assert_eq!(server.send("GET", &format!("/api/games/{id}/export"), None).await.1, log);
    }
    // Play goes on where it stopped, and is stored after the old actions.
    let (status, reply) = server.act(&p, &p_black, "d7d6").await;
    assert_eq!(status, StatusCode::OK, "{reply}");
    assert_eq!(reply["version"], 4);
    assert_eq!(stored_actions(&server.db(), &p).len(), 4);
    assert_eq!(server.act(&f, &token(&finished, 0), "a2a3").await.0, StatusCode::CONFLICT, "still over");
}

/// A crash between a person's acknowledged move and the computer's answer:
/// on restart the computer moves.
#[tokio::test]
async fn a_computer_due_to_move_moves_after_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("chesskit.db");
    let record = crate::common::chess_after_e4();
    let stored = |id: &str, record: GameRecord| StoredGame {
        id: id.into(),
        record,
        seat_kinds: vec!["human".into(), "computer".into()],
        seat_tokens: vec![Some("tok".into()), None],
        created: 1,
        updated: 1,
    };
    {
        let (store, games) = tokio::task::spawn_blocking({
            let db = db.clone();
            move || Store::open(&db)
        })
        .await
        .unwrap()
        .unwrap();
        assert!(games.is_empty());
        store.insert_game(stored("due", record.clone())).await.unwrap();
        // And a game whose log no longer replays: it is left out, the others are served.
        let mut broken = record;
        broken.actions.push(ActionRecord::new(0, "e4e5"));
        store.insert_game(stored("broken", broken)).await.unwrap();
    }
    let server = TestServer::open(dir, db.with_file_name("no-client")).await;
    assert_eq!(server.state.game_count(), 1);
    server.wait_for_version("due", 2).await;
    let stored = stored_actions(&server.db(), "due");
    assert_eq!(stored.len(), 2);
    assert_eq!(stored[1].0, 1, "Black, the computer, moved");
    assert_eq!(server.view("due", Some("tok")).await["view"]["to_act"], json!([0]));
    // Asked for, it is read from the store again (idle games leave memory
    // and come back so), and its replay fails again: the server's fault,
    // not the client's, so a 500 with the detail in the server's log.
    let (status, _) = server.json("GET", "/api/games/broken", None).await;
    assert_eq!(status, StatusCode::INTERNAL_SERVER_ERROR);
    assert_eq!(server.state.game_count(), 1, "it is not kept");
}

/// "joined" is kept in memory: after a restart a seat with a stored action
/// has joined, a seat that only looked has not until it comes back.
#[tokio::test]
async fn after_a_restart_seats_that_acted_have_joined() {
    let server = TestServer::new().await;
    let game = server.create(json!({"variant": "chess", "seats": ["human", "open"]})).await;
    let (g, white, black) = (id(&game), token(&game, 0), token(&game, 1));
    assert_eq!(server.act(&g, &white, "e4").await.0, StatusCode::OK);
    server.view(&g, Some(&black)).await;
    let joined = |summary: serde_json::Value| {
        summary["seats"].as_array().unwrap().iter().map(|s| s["joined"].clone()).collect::<Vec<_>>()
    };
    assert_eq!(joined(server.json("GET", &format!("/api/games/{g}"), None).await.1), [json!(true), json!(true)]);
    let web = server.dir.path().join("no-client");

    let server = TestServer::open(crash(server), web).await;
    assert_eq!(joined(server.json("GET", &format!("/api/games/{g}"), None).await.1), [json!(true), json!(false)]);
    server.view(&g, Some(&black)).await;
    assert_eq!(joined(server.json("GET", &format!("/api/games/{g}"), None).await.1), [json!(true), json!(true)]);
}
