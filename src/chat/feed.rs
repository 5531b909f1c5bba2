//! The chat's channels to the sockets of a table, in this process: made when a table's first
//! socket follows it, dropped with its last. Each message carries who reads it, fixed at the
//! post ([`ChatOut::reads`]).

use crate::{
    clock::rfc3339,
    store::{ChatBody, ChatMessage},
};
use serde::Serialize;
use std::{
    collections::HashMap,
    sync::{Arc, Mutex},
};
use tokio::sync::broadcast;
use uuid::Uuid;

/// Chat messages a socket may fall behind before it misses some (it can read them with
/// `GET /v1/tables/{id}/chat`): a table's players post a few a second at most, and every
/// table with sockets holds a channel this long (an idle table's memory).
const CHAT_QUEUE: usize = 16;

/// What a table's chat channel carries.
#[derive(Debug)]
pub enum ChatOut {
    /// Message `n`, as its socket message `text`, read by `seated` players, by spectators if
    /// `spectators`, and by no one in `unread_by`.
    Message { n: i64, text: Arc<str>, seated: Vec<Uuid>, spectators: bool, unread_by: Vec<Uuid> },
    /// Message `n` was hidden by a moderator: everyone drops it.
    Hidden { n: i64, text: Arc<str> },
}

/// A message's socket form: `{"type": "chat", "message": …}`.
#[derive(Serialize)]
struct SocketChat<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    message: ChatView<'a>,
}

/// A message as clients see it (the socket's and `GET /v1/tables/{id}/chat`'s).
#[derive(Debug, Serialize)]
pub struct ChatView<'a> {
    pub n: i64,
    pub player: PlayerRef<'a>,
    pub seat: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub emote: Option<&'a str>,
    pub at: String,
}

/// A player as the chat names them.
#[derive(Debug, Serialize)]
pub struct PlayerRef<'a> {
    pub id: Uuid,
    pub name: &'a str,
}

impl<'a> ChatView<'a> {
    pub fn of(message: &'a ChatMessage) -> Self {
        let (text, emote) = match &message.body {
            ChatBody::Text(text) => (Some(text.as_str()), None),
            ChatBody::Emote(emote) => (None, Some(emote.as_str())),
        };
        Self {
            n: message.n,
            player: PlayerRef { id: message.player.id, name: &message.player.name },
            seat: message.seat,
            text,
            emote,
            at: rfc3339(message.at),
        }
    }
}

/// `message` as a socket sends it.
pub fn socket_message(message: &ChatMessage) -> String {
    serde_json::to_string(&SocketChat { kind: "chat", message: ChatView::of(message) }).unwrap_or_default()
}

impl ChatOut {
    pub fn message(message: &ChatMessage, seated: Vec<Uuid>, spectators: bool, unread_by: Vec<Uuid>) -> Self {
        ChatOut::Message { n: message.n, text: socket_message(message).into(), seated, spectators, unread_by }
    }

    pub fn hidden(n: i64) -> Self {
        ChatOut::Hidden { n, text: format!(r#"{{"type":"chat_hidden","n":{n}}}"#).into() }
    }

    /// Its number.
    pub fn n(&self) -> i64 {
        match self {
            ChatOut::Message { n, .. } | ChatOut::Hidden { n, .. } => *n,
        }
    }

    /// Whether `viewer` (`None`: anonymous) is sent it.
    pub fn reads(&self, viewer: Option<Uuid>) -> bool {
        match self {
            ChatOut::Message { seated, spectators, unread_by, .. } => {
                let seated = viewer.is_some_and(|v| seated.contains(&v));
                (seated || *spectators) && !viewer.is_some_and(|v| unread_by.contains(&v))
            }
            ChatOut::Hidden { .. } => true,
        }
    }

    /// Its socket message.
    pub fn text(&self) -> &Arc<str> {
        match self {
            ChatOut::Message { text, .. } | ChatOut::Hidden { text, .. } => text,
        }
    }
}

/// The tables' chat channels in this process.
#[derive(Default)]
pub struct ChatFeeds {
    tables: Mutex<HashMap<Uuid, broadcast::Sender<Arc<ChatOut>>>>,
}

impl ChatFeeds {
    /// Follows table `id`'s chat from now on; the channel goes with its last receiver
    /// ([`ChatFollow`] releases it).
    pub fn follow(self: &Arc<Self>, id: Uuid, viewer: Option<Uuid>) -> ChatFollow {
        let mut tables = self.tables.lock().unwrap_or_else(|e| e.into_inner());
        let receiver = tables.entry(id).or_insert_with(|| broadcast::channel(CHAT_QUEUE).0).subscribe();
        ChatFollow {
            follows: Some(Followed { receiver, _release: Release { feeds: self.clone(), id } }),
            viewer,
            last: 0,
            replay: vec![],
            missed: None,
        }
    }

    /// Whether some socket here follows table `id`'s chat.
    pub fn followed(&self, id: Uuid) -> bool {
        self.tables.lock().unwrap_or_else(|e| e.into_inner()).contains_key(&id)
    }

    /// Sends `out` to the sockets that follow table `id` here (none: nothing).
    pub fn publish(&self, id: Uuid, out: ChatOut) {
        let tables = self.tables.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(tx) = tables.get(&id) {
            let _ = tx.send(Arc::new(out));
        }
    }

    fn release(&self, id: Uuid) {
        let mut tables = self.tables.lock().unwrap_or_else(|e| e.into_inner());
        if tables.get(&id).is_some_and(|tx| tx.receiver_count() == 0) {
            tables.remove(&id);
        }
    }
}

/// A socket's following of its table's chat: the messages its viewer reads, each once.
pub struct ChatFollow {
    follows: Option<Followed>,
    viewer: Option<Uuid>,
    /// The last message sent (replayed or live).
    last: i64,
    /// Socket messages to send first (the messages the socket missed), then none.
    replay: Vec<String>,
    /// What the socket missed and is still to be read: the messages after this `n` (`None`:
    /// the last few), until [`ChatFollow::take_missed`].
    missed: Option<Option<i64>>,
}

/// A table's chat followed: fields drop in order, so the receiver is gone before the
/// release counts the channel's receivers.
struct Followed {
    receiver: broadcast::Receiver<Arc<ChatOut>>,
    _release: Release,
}

/// Drops table `id`'s channel if its last receiver went.
struct Release {
    feeds: Arc<ChatFeeds>,
    id: Uuid,
}

impl Drop for Release {
    fn drop(&mut self) {
        self.feeds.release(self.id);
    }
}

impl ChatFollow {
    /// No chat (the lobby stream's sockets).
    pub fn none() -> Self {
        Self { follows: None, viewer: None, last: 0, replay: vec![], missed: None }
    }

    /// Notes that the messages after `since` (`None`: the last few) are to be read for the
    /// socket, once, before it relays anything live ([`ChatFollow::take_missed`]).
    pub fn missed_since(&mut self, since: Option<i64>) {
        self.missed = Some(since);
    }

    /// The viewer, and what it missed if that is still to be read (once).
    pub fn take_missed(&mut self) -> Option<(Option<Uuid>, Option<i64>)> {
        self.missed.take().map(|since| (self.viewer, since))
    }

    /// What was missed, to send before anything live: `messages`, up to message `last`.
    pub fn replay(&mut self, messages: Vec<String>, last: i64) {
        self.replay = messages;
        self.last = self.last.max(last);
    }

    /// The messages to send first (once).
    pub fn take_replay(&mut self) -> Vec<String> {
        std::mem::take(&mut self.replay)
    }

    /// The next socket message for this viewer: never, without a chat to follow.
    pub async fn next(&mut self) -> Arc<str> {
        let Some(followed) = &mut self.follows else { return std::future::pending().await };
        loop {
            match followed.receiver.recv().await {
                Ok(out) => {
                    let fresh = matches!(*out, ChatOut::Hidden { .. }) || out.n() > self.last;
                    if fresh && out.reads(self.viewer) {
                        if let ChatOut::Message { n, .. } = *out {
                            self.last = n;
                        }
                        return out.text().clone();
                    }
                }
                // Missed ones are in the store (`GET /v1/tables/{id}/chat`).
                Err(broadcast::error::RecvError::Lagged(_)) => continue,
                Err(broadcast::error::RecvError::Closed) => return std::future::pending().await,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::Player;

    fn message(n: i64, from: Uuid) -> ChatMessage {
        ChatMessage {
            table_id: Uuid::nil(),
            n,
            player: Player { id: from, name: "alice".into(), created_at: 0 },
            seat: Some(0),
            body: ChatBody::Text("<b>hi</b>".into()),
            at: 0,
        }
    }

    /// The seated players read a message; spectators only if the host lets them; no one who
    /// muted its sender.
    #[test]
    fn who_reads_a_message_is_fixed_at_the_post() {
        let (alice, bob, carol, eve) = (Uuid::new_v4(), Uuid::new_v4(), Uuid::new_v4(), Uuid::new_v4());
        let out = ChatOut::message(&message(1, alice), vec![alice, bob, carol], false, vec![carol]);
        assert!(out.reads(Some(alice)) && out.reads(Some(bob)));
        assert!(!out.reads(Some(carol)), "muted the sender");
        assert!(!out.reads(Some(eve)) && !out.reads(None), "spectators");
        let open = ChatOut::message(&message(1, alice), vec![alice], true, vec![]);
        assert!(open.reads(Some(eve)) && open.reads(None));
    }

    /// A message's socket form names its type, number, player and text, escaped as JSON only:
    /// clients render it as text.
    #[test]
    fn a_message_goes_out_as_its_socket_form() {
        let alice = Uuid::nil();
        let text = socket_message(&message(3, alice));
        let value: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(value["type"], "chat");
        assert_eq!(value["message"]["n"], 3);
        assert_eq!(value["message"]["text"], "<b>hi</b>");
        assert!(value["message"].get("emote").is_none());
        assert_eq!(&**ChatOut::hidden(3).text(), r#"{"type":"chat_hidden","n":3}"#);
    }

    /// A socket is sent each message once, replayed or live, and a channel lives while someone
    /// follows it.
    #[tokio::test]
    async fn a_socket_gets_each_message_once_and_the_channel_goes_with_its_last_follower() {
        let feeds = Arc::new(ChatFeeds::default());
        let (id, alice) = (Uuid::new_v4(), Uuid::new_v4());
        let mut follow = feeds.follow(id, Some(alice));
        follow.replay(vec!["one".into()], 1);
        assert_eq!(follow.take_replay(), ["one"]);
        assert!(follow.take_replay().is_empty());
        feeds.publish(id, ChatOut::message(&message(1, alice), vec![alice], false, vec![]));
        feeds.publish(id, ChatOut::message(&message(2, alice), vec![alice], false, vec![]));
        let next = follow.next().await;
        assert!(next.contains(r#""n":2"#), "message 1 was replayed: {next}");
        assert!(feeds.followed(id));
        drop(follow);
        assert!(!feeds.followed(id));
    }
}
