//! The games a table can hold, and everything the server knows of each beyond its rules.
//!
//! One registry, the `games!` invocation below, names every game: its variant of [`GameKind`]
//! and its engine. Each engine's [`TableGame`] impl (in this file) gives the game's wire name,
//! its seat counts, its bot and the house rules only a private table may choose; the engine's
//! own `Options` type is its option schema (unknown fields refused, defaults filled in). Every
//! list of the games — [`GameKind::ALL`], the lobby's "unknown game" and seat-count messages,
//! `GET /v1/games` and the served spec, the fuzz targets and property tests and their
//! vocabulary — is read from here. docs/architecture.md, "Adding a
//! game", says what a new game needs.

use crate::wording::plain;
use crate::{
    bots::{self, Level},
    rules::{
        DiceSource, Engine, Outcome, RuleError, Seat,
        backgammon::{Backgammon, BackgammonOptions},
        ludo::{ClassicLudo, Luddo, LuddoOptions},
        snakes::Snakes,
        uckers::Uckers,
    },
};
use serde::{Deserialize, Serialize};
use std::fmt;

/// What the server adds to an engine to seat it at a table: implemented once per game, below.
pub trait TableGame: Engine {
    /// The game's name on the wire (`"game": "luddo"`) and in the store.
    const NAME: &'static str;
    /// The game's name for people (`"Snakes and Ladders"`), as clients show it.
    const LABEL: &'static str;
    /// The seat counts a table of this game may have, ascending. The engine's own
    /// [`Engine::validate`] agrees (a test checks it); this list is what the lobby checks and
    /// tells a client.
    const SEATS: &'static [usize];

    /// What a bot of `level` plays for `seat` (timeouts, bot seats).
    fn bot(&self, seat: Seat, level: Level) -> Option<Self::Action>;

    /// Why `options` may be played only at a private table (a house rule that is the choice of
    /// a private table's host alone), if they may.
    fn private_only(_options: &Self::Options) -> Option<&'static str> {
        None
    }

    /// The option fields [`TableGame::private_only`] reads: a value other than the default in
    /// one of them may make the options a private table's alone (what `GET /v1/games` tells a
    /// client, so that a public table's form can leave them out).
    const PRIVATE_ONLY_OPTIONS: &'static [&'static str] = &[];
}

impl TableGame for Luddo {
    const NAME: &'static str = "luddo";
    const LABEL: &'static str = "Luddo";
    const SEATS: &'static [usize] = &[2, 3, 4, 5, 6];
    fn bot(&self, seat: Seat, level: Level) -> Option<Self::Action> {
        bots::easy_or(self, seat, level, || bots::ludo::choose(self, seat))
    }
    fn private_only(options: &LuddoOptions) -> Option<&'static str> {
        // RULES.md §3, rule 6: "the host of a private table may turn it off".
        (!options.home_bonus).then_some("home_bonus may be turned off only at a private table")
    }
    const PRIVATE_ONLY_OPTIONS: &'static [&'static str] = &["home_bonus"];
}

impl TableGame for ClassicLudo {
    const NAME: &'static str = "ludo";
    const LABEL: &'static str = "Ludo";
    const SEATS: &'static [usize] = &[2, 3, 4, 5, 6];
    fn bot(&self, seat: Seat, level: Level) -> Option<Self::Action> {
        bots::easy_or(self, seat, level, || bots::ludo::choose(self, seat))
    }
}

impl TableGame for Uckers {
    const NAME: &'static str = "uckers";
    const LABEL: &'static str = "Uckers";
    const SEATS: &'static [usize] = &[2, 4];
    fn bot(&self, seat: Seat, level: Level) -> Option<Self::Action> {
        bots::easy_or(self, seat, level, || bots::uckers::choose(self, seat))
    }
}

impl TableGame for Snakes {
    const NAME: &'static str = "snakes";
    const LABEL: &'static str = "Snakes and Ladders";
    const SEATS: &'static [usize] = &[2, 3, 4];
    fn bot(&self, seat: Seat, _level: Level) -> Option<Self::Action> {
        // No decisions to make: every level plays the same.
        bots::snakes::choose(self, seat)
    }
}

impl TableGame for Backgammon {
    const NAME: &'static str = "backgammon";
    const LABEL: &'static str = "Backgammon";
    const SEATS: &'static [usize] = &[2];
    fn bot(&self, seat: Seat, level: Level) -> Option<Self::Action> {
        bots::backgammon::choose(self, seat, level)
    }
    fn private_only(options: &BackgammonOptions) -> Option<&'static str> {
        // Hints help a player: never at a public (and so possibly rated) table.
        options.hints.then_some("hints may be turned on only at a private table")
    }
    const PRIVATE_ONLY_OPTIONS: &'static [&'static str] = &["hints"];
}

/// Declares [`GameKind`], one variant per row, and ties each variant to its engine's
/// [`GameSpec`]. The rows' order is the order the games are listed in (messages, `ALL`).
macro_rules! games {
    ($($(#[$doc:meta])* $variant:ident => $engine:ty,)*) => {
        /// A game a table can be created for.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum GameKind {
            $($(#[$doc])* $variant,)*
        }

        impl GameKind {
            /// Every game, in the registry's order.
            pub const ALL: &'static [GameKind] = &[$(GameKind::$variant),*];

            /// The variant's name (`Luddo`): what the game's schemas are named after in the
            /// served OpenAPI document (`LuddoOptions`, `LuddoAction`, …).
            pub fn type_name(self) -> &'static str {
                match self {
                    $(GameKind::$variant => stringify!($variant),)*
                }
            }

            /// What the server knows of this game, from its engine's [`TableGame`] impl.
            fn spec(self) -> &'static GameSpec {
                match self {
                    $(GameKind::$variant => {
                        static SPEC: GameSpec = GameSpec::of::<$engine>();
                        &SPEC
                    })*
                }
            }
        }
    };
}

// The registry: adding a game is one row here (and the engine's `TableGame` impl above).
games! {
    /// The house's Ludo rules (RULES.md §3).
    Luddo => Luddo,
    /// Classic Ludo (RULES.md §2).
    Ludo => ClassicLudo,
    /// The Royal Navy's partnered two-dice Ludo (RULES.md §5).
    Uckers => Uckers,
    /// Snakes and Ladders (RULES.md §4).
    Snakes => Snakes,
    /// Backgammon (RULES.md §6).
    Backgammon => Backgammon,
}

/// One game's [`TableGame`] facts and its engine's entry points, with the engine type erased so
/// that [`GameKind`] can hand them out by value.
struct GameSpec {
    name: &'static str,
    label: &'static str,
    seats: &'static [usize],
    private_only_options: &'static [&'static str],
    /// The engine's default options, as JSON.
    default_options: fn() -> serde_json::Value,
    /// Reads options into the engine's type, validates them, writes them back in full.
    normalize: fn(&serde_json::Value, usize) -> Result<serde_json::Value, OptionsError>,
    /// [`TableGame::private_only`] of normalized options.
    private_only: fn(&serde_json::Value) -> Result<Option<&'static str>, OptionsError>,
    /// Starts a game with its bot.
    start: fn(&serde_json::Value, usize, &mut dyn DiceSource) -> Result<Started, RuleError>,
    /// Reads a game back from its state as an entry stores it.
    resume: fn(&str) -> Result<Box<dyn DynGame>, RuleError>,
    /// The JSON Schemas of the engine's wire types.
    schemas: fn() -> GameSchemas,
}

/// A game just started: the game behind [`DynGame`], and the events of its opening.
type Started = (Box<dyn DynGame>, Vec<serde_json::Value>);

impl GameSpec {
    /// The spec of `E`'s game (const, so that each registry row is a `static`).
    const fn of<E: TableGame>() -> Self {
        Self {
            name: E::NAME,
            label: E::LABEL,
            seats: E::SEATS,
            private_only_options: E::PRIVATE_ONLY_OPTIONS,
            default_options: default_options::<E>,
            normalize: normalize_engine::<E>,
            private_only: private_only::<E>,
            start: start::<E>,
            resume: resume::<E>,
            schemas: schemas::<E>,
        }
    }
}

impl GameKind {
    /// The game's name on the wire and in the store.
    pub fn as_str(self) -> &'static str {
        self.spec().name
    }

    /// The game named `s`, if there is one.
    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|g| g.as_str() == s)
    }

    /// The game's name for people ([`TableGame::LABEL`]).
    pub fn label(self) -> &'static str {
        self.spec().label
    }

    /// The options a table gets when it names none: the engine's `Options::default()`.
    pub fn default_options(self) -> serde_json::Value {
        (self.spec().default_options)()
    }

    /// The option fields a private table's host alone may change ([`TableGame::PRIVATE_ONLY_OPTIONS`]).
    pub fn private_only_options(self) -> &'static [&'static str] {
        self.spec().private_only_options
    }

    /// The seat counts a table of this game may have, ascending.
    pub fn seats(self) -> &'static [usize] {
        self.spec().seats
    }

    /// The JSON Schemas (2020-12) of this game's options, actions, events and state, generated
    /// from its engine's Rust types: what the served OpenAPI document gives for the game.
    pub fn schemas(self) -> GameSchemas {
        (self.spec().schemas)()
    }

    /// Whether `seats` is a valid seat count (Uckers takes 2 or 4, not 3).
    pub fn seats_allowed(self, seats: usize) -> bool {
        self.seats().contains(&seats)
    }

    /// Starts a game of this kind: options as normalized by [`GameKind::normalize_options`], the
    /// opening throws drawn from `dice`. Returns the game with its bot, and the opening events.
    pub fn start(
        self,
        options: &serde_json::Value,
        seats: usize,
        dice: &mut dyn DiceSource,
    ) -> Result<(Box<dyn DynGame>, Vec<serde_json::Value>), RuleError> {
        (self.spec().start)(options, seats, dice)
    }

    /// The game whose state an entry stored (`state`, [`DynGame::state_json`]): what the seats
    /// could do after that entry, without replaying the log to it.
    pub fn resume(self, state: &JsonText) -> Result<Box<dyn DynGame>, RuleError> {
        (self.spec().resume)(state.get())
    }

    /// Checks `seats` and then `options` (`null` standing for none) for a table of this game, and
    /// returns the options with every default filled in.
    pub fn normalize_options(
        self,
        options: &serde_json::Value,
        seats: usize,
    ) -> Result<serde_json::Value, OptionsError> {
        if !self.seats_allowed(seats) {
            return Err(OptionsError::SeatCount { game: self, seats });
        }
        let options =
            if options.is_null() { &serde_json::Value::Object(Default::default()) } else { options };
        (self.spec().normalize)(options, seats)
    }

    /// Checks that options normalized by [`GameKind::normalize_options`] may be played at a
    /// public table: some house rules are the choice of a private table's host alone.
    pub fn check_public(self, options: &serde_json::Value) -> Result<(), OptionsError> {
        match (self.spec().private_only)(options)? {
            Some(rule) => Err(OptionsError::PrivateOnly(rule)),
            None => Ok(()),
        }
    }

    /// The seat counts in words: "2 to 6 seats", "2 to 4 seats (2 or 4)" where some between
    /// are missing.
    fn seat_counts_in_words(self) -> String {
        let seats = self.seats();
        let (first, last) = (seats[0], seats[seats.len() - 1]);
        let mut words = format!("{first} to {last} seats");
        if seats.len() != last - first + 1 {
            let listed: Vec<String> = seats.iter().map(usize::to_string).collect();
            words.push_str(&format!(" ({})", in_words(&listed)));
        }
        words
    }
}

/// "a", "a or b", "a, b or c".
fn in_words(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
    }
}

impl fmt::Display for GameKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::str::FromStr for GameKind {
    type Err = UnknownGame;
    fn from_str(s: &str) -> Result<Self, UnknownGame> {
        Self::parse(s).ok_or_else(|| UnknownGame(s.to_string()))
    }
}

impl Serialize for GameKind {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for GameKind {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let name = String::deserialize(deserializer)?;
        name.parse().map_err(serde::de::Error::custom)
    }
}

/// A game name no registered game has. Its message lists the games there are.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown game {0:?}; choose {games}", games = known_games())]
pub struct UnknownGame(pub String);

/// Every game's name, in words ("luddo, ludo, … or backgammon").
fn known_games() -> String {
    let names: Vec<String> = GameKind::ALL.iter().map(|g| g.as_str().to_string()).collect();
    in_words(&names)
}

/// Why a table's options or seat count were refused. The message is what a client reads; the
/// variant is the kind of refusal (the lobby answers `invalid_seat_count` for the first,
/// `invalid_options` for the others).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OptionsError {
    /// The game is not played with this many seats.
    #[error("{game} takes {}", game.seat_counts_in_words())]
    SeatCount { game: GameKind, seats: usize },
    /// The options do not read as the game's options (unknown field, wrong type); serde's
    /// message in a client's words ([`crate::wording::plain`]).
    #[error("{0}")]
    Unreadable(String),
    /// The game's rules refuse these options.
    #[error(transparent)]
    Refused(RuleError),
    /// A house rule only a private table's host may choose, asked for at a public table.
    #[error("{0}")]
    PrivateOnly(&'static str),
}

/// Options checked by the engine itself.
fn normalize_engine<E: TableGame>(
    options: &serde_json::Value,
    seats: usize,
) -> Result<serde_json::Value, OptionsError> {
    let parsed = read_options::<E>(options)?;
    E::validate(&parsed, seats).map_err(OptionsError::Refused)?;
    serde_json::to_value(parsed).map_err(|e| OptionsError::Unreadable(plain(&e.to_string())))
}

/// `E`'s default options as JSON.
fn default_options<E: TableGame>() -> serde_json::Value {
    serde_json::to_value(E::Options::default()).expect("options serialize to JSON")
}

/// [`TableGame::private_only`] of options as JSON.
fn private_only<E: TableGame>(options: &serde_json::Value) -> Result<Option<&'static str>, OptionsError> {
    Ok(E::private_only(&read_options::<E>(options)?))
}

fn read_options<E: TableGame>(options: &serde_json::Value) -> Result<E::Options, OptionsError> {
    serde_json::from_value(options.clone()).map_err(|e| OptionsError::Unreadable(plain(&e.to_string())))
}

/// One game's wire types as JSON Schemas (2020-12), generated with `schemars` from the engine's
/// types and their serde attributes (so a schema is what goes over the wire: `type` tags as
/// `oneOf` with a `const` per variant, `rename_all`, `default`, `deny_unknown_fields`), as the
/// server reads them (what it writes reads back). Every object is closed
/// (`additionalProperties: false`): the server refuses unknown fields in options and actions,
/// and writes none it does not list.
#[derive(Debug, Clone, PartialEq)]
pub struct GameSchemas {
    pub options: serde_json::Value,
    pub action: serde_json::Value,
    pub event: serde_json::Value,
    pub state: serde_json::Value,
    /// The schemas the four refer to (`{"$ref": "#/$defs/<name>"}`), by name.
    pub defs: serde_json::Map<String, serde_json::Value>,
}

impl GameSchemas {
    /// The options' schema as a JSON Schema (2020-12) document of its own, what a client builds
    /// a form from: the options' object itself at the root (not a reference to it), and under
    /// `$defs` the definitions it refers to, directly or through another.
    pub fn options_document(&self) -> serde_json::Value {
        let mut root = self.options.clone();
        if let Some(def) = local_def(&root["$ref"]).and_then(|def| self.defs.get(def)) {
            root = def.clone();
        }
        let mut defs = serde_json::Map::new();
        let mut unread = vec![root.clone()];
        while let Some(schema) = unread.pop() {
            visit_refs(&schema, &mut |r| {
                let Some(name) = r.strip_prefix("#/$defs/") else { return };
                if let (false, Some(def)) = (defs.contains_key(name), self.defs.get(name)) {
                    defs.insert(name.to_string(), def.clone());
                    unread.push(def.clone());
                }
            });
        }
        if let serde_json::Value::Object(object) = &mut root {
            object.insert("$schema".into(), "https://json-schema.org/draft/2020-12/schema".into());
            if !defs.is_empty() {
                object.insert("$defs".into(), defs.into());
            }
        }
        root
    }
}

/// The definition a `$ref` of a generated schema names (`#/$defs/<name>`).
fn local_def(reference: &serde_json::Value) -> Option<&str> {
    reference.as_str().and_then(|r| r.strip_prefix("#/$defs/"))
}

/// Calls `f` with every `$ref` in `schema`.
pub(crate) fn visit_refs(schema: &serde_json::Value, f: &mut impl FnMut(&str)) {
    match schema {
        serde_json::Value::Object(object) => {
            for (key, value) in object {
                match (key.as_str(), value) {
                    ("$ref", serde_json::Value::String(r)) => f(r),
                    _ => visit_refs(value, f),
                }
            }
        }
        serde_json::Value::Array(items) => items.iter().for_each(|v| visit_refs(v, f)),
        _ => {}
    }
}

/// [`GameSchemas`] of `E`: one generator for the four, so that a type they share is one
/// definition.
fn schemas<E: TableGame>() -> GameSchemas {
    use schemars::{generate::SchemaSettings, transform::Transform};
    let mut generator = SchemaSettings::draft2020_12().with_transform(CloseObjects).into_generator();
    let root = |mut schema: schemars::Schema| {
        CloseObjects.transform(&mut schema);
        schema.to_value()
    };
    let options = root(generator.subschema_for::<E::Options>());
    let action = root(generator.subschema_for::<E::Action>());
    let event = root(generator.subschema_for::<E::Event>());
    let state = root(generator.subschema_for::<E>());
    let defs = generator.take_definitions(true);
    GameSchemas { options, action, event, state, defs }
}

/// Closes every object schema that lists its properties (`additionalProperties: false`),
/// unless it is composed (`allOf`, `oneOf`, … where closing one part would refuse the others'
/// fields) or says otherwise already.
#[derive(Debug, Clone, Copy)]
pub(crate) struct CloseObjects;

impl schemars::transform::Transform for CloseObjects {
    fn transform(&mut self, schema: &mut schemars::Schema) {
        if let Some(object) = schema.as_object_mut() {
            let composed =
                ["allOf", "anyOf", "oneOf", "$ref", "additionalProperties", "unevaluatedProperties"]
                    .iter()
                    .any(|key| object.contains_key(*key));
            if object.contains_key("properties") && !composed {
                object.insert("additionalProperties".into(), false.into());
            }
        }
        schemars::transform::transform_subschemas(self, schema);
    }
}

/// A game of any kind behind one object-safe interface, speaking JSON at its edges: what a table
/// actor holds. Actions and events are the engine's own serde forms.
pub trait DynGame: Send + Sync {
    /// The seat whose decision the game waits for; `None` once it is over.
    fn to_act(&self) -> Option<Seat>;
    /// The legal actions of `seat`, as JSON a client can post back unchanged.
    fn legal_actions(&self, seat: Seat) -> Vec<serde_json::Value>;
    /// The same list as JSON text written straight from the engine's type (what entries hold).
    fn legal_actions_json(&self, seat: Seat) -> JsonText;
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
    /// Whether applying `action` for `seat` would draw a die (tried on a copy, nothing kept;
    /// `false` for an action the game refuses). Fresh dice ask it before a chained seat's
    /// action is played, so that one that needs the seat's reveal is refused without it.
    fn draws_dice(&self, seat: Seat, action: &serde_json::Value) -> bool;
    /// The move the server makes at once because there is no real choice.
    fn forced_action(&self) -> Option<serde_json::Value>;
    /// What a bot of `level` would do for `seat`.
    fn bot_action(&self, seat: Seat, level: Level) -> Option<serde_json::Value>;
    fn outcome(&self) -> Option<Outcome>;
    /// The whole state, for clients to render.
    fn state(&self) -> serde_json::Value;
    /// The same, as JSON text written straight from the engine's type.
    fn state_json(&self) -> JsonText;
}

/// JSON text written once from a typed value (no JSON tree) and then stored and sent as it is:
/// a game state, or a seat's legal actions. Every entry carries the state and each seat's
/// list, so this is on the hot path.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(transparent)]
pub struct JsonText(Box<serde_json::value::RawValue>);

impl JsonText {
    /// `value` as JSON text.
    pub fn of<T: Serialize + ?Sized>(value: &T) -> Self {
        // Engine states serialize to JSON by construction (derived, string keys).
        Self(
            serde_json::value::to_raw_value(value)
                .unwrap_or_else(|_| serde_json::value::RawValue::NULL.to_owned()),
        )
    }

    /// An empty list: `[]`.
    pub fn empty_list() -> Self {
        Self::of::<[(); 0]>(&[])
    }

    /// The JSON text.
    pub fn get(&self) -> &str {
        self.0.get()
    }

    /// The value as a JSON tree (tests and tools; the server sends the text).
    pub fn to_value(&self) -> serde_json::Value {
        serde_json::from_str(self.get()).unwrap_or(serde_json::Value::Null)
    }
}

/// Two values are the same when their texts are: one serializer writes them all.
impl PartialEq for JsonText {
    fn eq(&self, other: &Self) -> bool {
        self.get() == other.get()
    }
}

/// An accepted action.
#[derive(Debug, Clone, PartialEq)]
pub struct Applied {
    /// The action as the game lists it, whatever spelling was posted.
    pub action: serde_json::Value,
    pub events: Vec<serde_json::Value>,
}

/// An engine, played through [`DynGame`] with its [`TableGame`] bot.
struct Playing<E: TableGame> {
    game: E,
}

impl<E: TableGame> Playing<E> {
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
        // Not listed: let the engine say why, on a copy (should it accept a move it does not
        // list, and map to none through `Engine::legal_action`, that is refused too).
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

/// Dice for [`DynGame::draws_dice`]'s probe: counts what it is asked for.
struct CountedDice(u32);

impl DiceSource for CountedDice {
    fn roll(&mut self) -> u8 {
        self.0 += 1;
        1 + (self.0 % 6) as u8
    }
}

/// Reads `action` as an action of `E`.
fn parse<E: Engine>(action: &serde_json::Value) -> Result<E::Action, RuleError> {
    E::Action::deserialize(action)
        .map_err(|e| RuleError::illegal(format!("not an action of this game: {}", plain(&e.to_string()))))
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

impl<E: TableGame> DynGame for Playing<E> {
    fn to_act(&self) -> Option<Seat> {
        self.game.to_act()
    }
    fn legal_actions(&self, seat: Seat) -> Vec<serde_json::Value> {
        self.game.legal_actions(seat).iter().map(to_json).collect()
    }
    fn legal_actions_json(&self, seat: Seat) -> JsonText {
        JsonText::of(&self.game.legal_actions(seat))
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
    fn draws_dice(&self, seat: Seat, action: &serde_json::Value) -> bool {
        let Ok(listed) = self.listed(seat, action) else { return false };
        let mut probe = self.game.clone();
        let mut dice = CountedDice(0);
        probe.apply(seat, &listed, &mut dice).is_ok() && dice.0 > 0
    }
    fn forced_action(&self) -> Option<serde_json::Value> {
        self.game.forced_action().as_ref().map(to_json)
    }
    fn bot_action(&self, seat: Seat, level: Level) -> Option<serde_json::Value> {
        self.game.bot(seat, level).as_ref().map(to_json)
    }
    fn outcome(&self) -> Option<Outcome> {
        self.game.outcome()
    }
    fn state(&self) -> serde_json::Value {
        to_json(&self.game)
    }
    fn state_json(&self) -> JsonText {
        JsonText::of(&self.game)
    }
}

/// Starts a game of `E` with its bot: the opening throws come from `dice`.
fn start<E: TableGame>(
    options: &serde_json::Value,
    seats: usize,
    dice: &mut dyn DiceSource,
) -> Result<Started, RuleError> {
    let options: E::Options =
        serde_json::from_value(options.clone()).map_err(|e| RuleError::invalid_options(e.to_string()))?;
    E::validate(&options, seats)?;
    let (game, events) = E::new(options, seats, dice)?;
    Ok((Box::new(Playing { game }), events.iter().map(to_json).collect()))
}

/// A game of `E` read back from its stored state.
fn resume<E: TableGame>(state: &str) -> Result<Box<dyn DynGame>, RuleError> {
    let game: E =
        serde_json::from_str(state).map_err(|e| RuleError::illegal(format!("a stored state: {e}")))?;
    Ok(Box::new(Playing { game }))
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
        assert!(GameKind::Luddo.check_public(&off).is_err());
        let on = GameKind::Luddo.normalize_options(&json!({}), 4).unwrap();
        assert_eq!(GameKind::Luddo.check_public(&on), Ok(()));
        let ludo = GameKind::Ludo.normalize_options(&json!({}), 4).unwrap();
        assert_eq!(GameKind::Ludo.check_public(&ludo), Ok(()));
    }

    #[test]
    fn messages_list_the_games_and_their_seat_counts_from_the_registry() {
        assert_eq!(
            "chess".parse::<GameKind>().unwrap_err().to_string(),
            r#"unknown game "chess"; choose luddo, ludo, uckers, snakes or backgammon"#
        );
        let seats = |game: GameKind, n| game.normalize_options(&json!({}), n).unwrap_err().to_string();
        assert_eq!(seats(GameKind::Luddo, 7), "luddo takes 2 to 6 seats");
        assert_eq!(seats(GameKind::Uckers, 3), "uckers takes 2 to 4 seats (2 or 4)");
        assert_eq!(seats(GameKind::Backgammon, 3), "backgammon takes 2 to 2 seats");
    }

    #[test]
    fn each_game_is_found_by_its_name() {
        for &game in GameKind::ALL {
            assert_eq!(GameKind::parse(game.as_str()), Some(game));
            assert_eq!(serde_json::to_value(game).unwrap(), json!(game.as_str()));
            assert_eq!(serde_json::from_value::<GameKind>(json!(game.as_str())).unwrap(), game);
        }
    }

    /// The registry's seat counts are the ones each engine accepts, so the lobby never accepts
    /// a table its engine would refuse to start (or the other way round).
    #[test]
    fn each_games_seat_counts_are_the_ones_its_engine_accepts() {
        /// 1, 2, … 6, 1, …: openings end at once (the throws differ).
        struct Cycle(u8);
        impl DiceSource for Cycle {
            fn roll(&mut self) -> u8 {
                self.0 = self.0 % 6 + 1;
                self.0
            }
        }
        for &game in GameKind::ALL {
            let defaults = game.normalize_options(&json!({}), game.seats()[0]).unwrap();
            for seats in 0..10 {
                let started = game.start(&defaults, seats, &mut Cycle(0));
                assert_eq!(started.is_ok(), game.seats_allowed(seats), "{game} with {seats} seats");
            }
        }
    }

    #[test]
    fn the_listed_private_only_options_are_the_ones_a_public_table_may_not_change() {
        for &game in GameKind::ALL {
            let defaults = game.default_options();
            assert_eq!(game.normalize_options(&json!({}), game.seats()[0]).unwrap(), defaults, "{game}");
            game.check_public(&defaults).unwrap_or_else(|e| panic!("{game}: the defaults are public: {e}"));
            let fields = defaults.as_object().unwrap();
            for listed in game.private_only_options() {
                assert!(fields.contains_key(*listed), "{game}: {listed} is an option");
            }
            for (field, value) in fields {
                let Some(flag) = value.as_bool() else { continue };
                let mut changed = defaults.clone();
                changed[field] = (!flag).into();
                let refused = game.check_public(&changed).is_err();
                assert_eq!(refused, game.private_only_options().contains(&field.as_str()), "{game}: {field}");
            }
        }
    }
}
