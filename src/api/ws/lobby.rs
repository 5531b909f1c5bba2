//! The lobby stream (`GET /v1/lobby/events`): a snapshot of the open public tables, then each
//! change of one, as this process's lobby handlers tell them (`table::feeds`) and, in cluster
//! mode, as every other process sharing the database does (`crate::cluster::fanout`).
//!
//! It is a WebSocket, like the tables' (rather than server-sent events): one protocol for
//! clients, and the same caps, pings, idle and slow-client rules (one bounded broadcast; a
//! client that falls behind is closed with 4008, one that stops reading is dropped after the
//! send timeout), with no request timeout to exempt it from.

use super::{
    protocol::answer_lobby,
    session::{OpenSocket, socket_session, token_watch, too_many_sockets, upgrade},
    transport::{Relayed, Socket, relay_until, send, send_close},
};
use crate::{
    api::{
        client_addr::ClientIp,
        connections::ConnectionSlot,
        error::ApiResult,
        extract::{Query, Session},
        limits::SlotKey,
        paging::PageRequest,
        state::AppState,
    },
    chat::feed::ChatFollow,
    lobby::TableView,
    revocations::TokenWatch,
    store::{StoreError, TableFilter, TableStatus},
    table::feeds::{LobbyMessage, LobbyTable},
};
use axum::{
    Extension, Router,
    extract::{State, WebSocketUpgrade, ws::Message},
    response::Response,
    routing::get,
};
use serde::Deserialize;

pub(super) fn router() -> Router<AppState> {
    Router::new().route("/v1/lobby/events", get(lobby_events))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct LobbyQuery {
    /// How many open tables the snapshot lists at most (1 to 100, default 20).
    limit: Option<usize>,
    /// The bearer token, for clients that cannot set headers on a WebSocket.
    token: Option<String>,
}

async fn lobby_events(
    State(state): State<AppState>,
    connection: Option<Extension<ConnectionSlot>>,
    ClientIp(client): ClientIp,
    header_auth: Option<Session>,
    Query(q): Query<LobbyQuery>,
    ws: WebSocketUpgrade,
) -> ApiResult<Response> {
    let session = socket_session(&state, header_auth, q.token.as_deref()).await?;
    // At once: a revocation from now on closes the socket.
    let mut token = token_watch(&state, session.as_ref());
    let page = PageRequest::parse(q.limit, None)?;
    // A player's sockets count together, tables' and lobby's; anonymous lobby sockets per
    // client address, as many.
    let key = match &session {
        Some(s) => SlotKey::Player(s.player.id),
        None => SlotKey::Lobby(client),
    };
    let slot =
        state.sockets.acquire(key, state.config.max_sockets_per_player).ok_or_else(too_many_sockets)?;
    Ok(upgrade(ws).on_upgrade(move |mut socket| async move {
        let _open = OpenSocket::count(&state);
        follow_lobby(&mut socket, &state, page.limit, &mut token).await;
        drop((slot, connection));
    }))
}

/// Serves one lobby socket: the snapshot of open public tables, then every change, until its
/// token (if it has one) is revoked or expires.
async fn follow_lobby(socket: &mut impl Socket, state: &AppState, limit: usize, token: &mut TokenWatch) {
    // Subscribe first: a change made while the snapshot is read comes after it (and its `seq`
    // tells whether it is news).
    let mut receiver = state.tables.feeds().subscribe_lobby();
    let snapshot = async {
        let filter = TableFilter {
            status: TableStatus::Open,
            game: None,
            party: None,
            has_free_seat: false,
            after: None,
            limit: limit + 1,
        };
        let mut tables = state.store.list_tables(&filter).await?;
        let truncated = tables.len() > limit;
        tables.truncate(limit);
        let seqs = state.store.latest_seqs(&tables.iter().map(|t| t.id).collect::<Vec<_>>()).await?;
        let views: Vec<(i64, TableView)> = tables
            .iter()
            .map(|t| (seqs.get(&t.id).copied().unwrap_or(0), state.lobby.view(t, None)))
            .collect();
        let tables = views.iter().map(|(seq, table)| LobbyTable { seq: *seq, table }).collect();
        Ok::<_, StoreError>(
            serde_json::to_string(&LobbyMessage::Snapshot { tables, truncated }).unwrap_or_default(),
        )
    };
    let text = match snapshot.await {
        Ok(text) => text,
        Err(_) => {
            send_close(socket, 1011, "database unavailable; reconnect").await;
            return;
        }
    };
    if !send(socket, Message::Text(text.into())).await {
        return;
    }
    let answer = async |received| answer_lobby(received);
    let mut last = 0;
    if let Relayed::SourceClosed =
        relay_until(socket, &mut receiver, &mut last, false, token, &mut ChatFollow::none(), answer).await
    {
        send_close(socket, 1012, "server restarting; reconnect").await;
    }
}
