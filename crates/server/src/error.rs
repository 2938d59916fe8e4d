//! The one error type of the API: a status code and a sentence, sent as `{"error": "..."}` so
//! that every client (the pages, scripts, the load test) reads failures the same way.

use axum::Json;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};

/// A refused or failed request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiError {
    /// The HTTP status.
    pub status: StatusCode,
    /// What went wrong, for people.
    pub message: String,
    /// When to try again, in seconds (sent as Retry-After), for refusals that pass.
    pub retry_after_secs: Option<u64>,
}

impl ApiError {
    /// A refusal with this status and words.
    pub fn new(status: StatusCode, message: impl Into<String>) -> Self {
        ApiError { status, message: message.into(), retry_after_secs: None }
    }

    /// 400: the request cannot be understood (bad JSON, a bad vertex, an unknown variant).
    pub fn bad_request(message: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, message)
    }

    /// 401: the action needs a seat token and none was sent.
    pub fn unauthorized(message: impl Into<String>) -> Self {
        Self::new(StatusCode::UNAUTHORIZED, message)
    }

    /// 403: the token or invitation holds no right to this.
    pub fn forbidden(message: impl Into<String>) -> Self {
        Self::new(StatusCode::FORBIDDEN, message)
    }

    /// 404: no such game.
    pub fn not_found(message: impl Into<String>) -> Self {
        Self::new(StatusCode::NOT_FOUND, message)
    }

    /// 409: well-formed, but not now (out of turn, the game is over, already joined).
    pub fn conflict(message: impl Into<String>) -> Self {
        Self::new(StatusCode::CONFLICT, message)
    }

    /// 422: a move the rules refuse, with the rules' reason.
    pub fn illegal(message: impl Into<String>) -> Self {
        Self::new(StatusCode::UNPROCESSABLE_ENTITY, message)
    }

    /// 500: the server's own failure (a bug); the details go to the log, not the client.
    pub fn internal(context: &str, error: impl std::fmt::Display) -> Self {
        tracing::error!(%error, "{context}");
        Self::new(StatusCode::INTERNAL_SERVER_ERROR, format!("{context}: internal error"))
    }

    /// 503: the database cannot read or write now (a full disk, an I/O error, an outage). Nothing
    /// was stored; the same request may succeed once it recovers, which the answer's Retry-After
    /// suggests. The details go to the log.
    pub fn unavailable(error: impl std::fmt::Display) -> Self {
        tracing::error!(%error, "database");
        Self::new(StatusCode::SERVICE_UNAVAILABLE, "the database could not store this now: try again shortly")
            .retry_after(RETRY_AFTER_SECS)
    }

    /// 503 for a server that is too busy to take this now (the AI's queue is full).
    pub fn busy(message: impl Into<String>) -> Self {
        Self::new(StatusCode::SERVICE_UNAVAILABLE, message).retry_after(RETRY_AFTER_SECS)
    }

    /// 429: this client has sent more of these than its rate allows; it may again in `wait`.
    pub fn too_many(what: &str, wait: std::time::Duration) -> Self {
        metrics::counter!(crate::metrics::RATE_LIMITED, "limit" => what.to_string()).increment(1);
        let secs = wait.as_secs() + u64::from(wait.subsec_nanos() > 0);
        Self::new(StatusCode::TOO_MANY_REQUESTS, format!("too many {what}: try again in {secs} s"))
            .retry_after(secs)
    }

    fn retry_after(mut self, secs: u64) -> Self {
        self.retry_after_secs = Some(secs);
        self
    }
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

/// The seconds a client is asked to wait before retrying after a 503.
const RETRY_AFTER_SECS: u64 = 2;

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut response = (self.status, Json(serde_json::json!({ "error": self.message }))).into_response();
        if let Some(secs) = self.retry_after_secs {
            response.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from(secs));
        }
        response
    }
}
