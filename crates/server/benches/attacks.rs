//! The attack benchmark: a person plays chess on a server while a stranger
//! attacks it, one attack at a time, and we compare what the person feels
//! (the p99 time from sending a move to its acknowledgement) and what the
//! server holds (its peak resident memory) with the same figures with no
//! attack, as ratios. Targets (issue "Open to the public"): latency ratio
//! under 2, peak RSS under 300 MB, whatever the attack.
//!
//!     cargo bench -p chesskit-server --bench attacks
//!     cargo bench -p chesskit-server --bench attacks -- --seconds 10 --attacks none,slowloris
//!
//! The server runs in a child process of this benchmark (the same binary,
//! started with `--serve`), with `chesskit serve`'s default limits and
//! allocator, so its peak RSS (`VmHWM`) is its own. The person connects from
//! 127.0.0.1, the attacker from 127.0.0.2: two client addresses, as two
//! strangers on the Internet would be. Loopback only; every attack is
//! bounded in connections and requests, and stops at the end of its window.
//!
//! The attacks:
//! - `slowloris`: 1500 connections that send half a request's headers and
//!   never the rest, opened again as the server cuts them off;
//! - `connections`: as many complete, kept-alive connections as the server
//!   lets one address hold, and more, held open;
//! - `games`: new games created as fast as four connections can ask;
//! - `chat`: the attacker's seat talks as fast as it may, and a spectator
//!   asks for the change since every version of that game, over and over;
//! - `computers`: 20 games of level-8 Zombie between computers, each
//!   watched through a WebSocket so that none pauses;
//! - `golf`: the Chess Golf hole that stalled a server (hole 14 of 18,
//!   15 cards), created with the largest search a client may ask for and
//!   answered "impossible", so that the referee searches; then eight
//!   spectators ask for the view after that action (a replay); again
//!   with a new round as often as games may be created.

mod common;

use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use futures_util::StreamExt;
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};

use common::{http_connect, post, raise_open_files_limit, Http};

const ATTACKS: [&str; 7] = ["none", "slowloris", "connections", "games", "chat", "computers", "golf"];
/// The attacker's client address; the person's is 127.0.0.1.
const ATTACKER: [u8; 4] = [127, 0, 0, 2];

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.iter().any(|a| a == "--serve") {
        return serve();
    }
    let seconds: f64 = flag(&args, "--seconds").map_or(15.0, |s| s.parse().expect("--seconds S"));
    let attacks: Vec<String> = flag(&args, "--attacks")
        .map_or(ATTACKS.iter().map(|a| a.to_string()).collect(), |list| list.split(',').map(String::from).collect());
    let files = raise_open_files_limit();
    println!("chesskit attack benchmark: {seconds} s per attack; open files allowed here: {files}");
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("a runtime");
    let mut rows: Vec<(String, Outcome)> = Vec::new();
    for attack in &attacks {
        let outcome = runtime.block_on(run(attack, Duration::from_secs_f64(seconds)));
        println!("{attack}: {}", outcome.line());
        rows.push((attack.clone(), outcome));
    }
    let base = rows.iter().find(|(a, _)| a == "none").map(|(_, o)| (o.p99(), o.peak_rss));
    println!();
    println!("| attack | person's actions | p50 ms | p99 ms | p99 ratio | peak RSS MB | RSS ratio | attacker's requests | refused |");
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    for (attack, o) in &rows {
        let (ratio, rss_ratio) = match base {
            Some((p99, rss)) => (format!("{:.2}", o.p99() / p99), format!("{:.2}", o.peak_rss as f64 / rss as f64)),
            None => ("-".into(), "-".into()),
        };
        println!(
            "| {attack} | {} | {:.1} | {:.1} | {ratio} | {:.0} | {rss_ratio} | {} | {} |",
            o.latencies.len(),
            o.percentile(0.5),
            o.p99(),
            o.peak_rss as f64 / 1e6,
            o.attacker_requests,
            o.attacker_refused
        );
    }
}

fn flag(args: &[String], name: &str) -> Option<String> {
    args.iter().position(|a| a == name).and_then(|i| args.get(i + 1)).cloned()
}

/// The child: `chesskit serve` with its defaults on a loopback port,
/// printed on the first line, until its parent closes its standard input.
fn serve() {
    raise_open_files_limit();
    let dir = tempfile::tempdir().expect("a temporary directory");
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("a runtime");
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind("0.0.0.0:0").await.expect("a port");
        let state = chesskit_server::AppState::open_paced(
            &dir.path().join("chesskit.db"),
            dir.path().join("no-client"),
            Duration::ZERO,
        )
        .await
        .expect("the server opens its database");
        println!("{}", listener.local_addr().expect("an address").port());
        let stdin_closed = async {
            let _ = tokio::task::spawn_blocking(|| std::io::stdin().read_line(&mut String::new())).await;
        };
        chesskit_server::serve_listener(listener, state, stdin_closed).await.expect("the server runs");
    });
}

struct Outcome {
    latencies: Vec<f64>,
    peak_rss: u64,
    attacker_requests: usize,
    attacker_refused: usize,
}

impl Outcome {
    fn percentile(&self, p: f64) -> f64 {
        let mut sorted = self.latencies.clone();
        sorted.sort_by(f64::total_cmp);
        if sorted.is_empty() {
            return f64::NAN;
        }
        sorted[((sorted.len() - 1) as f64 * p).round() as usize]
    }

    fn p99(&self) -> f64 {
        self.percentile(0.99)
    }

    fn line(&self) -> String {
        format!(
            "{} moves, p50 {:.1} ms, p99 {:.1} ms, server peak RSS {:.0} MB; attacker sent {} ({} refused)",
            self.latencies.len(),
            self.percentile(0.5),
            self.p99(),
            self.peak_rss as f64 / 1e6,
            self.attacker_requests,
            self.attacker_refused
        )
    }
}

/// The server's peak resident memory, in bytes.
fn peak_rss(child: &Child) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{}/status", child.id())).unwrap_or_default();
    let kib = status.lines().find_map(|l| l.strip_prefix("VmHWM:")).map(|v| v.trim().trim_end_matches(" kB").trim());
    kib.and_then(|k| k.parse::<u64>().ok()).unwrap_or(0) * 1024
}

/// What the attacker did: requests sent, and how many the server refused.
#[derive(Default)]
struct Tally {
    sent: AtomicUsize,
    refused: AtomicUsize,
}

async fn run(attack: &str, window: Duration) -> Outcome {
    let mut child = Command::new(std::env::current_exe().expect("this benchmark's path"))
        .arg("--serve")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the server starts");
    let mut port = String::new();
    let stdout = child.stdout.take().expect("its output");
    std::io::BufRead::read_line(&mut std::io::BufReader::new(stdout), &mut port).expect("its port");
    let port: u16 = port.trim().parse().expect("a port number");
    // Both connect to the server on 127.0.0.1; the attacker's connections come from 127.0.0.2.
    let server = SocketAddr::from(([127, 0, 0, 1], port));
    let stop = Arc::new(AtomicBool::new(false));
    let tally = Arc::new(Tally::default());
    let attacker = tokio::spawn(attack_with(attack.to_string(), server, stop.clone(), tally.clone()));
    // Let the attack take hold before the person starts.
    tokio::time::sleep(Duration::from_secs(2)).await;
    let latencies = play_on_own_thread(server, window).await;
    stop.store(true, Ordering::Relaxed);
    let _ = tokio::time::timeout(Duration::from_secs(15), attacker).await;
    let peak_rss = peak_rss(&child);
    drop(child.stdin.take());
    let _ = child.wait();
    Outcome {
        latencies,
        peak_rss,
        attacker_requests: tally.sent.load(Ordering::Relaxed),
        attacker_refused: tally.refused.load(Ordering::Relaxed),
    }
}

/// [`play`] on a runtime of its own on its own thread: the person's
/// browser is not on the attacker's machine, so the attacker's tasks must
/// not delay the person's client (sharing one runtime, the slowloris
/// attacker's sweep of its 1500 sockets held up the person's moves in the
/// client, not in the server). Both still share this machine's cores with
/// the server, as they must here.
async fn play_on_own_thread(server: SocketAddr, window: Duration) -> Vec<f64> {
    let person = std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("the person's runtime");
        runtime.block_on(play(server, window))
    });
    tokio::task::spawn_blocking(move || person.join().expect("the person played"))
        .await
        .expect("the person's thread joined")
}

/// The person: chess against themself through two keep-alive connections,
/// a random legal move every 50 ms, a new game when one ends; each move's
/// time from sending to acknowledgement.
async fn play(server: SocketAddr, window: Duration) -> Vec<f64> {
    let mut latencies = Vec::new();
    let mut http = http_connect(server).await.expect("the person connects");
    let started = Instant::now();
    let mut rng = 0x2545F4914F6CDD1Du64;
    'games: while started.elapsed() < window {
        let (id, tokens) = match new_game(&mut http).await {
            Some(game) => game,
            None => break,
        };
        let mut view = fetch_view(&mut http, &id, &tokens[0]).await;
        loop {
            let Some(seat) = view["view"]["to_act"].as_array().and_then(|s| s.first()).and_then(Value::as_u64) else {
                continue 'games;
            };
            view = fetch_view(&mut http, &id, &tokens[seat as usize]).await;
            let actions = view["view"]["actions"].as_array().cloned().unwrap_or_default();
            if actions.is_empty() || started.elapsed() >= window {
                continue 'games;
            }
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            let action = actions[(rng % actions.len() as u64) as usize]["text"].as_str().unwrap_or("").to_string();
            let body = json!({"token": tokens[seat as usize], "action": action}).to_string();
            let sent = Instant::now();
            let reply = post(&mut http, &format!("/api/games/{id}/actions"), body).await;
            latencies.push(sent.elapsed().as_secs_f64() * 1000.0);
            match reply {
                Ok((200, bytes)) => view = serde_json::from_slice(&bytes).unwrap_or(Value::Null),
                Ok((status, bytes)) => {
                    panic!("the person's move was refused: {status} {}", String::from_utf8_lossy(&bytes))
                }
                Err(e) => panic!("the person's connection failed: {e}"),
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
    latencies
}

async fn new_game(http: &mut Http) -> Option<(String, Vec<String>)> {
    let body = json!({"variant": "chess", "seats": ["human", "open"]}).to_string();
    let (status, bytes) = post(http, "/api/games", body).await.ok()?;
    assert_eq!(status, 201, "the person's game: {}", String::from_utf8_lossy(&bytes));
    let created: common::Created = serde_json::from_slice(&bytes).ok()?;
    Some((created.id, created.seats.into_iter().map(|s| s.token).collect()))
}

async fn fetch_view(http: &mut Http, id: &str, token: &str) -> Value {
    let reply = get(http, &format!("/api/games/{id}/view?token={token}")).await;
    serde_json::from_str(&reply).unwrap_or(Value::Null)
}

async fn get(http: &mut Http, path: &str) -> String {
    use http_body_util::{BodyExt, Full};
    let request = hyper::Request::get(path).header("host", "127.0.0.1").body(Full::default()).expect("a request");
    if http.ready().await.is_err() {
        return String::new();
    }
    let Ok(response) = http.send_request(request).await else { return String::new() };
    let body = response.into_body().collect().await.map(|b| b.to_bytes()).unwrap_or_default();
    String::from_utf8_lossy(&body).into_owned()
}

/// A connection from the attacker's address.
async fn attacker_connect(server: SocketAddr) -> std::io::Result<TcpStream> {
    let socket = TcpSocket::new_v4()?;
    socket.bind(SocketAddr::from((ATTACKER, 0)))?;
    socket.connect(server).await
}

/// One whole request on a fresh attacker connection; its status (0 if none).
async fn attacker_request(server: SocketAddr, method: &str, path: &str, body: &str) -> (u16, String) {
    let Ok(mut stream) = attacker_connect(server).await else { return (0, String::new()) };
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\
         Connection: close\r\n\r\n{body}",
        body.len()
    );
    if stream.write_all(head.as_bytes()).await.is_err() {
        return (0, String::new());
    }
    let mut reply = String::new();
    let _ = tokio::time::timeout(Duration::from_secs(10), stream.read_to_string(&mut reply)).await;
    let status = reply.split(' ').nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    let body = reply.split_once("\r\n\r\n").map(|(_, b)| b.to_string()).unwrap_or_default();
    (status, body)
}

async fn attack_with(attack: String, server: SocketAddr, stop: Arc<AtomicBool>, tally: Arc<Tally>) {
    match attack.as_str() {
        "slowloris" => slowloris(server, &stop, &tally).await,
        "connections" => hold_connections(server, &stop, &tally).await,
        "games" => create_games(server, &stop, &tally).await,
        "chat" => chat_and_sweep(server, &stop, &tally).await,
        "computers" => computer_games(server, &stop, &tally).await,
        "golf" => golf_searches(server, &stop, &tally).await,
        _ => {}
    }
}

fn count(tally: &Tally, status: u16) {
    tally.sent.fetch_add(1, Ordering::Relaxed);
    if status == 0 || status >= 400 {
        tally.refused.fetch_add(1, Ordering::Relaxed);
    }
}

/// 1500 half-sent requests, kept at that number as the server cuts them off.
async fn slowloris(server: SocketAddr, stop: &AtomicBool, tally: &Tally) {
    let mut open: Vec<TcpStream> = Vec::new();
    while !stop.load(Ordering::Relaxed) {
        let mut still = Vec::new();
        for stream in open.drain(..) {
            let mut byte = [0u8; 1];
            // A closed connection reads 0 bytes (or fails) at once; an open
            // one has nothing to read. Asked without waiting, so that a sweep
            // of 1500 sockets costs no timers.
            match stream.try_read(&mut byte) {
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => still.push(stream),
                _ => {
                    tally.refused.fetch_add(1, Ordering::Relaxed);
                }
            }
        }
        open = still;
        while open.len() < 1500 && !stop.load(Ordering::Relaxed) {
            let Ok(mut stream) = attacker_connect(server).await else { break };
            tally.sent.fetch_add(1, Ordering::Relaxed);
            if stream.write_all(b"GET /api/variants HTTP/1.1\r\nHost: x\r\n").await.is_ok() {
                open.push(stream);
            }
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// Complete kept-alive connections, as many as the server admits and 100 more.
async fn hold_connections(server: SocketAddr, stop: &AtomicBool, tally: &Tally) {
    let mut held = Vec::new();
    for _ in 0..200 {
        let Ok(mut stream) = attacker_connect(server).await else { break };
        let request = b"GET /api/variants HTTP/1.1\r\nHost: x\r\n\r\n";
        let mut first = [0u8; 12];
        let ok = stream.write_all(request).await.is_ok()
            && tokio::time::timeout(Duration::from_secs(5), stream.read_exact(&mut first))
                .await
                .is_ok_and(|r| r.is_ok());
        count(tally, if ok && first.starts_with(b"HTTP/1.1 200") { 200 } else { 429 });
        held.push(stream);
    }
    while !stop.load(Ordering::Relaxed) {
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// New games from four connections at once, as fast as they are answered.
async fn create_games(server: SocketAddr, stop: &AtomicBool, tally: &Tally) {
    let body = json!({"variant": "chess"}).to_string();
    let flood = |_| async {
        while !stop.load(Ordering::Relaxed) {
            let (status, _) = attacker_request(server, "POST", "/api/games", &body).await;
            count(tally, status);
        }
    };
    futures_util::future::join_all((0..4).map(flood)).await;
}

/// Chat as fast as the seat may, and a spectator's change since every
/// version of the game, again and again.
async fn chat_and_sweep(server: SocketAddr, stop: &AtomicBool, tally: &Tally) {
    let (status, body) = attacker_request(server, "POST", "/api/games", &json!({"variant": "chess"}).to_string()).await;
    count(tally, status);
    let Ok(game) = serde_json::from_str::<Value>(&body) else { return };
    let (id, token) =
        (game["id"].as_str().unwrap_or("").to_string(), game["seats"][0]["token"].as_str().unwrap_or("").to_string());
    let mut version = 0;
    while !stop.load(Ordering::Relaxed) {
        let line = json!({"token": token, "action": format!("say {}", "x".repeat(290))}).to_string();
        let (status, _) = attacker_request(server, "POST", &format!("/api/games/{id}/actions"), &line).await;
        count(tally, status);
        if status == 200 {
            version += 1;
        }
        for since in 0..=version {
            if stop.load(Ordering::Relaxed) {
                break;
            }
            let (status, _) = attacker_request(server, "GET", &format!("/api/games/{id}/view?since={since}"), "").await;
            count(tally, status);
        }
    }
}

/// Twenty games of level-8 Zombie between computers, each watched.
async fn computer_games(server: SocketAddr, stop: &AtomicBool, tally: &Tally) {
    let body = json!({"variant": "zombie", "seats": ["computer:level8", "computer:level8"]}).to_string();
    let mut sockets = Vec::new();
    for _ in 0..20 {
        let (status, reply) = attacker_request(server, "POST", "/api/games", &body).await;
        count(tally, status);
        let Some(id) = serde_json::from_str::<Value>(&reply).ok().and_then(|g| g["id"].as_str().map(String::from))
        else {
            continue;
        };
        // Through the attacker's address too, so that it counts as theirs.
        let Ok(stream) = attacker_connect(server).await else { continue };
        let url = format!("ws://{server}/api/games/{id}/ws");
        if let Ok((socket, _)) = tokio_tungstenite::client_async(url, stream).await {
            sockets.push(socket);
        }
    }
    // Read what the games send (and answer pings), until the window ends.
    while !stop.load(Ordering::Relaxed) {
        for socket in &mut sockets {
            while let Ok(Some(_)) = tokio::time::timeout(Duration::from_millis(1), socket.next()).await {}
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The hole that stalled a server, from the issue (a copy of
/// crates/games/tests/data/golf_stall_hole14.txt).
const STALLED_HOLE: &str = include_str!("../../games/tests/data/golf_stall_hole14.txt");

/// Rounds on the stalled hole answered "impossible", each searched to the
/// largest limit a client may set, and replayed by eight spectators.
async fn golf_searches(server: SocketAddr, stop: &AtomicBool, tally: &Tally) {
    let options = json!({"players": 1, "solver_nodes": chesskit_games::golf::round::MAX_SOLVER_NODES});
    let body = json!({"variant": "golf", "options": options, "position": STALLED_HOLE, "seats": ["human"]}).to_string();
    while !stop.load(Ordering::Relaxed) {
        let (status, reply) = attacker_request(server, "POST", "/api/games", &body).await;
        count(tally, status);
        let Ok(game) = serde_json::from_str::<Value>(&reply) else {
            tokio::time::sleep(Duration::from_millis(500)).await;
            continue;
        };
        let (Some(id), Some(token)) = (game["id"].as_str(), game["seats"][0]["token"].as_str()) else {
            tokio::time::sleep(Duration::from_millis(500)).await;
            continue;
        };
        let action = json!({"token": token, "action": "impossible"}).to_string();
        let (status, _) = attacker_request(server, "POST", &format!("/api/games/{id}/actions"), &action).await;
        count(tally, status);
        let past = format!("/api/games/{id}/view?at=1");
        let replays = (0..8).map(|_| attacker_request(server, "GET", &past, ""));
        for (status, _) in futures_util::future::join_all(replays).await {
            count(tally, status);
        }
    }
}
