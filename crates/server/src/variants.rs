//! `GET /api/variants`: every registered game, as the registry describes it.

use axum::extract::State;
use axum::routing::get;
use axum::{Json, Router};
use chesskit_games::VariantInfo;

use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new().route("/api/variants", get(list))
}

async fn list(State(state): State<AppState>) -> Json<Vec<VariantInfo>> {
    Json(state.variants.as_ref().clone())
}
