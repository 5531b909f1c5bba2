//! Broadcasts outside the actors: the log entries of open tables (before the start there is no
//! actor), and the lobby's stream of public tables appearing, changing and going.
//!
//! Both are in-process: a change made by this process (its lobby handlers, its actors) is told
//! to the sockets of this process. Everything told is in the store first, so a socket that
//! misses something (it fell behind) finds it there. In cluster mode (PostgreSQL,
//! `crate::cluster`) the other processes' changes come in too: a table's log as a nudge
//! ([`Feeds::nudge`]: read the store on from your last `seq`), the lobby's messages as they were
//! sent ([`Feeds::relay_lobby`]).
//!
//! An open table's channel is made when its first socket subscribes and dropped when its last
//! one leaves; [`Feeds::close_table`] drops it at once when the table starts or closes, which
//! tells each of its sockets to look at the table again (and follow the actor from then on).

use super::{Broadcast, SUBSCRIBER_QUEUE};
use crate::store::LogEntry;
use serde::Serialize;
use std::{
    collections::HashMap,
    sync::{Arc, Mutex},
};
use tokio::sync::broadcast;
use uuid::Uuid;

/// How a lobby message addressed to players starts when notified to the other processes:
/// `@<id>,<id>…\n<message>` (a message for everyone is a JSON object, `{…`).
pub const FOR_PLAYERS: &str = "@";

/// Messages a lobby socket may fall behind before it is dropped (it reconnects and gets a
/// fresh snapshot).
pub const LOBBY_QUEUE: usize = 256;

/// The in-process broadcasts of open tables and of the lobby.
pub struct Feeds {
    open: Mutex<HashMap<Uuid, broadcast::Sender<Arc<Broadcast>>>>,
    /// Replaced (so that every lobby socket's receiver closes) at shutdown.
    lobby: Mutex<broadcast::Sender<Arc<Broadcast>>>,
    /// Cluster mode: where the lobby's messages go to reach the other processes too.
    /// Bounded ([`LOBBY_QUEUE`]): clients make lobby changes, and a slow database must not
    /// make the messages waiting for it grow without end.
    outbox: std::sync::OnceLock<tokio::sync::mpsc::Sender<Arc<str>>>,
}

impl Default for Feeds {
    fn default() -> Self {
        Self {
            open: Mutex::default(),
            lobby: Mutex::new(broadcast::channel(LOBBY_QUEUE).0),
            outbox: std::sync::OnceLock::new(),
        }
    }
}

impl Feeds {
    /// Follows an open table's lobby entries from now on, within a [`Feeds::following`].
    pub fn subscribe_table(&self, id: Uuid) -> broadcast::Receiver<Arc<Broadcast>> {
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        open.entry(id).or_insert_with(|| broadcast::channel(SUBSCRIBER_QUEUE).0).subscribe()
    }

    /// A socket follows the channel of table `id` (an open table's, or in cluster mode one that
    /// another process drives), subscribing with [`Feeds::subscribe_table`] as often as it
    /// needs: the channel is released when the guard drops, after the socket's receiver.
    pub fn following(&self, id: Uuid) -> Following<'_> {
        Following { feeds: self, id }
    }

    /// A subscriber of `id` has gone (its receiver dropped): drops the channel if it was the last.
    fn release(&self, id: Uuid) {
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        if open.get(&id).is_some_and(|tx| tx.receiver_count() == 0) {
            open.remove(&id);
        }
    }

    /// Tells an open table's sockets of entries just committed (nobody listening: nothing).
    pub fn publish_entries(&self, id: Uuid, entries: &[LogEntry]) {
        let open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        let Some(tx) = open.get(&id) else { return };
        for entry in entries {
            let text = super::messages::entry_message(entry);
            let _ = tx.send(Arc::new(Broadcast::Entry { seq: entry.seq, text: text.into() }));
        }
    }

    /// The table is no longer open (it started or closed): its sockets look at it again.
    pub fn close_table(&self, id: Uuid) {
        self.open.lock().unwrap_or_else(|e| e.into_inner()).remove(&id);
    }

    /// Cluster mode: the log of `id` reaches `seq` (another process, or this one's log writer,
    /// appended): the sockets that follow it from the store read on (nobody listening:
    /// nothing). Open tables' sockets are among them, and so are those of tables in play
    /// that another process drives (`api::ws::store_follower`).
    pub fn nudge(&self, id: Uuid, seq: i64) {
        let open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(tx) = open.get(&id) {
            let _ = tx.send(Arc::new(Broadcast::Nudge { seq }));
        }
    }

    /// Cluster mode: an entry of `id` just committed, with its WebSocket message as notified
    /// (by another process's log writer, or this one's), for the sockets that follow the table
    /// from the store: each sends it if it is the next one it lacks, and reads the store if not
    /// (nobody listening: nothing).
    pub fn relay_entry(&self, id: Uuid, seq: i64, message: &str) {
        let open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(tx) = open.get(&id) {
            let _ = tx.send(Arc::new(Broadcast::Entry { seq, text: Arc::from(message) }));
        }
    }

    /// Cluster mode: notifications may have been missed (the listening connection was lost):
    /// every socket that follows a table from the store reads it again.
    pub fn nudge_all(&self) {
        let open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        for tx in open.values() {
            let _ = tx.send(Arc::new(Broadcast::Nudge { seq: i64::MAX }));
        }
    }

    /// At shutdown: closes every channel, so that each socket following one is told to
    /// reconnect (through a load balancer, to another process).
    pub fn close_all(&self) {
        self.open.lock().unwrap_or_else(|e| e.into_inner()).clear();
        self.restart_lobby();
    }

    /// Closes the lobby's channel (and opens a new one): each lobby socket is told to
    /// reconnect, and gets a fresh snapshot.
    pub fn restart_lobby(&self) {
        *self.lobby.lock().unwrap_or_else(|e| e.into_inner()) = broadcast::channel(LOBBY_QUEUE).0;
    }

    /// Follows the lobby from now on.
    pub fn subscribe_lobby(&self) -> broadcast::Receiver<Arc<Broadcast>> {
        self.lobby.lock().unwrap_or_else(|e| e.into_inner()).subscribe()
    }

    /// Tells the lobby's sockets of a change of a public table, on this process and (cluster
    /// mode) on every other.
    pub fn publish_lobby<T: Serialize>(&self, message: &LobbyMessage<'_, T>) {
        let outbox = self.outbox.get();
        let lobby = self.lobby.lock().unwrap_or_else(|e| e.into_inner());
        if lobby.receiver_count() == 0 && outbox.is_none() {
            return;
        }
        let text: Arc<str> = serde_json::to_string(message).unwrap_or_default().into();
        if let Some(outbox) = outbox
            && outbox.try_send(text.clone()).is_err()
        {
            tracing::warn!(
                "the lobby messages for the other processes are queued past their bound; they miss this one"
            );
        }
        let _ = lobby.send(Arc::new(Broadcast::Unlogged(text)));
    }

    /// Tells `players`' lobby sockets (theirs alone) `message`, on this process and (cluster
    /// mode) on every other.
    pub fn publish_for_players<M: Serialize>(&self, players: &[Uuid], message: &M) {
        if players.is_empty() {
            return;
        }
        let outbox = self.outbox.get();
        let lobby = self.lobby.lock().unwrap_or_else(|e| e.into_inner());
        if lobby.receiver_count() == 0 && outbox.is_none() {
            return;
        }
        let text: Arc<str> = serde_json::to_string(message).unwrap_or_default().into();
        if let Some(outbox) = outbox {
            let ids: Vec<String> = players.iter().map(Uuid::to_string).collect();
            let addressed = format!("{FOR_PLAYERS}{}\n{text}", ids.join(","));
            if outbox.try_send(addressed.into()).is_err() {
                tracing::warn!(
                    "the lobby messages for the other processes are queued past their bound; they miss this one"
                );
            }
        }
        let _ = lobby.send(Arc::new(Broadcast::ForPlayers { players: players.into(), text }));
    }

    /// Cluster mode: a lobby message another process published, for this process's sockets
    /// (one addressed to players, [`FOR_PLAYERS`], for theirs alone).
    pub fn relay_lobby(&self, text: &str) {
        let message = match text.strip_prefix(FOR_PLAYERS).and_then(|t| t.split_once('\n')) {
            Some((ids, text)) => {
                let players: Arc<[Uuid]> = ids.split(',').filter_map(|id| id.parse().ok()).collect();
                Broadcast::ForPlayers { players, text: text.into() }
            }
            None => Broadcast::Unlogged(text.into()),
        };
        let lobby = self.lobby.lock().unwrap_or_else(|e| e.into_inner());
        let _ = lobby.send(Arc::new(message));
    }

    /// Cluster mode: from now on every lobby message is also sent to `outbox`, for the other
    /// processes (`crate::cluster`). Set once.
    pub fn send_lobby_to(&self, outbox: tokio::sync::mpsc::Sender<Arc<str>>) {
        let _ = self.outbox.set(outbox);
    }
}

/// A table's channel followed by a socket ([`Feeds::following`]), released when it drops.
pub struct Following<'a> {
    feeds: &'a Feeds,
    id: Uuid,
}

impl Drop for Following<'_> {
    fn drop(&mut self) {
        self.feeds.release(self.id);
    }
}

/// A message of the lobby stream (`GET /v1/lobby/events`); `T` is the table as the API shows it.
#[derive(Debug, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum LobbyMessage<'a, T> {
    /// First on every connection: the open public tables, newest first, at most the limit
    /// asked for (`truncated` when there were more).
    Snapshot { tables: Vec<LobbyTable<'a, T>>, truncated: bool },
    /// A public table appeared or changed: replace what you hold of it, unless what you hold
    /// has a higher `seq` (changes of one table may overtake each other).
    Table {
        change: LobbyChange,
        /// The table's latest log entry when the message was made.
        seq: i64,
        table: &'a T,
    },
    /// A table left the lobby for good (or, `private`, until it is made public again).
    Removed { table_id: Uuid, reason: Removal, seq: i64 },
}

/// One table of a snapshot, with its latest `seq`.
#[derive(Debug, Serialize)]
pub struct LobbyTable<'a, T> {
    pub seq: i64,
    pub table: &'a T,
}

/// What happened to a table in the lobby.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LobbyChange {
    /// Created public, or made public.
    Opened,
    /// A seat was taken or left.
    Seats,
    /// The host changed its options or party flag.
    Settings,
    /// The game began (status `playing`).
    Started,
}

/// Why a table left the lobby.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Removal {
    /// The game is over.
    Finished,
    /// Everyone left before the start.
    Closed,
    /// The host made it private.
    Private,
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn an_open_tables_channel_lives_while_someone_follows_it() {
        let feeds = Feeds::default();
        let id = Uuid::new_v4();
        let rx = feeds.subscribe_table(id);
        feeds.release(id);
        assert_eq!(feeds.open.lock().unwrap().len(), 1, "still followed");
        drop(rx);
        feeds.release(id);
        assert!(feeds.open.lock().unwrap().is_empty());
    }

    #[tokio::test]
    async fn closing_an_open_table_ends_its_subscriptions() {
        let feeds = Feeds::default();
        let id = Uuid::new_v4();
        let mut rx = feeds.subscribe_table(id);
        feeds.close_table(id);
        assert!(matches!(rx.recv().await, Err(broadcast::error::RecvError::Closed)));
    }

    #[tokio::test]
    async fn a_message_for_players_keeps_its_recipients_across_processes() {
        let feeds = Feeds::default();
        let mut lobby = feeds.subscribe_lobby();
        let (ann, bob) = (Uuid::from_u128(1), Uuid::from_u128(2));
        feeds.relay_lobby(&format!("{FOR_PLAYERS}{ann},{bob}\n{{\"type\":\"friend\"}}"));
        match &*lobby.recv().await.unwrap() {
            Broadcast::ForPlayers { players, text } => {
                assert_eq!((&**players, &**text), (&[ann, bob][..], "{\"type\":\"friend\"}"));
            }
            other => panic!("{other:?}"),
        }
        feeds.relay_lobby("{\"type\":\"table\"}");
        assert!(matches!(&*lobby.recv().await.unwrap(), Broadcast::Unlogged(_)), "for everyone");
    }

    #[test]
    fn lobby_messages_have_one_spelling() {
        let id = Uuid::nil();
        let table = json!({"id": id});
        let value = |m: LobbyMessage<'_, serde_json::Value>| serde_json::to_value(m).unwrap();
        assert_eq!(
            value(LobbyMessage::Snapshot {
                tables: vec![LobbyTable { seq: 2, table: &table }],
                truncated: false
            }),
            json!({"type": "snapshot", "tables": [{"seq": 2, "table": {"id": id}}], "truncated": false})
        );
        assert_eq!(
            value(LobbyMessage::Table { change: LobbyChange::Seats, seq: 3, table: &table }),
            json!({"type": "table", "change": "seats", "seq": 3, "table": {"id": id}})
        );
        assert_eq!(
            value(LobbyMessage::Removed { table_id: id, reason: Removal::Finished, seq: 90 }),
            json!({"type": "removed", "table_id": id, "reason": "finished", "seq": 90})
        );
    }
}
