//! `GET /api/games/{id}/ws`: live views. On connect the connection gets its
//! own viewer's whole view (or, with `?since=V`, the change since the
//! version V it holds); after every change, the change since the version
//! it was last sent: the new log entries and chat lines, and the rest of
//! the view whole, so what is sent does not grow with the game. A client
//! that missed a change asks to catch up (`sync`). A seat may also act
//! through it.

use std::sync::Arc;

use axum::extract::ws::{close_code, CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::State;
use axum::response::Response;
use axum::routing::get;
use axum::Extension;
use axum::Router;
use chesskit_core::Viewer;
use serde::{Deserialize, Serialize};
use serde_json::json;
use tokio::sync::broadcast::error::RecvError;

use crate::error::{ApiError, ApiPath, ApiQuery};
use crate::limits::ClientAddress;
use crate::listen::Permit;
use crate::play::{act, Sender};
use crate::room::{resume_if_watched, Reply};
use crate::state::{AppState, GameEntry, Update, ViewJson};

/// The read buffer of a connection (tungstenite's default is 128 KiB).
const READ_BUFFER: usize = 4 * 1024;
/// The largest message a client may send.
const MAX_MESSAGE: usize = 64 * 1024;

pub fn router() -> Router<AppState> {
    Router::new().route("/api/games/{id}/ws", get(connect))
}

/// The game and the token are checked before the upgrade, so a wrong token
/// is a plain 403 response, not a socket that closes.
async fn connect(
    State(state): State<AppState>,
    ApiPath(id): ApiPath<String>,
    ApiQuery(query): ApiQuery<SocketQuery>,
    permit: Option<Extension<Arc<Permit>>>,
    ClientAddress(client): ClientAddress,
    upgrade: Result<WebSocketUpgrade, axum::extract::ws::rejection::WebSocketUpgradeRejection>,
) -> Result<Response, ApiError> {
    let entry = crate::cluster::game(&state, &id).await?;
    let viewer = entry.viewer(query.token.as_deref())?;
    let upgrade =
        upgrade.map_err(|e| ApiError::BadRequest(format!("this endpoint is a WebSocket: {}", e.body_text())))?;
    if let Some(seat) = viewer.seat() {
        entry.join(seat);
    }
    resume_if_watched(&state, &entry).await;
    Ok(upgrade
        // Clients send only small action messages. A small read buffer also
        // matters for speed: tungstenite zeroes the whole buffer on every read.
        .read_buffer_size(READ_BUFFER)
        .max_message_size(MAX_MESSAGE)
        .on_upgrade(move |socket| async move {
            // The connection counts against its address for as long as it is open.
            let _permit = permit;
            run(socket, Connection { state, entry, viewer, client }, query.since).await
        }))
}

/// The query of the WebSocket: the token, and `since`, the version a
/// reconnecting client holds (its first message is then the change since).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SocketQuery {
    token: Option<String>,
    since: Option<usize>,
}

/// What a client may send.
#[derive(Deserialize)]
#[serde(tag = "type", rename_all = "lowercase", deny_unknown_fields)]
enum ClientMessage {
    Action {
        action: String,
    },
    /// Catch up from `version`, the version the client holds (after a
    /// change it could not apply: its `from` was not that version); with
    /// no version, the whole view.
    Sync {
        #[serde(default)]
        version: Option<usize>,
    },
}

#[derive(Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(tag = "type", rename_all = "lowercase")]
pub(crate) enum ServerMessage<'a> {
    View {
        version: usize,
        #[cfg_attr(test, ts(as = "chesskit_core::view::View"))]
        view: ViewJson,
    },
    /// The view of `version` as the change from the version `from`.
    Change {
        from: usize,
        version: usize,
        #[cfg_attr(test, ts(as = "chesskit_core::view::View"))]
        view: ViewJson,
    },
    Ack {
        action: &'a str,
        version: usize,
    },
    Error {
        error: String,
        status: u16,
    },
}

/// Who a socket serves: the game, its viewer, and the client's address
/// (for the rate limits).
struct Connection {
    state: AppState,
    entry: Arc<GameEntry>,
    viewer: Viewer,
    client: Option<std::net::IpAddr>,
}

async fn run(mut socket: WebSocket, connection: Connection, since: Option<usize>) {
    let (entry, viewer) = (&connection.entry, connection.viewer);
    // Subscribe before the first view, so no change falls between them.
    let mut changes = entry.changes.subscribe();
    let mut sent = None;
    if send_view(&mut socket, entry, viewer, &mut sent, Some(since)).await.is_err() {
        return;
    }
    let idle = connection.state.guard.limits.socket_idle;
    let mut pings = tokio::time::interval_at(tokio::time::Instant::now() + idle / 3, idle / 3);
    let mut heard = tokio::time::Instant::now();
    loop {
        let outcome = tokio::select! {
            _ = pings.tick() => keep_alive(&mut socket, heard, idle).await,
            change = changes.recv() => match change {
                // A lagging connection skips to the newest view: a change
                // is told from the version last sent, however far back.
                Ok(_) | Err(RecvError::Lagged(_)) => send_view(&mut socket, entry, viewer, &mut sent, None).await,
                Err(RecvError::Closed) => Err(()),
            },
            message = socket.recv() => {
                heard = tokio::time::Instant::now();
                match message {
                    Some(Ok(Message::Text(text))) => {
                        answer(&mut socket, &connection, &mut sent, text.as_str()).await
                    }
                    Some(Ok(Message::Binary(_))) => send(&mut socket, &error_message(ApiError::BadRequest("send JSON text messages".into()))).await,
                    Some(Ok(Message::Ping(_) | Message::Pong(_))) => Ok(()),
                    Some(Err(e)) => {
                        refuse_and_close(&mut socket, &e.to_string()).await;
                        Err(())
                    }
                    Some(Ok(Message::Close(_))) | None => Err(()),
                }
            }
        };
        if outcome.is_err() {
            return;
        }
    }
}

/// Ping a quiet client, or close the socket of one that has not answered
/// (a pong, or anything) for `idle`: a vanished client's socket would
/// otherwise hold its descriptor and its place in the game's channel forever.
async fn keep_alive(socket: &mut WebSocket, heard: tokio::time::Instant, idle: std::time::Duration) -> Result<(), ()> {
    if heard.elapsed() >= idle {
        let reason = format!("nothing heard for {} s", idle.as_secs());
        let _ = socket.send(Message::Close(Some(CloseFrame { code: close_code::AWAY, reason: reason.into() }))).await;
        return Err(());
    }
    socket.send(Message::Ping(Default::default())).await.map_err(|_| ())
}

/// What a connection last sent: the version, and whether its view
/// offered "abort" (a seat's coming changes that without a new version).
type Sent = Option<(usize, bool)>;

/// Send this viewer's view as the change since the version last sent,
/// unless it has seen this one already. `ask` is a client's own request:
/// `Some(since)` for the change since the version it holds (whole when
/// `None` or not a version it can have), sent even if nothing changed.
async fn send_view(
    socket: &mut WebSocket,
    entry: &GameEntry,
    viewer: Viewer,
    sent: &mut Sent,
    ask: Option<Option<usize>>,
) -> Result<(), ()> {
    let update = {
        let mut live = entry.live.lock().await;
        let now = (live.version(), entry.viewer_may_abort(&live, viewer));
        if ask.is_none() && *sent == Some(now) {
            return Ok(());
        }
        let since = ask.unwrap_or(sent.map(|(version, _)| version));
        *sent = Some(now);
        entry.update(&mut live, viewer, since)
    };
    match update {
        Ok(Update { from: Some(from), version, view }) => {
            send(socket, &ServerMessage::Change { from, version, view }).await
        }
        Ok(Update { from: None, version, view }) => send(socket, &ServerMessage::View { version, view }).await,
        Err(e) => {
            // Whatever was last sent, the client does not hold this version.
            *sent = None;
            send(socket, &error_message(e)).await
        }
    }
}

async fn answer(socket: &mut WebSocket, connection: &Connection, sent: &mut Sent, text: &str) -> Result<(), ()> {
    let Connection { state, entry, viewer, client } = connection;
    let reply = match serde_json::from_str::<ClientMessage>(text) {
        Err(e) => error_message(ApiError::BadRequest(format!("cannot read the message: {e}"))),
        Ok(ClientMessage::Sync { version }) => return send_view(socket, entry, *viewer, sent, Some(version)).await,
        Ok(ClientMessage::Action { action }) => match *viewer {
            Viewer::Seat(seat) => {
                match act(state, entry, seat, action, Reply::Nothing, Sender::Client(*client)).await {
                    Ok(acted) => {
                        return send(socket, &ServerMessage::Ack { action: &acted.action, version: acted.version })
                            .await
                    }
                    Err(e) => error_message(e),
                }
            }
            _ => error_message(ApiError::Forbidden("a spectator cannot act: connect with a seat's token".into())),
        },
    };
    send(socket, &reply).await
}

fn error_message(error: ApiError) -> ServerMessage<'static> {
    error.log();
    ServerMessage::Error { error: error.message(), status: error.status().as_u16() }
}

/// A message the socket could not read (over 64 KiB, text that is not
/// UTF-8) breaks the protocol: say why in the close frame (code 1008,
/// policy violation; a reason has at most 123 bytes) and end the connection.
async fn refuse_and_close(socket: &mut WebSocket, why: &str) {
    let mut reason = format!("unreadable message: {why}");
    while reason.len() > 123 {
        reason.pop();
    }
    let frame = CloseFrame { code: close_code::POLICY, reason: reason.into() };
    let _ = socket.send(Message::Close(Some(frame))).await;
}

async fn send(socket: &mut WebSocket, message: &ServerMessage<'_>) -> Result<(), ()> {
    let text = match serde_json::to_string(message) {
        Ok(text) => text,
        Err(e) => {
            eprintln!("chesskit server error: cannot encode a WebSocket message: {e}");
            json!({"type": "error", "error": "internal server error", "status": 500}).to_string()
        }
    };
    socket.send(Message::Text(text.into())).await.map_err(|_| ())
}
