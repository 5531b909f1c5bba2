//! Rematches: after a finish, each seated player may ask for one; when every one of them has,
//! a new table with the same seats and settings opens (the bots' seats empty, for bots again at
//! its start). Votes and the new table are written under the finished table's row lock, so two
//! last votes at once open one table, not two. The new table is one more of its host's, so the
//! last vote is refused while the host hosts as many unfinished tables as allowed.

use super::lobby::append_lobby;
use super::tables::{insert_table, player_name, seat_player, tables_hosted};
use super::{LobbyEntry, LogEntry, NewTable, Store, StoreError, StoreResult, parse_uuid};
use crate::clock::now_millis;
use uuid::Uuid;

/// Where a rematch stands after a vote.
#[derive(Debug)]
pub enum RematchVote {
    /// The table is not finished (or does not exist).
    NotFinished,
    /// The voter holds no seat at the table.
    NotSeated,
    /// This was the last vote wanted, but the host already hosts the most unfinished tables
    /// allowed: nothing was written (the vote is not counted).
    HostHasNoRoom,
    /// Waiting for the others: the seats whose players asked for it so far, and those still
    /// to ask.
    Waiting { accepted: Vec<usize>, waiting_for: Vec<usize> },
    /// The rematch table: opened by this vote (with its lobby entries, to tell), or earlier.
    Opened { table_id: Uuid, by_this_vote: bool, entries: Vec<LogEntry> },
}

impl Store {
    /// The players who asked for a rematch of `table_id` so far.
    pub async fn rematch_voters(&self, table_id: Uuid) -> StoreResult<Vec<Uuid>> {
        let voters: Vec<String> =
            sqlx::query_scalar("SELECT player_id FROM rematch_votes WHERE table_id = $1")
                .bind(table_id.to_string())
                .fetch_all(&self.pool)
                .await?;
        voters.iter().map(|v| parse_uuid(v)).collect()
    }

    /// Records that `player` wants a rematch of the finished table `table_id`; opens `new`
    /// (the same game, seats and settings, hosted by the finished table's host at its seat)
    /// with every seated player at their seat when this was the last vote wanted, if its host
    /// hosts fewer than `max_hosted` unfinished tables.
    pub async fn vote_rematch(
        &self,
        table_id: Uuid,
        player: Uuid,
        dice_chain: Option<&str>,
        new: &NewTable,
        max_hosted: i64,
    ) -> StoreResult<RematchVote> {
        let now = now_millis();
        let id = table_id.to_string();
        let mut tx = self.writes.begin().await?;
        let locked =
            sqlx::query("UPDATE game_tables SET status = status WHERE id = $1 AND status = 'finished'")
                .bind(&id)
                .execute(&mut *tx)
                .await?;
        if locked.rows_affected() != 1 {
            tx.rollback().await?;
            return Ok(RematchVote::NotFinished);
        }
        let seated: Vec<(i64, String)> = sqlx::query_as(
            "SELECT seat, player_id FROM seats WHERE table_id = $1 AND player_id IS NOT NULL ORDER BY seat",
        )
        .bind(&id)
        .fetch_all(&mut *tx)
        .await?;
        if !seated.iter().any(|(_, p)| *p == player.to_string()) {
            tx.rollback().await?;
            return Ok(RematchVote::NotSeated);
        }
        let existing: Option<String> = sqlx::query_scalar("SELECT rematch_id FROM game_tables WHERE id = $1")
            .bind(&id)
            .fetch_one(&mut *tx)
            .await?;
        if let Some(existing) = existing {
            tx.rollback().await?;
            return Ok(RematchVote::Opened {
                table_id: parse_uuid(&existing)?,
                by_this_vote: false,
                entries: vec![],
            });
        }
        sqlx::query(
            "INSERT INTO rematch_votes (table_id, player_id, at, dice_chain) VALUES ($1, $2, $3, $4)
             ON CONFLICT (table_id, player_id) DO UPDATE SET dice_chain = excluded.dice_chain",
        )
        .bind(&id)
        .bind(player.to_string())
        .bind(now)
        .bind(dice_chain)
        .execute(&mut *tx)
        .await?;
        let votes: Vec<(String, Option<String>)> =
            sqlx::query_as("SELECT player_id, dice_chain FROM rematch_votes WHERE table_id = $1")
                .bind(&id)
                .fetch_all(&mut *tx)
                .await?;
        let voters: Vec<String> = votes.iter().map(|(p, _)| p.clone()).collect();
        // Fresh dice: each seat of the new table gets the chain its player voted with.
        let chain_of = |p: &str| votes.iter().find(|(v, _)| v == p).and_then(|(_, c)| c.clone());
        let (accepted, waiting_for): (Vec<_>, Vec<_>) = seated.iter().partition(|(_, p)| voters.contains(p));
        if !waiting_for.is_empty() {
            tx.commit().await?;
            let seats = |v: Vec<&(i64, String)>| v.into_iter().map(|(s, _)| *s as usize).collect();
            return Ok(RematchVote::Waiting { accepted: seats(accepted), waiting_for: seats(waiting_for) });
        }
        if tables_hosted(&mut tx, new.host_id).await? >= max_hosted {
            tx.rollback().await?;
            return Ok(RematchVote::HostHasNoRoom);
        }
        // Everyone asked: the new table, the host at its old seat, then the others at theirs.
        let host_seat =
            seated.iter().find(|(_, p)| *p == new.host_id.to_string()).map_or(0, |(s, _)| *s as usize);
        let new = &NewTable { host_dice_chain: chain_of(&new.host_id.to_string()), ..new.clone() };
        let mut entries = insert_table(&mut tx, new, host_seat, now).await?;
        let mut taken = vec![];
        for (seat, p) in seated.iter().filter(|(s, _)| *s as usize != host_seat) {
            let (seat, other) = (*seat as usize, parse_uuid(p)?);
            if !seat_player(&mut tx, new.id, seat, other, "", chain_of(p).as_deref(), now).await? {
                return Err(StoreError::Corrupt("a seat of the new rematch table was not empty".into()));
            }
            let name = player_name(&mut tx, other).await?;
            taken.push(LobbyEntry::SeatTaken { seat, player_id: other, name });
        }
        entries.extend(append_lobby(&mut tx, new.id, taken, now).await?);
        sqlx::query("UPDATE game_tables SET rematch_id = $1 WHERE id = $2")
            .bind(new.id.to_string())
            .bind(&id)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(RematchVote::Opened { table_id: new.id, by_this_vote: true, entries })
    }
}
