//! The view-cost benchmark: does an action cost the same late in a game as
//! early? One long chess game at a time, played through the server on
//! loopback: White and Black act through their WebSockets and a spectator
//! watches on a third. For the actions around the 10th and around the
//! 500th of the same game we measure the time from sending an action to
//! its acknowledgement, and the bytes the server sends for it (the ack and
//! the change each of the three connections gets), and report late over
//! early as ratios (the target is under 1.2). For scale it also reports
//! the size of the whole view at both points: what every connection was
//! sent after every action before changes.
//!
//!     cargo bench -p chesskit-server --bench view_cost
//!     cargo bench -p chesskit-server --bench view_cost -- --games 20 --early 10 --late 500 --window 10
//!
//! The moves are one random chess game that lasts past the late point (no
//! move that would end it is chosen), found once in memory and then played
//! through the server `--games` times, each time in a new game.

mod common;

use std::time::{Duration, Instant};

use chesskit_core::{GameRng, Options};
use common::{start_server, ws_connect, Created, Socket};
use futures_util::{SinkExt, StreamExt};
use serde::Deserialize;
use serde_json::json;
use tokio_tungstenite::tungstenite::Message;

struct Settings {
    games: usize,
    early: usize,
    late: usize,
    /// Actions measured around each point.
    window: usize,
}

fn settings() -> Settings {
    let mut settings = Settings { games: 10, early: 10, late: 500, window: 10 };
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < args.len() {
        let value = || args.get(i + 1).and_then(|v| v.parse().ok()).unwrap_or_else(|| panic!("{} N", args[i]));
        match args[i].as_str() {
            "--games" => settings.games = value(),
            "--early" => settings.early = value(),
            "--late" => settings.late = value(),
            "--window" => settings.window = value(),
            // `cargo bench` passes --bench; other flags are not ours.
            _ => {
                i += 1;
                continue;
            }
        }
        i += 2;
    }
    assert!(
        settings.early >= settings.window / 2 && settings.late > settings.early,
        "need early >= window/2 and late > early"
    );
    settings
}

/// What was measured around one point of the game.
#[derive(Default)]
struct Point {
    /// Action-to-acknowledgement times, in microseconds.
    latencies: Vec<u64>,
    /// Bytes the server sent for each action, to all three connections.
    bytes: Vec<usize>,
    /// Bytes of the spectator's whole view there.
    whole: Vec<usize>,
}

impl Point {
    fn median_ms(&mut self) -> f64 {
        self.latencies.sort_unstable();
        self.latencies.get(self.latencies.len() / 2).copied().unwrap_or(0) as f64 / 1000.0
    }

    fn mean_ms(&self) -> f64 {
        self.latencies.iter().sum::<u64>() as f64 / self.latencies.len().max(1) as f64 / 1000.0
    }

    fn mean_bytes(&self) -> f64 {
        self.bytes.iter().sum::<usize>() as f64 / self.bytes.len().max(1) as f64
    }

    fn mean_whole(&self) -> f64 {
        self.whole.iter().sum::<usize>() as f64 / self.whole.len().max(1) as f64
    }
}

fn main() {
    let settings = settings();
    let length = settings.late + settings.window;
    let (seed, line) = long_game(length);
    println!(
        "chesskit view-cost benchmark: chess (moves of random seed {seed}), {} games, 2 seats acting by WebSocket + 1 spectator; \
         {} actions measured around action {} and around action {}",
        settings.games, settings.window, settings.early, settings.late
    );
    let dir = tempfile::tempdir().expect("a temp dir");
    let (address, stop, server) = start_server(
        chesskit_server::store::Database::Sqlite(dir.path().join("cost.db")),
        dir.path().join("no-client"),
    );
    let clients = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("a client runtime");
    let (mut early, mut late) = (Point::default(), Point::default());
    for _ in 0..settings.games {
        clients
            .block_on(play(address, &line, &settings, &mut early, &mut late))
            .unwrap_or_else(|e| panic!("the game failed: {e}"));
    }
    let _ = stop.send(());
    let _ = server.join();
    let (early_p50, late_p50) = (early.median_ms(), late.median_ms());
    for (name, at, p, p50) in [("early", settings.early, &early, early_p50), ("late", settings.late, &late, late_p50)] {
        println!(
            "{name:>5} (around action {at:>3}): ack p50 {p50:.3} ms, mean {:.3} ms; {:.0} bytes sent per action; whole view {:.0} bytes",
            p.mean_ms(),
            p.mean_bytes(),
            p.mean_whole()
        );
    }
    println!(
        "ratio late/early: ack latency p50 {:.2}, mean {:.2}; bytes per action {:.2} (target under 1.2); whole view {:.2}",
        late_p50 / early_p50,
        late.mean_ms() / early.mean_ms(),
        late.mean_bytes() / early.mean_bytes(),
        late.mean_whole() / early.mean_whole()
    );
}

/// A random chess game of `length` actions that does not end before: from
/// the first seed whose random play, never choosing a move that ends the
/// game, gets that far.
fn long_game(length: usize) -> (u64, Vec<String>) {
    (0..1000)
        .find_map(|seed| random_line(seed, length).map(|line| (seed, line)))
        .expect("a random chess game long enough among 1000 seeds")
}

fn random_line(seed: u64, length: usize) -> Option<Vec<String>> {
    let mut game = chesskit_games::create("chess", Options::new(), seed, None).ok()?;
    let mut rng = GameRng::from_seed(seed);
    let mut line = Vec::new();
    while line.len() < length {
        let seat = *game.to_act().seats().first()?;
        let mut actions = game.legal_actions(seat);
        rng.shuffle(&mut actions);
        let action = actions.into_iter().find(|a| {
            let mut next = game.clone_box();
            next.apply(seat, a).is_ok() && !next.to_act().is_over()
        })?;
        game.apply(seat, &action).ok()?;
        line.push(action);
    }
    Some(line)
}

#[derive(Deserialize)]
struct Reply {
    #[serde(rename = "type")]
    kind: String,
    #[serde(default)]
    version: usize,
}

/// Play `line` in a new game, measuring the actions around both points.
async fn play(
    address: std::net::SocketAddr,
    line: &[String],
    settings: &Settings,
    early: &mut Point,
    late: &mut Point,
) -> Result<(), String> {
    let mut http = common::http_connect(address).await?;
    let body = json!({"variant": "chess", "seats": ["human", "human"]}).to_string();
    let (status, reply) = common::post(&mut http, "/api/games", body).await?;
    if status != 201 {
        return Err(format!("create: {status}"));
    }
    let created: Created = serde_json::from_slice(&reply).map_err(|e| e.to_string())?;
    let url = |token: Option<&str>| {
        let query = token.map(|t| format!("?token={t}")).unwrap_or_default();
        format!("ws://{address}/api/games/{}/ws{query}", created.id)
    };
    let mut sockets = vec![
        ws_connect(url(Some(&created.seats[0].token))).await?,
        ws_connect(url(Some(&created.seats[1].token))).await?,
        ws_connect(url(None)).await?,
    ];
    // The whole views on connect, and the changes the seats' coming made.
    for socket in &mut sockets {
        while receive(socket, Duration::from_millis(200)).await?.is_some() {}
    }
    let half = settings.window / 2;
    for (index, action) in line.iter().enumerate() {
        let point = if (settings.early - half..settings.early + half).contains(&index) {
            Some(&mut *early)
        } else if (settings.late - half..settings.late + half).contains(&index) {
            Some(&mut *late)
        } else {
            None
        };
        let (latency, bytes) = act(&mut sockets, index % 2, action, index + 1).await?;
        if let Some(point) = point {
            point.latencies.push(latency);
            point.bytes.push(bytes);
            if index + 1 == settings.early + half || index + 1 == settings.late + half {
                point.whole.push(whole_view(&mut sockets[2]).await?);
            }
        }
    }
    Ok(())
}

/// Send `action` on `seat`'s socket and read until it is acknowledged and
/// every connection has its change to `version`: the time to the ack, in
/// microseconds, and the bytes received for it.
async fn act(sockets: &mut [Socket], seat: usize, action: &str, version: usize) -> Result<(u64, usize), String> {
    let message = json!({"type": "action", "action": action}).to_string();
    let sent = Instant::now();
    sockets[seat].send(Message::text(message)).await.map_err(|e| e.to_string())?;
    let mut latency = None;
    let mut bytes = 0;
    for (n, socket) in sockets.iter_mut().enumerate() {
        let mut changed = false;
        while !changed || (n == seat && latency.is_none()) {
            let text = receive(socket, Duration::from_secs(10)).await?.ok_or("no message in 10 s")?;
            bytes += text.len();
            let reply: Reply = serde_json::from_str(&text).map_err(|e| e.to_string())?;
            match reply.kind.as_str() {
                "ack" => latency = Some(sent.elapsed().as_micros() as u64),
                "change" | "view" if reply.version == version => changed = true,
                "error" => return Err(format!("{action} refused: {text}")),
                _ => {}
            }
        }
    }
    Ok((latency.unwrap_or_default(), bytes))
}

/// The size of the whole view, asked for with a `sync` without a version.
async fn whole_view(socket: &mut Socket) -> Result<usize, String> {
    socket.send(Message::text(json!({"type": "sync"}).to_string())).await.map_err(|e| e.to_string())?;
    let text = receive(socket, Duration::from_secs(10)).await?.ok_or("no whole view in 10 s")?;
    Ok(text.len())
}

/// The next text message, or None if none comes within `wait`.
async fn receive(socket: &mut Socket, wait: Duration) -> Result<Option<String>, String> {
    loop {
        match tokio::time::timeout(wait, socket.next()).await {
            Err(_) => return Ok(None),
            Ok(Some(Ok(Message::Text(text)))) => return Ok(Some(text.to_string())),
            Ok(Some(Ok(_))) => continue,
            Ok(other) => return Err(format!("the socket closed: {other:?}")),
        }
    }
}
