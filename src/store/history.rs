//! The history chain's rows (docs/history.md, [`crate::history`]): a link appended in each
//! finish's transaction, the head row every append locks, the signed checkpoints, and a
//! table's proof.
//!
//! The one import from above the store: a link hashes the record's entries as the server
//! serves them ([`crate::table::EntryMessage`]), so that the hash covers whatever the served
//! entry carries, now and later.

use super::{LogEntry, StoreError, StoreResult, parse_uuid};
use crate::history::{self, Checkpoint, Link};
use serde_json::{Value, json};
use sqlx::{Row, any::AnyRow};
use uuid::Uuid;

/// Appends the finished table's link at the head of the chain, in the finish's transaction `tx`
/// (after everything the record hash covers is written: the log without its legal actions, the
/// rating changes). The head row's update locks it until the commit, so appends from any
/// number of transactions and processes take positions one after the other (on SQLite the
/// writing transaction already holds the database); the record is hashed before, outside the
/// lock.
pub(super) async fn append_link(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    table_id: Uuid,
    at: i64,
) -> StoreResult<()> {
    let (table, commitment) = table_document(tx, table_id).await?;
    let rows = sqlx::query(
        "SELECT seq, seat, actor, action, events, at FROM actions WHERE table_id = $1 ORDER BY seq",
    )
    .bind(table_id.to_string())
    .fetch_all(&mut **tx)
    .await?;
    let entries = rows
        .iter()
        .map(|r| {
            let entry = LogEntry::from_row(r)?;
            serde_json::to_value(crate::table::EntryMessage::new(&entry))
                .map_err(|e| StoreError::Corrupt(format!("entry: {e}")))
        })
        .collect::<StoreResult<Vec<Value>>>()?;
    let ratings = rating_changes(tx, table_id).await?;
    let record_hash = history::record_hash(&table, &entries, &ratings);
    // The head's lock is taken last, once the record is hashed: held only for the link's two
    // statements and the commit, so concurrent finishes wait on each other as little as can be.
    let head =
        sqlx::query("UPDATE history_head SET position = position + 1 WHERE id = 1 RETURNING position, hash")
            .fetch_one(&mut **tx)
            .await?;
    let position: i64 = head.try_get("position")?;
    let prev_hash: String = head.try_get("hash")?;
    let hash = history::link_hash(position, &prev_hash, table_id, &record_hash, &commitment)
        .ok_or_else(|| StoreError::Corrupt(format!("history head hash {prev_hash:?}")))?;
    sqlx::query(
        "INSERT INTO history_links (position, table_id, prev_hash, record_hash, commitment, hash, at)
         VALUES ($1, $2, $3, $4, $5, $6, $7)",
    )
    .bind(position)
    .bind(table_id.to_string())
    .bind(&prev_hash)
    .bind(&record_hash)
    .bind(&commitment)
    .bind(&hash)
    .bind(at)
    .execute(&mut **tx)
    .await?;
    sqlx::query("UPDATE history_head SET hash = $1 WHERE id = 1").bind(&hash).execute(&mut **tx).await?;
    Ok(())
}

/// The table as its record's `table` shows what the record hash covers, and its commitment.
async fn table_document(conn: &mut sqlx::AnyConnection, table_id: Uuid) -> StoreResult<(Value, String)> {
    let t = sqlx::query(
        "SELECT game, options, seed_commitment, client_seed, seed FROM game_tables WHERE id = $1",
    )
    .bind(table_id.to_string())
    .fetch_one(&mut *conn)
    .await?;
    let options: String = t.try_get("options")?;
    let options: Value =
        serde_json::from_str(&options).map_err(|e| StoreError::Corrupt(format!("options: {e}")))?;
    let seats =
        sqlx::query("SELECT seat, player_id, client_seed FROM seats WHERE table_id = $1 ORDER BY seat")
            .bind(table_id.to_string())
            .fetch_all(&mut *conn)
            .await?;
    let seats = seats
        .iter()
        .map(|s| {
            let player: Option<String> = s.try_get("player_id")?;
            Ok(json!({
                "seat": s.try_get::<i64, _>("seat")?,
                "player": player.map(|id| json!({"id": id})),
                "client_seed": s.try_get::<String, _>("client_seed")?,
            }))
        })
        .collect::<StoreResult<Vec<Value>>>()?;
    let commitment: String = t.try_get("seed_commitment")?;
    let table = json!({
        "id": table_id,
        "game": t.try_get::<String, _>("game")?,
        "options": options,
        "seats": seats,
        "seed_commitment": commitment,
        "client_seed": t.try_get::<String, _>("client_seed")?,
        "seed": t.try_get::<String, _>("seed")?,
    });
    Ok((table, commitment))
}

/// The table's rating changes as the proof serves them and the record hash covers them.
async fn rating_changes(conn: &mut sqlx::AnyConnection, table_id: Uuid) -> StoreResult<Vec<Value>> {
    let rows = sqlx::query(
        "SELECT player_id, game, place, rating_before, rating_after, at FROM rating_changes
         WHERE table_id = $1 ORDER BY player_id",
    )
    .bind(table_id.to_string())
    .fetch_all(&mut *conn)
    .await?;
    rows.iter()
        .map(|r| {
            Ok(json!({
                "player_id": r.try_get::<String, _>("player_id")?,
                "game": r.try_get::<String, _>("game")?,
                "place": r.try_get::<i64, _>("place")?,
                "rating_before": r.try_get::<f64, _>("rating_before")?,
                "rating_after": r.try_get::<f64, _>("rating_after")?,
                "at": r.try_get::<i64, _>("at")?,
            }))
        })
        .collect()
}

fn link_of(r: &AnyRow) -> StoreResult<Link> {
    Ok(Link {
        position: r.try_get("position")?,
        prev_hash: r.try_get("prev_hash")?,
        table_id: parse_uuid(&r.try_get::<String, _>("table_id")?)?,
        record_hash: r.try_get("record_hash")?,
        commitment: r.try_get("commitment")?,
        hash: r.try_get("hash")?,
    })
}

fn checkpoint_of(r: &AnyRow) -> StoreResult<Checkpoint> {
    Ok(Checkpoint {
        position: r.try_get("position")?,
        hash: r.try_get("hash")?,
        at: r.try_get("at")?,
        key_id: r.try_get("key_id")?,
        public_key: r.try_get("public_key")?,
        signature: r.try_get("signature")?,
    })
}

/// A table's place in the history.
#[derive(Debug)]
pub enum ProofState {
    /// The table has no link: not finished, or finished before the chain began.
    NoLink,
    /// Linked at this position, and no checkpoint has reached it yet.
    NotCheckpointed(i64),
    Proof(Box<history::Proof>),
}

/// Links after a table's one that a proof carries at most: a checkpoint is signed at least
/// every [`crate::config::Config::checkpoint_links`] links, so a longer run means checkpoints
/// went missing; the proof then waits for one that is near enough.
pub const MAX_PROOF_LINKS: i64 = 10_000;

impl super::Store {
    /// The chain's head: its position (0 before the first link) and hash.
    pub async fn history_head(&self) -> StoreResult<(i64, String)> {
        let r =
            sqlx::query("SELECT position, hash FROM history_head WHERE id = 1").fetch_one(&self.pool).await?;
        Ok((r.try_get("position")?, r.try_get("hash")?))
    }

    /// The latest checkpoint.
    pub async fn last_checkpoint(&self) -> StoreResult<Option<Checkpoint>> {
        let r = sqlx::query("SELECT * FROM history_checkpoints ORDER BY position DESC LIMIT 1")
            .fetch_optional(&self.pool)
            .await?;
        r.as_ref().map(checkpoint_of).transpose()
    }

    /// Stores `checkpoint`, unless one of its position is stored already (another process
    /// signed the same head).
    pub async fn add_checkpoint(&self, cp: &Checkpoint) -> StoreResult<()> {
        sqlx::query(
            "INSERT INTO history_checkpoints (position, hash, at, key_id, public_key, signature)
             VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (position) DO NOTHING",
        )
        .bind(cp.position)
        .bind(&cp.hash)
        .bind(cp.at)
        .bind(&cp.key_id)
        .bind(&cp.public_key)
        .bind(&cp.signature)
        .execute(&self.writes)
        .await?;
        Ok(())
    }

    /// How long appending finished table `table_id`'s link takes (its link removed first), in a
    /// transaction rolled back: the finish's added cost (BENCHMARKS.md). Measurement only.
    #[doc(hidden)]
    pub async fn history_append_cost(&self, table_id: Uuid) -> StoreResult<std::time::Duration> {
        let mut tx = self.writes.begin().await?;
        sqlx::query("DELETE FROM history_links WHERE table_id = $1")
            .bind(table_id.to_string())
            .execute(&mut *tx)
            .await?;
        let started = std::time::Instant::now();
        append_link(&mut tx, table_id, 0).await?;
        let took = started.elapsed();
        tx.rollback().await?;
        Ok(took)
    }

    /// The table's proof: its link, the links after it up to the first checkpoint at or after
    /// it, that checkpoint, and its rating changes.
    pub async fn history_proof(&self, table_id: Uuid) -> StoreResult<ProofState> {
        let Some(link) = sqlx::query("SELECT * FROM history_links WHERE table_id = $1")
            .bind(table_id.to_string())
            .fetch_optional(&self.pool)
            .await?
        else {
            return Ok(ProofState::NoLink);
        };
        let link = link_of(&link)?;
        let Some(cp) = sqlx::query(
            "SELECT * FROM history_checkpoints WHERE position >= $1 AND position <= $2 ORDER BY position LIMIT 1",
        )
        .bind(link.position)
        .bind(link.position + MAX_PROOF_LINKS)
        .fetch_optional(&self.pool)
        .await?
        else {
            return Ok(ProofState::NotCheckpointed(link.position));
        };
        let checkpoint = checkpoint_of(&cp)?;
        let links = sqlx::query(
            "SELECT * FROM history_links WHERE position > $1 AND position <= $2 ORDER BY position",
        )
        .bind(link.position)
        .bind(checkpoint.position)
        .fetch_all(&self.pool)
        .await?
        .iter()
        .map(link_of)
        .collect::<StoreResult<Vec<_>>>()?;
        let mut conn = self.pool.acquire().await?;
        let ratings = rating_changes(&mut conn, table_id).await?;
        Ok(ProofState::Proof(Box::new(history::Proof { link, links, checkpoint, ratings })))
    }
}
