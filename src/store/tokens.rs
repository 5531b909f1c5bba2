//! Bearer tokens: each player holds up to a cap of them, each revocable and optionally
//! expiring. Only a token's SHA-256 is kept; a token is found by it.

use super::{Backend, Player, Store, StoreResult, Token, parse_uuid};
use sqlx::Row;
use uuid::Uuid;

/// The PostgreSQL channel of revocations: a revoked token's id, notified in the revocation's
/// transaction, so that every process closes the token's sockets (`crate::revocations`).
pub const TOKENS_CHANNEL: &str = "luddo_tokens";

/// How stale `last_used_at` may grow before a use writes it again: an hour, so that
/// authenticating is a read, not a write per request (and a session kept in memory,
/// `crate::sessions`, is read again from the store when the write is due).
const LAST_USED_PRECISION_MS: i64 = 3_600_000;

impl Token {
    /// Whether a lookup at `now` writes `last_used_at`: it is over an hour old, or unset.
    fn last_used_stale(&self, now: i64) -> bool {
        self.last_used_at.is_none_or(|at| now - at >= LAST_USED_PRECISION_MS)
    }

    /// When a use must next write `last_used_at`, once a lookup at `now` read this token: an
    /// hour after what the lookup left there (`now` if it wrote it).
    pub fn last_used_due(&self, now: i64) -> i64 {
        match self.last_used_at {
            Some(at) if !self.last_used_stale(now) => at + LAST_USED_PRECISION_MS,
            _ => now + LAST_USED_PRECISION_MS,
        }
    }
}

/// What [`Store::create_token`] did.
#[derive(Debug)]
pub enum NewToken {
    Created(Token),
    /// The player holds `cap` live tokens already.
    CapReached,
}

impl Store {
    /// The player, the token and its stored hash (for the caller's constant-time comparison)
    /// for the token whose hash is `hash`, unless that token expired by `now`
    /// (Unix ms) or was revoked (then it is gone). Refreshes the token's `last_used_at` when it
    /// is over an hour old.
    pub async fn session_by_token_hash(
        &self,
        hash: &str,
        now: i64,
    ) -> StoreResult<Option<(Player, Token, String, Option<i64>)>> {
        let row = sqlx::query(
            "SELECT p.id, p.name, p.created_at, p.banned_until, t.id AS token_id, t.hash, t.label, \
                    t.created_at AS token_created_at, t.last_used_at, t.expires_at \
             FROM tokens t JOIN players p ON p.id = t.player_id \
             WHERE t.hash = $1 AND (t.expires_at IS NULL OR t.expires_at > $2)",
        )
        .bind(hash)
        .bind(now)
        .fetch_optional(&self.pool)
        .await?;
        let Some(row) = row else { return Ok(None) };
        let player = Player::from_row(&row)?;
        let token = Token::from_row(&row, "token_id", "token_created_at", player.id)?;
        if token.last_used_stale(now) {
            sqlx::query("UPDATE tokens SET last_used_at = $1 WHERE id = $2")
                .bind(now)
                .bind(token.id.to_string())
                .execute(&self.writes)
                .await?;
        }
        Ok(Some((player, token, row.try_get("hash")?, row.try_get("banned_until")?)))
    }

    /// A new token for `player` whose SHA-256 is `hash`, unless the player holds `cap` live
    /// tokens already. Expired ones are deleted first: they count for nothing.
    pub async fn create_token(
        &self,
        player: Uuid,
        hash: &str,
        label: Option<&str>,
        expires_at: Option<i64>,
        now: i64,
        cap: usize,
    ) -> StoreResult<NewToken> {
        let mut tx = self.writes.begin().await?;
        // The player's row lock serializes two creations, so the count below stays true until
        // the insert (SQLite has one writer at a time anyway).
        sqlx::query("UPDATE players SET name = name WHERE id = $1")
            .bind(player.to_string())
            .execute(&mut *tx)
            .await?;
        sqlx::query(
            "DELETE FROM tokens WHERE player_id = $1 AND expires_at IS NOT NULL AND expires_at <= $2",
        )
        .bind(player.to_string())
        .bind(now)
        .execute(&mut *tx)
        .await?;
        let held: i64 = sqlx::query("SELECT COUNT(*) AS n FROM tokens WHERE player_id = $1")
            .bind(player.to_string())
            .fetch_one(&mut *tx)
            .await?
            .try_get("n")?;
        if held >= cap as i64 {
            return Ok(NewToken::CapReached);
        }
        let token = Token {
            id: Uuid::new_v4(),
            player_id: player,
            label: label.map(str::to_string),
            created_at: now,
            last_used_at: None,
            expires_at,
        };
        sqlx::query(
            "INSERT INTO tokens (id, player_id, hash, label, created_at, expires_at) \
             VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(token.id.to_string())
        .bind(player.to_string())
        .bind(hash)
        .bind(token.label.clone())
        .bind(now)
        .bind(expires_at)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(NewToken::Created(token))
    }

    /// The player's tokens that have not expired by `now`, oldest first (at most the cap).
    pub async fn tokens_of(&self, player: Uuid, now: i64) -> StoreResult<Vec<Token>> {
        let rows = sqlx::query(
            "SELECT id, label, created_at, last_used_at, expires_at FROM tokens \
             WHERE player_id = $1 AND (expires_at IS NULL OR expires_at > $2) \
             ORDER BY created_at, id",
        )
        .bind(player.to_string())
        .bind(now)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(|r| Token::from_row(r, "id", "created_at", player)).collect()
    }

    /// Deletes the player's token `id`, and tells every process listening on
    /// [`TOKENS_CHANNEL`] at the commit (PostgreSQL); false if the player holds no such token.
    pub async fn revoke_token(&self, player: Uuid, id: Uuid) -> StoreResult<bool> {
        let mut tx = self.writes.begin().await?;
        let done = sqlx::query("DELETE FROM tokens WHERE id = $1 AND player_id = $2")
            .bind(id.to_string())
            .bind(player.to_string())
            .execute(&mut *tx)
            .await?;
        let revoked = done.rows_affected() > 0;
        if revoked && self.backend == Backend::Postgres {
            super::leases::notify_on(&mut tx, TOKENS_CHANNEL, &id.to_string()).await?;
        }
        tx.commit().await?;
        Ok(revoked)
    }

    /// Those of `ids` that are tokens still held, unexpired at `now`: a process that may have
    /// missed revocations (its listening connection dropped) asks about its sockets' tokens.
    pub async fn tokens_held(&self, ids: &[Uuid], now: i64) -> StoreResult<Vec<Uuid>> {
        let mut held = Vec::with_capacity(ids.len());
        // Bound parameters per statement stay far below both databases' limits.
        for chunk in ids.chunks(500) {
            let marks: Vec<String> = (0..chunk.len()).map(|i| format!("${}", i + 2)).collect();
            let sql = format!(
                "SELECT id FROM tokens WHERE (expires_at IS NULL OR expires_at > $1) AND id IN ({})",
                marks.join(", ")
            );
            let mut query = sqlx::query(&sql).bind(now);
            for id in chunk {
                query = query.bind(id.to_string());
            }
            for row in query.fetch_all(&self.pool).await? {
                held.push(parse_uuid(&row.try_get::<String, _>("id")?)?);
            }
        }
        Ok(held)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::testing::scratch_store;

    #[tokio::test]
    async fn a_token_stops_working_when_it_expires() {
        let (store, _dir) = scratch_store().await;
        let player = store.create_player("Ann", "forever", None).await.unwrap();
        let now = player.created_at;
        let NewToken::Created(token) =
            store.create_token(player.id, "brief", None, Some(now + 1_000), now, 20).await.unwrap()
        else {
            panic!("cap reached")
        };
        let found = store.session_by_token_hash("brief", now + 999).await.unwrap().unwrap();
        assert_eq!(found.1.id, token.id);
        assert!(store.session_by_token_hash("brief", now + 1_000).await.unwrap().is_none());
        assert!(store.session_by_token_hash("forever", now + 1_000_000_000).await.unwrap().is_some());
        // Expired tokens leave the list, and make room under the cap.
        assert_eq!(store.tokens_of(player.id, now + 1_000).await.unwrap().len(), 1);
        assert!(matches!(
            store.create_token(player.id, "again", None, None, now + 1_000, 2).await.unwrap(),
            NewToken::Created(_)
        ));
    }

    #[tokio::test]
    async fn last_used_is_written_at_most_once_an_hour() {
        let (store, _dir) = scratch_store().await;
        let player = store.create_player("Ann", "h", None).await.unwrap();
        let t0 = player.created_at;
        let used = |now| {
            let store = store.clone();
            async move { store.session_by_token_hash("h", now).await.unwrap().unwrap().1.last_used_at }
        };
        assert_eq!(used(t0).await, None, "the first use reads the row before writing it");
        assert_eq!(used(t0 + 1).await, Some(t0));
        assert_eq!(used(t0 + LAST_USED_PRECISION_MS).await, Some(t0));
        assert_eq!(used(t0 + LAST_USED_PRECISION_MS + 1).await, Some(t0 + LAST_USED_PRECISION_MS));
    }

    #[test]
    fn last_used_is_due_an_hour_after_what_the_lookup_left() {
        let token = |last_used_at| Token {
            id: Uuid::new_v4(),
            player_id: Uuid::new_v4(),
            label: None,
            created_at: 0,
            last_used_at,
            expires_at: None,
        };
        let hour = LAST_USED_PRECISION_MS;
        assert_eq!(token(None).last_used_due(5), 5 + hour, "written now");
        assert_eq!(token(Some(10)).last_used_due(20), 10 + hour, "not written: due from the last write");
        assert_eq!(token(Some(10)).last_used_due(10 + hour), 10 + 2 * hour, "written now");
    }

    /// Migration 0004 moves each player's one token into `tokens`: a token handed out before
    /// it keeps working, and is then revocable like any other.
    #[tokio::test]
    async fn a_token_from_before_the_tokens_table_still_works() {
        sqlx::any::install_default_drivers();
        let dir = std::env::temp_dir().join(format!("luddo-unit-{}", Uuid::new_v4().simple()));
        std::fs::create_dir_all(&dir).unwrap();
        let _dir = crate::store::testing::TempDir(dir.clone());
        let url = format!("sqlite://{}?mode=rwc", dir.join("t.db").display());
        let pool = sqlx::AnyPool::connect(&url).await.unwrap();
        let before = crate::store::migrations::migrator_before(crate::store::Backend::Sqlite, 4).await;
        before.run(&pool).await.unwrap();
        let id = Uuid::new_v4();
        sqlx::query(
            "INSERT INTO players (id, name, token_hash, created_at) VALUES ($1, 'Old', 'oldhash', 5)",
        )
        .bind(id.to_string())
        .execute(&pool)
        .await
        .unwrap();
        pool.close().await;

        let store = Store::open(&url).await.unwrap();
        let (player, token, _, _) = store.session_by_token_hash("oldhash", 10).await.unwrap().unwrap();
        assert_eq!((player.id, player.name.as_str()), (id, "Old"));
        assert_eq!((token.label.as_deref(), token.created_at, token.expires_at), (Some("sign-up"), 5, None));
        assert!(store.revoke_token(id, token.id).await.unwrap());
        assert!(store.session_by_token_hash("oldhash", 10).await.unwrap().is_none());
    }
}
