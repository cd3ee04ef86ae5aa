//! `GET /api/variants/{name}/examples`: the rule book's worked examples of
//! a game (crates/games/testdata/book-examples.md), each with the view of
//! its position; `POST /api/variants/{name}/examples/{index}`: the
//! referee's answer to the moves a player tried on one. Nothing is stored:
//! each answer replays the example from its position through the real
//! game, so the referee stays the judge and no game is created.

use axum::extract::State;
use axum::routing::{get, post};
use axum::{Json, Router};
use chesskit_core::game::Viewer;
use chesskit_core::view::View;
use chesskit_games::examples::{Example, Verdict};
use serde::{Deserialize, Serialize};

use crate::error::{ApiError, ApiJson, ApiPath};
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/variants/{name}/examples", get(list))
        .route("/api/variants/{name}/examples/{index}", post(attempt))
}

/// One example as the game's page offers it.
#[derive(Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub(crate) struct ExampleInfo {
    title: String,
    /// The rule it shows, in the book's words.
    clause: String,
    /// What to try.
    prompt: String,
    /// The book's moves, as action text.
    moves: Vec<String>,
    /// The referee's answer to them, in words.
    answer: String,
    /// The book and section it comes from.
    source: String,
    /// The position set up, as the player making the moves sees it.
    view: View,
}

/// The body of `POST /api/variants/{name}/examples/{index}`: every move
/// tried so far, from the example's position.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Attempt {
    actions: Vec<String>,
}

/// The referee's answer to an attempt.
#[derive(Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub(crate) struct AttemptReply {
    /// `continue` (the book's moves so far: make the next), `correct` (all
    /// of them, answered as the book says), `refused` (the last move is
    /// not allowed; the view is as before it), `different` (allowed, but
    /// not the book's move) or `disagrees` (the referee's answer is not the
    /// book's: a bug to report).
    verdict: String,
    /// The answer in words, for the page to show.
    message: String,
    /// The example's board after the accepted moves.
    view: View,
}

async fn list(
    State(state): State<AppState>,
    ApiPath(name): ApiPath<String>,
) -> Result<Json<Vec<ExampleInfo>>, ApiError> {
    let examples = examples_of(&state, &name)?;
    let infos = examples.into_iter().map(info).collect::<Result<Vec<_>, _>>()?;
    Ok(Json(infos))
}

fn info(example: &Example) -> Result<ExampleInfo, ApiError> {
    let tried = example.try_moves(&[]).map_err(|e| ApiError::Internal(format!("{}: {e}", example.title)))?;
    Ok(ExampleInfo {
        title: example.title.clone(),
        clause: example.clause.clone(),
        prompt: example.prompt.clone(),
        moves: example.moves.clone(),
        answer: example.answer.clone(),
        source: example.section.clone(),
        view: tried.game.view(Viewer::Seat(tried.seat)),
    })
}

async fn attempt(
    State(state): State<AppState>,
    ApiPath((name, index)): ApiPath<(String, usize)>,
    ApiJson(body): ApiJson<Attempt>,
) -> Result<Json<AttemptReply>, ApiError> {
    let examples = examples_of(&state, &name)?;
    let example = examples.get(index).ok_or_else(|| {
        ApiError::NotFound(format!("{name} has {} examples; there is no example {index}", examples.len()))
    })?;
    if body.actions.len() > example.moves.len() {
        return Err(ApiError::BadRequest(format!(
            "{} actions for an example of {} move(s): start it again",
            body.actions.len(),
            example.moves.len()
        )));
    }
    let tried = example.try_moves(&body.actions).map_err(|e| ApiError::Internal(format!("{}: {e}", example.title)))?;
    let (verdict, message) = words(example, &tried.verdict);
    Ok(Json(AttemptReply { verdict: verdict.into(), message, view: tried.game.view(Viewer::Seat(tried.seat)) }))
}

/// The verdict's name and the referee's answer in words.
fn words(example: &Example, verdict: &Verdict) -> (&'static str, String) {
    match verdict {
        Verdict::Continue => ("continue", "The referee accepts the move: now make the next one.".into()),
        Verdict::Correct => ("correct", format!("Correct: {}, as the book says.", trim_stop(&example.answer))),
        Verdict::Refused { action, reason } => ("refused", format!("The referee refuses {action}: {reason}")),
        Verdict::Different { action, expected } => {
            ("different", format!("The referee accepts {action}, but the book's example plays {expected}: try that."))
        }
        Verdict::Disagrees(why) => ("disagrees", format!("The referee does not answer as the book does: {why}")),
    }
}

/// `text` without its final full stop, to go inside a sentence.
fn trim_stop(text: &str) -> &str {
    text.trim_end().trim_end_matches('.')
}

/// The examples of a variant this server referees (none for one the books
/// give no example of); 404 for one it does not.
fn examples_of(state: &AppState, name: &str) -> Result<Vec<&'static Example>, ApiError> {
    if state.variant(name).is_none() {
        let known: Vec<&str> = state.variants.iter().map(|v| v.name).collect();
        return Err(ApiError::NotFound(format!("no variant {name:?} (known: {})", known.join(", "))));
    }
    Ok(chesskit_games::examples::of(name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_answer_reads_as_one_sentence() {
        let example = chesskit_games::examples::of("gravity")[0];
        let (verdict, message) = words(example, &Verdict::Correct);
        assert_eq!(verdict, "correct");
        assert!(message.starts_with("Correct: with the bishop gone"), "{message}");
        assert!(message.ends_with("on the top row, as the book says."), "{message}");
    }
}
