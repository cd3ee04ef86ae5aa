//! chesskit-server: the HTTP + WebSocket server behind `chesskit serve`.
//!
//! * [`app`] builds the router (API under /api, the browser client elsewhere)
//!   from an [`AppState`]; tests drive it without a socket.
//! * Every game lives in memory behind its own lock; every action is
//!   stored in SQLite ([`store`]) before anyone hears of it, and a restart
//!   replays every stored game.
//! * Seats are proved by unguessable tokens; a view is computed for exactly
//!   the token's seat (or a spectator), never more.
//!
//! The HTTP contract is docs/api.md.

mod error;
mod games;
mod play;
mod state;
pub mod store;
mod token;
mod variants;
mod web;
mod ws;

use std::net::{Ipv4Addr, SocketAddr};
use std::path::PathBuf;

use axum::Router;

pub use error::ApiError;
pub use state::{AppState, SeatKind};

/// Where and how to serve.
#[derive(Clone, Debug)]
pub struct ServeConfig {
    /// The port on 127.0.0.1; 0 picks a free one (printed at start).
    pub port: u16,
    /// The SQLite database, created if missing.
    pub db: PathBuf,
    /// The built browser client; by default $CHESSKIT_WEB, else `web/dist`.
    pub web: Option<PathBuf>,
}

/// The built client's directory: the flag, else $CHESSKIT_WEB, else web/dist.
pub fn web_dir(flag: Option<PathBuf>) -> PathBuf {
    flag.or_else(|| std::env::var_os("CHESSKIT_WEB").map(PathBuf::from)).unwrap_or_else(|| PathBuf::from("web/dist"))
}

/// The whole service: the API and the browser client.
pub fn app(state: AppState) -> Router {
    Router::new()
        .merge(variants::router())
        .merge(games::router())
        .merge(ws::router())
        .merge(web::router(&state))
        .method_not_allowed_fallback(web::wrong_method)
        .with_state(state)
}

/// Run the server on 127.0.0.1 until Ctrl-C.
pub fn serve(config: ServeConfig) -> Result<(), String> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the async runtime: {e}"))?;
    runtime.block_on(async {
        let state = AppState::open(&config.db, web_dir(config.web)).await?;
        let listener = tokio::net::TcpListener::bind(SocketAddr::from((Ipv4Addr::LOCALHOST, config.port)))
            .await
            .map_err(|e| format!("cannot listen on 127.0.0.1:{}: {e}", config.port))?;
        let address = listener.local_addr().map_err(|e| e.to_string())?;
        println!(
            "chesskit: serving http://{address}/ ({} games restored from {}; client from {})",
            state.game_count(),
            config.db.display(),
            state.web_dir.display()
        );
        axum::serve(listener, app(state))
            .with_graceful_shutdown(async {
                let _ = tokio::signal::ctrl_c().await;
            })
            .await
            .map_err(|e| format!("the server stopped: {e}"))
    })
}
