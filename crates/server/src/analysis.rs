//! `GET /api/games/{id}/analysis`: whether a finished game's deal could
//! have been won, from the variant's solver (which variants have one, and
//! how each is searched, is `chesskit_ai::analyse`'s business: the server
//! names no game).
//!
//! The solver reads every card of the deal, so the answer is given only
//! once the game is over, when its secrets are public anyway (as its log
//! export is). The search is bounded by the server's own node limit
//! ([`crate::limits::Limits::analysis_nodes`]), runs on a background
//! thread in one of the thinkers' places, and its answer is kept on the
//! game, so that a deal is searched once however often it is asked about.

use std::sync::atomic::Ordering;
use std::sync::Arc;

use axum::extract::State;
use axum::routing::get;
use axum::{Json, Router};
use chesskit_ai::Analysis;
use chesskit_core::GameRecord;
use serde::Serialize;

use crate::error::{ApiError, ApiPath};
use crate::limits::ClientAddress;
use crate::state::{AppState, GameEntry};

pub fn router() -> Router<AppState> {
    Router::new().route("/api/games/{id}/analysis", get(analysis))
}

/// The answer of `GET /api/games/{id}/analysis`.
#[derive(Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub(crate) struct AnalysisReply {
    /// `line_found`, `no_line_exists` or `ran_out`.
    verdict: &'static str,
    /// The verdict in words, for the player.
    words: String,
    /// The best score found, if a line wins.
    score: Option<i64>,
    /// Whether the search finished (the score is the best possible, or
    /// no line wins at all).
    proven: bool,
    /// The actions of the best line found, from the deal's start.
    line: Vec<String>,
    nodes: u64,
    /// The server's bound on the nodes of one analysis.
    node_limit: u64,
}

async fn analysis(
    State(state): State<AppState>,
    ClientAddress(client): ClientAddress,
    ApiPath(id): ApiPath<String>,
) -> Result<Json<AnalysisReply>, ApiError> {
    let entry = crate::cluster::game(&state, &id).await?;
    if !chesskit_ai::has_analysis(&entry.variant) {
        return Err(ApiError::NotFound(format!("{} has no analysis: no solver searches its games", entry.title)));
    }
    let start = start_of_finished_game(&entry).await?;
    let analysis = cached_or_searched(&state, &entry, client, start).await?;
    let node_limit = state.guard.limits.analysis_nodes;
    let Analysis { verdict, words, score, proven, line, nodes } = analysis.as_ref().clone();
    Ok(Json(AnalysisReply { verdict, words, score, proven, line, nodes, node_limit }))
}

/// The record of the game's start (its record with no actions: the same
/// deal from the same seed, options and position), once the game is over.
/// Before then the analysis would tell the player the hidden cards and a
/// line to play, so it is refused.
async fn start_of_finished_game(entry: &GameEntry) -> Result<GameRecord, ApiError> {
    let live = entry.live.lock().await;
    if !live.game().to_act().is_over() {
        return Err(ApiError::Conflict(format!(
            "a {} game is analysed only once it is over: the solver reads the cards still hidden, \
             and its line would play the game for you",
            entry.title
        )));
    }
    let mut start = live.game().record().clone();
    start.actions.clear();
    Ok(start)
}

/// The game's analysis: the one kept on the game, else searched now (and
/// counted against the client's rate of analyses).
async fn cached_or_searched(
    state: &AppState,
    entry: &Arc<GameEntry>,
    client: Option<std::net::IpAddr>,
    start: GameRecord,
) -> Result<Arc<Analysis>, ApiError> {
    if let Some(kept) = entry.analysis.get() {
        return Ok(kept.clone());
    }
    state.guard.analyse(client)?;
    let (state, entry) = (state.clone(), entry.clone());
    // A task of its own, so that a client that hangs up cannot cancel the
    // search half way (the next request would only start it again); a
    // request that comes meanwhile waits for the same search.
    tokio::spawn(async move { entry.analysis.get_or_try_init(|| search(&state, &entry, start)).await.cloned() })
        .await
        .map_err(|e| ApiError::Internal(format!("the analysis task failed: {e}")))?
}

/// Replay `start` and run the variant's solver on it, within the server's
/// node limit, on a background thread holding one of the thinkers' places
/// (an analysis waits its turn with the computer players, so people's
/// actions still find a core free).
async fn search(state: &AppState, entry: &GameEntry, start: GameRecord) -> Result<Arc<Analysis>, ApiError> {
    let node_limit = state.guard.limits.analysis_nodes;
    let searched = state.analyses_searched.clone();
    let place = state.guard.thinkers.clone().acquire_owned().await;
    let found = crate::background::run(move || {
        let _place = place;
        searched.fetch_add(1, Ordering::Relaxed);
        let game = chesskit_games::replay(&start).map_err(|e| format!("its start does not replay: {e}"))?;
        chesskit_ai::analyse(&*game, node_limit).ok_or_else(|| "the solver does not take its game".to_string())
    })
    .await;
    match found {
        Ok(Ok(analysis)) => Ok(Arc::new(analysis)),
        Ok(Err(why)) | Err(why) => Err(ApiError::Internal(format!("game {}: the analysis failed: {why}", entry.id))),
    }
}
