//! Legal plays of a position given as a GNU Backgammon Position ID (with or without its Match
//! ID) or an XGID: the pure function behind `POST /v1/backgammon/plays`.

use super::board::{Position, Step, notation, with_plays};
use super::ids::{PositionError, parse_position_id, parse_xgid, position_id};
use super::{Backgammon, BackgammonOptions, Phase};
use serde::{Deserialize, Serialize};

/// Where the position comes from. JSON: `{"position_id": "4HPwATDgc/ABMA"}` or
/// `{"xgid": "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10"}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum PositionInput {
    /// A Position ID, read with the side to play on roll (as GNU Backgammon reads it).
    PositionId(String),
    /// An XGID; its turn field says who plays. Its dice, if thrown, are the dice to play
    /// unless others are given.
    Xgid(String),
    /// A Position ID with the Match ID of its game, as GNU Backgammon's `gnubgid` prints them
    /// (`PositionID:MatchID`). The pair must be one GNU Backgammon would load: a game in play
    /// (not over, no resignation) with no cube offered (then there is no play to make). The
    /// Match ID's dice, if thrown, are the dice to play unless others are given.
    Gnubg { position_id: String, match_id: String },
}

impl PositionInput {
    /// The position, seen from the player to play, and the dice the input itself holds (an
    /// XGID's or a Match ID's throw; `None` before the roll or for a bare Position ID).
    pub fn read(&self) -> Result<(Position, Option<[u8; 2]>), PositionError> {
        let thrown = |dice: [u8; 2]| (dice != [0, 0]).then_some(dice);
        match self {
            PositionInput::PositionId(id) => Ok((parse_position_id(id)?, None)),
            PositionInput::Xgid(x) => {
                let x = parse_xgid(x)?;
                Ok((x.position, thrown(x.m.dice)))
            }
            PositionInput::Gnubg { position_id, match_id } => {
                let m = super::ids::parse_match_id(match_id)?;
                if !m.doubled && m.turn != m.on_roll {
                    return Err(PositionError::MatchId {
                        reason: "the player to decide is not the player on roll, and no cube is offered"
                            .into(),
                    });
                }
                let game = Backgammon::from_gnubg_ids(position_id, match_id, BackgammonOptions::default())?;
                match game.phase() {
                    Phase::ToPlay { dice } => Ok((game.position(), Some(dice))),
                    Phase::ToRoll => Ok((game.position(), None)),
                    Phase::CubeOffered => Err(PositionError::MatchId {
                        reason: "a cube is offered: the player to decide takes or drops, there is no play"
                            .into(),
                    }),
                    Phase::Over => Err(PositionError::MatchId { reason: "the game is over".into() }),
                }
            }
        }
    }
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
    let (pos, _) = input.read()?;
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
    use super::super::ids::{self, GameState, MatchState};
    use super::*;

    #[test]
    fn opening_31_from_a_position_id() {
        let plays = legal_plays(&PositionInput::PositionId("4HPwATDgc/ABMA".into()), [3, 1]).unwrap();
        assert_eq!(plays.len(), 16);
        let best = plays.iter().find(|p| p.play == "8/5 6/5").unwrap();
        assert_eq!(best.position_id, "sGfwATDgc/ABMA");
    }

    /// A Position ID with its Match ID, as GNU Backgammon 1.07 prints them for these XGIDs
    /// (tests/data/gnubg_xgid.txt): the Match ID's throw is the roll to play, and the plays
    /// are the XGID's.
    #[test]
    fn a_position_id_with_its_match_id_plays_the_match_ids_throw() {
        for (xgid, position_id, match_id, dice) in [
            ("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10", "4HPwATDgc/ABMA", "cIkKAAAAAAAE", [5, 2]),
            ("XGID=aBBBB-B-B---cC---cbcb-----:0:0:1:61:4:6:1:7:10", "sNvBAaBtM4MDAA", "8AnnAGAAIAAE", [6, 1]),
            ("XGID=----------------------c-C-:0:0:1:31:0:0:0:0:10", "HAAAAAAAOAAAAA", "cIkFAAAAAAAE", [3, 1]),
        ] {
            let gnubg = PositionInput::Gnubg { position_id: position_id.into(), match_id: match_id.into() };
            let (pos, thrown) = gnubg.read().unwrap();
            assert_eq!(thrown, Some(dice), "{match_id}");
            let from_xgid = PositionInput::Xgid(xgid.into());
            assert_eq!(from_xgid.read().unwrap(), (pos, Some(dice)));
            assert_eq!(legal_plays(&gnubg, dice).unwrap(), legal_plays(&from_xgid, dice).unwrap());
        }
        // Before the roll (as GNU Backgammon reads the XGID of the start with no dice): no throw.
        let to_roll =
            PositionInput::Gnubg { position_id: "4HPwATDgc/ABMA".into(), match_id: "cAkAAAAAAAAE".into() };
        assert_eq!(to_roll.read().unwrap().1, None);
    }

    #[test]
    fn a_match_id_that_leaves_no_play_is_refused_with_a_reason() {
        let read = |m: &str| {
            PositionInput::Gnubg { position_id: "4HPwATDgc/ABMA".into(), match_id: m.into() }.read()
        };
        assert_eq!(read("cIkKAAAAAAA"), Err(PositionError::MatchIdLength { len: 11 }));
        assert_eq!(read("cIkKAAAAAA!E"), Err(PositionError::NotBase64 { ch: '!' }));
        // A cube offered: the player to decide takes or drops; there is no play.
        let mut doubled = ids::parse_match_id("cAkAAAAAAAAE").unwrap();
        (doubled.doubled, doubled.turn) = (true, 1 - doubled.on_roll);
        assert!(
            matches!(read(&ids::match_id(&doubled)), Err(PositionError::MatchId { reason }) if reason.contains("cube"))
        );
        // The game is over, or the player to decide is not on roll without a cube offered.
        let over = MatchState { state: GameState::Over, ..doubled.clone() };
        assert!(matches!(read(&ids::match_id(&over)), Err(PositionError::MatchId { .. })));
        let odd = MatchState { doubled: false, ..doubled };
        assert!(matches!(read(&ids::match_id(&odd)), Err(PositionError::MatchId { .. })));
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
