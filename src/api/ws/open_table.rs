//! A table's WebSocket while the table is open (no actor yet): the lobby's log entries after
//! its `since`, then each new one as it is committed (told by this process's lobby handlers
//! through `table::feeds`, or in cluster mode as a nudge from another process's), until the
//! start hands the socket to the actor (`super::table`). A table made private lets its
//! strangers go.

use super::{
    backlog::{Sent, log_after, send_log},
    protocol::answer_waiting,
    transport::{Relayed, Socket, relay_until, send_close},
};
use crate::{
    api::state::AppState,
    chat::feed::ChatFollow,
    revocations::TokenWatch,
    store::{LobbyEntry, LogEntry, StoreResult, TableStatus, Visibility},
    table::TableEntry,
};
use uuid::Uuid;

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
    chat: &mut ChatFollow,
) -> Waited {
    let feeds = state.tables.feeds().clone();
    // Releases the table's channel however this ends (the task may be dropped at shutdown),
    // after the receiver below has gone.
    let _following = feeds.following(id);
    let mut last = since;
    loop {
        if state.tables.stopping() {
            send_close(socket, 1012, "server restarting; reconnect with since").await;
            return Waited::Ended;
        }
        let mut receiver = feeds.subscribe_table(id);
        // Read after subscribing: whatever is committed after this read is told to `receiver`
        // (by this process's lobby handlers, or as a nudge from the cluster's notifications).
        let table = match state.store.table(id).await {
            Ok(Some(table)) => table,
            Ok(None) | Err(_) => {
                send_close(socket, 1011, "table unavailable; reconnect with since").await;
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
                send_close(socket, 1011, "database unavailable; reconnect with since").await;
                return Waited::Ended;
            }
        }
        if hidden {
            send_close(socket, 1008, "the table is private").await;
            return Waited::Ended;
        }
        match table.status {
            TableStatus::Open => {}
            TableStatus::Playing | TableStatus::Finished => return Waited::Started(last),
            TableStatus::Closed => {
                send_close(socket, 1000, "the table closed").await;
                return Waited::Ended;
            }
        }
        loop {
            Box::pin(super::table::catch_up_chat(state, id, chat)).await;
            let answer = |received| answer_waiting(state, id, player, received);
            match relay_until(socket, &mut receiver, &mut last, true, None, token, chat, answer).await {
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
                        send_close(socket, 1011, reason).await;
                        return Waited::Ended;
                    }
                },
            }
        }
    }
}

/// Sends the log entries after `last` from the store, moving `last` on. `Ok(false)` if the
/// connection is to be dropped.
async fn send_entries(
    socket: &mut impl Socket,
    state: &AppState,
    id: Uuid,
    last: &mut i64,
) -> StoreResult<bool> {
    Ok(send_log(socket, log_after(state, id, *last), last, |_| false).await? != Sent::Dropped)
}

/// [`send_entries`], telling whether any entry sent may change how the socket follows the
/// table (settings, a close, or the start and play); `None` if the connection is to be dropped.
async fn send_entries_noting(
    socket: &mut impl Socket,
    state: &AppState,
    id: Uuid,
    last: &mut i64,
) -> StoreResult<Option<bool>> {
    let more_than_seats = |l: &LogEntry| {
        !matches!(
            l.action.table(),
            Some(TableEntry::Lobby(LobbyEntry::SeatTaken { .. } | LobbyEntry::SeatLeft { .. }))
        )
    };
    Ok(match send_log(socket, log_after(state, id, *last), last, more_than_seats).await? {
        Sent::All { noted } => Some(noted),
        Sent::Dropped => None,
    })
}

/// For a socket of a stranger to a table made private: the entries after `last` up to the one
/// that made it private, none if that one was sent already. `Ok(false)` if the connection is
/// to be dropped.
async fn send_until_hidden(
    socket: &mut impl Socket,
    state: &AppState,
    id: Uuid,
    last: &mut i64,
) -> StoreResult<bool> {
    let hides = |l: &LogEntry| {
        matches!(
            l.action.table(),
            Some(TableEntry::Lobby(LobbyEntry::SettingsChanged { visibility: Visibility::Private, .. }))
        )
    };
    // Found before anything is sent: a table not made private since `last` sends nothing.
    let Some(hiding) = log_after(state, id, *last).find(hides).await? else { return Ok(true) };
    Ok(send_log(socket, log_after(state, id, *last).upto(hiding), last, |_| false).await? != Sent::Dropped)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{
        bots::Level,
        config::Config,
        store::{TableSettings, testing},
    };
    use axum::extract::ws::Message;
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

    /// The settings of a new table `new`, with this visibility and party flag.
    fn settings(new: &crate::store::NewTable, visibility: Visibility, party: bool) -> TableSettings {
        TableSettings {
            options: new.options.clone(),
            visibility,
            party,
            long_clock: false,
            fresh_dice: false,
            bot_level: Level::Strong,
            invite_code: None,
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
            let (store, changed) = (&store, settings(&new, visibility, false));
            async move { store.update_table_settings(new.id, &changed).await }
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
        store.update_table_settings(new.id, &settings(&new, Visibility::Public, true)).await.unwrap();
        assert_eq!(send_entries_noting(&mut socket, &state, new.id, &mut last).await.unwrap(), Some(true));
        assert_eq!((socket.seqs(), last), (vec![1, 2], 2));
    }
}
