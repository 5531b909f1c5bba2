//! What table actors answer, and the JSON messages clients receive.

use crate::{
    clock::rfc3339,
    store::{Controller, LogEntry, StoreError},
};
use serde::Serialize;
use serde_json::Value;
use std::sync::Arc;
use tokio::sync::broadcast;

use super::Broadcast;

/// An accepted action: the `seq` it got and what happened.
#[derive(Debug, Clone, Serialize)]
pub struct ActOk {
    pub seq: i64,
    pub events: Vec<Value>,
}

/// Why a table refused a command.
#[derive(Debug, thiserror::Error)]
pub enum PlayError {
    #[error("the table has moved on to seq {current}; refresh and try again")]
    StaleSeq { current: i64 },
    #[error("you hold no seat at this table")]
    NotSeated,
    #[error("{0}")]
    NotYourTurn(String),
    #[error("{0}")]
    Illegal(String),
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
    /// The game state, as the engine renders it.
    pub state: Value,
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
    pub seats: Vec<SeatPresence>,
    /// Places and points, once the game is over.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub outcome: Option<Value>,
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
/// `{"type":"entry","seq","seat","actor","action","events","to_act","deadline","legal","at"}`;
/// `legal` holds what each seat may post next, by seat. Serialized straight from the entry
/// (no intermediate JSON tree): it is done for every entry the server writes.
pub fn entry_message(entry: &LogEntry) -> String {
    #[derive(Serialize)]
    struct EntryMessage<'a> {
        r#type: &'static str,
        seq: i64,
        seat: Option<usize>,
        actor: &'a str,
        action: &'a Value,
        events: &'a Value,
        to_act: &'a Value,
        deadline: Option<String>,
        legal: &'a Value,
        at: String,
    }
    static EMPTY: Value = Value::Array(vec![]);
    let p = &entry.payload;
    let message = EntryMessage {
        r#type: "entry",
        seq: entry.seq,
        seat: entry.seat,
        actor: &entry.actor,
        action: &entry.action,
        events: p.get("events").unwrap_or(&EMPTY),
        to_act: p.get("to_act").unwrap_or(&Value::Null),
        deadline: p.get("deadline").and_then(Value::as_i64).map(rfc3339),
        legal: p.get("legal").unwrap_or(&EMPTY),
        at: rfc3339(entry.at),
    };
    serde_json::to_string(&message).unwrap_or_default()
}
