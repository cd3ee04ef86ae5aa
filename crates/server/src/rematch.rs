//! `POST /api/games/{id}/rematch`: the same table again once a game is
//! over. Any seat may start it, and every seat takes its own seat in it
//! with its own token of the finished game: the answer carries the new
//! seat's token to that seat alone, so nobody can sit in another's place.
//!
//! The rematch's id follows from the finished game's
//! ([`crate::token::rematch_id`]): every seat, every server of a cluster
//! and a restarted server find the same rematch without a stored link.
//! The first request creates it; the others find it; the finished game's
//! summary names it (`rematch`), so each seat's page can offer to join.

use std::sync::Arc;

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::{Json, Router};
use chesskit_core::session::ABORTED;
use chesskit_core::{GameRecord, Seat};
use serde::{Deserialize, Serialize};

use crate::error::{ApiError, ApiJson, ApiPath};
use crate::room::start_game;
use crate::state::{AppState, GameEntry, SeatKind};
use crate::token::{new_seed, rematch_id};

pub fn router() -> Router<AppState> {
    Router::new().route("/api/games/{id}/rematch", post(rematch))
}

/// The body of `POST /api/games/{id}/rematch`: a seat's token of the finished game.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RematchBody {
    token: Option<String>,
}

/// The caller's seat in the rematch.
#[derive(Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub(crate) struct RematchSeat {
    id: String,
    variant: String,
    seat: Seat,
    name: String,
    /// The seat's token in the rematch: sent only to whoever holds the
    /// token of the seat it follows.
    token: String,
}

async fn rematch(
    State(state): State<AppState>,
    ApiPath(id): ApiPath<String>,
    ApiJson(body): ApiJson<RematchBody>,
) -> Result<Response, ApiError> {
    let finished = crate::cluster::game(&state, &id).await?;
    let seat = finished.acting_seat(body.token.as_deref())?;
    let record = ended_record(&finished).await?;
    // One rematch at a time for this game in this process; across servers the store takes one id once.
    let _one_at_a_time = finished.acting.lock().await;
    let (entry, status) = match find(&state, &finished).await? {
        Some(entry) => (entry, StatusCode::OK),
        None => match create(&state, &finished, &record).await {
            Ok(entry) => (entry, StatusCode::CREATED),
            // Another server made it first: take that one.
            Err(error) => (find(&state, &finished).await?.ok_or(error)?, StatusCode::OK),
        },
    };
    let new_seat = seat_in_rematch(finished.seats.len(), seat);
    let slot = entry.seats.get(new_seat).ok_or_else(|| mismatch(&entry))?;
    let token = slot.token.clone().ok_or_else(|| mismatch(&entry))?;
    let answer = RematchSeat {
        id: entry.id.clone(),
        variant: entry.variant.clone(),
        seat: new_seat,
        name: slot.name.clone(),
        token,
    };
    Ok((status, Json(answer)).into_response())
}

/// The record of a game that is over and may have a rematch: refused while
/// it runs, and for an aborted game (nobody played it: start a new one).
async fn ended_record(entry: &GameEntry) -> Result<GameRecord, ApiError> {
    let live = entry.live.lock().await;
    match live.game().to_act().outcome() {
        None => Err(ApiError::Conflict(format!("{} is not over yet: a rematch follows its end", entry.title))),
        Some(outcome) if outcome.reason == ABORTED => {
            Err(ApiError::Conflict("an aborted game has no rematch: start a new game instead".into()))
        }
        Some(_) => Ok(live.game().record().clone()),
    }
}

/// Where seat `seat` of a finished game of `seats` seats sits in its
/// rematch: two players swap colours; a larger table keeps its places.
pub(crate) fn seat_in_rematch(seats: usize, seat: Seat) -> Seat {
    if seats == 2 {
        1 - seat
    } else {
        seat
    }
}

/// The rematch of `finished`, if a seat has started it.
async fn find(state: &AppState, finished: &GameEntry) -> Result<Option<Arc<GameEntry>>, ApiError> {
    match crate::cluster::game(state, &rematch_id(&finished.id)).await {
        Ok(entry) => Ok(Some(entry)),
        Err(ApiError::NotFound(_)) => Ok(None),
        Err(error) => Err(error),
    }
}

/// The id of `finished`'s rematch, once a seat has started it (for the
/// finished game's summary).
pub(crate) async fn made(state: &AppState, finished: &GameEntry) -> Result<Option<String>, ApiError> {
    Ok(find(state, finished).await?.map(|entry| entry.id.clone()))
}

/// Start the rematch of `finished`: its variant, options and starting
/// position, a fresh shuffle, each seat's kind (a computer at its level, a
/// person again a person) moved to its seat in the rematch.
async fn create(state: &AppState, finished: &GameEntry, record: &GameRecord) -> Result<Arc<GameEntry>, ApiError> {
    let game = chesskit_games::create(&record.variant, record.options.clone(), new_seed()?, record.position.as_deref())
        .map_err(|e| ApiError::Internal(format!("the rematch of {} does not start: {e}", finished.id)))?;
    let seats = finished.seats.len();
    if game.seats().len() != seats {
        return Err(ApiError::Internal(format!("the rematch of {} has another number of seats", finished.id)));
    }
    let mut kinds: Vec<SeatKind> = vec![SeatKind::Open; seats];
    for (seat, slot) in finished.seats.iter().enumerate() {
        kinds[seat_in_rematch(seats, seat)] = slot.kind().clone();
    }
    start_game(state, rematch_id(&finished.id), game, &kinds, finished.hidden_information).await
}

fn mismatch(entry: &GameEntry) -> ApiError {
    ApiError::Internal(format!("game {} does not seat the rematch as its finished game did", entry.id))
}

#[cfg(test)]
mod tests {
    use super::seat_in_rematch;

    #[test]
    fn two_players_swap_colours_and_a_larger_table_keeps_its_places() {
        assert_eq!((seat_in_rematch(2, 0), seat_in_rematch(2, 1)), (1, 0));
        assert_eq!((0..4).map(|s| seat_in_rematch(4, s)).collect::<Vec<_>>(), [0, 1, 2, 3]);
        assert_eq!(seat_in_rematch(1, 0), 0);
    }
}
