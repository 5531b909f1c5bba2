//! Shared pieces of the fuzz targets: JSON values built from fuzz bytes, with the vocabulary of
//! our actions and options (`luddo::testing::WORDS`, shared with `tests/bad_input.rs`), so the
//! fuzzer reaches past serde's first `unknown variant`. The properties the targets check, and
//! the dice they play with, are in `luddo::testing` too.

use arbitrary::Arbitrary;
use luddo::testing::WORDS;
use serde_json::{Map, Number, Value};

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
