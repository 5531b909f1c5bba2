//! The records the store reads and writes, and their decoding from rows.

use super::{StoreError, StoreResult, parse_uuid};
use serde::{Deserialize, Serialize};
use sqlx::{Row, any::AnyRow};
use uuid::Uuid;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Player {
    pub id: Uuid,
    pub name: String,
    pub created_at: i64,
}

impl Player {
    pub(super) fn from_row(r: &AnyRow) -> StoreResult<Self> {
        Ok(Self {
            id: parse_uuid(&r.try_get::<String, _>("id")?)?,
            name: r.try_get("name")?,
            created_at: r.try_get("created_at")?,
        })
    }
}

/// Who may find a table: everyone in the lobby, or only holders of its invite code.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Visibility {
    #[default]
    Public,
    Private,
}

impl Visibility {
    pub fn as_str(self) -> &'static str {
        match self {
            Visibility::Public => "public",
            Visibility::Private => "private",
        }
    }
}

/// Where a table is in its life: gathering players, playing, over, or abandoned before start.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum TableStatus {
    #[default]
    Open,
    Playing,
    Finished,
    Closed,
}

impl TableStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            TableStatus::Open => "open",
            TableStatus::Playing => "playing",
            TableStatus::Finished => "finished",
            TableStatus::Closed => "closed",
        }
    }
}

/// Who plays a seat: its player, or a bot (an empty seat filled at start, or a seat taken over
/// after timeouts).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Controller {
    Human,
    Bot,
}

impl Controller {
    /// How the `seats.controller` column spells it.
    pub fn as_str(self) -> &'static str {
        match self {
            Controller::Human => "human",
            Controller::Bot => "bot",
        }
    }

    fn parse(column: &str) -> Option<Self> {
        [Controller::Human, Controller::Bot].into_iter().find(|c| c.as_str() == column)
    }
}

/// Everything needed to create a table.
#[derive(Debug, Clone)]
pub struct NewTable {
    pub id: Uuid,
    pub game: String,
    pub options: serde_json::Value,
    pub seat_count: usize,
    pub visibility: Visibility,
    pub party: bool,
    pub invite_code: Option<String>,
    pub host_id: Uuid,
    /// The secret server seed, hex; revealed only when the game ends.
    pub seed: String,
    pub seed_commitment: String,
    /// The client seed the host gives its own seat (it may change it until the start, like any
    /// seated player).
    pub host_client_seed: String,
    /// Fixed dice for tests (only accepted by a server in test mode).
    pub dice_script: Option<Vec<u8>>,
}

/// A table as stored, with its seats.
#[derive(Debug, Clone)]
pub struct TableRecord {
    pub id: Uuid,
    pub game: String,
    pub options: serde_json::Value,
    pub seat_count: usize,
    pub visibility: Visibility,
    pub party: bool,
    pub invite_code: Option<String>,
    pub status: TableStatus,
    pub host_id: Uuid,
    pub seed: String,
    pub seed_commitment: String,
    /// The table's client seed, fixed at the start from the seats' seeds
    /// ([`crate::rules::dice::combine_client_seeds`]); empty while the table is open. Tables
    /// started before per-seat seeds hold their host's seed here, which their dice used.
    pub client_seed: String,
    pub dice_script: Option<Vec<u8>>,
    pub outcome: Option<serde_json::Value>,
    pub turn_deadline: Option<i64>,
    pub created_at: i64,
    pub started_at: Option<i64>,
    pub finished_at: Option<i64>,
    pub seats: Vec<SeatRecord>,
}

/// A JSON column (stored as text).
fn json_column(r: &AnyRow, col: &str) -> StoreResult<serde_json::Value> {
    opt_json_column(r, col)?.ok_or_else(|| StoreError::Corrupt(format!("{col} is null")))
}

/// A nullable JSON column (stored as text).
fn opt_json_column(r: &AnyRow, col: &str) -> StoreResult<Option<serde_json::Value>> {
    let text: Option<String> = r.try_get(col)?;
    text.map(|t| serde_json::from_str(&t).map_err(|e| StoreError::Corrupt(format!("{col}: {e}")))).transpose()
}

impl TableRecord {
    pub(super) fn from_row(r: &AnyRow) -> StoreResult<Self> {
        let json = |col: &str| json_column(r, col);
        let opt_json = |col: &str| opt_json_column(r, col);
        let visibility = match r.try_get::<String, _>("visibility")?.as_str() {
            "public" => Visibility::Public,
            "private" => Visibility::Private,
            other => return Err(StoreError::Corrupt(format!("visibility {other:?}"))),
        };
        let status = match r.try_get::<String, _>("status")?.as_str() {
            "open" => TableStatus::Open,
            "playing" => TableStatus::Playing,
            "finished" => TableStatus::Finished,
            "closed" => TableStatus::Closed,
            other => return Err(StoreError::Corrupt(format!("status {other:?}"))),
        };
        let dice_script = opt_json("dice_script")?
            .map(serde_json::from_value)
            .transpose()
            .map_err(|e| StoreError::Corrupt(format!("dice_script: {e}")))?;
        Ok(Self {
            id: parse_uuid(&r.try_get::<String, _>("id")?)?,
            game: r.try_get("game")?,
            options: json("options")?,
            seat_count: r.try_get::<i64, _>("seat_count")? as usize,
            visibility,
            party: r.try_get::<i64, _>("party")? != 0,
            invite_code: r.try_get("invite_code")?,
            status,
            host_id: parse_uuid(&r.try_get::<String, _>("host_id")?)?,
            seed: r.try_get("seed")?,
            seed_commitment: r.try_get("seed_commitment")?,
            client_seed: r.try_get("client_seed")?,
            dice_script,
            outcome: opt_json("outcome")?,
            turn_deadline: r.try_get("turn_deadline")?,
            created_at: r.try_get("created_at")?,
            started_at: r.try_get("started_at")?,
            finished_at: r.try_get("finished_at")?,
            seats: Vec::new(),
        })
    }

    /// The seat `player` holds here, if any.
    pub fn seat_of(&self, player: Uuid) -> Option<usize> {
        self.seats.iter().find(|s| s.player_id == Some(player)).map(|s| s.seat)
    }

    /// Whether `player` hosts the table or holds one of its seats.
    pub fn is_member(&self, player: Uuid) -> bool {
        player == self.host_id || self.seat_of(player).is_some()
    }
}

/// One seat at a table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeatRecord {
    pub seat: usize,
    pub player_id: Option<Uuid>,
    pub player_name: Option<String>,
    pub controller: Controller,
    pub joined_at: Option<i64>,
    /// The client seed the seat's player gave ('' for none).
    pub client_seed: String,
}

impl SeatRecord {
    pub(super) fn from_row(r: &AnyRow) -> StoreResult<Self> {
        let player_id: Option<String> = r.try_get("player_id")?;
        Ok(Self {
            seat: r.try_get::<i64, _>("seat")? as usize,
            player_id: player_id.as_deref().map(parse_uuid).transpose()?,
            player_name: r.try_get("name")?,
            controller: {
                let column: String = r.try_get("controller")?;
                Controller::parse(&column)
                    .ok_or_else(|| StoreError::Corrupt(format!("controller {column:?}")))?
            },
            joined_at: r.try_get("joined_at")?,
            client_seed: r.try_get("client_seed")?,
        })
    }
}

/// What [`super::Store::set_client_seed`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SeedUpdate {
    Set,
    /// The table has started (or closed): its client seed is fixed.
    NotOpen,
    /// The player holds no seat at the table.
    NotSeated,
}

/// What the lobby asks for.
#[derive(Debug, Clone)]
pub struct TableFilter {
    pub status: TableStatus,
    pub game: Option<String>,
    pub party: Option<bool>,
    pub has_free_seat: bool,
    /// Keyset cursor: tables created strictly before this (created_at, id).
    pub after: Option<(i64, Uuid)>,
    pub limit: usize,
}

/// What came of a request to start a table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StartOutcome {
    Started,
    /// It had started already, or was closed.
    NotOpen,
    /// The caller is not (or no longer) its host.
    NotHost,
    /// This many seats are empty and bots were not asked for.
    SeatsEmpty(usize),
}

/// One entry of a table's append-only log: an action and what it caused.
#[derive(Debug, Clone, PartialEq)]
pub struct LogEntry {
    /// 1, 2, 3, … per table, without gaps.
    pub seq: i64,
    /// The seat that acted; `None` for the table's own entries (start, finish).
    pub seat: Option<usize>,
    /// Who acted: `human`, `timeout`, `bot`, `forced` (the server made the only legal move),
    /// or `server` for the table's own entries.
    pub actor: String,
    pub action: serde_json::Value,
    /// The events and the clock after them, as sent to clients.
    pub payload: serde_json::Value,
    pub at: i64,
}

impl LogEntry {
    pub(super) fn from_row(r: &AnyRow) -> StoreResult<Self> {
        let json = |col: &str| json_column(r, col);
        Ok(Self {
            seq: r.try_get("seq")?,
            seat: r.try_get::<Option<i64>, _>("seat")?.map(|s| s as usize),
            actor: r.try_get("actor")?,
            action: json("action")?,
            payload: json("events")?,
            at: r.try_get("at")?,
        })
    }
}

/// A table in play as the lease keeper sees it ([`super::Store::tables_in_play`]).
#[derive(Debug, Clone)]
pub struct TableInPlay {
    pub id: Uuid,
    /// The instance that drives it, if any.
    pub owner: Option<String>,
    /// Whether the asking instance may take it.
    pub claimable: bool,
}

/// A hall-of-shame entry to record.
#[derive(Debug, Clone)]
pub struct NewShame {
    pub game: String,
    pub player_id: Option<Uuid>,
    pub name: String,
    /// `dicking` or `up_board`.
    pub kind: String,
    pub pieces_home: i64,
}

/// A recorded hall-of-shame entry.
#[derive(Debug, Clone, Serialize)]
pub struct ShameRecord {
    pub id: Uuid,
    pub table_id: Uuid,
    pub game: String,
    pub player_id: Option<Uuid>,
    pub name: String,
    pub kind: String,
    pub pieces_home: i64,
    pub at: i64,
}

impl ShameRecord {
    pub(super) fn from_row(r: &AnyRow) -> StoreResult<Self> {
        let player_id: Option<String> = r.try_get("player_id")?;
        Ok(Self {
            id: parse_uuid(&r.try_get::<String, _>("id")?)?,
            table_id: parse_uuid(&r.try_get::<String, _>("table_id")?)?,
            game: r.try_get("game")?,
            player_id: player_id.as_deref().map(parse_uuid).transpose()?,
            name: r.try_get("name")?,
            kind: r.try_get("kind")?,
            pieces_home: r.try_get("pieces_home")?,
            at: r.try_get("at")?,
        })
    }
}

/// What the hall of shame is asked for.
#[derive(Debug, Clone, Default)]
pub struct ShameFilter {
    pub game: Option<String>,
    pub player: Option<Uuid>,
    pub after: Option<(i64, Uuid)>,
    pub limit: usize,
}
