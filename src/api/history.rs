//! The tamper-evident history's edge (docs/history.md):
//!
//! - `GET /.well-known/luddo-history-key`: the public key that signs the checkpoints;
//! - `GET /v1/tables/{id}/history`: a finished table's proof, which `luddo verify` checks
//!   against the table's record ([`crate::history::verify_proof`]).

use super::{
    access::visible_table,
    error::{ApiError, ApiResult, ErrorCode},
    extract::{Auth, Json, Path, Query},
    state::AppState,
};
use crate::{
    history::Proof,
    store::{ProofState, TableStatus},
};
use axum::{Router, extract::State, http::StatusCode, routing::get};
use serde::{Deserialize, Serialize};
use std::time::Duration;
use uuid::Uuid;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/.well-known/luddo-history-key", get(key))
        .route("/v1/tables/{id}/history", get(history))
}

/// The checkpoints' public key.
#[derive(Debug, Serialize)]
struct HistoryKey {
    algorithm: &'static str,
    public_key: String,
    key_id: String,
}

async fn key(State(state): State<AppState>) -> Json<HistoryKey> {
    Json(HistoryKey {
        algorithm: "Ed25519",
        public_key: state.signer.public_hex(),
        key_id: state.signer.key_id(),
    })
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct HistoryQuery {
    invite_code: Option<String>,
}

/// The table's link, the links after it up to the first checkpoint at or after it, that
/// checkpoint and the table's rating changes.
async fn history(
    State(state): State<AppState>,
    viewer: Option<Auth>,
    Path(id): Path<Uuid>,
    Query(q): Query<HistoryQuery>,
) -> ApiResult<Json<Proof>> {
    let table = visible_table(&state, id, viewer.map(|Auth(p)| p.id), q.invite_code.as_deref()).await?;
    match state.store.history_proof(id).await? {
        ProofState::Proof(proof) => Ok(Json(*proof)),
        ProofState::NoLink if table.status == TableStatus::Finished => Err(ApiError::new(
            StatusCode::NOT_FOUND,
            ErrorCode::NotInHistory,
            "this table finished before the server kept its history: it has no link",
        )),
        ProofState::NoLink => Err(ApiError::conflict(
            ErrorCode::TableNotFinished,
            "the table is not finished: it has no link yet",
        )),
        ProofState::NotCheckpointed(position) => Err(ApiError {
            retry_after: Some(state.config.checkpoint_every.min(Duration::from_secs(60))),
            ..ApiError::conflict(
                ErrorCode::HistoryNotCheckpointed,
                format!(
                    "the table's link ({position}) is not under a signed checkpoint yet; try again shortly"
                ),
            )
        }),
    }
}
