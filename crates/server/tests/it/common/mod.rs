//! Helpers for the API tests: a server on a temp database, driven without a
//! socket through `oneshot`, or on a loopback socket for WebSockets.

pub mod postgres;
pub mod socket;

use std::path::{Path, PathBuf};

use axum::body::Body;
use axum::http::{Request, StatusCode};
use axum::Router;
use chesskit_server::{app, AppState};
use http_body_util::BodyExt;
use serde_json::Value;
use tempfile::TempDir;
use tower::ServiceExt;

pub struct TestServer {
    pub dir: TempDir,
    pub state: AppState,
    pub app: Router,
}

impl TestServer {
    /// A fresh server on an empty database, with no built client.
    pub async fn new() -> TestServer {
        let dir = tempfile::tempdir().unwrap();
        let web = dir.path().join("no-client");
        TestServer::open(dir, web).await
    }

    /// A server on the database `chesskit.db` in `dir`.
    pub async fn open(dir: TempDir, web: PathBuf) -> TestServer {
        TestServer::open_paced(dir, web, std::time::Duration::ZERO).await
    }

    /// A fresh server whose computers wait `pace` before each action when only computers play.
    pub async fn paced(pace: std::time::Duration) -> TestServer {
        let dir = tempfile::tempdir().unwrap();
        let web = dir.path().join("no-client");
        TestServer::open_paced(dir, web, pace).await
    }

    /// Background work at the usual priority: the tests run beside others
    /// on busy cores, where a computer at the idle policy would think only
    /// once nothing else wants a core.
    async fn open_paced(dir: TempDir, web: PathBuf, pace: std::time::Duration) -> TestServer {
        chesskit_server::keep_background_work_at_usual_priority();
        let state = AppState::open_paced(&dir.path().join("chesskit.db"), web, pace).await.unwrap();
        let app = app(state.clone());
        TestServer { dir, state, app }
    }

    pub fn db(&self) -> PathBuf {
        self.dir.path().join("chesskit.db")
    }

    /// Send a request; the reply's status and body text.
    pub async fn send(&self, method: &str, uri: &str, body: Option<&str>) -> (StatusCode, String) {
        let request = Request::builder()
            .method(method)
            .uri(uri)
            .header("content-type", "application/json")
            .body(body.map(|b| Body::from(b.to_string())).unwrap_or_else(Body::empty))
            .unwrap();
        let response = self.app.clone().oneshot(request).await.unwrap();
        let status = response.status();
        let bytes = response.into_body().collect().await.unwrap().to_bytes();
        (status, String::from_utf8(bytes.to_vec()).unwrap())
    }

    /// A GET: the reply's status, Content-Type and body text.
    pub async fn get_typed(&self, uri: &str) -> (StatusCode, String, String) {
        let request = Request::get(uri).body(Body::empty()).unwrap();
        let response = self.app.clone().oneshot(request).await.unwrap();
        let status = response.status();
        let content_type =
            response.headers().get("content-type").map(|v| v.to_str().unwrap().to_string()).unwrap_or_default();
        let bytes = response.into_body().collect().await.unwrap().to_bytes();
        (status, content_type, String::from_utf8(bytes.to_vec()).unwrap())
    }

    /// Send a request whose reply is JSON.
    pub async fn json(&self, method: &str, uri: &str, body: Option<Value>) -> (StatusCode, Value) {
        let body = body.map(|b| b.to_string());
        let (status, text) = self.send(method, uri, body.as_deref()).await;
        let value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{method} {uri}: not JSON ({e}): {text}"));
        (status, value)
    }

    /// Create a game; panics unless 201.
    pub async fn create(&self, body: Value) -> Value {
        let (status, game) = self.json("POST", "/api/games", Some(body.clone())).await;
        assert_eq!(status, StatusCode::CREATED, "creating {body}: {game}");
        game
    }

    /// Take an action; the status and reply.
    pub async fn act(&self, id: &str, token: &str, action: &str) -> (StatusCode, Value) {
        let body = serde_json::json!({ "token": token, "action": action });
        self.json("POST", &format!("/api/games/{id}/actions"), Some(body)).await
    }

    /// The view for a token (or a spectator's for None); panics unless 200.
    pub async fn view(&self, id: &str, token: Option<&str>) -> Value {
        let uri = match token {
            Some(t) => format!("/api/games/{id}/view?token={t}"),
            None => format!("/api/games/{id}/view"),
        };
        let (status, view) = self.json("GET", &uri, None).await;
        assert_eq!(status, StatusCode::OK, "{uri}: {view}");
        view
    }

    pub async fn version(&self, id: &str) -> u64 {
        let (status, summary) = self.json("GET", &format!("/api/games/{id}"), None).await;
        assert_eq!(status, StatusCode::OK);
        summary["version"].as_u64().unwrap()
    }

    /// Wait until the game reaches `version` (computer seats move on their own).
    pub async fn wait_for_version(&self, id: &str, version: u64) {
        for _ in 0..500 {
            if self.version(id).await >= version {
                return;
            }
            tokio::time::sleep(std::time::Duration::from_millis(10)).await;
        }
        panic!("game {id} never reached version {version}");
    }
}

/// The token of seat `seat` in a create reply.
pub fn token(game: &Value, seat: usize) -> String {
    game["seats"][seat]["token"].as_str().unwrap().to_string()
}

pub fn id(game: &Value) -> String {
    game["id"].as_str().unwrap().to_string()
}

/// The stored actions of a game, read from the database file beside the server.
pub fn stored_actions(db: &Path, id: &str) -> Vec<(usize, String)> {
    let games = chesskit_server::store::read_games(db).unwrap();
    let game = games.iter().find(|g| g.id == id).unwrap_or_else(|| panic!("game {id} is not stored"));
    game.record.actions.iter().map(|a| (a.seat, a.action.clone())).collect()
}

/// The record of a chess game (seed 5) after White's 1. e4: a stored
/// game for the tests that write the database themselves.
pub fn chess_after_e4() -> chesskit_core::GameRecord {
    chesskit_core::GameRecord {
        variant: "chess".into(),
        options: chesskit_core::Options::new(),
        seed: 5,
        position: None,
        actions: vec![chesskit_core::ActionRecord::new(0, "e2e4")],
    }
}
