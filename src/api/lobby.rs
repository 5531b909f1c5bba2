//! Before the start and between tables: a table's WebSocket while it is open (the lobby's log
//! entries, until the start hands it to the actor), the lobby's own stream of public tables
//! (`GET /v1/lobby/events`), and what the lobby handlers tell them.
//!
//! The lobby stream is a WebSocket, like the tables' (rather than server-sent events): one
//! protocol for clients, and the same caps, pings, idle and slow-client rules (one bounded
//! broadcast; a client that falls behind is closed with 4008, one that stops reading is dropped
//! after the send timeout), with no request timeout to exempt it from.
//!
//! Both are told of changes made by this process (`table::feeds`) and, in cluster mode, by every
//! other process sharing the database (`crate::cluster::fanout`).

use super::{
    client_addr::ClientIp,
    connections::ConnectionSlot,
    error::{ApiError, ApiResult, ErrorCode},
    events::{
        Answer, OpenSocket, Relayed, Socket, close, relay_until, send, socket_session, token_watch,
        too_many_sockets, upgrade,
    },
    extract::{Query, Session},
    limits::SlotKey,
    paging::PageRequest,
    state::AppState,
    view::TableView,
};
use crate::{
    revocations::TokenWatch,
    store::{
        LobbyEntry, LogEntry, LoggedAction, StoreError, TableFilter, TableRecord, TableStatus, Visibility,
    },
    table::{
        TableEntry,
        cursor::Cursor,
        feeds::{Feeds, LobbyChange, LobbyMessage, LobbyTable, Removal},
        messages::entry_message,
    },
};
use axum::{
    Extension, Router,
    extract::{
        State, WebSocketUpgrade,
        ws::{Message, Utf8Bytes},
    },
    response::Response,
    routing::get,
};
use serde::Deserialize;
use serde_json::Value;
use uuid::Uuid;

pub fn router() -> Router<AppState> {
    Router::new().route("/v1/lobby/events", get(lobby_events))
}

/// How an open table's socket stopped waiting.
pub(super) enum Waited {
    /// The table started: follow its actor from the entry after this `seq`.
    Started(i64),
    /// The socket is done (closed by either side, or the table closed unplayed).
    Ended,
}

/// Serves an open table's socket: its log after `since` (the lobby's entries), then each new
/// one as it is committed, until the table starts ([`Waited::Started`] with the latest `seq`
/// sent) or the socket ends. Clients may ping; actions are refused until the start.
pub(super) async fn follow_open(
    socket: &mut impl Socket,
    state: &AppState,
    id: Uuid,
    player: Option<Uuid>,
    since: i64,
    token: &mut TokenWatch,
) -> Waited {
    let feeds = state.tables.feeds().clone();
    // Releases the table's channel however this ends (the task may be dropped at shutdown),
    // after the receiver below has gone.
    let _following = Following(&feeds, id);
    let mut last = since;
    loop {
        if state.tables.stopping() {
            send(socket, Message::Close(Some(close(1012, "server restarting; reconnect with since")))).await;
            return Waited::Ended;
        }
        let mut receiver = feeds.subscribe_table(id);
        // Read after subscribing: whatever is committed after this read is told to `receiver`
        // (by this process's lobby handlers, or as a nudge from the cluster's notifications).
        let table = match state.store.table(id).await {
            Ok(Some(table)) => table,
            Ok(None) | Err(_) => {
                send(socket, Message::Close(Some(close(1011, "table unavailable; reconnect with since"))))
                    .await;
                return Waited::Ended;
            }
        };
        // Checked again each time the table changes: it may have been made private. A stranger
        // is sent the entries up to the one that hid the table (however the news of it came:
        // this process's broadcast, or a nudge from the cluster's notifications), then let go.
        let hidden = table.visibility == Visibility::Private && !player.is_some_and(|p| table.is_member(p));
        let sent = match hidden {
            true => send_until_hidden(socket, state, id, &mut last).await,
            false => send_entries(socket, state, id, &mut last).await,
        };
        match sent {
            Ok(true) => {}
            Ok(false) => return Waited::Ended,
            Err(_) => {
                send(socket, Message::Close(Some(close(1011, "database unavailable; reconnect with since"))))
                    .await;
                return Waited::Ended;
            }
        }
        if hidden {
            send(socket, Message::Close(Some(close(1008, "the table is private")))).await;
            return Waited::Ended;
        }
        match table.status {
            TableStatus::Open => {}
            TableStatus::Playing | TableStatus::Finished => return Waited::Started(last),
            TableStatus::Closed => {
                send(socket, Message::Close(Some(close(1000, "the table closed")))).await;
                return Waited::Ended;
            }
        }
        loop {
            let answer = async |text: Utf8Bytes| waiting_answer(&text);
            match relay_until(socket, &mut receiver, &mut last, true, token, answer).await {
                Relayed::Ended => return Waited::Ended,
                // The table started, closed or was made private here: look again.
                Relayed::SourceClosed => break,
                // An entry overtook another, or a nudge (a change committed, here or on another
                // process): read on from the store, and look at the table again if the change
                // may end this socket's wait (a start, a close, new settings).
                Relayed::Gap => match send_entries_noting(socket, state, id, &mut last).await {
                    Ok(Some(false)) => {}
                    Ok(Some(true)) => break,
                    Ok(None) => return Waited::Ended,
                    Err(_) => {
                        let reason = "database unavailable; reconnect with since";
                        send(socket, Message::Close(Some(close(1011, reason)))).await;
                        return Waited::Ended;
                    }
                },
            }
        }
    }
}

/// A table followed by a socket through its channel in the feeds (an open one, or one another
/// process drives): the channel is released when the socket is done.
pub(super) struct Following<'a>(pub(super) &'a Feeds, pub(super) Uuid);

impl Drop for Following<'_> {
    fn drop(&mut self) {
        self.0.release(self.1);
    }
}

/// Sends the log entries after `last` from the store, a page at a time, moving `last` on.
/// `Ok(false)` if the connection is to be dropped.
pub(super) async fn send_entries(
    socket: &mut impl Socket,
    state: &AppState,
    id: Uuid,
    last: &mut i64,
) -> Result<bool, StoreError> {
    send_read(socket, Cursor::new(&state.store, id, *last, state.config.backlog_page), last).await
}

/// Sends what `cursor` reads, moving `last` on. `Ok(false)` if the connection is to be dropped.
async fn send_read(
    socket: &mut impl Socket,
    mut cursor: Cursor<'_>,
    last: &mut i64,
) -> Result<bool, StoreError> {
    while let Some(entry) = cursor.next().await? {
        if !send(socket, Message::Text(entry_message(&entry).into())).await {
            return Ok(false);
        }
        *last = entry.seq;
    }
    Ok(true)
}

/// [`send_entries`], telling whether any entry sent may change how the socket follows the
/// table (settings, a close, or the start and play); `None` if the connection is to be dropped.
async fn send_entries_noting(
    socket: &mut impl Socket,
    state: &AppState,
    id: Uuid,
    last: &mut i64,
) -> Result<Option<bool>, StoreError> {
    let mut changed = false;
    let mut cursor = Cursor::new(&state.store, id, *last, state.config.backlog_page);
    while let Some(entry) = cursor.next().await? {
        if !send(socket, Message::Text(entry_message(&entry).into())).await {
            return Ok(None);
        }
        *last = entry.seq;
        let seats_only = matches!(
            entry.action,
            LoggedAction::Table(TableEntry::Lobby(
                LobbyEntry::SeatTaken { .. } | LobbyEntry::SeatLeft { .. }
            ))
        );
        changed |= !seats_only;
    }
    Ok(Some(changed))
}

/// For a socket of a stranger to a table made private: the entries after `last` up to the one
/// that made it private, none if that one was sent already.
async fn send_until_hidden(
    socket: &mut impl Socket,
    state: &AppState,
    id: Uuid,
    last: &mut i64,
) -> Result<bool, StoreError> {
    let hides = |entry: &LogEntry| {
        matches!(
            entry.action,
            LoggedAction::Table(TableEntry::Lobby(LobbyEntry::SettingsChanged {
                visibility: Visibility::Private,
                ..
            }))
        )
    };
    // Found before anything is sent: a table not made private since `last` sends nothing.
    let page = state.config.backlog_page;
    let Some(hiding) = Cursor::new(&state.store, id, *last, page).find(hides).await? else { return Ok(true) };
    send_read(socket, Cursor::new(&state.store, id, *last, page).upto(hiding), last).await
}

/// The answer to a client message before the start: pings are answered, actions and reclaims
/// refused (409 `table_not_started`), as the HTTP routes refuse them.
fn waiting_answer(text: &str) -> Answer {
    let message: Value = match serde_json::from_str(text) {
        Ok(m) => m,
        Err(e) => return Answer::invalid_message(e.to_string()),
    };
    match message.get("type").and_then(Value::as_str) {
        Some("ping") => Answer::Pong,
        Some("action" | "reclaim") => Answer::reply(
            message.get("id").cloned(),
            Err(ApiError::conflict(ErrorCode::TableNotStarted, "the game has not started")),
        ),
        _ => Answer::invalid_message("before the start a table's socket takes only pings"),
    }
}

/// Tells an open table's sockets of the entries a lobby change just committed.
pub(super) fn tell_table(state: &AppState, id: Uuid, entries: &[LogEntry]) {
    state.tables.feeds().publish_entries(id, entries);
}

/// Tells the lobby that a public `table` appeared or changed (private ones: nothing).
pub(super) fn tell_lobby(state: &AppState, table: &TableRecord, change: LobbyChange, seq: i64) {
    if table.visibility == Visibility::Public {
        let view = TableView::of(table, None, state);
        state.tables.feeds().publish_lobby(&LobbyMessage::Table { change, seq, table: &view });
    }
}

/// Tells the lobby that a table it listed is gone.
pub(super) fn tell_removed(state: &AppState, table_id: Uuid, reason: Removal, seq: i64) {
    state.tables.feeds().publish_lobby::<()>(&LobbyMessage::Removed { table_id, reason, seq });
}

/// The latest `seq` among `entries`, else `otherwise`.
pub(super) fn last_seq(entries: &[LogEntry], otherwise: i64) -> i64 {
    entries.last().map_or(otherwise, |e| e.seq)
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
            .map(|t| (seqs.get(&t.id).copied().unwrap_or(0), TableView::of(t, None, state)))
            .collect();
        let tables = views.iter().map(|(seq, table)| LobbyTable { seq: *seq, table }).collect();
        Ok::<_, StoreError>(
            serde_json::to_string(&LobbyMessage::Snapshot { tables, truncated }).unwrap_or_default(),
        )
    };
    let text = match snapshot.await {
        Ok(text) => text,
        Err(_) => {
            send(socket, Message::Close(Some(close(1011, "database unavailable; reconnect")))).await;
            return;
        }
    };
    if !send(socket, Message::Text(text.into())).await {
        return;
    }
    let answer = async |text: Utf8Bytes| match serde_json::from_str::<Value>(&text) {
        Ok(m) if m.get("type").and_then(Value::as_str) == Some("ping") => Answer::Pong,
        Ok(_) => Answer::invalid_message("the lobby stream takes only pings"),
        Err(e) => Answer::invalid_message(e.to_string()),
    };
    let mut last = 0;
    if let Relayed::SourceClosed = relay_until(socket, &mut receiver, &mut last, false, token, answer).await {
        send(socket, Message::Close(Some(close(1012, "server restarting; reconnect")))).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{bots::Level, config::Config, store::testing};
    use futures_util::{Sink, Stream};
    use std::{
        pin::Pin,
        task::{Context, Poll},
    };

    /// A socket that keeps what the server sends and has nothing to read.
    #[derive(Default)]
    struct Kept(Vec<Message>);

    impl Stream for Kept {
        type Item = Result<Message, axum::Error>;
        fn poll_next(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Option<Self::Item>> {
            Poll::Pending
        }
    }

    impl Sink<Message> for Kept {
        type Error = axum::Error;
        fn poll_ready(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
            Poll::Ready(Ok(()))
        }
        fn start_send(mut self: Pin<&mut Self>, message: Message) -> Result<(), Self::Error> {
            self.0.push(message);
            Ok(())
        }
        fn poll_flush(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
            Poll::Ready(Ok(()))
        }
        fn poll_close(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
            Poll::Ready(Ok(()))
        }
    }

    impl Kept {
        fn seqs(&self) -> Vec<i64> {
            self.0
                .iter()
                .filter_map(|m| match m {
                    Message::Text(text) => {
                        serde_json::from_str::<serde_json::Value>(text).ok()?["seq"].as_i64()
                    }
                    _ => None,
                })
                .collect()
        }
    }

    /// A stranger's socket that missed the change making a table private is sent the entries
    /// after its `last` up to that change (a page at a time), and nothing past it; nothing if it
    /// had seen the change, or the table was never made private since.
    #[tokio::test]
    async fn a_stranger_catching_up_is_sent_the_log_up_to_the_table_made_private() {
        let (store, _dir) = testing::scratch_store().await;
        let host = store.create_player("Ann", "hash", None).await.unwrap();
        let new = testing::luddo_for_two(host.id);
        store.create_table(&new, 0, usize::MAX).await.unwrap();
        let change = |visibility| {
            store.update_table_settings(new.id, &new.options, false, Level::Strong, visibility, None)
        };
        for _ in 0..3 {
            change(Visibility::Public).await.unwrap().unwrap();
        }
        let hidden = change(Visibility::Private).await.unwrap().unwrap()[0].seq;
        change(Visibility::Public).await.unwrap().unwrap();
        // A page of two entries: the change is found and sent across pages.
        let state = AppState::new(store.clone(), Config { backlog_page: 2, ..Config::default() });

        let (mut socket, mut last) = (Kept::default(), 1);
        assert!(send_until_hidden(&mut socket, &state, new.id, &mut last).await.unwrap());
        assert_eq!(socket.seqs(), (2..=hidden).collect::<Vec<_>>());
        assert_eq!(last, hidden);

        let mut again = Kept::default();
        assert!(send_until_hidden(&mut again, &state, new.id, &mut last).await.unwrap());
        assert!(again.0.is_empty(), "the change was sent already, and none since made it private");

        let public = testing::luddo_for_two(host.id);
        store.create_table(&public, 0, usize::MAX).await.unwrap();
        let (mut socket, mut last) = (Kept::default(), 0);
        assert!(send_until_hidden(&mut socket, &state, public.id, &mut last).await.unwrap());
        assert!(socket.0.is_empty() && last == 0, "a table never made private sends nothing");
    }

    /// What a gap's catch-up tells its caller: whether anything but seats changed.
    #[tokio::test]
    async fn a_catch_up_tells_whether_more_than_seats_changed() {
        let (store, _dir) = testing::scratch_store().await;
        let host = store.create_player("Ann", "hash", None).await.unwrap();
        let new = testing::luddo_for_two(host.id);
        store.create_table(&new, 0, usize::MAX).await.unwrap();
        let state = AppState::new(store.clone(), Config { backlog_page: 2, ..Config::default() });
        let (mut socket, mut last) = (Kept::default(), 0);
        assert_eq!(send_entries_noting(&mut socket, &state, new.id, &mut last).await.unwrap(), Some(false));
        assert_eq!((socket.seqs(), last), (vec![1], 1), "the host's seat_taken: seats only");
        store
            .update_table_settings(new.id, &new.options, true, Level::Strong, Visibility::Public, None)
            .await
            .unwrap();
        assert_eq!(send_entries_noting(&mut socket, &state, new.id, &mut last).await.unwrap(), Some(true));
        assert_eq!((socket.seqs(), last), (vec![1, 2], 2));
    }
}
