//! The action log's writer: group commit of appends from many tables, fenced by table epochs.
//!
//! A table's actor hands one [`Append`] at a time to [`Store::append`](super::Store::append)
//! and waits for it: the entries it played since its last append, the table's new clock, and
//! any change of seat controllers or the game's end. A few worker tasks take the appends
//! waiting in a queue — as many as have gathered while the worker was busy, up to a batch
//! ([`MAX_BATCH`] on PostgreSQL, [`MAX_BATCH_SQLITE`] on SQLite) — and write them in one
//! transaction: one statement moves every table's clock
//! and checks its epoch, one multi-row `INSERT` adds the entries. An idle server writes each
//! append at once; a busy one commits many tables' appends together, so the commit rate of the
//! database stops being the limit of the action rate.
//!
//! Fencing: an append carries the epoch its actor took the table with. A table whose epoch has
//! moved on (another process took it) gets none of its entries written and
//! [`StoreError::Fenced`]; the rest of the batch is unaffected. Should a batch fail as a whole
//! for any other reason than the database being unreachable, each of its appends is retried
//! alone, so one bad append cannot fail its neighbours.

use super::{Backend, Controller, LogEntry, NewShame, Numbered, StoreError, StoreResult};
use crate::games::GameKind;
use sqlx::{AnyPool, Row};
use std::{collections::HashSet, sync::Arc};
use tokio::sync::{Mutex, mpsc, oneshot};
use uuid::Uuid;

/// Appends written in one transaction at most (PostgreSQL).
pub(super) const MAX_BATCH: usize = 256;
/// The same on SQLite, whose one write connection a commit holds throughout: every other
/// writing transaction (the lobby's: tables created, joined, started) waits for it meanwhile.
/// Of 8, 16, 32, 64, 128 and 256, 64 did best (BENCHMARKS.md, "SQLite: smaller group commits";
/// 256 was still slower with the one write connection, "SQLite: one write connection").
pub(super) const MAX_BATCH_SQLITE: usize = 64;
/// Log rows per `INSERT` statement (7 parameters each; both databases accept 32,766 or more).
const ROWS_PER_INSERT: usize = 1_000;
/// Appends waiting for a worker before callers wait to queue theirs.
const QUEUE: usize = 16_384;

/// What one table's actor writes at once: all of it, or none of it.
#[derive(Debug)]
pub struct Append {
    pub table_id: Uuid,
    /// The epoch the actor took the table with.
    pub epoch: i64,
    /// The next entries of the log, in order (at least one).
    pub entries: Vec<LogEntry>,
    /// Their WebSocket messages, in the same order: cluster mode notifies each with its
    /// append, so that the other processes' sockets need not read it back (a missing or
    /// too long one is notified as a nudge, and read from the store).
    pub messages: Vec<std::sync::Arc<str>>,
    /// When the clock of the seat to act runs out after them.
    pub deadline: Option<i64>,
    /// Seats whose player or bot changed, in order.
    pub controllers: Vec<(usize, Controller)>,
    /// The game ended with the last entry.
    pub finish: Option<Finish>,
}

/// How a game ended, recorded with its last entry.
#[derive(Debug)]
pub struct Finish {
    pub game: GameKind,
    pub outcome: serde_json::Value,
    /// Each seat's place (the outcome's `places`), for the seats and the ratings.
    pub places: Vec<u8>,
    pub shame: Vec<NewShame>,
}

struct Job {
    append: Append,
    reply: oneshot::Sender<StoreResult<()>>,
}

/// The queue in front of the workers.
pub(super) struct LogWriter {
    jobs: mpsc::Sender<Job>,
}

impl LogWriter {
    /// Starts `workers` worker tasks writing through `pool`, at most `max_batch` appends a
    /// transaction.
    pub(super) fn start(pool: AnyPool, workers: usize, max_batch: usize) -> Self {
        let (jobs, rx) = mpsc::channel(QUEUE);
        let rx = Arc::new(Mutex::new(rx));
        for _ in 0..workers {
            tokio::spawn(work(pool.clone(), rx.clone(), max_batch));
        }
        Self { jobs }
    }

    pub(super) async fn append(&self, append: Append) -> StoreResult<()> {
        let (reply, answer) = oneshot::channel();
        let closed = || StoreError::Unavailable(sqlx::Error::PoolClosed);
        self.jobs.send(Job { append, reply }).await.map_err(|_| closed())?;
        answer.await.map_err(|_| closed())?
    }
}

async fn work(pool: AnyPool, jobs: Arc<Mutex<mpsc::Receiver<Job>>>, max_batch: usize) {
    loop {
        let batch = {
            let mut rx = jobs.lock().await;
            let Some(first) = rx.recv().await else { return };
            let mut batch = vec![first];
            while batch.len() < max_batch {
                match rx.try_recv() {
                    Ok(job) => batch.push(job),
                    Err(_) => break,
                }
            }
            batch
        };
        write_batch(&pool, batch).await;
    }
}

async fn write_batch(pool: &AnyPool, mut batch: Vec<Job>) {
    // One order for every transaction's row locks: no two batches can deadlock.
    batch.sort_by_key(|job| job.append.table_id);
    let appends: Vec<&Append> = batch.iter().map(|j| &j.append).collect();
    let started = std::time::Instant::now();
    let written = write(pool, &appends).await;
    metrics::histogram!("luddo_log_batch_appends").record(appends.len() as f64);
    metrics::histogram!("luddo_log_commit_duration_seconds").record(started.elapsed());
    match written {
        Ok(fenced) => {
            for job in batch {
                let result =
                    if fenced.contains(&job.append.table_id) { Err(StoreError::Fenced) } else { Ok(()) };
                let _ = job.reply.send(result);
            }
        }
        Err(e) if batch.len() > 1 && !matches!(e, StoreError::Unavailable(_)) => {
            tracing::warn!(error = %e, appends = batch.len(), "a batch of appends failed; writing them one by one");
            for job in batch {
                let result = match write(pool, &[&job.append]).await {
                    Ok(fenced) if fenced.is_empty() => Ok(()),
                    Ok(_) => Err(StoreError::Fenced),
                    Err(e) => Err(e),
                };
                let _ = job.reply.send(result);
            }
        }
        Err(e) => {
            for job in batch {
                let _ = job.reply.send(Err(e.duplicate()));
            }
        }
    }
}

/// Writes `appends` in one transaction; returns the tables that were fenced off (nothing of
/// theirs was written).
async fn write(pool: &AnyPool, appends: &[&Append]) -> StoreResult<HashSet<Uuid>> {
    let mut tx = pool.begin().await?;
    let owned = move_clocks(&mut tx, appends).await?;
    let written: Vec<&Append> = appends.iter().copied().filter(|a| owned.contains(&a.table_id)).collect();
    insert_entries(&mut tx, &written).await?;
    let finishing: Vec<Uuid> = written.iter().filter(|a| a.finish.is_some()).map(|a| a.table_id).collect();
    super::ratings::lock_players(&mut tx, &finishing).await?;
    for a in &written {
        for &(seat, controller) in &a.controllers {
            sqlx::query("UPDATE seats SET controller = $1 WHERE table_id = $2 AND seat = $3")
                .bind(controller.as_str())
                .bind(a.table_id.to_string())
                .bind(seat as i64)
                .execute(&mut *tx)
                .await?;
        }
        if let Some(finish) = &a.finish {
            record_finish(&mut tx, a, finish).await?;
        }
    }
    // Cluster mode: every process hears of the entries at the commit (PostgreSQL only).
    if Backend::of(&tx) == Backend::Postgres {
        let entries: Vec<_> = written
            .iter()
            .flat_map(|a| {
                let texts = a.messages.iter().map(|m| Some(m.as_ref())).chain(std::iter::repeat(None));
                a.entries.iter().zip(texts).map(|(e, text)| (a.table_id, e.seq, text))
            })
            .collect();
        super::leases::notify_entries(&mut tx, &entries).await?;
    }
    tx.commit().await?;
    Ok(appends.iter().map(|a| a.table_id).filter(|id| !owned.contains(id)).collect())
}

/// Sets each table's clock where its epoch still matches, in one statement per
/// [`ROWS_PER_INSERT`] tables; returns the tables that matched (and are now row-locked until
/// the commit, so no other process can take them meanwhile).
async fn move_clocks(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    appends: &[&Append],
) -> StoreResult<HashSet<Uuid>> {
    let backend = Backend::of(tx);
    let mut owned = HashSet::with_capacity(appends.len());
    for chunk in appends.chunks(ROWS_PER_INSERT) {
        // `VALUES` columns are column1, column2, … in both databases.
        let values = vec!["(?, CAST(? AS BIGINT), CAST(? AS BIGINT))"; chunk.len()].join(", ");
        let sql = Numbered::new(
            backend,
            &format!(
                "UPDATE game_tables SET turn_deadline = v.column2 FROM (VALUES {values}) AS v
             WHERE game_tables.id = v.column1 AND game_tables.epoch = v.column3 RETURNING id"
            ),
        );
        let mut q = sqlx::query(sql.as_str());
        for a in chunk {
            q = q.bind(a.table_id.to_string()).bind(a.deadline).bind(a.epoch);
        }
        for row in q.fetch_all(&mut **tx).await? {
            owned.insert(super::parse_uuid(&row.try_get::<String, _>("id")?)?);
        }
    }
    Ok(owned)
}

async fn insert_entries(tx: &mut sqlx::Transaction<'_, sqlx::Any>, appends: &[&Append]) -> StoreResult<()> {
    let rows: Vec<(Uuid, &LogEntry)> =
        appends.iter().flat_map(|a| a.entries.iter().map(move |e| (a.table_id, e))).collect();
    let backend = Backend::of(tx);
    for chunk in rows.chunks(ROWS_PER_INSERT) {
        let events: Vec<String> = chunk
            .iter()
            .map(|(_, e)| serde_json::to_string(&e.events))
            .collect::<Result<_, _>>()
            .map_err(|e| StoreError::Corrupt(format!("events: {e}")))?;
        let values = vec!["(?, ?, ?, ?, ?, ?, ?)"; chunk.len()].join(", ");
        let sql = Numbered::new(
            backend,
            &format!("INSERT INTO actions (table_id, seq, seat, actor, action, events, at) VALUES {values}"),
        );
        let mut q = sqlx::query(sql.as_str());
        for ((table_id, e), events) in chunk.iter().zip(events) {
            q = q
                .bind(table_id.to_string())
                .bind(e.seq)
                .bind(e.seat.map(|s| s as i64))
                .bind(e.actor.as_str())
                .bind(e.action.to_text())
                .bind(events)
                .bind(e.at);
        }
        q.execute(&mut **tx).await?;
    }
    Ok(())
}

/// Drops the legal actions from every entry of a finished table: they told its players what
/// they could post next, and nobody posts to a finished table again. They are most of a log's
/// bytes (every seat's choices after every entry: KiBs per backgammon entry); what happened —
/// the actions, events, clocks, and the state after each entry, which clients replaying a
/// finished game render — stays. The only statement that differs per backend: the
/// `events` column is JSON text, edited with each database's own JSON functions, and written
/// back as compact as it was (SQLite's `json_remove` writes minified JSON; on PostgreSQL, a
/// `jsonb` round trip would add a space after every `:` and `,` of the state, so the object is
/// rebuilt from its members' own text, in byte order as serde_json writes them).
async fn drop_legal_actions(tx: &mut sqlx::Transaction<'_, sqlx::Any>, table_id: Uuid) -> StoreResult<()> {
    let sql = if Backend::of(tx) == Backend::Postgres {
        "UPDATE actions SET events = (SELECT '{' || COALESCE(string_agg(to_json(m.key)::text || ':' || m.value::text, ',' \
           ORDER BY m.key COLLATE \"C\"), '') || '}' FROM json_each(CAST(actions.events AS json)) AS m WHERE m.key <> 'legal') \
         WHERE table_id = $1 AND events LIKE '%\"legal\"%'"
    } else {
        "UPDATE actions SET events = json_remove(events, '$.legal') WHERE table_id = $1"
    };
    sqlx::query(sql).bind(table_id.to_string()).execute(&mut **tx).await?;
    Ok(())
}

/// The table's status, outcome and end time, and its hall-of-shame entries.
async fn record_finish(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    a: &Append,
    finish: &Finish,
) -> StoreResult<()> {
    let at = a.entries.last().map_or(0, |e| e.at);
    sqlx::query(
        "UPDATE game_tables SET status = 'finished', outcome = $1, finished_at = $2, turn_deadline = NULL,
         owner = NULL WHERE id = $3",
    )
    .bind(finish.outcome.to_string())
    .bind(at)
    .bind(a.table_id.to_string())
    .execute(&mut **tx)
    .await?;
    drop_legal_actions(tx, a.table_id).await?;
    for (seat, place) in finish.places.iter().enumerate() {
        sqlx::query("UPDATE seats SET place = $1 WHERE table_id = $2 AND seat = $3")
            .bind(*place as i64)
            .bind(a.table_id.to_string())
            .bind(seat as i64)
            .execute(&mut **tx)
            .await?;
    }
    // Ratings move in the same transaction as the finish (docs/ratings.md), each finish of the
    // batch reading what the ones before it wrote.
    super::ratings::rate_finish(tx, a.table_id, finish.game, &finish.places, at).await?;
    for s in &finish.shame {
        sqlx::query(
            "INSERT INTO shame (id, table_id, game, player_id, name, kind, pieces_home, at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
        )
        .bind(Uuid::new_v4().to_string())
        .bind(a.table_id.to_string())
        .bind(s.game.as_str())
        .bind(s.player_id.map(|p| p.to_string()))
        .bind(&s.name)
        .bind(s.kind.as_str())
        .bind(s.pieces_home)
        .bind(at)
        .execute(&mut **tx)
        .await?;
    }
    // Last: the link hashes what the finish wrote (docs/history.md).
    super::history::append_link(tx, a.table_id, at).await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{
        clock::now_millis,
        store::{
            Constraint, EntryEvents, LoggedAction, PlayedBy, Store,
            testing::{TempDir, luddo_for_two, scratch_store},
        },
    };
    use serde_json::json;

    /// A store on a fresh SQLite file with `n` started tables, each taken by instance "me".
    async fn store_with_tables(n: usize) -> (Store, Vec<(Uuid, i64)>, TempDir) {
        let (store, dir) = scratch_store().await;
        let host = store.create_player("host", &Uuid::new_v4().to_string(), None).await.unwrap();
        let mut tables = vec![];
        for _ in 0..n {
            let new = luddo_for_two(host.id);
            store.create_table(&new, 0, usize::MAX).await.unwrap();
            let (started, _) = store.start_table(new.id, host.id, "me", true).await.unwrap();
            assert_eq!(started, crate::store::StartOutcome::Started);
            let epoch = store.claim_table(new.id, "me", now_millis()).await.unwrap().unwrap();
            tables.push((new.id, epoch));
        }
        (store, tables, dir)
    }

    fn append(table_id: Uuid, epoch: i64, seq: i64) -> Append {
        let entry = LogEntry {
            seq,
            seat: Some(0),
            actor: PlayedBy::Human,
            action: LoggedAction::Engine(json!({"type": "roll"})),
            events: EntryEvents::default(),
            at: now_millis(),
        };
        Append {
            table_id,
            epoch,
            entries: vec![entry],
            messages: vec![],
            deadline: Some(seq),
            controllers: vec![],
            finish: None,
        }
    }

    /// Appends from many tables at once share transactions; one whose epoch moved on is fenced
    /// off alone, and one that breaks the log (a `seq` used twice) fails alone.
    #[tokio::test]
    async fn batched_appends_fail_one_by_one() {
        let (store, tables, _dir) = store_with_tables(40).await;
        // Each log begins with the lobby's entries: the host's seat and the bot's.
        const LOBBY: i64 = 2;
        for &(id, epoch) in &tables {
            store.append(append(id, epoch, LOBBY + 1)).await.unwrap();
        }
        let (fenced, _) = tables[0];
        let (duplicate, duplicate_epoch) = tables[1];
        let results = futures_util::future::join_all(tables.iter().enumerate().map(|(i, &(id, epoch))| {
            let store = store.clone();
            async move {
                let a = match i {
                    0 => append(id, epoch + 1, LOBBY + 2),
                    1 => append(id, duplicate_epoch, LOBBY + 1),
                    _ => append(id, epoch, LOBBY + 2),
                };
                store.append(a).await
            }
        }))
        .await;
        assert!(matches!(results[0], Err(StoreError::Fenced)), "{:?}", results[0]);
        assert!(matches!(results[1], Err(StoreError::Conflict(Constraint::LogSeq))), "{:?}", results[1]);
        for (i, r) in results.iter().enumerate().skip(2) {
            assert!(r.is_ok(), "table {i}: {r:?}");
        }
        assert_eq!(store.entries(fenced, 0, i64::MAX).await.unwrap().len() as i64, LOBBY + 1);
        assert_eq!(store.entries(duplicate, 0, i64::MAX).await.unwrap().len() as i64, LOBBY + 1);
        for &(id, _) in &tables[2..] {
            let log = store.entries(id, 0, i64::MAX).await.unwrap();
            assert_eq!(log.iter().map(|e| e.seq).collect::<Vec<_>>(), (1..=LOBBY + 2).collect::<Vec<_>>());
            assert_eq!(store.table(id).await.unwrap().unwrap().turn_deadline, Some(LOBBY + 2));
        }
    }
}
