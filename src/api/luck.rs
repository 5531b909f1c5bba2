//! The luck and fairness ledger over HTTP (docs/luck.md): `GET /v1/players/{id}/luck` (a
//! player's dice per game against chance, and backgammon luck), `GET /v1/fairness` (the site's,
//! per game) and `GET /v1/players/me/dice` (every die the player threw, with what proves it, as
//! NDJSON). All read the ledger's sums, never the logs, except the download, which streams them a
//! page at a time. As on profiles, private tables are counted only for the player themselves.

use super::{
    error::{ApiError, ApiResult},
    extract::{Auth, Json, Path, Query},
    state::AppState,
};
use crate::{
    clock::rfc3339,
    ledger::{DiceReport, thrown},
    store::{LedgerSums, Store},
};
use axum::{
    Router,
    body::{Body, Bytes},
    extract::State,
    http::header,
    response::{IntoResponse, Response},
    routing::get,
};
use serde::{Deserialize, Serialize};
use std::time::Duration;
use tokio::sync::mpsc;
use uuid::Uuid;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/v1/players/{id}/luck", get(player_luck))
        .route("/v1/fairness", get(fairness))
        .route("/v1/players/me/dice", get(my_dice))
}

/// A player's most recent counted tables listed with their luck.
const RECENT_TABLES: i64 = 20;

#[derive(Debug, Serialize)]
struct GameLedgerView {
    game: &'static str,
    /// Tables counted.
    tables: i64,
    #[serde(flatten)]
    dice: DiceReport,
    /// Backgammon: the summed luck of the rolls (cubeless points) and its mean per table.
    #[serde(skip_serializing_if = "Option::is_none")]
    luck: Option<LuckView>,
}

#[derive(Debug, Serialize)]
struct LuckView {
    total: f64,
    rolls: i64,
    per_table: f64,
    per_roll: f64,
}

fn thousandth(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

impl From<LedgerSums> for GameLedgerView {
    fn from(s: LedgerSums) -> Self {
        let luck = (s.game == crate::games::GameKind::Backgammon).then(|| LuckView {
            total: thousandth(s.luck),
            rolls: s.luck_rolls,
            per_table: thousandth(if s.tables > 0 { s.luck / s.tables as f64 } else { 0.0 }),
            per_roll: thousandth(if s.luck_rolls > 0 { s.luck / s.luck_rolls as f64 } else { 0.0 }),
        });
        Self { game: s.game.as_str(), tables: s.tables, dice: s.dice.report(), luck }
    }
}

#[derive(Debug, Serialize)]
struct PlayerLuckView {
    player_id: Uuid,
    /// One per game the player has counted tables in.
    games: Vec<GameLedgerView>,
    /// The newest counted tables (at most 20), with the player's dice and luck at each.
    recent: Vec<TableLuckView>,
}

#[derive(Debug, Serialize)]
struct TableLuckView {
    table_id: Uuid,
    game: &'static str,
    seat: usize,
    finished_at: String,
    dice: u64,
    sixes: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    doubles: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    luck: Option<f64>,
}

async fn player_luck(
    State(state): State<AppState>,
    viewer: Option<Auth>,
    Path(id): Path<Uuid>,
) -> ApiResult<Json<PlayerLuckView>> {
    state.store.player(id).await?.ok_or_else(|| ApiError::not_found("no such player"))?;
    let own = viewer.is_some_and(|Auth(p)| p.id == id);
    let games = state.store.player_ledger(id, own).await?;
    let recent = state.store.player_ledger_seats(id, own, RECENT_TABLES).await?;
    Ok(Json(PlayerLuckView {
        player_id: id,
        games: games.into_iter().map(Into::into).collect(),
        recent: recent
            .into_iter()
            .map(|r| TableLuckView {
                table_id: r.table_id,
                game: r.game.as_str(),
                seat: r.seat,
                finished_at: rfc3339(r.finished_at),
                dice: r.dice.dice(),
                sixes: r.dice.sixes(),
                doubles: (r.dice.pairs > 0).then_some(r.dice.doubles),
                luck: r.luck.map(thousandth),
            })
            .collect(),
    }))
}

#[derive(Debug, Serialize)]
struct FairnessView {
    /// One per game with counted tables: every die of every finished table, private ones too.
    games: Vec<GameLedgerView>,
}

async fn fairness(State(state): State<AppState>) -> ApiResult<Json<FairnessView>> {
    let games = state.store.site_ledger().await?;
    Ok(Json(FairnessView { games: games.into_iter().map(Into::into).collect() }))
}

/// No query parameters (an unknown one is refused).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct NoQuery {}

/// One line of the dice download.
#[derive(Debug, Serialize)]
struct ProvenDie<'a> {
    table_id: Uuid,
    seq: i64,
    /// The die's index among every die thrown at the table: die #k of the recipe.
    k: u64,
    value: u8,
    seat: usize,
    server_seed: &'a str,
    seed_commitment: &'a str,
    client_seed: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    reveal: Option<&'a serde_json::Value>,
}

/// Tables, and entries of a table, read at a time by the download.
const DOWNLOAD_PAGE: i64 = 64;
const ENTRY_PAGE: i64 = 256;
/// How long a piece of the download waits for the client to take the one before.
const SEND_TIMEOUT: Duration = Duration::from_secs(30);

async fn my_dice(
    State(state): State<AppState>,
    Auth(me): Auth,
    Query(_): Query<NoQuery>,
) -> ApiResult<Response> {
    // The first page is read before the answer, so a store that fails is a problem, not a
    // short body.
    let first = state.store.player_finished_seats(me.id, None, DOWNLOAD_PAGE).await?;
    let body = stream_dice(state.store.clone(), me.id, first);
    Ok((
        [
            (header::CONTENT_TYPE, "application/x-ndjson".to_string()),
            (header::CONTENT_DISPOSITION, format!("attachment; filename=\"luddo-dice-{}.ndjson\"", me.id)),
        ],
        body,
    )
        .into_response())
}

/// The download's body: one JSON line per die the player threw at a finished table, in order of
/// the tables' finish and of the dice at each, written by a task a table at a time.
fn stream_dice(store: Store, player: Uuid, first: Vec<(Uuid, usize, i64)>) -> Body {
    let (pieces, written) = mpsc::channel::<Result<Bytes, std::io::Error>>(1);
    tokio::spawn(async move {
        let send = async |piece: Result<Bytes, std::io::Error>| {
            matches!(tokio::time::timeout(SEND_TIMEOUT, pieces.send(piece)).await, Ok(Ok(())))
        };
        let mut page = first;
        loop {
            let last = page.last().map(|&(id, _, at)| (at, id));
            for &(id, seat, _) in &page {
                match table_dice(&store, id, seat).await {
                    Ok(lines) if lines.is_empty() => {}
                    Ok(lines) => {
                        if !send(Ok(lines.into())).await {
                            return;
                        }
                    }
                    Err(e) => {
                        tracing::warn!(table = %id, error = %e, "the dice download's read failed: its body ends short");
                        send(Err(std::io::Error::other("the download ended early"))).await;
                        return;
                    }
                }
            }
            let Some(after) = last.filter(|_| page.len() as i64 == DOWNLOAD_PAGE) else { return };
            page = match store.player_finished_seats(player, Some(after), DOWNLOAD_PAGE).await {
                Ok(page) => page,
                Err(e) => {
                    tracing::warn!(error = %e, "the dice download's read failed: its body ends short");
                    send(Err(std::io::Error::other("the download ended early"))).await;
                    return;
                }
            };
        }
    });
    let lines = futures_util::stream::unfold(written, |mut written| async move {
        written.recv().await.map(|piece| (piece, written))
    });
    Body::from_stream(futures_util::StreamExt::fuse(lines))
}

/// The NDJSON lines of `seat`'s dice at finished table `id`.
async fn table_dice(store: &Store, id: Uuid, seat: usize) -> crate::store::StoreResult<Vec<u8>> {
    let Some(table) = store.table(id).await? else { return Ok(vec![]) };
    let mut out = vec![];
    let (mut after, mut k) = (0, 0u64);
    loop {
        let page = store.raw_entries_page(id, after, ENTRY_PAGE).await?;
        let Some(&(last, _, _)) = page.last() else { break };
        after = last;
        for (seq, entry_seat, column) in &page {
            let events =
                column.get("events").and_then(|e| e.as_array()).map(Vec::as_slice).unwrap_or_default();
            for throw in thrown(*entry_seat, events) {
                for value in throw.dice {
                    if throw.seat == seat {
                        let line = ProvenDie {
                            table_id: id,
                            seq: *seq,
                            k,
                            value,
                            seat,
                            server_seed: &table.seed,
                            seed_commitment: &table.seed_commitment,
                            client_seed: &table.client_seed,
                            reveal: column.get("reveal"),
                        };
                        serde_json::to_writer(&mut out, &line)
                            .map_err(|e| crate::store::StoreError::Corrupt(e.to_string()))?;
                        out.push(b'\n');
                    }
                    k += 1;
                }
            }
        }
        if (page.len() as i64) < ENTRY_PAGE {
            break;
        }
    }
    Ok(out)
}
