//! Backgammon analysis for any client (docs/analysis.md):
//!
//! - `POST /v1/backgammon/plays`: the legal plays of a position;
//! - `POST /v1/backgammon/hint`: the plays of a roll ranked by the strong bot's search, or the
//!   cube decision before the roll, for a position given by ID or a table's position for its
//!   player to act (when the table allows hints);
//! - `GET /v1/tables/{id}/analysis`: the review of a finished backgammon table, computed once by
//!   the review worker ([`crate::store::Store::keep_reviews`]), a page of decisions at a time.

use super::{
    AppState,
    access::visible_table,
    body,
    error::{ApiError, ApiResult, ErrorCode},
    extract::{Auth, Json, Path, Query},
    paging::{Listed, Page, PageRequest},
};
use crate::games::GameKind;
use crate::review::hint::{Hint, hint};
use crate::review::replay::{Decision, SeatReview};
use crate::rules::backgammon::analysis::{PlayInfo, PositionInput, plays_of};
use crate::rules::backgammon::ids::{GameState, MatchState, match_id};
use crate::rules::backgammon::{Backgammon, BackgammonOptions, Phase};
use crate::store::{ReviewState, TableStatus};
use axum::{
    Router,
    extract::State,
    http::StatusCode,
    response::{IntoResponse, Response},
    routing::{get, post},
};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/v1/backgammon/plays", post(plays))
        .route("/v1/backgammon/hint", post(hint_route))
        .route("/v1/tables/{id}/analysis", get(review))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct PlaysRequest {
    /// GNU Backgammon Position ID, the player on roll to play.
    #[serde(default, deserialize_with = "body::some")]
    position_id: Option<String>,
    /// The Match ID of the Position ID's game (optional): checked with it as GNU Backgammon
    /// loads the pair; its throw is the dice when `dice` is left out.
    #[serde(default, deserialize_with = "body::some")]
    match_id: Option<String>,
    /// Or an XGID (its throw is the dice when `dice` is left out).
    #[serde(default, deserialize_with = "body::some")]
    xgid: Option<String>,
    /// Required unless the Match ID or the XGID holds a throw; given, it wins over theirs.
    #[serde(default, deserialize_with = "body::some_whole_pair")]
    dice: Option<[u8; 2]>,
}

#[derive(Debug, Serialize)]
struct PlaysResponse {
    /// One entry per distinct resulting position.
    plays: Vec<PlayInfo>,
}

/// The position input of a request: exactly one of a Position ID (with or without its Match
/// ID) and an XGID.
fn position_input(
    position_id: Option<String>,
    match_id: Option<String>,
    xgid: Option<String>,
) -> ApiResult<PositionInput> {
    match (position_id, match_id, xgid) {
        (Some(id), None, None) => Ok(PositionInput::PositionId(id)),
        (Some(position_id), Some(match_id), None) => Ok(PositionInput::Gnubg { position_id, match_id }),
        (None, None, Some(xgid)) => Ok(PositionInput::Xgid(xgid)),
        (None, Some(_), _) => Err(ApiError::unprocessable(
            ErrorCode::InvalidPosition,
            "a match_id goes with the position_id of its game",
        )),
        _ => Err(ApiError::unprocessable(
            ErrorCode::InvalidPosition,
            "give exactly one of position_id (with or without match_id) and xgid",
        )),
    }
}

fn check_dice(dice: [u8; 2]) -> ApiResult<[u8; 2]> {
    if dice.iter().any(|d| !(1..=6).contains(d)) {
        return Err(ApiError::unprocessable(
            ErrorCode::InvalidDice,
            format!("dice are 1 to 6, not {dice:?}"),
        ));
    }
    Ok(dice)
}

async fn plays(Json(body): Json<PlaysRequest>) -> ApiResult<Json<PlaysResponse>> {
    let input = position_input(body.position_id, body.match_id, body.xgid)?;
    let (position, thrown) =
        input.read().map_err(|e| ApiError::unprocessable(ErrorCode::InvalidPosition, e.to_string()))?;
    let Some(dice) = body.dice.or(thrown) else {
        return Err(ApiError::unprocessable(
            ErrorCode::InvalidDice,
            "give the dice: the position holds no throw",
        ));
    };
    Ok(Json(PlaysResponse { plays: plays_of(&position, check_dice(dice)?) }))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct HintRequest {
    #[serde(default, deserialize_with = "body::some")]
    position_id: Option<String>,
    #[serde(default, deserialize_with = "body::some")]
    match_id: Option<String>,
    #[serde(default, deserialize_with = "body::some")]
    xgid: Option<String>,
    /// Or a table in play: the caller's seat to act, at a table whose options allow hints.
    #[serde(default, deserialize_with = "body::some")]
    table_id: Option<Uuid>,
    /// The roll to rate; none (and none in the position): the cube decision before the roll.
    #[serde(default, deserialize_with = "body::some_whole_pair")]
    dice: Option<[u8; 2]>,
}

/// How many hints one process computes at once (each on a blocking thread).
const MAX_HINTS_AT_ONCE: usize = 4;

static HINTS: tokio::sync::Semaphore = tokio::sync::Semaphore::const_new(MAX_HINTS_AT_ONCE);

/// The game a position input stands for: a money game with a centred cube for a bare Position
/// ID, the match an XGID or a Match ID describes otherwise.
fn game_of(input: &PositionInput) -> ApiResult<(Backgammon, Option<[u8; 2]>)> {
    let invalid = |e: crate::rules::backgammon::ids::PositionError| {
        ApiError::unprocessable(ErrorCode::InvalidPosition, e.to_string())
    };
    let (_, thrown) = input.read().map_err(invalid)?;
    let game = match input {
        PositionInput::PositionId(id) => {
            let money = MatchState {
                cube: 1,
                cube_owner: None,
                on_roll: 0,
                crawford: false,
                state: GameState::Playing,
                turn: 0,
                doubled: false,
                resigned: 0,
                dice: [0, 0],
                match_to: 0,
                score: [0, 0],
                jacoby: false,
            };
            Backgammon::from_gnubg_ids(id, &match_id(&money), BackgammonOptions::default())
        }
        PositionInput::Gnubg { position_id, match_id } => {
            Backgammon::from_gnubg_ids(position_id, match_id, BackgammonOptions::default())
        }
        PositionInput::Xgid(x) => Backgammon::from_xgid(x, BackgammonOptions::default()),
    }
    .map_err(invalid)?;
    Ok((game, thrown))
}

async fn hint_route(
    State(state): State<AppState>,
    caller: Option<Auth>,
    Json(body): Json<HintRequest>,
) -> ApiResult<Json<Hint>> {
    let (game, thrown) = match body.table_id {
        Some(id) => {
            if body.position_id.is_some() || body.match_id.is_some() || body.xgid.is_some() {
                return Err(ApiError::unprocessable(
                    ErrorCode::InvalidPosition,
                    "give a table_id or a position, not both",
                ));
            }
            table_position(&state, caller, id).await?
        }
        None => game_of(&position_input(body.position_id, body.match_id, body.xgid)?)?,
    };
    let dice = body.dice.or(thrown).map(check_dice).transpose()?;
    // A hint is thousands of network evaluations: a few at once per process, the rest wait
    // their turn holding nothing but their request.
    let _permit = HINTS.acquire().await.map_err(|_| ApiError::unavailable("the server is stopping"))?;
    let answer = tokio::task::spawn_blocking(move || hint(crate::bots::backgammon::network(), &game, dice))
        .await
        .map_err(|_| {
            ApiError::new(StatusCode::SERVICE_UNAVAILABLE, ErrorCode::Unavailable, "the hint failed")
        })?;
    Ok(Json(answer))
}

/// The position of a table in play for its caller's hint: the caller's seat to act, before its
/// roll or with its dice, at a backgammon table whose options allow hints.
async fn table_position(
    state: &AppState,
    caller: Option<Auth>,
    id: Uuid,
) -> ApiResult<(Backgammon, Option<[u8; 2]>)> {
    let Some(Auth(player)) = caller else {
        return Err(ApiError::forbidden(
            ErrorCode::NotYourSeat,
            "a table's hint is for its seated player: sign in",
        ));
    };
    let table = visible_table(state, id, Some(player.id), None).await?;
    if table.game != GameKind::Backgammon {
        return Err(ApiError::conflict(ErrorCode::NotBackgammon, "hints are for backgammon tables"));
    }
    let options: BackgammonOptions = serde_json::from_value(table.options.clone())
        .map_err(|_| ApiError::conflict(ErrorCode::HintsOff, "this table's options allow no hints"))?;
    if !options.hints {
        return Err(ApiError::forbidden(
            ErrorCode::HintsOff,
            "this table does not allow hints (a private table's `hints` option)",
        ));
    }
    let seat = table
        .seats
        .iter()
        .find(|s| s.player_id == Some(player.id))
        .map(|s| s.seat)
        .ok_or_else(|| ApiError::forbidden(ErrorCode::NotYourSeat, "you hold no seat at this table"))?;
    match table.status {
        TableStatus::Open => {
            return Err(ApiError::conflict(ErrorCode::TableNotStarted, "the table's game has not started"));
        }
        TableStatus::Playing => {}
        _ => return Err(ApiError::conflict(ErrorCode::GameOver, "the game is over")),
    }
    let game =
        state.store.latest_backgammon(id).await?.ok_or_else(|| {
            ApiError::conflict(ErrorCode::TableNotStarted, "the table's game has not started")
        })?;
    // The seat to decide: the seat on roll, or while a double awaits its answer the other one
    // (whose hint is the doubler's cube decision: its `response` is the answer to give).
    let (to_decide, thrown) = match game.phase() {
        Phase::ToRoll => (game.turn(), None),
        Phase::ToPlay { dice } => (game.turn(), Some(dice)),
        Phase::CubeOffered => (1 - game.turn(), None),
        Phase::Over => return Err(ApiError::conflict(ErrorCode::GameOver, "the game is over")),
    };
    if to_decide != seat {
        return Err(ApiError::conflict(ErrorCode::NotYourTurn, "another seat is to act"));
    }
    Ok((game, thrown))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ReviewQuery {
    invite_code: Option<String>,
    limit: Option<usize>,
    cursor: Option<String>,
}

/// A decision on a page.
#[derive(Serialize)]
#[serde(transparent)]
struct Row(Decision);

impl Listed for Row {
    const KEY: &'static str = "decisions";
}

/// The review's answer: its totals and a page of its decisions.
#[derive(Serialize)]
struct ReviewPage {
    status: &'static str,
    /// The search that rated the decisions.
    search: &'static str,
    /// Equity lost per unit of cube from which a decision is an error, and a blunder.
    error_from: f32,
    blunder_from: f32,
    /// Each seat's totals (error rate, band, errors, blunders, luck).
    seats: Vec<SeatReview>,
    #[serde(flatten)]
    page: Page<Row>,
}

/// `GET /v1/tables/{id}/analysis`.
async fn review(
    State(state): State<AppState>,
    viewer: Option<Auth>,
    Path(id): Path<Uuid>,
    Query(q): Query<ReviewQuery>,
) -> ApiResult<Response> {
    let page = PageRequest::parse(q.limit, q.cursor.as_deref())?;
    let after = match page.after {
        None => 0,
        Some((number, table)) if table == id && number >= 0 => number,
        Some(_) => {
            return Err(ApiError::bad_request(ErrorCode::InvalidQuery, "cursor is not one of this table's"));
        }
    };
    let table = visible_table(&state, id, viewer.map(|Auth(p)| p.id), q.invite_code.as_deref()).await?;
    if table.game != GameKind::Backgammon {
        return Err(ApiError::conflict(ErrorCode::NotBackgammon, "the analysis is of backgammon tables"));
    }
    if table.status != TableStatus::Finished {
        return Err(ApiError::conflict(
            ErrorCode::TableNotFinished,
            "the analysis follows the table's finish",
        ));
    }
    match state.store.review_state(id).await? {
        ReviewState::Pending => Ok((
            StatusCode::ACCEPTED,
            [(axum::http::header::RETRY_AFTER, "2")],
            axum::Json(serde_json::json!({"status": "pending"})),
        )
            .into_response()),
        ReviewState::Failed => Err(ApiError::conflict(
            ErrorCode::AnalysisUnavailable,
            "this table's log could not be replayed for its analysis",
        )),
        ReviewState::Done(seats) => {
            let rows = state.store.review_decisions(id, after, page.fetch() as i64).await?;
            let rows = Page::of(rows.into_iter().map(Row).collect(), &page, |r| (r.0.number as i64, id));
            Ok(axum::Json(ReviewPage {
                status: "done",
                search: crate::review::eval::SEARCH,
                error_from: crate::review::ERROR_FROM,
                blunder_from: crate::review::BLUNDER_FROM,
                seats,
                page: rows,
            })
            .into_response())
        }
    }
}
