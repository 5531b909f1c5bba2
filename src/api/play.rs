//! Live play: actions, reclaiming a seat, the WebSocket of events, and the hall of shame.

use super::{
    AppState, body,
    connections::ConnectionSlot,
    error::{ApiError, ApiResult},
    extract::{Auth, Json, Path, Query, authenticate},
};
use crate::{
    clock::rfc3339,
    store::{ShameFilter, TableRecord, TableStatus, Visibility},
    table::{Broadcast, PlayError, TableHandle, messages::entry_message},
};
use axum::{
    Extension, Router,
    extract::{
        State, WebSocketUpgrade,
        ws::{CloseFrame, Message, Utf8Bytes, WebSocket},
    },
    response::Response,
    routing::{get, post},
};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use std::{sync::Arc, time::Duration};
use tokio::sync::broadcast::error::RecvError;
use uuid::Uuid;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/v1/tables/{id}/actions", post(act))
        .route("/v1/tables/{id}/reclaim", post(reclaim))
        .route("/v1/tables/{id}/events", get(events))
        .route("/v1/hall-of-shame", get(hall_of_shame))
}

/// Largest WebSocket message a client may send.
pub const MAX_WS_MESSAGE: usize = 16 * 1024;
/// Read buffer of each socket. tungstenite's default (128 KiB) is allocated per connection and
/// zero-filled up to its capacity before every read: that costs 128 KiB of RSS per socket and a
/// 128 KiB memset each time the relay loop polls the socket (once per message sent). Client
/// messages are small; a larger one still grows the buffer, up to `MAX_WS_MESSAGE`.
const WS_READ_BUFFER: usize = 4 * 1024;
/// How often the server pings a socket.
const PING_EVERY: Duration = Duration::from_secs(20);
/// A socket silent (no message, no pong) this long is closed.
const IDLE_TIMEOUT: Duration = Duration::from_secs(60);
/// Close code for a subscriber that fell too far behind: reconnect with `since`.
const CLOSE_LAGGING: u16 = 4008;
/// Longest one write to a socket may wait for the client to read. A client that stops reading
/// fills the TCP buffers and the write blocks; past this the connection is dropped (counted as
/// a disconnect, so the seat's presence and away clock go on), rather than holding its task,
/// its connection slot and the seat's presence forever.
const SEND_TIMEOUT: Duration = Duration::from_secs(10);
/// Longest the server waits for a client to answer its close frame (see [`drain`]).
const CLOSE_WAIT: Duration = Duration::from_secs(5);

impl From<PlayError> for ApiError {
    fn from(e: PlayError) -> Self {
        let detail = e.to_string();
        match e {
            PlayError::StaleSeq { .. } => ApiError::conflict("stale_seq", detail),
            PlayError::NotSeated => ApiError::forbidden("not_your_seat", detail),
            PlayError::NotYourTurn(_) => ApiError::conflict("not_your_turn", detail),
            PlayError::Illegal(_) => ApiError::unprocessable("illegal_action", detail),
            PlayError::GameOver => ApiError::conflict("game_over", detail),
            PlayError::NotBotControlled => ApiError::conflict("not_bot_controlled", detail),
            PlayError::TableStopped => ApiError::unavailable(detail),
            PlayError::Store(e) => e.into(),
            PlayError::Corrupt(e) => ApiError::internal(e),
        }
    }
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

/// The running actor of a started table the caller may see.
async fn live_table(
    state: &AppState,
    id: Uuid,
    viewer: Option<Uuid>,
) -> ApiResult<(TableRecord, TableHandle)> {
    let table = state.store.table(id).await?.ok_or_else(ApiError::table_not_found)?;
    let member = viewer.is_some_and(|v| v == table.host_id || table.seat_of(v).is_some());
    if table.visibility == Visibility::Private && !member {
        return Err(ApiError::table_not_found());
    }
    if table.status == TableStatus::Open || table.status == TableStatus::Closed {
        return Err(ApiError::conflict("table_not_started", "the game has not started"));
    }
    let handle = state.tables.get(id).await?.ok_or_else(ApiError::table_not_found)?;
    Ok((table, handle))
}

async fn act(
    State(state): State<AppState>,
    Auth(player): Auth,
    Path(id): Path<Uuid>,
    Json(body): Json<ActBody>,
) -> ApiResult<Json<crate::table::ActOk>> {
    let (_, handle) = live_table(&state, id, Some(player.id)).await?;
    check_action_rate(&state, player.id)?;
    Ok(Json(handle.act(player.id, body.action, body.seq).await?))
}

async fn reclaim(
    State(state): State<AppState>,
    Auth(player): Auth,
    Path(id): Path<Uuid>,
) -> ApiResult<Json<crate::table::ActOk>> {
    let (_, handle) = live_table(&state, id, Some(player.id)).await?;
    Ok(Json(handle.reclaim(player.id).await?))
}

/// Each player may act `LUDDO_ACTIONS_PER_MINUTE` times a minute (over HTTP and WebSocket).
fn check_action_rate(state: &AppState, player: Uuid) -> ApiResult<()> {
    state
        .limiter
        .check("actions", &player.to_string(), state.config.actions_per_minute)
        .map_err(ApiError::rate_limited)
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct EventsQuery {
    /// Send the log entries after this `seq` first (0: the whole log).
    #[serde(default)]
    since: i64,
    /// The bearer token, for clients that cannot set headers on a WebSocket.
    token: Option<String>,
    /// Take the seat back from a bot on connecting.
    #[serde(default)]
    reclaim: bool,
}

async fn events(
    State(state): State<AppState>,
    connection: Option<Extension<ConnectionSlot>>,
    header_auth: Option<Auth>,
    Path(id): Path<Uuid>,
    Query(q): Query<EventsQuery>,
    ws: WebSocketUpgrade,
) -> ApiResult<Response> {
    let player = match (header_auth, &q.token) {
        (Some(Auth(p)), _) => Some(p),
        (None, Some(token)) => Some(authenticate(&state, token).await?),
        (None, None) => None,
    };
    if q.since < 0 {
        return Err(ApiError::bad_request("invalid_query", "since is 0 or more"));
    }
    let (_, handle) = live_table(&state, id, player.as_ref().map(|p| p.id)).await?;
    let player_id = player.map(|p| p.id);
    // Bounded connections: a player's sockets, a table's anonymous spectators.
    let slot = match player_id {
        Some(p) => state.sockets.acquire(format!("player:{p}"), state.config.max_sockets_per_player),
        None => state.sockets.acquire(format!("spectators:{id}"), state.config.max_spectators_per_table),
    }
    .ok_or_else(|| {
        // A slot frees when a socket closes; a stalled one is dropped within the send timeout.
        ApiError::too_many("too_many_connections", "too many open connections; close one first", SEND_TIMEOUT)
    })?;
    Ok(ws
        .read_buffer_size(WS_READ_BUFFER)
        .max_message_size(MAX_WS_MESSAGE)
        .max_frame_size(MAX_WS_MESSAGE)
        .on_upgrade(move |socket| async move {
            follow(socket, state, id, handle, player_id, q.since, q.reclaim).await;
            // The socket counts as its connection until it closes.
            drop((slot, connection));
        }))
}

/// Serves one WebSocket: the backlog after `since`, then live messages; actions and reclaims
/// from the client; pings. Ends on close, on idleness, or when the client falls behind.
async fn follow(
    mut socket: WebSocket,
    state: AppState,
    id: Uuid,
    handle: TableHandle,
    player: Option<Uuid>,
    since: i64,
    reclaim: bool,
) {
    tracing::debug!(table = %id, ?player, since, reclaim, "websocket open");
    let Ok(mut sub) = handle.subscribe(player, reclaim).await else {
        send(&mut socket, Message::Close(Some(close(1011, "table unavailable; reconnect")))).await;
        return;
    };
    let recent = std::mem::take(&mut sub.recent);
    match send_backlog(&mut socket, &state, id, since, recent, sub.seq).await {
        Ok(true) => relay(&mut socket, &mut sub, &state, &handle, player, since).await,
        Ok(false) => {}
        Err(_) => {
            send(&mut socket, Message::Close(Some(close(1011, "database unavailable; reconnect")))).await;
        }
    }
    if let Some(p) = player {
        handle.disconnected(p).await;
    }
}

/// Relays live messages to the socket and answers the client, until either side ends it.
async fn relay(
    socket: &mut WebSocket,
    sub: &mut crate::table::Subscription,
    state: &AppState,
    handle: &TableHandle,
    player: Option<Uuid>,
    since: i64,
) {
    // The first ping one period from now. (Not `interval` and a first `tick().await`: that tick
    // is due "now", which a timer only sees pass once the clock moves on, so under tokio's
    // paused clock in tests a new socket relayed nothing until time was advanced.)
    let mut ping = tokio::time::interval_at(tokio::time::Instant::now() + PING_EVERY, PING_EVERY);
    let mut last_heard = tokio::time::Instant::now();
    loop {
        tokio::select! {
            message = sub.receiver.recv() => match message {
                Ok(b) => {
                    if b.seq.is_some_and(|s| s <= since.max(0)) {
                        continue;
                    }
                    if !send(socket, Message::Text(Utf8Bytes::from(b.text.as_ref()))).await {
                        break;
                    }
                }
                Err(RecvError::Lagged(_)) => {
                    if send(socket, Message::Close(Some(close(CLOSE_LAGGING, "too far behind; reconnect with since")))).await {
                        drain(socket).await;
                    }
                    break;
                }
                Err(RecvError::Closed) => {
                    send(socket, Message::Close(Some(close(1012, "table restarting; reconnect with since")))).await;
                    break;
                }
            },
            incoming = socket.recv() => {
                last_heard = tokio::time::Instant::now();
                match incoming {
                    Some(Ok(Message::Text(text))) => {
                        let reply = client_message(state, handle, player, &text).await;
                        if !send(socket, Message::Text(reply.into())).await {
                            break;
                        }
                    }
                    Some(Ok(Message::Binary(_))) => {
                        let reply = json!({"type": "error", "code": "invalid_message", "detail": "send JSON text"});
                        if !send(socket, Message::Text(reply.to_string().into())).await {
                            break;
                        }
                    }
                    Some(Ok(Message::Close(_))) | None | Some(Err(_)) => break,
                    Some(Ok(_)) => {}
                }
            }
            _ = ping.tick() => {
                if last_heard.elapsed() > IDLE_TIMEOUT {
                    send(socket, Message::Close(Some(close(1001, "idle")))).await;
                    break;
                }
                if !send(socket, Message::Ping(Default::default())).await {
                    break;
                }
            }
        }
    }
}

/// Sends one message and flushes it, for at most [`SEND_TIMEOUT`]; false if the connection is
/// to be dropped (it failed, or the client stopped reading).
///
/// Every write goes through here, one at a time: the relay loop neither reads the client nor
/// takes the next broadcast while a write waits, so what a slow client can make the server hold
/// is one message in the socket's write buffer, the shared broadcast ring (it is dropped with
/// 4008 once it falls `SUBSCRIBER_QUEUE` messages behind) and the kernel's TCP buffers.
async fn send(socket: &mut WebSocket, message: Message) -> bool {
    match tokio::time::timeout(SEND_TIMEOUT, socket.send(message)).await {
        Ok(Ok(())) => true,
        Ok(Err(_)) => false,
        Err(_) => {
            tracing::debug!("websocket write timed out; dropping the connection");
            false
        }
    }
}

/// After our close frame: reads (and drops) what the client still sends until it answers the
/// close, for at most [`CLOSE_WAIT`]. Dropping a socket with unread input makes the kernel
/// reset the connection, and a reset discards what the client has not read yet, close frame
/// included: a client that lagged while it kept sending would never learn to resume with `since`.
async fn drain(socket: &mut WebSocket) {
    let _ = tokio::time::timeout(CLOSE_WAIT, async { while let Some(Ok(_)) = socket.recv().await {} }).await;
}

fn close(code: u16, reason: &'static str) -> CloseFrame {
    CloseFrame { code, reason: Utf8Bytes::from_static(reason) }
}

/// Sends the log entries with `since < seq <= upto`, in order: from the actor's recent history
/// when it reaches back far enough, else from the store a page of `backlog_page` entries at a
/// time, so that what a socket holds of the log stays one page, however long the log and
/// however slowly the client reads (each write waits at most [`SEND_TIMEOUT`]). `Ok(false)` if
/// the connection is to be dropped.
async fn send_backlog(
    socket: &mut WebSocket,
    state: &AppState,
    id: Uuid,
    since: i64,
    recent: Vec<Arc<Broadcast>>,
    upto: i64,
) -> Result<bool, crate::store::StoreError> {
    let oldest = recent.first().and_then(|b| b.seq);
    if oldest.is_some_and(|o| o <= since + 1) {
        for b in recent.iter().filter(|b| b.seq.is_some_and(|s| s > since && s <= upto)) {
            if !send(socket, Message::Text(Utf8Bytes::from(b.text.as_ref()))).await {
                return Ok(false);
            }
        }
        return Ok(true);
    }
    drop(recent);
    let page = state.config.backlog_page as i64;
    let mut after = since;
    while after < upto {
        let entries = state.store.entries_page(id, after, upto, page).await?;
        let Some(last) = entries.last() else { break };
        after = last.seq;
        for entry in &entries {
            if !send(socket, Message::Text(entry_message(entry).into())).await {
                return Ok(false);
            }
        }
    }
    Ok(true)
}

/// A message from the client: `{"type":"action","id","seq","action"}`, `{"type":"reclaim","id"}`
/// or `{"type":"ping"}`. Each gets one reply.
async fn client_message(state: &AppState, handle: &TableHandle, player: Option<Uuid>, text: &str) -> String {
    #[derive(Deserialize)]
    #[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
    enum ClientMessage {
        Action {
            id: Option<Value>,
            #[serde(deserialize_with = "body::whole")]
            seq: i64,
            action: Value,
        },
        Reclaim {
            id: Option<Value>,
        },
        Ping,
    }
    let message: ClientMessage = match serde_json::from_str(text) {
        Ok(m) => m,
        Err(e) => {
            return json!({"type": "error", "code": "invalid_message", "detail": e.to_string()}).to_string();
        }
    };
    let (id, result) = match (message, player) {
        (ClientMessage::Ping, _) => return json!({"type": "pong"}).to_string(),
        (ClientMessage::Action { id, .. } | ClientMessage::Reclaim { id }, None) => {
            (id, Err(ApiError::unauthorized("connect with a token to play")))
        }
        (ClientMessage::Action { id, seq, action }, Some(p)) => match check_action_rate(state, p) {
            Ok(()) => (id, handle.act(p, action, seq).await.map_err(ApiError::from)),
            Err(e) => (id, Err(e)),
        },
        (ClientMessage::Reclaim { id }, Some(p)) => (id, handle.reclaim(p).await.map_err(ApiError::from)),
    };
    match result {
        Ok(ok) => {
            json!({"type": "reply", "id": id, "ok": true, "seq": ok.seq, "events": ok.events}).to_string()
        }
        Err(e) => json!({"type": "reply", "id": id, "ok": false,
            "error": {"status": e.status.as_u16(), "code": e.code, "detail": e.detail}})
        .to_string(),
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ShameQuery {
    game: Option<String>,
    player: Option<Uuid>,
    limit: Option<usize>,
    cursor: Option<String>,
}

#[derive(Debug, Serialize)]
struct ShameView {
    id: Uuid,
    table_id: Uuid,
    game: String,
    player_id: Option<Uuid>,
    name: String,
    /// `dicking` (an 8-piece dicking) or `up_board` (resigned).
    kind: String,
    pieces_home: i64,
    at: String,
}

#[derive(Debug, Serialize)]
struct ShamePage {
    entries: Vec<ShameView>,
    #[serde(skip_serializing_if = "Option::is_none")]
    next_cursor: Option<String>,
}

async fn hall_of_shame(
    State(state): State<AppState>,
    Query(q): Query<ShameQuery>,
) -> ApiResult<Json<ShamePage>> {
    let limit = q.limit.unwrap_or(20);
    if !(1..=100).contains(&limit) {
        return Err(ApiError::bad_request("invalid_query", "limit is 1 to 100"));
    }
    let game = q.game.as_deref().map(super::tables::parse_game).transpose()?;
    let after = super::tables::parse_cursor(q.cursor.as_deref())?;
    let filter = ShameFilter { game, player: q.player, after, limit: limit + 1 };
    let mut rows = state.store.shame(&filter).await?;
    let next_cursor = if rows.len() > limit {
        rows.truncate(limit);
        rows.last().map(|r| format!("{}_{}", r.at, r.id))
    } else {
        None
    };
    let entries = rows
        .into_iter()
        .map(|r| ShameView {
            id: r.id,
            table_id: r.table_id,
            game: r.game.as_str().into(),
            player_id: r.player_id,
            name: r.name,
            kind: r.kind.as_str().into(),
            pieces_home: r.pieces_home,
            at: rfc3339(r.at),
        })
        .collect();
    Ok(Json(ShamePage { entries, next_cursor }))
}
