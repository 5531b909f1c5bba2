//! Players: sign-up (the player and its first bearer token, together) and finding a player by id.

use super::{Player, Store, StoreResult};
use crate::clock::now_millis;
use uuid::Uuid;

impl Store {
    /// A new player holding one token (labelled "sign-up") whose SHA-256 is `token_hash`,
    /// expiring at `expires_at` (Unix ms) if given.
    pub async fn create_player(
        &self,
        name: &str,
        token_hash: &str,
        expires_at: Option<i64>,
    ) -> StoreResult<Player> {
        let player = Player { id: Uuid::new_v4(), name: name.to_string(), created_at: now_millis() };
        let mut tx = self.writes.begin().await?;
        // `players.token_hash` is a leftover (migration 0004): a unique placeholder, never read.
        sqlx::query("INSERT INTO players (id, name, token_hash, created_at) VALUES ($1, $2, $3, $4)")
            .bind(player.id.to_string())
            .bind(&player.name)
            .bind(format!("moved:{}", player.id))
            .bind(player.created_at)
            .execute(&mut *tx)
            .await?;
        sqlx::query(
            "INSERT INTO tokens (id, player_id, hash, label, created_at, expires_at) \
             VALUES ($1, $2, $3, 'sign-up', $4, $5)",
        )
        .bind(Uuid::new_v4().to_string())
        .bind(player.id.to_string())
        .bind(token_hash)
        .bind(player.created_at)
        .bind(expires_at)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(player)
    }

    pub async fn player(&self, id: Uuid) -> StoreResult<Option<Player>> {
        let row = sqlx::query("SELECT id, name, created_at FROM players WHERE id = $1")
            .bind(id.to_string())
            .fetch_optional(&self.pool)
            .await?;
        row.map(|r| Player::from_row(&r)).transpose()
    }
}
