//! The hall of shame: reading it, newest first (entries are written with a game's finish, in
//! `log.rs`). It is public, so it lists public tables' entries only: a private table is
//! nobody's business but its players', here as everywhere.

use super::{KEYSET_AT, Numbered, ShameFilter, ShameRecord, Store, StoreResult};

impl Store {
    /// Entries newest first, after the `after` cursor.
    pub async fn shame(&self, filter: &ShameFilter) -> StoreResult<Vec<ShameRecord>> {
        let mut sql = Numbered::new(
            self.backend,
            "SELECT id, table_id, game, player_id, name, kind, pieces_home, at FROM shame
             WHERE EXISTS (SELECT 1 FROM game_tables t WHERE t.id = shame.table_id AND t.visibility = 'public')",
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
        let mut q = sqlx::query(sql.as_str());
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
