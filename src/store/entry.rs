//! A table's log entries as the store reads and writes them ([`LogEntry`]), with what each
//! records ([`LoggedAction`]): an engine action, kept as the game lists it, or one of the
//! table's own entries (`actor: "server"`) — the lobby's changes before the start
//! ([`LobbyEntry`]), its start, a bot taking a seat, a player taking it back, its finish
//! ([`TableEntry`]).
//!
//! The table's own entries are decoded once, as the row is read (one that does not decode is
//! a corrupt row), and written from their type, so every reader matches on a type and the
//! stored JSON keeps one spelling: [`LoggedAction::parse`] and [`LoggedAction::to_text`] are
//! the only ways in and out of the `action` column.

use super::{EntryEvents, PlayedBy, StoreError, StoreResult, Visibility};
use crate::{bots::Level, rules::Seat};
use serde::{Deserialize, Serialize, Serializer};
use serde_json::Value;
use sqlx::{Row, any::AnyRow};
use uuid::Uuid;

/// One entry of a table's append-only log: an action and what it caused.
#[derive(Debug, Clone, PartialEq)]
pub struct LogEntry {
    /// 1, 2, 3, … per table, without gaps.
    pub seq: i64,
    /// The seat that acted, or the seat a takeover or reclaim is about; `None` for the
    /// table's start and finish.
    pub seat: Option<usize>,
    pub actor: PlayedBy,
    /// What was played: the table's own entry when `actor` is [`PlayedBy::Server`], an
    /// engine action otherwise.
    pub action: LoggedAction,
    pub events: EntryEvents,
    pub at: i64,
}

impl LogEntry {
    pub(super) fn from_row(r: &AnyRow) -> StoreResult<Self> {
        let actor: String = r.try_get("actor")?;
        let actor = PlayedBy::parse(&actor).ok_or_else(|| StoreError::Corrupt(format!("actor {actor:?}")))?;
        let action: String = r.try_get("action")?;
        let events: String = r.try_get("events")?;
        Ok(Self {
            seq: r.try_get("seq")?,
            seat: r.try_get::<Option<i64>, _>("seat")?.map(|s| s as usize),
            actor,
            action: LoggedAction::parse(actor, &action)
                .map_err(|e| StoreError::Corrupt(format!("action: {e}")))?,
            events: serde_json::from_str(&events).map_err(|e| StoreError::Corrupt(format!("events: {e}")))?,
            at: r.try_get("at")?,
        })
    }
}

/// What a log entry records (its `action` column), serialized as it is stored and sent.
#[derive(Debug, Clone, PartialEq)]
pub enum LoggedAction {
    /// An engine action, as the game lists it (played by a seat, its bot, its clock or the
    /// server's forced move).
    Engine(Value),
    /// The table's own entry (played by the server).
    Table(TableEntry),
}

impl LoggedAction {
    /// Reads the `action` column of an entry played `by`: the server's are the table's own
    /// entries, anything else an engine action.
    pub fn parse(by: PlayedBy, column: &str) -> Result<Self, serde_json::Error> {
        let action: Value = serde_json::from_str(column)?;
        match by {
            PlayedBy::Server => TableEntry::from_action(&action).map(LoggedAction::Table),
            _ => Ok(LoggedAction::Engine(action)),
        }
    }

    /// The text of the `action` column.
    pub fn to_text(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// The table's own entry, if it is one.
    pub fn table(&self) -> Option<&TableEntry> {
        match self {
            LoggedAction::Table(table) => Some(table),
            LoggedAction::Engine(_) => None,
        }
    }
}

impl Serialize for LoggedAction {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            LoggedAction::Engine(action) => action.serialize(serializer),
            LoggedAction::Table(table) => table.to_action().serialize(serializer),
        }
    }
}

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
        /// Fresh dice: each seat's committed chain head (`null` for a seat without one), by
        /// seat; absent when the table's `fresh_dice` is off.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        dice_chains: Option<Vec<Option<String>>>,
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
    fn to_action(&self) -> Value {
        match self {
            TableEntry::Lobby(lobby) => lobby.to_action(),
            _ => serde_json::to_value(self).unwrap_or(Value::Null),
        }
    }

    /// Reads a logged table entry back.
    fn from_action(action: &Value) -> Result<Self, serde_json::Error> {
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
        /// `None` in entries written before tables had a bot level (their bots played
        /// `strong`), which left it out: so does their text when it is read and sent again.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        bot_level: Option<Level>,
        /// `None` in entries written before tables had a long clock (they had none), which
        /// left it out, like `bot_level`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        long_clock: Option<bool>,
        /// `None` in entries written before fresh dice, like `long_clock`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        fresh_dice: Option<bool>,
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
    fn to_action(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
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
                TableEntry::Start {
                    client_seeds: Some(seeds.clone()),
                    client_seed: Some("c0ffee".into()),
                    dice_chains: None,
                },
                json!({"type": "start", "client_seeds": seeds, "client_seed": "c0ffee"}),
            ),
            (
                TableEntry::Start { client_seeds: None, client_seed: None, dice_chains: None },
                json!({"type": "start"}),
            ),
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
                    bot_level: Some(Level::Easy),
                    long_clock: Some(true),
                    fresh_dice: None,
                },
                json!({"type": "settings_changed", "options": {"a": 1}, "visibility": "private", "party": true,
                    "bot_level": "easy", "long_clock": true}),
            ),
            (
                LobbyEntry::SettingsChanged {
                    options: json!({}),
                    visibility: Visibility::Public,
                    party: false,
                    bot_level: Some(Level::Strong),
                    long_clock: None,
                    fresh_dice: None,
                },
                json!({"type": "settings_changed", "options": {}, "visibility": "public", "party": false,
                    "bot_level": "strong"}),
            ),
            (LobbyEntry::Closed, json!({"type": "closed"})),
        ];
        for (entry, wire) in cases {
            assert_eq!(entry.to_action(), wire);
            assert_eq!(LobbyEntry::deserialize(&wire).unwrap(), entry);
        }
    }

    /// What the `action` column holds reads back to the same text, as it is stored again and
    /// sent: the table's own entries of every kind and age (a start without seeds, settings
    /// without a bot level), and engine actions as they are.
    #[test]
    fn every_logged_action_reads_back_to_its_stored_text() {
        let player = Uuid::nil();
        let table = [
            r#"{"client_seed":"c0ffee","client_seeds":["a",""],"type":"start"}"#.to_string(),
            r#"{"type":"start"}"#.to_string(),
            r#"{"reason":"away","seat":3,"type":"takeover"}"#.to_string(),
            r#"{"seat":2,"type":"reclaim"}"#.to_string(),
            r#"{"outcome":{"places":[1,2],"points":null,"shame":[]},"seed":"ab12","type":"finish"}"#.to_string(),
            format!(r#"{{"name":"ann","player_id":"{player}","seat":1,"type":"seat_taken"}}"#),
            format!(r#"{{"host_id":"{player}","player_id":"{player}","seat":0,"type":"seat_left"}}"#),
            r#"{"seat":3,"type":"bot_seated"}"#.to_string(),
            r#"{"bot_level":"easy","long_clock":true,"options":{"a":1},"party":true,"type":"settings_changed","visibility":"private"}"#
                .to_string(),
            r#"{"bot_level":"easy","options":{"a":1},"party":true,"type":"settings_changed","visibility":"private"}"#
                .to_string(),
            r#"{"options":{},"party":false,"type":"settings_changed","visibility":"public"}"#.to_string(),
            r#"{"type":"closed"}"#.to_string(),
        ];
        for text in &table {
            let action = LoggedAction::parse(PlayedBy::Server, text).unwrap();
            assert!(action.table().is_some(), "{text}");
            assert_eq!(&action.to_text(), text);
            assert_eq!(serde_json::to_value(&action).unwrap(), serde_json::from_str::<Value>(text).unwrap());
        }
        for by in [PlayedBy::Human, PlayedBy::Timeout, PlayedBy::Bot, PlayedBy::Forced] {
            // An engine action named like a table entry is still the engine's.
            for text in [r#"{"piece":0,"type":"move"}"#, r#"{"seat":2,"type":"reclaim"}"#] {
                let action = LoggedAction::parse(by, text).unwrap();
                assert_eq!(action, LoggedAction::Engine(serde_json::from_str(text).unwrap()));
                assert_eq!(action.to_text(), text);
            }
        }
    }

    /// A server entry this build cannot read fails the read that meets it, as a corrupt row.
    #[tokio::test]
    async fn an_unreadable_server_entry_is_a_corrupt_row() {
        use crate::store::testing::{luddo_for_two, scratch_store};
        let (store, _dir) = scratch_store().await;
        let host = store.create_player("host", "hash", None).await.unwrap();
        let table = store.create_table(&luddo_for_two(host.id), 0, usize::MAX).await.unwrap();
        assert_eq!(store.entries(table.id, 0, i64::MAX).await.unwrap().len(), 1);
        sqlx::query(
            "INSERT INTO actions (table_id, seq, seat, actor, action, events, at)
             VALUES ($1, 2, NULL, 'server', '{\"type\":\"teleport\"}', '{}', 0)",
        )
        .bind(table.id.to_string())
        .execute(&store.pool)
        .await
        .unwrap();
        let read = store.entries(table.id, 0, i64::MAX).await;
        assert!(matches!(&read, Err(StoreError::Corrupt(m)) if m.contains("teleport")), "{read:?}");
    }
}
