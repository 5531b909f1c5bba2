//! Playing a started table over HTTP: posting an action, taking a seat back from a bot.
//! (The WebSockets of [`super::ws`] take the same two and go through [`play`] too.)
//!
//! In cluster mode a process that does not drive the table forwards the call to the one that
//! does, and passes its answer on unchanged (`crate::cluster`).

use super::{
    access::visible_table,
    body,
    error::{ApiError, ApiResult, ErrorCode},
    extract::{Auth, Json, Path},
    state::AppState,
};
use crate::{
    cluster::{
        self, Caller, Moved, RouteError, Served,
        forward::Call,
        outcome::{self, Outcome},
    },
    store::TableStatus,
    table::{ActOk, PlayError, TableHandle},
};
use axum::{
    Router,
    extract::State,
    http::{HeaderMap, HeaderValue, Method, StatusCode},
    response::{IntoResponse, Response},
    routing::post,
};
use serde::Deserialize;
use serde_json::{Value, json};
use std::time::Duration;
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
    /// Fresh dice: the next link of the seat's dice chain, needed when the action draws dice
    /// for a seat with a chain (ignored otherwise).
    #[serde(default, deserialize_with = "body::some")]
    reveal: Option<String>,
}

/// What a player asks of a table in play.
#[derive(Debug)]
pub(super) enum PlayRequest {
    Act { action: Value, seq: i64, reveal: Option<String> },
    Reclaim,
}

impl PlayRequest {
    /// The HTTP call that asks it of table `id`, on behalf of `headers`' credentials.
    fn call(&self, id: Uuid, headers: &HeaderMap) -> Call {
        match self {
            PlayRequest::Act { action, seq, reveal } => {
                let mut body = json!({"action": action, "seq": seq});
                if let Some(reveal) = reveal {
                    body["reveal"] = json!(reveal);
                }
                let body = body.to_string();
                let mut headers = headers.clone();
                headers
                    .insert(axum::http::header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
                Call::new(Method::POST, format!("/v1/tables/{id}/actions"), &headers, body.into())
            }
            PlayRequest::Reclaim => {
                Call::new(Method::POST, format!("/v1/tables/{id}/reclaim"), headers, Default::default())
            }
        }
    }

    /// Asks it of this process's actor of the table.
    async fn here(&self, state: &AppState, handle: &TableHandle, player: Uuid) -> Result<ActOk, Refused> {
        match self {
            PlayRequest::Act { action, seq, reveal } => {
                play_here(state, handle, player, action.clone(), *seq, reveal.clone()).await
            }
            PlayRequest::Reclaim => Ok(handle.reclaim(player).await?),
        }
    }
}

/// Why this process, serving a table, did not play a move.
#[derive(Debug)]
enum Refused {
    /// The player acts faster than a player may: try again after this long.
    TooFast(Duration),
    /// The table refused it, or is not served here.
    Table(RouteError),
}

impl From<RouteError> for Refused {
    fn from(e: RouteError) -> Self {
        Refused::Table(e)
    }
}

impl From<PlayError> for Refused {
    fn from(e: PlayError) -> Self {
        Refused::Table(e.into())
    }
}

impl Moved for Refused {
    fn moved(&self) -> bool {
        matches!(self, Refused::Table(e) if e.moved())
    }
}

impl From<Refused> for ApiError {
    fn from(e: Refused) -> Self {
        match e {
            Refused::TooFast(retry_after) => ApiError::rate_limited(retry_after),
            Refused::Table(e) => e.into(),
        }
    }
}

async fn act(
    State(state): State<AppState>,
    Auth(player): Auth,
    headers: HeaderMap,
    Path(id): Path<Uuid>,
    Json(body): Json<ActBody>,
) -> ApiResult<Response> {
    serve(
        &state,
        id,
        player.id,
        &headers,
        PlayRequest::Act { action: body.action, seq: body.seq, reveal: body.reveal },
    )
    .await
}

async fn reclaim(
    State(state): State<AppState>,
    Auth(player): Auth,
    headers: HeaderMap,
    Path(id): Path<Uuid>,
) -> ApiResult<Response> {
    serve(&state, id, player.id, &headers, PlayRequest::Reclaim).await
}

/// Plays `what` for `player` on table `id`, here or (cluster mode) on the process that drives
/// the table, whose answer is passed on unchanged (unless it was lost: [`settle`]).
async fn serve(
    state: &AppState,
    id: Uuid,
    player: Uuid,
    headers: &HeaderMap,
    what: PlayRequest,
) -> ApiResult<Response> {
    may_play(state, id, player).await?;
    let caller = Caller::of(headers);
    let tried = attempt(state, id, player, &what, &caller, || what.call(id, headers)).await;
    let tried = match tried.served {
        // Asked by another process for a table this one does not drive (any more).
        Err(e) if caller.forwarded() && e.moved() => return Ok(ApiError::from(e).not_driver()),
        served => cluster::Tried { served, unanswered: tried.unanswered },
    };
    Ok(match settle(state, id, player, &what, tried).await? {
        Served::Here(done) => Json(done).into_response(),
        Served::There(answer) => answer.into_response(),
    })
}

/// Plays `what` for `player` on table `id` (cluster mode, from a socket of a process that does
/// not drive it): forwarded to the table's driver with the socket's credentials, or played
/// here if this process has taken the table meanwhile.
pub(super) async fn play_elsewhere(
    state: &AppState,
    id: Uuid,
    authorization: Option<&HeaderValue>,
    player: Uuid,
    what: PlayRequest,
) -> ApiResult<ActOk> {
    let call = || {
        let mut headers = HeaderMap::new();
        if let Some(value) = authorization {
            headers.insert(axum::http::header::AUTHORIZATION, value.clone());
        }
        what.call(id, &headers)
    };
    let tried = attempt(state, id, player, &what, &Caller::Client, call).await;
    match settle(state, id, player, &what, tried).await? {
        Served::Here(done) => Ok(done),
        Served::There(answer) if answer.status.is_success() => serde_json::from_slice(&answer.body)
            .map_err(|e| ApiError::internal(format!("a forwarded action's answer: {e}"))),
        Served::There(answer) => Err(ApiError::from_problem(answer.status, &answer.body)),
    }
}

/// Plays `what` for `player` on table `id` wherever the table is served: here, or asked of
/// its driver as `call` makes it (only then).
async fn attempt(
    state: &AppState,
    id: Uuid,
    player: Uuid,
    what: &PlayRequest,
    caller: &Caller,
    call: impl Fn() -> Call,
) -> cluster::Tried<ActOk, Refused> {
    let here = |handle: TableHandle| async move { what.here(state, &handle, player).await };
    state.cluster.serve_table_noting(id, caller, call, here).await
}

/// The answer to `what`, served as `tried` says. An action forwarded to the table's driver
/// whose answer was lost may have been applied all the same (the driver committed it and
/// died, or the connection dropped), and then the retries' refusal (`stale_seq` from the next
/// driver, `table_elsewhere` once patience runs out) would deny it: before refusing such an
/// action, the log is read where it would be (`cluster::outcome`). In it: answered as the driver
/// answers, with its entry. Something else in its place: the refusal stands. Nothing yet: a
/// refusal that the table itself gave at that `seq` stands; otherwise (the driver gone, the log
/// unreadable, a move the log cannot match) 503 `outcome_unknown`, never a refusal that may be
/// false.
async fn settle(
    state: &AppState,
    id: Uuid,
    player: Uuid,
    what: &PlayRequest,
    tried: cluster::Tried<ActOk, Refused>,
) -> ApiResult<Served<ActOk>> {
    let cluster::Tried { served, unanswered } = tried;
    let served = served.map_err(ApiError::from);
    let (PlayRequest::Act { action, seq, .. }, true) = (what, unanswered) else { return served };
    let refused = match &served {
        Ok(Served::Here(_)) => return served,
        Ok(Served::There(answer)) if answer.status.is_success() => return served,
        Ok(Served::There(answer)) => answer.status,
        Err(e) => e.status,
    };
    let said_by_the_table = refused.is_client_error()
        && refused != StatusCode::TOO_MANY_REQUESTS
        && refused != StatusCode::REQUEST_TIMEOUT;
    let logged = match state.store.table(id).await {
        Ok(Some(table)) => match table.seat_of(player) {
            Some(seat) => outcome::of_action(&state.store, table.game, id, seat, action, *seq).await.ok(),
            None => return served,
        },
        _ => None,
    };
    match logged {
        Some(Outcome::Applied(done)) => Ok(Served::Here(done)),
        Some(Outcome::Refused) => served,
        Some(Outcome::NotYet) if said_by_the_table => served,
        _ => Err(outcome_unknown()),
    }
}

/// An action whose answer was lost, and whose outcome the log does not tell yet.
fn outcome_unknown() -> ApiError {
    ApiError::shortly(
        ErrorCode::OutcomeUnknown,
        "the action's answer was lost and the log does not tell yet whether it was applied; \
         read the table's latest entries (reconnect with since) before acting again",
    )
}

/// Whether `player` may play at table `id`: a started table the player may see (an invite code
/// does not let one play a private game; to a stranger a private table does not exist). Asked
/// of the table's actor when it runs here, which knows its members (no store read on the path
/// of an action), else of the store. Whether the player holds a seat is the actor's to say.
async fn may_play(state: &AppState, id: Uuid, player: Uuid) -> ApiResult<()> {
    if let Some(handle) = state.tables.running(id) {
        // A table's actor runs once it has started.
        return if handle.visible_to(player) { Ok(()) } else { Err(ApiError::table_not_found()) };
    }
    let table = visible_table(state, id, Some(player), None).await?;
    if table.status == TableStatus::Open || table.status == TableStatus::Closed {
        return Err(ApiError::conflict(ErrorCode::TableNotStarted, "the game has not started"));
    }
    Ok(())
}

/// Plays `action` for `player`, within the player's rate of actions: each player may act
/// `LUDDO_ACTIONS_PER_MINUTE` times a minute, over HTTP and WebSocket together (counted by the
/// process that drives the table).
pub(super) async fn play(
    state: &AppState,
    handle: &TableHandle,
    player: Uuid,
    action: Value,
    seq: i64,
    reveal: Option<String>,
) -> ApiResult<ActOk> {
    Ok(play_here(state, handle, player, action, seq, reveal).await?)
}

/// [`play`], refused with the reason's type.
async fn play_here(
    state: &AppState,
    handle: &TableHandle,
    player: Uuid,
    action: Value,
    seq: i64,
    reveal: Option<String>,
) -> Result<ActOk, Refused> {
    state
        .limiter
        .check("actions", &player.to_string(), state.config.actions_per_minute)
        .map_err(Refused::TooFast)?;
    Ok(handle.act(player, action, seq, reveal).await?)
}
