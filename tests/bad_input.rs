//! Bad input never panics the engines, the option checks or the backgammon ID readers: the
//! properties of the fuzz targets in `fuzz/` (see docs/reliability.md), a few hundred cases
//! each so they run on every `cargo test`. The properties themselves are in
//! `luddo::testing`, shared with the fuzz targets; here proptest only draws the inputs.
//!
//! `PROPTEST_CASES=10000 cargo test --release --test bad_input` runs more.

use luddo::{
    games::GameKind,
    rules::backgammon::ids::{parse_xgid, xgid},
    testing::{CountingDice, Step, WORDS, check_backgammon_text, check_options, play_step, start_game},
};
use proptest::{collection::vec, prelude::*, sample::select};
use serde_json::Value;

fn word() -> impl Strategy<Value = String> {
    prop_oneof![4 => select(WORDS.clone()), 1 => ".{0,6}"]
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

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        2 => (0usize..7, json()).prop_map(|(seat, action)| Step::Raw { seat, action }),
        4 => any::<usize>().prop_map(|pick| Step::Legal { seat: None, pick }),
        2 => (any::<usize>(), word(), json()).prop_map(|(pick, key, value)| Step::Mutated { pick, key, value }),
        3 => Just(Step::Auto),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(150))]

    /// Random actions never panic an engine; offered, forced and bot actions are accepted, and
    /// what is accepted is applied as one of the listed actions; a refused action changes
    /// nothing and draws no die (`luddo::testing::play_step`).
    #[test]
    fn random_actions_never_panic_and_refusals_change_nothing(
        game in select(GameKind::ALL),
        seats in 2usize..7,
        options in json(),
        script in vec(1u8..=6, 0..20),
        seed in any::<u64>(),
        steps in vec(step(), 0..60),
    ) {
        prop_assume!(game.seats_allowed(seats));
        let mut dice = CountingDice::new(script, seed);
        let mut g = start_game(game, seats, &options, &mut dice)
            .map_err(TestCaseError::fail)?
            .expect("the seat count is allowed");
        for step in &steps {
            play_step(g.as_mut(), game, seats, step, &mut dice).map_err(TestCaseError::fail)?;
        }
    }

    /// Option checking never panics; what it accepts is normalized for good and starts a game
    /// (`luddo::testing::check_options`).
    #[test]
    fn options_are_checked_without_panics(
        game in select(GameKind::ALL),
        seats in 0usize..9,
        options in json(),
        seed in any::<u64>(),
    ) {
        check_options(game, seats, &options, seed).map_err(TestCaseError::fail)?;
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

    /// The ID readers never panic, what they read writes back to the same thing, every legal
    /// play of a position leaves a position with a valid Position ID, and a game set up from
    /// IDs accepts what it offers (`luddo::testing::check_backgammon_text`).
    #[test]
    fn backgammon_ids_round_trip_and_never_panic(s in id_text(), dice in [0u8..8, 0u8..8]) {
        check_backgammon_text(&s, dice).map_err(TestCaseError::fail)?;
    }
}

/// The property's accepting side: a known-good XGID reads and writes back unchanged.
#[test]
fn a_known_xgid_round_trips() {
    let x = "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10";
    let parsed = parse_xgid(x).unwrap();
    assert_eq!(xgid(&parsed), x);
}
