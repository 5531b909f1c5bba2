//! What the property tests (`tests/bad_input.rs`) and the fuzz targets (`fuzz/`) share, so that
//! each is written once.
//!
//! Not part of the server: hidden from the docs, and nothing in the server calls it. It is an
//! ordinary module rather than one behind a feature because its users are integration tests and
//! the separate fuzz crate, which link the library as it is built by default; it needs nothing
//! the library does not already depend on.
//!
//! - [`WORDS`], [`CountingDice`]: the vocabulary random JSON is drawn from and the dice random
//!   games are played with;
//! - [`start_game`], [`play_step`], [`check_options`], [`check_backgammon_text`]: the properties,
//!   each returning what broke as text (a fuzz target panics with it, a property test fails).

use crate::{
    games::{DynGame, GameKind},
    rules::{
        DiceSource, Engine,
        backgammon::{
            Backgammon,
            analysis::{PositionInput, legal_plays},
            ids::{match_id, parse_match_id, parse_position_id, parse_xgid, position_id, xgid},
        },
    },
};
use serde_json::{Map, Value};
use std::collections::BTreeSet;
use std::sync::LazyLock;

/// Every field name and tag of every game's actions and options, so random JSON gets past
/// serde's first `unknown variant` into the engines: read from their schemas
/// ([`GameKind::schemas`]: property names, `const`s, `enum`s), game by game in the registry's
/// order, actions before options, each word once. A new game's words come with its registry row.
pub static WORDS: LazyLock<Vec<String>> = LazyLock::new(|| {
    let mut words = Vec::new();
    for &game in GameKind::ALL {
        let schemas = game.schemas();
        for root in [&schemas.action, &schemas.options] {
            schema_words(root, &schemas.defs, &mut BTreeSet::new(), &mut words);
        }
    }
    words
});

/// Adds the words of `schema` (and of the definitions it refers to, each read once) to `words`.
fn schema_words(
    schema: &Value,
    defs: &Map<String, Value>,
    read: &mut BTreeSet<String>,
    words: &mut Vec<String>,
) {
    fn add(words: &mut Vec<String>, word: &str) {
        if !words.iter().any(|w| w == word) {
            words.push(word.to_string());
        }
    }
    match schema {
        Value::Object(object) => {
            for (key, value) in object {
                match (key.as_str(), value) {
                    ("$ref", Value::String(r)) => {
                        let name = r.strip_prefix("#/$defs/").unwrap_or(r);
                        if let (true, Some(def)) = (read.insert(name.to_string()), defs.get(name)) {
                            schema_words(def, defs, read, words);
                        }
                    }
                    ("properties", Value::Object(properties)) => {
                        properties.keys().for_each(|name| add(words, name));
                        properties.values().for_each(|p| schema_words(p, defs, read, words));
                    }
                    ("const", Value::String(tag)) => add(words, tag),
                    ("enum", Value::Array(tags)) => {
                        tags.iter().filter_map(Value::as_str).for_each(|tag| add(words, tag))
                    }
                    // Prose and values, not schemas: no words of the wire in them.
                    ("description" | "default" | "examples", _) => {}
                    _ => schema_words(value, defs, read, words),
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|item| schema_words(item, defs, read, words)),
        _ => {}
    }
}

/// Dice from a script (each byte read as a die: 1 to 6 as they are, any other byte folded onto
/// them), then from a xorshift generator, so that an opening that rolls until the dice differ
/// always ends. Counts the dice drawn.
#[derive(Debug, Clone)]
pub struct CountingDice {
    script: Vec<u8>,
    state: u64,
    /// How many dice have been drawn.
    pub drawn: usize,
}

impl CountingDice {
    /// `script` first, then the generator seeded with `seed`.
    pub fn new(script: Vec<u8>, seed: u64) -> Self {
        Self { script, state: seed | 1, drawn: 0 }
    }
}

impl DiceSource for CountingDice {
    fn roll(&mut self) -> u8 {
        let k = self.drawn;
        self.drawn += 1;
        if let Some(b) = self.script.get(k) {
            return 1 + b.wrapping_sub(1) % 6;
        }
        self.state ^= self.state << 13;
        self.state ^= self.state >> 7;
        self.state ^= self.state << 17;
        1 + (self.state % 6) as u8
    }
}

/// Starts `game` for `seats` with `options`, or with the defaults when the game refuses them.
/// `Ok(None)` when the game is not played with `seats` seats.
///
/// Properties: the defaults are refused only for a seat count the game does not allow;
/// normalized options start a game.
pub fn start_game(
    game: GameKind,
    seats: usize,
    options: &Value,
    dice: &mut CountingDice,
) -> Result<Option<Box<dyn DynGame>>, String> {
    let normalized = match game.normalize_options(options, seats) {
        Ok(v) => v,
        Err(_) => match game.normalize_options(&Value::Null, seats) {
            Ok(v) => v,
            Err(_) if !game.seats_allowed(seats) => return Ok(None),
            Err(e) => return Err(format!("{game}: default options refused for {seats} seats: {e}")),
        },
    };
    match game.start(&normalized, seats, dice) {
        Ok((g, _opening)) => Ok(Some(g)),
        Err(e) => Err(format!("{game}: normalized options {normalized} do not start a game: {e}")),
    }
}

/// One move of a random game.
#[derive(Debug, Clone)]
pub enum Step {
    /// Any JSON as `seat`'s action (`seat` taken modulo one more than the seats, so that a
    /// seat past the last is tried too).
    Raw { seat: usize, action: Value },
    /// One of the legal actions of `seat` (modulo the seats), or of the seat to act.
    Legal { seat: Option<usize>, pick: usize },
    /// A legal action of the seat to act with one field replaced.
    Mutated { pick: usize, key: String, value: Value },
    /// The forced action, else the bot's.
    Auto,
}

/// Plays `step` on `g` (a game of `game` for `seats`).
///
/// Properties: `to_act` is a seat of the table, and there is one exactly while the game is not
/// over; an offered legal action, the forced action and the bot's action are accepted; an
/// accepted action is applied as one of the listed ones, never by a finished game; a refused
/// action leaves `state()` unchanged and draws no die.
pub fn play_step(
    g: &mut dyn DynGame,
    game: GameKind,
    seats: usize,
    step: &Step,
    dice: &mut CountingDice,
) -> Result<(), String> {
    let before = g.state();
    let drawn = dice.drawn;
    let over = g.outcome().is_some();
    match g.to_act() {
        Some(s) if s >= seats => return Err(format!("{game}: to_act {s} with {seats} seats")),
        Some(_) if over => return Err(format!("{game}: a finished game has a seat to act")),
        None if !over => return Err(format!("{game}: no seat to act but no outcome")),
        _ => {}
    }
    let legal_pick = |seat: usize, pick: usize| {
        let legal = g.legal_actions(seat);
        (!legal.is_empty()).then(|| legal[pick % legal.len()].clone())
    };
    // (seat, action, must it be accepted?)
    let (seat, action, must_accept) = match step {
        Step::Raw { seat, action } => (seat % (seats + 1), action.clone(), false),
        Step::Legal { seat, pick } => {
            let Some(seat) = seat.map(|s| s % seats).or_else(|| g.to_act()) else { return Ok(()) };
            let Some(action) = legal_pick(seat, *pick) else { return Ok(()) };
            (seat, action, true)
        }
        Step::Mutated { pick, key, value } => {
            let Some(seat) = g.to_act() else { return Ok(()) };
            let Some(mut action) = legal_pick(seat, *pick) else { return Ok(()) };
            if let Value::Object(fields) = &mut action {
                fields.insert(key.clone(), value.clone());
            }
            (seat, action, false)
        }
        Step::Auto => {
            let Some(seat) = g.to_act() else { return Ok(()) };
            match g.forced_action().or_else(|| g.bot_action(seat, crate::bots::Level::Strong)) {
                Some(action) => (seat, action, true),
                None => return Ok(()),
            }
        }
    };
    let legal = g.legal_actions(seat);
    match g.apply(seat, &action, dice) {
        Ok(_) if over => Err(format!("{game}: a finished game accepted {action} from seat {seat}")),
        Ok(applied) if !legal.contains(&applied.action) => {
            Err(format!("{game}: {action} was applied as {}, not listed", applied.action))
        }
        Ok(_) => Ok(()),
        Err(e) if must_accept => {
            Err(format!("{game}: seat {seat}'s offered action {action} was refused: {e}"))
        }
        Err(_) if g.state() != before => Err(format!("{game}: refused {action} changed the state")),
        Err(_) if dice.drawn != drawn => Err(format!("{game}: refused {action} drew dice")),
        Err(_) => Ok(()),
    }
}

/// Checks `options` for a table of `game` with `seats` seats.
///
/// Properties: nothing panics; a seat count the game does not allow is always refused;
/// normalized options normalize to themselves and start a game.
pub fn check_options(game: GameKind, seats: usize, options: &Value, seed: u64) -> Result<(), String> {
    let Ok(normalized) = game.normalize_options(options, seats) else { return Ok(()) };
    if !game.seats_allowed(seats) {
        return Err(format!("{game} accepted {seats} seats"));
    }
    if game.normalize_options(&normalized, seats).as_ref() != Ok(&normalized) {
        return Err(format!("{game}: normalizing is not idempotent for {options}"));
    }
    match game.start(&normalized, seats, &mut CountingDice::new(vec![], seed)) {
        Ok(_) => Ok(()),
        Err(e) => Err(format!("{game}: options {normalized} were accepted but do not start a game: {e}")),
    }
}

/// Reads `s` with the backgammon Position ID, Match ID and XGID readers, lists the legal plays
/// of `dice` (each 0 to 7: out-of-range dice included) in the position it names, and sets up
/// games from it.
///
/// Properties: nothing panics; whatever parses writes back to an ID that parses to the same
/// thing; every legal play leaves a position whose Position ID parses, with at most four steps;
/// a game set up from IDs offers only actions it accepts.
pub fn check_backgammon_text(s: &str, dice: [u8; 2]) -> Result<(), String> {
    if let Ok(pos) = parse_position_id(s) {
        let again = position_id(&pos);
        if parse_position_id(&again) != Ok(pos) {
            return Err(format!("Position ID {s} → {again} does not read back"));
        }
    }
    if let Ok(m) = parse_match_id(s) {
        let again = match_id(&m);
        if parse_match_id(&again).as_ref() != Ok(&m) {
            return Err(format!("Match ID {s} → {again} does not read back"));
        }
    }
    if let Ok(x) = parse_xgid(s) {
        let again = xgid(&x);
        if parse_xgid(&again).as_ref() != Ok(&x) {
            return Err(format!("XGID {s} → {again} does not read back"));
        }
    }
    for input in [PositionInput::PositionId(s.to_string()), PositionInput::Xgid(s.to_string())] {
        let Ok(plays) = legal_plays(&input, dice) else { continue };
        for p in &plays {
            if p.moves.len() > 4 {
                return Err(format!("{s} {dice:?}: play {} has {} steps", p.play, p.moves.len()));
            }
            if let Err(e) = parse_position_id(&p.position_id) {
                return Err(format!(
                    "{s} {dice:?}: play {} leaves {}, which does not parse: {e}",
                    p.play, p.position_id
                ));
            }
        }
    }
    let games = [
        s.split_once(':').and_then(|(p, m)| Backgammon::from_gnubg_ids(p, m, Default::default()).ok()),
        Backgammon::from_xgid(s, Default::default()).ok(),
    ];
    for game in games.into_iter().flatten() {
        let Some(seat) = game.to_act() else { continue };
        for action in game.legal_actions(seat) {
            let seed = u64::from(dice[0]) << 8 | u64::from(dice[1]);
            if let Err(e) = game.clone().apply(seat, &action, &mut CountingDice::new(vec![], seed)) {
                return Err(format!("{s}: offered {action:?} refused: {e}"));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::WORDS;

    #[test]
    fn the_vocabulary_holds_the_games_field_names_and_tags_each_once() {
        let some = "type roll move piece steps die total challenge target pass call_snake_eyes suck_back \
            blow_back stand_up up_board double take drop beaver play moves from to colour index yellow red \
            green blue home_bonus enter_on play_for_places snake_eyes off navy wafu superblobs \
            mixed_blob_stacking stand_up_finish board ladders snakes match_to cube beavers jacoby crawford";
        for word in some.split_whitespace() {
            assert!(WORDS.iter().any(|w| w == word), "{word} is missing");
        }
        let mut unique = WORDS.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), WORDS.len());
    }
}
