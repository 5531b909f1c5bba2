//! Quick play: a seat at the oldest waiting quick-play table that fits, or a new one.
//!
//! One decision per kind of table at a time, so that concurrent requests never open two
//! half-full tables that could have been one: on PostgreSQL the transaction takes an advisory
//! lock on the kind (game, seats, options, party clock, wait for bots) first, which serializes requests across
//! every process on the database; on SQLite every writing transaction already runs alone, on the
//! one write connection. A seat is taken by the same conditional `UPDATE` as a join, so two
//! players never get one seat.

use super::lobby::append_lobby;
use super::tables::{has_room_to_wait, insert_table, lock_open_table, player_name, seat_player};
use super::{
    LobbyEntry, LogEntry, NewTable, QuickPlay, Store, StoreError, StoreResult, lock_name, parse_uuid,
};
use crate::{clock::now_millis, games::GameKind};
use uuid::Uuid;

/// The kind of table a quick-play request asks for: a table fits when all of these match.
#[derive(Debug, Clone)]
pub struct QuickKind {
    pub game: GameKind,
    pub seat_count: usize,
    /// The normalized options, as stored.
    pub options: serde_json::Value,
    pub party: bool,
    /// How long after its opening bots fill the table; `None`: it waits for players. Exact:
    /// a player who asked for no bots never gets them, and one who asked for a wait gets that
    /// wait, not another player's.
    pub bots_after_seconds: Option<u64>,
}

impl QuickKind {
    /// The name of this kind's lock.
    fn lock_name(&self) -> String {
        format!(
            "{}\n{}\n{}\n{}\n{:?}",
            self.game.as_str(),
            self.seat_count,
            self.options,
            self.party,
            self.bots_after_seconds
        )
    }

    /// What a table of this kind is opened with.
    pub fn quick_play(&self) -> QuickPlay {
        QuickPlay { bots_after_seconds: self.bots_after_seconds }
    }

    /// The wait as [`FITS`] compares it: milliseconds, -1 for none.
    fn wait_millis(&self) -> i64 {
        self.bots_after_seconds.map_or(-1, |s| 1000 * s as i64)
    }
}

/// The conditions of a table that fits a request (`$1`–`$5`: game, seat count, options, party,
/// wait in milliseconds or -1). A table's wait is `bots_at - created_at`: both are written from
/// one clock reading when it opens.
const FITS: &str = "t.status = 'open' AND t.quick = 1 AND t.visibility = 'public' AND t.game = $1
    AND t.seat_count = $2 AND t.options = $3 AND t.party = $4
    AND COALESCE(t.bots_at - t.created_at, -1) = $5";

/// A player seated at table `t` with a block between them and the player `$6`, either way:
/// quick play never seats the two at one table (docs/social.md).
const BLOCKED_AT: &str = "(SELECT 1 FROM seats b_s JOIN blocks b
    ON (b.player_id = b_s.player_id AND b.blocked_id = $6) OR (b.blocked_id = b_s.player_id AND b.player_id = $6)
    WHERE b_s.table_id = t.id)";

/// Where quick play seated a player.
#[derive(Debug)]
pub struct QuickSeat {
    pub table_id: Uuid,
    pub seat: usize,
    /// A new table was opened (`new` in the request): the player hosts it.
    pub opened: bool,
    /// The player already held this seat (a repeated request): nothing was written.
    pub already: bool,
    /// No empty seat is left: the table should start now.
    pub full: bool,
    /// Lobby entries written, to tell the table's followers.
    pub entries: Vec<LogEntry>,
}

impl Store {
    /// Seats `player` at the oldest open quick-play table of `kind` with a free seat (or where it
    /// already sits), or opens `new` (a quick-play table of `kind`, hosted by `player`); a new
    /// seat only while the player holds fewer than `max_waiting` at open tables.
    pub async fn quick_play(
        &self,
        kind: &QuickKind,
        player: Uuid,
        client_seed: &str,
        dice_chain: Option<&str>,
        new: &NewTable,
        max_waiting: usize,
    ) -> StoreResult<QuickSeat> {
        let now = now_millis();
        let mut tx = self.writes.begin().await?;
        lock_name(&mut tx, self.backend, &kind.lock_name()).await?;
        // A table of this kind where the player already waits: the same seat again.
        let waiting: Option<(String, i64)> = sqlx::query_as(&format!(
            "SELECT t.id, s.seat FROM game_tables t JOIN seats s ON s.table_id = t.id AND s.player_id = $6
             WHERE {FITS} LIMIT 1"
        ))
        .bind(kind.game.as_str())
        .bind(kind.seat_count as i64)
        .bind(kind.options.to_string())
        .bind(kind.party as i64)
        .bind(kind.wait_millis())
        .bind(player.to_string())
        .fetch_optional(&mut *tx)
        .await?;
        if let Some((id, seat)) = waiting {
            tx.rollback().await?;
            return Ok(QuickSeat {
                table_id: parse_uuid(&id)?,
                seat: seat as usize,
                opened: false,
                already: true,
                full: false,
                entries: vec![],
            });
        }
        if !has_room_to_wait(&mut tx, self.backend, player, max_waiting).await? {
            tx.rollback().await?;
            return Err(StoreError::TooManyWaitingSeats(max_waiting));
        }
        // The oldest fitting table with a free seat. On PostgreSQL a host's start, the upkeep's
        // or a join by hand (none of which takes the kind's lock) may get to it between this
        // look and its row lock: then look again.
        let (table_id, free) = loop {
            let oldest: Option<String> = sqlx::query_scalar(&format!(
                "SELECT t.id FROM game_tables t WHERE {FITS} AND EXISTS
                 (SELECT 1 FROM seats s WHERE s.table_id = t.id AND s.player_id IS NULL AND s.controller = 'human')
                 AND NOT EXISTS {BLOCKED_AT}
                 ORDER BY t.created_at, t.id LIMIT 1"
            ))
            .bind(kind.game.as_str())
            .bind(kind.seat_count as i64)
            .bind(kind.options.to_string())
            .bind(kind.party as i64)
            .bind(kind.wait_millis())
            .bind(player.to_string())
            .fetch_optional(&mut *tx)
            .await?;
            let Some(id) = oldest else {
                let entries = insert_table(&mut tx, new, 0, now).await?;
                tx.commit().await?;
                let full = new.seat_count == 1;
                return Ok(QuickSeat {
                    table_id: new.id,
                    seat: 0,
                    opened: true,
                    already: false,
                    full,
                    entries,
                });
            };
            let table_id = parse_uuid(&id)?;
            // The table's row lock, as every change of an open table's seats takes.
            if !lock_open_table(&mut tx, table_id).await? {
                continue;
            }
            let free: Option<i64> = sqlx::query_scalar(
                "SELECT MIN(seat) FROM seats WHERE table_id = $1 AND player_id IS NULL AND controller = 'human'",
            )
            .bind(&id)
            .fetch_one(&mut *tx)
            .await?;
            if let Some(free) = free {
                break (table_id, free);
            }
        };
        if !seat_player(&mut tx, table_id, free as usize, player, client_seed, dice_chain, now).await? {
            // Under the table's row lock the seat found free stays free.
            return Err(StoreError::Corrupt("the free seat found under the lock was taken".into()));
        }
        let name = player_name(&mut tx, player).await?;
        let seat = free as usize;
        let entries = append_lobby(
            &mut tx,
            table_id,
            vec![LobbyEntry::SeatTaken { seat, player_id: player, name }],
            now,
        )
        .await?;
        let left: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM seats WHERE table_id = $1 AND player_id IS NULL AND controller = 'human'",
        )
        .bind(table_id.to_string())
        .fetch_one(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(QuickSeat { table_id, seat, opened: false, already: false, full: left == 0, entries })
    }

    /// Open quick-play tables due to start, with their hosts, at most `limit`: those whose wait
    /// for players is over (`bots_at` passed), and those full but not started (the process
    /// that filled one stopped before starting it).
    pub async fn quick_tables_due(&self, now: i64, limit: i64) -> StoreResult<Vec<(Uuid, Uuid)>> {
        let rows: Vec<(String, String)> = sqlx::query_as(
            "SELECT t.id, t.host_id FROM game_tables t
             WHERE t.status = 'open' AND t.quick = 1
             AND ((t.bots_at IS NOT NULL AND t.bots_at <= $1)
                  OR NOT EXISTS (SELECT 1 FROM seats s WHERE s.table_id = t.id AND s.player_id IS NULL))
             ORDER BY t.created_at LIMIT $2",
        )
        .bind(now)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(|(id, host)| Ok((parse_uuid(id)?, parse_uuid(host)?))).collect()
    }
}
