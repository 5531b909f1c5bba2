//! Pure game engines: the rules of every game the server runs, and nothing else.
//!
//! No I/O, no clocks, no tokio. Each engine is a value type implementing [`Engine`]: a state
//! that serializes with serde, the legal actions of a seat, and `apply`, which takes the dice
//! from an injected [`DiceSource`]. A game is therefore replayed exactly from its dice and its
//! action log. Illegal input is a [`RuleError`], never a panic, and a refused action leaves the
//! state as it was.
//!
//! Conventions every engine follows, so that the layers above can stay generic:
//! - `Action` and `Event` serialize as JSON objects tagged by a `"type"` field in snake_case
//!   (`{"type": "roll"}`, `{"type": "move", "piece": 2}`), so a client can post back any action
//!   it was offered exactly as it received it.
//! - Seats are numbered `0..seats` in clockwise order of play; the engine maps them onto its
//!   board (colours, arms, partnerships).
//! - The opening (who starts) is decided inside [`Engine::new`] by the server's own throws,
//!   the same way in every game ([`opening`]); engines draw every die through
//!   [`DiceSource::die`], which keeps it in 1..=6.

pub mod backgammon;
pub mod dice;
pub mod ludo;
pub mod opening;
pub mod snakes;
pub mod uckers;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize, de::DeserializeOwned};
use std::fmt::Debug;

pub use dice::{DiceSource, ScriptedDice};

/// A seat at the table, `0..seats`, in clockwise order.
pub type Seat = usize;

/// Why a seat rolls again (the `reason` of every game's `extra_roll` event).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ExtraRollReason {
    /// The throw held a 6 (classic Ludo, Uckers, Snakes and Ladders).
    Six,
    /// Luddo: the sequence captured.
    Capture,
    /// Luddo: the sequence brought a token home (`home_bonus`).
    Home,
    /// Luddo: both; still one extra roll.
    CaptureAndHome,
}

/// Why an engine refused a configuration or an action. The message names the reason in words a
/// player would understand; the kind lets the API choose a stable error code.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Serialize, Deserialize, schemars::JsonSchema)]
#[error("{message}")]
pub struct RuleError {
    pub kind: RuleErrorKind,
    pub message: String,
}

/// The broad reasons an engine says no.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RuleErrorKind {
    /// The options or seat count do not make a valid game.
    InvalidOptions,
    /// It is not this seat's turn, or this seat may not take this kind of action now.
    NotYourTurn,
    /// The action is well-formed but not legal in this position.
    IllegalAction,
    /// The game is already over.
    GameOver,
}

impl RuleError {
    pub fn new(kind: RuleErrorKind, message: impl Into<String>) -> Self {
        Self { kind, message: message.into() }
    }
    pub fn invalid_options(message: impl Into<String>) -> Self {
        Self::new(RuleErrorKind::InvalidOptions, message)
    }
    pub fn not_your_turn(message: impl Into<String>) -> Self {
        Self::new(RuleErrorKind::NotYourTurn, message)
    }
    pub fn illegal(message: impl Into<String>) -> Self {
        Self::new(RuleErrorKind::IllegalAction, message)
    }
    pub fn game_over() -> Self {
        Self::new(RuleErrorKind::GameOver, "the game is over")
    }
}

/// How a finished game ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Outcome {
    /// The place of each seat, indexed by seat: 1 is the winner. Partners share a place; seats
    /// that did not play on for places share the last place.
    pub places: Vec<u8>,
    /// Points each seat won (backgammon: the game's value with gammons, backgammons and the
    /// cube; a match adds them up). `None` for games that do not score.
    pub points: Option<Vec<i32>>,
    /// Entries for the back of the board (Uckers); empty for other games.
    pub shame: Vec<ShameEntry>,
}

/// One entry for the hall of shame: these seats lost in disgrace.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ShameEntry {
    pub seats: Vec<Seat>,
    pub kind: ShameKind,
    /// How many of the partnership's pieces were home (0 for a dicking).
    pub pieces_home: u8,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ShameKind {
    /// An "8-piece dicking": the partnership lost with no piece home.
    Dicking,
    /// The partnership resigned ("up boarded").
    UpBoard,
}

/// The interface every game engine implements.
///
/// `Self` is the whole state of one game (or one match, for backgammon matches): everything
/// needed to continue it, nothing secret (the dice seed lives outside the engine).
pub trait Engine: Clone + Debug + Serialize + DeserializeOwned + JsonSchema + Send + Sync + 'static {
    /// Options chosen at table creation. Deserializing rejects unknown fields; `Default` is the
    /// house default for every option.
    type Options: Clone + Debug + Default + Serialize + DeserializeOwned + JsonSchema + Send + Sync + 'static;
    /// What a seat may do (roll, move, double, challenge …), tagged by `"type"`.
    type Action: Clone + Debug + PartialEq + Serialize + DeserializeOwned + JsonSchema + Send + Sync + 'static;
    /// What happened (dice thrown, piece moved, piece captured …), tagged by `"type"`.
    type Event: Clone + Debug + PartialEq + Serialize + DeserializeOwned + JsonSchema + Send + Sync + 'static;

    /// Checks that `options` and the number of seats make a valid game.
    fn validate(options: &Self::Options, seats: usize) -> Result<(), RuleError>;

    /// Sets up a new game and throws for the opening, returning the state with the first seat
    /// to act and the events of the opening.
    fn new(
        options: Self::Options,
        seats: usize,
        dice: &mut dyn DiceSource,
    ) -> Result<(Self, Vec<Self::Event>), RuleError>;

    /// The seat whose decision the game is waiting for (whose clock runs), or `None` once the
    /// game is over.
    fn to_act(&self) -> Option<Seat>;

    /// Every action `seat` may take now. Empty when the seat may not act. Usually only the seat
    /// to act has actions, but some games let others act out of turn (resigning, for example).
    fn legal_actions(&self, seat: Seat) -> Vec<Self::Action>;

    /// The action of [`Engine::legal_actions`] that `action` stands for, as listed; `None` if
    /// it is not one of them. By default the listed action equal to it; an engine that lists
    /// one spelling of a move that can be written several ways (backgammon: the same play in
    /// another order) maps the others to the one it lists.
    fn legal_action(&self, seat: Seat, action: &Self::Action) -> Option<Self::Action> {
        self.legal_actions(seat).into_iter().find(|a| a == action)
    }

    /// Applies `seat`'s action, drawing any dice it needs from `dice`. On `Err`, `self` is
    /// unchanged and no die was drawn.
    fn apply(
        &mut self,
        seat: Seat,
        action: &Self::Action,
        dice: &mut dyn DiceSource,
    ) -> Result<Vec<Self::Event>, RuleError>;

    /// An action the server should take for the seat to act at once, without a clock, because
    /// the game leaves it no real choice (a single legal move). Rolls are never forced: the
    /// player throws the dice themselves.
    fn forced_action(&self) -> Option<Self::Action>;

    /// How the game ended, once it has.
    fn outcome(&self) -> Option<Outcome>;
}
