//! `GameKind::normalize_options` over arbitrary JSON (structured, or text parsed as JSON).
//!
//! Properties: nothing panics; a seat count the game does not allow is always refused;
//! normalized options normalize to themselves and start a game.

#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use luddo::games::GameKind;
use luddo_fuzz::{FuzzDice, J};
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
    let Ok(normalized) = game.normalize_options(&options, seats) else { return };
    assert!(game.seats_allowed(seats), "{game:?} accepted {seats} seats");
    assert_eq!(
        game.normalize_options(&normalized, seats).as_ref(),
        Ok(&normalized),
        "normalizing is not idempotent for {options}"
    );
    let mut dice = FuzzDice::new(vec![], input.seed);
    if let Err(e) = game.start(&normalized, seats, &mut dice) {
        panic!("{game:?}: options {normalized} were accepted but do not start a game: {e}");
    }
});
