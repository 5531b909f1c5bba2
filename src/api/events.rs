//! The WebSocket of a table's events: the log from a given `seq`, then live entries and seat
//! presence; the client may send actions, reclaims and pings on it. Before the start (no actor
//! yet) `lobby::follow_open` serves it, then hands over here.

use super::{
    access::visible_table,
    actions::{Move, play, play_elsewhere},
    body,
    connections::ConnectionSlot,
    error::{ApiError, ApiResult, ErrorCode},
    extract::{Path, Query, Session, authenticate},
    limits::{SlotGuard, SlotKey},
    lobby::{Following, Waited, follow_open, send_entries},
    state::AppState,
};
use crate::{
    cluster::{self, Route, RouteError},
    revocations::{CLOSE_TOKEN_ENDED, TokenWatch},
    store::TableStatus,
    table::{ActOk, Broadcast, TableHandle, cursor::Cursor, messages::entry_message},
};
use axum::{
    Extension, Router,
    extract::{
        State, WebSocketUpgrade,
        ws::{CloseFrame, Message, Utf8Bytes, WebSocket},
    },
    http::{HeaderMap, HeaderValue, header},
    response::Response,
    routing::get,
};
use futures_util::{Sink, SinkExt, Stream, StreamExt};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::{sync::Arc, time::Duration};
use tokio::sync::broadcast::{self, error::RecvError};
use uuid::Uuid;

pub fn router() -> Router<AppState> {
    Router::new().route("/v1/tables/{id}/events", get(events))
}

/// Largest WebSocket message a client may send.
pub const MAX_WS_MESSAGE: usize = 16 * 1024;
/// Read buffer of each socket. tungstenite's default (128 KiB) is allocated per connection and
/// zero-filled up to its capacity before every read: that costs 128 KiB of RSS per socket and a
/// 128 KiB memset each time the relay loop polls the socket (once per message sent). Client
/// messages are small (an action is about 100 bytes); a larger one still grows the buffer, up
/// to `MAX_WS_MESSAGE`. Every open socket holds one, idle or not: 256 bytes rather than 4 KiB
/// saves 15 KiB per idle 4-seat table (an action of a few hundred bytes takes two reads).
const WS_READ_BUFFER: usize = 256;
/// How often the server pings a socket.
pub(super) const PING_EVERY: Duration = Duration::from_secs(20);
/// A socket silent (no message, no pong) this long is closed.
const IDLE_TIMEOUT: Duration = Duration::from_secs(60);
/// Close code for a subscriber that fell too far behind: reconnect with `since`.
pub(super) const CLOSE_LAGGING: u16 = 4008;
/// Longest one write to a socket may wait for the client to read. A client that stops reading
/// fills the TCP buffers and the write blocks; past this the connection is dropped (counted as
/// a disconnect, so the seat's presence and away clock go on), rather than holding its task,
/// its connection slot and the seat's presence forever.
pub(super) const SEND_TIMEOUT: Duration = Duration::from_secs(10);
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
    header_auth: Option<Session>,
    headers: HeaderMap,
    Path(id): Path<Uuid>,
    Query(q): Query<EventsQuery>,
    ws: WebSocketUpgrade,
) -> ApiResult<Response> {
    let session = socket_session(&state, header_auth, q.token.as_deref()).await?;
    // At once: a revocation from now on closes the socket.
    let token = token_watch(&state, session.as_ref());
    if q.since < 0 {
        return Err(ApiError::bad_request(ErrorCode::InvalidQuery, "since is 0 or more"));
    }
    let player_id = session.as_ref().map(|s| s.player.id);
    // Who the socket's actions are forwarded for, when another process drives the table: the
    // caller's credentials as sent.
    let authorization = match (headers.get(header::AUTHORIZATION), &q.token) {
        (Some(value), _) => Some(value.clone()),
        (None, Some(token)) => HeaderValue::from_str(&format!("Bearer {token}")).ok(),
        (None, None) => None,
    };
    // An open table has no actor yet: its socket follows the lobby's entries until the start.
    let table = visible_table(&state, id, player_id, None).await?;
    let handle = match table.status {
        TableStatus::Open => None,
        TableStatus::Closed => {
            return Err(ApiError::conflict(ErrorCode::TableNotStarted, "the game has not started"));
        }
        // A presence link (`cluster::presence`) counts only where the table is driven.
        _ if cluster::is_forwarded(&headers) => match state.cluster.route(id, true).await? {
            Route::Here(handle) => Some(Driver::Link(handle)),
            Route::There(_) => return Err(RouteError::Elsewhere.into()),
        },
        _ => Some(driver(&state, id).await?),
    };
    // Bounded connections: a player's sockets, a table's anonymous spectators.
    let slot = match player_id {
        Some(p) => state.sockets.acquire(SlotKey::Player(p), state.config.max_sockets_per_player),
        None => state.sockets.acquire(SlotKey::Spectators(id), state.config.max_spectators_per_table),
    }
    .ok_or_else(too_many_sockets)?;
    // Boxed: the upgrade's task holds the request's leftovers as one pointer.
    let opened = Box::new(Opened {
        state,
        id,
        player_id,
        since: q.since,
        reclaim: q.reclaim,
        handle,
        authorization,
        token,
        _slot: slot,
        _connection: connection,
    });
    Ok(upgrade(ws).on_upgrade(move |socket| serve(socket, opened)))
}

/// What a table's socket keeps from its upgrade request.
struct Opened {
    state: AppState,
    id: Uuid,
    player_id: Option<Uuid>,
    since: i64,
    reclaim: bool,
    /// `None` for a table still open when the socket came.
    handle: Option<Driver>,
    authorization: Option<HeaderValue>,
    /// Ends the socket when its token is revoked or expires.
    token: TokenWatch,
    /// The socket counts against its player's (or the table's spectators') cap, and as its
    /// connection, until it closes.
    _slot: SlotGuard,
    _connection: Option<Extension<ConnectionSlot>>,
}

/// A table's socket from its upgrade to its close: the lobby's entries until the start if the
/// table was open, then the table. Every open socket is a task as large as this future, idle or
/// not (with the upgrade's own few hundred bytes around it): the lobby's part, the wait for the
/// table's actor and every other step taken once are boxed, and the socket and the request's
/// leftovers are held here once and lent to the steps below rather than moved into each (a
/// future keeps its arguments), so that an idle socket's task is its socket, its relay loop and
/// little more (`task_sizes` below bounds it).
#[allow(clippy::manual_async_fn)] // on purpose: see above
fn serve(mut socket: WebSocket, mut opened: Box<Opened>) -> impl Future<Output = ()> + Send {
    // An async block rather than an async fn: an async fn keeps its arguments and moves them
    // into its body, the socket twice over; the block uses what it captured in place.
    async move {
        let _open = OpenSocket::count(&opened.state);
        let handle = opened.handle.take();
        let (state, id, player_id, reclaim) = (&opened.state, opened.id, opened.player_id, opened.reclaim);
        let token = &mut opened.token;
        let mut since = opened.since;
        let handle = match handle {
            Some(handle) => Some(handle),
            None => match Box::pin(follow_open(&mut socket, state, id, player_id, since, token)).await {
                Waited::Started(last) => {
                    since = last;
                    match Box::pin(driver(state, id)).await {
                        Ok(handle) => Some(handle),
                        Err(_) => {
                            let reason = "table unavailable; reconnect with since";
                            send(&mut socket, Message::Close(Some(close(1011, reason)))).await;
                            None
                        }
                    }
                }
                Waited::Ended => None,
            },
        };
        match &handle {
            Some(Driver::Actor(handle)) => {
                follow(&mut socket, state, id, handle, player_id, since, reclaim, token).await
            }
            Some(Driver::Link(handle)) => serve_link(&mut socket, id, handle, player_id, token).await,
            Some(Driver::Elsewhere) => {
                let plays = Plays::Elsewhere { table: id, authorization: opened.authorization.as_ref() };
                // Boxed (cluster mode only): every socket's task is as large as its largest branch.
                let following = follow_store(&mut socket, state, id, player_id, plays, since, reclaim, token);
                Box::pin(following).await
            }
            None => {}
        }
        // The socket counts as its connection (the slot and connection in `opened`) until it
        // closes, and as an open socket until then.
        drop(handle);
        drop(opened);
    }
}

/// Where a socket of a started table follows it from.
enum Driver {
    /// This process's actor, which drives the table.
    Actor(TableHandle),
    /// The store, nudged by the cluster's notifications: another process drives the table
    /// (or is taking it over) and the socket's actions are forwarded to it.
    Elsewhere,
    /// This process's actor, for a presence link ([`serve_link`]).
    Link(TableHandle),
}

/// Where a socket of started table `id` follows it from (cluster mode: whichever process
/// drives it; a table changing hands is followed from the store all the same).
async fn driver(state: &AppState, id: Uuid) -> ApiResult<Driver> {
    match state.cluster.route(id, false).await {
        Ok(Route::Here(handle)) => Ok(Driver::Actor(handle)),
        Ok(Route::There(_)) => Ok(Driver::Elsewhere),
        Err(RouteError::Elsewhere) if state.cluster.enabled() => Ok(Driver::Elsewhere),
        Err(e) => Err(e.into()),
    }
}

/// A task that ends with its owner.
struct AbortOnDrop(tokio::task::JoinHandle<()>);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// Who plays a socket's actions and reclaims.
#[derive(Clone, Copy)]
enum Plays<'a> {
    /// This process's actor of the table.
    Actor(&'a TableHandle),
    /// Whichever process drives the table, on behalf of these credentials (cluster mode).
    Elsewhere { table: Uuid, authorization: Option<&'a HeaderValue> },
}

/// Serves a socket of a table another process drives: its log from the store after `since`,
/// then whatever each nudge (a notification of an append, `crate::cluster::fanout`) says is
/// new, read from the store after the last `seq` sent — in order, without gap or duplicate,
/// as the actor's subscribers get it. Actions and reclaims are forwarded to the table's driver.
/// Seat presence is the driver's sockets' alone.
#[allow(clippy::too_many_arguments)] // what a socket is, each lent by its task
async fn follow_store(
    socket: &mut impl Socket,
    state: &AppState,
    id: Uuid,
    player: Option<Uuid>,
    plays: Plays<'_>,
    since: i64,
    reclaim: bool,
    token: &mut TokenWatch,
) {
    tracing::debug!(table = %id, ?player, since, reclaim, "websocket open, following the store");
    let feeds = state.tables.feeds().clone();
    // Releases the table's channel however this ends, after the receiver below has gone.
    let _following = Following(&feeds, id);
    if let (Some(p), true, Plays::Elsewhere { table, authorization }) = (player, reclaim, plays) {
        // As the actor's path does, a refused reclaim (nothing to take back) is not told.
        if let Err(e) = play_elsewhere(state, table, authorization, p, Move::Reclaim).await {
            tracing::debug!(table = %id, error = %e.detail, "reclaim on connecting refused");
        }
    }
    // A player's socket counts as the seat's presence on the driver, through a link held there
    // for as long as this socket lives.
    let _presence = match (player, plays) {
        (Some(player), Plays::Elsewhere { authorization: Some(authorization), .. }) => {
            let link = cluster::presence::hold(state.cluster.clone(), id, player, authorization.clone());
            Some(AbortOnDrop(tokio::spawn(link)))
        }
        _ => None,
    };
    let mut last = since;
    loop {
        if state.tables.stopping() {
            send(socket, Message::Close(Some(close(1012, "server restarting; reconnect with since")))).await;
            return;
        }
        let mut receiver = feeds.subscribe_table(id);
        // Read after subscribing: whatever is committed after this read nudges `receiver`.
        match send_entries(socket, state, id, &mut last).await {
            Ok(true) => {}
            Ok(false) => return,
            Err(_) => {
                send(socket, Message::Close(Some(close(1011, "database unavailable; reconnect with since"))))
                    .await;
                return;
            }
        }
        let answer = |text| client_message(state, plays, player, text);
        match relay_until(socket, &mut receiver, &mut last, true, token, answer).await {
            Relayed::Ended => return,
            Relayed::Gap | Relayed::SourceClosed => continue,
        }
    }
}

/// Who opens a WebSocket: the bearer token of the `Authorization` header, else the `token`
/// query parameter (browsers cannot set headers on a WebSocket), else nobody (a spectator).
pub(super) async fn socket_session(
    state: &AppState,
    header_auth: Option<Session>,
    token: Option<&str>,
) -> ApiResult<Option<Session>> {
    Ok(match (header_auth, token) {
        (Some(session), _) => Some(session),
        (None, Some(token)) => Some(authenticate(state, token).await?),
        (None, None) => None,
    })
}

/// What ends a socket opened by `session`: its token's revocation or expiry (nothing for a
/// spectator's).
pub(super) fn token_watch(state: &AppState, session: Option<&Session>) -> TokenWatch {
    match session {
        Some(s) => state.revocations.watch(s.token_id, s.expires_at),
        None => TokenWatch::none(),
    }
}

/// The answer to a socket over its cap (a player's sockets, a table's spectators, the lobby's
/// anonymous sockets per address). A slot frees when a socket closes; a stalled one is dropped
/// within the send timeout, so the client is told to retry after that.
pub(super) fn too_many_sockets() -> ApiError {
    ApiError::too_many(
        ErrorCode::TooManyConnections,
        "too many open connections; close one first",
        SEND_TIMEOUT,
    )
}

/// The limits every WebSocket of the server is upgraded with.
pub(super) fn upgrade(ws: WebSocketUpgrade) -> WebSocketUpgrade {
    ws.read_buffer_size(WS_READ_BUFFER).max_message_size(MAX_WS_MESSAGE).max_frame_size(MAX_WS_MESSAGE)
}

/// An open WebSocket as the metrics count it (`luddo_websockets_open`, `…_opened_total`,
/// `…_closed_total`), and as shutdown waits for it to close: counted while the guard lives.
pub(super) struct OpenSocket(#[allow(dead_code)] crate::table::OpenSocket);

impl OpenSocket {
    pub(super) fn count(state: &AppState) -> Self {
        metrics::counter!("luddo_websockets_opened_total").increment(1);
        metrics::gauge!("luddo_websockets_open").increment(1.0);
        Self(state.tables.socket_opened())
    }
}

impl Drop for OpenSocket {
    fn drop(&mut self) {
        metrics::gauge!("luddo_websockets_open").decrement(1.0);
        metrics::counter!("luddo_websockets_closed_total").increment(1);
    }
}

/// What serving a WebSocket needs of it: messages from the client in, messages to it out.
/// axum's `WebSocket` is one; the tests below drive the relay through an in-memory one, without
/// a network (as axum's testing-websockets example does).
pub(super) trait Socket:
    Stream<Item = Result<Message, axum::Error>> + Sink<Message, Error = axum::Error> + Unpin
{
}

impl<S> Socket for S where
    S: Stream<Item = Result<Message, axum::Error>> + Sink<Message, Error = axum::Error> + Unpin
{
}

/// A message the server sends of its own accord on a socket: the answer to each client message.
/// (Log entries and presence changes are the table's, built in `table::messages`.)
#[derive(Debug, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub(super) enum Answer {
    /// The outcome of an `action` or `reclaim`.
    Reply(Reply),
    /// A client message the server cannot read.
    Error { code: ErrorCode, detail: String },
    /// The answer to a `ping`.
    Pong,
}

/// `{"type":"reply","id","ok"}` with `seq` and `events` when it worked, `error` when not.
#[derive(Debug, Serialize)]
pub(super) struct Reply {
    /// The client's `id` of the message answered, `null` if it gave none.
    id: Option<Value>,
    ok: bool,
    #[serde(flatten)]
    done: Option<ActOk>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<ReplyError>,
}

/// Why an action or reclaim was refused: the status, code and detail its HTTP form answers with.
#[derive(Debug, Serialize)]
struct ReplyError {
    status: u16,
    code: ErrorCode,
    detail: String,
}

impl Answer {
    pub(super) fn reply(id: Option<Value>, result: ApiResult<ActOk>) -> Self {
        Answer::Reply(match result {
            Ok(done) => Reply { id, ok: true, done: Some(done), error: None },
            Err(e) => Reply {
                id,
                ok: false,
                done: None,
                error: Some(ReplyError { status: e.status.as_u16(), code: e.code, detail: e.detail }),
            },
        })
    }

    pub(super) fn invalid_message(detail: impl Into<String>) -> Self {
        Answer::Error { code: ErrorCode::InvalidMessage, detail: detail.into() }
    }

    fn to_message(&self) -> Message {
        let text = serde_json::to_string(self).expect("answers serialize");
        Message::Text(text.into())
    }
}

/// Serves one WebSocket: the backlog after `since`, then live messages; actions and reclaims
/// from the client; pings. Ends on close, on idleness, or when the client falls behind.
#[allow(clippy::too_many_arguments)] // what a socket is, each lent by its task
async fn follow(
    socket: &mut impl Socket,
    state: &AppState,
    id: Uuid,
    handle: &TableHandle,
    player: Option<Uuid>,
    since: i64,
    reclaim: bool,
    token: &mut TokenWatch,
) {
    tracing::debug!(table = %id, ?player, since, reclaim, "websocket open");
    // The steps taken once are boxed: only the relay loop stays in the socket's task.
    let Ok(mut sub) = Box::pin(handle.subscribe(player, reclaim)).await else {
        send(socket, Message::Close(Some(close(1011, "table unavailable; reconnect")))).await;
        return;
    };
    let recent = std::mem::take(&mut sub.recent);
    match Box::pin(send_backlog(socket, state, id, since, recent, sub.seq)).await {
        Ok(true) => {
            let answer = |text| client_message(state, Plays::Actor(handle), player, text);
            relay(socket, &mut sub.receiver, since, token, answer).await;
        }
        Ok(false) => {}
        Err(_) => {
            send(socket, Message::Close(Some(close(1011, "database unavailable; reconnect")))).await;
        }
    }
    drop(sub);
    if let Some(p) = player {
        Box::pin(handle.disconnected(p)).await;
    }
}

/// Serves a presence link (`cluster::presence`): another process's socket of `player`, counted
/// here, where the table is driven, as the player's connection for as long as the link is open.
/// It is sent nothing but pings (the socket it stands for is sent the entries where it is), and
/// closed with 1012 when the actor stops, so that the link is made again wherever the table goes.
async fn serve_link(
    socket: &mut impl Socket,
    id: Uuid,
    handle: &TableHandle,
    player: Option<Uuid>,
    token: &mut TokenWatch,
) {
    tracing::debug!(table = %id, ?player, "presence link open");
    let Ok(mut sub) = Box::pin(handle.subscribe(player, false)).await else {
        send(socket, Message::Close(Some(close(1011, "table unavailable; reconnect")))).await;
        return;
    };
    let mut ping = tokio::time::interval_at(tokio::time::Instant::now() + PING_EVERY, PING_EVERY);
    let mut last_heard = tokio::time::Instant::now();
    loop {
        tokio::select! {
            message = sub.receiver.recv() => if let Err(RecvError::Closed) = message {
                send(socket, Message::Close(Some(close(1012, "table restarting; reconnect")))).await;
                break;
            },
            incoming = socket.next() => match incoming {
                Some(Ok(Message::Close(_))) | None | Some(Err(_)) => break,
                Some(Ok(_)) => last_heard = tokio::time::Instant::now(),
            },
            _ = ping.tick() => if !keep_alive(socket, last_heard).await {
                break;
            },
            ended = token.ended() => {
                send(socket, Message::Close(Some(close(CLOSE_TOKEN_ENDED, ended.reason())))).await;
                break;
            }
        }
    }
    drop(sub);
    if let Some(p) = player {
        Box::pin(handle.disconnected(p)).await;
    }
}

/// Relays live messages to the socket and answers the client's messages with `answer`, until
/// either side ends it.
async fn relay<F, A>(
    socket: &mut impl Socket,
    receiver: &mut broadcast::Receiver<Arc<Broadcast>>,
    since: i64,
    token: &mut TokenWatch,
    answer: F,
) where
    F: FnMut(Utf8Bytes) -> A,
    A: Future<Output = Answer>,
{
    let mut last = since.max(0);
    if let Relayed::SourceClosed = relay_until(socket, receiver, &mut last, false, token, answer).await {
        send(socket, Message::Close(Some(close(1012, "table restarting; reconnect with since")))).await;
    }
}

/// Why [`relay_until`] returned.
pub(super) enum Relayed {
    /// The connection is over (closed, idle, lagging or failed).
    Ended,
    /// The broadcast closed; nothing was sent about it.
    SourceClosed,
    /// (`in_order` only) an entry came after a gap, or a nudge ([`Broadcast::nudge`]) came,
    /// and nothing was sent: `last` is the latest sent, and what follows it is in the store.
    Gap,
}

/// Relays live messages to the socket, skipping entries up to `last` (and moving it on), and
/// answers the client's messages with `answer`, until either side ends it, or the socket's
/// token is revoked or expires (closed with [`CLOSE_TOKEN_ENDED`]). `in_order`: an entry
/// beyond `last + 1` ends it ([`Relayed::Gap`]) rather than being sent.
pub(super) async fn relay_until<F, A>(
    socket: &mut impl Socket,
    receiver: &mut broadcast::Receiver<Arc<Broadcast>>,
    last: &mut i64,
    in_order: bool,
    token: &mut TokenWatch,
    mut answer: F,
) -> Relayed
where
    F: FnMut(Utf8Bytes) -> A,
    A: Future<Output = Answer>,
{
    // The first ping one period from now. (Not `interval` and a first `tick().await`: that tick
    // is due "now", which a timer only sees pass once the clock moves on, so under tokio's
    // paused clock in tests a new socket relayed nothing until time was advanced.)
    let mut ping = tokio::time::interval_at(tokio::time::Instant::now() + PING_EVERY, PING_EVERY);
    let mut last_heard = tokio::time::Instant::now();
    loop {
        tokio::select! {
            message = receiver.recv() => match message {
                Ok(b) => {
                    if b.seq.is_some_and(|s| s <= *last) {
                        continue;
                    }
                    // A nudge (the entries are in the store) ends it too.
                    if in_order && b.seq.is_some_and(|s| s > *last + 1 || b.is_nudge()) {
                        return Relayed::Gap;
                    }
                    if !send(socket, Message::Text(Utf8Bytes::from(b.text.as_ref()))).await {
                        break;
                    }
                    *last = b.seq.unwrap_or(*last);
                }
                Err(RecvError::Lagged(_)) => {
                    if send(socket, Message::Close(Some(close(CLOSE_LAGGING, "too far behind; reconnect with since")))).await {
                        drain(socket).await;
                    }
                    break;
                }
                Err(RecvError::Closed) => return Relayed::SourceClosed,
            },
            incoming = socket.next() => {
                last_heard = tokio::time::Instant::now();
                let reply = match incoming {
                    // Boxed: an answer may forward the action to another process, a future
                    // of KiBs that every idle socket's task would otherwise carry inline.
                    Some(Ok(Message::Text(text))) => Box::pin(answer(text)).await.to_message(),
                    Some(Ok(Message::Binary(_))) => Answer::invalid_message("send JSON text").to_message(),
                    Some(Ok(Message::Close(_))) | None | Some(Err(_)) => break,
                    Some(Ok(_)) => continue,
                };
                if !send(socket, reply).await {
                    break;
                }
            }
            _ = ping.tick() => if !keep_alive(socket, last_heard).await {
                break;
            },
            ended = token.ended() => {
                if send(socket, Message::Close(Some(close(CLOSE_TOKEN_ENDED, ended.reason())))).await {
                    drain(socket).await;
                }
                break;
            }
        }
    }
    Relayed::Ended
}

/// A ping period has passed: closes the socket with 1001 if the client has been silent for
/// [`IDLE_TIMEOUT`] (since `last_heard`), else pings it. False if the connection is over.
async fn keep_alive(socket: &mut impl Socket, last_heard: tokio::time::Instant) -> bool {
    if last_heard.elapsed() > IDLE_TIMEOUT {
        send(socket, Message::Close(Some(close(1001, "idle")))).await;
        return false;
    }
    send(socket, Message::Ping(Default::default())).await
}

/// Sends one message and flushes it, for at most [`SEND_TIMEOUT`]; false if the connection is
/// to be dropped (it failed, or the client stopped reading).
///
/// Every write goes through here, one at a time: the relay loop neither reads the client nor
/// takes the next broadcast while a write waits, so what a slow client can make the server hold
/// is one message in the socket's write buffer, the shared broadcast ring (it is dropped with
/// 4008 once it falls `SUBSCRIBER_QUEUE` messages behind) and the kernel's TCP buffers.
pub(super) async fn send(socket: &mut impl Socket, message: Message) -> bool {
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
pub(super) async fn drain(socket: &mut impl Socket) {
    let _ = tokio::time::timeout(CLOSE_WAIT, async { while let Some(Ok(_)) = socket.next().await {} }).await;
}

pub(super) fn close(code: u16, reason: &'static str) -> CloseFrame {
    CloseFrame { code, reason: Utf8Bytes::from_static(reason) }
}

/// Sends the log entries with `since < seq <= upto`, in order: from the actor's recent history
/// when it reaches back far enough, else from the store a page of `backlog_page` entries at a
/// time, so that what a socket holds of the log stays one page, however long the log and
/// however slowly the client reads (each write waits at most [`SEND_TIMEOUT`]). `Ok(false)` if
/// the connection is to be dropped.
async fn send_backlog(
    socket: &mut impl Socket,
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
    let mut cursor = Cursor::new(&state.store, id, since, state.config.backlog_page).upto(upto);
    while let Some(entry) = cursor.next().await? {
        if !send(socket, Message::Text(entry_message(&entry).into())).await {
            return Ok(false);
        }
    }
    Ok(true)
}

/// A message from the client: `{"type":"action","id","seq","action"}`, `{"type":"reclaim","id"}`
/// or `{"type":"ping"}`. Each gets one reply.
async fn client_message(state: &AppState, plays: Plays<'_>, player: Option<Uuid>, text: Utf8Bytes) -> Answer {
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
    let message: ClientMessage = match serde_json::from_str(&text) {
        Ok(m) => m,
        Err(e) => return Answer::invalid_message(crate::wording::plain(&e.to_string())),
    };
    let (id, result) = match (message, player) {
        (ClientMessage::Ping, _) => return Answer::Pong,
        (ClientMessage::Action { id, .. } | ClientMessage::Reclaim { id }, None) => {
            (id, Err(ApiError::unauthorized("connect with a token to play")))
        }
        (ClientMessage::Action { id, seq, action }, Some(p)) => match plays {
            Plays::Actor(handle) => (id, play(state, handle, p, action, seq).await),
            Plays::Elsewhere { table, authorization } => {
                (id, play_elsewhere(state, table, authorization, p, Move::Act { action, seq }).await)
            }
        },
        (ClientMessage::Reclaim { id }, Some(p)) => match plays {
            Plays::Actor(handle) => (id, handle.reclaim(p).await.map_err(ApiError::from)),
            Plays::Elsewhere { table, authorization } => {
                (id, play_elsewhere(state, table, authorization, p, Move::Reclaim).await)
            }
        },
    };
    Answer::reply(id, result)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use std::{
        pin::Pin,
        sync::Mutex,
        task::{Context, Poll},
    };
    use tokio::{sync::mpsc, time::Instant};

    /// An in-memory socket: what the client sends comes from `incoming`; what the server sends
    /// is kept in `sent`, unless the client has stopped reading, when every send waits forever.
    struct TestSocket {
        incoming: mpsc::UnboundedReceiver<Message>,
        sent: Arc<Mutex<Vec<Message>>>,
        reading: bool,
    }

    /// A socket, the client's end of its input, and what the server sent on it.
    fn socket(reading: bool) -> (TestSocket, mpsc::UnboundedSender<Message>, Arc<Mutex<Vec<Message>>>) {
        let (client, incoming) = mpsc::unbounded_channel();
        let sent = Arc::default();
        (TestSocket { incoming, sent: Arc::clone(&sent), reading }, client, sent)
    }

    impl Stream for TestSocket {
        type Item = Result<Message, axum::Error>;
        fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
            self.incoming.poll_recv(cx).map(|m| m.map(Ok))
        }
    }

    impl Sink<Message> for TestSocket {
        type Error = axum::Error;
        fn poll_ready(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
            // A client that stopped reading: the TCP buffers are full and the write never ends.
            if self.reading { Poll::Ready(Ok(())) } else { Poll::Pending }
        }
        fn start_send(self: Pin<&mut Self>, message: Message) -> Result<(), Self::Error> {
            self.sent.lock().unwrap().push(message);
            Ok(())
        }
        fn poll_flush(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
            Poll::Ready(Ok(()))
        }
        fn poll_close(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
            Poll::Ready(Ok(()))
        }
    }

    fn entry(seq: i64) -> Arc<Broadcast> {
        Arc::new(Broadcast { seq: Some(seq), text: format!(r#"{{"type":"entry","seq":{seq}}}"#).into() })
    }

    /// The relay's client-message answers are not under test here.
    async fn no_answer(_: Utf8Bytes) -> Answer {
        unreachable!("the client sends nothing")
    }

    fn close_code(message: &Message) -> Option<u16> {
        match message {
            Message::Close(Some(frame)) => Some(frame.code),
            _ => None,
        }
    }

    #[tokio::test(start_paused = true)]
    async fn a_subscriber_that_falls_behind_is_closed_with_4008_and_drained() {
        let (mut socket, _client, sent) = socket(true);
        let (tx, mut rx) = broadcast::channel(2);
        for seq in 1..=3 {
            tx.send(entry(seq)).unwrap();
        }
        let start = Instant::now();
        relay(&mut socket, &mut rx, 0, &mut TokenWatch::none(), no_answer).await;
        let sent = sent.lock().unwrap();
        assert_eq!(sent.len(), 1, "{sent:?}");
        assert_eq!(close_code(&sent[0]), Some(CLOSE_LAGGING));
        // The client never answered the close: the server read on for CLOSE_WAIT, then gave up.
        assert_eq!(start.elapsed(), CLOSE_WAIT);
    }

    #[tokio::test(start_paused = true)]
    async fn a_silent_client_is_pinged_then_closed_as_idle() {
        let (mut socket, _client, sent) = socket(true);
        let (_tx, mut rx) = broadcast::channel::<Arc<Broadcast>>(2);
        let start = Instant::now();
        relay(&mut socket, &mut rx, 0, &mut TokenWatch::none(), no_answer).await;
        let sent = sent.lock().unwrap();
        let pings = sent.iter().filter(|m| matches!(m, Message::Ping(_))).count();
        // Pings at 20, 40 and 60 s (60 s of silence is not yet over the limit), the close at 80 s.
        assert_eq!(pings, 3, "{sent:?}");
        assert_eq!(sent.len(), 4);
        assert_eq!(close_code(&sent[3]), Some(1001));
        assert_eq!(start.elapsed(), PING_EVERY * 4);
    }

    #[tokio::test(start_paused = true)]
    async fn a_client_that_stops_reading_is_dropped_after_the_send_timeout() {
        let (mut socket, _client, sent) = socket(false);
        let (tx, mut rx) = broadcast::channel(2);
        tx.send(entry(1)).unwrap();
        let start = Instant::now();
        relay(&mut socket, &mut rx, 0, &mut TokenWatch::none(), no_answer).await;
        assert!(sent.lock().unwrap().is_empty());
        assert_eq!(start.elapsed(), SEND_TIMEOUT);
    }

    fn texts(sent: &Mutex<Vec<Message>>) -> Vec<Value> {
        let sent = sent.lock().unwrap();
        sent.iter()
            .filter_map(|m| match m {
                Message::Text(t) => Some(serde_json::from_str(t).unwrap()),
                _ => None,
            })
            .collect()
    }

    #[tokio::test(start_paused = true)]
    async fn entries_up_to_since_are_skipped_and_a_restart_closes_with_1012() {
        let (mut socket, _client, sent) = socket(true);
        let (tx, mut rx) = broadcast::channel(4);
        tx.send(entry(1)).unwrap();
        tx.send(entry(2)).unwrap();
        drop(tx);
        relay(&mut socket, &mut rx, 1, &mut TokenWatch::none(), no_answer).await;
        assert_eq!(texts(&sent), [json!({"type": "entry", "seq": 2})]);
        assert_eq!(sent.lock().unwrap().last().and_then(close_code), Some(1012));
    }

    #[tokio::test(start_paused = true)]
    async fn each_client_message_gets_one_answer_until_the_client_closes() {
        let (mut socket, client, sent) = socket(true);
        let (_tx, mut rx) = broadcast::channel::<Arc<Broadcast>>(4);
        client.send(Message::Text(r#"{"type":"ping"}"#.into())).unwrap();
        client.send(Message::Binary(Default::default())).unwrap();
        client.send(Message::Close(None)).unwrap();
        relay(&mut socket, &mut rx, 0, &mut TokenWatch::none(), async |_| Answer::Pong).await;
        assert_eq!(
            texts(&sent),
            [
                json!({"type": "pong"}),
                json!({"type": "error", "code": "invalid_message", "detail": "send JSON text"})
            ]
        );
    }

    /// The typed answers are the JSON the server always sent (built with `json!` before).
    #[test]
    fn answers_keep_their_wire_form() {
        let value = |a: Answer| serde_json::to_value(a).unwrap();
        let done = ActOk { seq: 7, events: vec![json!({"type": "rolled", "seat": 0, "dice": [6]})] };
        assert_eq!(
            value(Answer::reply(Some(json!("a1")), Ok(done))),
            json!({"type": "reply", "id": "a1", "ok": true, "seq": 7, "events": [{"type": "rolled", "seat": 0, "dice": [6]}]})
        );
        let refused = ApiError::conflict(ErrorCode::NotYourTurn, "seat 2 is to act");
        assert_eq!(
            value(Answer::reply(None, Err(refused))),
            json!({"type": "reply", "id": null, "ok": false,
                "error": {"status": 409, "code": "not_your_turn", "detail": "seat 2 is to act"}})
        );
        assert_eq!(
            value(Answer::invalid_message("send JSON text")),
            json!({"type": "error", "code": "invalid_message", "detail": "send JSON text"})
        );
        assert_eq!(value(Answer::Pong), json!({"type": "pong"}));
    }
}

#[cfg(test)]
mod task_sizes {
    use super::*;
    use crate::future_size;
    use axum::extract::ws::WebSocket;

    type Sock = &'static mut WebSocket;
    type St = &'static AppState;
    type Handle = &'static TableHandle;
    type Token = &'static mut TokenWatch;

    /// Every open WebSocket is a task as large as the future it runs, for as long as it is open,
    /// idle or not: the answer to a client's message (which may forward it to another process,
    /// KiBs of future) is boxed while it runs rather than carried by every socket's task, and so
    /// are the cluster's store-following branch and the steps taken once (subscribing, the
    /// backlog). An idle table's memory is mostly its sockets (BENCHMARKS.md, "An idle table's
    /// memory").
    #[test]
    fn an_idle_sockets_task_is_its_socket_and_its_relay_loop() {
        let answer = future_size(|(state, plays, text): (St, Plays<'static>, Utf8Bytes)| {
            client_message(state, plays, None, text)
        });
        let follow = future_size(|(socket, state, handle, token): (Sock, St, Handle, Token)| {
            follow(socket, state, Uuid::nil(), handle, None, 0, false, token)
        });
        let backlog = future_size(|(socket, state, recent): (Sock, St, Vec<Arc<Broadcast>>)| {
            send_backlog(socket, state, Uuid::nil(), 0, recent, 0)
        });
        let open = future_size(|(socket, state, token): (Sock, St, Token)| {
            super::super::lobby::follow_open(socket, state, Uuid::nil(), None, 0, token)
        });
        let link = future_size(|(socket, handle, token): (Sock, Handle, Token)| {
            serve_link(socket, Uuid::nil(), handle, None, token)
        });
        // The whole task: each branch of a socket's life, and what it keeps from its request.
        let serve = future_size(|(socket, opened): (WebSocket, Box<Opened>)| serve(socket, opened));
        let socket = std::mem::size_of::<WebSocket>();
        assert!(answer > 2 * 1024, "the answer is the large part ({answer} bytes)");
        // `serve` holds the socket once (as an async fn it held it twice, and the request's
        // leftovers inline: 3,464 bytes in a release build, 1,368 since) and lends it to
        // `follow`, which holds the relay loop and little more.
        assert!(
            serve <= follow + socket + 256,
            "serve: {serve} bytes, follow: {follow}, the socket: {socket}"
        );
        assert!(follow < backlog + 1024 && follow < answer, "follow: {follow} bytes");
        for (name, size) in [("follow", follow), ("follow_open", open), ("serve_link", link)] {
            assert!(size < answer, "{name}: {size} bytes, as much as an answer ({answer})");
            assert!(size <= 3 * 1024, "{name}: {size} bytes");
        }
    }
}
