//! Several server processes on one PostgreSQL database (docs/deploy.md).
//!
//! Every process serves every game: it loads a game from the database
//! the first time it is asked for it, and keeps that copy current. One
//! process at a time *owns* a live game: it holds the game's advisory lock
//! on its database session (see [`crate::store::postgres`]) and only it
//! applies the game's actions, plays its computers and watches its clock.
//!
//! * An action for a game this process does not own: it tries the game's
//!   lock. If it gets it, the owner is gone (or there never was one since
//!   the last restart): it reads the rest of the log from the database and
//!   owns the game from then on (the takeover). Otherwise it forwards the
//!   action over HTTP to the URL the owner advertised, and replies as if it
//!   had taken it itself, once its own copy has caught up. An owner that
//!   does not answer is probably dying: its lock is released when its
//!   session ends, so the process tries again for a few seconds.
//! * Every commit announces, on the `chesskit_games` channel, each game
//!   whose log grew. [`follow`] hears them: a process holding a copy it does
//!   not own reads the new actions, applies them, and tells its WebSockets,
//!   which send their clients the same change messages as the owner's do.
//! * A game that goes on by itself (computers, a clock) is taken over by
//!   [`sweep`] when its owner is gone, without waiting for an action.
//!
//! Nothing is redirected: reads are served from the local copy, and a
//! forwarded action comes back as this process's own reply, so a client
//! never needs to know which process owns its game.

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use chesskit_core::{Seat, Viewer};
use hyper_util::rt::TokioIo;
use serde::Deserialize;
use serde_json::json;
use tokio::sync::mpsc;

use crate::error::ApiError;
use crate::room::{start_computers, watch_clock, Acted, Reply};
use crate::state::{restore, AppState, GameEntry, Live};
use crate::store::postgres::Notice;
use crate::store::PgStore;

/// The header a forwarded action carries, so that it is never forwarded again.
pub const FORWARDED: &str = "x-chesskit-forwarded";

/// How long an action waits for an owner that does not answer to die and
/// release its game (PostgreSQL ends a dead process's session when it
/// notices its connection closed: at once on one machine, after TCP
/// keepalive across a network).
pub const OWNER_PATIENCE: Duration = Duration::from_secs(10);

/// How long a forwarded action may take, the owner's storing included.
const FORWARD_TIMEOUT: Duration = Duration::from_secs(30);

/// Game `id`: the copy in memory, or the stored game read and replayed
/// now (a game that left memory while idle, see
/// [`crate::state::AppState::sweep_idle_games`]). With SQLite this process
/// owns it, and its computers and clock resume; with PostgreSQL it is a
/// copy this process does not own until it claims it.
pub(crate) async fn game(state: &AppState, id: &str) -> Result<Arc<GameEntry>, ApiError> {
    let missing = match state.game(id) {
        Ok(entry) => return Ok(entry),
        Err(missing) => missing,
    };
    let stored = state.store.load_game(id).await.map_err(ApiError::Internal)?.ok_or(missing)?;
    let (variants, id) = (state.variants.clone(), id.to_string());
    let entry = tokio::task::spawn_blocking(move || restore(&stored, &variants))
        .await
        .map_err(|e| ApiError::Internal(format!("the replay task failed: {e}")))?
        .map_err(|e| ApiError::Internal(format!("game {id} does not replay from the database: {e}")))?;
    let postgres = state.store.postgres();
    entry.set_owned(postgres.is_none());
    let entry = state.insert_if_absent(Arc::new(entry))?;
    let mut live = entry.live.lock().await;
    match postgres {
        // A commit announced while the game was being read found no copy to
        // bring up to date: read what the log has now.
        Some(store) if !entry.owned() => catch_up(store, &entry, &mut live).await?,
        Some(_) => {}
        None => {
            start_computers(state, &entry, &mut live);
            watch_clock(state, &entry, live.game());
        }
    }
    drop(live);
    Ok(entry)
}

/// Make this process `entry`'s owner if no live process is: true if it
/// owns the game now. On taking it over, the copy reads the log's rest and
/// the computers and the clock resume here.
pub(crate) async fn claim(state: &AppState, entry: &Arc<GameEntry>) -> Result<bool, ApiError> {
    if entry.owned() {
        return Ok(true);
    }
    let Some(store) = state.store.postgres() else { return Ok(true) };
    let mut live = entry.live.lock().await;
    if entry.owned() {
        return Ok(true);
    }
    if !store.try_lock(&entry.id).await.map_err(ApiError::Internal)? {
        return Ok(false);
    }
    // Holding the lock, this copy may fall behind no more: whoever wrote
    // before has committed all it ever will.
    catch_up(store, entry, &mut live).await?;
    entry.set_owned(true);
    start_computers(state, entry, &mut live);
    watch_clock(state, entry, live.game());
    Ok(true)
}

/// Apply to this copy the actions stored since its version, and tell its
/// WebSockets if there were any.
async fn catch_up(store: &PgStore, entry: &GameEntry, live: &mut Live) -> Result<(), ApiError> {
    let actions = store.actions_since(&entry.id, live.version()).await.map_err(ApiError::Internal)?;
    if actions.is_empty() {
        return Ok(());
    }
    for action in &actions {
        live.apply_stored(&action.record).map_err(|e| {
            ApiError::Internal(format!(
                "game {}: stored action {} ({}) does not replay: {e}",
                entry.id,
                live.version(),
                action.record.action
            ))
        })?;
        if let Some(at) = action.at {
            entry.touch(at);
        }
    }
    // No receiver is fine: nobody is watching here.
    let _ = entry.changes.send(live.version());
    Ok(())
}

/// Hear the commits of every process, and bring the copies this process
/// holds but does not own up to date: their WebSockets then tell their
/// clients, as the owner's do.
pub(crate) fn follow(state: AppState, mut notices: mpsc::UnboundedReceiver<Notice>) {
    tokio::spawn(async move {
        while let Some(notice) = notices.recv().await {
            let Ok(entry) = state.game(&notice.game) else { continue };
            if entry.owned() {
                continue;
            }
            let state = state.clone();
            tokio::spawn(async move {
                let Some(store) = state.store.postgres() else { return };
                let mut live = entry.live.lock().await;
                if entry.owned() || live.version() >= notice.version {
                    return;
                }
                if let Err(e) = catch_up(store, &entry, &mut live).await {
                    e.log();
                }
            });
        }
    });
}

/// How often a process looks for games that must go on by themselves (a
/// computer to act, a clock running) whose owner is gone.
const SWEEP: Duration = Duration::from_secs(1);

/// Take over, within [`SWEEP`], each game this process holds a copy of
/// that must go on without anyone acting (a computer seat to act, a clock
/// running) once its owner is gone: nobody may come to send an action.
/// A live owner keeps its lock, so trying costs one query.
pub(crate) fn sweep(state: AppState) {
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(SWEEP);
        loop {
            tick.tick().await;
            for entry in state.all_games() {
                if entry.owned() {
                    continue;
                }
                let due = {
                    let live = entry.live.lock().await;
                    !entry.computers_to_act(live.game()).is_empty() || live.game().deadline().is_some()
                };
                if due {
                    if let Err(e) = claim(&state, &entry).await {
                        e.log();
                    }
                }
            }
        }
    });
}

/// What became of a forwarded action.
pub(crate) enum Forwarded {
    /// The owner answered: accepted (and this copy has caught up) or refused.
    Answered(Result<Acted, ApiError>),
    /// No owner answered (it may be dying): try to take the game over.
    Unanswered(String),
}

/// Send `seat`'s action to the process that owns `entry`'s game, as an
/// HTTP action with the seat's token, and reply as the owner did.
pub(crate) async fn forward(
    state: &AppState,
    entry: &Arc<GameEntry>,
    seat: Seat,
    text: &str,
    reply: Reply,
) -> Forwarded {
    let Some(store) = state.store.postgres() else {
        return Forwarded::Answered(Err(ApiError::Internal("forwarding needs PostgreSQL".into())));
    };
    let Some(token) = entry.seats.get(seat).and_then(|slot| slot.token.clone()) else {
        return Forwarded::Answered(Err(ApiError::Forbidden(format!("seat {seat} has no token to act with"))));
    };
    let (owner, remembered) = match known_owner(store, entry).await {
        Ok(Some(found)) => found,
        Ok(None) => return Forwarded::Unanswered("no server owns the game".into()),
        Err(e) => return Forwarded::Answered(Err(ApiError::Internal(e))),
    };
    let since = entry.live.lock().await.version();
    let body = json!({"token": token, "action": text, "since": since}).to_string();
    let answer =
        match tokio::time::timeout(FORWARD_TIMEOUT, post(&owner, &format!("/api/games/{}/actions", entry.id), body))
            .await
        {
            Ok(Ok(answer)) => answer,
            Ok(Err(e)) => return unanswered(entry, format!("the owner at {owner} does not answer: {e}")),
            Err(_) => return unanswered(entry, format!("the owner at {owner} took over {FORWARD_TIMEOUT:?}")),
        };
    // A process that owned the game once but no longer does refuses a
    // forwarded action it cannot take itself: ask the database again.
    if remembered && answer.0 == StatusCode::SERVICE_UNAVAILABLE {
        return unanswered(entry, format!("the server at {owner} no longer owns the game"));
    }
    Forwarded::Answered(accepted(state, entry, seat, reply, answer).await)
}

/// The URL of the process that owns `entry`'s game, and whether it was
/// remembered rather than just read: the last one found while forwards to
/// it succeed, else the database's answer (a scan of every lock held,
/// which grows with the live games of every process: 12 to 38 ms at 5,000
/// games, which made the lookup the cluster's bottleneck; docs/deploy.md,
/// "Capacity"). A stale answer costs one refused forward: the process it
/// names takes a game it does not own only when the game's lock is free.
async fn known_owner(store: &PgStore, entry: &GameEntry) -> Result<Option<(String, bool)>, String> {
    if let Some(owner) = entry.owner_hint.lock().unwrap_or_else(|e| e.into_inner()).clone() {
        return Ok(Some((owner, true)));
    }
    let found = store.owner(&entry.id).await?;
    entry.owner_hint.lock().unwrap_or_else(|e| e.into_inner()).clone_from(&found);
    Ok(found.map(|owner| (owner, false)))
}

/// No owner answered: forget where it was, so the next try asks again.
fn unanswered(entry: &GameEntry, why: String) -> Forwarded {
    *entry.owner_hint.lock().unwrap_or_else(|e| e.into_inner()) = None;
    Forwarded::Unanswered(why)
}

/// The owner's reply to a forwarded action.
#[derive(Deserialize)]
struct OwnerReply {
    action: Option<String>,
    version: Option<usize>,
    error: Option<String>,
}

/// Turn the owner's answer into this process's: on success, catch this
/// copy up to the owner's version (committed before the owner answered)
/// and make the reply from it.
async fn accepted(
    state: &AppState,
    entry: &Arc<GameEntry>,
    seat: Seat,
    reply: Reply,
    (status, body): (StatusCode, Vec<u8>),
) -> Result<Acted, ApiError> {
    let answer: OwnerReply = serde_json::from_slice(&body)
        .map_err(|e| ApiError::Internal(format!("the owner of game {} sent an unreadable reply: {e}", entry.id)))?;
    let (action, version) = match (status, answer) {
        (StatusCode::OK, OwnerReply { action: Some(action), version: Some(version), .. }) => (action, version),
        (status, OwnerReply { error, .. }) => {
            return Err(ApiError::from_status(status, error.unwrap_or_else(|| format!("the owner answered {status}"))))
        }
    };
    let Some(store) = state.store.postgres() else {
        return Err(ApiError::Internal("forwarding needs PostgreSQL".into()));
    };
    let mut live = entry.live.lock().await;
    if !entry.owned() && live.version() < version {
        catch_up(store, entry, &mut live).await?;
    }
    let view = match reply {
        Reply::Nothing => None,
        Reply::View { since } => Some(entry.update(&mut live, Viewer::Seat(seat), since)?),
    };
    Ok(Acted { action, version, view })
}

/// POST `body` (JSON) to `path` at `url` (`http://host:port`) on a fresh
/// connection: the status and the body.
async fn post(url: &str, path: &str, body: String) -> Result<(StatusCode, Vec<u8>), String> {
    let authority = url
        .strip_prefix("http://")
        .ok_or_else(|| format!("the owner advertises {url:?}, not an http:// URL"))?
        .trim_end_matches('/');
    let stream = tokio::net::TcpStream::connect(authority).await.map_err(|e| e.to_string())?;
    let (mut sender, connection) =
        hyper::client::conn::http1::handshake(TokioIo::new(stream)).await.map_err(|e| e.to_string())?;
    tokio::spawn(connection);
    let request = Request::post(path)
        .header(header::HOST, authority)
        .header(header::CONTENT_TYPE, "application/json")
        .header(FORWARDED, "1")
        .body(Body::from(body))
        .map_err(|e| e.to_string())?;
    let response = sender.send_request(request).await.map_err(|e| e.to_string())?;
    let status = response.status();
    let bytes =
        axum::body::to_bytes(Body::new(response.into_body()), 64 * 1024 * 1024).await.map_err(|e| e.to_string())?;
    Ok((status, bytes.to_vec()))
}

/// Whether to keep trying to reach or replace an owner that does not answer.
pub(crate) fn still_patient(started: Instant) -> bool {
    started.elapsed() < OWNER_PATIENCE
}
