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
    access::visible_table,
    error::{ApiError, ApiResult, ErrorCode},
    extract::{Auth, Json, Path, Query},
    paging::{Listed, Page, PageRequest},
    state::AppState,
    ws::SEND_TIMEOUT,
};
use crate::{
    games::GameKind,
    lobby::TableView,
    rules::backgammon::{
        BackgammonEvent, BackgammonOptions,
        mat::{MatHeader, MatWriter},
    },
    store::{LogEntry, Store, TableRecord, TableStatus},
    table::EntryMessage,
    verify::RECORD_FORMAT,
};
use axum::{
    Router,
    body::{Body, Bytes},
    extract::State,
    http::{StatusCode, header},
    response::{IntoResponse, Response},
    routing::get,
};
use chrono::Datelike;
use serde::{Deserialize, Serialize, Serializer};
use std::time::Duration;
use tokio::sync::{Semaphore, SemaphorePermit, mpsc};
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

/// How many records one process writes at once. Each read holds a page of the log and a
/// database read at a time; a reader past the bound is told to come back (503 `records_busy`,
/// docs/records.md) rather than queued, so that waiting readers hold nothing either.
pub const MAX_RECORD_READS: usize = 8;

static READS: Semaphore = Semaphore::const_new(MAX_RECORD_READS);

/// How many log entries one read of the store brings: what a record being written holds of the
/// log at a time.
const RECORD_PAGE: i64 = 256;

/// The whole game in one file: `.mat` for backgammon unless `format=json`, JSON otherwise;
/// written as the log is read, a page at a time, whatever its length. A failure before the
/// first page is written is answered as a problem; one after it ends the body short (the
/// client sees an incomplete response) and is logged.
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
    let permit = READS.try_acquire().map_err(|_| ApiError {
        retry_after: Some(Duration::from_secs(1)),
        ..ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            ErrorCode::RecordsBusy,
            "the server is writing as many records as it writes at once; try again shortly",
        )
    })?;
    let mut first = vec![];
    let mut writer = match format {
        RecordFormat::Json => RecordWriter::json(&state.lobby.view(&table, None), &mut first),
        RecordFormat::Mat => {
            let review = review_comments(&state.store, &table).await?;
            RecordWriter::Mat(match_file(&table, review, &mut first)?)
        }
    };
    let page = state.store.entries_page(id, 0, i64::MAX, RECORD_PAGE).await?;
    writer.page(&page, &mut first).map_err(|Unreadable| unreadable())?;
    let rest = Rest { after: page.last().map_or(0, |e| e.seq), done: (page.len() as i64) < RECORD_PAGE };
    drop(page);
    let body = write_rest(state.store.clone(), id, permit, writer, first, rest);
    Ok(match format {
        RecordFormat::Json => {
            ([(header::CONTENT_TYPE, "application/json".to_string())], body).into_response()
        }
        RecordFormat::Mat => (
            [
                (header::CONTENT_TYPE, "text/plain; charset=utf-8".to_string()),
                (header::CONTENT_DISPOSITION, format!("attachment; filename=\"luddo-{id}.mat\"")),
            ],
            body,
        )
            .into_response(),
    })
}

/// Where the rest of a record's log begins.
struct Rest {
    /// The last `seq` written.
    after: i64,
    /// The log has no more entries.
    done: bool,
}

/// The response body: `first` (the record's beginning, already written), then the rest of the
/// log, read and written a page at a time by a task of its own that holds the read's `permit`
/// until the record ends. Each piece waits at most [`SEND_TIMEOUT`] for the client to take the
/// one before it, so a client that stops reading gives its read back; a body whose task ends
/// before the record does ends in an error, never as a shorter record.
fn write_rest(
    store: Store,
    id: Uuid,
    permit: SemaphorePermit<'static>,
    mut writer: RecordWriter,
    first: Vec<u8>,
    mut rest: Rest,
) -> Body {
    let (pieces, written) = mpsc::channel::<(Bytes, bool)>(1);
    tokio::spawn(async move {
        let _permit = permit;
        let mut piece = first;
        let send = async |piece: Vec<u8>, last: bool| {
            matches!(tokio::time::timeout(SEND_TIMEOUT, pieces.send((piece.into(), last))).await, Ok(Ok(())))
        };
        loop {
            if rest.done {
                writer.end(&mut piece);
                send(piece, true).await;
                return;
            }
            if !send(piece, false).await {
                return;
            }
            let page = match store.entries_page(id, rest.after, i64::MAX, RECORD_PAGE).await {
                Ok(page) => page,
                Err(error) => {
                    tracing::warn!(table = %id, %error, "a record's read failed after its first page: its body ends short");
                    return;
                }
            };
            rest = Rest {
                after: page.last().map_or(rest.after, |e| e.seq),
                done: (page.len() as i64) < RECORD_PAGE,
            };
            piece = vec![];
            if writer.page(&page, &mut piece).is_err() {
                tracing::warn!(table = %id, after = rest.after, "a record's log holds an event its file cannot be written from: its body ends short");
                return;
            }
        }
    });
    // Fused: the compression layer polls a body once more after its end, which a bare
    // `unfold` answers with a panic.
    let pieces = futures_util::stream::unfold((written, false), |(mut written, ended)| async move {
        if ended {
            return None;
        }
        Some(match written.recv().await {
            Some((piece, last)) => (Ok(piece), (written, last)),
            None => {
                (Err(std::io::Error::other("the record's read ended before the record")), (written, true))
            }
        })
    });
    Body::from_stream(futures_util::StreamExt::fuse(pieces))
}

/// An event a `.mat` file cannot be written from: a log from before the current events.
struct Unreadable;

fn unreadable() -> ApiError {
    ApiError::conflict(
        ErrorCode::RecordUnavailable,
        "this table's log was written before the events GNU Backgammon's match file is made from; \
         its JSON record (format=json) has every entry",
    )
}

/// What writes a record, a page of the log at a time.
enum RecordWriter {
    /// The JSON record: what `luddo verify` reads (`crate::verify::TableLog`) and the web
    /// client replays; `entries` is how many it has written.
    Json {
        entries: usize,
    },
    Mat(MatWriter),
}

impl RecordWriter {
    /// The JSON record's writer, having written to `out` what comes before its entries: the
    /// table as shown to a stranger (no invite code).
    fn json(table: &TableView, out: &mut Vec<u8>) -> Self {
        out.extend_from_slice(b"{\"format\":");
        write_json(out, &RECORD_FORMAT);
        out.extend_from_slice(b",\"version\":1,\"table\":");
        write_json(out, table);
        out.extend_from_slice(b",\"entries\":[");
        Self::Json { entries: 0 }
    }

    /// Writes `entries`, the log's next page, to `out`.
    fn page(&mut self, entries: &[LogEntry], out: &mut Vec<u8>) -> Result<(), Unreadable> {
        match self {
            Self::Json { entries: written } => {
                for entry in entries {
                    if *written > 0 {
                        out.push(b',');
                    }
                    write_json(out, &EntryMessage::new(entry));
                    *written += 1;
                }
            }
            Self::Mat(writer) => {
                let mut text = String::new();
                for event in entries.iter().flat_map(|e| &e.events.events) {
                    writer.event(&BackgammonEvent::deserialize(event).map_err(|_| Unreadable)?, &mut text);
                }
                out.extend_from_slice(text.as_bytes());
            }
        }
        Ok(())
    }

    /// Writes the record's end to `out`.
    fn end(self, out: &mut Vec<u8>) {
        match self {
            Self::Json { .. } => out.extend_from_slice(b"]}"),
            Self::Mat(writer) => {
                let mut text = String::new();
                writer.finish(&mut text);
                out.extend_from_slice(text.as_bytes());
            }
        }
    }
}

/// `value` as JSON text, as `Json` answers it.
fn write_json(out: &mut Vec<u8>, value: &impl Serialize) {
    serde_json::to_writer(out, value).expect("a record's values serialize to JSON");
}

/// Most blunders a `.mat` file's comments list.
const MAT_BLUNDERS: usize = 50;

/// The comment lines of a finished table's review (docs/analysis.md), once it is written: each
/// seat's error rate, band, errors, blunders and luck, then its blunders (the first
/// [`MAT_BLUNDERS`]). None before the review is written.
async fn review_comments(store: &Store, table: &TableRecord) -> ApiResult<Vec<String>> {
    use crate::review::replay::DecisionKind;
    use crate::store::ReviewState;
    if table.status != TableStatus::Finished {
        return Ok(vec![]);
    }
    let ReviewState::Done(seats) = store.review_state(table.id).await? else { return Ok(vec![]) };
    let name = |seat: usize| player_name(table, seat);
    let mut lines = vec![format!(
        "Analysis: each decision rated by the server's network at {} (docs/analysis.md); equities per unit of cube",
        crate::review::eval::SEARCH
    )];
    for s in &seats {
        lines.push(format!(
            "{}: {:.1} mp per decision over {} decisions ({}), {} errors, {} blunders, luck {:+.3} over {} rolls",
            name(s.seat),
            s.error_rate,
            s.decisions,
            s.band.gnubg_name(),
            s.errors,
            s.blunders,
            s.luck,
            s.rolls
        ));
    }
    let mut after = 0;
    let mut blunders = vec![];
    while blunders.len() < MAT_BLUNDERS {
        let page = store.review_decisions(table.id, after, 512).await?;
        let Some(last) = page.last() else { break };
        after = last.number as i64;
        for d in page.into_iter().filter(|d| d.mark == Some(crate::review::Mark::Blunder)) {
            let what = match d.kind {
                DecisionKind::Play => {
                    let dice = d.dice.map(|[a, b]| format!("{a}{b} ")).unwrap_or_default();
                    format!("played {dice}{} ({} best)", d.played, d.best)
                }
                _ => format!("{} ({} best)", d.played.replace('_', " "), d.best.replace('_', " ")),
            };
            blunders.push(format!(
                "Blunder: game {}, {} {what}, equity lost {:.3}",
                d.game,
                name(d.seat),
                d.equity_loss
            ));
        }
    }
    blunders.truncate(MAT_BLUNDERS);
    lines.extend(blunders);
    Ok(lines)
}

fn player_name(table: &TableRecord, seat: usize) -> String {
    table
        .seats
        .iter()
        .find(|s| s.seat == seat)
        .and_then(|s| s.player_name.clone())
        .unwrap_or_else(|| format!("Bot (seat {seat})"))
}

/// The backgammon table's match file's writer, having written the file's header to `out`;
/// `review` are the review's comment lines, after the dice's.
fn match_file(table: &TableRecord, review: Vec<String>, out: &mut Vec<u8>) -> ApiResult<MatWriter> {
    let options: BackgammonOptions =
        serde_json::from_value(table.options.clone()).map_err(|_| unreadable())?;
    let name = |seat: usize| player_name(table, seat);
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
    comments.extend(review);
    let header = MatHeader {
        players: [name(0), name(1)],
        options,
        site: "Luddo".into(),
        match_id: table.id.to_string(),
        date: date.map(|d| (d.year(), d.month(), d.day())),
        comments,
    };
    let mut text = String::new();
    let writer = MatWriter::new(&header, &mut text);
    out.extend_from_slice(text.as_bytes());
    Ok(writer)
}
