//! Extractors whose failures speak problem+json, and bearer-token authentication.

use super::{
    error::{ApiError, ErrorCode},
    state::AppState,
};
pub use crate::sessions::Session;
use crate::{clock::now_millis, store::Player};
use axum::{
    extract::{FromRequest, FromRequestParts, OptionalFromRequestParts, rejection::JsonRejection},
    http::{StatusCode, header, request::Parts},
};
use sha2::{Digest, Sha256};

/// `axum::Json` with our error format on rejection, for bodies that are JSON objects: every
/// request body of the API is one. serde would read a struct from an array too (its fields in
/// order: `["Ann"]` as `{"name":"Ann"}`), which the spec does not allow, so a body whose JSON is
/// not an object is refused (422 `invalid_body`) before it is read.
#[derive(Debug, Clone, Copy, Default)]
pub struct Json<T>(pub T);

impl<T, S> FromRequest<S> for Json<T>
where
    T: serde::de::DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request(req: axum::extract::Request, state: &S) -> Result<Self, ApiError> {
        if !json_content_type(req.headers()) {
            return Err(ApiError::new(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                ErrorCode::UnsupportedMediaType,
                "send the body as application/json",
            ));
        }
        let bytes = axum::body::Bytes::from_request(req, state).await.map_err(|e| {
            if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
                ApiError::new(
                    StatusCode::PAYLOAD_TOO_LARGE,
                    ErrorCode::PayloadTooLarge,
                    "the body is too large",
                )
            } else {
                ApiError::bad_request(ErrorCode::BadRequest, e.body_text())
            }
        })?;
        let first = bytes.iter().find(|b| !b.is_ascii_whitespace());
        if first.is_some_and(|&b| b != b'{')
            && let Ok(other) = serde_json::from_slice::<serde_json::Value>(&bytes)
        {
            return Err(ApiError::unprocessable(ErrorCode::InvalidBody, not_an_object(&other)));
        }
        match axum::Json::<T>::from_bytes(&bytes) {
            Ok(axum::Json(value)) => Ok(Self(value)),
            // serde_json's reader calls some type errors syntax errors (an enum given a number
            // reads as "expected value"); a body that parses as JSON is not malformed, so it is
            // read again from the parsed value, whose errors say what was wrong.
            Err(JsonRejection::JsonSyntaxError(_))
                if let Ok(parsed) = serde_json::from_slice::<serde_json::Value>(&bytes) =>
            {
                serde_path_to_error::deserialize(parsed).map(Self).map_err(|e| {
                    ApiError::unprocessable(ErrorCode::InvalidBody, crate::wording::plain(&e.to_string()))
                })
            }
            Err(e) => Err(e.into()),
        }
    }
}

/// Why a body that is JSON but not an object is refused, in serde's words as the other body
/// errors are (`invalid type: string "luddo", expected an object`).
fn not_an_object(value: &serde_json::Value) -> String {
    use serde::de::Unexpected;
    use serde_json::Value;
    let unexpected = match value {
        Value::Null => Unexpected::Other("null"),
        Value::Bool(b) => Unexpected::Bool(*b),
        Value::Number(n) => match (n.as_u64(), n.as_i64()) {
            (Some(u), _) => Unexpected::Unsigned(u),
            (None, Some(i)) => Unexpected::Signed(i),
            _ => Unexpected::Float(n.as_f64().unwrap_or_default()),
        },
        Value::String(s) => Unexpected::Str(s),
        Value::Array(_) => Unexpected::Seq,
        Value::Object(_) => Unexpected::Map,
    };
    crate::wording::plain(&format!("invalid type: {unexpected}, expected an object"))
}

/// Whether the request says its body is JSON (`application/json`, or `application/…+json`), as
/// `axum::Json` asks.
fn json_content_type(headers: &axum::http::HeaderMap) -> bool {
    let Some(content_type) = headers.get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()) else {
        return false;
    };
    let essence = content_type.split(';').next().unwrap_or_default().trim().to_ascii_lowercase();
    essence
        .strip_prefix("application/")
        .is_some_and(|subtype| subtype == "json" || subtype.ends_with("+json"))
}

impl<T: serde::Serialize> axum::response::IntoResponse for Json<T> {
    fn into_response(self) -> axum::response::Response {
        axum::Json(self.0).into_response()
    }
}

/// `axum::extract::Path` with our error format on rejection.
#[derive(Debug, FromRequestParts)]
#[from_request(via(axum::extract::Path), rejection(ApiError))]
pub struct Path<T>(pub T);

/// `axum::extract::Query` with our error format on rejection.
#[derive(Debug, FromRequestParts)]
#[from_request(via(axum::extract::Query), rejection(ApiError))]
pub struct Query<T>(pub T);

/// A new bearer token: 256 bits from the OS RNG, hex.
pub fn new_token() -> String {
    let mut bytes = [0u8; 32];
    rand::TryRngCore::try_fill_bytes(&mut rand::rngs::OsRng, &mut bytes)
        .expect("the operating system's RNG is available");
    format!("ldo_{}", hex::encode(bytes))
}

/// What the store keeps of a token: its SHA-256, hex.
pub fn token_hash(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

/// The authenticated player behind `Authorization: Bearer <token>`.
#[derive(Debug, Clone)]
pub struct Auth(pub Player);

impl FromRequestParts<AppState> for Session {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        match bearer(parts)? {
            Some(token) => authenticate(state, token).await,
            None => Err(ApiError::unauthorized("send Authorization: Bearer <token>")),
        }
    }
}

impl OptionalFromRequestParts<AppState> for Session {
    type Rejection = ApiError;

    /// No header: anonymous. A header with a bad token is still an error, never anonymous.
    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Option<Self>, ApiError> {
        match bearer(parts)? {
            Some(token) => authenticate(state, token).await.map(Some),
            None => Ok(None),
        }
    }
}

impl FromRequestParts<AppState> for Auth {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        <Session as FromRequestParts<AppState>>::from_request_parts(parts, state)
            .await
            .map(|s| Auth(s.player))
    }
}

impl OptionalFromRequestParts<AppState> for Auth {
    type Rejection = ApiError;

    /// As an optional [`Session`].
    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Option<Self>, ApiError> {
        let session =
            <Session as OptionalFromRequestParts<AppState>>::from_request_parts(parts, state).await?;
        Ok(session.map(|s| Auth(s.player)))
    }
}

fn bearer(parts: &Parts) -> Result<Option<&str>, ApiError> {
    let Some(value) = parts.headers.get(header::AUTHORIZATION) else { return Ok(None) };
    let value = value.to_str().map_err(|_| ApiError::unauthorized("malformed Authorization header"))?;
    match value.split_once(' ') {
        Some((scheme, token)) if scheme.eq_ignore_ascii_case("bearer") && !token.trim().is_empty() => {
            Ok(Some(token.trim()))
        }
        _ => Err(ApiError::unauthorized("use Authorization: Bearer <token>")),
    }
}

/// The session of a bearer token: from this process's recent sessions
/// (`crate::sessions::Sessions`) if there, else looked up in the store by the token's hash and
/// kept. An unknown, revoked or expired token is refused alike. The hash of an unknown token
/// matches nothing; the final comparison is in constant time so the lookup's timing says
/// nothing about near misses.
pub async fn authenticate(state: &AppState, token: &str) -> Result<Session, ApiError> {
    let hash = token_hash(token);
    let now = now_millis();
    let sessions = state.revocations.sessions();
    if let Some(session) = sessions.get(&hash, now) {
        return not_banned(session, now);
    }
    let read = sessions.before_read();
    match state.store.session_by_token_hash(&hash, now).await? {
        Some((player, token, stored, banned_until))
            if constant_time_eq(stored.as_bytes(), hash.as_bytes()) =>
        {
            let session = Session { player, token_id: token.id, expires_at: token.expires_at, banned_until };
            sessions.insert(hash, session.clone(), read, token.last_used_due(now));
            not_banned(session, now)
        }
        _ => Err(ApiError::unauthorized("unknown, revoked or expired token")),
    }
}

/// `session`, unless a moderator's ban on its player runs at `now` (403 `banned`).
fn not_banned(session: Session, now: i64) -> Result<Session, ApiError> {
    match session.banned_until {
        Some(until) if until > now => Err(ApiError::new(
            StatusCode::FORBIDDEN,
            ErrorCode::Banned,
            format!("banned until {}", crate::clock::rfc3339(until)),
        )),
        _ => Ok(session),
    }
}

fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_long_random_and_hashed() {
        let a = new_token();
        let b = new_token();
        assert_ne!(a, b);
        assert_eq!(a.len(), 4 + 64);
        assert_eq!(token_hash(&a).len(), 64);
        assert_ne!(token_hash(&a), a);
    }

    #[test]
    fn constant_time_eq_compares_whole_strings() {
        assert!(constant_time_eq(b"abc", b"abc"));
        assert!(!constant_time_eq(b"abc", b"abd"));
        assert!(!constant_time_eq(b"abc", b"ab"));
    }
}

/// A JSON body that may be left out entirely (then `T::default()`): for POSTs whose every
/// field is optional, such as joining a table.
#[derive(Debug, Clone, Default)]
pub struct JsonOrEmpty<T>(pub T);

impl<T, S> FromRequest<S> for JsonOrEmpty<T>
where
    T: serde::de::DeserializeOwned + Default,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request(req: axum::extract::Request, state: &S) -> Result<Self, ApiError> {
        let empty = req.headers().get(header::CONTENT_LENGTH).is_some_and(|v| v == "0")
            || (req.headers().get(header::CONTENT_LENGTH).is_none()
                && req.headers().get(header::TRANSFER_ENCODING).is_none());
        if empty {
            return Ok(Self(T::default()));
        }
        let Json(value) = Json::<T>::from_request(req, state).await?;
        Ok(Self(value))
    }
}
