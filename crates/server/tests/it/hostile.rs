//! Hostile clients, on loopback: each attack a stranger could make on a
//! server exposed with `--host 0.0.0.0`, and the bound the server holds
//! against it (docs/deploy.md, "Limits"). Every test is bounded in
//! connections and requests; its waits are the server's own timeouts,
//! set short here, with a generous ceiling that fails the test rather
//! than hang it.

use std::net::SocketAddr;
use std::time::Duration;

use chesskit_server::{AppState, Limits, Rate};
use serde_json::{json, Value};
use tempfile::TempDir;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// A server on a loopback port with `limits`.
struct Served {
    address: SocketAddr,
    _dir: TempDir,
}

async fn serve(limits: Limits) -> Served {
    let dir = tempfile::tempdir().unwrap();
    let state = AppState::open(&dir.path().join("chesskit.db"), dir.path().join("no-client"))
        .await
        .unwrap()
        .with_limits(limits);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(chesskit_server::serve_listener(listener, state, std::future::pending()));
    Served { address, _dir: dir }
}

/// The longest any test waits for the server before it fails.
const CEILING: Duration = Duration::from_secs(20);

/// The header timeout of the tests that wait for it: short, so that the
/// suite does not idle, and still far above the microseconds a whole
/// request on loopback takes to arrive.
const HEADER_TIMEOUT: Duration = Duration::from_millis(300);

/// These limits with refusals answered at once: the tests of a rate check
/// the refusal, not its delay (one test checks that,
/// `a_request_answered_429_waits_for_its_answer_and_its_connection_still_counts`),
/// and the default delay of a second would only make them wait.
fn refused_at_once(limits: Limits) -> Limits {
    Limits { refusal_delay: Duration::ZERO, ..limits }
}

/// One request on a fresh connection: the status, the Retry-After header
/// if any, and the body.
async fn request(address: SocketAddr, method: &str, path: &str, body: Option<Value>) -> (u16, Option<String>, String) {
    let mut stream = TcpStream::connect(address).await.unwrap();
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\
         Connection: close\r\n\r\n",
        body.len()
    );
    stream.write_all(format!("{head}{body}").as_bytes()).await.unwrap();
    let mut reply = String::new();
    tokio::time::timeout(CEILING, stream.read_to_string(&mut reply)).await.expect("a reply").unwrap();
    parse_reply(&reply)
}

fn parse_reply(reply: &str) -> (u16, Option<String>, String) {
    let (head, body) = reply.split_once("\r\n\r\n").unwrap_or((reply, ""));
    let status = head.split(' ').nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    let retry = head
        .lines()
        .find_map(|line| line.to_ascii_lowercase().strip_prefix("retry-after:").map(|v| v.trim().to_string()));
    (status, retry, body.to_string())
}

/// Read until the server closes the connection; what it sent.
async fn until_closed(stream: &mut TcpStream) -> String {
    let mut sent = Vec::new();
    tokio::time::timeout(CEILING, stream.read_to_end(&mut sent)).await.expect("the server closes the connection").ok();
    String::from_utf8_lossy(&sent).into_owned()
}

#[tokio::test]
async fn half_sent_headers_are_cut_off_after_the_header_timeout() {
    let served = serve(Limits { header_timeout: HEADER_TIMEOUT, ..Limits::default() }).await;
    let mut slow = Vec::new();
    for _ in 0..20 {
        let mut stream = TcpStream::connect(served.address).await.unwrap();
        stream.write_all(b"GET /api/variants HTTP/1.1\r\nHost: x\r\n").await.unwrap();
        slow.push(stream);
    }
    for stream in &mut slow {
        until_closed(stream).await;
    }
    let (status, _, _) = request(served.address, "GET", "/api/variants", None).await;
    assert_eq!(status, 200, "the server still answers");
}

#[tokio::test]
async fn an_idle_kept_alive_connection_is_closed() {
    let served = serve(Limits { header_timeout: HEADER_TIMEOUT, ..Limits::default() }).await;
    let mut stream = TcpStream::connect(served.address).await.unwrap();
    stream.write_all(b"GET /api/variants HTTP/1.1\r\nHost: x\r\n\r\n").await.unwrap();
    // The response comes, then the connection idles past the timeout and is closed.
    let sent = until_closed(&mut stream).await;
    assert!(sent.starts_with("HTTP/1.1 200"), "{}", &sent[..sent.len().min(200)]);
}

#[tokio::test]
async fn one_address_holds_only_so_many_connections() {
    let limits = refused_at_once(Limits {
        connections_per_address: 4,
        header_timeout: Duration::from_secs(30),
        ..Limits::default()
    });
    let served = serve(limits).await;
    let mut held = Vec::new();
    for _ in 0..4 {
        let mut stream = TcpStream::connect(served.address).await.unwrap();
        // A whole request on a kept-alive connection proves it was admitted.
        stream.write_all(b"GET /api/variants HTTP/1.1\r\nHost: x\r\n\r\n").await.unwrap();
        let mut first = [0u8; 12];
        stream.read_exact(&mut first).await.unwrap();
        assert_eq!(&first, b"HTTP/1.1 200");
        held.push(stream);
    }
    let mut extra = TcpStream::connect(served.address).await.unwrap();
    let refused = until_closed(&mut extra).await;
    let (status, retry, body) = parse_reply(&refused);
    assert_eq!(status, 429, "{refused}");
    assert_eq!(retry.as_deref(), Some("10"));
    assert!(body.contains("at most 4 from one address"), "{body}");
    drop(held);
    // The places free when the connections close.
    for _ in 0..100 {
        if request(served.address, "GET", "/api/variants", None).await.0 == 200 {
            return;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("closed connections never freed their places");
}

#[tokio::test]
async fn games_created_past_the_rate_get_429_with_retry_after() {
    let served = serve(refused_at_once(Limits { games_created: Rate::per_minute(3), ..Limits::default() })).await;
    let new_game = || request(served.address, "POST", "/api/games", Some(json!({"variant": "chess"})));
    for _ in 0..3 {
        assert_eq!(new_game().await.0, 201);
    }
    let (status, retry, body) = new_game().await;
    assert_eq!(status, 429, "{body}");
    let retry: u64 = retry.expect("Retry-After").parse().unwrap();
    assert!((1..=20).contains(&retry), "one game grows back in 20 s: {retry}");
    assert!(body.contains("at most 3 new games a minute"), "{body}");
}

#[tokio::test]
async fn a_request_answered_429_waits_for_its_answer_and_its_connection_still_counts() {
    let delay = Duration::from_secs(1);
    let limits = Limits {
        games_created: Rate::per_minute(1),
        connections_per_address: 1,
        refusal_delay: delay,
        ..Limits::default()
    };
    let served = serve(limits).await;
    assert_eq!(request(served.address, "POST", "/api/games", Some(json!({"variant": "chess"}))).await.0, 201);
    let mut asking = TcpStream::connect(served.address).await.unwrap();
    let body = json!({"variant": "chess"}).to_string();
    let head =
        format!("POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Length: {}\r\nConnection: close\r\n\r\n", body.len());
    let asked = std::time::Instant::now();
    asking.write_all(format!("{head}{body}").as_bytes()).await.unwrap();
    // While its refusal waits, the connection holds the address's one place.
    let mut another = TcpStream::connect(served.address).await.unwrap();
    let (status, _, body) = parse_reply(&until_closed(&mut another).await);
    assert_eq!(status, 429, "{body}");
    assert!(body.contains("at most 1 from one address"), "{body}");
    let (status, retry, body) = parse_reply(&until_closed(&mut asking).await);
    assert_eq!(status, 429, "{body}");
    assert!(body.contains("new games a minute"), "{body}");
    assert!(retry.is_some(), "Retry-After says when");
    assert!(asked.elapsed() >= delay, "the refusal came after {:?}, before the delay of {delay:?}", asked.elapsed());
}

async fn new_game(address: SocketAddr) -> (String, String) {
    let (status, _, body) = request(address, "POST", "/api/games", Some(json!({"variant": "chess"}))).await;
    assert_eq!(status, 201, "{body}");
    let game: Value = serde_json::from_str(&body).unwrap();
    (game["id"].as_str().unwrap().to_string(), game["seats"][0]["token"].as_str().unwrap().to_string())
}

#[tokio::test]
async fn chat_past_the_rate_gets_429_and_is_not_recorded() {
    let limits = refused_at_once(Limits { chat: [Rate::per_second(2), Rate::per_minute(2)], ..Limits::default() });
    let served = serve(limits).await;
    let (id, token) = new_game(served.address).await;
    let path = format!("/api/games/{id}/actions");
    let say = |text: &str| {
        let body = json!({"token": token, "action": format!("say {text}")});
        request(served.address, "POST", &path, Some(body))
    };
    assert_eq!(say("one").await.0, 200);
    assert_eq!(say("two").await.0, 200);
    let (status, retry, body) = say("three").await;
    assert_eq!(status, 429, "{body}");
    assert!(retry.is_some(), "Retry-After is sent");
    let (_, _, view) = request(served.address, "GET", &format!("/api/games/{id}/view"), None).await;
    let view: Value = serde_json::from_str(&view).unwrap();
    assert_eq!(view["view"]["chat"].as_array().unwrap().len(), 2, "the refused line was not said");
    // A move is counted apart from talk.
    let body = json!({"token": token, "action": "e4"});
    assert_eq!(request(served.address, "POST", &format!("/api/games/{id}/actions"), Some(body)).await.0, 200);
}

#[tokio::test]
async fn actions_past_the_rate_get_429() {
    let limits = refused_at_once(Limits { actions: [Rate::per_second(2), Rate::per_minute(100)], ..Limits::default() });
    let served = serve(limits).await;
    let (id, token) = new_game(served.address).await;
    let mut statuses = Vec::new();
    for _ in 0..3 {
        // Illegal or not, each is work the server must do, so each counts.
        let body = json!({"token": token, "action": "e5"});
        statuses.push(request(served.address, "POST", &format!("/api/games/{id}/actions"), Some(body)).await.0);
    }
    assert_eq!(statuses, [422, 422, 429]);
}

#[tokio::test]
async fn a_chat_line_that_turns_text_around_is_refused() {
    let served = serve(Limits::default()).await;
    let (id, token) = new_game(served.address).await;
    let body = json!({"token": token, "action": "say \u{202e}live"});
    let (status, _, reply) = request(served.address, "POST", &format!("/api/games/{id}/actions"), Some(body)).await;
    assert_eq!(status, 422, "{reply}");
    assert!(reply.contains("direction controls"), "{reply}");
}

#[tokio::test]
async fn a_silent_websocket_is_closed_after_its_idle_time() {
    let served = serve(Limits { socket_idle: Duration::from_secs(1), ..Limits::default() }).await;
    let (id, _) = new_game(served.address).await;
    // A client that opens a socket and then never reads or answers a ping.
    let mut stream = TcpStream::connect(served.address).await.unwrap();
    let upgrade = format!(
        "GET /api/games/{id}/ws HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\
         Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n"
    );
    stream.write_all(upgrade.as_bytes()).await.unwrap();
    let sent = until_closed(&mut stream).await;
    assert!(sent.starts_with("HTTP/1.1 101"), "{}", &sent[..sent.len().min(100)]);
    assert!(sent.contains("\"type\":\"view\""), "the socket worked before it went quiet");
    // The last frame is the close, with its reason.
    assert!(sent.ends_with("nothing heard for 1 s"), "{:?}", &sent[sent.len().saturating_sub(60)..]);
}

#[tokio::test]
async fn games_of_computers_alone_wait_for_a_place() {
    let served = serve(Limits { computer_games: 0, ..Limits::default() }).await;
    let create =
        |seats: Value| request(served.address, "POST", "/api/games", Some(json!({"variant": "chess", "seats": seats})));
    let (_, _, watched) = create(json!(["computer:random", "computer:random"])).await;
    let (_, _, versus) = create(json!(["computer:random", "human"])).await;
    let version = |body: &str| {
        let id = serde_json::from_str::<Value>(body).unwrap()["id"].as_str().unwrap().to_string();
        let address = served.address;
        async move {
            let (_, _, summary) = request(address, "GET", &format!("/api/games/{id}"), None).await;
            serde_json::from_str::<Value>(&summary).unwrap()["version"].as_u64().unwrap()
        }
    };
    for _ in 0..1000 {
        if version(&versus).await > 0 {
            assert_eq!(version(&watched).await, 0, "with no place free, the computers among themselves wait");
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("the computer facing a person never moved");
}

/// The resident memory of this process, in bytes.
fn resident_bytes() -> usize {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let kib = status.lines().find_map(|line| line.strip_prefix("VmRSS:")).map(|v| v.trim().trim_end_matches(" kB"));
    kib.and_then(|k| k.trim().parse::<usize>().ok()).unwrap_or(0) * 1024
}

#[tokio::test]
async fn changes_asked_since_every_version_are_not_all_kept() {
    use axum::body::Body;
    use axum::http::Request;
    use http_body_util::BodyExt;
    use tower::ServiceExt;
    let dir = tempfile::tempdir().unwrap();
    let state = AppState::open(&dir.path().join("chesskit.db"), dir.path().join("no-client")).await.unwrap();
    let app = chesskit_server::app(state);
    let call = |method: &str, uri: String, body: Option<Value>| {
        let request = Request::builder()
            .method(method)
            .uri(uri)
            .body(body.map(|b| Body::from(b.to_string())).unwrap_or_else(Body::empty))
            .unwrap();
        let app = app.clone();
        async move {
            let response = app.oneshot(request).await.unwrap();
            let bytes = response.into_body().collect().await.unwrap().to_bytes();
            serde_json::from_slice::<Value>(&bytes).unwrap()
        }
    };
    let game = call("POST", "/api/games".into(), Some(json!({"variant": "chess"}))).await;
    let (id, token) = (game["id"].as_str().unwrap(), game["seats"][0]["token"].as_str().unwrap());
    let lines = 1000;
    for i in 0..lines {
        let line = format!("say line {i} {}", "x".repeat(100));
        call("POST", format!("/api/games/{id}/actions?token={token}"), Some(json!({"action": line}))).await;
    }
    let before = resident_bytes();
    let mut sent = 0;
    for since in 0..lines {
        let change = call("GET", format!("/api/games/{id}/view?since={since}"), None).await;
        assert_eq!(change["view"]["chat"].as_array().unwrap().len(), lines - since, "the change since {since}");
        sent += change.to_string().len();
    }
    let kept = chesskit_server::cached_view_bytes();
    let grown = resident_bytes().saturating_sub(before);
    assert!(sent > 40 << 20, "the answers came to {sent} bytes");
    assert!(kept <= 2 * chesskit_server::CACHE_BYTES_PER_GAME, "views kept: {kept} bytes");
    assert!(grown < 32 << 20, "answers of {} MiB in all grew the process by {} MiB", sent >> 20, grown >> 20);
}

#[tokio::test]
async fn idle_games_leave_memory_and_come_back_when_asked_for() {
    let dir = tempfile::tempdir().unwrap();
    let state = AppState::open(&dir.path().join("chesskit.db"), dir.path().join("no-client"))
        .await
        .unwrap()
        .with_limits(Limits { idle_game: Duration::from_secs(1), ..Limits::default() });
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(chesskit_server::serve_listener(listener, state.clone(), std::future::pending()));
    // Each game is in memory when made: asked at once, not after all twenty
    // (on a loaded machine making twenty can take longer than the idle time,
    // and the first would have left already).
    let mut games = Vec::new();
    for _ in 0..20 {
        let (id, token) = new_game(address).await;
        assert!(state.game(&id).is_ok(), "a game just made is in memory");
        games.push((id, token));
    }
    let (id, token) = &games[7];
    let body = json!({"token": token, "action": "e4"});
    assert_eq!(request(address, "POST", &format!("/api/games/{id}/actions"), Some(body)).await.0, 200);
    assert!(state.game(id).is_ok(), "a game just played is in memory");
    let mut polls = 0;
    while state.game_count() > 0 {
        polls += 1;
        assert!(polls < 400, "games still in memory: {}", state.game_count());
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    // Asked for again, a game is read back from the store as it was.
    let (status, _, view) = request(address, "GET", &format!("/api/games/{id}/view?token={token}"), None).await;
    assert_eq!(status, 200, "{view}");
    let view: Value = serde_json::from_str(&view).unwrap();
    assert_eq!(view["version"], 1);
    assert_eq!(view["view"]["to_act"], json!([1]), "Black to move after 1.e4");
    assert_eq!(state.game_count(), 1);
    let (status, _, _) = request(address, "GET", "/api/games/no-such-game", None).await;
    assert_eq!(status, 404, "an unknown id is still unknown");
}

#[tokio::test]
async fn lobby_seats_taken_past_the_rate_get_429_and_the_seat_stays_free() {
    let served = serve(refused_at_once(Limits { seats_taken: Rate::per_minute(2), ..Limits::default() })).await;
    let mut games = Vec::new();
    for _ in 0..3 {
        let challenge = json!({"variant": "chess", "seats": ["human", "open"], "open": true, "name": "Ada"});
        let (status, _, body) = request(served.address, "POST", "/api/games", Some(challenge)).await;
        assert_eq!(status, 201, "{body}");
        games.push(serde_json::from_str::<Value>(&body).unwrap()["id"].as_str().unwrap().to_string());
    }
    let take = |g: &str| {
        let path = format!("/api/games/{g}/take");
        async move { request(served.address, "POST", &path, Some(json!({"seat": 1, "name": "Bob"}))).await }
    };
    assert_eq!(take(&games[0]).await.0, 200);
    assert_eq!(take(&games[1]).await.0, 200);
    let (status, retry, body) = take(&games[2]).await;
    assert_eq!(status, 429, "{body}");
    assert!(retry.is_some(), "Retry-After says when");
    assert!(body.contains("at most 2 seats taken a minute"), "{body}");
    let (_, _, listed) = request(served.address, "GET", "/api/challenges", None).await;
    assert!(listed.contains(&games[2]), "the refused take left the seat free: {listed}");
}
