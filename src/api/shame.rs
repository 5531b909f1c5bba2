//! The hall of shame: every 8-piece dicking and every resignation ("up board") at a public
//! table, newest first.

use super::{
    error::ApiResult,
    extract::{Json, Query},
    games::parse_game,
    paging::{Listed, Page, PageRequest},
    state::AppState,
};
use crate::{clock::rfc3339, store::ShameFilter};
use axum::{Router, extract::State, routing::get};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

pub fn router() -> Router<AppState> {
    Router::new().route("/v1/hall-of-shame", get(hall_of_shame))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ShameQuery {
    game: Option<String>,
    player: Option<Uuid>,
    limit: Option<usize>,
    cursor: Option<String>,
}

#[derive(Debug, Serialize)]
struct ShameView {
    id: Uuid,
    table_id: Uuid,
    game: String,
    player_id: Option<Uuid>,
    name: String,
    /// `dicking` (an 8-piece dicking) or `up_board` (resigned).
    kind: String,
    pieces_home: i64,
    at: String,
}

impl Listed for ShameView {
    const KEY: &'static str = "entries";
}

async fn hall_of_shame(
    State(state): State<AppState>,
    Query(q): Query<ShameQuery>,
) -> ApiResult<Json<Page<ShameView>>> {
    let game = q.game.as_deref().map(parse_game).transpose()?;
    let page = PageRequest::parse(q.limit, q.cursor.as_deref())?;
    let filter = ShameFilter { game, player: q.player, after: page.after, limit: page.fetch() };
    let rows = state.store.shame(&filter).await?;
    let rows = Page::of(rows, &page, |r| (r.at, r.id));
    Ok(Json(rows.map(|r| ShameView {
        id: r.id,
        table_id: r.table_id,
        game: r.game.as_str().into(),
        player_id: r.player_id,
        name: r.name,
        kind: r.kind.as_str().into(),
        pieces_home: r.pieces_home,
        at: rfc3339(r.at),
    })))
}
