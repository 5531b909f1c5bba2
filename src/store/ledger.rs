//! The luck and fairness ledger's rows (docs/luck.md, migration `0014_ledger.sql`): each
//! finished table's dice per seat, summed per player and game and per game site-wide.
//!
//! A finished table is counted once, after its finish, by [`Store::ledger_catch_up`] (the ledger
//! worker in `lib.rs` calls it; so can anyone): its log is read a page at a time, backgammon's
//! luck is computed off the async threads, and then one transaction claims the table
//! (`game_tables.ledgered` from 0 to 1: the marker, on the table's own row, so two processes
//! never both count it) and writes its seat rows and adds to the sums. Requests read the sums
//! only. The finish itself pays nothing: rating the rolls of a backgammon game costs thousands
//! of network evaluations (BENCHMARKS.md, "Ledger cost per finished table").

use super::{Store, StoreResult, parse_uuid};
use crate::{
    games::GameKind,
    ledger::{DiceCounts, luck::GameLuck, seat_dice},
};
use sqlx::Row;
use uuid::Uuid;

/// Log entries read at a time while counting a table.
const PAGE: i64 = 256;

/// A table's counted dice, per seat.
#[derive(Debug, Clone, PartialEq)]
pub struct TableLedger {
    pub table_id: Uuid,
    pub game: GameKind,
    pub public: bool,
    pub finished_at: i64,
    /// Per seat: the player holding it at the finish, its dice, its luck (backgammon).
    pub seats: Vec<SeatLedger>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct SeatLedger {
    pub player_id: Option<Uuid>,
    pub dice: DiceCounts,
    /// Summed luck and the rolls summed (backgammon; `None` for other games).
    pub luck: Option<(f64, u64)>,
}

/// Sums for one game: a player's or the site's.
#[derive(Debug, Clone, PartialEq)]
pub struct LedgerSums {
    pub game: GameKind,
    pub tables: i64,
    pub dice: DiceCounts,
    pub luck: f64,
    pub luck_rolls: i64,
}

/// One seat's row, for a player's list of tables.
#[derive(Debug, Clone, PartialEq)]
pub struct LedgerSeatRow {
    pub table_id: Uuid,
    pub game: GameKind,
    pub seat: usize,
    pub finished_at: i64,
    pub dice: DiceCounts,
    pub luck: Option<f64>,
}

const FACES: &str = "f1, f2, f3, f4, f5, f6, throws, pairs, doubles";

fn counts(r: &sqlx::any::AnyRow) -> StoreResult<DiceCounts> {
    let mut faces = [0u64; 6];
    for (i, f) in faces.iter_mut().enumerate() {
        *f = r.try_get::<i64, _>(format!("f{}", i + 1).as_str())? as u64;
    }
    Ok(DiceCounts {
        faces,
        throws: r.try_get::<i64, _>("throws")? as u64,
        pairs: r.try_get::<i64, _>("pairs")? as u64,
        doubles: r.try_get::<i64, _>("doubles")? as u64,
    })
}

fn game(r: &sqlx::any::AnyRow) -> StoreResult<Option<GameKind>> {
    Ok(GameKind::parse(&r.try_get::<String, _>("game")?))
}

/// Tables the worker counts per transaction round.
const BATCH: i64 = 16;

impl Store {
    /// The ledger worker: every second, counts the finished tables not yet in the ledger (a
    /// batch at a time, until none is left), until `stopped`. Any number of processes may run
    /// it: each table is claimed by one.
    pub async fn keep_ledger(self, stopped: impl Future<Output = ()>) {
        super::every_second_until_caught_up(
            stopped,
            BATCH,
            "the ledger could not count finished tables",
            |limit| self.ledger_catch_up(limit),
        )
        .await
    }

    /// Counts up to `limit` finished tables not yet in the ledger, oldest finish first, and
    /// returns how many this call counted (a table another process counted first is skipped).
    pub async fn ledger_catch_up(&self, limit: i64) -> StoreResult<usize> {
        let rows = sqlx::query(
            "SELECT id FROM game_tables WHERE status = 'finished' AND ledgered = 0 ORDER BY finished_at LIMIT $1",
        )
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        let mut counted = 0;
        for r in rows {
            let id = parse_uuid(&r.try_get::<String, _>("id")?)?;
            match self.count_table(id).await {
                Ok(Some(ledger)) => counted += self.write_ledger(&ledger).await? as usize,
                // A table the ledger cannot read (a game this build does not know, a log it
                // cannot parse) is set aside (`ledgered = 2`), so it does not hold up the rest.
                Ok(None) | Err(super::StoreError::Corrupt(_)) => {
                    tracing::warn!(table = %id, "the ledger cannot count this finished table: set aside");
                    sqlx::query("UPDATE game_tables SET ledgered = 2 WHERE id = $1 AND ledgered = 0")
                        .bind(id.to_string())
                        .execute(&self.writes)
                        .await?;
                }
                Err(e) => return Err(e),
            }
        }
        Ok(counted)
    }

    /// Reads a finished table's log and counts its dice (and luck); `None` if the table is not
    /// finished or its game is unknown.
    pub async fn count_table(&self, id: Uuid) -> StoreResult<Option<TableLedger>> {
        let Some(table) = self.table(id).await? else { return Ok(None) };
        let Some(finished_at) = table.finished_at else { return Ok(None) };
        let holders = sqlx::query("SELECT seat, player_id FROM seats WHERE table_id = $1 ORDER BY seat")
            .bind(id.to_string())
            .fetch_all(&self.pool)
            .await?;
        let mut players = vec![None; table.seat_count];
        for h in holders {
            let seat = h.try_get::<i64, _>("seat")? as usize;
            if let (Some(slot), Some(p)) =
                (players.get_mut(seat), h.try_get::<Option<String>, _>("player_id")?)
            {
                *slot = Some(parse_uuid(&p)?);
            }
        }
        let backgammon = table.game == GameKind::Backgammon;
        let mut dice = vec![DiceCounts::default(); table.seat_count];
        let mut luck = GameLuck::default();
        let mut after = 0;
        loop {
            let page = self.entries_page(id, after, i64::MAX, PAGE).await?;
            let Some(last) = page.last() else { break };
            after = last.seq;
            let seat_counts =
                seat_dice(table.seat_count, page.iter().map(|e| (e.seat, &e.events.events[..])));
            for (d, s) in dice.iter_mut().zip(&seat_counts) {
                d.add(s);
            }
            if backgammon {
                // Network evaluations: off the async threads.
                luck = tokio::task::spawn_blocking(move || {
                    let net = crate::bots::backgammon::network();
                    for e in &page {
                        luck.feed(net, &e.events.events);
                    }
                    luck
                })
                .await
                .map_err(|e| super::StoreError::Corrupt(format!("ledger: {e}")))?;
            }
        }
        let seats = players
            .into_iter()
            .zip(dice)
            .enumerate()
            .map(|(i, (player_id, dice))| SeatLedger {
                player_id,
                dice,
                luck: backgammon.then(|| luck.seats.get(i).copied().unwrap_or((0.0, 0))),
            })
            .collect();
        Ok(Some(TableLedger {
            table_id: id,
            game: table.game,
            public: table.visibility == super::Visibility::Public,
            finished_at,
            seats,
        }))
    }

    /// Claims the table for the ledger and writes its rows and sums in one transaction; false if
    /// it was counted already.
    pub async fn write_ledger(&self, t: &TableLedger) -> StoreResult<bool> {
        let mut tx = self.writes.begin().await?;
        let claimed = sqlx::query("UPDATE game_tables SET ledgered = 1 WHERE id = $1 AND ledgered = 0")
            .bind(t.table_id.to_string())
            .execute(&mut *tx)
            .await?
            .rows_affected();
        if claimed == 0 {
            tx.rollback().await?;
            return Ok(false);
        }
        let game = t.game.as_str();
        let mut site = DiceCounts::default();
        let (mut site_luck, mut site_rolls) = (0.0, 0i64);
        for (seat, s) in t.seats.iter().enumerate() {
            let d = &s.dice;
            let (luck, rolls) = s.luck.unwrap_or((0.0, 0));
            sqlx::query(
                "INSERT INTO ledger_seats (table_id, seat, player_id, game, public, f1, f2, f3, f4, f5, f6,
                   throws, pairs, doubles, luck, luck_rolls, finished_at)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)",
            )
            .bind(t.table_id.to_string())
            .bind(seat as i64)
            .bind(s.player_id.map(|p| p.to_string()))
            .bind(game)
            .bind(t.public as i64)
            .bind(d.faces[0] as i64)
            .bind(d.faces[1] as i64)
            .bind(d.faces[2] as i64)
            .bind(d.faces[3] as i64)
            .bind(d.faces[4] as i64)
            .bind(d.faces[5] as i64)
            .bind(d.throws as i64)
            .bind(d.pairs as i64)
            .bind(d.doubles as i64)
            .bind(s.luck.map(|l| l.0))
            .bind(rolls as i64)
            .bind(t.finished_at)
            .execute(&mut *tx)
            .await?;
            site.add(d);
            site_luck += luck;
            site_rolls += rolls as i64;
            let Some(player) = s.player_id else { continue };
            let scopes: &[&str] = if t.public { &["all", "public"] } else { &["all"] };
            for scope in scopes {
                sqlx::query(
                    "INSERT INTO ledger_players (player_id, game, scope, tables, f1, f2, f3, f4, f5, f6,
                       throws, pairs, doubles, luck, luck_rolls)
                     VALUES ($1, $2, $3, 1, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
                     ON CONFLICT (player_id, game, scope) DO UPDATE SET tables = ledger_players.tables + 1,
                       f1 = ledger_players.f1 + excluded.f1, f2 = ledger_players.f2 + excluded.f2,
                       f3 = ledger_players.f3 + excluded.f3, f4 = ledger_players.f4 + excluded.f4,
                       f5 = ledger_players.f5 + excluded.f5, f6 = ledger_players.f6 + excluded.f6,
                       throws = ledger_players.throws + excluded.throws,
                       pairs = ledger_players.pairs + excluded.pairs,
                       doubles = ledger_players.doubles + excluded.doubles,
                       luck = ledger_players.luck + excluded.luck,
                       luck_rolls = ledger_players.luck_rolls + excluded.luck_rolls",
                )
                .bind(player.to_string())
                .bind(game)
                .bind(*scope)
                .bind(d.faces[0] as i64)
                .bind(d.faces[1] as i64)
                .bind(d.faces[2] as i64)
                .bind(d.faces[3] as i64)
                .bind(d.faces[4] as i64)
                .bind(d.faces[5] as i64)
                .bind(d.throws as i64)
                .bind(d.pairs as i64)
                .bind(d.doubles as i64)
                .bind(luck)
                .bind(rolls as i64)
                .execute(&mut *tx)
                .await?;
            }
        }
        sqlx::query(
            "INSERT INTO ledger_games (game, tables, f1, f2, f3, f4, f5, f6, throws, pairs, doubles, luck, luck_rolls)
             VALUES ($1, 1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
             ON CONFLICT (game) DO UPDATE SET tables = ledger_games.tables + 1,
               f1 = ledger_games.f1 + excluded.f1, f2 = ledger_games.f2 + excluded.f2,
               f3 = ledger_games.f3 + excluded.f3, f4 = ledger_games.f4 + excluded.f4,
               f5 = ledger_games.f5 + excluded.f5, f6 = ledger_games.f6 + excluded.f6,
               throws = ledger_games.throws + excluded.throws,
               pairs = ledger_games.pairs + excluded.pairs,
               doubles = ledger_games.doubles + excluded.doubles,
               luck = ledger_games.luck + excluded.luck,
               luck_rolls = ledger_games.luck_rolls + excluded.luck_rolls",
        )
        .bind(game)
        .bind(site.faces[0] as i64)
        .bind(site.faces[1] as i64)
        .bind(site.faces[2] as i64)
        .bind(site.faces[3] as i64)
        .bind(site.faces[4] as i64)
        .bind(site.faces[5] as i64)
        .bind(site.throws as i64)
        .bind(site.pairs as i64)
        .bind(site.doubles as i64)
        .bind(site_luck)
        .bind(site_rolls)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(true)
    }

    /// A player's sums per game: every table if `with_private`, else the public ones.
    pub async fn player_ledger(&self, player: Uuid, with_private: bool) -> StoreResult<Vec<LedgerSums>> {
        let rows = sqlx::query(&format!(
            "SELECT game, tables, {FACES}, luck, luck_rolls FROM ledger_players
             WHERE player_id = $1 AND scope = $2 ORDER BY game"
        ))
        .bind(player.to_string())
        .bind(if with_private { "all" } else { "public" })
        .fetch_all(&self.pool)
        .await?;
        sums(rows)
    }

    /// The site's sums per game.
    pub async fn site_ledger(&self) -> StoreResult<Vec<LedgerSums>> {
        let rows = sqlx::query(&format!(
            "SELECT game, tables, {FACES}, luck, luck_rolls FROM ledger_games ORDER BY game"
        ))
        .fetch_all(&self.pool)
        .await?;
        sums(rows)
    }

    /// A player's counted seats, newest finish first, at most `limit` (public tables only unless
    /// `with_private`).
    pub async fn player_ledger_seats(
        &self,
        player: Uuid,
        with_private: bool,
        limit: i64,
    ) -> StoreResult<Vec<LedgerSeatRow>> {
        let rows = sqlx::query(&format!(
            "SELECT table_id, game, seat, finished_at, {FACES}, luck FROM ledger_seats
             WHERE player_id = $1 AND ($2 = 1 OR public = 1) ORDER BY finished_at DESC, table_id DESC LIMIT $3"
        ))
        .bind(player.to_string())
        .bind(with_private as i64)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        let mut out = vec![];
        for r in rows {
            let Some(game) = game(&r)? else { continue };
            out.push(LedgerSeatRow {
                table_id: parse_uuid(&r.try_get::<String, _>("table_id")?)?,
                game,
                seat: r.try_get::<i64, _>("seat")? as usize,
                finished_at: r.try_get("finished_at")?,
                dice: counts(&r)?,
                luck: r.try_get("luck")?,
            });
        }
        Ok(out)
    }

    /// The finished tables player `player` sat at, after `(finished_at, table_id)` in the order
    /// of their finish, at most `limit`: (table, seat, finished_at), for the dice download.
    pub async fn player_finished_seats(
        &self,
        player: Uuid,
        after: Option<(i64, Uuid)>,
        limit: i64,
    ) -> StoreResult<Vec<(Uuid, usize, i64)>> {
        let (at, id) = after.map_or((i64::MIN, String::new()), |(at, id)| (at, id.to_string()));
        let rows = sqlx::query(
            "SELECT t.id, s.seat, t.finished_at FROM seats s JOIN game_tables t ON t.id = s.table_id
             WHERE s.player_id = $1 AND t.status = 'finished'
               AND (t.finished_at > $2 OR (t.finished_at = $2 AND t.id > $3))
             ORDER BY t.finished_at, t.id LIMIT $4",
        )
        .bind(player.to_string())
        .bind(at)
        .bind(id)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok((
                    parse_uuid(&r.try_get::<String, _>("id")?)?,
                    r.try_get::<i64, _>("seat")? as usize,
                    r.try_get::<i64, _>("finished_at")?,
                ))
            })
            .collect()
    }
}

impl Store {
    /// A page of a table's log for the dice download: each entry's `seq`, `seat` and its
    /// `events` column as stored (an object: `events`, and `reveal` where the entry has one).
    pub async fn raw_entries_page(
        &self,
        table_id: Uuid,
        after: i64,
        limit: i64,
    ) -> StoreResult<Vec<(i64, Option<usize>, serde_json::Value)>> {
        let rows = sqlx::query(
            "SELECT seq, seat, events FROM actions WHERE table_id = $1 AND seq > $2 ORDER BY seq LIMIT $3",
        )
        .bind(table_id.to_string())
        .bind(after)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                let events: String = r.try_get("events")?;
                Ok((
                    r.try_get("seq")?,
                    r.try_get::<Option<i64>, _>("seat")?.map(|s| s as usize),
                    serde_json::from_str(&events)
                        .map_err(|e| super::StoreError::Corrupt(format!("events: {e}")))?,
                ))
            })
            .collect()
    }
}

fn sums(rows: Vec<sqlx::any::AnyRow>) -> StoreResult<Vec<LedgerSums>> {
    let mut out = vec![];
    for r in rows {
        let Some(game) = game(&r)? else { continue };
        out.push(LedgerSums {
            game,
            tables: r.try_get("tables")?,
            dice: counts(&r)?,
            luck: r.try_get("luck")?,
            luck_rolls: r.try_get("luck_rolls")?,
        });
    }
    Ok(out)
}
