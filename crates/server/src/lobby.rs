//! The lobby (docs/api.md, "The lobby"): the open challenges strangers
//! may take a seat in, under a name of their choice and without an
//! account, and the games being played that anyone may watch. Both lists
//! are read from the store, so every server of a cluster lists the same
//! games, and kept for a moment (see [`crate::listcache`]).

use axum::body::Bytes;
use axum::extract::State;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use chesskit_core::Seat;
use serde::{Deserialize, Serialize};

use crate::challenge::{computer_name, fill_seat, oldest_listed, take_seat};
use crate::error::{ApiError, ApiJson, ApiPath};
use crate::limits::ClientAddress;
use crate::names::player_name;
use crate::state::AppState;
use crate::store::{Listed, Listing};

/// The most games either list holds: a lobby page shows this many at
/// most, and one answer stays small whatever the database holds.
pub const LIST_LIMIT: usize = 50;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/challenges", get(challenges))
        .route("/api/live", get(live))
        .route("/api/games/{id}/take", post(take))
        .route("/api/games/{id}/fill", post(fill))
}

/// A game as the lobby lists it.
#[derive(Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub(crate) struct LobbyGame {
    id: String,
    variant: String,
    title: String,
    /// The options it was created with (`POST /api/games`'s `options`).
    #[cfg_attr(test, ts(type = "Record<string, unknown>"))]
    options: serde_json::Value,
    /// The name its creator chose.
    creator: String,
    /// Unix seconds when it was opened.
    created: i64,
    seats: Vec<LobbySeat>,
    /// The moves played so far (actions that are not chat lines).
    moves: usize,
}

/// A seat of a lobby game: its name from the rules, who plays it.
#[derive(Serialize)]
#[cfg_attr(test, derive(ts_rs::TS), ts(optional_fields))]
pub(crate) struct LobbySeat {
    seat: Seat,
    name: String,
    kind: String,
    /// The name of who holds it; absent for a free seat.
    #[serde(skip_serializing_if = "Option::is_none")]
    player: Option<String>,
}

impl LobbyGame {
    fn new(state: &AppState, listing: Listing) -> LobbyGame {
        let title = state.variant(&listing.variant).map_or_else(|| listing.variant.clone(), |v| v.title.to_string());
        let seats = listing
            .seat_names
            .into_iter()
            .zip(listing.seat_kinds)
            .zip(listing.players)
            .enumerate()
            .map(|(seat, ((name, kind), player))| LobbySeat { seat, name, kind, player })
            .collect();
        LobbyGame {
            id: listing.id,
            variant: listing.variant,
            title,
            options: listing.options,
            creator: listing.creator,
            created: listing.created,
            seats,
            moves: listing.moves,
        }
    }
}

/// `GET /api/challenges`: the open challenges with a seat free, newest first.
async fn challenges(State(state): State<AppState>) -> Result<Response, ApiError> {
    let since = oldest_listed(&state);
    list(&state, "challenges", Listed::Challenges { since }).await
}

/// `GET /api/live`: the lobby games every seat of which is held and which
/// are still being played, newest first.
async fn live(State(state): State<AppState>) -> Result<Response, ApiError> {
    list(&state, "live", Listed::Live).await
}

/// List `which`, from the cache while it is fresh.
async fn list(state: &AppState, name: &'static str, which: Listed) -> Result<Response, ApiError> {
    let body = match state.lobby_lists.fresh(name) {
        Some(body) => body,
        None => {
            let listings = state.store.listings(which, LIST_LIMIT).await.map_err(ApiError::Internal)?;
            let games: Vec<LobbyGame> = listings.into_iter().map(|listing| LobbyGame::new(state, listing)).collect();
            let body = Bytes::from(serde_json::to_vec(&games).map_err(|e| ApiError::Internal(e.to_string()))?);
            state.lobby_lists.keep(name, body.clone());
            body
        }
    };
    Ok(([(header::CONTENT_TYPE, "application/json")], body).into_response())
}

/// The body of `POST /api/games/{id}/take`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TakeBody {
    seat: Seat,
    /// The name the player chose.
    name: String,
}

/// The reply to `POST /api/games/{id}/take`: the seat's token, given to
/// nobody else.
#[derive(Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub(crate) struct TakenSeatReply {
    id: String,
    seat: Seat,
    /// The seat's name from the rules.
    name: String,
    /// The player's name, as stored (trimmed).
    player: String,
    token: String,
    /// The page that plays the seat.
    play: String,
}

async fn take(
    State(state): State<AppState>,
    ClientAddress(client): ClientAddress,
    ApiPath(id): ApiPath<String>,
    ApiJson(body): ApiJson<TakeBody>,
) -> Result<Json<TakenSeatReply>, ApiError> {
    let player = player_name(&body.name)?;
    state.guard.take_seat(client)?;
    let taken = take_seat(&state, &id, body.seat, player.clone()).await?;
    let seat = taken.seat;
    Ok(Json(TakenSeatReply {
        play: format!("/play/{}?token={}", taken.entry.id, taken.token),
        id: taken.entry.id.clone(),
        seat,
        name: taken.entry.seats[seat].name.clone(),
        player,
        token: taken.token,
    }))
}

/// The body of `POST /api/games/{id}/fill`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FillBody {
    /// The token of a seat of the game: its creator's.
    token: Option<String>,
    seat: Seat,
    /// A computer level (`chesskit_ai::LEVELS`), as in `computer:LEVEL`.
    level: String,
}

/// The reply to `POST /api/games/{id}/fill`.
#[derive(Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub(crate) struct FilledSeat {
    id: String,
    seat: Seat,
    kind: String,
    /// How the lobby names the computer.
    player: String,
}

async fn fill(
    State(state): State<AppState>,
    ApiPath(id): ApiPath<String>,
    ApiJson(body): ApiJson<FillBody>,
) -> Result<Json<FilledSeat>, ApiError> {
    let entry = fill_seat(&state, &id, body.token.as_deref(), body.seat, &body.level).await?;
    Ok(Json(FilledSeat {
        id: entry.id.clone(),
        seat: body.seat,
        kind: entry.seats[body.seat].kind().to_string(),
        player: computer_name(&body.level),
    }))
}
