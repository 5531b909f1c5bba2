//! A table's records: `GET /v1/tables/{id}/log`, the whole log as pages of the entries its
//! WebSocket sends (`EntryMessage`), from the creation's first lobby entry to the finish, read
//! from the store (so only what is committed), for anyone who may see the table.

use super::{
    AppState,
    access::visible_table,
    error::{ApiError, ApiResult, ErrorCode},
    extract::{Auth, Json, Path, Query},
    paging::{Listed, Page, PageRequest},
};
use crate::{store::LogEntry, table::EntryMessage};
use axum::{Router, extract::State, routing::get};
use serde::{Deserialize, Serialize, Serializer};
use uuid::Uuid;

pub fn router() -> Router<AppState> {
    Router::new().route("/v1/tables/{id}/log", get(log))
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
