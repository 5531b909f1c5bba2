//! A table as clients see it (`GET /v1/tables/{id}`, the lobby's lists and stream, a record's
//! `table`): its settings and seats, the fairness seeds as far as they may be shown, and the
//! game in play.

use crate::{
    bots::Level,
    clock::rfc3339,
    config::Timers,
    store::{Controller, TableRecord, TableStatus, Visibility},
    table::PlayView,
};
use serde::Serialize;
use uuid::Uuid;

/// A table as clients see it.
#[derive(Debug, Serialize)]
pub struct TableView {
    pub id: Uuid,
    pub game: String,
    pub options: serde_json::Value,
    pub seats: Vec<SeatView>,
    pub visibility: Visibility,
    pub party: bool,
    /// Every clock of the table ten times the server's (`turn_seconds` says the turn's).
    pub long_clock: bool,
    /// Fresh dice: each seat's player may commit a dice chain whose links its rolls mix in
    /// (docs/fairness.md).
    pub fresh_dice: bool,
    /// How well the bots that fill empty seats play; a bot taking over an absent player's
    /// seat plays `strong`.
    pub bot_level: Level,
    pub status: TableStatus,
    pub host_id: Uuid,
    /// Seconds on the clock for each roll and move.
    pub turn_seconds: f64,
    /// SHA-256 of the server seed, published at creation, before any client seed is known.
    pub seed_commitment: String,
    /// The table's client seed every die is drawn with, fixed at the start from the seats'
    /// seeds; absent before.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub client_seed: Option<String>,
    /// The server seed, once the game is over.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seed: Option<String>,
    /// Only shown to the table's players.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub invite_code: Option<String>,
    pub created_at: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub started_at: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub finished_at: Option<String>,
    /// The table a rematch opened, once every seated player asked for one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rematch_id: Option<Uuid>,
    /// While a quick-play table opened with `bots_after_seconds` waits: when bots take its
    /// empty seats and it starts.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bots_at: Option<String>,
    /// The game in play (state, whose turn, the clock, the viewer's legal actions), once started.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub play: Option<PlayView>,
}

#[derive(Debug, Serialize)]
pub struct SeatView {
    pub seat: usize,
    pub player: Option<SeatPlayer>,
    /// Who plays the seat once the game runs; `null` while the seat is empty.
    pub controller: Option<Controller>,
    /// The client seed the seat's player gave ('' for none).
    pub client_seed: String,
    /// The head of the dice chain the seat's player committed to (fresh dice); `null` for none.
    pub dice_chain: Option<String>,
    /// How many links of its chain the seat has revealed: its next reveal is `h_{n-1-reveals}`.
    pub reveals: u32,
}

#[derive(Debug, Serialize)]
pub struct SeatPlayer {
    pub id: Uuid,
    pub name: String,
}

impl TableView {
    /// The view of `table` for `viewer` (None: anonymous), whose turns last as `timers` say.
    pub(super) fn of(table: &TableRecord, viewer: Option<Uuid>, timers: &Timers) -> Self {
        let member = viewer.is_some_and(|v| table.is_member(v));
        let turn = table.clock(timers).turn;
        let ended = matches!(table.status, TableStatus::Finished | TableStatus::Closed);
        Self {
            id: table.id,
            game: table.game.as_str().into(),
            options: table.options.clone(),
            seats: table
                .seats
                .iter()
                .map(|s| SeatView {
                    seat: s.seat,
                    player: s
                        .player_id
                        .map(|id| SeatPlayer { id, name: s.player_name.clone().unwrap_or_default() }),
                    controller: (s.player_id.is_some() || s.controller == Controller::Bot)
                        .then_some(s.controller),
                    client_seed: s.client_seed.clone(),
                    dice_chain: s.dice_chain.clone(),
                    reveals: 0,
                })
                .collect(),
            visibility: table.visibility,
            party: table.party,
            long_clock: table.long_clock,
            fresh_dice: table.fresh_dice,
            bot_level: table.bot_level,
            status: table.status,
            host_id: table.host_id,
            turn_seconds: turn.as_secs_f64(),
            seed_commitment: table.seed_commitment.clone(),
            client_seed: table.started_at.is_some().then(|| table.client_seed.clone()),
            seed: ended.then(|| table.seed.clone()),
            invite_code: if member { table.invite_code.clone() } else { None },
            created_at: rfc3339(table.created_at),
            started_at: table.started_at.map(rfc3339),
            finished_at: table.finished_at.map(rfc3339),
            rematch_id: table.rematch_id,
            bots_at: table.bots_at.filter(|_| table.status == TableStatus::Open).map(rfc3339),
            play: None,
        }
    }
}
