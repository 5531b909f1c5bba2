//! Table chat (docs/social.md): who may post and read, the bounds, storing a message, then
//! telling the table's sockets (on this process, and in cluster mode on every other through
//! `crate::cluster::fanout`).
//!
//! A message is committed before any socket hears of it. Each message goes out to the sockets
//! with what decides who reads it, fixed when it was posted (`feed::ChatOut`): the seated
//! players, whether spectators read, and who muted the sender; a socket then sends it or not
//! by its viewer alone, with nothing to look up.

pub mod feed;

use crate::{
    clock::now_millis,
    store::{
        ChatBody, ChatMessage, ChatRefused, ChatSettings, NewChat, Store, StoreError, TableRecord,
        TableStatus,
    },
};
use feed::{ChatFeeds, ChatOut};
use std::{
    collections::{HashMap, VecDeque},
    sync::{Arc, Mutex},
    time::Duration,
};
use uuid::Uuid;

/// Longest text, in characters.
pub const MAX_TEXT_CHARS: usize = 200;
/// Messages a player may post in [`RATE_WINDOW`].
pub const RATE_MESSAGES: usize = 5;
/// The window of [`RATE_MESSAGES`].
pub const RATE_WINDOW: Duration = Duration::from_secs(10);
/// Messages a table keeps at most: past it, nothing more is stored.
pub const MAX_MESSAGES_PER_TABLE: i64 = 1_000;
/// How long after its finish a table's chat stays open.
pub const OPEN_AFTER_FINISH_MS: i64 = 3_600_000;
/// Messages a socket is sent on connecting without `chat_since`.
pub const TAIL_ON_CONNECT: i64 = 50;
/// Players a player may mute at most.
pub const MAX_MUTES: i64 = 500;

/// The quick emotes' codes, which clients localize.
pub const EMOTES: &[&str] = &[
    "hello",
    "good_luck",
    "well_played",
    "good_game",
    "thanks",
    "oops",
    "wow",
    "sorry",
    "hurry_up",
    "nice_roll",
];

/// Why a message was refused.
#[derive(Debug, thiserror::Error)]
pub enum ChatError {
    #[error("no such table")]
    NoTable,
    #[error("only the table's seated players chat")]
    NotSeated,
    #[error("only the table's host changes its chat settings")]
    NotHost,
    #[error("{0}")]
    Invalid(String),
    #[error("the host turned free text off at this table: send a quick emote")]
    TextOff,
    #[error("a moderator muted your chat until {0}")]
    Muted(i64),
    #[error("this table's chat closed an hour after its finish")]
    Closed,
    #[error("this table holds {MAX_MESSAGES_PER_TABLE} messages, the most it keeps")]
    Full,
    #[error("at most {RATE_MESSAGES} messages every {} seconds", RATE_WINDOW.as_secs())]
    RateLimited(Duration),
    #[error(transparent)]
    Store(#[from] StoreError),
}

pub type ChatResult<T> = Result<T, ChatError>;

/// A message as a client sends it: text or an emote.
#[derive(Debug, Clone)]
pub enum Said {
    Text(String),
    Emote(String),
}

/// The chat of every table: posting, reading, the host's settings, and the sockets' feeds.
#[derive(Clone)]
pub struct Chat {
    store: Store,
    feeds: Arc<ChatFeeds>,
    recent: Arc<Mutex<RecentPosts>>,
    /// Cluster mode: this process's instance id, with which it tells the others its chat news.
    cluster: Arc<std::sync::OnceLock<String>>,
}

/// When each player posted lately, for the rate limit; bounded (emptied when it holds too many).
#[derive(Default)]
struct RecentPosts(HashMap<Uuid, VecDeque<tokio::time::Instant>>);

/// Players whose recent posts are kept at most.
const RECENT_PLAYERS: usize = 65_536;

impl RecentPosts {
    /// Counts a post of `player` now, unless it has posted [`RATE_MESSAGES`] within the
    /// window: then how long until it may.
    fn take(&mut self, player: Uuid) -> Result<(), Duration> {
        let now = tokio::time::Instant::now();
        if self.0.len() >= RECENT_PLAYERS && !self.0.contains_key(&player) {
            self.0
                .retain(|_, posts| posts.back().is_some_and(|last| now.duration_since(*last) < RATE_WINDOW));
            if self.0.len() >= RECENT_PLAYERS {
                self.0.clear();
            }
        }
        let posts = self.0.entry(player).or_default();
        while posts.front().is_some_and(|first| now.duration_since(*first) >= RATE_WINDOW) {
            posts.pop_front();
        }
        if posts.len() >= RATE_MESSAGES {
            let first = posts.front().copied().unwrap_or(now);
            return Err(RATE_WINDOW.saturating_sub(now.duration_since(first)).max(Duration::from_secs(1)));
        }
        posts.push_back(now);
        Ok(())
    }
}

/// The seat `player` holds at `table`, if any.
pub fn seat_of(table: &TableRecord, player: Uuid) -> Option<usize> {
    table.seats.iter().find(|s| s.player_id == Some(player)).map(|s| s.seat)
}

/// The players seated at `table`.
fn seated(table: &TableRecord) -> Vec<Uuid> {
    table.seats.iter().filter_map(|s| s.player_id).collect()
}

/// Whether `viewer` reads `table`'s chat, whose settings are `settings`: its seated players
/// do, anyone else only if the host lets spectators read.
pub fn may_read(table: &TableRecord, settings: ChatSettings, viewer: Option<Uuid>) -> bool {
    settings.spectators || viewer.is_some_and(|v| seat_of(table, v).is_some())
}

/// What `said` is as stored: text normalized as names are, 1 to [`MAX_TEXT_CHARS`]
/// characters; an emote one of [`EMOTES`].
pub fn check(said: Said) -> ChatResult<ChatBody> {
    match said {
        Said::Text(text) => {
            let text = crate::wording::visible_text(&text).map_err(|c| {
                ChatError::Invalid(format!(
                    "text cannot contain invisible or control characters (U+{:04X})",
                    c as u32
                ))
            })?;
            let chars = text.chars().count();
            if chars == 0 || chars > MAX_TEXT_CHARS {
                return Err(ChatError::Invalid(format!("text has 1 to {MAX_TEXT_CHARS} characters")));
            }
            Ok(ChatBody::Text(text))
        }
        Said::Emote(code) if EMOTES.contains(&code.as_str()) => Ok(ChatBody::Emote(code)),
        Said::Emote(_) => Err(ChatError::Invalid(format!("emote is one of {}", EMOTES.join(", ")))),
    }
}

impl Chat {
    pub fn new(store: Store) -> Self {
        Self { store, feeds: Arc::new(ChatFeeds::default()), recent: Arc::default(), cluster: Arc::default() }
    }

    /// Cluster mode: from now on this process (`instance`) tells the other processes of each
    /// message posted or hidden here, and hears theirs ([`Chat::heard`]).
    pub fn tell_others_as(&self, instance: String) {
        let _ = self.cluster.set(instance);
    }

    /// Tells the other processes (cluster mode) of `news` (`<table> <n>` or `hidden <table> <n>`).
    async fn tell_others(&self, news: String) {
        let Some(instance) = self.cluster.get() else { return };
        if let Err(e) = self.store.notify(crate::store::CHAT_CHANNEL, &format!("{instance}\n{news}")).await {
            tracing::warn!(error = %e, "could not tell the other processes of a chat message");
        }
    }

    /// Cluster mode: chat news another process notified (`payload` as [`crate::store::CHAT_CHANNEL`]
    /// spells it); this process's own is ignored.
    pub fn heard(&self, payload: &str) {
        let Some((from, news)) = payload.split_once('\n') else { return };
        if self.cluster.get().is_some_and(|me| me == from) {
            return;
        }
        let (hidden, news) = match news.strip_prefix("hidden ") {
            Some(rest) => (true, rest),
            None => (false, news),
        };
        let Some((table, n)) = news.split_once(' ') else { return };
        let (Ok(table), Ok(n)) = (table.parse::<Uuid>(), n.parse::<i64>()) else { return };
        if hidden {
            self.feeds.publish(table, ChatOut::hidden(n));
        } else if self.feeds.followed(table) {
            let chat = self.clone();
            tokio::spawn(async move { chat.relay(table, n).await });
        }
    }

    /// The tables' chat channels, which sockets follow.
    pub fn feeds(&self) -> &Arc<ChatFeeds> {
        &self.feeds
    }

    /// Posts `said` at `table` as `player`: checked, counted against the player's rate, stored,
    /// then told to the table's sockets. `notify` (cluster mode) tells the other processes.
    pub async fn post(&self, table: &TableRecord, player: Uuid, said: Said) -> ChatResult<ChatMessage> {
        let seat = seat_of(table, player).ok_or(ChatError::NotSeated)?;
        let now = now_millis();
        match table.status {
            TableStatus::Closed => return Err(ChatError::Closed),
            TableStatus::Finished if table.finished_at.is_some_and(|at| now - at > OPEN_AFTER_FINISH_MS) => {
                return Err(ChatError::Closed);
            }
            _ => {}
        }
        let body = check(said)?;
        let settings = self.store.chat_settings(table.id).await?.ok_or(ChatError::NoTable)?;
        if matches!(body, ChatBody::Text(_)) && !settings.text {
            return Err(ChatError::TextOff);
        }
        if let Some(until) = self.store.sanctions(player).await?.chat_muted_until.filter(|u| *u > now) {
            return Err(ChatError::Muted(until));
        }
        self.recent.lock().unwrap_or_else(|e| e.into_inner()).take(player).map_err(ChatError::RateLimited)?;
        let new = NewChat {
            table_id: table.id,
            player,
            seat: Some(seat as i64),
            body,
            at: now,
            cap: MAX_MESSAGES_PER_TABLE,
        };
        let message = match self.store.post_chat(new).await? {
            Ok(message) => message,
            Err(ChatRefused::Full) => return Err(ChatError::Full),
            Err(ChatRefused::NoTable) => return Err(ChatError::NoTable),
        };
        self.tell(table, settings, &message).await;
        self.tell_others(format!("{} {}", table.id, message.n)).await;
        Ok(message)
    }

    /// Tells the sockets of `table` here of `message`, just committed.
    async fn tell(&self, table: &TableRecord, settings: ChatSettings, message: &ChatMessage) {
        if !self.feeds.followed(table.id) {
            return;
        }
        // Who muted the sender: a failed read sends the message to no one rather than to them
        // (it is in the store, for the chat's page).
        let Ok(unread_by) = self.store.chat_unread_by(message.player.id).await else { return };
        self.feeds
            .publish(table.id, ChatOut::message(message, seated(table), settings.spectators, unread_by));
    }

    /// Cluster mode: another process committed message `n` of `table`: this process's sockets
    /// of the table hear it from the store.
    async fn relay(&self, table: Uuid, n: i64) {
        if !self.feeds.followed(table) {
            return;
        }
        let read = async {
            let Some(record) = self.store.table(table).await? else { return Ok(None) };
            let Some(settings) = self.store.chat_settings(table).await? else { return Ok(None) };
            let Some(message) = self.store.chat_message(table, n).await? else { return Ok(None) };
            Ok::<_, StoreError>(Some((record, settings, message)))
        };
        match read.await {
            Ok(Some((record, settings, message))) => self.tell(&record, settings, &message).await,
            Ok(None) => {}
            Err(e) => {
                tracing::warn!(error = %e, %table, n, "could not read a chat message another process posted")
            }
        }
    }

    /// Message `n` of `table` was hidden by a moderator: its sockets drop it, here and on
    /// every other process.
    pub async fn hidden(&self, table: Uuid, n: i64) {
        self.feeds.publish(table, ChatOut::hidden(n));
        self.tell_others(format!("hidden {table} {n}")).await;
    }

    /// The table's chat after `after` as `viewer` reads it (at most `limit` messages), with its
    /// settings; refused to a viewer who does not read it.
    pub async fn page(
        &self,
        table: &TableRecord,
        viewer: Option<Uuid>,
        after: i64,
        limit: i64,
    ) -> ChatResult<(ChatSettings, Vec<ChatMessage>)> {
        let settings = self.store.chat_settings(table.id).await?.ok_or(ChatError::NoTable)?;
        if !may_read(table, settings, viewer) {
            return Err(ChatError::NotSeated);
        }
        Ok((settings, self.store.chat_page(table.id, viewer, after, limit).await?))
    }

    /// The host of `table` changes its chat settings.
    pub async fn set_settings(
        &self,
        table: &TableRecord,
        player: Uuid,
        text: Option<bool>,
        spectators: Option<bool>,
    ) -> ChatResult<ChatSettings> {
        if table.host_id != player {
            return Err(ChatError::NotHost);
        }
        self.store.set_chat_settings(table.id, text, spectators).await?.ok_or(ChatError::NoTable)
    }

    /// What a socket of `table` for `viewer` is sent on connecting: the messages after `since`
    /// (none given: the last [`TAIL_ON_CONNECT`]) as socket messages, and the last `n` among
    /// them; nothing if the viewer does not read the chat.
    pub async fn replay(
        &self,
        table: &TableRecord,
        viewer: Option<Uuid>,
        since: Option<i64>,
    ) -> ChatResult<(Vec<String>, i64)> {
        let settings = self.store.chat_settings(table.id).await?.ok_or(ChatError::NoTable)?;
        if !may_read(table, settings, viewer) {
            return Ok((vec![], since.unwrap_or(0)));
        }
        let after = match since {
            Some(since) => since,
            None => self.store.chat_tail_start(table.id, TAIL_ON_CONNECT).await?,
        };
        let messages = self.store.chat_page(table.id, viewer, after, MAX_MESSAGES_PER_TABLE).await?;
        let last = messages.last().map_or(after, |m| m.n);
        Ok((messages.iter().map(feed::socket_message).collect(), last))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A player posts at most five messages in ten seconds; the window slides.
    #[tokio::test(start_paused = true)]
    async fn a_player_posts_five_messages_every_ten_seconds() {
        let mut recent = RecentPosts::default();
        let (alice, bob) = (Uuid::new_v4(), Uuid::new_v4());
        for _ in 0..RATE_MESSAGES {
            recent.take(alice).unwrap();
        }
        let wait = recent.take(alice).unwrap_err();
        assert!(wait <= RATE_WINDOW && wait >= Duration::from_secs(1), "{wait:?}");
        recent.take(bob).expect("another player is not limited");
        tokio::time::advance(RATE_WINDOW).await;
        recent.take(alice).expect("the window moved on");
    }

    /// Text is normalized and bounded; an emote is one of the codes.
    #[test]
    fn text_is_normalized_and_bounded_and_emotes_are_known_codes() {
        assert_eq!(check(Said::Text("  gg all ".into())).unwrap(), ChatBody::Text("gg all".into()));
        for bad in ["", "   ", "a\u{202e}b", "zero\u{200b}width", "bell\u{7}"] {
            assert!(matches!(check(Said::Text(bad.into())), Err(ChatError::Invalid(_))), "{bad:?}");
        }
        assert!(check(Said::Text("x".repeat(MAX_TEXT_CHARS))).is_ok());
        assert!(matches!(check(Said::Text("x".repeat(MAX_TEXT_CHARS + 1))), Err(ChatError::Invalid(_))));
        assert_eq!(check(Said::Emote("good_game".into())).unwrap(), ChatBody::Emote("good_game".into()));
        assert!(matches!(check(Said::Emote("<script>".into())), Err(ChatError::Invalid(_))));
    }
}
