//! The one path every action a person sends takes (HTTP or WebSocket):
//! to the game's owner, this process (see [`crate::room`]) or, with
//! PostgreSQL, another one (see [`crate::cluster`]).
//!
//! The request path runs one way: the handlers (games, ws) call this
//! module, which asks the cluster once who owns the game, then acts in the
//! room, which stores through the store. Nothing below imports anything
//! above it.

use std::net::IpAddr;
use std::sync::Arc;

use chesskit_core::Seat;

use crate::cluster::{self, Forwarded};
use crate::error::ApiError;
use crate::room::{act_now, Acted, Reply};
use crate::state::{AppState, GameEntry};

/// Who handed this server a person's action.
#[derive(Clone, Copy, Debug)]
pub enum Sender {
    /// The player's own client, from this address (none for a request
    /// that came through no socket): counted against the seat's rate
    /// limits (see [`crate::limits::Guard::act`]).
    Client(Option<IpAddr>),
    /// Another server, which took it from the client and counted it, and
    /// forwarded it here because this process owns the game.
    Server,
}

/// Take `seat`'s action `text` in `entry`'s game: here if this process
/// owns the game (or can take it over), else by forwarding it to the
/// owner (see [`crate::cluster`]), unless another server forwarded it
/// here already.
///
/// Runs in its own task, so a client that hangs up mid-request cannot
/// cancel the step between applying an action and storing it.
pub async fn act(
    state: &AppState,
    entry: &Arc<GameEntry>,
    seat: Seat,
    text: String,
    reply: Reply,
    sender: Sender,
) -> Result<Acted, ApiError> {
    let forwarded = match sender {
        Sender::Client(client) => {
            state.guard.act(client, &entry.id, seat, &text)?;
            false
        }
        Sender::Server => true,
    };
    let (state, entry) = (state.clone(), entry.clone());
    tokio::spawn(async move {
        let started = std::time::Instant::now();
        loop {
            if cluster::claim(&state, &entry).await? {
                return act_now(&state, &entry, seat, &text, None, reply).await;
            }
            if forwarded {
                return Err(ApiError::Unavailable(format!(
                    "game {} is owned by another server (this action was forwarded here by mistake); try again",
                    entry.id
                )));
            }
            match cluster::forward(&state, &entry, seat, &text, reply).await {
                Forwarded::Answered(result) => return result,
                Forwarded::Unanswered(_) if cluster::still_patient(started) => {
                    // The owner may be dying: its lock goes when its session does.
                    tokio::time::sleep(std::time::Duration::from_millis(100)).await;
                }
                Forwarded::Unanswered(why) => {
                    return Err(ApiError::Unavailable(format!("game {}: {why}; try again", entry.id)))
                }
            }
        }
    })
    .await
    .map_err(|e| ApiError::Internal(format!("the action task failed: {e}")))?
}
