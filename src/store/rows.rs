//! The records the store reads and writes, and their decoding from rows.

use super::{StoreError, StoreResult, parse_uuid};
use crate::{
    bots::Level,
    config::{TableClock, Timers},
    games::{GameKind, JsonText},
    rules::ShameKind,
};
use serde::{Deserialize, Serialize};
use sqlx::{Row, any::AnyRow};
use uuid::Uuid;

/// `as_str` (public) and `parse` (for reading rows) of an enum stored as text, from one list of
/// spellings: the two can never disagree. Each spelling is also serde's (a test checks it), so
/// the API and the columns spell a value alike.
macro_rules! spelled {
    ($ty:ident, $column:literal, { $($variant:ident => $text:literal),+ $(,)? }) => {
        impl $ty {
            #[doc = concat!("How the `", $column, "` column spells it.")]
            pub fn as_str(self) -> &'static str {
                match self {
                    $($ty::$variant => $text,)+
                }
            }

            pub(super) fn parse(column: &str) -> Option<Self> {
                match column {
                    $($text => Some($ty::$variant),)+
                    _ => None,
                }
            }
        }
    };
}

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

/// A bearer token, without its secret (which is never stored) or its hash (never shown).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Token {
    pub id: Uuid,
    pub player_id: Uuid,
    /// The holder's own name for it ("sign-up" for the one sign-up gave).
    pub label: Option<String>,
    pub created_at: i64,
    /// Refreshed at most once an hour.
    pub last_used_at: Option<i64>,
    /// None: never expires.
    pub expires_at: Option<i64>,
}

impl Token {
    /// Reads a token from `r`, whose id and creation time are the columns named (a row joined
    /// with its player renames them).
    pub(super) fn from_row(r: &AnyRow, id: &str, created_at: &str, player_id: Uuid) -> StoreResult<Self> {
        Ok(Self {
            id: parse_uuid(&r.try_get::<String, _>(id)?)?,
            player_id,
            label: r.try_get("label")?,
            created_at: r.try_get(created_at)?,
            last_used_at: r.try_get("last_used_at")?,
            expires_at: r.try_get("expires_at")?,
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

spelled!(Visibility, "game_tables.visibility", { Public => "public", Private => "private" });

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

spelled!(TableStatus, "game_tables.status", {
    Open => "open",
    Playing => "playing",
    Finished => "finished",
    Closed => "closed",
});

/// Who plays a seat: its player, or a bot (an empty seat filled at start, or a seat taken over
/// after timeouts).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Controller {
    Human,
    Bot,
}

spelled!(Controller, "seats.controller", { Human => "human", Bot => "bot" });
spelled!(Level, "game_tables.bot_level", { Easy => "easy", Normal => "normal", Strong => "strong" });

/// Everything needed to create a table.
#[derive(Debug, Clone)]
pub struct NewTable {
    pub id: Uuid,
    pub game: GameKind,
    pub options: serde_json::Value,
    pub seat_count: usize,
    pub visibility: Visibility,
    pub party: bool,
    /// Every clock of the table ten times the server's ([`crate::config::Timers::of_table`]);
    /// private tables only.
    pub long_clock: bool,
    /// Fresh dice: the seats' dice chains are mixed into their rolls (docs/fairness.md).
    pub fresh_dice: bool,
    /// How well the bots that fill empty seats play.
    pub bot_level: Level,
    pub invite_code: Option<String>,
    pub host_id: Uuid,
    /// The secret server seed, hex; revealed only when the game ends.
    pub seed: String,
    pub seed_commitment: String,
    /// The client seed the host gives its own seat (it may change it until the start, like any
    /// seated player).
    pub host_client_seed: String,
    /// The head of the dice chain the host commits its own seat to (fresh dice), if any.
    pub host_dice_chain: Option<String>,
    /// Fixed dice for tests (only accepted by a server in test mode).
    pub dice_script: Option<Vec<u8>>,
    /// Opened by quick play: it starts by itself when full.
    pub quick: Option<QuickPlay>,
}

impl NewTable {
    /// A public table of `game` hosted by `host_id`, on a fresh server seed (its commitment
    /// drawn from it here, nowhere else), with the defaults a caller changes by struct update:
    /// no party or long clock, the default bot level, no invite code, client seed or scripted
    /// dice, not a quick-play table.
    pub fn new(game: GameKind, options: serde_json::Value, seat_count: usize, host_id: Uuid) -> Self {
        let seed = crate::rules::dice::ServerSeed::generate();
        Self {
            id: Uuid::new_v4(),
            game,
            options,
            seat_count,
            visibility: Visibility::Public,
            party: false,
            long_clock: false,
            fresh_dice: true,
            bot_level: Level::default(),
            invite_code: None,
            host_id,
            seed: seed.to_hex(),
            seed_commitment: seed.commitment(),
            host_client_seed: String::new(),
            host_dice_chain: None,
            dice_script: None,
            quick: None,
        }
    }
}

/// What quick play sets on a table it opens.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct QuickPlay {
    /// How long after its opening bots fill the seats still empty and the table starts (stored
    /// as `bots_at`, the opening's time plus this); `None`: it waits for players.
    pub bots_after_seconds: Option<u64>,
}

/// A table as stored, with its seats.
#[derive(Debug, Clone)]
pub struct TableRecord {
    pub id: Uuid,
    pub game: GameKind,
    pub options: serde_json::Value,
    pub seat_count: usize,
    pub visibility: Visibility,
    pub party: bool,
    /// Every clock of the table ten times the server's; private tables only.
    pub long_clock: bool,
    /// Fresh dice: the seats' dice chains are mixed into their rolls.
    pub fresh_dice: bool,
    /// How well the bots that fill empty seats play.
    pub bot_level: Level,
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
    /// The table a rematch of this finished one opened.
    pub rematch_id: Option<Uuid>,
    /// When (Unix millis) bots fill a quick-play table's empty seats and start it, if they do.
    pub bots_at: Option<i64>,
    pub seats: Vec<SeatRecord>,
}

/// A text column holding one of an enum's spellings (`parse` reads them); any other text is a
/// corrupt row, never the caller's fault.
fn enum_column<T>(r: &AnyRow, col: &str, parse: impl FnOnce(&str) -> Option<T>) -> StoreResult<T> {
    let text: String = r.try_get(col)?;
    parse(&text).ok_or_else(|| StoreError::Corrupt(format!("{col} {text:?}")))
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
        let dice_script = opt_json("dice_script")?
            .map(serde_json::from_value)
            .transpose()
            .map_err(|e| StoreError::Corrupt(format!("dice_script: {e}")))?;
        Ok(Self {
            id: parse_uuid(&r.try_get::<String, _>("id")?)?,
            game: enum_column(r, "game", GameKind::parse)?,
            options: json("options")?,
            seat_count: r.try_get::<i64, _>("seat_count")? as usize,
            visibility: enum_column(r, "visibility", Visibility::parse)?,
            party: r.try_get::<i64, _>("party")? != 0,
            long_clock: r.try_get::<i64, _>("long_clock")? != 0,
            fresh_dice: r.try_get::<i64, _>("fresh_dice")? != 0,
            bot_level: enum_column(r, "bot_level", Level::parse)?,
            invite_code: r.try_get("invite_code")?,
            status: enum_column(r, "status", TableStatus::parse)?,
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
            rematch_id: r
                .try_get::<Option<String>, _>("rematch_id")?
                .as_deref()
                .map(parse_uuid)
                .transpose()?,
            bots_at: r.try_get("bots_at")?,
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

    /// The clocks the table runs on, on a server with `timers`.
    pub fn clock(&self, timers: &Timers) -> TableClock {
        timers.of_table(self.party, self.long_clock)
    }
}

/// What the host of an open table may change before the start, as it is to be stored: the
/// normalized options, and the invite code that goes with the visibility.
#[derive(Debug, Clone)]
pub struct TableSettings {
    pub options: serde_json::Value,
    pub visibility: Visibility,
    pub party: bool,
    pub long_clock: bool,
    pub fresh_dice: bool,
    pub bot_level: Level,
    pub invite_code: Option<String>,
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
    /// The head of the dice chain the seat's player committed to (fresh dice), if any.
    pub dice_chain: Option<String>,
}

impl SeatRecord {
    pub(super) fn from_row(r: &AnyRow) -> StoreResult<Self> {
        let player_id: Option<String> = r.try_get("player_id")?;
        Ok(Self {
            seat: r.try_get::<i64, _>("seat")? as usize,
            player_id: player_id.as_deref().map(parse_uuid).transpose()?,
            player_name: r.try_get("name")?,
            controller: enum_column(r, "controller", Controller::parse)?,
            joined_at: r.try_get("joined_at")?,
            client_seed: r.try_get("client_seed")?,
            dice_chain: r.try_get("dice_chain")?,
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
    pub game: Option<GameKind>,
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

/// Who played a log entry (the `actor` column, and `actor` in entry messages).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PlayedBy {
    /// The seat's player.
    Human,
    /// The seat's bot, because the player's clock ran out.
    Timeout,
    /// The bot holding the seat.
    Bot,
    /// The server, making the only legal move.
    Forced,
    /// The table itself: its start, takeovers, reclaims and finish.
    Server,
}

spelled!(PlayedBy, "actions.actor", {
    Human => "human",
    Timeout => "timeout",
    Bot => "bot",
    Forced => "forced",
    Server => "server",
});

/// What a log entry caused and where it left the table (the `events` column, stored as JSON
/// text and sent in the entry's WebSocket message).
///
/// The fields are in the order of the stored keys (alphabetical, as the column was first
/// written from an untyped JSON object), so the text stays byte-for-byte what it was. Each has
/// a default: entries written before `legal` (or `state`) existed lack it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct EntryEvents {
    /// When the clock of the seat to act runs out after the entry (Unix ms).
    #[serde(default)]
    pub deadline: Option<i64>,
    /// What the game reported, as the engine renders it.
    #[serde(default)]
    pub events: Vec<serde_json::Value>,
    /// What each seat may post next, by seat (nothing once the game is over): each seat's list
    /// as JSON text.
    #[serde(default)]
    pub legal: Vec<JsonText>,
    /// The game state after the entry, as `GET /v1/tables/{id}` shows it in `play.state`.
    /// Absent from entries written before it was stored (see docs/architecture.md).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub state: Option<JsonText>,
    /// Whose decision the game waits for next.
    #[serde(default)]
    pub to_act: Option<usize>,
    /// Fresh dice: the link of its seat's dice chain the entry consumed (64 hex characters),
    /// which every die drawn while applying it mixes in (docs/fairness.md); absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reveal: Option<String>,
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
    pub game: GameKind,
    pub player_id: Option<Uuid>,
    pub name: String,
    pub kind: ShameKind,
    pub pieces_home: i64,
}

// The rules name the kinds of shame; how the store spells them is the store's business, so the
// spelling lives here rather than in the pure rules.
spelled!(ShameKind, "shame.kind", { Dicking => "dicking", UpBoard => "up_board" });

/// A recorded hall-of-shame entry.
#[derive(Debug, Clone, Serialize)]
pub struct ShameRecord {
    pub id: Uuid,
    pub table_id: Uuid,
    pub game: GameKind,
    pub player_id: Option<Uuid>,
    pub name: String,
    pub kind: ShameKind,
    pub pieces_home: i64,
    pub at: i64,
}

impl ShameRecord {
    pub(super) fn from_row(r: &AnyRow) -> StoreResult<Self> {
        let player_id: Option<String> = r.try_get("player_id")?;
        Ok(Self {
            id: parse_uuid(&r.try_get::<String, _>("id")?)?,
            table_id: parse_uuid(&r.try_get::<String, _>("table_id")?)?,
            game: enum_column(r, "game", GameKind::parse)?,
            player_id: player_id.as_deref().map(parse_uuid).transpose()?,
            name: r.try_get("name")?,
            kind: enum_column(r, "kind", ShameKind::parse)?,
            pieces_home: r.try_get("pieces_home")?,
            at: r.try_get("at")?,
        })
    }
}

/// What the hall of shame is asked for.
#[derive(Debug, Clone, Default)]
pub struct ShameFilter {
    pub game: Option<GameKind>,
    pub player: Option<Uuid>,
    pub after: Option<(i64, Uuid)>,
    pub limit: usize,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::testing::{luddo_for_two, scratch_store};

    /// The columns spell each value as the API does (serde), and read back what they wrote.
    #[test]
    fn every_column_spelling_is_the_serde_one_and_parses_back() {
        fn check<T: Copy + PartialEq + std::fmt::Debug + Serialize>(
            all: &[T],
            as_str: fn(T) -> &'static str,
            parse: fn(&str) -> Option<T>,
        ) {
            for &v in all {
                assert_eq!(serde_json::to_value(v).unwrap(), as_str(v), "{v:?}");
                assert_eq!(parse(as_str(v)), Some(v));
            }
            assert_eq!(parse("nonsense"), None);
        }
        check(&[Visibility::Public, Visibility::Private], Visibility::as_str, Visibility::parse);
        check(
            &[TableStatus::Open, TableStatus::Playing, TableStatus::Finished, TableStatus::Closed],
            TableStatus::as_str,
            TableStatus::parse,
        );
        check(&[Controller::Human, Controller::Bot], Controller::as_str, Controller::parse);
        check(&[Level::Easy, Level::Normal, Level::Strong], Level::as_str, Level::parse);
        check(&[ShameKind::Dicking, ShameKind::UpBoard], ShameKind::as_str, ShameKind::parse);
        check(
            &[PlayedBy::Human, PlayedBy::Timeout, PlayedBy::Bot, PlayedBy::Forced, PlayedBy::Server],
            PlayedBy::as_str,
            PlayedBy::parse,
        );
        check(GameKind::ALL, GameKind::as_str, GameKind::parse);
    }

    #[tokio::test]
    async fn a_stored_table_of_an_unknown_game_is_a_corrupt_row() {
        let (store, _dir) = scratch_store().await;
        let host = store.create_player("host", "hash", None).await.unwrap();
        let table = store.create_table(&luddo_for_two(host.id), 0, usize::MAX).await.unwrap();
        assert_eq!(table.game, GameKind::Luddo);
        sqlx::query("UPDATE game_tables SET game = 'chess' WHERE id = $1")
            .bind(table.id.to_string())
            .execute(&store.pool)
            .await
            .unwrap();
        assert!(matches!(store.table(table.id).await, Err(StoreError::Corrupt(m)) if m == r#"game "chess""#));
    }

    /// Migration 0012 gives the tables stored before it no long clock: an open private table
    /// from an older build reads back with `long_clock` false, and a host may then give it one.
    #[tokio::test]
    async fn a_table_from_before_long_clocks_has_none() {
        sqlx::any::install_default_drivers();
        let dir = std::env::temp_dir().join(format!("luddo-unit-{}", Uuid::new_v4().simple()));
        std::fs::create_dir_all(&dir).unwrap();
        let _dir = crate::store::testing::TempDir(dir.clone());
        let url = format!("sqlite://{}?mode=rwc", dir.join("t.db").display());
        let pool = sqlx::AnyPool::connect(&url).await.unwrap();
        let before = crate::store::migrations::migrator_before(crate::store::Backend::Sqlite, 12).await;
        before.run(&pool).await.unwrap();
        let (host, id) = (Uuid::new_v4(), Uuid::new_v4());
        sqlx::query(
            "INSERT INTO players (id, name, token_hash, created_at) VALUES ($1, 'Old', 'oldhash', 5)",
        )
        .bind(host.to_string())
        .execute(&pool)
        .await
        .unwrap();
        sqlx::query(
            "INSERT INTO game_tables (id, game, options, seat_count, visibility, party, invite_code, status,
                host_id, seed, seed_commitment, client_seed, created_at)
             VALUES ($1, 'luddo', '{}', 2, 'private', 0, 'CODE', 'open', $2, 'ab', 'cd', '', 5)",
        )
        .bind(id.to_string())
        .bind(host.to_string())
        .execute(&pool)
        .await
        .unwrap();
        pool.close().await;

        let store = crate::store::Store::open(&url).await.unwrap();
        let table = store.table(id).await.unwrap().unwrap();
        assert!(!table.long_clock);
        let settings = TableSettings {
            options: table.options.clone(),
            visibility: table.visibility,
            party: table.party,
            long_clock: true,
            fresh_dice: table.fresh_dice,
            bot_level: table.bot_level,
            invite_code: table.invite_code.clone(),
        };
        store.update_table_settings(id, &settings).await.unwrap().unwrap();
        assert!(store.table(id).await.unwrap().unwrap().long_clock);
    }
}
