//! `GET /api/variants`: every registered game, as the registry describes it;
//! `GET /api/variants/{name}/rules`: its rules document.

use axum::extract::State;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use chesskit_games::VariantInfo;

use crate::error::{ApiError, ApiPath};
use crate::state::AppState;

mod documents {
    // Written by build.rs from docs/games/*.md.
    include!(concat!(env!("OUT_DIR"), "/rules.rs"));
}

pub fn router() -> Router<AppState> {
    Router::new().route("/api/variants", get(list)).route("/api/variants/{name}/rules", get(rules))
}

async fn list(State(state): State<AppState>) -> Json<Vec<VariantInfo>> {
    Json(state.variants.as_ref().clone())
}

/// The variant's rules document (docs/games/<name>.md, embedded at build
/// time), as markdown.
async fn rules(State(state): State<AppState>, ApiPath(name): ApiPath<String>) -> Result<Response, ApiError> {
    let text = rules_of(&state.variants, documents::RULES, &name)?;
    Ok(([(header::CONTENT_TYPE, "text/markdown; charset=utf-8")], text).into_response())
}

/// The document of a registered variant: 404 for a variant the server does
/// not referee (even if a document exists) and for one without a document.
fn rules_of(
    variants: &[VariantInfo],
    documents: &[(&str, &'static str)],
    name: &str,
) -> Result<&'static str, ApiError> {
    if !variants.iter().any(|v| v.name == name) {
        let known: Vec<&str> = variants.iter().map(|v| v.name).collect();
        return Err(ApiError::NotFound(format!("no variant {name:?} (known: {})", known.join(", "))));
    }
    documents
        .iter()
        .find(|(doc, _)| *doc == name)
        .map(|(_, text)| *text)
        .ok_or_else(|| ApiError::NotFound(format!("{name} has no rules document (docs/games/{name}.md)")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_registered_variant_without_a_document_is_404() {
        let variants = chesskit_games::variants();
        let error = rules_of(&variants, &[], "chess").unwrap_err();
        assert_eq!(error.status(), axum::http::StatusCode::NOT_FOUND);
        assert_eq!(error.message(), "chess has no rules document (docs/games/chess.md)");
        assert_eq!(rules_of(&variants, &[("chess", "# Chess")], "chess"), Ok("# Chess"));
    }

    #[test]
    fn a_document_without_a_registered_variant_is_404() {
        let variants = chesskit_games::variants();
        let error = rules_of(&variants, &[("shogi", "# Shogi")], "shogi").unwrap_err();
        assert_eq!(error.status(), axum::http::StatusCode::NOT_FOUND);
        assert!(error.message().starts_with("no variant \"shogi\""), "{}", error.message());
    }

    #[test]
    fn the_table_is_sorted_and_holds_the_documents() {
        let names: Vec<&str> = documents::RULES.iter().map(|(name, _)| *name).collect();
        let mut sorted = names.clone();
        sorted.sort();
        assert_eq!(names, sorted);
        assert!(names.contains(&"chess"), "{names:?}");
    }
}
