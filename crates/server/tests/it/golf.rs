//! Chess Golf on the server (issue 24): the referee's search that settles
//! a hole does not stop the game's readers, and a restart or a past view
//! does not search again but takes what the search concluded from the store.

use std::sync::Arc;

use crate::common::{id, token, TestServer};
use axum::http::StatusCode;
use serde_json::{json, Value};

/// The hole that stalled a server (from the issue): a one-player round at
/// hole 14 of 18 with 15 cards, whose "impossible" the referee cannot
/// settle quickly.
const STALLED: &str = include_str!("../../../games/tests/data/golf_stall_hole14.txt");

/// Positions the referee may search on the stalled hole here: enough for a
/// search far longer than a GET (about a second), so the reads
/// below are answered while it runs.
const SEARCH_NODES: i64 = 10_000_000;

/// The opening example of the rules (docs/games/golf.md), a one-player
/// round at hole 1 dealt the white king and the black bishop: the referee
/// solves it in 3 moves.
const OPENING: &str = "\
. . B . . . R .
. . . . . k . .
. r . n . N . .
. r . . b . . .
R . . . . . q .
. B . n . N . .
b . . . . . . K
. . . . . Q . .
players: 1
holes: 9
max cards: 6
hole: 1
dealer: 0
cards: 2
deck: ks qs qh 10s 10h 10c 10d 9h 9c 9d 8s 8h 8c 8d
discard:
deal: kh 9s
counts: -
phase: counting
";

async fn golf(server: &TestServer, position: &str, solver_nodes: i64) -> Value {
    let options = json!({"players": 1, "solver_nodes": solver_nodes});
    server.create(json!({"variant": "golf", "options": options, "position": position, "seats": ["human"]})).await
}

fn log(view: &Value) -> Vec<String> {
    view["view"]["log"].as_array().unwrap().iter().map(|e| e["text"].as_str().unwrap().to_string()).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_game_answers_reads_while_the_referee_searches() {
    // Issue 24: "the game stays readable while work runs". The action is
    // applied to a copy, off the game's lock: a spectator's view and the
    // game's summary answer, at the version before, while the search runs.
    let server = Arc::new(TestServer::new().await);
    let game = golf(&server, STALLED, SEARCH_NODES).await;
    let (id, token) = (id(&game), token(&game, 0));
    let entry = server.state.game(&id).unwrap();
    let acting = {
        let (server, id) = (server.clone(), id.clone());
        tokio::spawn(async move { server.act(&id, &token, "impossible").await })
    };
    // Wait (by count, not time) until the action holds the game's turn.
    let mut waits = 0;
    while entry.acting.try_lock().is_ok() {
        waits += 1;
        assert!(waits < 1_000_000 && !acting.is_finished(), "the action never took its turn");
        tokio::task::yield_now().await;
    }
    let view = server.view(&id, None).await;
    assert_eq!(view["version"], 0, "the view of the last stored version");
    assert_eq!(server.version(&id).await, 0);
    assert!(!acting.is_finished(), "the reads were answered before the action");
    let (status, reply) = acting.await.unwrap();
    assert_eq!(status, StatusCode::OK, "{reply}");
    assert_eq!(server.version(&id).await, 1);
    let found = entry.live.lock().await.game().record().actions[0].found.clone();
    assert!(found.as_deref().is_some_and(|f| f.starts_with("unproven ")), "{found:?}");
}

#[tokio::test]
async fn a_restart_takes_the_stored_finding_and_does_not_search_again() {
    // Issue 24: "a restart's replay of any game costs rule work only". The
    // stored round's search limit is lowered to 1 position behind the
    // server's back: a search on restart could not settle the hole, yet
    // the restored game tells the referee's 3-move path, read from the store.
    let server = TestServer::new().await;
    let game = golf(&server, OPENING, 2_000_000).await;
    let (id, token) = (id(&game), token(&game, 0));
    assert_eq!(server.act(&id, &token, "impossible").await.0, StatusCode::OK);
    let solved = "The referee solves it in 3 moves";
    assert!(log(&server.view(&id, None).await).iter().any(|l| l.starts_with(solved)));
    let stored = chesskit_server::store::read_games(&server.db()).unwrap();
    let found = stored[0].record.actions[0].found.as_deref().unwrap_or_default().to_string();
    assert!(found.starts_with("solved ") && found.split_whitespace().count() == 4, "stored: {found:?}");
    let web = server.dir.path().join("no-client");
    let TestServer { dir, state, app } = server;
    drop((app, state));
    let conn = rusqlite::Connection::open(dir.path().join("chesskit.db")).unwrap();
    conn.execute("UPDATE games SET options = ?1 WHERE id = ?2", [r#"{"players":1,"solver_nodes":1}"#, &id]).unwrap();
    drop(conn);
    let server = TestServer::open(dir, web).await;
    let restored = log(&server.view(&id, None).await);
    assert!(restored.iter().any(|l| l.starts_with(solved)), "{restored:?}");
    assert!(!restored.iter().any(|l| l.contains("reaches its limit")), "{restored:?}");
    // A spectator's past view replays the stored finding too.
    let (status, past) = server.json("GET", &format!("/api/games/{id}/view?at=1"), None).await;
    assert_eq!(status, StatusCode::OK, "{past}");
    assert!(log(&past).iter().any(|l| l.starts_with(solved)), "{past}");
}
