//! The WebSocket of a table's events: the log from a given `seq`, then live entries and seat
//! presence; the client may send actions, reclaims and pings on it.

use super::{
    AppState,
    access::live_table,
    actions::play,
    body,
    connections::ConnectionSlot,
    error::{ApiError, ApiResult, ErrorCode},
    extract::{Auth, Path, Query, authenticate},
};
use crate::table::{Broadcast, TableHandle, messages::entry_message};
use axum::{
    Extension, Router,
    extract::{
        State, WebSocketUpgrade,
        ws::{CloseFrame, Message, Utf8Bytes, WebSocket},
    },
    response::Response,
    routing::get,
};
use serde::Deserialize;
use serde_json::{Value, json};
use std::{sync::Arc, time::Duration};
use tokio::sync::broadcast::error::RecvError;
use uuid::Uuid;

pub fn router() -> Router<AppState> {
    Router::new().route("/v1/tables/{id}/events", get(events))
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
        return Err(ApiError::bad_request(ErrorCode::InvalidQuery, "since is 0 or more"));
    }
    let handle = live_table(&state, id, player.as_ref().map(|p| p.id)).await?;
    let player_id = player.map(|p| p.id);
    // Bounded connections: a player's sockets, a table's anonymous spectators.
    let slot = match player_id {
        Some(p) => state.sockets.acquire(format!("player:{p}"), state.config.max_sockets_per_player),
        None => state.sockets.acquire(format!("spectators:{id}"), state.config.max_spectators_per_table),
    }
    .ok_or_else(|| {
        // A slot frees when a socket closes; a stalled one is dropped within the send timeout.
        ApiError::too_many(
            ErrorCode::TooManyConnections,
            "too many open connections; close one first",
            SEND_TIMEOUT,
        )
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
                        let reply = json!({"type": "error", "code": ErrorCode::InvalidMessage, "detail": "send JSON text"});
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
            return json!({"type": "error", "code": ErrorCode::InvalidMessage, "detail": e.to_string()})
                .to_string();
        }
    };
    let (id, result) = match (message, player) {
        (ClientMessage::Ping, _) => return json!({"type": "pong"}).to_string(),
        (ClientMessage::Action { id, .. } | ClientMessage::Reclaim { id }, None) => {
            (id, Err(ApiError::unauthorized("connect with a token to play")))
        }
        (ClientMessage::Action { id, seq, action }, Some(p)) => {
            (id, play(state, handle, p, action, seq).await)
        }
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
