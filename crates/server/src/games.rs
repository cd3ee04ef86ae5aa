//! The games resource: create, describe, view, act, export.

use std::sync::Arc;

use axum::extract::State;
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use chesskit_core::{GameRecord, Options, Outcome, Seat, Viewer};
use serde::{Deserialize, Serialize};

use crate::challenge::{check_open_seat, computer_name, open_challenge};
use crate::error::{ApiError, ApiJson, ApiPath, ApiQuery};
use crate::limits::ClientAddress;
use crate::play::{act, Sender};
use crate::room::{resume_if_watched, start_game, Reply};
use crate::state::{serialise_view, AppState, GameEntry, SeatKind, SeatSummary, Update, ViewJson};
use crate::token::{new_game_id, new_seed};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/games", post(create))
        .route("/api/games/{id}", get(summary))
        .route("/api/games/{id}/view", get(view))
        .route("/api/games/{id}/actions", post(action))
        .route("/api/games/{id}/export", get(export))
}

/// The body of `POST /api/games`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewGame {
    variant: String,
    #[serde(default)]
    options: serde_json::Value,
    seed: Option<u64>,
    position: Option<String>,
    /// One kind per seat; by default the first seat is "human" and the others "open".
    seats: Option<Vec<String>>,
    /// List the game in the lobby as an open challenge: strangers take its
    /// open seats there (docs/api.md, "The lobby").
    #[serde(default)]
    open: bool,
    /// The creator's name, shown in the lobby; only with `open`.
    name: Option<String>,
}

/// The creator's checked name if the game is to be an open challenge:
/// one is needed then, and only then.
fn challenger(body: &NewGame) -> Result<Option<String>, ApiError> {
    match (body.open, body.name.as_deref()) {
        (true, name) => crate::names::player_name(name.unwrap_or_default()).map(Some),
        (false, None) => Ok(None),
        (false, Some(_)) => {
            Err(ApiError::BadRequest("\"name\" is for an open challenge: send \"open\": true with it".into()))
        }
    }
}

#[derive(Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub(crate) struct Created {
    id: String,
    variant: String,
    seats: Vec<CreatedSeat>,
}

#[derive(Serialize)]
#[cfg_attr(test, derive(ts_rs::TS), ts(optional_fields))]
pub(crate) struct CreatedSeat {
    seat: Seat,
    name: String,
    kind: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    token: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    invite: Option<String>,
}

async fn create(
    State(state): State<AppState>,
    ClientAddress(client): ClientAddress,
    ApiJson(body): ApiJson<NewGame>,
) -> Result<Response, ApiError> {
    let challenger = challenger(&body)?;
    state.guard.create_game(client)?;
    let info = state.variant(&body.variant).ok_or_else(|| {
        let known: Vec<&str> = state.variants.iter().map(|v| v.name).collect();
        ApiError::NotFound(format!("no variant {:?} (known: {})", body.variant, known.join(", ")))
    })?;
    let hidden_information = info.hidden_information;
    let options = Options::from_json(&body.options).map_err(|e| ApiError::Unprocessable(e.to_string()))?;
    let seed = match body.seed {
        Some(seed) => seed,
        None => new_seed()?,
    };
    let game = chesskit_games::create(&body.variant, options, seed, body.position.as_deref())
        .map_err(|e| ApiError::Unprocessable(e.to_string()))?;
    let names = game.seats();
    let kinds = match body.seats {
        Some(kinds) if kinds.len() != names.len() => {
            return Err(ApiError::BadRequest(format!(
                "{} has {} seats ({}) but \"seats\" lists {}",
                body.variant,
                names.len(),
                names.iter().map(|s| s.name.as_str()).collect::<Vec<_>>().join(", "),
                kinds.len()
            )))
        }
        Some(kinds) => {
            kinds.iter().map(|k| SeatKind::parse(k)).collect::<Result<Vec<_>, _>>().map_err(ApiError::BadRequest)?
        }
        None => (0..names.len()).map(|i| if i == 0 { SeatKind::Human } else { SeatKind::Open }).collect(),
    };
    if challenger.is_some() {
        check_open_seat(&kinds)?;
    }
    let entry = start_game(&state, new_game_id()?, game, &kinds, hidden_information).await?;
    if let Some(creator) = &challenger {
        open_challenge(&state, &entry, creator).await?;
    }
    let seats = entry
        .seats
        .iter()
        .enumerate()
        .map(|(seat, slot)| {
            // An open challenge's open seats are taken in the lobby, each by whoever takes it.
            let token = slot.token.clone().filter(|_| challenger.is_none() || *slot.kind() != SeatKind::Open);
            CreatedSeat {
                seat,
                name: slot.name.clone(),
                kind: slot.kind().to_string(),
                invite: token.as_ref().map(|t| format!("/play/{}?token={t}", entry.id)),
                token,
            }
        })
        .collect();
    let created = Created { id: entry.id.clone(), variant: entry.variant.clone(), seats };
    Ok((StatusCode::CREATED, Json(created)).into_response())
}

#[derive(Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub(crate) struct Summary {
    id: String,
    variant: String,
    title: &'static str,
    seats: Vec<SeatSummary>,
    to_act: Vec<Seat>,
    over: bool,
    outcome: Option<Outcome>,
    version: usize,
    created: i64,
    /// Unix seconds of the last accepted action, or `created` if none.
    updated: i64,
    /// The id of the rematch once a seat has started it (`POST
    /// /api/games/{id}/rematch`): every seat's page offers to join it.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    rematch: Option<String>,
    /// The names the players of a lobby game chose, by seat (None for a
    /// seat nobody holds by name: a computer, a free seat); absent for a
    /// game that was never in the lobby. The table shows them, so that
    /// strangers know whom they play.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    players: Option<Vec<Option<String>>>,
}

async fn summary(State(state): State<AppState>, ApiPath(id): ApiPath<String>) -> Result<Json<Summary>, ApiError> {
    let entry = crate::cluster::game(&state, &id).await?;
    resume_if_watched(&state, &entry).await;
    let (to_act, version) = {
        let live = entry.live.lock().await;
        (live.game().to_act(), live.version())
    };
    let rematch = match to_act.is_over() {
        true => crate::rematch::made(&state, &entry).await?,
        false => None,
    };
    let players = state.store.listing(&entry.id).await.map_err(ApiError::Internal)?.map(|listing| listing.players);
    Ok(Json(Summary {
        id: entry.id.clone(),
        variant: entry.variant.clone(),
        title: entry.title,
        seats: entry.seat_summaries(),
        to_act: to_act.seats().to_vec(),
        over: to_act.is_over(),
        outcome: to_act.outcome().cloned(),
        version,
        created: entry.created,
        updated: entry.updated(),
        rematch,
        players,
    }))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct TokenQuery {
    pub token: Option<String>,
}

#[derive(Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub(crate) struct SeatView {
    id: String,
    variant: String,
    title: &'static str,
    seat: Option<Seat>,
    /// Every seat, with whether its player has joined.
    seats: Vec<SeatSummary>,
    version: usize,
    /// Present when `view` is the change since this version (`since`).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    from: Option<usize>,
    #[cfg_attr(test, ts(as = "chesskit_core::view::View"))]
    view: ViewJson,
}

/// The query of `GET /api/games/{id}/view`: the token; `at`, a number of
/// actions for a view of the past; or `since`, the version the client
/// holds, for the change since then (log entries and chat lines added
/// since, everything else whole).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ViewQuery {
    token: Option<String>,
    at: Option<usize>,
    since: Option<usize>,
}

async fn view(
    State(state): State<AppState>,
    ApiPath(id): ApiPath<String>,
    ApiQuery(query): ApiQuery<ViewQuery>,
) -> Result<Json<SeatView>, ApiError> {
    let entry = crate::cluster::game(&state, &id).await?;
    let viewer = entry.viewer(query.token.as_deref())?;
    if let Some(seat) = viewer.seat() {
        entry.join(seat);
    }
    resume_if_watched(&state, &entry).await;
    let update = match (query.at, query.since) {
        (Some(_), Some(_)) => {
            return Err(ApiError::BadRequest("ask for a view at a version or since one, not both".into()))
        }
        (Some(at), None) => Update { from: None, version: at, view: past_view(&entry, viewer, at).await? },
        (None, since) => {
            let mut live = entry.live.lock().await;
            entry.update(&mut live, viewer, since)?
        }
    };
    Ok(Json(SeatView {
        id: entry.id.clone(),
        variant: entry.variant.clone(),
        title: entry.title,
        seat: viewer.seat(),
        seats: entry.seat_summaries(),
        version: update.version,
        from: update.from,
        view: update.view,
    }))
}

/// The view `viewer` had after the first `at` actions: the game rebuilt by
/// replaying them (on a blocking thread, without holding the game's lock),
/// so it holds exactly what the viewer could see then. "abort" is offered
/// as it would be now, by who has joined.
async fn past_view(entry: &Arc<GameEntry>, viewer: Viewer, at: usize) -> Result<ViewJson, ApiError> {
    let mut record = {
        let live = entry.live.lock().await;
        live.game().record().clone()
    };
    let version = record.actions.len();
    if at > version {
        return Err(ApiError::BadRequest(format!(
            "at={at} is beyond this game's {version} actions (use 0 to {version})"
        )));
    }
    record.actions.truncate(at);
    let entry = entry.clone();
    tokio::task::spawn_blocking(move || {
        let game = chesskit_games::replay(&record)
            .map_err(|e| ApiError::Internal(format!("game {}: its first {at} actions do not replay: {e}", entry.id)))?;
        let may_abort = viewer.seat().is_some_and(|seat| entry.may_abort(&*game, seat));
        serialise_view(&*game, viewer, may_abort)
    })
    .await
    .map_err(|e| ApiError::Internal(format!("the replay task failed: {e}")))?
}

/// The body of `POST /api/games/{id}/actions`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ActionBody {
    token: Option<String>,
    action: String,
    /// The version the client holds: the reply's view is then the change
    /// since it (see `GET /api/games/{id}/view?since=V`).
    since: Option<usize>,
}

#[derive(Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub(crate) struct ActionReply {
    action: String,
    version: usize,
    /// Present when `view` is the change since this version.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    from: Option<usize>,
    #[cfg_attr(test, ts(as = "chesskit_core::view::View"))]
    view: ViewJson,
}

/// The token of an action, in the query (`?token=T`) or the body (or in
/// both, the same).
async fn action(
    State(state): State<AppState>,
    ClientAddress(client): ClientAddress,
    headers: HeaderMap,
    ApiPath(id): ApiPath<String>,
    ApiQuery(query): ApiQuery<TokenQuery>,
    ApiJson(body): ApiJson<ActionBody>,
) -> Result<Json<ActionReply>, ApiError> {
    let entry = crate::cluster::game(&state, &id).await?;
    let token = match (query.token.as_deref().filter(|t| !t.is_empty()), body.token.as_deref()) {
        (Some(a), Some(b)) if !b.is_empty() && a != b => {
            return Err(ApiError::BadRequest("the query and the body name different tokens".into()))
        }
        (Some(token), _) => Some(token),
        (None, token) => token,
    };
    let seat = entry.acting_seat(token)?;
    // An action another server forwarded (see crate::cluster) is never forwarded again.
    let sender = match headers.contains_key(crate::cluster::FORWARDED) {
        true => Sender::Server,
        false => Sender::Client(client),
    };
    let acted = act(&state, &entry, seat, body.action, Reply::View { since: body.since }, sender).await?;
    // Only an accepted action joins: a refused one changes nothing at all.
    entry.join(seat);
    let update = acted.view.ok_or_else(|| ApiError::Internal("an action's reply lacks its view".into()))?;
    Ok(Json(ActionReply { action: acted.action, version: update.version, from: update.from, view: update.view }))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ExportQuery {
    format: Option<String>,
}

async fn export(
    State(state): State<AppState>,
    ApiPath(id): ApiPath<String>,
    ApiQuery(query): ApiQuery<ExportQuery>,
) -> Result<Response, ApiError> {
    let entry = crate::cluster::game(&state, &id).await?;
    let format = query.format.as_deref().unwrap_or("log");
    if !matches!(format, "log" | "pgn") {
        return Err(ApiError::BadRequest(format!("unknown export format {format:?} (use log or pgn)")));
    }
    if format == "pgn" && !state.variants.iter().any(|v| v.name == entry.variant && v.pgn) {
        return Err(ApiError::NotFound(format!("{} has no PGN form; export format=log instead", entry.title)));
    }
    let live = entry.live.lock().await;
    // The log and the moves hold every secret: public only once the game is over.
    if entry.hidden_information && !live.game().to_act().is_over() {
        return Err(ApiError::Conflict(format!(
            "{} hides information, so its {format} is exported only once the game is over",
            entry.title
        )));
    }
    let (body, content_type, extension) = match format {
        "pgn" => match live.game().pgn() {
            Some(pgn) => (with_players_and_date(&entry, &pgn), "application/x-chess-pgn", "pgn"),
            None => {
                return Err(ApiError::NotFound(format!("{} has no PGN form; export format=log instead", entry.title)))
            }
        },
        _ => {
            let record: &GameRecord = live.game().record();
            let json = serde_json::to_string_pretty(record).map_err(|e| ApiError::Internal(e.to_string()))?;
            (json, "application/json", "json")
        }
    };
    let disposition = format!("attachment; filename=\"chesskit-{}-{}.{extension}\"", entry.variant, entry.id);
    Ok(([(header::CONTENT_TYPE, content_type.to_string()), (header::CONTENT_DISPOSITION, disposition)], body)
        .into_response())
}

/// The PGN with the game's `Date` (its creation, UTC) and its players:
/// seat 0 is `White`, seat 1 `Black` (see [`player_name`]).
fn with_players_and_date(entry: &GameEntry, pgn: &str) -> String {
    use chesskit_core::chess::pgn::{date_tag, set_tag};
    let mut pgn = set_tag(pgn, "Date", &date_tag(entry.created));
    for (tag, slot) in ["White", "Black"].into_iter().zip(&entry.seats) {
        pgn = set_tag(&pgn, tag, &player_name(slot.kind()));
    }
    pgn
}

/// Who played a seat, as the PGN names them: "Human" for a person (the
/// server knows no names: "you" and "friend" are the lobby's words, not
/// names), "Computer (LEVEL)" for the server's player, with the level the
/// plain "computer" kind plays.
pub(crate) fn player_name(kind: &SeatKind) -> String {
    match kind {
        SeatKind::Human | SeatKind::Open => "Human".to_string(),
        SeatKind::Computer(level) => computer_name(level),
    }
}
