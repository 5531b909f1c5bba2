//! Bad input never panics the engines, the option checks or the backgammon ID readers: the
//! properties of the fuzz targets in `fuzz/` (see docs/reliability.md), a few hundred cases
//! each so they run on every `cargo test`.
//!
//! `PROPTEST_CASES=10000 cargo test --release --test bad_input` runs more.

use luddo::{
    games::GameKind,
    rules::{
        DiceSource,
        backgammon::{
            analysis::{PositionInput, legal_plays},
            ids::{match_id, parse_match_id, parse_position_id, parse_xgid, position_id, xgid},
        },
    },
};
use proptest::{collection::vec, prelude::*, sample::select};
use serde_json::Value;

/// Every field name and tag our actions and options use, so random JSON gets past serde's
/// first `unknown variant` into the engines.
const WORDS: &[&str] = &[
    "type",
    "roll",
    "move",
    "piece",
    "steps",
    "die",
    "total",
    "challenge",
    "target",
    "pass",
    "call_snake_eyes",
    "suck_back",
    "blow_back",
    "stand_up",
    "up_board",
    "double",
    "take",
    "drop",
    "beaver",
    "play",
    "moves",
    "from",
    "to",
    "colour",
    "index",
    "yellow",
    "red",
    "green",
    "blue",
    "home_bonus",
    "enter_on",
    "play_for_places",
    "snake_eyes",
    "off",
    "navy",
    "wafu",
    "superblobs",
    "mixed_blob_stacking",
    "stand_up_finish",
    "board",
    "ladders",
    "snakes",
    "match_to",
    "cube",
    "beavers",
    "jacoby",
    "crawford",
];

fn word() -> impl Strategy<Value = String> {
    prop_oneof![4 => select(WORDS).prop_map(String::from), 1 => ".{0,6}"]
}

/// Random JSON, small and biased towards our vocabulary and small numbers.
fn json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        (0u8..30).prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<f64>().prop_map(Value::from),
        word().prop_map(Value::from),
    ];
    leaf.prop_recursive(4, 24, 5, |inner| {
        prop_oneof![
            vec(inner.clone(), 0..5).prop_map(Value::Array),
            vec((word(), inner), 0..5).prop_map(|kv| Value::Object(kv.into_iter().collect())),
        ]
    })
}

/// Dice from a script, then from a xorshift generator (an opening that rolls until the dice
/// differ always ends). Counts the dice drawn.
struct CountingDice {
    script: Vec<u8>,
    state: u64,
    drawn: usize,
}

impl DiceSource for CountingDice {
    fn roll(&mut self) -> u8 {
        let k = self.drawn;
        self.drawn += 1;
        if let Some(d) = self.script.get(k) {
            return *d;
        }
        self.state ^= self.state << 13;
        self.state ^= self.state >> 7;
        self.state ^= self.state << 17;
        1 + (self.state % 6) as u8
    }
}

/// One move of a random game.
#[derive(Debug, Clone)]
enum Step {
    /// Random JSON as `seat`'s action (`seat` may be one past the last).
    Raw(usize, Value),
    /// One of the legal actions of the seat to act.
    Legal(usize),
    /// A legal action with one field replaced.
    Mutated(usize, String, Value),
    /// The forced action, else the bot's.
    Auto,
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        2 => (0usize..7, json()).prop_map(|(s, v)| Step::Raw(s, v)),
        4 => any::<usize>().prop_map(Step::Legal),
        2 => (any::<usize>(), word(), json()).prop_map(|(p, k, v)| Step::Mutated(p, k, v)),
        3 => Just(Step::Auto),
    ]
}

/// Any JSON `options`, or the defaults when the game refuses them.
fn options_for(game: GameKind, seats: usize, options: &Value) -> Option<Value> {
    game.normalize_options(options, seats).or_else(|_| game.normalize_options(&Value::Null, seats)).ok()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(150))]

    /// Random actions never panic an engine; offered, forced and bot actions are accepted, and
    /// what is accepted is applied as one of the listed actions; a refused action changes
    /// nothing and draws no die.
    #[test]
    fn random_actions_never_panic_and_refusals_change_nothing(
        game in select(GameKind::ALL.to_vec()),
        seats in 2usize..7,
        options in json(),
        script in vec(1u8..=6, 0..20),
        seed in any::<u64>(),
        steps in vec(step(), 0..60),
    ) {
        prop_assume!(game.seats_allowed(seats));
        let normalized = options_for(game, seats, &options).expect("defaults are valid");
        let mut dice = CountingDice { script, state: seed | 1, drawn: 0 };
        let (mut g, _) = game.start(&normalized, seats, &mut dice).expect("normalized options start");
        for step in &steps {
            let before = g.state();
            let drawn = dice.drawn;
            let over = g.outcome().is_some();
            prop_assert_eq!(g.to_act().is_none(), over);
            let legal_pick = |pick: usize| {
                let seat = g.to_act()?;
                let legal = g.legal_actions(seat);
                (!legal.is_empty()).then(|| (seat, legal[pick % legal.len()].clone()))
            };
            let (seat, action, must_accept) = match step {
                Step::Raw(seat, v) => (seat % (seats + 1), v.clone(), false),
                Step::Legal(pick) => match legal_pick(*pick) {
                    Some((seat, a)) => (seat, a, true),
                    None => continue,
                },
                Step::Mutated(pick, key, value) => match legal_pick(*pick) {
                    Some((seat, mut a)) => {
                        if let Value::Object(fields) = &mut a {
                            fields.insert(key.clone(), value.clone());
                        }
                        (seat, a, false)
                    }
                    None => continue,
                },
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
                    prop_assert!(!over, "a finished game accepted {}", action);
                    prop_assert!(legal.contains(&applied.action), "{:?}: {} was applied as {}, not listed", game, action, applied.action);
                }
                Err(e) => {
                    prop_assert!(!must_accept, "{:?}: seat {}'s offered {} refused: {}", game, seat, action, e);
                    prop_assert_eq!(g.state(), before, "{:?}: refused {} changed the state", game, action);
                    prop_assert_eq!(dice.drawn, drawn, "{:?}: refused {} drew dice", game, action);
                }
            }
        }
    }

    /// Option checking never panics; what it accepts is normalized for good and starts a game.
    #[test]
    fn options_are_checked_without_panics(
        game in select(GameKind::ALL.to_vec()),
        seats in 0usize..9,
        options in json(),
        seed in any::<u64>(),
    ) {
        if let Ok(normalized) = game.normalize_options(&options, seats) {
            prop_assert!(game.seats_allowed(seats));
            prop_assert_eq!(game.normalize_options(&normalized, seats), Ok(normalized.clone()));
            let mut dice = CountingDice { script: vec![], state: seed | 1, drawn: 0 };
            prop_assert!(game.start(&normalized, seats, &mut dice).is_ok(), "{}", normalized);
        }
    }
}

/// Strings the backgammon readers see: anything, base64 of any length, or XGID-shaped.
fn id_text() -> impl Strategy<Value = String> {
    let board = vec(select(b"-ABCDEFGHIJKLMNOPabcdefghijklmnop".to_vec()), 26)
        .prop_map(|cs| cs.into_iter().map(char::from).collect::<String>());
    prop_oneof![
        ".{0,40}",
        "[A-Za-z0-9+/]{10,16}",
        (board, vec(-3i32..20, 8), "(D|[0-7][0-7])").prop_map(|(b, f, d)| {
            let f: Vec<String> = f.iter().map(i32::to_string).collect();
            format!("XGID={b}:{}:{}:{}:{d}:{}", f[0], f[1], f[2], f[3..].join(":"))
        }),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// The ID readers never panic, what they read writes back to the same thing, and every
    /// legal play of a position leaves a position with a valid Position ID.
    #[test]
    fn backgammon_ids_round_trip_and_never_panic(s in id_text(), dice in [0u8..8, 0u8..8]) {
        if let Ok(pos) = parse_position_id(&s) {
            prop_assert_eq!(parse_position_id(&position_id(&pos)), Ok(pos));
        }
        if let Ok(m) = parse_match_id(&s) {
            prop_assert_eq!(parse_match_id(&match_id(&m)), Ok(m));
        }
        if let Ok(x) = parse_xgid(&s) {
            prop_assert_eq!(parse_xgid(&xgid(&x)), Ok(x));
        }
        for input in [PositionInput::PositionId(s.clone()), PositionInput::Xgid(s.clone())] {
            if let Ok(plays) = legal_plays(&input, dice) {
                for p in &plays {
                    prop_assert!(p.steps.len() <= 4);
                    prop_assert!(parse_position_id(&p.position_id).is_ok(), "{} after {}", p.position_id, p.play);
                }
            }
        }
    }
}

/// The property's accepting side: a known-good XGID reads and writes back unchanged.
#[test]
fn a_known_xgid_round_trips() {
    let x = "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10";
    let parsed = parse_xgid(x).unwrap();
    assert_eq!(xgid(&parsed), x);
}
