//! `GET /api/variants`: every registered game, as the registry describes it;
//! `GET /api/variants/{name}/rules`: its rules document.

use axum::extract::State;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use chesskit_games::VariantInfo;
use serde::Serialize;

use crate::error::{ApiError, ApiPath};
use crate::state::AppState;

mod documents {
    // Written by build.rs from docs/games/*.md.
    include!(concat!(env!("OUT_DIR"), "/rules.rs"));
}

pub fn router() -> Router<AppState> {
    Router::new().route("/api/variants", get(list)).route("/api/variants/{name}/rules", get(rules))
}

/// A variant as `GET /api/variants` lists it: the registry's description,
/// and whether its finished games have an analysis (`GET
/// /api/games/{id}/analysis`), so that a client offers it without naming
/// a game.
#[derive(Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub(crate) struct Listed {
    #[serde(flatten)]
    info: VariantInfo,
    analysis: bool,
}

async fn list(State(state): State<AppState>) -> Json<Vec<Listed>> {
    let listed =
        state.variants.iter().map(|info| Listed { info: info.clone(), analysis: chesskit_ai::has_analysis(info.name) });
    Json(listed.collect())
}

/// The player-facing part of the variant's rules document
/// (docs/games/<name>.md, embedded at build time), as markdown.
async fn rules(State(state): State<AppState>, ApiPath(name): ApiPath<String>) -> Result<Response, ApiError> {
    let text = player_sections(rules_of(&state.variants, documents::RULES, &name)?);
    Ok(([(header::CONTENT_TYPE, "text/markdown; charset=utf-8")], text).into_response())
}

/// The sections of a rules document written for players; the rest of the
/// page (text positions, action syntax, code paths) is for developers.
pub const PLAYER_SECTIONS: [&str; 2] = ["The rules in our words", "Rulings"];

/// The page's title line and its [`PLAYER_SECTIONS`], each through to the
/// next `## ` heading that is not one of them, in the page's order. A
/// heading inside a fenced code block is text, not a heading. A page
/// without `## The rules in our words` (not yet written in that shape) is
/// served whole, so the rules panel is never missing the rules.
pub fn player_sections(document: &str) -> String {
    let mut out = String::new();
    let mut keeping = false;
    let mut found = false;
    let mut fenced = false;
    for (n, line) in document.split_inclusive('\n').enumerate() {
        if n == 0 && line.starts_with("# ") {
            out.push_str(line.trim_end());
            out.push_str("\n\n");
            continue;
        }
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        }
        if !fenced {
            if let Some(heading) = line.strip_prefix("## ") {
                keeping = PLAYER_SECTIONS.contains(&heading.trim());
                found |= heading.trim() == PLAYER_SECTIONS[0];
            }
        }
        if keeping {
            out.push_str(line);
        }
    }
    if !found {
        return document.to_string();
    }
    out
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

    /// A page shaped as docs/web.md asks: title, an introduction, the two
    /// player sections, and sections for developers before, between and
    /// after them (one with a `## ` line inside a code block).
    const PAGE: &str = "# Zombie Chess (`zombie`)\n\
        \n\
        Intro for developers.\n\
        \n\
        ## The rules in our words\n\
        Captured pieces are buried.\n\
        \n\
        ### Zombies\n\
        They rise.\n\
        \n\
        ## Hidden information\n\
        Code paths.\n\
        ```\n\
        ## Rulings\n\
        ```\n\
        \n\
        ## Rulings\n\
        - A ruling.\n\
        \n\
        ## Actions\n\
        `e2e4`\n";

    #[test]
    fn rules_serve_the_title_and_the_player_sections_only() {
        assert_eq!(
            player_sections(PAGE),
            "# Zombie Chess (`zombie`)\n\
             \n\
             ## The rules in our words\n\
             Captured pieces are buried.\n\
             \n\
             ### Zombies\n\
             They rise.\n\
             \n\
             ## Rulings\n\
             - A ruling.\n\
             \n"
        );
    }

    #[test]
    fn a_page_without_player_sections_is_served_whole() {
        let page = "# Chess (`chess`)\n\n## Rules\nCastling.\n\n## Rulings\nDraws.\n\n## Position\nA FEN.\n";
        assert_eq!(player_sections(page), page);
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
