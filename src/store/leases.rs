//! Ownership of tables in play when several processes share one database: each process's lease,
//! and taking a table (a new epoch, which fences off the appends of its previous owner).

use super::{Store, StoreResult, TableInPlay, parse_uuid};
use sqlx::Row;
use uuid::Uuid;

impl Store {
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
}

/// A table nobody else holds: no owner, this instance (parameter `instance`), or an owner whose
/// lease ended before now (parameter `now`).
fn claimable(instance: usize, now: usize) -> String {
    format!(
        "(owner IS NULL OR owner = ${instance} OR NOT EXISTS (
         SELECT 1 FROM instances WHERE instances.id = game_tables.owner AND instances.lease_until >= ${now}))"
    )
}
