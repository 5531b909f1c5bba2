//! Ownership of tables in play when several processes share one database: each process's lease
//! (and the address where it takes forwarded calls), taking a table (a new epoch, which fences
//! off the appends of its previous owner), and the notifications that tell every process of
//! what was appended to a log (PostgreSQL `NOTIFY`, see `crate::cluster`).

use super::{Backend, Store, StoreResult, TableInPlay, parse_uuid};
use sqlx::Row;
use uuid::Uuid;

/// The PostgreSQL channel of log appends, notified inside the transaction that appended (so
/// delivered at its commit, and only then), one notification per entry ([`notify_entries`]):
/// `<table id> <seq>\n<its WebSocket message>` (a JSON object), or a nudge `<table id> <seq>`
/// whose entry is to be read from the store (lobby entries, and entries whose message is too
/// long to notify). Listeners also take several nudge lines in one payload, as processes
/// before the messages were notified sent them.
pub const LOG_CHANNEL: &str = "luddo_log";
/// The PostgreSQL channel of the lobby stream's messages: `<instance id>\n<message>`.
pub const LOBBY_CHANNEL: &str = "luddo_lobby";
/// The longest payload PostgreSQL's `NOTIFY` takes is 8000 bytes; stay below it.
pub const MAX_PAYLOAD: usize = 7900;

/// Who drives a table in play, as read by a process that does not.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TableOwner {
    /// Nobody whose lease is alive: whoever asks may take it.
    Nobody,
    /// A live process, and where it takes forwarded calls (`None`: it takes none).
    Live { instance: String, address: Option<String> },
}

impl Store {
    /// Renews `instance`'s lease until `until` (Unix ms): its tables stay its own. `address`
    /// is where it takes forwarded calls (host:port).
    pub async fn renew_lease(&self, instance: &str, until: i64, address: Option<&str>) -> StoreResult<()> {
        sqlx::query(
            "INSERT INTO instances (id, lease_until, address) VALUES ($1, $2, $3)
             ON CONFLICT (id) DO UPDATE SET lease_until = excluded.lease_until, address = excluded.address",
        )
        .bind(instance)
        .bind(until)
        .bind(address)
        .execute(&self.writes)
        .await?;
        Ok(())
    }

    /// Who drives table `table_id` at `now` (Unix ms).
    pub async fn table_owner(&self, table_id: Uuid, now: i64) -> StoreResult<TableOwner> {
        let row = sqlx::query(
            "SELECT instances.id, instances.address FROM game_tables
             JOIN instances ON instances.id = game_tables.owner
             WHERE game_tables.id = $1 AND instances.lease_until >= $2",
        )
        .bind(table_id.to_string())
        .bind(now)
        .fetch_optional(&self.pool)
        .await?;
        Ok(match row {
            None => TableOwner::Nobody,
            Some(row) => TableOwner::Live { instance: row.try_get("id")?, address: row.try_get("address")? },
        })
    }

    /// Sends `payload` on `channel` to every process listening (PostgreSQL only; on SQLite,
    /// one process, nothing is sent).
    pub async fn notify(&self, channel: &str, payload: &str) -> StoreResult<()> {
        if self.backend == Backend::Postgres {
            let mut conn = self.pool.acquire().await?;
            notify_on(&mut conn, channel, payload).await?;
        }
        Ok(())
    }

    /// Gives up `instance`'s lease (at shutdown): other processes may take its tables at once.
    pub async fn release_lease(&self, instance: &str) -> StoreResult<()> {
        sqlx::query("DELETE FROM instances WHERE id = $1").bind(instance).execute(&self.writes).await?;
        Ok(())
    }

    /// Takes a table in play for `instance` if no other live instance holds it; returns the new
    /// epoch its appends must carry, or `None` when another instance drives it (or it is not
    /// in play).
    pub async fn claim_table(&self, table_id: Uuid, instance: &str, now: i64) -> StoreResult<Option<i64>> {
        let epoch: Option<i64> = sqlx::query_scalar(&format!(
            "UPDATE game_tables SET owner = $1, epoch = epoch + 1
             WHERE id = $2 AND status = 'playing' AND {} RETURNING epoch",
            claimable(3, 4)
        ))
        .bind(instance)
        .bind(table_id.to_string())
        .bind(instance)
        .bind(now)
        .fetch_optional(&self.writes)
        .await?;
        Ok(epoch)
    }

    /// Hands table `table_id`, which `from` drives with `epoch`, to `to` if `to`'s lease is alive
    /// at `now` (Unix ms): `to` then takes it (a new epoch, [`Store::claim_table`]) with its next
    /// call on it, or its next lease renewal. `false`, and nothing changed, if `to` is not live,
    /// or the table is not in play, or not `from`'s at `epoch` any more.
    pub async fn hand_over_table(
        &self,
        table_id: Uuid,
        from: &str,
        epoch: i64,
        to: &str,
        now: i64,
    ) -> StoreResult<bool> {
        let handed = sqlx::query(
            "UPDATE game_tables SET owner = $1
             WHERE id = $2 AND status = 'playing' AND owner = $3 AND epoch = $4
             AND EXISTS (SELECT 1 FROM instances WHERE instances.id = $5 AND instances.lease_until >= $6)",
        )
        .bind(to)
        .bind(table_id.to_string())
        .bind(from)
        .bind(epoch)
        .bind(to)
        .bind(now)
        .execute(&self.writes)
        .await?;
        Ok(handed.rows_affected() == 1)
    }

    /// Every table in play, with its owner and whether `instance` may drive it (it is its own,
    /// or nobody's, or its owner's lease ran out before `now`).
    pub async fn tables_in_play(&self, instance: &str, now: i64) -> StoreResult<Vec<TableInPlay>> {
        let rows = sqlx::query(&format!(
            "SELECT id, owner, CAST(CASE WHEN {} THEN 1 ELSE 0 END AS BIGINT) AS claimable
             FROM game_tables WHERE status = 'playing'",
            claimable(1, 2)
        ))
        .bind(instance)
        .bind(now)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(TableInPlay {
                    id: parse_uuid(&r.try_get::<String, _>("id")?)?,
                    owner: r.try_get("owner")?,
                    claimable: r.try_get::<i64, _>("claimable")? == 1,
                })
            })
            .collect()
    }
}

/// A table nobody else holds: no owner, this instance (parameter `instance`), or an owner whose
/// lease ended before now (parameter `now`).
fn claimable(instance: usize, now: usize) -> String {
    format!(
        "(owner IS NULL OR owner = ${instance} OR NOT EXISTS (
         SELECT 1 FROM instances WHERE instances.id = game_tables.owner AND instances.lease_until >= ${now}))"
    )
}

/// Notifies each of these entries (table, `seq`, WebSocket message if any) on [`LOG_CHANNEL`],
/// inside `tx` (delivered at its commit), all in one statement: with its message when it fits
/// in a notification, else as a nudge. Nothing on SQLite.
pub(super) async fn notify_entries(
    tx: &mut sqlx::AnyConnection,
    entries: &[(Uuid, i64, Option<&str>)],
) -> StoreResult<()> {
    if entries.is_empty() || !tx.backend_name().eq_ignore_ascii_case("PostgreSQL") {
        return Ok(());
    }
    // Payloads joined by the record separator (U+001E): JSON text escapes every control
    // character, so none is in a message.
    let mut payloads = String::new();
    for &(table, seq, message) in entries {
        if !payloads.is_empty() {
            payloads.push(RECORD_SEPARATOR);
        }
        let head = format!("{table} {seq}");
        payloads.push_str(&head);
        if let Some(text) = message.filter(|t| head.len() + 1 + t.len() <= MAX_PAYLOAD) {
            debug_assert!(!text.contains(RECORD_SEPARATOR));
            payloads.push('\n');
            payloads.push_str(text);
        }
    }
    sqlx::query(
        "SELECT COUNT(*) FROM (SELECT pg_notify($1, p) FROM unnest(string_to_array($2, chr(30))) AS p) AS sent",
    )
    .bind(LOG_CHANNEL)
    .bind(payloads)
    .execute(tx)
    .await?;
    Ok(())
}

/// Between the payloads [`notify_entries`] sends in one statement.
const RECORD_SEPARATOR: char = '\u{1e}';

pub(super) async fn notify_on(
    conn: &mut sqlx::AnyConnection,
    channel: &str,
    payload: &str,
) -> StoreResult<()> {
    // `pg_notify` returns `void`, a type the Any driver cannot read: count the row instead.
    sqlx::query("SELECT COUNT(*) FROM (SELECT pg_notify($1, $2)) AS sent")
        .bind(channel)
        .bind(payload)
        .execute(conn)
        .await?;
    Ok(())
}
