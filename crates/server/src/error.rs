//! The one error type of the API: every refusal is `{"error": "..."}` with
//! a status that says whose fault it was, and nothing changed.

use axum::extract::{FromRequest, FromRequestParts, Path, Query, Request};
use axum::http::request::Parts;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use chesskit_core::RuleError;
use serde::de::DeserializeOwned;

/// Why a request was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ApiError {
    /// 400: the body or query could not be read.
    BadRequest(String),
    /// 403: the token is missing or is no seat's token.
    Forbidden(String),
    /// 404: no such game, variant or path.
    NotFound(String),
    /// 405: the path exists but not with this method.
    MethodNotAllowed(String),
    /// 409: the request is well formed but the game's state forbids it now
    /// (not this seat's turn, the game is over, secrets not yet public).
    Conflict(String),
    /// 422: the action, options or position were read but are not valid.
    Unprocessable(String),
    /// 500: our fault. The detail is logged, never sent.
    Internal(String),
    /// 503: the game is owned by another server that cannot be reached
    /// now (several servers on one database); trying again may succeed.
    Unavailable(String),
    /// 429: the client asked too often (see [`crate::limits`]); it may
    /// try again after `retry_after` seconds, sent as `Retry-After`.
    TooManyRequests { message: String, retry_after: u64 },
}

impl ApiError {
    pub fn status(&self) -> StatusCode {
        match self {
            ApiError::BadRequest(_) => StatusCode::BAD_REQUEST,
            ApiError::Forbidden(_) => StatusCode::FORBIDDEN,
            ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::MethodNotAllowed(_) => StatusCode::METHOD_NOT_ALLOWED,
            ApiError::Conflict(_) => StatusCode::CONFLICT,
            ApiError::Unprocessable(_) => StatusCode::UNPROCESSABLE_ENTITY,
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
            ApiError::Unavailable(_) => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::TooManyRequests { .. } => StatusCode::TOO_MANY_REQUESTS,
        }
    }

    /// The message sent to the client: the reason for a 4xx, a generic
    /// sentence for a 5xx (whose detail goes to the log instead).
    pub fn message(&self) -> String {
        match self {
            ApiError::BadRequest(m)
            | ApiError::Forbidden(m)
            | ApiError::NotFound(m)
            | ApiError::MethodNotAllowed(m)
            | ApiError::Conflict(m)
            | ApiError::Unprocessable(m)
            | ApiError::Unavailable(m)
            | ApiError::TooManyRequests { message: m, .. } => m.clone(),
            ApiError::Internal(_) => "internal server error (the server's log has the details)".to_string(),
        }
    }

    /// The error another server answered with `status` and `message` (a
    /// forwarded action's refusal), passed on as it was.
    pub fn from_status(status: StatusCode, message: String) -> ApiError {
        match status {
            StatusCode::BAD_REQUEST => ApiError::BadRequest(message),
            StatusCode::FORBIDDEN => ApiError::Forbidden(message),
            StatusCode::NOT_FOUND => ApiError::NotFound(message),
            StatusCode::METHOD_NOT_ALLOWED => ApiError::MethodNotAllowed(message),
            StatusCode::CONFLICT => ApiError::Conflict(message),
            StatusCode::UNPROCESSABLE_ENTITY => ApiError::Unprocessable(message),
            StatusCode::SERVICE_UNAVAILABLE => ApiError::Unavailable(message),
            StatusCode::TOO_MANY_REQUESTS => ApiError::TooManyRequests { message, retry_after: 1 },
            status => ApiError::Internal(format!("another server answered {status}: {message}")),
        }
    }

    /// Log the detail of a server-side failure.
    pub fn log(&self) {
        if let ApiError::Internal(detail) = self {
            eprintln!("chesskit server error: {detail}");
        }
    }
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {}", self.status().as_u16(), self.message())
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        self.log();
        let mut response = (self.status(), Json(serde_json::json!({ "error": self.message() }))).into_response();
        if let ApiError::TooManyRequests { retry_after, .. } = self {
            response.headers_mut().insert(axum::http::header::RETRY_AFTER, retry_after.into());
        }
        response
    }
}

/// The rules' refusals: out of turn or after the end is a conflict with the
/// game's state (409); an unreadable or illegal action is unprocessable (422).
impl From<RuleError> for ApiError {
    fn from(error: RuleError) -> ApiError {
        match error {
            RuleError::GameOver | RuleError::NotYourTurn { .. } => ApiError::Conflict(error.to_string()),
            RuleError::NoSuchSeat { .. } => ApiError::Forbidden(error.to_string()),
            RuleError::Malformed { .. } | RuleError::Illegal { .. } => ApiError::Unprocessable(error.to_string()),
        }
    }
}

/// A JSON body whose failures are [`ApiError::BadRequest`] with serde's
/// reason ("missing field `action` at line 1 column 15"). The Content-Type
/// is not checked: a body that parses is accepted.
pub struct ApiJson<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for ApiJson<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, ApiError> {
        let bytes = axum::body::Bytes::from_request(req, state)
            .await
            .map_err(|e| ApiError::BadRequest(format!("cannot read the request body: {e}")))?;
        serde_json::from_slice(&bytes)
            .map(ApiJson)
            .map_err(|e| ApiError::BadRequest(format!("the request body is not the expected JSON: {e}")))
    }
}

/// A path parameter whose failures (such as bytes that are not UTF-8) are
/// [`ApiError::BadRequest`], in JSON like every other error.
pub struct ApiPath<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned + Send> FromRequestParts<S> for ApiPath<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        Path::<T>::from_request_parts(parts, state)
            .await
            .map(|Path(p)| ApiPath(p))
            .map_err(|e| ApiError::BadRequest(format!("bad path: {}", e.body_text())))
    }
}

/// A query string whose failures are [`ApiError::BadRequest`].
pub struct ApiQuery<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequestParts<S> for ApiQuery<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        Query::<T>::from_request_parts(parts, state)
            .await
            .map(|Query(q)| ApiQuery(q))
            .map_err(|e| ApiError::BadRequest(format!("bad query string: {}", e.body_text())))
    }
}
