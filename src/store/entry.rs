//! The table's own log entries (`actor: "server"`): the lobby's changes before the start
//! ([`LobbyEntry`], written by the store with each change), its start, a bot taking a seat, a
//! player taking it back, its finish.
//!
//! Stored in the log's `action` column like an engine action, and read back when the log is
//! replayed; [`TableEntry::to_action`] and [`TableEntry::from_action`] are the only ways in and
//! out, so the stored JSON keeps one spelling.

use super::LobbyEntry;
use crate::rules::Seat;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Why a bot took a seat (the `reason` of a `takeover` entry).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TakeoverReason {
    /// `in_a_row` timeouts in a row.
    Timeouts,
    /// `stalled` timeouts among the last `window` decisions.
    Stalling,
    /// A timeout while the player had been away long enough.
    Away,
}

impl TakeoverReason {
    pub const ALL: [Self; 3] = [Self::Timeouts, Self::Stalling, Self::Away];

    /// As the entry spells it (the `reason` label of `luddo_seat_takeovers_total`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Timeouts => "timeouts",
            Self::Stalling => "stalling",
            Self::Away => "away",
        }
    }
}

/// One table-level log entry, tagged by `type`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum TableEntry {
    /// The game began. `client_seeds` (each seat's, by seat) and `client_seed` (their
    /// combination, which the dice use) are absent for tables started before per-seat seeds:
    /// their dice used the host's seed.
    Start {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        client_seeds: Option<Vec<String>>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        client_seed: Option<String>,
    },
    /// A bot took `seat` from its player.
    Takeover { seat: Seat, reason: TakeoverReason },
    /// The player took `seat` back from the bot.
    Reclaim { seat: Seat },
    /// The game ended: places and points, and the server seed revealed (hex).
    Finish { outcome: Value, seed: String },
    /// A change of the open table before its start (seats, settings, closing), spelled as the
    /// store writes it.
    #[serde(skip)]
    Lobby(LobbyEntry),
}

impl TableEntry {
    /// The entry as the log's `action` holds it. Through a JSON tree, whose keys are sorted:
    /// the stored text is what the untyped entries were (`{"seat":0,"type":"reclaim"}`).
    pub fn to_action(&self) -> Value {
        match self {
            TableEntry::Lobby(lobby) => lobby.to_action(),
            _ => serde_json::to_value(self).unwrap_or(Value::Null),
        }
    }

    /// Reads a logged table entry back.
    pub fn from_action(action: &Value) -> Result<Self, serde_json::Error> {
        Self::deserialize(action)
            .or_else(|e| LobbyEntry::deserialize(action).map(TableEntry::Lobby).map_err(|_| e))
    }

    /// The seat the entry is about, if any.
    pub fn seat(&self) -> Option<Seat> {
        match self {
            TableEntry::Takeover { seat, .. } | TableEntry::Reclaim { seat } => Some(*seat),
            TableEntry::Lobby(lobby) => lobby.seat(),
            TableEntry::Start { .. } | TableEntry::Finish { .. } => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Each kind of entry is stored exactly as the untyped code wrote it (`json!`, then
    /// `to_string`), and what it wrote reads back.
    #[test]
    fn each_table_entry_keeps_its_stored_spelling_and_reads_back() {
        let outcome = json!({"places": [1, 2], "points": null, "shame": []});
        let seeds = vec!["a".to_string(), String::new()];
        let cases = [
            (
                TableEntry::Start { client_seeds: Some(seeds.clone()), client_seed: Some("c0ffee".into()) },
                json!({"type": "start", "client_seeds": seeds, "client_seed": "c0ffee"}),
            ),
            (TableEntry::Start { client_seeds: None, client_seed: None }, json!({"type": "start"})),
            (
                TableEntry::Takeover { seat: 1, reason: TakeoverReason::Timeouts },
                json!({"type": "takeover", "seat": 1, "reason": "timeouts"}),
            ),
            (
                TableEntry::Takeover { seat: 0, reason: TakeoverReason::Stalling },
                json!({"type": "takeover", "seat": 0, "reason": "stalling"}),
            ),
            (
                TableEntry::Takeover { seat: 3, reason: TakeoverReason::Away },
                json!({"type": "takeover", "seat": 3, "reason": "away"}),
            ),
            (TableEntry::Reclaim { seat: 2 }, json!({"type": "reclaim", "seat": 2})),
            (
                TableEntry::Finish { outcome: outcome.clone(), seed: "ab12".into() },
                json!({"type": "finish", "outcome": outcome, "seed": "ab12"}),
            ),
        ];
        for (entry, old) in cases {
            assert_eq!(entry.to_action().to_string(), old.to_string());
            assert_eq!(TableEntry::from_action(&old).unwrap(), entry);
        }
        assert_eq!(TableEntry::Reclaim { seat: 2 }.to_action().to_string(), r#"{"seat":2,"type":"reclaim"}"#);
    }

    #[test]
    fn lobby_entries_read_back_as_table_entries() {
        let bot = LobbyEntry::BotSeated { seat: 2 };
        let entry = TableEntry::from_action(&bot.to_action()).unwrap();
        assert_eq!(entry, TableEntry::Lobby(bot.clone()));
        assert_eq!(entry.to_action(), json!({"type": "bot_seated", "seat": 2}));
        assert_eq!(entry.seat(), Some(2));
        let unknown = TableEntry::from_action(&json!({"type": "teleport"})).unwrap_err();
        assert!(unknown.to_string().contains("teleport"), "{unknown}");
    }
}
