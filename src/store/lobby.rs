//! The lobby's log entries: what happens to an open table before its start (seats taken and
//! left, bots seated, settings changed, the table closed), written to the table's log like the
//! entries of play (`actor: "server"`), with the next `seq`s, inside the transaction that makes
//! the change and under the table's row lock — so what is in the log happened, the `seq`s have
//! no gap, and the actor carries on from the last of them at the start.
//!
//! The entries themselves are [`LobbyEntry`]s; the log holds them as the table's own entries
//! ([`TableEntry::Lobby`]), which replay reads and skips: what they say of the seats is in the
//! `seats` rows the game is started from.

use super::{EntryEvents, LobbyEntry, LogEntry, LoggedAction, PlayedBy, StoreResult, TableEntry};
use uuid::Uuid;

/// Appends `changes` to the log of `table_id` after its latest entry, inside `tx`, which must
/// hold the table's row lock (no other writer then appends to an open table's log). Returns
/// the entries written, to be told to the table's followers once `tx` has committed.
pub(super) async fn append_lobby(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    table_id: Uuid,
    changes: Vec<LobbyEntry>,
    at: i64,
) -> StoreResult<Vec<LogEntry>> {
    let latest: i64 = sqlx::query_scalar("SELECT COALESCE(MAX(seq), 0) FROM actions WHERE table_id = $1")
        .bind(table_id.to_string())
        .fetch_one(&mut **tx)
        .await?;
    let mut written = Vec::with_capacity(changes.len());
    for (seq, change) in (latest + 1..).zip(changes) {
        let entry = LogEntry {
            seq,
            seat: change.seat(),
            actor: PlayedBy::Server,
            action: LoggedAction::Table(TableEntry::Lobby(change)),
            events: EntryEvents::default(),
            at,
        };
        let events = serde_json::to_string(&entry.events).unwrap_or_default();
        sqlx::query(
            "INSERT INTO actions (table_id, seq, seat, actor, action, events, at)
             VALUES ($1, $2, $3, $4, $5, $6, $7)",
        )
        .bind(table_id.to_string())
        .bind(entry.seq)
        .bind(entry.seat.map(|s| s as i64))
        .bind(entry.actor.as_str())
        .bind(entry.action.to_text())
        .bind(events)
        .bind(entry.at)
        .execute(&mut **tx)
        .await?;
        written.push(entry);
    }
    // Cluster mode: the table's sockets on every process hear of it at the commit, and read
    // it from the store (a nudge: what an open table's socket may be sent is its own check).
    let latest: Vec<_> = written.last().map(|e| (table_id, e.seq, None)).into_iter().collect();
    super::leases::notify_entries(tx, &latest).await?;
    Ok(written)
}
