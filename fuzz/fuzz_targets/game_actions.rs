//! Every game, started from fuzzed options and seat count, fed fuzzed actions: raw JSON, text,
//! legal actions (possibly mutated), forced moves and bot moves.
//!
//! Properties (`luddo::testing::start_game` and `play_step`, shared with `tests/bad_input.rs`):
//! nothing panics; an offered legal action, the forced action and the bot's action are
//! accepted; an accepted action is applied as one of the listed ones; a refused action leaves
//! `state()` unchanged and draws no die; `to_act` is a seat of the table; a finished game
//! refuses everything.

#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use luddo::{
    games::GameKind,
    testing::{self, CountingDice, play_step, start_game},
};
use luddo_fuzz::{J, Word};
use serde_json::Value;

#[derive(Debug, Arbitrary)]
struct Input {
    game: u8,
    seats: u8,
    options: Option<J>,
    dice: Vec<u8>,
    seed: u64,
    steps: Vec<Step>,
}

#[derive(Debug, Arbitrary)]
enum Step {
    /// Any JSON as `seat`'s action.
    Raw { seat: u8, action: J },
    /// Any text, parsed as JSON.
    Text { seat: u8, text: String },
    /// One of the legal actions of `seat` (or of the seat to act).
    Legal { seat: Option<u8>, pick: u16 },
    /// A legal action with one field replaced.
    Mutated { pick: u16, key: Word, value: J },
    /// The forced action, else the bot's.
    Auto,
}

impl Step {
    /// The step as the shared harness plays it; `None` for text that is not JSON.
    fn to_step(&self) -> Option<testing::Step> {
        Some(match self {
            Step::Raw { seat, action } => testing::Step::Raw { seat: *seat as usize, action: action.to_value() },
            Step::Text { seat, text } => {
                testing::Step::Raw { seat: *seat as usize, action: serde_json::from_str::<Value>(text).ok()? }
            }
            Step::Legal { seat, pick } => {
                testing::Step::Legal { seat: seat.map(usize::from), pick: *pick as usize }
            }
            Step::Mutated { pick, key, value } => {
                testing::Step::Mutated { pick: *pick as usize, key: key.text(), value: value.to_value() }
            }
            Step::Auto => testing::Step::Auto,
        })
    }
}

/// Most steps one input plays (beyond it, inputs only get slower).
const MAX_STEPS: usize = 400;

fuzz_target!(|input: Input| {
    let game = GameKind::ALL[input.game as usize % GameKind::ALL.len()];
    let seats = input.seats as usize % 8;
    let options = input.options.as_ref().map_or(Value::Null, J::to_value);
    let mut dice = CountingDice::new(input.dice, input.seed);
    let mut g = match start_game(game, seats, &options, &mut dice) {
        Ok(Some(g)) => g,
        Ok(None) => return,
        Err(broken) => panic!("{broken}"),
    };
    for step in input.steps.iter().take(MAX_STEPS).filter_map(Step::to_step) {
        if let Err(broken) = play_step(g.as_mut(), game, seats, &step, &mut dice) {
            panic!("{broken}");
        }
    }
});
