//! Position analysis: the legal plays of a backgammon position, for any client.

use super::{
    AppState, body,
    error::{ApiError, ApiResult, ErrorCode},
    extract::Json,
};
use crate::rules::backgammon::analysis::{PlayInfo, PositionInput, plays_of};
use axum::{Router, routing::post};
use serde::{Deserialize, Serialize};

pub fn router() -> Router<AppState> {
    Router::new().route("/v1/backgammon/plays", post(plays))
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

async fn plays(Json(body): Json<PlaysRequest>) -> ApiResult<Json<PlaysResponse>> {
    let input = match (body.position_id, body.match_id, body.xgid) {
        (Some(id), None, None) => PositionInput::PositionId(id),
        (Some(position_id), Some(match_id), None) => PositionInput::Gnubg { position_id, match_id },
        (None, None, Some(xgid)) => PositionInput::Xgid(xgid),
        (None, Some(_), _) => {
            return Err(ApiError::unprocessable(
                ErrorCode::InvalidPosition,
                "a match_id goes with the position_id of its game",
            ));
        }
        _ => {
            return Err(ApiError::unprocessable(
                ErrorCode::InvalidPosition,
                "give exactly one of position_id (with or without match_id) and xgid",
            ));
        }
    };
    let (position, thrown) =
        input.read().map_err(|e| ApiError::unprocessable(ErrorCode::InvalidPosition, e.to_string()))?;
    let Some(dice) = body.dice.or(thrown) else {
        return Err(ApiError::unprocessable(
            ErrorCode::InvalidDice,
            "give the dice: the position holds no throw",
        ));
    };
    if dice.iter().any(|d| !(1..=6).contains(d)) {
        return Err(ApiError::unprocessable(
            ErrorCode::InvalidDice,
            format!("dice are 1 to 6, not {dice:?}"),
        ));
    }
    Ok(Json(PlaysResponse { plays: plays_of(&position, dice) }))
}
