//! Player profiles and game histories: `GET /v1/players/{id}` (name, ratings per game, games
//! played and won, hall-of-shame count) and `GET /v1/players/{id}/games` (finished tables,
//! newest first). Private tables are shown, and counted, only to the player.

use super::{
    error::{ApiError, ApiResult},
    extract::{Auth, Json, Path, Query},
    paging::{Listed, Page, PageRequest},
    state::AppState,
};
use crate::{clock::rfc3339, store::PlayedTable};
use axum::{Router, extract::State, routing::get};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

pub fn router() -> Router<AppState> {
    Router::new().route("/v1/players/{id}", get(profile)).route("/v1/players/{id}/games", get(games))
}

#[derive(Debug, Serialize)]
struct ProfileView {
    id: Uuid,
    name: String,
    created_at: String,
    /// One per game the player is rated in.
    ratings: Vec<RatingView>,
    games_played: i64,
    games_won: i64,
    /// Hall-of-shame entries naming the player.
    shame: i64,
}

#[derive(Debug, Serialize)]
struct RatingView {
    game: &'static str,
    rating: f64,
    deviation: f64,
    games: i64,
    wins: i64,
    /// Off the leaderboard until measured against enough players (docs/ratings.md).
    provisional: bool,
}

fn tenth(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

/// Whether the viewer is player `id`, who alone sees (and counts) its private tables.
fn is_self(viewer: Option<Auth>, id: Uuid) -> bool {
    viewer.is_some_and(|Auth(p)| p.id == id)
}

fn no_player() -> ApiError {
    ApiError::not_found("no such player")
}

async fn profile(
    State(state): State<AppState>,
    viewer: Option<Auth>,
    Path(id): Path<Uuid>,
) -> ApiResult<Json<ProfileView>> {
    let p = state.store.profile(id, is_self(viewer, id)).await?.ok_or_else(no_player)?;
    Ok(Json(ProfileView {
        id: p.player.id,
        name: p.player.name,
        created_at: rfc3339(p.player.created_at),
        ratings: p
            .ratings
            .into_iter()
            .map(|r| RatingView {
                game: r.game.as_str(),
                rating: tenth(r.rating),
                deviation: tenth(r.deviation),
                games: r.games,
                wins: r.wins,
                provisional: r.provisional,
            })
            .collect(),
        games_played: p.played,
        games_won: p.won,
        shame: p.shame,
    }))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct GamesQuery {
    limit: Option<usize>,
    cursor: Option<String>,
}

#[derive(Debug, Serialize)]
struct GameView {
    table_id: Uuid,
    game: &'static str,
    seats: usize,
    finished_at: String,
    /// The player's seat.
    seat: usize,
    /// Its place (1 won); absent for tables finished before places were kept.
    #[serde(skip_serializing_if = "Option::is_none")]
    place: Option<i64>,
    /// The player's rating before and after, and the change, if the table was rated.
    #[serde(skip_serializing_if = "Option::is_none")]
    rating_before: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    rating_after: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    rating_change: Option<f64>,
}

impl Listed for GameView {
    const KEY: &'static str = "games";
}

async fn games(
    State(state): State<AppState>,
    viewer: Option<Auth>,
    Path(id): Path<Uuid>,
    Query(q): Query<GamesQuery>,
) -> ApiResult<Json<Page<GameView>>> {
    let page = PageRequest::parse(q.limit, q.cursor.as_deref())?;
    state.store.player(id).await?.ok_or_else(no_player)?;
    let rows = state.store.history(id, is_self(viewer, id), page.after, page.fetch()).await?;
    let page = Page::of(rows, &page, |t: &PlayedTable| (-t.finished_at, t.table_id));
    Ok(Json(page.map(|t| GameView {
        table_id: t.table_id,
        game: t.game.as_str(),
        seats: t.seat_count,
        finished_at: rfc3339(t.finished_at),
        seat: t.seat,
        place: t.place,
        rating_before: t.rating.map(|(b, _)| tenth(b)),
        rating_after: t.rating.map(|(_, a)| tenth(a)),
        rating_change: t.rating.map(|(b, a)| tenth(a - b)),
    })))
}
