//! What a player's profile and game history show: ratings per game, games played and won, the
//! hall of shame's count, and finished tables newest first.

use super::{Player, StoreResult, parse_uuid};
use crate::games::GameKind;
use uuid::Uuid;

/// A player's rating in one game.
#[derive(Debug, Clone)]
pub struct GameRating {
    pub game: GameKind,
    pub rating: f64,
    pub deviation: f64,
    pub games: i64,
    pub wins: i64,
    /// Off the leaderboard yet ([`super::ratings::provisional`]).
    pub provisional: bool,
}

/// A player's profile.
#[derive(Debug, Clone)]
pub struct Profile {
    pub player: Player,
    pub ratings: Vec<GameRating>,
    /// Finished tables the player held a seat at (of those the viewer may see).
    pub played: i64,
    /// Of those, the ones the player's seat won (first place).
    pub won: i64,
    /// Hall-of-shame entries naming the player (of those the viewer may see).
    pub shame: i64,
}

/// One finished table in a player's history.
#[derive(Debug, Clone)]
pub struct PlayedTable {
    pub table_id: Uuid,
    pub game: GameKind,
    pub seat_count: usize,
    pub finished_at: i64,
    pub seat: usize,
    /// The seat's place (1 won); `None` for tables finished before places were kept.
    pub place: Option<i64>,
    /// The player's rating before and after, if the table was rated.
    pub rating: Option<(f64, f64)>,
}

impl super::Store {
    /// The profile of player `id`, if there is one; its counts take in private tables only if
    /// `with_private` (the player's own view), as [`history`](Self::history) lists them.
    pub async fn profile(&self, id: Uuid, with_private: bool) -> StoreResult<Option<Profile>> {
        let Some(player) = self.player(id).await? else { return Ok(None) };
        let key = id.to_string();
        let rows: Vec<(String, f64, f64, i64, i64, i64)> = sqlx::query_as(
            "SELECT game, rating, deviation, games, wins, opponents FROM ratings WHERE player_id = $1 ORDER BY game",
        )
        .bind(&key)
        .fetch_all(&self.pool)
        .await?;
        let ratings = rows
            .into_iter()
            .filter_map(|(game, rating, deviation, games, wins, opponents)| {
                let provisional = super::ratings::provisional(deviation, opponents);
                Some(GameRating {
                    game: GameKind::parse(&game)?,
                    rating,
                    deviation,
                    games,
                    wins,
                    provisional,
                })
            })
            .collect();
        let (played, won): (i64, i64) = sqlx::query_as(
            "SELECT COUNT(*), COALESCE(SUM(CASE WHEN s.place = 1 THEN 1 ELSE 0 END), 0)
             FROM seats s JOIN game_tables t ON t.id = s.table_id
             WHERE s.player_id = $1 AND t.status = 'finished' AND ($2 = 1 OR t.visibility = 'public')",
        )
        .bind(&key)
        .bind(with_private as i64)
        .fetch_one(&self.pool)
        .await?;
        let shame: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM shame s JOIN game_tables t ON t.id = s.table_id
             WHERE s.player_id = $1 AND ($2 = 1 OR t.visibility = 'public')",
        )
        .bind(&key)
        .bind(with_private as i64)
        .fetch_one(&self.pool)
        .await?;
        Ok(Some(Profile { player, ratings, played, won, shame }))
    }

    /// Player `id`'s finished tables, newest first, after the position `after` (minus the
    /// finish time, then the table id), at most `limit`; private tables only if
    /// `with_private`.
    pub async fn history(
        &self,
        id: Uuid,
        with_private: bool,
        after: Option<(i64, Uuid)>,
        limit: usize,
    ) -> StoreResult<Vec<PlayedTable>> {
        let (key, table) = after.unwrap_or((i64::MIN, Uuid::nil()));
        #[allow(clippy::type_complexity)]
        let rows: Vec<(String, String, i64, i64, i64, Option<i64>, Option<f64>, Option<f64>)> = sqlx::query_as(
            "SELECT t.id, t.game, t.seat_count, t.finished_at, s.seat, s.place, rc.rating_before, rc.rating_after
             FROM seats s JOIN game_tables t ON t.id = s.table_id
             LEFT JOIN rating_changes rc ON rc.table_id = t.id AND rc.player_id = s.player_id
             WHERE s.player_id = $1 AND t.status = 'finished' AND ($2 = 1 OR t.visibility = 'public')
             AND (-t.finished_at > $3 OR (-t.finished_at = $3 AND t.id > $4))
             ORDER BY t.finished_at DESC, t.id LIMIT $5",
        )
        .bind(id.to_string())
        .bind(with_private as i64)
        .bind(key)
        .bind(if after.is_some() { table.to_string() } else { String::new() })
        .bind(limit as i64)
        .fetch_all(&self.pool)
        .await?;
        rows.into_iter()
            .map(|(table, game, seats, finished_at, seat, place, before, after)| {
                Ok(PlayedTable {
                    table_id: parse_uuid(&table)?,
                    game: GameKind::parse(&game)
                        .ok_or_else(|| super::StoreError::Corrupt(format!("game_tables.game {game:?}")))?,
                    seat_count: seats as usize,
                    finished_at,
                    seat: seat as usize,
                    place,
                    rating: before.zip(after),
                })
            })
            .collect()
    }
}
