//! Liveness and readiness probes.

use super::{error::ApiResult, extract::Json, state::AppState};
use axum::{Router, extract::State, routing::get};
use serde_json::{Value, json};

pub fn router() -> Router<AppState> {
    Router::new().route("/health", get(health)).route("/ready", get(ready))
}

/// The process is up and serving.
async fn health() -> Json<Value> {
    Json(json!({"status": "ok"}))
}

/// The process can reach its database.
async fn ready(State(state): State<AppState>) -> ApiResult<Json<Value>> {
    state.store.ping().await?;
    Ok(Json(json!({"status": "ready"})))
}
