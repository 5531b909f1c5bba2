//! Legal plays of a position given as a GNU Backgammon Position ID or an XGID: the pure
//! function behind `POST /v1/backgammon/plays`.

use super::board::{Position, Step, notation, with_plays};
use super::ids::{PositionError, parse_position_id, parse_xgid, position_id};
use serde::{Deserialize, Serialize};

/// Where the position comes from. JSON: `{"position_id": "4HPwATDgc/ABMA"}` or
/// `{"xgid": "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10"}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum PositionInput {
    /// A Position ID, read with the side to play on roll (as GNU Backgammon reads it).
    PositionId(String),
    /// An XGID; its turn field says who plays. Its dice field is ignored: the dice are given
    /// separately.
    Xgid(String),
}

/// One legal play.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct PlayInfo {
    /// GNU Backgammon's notation, e.g. `13/7*/5 6/5`, `bar/22`, `6/off(2)`.
    pub play: String,
    /// The checker moves one die at a time, numbered from the mover's side (25 = bar,
    /// 0 = off): the `moves` to send back in a `play` action (and `play_made` reports).
    pub moves: Vec<Step>,
    /// Position ID of the position after the play, with the opponent on roll, as GNU
    /// Backgammon writes it.
    pub position_id: String,
}

/// Every legal play of `dice` in the position, one per distinct resulting position, in a
/// stable order. An empty list means the roll cannot be played (the turn is lost).
pub fn legal_plays(input: &PositionInput, dice: [u8; 2]) -> Result<Vec<PlayInfo>, PositionError> {
    let pos = match input {
        PositionInput::PositionId(id) => parse_position_id(id)?,
        PositionInput::Xgid(x) => parse_xgid(x)?.position,
    };
    if dice.iter().any(|d| !(1..=6).contains(d)) {
        return Err(PositionError::Dice { dice });
    }
    Ok(plays_of(&pos, dice))
}

/// The plays of a position already read.
pub fn plays_of(pos: &Position, dice: [u8; 2]) -> Vec<PlayInfo> {
    with_plays(pos, dice, |plays| {
        plays
            .iter()
            .map(|p| PlayInfo {
                play: notation(pos, p.steps()),
                moves: p.steps().to_vec(),
                position_id: position_id(&p.result.swapped()),
            })
            .collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opening_31_from_a_position_id() {
        let plays = legal_plays(&PositionInput::PositionId("4HPwATDgc/ABMA".into()), [3, 1]).unwrap();
        assert_eq!(plays.len(), 16);
        let best = plays.iter().find(|p| p.play == "8/5 6/5").unwrap();
        assert_eq!(best.position_id, "sGfwATDgc/ABMA");
    }

    #[test]
    fn bad_input_is_a_typed_error() {
        assert_eq!(
            legal_plays(&PositionInput::PositionId("4HPwATDgc/ABMA".into()), [0, 7]),
            Err(PositionError::Dice { dice: [0, 7] })
        );
        assert!(matches!(
            legal_plays(&PositionInput::Xgid("XGID=nonsense".into()), [3, 1]),
            Err(PositionError::Xgid { .. })
        ));
        let json = r#"{"xgid": "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10"}"#;
        let input: PositionInput = serde_json::from_str(json).unwrap();
        assert!(!legal_plays(&input, [6, 6]).unwrap().is_empty());
    }
}
