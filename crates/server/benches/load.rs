//! The load benchmark: simulated players play random chess games against
//! each other through the HTTP API while holding WebSocket connections, on
//! loopback only, and we measure the time from sending an action to its
//! acknowledgement (which the server gives only after the action is
//! committed to SQLite).
//!
//!     cargo bench -p chesskit-server --bench load
//!     cargo bench -p chesskit-server --bench load -- --games 100,1000 --think-ms 0,1000 --seconds 20
//!
//!     cargo bench -p chesskit-server --bench load -- --games 10000 --think-ms 1000 --seconds 30
//!
//!     CHESSKIT_BENCH_DB=postgres://user@host/db cargo bench -p chesskit-server --bench load
//!
//! The store is a fresh SQLite file per run, or with $CHESSKIT_BENCH_DB
//! (or `--db URL`) the PostgreSQL database it names (docs/deploy.md; one
//! server process, which owns every game it creates). Games accumulate in
//! that database from run to run.
//!
//! Each game has two human seats and two clients; each client has its own
//! keep-alive HTTP connection and its own WebSocket. A client waits on its
//! WebSocket for a view or a change in which it must act, thinks (a pause
//! drawn uniformly from 0 to twice the think time; none for 0), picks a
//! random legal action from it and POSTs it with the version it holds
//! (`since`), so the reply carries the change, not the whole view.
//!
//! Open files: each game holds four connections, both ends in this
//! process, so 8 descriptors; the bench raises its soft limit to the hard
//! one and skips, saying so, a run the limit cannot hold. 10,000 games need
//! about 80,100: raise the hard limit first (`ulimit -Hn 100000` as root,
//! `LimitNOFILE=` under systemd, `docker run --ulimit nofile=100000:100000`).
//!
//! The saturation point printed at the end is the highest rate of
//! acknowledged actions among the runs with think time 0 whose p99 stayed
//! under 50 ms, with the first run past it: give several `--games` counts. With no think time every game
//! always has an action in flight: the server is saturated and the latency
//! is mostly queueing. A finished game is replaced by a new one. Every run
//! is bounded: it stops acting at the end of its window, and the whole run
//! is abandoned after a further minute. At the end every acknowledged
//! action is looked up in the database.

mod common;

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use chesskit_core::GameRng;
use futures_util::StreamExt;
use serde::Deserialize;
use serde_json::json;
use tokio::sync::Barrier;
use tokio_tungstenite::tungstenite::Message;

use chesskit_server::store::Database;
use common::{http_connect, post, raise_open_files_limit, start_server, ws_connect, Created, Http, Socket};

struct Settings {
    /// A PostgreSQL URL ($CHESSKIT_BENCH_DB or --db), else a fresh SQLite file per run.
    db: Option<String>,
    games: Vec<usize>,
    seconds: f64,
    think_ms: Vec<u64>,
}

fn settings() -> Settings {
    let mut settings = Settings {
        db: std::env::var("CHESSKIT_BENCH_DB").ok().filter(|url| !url.is_empty()),
        games: vec![100, 1000],
        seconds: 20.0,
        think_ms: vec![0, 1000],
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < args.len() {
        let value = args.get(i + 1).cloned().unwrap_or_default();
        match args[i].as_str() {
            "--games" => settings.games = value.split(',').map(|n| n.parse().expect("--games N,M")).collect(),
            "--db" => settings.db = Some(value),
            "--seconds" => settings.seconds = value.parse().expect("--seconds S"),
            "--think-ms" => {
                settings.think_ms = value.split(',').map(|n| n.parse().expect("--think-ms MS,MS")).collect()
            }
            // `cargo bench` passes --bench; other flags are not ours.
            _ => {
                i += 1;
                continue;
            }
        }
        i += 2;
    }
    settings
}

/// Open files per game: two clients, each with a keep-alive HTTP connection
/// and a WebSocket, and both ends of each connection in this process.
const FILES_PER_GAME: u64 = 8;

fn main() {
    let settings = settings();
    let files = raise_open_files_limit();
    println!("open files allowed: {files} (each game needs {FILES_PER_GAME}, so at most {} games)", max_games(files));
    println!(
        "chesskit load benchmark: random chess games, 2 clients per game (HTTP actions + WebSocket views), {} s per run",
        settings.seconds
    );
    let store = settings.db.as_deref().map(chesskit_server::store::postgres::without_password);
    println!("store: {}", store.as_deref().unwrap_or("SQLite (a fresh file per run)"));
    let mut rows = Vec::new();
    for &think in &settings.think_ms {
        for &games in &settings.games {
            if games > max_games(files) {
                println!(
                    "{games} games need {} open files, more than the {files} allowed: raise the hard limit \
                     (ulimit -Hn as root, LimitNOFILE= in systemd, docker run --ulimit nofile=N:N); skipped",
                    games as u64 * FILES_PER_GAME + 64
                );
                continue;
            }
            let result = run(settings.db.as_deref(), games, think, settings.seconds);
            println!("{}", result.line(games, think));
            rows.push((games, think, result));
        }
    }
    println!();
    println!("| games | think ms | actions | actions/s | p50 ms | p90 ms | p99 ms | max ms | errors | lost |");
    println!("|------:|---------:|--------:|----------:|-------:|-------:|-------:|-------:|-------:|-----:|");
    for (games, think, r) in &rows {
        println!(
            "| {games} | {think} | {} | {:.0} | {:.1} | {:.1} | {:.1} | {:.1} | {} | {} |",
            r.latencies.len(),
            r.latencies.len() as f64 / r.seconds,
            r.percentile(0.50),
            r.percentile(0.90),
            r.percentile(0.99),
            r.percentile(1.0),
            r.errors,
            r.lost
        );
    }
    println!();
    println!("{}", saturation(&rows));
}

/// The games the open-files limit allows (a few files kept for the database and the runtime).
fn max_games(files: u64) -> usize {
    (files.saturating_sub(64) / FILES_PER_GAME) as usize
}

/// The saturation point: the highest rate of acknowledged actions among
/// the runs with players who answer at once whose p99 stayed under 50 ms,
/// and the first such run over it. Past the point, more games add queueing,
/// not throughput.
fn saturation(rows: &[(usize, u64, RunResult)]) -> String {
    let at_once: Vec<_> = rows.iter().filter(|(_, think, _)| *think == 0).collect();
    let rate = |r: &RunResult| r.latencies.len() as f64 / r.seconds;
    let best = at_once
        .iter()
        .filter(|(_, _, r)| r.percentile(0.99) < 50.0 && r.errors == 0)
        .max_by(|a, b| rate(&a.2).total_cmp(&rate(&b.2)));
    let over = at_once.iter().filter(|(_, _, r)| r.percentile(0.99) >= 50.0).min_by_key(|(games, _, _)| *games);
    let best = best.map_or("no run with think 0 kept p99 under 50 ms".to_string(), |(games, _, r)| {
        format!("{:.0} actions/s with p99 {:.1} ms at {games} games answering at once", rate(r), r.percentile(0.99))
    });
    let over = over.map_or(String::new(), |(games, _, r)| {
        format!("; at {games} games p99 is {:.1} ms ({:.0} actions/s)", r.percentile(0.99), rate(r))
    });
    format!("saturation point: {best}{over}")
}

/// What one run measured.
#[derive(Default)]
struct RunResult {
    /// Action-to-acknowledgement times, in microseconds.
    latencies: Vec<u32>,
    acks: Vec<Ack>,
    errors: u64,
    lost: usize,
    seconds: f64,
    games_played: usize,
    first_errors: Vec<String>,
}

impl RunResult {
    fn percentile(&self, p: f64) -> f64 {
        if self.latencies.is_empty() {
            return f64::NAN;
        }
        let index = ((self.latencies.len() as f64 * p) as usize).min(self.latencies.len() - 1);
        self.latencies[index] as f64 / 1000.0
    }

    fn line(&self, games: usize, think: u64) -> String {
        format!(
            "{games} games, think {think} ms: {} actions in {:.1} s = {:.0} actions/s; ack latency p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms; {} games played; {} errors {:?}; {} lost",
            self.latencies.len(),
            self.seconds,
            self.latencies.len() as f64 / self.seconds,
            self.percentile(0.5),
            self.percentile(0.99),
            self.percentile(1.0),
            self.games_played,
            self.errors,
            self.first_errors,
            self.lost
        )
    }
}

/// One acknowledged action: game, index in its log, text.
type Ack = (String, usize, String);

#[derive(Default)]
struct ClientStats {
    latencies: Vec<u32>,
    acks: Vec<Ack>,
    errors: u64,
    first_errors: Vec<String>,
}

impl ClientStats {
    fn error(&mut self, what: String) {
        self.errors += 1;
        if self.first_errors.len() < 3 {
            self.first_errors.push(what);
        }
    }

    fn merge(&mut self, other: ClientStats) {
        self.latencies.extend(other.latencies);
        self.acks.extend(other.acks);
        self.errors += other.errors;
        for e in other.first_errors {
            if self.first_errors.len() < 3 {
                self.first_errors.push(e);
            }
        }
    }
}

fn run(url: Option<&str>, games: usize, think_ms: u64, seconds: f64) -> RunResult {
    let dir = tempfile::tempdir().expect("a temp dir");
    let db = match url {
        Some(url) => Database::Postgres(url.to_string()),
        None => Database::Sqlite(dir.path().join("load.db")),
    };
    let (address, stop, server) = start_server(db.clone(), dir.path().join("no-client"));
    let clients = tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("a client runtime");
    let window = Duration::from_secs_f64(seconds);
    let think = Duration::from_millis(think_ms);
    let outcome = clients.block_on(async move {
        tokio::time::timeout(window + Duration::from_secs(60), play_all(address, games, window, think)).await
    });
    let mut result = match outcome {
        Ok(result) => result,
        Err(_) => {
            RunResult { errors: 1, first_errors: vec!["the run did not finish in time".into()], ..RunResult::default() }
        }
    };
    clients.shutdown_timeout(Duration::from_secs(1));
    let _ = stop.send(());
    let _ = server.join();
    result.lost = lost_actions(&db, &result.acks);
    result
}

/// Acknowledged actions that are not in the database, or differ there.
fn lost_actions(db: &Database, acks: &[Ack]) -> usize {
    let stored = match db {
        Database::Sqlite(path) => chesskit_server::store::read_games(path),
        Database::Postgres(url) => tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a runtime")
            .block_on(chesskit_server::store::postgres::read_games(url)),
    }
    .expect("the database reads");
    let logs: HashMap<&str, &Vec<chesskit_core::ActionRecord>> =
        stored.iter().map(|g| (g.id.as_str(), &g.record.actions)).collect();
    acks.iter()
        .filter(|(game, index, action)| {
            logs.get(game.as_str()).and_then(|log| log.get(*index)).map(|a| &a.action) != Some(action)
        })
        .count()
}

async fn play_all(address: SocketAddr, games: usize, window: Duration, think: Duration) -> RunResult {
    let barrier = Arc::new(Barrier::new(games + 1));
    let tasks: Vec<_> =
        (0..games).map(|n| tokio::spawn(game_loop(address, n as u64, barrier.clone(), window, think))).collect();
    barrier.wait().await;
    let started = Instant::now();
    let mut total = ClientStats::default();
    let mut played = 0;
    for task in tasks {
        match task.await {
            Ok((stats, games)) => {
                total.merge(stats);
                played += games;
            }
            Err(e) => total.error(format!("a game task failed: {e}")),
        }
    }
    // Actions are sent only within the window; the rate is over the window.
    let seconds = started.elapsed().as_secs_f64().min(window.as_secs_f64());
    total.latencies.sort_unstable();
    RunResult {
        latencies: total.latencies,
        acks: total.acks,
        errors: total.errors,
        lost: 0,
        seconds,
        games_played: played,
        first_errors: total.first_errors,
    }
}

/// One game slot: play games one after another until the window closes.
async fn game_loop(
    address: SocketAddr,
    n: u64,
    barrier: Arc<Barrier>,
    window: Duration,
    think: Duration,
) -> (ClientStats, usize) {
    let mut stats = ClientStats::default();
    let mut rng = GameRng::from_seed(n);
    // Set up the first game before the window opens.
    let mut https = Vec::new();
    for _ in 0..2 {
        match http_connect(address).await {
            Ok(http) => https.push(http),
            Err(e) => stats.error(format!("connect: {e}")),
        }
    }
    let mut game = if https.len() == 2 { new_game(address, &mut https[0]).await } else { Err("no connection".into()) };
    barrier.wait().await;
    let deadline = tokio::time::Instant::now() + window;
    let mut played = 0;
    while tokio::time::Instant::now() < deadline {
        let (id, tokens, sockets) = match game {
            Ok(game) => game,
            Err(e) => {
                stats.error(e);
                break;
            }
        };
        let [a, b] = sockets;
        let (http_b, http_a) = (https.pop().unwrap(), https.pop().unwrap());
        let seat_a = seat_loop(id.clone(), 0, tokens[0].clone(), http_a, a, deadline, think, rng.next_u64());
        let seat_b = seat_loop(id.clone(), 1, tokens[1].clone(), http_b, b, deadline, think, rng.next_u64());
        let ((http_a, stats_a), (http_b, stats_b)) = tokio::join!(seat_a, seat_b);
        stats.merge(stats_a);
        stats.merge(stats_b);
        https = vec![http_a, http_b];
        played += 1;
        if tokio::time::Instant::now() >= deadline {
            break;
        }
        game = new_game(address, &mut https[0]).await;
    }
    (stats, played)
}

type NewGame = Result<(String, Vec<String>, [Socket; 2]), String>;

/// Create a game with two human seats and open a WebSocket for each.
async fn new_game(address: SocketAddr, http: &mut Http) -> NewGame {
    let body = json!({"variant": "chess", "seats": ["human", "human"]}).to_string();
    let (status, reply) = post(http, "/api/games", body).await?;
    if status != 201 {
        return Err(format!("create: {status} {}", String::from_utf8_lossy(&reply)));
    }
    let created: Created = serde_json::from_slice(&reply).map_err(|e| e.to_string())?;
    let tokens: Vec<String> = created.seats.into_iter().map(|s| s.token).collect();
    let mut sockets = Vec::new();
    for token in &tokens {
        sockets.push(ws_connect(format!("ws://{address}/api/games/{}/ws?token={token}", created.id)).await?);
    }
    let sockets: [Socket; 2] = sockets.try_into().map_err(|_| "two sockets".to_string())?;
    Ok((created.id, tokens, sockets))
}

/// The parts of a view message a player needs.
#[derive(Deserialize)]
struct ViewMessage {
    #[serde(rename = "type")]
    kind: String,
    #[serde(default)]
    version: usize,
    view: Option<ViewPart>,
}

#[derive(Deserialize)]
struct ViewPart {
    to_act: Vec<usize>,
    actions: Vec<ActionPart>,
    outcome: Option<serde_json::Value>,
}

#[derive(Deserialize)]
struct ActionPart {
    text: String,
}

#[derive(Deserialize)]
struct Ack2 {
    action: String,
    version: usize,
}

/// One client: act whenever its WebSocket says it must, until the game
/// ends or the window closes.
#[allow(clippy::too_many_arguments)]
async fn seat_loop(
    id: String,
    seat: usize,
    token: String,
    mut http: Http,
    mut socket: Socket,
    deadline: tokio::time::Instant,
    think: Duration,
    seed: u64,
) -> (Http, ClientStats) {
    let mut stats = ClientStats::default();
    let mut rng = GameRng::from_seed(seed);
    let mut acted_on = None;
    let path = format!("/api/games/{id}/actions");
    loop {
        let message = match tokio::time::timeout_at(deadline, socket.next()).await {
            Err(_) => break,
            Ok(Some(Ok(Message::Text(text)))) => text,
            Ok(Some(Ok(_))) => continue,
            Ok(other) => {
                stats.error(format!("ws closed: {other:?}"));
                break;
            }
        };
        let message: ViewMessage = match serde_json::from_str(&message) {
            Ok(m) => m,
            Err(e) => {
                stats.error(format!("bad message: {e}"));
                break;
            }
        };
        // The first message is the whole view, the others changes since
        // the last: both hold the whole present (whose turn, the actions).
        let Some(view) = message.view.filter(|_| message.kind == "view" || message.kind == "change") else { continue };
        if view.outcome.is_some() {
            break;
        }
        if !view.to_act.contains(&seat) || view.actions.is_empty() || acted_on == Some(message.version) {
            continue;
        }
        if !think.is_zero() {
            let pause = think.mul_f64(rng.below(2001) as f64 / 1000.0);
            tokio::time::sleep(pause).await;
        }
        if tokio::time::Instant::now() >= deadline {
            break;
        }
        let action = view.actions[rng.below(view.actions.len())].text.clone();
        // With the version held, the reply's view is the change since, not the whole view.
        let body = json!({"token": token, "action": action, "since": message.version}).to_string();
        let sent = Instant::now();
        match post(&mut http, &path, body).await {
            Ok((200, reply)) => {
                stats.latencies.push(sent.elapsed().as_micros().min(u32::MAX as u128) as u32);
                match serde_json::from_slice::<Ack2>(&reply) {
                    Ok(ack) if ack.version == message.version + 1 => {
                        stats.acks.push((id.clone(), message.version, ack.action));
                    }
                    Ok(ack) => stats.error(format!("ack version {} after view {}", ack.version, message.version)),
                    Err(e) => stats.error(format!("bad ack: {e}")),
                }
                acted_on = Some(message.version);
            }
            Ok((status, reply)) => {
                stats.error(format!("{status}: {}", String::from_utf8_lossy(&reply)));
                break;
            }
            Err(e) => {
                stats.error(e);
                break;
            }
        }
    }
    (http, stats)
}
