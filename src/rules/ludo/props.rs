//! Properties over thousands of random games per configuration (seat count × rule set ×
//! options): every game ends within a bound, pieces are conserved, every action played was
//! offered, anything not offered is refused with a reason and leaves the state as it was, the
//! state survives a JSON round trip, and replaying the action log with the same fair dice
//! reproduces the game exactly.
//!
//! Seeded loops rather than shrinking proptest strategies: a failing game is reproduced from its
//! printed seed. The costlier checks run on a sample of positions so that the suite stays fast in
//! debug builds.

use std::ops::Deref;

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use super::board::{MAX_SEATS, PIECES};
use super::state::BASE;
use super::*;
use crate::rules::dice::{FairDice, RngDice, ScriptedDice, ServerSeed};
use crate::rules::{Engine, RuleErrorKind};

/// Random games per configuration (rule set × seat count; the options vary game by game): 1,000
/// on the square board, 400 of the three-times-longer hex games, which keeps the whole suite to
/// a few seconds in a debug build. Set `LUDO_PROPERTY_GAMES` to play more, e.g.
/// `LUDO_PROPERTY_GAMES=10000 cargo test --release --lib rules::ludo::props`.
fn games(seats: usize) -> u64 {
    std::env::var("LUDO_PROPERTY_GAMES").ok().and_then(|v| v.parse().ok()).unwrap_or(if seats <= 4 {
        1_000
    } else {
        400
    })
}

/// No random game comes near this many actions (a 6-player hex game averages under 3,000).
const MAX_ACTIONS: usize = 50_000;

trait LudoEngine: Engine<Action = Action, Event = Event> + Deref<Target = LudoState> + PartialEq {}
impl LudoEngine for Luddo {}
impl LudoEngine for ClassicLudo {}

fn in_base(game: &LudoState) -> usize {
    game.pos[..game.seats()].iter().flatten().filter(|&&p| p == BASE).count()
}

fn at_home(game: &LudoState) -> [u8; MAX_SEATS] {
    let home = game.board().home();
    let mut count = [0; MAX_SEATS];
    for (c, row) in count.iter_mut().zip(&game.pos) {
        for &p in row {
            *c += (p == home) as u8;
        }
    }
    count
}

/// No two colours share a track square, except on Luddo's safe stars.
fn check_squares(game: &LudoState) {
    let n = game.seats();
    for a in 0..n {
        for pa in 0..PIECES {
            let Some(square) = game.square_of(a, pa) else {
                continue;
            };
            for b in (a + 1)..n {
                for pb in 0..PIECES {
                    if game.square_of(b, pb) == Some(square) {
                        assert!(
                            game.is_safe_square(square),
                            "seats {a} and {b} share unsafe square {square}"
                        );
                    }
                }
            }
        }
    }
}

/// The checks too costly to make after every action.
fn check_position<E: LudoEngine>(game: &mut E, seat: Seat, legal: &[Action], round: usize) {
    for other in (0..game.seats()).filter(|&s| s != seat) {
        assert!(game.legal_actions(other).is_empty(), "only the seat to act acts");
    }
    if let Some(forced) = game.forced_action() {
        assert!(legal.contains(&forced) && forced != Action::Roll);
    }
    check_squares(game);

    // Something not offered is refused with a reason, draws no die (the empty script would
    // panic) and changes nothing.
    let before = serde_json::to_string(&*game).unwrap();
    let candidates = [
        Action::Roll,
        Action::Move { piece: 0 },
        Action::Move { piece: 1 },
        Action::Move { piece: 2 },
        Action::Move { piece: 3 },
        Action::Move { piece: 4 },
        Action::Move { piece: 255 },
    ];
    let illegal: Vec<Action> = candidates.into_iter().filter(|a| !legal.contains(a)).collect();
    let attempts = [
        (seat, illegal[round % illegal.len()]),
        ((seat + 1 + round % 5) % game.seats(), legal[0]),
        (seat + 7, legal[0]),
    ];
    for (who, action) in attempts {
        if who == seat && legal.contains(&action) {
            continue;
        }
        let err = game
            .apply(who, &action, &mut ScriptedDice::new([]))
            .expect_err("an action not offered is refused");
        assert!(!err.message.is_empty());
        assert_eq!(serde_json::to_string(&*game).unwrap(), before);
    }

    // The state survives a JSON round trip.
    let back: E = serde_json::from_str(&before).unwrap();
    assert!(back == *game);
    assert_eq!(serde_json::to_string(&back).unwrap(), before);
}

/// Plays random games, cycling through `options`, and checks every property along the way.
fn random_games<E: LudoEngine>(options: &[E::Options], seats: usize, seed: u64) {
    for g in 0..games(seats) {
        let game_seed = seed.wrapping_mul(1_000_003).wrapping_add(g);
        let mut dice = RngDice(SmallRng::seed_from_u64(game_seed));
        let mut rng = SmallRng::seed_from_u64(!game_seed);
        let options = options[g as usize % options.len()].clone();
        let (mut game, _) = E::new(options, seats, &mut dice).unwrap();
        // The costlier checks run on one position of each game.
        let check_at = 1 + (game_seed as usize * 7919) % 300;
        let mut steps = 0;
        let mut base = in_base(&game);
        let mut home = at_home(&game);
        while let Some(seat) = game.to_act() {
            steps += 1;
            assert!(steps <= MAX_ACTIONS, "game {game_seed} does not end");
            let legal = game.legal_actions(seat);
            assert!(!legal.is_empty(), "game {game_seed}: the seat to act has no action");
            if steps == check_at {
                check_position(&mut game, seat, &legal, g as usize);
            }
            let action = legal[rng.random_range(0..legal.len())];
            let events = game
                .apply(seat, &action, &mut dice)
                .unwrap_or_else(|e| panic!("game {game_seed}: offered {action:?} refused: {e}"));
            // Pieces are conserved: only entering leaves base, only capture returns to it, and
            // nothing ever leaves home. (Counted every few actions: counting is the slow part
            // of a debug build's playout.)
            for event in &events {
                match event {
                    Event::Moved { from: None, .. } => base -= 1,
                    Event::Captured { pieces, .. } => base += pieces.len(),
                    _ => {}
                }
            }
            if steps % 8 == 0 || game.to_act().is_none() {
                assert_eq!(in_base(&game), base, "game {game_seed}: pieces not conserved");
                let home_after = at_home(&game);
                assert!(
                    home_after.iter().zip(&home).all(|(a, b)| a >= b),
                    "game {game_seed}: a piece left home"
                );
                home = home_after;
            }
        }
        let places = game.outcome().expect("a finished game has an outcome").places;
        assert_eq!(places.len(), seats);
        assert_eq!(places.iter().filter(|&&p| p == 1).count(), 1);
        let plays_on = match game.variant() {
            Variant::Luddo { .. } => true,
            Variant::Classic { play_for_places, .. } => play_for_places,
        };
        let mut sorted = places.clone();
        sorted.sort_unstable();
        if plays_on {
            assert_eq!(sorted, (1..=seats as u8).collect::<Vec<_>>());
        } else {
            assert!(sorted[1..].iter().all(|&p| p == 2), "{places:?}");
        }
        for (s, &place) in places.iter().enumerate() {
            assert_eq!(game.place(s), Some(place), "seat {s}'s place");
        }
    }
}

/// Replays each game's stored action log with the same fair dice and compares the final states.
fn replays<E: LudoEngine>(options: E::Options, seats: usize, games: u8) {
    for g in 0..games {
        let seed = ServerSeed([g.wrapping_add(seats as u8 * 16); 32]);
        let mut dice = FairDice::new(seed.clone(), "replay", 0);
        let mut rng = SmallRng::seed_from_u64(g as u64);
        let (mut game, opening) = E::new(options.clone(), seats, &mut dice).unwrap();
        let mut log = Vec::new();
        while let Some(seat) = game.to_act() {
            let legal = game.legal_actions(seat);
            let action = legal[rng.random_range(0..legal.len())];
            game.apply(seat, &action, &mut dice).unwrap();
            log.push((seat, serde_json::to_string(&action).unwrap()));
        }
        let mut again_dice = FairDice::new(seed, "replay", 0);
        let (mut again, again_opening) = E::new(options.clone(), seats, &mut again_dice).unwrap();
        assert_eq!(again_opening, opening);
        for (seat, action) in &log {
            let action: Action = serde_json::from_str(action).unwrap();
            again.apply(*seat, &action, &mut again_dice).unwrap();
        }
        assert_eq!(serde_json::to_string(&again).unwrap(), serde_json::to_string(&game).unwrap());
        assert_eq!(again_dice.thrown(), dice.thrown());
    }
}

fn luddo_options(home_bonus: bool) -> LuddoOptions {
    LuddoOptions { home_bonus }
}

fn classic_options(enter_on: &[u8], play_for_places: bool) -> ClassicOptions {
    ClassicOptions { enter_on: enter_on.to_vec(), play_for_places }
}

fn luddo_configuration(seats: usize) {
    let options = [luddo_options(true), luddo_options(false)];
    random_games::<Luddo>(&options, seats, seats as u64);
    for o in options {
        replays::<Luddo>(o, seats, 1);
    }
}

fn classic_configuration(seats: usize) {
    let options = [
        classic_options(&[6], true),
        classic_options(&[1, 6], true),
        classic_options(&[6], false),
        classic_options(&[1, 6], false),
    ];
    random_games::<ClassicLudo>(&options, seats, 100 + seats as u64);
    for o in options {
        replays::<ClassicLudo>(o, seats, 1);
    }
}

#[test]
fn luddo_random_games_2_players() {
    luddo_configuration(2);
}

#[test]
fn luddo_random_games_3_players() {
    luddo_configuration(3);
}

#[test]
fn luddo_random_games_4_players() {
    luddo_configuration(4);
}

#[test]
fn luddo_random_games_5_players_hex() {
    luddo_configuration(5);
}

#[test]
fn luddo_random_games_6_players_hex() {
    luddo_configuration(6);
}

#[test]
fn classic_random_games_2_players() {
    classic_configuration(2);
}

#[test]
fn classic_random_games_3_players() {
    classic_configuration(3);
}

#[test]
fn classic_random_games_4_players() {
    classic_configuration(4);
}

#[test]
fn classic_random_games_5_players_hex() {
    classic_configuration(5);
}

#[test]
fn classic_random_games_6_players_hex() {
    classic_configuration(6);
}

#[test]
fn a_broken_dice_source_cannot_hang_or_break_the_engine() {
    use crate::rules::dice::StuckDice as Always;
    for value in [0, 6, 7, 255] {
        let (mut game, _) = Luddo::new(LuddoOptions::default(), 4, &mut Always(value)).unwrap();
        for _ in 0..100 {
            let Some(seat) = game.to_act() else { break };
            let action = game.legal_actions(seat)[0];
            game.apply(seat, &action, &mut Always(value)).unwrap();
        }
    }
    let err = Luddo::new(LuddoOptions::default(), 9, &mut Always(1)).unwrap_err();
    assert_eq!(err.kind, RuleErrorKind::InvalidOptions);
}

/// Arbitrary input, not just offered actions: any seat, any piece number, in any order.
fn arbitrary_input<E: LudoEngine>(
    options: E::Options,
    seats: usize,
    seed: u64,
    input: &[(usize, Option<u8>)],
) {
    let mut dice = RngDice(SmallRng::seed_from_u64(seed));
    let (mut game, _) = E::new(options, seats, &mut dice).unwrap();
    for &(seat, piece) in input {
        let action = match piece {
            None => Action::Roll,
            Some(piece) => Action::Move { piece },
        };
        let before = game.clone();
        let offered = game.legal_actions(seat).contains(&action);
        match game.apply(seat, &action, &mut dice) {
            Ok(_) => assert!(offered, "{action:?} by seat {seat} was not offered"),
            Err(err) => {
                assert!(!offered, "offered {action:?} refused: {err}");
                assert!(game == before, "a refused action changed the state");
            }
        }
    }
}

proptest::proptest! {
    #[test]
    fn arbitrary_input_is_applied_only_when_offered(
        seats in 2usize..=6,
        seed in proptest::prelude::any::<u64>(),
        input in proptest::collection::vec(
            (0usize..8, proptest::option::of(0u8..6)), 0..120),
    ) {
        arbitrary_input::<Luddo>(LuddoOptions::default(), seats, seed, &input);
        arbitrary_input::<ClassicLudo>(classic_options(&[1, 6], false), seats, seed, &input);
    }
}
