//! The browser client: `/` and `/play/{id}` are its index.html, everything
//! else not under /api is a file of the built client (web/dist).

use axum::extract::State;
use axum::http::{header, Method, Uri};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{any, get};
use axum::Router;
use tower_http::services::ServeDir;

use crate::error::ApiError;
use crate::state::AppState;

pub fn router(state: &AppState) -> Router<AppState> {
    Router::new()
        .route("/", get(index))
        .route("/play/{id}", get(index))
        .route("/api", any(no_api))
        .route("/api/", any(no_api))
        .route("/api/{*rest}", any(no_api))
        .fallback_service(ServeDir::new(state.web_dir.as_ref()))
}

/// The client's page, read on each request so a rebuilt client is served
/// without a restart; a page saying how to build it when it is missing.
async fn index(State(state): State<AppState>) -> Response {
    match tokio::fs::read(state.web_dir.join("index.html")).await {
        Ok(page) => ([(header::CACHE_CONTROL, "no-cache")], Html(page)).into_response(),
        Err(_) => Html(build_help(&state.web_dir.display().to_string())).into_response(),
    }
}

fn build_help(dir: &str) -> String {
    let dir = dir.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;");
    format!(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>chesskit</title></head>\n<body>\n\
<h1>chesskit</h1>\n\
<p>The server is running, but the browser client is not built: there is no <code>index.html</code> in <code>{dir}</code>.</p>\n\
<p>Build it from the chesskit checkout, then reload this page:</p>\n\
<pre>npm --prefix web ci &amp;&amp; npm --prefix web run build</pre>\n\
<p>Or point the server at a built client with <code>chesskit serve --web DIR</code> (or the CHESSKIT_WEB environment variable).</p>\n\
<p>The JSON API answers meanwhile: try <a href=\"/api/variants\">/api/variants</a>.</p>\n\
</body></html>\n"
    )
}

/// A JSON 404 for any /api path that is no endpoint, so a client's typo is not answered with HTML.
async fn no_api(method: Method, uri: Uri) -> ApiError {
    ApiError::NotFound(format!(
        "no API endpoint {method} {} (see docs/api.md: /api/variants, /api/variants/{{name}}/rules, /api/games, /api/games/{{id}}, \
         /api/games/{{id}}/view, /api/games/{{id}}/actions, /api/games/{{id}}/ws, /api/games/{{id}}/export)",
        uri.path()
    ))
}

/// A JSON 405 for a known path with the wrong method.
pub async fn wrong_method(method: Method, uri: Uri) -> ApiError {
    ApiError::MethodNotAllowed(format!("{} does not answer {method}", uri.path()))
}
