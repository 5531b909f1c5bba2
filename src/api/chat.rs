//! Table chat over HTTP (the socket's `chat` message is the other way in: `ws::protocol`) and
//! the player's mutes (docs/social.md).

use super::{
    AppState,
    access::visible_table,
    body,
    error::{ApiError, ApiResult, ErrorCode},
    extract::{Auth, Json, Path, Query},
};
use crate::{
    chat::{MAX_MESSAGES_PER_TABLE, MAX_MUTES, Said, feed::ChatView},
    clock::{now_millis, rfc3339},
    store::{ChatMessage, ChatSettings},
};
use axum::{
    Router,
    extract::State,
    http::StatusCode,
    routing::{get, put},
};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/v1/tables/{id}/chat", get(read).post(post).patch(settings))
        .route("/v1/players/me/mutes", get(mutes))
        .route("/v1/players/me/mutes/{player_id}", put(mute).delete(unmute))
}

/// A message as posted: `text` or `emote`, not both.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChatBody {
    #[serde(default, deserialize_with = "body::some")]
    text: Option<String>,
    #[serde(default, deserialize_with = "body::some")]
    emote: Option<String>,
}

impl ChatBody {
    pub fn new(text: Option<String>, emote: Option<String>) -> Self {
        Self { text, emote }
    }

    /// What the body says.
    pub fn said(self) -> ApiResult<Said> {
        match (self.text, self.emote) {
            (Some(text), None) => Ok(Said::Text(text)),
            (None, Some(emote)) => Ok(Said::Emote(emote)),
            _ => Err(ApiError::unprocessable(ErrorCode::InvalidBody, "give text or emote, one of them")),
        }
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ReadQuery {
    /// The messages after this `n` (0: from the first).
    #[serde(default)]
    after: i64,
    /// Messages on the page, 1 to 100 (default 50).
    limit: Option<i64>,
    invite_code: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct SettingsBody {
    #[serde(default, deserialize_with = "body::some")]
    text: Option<bool>,
    #[serde(default, deserialize_with = "body::some")]
    spectators: Option<bool>,
}

#[derive(Debug, Serialize)]
struct SettingsView {
    text: bool,
    spectators: bool,
}

impl From<ChatSettings> for SettingsView {
    fn from(s: ChatSettings) -> Self {
        Self { text: s.text, spectators: s.spectators }
    }
}

#[derive(Debug, Serialize)]
struct ChatPage<'a> {
    settings: SettingsView,
    messages: Vec<ChatView<'a>>,
    /// Where the next page starts (`after`), if there may be more.
    #[serde(skip_serializing_if = "Option::is_none")]
    next_after: Option<i64>,
}

/// Most messages on a page.
const MAX_PAGE: i64 = 100;
const DEFAULT_PAGE: i64 = 50;

async fn read(
    State(state): State<AppState>,
    viewer: Option<Auth>,
    Path(id): Path<Uuid>,
    Query(q): Query<ReadQuery>,
) -> ApiResult<Json<serde_json::Value>> {
    let limit = q.limit.unwrap_or(DEFAULT_PAGE);
    if !(1..=MAX_PAGE).contains(&limit) {
        return Err(ApiError::bad_request(ErrorCode::InvalidQuery, format!("limit is 1 to {MAX_PAGE}")));
    }
    if !(0..=MAX_MESSAGES_PER_TABLE).contains(&q.after) {
        return Err(ApiError::bad_request(
            ErrorCode::InvalidQuery,
            format!("after is 0 to {MAX_MESSAGES_PER_TABLE}"),
        ));
    }
    let viewer = viewer.map(|Auth(p)| p.id);
    let table = visible_table(&state, id, viewer, q.invite_code.as_deref()).await?;
    let (settings, messages): (ChatSettings, Vec<ChatMessage>) =
        state.chat.page(&table, viewer, q.after, limit + 1).await?;
    let more = messages.len() as i64 > limit;
    let shown = &messages[..messages.len().min(limit as usize)];
    let page = ChatPage {
        settings: settings.into(),
        messages: shown.iter().map(ChatView::of).collect(),
        next_after: more.then(|| shown.last().map_or(q.after, |m| m.n)),
    };
    Ok(Json(serde_json::to_value(&page).map_err(ApiError::internal)?))
}

async fn post(
    State(state): State<AppState>,
    Auth(player): Auth,
    Path(id): Path<Uuid>,
    Json(body): Json<ChatBody>,
) -> ApiResult<(StatusCode, Json<serde_json::Value>)> {
    let said = body.said()?;
    let table = visible_table(&state, id, Some(player.id), None).await?;
    let message = state.chat.post(&table, player.id, said).await?;
    let view = serde_json::to_value(ChatView::of(&message)).map_err(ApiError::internal)?;
    Ok((StatusCode::CREATED, Json(view)))
}

async fn settings(
    State(state): State<AppState>,
    Auth(player): Auth,
    Path(id): Path<Uuid>,
    Json(body): Json<SettingsBody>,
) -> ApiResult<Json<SettingsView>> {
    if body.text.is_none() && body.spectators.is_none() {
        return Err(ApiError::unprocessable(ErrorCode::InvalidBody, "give text, spectators or both"));
    }
    let table = visible_table(&state, id, Some(player.id), None).await?;
    Ok(Json(state.chat.set_settings(&table, player.id, body.text, body.spectators).await?.into()))
}

#[derive(Debug, Serialize)]
struct PlayerView {
    id: Uuid,
    name: String,
}

#[derive(Debug, Serialize)]
struct Muted {
    player: PlayerView,
    at: String,
}

#[derive(Debug, Serialize)]
struct MuteList {
    muted: Vec<Muted>,
}

async fn mutes(State(state): State<AppState>, Auth(player): Auth) -> ApiResult<Json<MuteList>> {
    let muted = state.store.mutes(player.id).await?;
    Ok(Json(MuteList {
        muted: muted
            .into_iter()
            .map(|(p, at)| Muted { player: PlayerView { id: p.id, name: p.name }, at: rfc3339(at) })
            .collect(),
    }))
}

async fn mute(
    State(state): State<AppState>,
    Auth(player): Auth,
    Path(other): Path<Uuid>,
) -> ApiResult<StatusCode> {
    if other == player.id {
        return Err(ApiError::unprocessable(ErrorCode::InvalidBody, "you cannot mute yourself"));
    }
    if state.store.player(other).await?.is_none() {
        return Err(ApiError::new(StatusCode::NOT_FOUND, ErrorCode::PlayerNotFound, "no such player"));
    }
    if !state.store.mute(player.id, other, now_millis(), MAX_MUTES).await? {
        return Err(ApiError::conflict(
            ErrorCode::TooManyMutes,
            format!("you mute {MAX_MUTES} players, the most"),
        ));
    }
    Ok(StatusCode::NO_CONTENT)
}

async fn unmute(
    State(state): State<AppState>,
    Auth(player): Auth,
    Path(other): Path<Uuid>,
) -> ApiResult<StatusCode> {
    if !state.store.unmute(player.id, other).await? {
        return Err(ApiError::not_found("you do not mute that player"));
    }
    Ok(StatusCode::NO_CONTENT)
}
