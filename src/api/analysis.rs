//! Position analysis: the legal plays of a backgammon position, for any client.

use super::{
    AppState, body,
    error::{ApiError, ApiResult, ErrorCode},
    extract::Json,
};
use crate::rules::backgammon::analysis::{PlayInfo, PositionInput, legal_plays};
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
    /// Or an XGID (its dice field is ignored).
    #[serde(default, deserialize_with = "body::some")]
    xgid: Option<String>,
    #[serde(deserialize_with = "body::whole_pair")]
    dice: [u8; 2],
}

#[derive(Debug, Serialize)]
struct PlaysResponse {
    /// One entry per distinct resulting position.
    plays: Vec<PlayInfo>,
}

async fn plays(Json(body): Json<PlaysRequest>) -> ApiResult<Json<PlaysResponse>> {
    let input = match (body.position_id, body.xgid) {
        (Some(id), None) => PositionInput::PositionId(id),
        (None, Some(xgid)) => PositionInput::Xgid(xgid),
        _ => {
            return Err(ApiError::unprocessable(
                ErrorCode::InvalidPosition,
                "give exactly one of position_id and xgid",
            ));
        }
    };
    if body.dice.iter().any(|d| !(1..=6).contains(d)) {
        return Err(ApiError::unprocessable(
            ErrorCode::InvalidDice,
            format!("dice are 1 to 6, not {:?}", body.dice),
        ));
    }
    let plays = legal_plays(&input, body.dice)
        .map_err(|e| ApiError::unprocessable(ErrorCode::InvalidPosition, e.to_string()))?;
    Ok(Json(PlaysResponse { plays }))
}
