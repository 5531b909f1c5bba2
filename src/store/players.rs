//! Players: sign-up and finding a player by id or by the hash of its bearer token.

use super::{Player, Store, StoreResult};
use crate::clock::now_millis;
use sqlx::Row;
use uuid::Uuid;

impl Store {
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
}
