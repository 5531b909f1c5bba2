//! Persistence: players, tables, seats, the append-only action log and the hall of shame.
//!
//! One [`Store`] serves both backends through sqlx's `Any` driver: PostgreSQL in production,
//! SQLite as the zero-setup default. The SQL is shared (ids are UUID text, times are Unix
//! milliseconds, JSON is text); only connection set-up and migrations differ per backend, and
//! the migrations for each live in `migrations/<backend>/`, embedded in the binary
//! (`migrations.rs`).
//!
//! Every write that a caller reports to anyone happens inside a transaction that has committed
//! before the method returns.
//!
//! [`Store`]'s methods are grouped by what they keep, one file each:
//!
//! - `players.rs`: players; `tokens.rs`: their bearer tokens (only the hash stored);
//! - `tables.rs`: tables, seats and the lobby's changes; `lobby.rs`: the lobby's log entries,
//!   written in each change's transaction; `quick.rs`: quick play's seating; `rematch.rs`:
//!   rematch votes and the table they open;
//! - `friends.rs`: friends, requests, blocks and presence's `seen_at`; `challenges.rs`:
//!   challenges and their invitees' answers;
//! - `entry.rs`: the log's entries, each table entry decoded once as it is read;
//!   `log.rs`: the action log's writer (group commit; its reads are here); `leases.rs`: which
//!   process drives a table in play, and the channels its commits notify;
//! - `ratings.rs`: ratings moved in a finish's transaction, and the leaderboards;
//!   `profiles.rs`: profiles and game histories; `shame.rs`: the hall of shame;
//! - `rows.rs`: the records they read and write; `migrations.rs`: the embedded migrations;
//!   `testing.rs`: scratch stores for the unit tests.
//!
//! This file holds the connection, the error type and the SQL helpers they share.

mod challenges;
mod chat;
mod entry;
mod friends;
mod history;
mod leases;
mod ledger;
mod lobby;
mod log;
mod migrations;
mod moderation;
mod players;
mod profiles;
mod quick;
mod ratings;
mod rematch;
mod reviews;
mod rows;
mod shame;
mod tables;
mod tokens;

pub use challenges::{Acceptance, ChallengeRecord, MAX_INVITEES, MAX_PENDING_CHALLENGES, NewChallenge};
pub use chat::{CHAT_CHANNEL, ChatBody, ChatMessage, ChatRefused, ChatSettings, NewChat};
pub use entry::{LobbyEntry, LogEntry, LoggedAction, TableEntry, TakeoverReason};
pub use friends::{AskFriend, Blocked, Friend, FriendLists, MAX_BLOCKS, MAX_FRIENDS, Unfriended};
pub use history::{MAX_PROOF_LINKS, ProofState};
pub use leases::{LOBBY_CHANNEL, LOG_CHANNEL, MAX_PAYLOAD, TableOwner};
pub use ledger::{LedgerSeatRow, LedgerSums, SeatLedger, TableLedger};
pub use log::{Append, Finish};
pub use moderation::{Moderation, ModerationAction, ModerationEntry, NewReport, Report, Sanctions};
pub use profiles::{GameRating, PlayedTable, Profile};
pub use quick::{QuickKind, QuickSeat};
pub use ratings::RatingRow;
pub use rematch::RematchVote;
pub use reviews::ReviewState;
pub use rows::*;
pub use tokens::{NewToken, TOKENS_CHANNEL};

use sqlx::{
    AnyPool,
    any::{AnyConnectOptions, AnyPoolOptions},
};
use std::{fmt::Write as _, str::FromStr, sync::Arc, time::Duration};
use uuid::Uuid;

/// The two databases the store runs on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Postgres,
    Sqlite,
}

/// Failures of the store. `Unavailable` means the database could not be reached (the API
/// answers 503); `Conflict` is a broken uniqueness rule, named, which the caller may explain.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("the database is unavailable: {0}")]
    Unavailable(sqlx::Error),
    #[error("conflict: {0:?}")]
    Conflict(Constraint),
    #[error("database error: {0}")]
    Other(sqlx::Error),
    #[error("corrupt row: {0}")]
    Corrupt(String),
    #[error("migration failed: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    /// The table is driven by another server process (its lease is alive, or its epoch moved
    /// on since this process took it).
    #[error("the table is being played on another server process")]
    Fenced,
    /// The player already holds this many seats at open (not started) tables, the most one
    /// player may: nothing was written.
    #[error("the player already holds {0} seats at tables not yet started")]
    TooManyWaitingSeats(usize),
}

/// The uniqueness rules of the schema, by what they mean: a broken one is reported by name,
/// never in the database's words (which differ per backend and name its internals).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Constraint {
    /// `seats` primary key: the seat has a player already.
    SeatTaken,
    /// `seats_one_per_player`: the player has another seat at this table.
    AlreadySeated,
    /// `actions` primary key: this `seq` of the table's log is written already.
    LogSeq,
    /// Any other (a token or invite code drawn twice: 256 and 80 random bits).
    Other,
}

impl Constraint {
    /// Which rule `db` broke: PostgreSQL names the constraint; SQLite lists the columns of the
    /// index in its message ("UNIQUE constraint failed: seats.table_id, seats.player_id").
    fn of(db: &dyn sqlx::error::DatabaseError) -> Self {
        match db.constraint() {
            Some("seats_pkey") => Constraint::SeatTaken,
            Some("seats_one_per_player") => Constraint::AlreadySeated,
            Some("actions_pkey") => Constraint::LogSeq,
            Some(_) => Constraint::Other,
            None => match db.message().strip_prefix("UNIQUE constraint failed: ") {
                Some("seats.table_id, seats.seat") => Constraint::SeatTaken,
                Some("seats.table_id, seats.player_id") => Constraint::AlreadySeated,
                Some("actions.table_id, actions.seq") => Constraint::LogSeq,
                _ => Constraint::Other,
            },
        }
    }
}

impl StoreError {
    /// The same failure again, for each of several callers who shared one attempt.
    fn duplicate(&self) -> StoreError {
        match self {
            StoreError::Unavailable(e) => {
                StoreError::Unavailable(sqlx::Error::Io(std::io::Error::other(e.to_string())))
            }
            StoreError::Conflict(c) => StoreError::Conflict(*c),
            StoreError::Corrupt(m) => StoreError::Corrupt(m.clone()),
            StoreError::Fenced => StoreError::Fenced,
            other => StoreError::Other(sqlx::Error::Protocol(other.to_string())),
        }
    }
}

impl From<sqlx::Error> for StoreError {
    fn from(e: sqlx::Error) -> Self {
        match &e {
            sqlx::Error::Io(_)
            | sqlx::Error::PoolTimedOut
            | sqlx::Error::PoolClosed
            | sqlx::Error::Tls(_)
            | sqlx::Error::WorkerCrashed => StoreError::Unavailable(e),
            sqlx::Error::Database(db) if db.is_unique_violation() => {
                StoreError::Conflict(Constraint::of(db.as_ref()))
            }
            sqlx::Error::Database(db) if db.code().is_some_and(|c| is_unreachable_sqlstate(&c)) => {
                StoreError::Unavailable(e)
            }
            _ => StoreError::Other(e),
        }
    }
}

/// PostgreSQL error codes that mean "the database cannot be reached right now" rather than "this
/// query is wrong": connection exceptions (class 08), too many connections (53300), the server
/// shutting down or starting up (57P01 to 57P03), and a database that accepts no connections
/// (`ALTER DATABASE … ALLOW_CONNECTIONS false`, 55000; the store's SQL raises it nowhere else).
fn is_unreachable_sqlstate(code: &str) -> bool {
    code.starts_with("08") || matches!(code, "53300" | "55000" | "57P01" | "57P02" | "57P03")
}

pub type StoreResult<T> = Result<T, StoreError>;

/// A process's PostgreSQL connections by default (`LUDDO_DATABASE_CONNECTIONS`).
pub const POSTGRES_CONNECTIONS: u32 = 16;

/// A handle to the database; cheap to clone.
#[derive(Clone)]
pub struct Store {
    /// Reads, and on PostgreSQL writes too.
    pool: AnyPool,
    /// Writing transactions: the same pool on PostgreSQL; on SQLite, which has one writer at a
    /// time, a pool of one connection, so that writers queue for it in order instead of taking
    /// turns at the file's lock through SQLite's busy handler, which sleeps (and readers stay
    /// free on `pool`).
    writes: AnyPool,
    backend: Backend,
    writer: Arc<log::LogWriter>,
}

impl std::fmt::Debug for Store {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Store").field("backend", &self.backend).finish()
    }
}

impl Store {
    /// Connects to `url` (`postgres://…` or `sqlite://…`), creating a SQLite file if needed,
    /// and applies the migrations; a PostgreSQL pool of [`POSTGRES_CONNECTIONS`].
    pub async fn open(url: &str) -> StoreResult<Self> {
        Self::open_with(url, POSTGRES_CONNECTIONS).await
    }

    /// The same, with a PostgreSQL pool of `connections` (`LUDDO_DATABASE_CONNECTIONS`;
    /// SQLite always has 4 readers and 1 writer).
    pub async fn open_with(url: &str, connections: u32) -> StoreResult<Self> {
        sqlx::any::install_default_drivers();
        let backend = if url.starts_with("postgres:") || url.starts_with("postgresql:") {
            Backend::Postgres
        } else if url.starts_with("sqlite:") {
            Backend::Sqlite
        } else {
            return Err(StoreError::Other(sqlx::Error::Configuration(
                format!("unsupported database URL {url:?}: use postgres:// or sqlite://").into(),
            )));
        };
        if backend == Backend::Sqlite {
            create_sqlite_parent_dir(url);
        }
        let options = AnyConnectOptions::from_str(url)?;
        let (pool, writes) = match backend {
            Backend::Postgres => {
                let pool = connect(options, backend, connections.max(1)).await?;
                (pool.clone(), pool)
            }
            // Four readers beside the one writer (WAL lets them run while it writes).
            Backend::Sqlite => {
                (connect(options.clone(), backend, 4).await?, connect(options, backend, 1).await?)
            }
        };
        migrations::migrator(backend).await?.run(&writes).await?;
        // SQLite has one write connection: more workers would only queue for it.
        let (workers, max_batch) = match backend {
            Backend::Postgres => (4, log::MAX_BATCH),
            Backend::Sqlite => (1, log::MAX_BATCH_SQLITE),
        };
        let writer = Arc::new(log::LogWriter::start(writes.clone(), workers, max_batch));
        Ok(Self { pool, writes, backend, writer })
    }

    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// Whether the database answers.
    pub async fn ping(&self) -> StoreResult<()> {
        sqlx::query("SELECT 1").execute(&self.pool).await?;
        Ok(())
    }

    /// Closes every connection (at shutdown).
    pub async fn close(&self) {
        self.pool.close().await;
        self.writes.close().await;
    }

    /// Writes a consistent copy of the SQLite database to `path` (which must not exist) while the
    /// server may go on using it: `VACUUM INTO`, SQLite's online backup into a compacted file.
    /// Returns false on PostgreSQL, which has its own tools (`pg_dump`).
    pub async fn backup_to(&self, path: &std::path::Path) -> StoreResult<bool> {
        if self.backend != Backend::Sqlite {
            return Ok(false);
        }
        sqlx::query("VACUUM INTO $1").bind(path.to_string_lossy().into_owned()).execute(&self.pool).await?;
        Ok(true)
    }

    // ---- the action log ---------------------------------------------------------------------

    /// Writes a table's next log entries with its new clock (and any change of controllers, or
    /// the game's end) in one transaction, possibly together with other tables' appends. The
    /// entries' `seq`s must follow the log's: if another writer got there first the primary key
    /// refuses them, so a `seq` is never used twice; if another process took the table since
    /// `epoch`, nothing is written and the answer is [`StoreError::Fenced`].
    pub async fn append(&self, append: Append) -> StoreResult<()> {
        self.writer.append(append).await
    }

    /// The log entries of a table with `after < seq <= upto`, in order.
    pub async fn entries(&self, table_id: Uuid, after: i64, upto: i64) -> StoreResult<Vec<LogEntry>> {
        self.entries_page(table_id, after, upto, i64::MAX).await
    }

    /// The first `limit` log entries with `after < seq <= upto`, oldest first: a page, for
    /// whoever must not hold a whole long log at once.
    pub async fn entries_page(
        &self,
        table_id: Uuid,
        after: i64,
        upto: i64,
        limit: i64,
    ) -> StoreResult<Vec<LogEntry>> {
        let rows = sqlx::query(
            "SELECT seq, seat, actor, action, events, at FROM actions
             WHERE table_id = $1 AND seq > $2 AND seq <= $3 ORDER BY seq LIMIT $4",
        )
        .bind(table_id.to_string())
        .bind(after)
        .bind(upto)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(LogEntry::from_row).collect()
    }
}

/// On PostgreSQL, locks `name` (any text, hashed to one of the 2^64 advisory-lock keys) until
/// `tx` ends: transactions that name the same thing run one after the other, on every process
/// sharing the database. On SQLite, where writing transactions already run one at a time,
/// nothing.
async fn lock_name(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    backend: Backend,
    name: &str,
) -> StoreResult<()> {
    if backend == Backend::Postgres {
        use sha2::{Digest, Sha256};
        let hash = Sha256::digest(name.as_bytes());
        let key = i64::from_le_bytes(hash[..8].try_into().unwrap_or_default());
        sqlx::query("SELECT pg_advisory_xact_lock($1)").bind(key).execute(&mut **tx).await?;
    }
    Ok(())
}

/// A pool of `connections` to the database of `options`, set up for `backend`.
async fn connect(options: AnyConnectOptions, backend: Backend, connections: u32) -> StoreResult<AnyPool> {
    Ok(AnyPoolOptions::new()
        .max_connections(connections)
        .acquire_timeout(Duration::from_secs(5))
        // Keep every connection open: SQLite connections are cheap to keep and slow-ish to
        // make (a worker thread each), and a full pool never waits on a connect.
        .min_connections(match backend {
            Backend::Postgres => 0,
            Backend::Sqlite => connections,
        })
        .idle_timeout(match backend {
            Backend::Postgres => Some(Duration::from_secs(600)),
            Backend::Sqlite => None,
        })
        .max_lifetime(match backend {
            Backend::Postgres => Some(Duration::from_secs(1800)),
            Backend::Sqlite => None,
        })
        // A SQLite connection is a local file: no need to ping it before each use.
        .test_before_acquire(backend == Backend::Postgres)
        .after_connect(move |conn, _meta| {
            Box::pin(async move {
                if backend == Backend::Sqlite {
                    // WAL lets readers run beside the writer; FULL sync keeps every
                    // committed action on disk before we tell anyone about it.
                    for pragma in [
                        "PRAGMA journal_mode = WAL",
                        "PRAGMA synchronous = FULL",
                        "PRAGMA busy_timeout = 5000",
                        "PRAGMA foreign_keys = ON",
                    ] {
                        sqlx::query(pragma).execute(&mut *conn).await?;
                    }
                }
                Ok(())
            })
        })
        .connect_with(options)
        .await?)
}

/// Keyset pagination, newest first: rows strictly before the cursor (time, id); binds the
/// time twice, then the id.
const KEYSET_CREATED: &str = " AND (created_at < ? OR (created_at = ? AND id < ?))";
const KEYSET_AT: &str = " AND (at < ? OR (at = ? AND id < ?))";

/// SQL built from pieces with `?` placeholders, in each database's own form: PostgreSQL's
/// numbered `$1, $2, …` (it has no anonymous ones), SQLite's anonymous `?` as written. SQLite
/// treats `$N` as a *named* parameter: it looks each name up in a list while parsing and sqlx
/// asks each one's name while binding, both linear scans, so a statement of n such parameters
/// costs O(n²) (a group commit's 1,000-row insert has 7,000; with `$N` it took 29× as long).
struct Numbered {
    sql: String,
    backend: Backend,
    params: usize,
}

impl Numbered {
    fn new(backend: Backend, sql: &str) -> Self {
        let mut numbered = Self { sql: String::with_capacity(sql.len()), backend, params: 0 };
        numbered.push(sql);
        numbered
    }

    fn push(&mut self, piece: &str) {
        if self.backend == Backend::Sqlite {
            self.sql.push_str(piece);
            return;
        }
        for (i, part) in piece.split('?').enumerate() {
            if i > 0 {
                self.params += 1;
                write!(self.sql, "${}", self.params).expect("writing to a String cannot fail");
            }
            self.sql.push_str(part);
        }
    }

    fn as_str(&self) -> &str {
        &self.sql
    }
}

impl Backend {
    /// The database behind a connection of the `Any` driver.
    fn of(conn: &sqlx::AnyConnection) -> Self {
        if conn.backend_name().eq_ignore_ascii_case("PostgreSQL") { Self::Postgres } else { Self::Sqlite }
    }
}

fn create_sqlite_parent_dir(url: &str) {
    let path = url.trim_start_matches("sqlite://").trim_start_matches("sqlite:");
    let path = path.split('?').next().unwrap_or_default();
    if path.is_empty() || path == ":memory:" {
        return;
    }
    if let Some(parent) = std::path::Path::new(path).parent().filter(|p| !p.as_os_str().is_empty()) {
        // An error surfaces at connect time with the database's own message.
        let _ = std::fs::create_dir_all(parent);
    }
}

pub(crate) fn parse_uuid(s: &str) -> StoreResult<Uuid> {
    Uuid::parse_str(s).map_err(|_| StoreError::Corrupt(format!("bad uuid {s:?}")))
}

#[cfg(test)]
pub(crate) mod testing;

/// A background worker's loop, shared by the ledger and the reviews: every second, `round(batch)`
/// until a round does less than a whole batch, until `stopped` (a round cut short by it rolls its
/// transaction back; the next start takes it up again). `what` names the work in a failure's log.
pub(crate) async fn every_second_until_caught_up<F, Fut>(
    stopped: impl Future<Output = ()>,
    batch: i64,
    what: &'static str,
    mut round: F,
) where
    F: FnMut(i64) -> Fut,
    Fut: Future<Output = StoreResult<usize>>,
{
    let mut tick = tokio::time::interval(std::time::Duration::from_secs(1));
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    tokio::pin!(stopped);
    loop {
        tokio::select! {
            () = &mut stopped => return,
            _ = tick.tick() => {}
        }
        loop {
            let done = tokio::select! {
                () = &mut stopped => return,
                r = round(batch) => r,
            };
            match done {
                Ok(n) if n as i64 == batch => continue,
                Ok(_) => break,
                Err(e) => {
                    tracing::warn!(error = %e, "{what}");
                    break;
                }
            }
        }
    }
}

#[cfg(test)]
mod numbered_tests {
    use super::{Backend, Numbered};

    #[test]
    fn placeholders_are_numbered_for_postgres_and_left_anonymous_for_sqlite() {
        let build = |backend| {
            let mut sql = Numbered::new(backend, "SELECT 1 WHERE a = ? AND b IN (?, ?)");
            sql.push(" LIMIT ?");
            sql.sql
        };
        assert_eq!(build(Backend::Postgres), "SELECT 1 WHERE a = $1 AND b IN ($2, $3) LIMIT $4");
        // SQLite looks `$N` up by name, one linear scan per parameter: its statements keep `?`.
        assert_eq!(build(Backend::Sqlite), "SELECT 1 WHERE a = ? AND b IN (?, ?) LIMIT ?");
    }
}
