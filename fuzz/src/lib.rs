//! Shared pieces of the fuzz targets: JSON values built from fuzz bytes (with the vocabulary of
//! our actions and options, so the fuzzer reaches past serde's first `unknown variant`), and a
//! dice source that never runs dry and counts what it handed out.

use arbitrary::Arbitrary;
use luddo::rules::DiceSource;
use serde_json::{Map, Number, Value};

/// Every field name and tag our actions and options use.
const WORDS: &[&str] = &[
    "type",
    "roll",
    "move",
    "piece",
    "steps",
    "die",
    "total",
    "challenge",
    "target",
    "pass",
    "call_snake_eyes",
    "suck_back",
    "blow_back",
    "stand_up",
    "up_board",
    "double",
    "take",
    "drop",
    "beaver",
    "play",
    "moves",
    "from",
    "to",
    "colour",
    "index",
    "yellow",
    "red",
    "green",
    "blue",
    "home_bonus",
    "enter_on",
    "play_for_places",
    "snake_eyes",
    "off",
    "navy",
    "wafu",
    "superblobs",
    "mixed_blob_stacking",
    "stand_up_finish",
    "board",
    "ladders",
    "snakes",
    "match_to",
    "cube",
    "beavers",
    "jacoby",
    "crawford",
];

/// A string: mostly one of [`WORDS`], sometimes anything.
#[derive(Debug, Arbitrary)]
pub enum Word {
    Known(u8),
    Any(String),
}

impl Word {
    pub fn text(&self) -> String {
        match self {
            Word::Known(i) => WORDS[*i as usize % WORDS.len()].to_string(),
            Word::Any(s) => s.clone(),
        }
    }
}

/// A JSON value from fuzz bytes.
#[derive(Debug, Arbitrary)]
pub enum J {
    Null,
    Bool(bool),
    Small(u8),
    Int(i64),
    Float(f64),
    Str(Word),
    Arr(Vec<J>),
    Obj(Vec<(Word, J)>),
}

/// Deeper than any action or option nests; keeps conversion cheap.
const MAX_DEPTH: usize = 8;

impl J {
    pub fn to_value(&self) -> Value {
        self.at_depth(0)
    }

    fn at_depth(&self, depth: usize) -> Value {
        if depth > MAX_DEPTH {
            return Value::Null;
        }
        match self {
            J::Null => Value::Null,
            J::Bool(b) => Value::Bool(*b),
            J::Small(n) => Value::from(*n),
            J::Int(n) => Value::from(*n),
            J::Float(f) => Number::from_f64(*f).map_or(Value::Null, Value::Number),
            J::Str(w) => Value::String(w.text()),
            J::Arr(items) => Value::Array(items.iter().map(|j| j.at_depth(depth + 1)).collect()),
            J::Obj(fields) => Value::Object(
                fields.iter().map(|(k, v)| (k.text(), v.at_depth(depth + 1))).collect::<Map<_, _>>(),
            ),
        }
    }
}

/// Dice from the fuzz input, then from a xorshift generator (so an opening that rolls until the
/// dice differ always ends). Counts the dice drawn.
pub struct FuzzDice {
    script: Vec<u8>,
    state: u64,
    pub drawn: u64,
}

impl FuzzDice {
    pub fn new(script: Vec<u8>, seed: u64) -> Self {
        Self { script, state: seed | 1, drawn: 0 }
    }
}

impl DiceSource for FuzzDice {
    fn roll(&mut self) -> u8 {
        let k = self.drawn as usize;
        self.drawn += 1;
        if let Some(b) = self.script.get(k) {
            return 1 + b % 6;
        }
        self.state ^= self.state << 13;
        self.state ^= self.state >> 7;
        self.state ^= self.state << 17;
        1 + (self.state % 6) as u8
    }
}
