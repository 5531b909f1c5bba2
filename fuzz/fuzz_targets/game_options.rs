//! `GameKind::normalize_options` over arbitrary JSON (structured, or text parsed as JSON).
//!
//! Properties (`luddo::testing::check_options`, shared with `tests/bad_input.rs`): nothing
//! panics; a seat count the game does not allow is always refused; normalized options
//! normalize to themselves and start a game.

#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use luddo::{games::GameKind, testing::check_options};
use luddo_fuzz::J;
use serde_json::Value;

#[derive(Debug, Arbitrary)]
enum Options {
    Structured(J),
    Text(String),
}

#[derive(Debug, Arbitrary)]
struct Input {
    game: u8,
    seats: u8,
    options: Options,
    seed: u64,
}

fuzz_target!(|input: Input| {
    let game = GameKind::ALL[input.game as usize % GameKind::ALL.len()];
    let seats = input.seats as usize % 9;
    let options = match &input.options {
        Options::Structured(j) => j.to_value(),
        Options::Text(t) => match serde_json::from_str::<Value>(t) {
            Ok(v) => v,
            Err(_) => return,
        },
    };
    if let Err(broken) = check_options(game, seats, &options, input.seed) {
        panic!("{broken}");
    }
});
