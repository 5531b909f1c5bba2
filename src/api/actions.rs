//! Playing a started table over HTTP: posting an action, taking a seat back from a bot.
//! (The WebSocket of [`super::events`] takes the same two and goes through [`play`] too.)

use super::{
    AppState,
    access::live_table,
    body,
    error::{ApiError, ApiResult},
    extract::{Auth, Json, Path},
};
use crate::table::{ActOk, TableHandle};
use axum::{Router, extract::State, routing::post};
use serde::Deserialize;
use serde_json::Value;
use uuid::Uuid;

pub fn router() -> Router<AppState> {
    Router::new().route("/v1/tables/{id}/actions", post(act)).route("/v1/tables/{id}/reclaim", post(reclaim))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ActBody {
    /// One of the legal actions, as offered.
    action: Value,
    /// The latest `seq` the client has seen.
    #[serde(deserialize_with = "body::whole")]
    seq: i64,
}

async fn act(
    State(state): State<AppState>,
    Auth(player): Auth,
    Path(id): Path<Uuid>,
    Json(body): Json<ActBody>,
) -> ApiResult<Json<ActOk>> {
    let handle = live_table(&state, id, Some(player.id)).await?;
    Ok(Json(play(&state, &handle, player.id, body.action, body.seq).await?))
}

async fn reclaim(
    State(state): State<AppState>,
    Auth(player): Auth,
    Path(id): Path<Uuid>,
) -> ApiResult<Json<ActOk>> {
    let handle = live_table(&state, id, Some(player.id)).await?;
    Ok(Json(handle.reclaim(player.id).await?))
}

/// Plays `action` for `player`, within the player's rate of actions: each player may act
/// `LUDDO_ACTIONS_PER_MINUTE` times a minute, over HTTP and WebSocket together.
pub(super) async fn play(
    state: &AppState,
    handle: &TableHandle,
    player: Uuid,
    action: Value,
    seq: i64,
) -> ApiResult<ActOk> {
    state
        .limiter
        .check("actions", &player.to_string(), state.config.actions_per_minute)
        .map_err(ApiError::rate_limited)?;
    Ok(handle.act(player, action, seq).await?)
}
