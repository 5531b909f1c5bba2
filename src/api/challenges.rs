//! Challenges (docs/social.md, "Challenges"): `POST /v1/challenges` invites players to a table
//! of the challenger's settings; the invitees accept (the first opens the table, through the
//! lobby) or decline; the challenger may withdraw. The workflow is `crate::social::Challenges`.

use super::{
    body,
    error::{ApiError, ApiResult, ErrorCode},
    extract::{Auth, Json, JsonOrEmpty, Path},
    state::AppState,
    tables::CreateTable,
};
use crate::{
    cluster::RouteError,
    lobby::{ClientSeed, DiceChain, TableRequest, TableView},
    social::{ChallengeAsk, ChallengeView},
    store::{ChallengeRecord, Visibility},
};
use axum::{
    Router,
    extract::State,
    http::StatusCode,
    routing::{get, post},
};
use serde::{Deserialize, Serialize};
use std::time::Duration;
use uuid::Uuid;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/v1/challenges", post(create).get(list))
        .route("/v1/challenges/{id}", get(show).delete(withdraw))
        .route("/v1/challenges/{id}/accept", post(accept))
        .route("/v1/challenges/{id}/decline", post(decline))
}

/// A challenge's shortest and longest time to answer, and its default, in seconds.
pub const MIN_EXPIRES_IN_SECONDS: u64 = 30;
pub const MAX_EXPIRES_IN_SECONDS: u64 = 3600;
pub const DEFAULT_EXPIRES_IN_SECONDS: u64 = 300;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct CreateChallenge {
    to: Vec<Uuid>,
    /// The body of `POST /v1/tables`, kept as sent.
    table: serde_json::Value,
    #[serde(default, deserialize_with = "body::some_whole")]
    expires_in_seconds: Option<u64>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct AcceptChallenge {
    #[serde(default)]
    client_seed: String,
    #[serde(default, deserialize_with = "body::some")]
    dice_chain: Option<String>,
}

#[derive(Debug, Serialize)]
struct Lists {
    incoming: Vec<ChallengeView>,
    outgoing: Vec<ChallengeView>,
}

#[derive(Debug, Serialize)]
struct Accepted {
    challenge: ChallengeView,
    table: TableView,
}

/// A challenge's `table`, read as `POST /v1/tables` reads its body; always private.
fn table_request(settings: &serde_json::Value) -> ApiResult<TableRequest> {
    if !settings.is_object() {
        return Err(ApiError::unprocessable(ErrorCode::InvalidBody, "`table` must be an object"));
    }
    let body: CreateTable = serde_json::from_value(settings.clone()).map_err(|e| {
        ApiError::unprocessable(
            ErrorCode::InvalidBody,
            format!("table: {}", crate::wording::plain(&e.to_string())),
        )
    })?;
    Ok(TableRequest { visibility: Visibility::Private, ..body.into_request()? })
}

async fn create(
    State(state): State<AppState>,
    Auth(me): Auth,
    Json(body): Json<CreateChallenge>,
) -> ApiResult<(StatusCode, Json<ChallengeView>)> {
    let seconds = body.expires_in_seconds.unwrap_or(DEFAULT_EXPIRES_IN_SECONDS);
    if !(MIN_EXPIRES_IN_SECONDS..=MAX_EXPIRES_IN_SECONDS).contains(&seconds) {
        return Err(ApiError::unprocessable(
            ErrorCode::InvalidBody,
            format!("expires_in_seconds must be {MIN_EXPIRES_IN_SECONDS} to {MAX_EXPIRES_IN_SECONDS}"),
        ));
    }
    let request = table_request(&body.table)?;
    let ask =
        ChallengeAsk { to: body.to, settings: body.table, request, expires_in: Duration::from_secs(seconds) };
    let challenge = state.challenges.create(&me, ask).await?;
    Ok((StatusCode::CREATED, Json(ChallengeView::of(&challenge))))
}

async fn list(State(state): State<AppState>, Auth(me): Auth) -> ApiResult<Json<Lists>> {
    let (incoming, outgoing) = state.store.pending_challenges(me.id).await?;
    let views = |list: Vec<ChallengeRecord>| list.iter().map(ChallengeView::of).collect();
    Ok(Json(Lists { incoming: views(incoming), outgoing: views(outgoing) }))
}

async fn show(
    State(state): State<AppState>,
    Auth(me): Auth,
    Path(id): Path<Uuid>,
) -> ApiResult<Json<ChallengeView>> {
    let challenge = state.challenges.named(id, me.id).await?;
    Ok(Json(ChallengeView::of(&challenge)))
}

async fn accept(
    State(state): State<AppState>,
    Auth(me): Auth,
    Path(id): Path<Uuid>,
    JsonOrEmpty(body): JsonOrEmpty<AcceptChallenge>,
) -> ApiResult<Json<Accepted>> {
    let client_seed = ClientSeed::new(body.client_seed)?;
    let dice_chain = DiceChain::optional(body.dice_chain)?;
    let challenge = state.challenges.named(id, me.id).await?;
    let request = table_request(&challenge.settings)?;
    let (challenge, table) =
        state.challenges.accept(&challenge, me.id, request, client_seed, dice_chain).await?;
    // As `GET /v1/tables/{id}` shows it (in cluster mode a table driven elsewhere without its
    // `play`, which that route shows).
    let view = match state.lobby.view_with_play(&table, Some(me.id)).await {
        Ok(view) => view,
        Err(RouteError::Elsewhere) => state.lobby.view(&table, Some(me.id)),
        Err(e) => return Err(e.into()),
    };
    Ok(Json(Accepted { challenge: ChallengeView::of(&challenge), table: view }))
}

async fn decline(
    State(state): State<AppState>,
    Auth(me): Auth,
    Path(id): Path<Uuid>,
) -> ApiResult<Json<ChallengeView>> {
    let challenge = state.challenges.named(id, me.id).await?;
    let challenge = state.challenges.decline(&challenge, me.id).await?;
    Ok(Json(ChallengeView::of(&challenge)))
}

async fn withdraw(
    State(state): State<AppState>,
    Auth(me): Auth,
    Path(id): Path<Uuid>,
) -> ApiResult<StatusCode> {
    let challenge = state.challenges.named(id, me.id).await?;
    state.challenges.withdraw(&challenge, me.id).await?;
    Ok(StatusCode::NO_CONTENT)
}
