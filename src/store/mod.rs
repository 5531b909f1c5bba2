//! Persistence: players, tables, seats, the append-only action log and the hall of shame.
//!
//! One [`Store`] serves both backends through sqlx's `Any` driver: PostgreSQL in production,
//! SQLite as the zero-setup default. The SQL is shared (ids are UUID text, times are Unix
//! milliseconds, JSON is text); only connection set-up and migrations differ per backend, and
//! the migrations for each live in `migrations/<backend>/`, embedded in the binary.
//!
//! Every write that a caller reports to anyone happens inside a transaction that has committed
//! before the method returns.

mod log;
mod rows;

pub use log::{Append, Finish};
pub use rows::*;

use crate::clock::now_millis;
use sqlx::{
    AnyPool, Row,
    any::{AnyConnectOptions, AnyPoolOptions},
};
use std::{collections::HashMap, str::FromStr, sync::Arc, time::Duration};
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

/// A handle to the database; cheap to clone.
#[derive(Clone)]
pub struct Store {
    pool: AnyPool,
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
    /// and applies the migrations.
    pub async fn open(url: &str) -> StoreResult<Self> {
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
        let pool = AnyPoolOptions::new()
            // SQLite has one writer at a time; more connections only add lock waits.
            .max_connections(match backend {
                Backend::Postgres => 16,
                Backend::Sqlite => 4,
            })
            .acquire_timeout(Duration::from_secs(5))
            // Keep every connection open: SQLite connections are cheap to keep and slow-ish to
            // make (a worker thread each), and a full pool never waits on a connect.
            .min_connections(match backend {
                Backend::Postgres => 0,
                Backend::Sqlite => 4,
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
            .await?;
        match backend {
            Backend::Postgres => sqlx::migrate!("./migrations/postgres").run(&pool).await?,
            Backend::Sqlite => sqlx::migrate!("./migrations/sqlite").run(&pool).await?,
        }
        // SQLite has one writer: more workers would only queue on its lock.
        let workers = match backend {
            Backend::Postgres => 4,
            Backend::Sqlite => 1,
        };
        let writer = Arc::new(log::LogWriter::start(pool.clone(), workers));
        Ok(Self { pool, backend, writer })
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
    }

    // ---- players ----------------------------------------------------------------------------

    pub async fn create_player(&self, name: &str, token_hash: &str) -> StoreResult<Player> {
        let player = Player { id: Uuid::new_v4(), name: name.to_string(), created_at: now_millis() };
        sqlx::query("INSERT INTO players (id, name, token_hash, created_at) VALUES ($1, $2, $3, $4)")
            .bind(player.id.to_string())
            .bind(&player.name)
            .bind(token_hash)
            .bind(player.created_at)
            .execute(&self.pool)
            .await?;
        Ok(player)
    }

    /// The player whose token hashes to `token_hash`, if any.
    pub async fn player_by_token_hash(&self, token_hash: &str) -> StoreResult<Option<(Player, String)>> {
        let row = sqlx::query("SELECT id, name, created_at, token_hash FROM players WHERE token_hash = $1")
            .bind(token_hash)
            .fetch_optional(&self.pool)
            .await?;
        row.map(|r| Ok((Player::from_row(&r)?, r.try_get::<String, _>("token_hash")?))).transpose()
    }

    pub async fn player(&self, id: Uuid) -> StoreResult<Option<Player>> {
        let row = sqlx::query("SELECT id, name, created_at FROM players WHERE id = $1")
            .bind(id.to_string())
            .fetch_optional(&self.pool)
            .await?;
        row.map(|r| Player::from_row(&r)).transpose()
    }

    // ---- tables -----------------------------------------------------------------------------

    /// Creates a table with its empty seats, the host sitting at `host_seat`.
    pub async fn create_table(&self, new: &NewTable, host_seat: usize) -> StoreResult<TableRecord> {
        let now = now_millis();
        let mut tx = self.pool.begin().await?;
        sqlx::query(
            "INSERT INTO game_tables (id, game, options, seat_count, visibility, party, invite_code,
                status, host_id, seed, seed_commitment, client_seed, dice_script, created_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, 'open', $8, $9, $10, $11, $12, $13)",
        )
        .bind(new.id.to_string())
        .bind(new.game.as_str())
        .bind(new.options.to_string())
        .bind(new.seat_count as i64)
        .bind(new.visibility.as_str())
        .bind(new.party as i64)
        .bind(new.invite_code.as_deref())
        .bind(new.host_id.to_string())
        .bind(&new.seed)
        .bind(&new.seed_commitment)
        // The table's client seed is fixed at the start, from every seat's.
        .bind("")
        .bind(new.dice_script.as_ref().map(|d| serde_json::to_string(d).unwrap_or_default()))
        .bind(now)
        .execute(&mut *tx)
        .await?;
        for seat in 0..new.seat_count {
            let taken = seat == host_seat;
            sqlx::query(
                "INSERT INTO seats (table_id, seat, player_id, controller, joined_at, client_seed)
                 VALUES ($1, $2, $3, 'human', $4, $5)",
            )
            .bind(new.id.to_string())
            .bind(seat as i64)
            .bind(taken.then(|| new.host_id.to_string()))
            .bind(taken.then_some(now))
            .bind(if taken { new.host_client_seed.as_str() } else { "" })
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        self.table(new.id).await?.ok_or_else(|| StoreError::Corrupt("created table vanished".into()))
    }

    /// One table with its seats.
    pub async fn table(&self, id: Uuid) -> StoreResult<Option<TableRecord>> {
        let row = sqlx::query(&format!("SELECT {TABLE_COLUMNS} FROM game_tables WHERE id = $1"))
            .bind(id.to_string())
            .fetch_optional(&self.pool)
            .await?;
        let Some(row) = row else { return Ok(None) };
        let mut table = TableRecord::from_row(&row)?;
        table.seats = self.seats(id).await?;
        Ok(Some(table))
    }

    /// The table an invite code opens.
    pub async fn table_by_invite(&self, code: &str) -> StoreResult<Option<TableRecord>> {
        let id: Option<String> = sqlx::query_scalar("SELECT id FROM game_tables WHERE invite_code = $1")
            .bind(code)
            .fetch_optional(&self.pool)
            .await?;
        match id {
            Some(id) => self.table(parse_uuid(&id)?).await,
            None => Ok(None),
        }
    }

    async fn seats(&self, table_id: Uuid) -> StoreResult<Vec<SeatRecord>> {
        Ok(self.seats_of(&[table_id]).await?.remove(&table_id).unwrap_or_default())
    }

    /// The seats of several tables, in one query.
    async fn seats_of(&self, tables: &[Uuid]) -> StoreResult<HashMap<Uuid, Vec<SeatRecord>>> {
        let mut seats: HashMap<Uuid, Vec<SeatRecord>> = HashMap::new();
        if tables.is_empty() {
            return Ok(seats);
        }
        let sql = Numbered::new(&format!(
            "SELECT s.table_id, s.seat, s.player_id, p.name, s.controller, s.joined_at, s.client_seed
             FROM seats s LEFT JOIN players p ON p.id = s.player_id
             WHERE s.table_id IN ({}) ORDER BY s.table_id, s.seat",
            vec!["?"; tables.len()].join(", ")
        ));
        let mut q = sqlx::query(&sql.0);
        for id in tables {
            q = q.bind(id.to_string());
        }
        for row in q.fetch_all(&self.pool).await? {
            let table_id = parse_uuid(&row.try_get::<String, _>("table_id")?)?;
            seats.entry(table_id).or_default().push(SeatRecord::from_row(&row)?);
        }
        Ok(seats)
    }

    /// Public tables in the lobby, newest first, after the `after` cursor.
    pub async fn list_tables(&self, filter: &TableFilter) -> StoreResult<Vec<TableRecord>> {
        let mut sql = Numbered::new(&format!(
            "SELECT {TABLE_COLUMNS} FROM game_tables WHERE visibility = 'public' AND status = ?"
        ));
        if filter.game.is_some() {
            sql.push(" AND game = ?");
        }
        if filter.party.is_some() {
            sql.push(" AND party = ?");
        }
        if filter.after.is_some() {
            sql.push(KEYSET_CREATED);
        }
        if filter.has_free_seat {
            sql.push(
                " AND EXISTS (SELECT 1 FROM seats s WHERE s.table_id = game_tables.id AND s.player_id IS NULL AND s.controller = 'human')",
            );
        }
        sql.push(" ORDER BY created_at DESC, id DESC LIMIT ?");
        let mut q = sqlx::query(&sql.0).bind(filter.status.as_str());
        if let Some(game) = &filter.game {
            q = q.bind(game.as_str());
        }
        if let Some(party) = filter.party {
            q = q.bind(party as i64);
        }
        if let Some((at, id)) = &filter.after {
            q = q.bind(*at).bind(*at).bind(id.to_string());
        }
        let rows = q.bind(filter.limit as i64).fetch_all(&self.pool).await?;
        let mut tables = rows.iter().map(TableRecord::from_row).collect::<StoreResult<Vec<_>>>()?;
        let ids: Vec<Uuid> = tables.iter().map(|t| t.id).collect();
        let mut seats = self.seats_of(&ids).await?;
        for t in &mut tables {
            t.seats = seats.remove(&t.id).unwrap_or_default();
        }
        Ok(tables)
    }

    /// Seats `player` at `seat` with its client seed if that seat is free and the table open.
    /// Returns false when the seat was taken (by someone else, in a race) or the table is no
    /// longer open.
    pub async fn take_seat(
        &self,
        table_id: Uuid,
        seat: usize,
        player: Uuid,
        client_seed: &str,
    ) -> StoreResult<bool> {
        // Under the table's lock like every change of an open table's seats: a start sees the
        // seat and its seed wholly or not at all.
        let mut tx = self.pool.begin().await?;
        if !lock_open_table(&mut tx, table_id).await? {
            tx.rollback().await?;
            return Ok(false);
        }
        let done = sqlx::query(
            "UPDATE seats SET player_id = $1, controller = 'human', joined_at = $2, client_seed = $5
             WHERE table_id = $3 AND seat = $4 AND player_id IS NULL AND controller = 'human'",
        )
        .bind(player.to_string())
        .bind(now_millis())
        .bind(table_id.to_string())
        .bind(seat as i64)
        .bind(client_seed)
        .execute(&mut *tx)
        .await;
        // A unique violation (the player holds another seat) must roll back at once too.
        match done {
            Ok(done) if done.rows_affected() == 1 => {
                tx.commit().await?;
                Ok(true)
            }
            Ok(_) => {
                tx.rollback().await?;
                Ok(false)
            }
            Err(e) => {
                tx.rollback().await.ok();
                Err(e.into())
            }
        }
    }

    /// Frees `player`'s seat at an open table; hands the host role to the next seated player,
    /// or closes the table when nobody is left. Returns false if the player held no seat there
    /// or the table is no longer open (a start got there first).
    pub async fn leave_seat(&self, table_id: Uuid, player: Uuid) -> StoreResult<bool> {
        let mut tx = self.pool.begin().await?;
        let done = if lock_open_table(&mut tx, table_id).await? {
            sqlx::query(
                "UPDATE seats SET player_id = NULL, joined_at = NULL, client_seed = ''
                 WHERE table_id = $1 AND player_id = $2",
            )
            .bind(table_id.to_string())
            .bind(player.to_string())
            .execute(&mut *tx)
            .await?
            .rows_affected()
        } else {
            0
        };
        if done == 0 {
            // Roll back now: a dropped transaction would keep SQLite's write lock until the
            // connection is next used.
            tx.rollback().await?;
            return Ok(false);
        }
        let next_host: Option<String> = sqlx::query_scalar(
            "SELECT player_id FROM seats WHERE table_id = $1 AND player_id IS NOT NULL ORDER BY seat LIMIT 1",
        )
        .bind(table_id.to_string())
        .fetch_optional(&mut *tx)
        .await?;
        match next_host {
            Some(host) => {
                sqlx::query("UPDATE game_tables SET host_id = $1 WHERE id = $2 AND host_id = $3")
                    .bind(host)
                    .bind(table_id.to_string())
                    .bind(player.to_string())
                    .execute(&mut *tx)
                    .await?;
            }
            None => {
                sqlx::query("UPDATE game_tables SET status = 'closed', finished_at = $1 WHERE id = $2")
                    .bind(now_millis())
                    .bind(table_id.to_string())
                    .execute(&mut *tx)
                    .await?;
            }
        }
        tx.commit().await?;
        Ok(true)
    }

    /// Changes an open table's settings. Returns false if the table is no longer open.
    pub async fn update_table_settings(
        &self,
        table_id: Uuid,
        options: &serde_json::Value,
        party: bool,
        visibility: Visibility,
        invite_code: Option<&str>,
    ) -> StoreResult<bool> {
        let done = sqlx::query(
            "UPDATE game_tables SET options = $1, party = $2, visibility = $3, invite_code = $4
             WHERE id = $5 AND status = 'open'",
        )
        .bind(options.to_string())
        .bind(party as i64)
        .bind(visibility.as_str())
        .bind(invite_code)
        .bind(table_id.to_string())
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Starts an open table hosted by `host`; bots take its empty seats if `fill_with_bots`,
    /// else it starts only with every seat taken. Checked and done under the table's lock, so a
    /// player leaving or joining at the same moment comes wholly before or wholly after.
    pub async fn start_table(
        &self,
        table_id: Uuid,
        host: Uuid,
        instance: &str,
        fill_with_bots: bool,
    ) -> StoreResult<StartOutcome> {
        let now = now_millis();
        let mut tx = self.pool.begin().await?;
        let outcome = if !lock_open_table(&mut tx, table_id).await? {
            StartOutcome::NotOpen
        } else {
            let table = table_id.to_string();
            let host_id: String = sqlx::query_scalar("SELECT host_id FROM game_tables WHERE id = $1")
                .bind(&table)
                .fetch_one(&mut *tx)
                .await?;
            let empty: i64 =
                sqlx::query_scalar("SELECT COUNT(*) FROM seats WHERE table_id = $1 AND player_id IS NULL")
                    .bind(&table)
                    .fetch_one(&mut *tx)
                    .await?;
            if host_id != host.to_string() {
                StartOutcome::NotHost
            } else if empty > 0 && !fill_with_bots {
                StartOutcome::SeatsEmpty(empty as usize)
            } else {
                // Owned from the start by the process that starts it: no other may take it
                // before this one loads it.
                sqlx::query(
                    "UPDATE game_tables SET status = 'playing', started_at = $1, owner = $2 WHERE id = $3",
                )
                .bind(now)
                .bind(instance)
                .bind(&table)
                .execute(&mut *tx)
                .await?;
                sqlx::query(
                    "UPDATE seats SET controller = 'bot', joined_at = $1 WHERE table_id = $2 AND player_id IS NULL",
                )
                .bind(now)
                .bind(&table)
                .execute(&mut *tx)
                .await?;
                fix_client_seed(&mut tx, table_id).await?;
                StartOutcome::Started
            }
        };
        if outcome == StartOutcome::Started {
            tx.commit().await?;
        } else {
            tx.rollback().await?;
        }
        Ok(outcome)
    }

    /// Sets the client seed of `player`'s seat at an open table.
    pub async fn set_client_seed(&self, table_id: Uuid, player: Uuid, seed: &str) -> StoreResult<SeedUpdate> {
        let mut tx = self.pool.begin().await?;
        // Take the table's row first, as the start does: a start waits for this seed, or this
        // waits for the start and finds the table no longer open. (A lone UPDATE of the seat
        // could read the table as open on PostgreSQL and commit after the start had read the
        // seeds.)
        if !lock_open_table(&mut tx, table_id).await? {
            // Roll back now: a dropped transaction would keep SQLite's write lock until the
            // connection is next used.
            tx.rollback().await?;
            return Ok(SeedUpdate::NotOpen);
        }
        let seated = sqlx::query("UPDATE seats SET client_seed = $1 WHERE table_id = $2 AND player_id = $3")
            .bind(seed)
            .bind(table_id.to_string())
            .bind(player.to_string())
            .execute(&mut *tx)
            .await?;
        if seated.rows_affected() == 0 {
            tx.rollback().await?;
            return Ok(SeedUpdate::NotSeated);
        }
        tx.commit().await?;
        Ok(SeedUpdate::Set)
    }

    /// Open tables hosted by `player` (to cap how many one player may open).
    pub async fn count_open_tables_hosted(&self, player: Uuid) -> StoreResult<i64> {
        Ok(sqlx::query_scalar(
            "SELECT COUNT(*) FROM game_tables WHERE host_id = $1 AND status IN ('open', 'playing')",
        )
        .bind(player.to_string())
        .fetch_one(&self.pool)
        .await?)
    }
}

impl Store {
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

    // ---- ownership of tables in play ------------------------------------------------------

    /// Renews `instance`'s lease until `until` (Unix ms): its tables stay its own.
    pub async fn renew_lease(&self, instance: &str, until: i64) -> StoreResult<()> {
        sqlx::query(
            "INSERT INTO instances (id, lease_until) VALUES ($1, $2)
             ON CONFLICT (id) DO UPDATE SET lease_until = excluded.lease_until",
        )
        .bind(instance)
        .bind(until)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Gives up `instance`'s lease (at shutdown): other processes may take its tables at once.
    pub async fn release_lease(&self, instance: &str) -> StoreResult<()> {
        sqlx::query("DELETE FROM instances WHERE id = $1").bind(instance).execute(&self.pool).await?;
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
        .fetch_optional(&self.pool)
        .await?;
        Ok(epoch)
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

    // ---- the hall of shame ------------------------------------------------------------------

    /// Entries newest first, after the `after` cursor.
    pub async fn shame(&self, filter: &ShameFilter) -> StoreResult<Vec<ShameRecord>> {
        let mut sql = Numbered::new(
            "SELECT id, table_id, game, player_id, name, kind, pieces_home, at FROM shame WHERE 1 = 1",
        );
        if filter.game.is_some() {
            sql.push(" AND game = ?");
        }
        if filter.player.is_some() {
            sql.push(" AND player_id = ?");
        }
        if filter.after.is_some() {
            sql.push(KEYSET_AT);
        }
        sql.push(" ORDER BY at DESC, id DESC LIMIT ?");
        let mut q = sqlx::query(&sql.0);
        if let Some(game) = &filter.game {
            q = q.bind(game.as_str());
        }
        if let Some(player) = filter.player {
            q = q.bind(player.to_string());
        }
        if let Some((at, id)) = &filter.after {
            q = q.bind(*at).bind(*at).bind(id.to_string());
        }
        let rows = q.bind(filter.limit as i64).fetch_all(&self.pool).await?;
        rows.iter().map(ShameRecord::from_row).collect()
    }
}

/// Takes the write lock on an open table's row for the rest of `tx`; false if the table is not
/// open. Every change of an open table's seats or status takes it first, so they are serialized
/// per table on both stores: PostgreSQL makes a second writer wait for the row (and then see
/// the first one's commit in the statements that follow), SQLite has one writer at a time.
async fn lock_open_table(tx: &mut sqlx::Transaction<'_, sqlx::Any>, table_id: Uuid) -> StoreResult<bool> {
    let done = sqlx::query("UPDATE game_tables SET status = status WHERE id = $1 AND status = 'open'")
        .bind(table_id.to_string())
        .execute(&mut **tx)
        .await?;
    Ok(done.rows_affected() == 1)
}

/// Fixes a starting table's client seed from its seats' seeds, inside the start's transaction
/// (which holds the table's row, so no seed changes meanwhile).
async fn fix_client_seed(tx: &mut sqlx::Transaction<'_, sqlx::Any>, table_id: Uuid) -> StoreResult<()> {
    let seeds: Vec<String> =
        sqlx::query_scalar("SELECT client_seed FROM seats WHERE table_id = $1 ORDER BY seat")
            .bind(table_id.to_string())
            .fetch_all(&mut **tx)
            .await?;
    sqlx::query("UPDATE game_tables SET client_seed = $1 WHERE id = $2")
        .bind(crate::rules::dice::combine_client_seeds(&seeds))
        .bind(table_id.to_string())
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// A table nobody else holds: no owner, this instance (parameter `instance`), or an owner whose
/// lease ended before now (parameter `now`).
fn claimable(instance: usize, now: usize) -> String {
    format!(
        "(owner IS NULL OR owner = ${instance} OR NOT EXISTS (
         SELECT 1 FROM instances WHERE instances.id = game_tables.owner AND instances.lease_until >= ${now}))"
    )
}

/// Keyset pagination, newest first: rows strictly before the cursor (time, id); binds the
/// time twice, then the id.
const KEYSET_CREATED: &str = " AND (created_at < ? OR (created_at = ? AND id < ?))";
const KEYSET_AT: &str = " AND (at < ? OR (at = ? AND id < ?))";

/// SQL built from pieces whose `?` placeholders become `$1, $2, …` in order (the form both
/// stores accept).
struct Numbered(String, usize);

impl Numbered {
    fn new(sql: &str) -> Self {
        let mut numbered = Self(String::new(), 0);
        numbered.push(sql);
        numbered
    }

    fn push(&mut self, piece: &str) {
        for (i, part) in piece.split('?').enumerate() {
            if i > 0 {
                self.1 += 1;
                self.0.push_str(&format!("${}", self.1));
            }
            self.0.push_str(part);
        }
    }
}

const TABLE_COLUMNS: &str = "id, game, options, seat_count, visibility, party, invite_code, status, host_id,
    seed, seed_commitment, client_seed, dice_script, outcome, turn_deadline, created_at, started_at, finished_at";

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

/// Scratch stores for the crate's unit tests.
#[cfg(test)]
pub(crate) mod testing {
    use super::{NewTable, Store, Visibility};
    use crate::clock::now_millis;
    use crate::games::GameKind;
    use crate::rules::dice::ServerSeed;
    use uuid::Uuid;

    /// A scratch directory removed on drop.
    pub struct TempDir(pub std::path::PathBuf);

    impl Drop for TempDir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    /// A store on a fresh SQLite file, where instance "me" holds a lease for a minute.
    pub async fn scratch_store() -> (Store, TempDir) {
        let dir = std::env::temp_dir().join(format!("luddo-unit-{}", uuid::Uuid::new_v4().simple()));
        std::fs::create_dir_all(&dir).unwrap();
        let store = Store::open(&format!("sqlite://{}?mode=rwc", dir.join("t.db").display())).await.unwrap();
        store.renew_lease("me", now_millis() + 60_000).await.unwrap();
        (store, TempDir(dir))
    }

    /// A new public 2-seat Luddo table hosted by `host`, on a fresh seed.
    pub fn luddo_for_two(host: Uuid) -> NewTable {
        let seed = ServerSeed::generate();
        NewTable {
            id: Uuid::new_v4(),
            game: GameKind::Luddo,
            options: serde_json::json!({}),
            seat_count: 2,
            visibility: Visibility::Public,
            party: false,
            invite_code: None,
            host_id: host,
            seed: seed.to_hex(),
            seed_commitment: seed.commitment(),
            host_client_seed: String::new(),
            dice_script: None,
        }
    }
}
