//! Table chat (docs/social.md): a table's messages, numbered from 1, its host's two settings,
//! and the mutes players keep.

use super::{Backend, Player, StoreResult, parse_uuid};
use sqlx::{Row, any::AnyRow};
use uuid::Uuid;

/// The PostgreSQL channel of chat news for the other processes (cluster mode): `<instance
/// id>\n<table id> <n>` (message `n` posted) or `<instance id>\nhidden <table id> <n>`.
pub const CHAT_CHANNEL: &str = "luddo_chat";

/// What a message says: free text, or one of the quick emotes' codes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ChatBody {
    Text(String),
    Emote(String),
}

/// One message of a table's chat.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChatMessage {
    pub table_id: Uuid,
    /// Its number at the table, from 1.
    pub n: i64,
    pub player: Player,
    /// The seat its player held at the table when it was posted (`None`: none by then).
    pub seat: Option<i64>,
    pub body: ChatBody,
    pub at: i64,
}

/// A table's chat settings, the host's to change.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChatSettings {
    /// Free text is on (else emotes only).
    pub text: bool,
    /// Spectators may read the chat.
    pub spectators: bool,
}

/// A message to store.
#[derive(Debug, Clone)]
pub struct NewChat {
    pub table_id: Uuid,
    pub player: Uuid,
    pub seat: Option<i64>,
    pub body: ChatBody,
    pub at: i64,
    /// The most messages a table keeps: past it nothing is stored.
    pub cap: i64,
}

/// Why a message was not stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChatRefused {
    /// The table holds `cap` messages already.
    Full,
    /// No such table.
    NoTable,
}

/// The columns every read of a message selects (with the poster's `players` row as `p`).
const MESSAGE_COLUMNS: &str = "m.table_id, m.n, m.seat, m.text, m.emote, m.created_at, \
     p.id, p.name, p.created_at AS player_created_at";

impl ChatMessage {
    fn from_row(r: &AnyRow) -> StoreResult<Self> {
        let text: Option<String> = r.try_get("text")?;
        let emote: Option<String> = r.try_get("emote")?;
        let body = match (text, emote) {
            (Some(text), None) => ChatBody::Text(text),
            (None, Some(emote)) => ChatBody::Emote(emote),
            _ => {
                return Err(super::StoreError::Corrupt(
                    "a chat message with no text or emote, or both".into(),
                ));
            }
        };
        Ok(Self {
            table_id: parse_uuid(&r.try_get::<String, _>("table_id")?)?,
            n: r.try_get("n")?,
            player: Player {
                id: parse_uuid(&r.try_get::<String, _>("id")?)?,
                name: r.try_get("name")?,
                created_at: r.try_get("player_created_at")?,
            },
            seat: r.try_get("seat")?,
            body,
            at: r.try_get("created_at")?,
        })
    }
}

impl super::Store {
    /// Table `table`'s chat settings; `None` if there is no such table.
    pub async fn chat_settings(&self, table: Uuid) -> StoreResult<Option<ChatSettings>> {
        chat_settings_on(&self.pool, table).await
    }

    /// Changes what is given of table `table`'s chat settings; the settings now.
    pub async fn set_chat_settings(
        &self,
        table: Uuid,
        text: Option<bool>,
        spectators: Option<bool>,
    ) -> StoreResult<Option<ChatSettings>> {
        sqlx::query(
            "UPDATE game_tables SET chat_text = COALESCE($1, chat_text), \
             chat_spectators = COALESCE($2, chat_spectators) WHERE id = $3",
        )
        .bind(text.map(i64::from))
        .bind(spectators.map(i64::from))
        .bind(table.to_string())
        .execute(&self.writes)
        .await?;
        // Read where it was written (SQLite's readers may lag a commit).
        chat_settings_on(&self.writes, table).await
    }

    /// Stores `new` as the table's next message, unless the table holds `new.cap` already;
    /// committed when this returns. The table's row is locked first, so two posts at once
    /// take two numbers.
    pub async fn post_chat(&self, new: NewChat) -> StoreResult<Result<ChatMessage, ChatRefused>> {
        let table = new.table_id.to_string();
        let mut tx = self.writes.begin().await?;
        let locked = sqlx::query("UPDATE game_tables SET chat_text = chat_text WHERE id = $1")
            .bind(&table)
            .execute(&mut *tx)
            .await?;
        if locked.rows_affected() == 0 {
            return Ok(Err(ChatRefused::NoTable));
        }
        let (last, count): (i64, i64) =
            sqlx::query_as("SELECT COALESCE(MAX(n), 0), COUNT(*) FROM chat_messages WHERE table_id = $1")
                .bind(&table)
                .fetch_one(&mut *tx)
                .await?;
        if count >= new.cap {
            return Ok(Err(ChatRefused::Full));
        }
        let (text, emote) = match &new.body {
            ChatBody::Text(text) => (Some(text.as_str()), None),
            ChatBody::Emote(emote) => (None, Some(emote.as_str())),
        };
        sqlx::query(
            "INSERT INTO chat_messages (table_id, n, player_id, seat, text, emote, created_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7)",
        )
        .bind(&table)
        .bind(last + 1)
        .bind(new.player.to_string())
        .bind(new.seat)
        .bind(text)
        .bind(emote)
        .bind(new.at)
        .execute(&mut *tx)
        .await?;
        let row = sqlx::query(&format!(
            "SELECT {MESSAGE_COLUMNS} FROM chat_messages m JOIN players p ON p.id = m.player_id \
             WHERE m.table_id = $1 AND m.n = $2"
        ))
        .bind(&table)
        .bind(last + 1)
        .fetch_one(&mut *tx)
        .await?;
        let message = ChatMessage::from_row(&row)?;
        tx.commit().await?;
        Ok(Ok(message))
    }

    /// Message `n` of table `table`, unless hidden (or there is none).
    pub async fn chat_message(&self, table: Uuid, n: i64) -> StoreResult<Option<ChatMessage>> {
        let row = sqlx::query(&format!(
            "SELECT {MESSAGE_COLUMNS} FROM chat_messages m JOIN players p ON p.id = m.player_id \
             WHERE m.table_id = $1 AND m.n = $2 AND m.hidden_at IS NULL"
        ))
        .bind(table.to_string())
        .bind(n)
        .fetch_optional(&self.pool)
        .await?;
        row.as_ref().map(ChatMessage::from_row).transpose()
    }

    /// Table `table`'s messages after `after`, oldest first, at most `limit`, without the hidden
    /// ones and (for a `viewer`) those of players the viewer muted or has a block with.
    pub async fn chat_page(
        &self,
        table: Uuid,
        viewer: Option<Uuid>,
        after: i64,
        limit: i64,
    ) -> StoreResult<Vec<ChatMessage>> {
        let rows = sqlx::query(&format!(
            "SELECT {MESSAGE_COLUMNS} FROM chat_messages m JOIN players p ON p.id = m.player_id \
             WHERE m.table_id = $1 AND m.n > $2 AND m.hidden_at IS NULL \
             AND m.player_id NOT IN ({UNREAD_BY}) ORDER BY m.n LIMIT $4"
        ))
        .bind(table.to_string())
        .bind(after)
        .bind(viewer.map(|v| v.to_string()).unwrap_or_default())
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(ChatMessage::from_row).collect()
    }

    /// The `n` of the table's last `count` messages' first one less one: where to start to
    /// send them (0 if it has no more than `count`).
    pub async fn chat_tail_start(&self, table: Uuid, count: i64) -> StoreResult<i64> {
        let (last,): (i64,) =
            sqlx::query_as("SELECT COALESCE(MAX(n), 0) FROM chat_messages WHERE table_id = $1")
                .bind(table.to_string())
                .fetch_one(&self.pool)
                .await?;
        Ok((last - count).max(0))
    }

    /// The players who do not read `sender`'s messages: those who muted the sender (and those
    /// with a block between them and the sender).
    pub async fn chat_unread_by(&self, sender: Uuid) -> StoreResult<Vec<Uuid>> {
        let rows: Vec<(String,)> =
            sqlx::query_as(UNREADERS_OF).bind(sender.to_string()).fetch_all(&self.pool).await?;
        rows.iter().map(|(id,)| parse_uuid(id)).collect()
    }

    /// Whether message `n` of table `table` exists and was posted by `player` (hidden or not).
    pub async fn chat_posted_by(&self, table: Uuid, n: i64, player: Uuid) -> StoreResult<bool> {
        let row: Option<(i64,)> =
            sqlx::query_as("SELECT n FROM chat_messages WHERE table_id = $1 AND n = $2 AND player_id = $3")
                .bind(table.to_string())
                .bind(n)
                .bind(player.to_string())
                .fetch_optional(&self.pool)
                .await?;
        Ok(row.is_some())
    }

    /// The players `player` muted, newest first.
    pub async fn mutes(&self, player: Uuid) -> StoreResult<Vec<(Player, i64)>> {
        let rows = sqlx::query(
            "SELECT p.id, p.name, p.created_at, m.created_at AS muted_at FROM mutes m \
             JOIN players p ON p.id = m.muted_id WHERE m.player_id = $1 ORDER BY m.created_at DESC, p.id",
        )
        .bind(player.to_string())
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(|r| Ok((Player::from_row(r)?, r.try_get("muted_at")?))).collect()
    }

    /// `player` mutes `muted` (again: nothing changes), unless `player` has muted `cap` others
    /// already (false).
    pub async fn mute(&self, player: Uuid, muted: Uuid, at: i64, cap: i64) -> StoreResult<bool> {
        let mut tx = self.writes.begin().await?;
        if self.backend == Backend::Postgres {
            super::lock_name(&mut tx, self.backend, &format!("mutes {player}")).await?;
        }
        let (held,): (i64,) =
            sqlx::query_as("SELECT COUNT(*) FROM mutes WHERE player_id = $1 AND muted_id <> $2")
                .bind(player.to_string())
                .bind(muted.to_string())
                .fetch_one(&mut *tx)
                .await?;
        if held >= cap {
            return Ok(false);
        }
        sqlx::query(
            "INSERT INTO mutes (player_id, muted_id, created_at) VALUES ($1, $2, $3) \
             ON CONFLICT (player_id, muted_id) DO NOTHING",
        )
        .bind(player.to_string())
        .bind(muted.to_string())
        .bind(at)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(true)
    }

    /// `player` no longer mutes `muted`; false if it did not.
    pub async fn unmute(&self, player: Uuid, muted: Uuid) -> StoreResult<bool> {
        let done = sqlx::query("DELETE FROM mutes WHERE player_id = $1 AND muted_id = $2")
            .bind(player.to_string())
            .bind(muted.to_string())
            .execute(&self.writes)
            .await?;
        Ok(done.rows_affected() > 0)
    }
}

/// Table `table`'s chat settings, read on `pool`.
async fn chat_settings_on(pool: &sqlx::AnyPool, table: Uuid) -> StoreResult<Option<ChatSettings>> {
    let row: Option<(i64, i64)> =
        sqlx::query_as("SELECT chat_text, chat_spectators FROM game_tables WHERE id = $1")
            .bind(table.to_string())
            .fetch_optional(pool)
            .await?;
    Ok(row.map(|(text, spectators)| ChatSettings { text: text != 0, spectators: spectators != 0 }))
}

/// The senders a viewer (`$3`, '' for none) does not read: those it muted.
const UNREAD_BY: &str = "SELECT muted_id FROM mutes WHERE player_id = $3";

/// The players who do not read sender `$1`: those who muted it.
const UNREADERS_OF: &str = "SELECT player_id FROM mutes WHERE muted_id = $1";

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::{
        Store,
        testing::{TempDir, luddo_for_two, scratch_store},
    };

    async fn sqlite_store() -> (Store, TempDir) {
        scratch_store().await
    }

    async fn player(store: &Store, name: &str) -> (Uuid, ()) {
        let hash = format!("hash-{}", Uuid::new_v4());
        (store.create_player(name, &hash, None).await.unwrap().id, ())
    }

    async fn table(store: &Store, host: Uuid) -> Uuid {
        store.create_table(&luddo_for_two(host), 0, 10).await.unwrap().id
    }

    fn text(table_id: Uuid, player: Uuid, text: &str, cap: i64) -> NewChat {
        NewChat { table_id, player, seat: Some(0), body: ChatBody::Text(text.into()), at: 1, cap }
    }

    /// A table's messages are numbered from 1, in order; past the cap nothing is stored.
    #[tokio::test]
    async fn a_tables_messages_are_numbered_and_bounded() {
        let (store, _dir) = sqlite_store().await;
        let (alice, _) = player(&store, "alice").await;
        let id = table(&store, alice).await;
        for (i, word) in ["hi", "there"].iter().enumerate() {
            let message = store.post_chat(text(id, alice, word, 2)).await.unwrap().unwrap();
            assert_eq!(message.n, i as i64 + 1);
            assert_eq!(message.body, ChatBody::Text(word.to_string()));
        }
        assert_eq!(store.post_chat(text(id, alice, "more", 2)).await.unwrap(), Err(ChatRefused::Full));
        let page = store.chat_page(id, None, 0, 10).await.unwrap();
        assert_eq!(page.iter().map(|m| m.n).collect::<Vec<_>>(), [1, 2]);
        assert_eq!(
            store.post_chat(text(Uuid::new_v4(), alice, "x", 2)).await.unwrap(),
            Err(ChatRefused::NoTable)
        );
    }

    /// A muted player's messages are not listed for the one who muted them, and a hidden
    /// message for no one.
    #[tokio::test]
    async fn muted_and_hidden_messages_are_not_listed() {
        let (store, _dir) = sqlite_store().await;
        let (alice, _) = player(&store, "alice").await;
        let (bob, _) = player(&store, "bob").await;
        let id = table(&store, alice).await;
        store.post_chat(text(id, alice, "from alice", 100)).await.unwrap().unwrap();
        store.post_chat(text(id, bob, "from bob", 100)).await.unwrap().unwrap();
        assert!(store.mute(alice, bob, 5, 10).await.unwrap());
        assert_eq!(store.chat_unread_by(bob).await.unwrap(), [alice]);
        let for_alice = store.chat_page(id, Some(alice), 0, 10).await.unwrap();
        assert_eq!(for_alice.iter().map(|m| m.n).collect::<Vec<_>>(), [1]);
        assert_eq!(store.chat_page(id, Some(bob), 0, 10).await.unwrap().len(), 2);
        use crate::store::{Moderation, ModerationAction};
        let hide = Moderation {
            table: Some(id),
            message: Some(1),
            ..Moderation::new(None, ModerationAction::HideMessage, 9)
        };
        assert!(store.hide_chat(&hide).await.unwrap());
        assert!(!store.hide_chat(&hide).await.unwrap());
        assert_eq!(
            store.chat_page(id, None, 0, 10).await.unwrap().iter().map(|m| m.n).collect::<Vec<_>>(),
            [2]
        );
        assert!(store.unmute(alice, bob).await.unwrap());
        assert!(!store.mute(alice, bob, 5, 0).await.unwrap(), "over the cap");
    }
}
