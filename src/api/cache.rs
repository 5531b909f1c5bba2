//! Conditional GETs of what changes only with a new build or a restart (the web client's files,
//! the games' registry): a strong `ETag` and `Cache-Control: no-cache`, so a client keeps the
//! body but asks again each time, and a `304` when its copy is current.

use axum::{
    http::{HeaderMap, HeaderValue, StatusCode, header},
    response::{IntoResponse, Response},
};
use sha2::{Digest, Sha256};

/// The strong `ETag` of `body`: the first 16 bytes of its SHA-256, in hex.
pub fn etag(body: &[u8]) -> HeaderValue {
    let hex: String = Sha256::digest(body).iter().take(16).map(|b| format!("{b:02x}")).collect();
    HeaderValue::from_str(&format!("\"{hex}\"")).expect("hex is a valid header value")
}

/// `body` as `content_type` with its `etag`, or `304 Not Modified` when the request's
/// `If-None-Match` names it.
pub fn serve(
    headers: &HeaderMap,
    etag: HeaderValue,
    content_type: &'static str,
    body: impl IntoResponse,
) -> Response {
    let current = headers
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|tags| tags.split(',').any(|tag| tag.trim() == etag.to_str().unwrap_or_default()));
    let cache = [(header::ETAG, etag), (header::CACHE_CONTROL, HeaderValue::from_static("no-cache"))];
    if current {
        return (StatusCode::NOT_MODIFIED, cache).into_response();
    }
    (cache, [(header::CONTENT_TYPE, content_type)], body).into_response()
}
