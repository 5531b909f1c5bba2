//! Cube decisions of the strong bot, from the network's estimate of the game's outcomes.
//!
//! **Money games.** From the cubeless equity `E` of the side on roll (points per game at a cube
//! of 1, gammons counted; without them while the Jacoby rule applies to a centred cube):
//!
//! - double when `DOUBLE_FROM ≤ E ≤ TOO_GOOD`: 0.36 is the gammonless doubling point of a live
//!   cube (68% wins: 2·0.68 − 1), and above 1.0 playing on for the gammon is worth more than the
//!   point a drop gives;
//! - take when the doubler's `E < TAKE_BELOW` = 0.57 (the live-cube take point without gammons:
//!   21.5% wins, 2·0.785 − 1 ≈ 0.57); otherwise drop;
//! - beaver (where allowed) when the doubler's `E < BEAVER_BELOW` = −0.1: the taker is the
//!   favourite by a margin the estimate's error will not undo.
//!
//! **Matches.** In match winning chances (MWC) from [`met`], a match-equity table computed here
//! (cubeless games with the gammon rates below, not a published table): with the doubler `a`
//! points away and the taker `b` away at cube `c`, playing on is worth `mwc(c)`, double/take
//! `mwc(2c)`, double/drop `MET(a − c, b)`. The taker takes when taking gives it more than
//! dropping; the doubler doubles when what the taker will do gives it more than playing on.
//! The cube is treated as dead after the double (no redoubles counted), which makes the bot a
//! little late to double and quick to take. The engine's own rules come first: no doubling in
//! the Crawford game, and the bot never doubles a dead cube (winning at the current value wins
//! the match) and doubles at once post-Crawford when trailing.

use super::net::Outputs;
use crate::rules::backgammon::board::Position;

/// Money play: the lowest cubeless equity the bot doubles at.
pub const DOUBLE_FROM: f32 = 0.36;
/// Money play: above this the bot plays on for a gammon instead of doubling.
pub const TOO_GOOD: f32 = 1.0;
/// Money play: the bot takes when the doubler's cubeless equity is below this.
pub const TAKE_BELOW: f32 = 0.57;
/// Money play: the bot beavers when the doubler's cubeless equity is below this.
pub const BEAVER_BELOW: f32 = -0.1;

/// Gammons (and backgammons) as a share of all games, in the match-equity table's model.
const GAMMON_RATE: f64 = 0.20;
const BACKGAMMON_RATE: f64 = 0.01;
/// The longest match the table covers (the engine's longest match, and more).
pub const MET_SIZE: usize = 64;

/// The estimate for the side on roll in `pos`.
pub fn on_roll(pos: &Position) -> Outputs {
    super::network().evaluate(&pos.swapped()).flipped()
}

/// Match winning chances of a player `a` points away against one `b` away, at the start of a
/// game (cubeless model: each side wins half the games; of all games, `GAMMON_RATE` are
/// gammons and `BACKGAMMON_RATE` backgammons). `a ≤ 0` has won; `b ≤ 0` has lost.
pub fn met(a: i64, b: i64) -> f64 {
    use std::sync::LazyLock;
    static TABLE: LazyLock<Vec<Vec<f64>>> = LazyLock::new(|| {
        let n = MET_SIZE + 1;
        let mut t = vec![vec![0.0; n]; n];
        let single = 0.5 * (1.0 - GAMMON_RATE - BACKGAMMON_RATE);
        let (gammon, bg) = (0.5 * GAMMON_RATE, 0.5 * BACKGAMMON_RATE);
        let at = |t: &Vec<Vec<f64>>, a: i64, b: i64| {
            if a <= 0 {
                1.0
            } else if b <= 0 {
                0.0
            } else {
                t[a as usize][b as usize]
            }
        };
        // Each entry needs only entries with fewer points to go.
        for a in 1..n as i64 {
            for b in 1..n as i64 {
                let mut m = 0.0;
                for (points, p) in [(1, single), (2, gammon), (3, bg)] {
                    m += p * at(&t, a - points, b) + p * at(&t, a, b - points);
                }
                t[a as usize][b as usize] = m;
            }
        }
        t
    });
    if a <= 0 {
        1.0
    } else if b <= 0 {
        0.0
    } else {
        TABLE[(a as usize).min(MET_SIZE)][(b as usize).min(MET_SIZE)]
    }
}

/// What the cube is worth to the side on roll: its outcomes `o`, its points to go `a`, the
/// other side's `b`, played for `cube` points.
pub fn mwc(o: &Outputs, a: i64, b: i64, cube: i64) -> f64 {
    let [w, wg, wb, lg, lb] = o.0.map(|x| x as f64);
    let (wg, lg) = (wg.min(w), lg.min(1.0 - w));
    let (wb, lb) = (wb.min(wg), lb.min(lg));
    (w - wg) * met(a - cube, b)
        + (wg - wb) * met(a - 2 * cube, b)
        + wb * met(a - 3 * cube, b)
        + (1.0 - w - lg) * met(a, b - cube)
        + (lg - lb) * met(a, b - 2 * cube)
        + lb * met(a, b - 3 * cube)
}

/// The cubeless money equity the cube decisions use: gammons count unless the Jacoby rule
/// applies (money play, centred cube).
pub fn money_equity(o: &Outputs, jacoby_applies: bool) -> f32 {
    if jacoby_applies { 2.0 * o.0[0] - 1.0 } else { o.equity() }
}

/// Whether the side on roll should double. Money: `match_away` is `None`; in a match, both
/// sides' points to go.
pub fn should_double(o: &Outputs, match_away: Option<(i64, i64)>, cube: i64, jacoby_applies: bool) -> bool {
    match match_away {
        None => (DOUBLE_FROM..=TOO_GOOD).contains(&money_equity(o, jacoby_applies)),
        Some((a, b)) => {
            let play_on = mwc(o, a, b, cube);
            let taken = mwc(o, a, b, 2 * cube);
            let dropped = met(a - cube, b);
            // The taker does what is best for it, the worst of the two for the doubler.
            let after = if taken < dropped { taken } else { dropped };
            after > play_on
        }
    }
}

/// The answer to a double, seen by the taker: `o` is the **doubler's** estimate (it is on roll).
pub enum Answer {
    Take,
    Drop,
    Beaver,
}

/// What the taker does with the doubler's estimate `o`; `match_away` is (doubler's, taker's)
/// points to go in a match.
pub fn answer(o: &Outputs, match_away: Option<(i64, i64)>, cube: i64, beaver_allowed: bool) -> Answer {
    match match_away {
        None => {
            let e = o.equity();
            if beaver_allowed && e < BEAVER_BELOW {
                Answer::Beaver
            } else if e < TAKE_BELOW {
                Answer::Take
            } else {
                Answer::Drop
            }
        }
        Some((a, b)) => {
            if mwc(o, a, b, 2 * cube) < met(a - cube, b) {
                Answer::Take
            } else {
                Answer::Drop
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_match_equity_table_is_a_probability_that_favours_the_leader_and_is_symmetric() {
        for a in 1..=15 {
            assert!((met(a, a) - 0.5).abs() < 1e-9, "{a}-away all square");
            for b in 1..=15 {
                let m = met(a, b);
                assert!((0.0..=1.0).contains(&m));
                assert!((m + met(b, a) - 1.0).abs() < 1e-9);
                if a < b {
                    assert!(m > 0.5, "{a}-away against {b}-away: {m}");
                }
            }
        }
        // Published tables give the leader at 1-away against 2-away about 68-70%; a cubeless
        // table without the Crawford rule's free drop is near that.
        assert!((0.6..0.8).contains(&met(1, 2)));
    }

    #[test]
    fn money_cube_thresholds() {
        // 80% wins, no gammons: E = 0.6, a double and a drop.
        let o = Outputs([0.8, 0.0, 0.0, 0.0, 0.0]);
        assert!(should_double(&o, None, 1, false));
        assert!(matches!(answer(&o, None, 1, false), Answer::Drop));
        // 70%: a double and a take.
        let o = Outputs([0.7, 0.0, 0.0, 0.0, 0.0]);
        assert!(should_double(&o, None, 1, false));
        assert!(matches!(answer(&o, None, 1, false), Answer::Take));
        // 60%: no double yet.
        assert!(!should_double(&Outputs([0.6, 0.0, 0.0, 0.0, 0.0]), None, 1, false));
        // Too good: 90% wins, 60% gammons: E = 1.4, play on.
        let o = Outputs([0.9, 0.6, 0.0, 0.0, 0.0]);
        assert!(!should_double(&o, None, 1, false));
        // Under the Jacoby rule the same position's gammons do not count: E = 0.8, double.
        assert!(should_double(&o, None, 1, true));
        // 40% wins for the doubler: the taker beavers where it may.
        assert!(matches!(answer(&Outputs([0.4, 0.0, 0.0, 0.0, 0.0]), None, 1, true), Answer::Beaver));
    }

    #[test]
    fn match_cube_decisions_follow_match_winning_chances() {
        // 5-away each: a close position is taken, a hopeless one dropped.
        let close = Outputs([0.7, 0.1, 0.0, 0.05, 0.0]);
        assert!(matches!(answer(&close, Some((5, 5)), 1, false), Answer::Take));
        let hopeless = Outputs([0.97, 0.5, 0.0, 0.0, 0.0]);
        assert!(matches!(answer(&hopeless, Some((5, 5)), 1, false), Answer::Drop));
        // An even position is not doubled; a strong one is.
        assert!(!should_double(&Outputs([0.5, 0.1, 0.0, 0.1, 0.0]), Some((5, 5)), 1, false));
        assert!(should_double(&Outputs([0.8, 0.05, 0.0, 0.02, 0.0]), Some((5, 5)), 1, false));
    }
}
