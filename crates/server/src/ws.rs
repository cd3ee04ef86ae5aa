//! `GET /api/games/{id}/ws`: live views. On connect and after every change
//! the connection gets its own viewer's view; a seat may also act through it.

use std::sync::Arc;

use axum::extract::ws::{close_code, CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::State;
use axum::response::Response;
use axum::routing::get;
use axum::Router;
use chesskit_core::Viewer;
use serde::{Deserialize, Serialize};
use serde_json::json;
use tokio::sync::broadcast::error::RecvError;

use crate::error::{ApiError, ApiPath, ApiQuery};
use crate::games::TokenQuery;
use crate::play::act;
use crate::state::{AppState, GameEntry, ViewJson};

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
    ApiQuery(query): ApiQuery<TokenQuery>,
    upgrade: Result<WebSocketUpgrade, axum::extract::ws::rejection::WebSocketUpgradeRejection>,
) -> Result<Response, ApiError> {
    let entry = state.game(&id)?;
    let viewer = entry.viewer(query.token.as_deref())?;
    let upgrade =
        upgrade.map_err(|e| ApiError::BadRequest(format!("this endpoint is a WebSocket: {}", e.body_text())))?;
    if let Some(seat) = viewer.seat() {
        entry.join(seat);
    }
    Ok(upgrade
        // Clients send only small action messages. A small read buffer also
        // matters for speed: tungstenite zeroes the whole buffer on every read.
        .read_buffer_size(READ_BUFFER)
        .max_message_size(MAX_MESSAGE)
        .on_upgrade(move |socket| run(socket, state, entry, viewer)))
}

/// What a client may send.
#[derive(Deserialize)]
#[serde(tag = "type", rename_all = "lowercase", deny_unknown_fields)]
enum ClientMessage {
    Action { action: String },
}

#[derive(Serialize)]
#[serde(tag = "type", rename_all = "lowercase")]
enum ServerMessage<'a> {
    View { version: usize, view: ViewJson },
    Ack { action: &'a str, version: usize },
    Error { error: String, status: u16 },
}

async fn run(mut socket: WebSocket, state: AppState, entry: Arc<GameEntry>, viewer: Viewer) {
    // Subscribe before the first view, so no change falls between them.
    let mut changes = entry.changes.subscribe();
    let mut sent = None;
    if send_view(&mut socket, &entry, viewer, &mut sent).await.is_err() {
        return;
    }
    loop {
        let outcome = tokio::select! {
            change = changes.recv() => match change {
                // A lagging connection skips to the newest view: views are whole states.
                Ok(_) | Err(RecvError::Lagged(_)) => send_view(&mut socket, &entry, viewer, &mut sent).await,
                Err(RecvError::Closed) => Err(()),
            },
            message = socket.recv() => match message {
                Some(Ok(Message::Text(text))) => answer(&mut socket, &state, &entry, viewer, text.as_str()).await,
                Some(Ok(Message::Binary(_))) => send(&mut socket, &error_message(ApiError::BadRequest("send JSON text messages".into()))).await,
                Some(Ok(Message::Ping(_) | Message::Pong(_))) => Ok(()),
                Some(Err(e)) => {
                    refuse_and_close(&mut socket, &e.to_string()).await;
                    Err(())
                }
                Some(Ok(Message::Close(_))) | None => Err(()),
            },
        };
        if outcome.is_err() {
            return;
        }
    }
}

/// Send this viewer's view, unless it has already seen it: the same
/// version, and the same view of it (a seat's coming may change a view
/// without a new version: "abort" goes away).
async fn send_view(
    socket: &mut WebSocket,
    entry: &GameEntry,
    viewer: Viewer,
    sent: &mut Option<(usize, ViewJson)>,
) -> Result<(), ()> {
    let (version, view) = {
        let mut live = entry.live.lock().await;
        (live.version(), entry.view(&mut live, viewer))
    };
    match view {
        Ok(view) => {
            if sent.as_ref().is_some_and(|(v, seen)| *v == version && seen.same(&view)) {
                return Ok(());
            }
            *sent = Some((version, view.clone()));
            send(socket, &ServerMessage::View { version, view }).await
        }
        Err(e) => send(socket, &error_message(e)).await,
    }
}

async fn answer(
    socket: &mut WebSocket,
    state: &AppState,
    entry: &Arc<GameEntry>,
    viewer: Viewer,
    text: &str,
) -> Result<(), ()> {
    let reply = match serde_json::from_str::<ClientMessage>(text) {
        Err(e) => error_message(ApiError::BadRequest(format!("cannot read the message: {e}"))),
        Ok(ClientMessage::Action { action }) => match viewer {
            Viewer::Seat(seat) => match act(state, entry, seat, action).await {
                Ok(acted) => {
                    return send(socket, &ServerMessage::Ack { action: &acted.action, version: acted.version }).await
                }
                Err(e) => error_message(e),
            },
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
