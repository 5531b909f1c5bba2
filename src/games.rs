//! The games a table can hold, their seat limits and their options.
//!
//! Options arrive as JSON; each game's engine owns their schema (unknown fields refused,
//! defaults filled in), so the lobby stores the normalized form the engine will read.

use crate::{
    bots,
    rules::{
        DiceSource, Engine, Outcome, RuleError, Seat,
        backgammon::Backgammon,
        ludo::{ClassicLudo, Luddo, LuddoOptions},
        snakes::Snakes,
        uckers::Uckers,
    },
    store::Visibility,
};
use serde::{Deserialize, Serialize};
use std::ops::RangeInclusive;

/// A game a table can be created for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GameKind {
    /// The house's Ludo rules (RULES.md §3).
    Luddo,
    /// Classic Ludo (RULES.md §2).
    Ludo,
    /// The Royal Navy's partnered two-dice Ludo (RULES.md §5).
    Uckers,
    /// Snakes and Ladders (RULES.md §4).
    Snakes,
    /// Backgammon (RULES.md §6).
    Backgammon,
}

impl GameKind {
    pub const ALL: [GameKind; 5] =
        [GameKind::Luddo, GameKind::Ludo, GameKind::Uckers, GameKind::Snakes, GameKind::Backgammon];

    pub fn as_str(self) -> &'static str {
        match self {
            GameKind::Luddo => "luddo",
            GameKind::Ludo => "ludo",
            GameKind::Uckers => "uckers",
            GameKind::Snakes => "snakes",
            GameKind::Backgammon => "backgammon",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|g| g.as_str() == s)
    }

    /// How many seats a table of this game may have.
    pub fn seat_range(self) -> RangeInclusive<usize> {
        match self {
            GameKind::Luddo | GameKind::Ludo => 2..=6,
            GameKind::Uckers => 2..=4,
            GameKind::Snakes => 2..=4,
            GameKind::Backgammon => 2..=2,
        }
    }

    /// Whether `seats` is a valid seat count (Uckers takes 2 or 4, not 3).
    pub fn seats_allowed(self, seats: usize) -> bool {
        self.seat_range().contains(&seats) && !(self == GameKind::Uckers && seats == 3)
    }

    /// Starts a game of this kind: options as normalized by [`GameKind::normalize_options`], the
    /// opening throws drawn from `dice`. Returns the game with its bot, and the opening events.
    pub fn start(
        self,
        options: &serde_json::Value,
        seats: usize,
        dice: &mut dyn DiceSource,
    ) -> Result<(Box<dyn DynGame>, Vec<serde_json::Value>), RuleError> {
        match self {
            GameKind::Luddo => start::<Luddo>(options, seats, dice, |g, s| bots::ludo::choose(g, s)),
            GameKind::Ludo => start::<ClassicLudo>(options, seats, dice, |g, s| bots::ludo::choose(g, s)),
            GameKind::Uckers => start::<Uckers>(options, seats, dice, bots::uckers::choose),
            GameKind::Snakes => start::<Snakes>(options, seats, dice, bots::snakes::choose),
            GameKind::Backgammon => start::<Backgammon>(options, seats, dice, bots::backgammon::choose),
        }
    }

    /// Checks `options` for a table of `seats` and returns them with every default filled in.
    pub fn normalize_options(
        self,
        options: &serde_json::Value,
        seats: usize,
    ) -> Result<serde_json::Value, String> {
        let options =
            if options.is_null() { &serde_json::Value::Object(Default::default()) } else { options };
        match self {
            GameKind::Luddo => normalize_engine::<Luddo>(options, seats),
            GameKind::Ludo => normalize_engine::<ClassicLudo>(options, seats),
            GameKind::Uckers => normalize_engine::<Uckers>(options, seats),
            GameKind::Snakes => normalize_engine::<Snakes>(options, seats),
            GameKind::Backgammon => normalize_engine::<Backgammon>(options, seats),
        }
        .and_then(|v| {
            if self.seats_allowed(seats) {
                Ok(v)
            } else {
                Err(format!("{} cannot be played with {seats} seats", self.as_str()))
            }
        })
    }

    /// Checks that options normalized by [`GameKind::normalize_options`] may be played at a table
    /// of `visibility`: some house rules are the choice of a private table's host alone.
    pub fn check_visibility(self, options: &serde_json::Value, visibility: Visibility) -> Result<(), String> {
        if self != GameKind::Luddo || visibility == Visibility::Private {
            return Ok(());
        }
        let options: LuddoOptions = serde_json::from_value(options.clone()).map_err(|e| e.to_string())?;
        if options.home_bonus {
            Ok(())
        } else {
            // RULES.md §3, rule 6: "the host of a private table may turn it off".
            Err("home_bonus may be turned off only at a private table".to_string())
        }
    }
}

/// Options checked by the engine itself.
fn normalize_engine<E: Engine>(
    options: &serde_json::Value,
    seats: usize,
) -> Result<serde_json::Value, String> {
    let parsed: E::Options = serde_json::from_value(options.clone()).map_err(|e| e.to_string())?;
    E::validate(&parsed, seats).map_err(|e| e.message)?;
    serde_json::to_value(parsed).map_err(|e| e.to_string())
}

/// A game of any kind behind one object-safe interface, speaking JSON at its edges: what a table
/// actor holds. Actions and events are the engine's own serde forms.
pub trait DynGame: Send + Sync {
    /// The seat whose decision the game waits for; `None` once it is over.
    fn to_act(&self) -> Option<Seat>;
    /// The legal actions of `seat`, as JSON a client can post back unchanged.
    fn legal_actions(&self, seat: Seat) -> Vec<serde_json::Value>;
    /// The listed legal action of `seat` that `action` stands for (see [`Engine::legal_action`]),
    /// as listed: an action of the engine's type with no field it does not know.
    fn legal_action(&self, seat: Seat, action: &serde_json::Value) -> Result<serde_json::Value, RuleError>;
    /// Applies `seat`'s action, which must be one of its legal actions ([`DynGame::legal_action`]).
    /// Returns the action as listed (what is logged and broadcast) and the events. On error
    /// nothing changed and no die was drawn.
    fn apply(
        &mut self,
        seat: Seat,
        action: &serde_json::Value,
        dice: &mut dyn DiceSource,
    ) -> Result<Applied, RuleError>;
    /// Applies a logged action again, exactly as the engine took it the first time: not checked
    /// against the list, so that logs written before actions were (or in another spelling)
    /// replay unchanged.
    fn replay(
        &mut self,
        seat: Seat,
        action: &serde_json::Value,
        dice: &mut dyn DiceSource,
    ) -> Result<(), RuleError>;
    /// The move the server makes at once because there is no real choice.
    fn forced_action(&self) -> Option<serde_json::Value>;
    /// What the bot would do for `seat`.
    fn bot_action(&self, seat: Seat) -> Option<serde_json::Value>;
    fn outcome(&self) -> Option<Outcome>;
    /// The whole state, for clients to render.
    fn state(&self) -> serde_json::Value;
}

/// An accepted action.
#[derive(Debug, Clone, PartialEq)]
pub struct Applied {
    /// The action as the game lists it, whatever spelling was posted.
    pub action: serde_json::Value,
    pub events: Vec<serde_json::Value>,
}

/// An engine with its bot policy.
struct Playing<E: Engine> {
    game: E,
    bot: fn(&E, Seat) -> Option<E::Action>,
}

impl<E: Engine> Playing<E> {
    /// The listed legal action `action` stands for; else why not, in the engine's words where
    /// it has them.
    fn listed(&self, seat: Seat, action: &serde_json::Value) -> Result<E::Action, RuleError> {
        let typed = parse::<E>(action)?;
        if let Some(field) = unknown_field(action, &to_json(&typed)) {
            return Err(RuleError::illegal(format!("unknown field `{field}` in the action")));
        }
        if let Some(listed) = self.game.legal_action(seat, &typed) {
            return Ok(listed);
        }
        // Not listed: let the engine say why, on a copy (it may accept moves it does not list,
        // such as the same move of another of two identical pieces: those are refused too).
        let mut probe = self.game.clone();
        probe.apply(seat, &typed, &mut NoDice)?;
        Err(RuleError::illegal("not one of the legal actions; post one as it is listed"))
    }
}

/// Dice for [`Playing::listed`]'s probe, which never keeps what it plays.
struct NoDice;

impl DiceSource for NoDice {
    fn roll(&mut self) -> u8 {
        1
    }
}

/// Reads `action` as an action of `E`.
fn parse<E: Engine>(action: &serde_json::Value) -> Result<E::Action, RuleError> {
    E::Action::deserialize(action).map_err(|e| RuleError::illegal(format!("not an action of this game: {e}")))
}

/// A field of `posted` that its typed reading does not have (serde skips unknown fields unless
/// told otherwise; checking the typed value's own JSON covers every engine's actions at once).
/// Its path, dotted.
fn unknown_field(posted: &serde_json::Value, typed: &serde_json::Value) -> Option<String> {
    use serde_json::Value;
    match (posted, typed) {
        (Value::Object(posted), Value::Object(typed)) => {
            posted.iter().find_map(|(key, value)| match typed.get(key) {
                None => Some(key.clone()),
                Some(known) => unknown_field(value, known).map(|inner| format!("{key}.{inner}")),
            })
        }
        (Value::Array(posted), Value::Array(typed)) => posted
            .iter()
            .zip(typed)
            .enumerate()
            .find_map(|(i, (p, t))| unknown_field(p, t).map(|inner| format!("{i}.{inner}"))),
        _ => None,
    }
}

fn to_json<T: Serialize>(value: &T) -> serde_json::Value {
    // Engine types serialize to JSON by construction (derived, string keys).
    serde_json::to_value(value).unwrap_or(serde_json::Value::Null)
}

impl<E: Engine> DynGame for Playing<E> {
    fn to_act(&self) -> Option<Seat> {
        self.game.to_act()
    }
    fn legal_actions(&self, seat: Seat) -> Vec<serde_json::Value> {
        self.game.legal_actions(seat).iter().map(to_json).collect()
    }
    fn legal_action(&self, seat: Seat, action: &serde_json::Value) -> Result<serde_json::Value, RuleError> {
        self.listed(seat, action).map(|a| to_json(&a))
    }
    fn apply(
        &mut self,
        seat: Seat,
        action: &serde_json::Value,
        dice: &mut dyn DiceSource,
    ) -> Result<Applied, RuleError> {
        let listed = self.listed(seat, action)?;
        let events = self.game.apply(seat, &listed, dice)?.iter().map(to_json).collect();
        Ok(Applied { action: to_json(&listed), events })
    }
    fn replay(
        &mut self,
        seat: Seat,
        action: &serde_json::Value,
        dice: &mut dyn DiceSource,
    ) -> Result<(), RuleError> {
        self.game.apply(seat, &parse::<E>(action)?, dice).map(drop)
    }
    fn forced_action(&self) -> Option<serde_json::Value> {
        self.game.forced_action().as_ref().map(to_json)
    }
    fn bot_action(&self, seat: Seat) -> Option<serde_json::Value> {
        (self.bot)(&self.game, seat).as_ref().map(to_json)
    }
    fn outcome(&self) -> Option<Outcome> {
        self.game.outcome()
    }
    fn state(&self) -> serde_json::Value {
        to_json(&self.game)
    }
}

/// Starts a game of `E` with its bot: the opening throws come from `dice`.
fn start<E: Engine>(
    options: &serde_json::Value,
    seats: usize,
    dice: &mut dyn DiceSource,
    bot: fn(&E, Seat) -> Option<E::Action>,
) -> Result<(Box<dyn DynGame>, Vec<serde_json::Value>), RuleError> {
    let options: E::Options =
        serde_json::from_value(options.clone()).map_err(|e| RuleError::invalid_options(e.to_string()))?;
    E::validate(&options, seats)?;
    let (game, events) = E::new(options, seats, dice)?;
    Ok((Box::new(Playing { game, bot }), events.iter().map(to_json).collect()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn seat_limits_follow_each_game() {
        assert!(GameKind::Luddo.seats_allowed(6));
        assert!(!GameKind::Luddo.seats_allowed(7));
        assert!(!GameKind::Uckers.seats_allowed(3));
        assert!(GameKind::Uckers.seats_allowed(2));
        assert!(!GameKind::Backgammon.seats_allowed(3));
        assert!(!GameKind::Snakes.seats_allowed(1));
    }

    #[test]
    fn options_are_normalized_with_defaults() {
        let v = GameKind::Luddo.normalize_options(&json!({}), 4).unwrap();
        assert_eq!(v, json!({"home_bonus": true}));
        let v = GameKind::Luddo.normalize_options(&serde_json::Value::Null, 4).unwrap();
        assert_eq!(v, json!({"home_bonus": true}));
    }

    #[test]
    fn unknown_and_invalid_options_are_refused() {
        assert!(GameKind::Luddo.normalize_options(&json!({"turbo": true}), 4).is_err());
        assert!(GameKind::Ludo.normalize_options(&json!({"enter_on": [5]}), 4).is_err());
        assert!(GameKind::Luddo.normalize_options(&json!({"home_bonus": "yes"}), 4).is_err());
    }

    #[test]
    fn only_a_private_table_may_turn_the_home_bonus_off() {
        let off = GameKind::Luddo.normalize_options(&json!({"home_bonus": false}), 4).unwrap();
        assert!(GameKind::Luddo.check_visibility(&off, Visibility::Public).is_err());
        assert_eq!(GameKind::Luddo.check_visibility(&off, Visibility::Private), Ok(()));
        let on = GameKind::Luddo.normalize_options(&json!({}), 4).unwrap();
        assert_eq!(GameKind::Luddo.check_visibility(&on, Visibility::Public), Ok(()));
        let ludo = GameKind::Ludo.normalize_options(&json!({}), 4).unwrap();
        assert_eq!(GameKind::Ludo.check_visibility(&ludo, Visibility::Public), Ok(()));
    }
}
