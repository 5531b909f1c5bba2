//! A table's records, read from the store (so only what is committed), for anyone who may see
//! the table:
//!
//! - `GET /v1/tables/{id}/log`: the whole log as pages of the entries its WebSocket sends
//!   (`EntryMessage`), from the creation's first lobby entry to the finish;
//! - `GET /v1/tables/{id}/record`: the game in one file (docs/records.md): for backgammon GNU
//!   Backgammon's `.mat` ([`crate::rules::backgammon::mat`]), for every game (`?format=json`,
//!   the default but for backgammon) the table and its whole log, which `luddo verify` and the
//!   web client's replay read.

use super::{
    AppState,
    access::visible_table,
    error::{ApiError, ApiResult, ErrorCode},
    extract::{Auth, Json, Path, Query},
    paging::{Listed, Page, PageRequest},
    tables::TableView,
};
use crate::{
    games::GameKind,
    rules::backgammon::{
        BackgammonEvent, BackgammonOptions,
        mat::{self, MatHeader},
    },
    store::{LogEntry, TableRecord, TableStatus},
    table::EntryMessage,
    verify::RECORD_FORMAT,
};
use axum::{
    Router,
    extract::State,
    http::header,
    response::{IntoResponse, Response},
    routing::get,
};
use chrono::Datelike;
use serde::{Deserialize, Serialize, Serializer};
use uuid::Uuid;

pub fn router() -> Router<AppState> {
    Router::new().route("/v1/tables/{id}/log", get(log)).route("/v1/tables/{id}/record", get(record))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct LogQuery {
    invite_code: Option<String>,
    limit: Option<usize>,
    cursor: Option<String>,
}

/// A log entry on a page, written as the WebSocket writes it.
struct Entry(LogEntry);

impl Serialize for Entry {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        EntryMessage::new(&self.0).serialize(serializer)
    }
}

impl Listed for Entry {
    const KEY: &'static str = "entries";
}

/// One page of the table's log, oldest first. The cursor is the last entry's `seq` and the
/// table's id (a cursor of another table is refused).
async fn log(
    State(state): State<AppState>,
    viewer: Option<Auth>,
    Path(id): Path<Uuid>,
    Query(q): Query<LogQuery>,
) -> ApiResult<Json<Page<Entry>>> {
    let page = PageRequest::parse(q.limit, q.cursor.as_deref())?;
    let after = match page.after {
        None => 0,
        Some((seq, table)) if table == id && seq >= 0 => seq,
        Some(_) => {
            return Err(ApiError::bad_request(ErrorCode::InvalidQuery, "cursor is not one of this table's"));
        }
    };
    visible_table(&state, id, viewer.map(|Auth(p)| p.id), q.invite_code.as_deref()).await?;
    let entries = state.store.entries_page(id, after, i64::MAX, page.fetch() as i64).await?;
    let entries = Page::of(entries.into_iter().map(Entry).collect(), &page, |e| (e.0.seq, id));
    Ok(Json(entries))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RecordQuery {
    invite_code: Option<String>,
    format: Option<RecordFormat>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
enum RecordFormat {
    /// The table and its whole log (every game).
    Json,
    /// GNU Backgammon's match file (backgammon).
    Mat,
}

/// The JSON record: what `luddo verify` reads (`crate::verify::TableLog`) and the web client
/// replays. The table is shown as to a stranger (no invite code).
#[derive(Serialize)]
struct GameRecord {
    format: &'static str,
    version: u32,
    table: TableView,
    entries: Vec<Entry>,
}

/// How many log entries one read of the store brings.
const RECORD_PAGE: i64 = 1000;

/// The whole game in one file: `.mat` for backgammon unless `format=json`, JSON otherwise.
async fn record(
    State(state): State<AppState>,
    viewer: Option<Auth>,
    Path(id): Path<Uuid>,
    Query(q): Query<RecordQuery>,
) -> ApiResult<Response> {
    let table = visible_table(&state, id, viewer.map(|Auth(p)| p.id), q.invite_code.as_deref()).await?;
    let backgammon = table.game == GameKind::Backgammon;
    let format = q.format.unwrap_or(if backgammon { RecordFormat::Mat } else { RecordFormat::Json });
    if format == RecordFormat::Mat && !backgammon {
        return Err(ApiError::bad_request(
            ErrorCode::InvalidQuery,
            format!(
                "format=mat is GNU Backgammon's match file: a {} table's record is JSON",
                table.game.as_str()
            ),
        ));
    }
    let mut entries = vec![];
    loop {
        let after = entries.last().map_or(0, |e: &LogEntry| e.seq);
        let page = state.store.entries_page(id, after, i64::MAX, RECORD_PAGE).await?;
        let done = (page.len() as i64) < RECORD_PAGE;
        entries.extend(page);
        if done {
            break;
        }
    }
    match format {
        RecordFormat::Json => {
            let table = TableView::of(&table, None, &state);
            let entries = entries.into_iter().map(Entry).collect();
            Ok(Json(GameRecord { format: RECORD_FORMAT, version: 1, table, entries }).into_response())
        }
        RecordFormat::Mat => {
            let file = match_file(&table, &entries)?;
            let disposition = format!("attachment; filename=\"luddo-{id}.mat\"");
            Ok((
                [
                    (header::CONTENT_TYPE, "text/plain; charset=utf-8".to_string()),
                    (header::CONTENT_DISPOSITION, disposition),
                ],
                file,
            )
                .into_response())
        }
    }
}

/// The backgammon table's match as a `.mat` file.
fn match_file(table: &TableRecord, entries: &[LogEntry]) -> ApiResult<String> {
    let unreadable = || {
        ApiError::conflict(
            ErrorCode::RecordUnavailable,
            "this table's log was written before the events GNU Backgammon's match file is made from; \
             its JSON record (format=json) has every entry",
        )
    };
    let options: BackgammonOptions =
        serde_json::from_value(table.options.clone()).map_err(|_| unreadable())?;
    let mut events = vec![];
    for event in entries.iter().flat_map(|e| &e.events.events) {
        events.push(BackgammonEvent::deserialize(event).map_err(|_| unreadable())?);
    }
    let name = |seat: usize| {
        table
            .seats
            .iter()
            .find(|s| s.seat == seat)
            .and_then(|s| s.player_name.clone())
            .unwrap_or_else(|| format!("Bot (seat {seat})"))
    };
    let date = chrono::DateTime::from_timestamp_millis(table.started_at.unwrap_or(table.created_at));
    let mut comments = vec![format!(
        "Dice: HMAC-SHA256 of the server seed and the client seed (docs/fairness.md); the server \
         seed's SHA-256 commitment is {}",
        table.seed_commitment
    )];
    if table.started_at.is_some() {
        comments.push(format!("Client seed: {}", table.client_seed));
    }
    if matches!(table.status, TableStatus::Finished | TableStatus::Closed) {
        comments.push(format!("Server seed: {}", table.seed));
    }
    let header = MatHeader {
        players: [name(0), name(1)],
        options,
        site: "Luddo".into(),
        match_id: table.id.to_string(),
        date: date.map(|d| (d.year(), d.month(), d.day())),
        comments,
    };
    Ok(mat::write(&header, &events))
}
