//! Players: sign-up (which hands out a bearer token) and who-am-I.

use super::{
    AppState,
    client_addr::ClientIp,
    error::{ApiError, ApiResult, ErrorCode},
    extract::{Auth, Json, new_token, token_hash},
};
use crate::clock::rfc3339;
use axum::{
    Router,
    extract::State,
    http::StatusCode,
    routing::{get, post},
};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

pub fn router() -> Router<AppState> {
    Router::new().route("/v1/players", post(create)).route("/v1/players/me", get(me))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct CreatePlayer {
    name: String,
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
    use unicode_normalization::UnicodeNormalization;
    use unicode_properties::{GeneralCategory, UnicodeGeneralCategory};
    let name: String = name.nfc().collect();
    let name = name.trim();
    let chars = name.chars().count();
    if chars == 0 || chars > MAX_NAME_CHARS {
        return Err(ApiError::unprocessable(ErrorCode::InvalidName, "a name has 1 to 32 visible characters"));
    }
    let hidden = |c: char| {
        matches!(
            c.general_category(),
            GeneralCategory::Control
                | GeneralCategory::Format
                | GeneralCategory::LineSeparator
                | GeneralCategory::ParagraphSeparator
        )
    };
    if let Some(c) = name.chars().find(|&c| hidden(c)) {
        return Err(ApiError::unprocessable(
            ErrorCode::InvalidName,
            format!("a name cannot contain invisible or control characters (U+{:04X})", c as u32),
        ));
    }
    Ok(name.to_string())
}

async fn create(
    State(state): State<AppState>,
    ClientIp(client): ClientIp,
    Json(body): Json<CreatePlayer>,
) -> ApiResult<(StatusCode, Json<CreatedPlayer>)> {
    let per_minute = state.config.rate_per_minute;
    state.limiter.check("players", &client.to_string(), per_minute).map_err(ApiError::rate_limited)?;
    let name = valid_name(&body.name)?;
    let token = new_token();
    let player = state.store.create_player(&name, &token_hash(&token)).await?;
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
