//! Two `chesskit serve` processes on one PostgreSQL database (docs/deploy.md):
//! a game is played with one player on each, the process that owns the
//! game is killed with SIGKILL mid-game, and the game is finished on the
//! other, which takes it over from the stored log with every acknowledged
//! action there.
//!
//! PostgreSQL is started by the test itself from Debian's package (see
//! crates/server/tests/it/common/postgres.rs); without it the test is
//! skipped, saying so, except under CI=true, where it fails.

#[path = "../../../server/tests/it/common/postgres.rs"]
mod postgres;

use std::io::{BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

use chesskit_core::GameRng;
use serde_json::{json, Value};

/// A running `chesskit serve` and the port it chose.
struct Server {
    child: Child,
    port: u16,
    _stdout: BufReader<ChildStdout>,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn start(url: &str) -> Server {
    let mut child = Command::new(env!("CARGO_BIN_EXE_chesskit"))
        .args(["serve", "--port", "0", "--web", "no-client", "--db", url])
        // The test acts faster than a person may (docs/deploy.md, "Limits").
        .args(["--actions-per-second", "10000", "--actions-per-minute", "100000", "--games-per-minute", "100000"])
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let (port, line) = crate::common::port_announced(&mut stdout);
    assert!(line.contains("postgres://chesskit@127.0.0.1"), "{line}");
    Server { child, port, _stdout: stdout }
}

/// One HTTP/1.1 request on a fresh connection: the status and JSON body.
fn http(port: u16, method: &str, path: &str, body: Option<Value>) -> (u16, Value) {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
    stream.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut reply = String::new();
    stream.read_to_string(&mut reply).unwrap();
    let status = reply.get(9..12).and_then(|s| s.parse().ok()).unwrap_or_else(|| panic!("a cut reply: {reply:?}"));
    let json = reply.split_once("\r\n\r\n").and_then(|(_, body)| serde_json::from_str(body).ok());
    (status, json.unwrap_or_else(|| panic!("no JSON in {reply:?}")))
}

/// `seat`'s view from the server on `port`, once that server's copy has
/// reached `version` (another server's commit reaches it by NOTIFY).
fn view_at(port: u16, id: &str, token: &str, version: u64) -> Value {
    let started = Instant::now();
    loop {
        let (status, view) = http(port, "GET", &format!("/api/games/{id}/view?token={token}"), None);
        assert_eq!(status, 200, "{view}");
        if view["version"].as_u64() == Some(version) {
            return view;
        }
        assert!(started.elapsed() < Duration::from_secs(10), "the server on {port} never heard of version {version}");
        std::thread::sleep(Duration::from_millis(5));
    }
}

#[test]
fn a_game_goes_on_when_the_server_that_owns_it_is_killed() {
    let Some(pg) = postgres::start() else { return };
    let mut a = start(&pg.url);
    let b = start(&pg.url);
    let (status, game) =
        http(a.port, "POST", "/api/games", Some(json!({"variant": "chess", "seats": ["human", "human"]})));
    assert_eq!(status, 201, "{game}");
    let id = game["id"].as_str().unwrap();
    let tokens: Vec<&str> = (0..2).map(|s| game["seats"][s]["token"].as_str().unwrap()).collect();
    // White plays on the server that created (and owns) the game, Black on the other.
    let mut ports = [a.port, b.port];
    let mut rng = GameRng::from_seed(13);
    let mut acknowledged: Vec<String> = Vec::new();
    let mut killed = false;
    while acknowledged.len() < 60 {
        if acknowledged.len() == 21 && !killed {
            // Mid-game, just after White's move was acknowledged by its owner.
            a.child.kill().unwrap();
            a.child.wait().unwrap();
            killed = true;
            // White's client comes back through the load balancer, to the other server.
            ports[0] = b.port;
        }
        let version = acknowledged.len() as u64;
        let seat = acknowledged.len() % 2;
        let view = view_at(ports[seat], id, tokens[seat], version);
        assert_eq!(view["view"]["to_act"], json!([seat]), "{view}");
        let actions = view["view"]["actions"].as_array().unwrap();
        if actions.is_empty() {
            break; // Mate or stalemate.
        }
        let action = rng.choose(actions).unwrap()["text"].as_str().unwrap().to_string();
        let body = json!({"token": tokens[seat], "action": action});
        let (status, reply) = http(ports[seat], "POST", &format!("/api/games/{id}/actions"), Some(body));
        assert_eq!(status, 200, "{action} on the server at {}: {reply}", ports[seat]);
        assert_eq!(reply["action"], action.as_str());
        assert_eq!(reply["version"], version + 1, "{reply}");
        acknowledged.push(action);
    }
    assert!(killed, "the game ended before the kill");
    // The player to move resigns: the game is over.
    let seat = acknowledged.len() % 2;
    let (status, reply) = http(
        b.port,
        "POST",
        &format!("/api/games/{id}/actions"),
        Some(json!({"token": tokens[seat], "action": "resign"})),
    );
    if status == 200 {
        acknowledged.push("resign".into());
    } else {
        assert_eq!(status, 409, "only an ended game refuses the resignation: {reply}");
    }
    let (_, summary) = http(b.port, "GET", &format!("/api/games/{id}"), None);
    assert_eq!(summary["over"], true, "{summary}");

    // Every acknowledged action, in order, on the survivor and in the
    // database (as a fresh server reads it), and nothing else.
    let c = start(&pg.url);
    for port in [b.port, c.port] {
        let (status, log) = http(port, "GET", &format!("/api/games/{id}/export?format=log"), None);
        assert_eq!(status, 200, "{log}");
        let stored: Vec<&str> =
            log["actions"].as_array().unwrap().iter().map(|a| a["action"].as_str().unwrap()).collect();
        assert_eq!(stored, acknowledged, "the log as the server on {port} has it");
    }
    drop((b, c));
    drop(pg);
}
