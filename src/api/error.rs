//! The one error type of the HTTP API, rendered as RFC 9457 problem+json.
//!
//! Every failure has a stable `code` (also the last segment of `type`), which clients may match
//! on; `detail` is for humans. Internal errors are logged with their cause and answered with a
//! bare 500 that reveals nothing.

use crate::{
    store::{Constraint, StoreError},
    table::PlayError,
};
use axum::{
    Json,
    extract::rejection::{JsonRejection, PathRejection, QueryRejection},
    http::{HeaderValue, StatusCode, header},
    response::{IntoResponse, Response},
};
use serde::Serialize;
use std::time::Duration;

/// A failed request: status, stable code, human detail.
#[derive(Debug)]
pub struct ApiError {
    pub status: StatusCode,
    pub code: &'static str,
    pub detail: String,
    /// For 429: when to try again.
    pub retry_after: Option<Duration>,
}

/// The problem+json body.
#[derive(Debug, Serialize)]
struct Problem<'a> {
    #[serde(rename = "type")]
    kind: String,
    title: &'a str,
    status: u16,
    detail: &'a str,
    code: &'a str,
}

pub type ApiResult<T> = Result<T, ApiError>;

impl ApiError {
    pub fn new(status: StatusCode, code: &'static str, detail: impl Into<String>) -> Self {
        Self { status, code, detail: detail.into(), retry_after: None }
    }
    pub fn bad_request(code: &'static str, detail: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, code, detail)
    }
    pub fn unprocessable(code: &'static str, detail: impl Into<String>) -> Self {
        Self::new(StatusCode::UNPROCESSABLE_ENTITY, code, detail)
    }
    pub fn unauthorized(detail: impl Into<String>) -> Self {
        Self::new(StatusCode::UNAUTHORIZED, "unauthorized", detail)
    }
    pub fn forbidden(code: &'static str, detail: impl Into<String>) -> Self {
        Self::new(StatusCode::FORBIDDEN, code, detail)
    }
    pub fn not_found(detail: impl Into<String>) -> Self {
        Self::new(StatusCode::NOT_FOUND, "not_found", detail)
    }
    pub fn table_not_found() -> Self {
        Self::new(StatusCode::NOT_FOUND, "table_not_found", "no such table")
    }
    pub fn conflict(code: &'static str, detail: impl Into<String>) -> Self {
        Self::new(StatusCode::CONFLICT, code, detail)
    }
    pub fn rate_limited(retry_after: Duration) -> Self {
        Self::too_many("rate_limited", "too many requests; slow down", retry_after)
    }
    /// A 429 for a bound that frees up by itself (a budget refills, a connection closes, a table
    /// ends): `retry_after` is when trying again is worth it.
    pub fn too_many(code: &'static str, detail: impl Into<String>, retry_after: Duration) -> Self {
        Self { retry_after: Some(retry_after), ..Self::new(StatusCode::TOO_MANY_REQUESTS, code, detail) }
    }
    pub fn unavailable(detail: impl Into<String>) -> Self {
        Self::new(StatusCode::SERVICE_UNAVAILABLE, "unavailable", detail)
    }
    /// An internal failure: logged here with its cause, answered without it.
    pub fn internal(cause: impl std::fmt::Display) -> Self {
        tracing::error!(%cause, "internal error");
        Self::new(StatusCode::INTERNAL_SERVER_ERROR, "internal", "an internal error occurred")
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let title = self.status.canonical_reason().unwrap_or("Error");
        let body = Problem {
            kind: format!("https://luddo.dev/problems/{}", self.code),
            title,
            status: self.status.as_u16(),
            detail: &self.detail,
            code: self.code,
        };
        let mut response = (self.status, Json(body)).into_response();
        let headers = response.headers_mut();
        headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("application/problem+json"));
        if self.status == StatusCode::UNAUTHORIZED {
            // RFC 9110 §11.6.1 / RFC 6750 §3: the scheme to authenticate with.
            headers.insert(header::WWW_AUTHENTICATE, HeaderValue::from_static(r#"Bearer realm="luddo""#));
        }
        if let Some(after) = self.retry_after {
            let secs = after.as_secs_f64().ceil().max(1.0) as u64;
            headers.insert(header::RETRY_AFTER, HeaderValue::from(secs));
        }
        response
    }
}

impl From<StoreError> for ApiError {
    fn from(e: StoreError) -> Self {
        match e {
            StoreError::Unavailable(cause) => {
                tracing::warn!(%cause, "database unavailable");
                ApiError::unavailable("the database is unavailable; try again shortly")
            }
            StoreError::Conflict(Constraint::SeatTaken) => {
                ApiError::conflict("seat_taken", "that seat is taken")
            }
            StoreError::Conflict(Constraint::AlreadySeated) => {
                ApiError::conflict("already_seated", "you already have a seat at this table")
            }
            StoreError::Conflict(Constraint::LogSeq) => ApiError::conflict(
                "stale_seq",
                "the table has moved on; read the latest entries and try again",
            ),
            StoreError::Conflict(Constraint::Other) => {
                ApiError::conflict("conflict", "the request clashed with another; try again")
            }
            // Another server process drives the table; it comes back here if that one stops.
            StoreError::Fenced => ApiError {
                retry_after: Some(Duration::from_secs(1)),
                ..ApiError::new(
                    StatusCode::SERVICE_UNAVAILABLE,
                    "table_elsewhere",
                    "the table is being played on another server; try again shortly",
                )
            },
            other => ApiError::internal(other),
        }
    }
}

/// A refused action or reclaim: the table's reason, as a status and a code.
impl From<PlayError> for ApiError {
    fn from(e: PlayError) -> Self {
        let detail = e.to_string();
        match e {
            PlayError::StaleSeq { .. } => ApiError::conflict("stale_seq", detail),
            PlayError::NotSeated => ApiError::forbidden("not_your_seat", detail),
            PlayError::NotYourTurn(_) => ApiError::conflict("not_your_turn", detail),
            PlayError::Illegal(_) => ApiError::unprocessable("illegal_action", detail),
            PlayError::GameOver => ApiError::conflict("game_over", detail),
            PlayError::NotBotControlled => ApiError::conflict("not_bot_controlled", detail),
            PlayError::TableStopped => ApiError::unavailable(detail),
            PlayError::Store(e) => e.into(),
            PlayError::Corrupt(e) => ApiError::internal(e),
        }
    }
}

impl From<JsonRejection> for ApiError {
    fn from(r: JsonRejection) -> Self {
        match r {
            JsonRejection::JsonDataError(e) => ApiError::unprocessable("invalid_body", body_error_text(&e)),
            JsonRejection::JsonSyntaxError(e) => ApiError::bad_request(
                "malformed_json",
                format!("the body is not valid JSON: {}", body_error_text(&e)),
            ),
            JsonRejection::MissingJsonContentType(_) => ApiError::new(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "unsupported_media_type",
                "send the body as application/json",
            ),
            JsonRejection::BytesRejection(e) if e.status() == StatusCode::PAYLOAD_TOO_LARGE => {
                ApiError::new(StatusCode::PAYLOAD_TOO_LARGE, "payload_too_large", "the body is too large")
            }
            other => ApiError::bad_request("bad_request", other.body_text()),
        }
    }
}

/// The innermost error message of a JSON rejection (serde's own words, with line and column),
/// without axum's prefix.
fn body_error_text(e: &dyn std::error::Error) -> String {
    let mut inner: &dyn std::error::Error = e;
    while let Some(source) = inner.source() {
        inner = source;
    }
    inner.to_string()
}

impl From<PathRejection> for ApiError {
    fn from(r: PathRejection) -> Self {
        ApiError::not_found(format!("no such resource: {}", r.body_text()))
    }
}

impl From<QueryRejection> for ApiError {
    fn from(r: QueryRejection) -> Self {
        ApiError::bad_request("invalid_query", r.body_text())
    }
}
