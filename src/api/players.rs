//! Players: sign-up (which hands out a bearer token), who-am-I, and the player's tokens: more
//! of them (to keep one offline for recovery), the list, revoking one, logging out.

use super::{
    AppState, body,
    client_addr::ClientIp,
    error::{ApiError, ApiResult, ErrorCode},
    extract::{Auth, Json, JsonOrEmpty, Path, Session, new_token, token_hash},
};
use crate::{
    clock::{now_millis, rfc3339},
    store::{NewToken, Token},
};
use axum::{
    Router,
    extract::State,
    http::StatusCode,
    routing::{delete, get, post},
};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/v1/players", post(create))
        .route("/v1/players/me", get(me))
        .route("/v1/players/me/tokens", post(create_token).get(tokens))
        .route("/v1/players/me/tokens/{id}", delete(revoke_token))
        .route("/v1/players/me/logout", post(logout))
}

/// Most tokens a player may hold at once (expired ones do not count): a client cannot grow the
/// store without bound; past it, 409 `too_many_tokens` until one is revoked.
pub const MAX_TOKENS: usize = 20;

/// Longest lifetime a token may be given: ten years, in seconds.
pub const MAX_EXPIRES_IN_SECONDS: u64 = 10 * 365 * 24 * 3600;

/// Longest token label, in characters.
pub const MAX_LABEL_CHARS: usize = 64;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct CreatePlayer {
    name: String,
    /// The sign-up token's lifetime; none: it never expires.
    #[serde(default, deserialize_with = "body::some_whole")]
    expires_in_seconds: Option<u64>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct CreateToken {
    #[serde(default, deserialize_with = "body::some")]
    label: Option<String>,
    #[serde(default, deserialize_with = "body::some_whole")]
    expires_in_seconds: Option<u64>,
}

/// A token as its holder sees it in the list: never the secret.
#[derive(Debug, Serialize)]
struct TokenView {
    id: Uuid,
    #[serde(skip_serializing_if = "Option::is_none")]
    label: Option<String>,
    created_at: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    last_used_at: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    expires_at: Option<String>,
    /// The token this request was sent with.
    current: bool,
}

impl TokenView {
    fn of(token: Token, current: Uuid) -> Self {
        Self {
            id: token.id,
            current: token.id == current,
            label: token.label,
            created_at: rfc3339(token.created_at),
            last_used_at: token.last_used_at.map(rfc3339),
            expires_at: token.expires_at.map(rfc3339),
        }
    }
}

/// A new token: the only time its secret is shown.
#[derive(Debug, Serialize)]
struct CreatedToken {
    #[serde(flatten)]
    view: TokenView,
    token: String,
}

#[derive(Debug, Serialize)]
struct TokenList {
    tokens: Vec<TokenView>,
}

/// When a token given `expires_in_seconds` from `now` (Unix ms) expires.
fn expires_at(now: i64, expires_in_seconds: Option<u64>) -> Result<Option<i64>, ApiError> {
    match expires_in_seconds {
        None => Ok(None),
        Some(s) if (1..=MAX_EXPIRES_IN_SECONDS).contains(&s) => Ok(Some(now + s as i64 * 1000)),
        Some(_) => Err(ApiError::unprocessable(
            ErrorCode::InvalidBody,
            format!("expires_in_seconds is 1 to {MAX_EXPIRES_IN_SECONDS} (ten years)"),
        )),
    }
}

/// `label` trimmed, if it is 1–64 characters without control characters.
fn valid_label(label: &str) -> Result<String, ApiError> {
    let label = label.trim();
    let chars = label.chars().count();
    if chars == 0 || chars > MAX_LABEL_CHARS || label.chars().any(char::is_control) {
        return Err(ApiError::unprocessable(
            ErrorCode::InvalidBody,
            format!("a label has 1 to {MAX_LABEL_CHARS} characters and no control characters"),
        ));
    }
    Ok(label.to_string())
}

/// A player as others see them.
#[derive(Debug, Serialize)]
pub struct PlayerView {
    pub id: Uuid,
    pub name: String,
    pub created_at: String,
}

/// The answer to sign-up: the only time the token is ever shown.
#[derive(Debug, Serialize)]
struct CreatedPlayer {
    #[serde(flatten)]
    player: PlayerView,
    token: String,
}

/// Longest player name, in characters.
pub const MAX_NAME_CHARS: usize = 32;

/// `name` in Unicode NFC without surrounding white space, if it is 1–32 visible characters.
///
/// Refused: control characters (Cc), format characters (Cf: zero-width spaces and joiners, bidi
/// overrides and isolates, the BOM, soft hyphens…), line and paragraph separators (Zl, Zp), and
/// names of white space alone. A name shows as what it says: no invisible name, none that
/// reorders the text around it, none that looks like another name but for hidden characters.
pub fn valid_name(name: &str) -> Result<String, ApiError> {
    let name = crate::wording::visible_text(name).map_err(|c| {
        ApiError::unprocessable(
            ErrorCode::InvalidName,
            format!("a name cannot contain invisible or control characters (U+{:04X})", c as u32),
        )
    })?;
    let chars = name.chars().count();
    if chars == 0 || chars > MAX_NAME_CHARS {
        return Err(ApiError::unprocessable(ErrorCode::InvalidName, "a name has 1 to 32 visible characters"));
    }
    Ok(name)
}

async fn create(
    State(state): State<AppState>,
    ClientIp(client): ClientIp,
    Json(body): Json<CreatePlayer>,
) -> ApiResult<(StatusCode, Json<CreatedPlayer>)> {
    let per_minute = state.config.rate_per_minute;
    state.limiter.check("players", &client.to_string(), per_minute).map_err(ApiError::rate_limited)?;
    let name = valid_name(&body.name)?;
    let expires_at = expires_at(now_millis(), body.expires_in_seconds)?;
    let token = new_token();
    let player = state.store.create_player(&name, &token_hash(&token), expires_at).await?;
    tracing::info!(player = %player.id, "player created");
    Ok((
        StatusCode::CREATED,
        Json(CreatedPlayer {
            player: PlayerView { id: player.id, name: player.name, created_at: rfc3339(player.created_at) },
            token,
        }),
    ))
}

async fn me(Auth(player): Auth) -> Json<PlayerView> {
    Json(PlayerView { id: player.id, name: player.name, created_at: rfc3339(player.created_at) })
}

async fn create_token(
    State(state): State<AppState>,
    session: Session,
    JsonOrEmpty(body): JsonOrEmpty<CreateToken>,
) -> ApiResult<(StatusCode, Json<CreatedToken>)> {
    let label = body.label.as_deref().map(valid_label).transpose()?;
    let now = now_millis();
    let expires_at = expires_at(now, body.expires_in_seconds)?;
    let token = new_token();
    let hash = token_hash(&token);
    let created = state
        .store
        .create_token(session.player.id, &hash, label.as_deref(), expires_at, now, MAX_TOKENS)
        .await?;
    match created {
        NewToken::Created(t) => {
            tracing::info!(player = %session.player.id, token = %t.id, "token created");
            Ok((StatusCode::CREATED, Json(CreatedToken { view: TokenView::of(t, session.token_id), token })))
        }
        NewToken::CapReached => Err(ApiError::conflict(
            ErrorCode::TooManyTokens,
            format!("a player holds at most {MAX_TOKENS} tokens; revoke one first"),
        )),
    }
}

async fn tokens(State(state): State<AppState>, session: Session) -> ApiResult<Json<TokenList>> {
    let tokens = state.store.tokens_of(session.player.id, now_millis()).await?;
    Ok(Json(TokenList { tokens: tokens.into_iter().map(|t| TokenView::of(t, session.token_id)).collect() }))
}

/// Revokes one of the caller's tokens at once (the one in use too, like logout), and closes
/// its WebSockets on every process (`crate::revocations`). Another player's token is as unknown
/// as a token that never was.
async fn revoke_token(
    State(state): State<AppState>,
    session: Session,
    Path(id): Path<Uuid>,
) -> ApiResult<StatusCode> {
    if !state.store.revoke_token(session.player.id, id).await? {
        return Err(ApiError::not_found("you hold no token with this id"));
    }
    state.revocations.revoke(id);
    tracing::info!(player = %session.player.id, token = %id, "token revoked");
    Ok(StatusCode::NO_CONTENT)
}

/// Revokes the token this request was sent with, and closes its WebSockets.
async fn logout(State(state): State<AppState>, session: Session) -> ApiResult<StatusCode> {
    state.store.revoke_token(session.player.id, session.token_id).await?;
    state.revocations.revoke(session.token_id);
    Ok(StatusCode::NO_CONTENT)
}
