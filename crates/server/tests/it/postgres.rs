//! Two servers on one PostgreSQL database (docs/deploy.md), in this
//! process: a WebSocket on either server gets the same messages for every
//! change, whichever server took the action; actions sent to the server
//! that does not own the game (HTTP or WebSocket) are forwarded to the one
//! that does; computers play only on the owner; a game of computers goes on
//! on another server when its owner loses its database session. (The
//! SIGKILL of an owner and the takeover by an action:
//! crates/cli/tests/it/server_postgres.rs.)
//!
//! PostgreSQL is started by the test from Debian's package
//! (common/postgres.rs): without it the tests are skipped, saying so,
//! except under CI=true, where they fail.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use crate::common::postgres;
use crate::common::{id, token};
use axum::body::Body;
use axum::http::{Request, StatusCode};
use chesskit_server::store::Database;
use chesskit_server::{app, AppState};
use futures_util::SinkExt;
use http_body_util::BodyExt;
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::Message;
use tower::ServiceExt;

use crate::common::socket::{next, Socket};

/// A server on `url`, listening on a loopback port it advertises.
struct Server {
    address: SocketAddr,
    state: AppState,
}

impl Server {
    async fn start(url: &str) -> Server {
        Server::paced(url, Duration::ZERO).await
    }

    /// A server whose computers wait `pace` before each action when only computers play.
    async fn paced(url: &str, pace: Duration) -> Server {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = listener.local_addr().unwrap();
        let state = AppState::open_database(
            &Database::Postgres(url.to_string()),
            PathBuf::from("no-client"),
            pace,
            &format!("http://{address}"),
        )
        .await
        .unwrap();
        let served = app(state.clone());
        tokio::spawn(async move { axum::serve(listener, served).await.unwrap() });
        Server { address, state }
    }

    /// A request with extra `headers`: the status and the JSON reply.
    async fn request(
        &self,
        method: &str,
        uri: &str,
        body: Option<Value>,
        headers: &[(&str, &str)],
    ) -> (StatusCode, Value) {
        let mut request = Request::builder().method(method).uri(uri).header("content-type", "application/json");
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        let body = body.map(|b| Body::from(b.to_string())).unwrap_or_else(Body::empty);
        let response = app(self.state.clone()).oneshot(request.body(body).unwrap()).await.unwrap();
        let status = response.status();
        let bytes = response.into_body().collect().await.unwrap().to_bytes();
        (status, serde_json::from_slice(&bytes).unwrap())
    }

    async fn act(&self, id: &str, token: &str, action: &str) -> (StatusCode, Value) {
        self.request("POST", &format!("/api/games/{id}/actions"), Some(json!({"token": token, "action": action})), &[])
            .await
    }

    /// `wanted` if it is among the actions `token`'s view offers now, or else the first one offered.
    async fn legal_choice(&self, id: &str, token: &str, wanted: &str) -> String {
        let (status, reply) = self.request("GET", &format!("/api/games/{id}/view?token={token}"), None, &[]).await;
        assert_eq!(status, StatusCode::OK, "{reply}");
        let offered: Vec<&str> =
            reply["view"]["actions"].as_array().unwrap().iter().filter_map(|a| a["text"].as_str()).collect();
        let choice = offered.iter().find(|&&a| a == wanted).or(offered.first());
        choice.expect("White has a legal move").to_string()
    }

    async fn version(&self, id: &str) -> u64 {
        let (status, summary) = self.request("GET", &format!("/api/games/{id}"), None, &[]).await;
        assert_eq!(status, StatusCode::OK, "{summary}");
        summary["version"].as_u64().unwrap()
    }

    async fn connect(&self, id: &str, token: Option<&str>) -> Socket {
        let query = token.map(|t| format!("?token={t}")).unwrap_or_default();
        let url = format!("ws://{}/api/games/{id}/ws{query}", self.address);
        tokio_tungstenite::connect_async(url).await.unwrap().0
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sockets_on_either_server_hear_every_change_and_actions_reach_the_owner() {
    let Some(pg) = postgres::start() else { return };
    let (a, b) = (Server::start(&pg.url).await, Server::start(&pg.url).await);
    let (status, game) = a.request("POST", "/api/games", Some(json!({"variant": "chess"})), &[]).await;
    assert_eq!(status, StatusCode::CREATED, "{game}");
    let (g, white, black) = (id(&game), token(&game, 0), token(&game, 1));

    // Black watches on both servers, a spectator on the one that does not own the game.
    let mut black_a = a.connect(&g, Some(&black)).await;
    let mut black_b = b.connect(&g, Some(&black)).await;
    let mut spectator_b = b.connect(&g, None).await;
    let first = next(&mut black_a).await;
    assert_eq!(first["type"], "view");
    assert_eq!(next(&mut black_b).await, first, "the same first view from either server");
    assert_eq!(next(&mut spectator_b).await["version"], 0);

    // White acts on the owner: the other server's sockets hear of it through NOTIFY.
    assert_eq!(a.act(&g, &white, "e4").await.0, StatusCode::OK);
    let change = next(&mut black_a).await;
    assert_eq!(
        (change["type"].as_str(), change["from"].as_u64(), change["version"].as_u64()),
        (Some("change"), Some(0), Some(1))
    );
    assert_eq!(next(&mut black_b).await, change, "the same change from either server");
    assert_eq!(next(&mut spectator_b).await["version"], 1);

    // Black acts through its socket on the other server: forwarded to the owner.
    black_b.send(Message::text(json!({"type": "action", "action": "e5"}).to_string())).await.unwrap();
    assert_eq!(next(&mut black_b).await, json!({"type": "ack", "action": "e7e5", "version": 2}));
    let change = next(&mut black_b).await;
    assert_eq!((change["type"].as_str(), change["version"].as_u64()), (Some("change"), Some(2)));
    assert_eq!(next(&mut black_a).await, change, "the owner's socket got the same change");
    assert_eq!(next(&mut spectator_b).await["version"], 2);
    assert_eq!(a.version(&g).await, 2);

    // White acts over HTTP on the other server: forwarded; the reply's view is the one the owner would give.
    let (status, reply) = b.act(&g, &white, "Nf3").await;
    assert_eq!(status, StatusCode::OK, "{reply}");
    assert_eq!((reply["action"].as_str(), reply["version"].as_u64()), (Some("g1f3"), Some(3)));
    let owner_view = a.request("GET", &format!("/api/games/{g}/view?token={white}"), None, &[]).await.1;
    assert_eq!(reply["view"], owner_view["view"]);
    // The owner's refusal comes back as it was given, and changes nothing.
    let (status, reply) = b.act(&g, &white, "e4e5").await;
    assert_eq!(status, StatusCode::CONFLICT, "not White's turn: {reply}");
    assert!(reply["error"].as_str().unwrap().contains("turn"), "{reply}");
    assert_eq!((a.version(&g).await, b.version(&g).await), (3, 3));

    // An action forwarded to a server that does not own the game is not forwarded again.
    let forwarded = [("x-chesskit-forwarded", "1")];
    let body = json!({"token": black, "action": "Nc6"});
    let (status, reply) = b.request("POST", &format!("/api/games/{g}/actions"), Some(body), &forwarded).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{reply}");
    assert_eq!(a.version(&g).await, 3);

    // A game nobody stored is still missing on both.
    assert_eq!(b.request("GET", "/api/games/nosuchgame", None, &[]).await.0, StatusCode::NOT_FOUND);
    drop((a, b));
    drop(pg);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn computers_play_on_the_owner_only() {
    let Some(pg) = postgres::start() else { return };
    let (a, b) = (Server::start(&pg.url).await, Server::start(&pg.url).await);
    let body = json!({"variant": "chess", "seats": ["human", "computer:level1"]});
    let (status, game) = a.request("POST", "/api/games", Some(body), &[]).await;
    assert_eq!(status, StatusCode::CREATED, "{game}");
    let (g, white) = (id(&game), token(&game, 0));
    for (n, wanted) in ["e2e4", "d2d4", "g1f3"].into_iter().enumerate() {
        // White plays on the server that does not own the game; the computer answers on the owner.
        let version = 2 * n as u64;
        for _ in 0..500 {
            if b.version(&g).await == version {
                break;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        assert_eq!(b.version(&g).await, version, "the other server heard the computer's move");
        // The computer's reply may rule the wanted move out (2...Bb4+ does g1f3): then any legal one.
        let action = b.legal_choice(&g, &white, wanted).await;
        let (status, reply) = b.act(&g, &white, &action).await;
        assert_eq!(status, StatusCode::OK, "{action}: {reply}");
    }
    for _ in 0..500 {
        if b.version(&g).await == 6 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert_eq!((a.version(&g).await, b.version(&g).await), (6, 6), "one computer move per White move");
    let log = b.request("GET", &format!("/api/games/{g}/export"), None, &[]).await.1;
    let seats: Vec<u64> = log["actions"].as_array().unwrap().iter().map(|a| a["seat"].as_u64().unwrap()).collect();
    assert_eq!(seats, [0, 1, 0, 1, 0, 1]);
    drop((a, b));
    drop(pg);
}

/// Wait until `server`'s copy of game `id` holds `version` actions or more; its version then.
async fn wait_for(server: &Server, id: &str, version: u64) -> u64 {
    for _ in 0..1000 {
        let now = server.version(id).await;
        if now >= version {
            return now;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("game {id} never reached version {version} on {}", server.address);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_of_computers_goes_on_elsewhere_when_its_owner_is_gone() {
    let Some(pg) = postgres::start() else { return };
    let a = Server::paced(&pg.url, Duration::from_millis(100)).await;
    let b = Server::start(&pg.url).await;
    let body = json!({"variant": "chess", "seats": ["computer:level1", "computer:level1"]});
    let (status, game) = a.request("POST", "/api/games", Some(body), &[]).await;
    assert_eq!(status, StatusCode::CREATED, "{game}");
    let g = id(&game);
    // The other server is asked about the game, so it holds a copy, which follows the owner's moves.
    wait_for(&b, &g, 2).await;

    // The owner's session ends (as when its process dies): its lock is released and it can store nothing more.
    let (client, connection) = tokio_postgres::connect(&pg.url, tokio_postgres::NoTls).await.unwrap();
    tokio::spawn(connection);
    let advertised = format!("http://{}", a.address);
    let ended = client
        .query_one("SELECT count(pg_terminate_backend(pid)) FROM chesskit_servers WHERE url = $1", &[&advertised])
        .await
        .unwrap();
    assert_eq!(ended.get::<_, i64>(0), 1);
    let before = b.version(&g).await;
    let summary = b.request("GET", &format!("/api/games/{g}"), None, &[]).await.1;
    if summary["over"] == false {
        // Nobody acts: the other server takes the game over by itself and its computers play on.
        let after = wait_for(&b, &g, before + 4).await;
        assert!(after >= before + 4);
    }
    // Whatever the old owner still tried was not stored: the log a fresh server reads is the survivor's.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let c = Server::start(&pg.url).await;
    let survivor = b.request("GET", &format!("/api/games/{g}/export"), None, &[]).await.1;
    let stored = c.request("GET", &format!("/api/games/{g}/export"), None, &[]).await.1;
    let length = |log: &Value| log["actions"].as_array().unwrap().len();
    assert!(length(&stored) >= length(&survivor), "{stored} {survivor}");
    assert_eq!(stored["actions"].as_array().unwrap()[..length(&survivor)], survivor["actions"].as_array().unwrap()[..]);
    drop((a, b, c));
    drop(pg);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_referees_finding_is_stored_and_read_by_the_other_server() {
    // Issue 24: what the Chess Golf referee's search concluded is stored
    // with the action, so that another server's copy takes it instead of
    // searching again. A one-player round on the rules' opening example,
    // dealt the white king and the black bishop: solved in 3.
    let Some(pg) = postgres::start() else { return };
    let (a, b) = (Server::start(&pg.url).await, Server::start(&pg.url).await);
    let board = ". . B . . . R .\n. . . . . k . .\n. r . n . N . .\n. r . . b . . .\n\
                 R . . . . . q .\n. B . n . N . .\nb . . . . . . K\n. . . . . Q . .\n";
    let keys = "players: 1\nholes: 9\nmax cards: 6\nhole: 1\ndealer: 0\ncards: 2\n\
                deck: ks qs qh 10s 10h 10c 10d 9h 9c 9d 8s 8h 8c 8d\ndiscard:\ndeal: kh 9s\ncounts: -\nphase: counting\n";
    let body = json!({"variant": "golf", "options": {"players": 1}, "position": format!("{board}{keys}")});
    let (status, game) = a.request("POST", "/api/games", Some(body), &[]).await;
    assert_eq!(status, StatusCode::CREATED, "{game}");
    let g = id(&game);
    assert_eq!(a.act(&g, &token(&game, 0), "impossible").await.0, StatusCode::OK);
    assert_eq!(wait_for(&b, &g, 1).await, 1);
    let stored = first_finding(&a, &g).await.expect("the settling action has a finding");
    assert!(stored.starts_with("solved ") && stored.split_whitespace().count() == 4, "{stored}");
    assert_eq!(first_finding(&b, &g).await, Some(stored), "the other server's copy read it from the store");
}

/// The referee's finding stored with game `id`'s first action, in `server`'s copy.
async fn first_finding(server: &Server, id: &str) -> Option<String> {
    let entry = server.state.game(id).unwrap();
    let live = entry.live.lock().await;
    live.game().record().actions[0].found.clone()
}

/// A forward goes where the owner was last found, without asking the
/// database again; when that process no longer owns the game, it refuses
/// the forward and the sender asks the database and tries the owner.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_forward_to_a_process_that_no_longer_owns_the_game_finds_the_owner_again() {
    let Some(pg) = postgres::start() else { return };
    let (a, b, c) = (Server::start(&pg.url).await, Server::start(&pg.url).await, Server::start(&pg.url).await);
    let (status, game) = a.request("POST", "/api/games", Some(json!({"variant": "chess"})), &[]).await;
    assert_eq!(status, StatusCode::CREATED, "{game}");
    let (g, white, black) = (id(&game), token(&game, 0), token(&game, 1));
    let hint = |server: &Server| server.state.game(&g).unwrap().owner_hint.lock().unwrap().clone();

    assert_eq!(b.act(&g, &white, "e4").await.0, StatusCode::OK);
    assert_eq!(hint(&b), Some(format!("http://{}", a.address)), "the owner found is remembered");

    // A stale memory: c never owned the game, as a process that let it go.
    c.request("GET", &format!("/api/games/{g}"), None, &[]).await;
    *b.state.game(&g).unwrap().owner_hint.lock().unwrap() = Some(format!("http://{}", c.address));
    let (status, reply) = b.act(&g, &black, "e5").await;
    assert_eq!(status, StatusCode::OK, "{reply}");
    assert_eq!(reply["version"], 2);
    assert_eq!(hint(&b), Some(format!("http://{}", a.address)), "the owner is found again");
    assert_eq!(a.version(&g).await, 2);
    drop((a, b, c));
    drop(pg);
}

/// The lobby on two servers (docs/api.md, "The lobby"): either lists a
/// challenge made on the other, the store gives a seat to one taker only
/// whichever server each asked, and a seat is filled with a computer by
/// the server that plays the game.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn either_server_lists_the_lobby_and_a_seat_goes_to_one_taker_only() {
    let Some(pg) = postgres::start() else { return };
    let (a, b) = (Server::start(&pg.url).await, Server::start(&pg.url).await);
    let challenge = json!({"variant": "chess", "seats": ["human", "open"], "open": true, "name": "Ada"});
    let (status, game) = a.request("POST", "/api/games", Some(challenge.clone()), &[]).await;
    assert_eq!(status, StatusCode::CREATED, "{game}");
    let g = id(&game);

    let (status, listed) = b.request("GET", "/api/challenges", None, &[]).await;
    assert_eq!(status, StatusCode::OK, "{listed}");
    let found = listed.as_array().unwrap().iter().find(|c| c["id"] == g).cloned().expect("listed on the other server");
    assert_eq!(found["creator"], "Ada");
    assert_eq!(found["seats"][1]["name"], "Black");

    let take = json!({"seat": 1, "name": "Bob"});
    let (status, taken) = b.request("POST", &format!("/api/games/{g}/take"), Some(take), &[]).await;
    assert_eq!(status, StatusCode::OK, "{taken}");
    let again = json!({"seat": 1, "name": "Cleo"});
    let (status, refused) = a.request("POST", &format!("/api/games/{g}/take"), Some(again), &[]).await;
    assert_eq!(status, StatusCode::CONFLICT, "{refused}");
    assert!(refused["error"].as_str().unwrap().contains("Bob plays it"), "{refused}");
    let (_, live) = a.request("GET", "/api/live", None, &[]).await;
    let found = live.as_array().unwrap().iter().find(|c| c["id"] == g).cloned().expect("live on either server");
    assert_eq!(found["seats"][1]["player"], "Bob");

    let (_, game) = a.request("POST", "/api/games", Some(challenge), &[]).await;
    let (g, white) = (id(&game), token(&game, 0));
    let fill = json!({"token": white, "seat": 1, "level": "level1"});
    let (status, reply) = b.request("POST", &format!("/api/games/{g}/fill"), Some(fill.clone()), &[]).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "the owner plays the computers: {reply}");
    let (status, reply) = a.request("POST", &format!("/api/games/{g}/fill"), Some(fill), &[]).await;
    assert_eq!(status, StatusCode::OK, "{reply}");
    assert_eq!(a.act(&g, &white, "e4").await.0, StatusCode::OK);
    wait_for(&a, &g, 2).await;
    drop((a, b));
    drop(pg);
}
