//! chesskit-server: the HTTP + WebSocket server behind `chesskit serve`.
//!
//! * [`app`] builds the router (API under /api, the browser client elsewhere)
//!   from an [`AppState`]; tests drive it without a socket.
//! * Every game lives in memory behind its own lock; every action is
//!   stored ([`store`]: SQLite, or PostgreSQL shared by several servers,
//!   see `cluster` and docs/deploy.md) before anyone hears of it, and a
//!   restart replays every stored game.
//! * Seats are proved by unguessable tokens; a view is computed for exactly
//!   the token's seat (or a spectator), never more.
//!
//! The HTTP contract is docs/api.md.
//!
//! ```
//! # tokio::runtime::Runtime::new().unwrap().block_on(async {
//! use axum::body::Body;
//! use axum::http::{Request, StatusCode};
//! use tower::ServiceExt;
//!
//! let dir = tempfile::tempdir().unwrap();
//! let state = chesskit_server::AppState::open(&dir.path().join("games.db"), "web/dist".into()).await.unwrap();
//! let request = Request::post("/api/games").body(Body::from(r#"{"variant": "chess"}"#)).unwrap();
//! let response = chesskit_server::app(state).oneshot(request).await.unwrap();
//! assert_eq!(response.status(), StatusCode::CREATED);
//! # });
//! ```

mod analysis;
mod background;
mod challenge;
mod cluster;
mod error;
mod examples;
mod games;
mod layers;
pub mod limits;
mod listcache;
mod listen;
mod lobby;
mod names;
mod open;
mod play;
mod rematch;
mod room;
mod state;
pub mod store;
mod token;
#[cfg(test)]
mod typescript;
mod variants;
mod web;
mod ws;

use std::net::{IpAddr, Ipv4Addr, SocketAddr, UdpSocket};
use std::path::PathBuf;

use axum::Router;

pub use background::keep_usual_priority as keep_background_work_at_usual_priority;
pub use error::ApiError;
pub use limits::{Limits, Rate};
pub use state::{cached_view_bytes, AppState, SeatKind, CACHE_BYTES_PER_GAME};

/// Where and how to serve.
#[derive(Clone, Debug)]
pub struct ServeConfig {
    /// The address to listen on: 127.0.0.1 (this computer only) by default,
    /// 0.0.0.0 for every network interface, so friends on the same network
    /// can join. Seat tokens are then the only protection, and there is no TLS.
    pub host: IpAddr,
    /// The port; 0 picks a free one (printed at start).
    pub port: u16,
    /// The SQLite database, created if missing; or a `postgres://` URL for
    /// a database several servers share (see [`store::Database::parse`]).
    pub db: PathBuf,
    /// With PostgreSQL: the URL (`http://host:port`) at which the other
    /// servers reach this one to forward actions for the games it owns. By
    /// default the address it listens on (this computer's network address
    /// when listening on every interface).
    pub advertise: Option<String>,
    /// The built browser client; by default $CHESSKIT_WEB, else `web/dist`.
    pub web: Option<PathBuf>,
    /// How long a computer waits before each action when only computers
    /// play, so that spectators can follow the game.
    pub computer_pace: std::time::Duration,
    /// What one client may ask (rates, connections, timeouts).
    pub limits: Limits,
    /// Keep background work (computers thinking, the accept loop) at the
    /// usual priority: for test suites on a busy machine, see
    /// [`keep_background_work_at_usual_priority`].
    pub background_at_usual_priority: bool,
}

/// The built client's directory: the flag, else $CHESSKIT_WEB, else web/dist.
pub fn web_dir(flag: Option<PathBuf>) -> PathBuf {
    flag.or_else(|| std::env::var_os("CHESSKIT_WEB").map(PathBuf::from)).unwrap_or_else(|| PathBuf::from("web/dist"))
}

/// The whole service: the API and the browser client.
pub fn app(state: AppState) -> Router {
    Router::new()
        .merge(variants::router())
        .merge(examples::router())
        .merge(games::router())
        .merge(analysis::router())
        .merge(rematch::router())
        .merge(lobby::router())
        .merge(ws::router())
        .merge(web::router(&state))
        .method_not_allowed_fallback(web::wrong_method)
        .with_state(state)
}

/// Serve `state` on `listener` with its limits (connections per address,
/// header and idle timeouts) until `shutdown` resolves.
pub async fn serve_listener(
    listener: tokio::net::TcpListener,
    state: AppState,
    shutdown: impl std::future::Future<Output = ()>,
) -> std::io::Result<()> {
    let limits = state.guard.limits.clone();
    state.sweep_idle_games();
    listen::serve(listener, app(state), limits, shutdown).await
}

/// The default address: this computer only.
pub const DEFAULT_HOST: IpAddr = IpAddr::V4(Ipv4Addr::LOCALHOST);

/// Run the server on `config.host` until Ctrl-C.
pub fn serve(config: ServeConfig) -> Result<(), String> {
    if config.background_at_usual_priority {
        background::keep_usual_priority();
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the async runtime: {e}"))?;
    runtime.block_on(async {
        let db = store::Database::parse(&config.db);
        let mut limits = config.limits.clone();
        if let Some(note) = listen::fit_connections_to_open_files(&mut limits) {
            println!("{note}");
        }
        let wanted = SocketAddr::new(config.host, config.port);
        let listener =
            tokio::net::TcpListener::bind(wanted).await.map_err(|e| format!("cannot listen on {wanted}: {e}"))?;
        let address = listener.local_addr().map_err(|e| e.to_string())?;
        let advertise = config.advertise.unwrap_or_else(|| advertised_url(address));
        let state = AppState::open_database(&db, web_dir(config.web), config.computer_pace, &advertise)
            .await?
            .with_limits(limits);
        let stored = match db {
            store::Database::Sqlite(_) => format!("{} games restored from {}", state.game_count(), db.describe()),
            store::Database::Postgres(_) => {
                format!(
                    "games in {}, loaded when asked for; other servers reach this one at {advertise}",
                    db.describe()
                )
            }
        };
        println!("chesskit: serving http://{address}/ ({stored}; client from {})", state.web_dir.display());
        if let Some(note) = network_note(address) {
            println!("{note}");
        }
        let lost = state.clone();
        let served = serve_listener(listener, state, async {
            let _ = tokio::signal::ctrl_c().await;
        });
        tokio::select! {
            result = served => result.map_err(|e| format!("the server stopped: {e}")),
            // Its locks are gone: another server may take its games over, so it must not write them.
            why = lost.lost() => Err(format!("{why}; stopping")),
        }
    })
}

/// The URL other servers forward actions to by default: the listening
/// address, or on every interface this computer's network address.
fn advertised_url(address: SocketAddr) -> String {
    let ip = match address.ip() {
        ip if ip.is_unspecified() => outward_address().unwrap_or(IpAddr::V4(Ipv4Addr::LOCALHOST)),
        ip => ip,
    };
    format!("http://{}", SocketAddr::new(ip, address.port()))
}

/// What to tell the user when the server is reachable from other machines:
/// the address friends can use, and that tokens are the only protection.
/// None on a loopback address.
fn network_note(address: SocketAddr) -> Option<String> {
    let ip = address.ip();
    if ip.is_loopback() {
        return None;
    }
    let reach = if ip.is_unspecified() {
        match outward_address() {
            Some(lan) => format!(
                "listening on every network interface: friends on your network can open http://{}/",
                SocketAddr::new(lan, address.port())
            ),
            None => {
                "listening on every network interface: friends on your network use this computer's address".to_string()
            }
        }
    } else {
        format!("listening on {ip}: friends who can reach it can open http://{address}/")
    };
    Some(format!(
        "chesskit: {reach}\nchesskit: open your own page at that address too, so invite links carry it. \
         Anyone who can reach the server may watch a game whose id they know, and play any seat whose \
         token they hold; there is no TLS, so people on the network path can read tokens. Use it on a \
         network you trust."
    ))
}

/// This computer's address on the network its default route leads to: a
/// UDP socket "connected" to an outside address (no packet is sent) gets it
/// as its local address. None without such a route.
fn outward_address() -> Option<IpAddr> {
    let socket = UdpSocket::bind((Ipv4Addr::UNSPECIFIED, 0)).ok()?;
    socket.connect((Ipv4Addr::new(192, 0, 2, 1), 9)).ok()?;
    let ip = socket.local_addr().ok()?.ip();
    (!ip.is_loopback() && !ip.is_unspecified()).then_some(ip)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_network_note_is_only_for_addresses_others_can_reach() {
        assert_eq!(network_note("127.0.0.1:8080".parse().unwrap()), None);
        assert_eq!(network_note("[::1]:8080".parse().unwrap()), None);
        let note = network_note("0.0.0.0:8080".parse().unwrap()).unwrap();
        assert!(note.contains("every network interface"), "{note}");
        assert!(note.contains("no TLS"), "{note}");
        let note = network_note("192.168.1.20:8080".parse().unwrap()).unwrap();
        assert!(note.contains("http://192.168.1.20:8080/"), "{note}");
        assert!(note.contains("token"), "{note}");
    }
}
