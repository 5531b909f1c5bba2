//! Every game, started from fuzzed options and seat count, fed fuzzed actions: raw JSON, text,
//! legal actions (possibly mutated), forced moves and bot moves.
//!
//! Properties: nothing panics; an offered legal action, the forced action and the bot's action
//! are accepted; an accepted action is applied as one of the listed ones; a refused action
//! leaves `state()` unchanged and draws no die; `to_act` is a seat of the table; a finished game
//! refuses everything.

#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use luddo::games::GameKind;
use luddo_fuzz::{FuzzDice, J, Word};
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

/// Most steps one input plays (beyond it, inputs only get slower).
const MAX_STEPS: usize = 400;

fuzz_target!(|input: Input| {
    let game = GameKind::ALL[input.game as usize % GameKind::ALL.len()];
    let seats = input.seats as usize % 8;
    let options = input.options.as_ref().map_or(Value::Null, J::to_value);
    let normalized = match game.normalize_options(&options, seats) {
        Ok(v) => v,
        Err(_) => match game.normalize_options(&Value::Null, seats) {
            Ok(v) => v,
            Err(_) => {
                assert!(!game.seats_allowed(seats), "default options refused for {seats} seats");
                return;
            }
        },
    };
    let mut dice = FuzzDice::new(input.dice, input.seed);
    let (mut g, _opening) = game
        .start(&normalized, seats, &mut dice)
        .unwrap_or_else(|e| panic!("normalized options {normalized} do not start {game:?}: {e}"));

    for step in input.steps.iter().take(MAX_STEPS) {
        let before = g.state();
        let drawn = dice.drawn;
        let over = g.outcome().is_some();
        if let Some(s) = g.to_act() {
            assert!(s < seats, "to_act {s} with {seats} seats");
            assert!(!over, "a finished game has a seat to act");
        } else {
            assert!(over, "no seat to act but no outcome");
        }
        // (seat, action, must it be accepted?)
        let (seat, action, must_accept) = match step {
            Step::Raw { seat, action } => (*seat as usize % (seats + 1), action.to_value(), false),
            Step::Text { seat, text } => match serde_json::from_str::<Value>(text) {
                Ok(v) => (*seat as usize % (seats + 1), v, false),
                Err(_) => continue,
            },
            Step::Legal { seat, pick } => {
                let seat = match seat {
                    Some(s) => *s as usize % seats,
                    None => match g.to_act() {
                        Some(s) => s,
                        None => continue,
                    },
                };
                let legal = g.legal_actions(seat);
                if legal.is_empty() {
                    continue;
                }
                (seat, legal[*pick as usize % legal.len()].clone(), true)
            }
            Step::Mutated { pick, key, value } => {
                let Some(seat) = g.to_act() else { continue };
                let legal = g.legal_actions(seat);
                if legal.is_empty() {
                    continue;
                }
                let mut action = legal[*pick as usize % legal.len()].clone();
                if let Value::Object(fields) = &mut action {
                    fields.insert(key.text(), value.to_value());
                }
                (seat, action, false)
            }
            Step::Auto => {
                let Some(seat) = g.to_act() else { continue };
                match g.forced_action().or_else(|| g.bot_action(seat)) {
                    Some(a) => (seat, a, true),
                    None => continue,
                }
            }
        };
        let legal = g.legal_actions(seat);
        match g.apply(seat, &action, &mut dice) {
            Ok(applied) => {
                assert!(!over, "a finished game accepted {action} from seat {seat}");
                assert!(legal.contains(&applied.action), "{game:?}: {action} was applied as {}, not listed", applied.action);
            }
            Err(e) => {
                assert!(!must_accept, "{game:?}: seat {seat}'s offered action {action} was refused: {e}");
                assert_eq!(g.state(), before, "{game:?}: refused {action} changed the state");
                assert_eq!(dice.drawn, drawn, "{game:?}: refused {action} drew dice");
            }
        }
    }
});
