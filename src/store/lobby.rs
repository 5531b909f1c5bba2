//! The lobby's log entries: what happens to an open table before its start (seats taken and
//! left, bots seated, settings changed, the table closed), written to the table's log like the
//! entries of play (`actor: "server"`), with the next `seq`s, inside the transaction that makes
//! the change and under the table's row lock — so what is in the log happened, the `seq`s have
//! no gap, and the actor carries on from the last of them at the start.
//!
//! Replay reads them as the table's own entries (`table::TableEntry::Lobby`) and skips them:
//! what they say of the seats is in the `seats` rows the game is started from.

use super::{EntryEvents, LogEntry, PlayedBy, StoreResult, Visibility};
use crate::bots::Level;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use uuid::Uuid;

/// One lobby change of an open table, tagged by `type`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum LobbyEntry {
    /// A player sat down: the host when the table was created, anyone else on joining.
    SeatTaken { seat: usize, player_id: Uuid, name: String },
    /// A player left the seat. `host_id` names the new host when the host left and someone
    /// is still seated.
    SeatLeft {
        seat: usize,
        player_id: Uuid,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        host_id: Option<Uuid>,
    },
    /// A bot took an empty seat as the table started (`fill_with_bots`).
    BotSeated { seat: usize },
    /// The host changed the table's settings (the normalized options).
    SettingsChanged {
        options: Value,
        visibility: Visibility,
        party: bool,
        /// Absent in entries written before tables had a bot level: `strong`.
        #[serde(default)]
        bot_level: Level,
    },
    /// The last player left: the table closed without being played. Nothing follows it.
    Closed,
}

impl LobbyEntry {
    /// The seat the entry is about, if any (the log's `seat` column).
    pub fn seat(&self) -> Option<usize> {
        match self {
            LobbyEntry::SeatTaken { seat, .. }
            | LobbyEntry::SeatLeft { seat, .. }
            | LobbyEntry::BotSeated { seat } => Some(*seat),
            LobbyEntry::SettingsChanged { .. } | LobbyEntry::Closed => None,
        }
    }

    /// The entry as the log's `action` holds it: through a JSON tree, whose keys are sorted,
    /// like every table entry.
    pub fn to_action(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }
}

/// Appends `changes` to the log of `table_id` after its latest entry, inside `tx`, which must
/// hold the table's row lock (no other writer then appends to an open table's log). Returns
/// the entries written, to be told to the table's followers once `tx` has committed.
pub(super) async fn append_lobby(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    table_id: Uuid,
    changes: Vec<LobbyEntry>,
    at: i64,
) -> StoreResult<Vec<LogEntry>> {
    let latest: i64 = sqlx::query_scalar("SELECT COALESCE(MAX(seq), 0) FROM actions WHERE table_id = $1")
        .bind(table_id.to_string())
        .fetch_one(&mut **tx)
        .await?;
    let mut written = Vec::with_capacity(changes.len());
    for (seq, change) in (latest + 1..).zip(changes) {
        let entry = LogEntry {
            seq,
            seat: change.seat(),
            actor: PlayedBy::Server,
            action: change.to_action(),
            events: EntryEvents::default(),
            at,
        };
        let events = serde_json::to_string(&entry.events).unwrap_or_default();
        sqlx::query(
            "INSERT INTO actions (table_id, seq, seat, actor, action, events, at)
             VALUES ($1, $2, $3, $4, $5, $6, $7)",
        )
        .bind(table_id.to_string())
        .bind(entry.seq)
        .bind(entry.seat.map(|s| s as i64))
        .bind(entry.actor.as_str())
        .bind(entry.action.to_string())
        .bind(events)
        .bind(entry.at)
        .execute(&mut **tx)
        .await?;
        written.push(entry);
    }
    // Cluster mode: the table's sockets on every process hear of it at the commit, and read
    // it from the store (a nudge: what an open table's socket may be sent is its own check).
    let latest: Vec<_> = written.last().map(|e| (table_id, e.seq, None)).into_iter().collect();
    super::leases::notify_entries(tx, &latest).await?;
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn lobby_entries_have_one_spelling() {
        let player = Uuid::nil();
        let cases = [
            (
                LobbyEntry::SeatTaken { seat: 1, player_id: player, name: "ann".into() },
                json!({"type": "seat_taken", "seat": 1, "player_id": player, "name": "ann"}),
            ),
            (
                LobbyEntry::SeatLeft { seat: 0, player_id: player, host_id: None },
                json!({"type": "seat_left", "seat": 0, "player_id": player}),
            ),
            (
                LobbyEntry::SeatLeft { seat: 0, player_id: player, host_id: Some(player) },
                json!({"type": "seat_left", "seat": 0, "player_id": player, "host_id": player}),
            ),
            (LobbyEntry::BotSeated { seat: 3 }, json!({"type": "bot_seated", "seat": 3})),
            (
                LobbyEntry::SettingsChanged {
                    options: json!({"a": 1}),
                    visibility: Visibility::Private,
                    party: true,
                    bot_level: Level::Easy,
                },
                json!({"type": "settings_changed", "options": {"a": 1}, "visibility": "private", "party": true,
                    "bot_level": "easy"}),
            ),
            (LobbyEntry::Closed, json!({"type": "closed"})),
        ];
        for (entry, wire) in cases {
            assert_eq!(entry.to_action(), wire);
            assert_eq!(LobbyEntry::deserialize(&wire).unwrap(), entry);
        }
    }
}
