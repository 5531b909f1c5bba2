//! The luck and fairness ledger (docs/luck.md): what the dice of finished tables did, per seat,
//! per player and site-wide, compared with chance; and for backgammon the luck of each roll.
//!
//! Pure: the store feeds it a finished table's log entries ([`thrown`], [`SeatDice`],
//! [`luck::GameLuck`]) and keeps the sums; the statistics are [`stats`].

pub mod luck;
pub mod stats;

use serde::Serialize;
use serde_json::Value;

/// The events whose dice were thrown (as `crate::verify` reads them: the shared vocabulary's two
/// names, then the names older logs keep).
const THROWING_EVENTS: [&str; 5] =
    ["opening_rolled", "rolled", "opening_throw", "opening_roll", "dice_rolled"];

/// One thrown die: the seat it counts for and its value (1–6).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Die {
    pub seat: usize,
    pub value: u8,
}

/// One throw (one die or two thrown together), for the seat it counts for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Throw {
    pub seat: usize,
    pub dice: Vec<u8>,
}

/// The throws of one entry's `events`, in order. A throw counts for the seat the event names
/// (`seat`), else for the entry's `seat`; an old `opening_roll` lists one die per seat (`null`
/// for a seat out of the round), each its own throw. Dice outside 1–6 are not dice and are
/// skipped (the store never writes one: `DiceSource::die`).
pub fn thrown(entry_seat: Option<usize>, events: &[Value]) -> Vec<Throw> {
    let mut out = vec![];
    for e in events {
        let kind = e.get("type").and_then(Value::as_str).unwrap_or_default();
        if !THROWING_EVENTS.contains(&kind) {
            continue;
        }
        let seat = e.get("seat").and_then(Value::as_u64).map(|s| s as usize).or(entry_seat);
        let die = |v: &Value| v.as_u64().filter(|d| (1..=6).contains(d)).map(|d| d as u8);
        if kind == "opening_roll" {
            let dice = e.get("dice").and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
            for (s, d) in dice.iter().enumerate() {
                if let Some(d) = die(d) {
                    out.push(Throw { seat: s, dice: vec![d] });
                }
            }
            continue;
        }
        let Some(seat) = seat else { continue };
        let dice: Vec<u8> = match (e.get("dice"), e.get("value"), e.get("die")) {
            (Some(Value::Array(dice)), _, _) => dice.iter().filter_map(die).collect(),
            (_, Some(v), _) | (_, _, Some(v)) => die(v).into_iter().collect(),
            _ => vec![],
        };
        if !dice.is_empty() {
            out.push(Throw { seat, dice });
        }
    }
    out
}

/// What one seat (or one player, or a whole game's site) threw: the sums the ledger keeps.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct DiceCounts {
    /// How many of each face, 1 to 6.
    pub faces: [u64; 6],
    /// Throws (one die or two together).
    pub throws: u64,
    /// Throws of two dice.
    pub pairs: u64,
    /// Doubles among them.
    pub doubles: u64,
}

impl DiceCounts {
    pub fn add_throw(&mut self, dice: &[u8]) {
        for &d in dice {
            self.faces[d as usize - 1] += 1;
        }
        self.throws += 1;
        if let [a, b] = dice {
            self.pairs += 1;
            self.doubles += (a == b) as u64;
        }
    }

    pub fn add(&mut self, other: &DiceCounts) {
        for (a, b) in self.faces.iter_mut().zip(other.faces) {
            *a += b;
        }
        self.throws += other.throws;
        self.pairs += other.pairs;
        self.doubles += other.doubles;
    }

    /// Every die.
    pub fn dice(&self) -> u64 {
        self.faces.iter().sum()
    }

    pub fn sixes(&self) -> u64 {
        self.faces[5]
    }

    /// The statistics clients read.
    pub fn report(&self) -> DiceReport {
        let dice = self.dice();
        let rate = |k: u64, n: u64| if n == 0 { None } else { Some(k as f64 / n as f64) };
        DiceReport {
            counts: *self,
            dice,
            faces_test: stats::faces(&self.faces),
            sixes_rate: rate(self.sixes(), dice),
            sixes_test: stats::one_in_six(self.sixes(), dice),
            doubles_rate: rate(self.doubles, self.pairs),
            doubles_test: stats::one_in_six(self.doubles, self.pairs),
        }
    }
}

/// Counts compared with chance: the faces against 1/6 each (5 degrees of freedom), sixes among
/// all dice and doubles among two-dice throws against 1/6 (1 degree of freedom each).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, schemars::JsonSchema)]
pub struct DiceReport {
    #[serde(flatten)]
    pub counts: DiceCounts,
    /// Every die.
    pub dice: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub faces_test: Option<stats::ChiSquare>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sixes_rate: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sixes_test: Option<stats::ChiSquare>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub doubles_rate: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub doubles_test: Option<stats::ChiSquare>,
}

/// Each seat's counts over a table's entries (`(seat, events)` in log order).
pub fn seat_dice<'a>(
    seats: usize,
    entries: impl IntoIterator<Item = (Option<usize>, &'a [Value])>,
) -> Vec<DiceCounts> {
    let mut counts = vec![DiceCounts::default(); seats];
    for (seat, events) in entries {
        for t in thrown(seat, events) {
            if let Some(c) = counts.get_mut(t.seat) {
                c.add_throw(&t.dice);
            }
        }
    }
    counts
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn every_spelling_of_a_throw_counts_for_its_seat() {
        let events = [
            json!({"type": "opening_rolled", "seat": 1, "dice": [3]}),
            json!({"type": "rolled", "seat": 0, "dice": [6, 6]}),
            json!({"type": "moved", "dice": [2]}),
            json!({"type": "opening_roll", "dice": [4, null]}),
            json!({"type": "rolled", "value": 6}),
            json!({"type": "rolled", "die": 2}),
            json!({"type": "dice_rolled", "seat": 1, "dice": [1, 2]}),
        ];
        let counts = seat_dice(2, [(Some(1), &events[..])]);
        // Seat 0: [6, 6] and the old opening's 4. Seat 1: 3, 6 (value), 2 (die), [1, 2].
        assert_eq!(counts[0], DiceCounts { faces: [0, 0, 0, 1, 0, 2], throws: 2, pairs: 1, doubles: 1 });
        assert_eq!(counts[1], DiceCounts { faces: [1, 2, 1, 0, 0, 1], throws: 4, pairs: 1, doubles: 0 });
    }
}
