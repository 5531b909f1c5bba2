//! A table's WebSocket (`GET /v1/tables/{id}/events`): the log from a given `seq`, then live
//! entries and seat presence; the client may send actions, reclaims and pings on it. Before the
//! start (no actor yet) `open_table` serves it, then hands over to the actor here; in cluster
//! mode a table another process drives is followed from the store (`store_follower`), and a
//! presence link from another process is served here ([`serve_link`]).

use super::{
    backlog::send_backlog,
    open_table::{Waited, follow_open},
    protocol::{ActionTarget, answer_in_play},
    session::{OpenSocket, socket_session, token_watch, too_many_sockets, upgrade},
    store_follower::follow_store,
    transport::{PING_EVERY, Socket, keep_alive, relay, send_close},
};
use crate::{
    api::{
        access::visible_table,
        connections::ConnectionSlot,
        error::{ApiError, ApiResult, ErrorCode},
        extract::{Path, Query, Session},
        limits::{SlotGuard, SlotKey},
        state::AppState,
    },
    chat::feed::ChatFollow,
    cluster::{Caller, Route, RouteError},
    revocations::TokenWatch,
    store::TableStatus,
    table::TableHandle,
};
use axum::{
    Extension, Router,
    extract::{
        State, WebSocketUpgrade,
        ws::{Message, WebSocket},
    },
    http::{HeaderMap, HeaderValue, header},
    response::Response,
    routing::get,
};
use futures_util::StreamExt;
use serde::Deserialize;
use tokio::sync::broadcast::error::RecvError;
use uuid::Uuid;

pub(super) fn router() -> Router<AppState> {
    Router::new().route("/v1/tables/{id}/events", get(events))
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
    /// Send the table's chat messages after this `n` first (none: the last 50).
    chat_since: Option<i64>,
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
    if q.chat_since.is_some_and(|n| n < 0) {
        return Err(ApiError::bad_request(ErrorCode::InvalidQuery, "chat_since is 0 or more"));
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
    let serving = match table.status {
        TableStatus::Open => None,
        TableStatus::Closed => {
            return Err(ApiError::conflict(ErrorCode::TableNotStarted, "the game has not started"));
        }
        // A presence link (`cluster::presence`) counts only where the table is driven.
        _ if Caller::of(&headers).forwarded() => {
            match state.cluster.route(id, &Caller::of(&headers)).await? {
                Route::Here(handle) => Some(Serving::PresenceLink(handle)),
                Route::There(_) => return Err(RouteError::Elsewhere.into()),
            }
        }
        _ => Some(serving_for(&state, id).await?),
    };
    // Bounded connections: a player's sockets, a table's anonymous spectators.
    let slot = match player_id {
        Some(p) => state.sockets.acquire(SlotKey::Player(p), state.config.max_sockets_per_player),
        None => state.sockets.acquire(SlotKey::Spectators(id), state.config.max_spectators_per_table),
    }
    .ok_or_else(too_many_sockets)?;
    if let Some(p) = player_id {
        let state = state.clone();
        tokio::spawn(async move { crate::api::presence::opened(&state, p).await });
    }
    // Boxed: the upgrade's task holds the request's leftovers as one pointer.
    let opened = Box::new(Opened {
        state,
        id,
        player_id,
        since: q.since,
        chat_since: q.chat_since,
        reclaim: q.reclaim,
        serving,
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
    chat_since: Option<i64>,
    reclaim: bool,
    /// `None` for a table still open when the socket came.
    serving: Option<Serving>,
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
        let serving = opened.serving.take();
        let (state, id, player_id, reclaim) = (&opened.state, opened.id, opened.player_id, opened.reclaim);
        let token = &mut opened.token;
        let mut since = opened.since;
        // Boxed: the socket's task carries one pointer for it. Subscribed now, read later (what
        // it missed, after the log's backlog: `catch_up_chat`), so the socket's first steps
        // (its presence, its backlog) wait for no read of the chat.
        let mut chat = Box::new(state.chat.feeds().follow(id, player_id));
        chat.missed_since(opened.chat_since);
        let chat = &mut *chat;
        let serving = match serving {
            Some(serving) => Some(serving),
            None => {
                match Box::pin(follow_open(&mut socket, state, id, player_id, since, token, chat)).await {
                    Waited::Started(last) => {
                        since = last;
                        match Box::pin(serving_for(state, id)).await {
                            Ok(serving) => Some(serving),
                            Err(_) => {
                                let reason = "table unavailable; reconnect with since";
                                send_close(&mut socket, 1011, reason).await;
                                None
                            }
                        }
                    }
                    Waited::Ended => None,
                }
            }
        };
        match &serving {
            Some(Serving::Actor(handle)) => {
                follow(&mut socket, state, id, handle, player_id, since, reclaim, token, chat).await
            }
            Some(Serving::PresenceLink(handle)) => {
                serve_link(&mut socket, id, handle, player_id, token).await
            }
            Some(Serving::FromStore) => {
                let authorization = opened.authorization.as_ref();
                // Boxed (cluster mode only): every socket's task is as large as its largest branch.
                let following = follow_store(
                    &mut socket,
                    state,
                    id,
                    player_id,
                    authorization,
                    since,
                    reclaim,
                    token,
                    chat,
                );
                Box::pin(following).await
            }
            None => {}
        }
        // The socket counts as its connection (the slot and connection in `opened`) until it
        // closes, and as an open socket until then.
        drop(serving);
        drop(opened);
    }
}

/// Reads the chat messages a socket of table `id` missed, once (its chat was subscribed to
/// before, so none falls between), for the relay to send before anything live. Should the read
/// fail, the socket follows what comes (the rest is one request away).
pub(super) async fn catch_up_chat(state: &AppState, id: Uuid, chat: &mut ChatFollow) {
    let Some((viewer, since)) = chat.take_missed() else { return };
    let missed = async {
        let table = state.store.table(id).await?.ok_or(crate::chat::ChatError::NoTable)?;
        state.chat.replay(&table, viewer, since).await
    };
    match missed.await {
        Ok((messages, last)) => chat.replay(messages, last),
        Err(e) => tracing::debug!(table = %id, error = %e, "could not read the chat a socket missed"),
    }
}

/// How a socket of a started table is served.
enum Serving {
    /// From this process's actor, which drives the table.
    Actor(TableHandle),
    /// From the store, nudged by the cluster's notifications: another process drives the table
    /// (or is taking it over) and the socket's actions are forwarded to it.
    FromStore,
    /// As a presence link ([`serve_link`]) on this process's actor.
    PresenceLink(TableHandle),
}

/// How a socket of started table `id` is served (cluster mode: by whichever process drives
/// it; a table changing hands is followed from the store all the same).
async fn serving_for(state: &AppState, id: Uuid) -> ApiResult<Serving> {
    match state.cluster.route(id, &Caller::Client).await {
        Ok(Route::Here(handle)) => Ok(Serving::Actor(handle)),
        Ok(Route::There(_)) => Ok(Serving::FromStore),
        Err(RouteError::Elsewhere) if state.cluster.enabled() => Ok(Serving::FromStore),
        Err(e) => Err(e.into()),
    }
}

/// Serves a socket from this process's actor: the backlog after `since`, then live messages;
/// actions and reclaims from the client; pings. Ends on close, on idleness, or when the client falls behind.
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
    chat: &mut ChatFollow,
) {
    tracing::debug!(table = %id, ?player, since, reclaim, "websocket open");
    // The steps taken once are boxed: only the relay loop stays in the socket's task.
    let Ok(mut sub) = Box::pin(handle.subscribe(player, reclaim)).await else {
        send_close(socket, 1011, "table unavailable; reconnect").await;
        return;
    };
    let recent = std::mem::take(&mut sub.recent);
    match Box::pin(send_backlog(socket, state, id, since, recent, sub.seq)).await {
        Ok(true) => {
            Box::pin(catch_up_chat(state, id, chat)).await;
            let target = ActionTarget::Actor { table: id, handle };
            let answer = |received| answer_in_play(state, target, player, received);
            relay(socket, &mut sub.receiver, since, token, chat, answer).await;
        }
        Ok(false) => {}
        Err(_) => {
            send_close(socket, 1011, "database unavailable; reconnect").await;
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
        send_close(socket, 1011, "table unavailable; reconnect").await;
        return;
    };
    let mut ping = tokio::time::interval_at(tokio::time::Instant::now() + PING_EVERY, PING_EVERY);
    let mut last_heard = tokio::time::Instant::now();
    loop {
        tokio::select! {
            message = sub.receiver.recv() => if let Err(RecvError::Closed) = message {
                send_close(socket, 1012, "table restarting; reconnect").await;
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
                send_close(socket, ended.code(), ended.reason()).await;
                break;
            }
        }
    }
    drop(sub);
    if let Some(p) = player {
        Box::pin(handle.disconnected(p)).await;
    }
}

#[cfg(test)]
mod task_sizes {
    use super::*;
    use crate::api::ws::protocol::Received;
    use crate::{future_size, table::Broadcast};
    use std::sync::Arc;

    type Sock = &'static mut WebSocket;
    type St = &'static AppState;
    type Handle = &'static TableHandle;
    type Token = &'static mut TokenWatch;
    type Chat = &'static mut ChatFollow;

    /// Every open WebSocket is a task as large as the future it runs, for as long as it is open,
    /// idle or not: the answer to a client's message (which may forward it to another process,
    /// KiBs of future) is boxed while it runs rather than carried by every socket's task, and so
    /// are the cluster's store-following branch and the steps taken once (subscribing, the
    /// backlog). An idle table's memory is mostly its sockets (BENCHMARKS.md, "An idle table's
    /// memory").
    #[test]
    fn an_idle_sockets_task_is_its_socket_and_its_relay_loop() {
        let answer = future_size(|(state, target, received): (St, ActionTarget<'static>, Received)| {
            answer_in_play(state, target, None, received)
        });
        let follow = future_size(|(socket, state, handle, token, chat): (Sock, St, Handle, Token, Chat)| {
            follow(socket, state, Uuid::nil(), handle, None, 0, false, token, chat)
        });
        let backlog = future_size(|(socket, state, recent): (Sock, St, Vec<Arc<Broadcast>>)| {
            send_backlog(socket, state, Uuid::nil(), 0, recent, 0)
        });
        let open = future_size(|(socket, state, token, chat): (Sock, St, Token, Chat)| {
            follow_open(socket, state, Uuid::nil(), None, 0, token, chat)
        });
        let link = future_size(|(socket, handle, token): (Sock, Handle, Token)| {
            serve_link(socket, Uuid::nil(), handle, None, token)
        });
        // The whole task: each branch of a socket's life, and what it keeps from its request.
        let serve = future_size(|(socket, opened): (WebSocket, Box<Opened>)| serve(socket, opened));
        let socket = std::mem::size_of::<WebSocket>();
        assert!(answer > 2 * 1024, "the answer is the large part ({answer} bytes)");
        // `serve` holds the socket once and lends it to `follow`, which holds the relay loop and
        // little more (what this saved: BENCHMARKS.md, "An idle table's memory").
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
