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
}

impl ApiError {
    fn new(status: StatusCode, message: impl Into<String>) -> Self {
        ApiError { status, message: message.into() }
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
        Self::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "the database cannot store this now (nothing was changed): try again shortly",
        )
    }
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

/// The seconds a client is asked to wait before retrying after a 503.
const RETRY_AFTER_SECS: &str = "2";

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut response = (self.status, Json(serde_json::json!({ "error": self.message }))).into_response();
        if self.status == StatusCode::SERVICE_UNAVAILABLE {
            response.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from_static(RETRY_AFTER_SECS));
        }
        response
    }
}
