//! A hint: the plays of a roll ranked, or the cube decision before it (`POST
//! /v1/backgammon/hint`, docs/analysis.md).

use super::eval::{
    CANDIDATES, Cube, CubeEquities, DoubleAdvice, SEARCH, SEARCH_WITHIN, TakeAdvice, after_play, before_roll,
    cube_equities, cubeful, may_double,
};
use crate::bots::backgammon::net::{Net, Outputs};
use crate::rules::backgammon::Backgammon;
use crate::rules::backgammon::board::{MoveGen, Position, Step, notation, with_plays};
use crate::rules::backgammon::ids::position_id;
use serde::{Deserialize, Serialize};

/// The best plays a hint lists at most.
pub const MAX_PLAYS: usize = 10;

/// The five probabilities of an estimate, for the side named.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Probabilities {
    pub win: f32,
    pub win_gammon: f32,
    pub win_backgammon: f32,
    pub lose_gammon: f32,
    pub lose_backgammon: f32,
}

impl From<Outputs> for Probabilities {
    fn from(o: Outputs) -> Self {
        let [win, win_gammon, win_backgammon, lose_gammon, lose_backgammon] = o.0;
        Self { win, win_gammon, win_backgammon, lose_gammon, lose_backgammon }
    }
}

/// One candidate play, rated for the player to play.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct RatedPlay {
    /// GNU Backgammon's notation, e.g. `13/7*/5 6/5`.
    pub play: String,
    /// The checker moves, as a `play` action sends them.
    pub moves: Vec<Step>,
    /// Position ID after the play (the opponent on roll).
    pub position_id: String,
    /// The search that rated it: 1 for the candidates searched, 0 for the rest.
    pub ply: u8,
    /// Cubeless equity (points per game at a cube of 1).
    pub cubeless_equity: f32,
    /// Cubeful equity per unit of cube (money; in a match, match winning chances as
    /// equivalent-to-money equity).
    pub cubeful_equity: f32,
    /// The best play's cubeful equity minus this one's (0 for the best).
    pub equity_loss: f32,
    pub probabilities: Probabilities,
}

/// The plays of `dice` from `pos` (the mover on roll), best first: those searched at 1 ply by
/// their cubeful equity, then the rest by their 0-ply equity; `also` (an index into the legal
/// plays, e.g. the play a player made) is searched at 1 ply whatever its 0-ply rank. Returns the
/// plays and the index among them of `also`.
pub fn rate_plays(
    net: &Net,
    generator: &mut MoveGen,
    pos: &Position,
    dice: [u8; 2],
    cube: &Cube,
    also: Option<&[Step]>,
) -> (Vec<RatedPlay>, Option<usize>) {
    let (mut rated, also_result) = with_plays(pos, dice, |plays| {
        let also_result = also.and_then(|steps| {
            let mut after = *pos;
            steps.iter().all(|s| after.apply_step(*s).is_some()).then_some(after)
        });
        let mut rated: Vec<(RatedPlay, Position)> = plays
            .iter()
            .map(|p| {
                let o = net.evaluate(&p.result);
                let rated = RatedPlay {
                    play: notation(pos, p.steps()),
                    moves: p.steps().to_vec(),
                    position_id: position_id(&p.result.swapped()),
                    ply: 0,
                    cubeless_equity: o.equity(),
                    cubeful_equity: cubeful(&o, cube),
                    equity_loss: 0.0,
                    probabilities: o.into(),
                };
                (rated, p.result)
            })
            .collect();
        // Best first by 0-ply cubeless equity (a stable sort: the engine's order among equals).
        rated.sort_by(|a, b| b.0.cubeless_equity.total_cmp(&a.0.cubeless_equity));
        (rated, also_result)
    });
    let top = rated.first().map_or(0.0, |r| r.0.cubeless_equity);
    for (i, (r, result)) in rated.iter_mut().enumerate() {
        let candidate = i < CANDIDATES && r.cubeless_equity >= top - SEARCH_WITHIN;
        if candidate || also_result.as_ref() == Some(result) {
            let o = after_play(net, generator, result);
            (r.ply, r.cubeless_equity, r.cubeful_equity, r.probabilities) =
                (1, o.equity(), cubeful(&o, cube), o.into());
        }
    }
    rated.sort_by(|a, b| b.0.ply.cmp(&a.0.ply).then(b.0.cubeful_equity.total_cmp(&a.0.cubeful_equity)));
    let best = rated.first().map_or(0.0, |r| r.0.cubeful_equity);
    let mut chosen = None;
    let plays = rated
        .into_iter()
        .enumerate()
        .map(|(i, (mut r, result))| {
            if also_result.as_ref() == Some(&result) {
                chosen = Some(i);
            }
            r.equity_loss = (best - r.cubeful_equity).max(0.0);
            r
        })
        .collect();
    (plays, chosen)
}

/// The cube decision of a position before the roll.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct CubeHint {
    /// Whether the player on roll may turn the cube now (cube in play, centred or its own, not
    /// the Crawford game, not dead in a match). When false, `double` and `response` say what
    /// the estimate would advise with the cube available; the equities hold as they are.
    pub available: bool,
    pub double: DoubleAdvice,
    /// The opponent's best answer to a double.
    pub response: TakeAdvice,
    /// Per unit of the cube now, for the player on roll (a match: equivalent-to-money equity).
    pub equities: CubeEquities,
    /// Cubeless equity of the position for the player on roll.
    pub cubeless_equity: f32,
    pub probabilities: Probabilities,
}

/// The cube decision of the player on roll in `game`, before its roll.
pub fn cube_hint(net: &Net, generator: &mut MoveGen, game: &Backgammon) -> CubeHint {
    let o = before_roll(net, generator, &game.position());
    let cube = Cube::of(game, game.turn());
    let equities = cube_equities(&o, &cube);
    CubeHint {
        available: may_double(game),
        double: equities.double(),
        response: equities.take(cube.beavers),
        equities,
        cubeless_equity: o.equity(),
        probabilities: o.into(),
    }
}

/// A hint's answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Hint {
    /// The search that rated the plays and the cube (`"1-ply"`).
    pub search: String,
    /// The dice the plays are of; absent for a cube decision.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dice: Option<[u8; 2]>,
    /// The best plays, at most 10, best first (empty: the roll cannot be played, or a cube
    /// decision).
    pub plays: Vec<RatedPlay>,
    /// How many distinct legal plays the roll has.
    pub total_plays: usize,
    /// Before the roll: the cube decision.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cube: Option<CubeHint>,
}

/// The hint for the player on roll in `game`: the plays of `dice`, or before the roll (no
/// dice) its cube decision.
pub fn hint(net: &Net, game: &Backgammon, dice: Option<[u8; 2]>) -> Hint {
    let mut generator = MoveGen::new();
    match dice {
        Some(dice) => {
            let cube = Cube::of(game, game.turn());
            let (mut plays, _) = rate_plays(net, &mut generator, &game.position(), dice, &cube, None);
            let total_plays = plays.len();
            plays.truncate(MAX_PLAYS);
            Hint { search: SEARCH.into(), dice: Some(dice), plays, total_plays, cube: None }
        }
        None => Hint {
            search: SEARCH.into(),
            dice: None,
            plays: vec![],
            total_plays: 0,
            cube: Some(cube_hint(net, &mut generator, game)),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bots::backgammon::network;
    use crate::rules::backgammon::BackgammonOptions;

    #[test]
    fn the_opening_31_hint_ranks_every_play_and_makes_the_five_point() {
        let game = Backgammon::from_xgid(
            "XGID=-b----E-C---eE---c-e----B-:0:0:1:31:0:0:0:0:10",
            BackgammonOptions::default(),
        )
        .unwrap();
        let h = hint(network(), &game, Some([3, 1]));
        assert_eq!(h.total_plays, 16);
        assert_eq!(h.plays.len(), MAX_PLAYS);
        assert_eq!(h.plays[0].play, "8/5 6/5");
        assert_eq!(h.plays[0].ply, 1);
        assert_eq!(h.plays[0].equity_loss, 0.0);
        assert!(
            h.plays.windows(2).all(|w| w[0].ply > w[1].ply || w[0].cubeful_equity >= w[1].cubeful_equity)
        );
        assert!(h.plays.iter().all(|p| p.equity_loss >= 0.0));
    }

    #[test]
    fn before_the_roll_a_hint_is_the_cube_decision() {
        let game = Backgammon::from_xgid(
            "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10",
            BackgammonOptions::default(),
        )
        .unwrap();
        let h = hint(network(), &game, None);
        assert!(h.plays.is_empty());
        let cube = h.cube.unwrap();
        // The starting position: no double, and a double would be taken (a beaver, even).
        assert!(cube.available);
        assert_eq!(cube.double, DoubleAdvice::NoDouble);
        assert_ne!(cube.response, TakeAdvice::Pass);
        assert_eq!(cube.equities.double_pass, 1.0);
    }
}
