//! `chesskit serve` survives `kill -9`: players send actions to the real
//! binary, the server is killed with SIGKILL in the middle of their play,
//! and after a restart on the same database every acknowledged action is
//! there, in order, and play goes on.

use std::io::{BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdout, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use chesskit_core::GameRng;
use serde_json::{json, Value};

/// A running `chesskit serve` and the port it chose.
struct Server {
    child: Child,
    port: u16,
    _stdout: BufReader<ChildStdout>,
}

fn start(db: &Path) -> Server {
    let mut child = Command::new(env!("CARGO_BIN_EXE_chesskit"))
        .args(["serve", "--port", "0", "--db"])
        .arg(db)
        // The test acts faster than a person may (docs/deploy.md, "Limits").
        .args(["--actions-per-second", "10000", "--actions-per-minute", "100000", "--games-per-minute", "100000"])
        .arg("--web")
        .arg(db.with_file_name("no-client"))
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let (port, _) = crate::common::port_announced(&mut stdout);
    Server { child, port, _stdout: stdout }
}

/// One HTTP/1.1 request on a fresh connection: the status and JSON body.
fn http(port: u16, method: &str, path: &str, body: Option<Value>) -> std::io::Result<(u16, Value)> {
    let mut stream = TcpStream::connect(("127.0.0.1", port))?;
    stream.set_read_timeout(Some(Duration::from_secs(10)))?;
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )?;
    let mut reply = String::new();
    stream.read_to_string(&mut reply)?;
    let status = reply.get(9..12).and_then(|s| s.parse().ok());
    let json = reply.split_once("\r\n\r\n").and_then(|(_, body)| serde_json::from_str(body).ok());
    match (status, json) {
        (Some(status), Some(json)) => Ok((status, json)),
        _ => Err(std::io::Error::other(format!("a cut or unreadable reply: {reply:?}"))),
    }
}

/// A game being played and the actions the server acknowledged, in order.
struct Played {
    id: String,
    tokens: Vec<String>,
    acknowledged: Vec<String>,
}

/// Play random legal moves on new games until the server goes away (or
/// 2000 actions); every 200 answer is recorded before the next request.
fn player(port: u16, seed: u64, games: Arc<Mutex<Vec<Played>>>, acks: Arc<AtomicUsize>) {
    let mut rng = GameRng::from_seed(seed);
    'games: for _ in 0..50 {
        let Ok((201, game)) =
            http(port, "POST", "/api/games", Some(json!({"variant": "chess", "seats": ["human", "human"]})))
        else {
            return;
        };
        let id = game["id"].as_str().unwrap().to_string();
        let tokens: Vec<String> = (0..2).map(|s| game["seats"][s]["token"].as_str().unwrap().to_string()).collect();
        let slot = {
            let mut games = games.lock().unwrap();
            games.push(Played { id: id.clone(), tokens: tokens.clone(), acknowledged: Vec::new() });
            games.len() - 1
        };
        loop {
            if acks.load(Ordering::SeqCst) >= 2000 {
                return;
            }
            let Ok((200, summary)) = http(port, "GET", &format!("/api/games/{id}"), None) else { return };
            let Some(seat) = summary["to_act"][0].as_u64() else { continue 'games };
            let token = &tokens[seat as usize];
            let Ok((200, view)) = http(port, "GET", &format!("/api/games/{id}/view?token={token}"), None) else {
                return;
            };
            let actions = view["view"]["actions"].as_array().unwrap();
            let action = rng.choose(actions).unwrap()["text"].as_str().unwrap().to_string();
            let body = json!({"token": token, "action": action});
            match http(port, "POST", &format!("/api/games/{id}/actions"), Some(body)) {
                Ok((200, reply)) => {
                    assert_eq!(reply["action"], action.as_str());
                    games.lock().unwrap()[slot].acknowledged.push(action);
                    acks.fetch_add(1, Ordering::SeqCst);
                }
                Ok((status, reply)) => panic!("{action} refused with {status}: {reply}"),
                // The server was killed: this action may or may not have been stored.
                Err(_) => return,
            }
        }
    }
}

fn temp_db(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir.join("chesskit.db")
}

#[test]
fn every_acknowledged_action_survives_sigkill() {
    let db = temp_db("server-sigkill");
    let mut server = start(&db);
    let games = Arc::new(Mutex::new(Vec::new()));
    let acks = Arc::new(AtomicUsize::new(0));
    let players: Vec<_> = (0..4)
        .map(|n| {
            let (port, games, acks) = (server.port, games.clone(), acks.clone());
            std::thread::spawn(move || player(port, n, games, acks))
        })
        .collect();
    let start_time = Instant::now();
    while acks.load(Ordering::SeqCst) < 150 {
        assert!(start_time.elapsed() < Duration::from_secs(60), "the players made too little progress");
        std::thread::sleep(Duration::from_millis(5));
    }
    // SIGKILL, while the players are still sending.
    server.child.kill().unwrap();
    server.child.wait().unwrap();
    for player in players {
        player.join().unwrap();
    }
    let games = std::mem::take(&mut *games.lock().unwrap());
    let acknowledged: usize = games.iter().map(|g| g.acknowledged.len()).sum();
    assert!(acknowledged >= 150);

    let mut server = start(&db);
    for game in &games {
        let (status, log) =
            http(server.port, "GET", &format!("/api/games/{}/export?format=log", game.id), None).unwrap();
        assert_eq!(status, 200, "game {} is restored", game.id);
        let stored: Vec<&str> =
            log["actions"].as_array().unwrap().iter().map(|a| a["action"].as_str().unwrap()).collect();
        let acked: Vec<&str> = game.acknowledged.iter().map(String::as_str).collect();
        assert!(stored.len() >= acked.len(), "game {}: {} acknowledged, {} stored", game.id, acked.len(), stored.len());
        assert_eq!(&stored[..acked.len()], &acked[..], "game {}: the acknowledged actions, in order", game.id);
        // At most the one action in flight at the kill was stored without its answer.
        assert!(stored.len() <= acked.len() + 1, "game {}", game.id);
    }
    let stored: usize = games
        .iter()
        .map(|g| {
            chesskit_server::store::read_games(&db).unwrap().iter().find(|s| s.id == g.id).unwrap().record.actions.len()
        })
        .sum();
    eprintln!("killed after {acknowledged} acknowledged actions in {} games; {stored} stored", games.len());
    // Play goes on after the restart, with the same tokens.
    let (game, summary) = games
        .iter()
        .map(|g| (g, http(server.port, "GET", &format!("/api/games/{}", g.id), None).unwrap().1))
        .find(|(_, summary)| summary["over"] == false)
        .expect("a game still being played");
    let seat = summary["to_act"][0].as_u64().unwrap() as usize;
    let token = &game.tokens[seat];
    let (status, view) = http(server.port, "GET", &format!("/api/games/{}/view?token={token}", game.id), None).unwrap();
    assert_eq!(status, 200);
    let action = view["view"]["actions"][0]["text"].as_str().unwrap();
    let body = json!({"token": token, "action": action});
    let (status, reply) = http(server.port, "POST", &format!("/api/games/{}/actions", game.id), Some(body)).unwrap();
    assert_eq!(status, 200, "{reply}");
    assert_eq!(reply["version"].as_u64().unwrap(), summary["version"].as_u64().unwrap() + 1);
    server.child.kill().unwrap();
    server.child.wait().unwrap();
    let _ = std::fs::remove_dir_all(db.parent().unwrap());
}

#[test]
fn a_second_server_on_the_same_database_is_refused() {
    let db = temp_db("server-twice");
    let mut first = start(&db);
    let second =
        Command::new(env!("CARGO_BIN_EXE_chesskit")).args(["serve", "--port", "0", "--db"]).arg(&db).output().unwrap();
    assert!(!second.status.success());
    let message = String::from_utf8_lossy(&second.stderr);
    assert!(message.contains("another chesskit server is using"), "{message}");
    first.child.kill().unwrap();
    first.child.wait().unwrap();
    let _ = std::fs::remove_dir_all(db.parent().unwrap());
}
