//! `GET /v1/leaderboards/{game}`: Glicko-2 ratings, best first (docs/ratings.md).

use super::{
    extract::{Json, Path, Query},
    games::parse_game,
    paging::{Listed, Page, PageRequest},
    state::AppState,
};
use crate::store::RatingRow;
use axum::{Router, extract::State, routing::get};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

pub fn router() -> Router<AppState> {
    Router::new().route("/v1/leaderboards/{game}", get(leaderboard))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct LeaderboardQuery {
    limit: Option<usize>,
    cursor: Option<String>,
}

#[derive(Debug, Serialize)]
struct Ranked {
    player: RankedPlayer,
    /// The Glicko-2 rating, to a tenth.
    rating: f64,
    /// Its deviation (how unsure it is: 350 for a new player), to a tenth.
    deviation: f64,
    games: i64,
    wins: i64,
}

#[derive(Debug, Serialize)]
struct RankedPlayer {
    id: Uuid,
    name: String,
}

impl Listed for Ranked {
    const KEY: &'static str = "players";
}

fn tenth(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

async fn leaderboard(
    State(state): State<AppState>,
    Path(game): Path<String>,
    Query(q): Query<LeaderboardQuery>,
) -> super::error::ApiResult<Json<Page<Ranked>>> {
    let game = parse_game(&game)?;
    let page = PageRequest::parse(q.limit, q.cursor.as_deref())?;
    let rows = state.store.leaderboard(game, page.after, page.fetch()).await?;
    let page = Page::of(rows, &page, |r: &RatingRow| (r.rank_key, r.player_id));
    Ok(Json(page.map(|r| Ranked {
        player: RankedPlayer { id: r.player_id, name: r.name },
        rating: tenth(r.rating),
        deviation: tenth(r.deviation),
        games: r.games,
        wins: r.wins,
    })))
}
