//! Backgammon luck as GNU Backgammon defines it: what a roll gained against the average roll.
//!
//! The luck of a roll = the roller's cubeless equity (from the trained network,
//! [`crate::bots::backgammon::net`]) after the best play of the dice rolled, minus the average,
//! over all 36 rolls (the 21 distinct ones, doubles weighing 1 and the others 2), of the equity
//! after the best play of each. A roll with no legal play leaves the position as it is, and that
//! position is rated. Positive: the dice helped the roller. The opening roll is not counted:
//! each side threw one of its dice, and it is no choice of either (docs/luck.md).

use crate::bots::backgammon::net::{Net, best_play};
use crate::rules::backgammon::board::{Position, START, Step};
use serde_json::Value;

/// The 21 distinct rolls with their weight out of 36.
pub const ROLLS: [([u8; 2], f32); 21] = {
    let mut out = [([0u8; 2], 0f32); 21];
    let mut i = 0;
    let mut a = 1;
    while a <= 6 {
        let mut b = a;
        while b <= 6 {
            out[i] = ([a, b], if a == b { 1.0 } else { 2.0 });
            i += 1;
            b += 1;
        }
        a += 1;
    }
    out
};

/// The roller's equity after the best play of `dice` from `pos` (the roller on roll).
fn after(net: &Net, pos: &Position, dice: [u8; 2]) -> f32 {
    net.evaluate(&best_play(net, pos, dice)).equity()
}

/// The luck of rolling `dice` in `pos` (the roller's view, the roller on roll).
pub fn roll_luck(net: &Net, pos: &Position, dice: [u8; 2]) -> f32 {
    let average = ROLLS.iter().map(|&(d, w)| w * after(net, pos, d)).sum::<f32>() / 36.0;
    after(net, pos, dice) - average
}

/// Each seat's summed luck over a backgammon table's log, fed its entries' `events` in log
/// order (a page at a time if need be). The boards are followed through the events: `new_game`
/// sets both sides at the start, `play_made` moves the mover's checkers (hitting as it lands),
/// and each `rolled` (`dice_rolled` in old logs) is rated in the position before it.
#[derive(Debug, Clone)]
pub struct GameLuck {
    board: [[u8; 25]; 2],
    /// Per seat: the summed luck and how many rolls it took in.
    pub seats: [(f64, u64); 2],
}

impl Default for GameLuck {
    fn default() -> Self {
        Self { board: [START; 2], seats: [(0.0, 0); 2] }
    }
}

impl GameLuck {
    /// Takes in one entry's events.
    pub fn feed(&mut self, net: &Net, events: &[Value]) {
        let seat_of =
            |e: &Value| e.get("seat").and_then(Value::as_u64).map(|s| s as usize).filter(|&s| s < 2);
        for e in events {
            match e.get("type").and_then(Value::as_str).unwrap_or_default() {
                "new_game" => self.board = [START; 2],
                "play_made" => {
                    let Some(seat) = seat_of(e) else { continue };
                    let steps: Vec<Step> = e
                        .get("moves")
                        .and_then(|m| serde_json::from_value(m.clone()).ok())
                        .unwrap_or_default();
                    let mut pos = Position { me: self.board[seat], opp: self.board[1 - seat] };
                    for s in steps {
                        // A step the board does not allow means a log we do not follow: stop
                        // moving rather than invent a position.
                        if pos.apply_step(s).is_none() {
                            break;
                        }
                    }
                    self.board[seat] = pos.me;
                    self.board[1 - seat] = pos.opp;
                }
                "rolled" | "dice_rolled" => {
                    let Some(seat) = seat_of(e) else { continue };
                    let dice: Option<[u8; 2]> =
                        e.get("dice").and_then(|d| serde_json::from_value(d.clone()).ok());
                    let Some(dice) = dice.filter(|d| d.iter().all(|v| (1..=6).contains(v))) else { continue };
                    let pos = Position { me: self.board[seat], opp: self.board[1 - seat] };
                    self.seats[seat].0 += roll_luck(net, &pos, dice) as f64;
                    self.seats[seat].1 += 1;
                }
                _ => {}
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bots::backgammon::network;
    use crate::rules::backgammon::board::legal_plays;

    /// The same definition written plainly: all 36 ordered rolls, every legal play evaluated.
    fn brute_force(net: &Net, pos: &Position, rolled: [u8; 2]) -> f64 {
        let best = |dice: [u8; 2]| -> f64 {
            let plays = legal_plays(pos, dice);
            if plays.is_empty() {
                return net.evaluate(pos).equity() as f64;
            }
            plays.iter().map(|p| net.evaluate(&p.result).equity() as f64).fold(f64::MIN, f64::max)
        };
        let mut sum = 0.0;
        for a in 1..=6 {
            for b in 1..=6 {
                sum += best([a, b]);
            }
        }
        best(rolled) - sum / 36.0
    }

    #[test]
    fn roll_luck_matches_a_brute_force_average_over_the_36_rolls() {
        let net = network();
        let start = Position::start();
        // A position after some play, with a checker on the bar (dance rolls have no play).
        let mut barred = start;
        barred.me[crate::rules::backgammon::board::BAR] = 2;
        barred.me[23] = 0;
        barred.opp[..6].copy_from_slice(&[2, 2, 2, 2, 2, 0]);
        barred.opp[12] = 1;
        barred.opp[23] = 0;
        barred.opp[7] = 0;
        barred.opp[5] = 0;
        barred.check().unwrap();
        for pos in [start, start.swapped(), barred] {
            for dice in [[6, 6], [1, 2], [3, 1], [6, 5], [2, 2], [4, 4]] {
                let ours = roll_luck(net, &pos, dice) as f64;
                let plain = brute_force(net, &pos, dice);
                assert!((ours - plain).abs() < 1e-4, "{dice:?}: {ours} vs {plain}");
            }
        }
        // Averaged over every roll, luck is zero.
        let mean: f64 =
            ROLLS.iter().map(|&(d, w)| w as f64 * roll_luck(net, &barred, d) as f64).sum::<f64>() / 36.0;
        assert!(mean.abs() < 1e-4);
    }

    #[test]
    fn the_21_rolls_weigh_36() {
        assert_eq!(ROLLS.iter().map(|r| r.1).sum::<f32>(), 36.0);
    }
}
