//! The evaluations behind hints and reviews: the trained network's estimates searched one ply
//! deeper, cubeful equities from them, and the cube decision of a position before the roll.
//!
//! **Search.** A play is first rated by the network at 0 ply (the position it leaves); up to
//! [`CANDIDATES`] plays within [`SEARCH_WITHIN`] of the best are then rated at 1 ply: over the
//! opponent's 21 rolls (doubles weighing 1 of 36, the others 2), the position after the reply
//! the network rates best for the opponent, averaged (the five probabilities, not only the
//! equity). A cube decision rates the position before the roll the same way: over the roller's
//! 21 rolls, the position after its best play. This is the strong bot's search
//! (`crate::bots::backgammon::net::pick_1ply`), with the probabilities kept.
//!
//! **Cubeful equity.** Money: Janowski's model (a cube efficiency [`CUBE_EFFICIENCY`] between a
//! dead cube, the cubeless equity, and a fully live cube, linear between the take point and the
//! cash point from the average value of a win `W` and of a loss `L`). Matches: match winning
//! chances from [`crate::bots::backgammon::cube::mwc`] (the bot's match-equity table, a dead
//! cube), written as GNU Backgammon's "equivalent to money" equity, so that a cash of the cube
//! is +1 and losing it −1 in both. Every equity is per unit of cube (normalized, as GNU
//! Backgammon reports errors).

use crate::bots::backgammon::cube::{met, mwc};
use crate::bots::backgammon::net::{Net, Outputs};
use crate::ledger::luck::ROLLS;
use crate::rules::backgammon::board::{MoveGen, Play, Position};
use crate::rules::backgammon::{Backgammon, BackgammonAction, Phase};
use crate::rules::{Engine, Seat};
use serde::{Deserialize, Serialize};

/// The search that rates plays and cube decisions, as answers name it.
pub const SEARCH: &str = "1-ply";
/// Most plays searched one ply deeper (the strong bot's `STRONG_CANDIDATES`).
pub const CANDIDATES: usize = 8;
/// How far below the best 0-ply equity a play may be and still be searched (GNU Backgammon's
/// default move filter).
pub const SEARCH_WITHIN: f32 = crate::bots::backgammon::net::SEARCH_WITHIN;
/// Money play: how live the cube is in Janowski's model (0 dead, 1 fully live). 0.68 is the
/// figure GNU Backgammon uses for contact positions.
pub const CUBE_EFFICIENCY: f32 = 0.68;

/// Who owns the cube, seen from one side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Owner {
    Centred,
    Mine,
    Theirs,
}

/// The cube as one side sees it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Cube {
    pub value: u32,
    pub owner: Owner,
    /// A match: (this side's points to go, the other side's); `None` for money.
    pub away: Option<(i64, i64)>,
    /// Money: the Jacoby rule (gammons count single while the cube is centred).
    pub jacoby: bool,
    /// Money: beavers allowed.
    pub beavers: bool,
    /// The cube is in play in this game (the option is on and this is not the Crawford game).
    pub live: bool,
}

impl Cube {
    /// The cube of `game` as `seat` sees it.
    pub fn of(game: &Backgammon, seat: Seat) -> Self {
        let (value, owner) = game.cube();
        let o = game.options();
        let score = game.score();
        let to = o.match_to as i64;
        Self {
            value,
            owner: match owner {
                None => Owner::Centred,
                Some(s) if s == seat => Owner::Mine,
                Some(_) => Owner::Theirs,
            },
            away: (to > 0).then(|| (to - score[seat] as i64, to - score[1 - seat] as i64)),
            jacoby: o.match_to == 0 && o.jacoby,
            beavers: o.match_to == 0 && o.beavers,
            live: o.cube && !game.is_crawford_game(),
        }
    }
}

/// Whether the seat on roll in `game` (before its roll) may turn the cube to any effect: the
/// engine allows it and, in a match, the cube is not dead (winning at its value already wins).
pub fn may_double(game: &Backgammon) -> bool {
    let seat = game.turn();
    if game.phase() != Phase::ToRoll || !game.legal_actions(seat).contains(&BackgammonAction::Double) {
        return false;
    }
    let o = game.options();
    !(o.match_to > 0 && game.score()[seat] + game.cube().0 >= o.match_to)
}

/// The first of the highest equities among `outputs`, with its index.
fn best_of(net: &Net, plays: &[Play]) -> Option<Outputs> {
    let mut best: Option<(f32, Outputs)> = None;
    for p in plays {
        let o = net.evaluate(&p.result);
        let e = o.equity();
        if best.is_none_or(|(b, _)| e > b) {
            best = Some((e, o));
        }
    }
    best.map(|(_, o)| o)
}

fn average(sum: [f32; 5]) -> Outputs {
    Outputs(sum.map(|x| x / 36.0))
}

/// 1 ply: the estimate for the side that just moved into `result` (the opponent on roll), over
/// the opponent's 21 rolls answered by its best reply at 0 ply.
pub fn after_play(net: &Net, generator: &mut MoveGen, result: &Position) -> Outputs {
    if Position::on_board(&result.me) == 0 {
        return Outputs::won(result);
    }
    let opponent = result.swapped();
    let mut sum = [0.0; 5];
    for &(dice, weight) in &ROLLS {
        let replies = generator.generate(&opponent, dice);
        // No reply: the opponent's turn passes with the board as it is.
        let o = best_of(net, replies).unwrap_or_else(|| net.evaluate(&opponent)).flipped();
        for (s, x) in sum.iter_mut().zip(o.0) {
            *s += weight * x;
        }
    }
    average(sum)
}

/// 1 ply: the estimate for the side on roll in `pos`, before its roll: over its 21 rolls, the
/// position after its best play at 0 ply.
pub fn before_roll(net: &Net, generator: &mut MoveGen, pos: &Position) -> Outputs {
    let mut sum = [0.0; 5];
    for &(dice, weight) in &ROLLS {
        let plays = generator.generate(pos, dice);
        let o = best_of(net, plays).unwrap_or_else(|| net.evaluate(pos));
        for (s, x) in sum.iter_mut().zip(o.0) {
            *s += weight * x;
        }
    }
    average(sum)
}

/// The five probabilities, clamped consistent (a gammon no likelier than a win, …).
fn clamped(o: &Outputs) -> [f32; 5] {
    let [w, wg, wb, lg, lb] = o.0;
    let w = w.clamp(0.0, 1.0);
    let wg = wg.clamp(0.0, w);
    let lg = lg.clamp(0.0, 1.0 - w);
    [w, wg, wb.clamp(0.0, wg), lg, lb.clamp(0.0, lg)]
}

/// Money play, Janowski: the cubeful equity of the side with the estimate `o` and the cube
/// `owner`ed so, per unit of cube; `gammonless` counts every win and loss single (the Jacoby
/// rule, centred cube).
pub fn money_cubeful(o: &Outputs, owner: Owner, gammonless: bool) -> f32 {
    let [p, wg, wb, lg, lb] = clamped(o);
    let (w, l) = if gammonless {
        (1.0, 1.0)
    } else {
        let w = if p > 0.0 { 1.0 + (wg + wb) / p } else { 1.0 };
        let l = if p < 1.0 { 1.0 + (lg + lb) / (1.0 - p) } else { 1.0 };
        (w, l)
    };
    let dead = p * w - (1.0 - p) * l;
    // The opponent's take point and this side's cash point, as win chances of this side.
    let take = (l - 0.5) / (w + l + 0.5);
    let cash = (l + 1.0) / (w + l + 0.5);
    let line = |x0: f32, y0: f32, x1: f32, y1: f32| y0 + (p - x0) * (y1 - y0) / (x1 - x0);
    let live = match owner {
        Owner::Centred if p < take => line(0.0, -l, take, -1.0),
        Owner::Centred if p > cash => line(cash, 1.0, 1.0, w),
        Owner::Centred => line(take, -1.0, cash, 1.0),
        Owner::Mine if p < cash => line(0.0, -l, cash, 1.0),
        Owner::Mine => line(cash, 1.0, 1.0, w),
        Owner::Theirs if p < take => line(0.0, -l, take, -1.0),
        Owner::Theirs => line(take, -1.0, 1.0, w),
    };
    CUBE_EFFICIENCY * live + (1.0 - CUBE_EFFICIENCY) * dead
}

/// A match's winning chances `m` at the cube `c`, as equivalent-to-money equity: +1 the
/// chances of winning `c` points now, −1 of losing them.
fn emg(m: f64, a: i64, b: i64, c: i64) -> f32 {
    let (win, lose) = (met(a - c, b), met(a, b - c));
    if win - lose <= f64::EPSILON { 0.0 } else { (2.0 * (m - lose) / (win - lose) - 1.0) as f32 }
}

/// The cubeful equity of the side with the estimate `o` and the cube as it sees it (after its
/// play, the opponent on roll, or before its own roll), per unit of cube.
pub fn cubeful(o: &Outputs, cube: &Cube) -> f32 {
    match cube.away {
        None if !cube.live => o.equity(),
        None => money_cubeful(o, cube.owner, cube.jacoby && cube.owner == Owner::Centred),
        Some((a, b)) => {
            let c = cube.value as i64;
            emg(mwc(o, a, b, c), a, b, c)
        }
    }
}

/// The equities of the three outcomes of a cube decision, for the side on roll, per unit of
/// the cube before the double.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct CubeEquities {
    pub no_double: f32,
    pub double_take: f32,
    pub double_pass: f32,
}

/// What the side on roll should do with the cube.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum DoubleAdvice {
    NoDouble,
    Double,
    /// Playing on for a gammon is worth more than the point the opponent's pass gives.
    TooGood,
}

/// What the side doubled should do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum TakeAdvice {
    Take,
    Pass,
    /// Take and redouble at once (money games with beavers): the taker is the favourite.
    Beaver,
}

/// The cube decision of the side on roll with the 1-ply estimate `o` before its roll.
pub fn cube_equities(o: &Outputs, cube: &Cube) -> CubeEquities {
    match cube.away {
        None => CubeEquities {
            no_double: cubeful(o, cube),
            double_take: 2.0 * money_cubeful(o, Owner::Theirs, false),
            double_pass: 1.0,
        },
        Some((a, b)) => {
            let c = cube.value as i64;
            CubeEquities {
                no_double: emg(mwc(o, a, b, c), a, b, c),
                double_take: emg(mwc(o, a, b, 2 * c), a, b, c),
                double_pass: 1.0,
            }
        }
    }
}

impl CubeEquities {
    /// The taker's best answer.
    pub fn take(&self, beavers: bool) -> TakeAdvice {
        if self.double_take > self.double_pass {
            TakeAdvice::Pass
        } else if beavers && self.double_take < 0.0 {
            TakeAdvice::Beaver
        } else {
            TakeAdvice::Take
        }
    }

    /// What a double is worth to the doubler when the taker answers best.
    pub fn doubled(&self) -> f32 {
        self.double_take.min(self.double_pass)
    }

    /// The doubler's best decision.
    pub fn double(&self) -> DoubleAdvice {
        if self.no_double < self.doubled() {
            DoubleAdvice::Double
        } else if self.double_take > self.double_pass {
            DoubleAdvice::TooGood
        } else {
            DoubleAdvice::NoDouble
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gammonless(p: f32) -> Outputs {
        Outputs([p, 0.0, 0.0, 0.0, 0.0])
    }

    #[test]
    fn janowski_meets_the_known_points_of_a_gammonless_live_cube() {
        // Fully live, gammonless: take point 20%, cash point 80%; the dead cube is 2p - 1.
        let at = |p: f32, owner| money_cubeful(&gammonless(p), owner, false);
        let x = CUBE_EFFICIENCY;
        assert!((at(0.8, Owner::Centred) - (x + (1.0 - x) * 0.6)).abs() < 1e-5);
        assert!((at(0.2, Owner::Centred) - (-x + (1.0 - x) * -0.6)).abs() < 1e-5);
        assert!((at(0.5, Owner::Centred)).abs() < 1e-5);
        // Owning the cube is worth something; the opponent owning it costs.
        assert!(at(0.5, Owner::Mine) > at(0.5, Owner::Centred));
        assert!(at(0.5, Owner::Theirs) < at(0.5, Owner::Centred));
    }

    #[test]
    fn money_cube_decisions_follow_the_win_chances() {
        let cube =
            Cube { value: 1, owner: Owner::Centred, away: None, jacoby: false, beavers: true, live: true };
        let decide = |p: f32| {
            let e = cube_equities(&gammonless(p), &cube);
            (e.double(), e.take(cube.beavers))
        };
        assert_eq!(decide(0.5), (DoubleAdvice::NoDouble, TakeAdvice::Beaver));
        assert_eq!(decide(0.6).0, DoubleAdvice::NoDouble);
        assert_eq!(decide(0.72), (DoubleAdvice::Double, TakeAdvice::Take));
        assert_eq!(decide(0.9), (DoubleAdvice::Double, TakeAdvice::Pass));
        // Many gammons and a sure win: too good to double.
        let e = cube_equities(&Outputs([0.97, 0.8, 0.0, 0.0, 0.0]), &cube);
        assert_eq!((e.double(), e.take(false)), (DoubleAdvice::TooGood, TakeAdvice::Pass));
    }

    #[test]
    fn match_equities_are_plus_one_for_a_cash_and_minus_one_for_a_loss() {
        let cube = Cube {
            value: 1,
            owner: Owner::Centred,
            away: Some((5, 5)),
            jacoby: false,
            beavers: false,
            live: true,
        };
        assert!((cubeful(&Outputs([1.0, 0.0, 0.0, 0.0, 0.0]), &cube) - 1.0).abs() < 1e-5);
        assert!((cubeful(&Outputs([0.0, 0.0, 0.0, 0.0, 0.0]), &cube) + 1.0).abs() < 1e-5);
        let e = cube_equities(&gammonless(0.9), &cube);
        assert_eq!(e.double(), DoubleAdvice::Double);
        assert_eq!(e.take(false), TakeAdvice::Pass);
    }
}
