//! Tables and their seats: creating, finding and listing tables, and the lobby's changes of an
//! open table (join, leave, settings, client seeds, start), each under the table's row lock.

use super::lobby::append_lobby;
use super::{
    Backend, KEYSET_CREATED, LobbyEntry, LogEntry, NewTable, Numbered, SeatRecord, SeedUpdate, StartOutcome,
    Store, StoreError, StoreResult, TableFilter, TableRecord, TableSettings, lock_name, parse_uuid,
};
use crate::clock::now_millis;
use sqlx::Row;
use std::collections::HashMap;
use uuid::Uuid;

impl Store {
    /// Creates a table with its empty seats, the host sitting at `host_seat`, if the host holds
    /// fewer than `max_waiting` seats at open tables.
    pub async fn create_table(
        &self,
        new: &NewTable,
        host_seat: usize,
        max_waiting: usize,
    ) -> StoreResult<TableRecord> {
        let mut tx = self.writes.begin().await?;
        if !has_room_to_wait(&mut tx, self.backend, new.host_id, max_waiting).await? {
            tx.rollback().await?;
            return Err(StoreError::TooManyWaitingSeats(max_waiting));
        }
        insert_table(&mut tx, new, host_seat, now_millis()).await?;
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
        let sql = Numbered::new(
            self.backend,
            &format!(
                "SELECT s.table_id, s.seat, s.player_id, p.name, s.controller, s.joined_at, s.client_seed, s.dice_chain
             FROM seats s LEFT JOIN players p ON p.id = s.player_id
             WHERE s.table_id IN ({}) ORDER BY s.table_id, s.seat",
                vec!["?"; tables.len()].join(", ")
            ),
        );
        let mut q = sqlx::query(sql.as_str());
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
        let mut sql = Numbered::new(
            self.backend,
            &format!("SELECT {TABLE_COLUMNS} FROM game_tables WHERE visibility = 'public' AND status = ?"),
        );
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
        let mut q = sqlx::query(sql.as_str()).bind(filter.status.as_str());
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

    /// The latest log `seq` of each of `tables` (absent: an empty log), in one query.
    pub async fn latest_seqs(&self, tables: &[Uuid]) -> StoreResult<HashMap<Uuid, i64>> {
        let mut seqs = HashMap::new();
        if tables.is_empty() {
            return Ok(seqs);
        }
        let sql = Numbered::new(
            self.backend,
            &format!(
                "SELECT table_id, MAX(seq) AS seq FROM actions WHERE table_id IN ({}) GROUP BY table_id",
                vec!["?"; tables.len()].join(", ")
            ),
        );
        let mut q = sqlx::query(sql.as_str());
        for id in tables {
            q = q.bind(id.to_string());
        }
        for row in q.fetch_all(&self.pool).await? {
            seqs.insert(parse_uuid(&row.try_get::<String, _>("table_id")?)?, row.try_get::<i64, _>("seq")?);
        }
        Ok(seqs)
    }

    /// Seats `player` at `seat` with its client seed if that seat is free and the table open,
    /// and logs it (`seat_taken`), if the player holds fewer than `max_waiting` seats at open
    /// tables. Returns the entry written, or `None` when the seat was taken (by someone else,
    /// in a race) or the table is no longer open.
    pub async fn take_seat(
        &self,
        table_id: Uuid,
        seat: usize,
        player: Uuid,
        client_seed: &str,
        dice_chain: Option<&str>,
        max_waiting: usize,
    ) -> StoreResult<Option<Vec<LogEntry>>> {
        let mut tx = self.writes.begin().await?;
        if !has_room_to_wait(&mut tx, self.backend, player, max_waiting).await? {
            tx.rollback().await?;
            return Err(StoreError::TooManyWaitingSeats(max_waiting));
        }
        // Under the table's lock like every change of an open table's seats: a start sees the
        // seat and its seed wholly or not at all.
        if !lock_open_table(&mut tx, table_id).await? {
            tx.rollback().await?;
            return Ok(None);
        }
        let now = now_millis();
        let done = seat_player(&mut tx, table_id, seat, player, client_seed, dice_chain, now).await;
        // A unique violation (the player holds another seat) must roll back at once too.
        match done {
            Ok(true) => {
                let name = player_name(&mut tx, player).await?;
                let taken = LobbyEntry::SeatTaken { seat, player_id: player, name };
                let written = append_lobby(&mut tx, table_id, vec![taken], now).await?;
                tx.commit().await?;
                Ok(Some(written))
            }
            Ok(_) => {
                tx.rollback().await?;
                Ok(None)
            }
            Err(e) => {
                tx.rollback().await.ok();
                Err(e)
            }
        }
    }

    /// Frees `player`'s seat at an open table; hands the host role to the next seated player,
    /// or closes the table when nobody is left; logs it (`seat_left`, then `closed` if so).
    /// Returns the entries written, or `None` if the player held no seat there or the table is
    /// no longer open (a start got there first).
    pub async fn leave_seat(&self, table_id: Uuid, player: Uuid) -> StoreResult<Option<Vec<LogEntry>>> {
        let mut tx = self.writes.begin().await?;
        let seat: Option<i64> = if lock_open_table(&mut tx, table_id).await? {
            sqlx::query_scalar(
                "UPDATE seats SET player_id = NULL, joined_at = NULL, client_seed = '', dice_chain = NULL
                 WHERE table_id = $1 AND player_id = $2 RETURNING seat",
            )
            .bind(table_id.to_string())
            .bind(player.to_string())
            .fetch_optional(&mut *tx)
            .await?
        } else {
            None
        };
        let Some(seat) = seat else {
            // Roll back now: a dropped transaction would keep SQLite's write lock until the
            // connection is next used.
            tx.rollback().await?;
            return Ok(None);
        };
        let now = now_millis();
        let next_host: Option<String> = sqlx::query_scalar(
            "SELECT player_id FROM seats WHERE table_id = $1 AND player_id IS NOT NULL ORDER BY seat LIMIT 1",
        )
        .bind(table_id.to_string())
        .fetch_optional(&mut *tx)
        .await?;
        let left = |host_id| LobbyEntry::SeatLeft { seat: seat as usize, player_id: player, host_id };
        let changes = match next_host {
            Some(host) => {
                let handed =
                    sqlx::query("UPDATE game_tables SET host_id = $1 WHERE id = $2 AND host_id = $3")
                        .bind(&host)
                        .bind(table_id.to_string())
                        .bind(player.to_string())
                        .execute(&mut *tx)
                        .await?;
                let new_host = if handed.rows_affected() == 1 { Some(parse_uuid(&host)?) } else { None };
                vec![left(new_host)]
            }
            None => {
                sqlx::query("UPDATE game_tables SET status = 'closed', finished_at = $1 WHERE id = $2")
                    .bind(now)
                    .bind(table_id.to_string())
                    .execute(&mut *tx)
                    .await?;
                vec![left(None), LobbyEntry::Closed]
            }
        };
        let written = append_lobby(&mut tx, table_id, changes, now).await?;
        tx.commit().await?;
        Ok(Some(written))
    }

    /// Changes an open table's settings and logs it (`settings_changed`). Returns the entry
    /// written, or `None` if the table is no longer open.
    pub async fn update_table_settings(
        &self,
        table_id: Uuid,
        settings: &TableSettings,
    ) -> StoreResult<Option<Vec<LogEntry>>> {
        let mut tx = self.writes.begin().await?;
        if !lock_open_table(&mut tx, table_id).await? {
            tx.rollback().await?;
            return Ok(None);
        }
        sqlx::query(
            "UPDATE game_tables SET options = $1, party = $2, visibility = $3, invite_code = $4, bot_level = $5,
                long_clock = $6, fresh_dice = $7
             WHERE id = $8",
        )
        .bind(settings.options.to_string())
        .bind(settings.party as i64)
        .bind(settings.visibility.as_str())
        .bind(settings.invite_code.as_deref())
        .bind(settings.bot_level.as_str())
        .bind(settings.long_clock as i64)
        .bind(settings.fresh_dice as i64)
        .bind(table_id.to_string())
        .execute(&mut *tx)
        .await?;
        let changed = LobbyEntry::SettingsChanged {
            options: settings.options.clone(),
            visibility: settings.visibility,
            party: settings.party,
            bot_level: Some(settings.bot_level),
            long_clock: Some(settings.long_clock),
            fresh_dice: Some(settings.fresh_dice),
        };
        let written = append_lobby(&mut tx, table_id, vec![changed], now_millis()).await?;
        tx.commit().await?;
        Ok(Some(written))
    }

    /// Starts an open table hosted by `host`; bots take its empty seats if `fill_with_bots`
    /// (logged, `bot_seated` each: returned with the outcome), else it starts only with every
    /// seat taken. Checked and done under the table's lock, so a player leaving or joining at
    /// the same moment comes wholly before or wholly after. (The `start` entry itself is the
    /// actor's, which draws the opening throws: it follows these at once.)
    pub async fn start_table(
        &self,
        table_id: Uuid,
        host: Uuid,
        instance: &str,
        fill_with_bots: bool,
    ) -> StoreResult<(StartOutcome, Vec<LogEntry>)> {
        let now = now_millis();
        let mut tx = self.writes.begin().await?;
        let mut written = vec![];
        let outcome = if !lock_open_table(&mut tx, table_id).await? {
            StartOutcome::NotOpen
        } else {
            let table = table_id.to_string();
            let host_id: String = sqlx::query_scalar("SELECT host_id FROM game_tables WHERE id = $1")
                .bind(&table)
                .fetch_one(&mut *tx)
                .await?;
            let empty: Vec<i64> = sqlx::query_scalar(
                "SELECT seat FROM seats WHERE table_id = $1 AND player_id IS NULL ORDER BY seat",
            )
            .bind(&table)
            .fetch_all(&mut *tx)
            .await?;
            if host_id != host.to_string() {
                StartOutcome::NotHost
            } else if !empty.is_empty() && !fill_with_bots {
                StartOutcome::SeatsEmpty(empty.len())
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
                let bots = empty.iter().map(|&seat| LobbyEntry::BotSeated { seat: seat as usize }).collect();
                written = append_lobby(&mut tx, table_id, bots, now).await?;
                StartOutcome::Started
            }
        };
        if outcome == StartOutcome::Started {
            tx.commit().await?;
        } else {
            tx.rollback().await?;
        }
        Ok((outcome, written))
    }

    /// Sets the client seed of `player`'s seat at an open table.
    pub async fn set_client_seed(&self, table_id: Uuid, player: Uuid, seed: &str) -> StoreResult<SeedUpdate> {
        self.set_open_seat(
            table_id,
            player,
            "UPDATE seats SET client_seed = $1 WHERE table_id = $2 AND player_id = $3",
            seed,
        )
        .await
    }

    /// Sets the dice chain head of `player`'s seat at an open table (fresh dice).
    pub async fn set_dice_chain(&self, table_id: Uuid, player: Uuid, head: &str) -> StoreResult<SeedUpdate> {
        self.set_open_seat(
            table_id,
            player,
            "UPDATE seats SET dice_chain = $1 WHERE table_id = $2 AND player_id = $3",
            head,
        )
        .await
    }

    /// Runs `update` (binding `value`, the table and the player) on `player`'s seat while the
    /// table is open. It takes the table's row first, as the start does: a start waits for this
    /// change, or this waits for the start and finds the table no longer open. (A lone UPDATE of
    /// the seat could read the table as open on PostgreSQL and commit after the start had read
    /// the seats.)
    async fn set_open_seat(
        &self,
        table_id: Uuid,
        player: Uuid,
        update: &'static str,
        value: &str,
    ) -> StoreResult<SeedUpdate> {
        let mut tx = self.writes.begin().await?;
        if !lock_open_table(&mut tx, table_id).await? {
            // Roll back now: a dropped transaction would keep SQLite's write lock until the
            // connection is next used.
            tx.rollback().await?;
            return Ok(SeedUpdate::NotOpen);
        }
        let seated = sqlx::query(update)
            .bind(value)
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
        tables_hosted(&mut *self.pool.acquire().await?, player).await
    }
}

/// Unfinished (open or playing) tables hosted by `player`, on `conn` (a transaction's, where a
/// table is opened inside one).
pub(super) async fn tables_hosted(conn: &mut sqlx::AnyConnection, player: Uuid) -> StoreResult<i64> {
    Ok(sqlx::query_scalar(
        "SELECT COUNT(*) FROM game_tables WHERE host_id = $1 AND status IN ('open', 'playing')",
    )
    .bind(player.to_string())
    .fetch_one(conn)
    .await?)
}

/// Whether `player` holds fewer than `max` seats at open tables, inside `tx`. It first locks
/// the player's waiting seats (see [`lock_name`]), so two of one player's seatings at once are
/// counted one after the other; every caller takes that lock before any table's row lock (and
/// after a quick-play kind's), one order, so no two of them wait on each other.
pub(super) async fn has_room_to_wait(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    backend: Backend,
    player: Uuid,
    max: usize,
) -> StoreResult<bool> {
    lock_name(tx, backend, &format!("waiting seats of {player}")).await?;
    let held: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM seats s JOIN game_tables t ON t.id = s.table_id
         WHERE s.player_id = $1 AND t.status = 'open'",
    )
    .bind(player.to_string())
    .fetch_one(&mut **tx)
    .await?;
    Ok((held as usize) < max)
}

/// A player's name, for the log's `seat_taken` entries.
pub(super) async fn player_name(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    player: Uuid,
) -> StoreResult<String> {
    let name: Option<String> = sqlx::query_scalar("SELECT name FROM players WHERE id = $1")
        .bind(player.to_string())
        .fetch_optional(&mut **tx)
        .await?;
    Ok(name.unwrap_or_default())
}

/// Takes the write lock on an open table's row for the rest of `tx`; false if the table is not
/// open. Every change of an open table's seats or status takes it first, so they are serialized
/// per table on both stores: PostgreSQL makes a second writer wait for the row (and then see
/// the first one's commit in the statements that follow), SQLite has one writer at a time.
/// Inserts a new open table with its seats, the host at `host_seat`, and its first lobby entry,
/// inside `tx`.
pub(super) async fn insert_table(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    new: &NewTable,
    host_seat: usize,
    now: i64,
) -> StoreResult<Vec<LogEntry>> {
    sqlx::query(
        "INSERT INTO game_tables (id, game, options, seat_count, visibility, party, invite_code,
            status, host_id, seed, seed_commitment, client_seed, dice_script, created_at, bot_level, quick, bots_at,
            long_clock, fresh_dice)
         VALUES ($1, $2, $3, $4, $5, $6, $7, 'open', $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18)",
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
    .bind(new.bot_level.as_str())
    .bind(new.quick.is_some() as i64)
    .bind(new.quick.and_then(|q| q.bots_after_seconds).map(|s| now + 1000 * s as i64))
    .bind(new.long_clock as i64)
    .bind(new.fresh_dice as i64)
    .execute(&mut **tx)
    .await?;
    for seat in 0..new.seat_count {
        let taken = seat == host_seat;
        sqlx::query(
            "INSERT INTO seats (table_id, seat, player_id, controller, joined_at, client_seed, dice_chain)
             VALUES ($1, $2, $3, 'human', $4, $5, $6)",
        )
        .bind(new.id.to_string())
        .bind(seat as i64)
        .bind(taken.then(|| new.host_id.to_string()))
        .bind(taken.then_some(now))
        .bind(if taken { new.host_client_seed.as_str() } else { "" })
        .bind(new.host_dice_chain.as_deref().filter(|_| taken))
        .execute(&mut **tx)
        .await?;
    }
    let name = player_name(tx, new.host_id).await?;
    let host = LobbyEntry::SeatTaken { seat: host_seat, player_id: new.host_id, name };
    append_lobby(tx, new.id, vec![host], now).await
}

/// Gives `player` the free human seat `seat` of `table_id` with its client seed, inside `tx`
/// (which holds the table's row lock); `false` if the seat is not free.
pub(super) async fn seat_player(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    table_id: Uuid,
    seat: usize,
    player: Uuid,
    client_seed: &str,
    dice_chain: Option<&str>,
    now: i64,
) -> StoreResult<bool> {
    let done = sqlx::query(
        "UPDATE seats SET player_id = $1, controller = 'human', joined_at = $2, client_seed = $5, dice_chain = $6
         WHERE table_id = $3 AND seat = $4 AND player_id IS NULL AND controller = 'human'",
    )
    .bind(player.to_string())
    .bind(now)
    .bind(table_id.to_string())
    .bind(seat as i64)
    .bind(client_seed)
    .bind(dice_chain)
    .execute(&mut **tx)
    .await?;
    Ok(done.rows_affected() == 1)
}

pub(super) async fn lock_open_table(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    table_id: Uuid,
) -> StoreResult<bool> {
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

const TABLE_COLUMNS: &str = "id, game, options, seat_count, visibility, party, long_clock, fresh_dice, bot_level, invite_code, status, host_id,
    seed, seed_commitment, client_seed, dice_script, outcome, turn_deadline, created_at, started_at, finished_at,
    rematch_id, bots_at";
