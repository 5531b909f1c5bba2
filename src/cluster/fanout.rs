//! Fan-out of every process's events to every other's sockets, through PostgreSQL
//! `LISTEN/NOTIFY`: one connection per process listens on [`LOG_CHANNEL`] (`<table> <seq>`
//! lines, notified by each append's transaction, so at its commit) and [`LOBBY_CHANNEL`] (the
//! lobby stream's messages, `<instance>\n<message>`, sent after the change's commit).
//!
//! A table's notification only reaches the sockets that read that table's log themselves (open
//! tables', and tables in play another process drives). An entry of a table in play comes with
//! its message (when it fits in a notification): a socket sends it if it is the next one it
//! lacks. Anything else — a lobby entry, an entry too long to notify, one after a gap — is a
//! nudge: the socket reads the store from the last `seq` it sent, so what it sends has no gap
//! and no duplicate however the notifications come. Should the
//! listening connection drop, notifications may have been missed: once it is back, every such
//! socket reads the store again, and every lobby socket is told to reconnect (a fresh snapshot).
//!
//! Revocations come on [`TOKENS_CHANNEL`] (a token's id, notified by the revocation's
//! transaction): this process closes the token's sockets (`crate::revocations`). After a drop of
//! the listening connection, the tokens of this process's sockets are looked up in the store
//! and the sockets of those revoked meanwhile are closed. The cache of recent sessions
//! (`crate::sessions`) is used only while the connection listens: suspended from the start
//! until it first listens and whenever it is lost, emptied each time it listens again.

use crate::{
    chat::Chat,
    clock::now_millis,
    revocations::Revocations,
    store::{CHAT_CHANNEL, LOBBY_CHANNEL, LOG_CHANNEL, MAX_PAYLOAD, Store, TOKENS_CHANNEL},
    table::feeds::{Feeds, LOBBY_QUEUE},
};
use sqlx::postgres::PgListener;
use std::{sync::Arc, time::Duration};
use tokio::sync::{mpsc, watch};
use uuid::Uuid;

/// Between two attempts to (re)connect the listening connection.
const RECONNECT_EVERY: Duration = Duration::from_secs(1);

/// What the fan-out tells: the sockets' feeds, and the tokens of this process's sockets.
pub struct Listeners {
    pub feeds: Arc<Feeds>,
    pub revocations: Arc<Revocations>,
    pub chat: Chat,
}

/// Starts the fan-out of process `instance` over the database at `url`: the listening
/// connection, and the sender of this process's lobby messages. Both end when `stop` flips.
pub fn start(url: String, instance: String, store: Store, to: Listeners, stop: watch::Receiver<bool>) {
    to.revocations.sessions().suspend();
    let (outbox, lobby) = mpsc::channel(LOBBY_QUEUE);
    to.feeds.send_lobby_to(outbox);
    tokio::spawn(send_lobby(store.clone(), instance.clone(), lobby, stop.clone()));
    tokio::spawn(listen(url, instance, store, to, stop));
}

/// Sends this process's lobby messages to the others, in order.
async fn send_lobby(
    store: Store,
    instance: String,
    mut messages: mpsc::Receiver<Arc<str>>,
    mut stop: watch::Receiver<bool>,
) {
    loop {
        let text = tokio::select! {
            text = messages.recv() => match text { Some(text) => text, None => return },
            _ = stop.wait_for(|s| *s) => return,
        };
        let payload = format!("{instance}\n{text}");
        if payload.len() > MAX_PAYLOAD {
            tracing::warn!(
                bytes = payload.len(),
                "a lobby message too long to notify; other processes' lobby sockets miss it"
            );
            continue;
        }
        if let Err(e) = store.notify(LOBBY_CHANNEL, &payload).await {
            tracing::warn!(error = %e, "could not notify the other processes of a lobby change");
        }
    }
}

/// Listens for the other processes' events (and this one's log appends) until `stop` flips.
async fn listen(url: String, instance: String, store: Store, to: Listeners, mut stop: watch::Receiver<bool>) {
    let mut first = true;
    loop {
        let connect = async {
            let mut listener = PgListener::connect(&url).await?;
            listener.listen_all([LOG_CHANNEL, LOBBY_CHANNEL, TOKENS_CHANNEL, CHAT_CHANNEL]).await?;
            Ok::<_, sqlx::Error>(listener)
        };
        let connected = tokio::select! {
            connected = connect => connected,
            _ = stop.wait_for(|s| *s) => return,
        };
        let mut listener = match connected {
            Ok(listener) => listener,
            Err(e) => {
                tracing::warn!(error = %e, "cannot listen for the other processes' events; retrying");
                tokio::select! {
                    _ = tokio::time::sleep(RECONNECT_EVERY) => continue,
                    _ = stop.wait_for(|s| *s) => return,
                }
            }
        };
        if std::mem::take(&mut first) {
            to.revocations.sessions().resume();
        } else {
            missed(&store, &to);
        }
        loop {
            tokio::select! {
                received = listener.try_recv() => match received {
                    Ok(Some(n)) => heard(&to, &instance, n.channel(), n.payload()),
                    // The connection was lost (sqlx would reconnect on the next call, unseen):
                    // reconnect here instead, so that what was notified meanwhile is looked for
                    // once listening again, and no session is cached from memory in between.
                    Ok(None) => {
                        tracing::warn!("the connection listening for the other processes' events dropped");
                        to.revocations.sessions().suspend();
                        break;
                    }
                    Err(e) => {
                        tracing::warn!(error = %e, "lost the connection listening for the other processes' events");
                        to.revocations.sessions().suspend();
                        break;
                    }
                },
                _ = stop.wait_for(|s| *s) => return,
            }
        }
    }
}

/// Notifications may have been missed: tables' sockets read the store again, lobby sockets
/// reconnect for a fresh snapshot, the recent sessions are forgotten (cached again from the
/// store), and the sockets of tokens revoked meanwhile close.
fn missed(store: &Store, to: &Listeners) {
    to.revocations.sessions().resume();
    to.feeds.nudge_all();
    to.feeds.restart_lobby();
    let (store, revocations) = (store.clone(), to.revocations.clone());
    tokio::spawn(async move {
        let tokens = revocations.held();
        match store.tokens_held(&tokens, now_millis()).await {
            Ok(held) => {
                let held: std::collections::HashSet<Uuid> = held.into_iter().collect();
                tokens.into_iter().filter(|t| !held.contains(t)).for_each(|t| revocations.revoke(t));
            }
            Err(e) => tracing::warn!(error = %e, "could not look for tokens revoked while not listening"),
        }
    });
}

/// One notification.
fn heard(to: &Listeners, instance: &str, channel: &str, payload: &str) {
    let feeds = &to.feeds;
    if channel == CHAT_CHANNEL {
        to.chat.heard(payload);
    } else if channel == TOKENS_CHANNEL {
        // `<token>` revoked; `<token> banned`: its player banned; `<token> session`: its
        // player's standing changed (a ban lifted).
        let (token, what) = payload.split_once(' ').unwrap_or((payload, ""));
        if let Ok(token) = token.parse() {
            match what {
                "banned" => to.revocations.ban(token),
                "session" => to.revocations.forget_session(token),
                _ => to.revocations.revoke(token),
            }
        }
    } else if channel == LOG_CHANNEL {
        match payload.split_once('\n') {
            // One entry, with its message: the sockets that lack it send it as it is.
            Some((head, message)) if message.starts_with('{') => {
                if let Some((table, seq)) = parse_append(head) {
                    feeds.relay_entry(table, seq, message);
                }
            }
            // Nudges: the entries are in the store.
            _ => {
                for (table, seq) in payload.lines().filter_map(parse_append) {
                    feeds.nudge(table, seq);
                }
            }
        }
    } else if channel == LOBBY_CHANNEL
        && let Some((from, message)) = payload.split_once('\n')
        && from != instance
    {
        feeds.relay_lobby(message);
    }
}

/// `<table id> <seq>`.
fn parse_append(line: &str) -> Option<(Uuid, i64)> {
    let (table, seq) = line.split_once(' ')?;
    Some((table.parse().ok()?, seq.parse().ok()?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::Broadcast;

    async fn listeners() -> (Listeners, crate::store::testing::TempDir) {
        let (store, dir) = crate::store::testing::scratch_store().await;
        (
            Listeners {
                feeds: Arc::new(Feeds::default()),
                revocations: Arc::default(),
                chat: Chat::new(store),
            },
            dir,
        )
    }

    #[tokio::test]
    async fn a_notified_revocation_closes_the_tokens_sockets_here() {
        let (to, _dir) = listeners().await;
        let token = Uuid::new_v4();
        let mut watch = to.revocations.watch(token, None);
        heard(&to, "me", TOKENS_CHANNEL, &token.to_string());
        assert_eq!(watch.ended().await, crate::revocations::Ended::Revoked);
    }

    #[test]
    fn an_append_notification_names_a_table_and_a_seq() {
        let id = Uuid::new_v4();
        assert_eq!(parse_append(&format!("{id} 42")), Some((id, 42)));
        assert_eq!(parse_append("garbage"), None);
        assert_eq!(parse_append(&format!("{id} x")), None);
    }

    #[tokio::test]
    async fn a_process_relays_the_other_processes_lobby_messages_not_its_own() {
        let (to, _dir) = listeners().await;
        let feeds = &to.feeds;
        let mut lobby = feeds.subscribe_lobby();
        heard(&to, "me", LOBBY_CHANNEL, "me\n{\"type\":\"removed\"}");
        heard(&to, "me", LOBBY_CHANNEL, "other\n{\"type\":\"table\"}");
        let relayed: Arc<Broadcast> = lobby.recv().await.unwrap();
        assert!(matches!(&*relayed, Broadcast::Unlogged(text) if &**text == "{\"type\":\"table\"}"));
        assert!(lobby.try_recv().is_err(), "its own message was not relayed again");
    }

    #[tokio::test]
    async fn an_append_nudges_the_sockets_that_follow_the_table() {
        let (to, _dir) = listeners().await;
        let feeds = &to.feeds;
        let (id, other) = (Uuid::new_v4(), Uuid::new_v4());
        let mut followed = feeds.subscribe_table(id);
        heard(&to, "me", LOG_CHANNEL, &format!("{other} 3\n{id} 7\n"));
        let nudge = followed.recv().await.unwrap();
        assert!(matches!(*nudge, Broadcast::Nudge { seq: 7 }), "{nudge:?}");
        assert!(followed.try_recv().is_err());
    }

    #[tokio::test]
    async fn a_notified_entry_reaches_the_sockets_that_follow_the_table_as_its_message() {
        let (to, _dir) = listeners().await;
        let feeds = &to.feeds;
        let (id, other) = (Uuid::new_v4(), Uuid::new_v4());
        let mut followed = feeds.subscribe_table(id);
        let message = "{\"type\":\"entry\",\"seq\":8}";
        heard(&to, "me", LOG_CHANNEL, &format!("{other} 4\n{message}"));
        heard(&to, "me", LOG_CHANNEL, &format!("{id} 8\n{message}"));
        let entry = followed.recv().await.unwrap();
        assert!(matches!(&*entry, Broadcast::Entry { seq: 8, text } if &**text == message), "{entry:?}");
        // An entry notified without its message (too long) is a nudge.
        heard(&to, "me", LOG_CHANNEL, &format!("{id} 9"));
        assert!(matches!(*followed.recv().await.unwrap(), Broadcast::Nudge { .. }));
        assert!(followed.try_recv().is_err());
    }
}
