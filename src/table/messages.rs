//! What table actors answer, and the JSON messages clients receive.

use crate::{
    clock::rfc3339,
    games::JsonText,
    rules::RuleError,
    store::{Controller, LogEntry, LoggedAction, PlayedBy, StoreError},
};
use serde::Serialize;
use serde_json::Value;
use std::sync::Arc;
use tokio::sync::broadcast;

use super::Broadcast;

/// An accepted action: the `seq` it got and what happened.
#[derive(Debug, Clone, Serialize, serde::Deserialize)]
pub struct ActOk {
    pub seq: i64,
    pub events: Vec<Value>,
}

/// Why a table refused a command.
#[derive(Debug, thiserror::Error)]
pub enum PlayError {
    /// The client's `seq` is behind the table's: someone acted since it looked.
    #[error("the table has moved on to seq {current}; refresh and try again")]
    StaleSeq { current: i64 },
    /// The client's `seq` is one the table has not reached: not a race, a client bug.
    #[error(
        "seq {sent} is ahead of the table, which is at seq {current}; send the seq of the latest entry seen"
    )]
    SeqAhead { sent: i64, current: i64 },
    #[error("you hold no seat at this table")]
    NotSeated,
    /// The game's rules refused the action: not the seat's turn, or not a legal action now.
    #[error(transparent)]
    Rules(RuleError),
    #[error("the game is over")]
    GameOver,
    #[error("the seat is not held by a bot")]
    NotBotControlled,
    #[error("the table stopped; try again")]
    TableStopped,
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("the table's log cannot be replayed: {0}")]
    Corrupt(String),
    /// Fresh dice: the action draws dice for a seat with a dice chain, and came without the
    /// seat's next reveal.
    #[error("this action draws dice: send your dice chain's next link as `reveal`")]
    RevealRequired,
    /// Fresh dice: the reveal sent is not the link before the seat's last one.
    #[error(
        "`reveal` is not your dice chain's next link (its SHA-256 must be the link revealed before it, the head at first)"
    )]
    RevealMismatch,
}

/// A seat's controller and presence, as part of the table state.
#[derive(Debug, Clone, Serialize)]
pub struct SeatPresence {
    pub seat: usize,
    pub controller: Controller,
    /// Open WebSocket connections of the seat's player.
    pub connected: bool,
    /// Since when the player has had no connection (absent while connected or for bot seats).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub away_since: Option<String>,
    /// Clock expiries in a row.
    pub timeouts: u32,
}

/// A started table as one viewer sees it.
#[derive(Debug, Clone, Serialize)]
pub struct PlayView {
    /// The latest log entry.
    pub seq: i64,
    /// The game state, as the engine renders it (the same text as the entries').
    pub state: JsonText,
    /// Whose decision the game waits for; absent once it is over.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub to_act: Option<usize>,
    /// When the clock of `to_act` runs out.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deadline: Option<String>,
    /// The viewer's seat, if they hold one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub your_seat: Option<usize>,
    /// What the viewer may post now, exactly as it is to be posted.
    pub legal_actions: Vec<Value>,
    /// Each seat's controller and connection (the seats' players are in the table's `seats`).
    pub presence: Vec<SeatPresence>,
    /// Places and points, once the game is over.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub outcome: Option<Value>,
    /// Fresh dice: how many links each seat has revealed, by seat (shown in the table's
    /// `seats[i].reveals`, not here).
    #[serde(skip)]
    pub reveals: Vec<u32>,
}

/// A live subscription: messages after `seq`, and the recent ones the actor still had.
#[derive(Debug)]
pub struct Subscription {
    pub receiver: broadcast::Receiver<Arc<Broadcast>>,
    /// The latest `seq` when the subscription began: live messages continue after it.
    pub seq: i64,
    /// Entries the actor still holds, oldest first (the tail of the log up to `seq`).
    pub recent: Vec<Arc<Broadcast>>,
}

/// The WebSocket message for a log entry:
/// `{"type":"entry","seq","seat","actor","action","events","to_act","deadline","legal_actions_by_seat","state","at"}`;
/// `legal_actions_by_seat` holds what each seat may post next, by seat (the table view's
/// `legal_actions` is the viewer's list alone); `state` the game state after the entry, as
/// `GET /v1/tables/{id}` shows it in `play.state` (absent only for entries stored before it
/// was, once the actor no longer holds them). Serialized straight from the entry
/// (no intermediate JSON tree): it is done for every entry the server writes.
#[derive(Debug, Serialize)]
pub struct EntryMessage<'a> {
    r#type: &'static str,
    seq: i64,
    seat: Option<usize>,
    actor: PlayedBy,
    action: &'a LoggedAction,
    events: &'a [Value],
    to_act: Option<usize>,
    deadline: Option<String>,
    legal_actions_by_seat: &'a [JsonText],
    #[serde(skip_serializing_if = "Option::is_none")]
    state: Option<&'a JsonText>,
    /// Fresh dice: the seat's chain link this entry consumed.
    #[serde(skip_serializing_if = "Option::is_none")]
    reveal: Option<&'a str>,
    at: String,
}

impl<'a> EntryMessage<'a> {
    /// The message for `entry`.
    pub fn new(entry: &'a LogEntry) -> Self {
        let after = &entry.events;
        Self {
            r#type: "entry",
            seq: entry.seq,
            seat: entry.seat,
            actor: entry.actor,
            action: &entry.action,
            events: &after.events,
            to_act: after.to_act,
            deadline: after.deadline.map(rfc3339),
            legal_actions_by_seat: &after.legal,
            state: after.state.as_ref(),
            reveal: after.reveal.as_deref(),
            at: rfc3339(entry.at),
        }
    }

    /// The message as sent.
    pub fn to_text(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}

/// The text of the WebSocket message for a log entry ([`EntryMessage`]).
pub fn entry_message(entry: &LogEntry) -> String {
    EntryMessage::new(entry).to_text()
}

/// The WebSocket message telling that a seat's presence changed (not logged):
/// `{"presence":{…},"seat","type":"presence"}`.
#[derive(Debug, Serialize)]
pub struct PresenceMessage {
    presence: SeatPresence,
    seat: usize,
    r#type: &'static str,
}

impl PresenceMessage {
    /// The message for `seat`, now `presence`.
    pub fn new(seat: usize, presence: SeatPresence) -> Self {
        Self { presence, seat, r#type: "presence" }
    }

    /// Through a JSON tree, whose keys are sorted: the message was first built as one, and
    /// clients have received its keys (the presence's too) in that order since.
    pub fn to_text(&self) -> String {
        serde_json::to_value(self).map(|v| v.to_string()).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::EntryEvents;
    use serde_json::json;

    /// The entry message the untyped code wrote, from an entry as it was stored.
    fn old_entry_message(entry: &LogEntry, payload: &Value) -> String {
        #[derive(Serialize)]
        struct Old<'a> {
            r#type: &'static str,
            seq: i64,
            seat: Option<usize>,
            actor: &'a str,
            action: &'a Value,
            events: &'a Value,
            to_act: &'a Value,
            deadline: Option<String>,
            legal_actions_by_seat: &'a Value,
            #[serde(skip_serializing_if = "Option::is_none")]
            state: Option<&'a Value>,
            at: String,
        }
        static EMPTY: Value = Value::Array(vec![]);
        let p = payload;
        // The untyped code held every action as stored JSON (table entries' own spelling is
        // checked in `store::entry`).
        let LoggedAction::Engine(action) = &entry.action else { panic!("an engine action's message") };
        serde_json::to_string(&Old {
            r#type: "entry",
            seq: entry.seq,
            seat: entry.seat,
            actor: entry.actor.as_str(),
            action,
            events: p.get("events").unwrap_or(&EMPTY),
            to_act: p.get("to_act").unwrap_or(&Value::Null),
            deadline: p.get("deadline").and_then(Value::as_i64).map(rfc3339),
            legal_actions_by_seat: p.get("legal").unwrap_or(&EMPTY),
            state: p.get("state"),
            at: rfc3339(entry.at),
        })
        .unwrap()
    }

    /// Every kind of entry: its `events` column is stored as the untyped code wrote it (the
    /// lists under `legal`, `state` in its alphabetical place), and its WebSocket message is what
    /// it was but for the lists' name, `legal_actions_by_seat`, plus `state` after them, for
    /// entries written now and for old ones (before `legal`, before `state`: no `state` key).
    #[test]
    fn every_kind_and_age_of_entry_keeps_its_stored_and_sent_spelling() {
        let payloads = [
            json!({"events": [{"type": "rolled", "dice": [6, 2]}], "to_act": 1, "deadline": 1_700_000_015_000_i64,
                   "legal": [[], [{"type": "move", "piece": 0}]], "state": {"turn": 1, "dice": [6, 2]}}),
            json!({"events": [{"type": "rolled", "dice": [6, 2]}], "to_act": 1, "deadline": 1_700_000_015_000_i64,
                   "legal": [[], [{"type": "move", "piece": 0}]]}),
            json!({"events": [], "to_act": null, "deadline": null, "legal": [[], []]}),
            json!({"events": [], "to_act": 0, "deadline": null}),
        ];
        let actors = [
            PlayedBy::Human,
            PlayedBy::Timeout,
            PlayedBy::Bot,
            PlayedBy::Forced,
            PlayedBy::Server,
            PlayedBy::Human,
        ];
        for (payload, actor) in payloads.iter().cycle().zip(actors) {
            let events: EntryEvents = serde_json::from_value(payload.clone()).unwrap();
            let entry = LogEntry {
                seq: 7,
                seat: (actor != PlayedBy::Server).then_some(1),
                actor,
                action: LoggedAction::Engine(json!({"type": "roll"})),
                events: events.clone(),
                at: 1_700_000_000_000,
            };
            if payload.get("legal").is_some() {
                assert_eq!(serde_json::to_string(&events).unwrap(), payload.to_string());
            }
            assert_eq!(entry_message(&entry), old_entry_message(&entry, payload));
        }
    }

    #[test]
    fn the_presence_message_is_its_type_seat_and_presence() {
        for presence in [
            SeatPresence {
                seat: 1,
                controller: Controller::Bot,
                connected: false,
                away_since: None,
                timeouts: 3,
            },
            SeatPresence {
                seat: 0,
                controller: Controller::Human,
                connected: false,
                away_since: Some(rfc3339(1_700_000_000_000)),
                timeouts: 0,
            },
        ] {
            let seat = presence.seat;
            let old = json!({"type": "presence", "seat": seat, "presence": presence}).to_string();
            assert_eq!(PresenceMessage::new(seat, presence).to_text(), old);
        }
    }
}
