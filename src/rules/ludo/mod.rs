//! Ludo-family engines: Luddo, the house's rules (RULES.md §3, game `luddo`), and classic Ludo
//! (§2, game `ludo`), on the square or hexagonal board (§1, [`board`]).
//!
//! Both rule sets share one state, [`LudoState`], and one [`Action`]/[`Event`] vocabulary; the
//! engine types [`Luddo`] and [`ClassicLudo`] wrap it with their own options. Every choice made
//! where RULES.md is silent is written down in `docs/rules/ludo.md`.
//!
//! Actions (JSON): `{"type":"roll"}` and `{"type":"move","piece":0..=3}`.

pub mod board;
mod json;
mod state;

#[cfg(test)]
mod props;
#[cfg(test)]
mod tests;

use serde::{Deserialize, Serialize};
use std::ops::Deref;

pub use board::BoardKind;
pub use state::{LudoState, Moves, Phase, Variant};

use super::{DiceSource, Engine, ExtraRollReason, Outcome, RuleError, Seat};
pub(crate) use state::NoEvents;

/// What a seat may do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Action {
    /// Throw the die. In Luddo one roll throws the whole sequence: again at once on each 6,
    /// until a number that is not a 6 or a third 6.
    Roll,
    /// Move piece `piece` (0–3) by the first pending number; from base this brings it out.
    Move { piece: u8 },
}

/// A piece sent back to base.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct CapturedPiece {
    pub seat: Seat,
    pub piece: u8,
    /// Its progress before it was captured.
    pub progress: u8,
}

/// What happened, in order; enough to animate the board and to read the game's log.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// One opening throw (every seat throws; ties on the highest throw again).
    OpeningRolled { seat: Seat, dice: [u8; 1] },
    /// These seats tied on the highest opening throw and throw again.
    OpeningTie { seats: Vec<Seat> },
    /// The opening is decided: this seat plays first.
    FirstToPlay { seat: Seat },
    /// A die thrown in play.
    Rolled { seat: Seat, dice: [u8; 1] },
    /// Luddo: a third consecutive 6 cancelled the turn; none of its numbers move.
    ThreeSixes { seat: Seat },
    /// A piece moved by `number` from progress `from` (`null`: out of base) to `to`.
    Moved { seat: Seat, piece: u8, number: u8, from: Option<u8>, to: u8 },
    /// The move captured these pieces on track square `square`.
    Captured { seat: Seat, square: u8, pieces: Vec<CapturedPiece> },
    /// A piece reached home.
    PieceHome { seat: Seat, piece: u8 },
    /// No piece could move with the first of these numbers: all of them are lost.
    NumbersForfeited { seat: Seat, numbers: Numbers },
    /// The seat rolls again, and why.
    ExtraRoll { seat: Seat, reason: ExtraRollReason },
    /// All the seat's pieces are home; it takes `place`.
    SeatFinished { seat: Seat, place: u8 },
    /// It is now this seat's turn.
    TurnPassed { seat: Seat },
    /// The game is over; `places` per seat, 1 = winner.
    GameOver { places: Vec<u8> },
}

/// Up to three numbers of one turn (JSON: an array such as `[6, 2]`), kept inline so that the
/// frequent `numbers_forfeited` event allocates nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Numbers {
    len: u8,
    values: [u8; 3],
}

impl Numbers {
    /// The first three of `numbers` (a turn never holds more).
    pub fn new(numbers: &[u8]) -> Self {
        let len = numbers.len().min(3);
        let mut values = [0; 3];
        values[..len].copy_from_slice(&numbers[..len]);
        Self { len: len as u8, values }
    }
    pub fn as_slice(&self) -> &[u8] {
        &self.values[..self.len as usize]
    }
}

impl Serialize for Numbers {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.as_slice().serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Numbers {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let numbers = Vec::<u8>::deserialize(deserializer)?;
        if numbers.len() > 3 {
            return Err(serde::de::Error::invalid_length(numbers.len(), &"at most 3 numbers"));
        }
        Ok(Self::new(&numbers))
    }
}

/// The wire form: an array of up to three numbers, each a die's 1 to 6.
impl schemars::JsonSchema for Numbers {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Numbers".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "description": "Up to three numbers of one turn, in the order thrown.",
            "type": "array",
            "items": { "type": "integer", "minimum": 1, "maximum": 6 },
            "maxItems": 3
        })
    }
}

impl PartialEq<[u8]> for Numbers {
    fn eq(&self, other: &[u8]) -> bool {
        self.as_slice() == other
    }
}

/// Options of a `luddo` table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct LuddoOptions {
    /// Bringing a token home earns the extra roll (a house rule; the capture bonus always holds).
    #[schemars(title = "a piece home earns an extra roll")]
    pub home_bonus: bool,
}

impl Default for LuddoOptions {
    fn default() -> Self {
        Self { home_bonus: true }
    }
}

/// Options of a classic `ludo` table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct ClassicOptions {
    /// The numbers that bring a piece out of base: `[6]`, or `[1, 6]` for the children's variant.
    #[schemars(title = "Enter on", schema_with = "enter_on_schema")]
    pub enter_on: Vec<u8>,
    /// With 3+ players the others play on for places after the winner; otherwise the game ends
    /// with the first to finish and everyone else shares second (last) place.
    #[schemars(title = "play on for places")]
    pub play_for_places: bool,
}

impl Default for ClassicOptions {
    fn default() -> Self {
        Self { enter_on: vec![6], play_for_places: true }
    }
}

/// `enter_on`'s schema: the two sets [`ClassicOptions::enter_on_one`] accepts, each titled with
/// the words a player chooses between.
fn enter_on_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    schemars::json_schema!({
        "oneOf": [
            { "type": "array", "const": [6], "title": "a 6" },
            // Both orders: the engine reads a set.
            {
                "type": "array", "items": { "enum": [1, 6] }, "minItems": 2, "maxItems": 2,
                "uniqueItems": true, "default": [1, 6], "title": "a 1 or a 6"
            }
        ]
    })
}

impl ClassicOptions {
    /// Whether a 1 brings a piece out, or why `enter_on` is not one of the two allowed sets.
    fn enter_on_one(&self) -> Result<bool, RuleError> {
        let mut set = self.enter_on.clone();
        set.sort_unstable();
        match set.as_slice() {
            [6] => Ok(false),
            [1, 6] => Ok(true),
            _ => Err(RuleError::invalid_options(format!(
                "enter_on must be [6] or [1, 6], not {:?}",
                self.enter_on
            ))),
        }
    }
}

fn check_seats(seats: usize) -> Result<(), RuleError> {
    match BoardKind::for_seats(seats) {
        Some(_) => Ok(()),
        None => Err(RuleError::invalid_options(format!(
            "Ludo is played by 2 to 6 players (2–4 on the square board, 5–6 on the hexagonal one), \
             not {seats}"
        ))),
    }
}

/// The engine of a `luddo` table (RULES.md §3).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(try_from = "LudoState", into = "LudoState")]
pub struct Luddo(LudoState);

/// The engine of a classic `ludo` table (RULES.md §2).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(try_from = "LudoState", into = "LudoState")]
pub struct ClassicLudo(LudoState);

impl TryFrom<LudoState> for Luddo {
    type Error = RuleError;
    fn try_from(state: LudoState) -> Result<Self, RuleError> {
        match state.variant {
            Variant::Luddo { .. } => Ok(Self(state)),
            Variant::Classic { .. } => {
                Err(RuleError::invalid_options("this is a classic Ludo state, not a Luddo one"))
            }
        }
    }
}

impl TryFrom<LudoState> for ClassicLudo {
    type Error = RuleError;
    fn try_from(state: LudoState) -> Result<Self, RuleError> {
        match state.variant {
            Variant::Classic { .. } => Ok(Self(state)),
            Variant::Luddo { .. } => {
                Err(RuleError::invalid_options("this is a Luddo state, not a classic Ludo one"))
            }
        }
    }
}

impl Luddo {
    /// The variant a table with these options plays.
    fn variant(options: &LuddoOptions) -> Result<Variant, RuleError> {
        Ok(Variant::Luddo { home_bonus: options.home_bonus })
    }
}

impl ClassicLudo {
    fn variant(options: &ClassicOptions) -> Result<Variant, RuleError> {
        Ok(Variant::Classic {
            enter_on_one: options.enter_on_one()?,
            play_for_places: options.play_for_places,
        })
    }
}

/// The parts of [`Engine`] (and the event-free fast path) that both rule sets share.
macro_rules! ludo_engine {
    ($engine:ident, $options:ty, $variant:expr) => {
        impl $engine {
            /// Like [`Engine::new`], without keeping the opening's events.
            pub fn new_quiet(
                options: $options,
                seats: usize,
                dice: &mut (impl DiceSource + ?Sized),
            ) -> Result<Self, RuleError> {
                Self::validate(&options, seats)?;
                let variant = $variant(&options)?;
                LudoState::new_game(variant, seats, dice, &mut NoEvents).map(Self)
            }

            /// Like [`Engine::apply`] without building events: for simulations and bots that
            /// only need the resulting state. Never allocates on success.
            pub fn apply_quiet(
                &mut self,
                seat: Seat,
                action: &Action,
                dice: &mut (impl DiceSource + ?Sized),
            ) -> Result<(), RuleError> {
                self.0.apply_with(seat, action, dice, &mut NoEvents)
            }
        }

        impl Deref for $engine {
            type Target = LudoState;
            fn deref(&self) -> &LudoState {
                &self.0
            }
        }

        impl AsRef<LudoState> for $engine {
            fn as_ref(&self) -> &LudoState {
                &self.0
            }
        }

        impl From<$engine> for LudoState {
            fn from(engine: $engine) -> LudoState {
                engine.0
            }
        }

        impl Engine for $engine {
            type Options = $options;
            type Action = Action;
            type Event = Event;

            fn validate(options: &$options, seats: usize) -> Result<(), RuleError> {
                $variant(options)?;
                check_seats(seats)
            }

            fn new(
                options: $options,
                seats: usize,
                dice: &mut dyn DiceSource,
            ) -> Result<(Self, Vec<Event>), RuleError> {
                Self::validate(&options, seats)?;
                let variant = $variant(&options)?;
                let mut events = Vec::new();
                let state = LudoState::new_game(variant, seats, dice, &mut events)?;
                Ok((Self(state), events))
            }

            fn to_act(&self) -> Option<Seat> {
                self.0.to_act()
            }

            fn legal_actions(&self, seat: Seat) -> Vec<Action> {
                self.0.legal_actions(seat)
            }

            fn apply(
                &mut self,
                seat: Seat,
                action: &Action,
                dice: &mut dyn DiceSource,
            ) -> Result<Vec<Event>, RuleError> {
                // Room for a typical action's events (a move, a capture, a bonus roll or the
                // turn passing) in one allocation.
                let mut events = Vec::with_capacity(4);
                self.0.apply_with(seat, action, dice, &mut events)?;
                Ok(events)
            }

            fn forced_action(&self) -> Option<Action> {
                self.0.forced_action()
            }

            fn outcome(&self) -> Option<Outcome> {
                self.0.outcome()
            }
        }
    };
}

ludo_engine!(Luddo, LuddoOptions, Luddo::variant);
ludo_engine!(ClassicLudo, ClassicOptions, ClassicLudo::variant);
