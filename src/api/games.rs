//! `GET /v1/games`: what a client needs to offer each game without knowing it beforehand, read
//! from the games' registry ([`GameKind::ALL`]): its name and label, its seat counts, its turn
//! clocks, its options' JSON Schema (the one the served spec gives as `<Game>Options`) with their
//! defaults and the house rules only a private table may choose, and the bot levels.
//!
//! The body changes only with a new build or the clock settings, so it is served with an `ETag`
//! ([`super::cache`]).

use super::{
    cache,
    error::{ApiError, ApiResult, ErrorCode},
    state::AppState,
};
use crate::{
    bots::Level,
    config::Timers,
    games::{GameKind, UnknownGame},
};
use axum::{Router, extract::State, http::HeaderMap, response::Response, routing::get};
use serde::Serialize;
use std::sync::LazyLock;

pub fn router() -> Router<AppState> {
    Router::new().route("/v1/games", get(list))
}

/// The answer: every game, in the registry's order.
#[derive(Debug, Serialize)]
struct Games<'a> {
    games: Vec<GameWithClocks<'a>>,
}

/// One game, as `GameInfo` in openapi/base.yaml: the registry's part and this server's clocks.
#[derive(Debug, Serialize)]
struct GameWithClocks<'a> {
    #[serde(flatten)]
    info: &'a GameInfo,
    clocks: Clocks,
}

/// What the registry says of one game.
#[derive(Debug, Serialize)]
struct GameInfo {
    /// The name a client sends as `game`.
    game: GameKind,
    label: &'static str,
    seats: SeatCounts,
    /// JSON Schema (2020-12) of the table's `options` ([`crate::games::GameSchemas::options_document`]).
    options_schema: serde_json::Value,
    /// What a table whose creation names no options gets.
    default_options: serde_json::Value,
    private_only_options: &'static [&'static str],
    bot_levels: [Level; 3],
    default_bot_level: Level,
}

#[derive(Debug, Serialize)]
struct SeatCounts {
    min: usize,
    max: usize,
    /// Every count between, or some of them (uckers: 2 or 4).
    allowed: &'static [usize],
}

/// The time each seat has for a decision, as the table's `turn_seconds` will say.
#[derive(Debug, Clone, Serialize)]
struct Clocks {
    turn_seconds: f64,
    /// At a `party` table.
    party_turn_seconds: f64,
}

/// The registry's part of each game, generated once (the schemas take a generator's run).
static GAMES: LazyLock<Vec<GameInfo>> = LazyLock::new(|| {
    GameKind::ALL
        .iter()
        .map(|&game| {
            let seats = game.seats();
            GameInfo {
                game,
                label: game.label(),
                seats: SeatCounts { min: seats[0], max: seats[seats.len() - 1], allowed: seats },
                options_schema: game.schemas().options_document(),
                default_options: game.default_options(),
                private_only_options: game.private_only_options(),
                bot_levels: Level::ALL,
                default_bot_level: Level::default(),
            }
        })
        .collect()
});

async fn list(State(state): State<AppState>, headers: HeaderMap) -> Response {
    let body = body(&state.config.timers);
    cache::serve(&headers, cache::etag(body.as_bytes()), "application/json", body)
}

/// The answer's JSON for a server with these clocks.
fn body(timers: &Timers) -> String {
    let clocks = Clocks {
        turn_seconds: timers.turn.as_secs_f64(),
        party_turn_seconds: timers.party_turn.as_secs_f64(),
    };
    let games = GAMES.iter().map(|info| GameWithClocks { info, clocks: clocks.clone() }).collect();
    serde_json::to_string(&Games { games }).expect("the games serialize to JSON")
}

/// The game a `game` field or parameter names; 422 `unknown_game` for any other name (the
/// registry words the message).
pub(super) fn parse_game(game: &str) -> ApiResult<GameKind> {
    game.parse().map_err(|e: UnknownGame| ApiError::unprocessable(ErrorCode::UnknownGame, e.to_string()))
}
