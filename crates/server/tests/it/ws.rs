//! The WebSocket: a view for the connection's own viewer on connect, the
//! change since after every change, catching up after a gap or a
//! reconnection, actions through it, and its refusals.

use std::net::SocketAddr;
use std::time::Duration;

use crate::common::{id, token, TestServer};
use axum::http::StatusCode;
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::{self, Message};

use crate::common::socket::{next, Socket};

/// Serve the test server's app on a loopback port.
async fn listen(server: &TestServer) -> SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let app = server.app.clone();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    address
}

async fn connect(address: SocketAddr, id: &str, token: Option<&str>) -> Socket {
    let query = token.map(|t| format!("?token={t}")).unwrap_or_default();
    let (socket, _) =
        tokio_tungstenite::connect_async(format!("ws://{address}/api/games/{id}/ws{query}")).await.unwrap();
    socket
}

async fn send(socket: &mut Socket, message: Value) {
    socket.send(Message::text(message.to_string())).await.unwrap();
}

/// Read until a view or a change of at least `version` arrives (acks are
/// skipped); a fast series of changes may be told as one.
async fn view_at(socket: &mut Socket, version: u64) -> Value {
    loop {
        let message = next(socket).await;
        if message["type"] == "ack" {
            continue;
        }
        assert!(message["type"] == "view" || message["type"] == "change", "{message}");
        if message["version"].as_u64().unwrap() >= version {
            return message;
        }
    }
}

#[tokio::test]
async fn each_connection_gets_its_own_view_on_connect_and_after_each_change() {
    let server = TestServer::new().await;
    let address = listen(&server).await;
    let game = server.create(json!({"variant": "chess"})).await;
    let (id, white, black) = (id(&game), token(&game, 0), token(&game, 1));
    // Both have come before, so no seat's coming changes a view below.
    server.view(&id, Some(&white)).await;
    server.view(&id, Some(&black)).await;
    let mut sockets = vec![
        (connect(address, &id, Some(&white)).await, Some(white.clone())),
        (connect(address, &id, Some(&black)).await, Some(black.clone())),
        (connect(address, &id, None).await, None),
    ];
    for (socket, token) in &mut sockets {
        let message = next(socket).await;
        assert_eq!(message["type"], "view");
        assert_eq!(message["version"], 0);
        assert_eq!(message["view"], server.view(&id, token.as_deref()).await["view"]);
    }
    let (status, _) = server.act(&id, &white, "e4").await;
    assert_eq!(status, StatusCode::OK);
    for (socket, token) in &mut sockets {
        let message = next(socket).await;
        assert_eq!(message["type"], "change");
        assert_eq!((message["from"].clone(), message["version"].clone()), (json!(0), json!(1)));
        assert_eq!(message["view"]["log"], json!([{"seat": 0, "text": "e4", "at": 1}]), "only the new entry");
        let now = server.view(&id, token.as_deref()).await["view"].clone();
        let mut caught_up = message["view"].clone();
        caught_up["log"] = now["log"].clone();
        assert_eq!(caught_up, now, "all but the log is whole");
    }
}

/// The view held, caught up by a change: its log and chat lines appended.
fn catch_up(held: &Value, change: &Value) -> Value {
    let mut view = change.clone();
    for lines in ["log", "chat"] {
        let mut all = held.get(lines).and_then(Value::as_array).cloned().unwrap_or_default();
        all.extend(change.get(lines).and_then(Value::as_array).cloned().unwrap_or_default());
        if !all.is_empty() {
            view[lines] = Value::Array(all);
        }
    }
    view
}

/// A client that reconnects with the version it holds gets the change
/// since; one that finds a gap (a change from a version it does not hold)
/// asks to catch up from its own version and gets the change since that.
#[tokio::test]
async fn a_client_catches_up_from_the_version_it_holds() {
    let server = TestServer::new().await;
    let address = listen(&server).await;
    let game = server.create(json!({"variant": "chess"})).await;
    let (id, white, black) = (id(&game), token(&game, 0), token(&game, 1));
    server.view(&id, Some(&black)).await;
    let held = server.view(&id, Some(&white)).await;
    assert_eq!(held["version"], 0);
    for (seat, mv) in [(&white, "e4"), (&black, "e5"), (&white, "Nf3")] {
        assert_eq!(server.act(&id, seat, mv).await.0, StatusCode::OK);
    }
    let query = format!("{white}&since=1");
    let mut socket = connect(address, &id, Some(&query)).await;
    let first = next(&mut socket).await;
    assert_eq!(
        (first["type"].clone(), first["from"].clone(), first["version"].clone()),
        (json!("change"), json!(1), json!(3))
    );
    assert_eq!(first["view"]["log"], json!([{"seat": 1, "text": "e5", "at": 2}, {"seat": 0, "text": "Nf3", "at": 3}]));
    send(&mut socket, json!({"type": "sync", "version": 0})).await;
    let sync = next(&mut socket).await;
    assert_eq!(
        (sync["type"].clone(), sync["from"].clone(), sync["version"].clone()),
        (json!("change"), json!(0), json!(3))
    );
    let now = server.view(&id, Some(&white)).await;
    assert_eq!(catch_up(&held["view"], &sync["view"]), now["view"]);
    send(&mut socket, json!({"type": "sync", "version": 9})).await;
    let whole = next(&mut socket).await;
    assert_eq!(whole["type"], "view", "a version the game never had gets the whole view");
    assert_eq!(whole["view"], now["view"]);
    let (status, since) = server.json("GET", &format!("/api/games/{id}/view?token={white}&since=2"), None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(since["from"], 2);
    assert_eq!(since["view"]["log"], json!([{"seat": 0, "text": "Nf3", "at": 3}]));
}

/// A seat of a game with hidden information never finds in a change what
/// its whole view would not show: each change, caught up onto the view
/// held, is exactly the whole view (Masquerade: each side's own pieces).
#[tokio::test]
async fn a_change_holds_nothing_the_whole_view_would_not() {
    let server = TestServer::new().await;
    let address = listen(&server).await;
    let game = server.create(json!({"variant": "masquerade", "seed": 7})).await;
    let (id, tokens) = (id(&game), [token(&game, 0), token(&game, 1)]);
    let mut sockets = Vec::new();
    for t in &tokens {
        let mut socket = connect(address, &id, Some(t)).await;
        let first = next(&mut socket).await;
        sockets.push((socket, first["view"].clone()));
    }
    for _ in 0..6 {
        let to_act = server.view(&id, Some(&tokens[0])).await["view"]["to_act"][0].as_u64().unwrap() as usize;
        let view = server.view(&id, Some(&tokens[to_act])).await;
        let action = view["view"]["actions"][0]["text"].as_str().unwrap().to_string();
        assert_eq!(server.act(&id, &tokens[to_act], &action).await.0, StatusCode::OK);
        for (seat, (socket, held)) in sockets.iter_mut().enumerate() {
            let change = view_at(socket, 0).await;
            if change["type"] == "change" {
                *held = catch_up(held, &change["view"]);
            } else {
                *held = change["view"].clone();
            }
            let whole = server.view(&id, Some(&tokens[seat])).await;
            if whole["version"] == change["version"] {
                assert_eq!(*held, whole["view"], "seat {seat}");
            }
        }
    }
}

#[tokio::test]
async fn a_seat_acts_through_its_socket() {
    let server = TestServer::new().await;
    let address = listen(&server).await;
    let game = server.create(json!({"variant": "chess"})).await;
    let id = id(&game);
    // Both have come before, so no seat's coming sends White a view below.
    server.view(&id, Some(&token(&game, 0))).await;
    server.view(&id, Some(&token(&game, 1))).await;
    let mut white = connect(address, &id, Some(&token(&game, 0))).await;
    let mut black = connect(address, &id, Some(&token(&game, 1))).await;
    next(&mut white).await;
    next(&mut black).await;
    send(&mut white, json!({"type": "action", "action": "Nf3"})).await;
    let mut got = [next(&mut white).await, next(&mut white).await];
    got.sort_by_key(|m| m["type"].as_str().unwrap().to_string());
    assert_eq!(got[0], json!({"type": "ack", "action": "g1f3", "version": 1}));
    assert_eq!(got[1]["type"], "change");
    assert_eq!(got[1]["version"], 1);
    assert_eq!(view_at(&mut black, 1).await["view"]["to_act"], json!([1]));
    assert_eq!(crate::common::stored_actions(&server.db(), &id), vec![(0, "g1f3".to_string())]);
}

/// Table actions travel like moves: a draw offer reaches the other seat's
/// socket, its acceptance ends the game for both; a refused one is an error.
#[tokio::test]
async fn draw_offers_travel_through_the_sockets() {
    let server = TestServer::new().await;
    let address = listen(&server).await;
    let game = server.create(json!({"variant": "chess"})).await;
    let id = id(&game);
    let mut white = connect(address, &id, Some(&token(&game, 0))).await;
    let mut black = connect(address, &id, Some(&token(&game, 1))).await;
    next(&mut white).await;
    next(&mut black).await;
    send(&mut black, json!({"type": "action", "action": "accept draw"})).await;
    assert_eq!(
        next(&mut black).await,
        json!({"type": "error", "error": "illegal action \"accept draw\": no draw offer is open", "status": 422})
    );
    send(&mut white, json!({"type": "action", "action": "offer draw"})).await;
    let offered = view_at(&mut black, 1).await;
    assert_eq!(offered["view"]["draw_offer"], 0);
    assert_eq!(offered["view"]["session_actions"], json!(["resign", "accept draw", "decline draw"]));
    send(&mut black, json!({"type": "action", "action": "accept draw"})).await;
    let over = view_at(&mut white, 2).await;
    assert_eq!(over["view"]["outcome"], json!({"winners": [], "reason": "draw agreed"}));
    assert!(over["view"].get("session_actions").is_none(), "{over}");
}

/// While Black has not come, White may abort; when Black comes, White's
/// socket gets a view without "abort", at the same version.
#[tokio::test]
async fn a_seat_coming_takes_abort_away_from_the_waiting_seat() {
    let server = TestServer::new().await;
    let address = listen(&server).await;
    let game = server.create(json!({"variant": "chess"})).await;
    let id = id(&game);
    let mut white = connect(address, &id, Some(&token(&game, 0))).await;
    let first = next(&mut white).await;
    assert_eq!(first["view"]["session_actions"], json!(["resign", "offer draw", "abort"]));
    let _black = connect(address, &id, Some(&token(&game, 1))).await;
    let second = next(&mut white).await;
    assert_eq!(second["version"], 0);
    assert_eq!(second["view"]["session_actions"], json!(["resign", "offer draw"]));
}

#[tokio::test]
async fn socket_refusals_are_error_messages_and_change_nothing() {
    let server = TestServer::new().await;
    let address = listen(&server).await;
    let game = server.create(json!({"variant": "chess"})).await;
    let id = id(&game);
    let mut black = connect(address, &id, Some(&token(&game, 1))).await;
    let mut spectator = connect(address, &id, None).await;
    next(&mut black).await;
    next(&mut spectator).await;
    let cases = [
        (json!({"type": "action", "action": "e7e5"}), 409, "turn"),
        (json!({"type": "action"}), 400, "action"),
        (json!({"type": "resign"}), 400, "resign"),
        (json!({"action": "e7e5"}), 400, "type"),
    ];
    for (message, status, words) in cases {
        send(&mut black, message.clone()).await;
        let reply = next(&mut black).await;
        assert_eq!(reply["type"], "error", "{message}: {reply}");
        assert_eq!(reply["status"], status, "{message}: {reply}");
        assert!(reply["error"].as_str().unwrap().contains(words), "{message}: {reply}");
    }
    black.send(Message::text("not json")).await.unwrap();
    assert_eq!(next(&mut black).await["status"], 400);
    send(&mut spectator, json!({"type": "action", "action": "e2e4"})).await;
    let reply = next(&mut spectator).await;
    assert_eq!(reply["status"], 403, "{reply}");
    assert_eq!(server.version(&id).await, 0);
}

/// A message over 64 KiB cannot be read: the server says so in its close
/// frame, and the game is unchanged.
#[tokio::test]
async fn an_oversized_message_closes_the_socket_with_a_reason() {
    let server = TestServer::new().await;
    let address = listen(&server).await;
    let game = server.create(json!({"variant": "chess"})).await;
    let id = id(&game);
    let mut white = connect(address, &id, Some(&token(&game, 0))).await;
    next(&mut white).await;
    let huge = "x".repeat(100 * 1024);
    let _ = white.send(Message::text(json!({"type": "action", "action": huge}).to_string())).await;
    let close = loop {
        let message = tokio::time::timeout(Duration::from_secs(5), white.next()).await.expect("an answer within 5 s");
        match message {
            Some(Ok(Message::Close(frame))) => break frame,
            Some(Ok(Message::Ping(_) | Message::Pong(_))) => continue,
            other => panic!("expected a close frame, got {other:?}"),
        }
    };
    let frame = close.expect("a close frame with a code and reason");
    assert_eq!(u16::from(frame.code), 1008);
    assert!(frame.reason.contains("unreadable message"), "{}", frame.reason);
    assert_eq!(server.version(&id).await, 0);
}

#[tokio::test]
async fn a_wrong_token_or_game_is_refused_before_the_upgrade() {
    let server = TestServer::new().await;
    let address = listen(&server).await;
    let game = server.create(json!({"variant": "chess"})).await;
    let id = id(&game);
    let refused = |url: String| async move {
        match tokio_tungstenite::connect_async(url).await {
            Err(tungstenite::Error::Http(response)) => response.status().as_u16(),
            other => panic!("expected a refusal, got {:?}", other.map(|(_, r)| r.status())),
        }
    };
    assert_eq!(refused(format!("ws://{address}/api/games/{id}/ws?token=guess")).await, 403);
    assert_eq!(refused(format!("ws://{address}/api/games/nosuchgame/ws")).await, 404);
    // A plain GET, not an upgrade.
    let (status, reply) = server.json("GET", &format!("/api/games/{id}/ws"), None).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(reply["error"].as_str().unwrap().contains("WebSocket"), "{reply}");
}

#[tokio::test]
async fn the_computers_answer_arrives_by_socket() {
    let server = TestServer::new().await;
    let address = listen(&server).await;
    let game = server.create(json!({"variant": "chess", "seats": ["human", "computer:level1"]})).await;
    let id = id(&game);
    let mut white = connect(address, &id, Some(&token(&game, 0))).await;
    next(&mut white).await;
    send(&mut white, json!({"type": "action", "action": "d4"})).await;
    let view = view_at(&mut white, 2).await;
    assert_eq!(view["view"]["to_act"], json!([0]));
    // The change is told from the version last sent, which depends on how
    // fast the computer answered: one log line per action since then.
    let from = view["from"].as_u64().unwrap_or(0);
    assert_eq!(view["view"]["log"].as_array().unwrap().len() as u64, 2 - from, "{view}");
}

#[tokio::test]
async fn connecting_with_a_seats_token_joins_the_seat() {
    let server = TestServer::new().await;
    let address = listen(&server).await;
    let game = server.create(json!({"variant": "chess", "seats": ["human", "open"]})).await;
    let id = id(&game);
    let seats = || async {
        let (_, summary) = server.json("GET", &format!("/api/games/{id}"), None).await;
        summary["seats"].as_array().unwrap().iter().map(|s| s["joined"].clone()).collect::<Vec<_>>()
    };
    let mut spectator = connect(address, &id, None).await;
    next(&mut spectator).await;
    assert_eq!(seats().await, [json!(false), json!(false)], "a spectator joins no seat");
    let mut black = connect(address, &id, Some(&token(&game, 1))).await;
    next(&mut black).await;
    assert_eq!(seats().await, [json!(false), json!(true)]);
}
