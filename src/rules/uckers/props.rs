//! Property tests over random games, for every option set: games end, pieces stay where the
//! rules allow, only legal actions are applied, illegal ones are refused without a trace,
//! replays reproduce the game, and the state survives a serde round trip.
//!
//! `UCKERS_GAMES=5000 cargo test --release --lib rules::uckers::props` plays more games.

use super::*;
use crate::rules::dice::{FairDice, RngDice, ServerSeed};
use rand::{Rng, SeedableRng, rngs::StdRng};

/// More actions than any random game needs; reaching it means the game stalled.
const ACTION_CAP: usize = 50_000;

fn games() -> usize {
    std::env::var("UCKERS_GAMES").ok().and_then(|s| s.parse().ok()).unwrap_or(10)
}

fn option_sets() -> Vec<(&'static str, UckersOptions)> {
    let wafu_all = UckersOptions {
        snake_eyes: SnakeEyes::Wafu,
        superblobs: true,
        mixed_blob_stacking: true,
        suck_back: true,
        blow_back: true,
        stand_up_finish: true,
    };
    vec![
        ("default", UckersOptions::default()),
        ("snake_eyes_off", UckersOptions { snake_eyes: SnakeEyes::Off, ..Default::default() }),
        ("wafu", UckersOptions { snake_eyes: SnakeEyes::Wafu, ..Default::default() }),
        ("superblobs", UckersOptions { superblobs: true, ..Default::default() }),
        ("mixed_blob_stacking", UckersOptions { mixed_blob_stacking: true, ..Default::default() }),
        ("suck_and_blow_back", UckersOptions { suck_back: true, blow_back: true, ..Default::default() }),
        ("stand_up_finish", UckersOptions { stand_up_finish: true, ..Default::default() }),
        ("everything", wafu_all),
    ]
}

/// Dice that count how many were drawn.
struct Counting<D> {
    inner: D,
    drawn: u64,
}

impl<D: DiceSource> DiceSource for Counting<D> {
    fn roll(&mut self) -> u8 {
        self.drawn += 1;
        self.inner.roll()
    }
}

fn random_piece(rng: &mut StdRng) -> PieceId {
    PieceId::new(Colour::from_index(rng.random_range(0..4)), rng.random_range(0..5))
}

/// Any well-formed action, legal or not.
fn random_action(rng: &mut StdRng) -> Action {
    match rng.random_range(0..10) {
        0 => Action::Roll,
        1 => {
            let n = rng.random_range(0..4);
            let steps =
                (0..n).map(|_| Step { piece: random_piece(rng), die: rng.random_range(0..8) }).collect();
            Action::Move { steps }
        }
        2 => Action::Total { piece: random_piece(rng) },
        3 => Action::Challenge { piece: random_piece(rng), target: rng.random_range(0..56) },
        4 => Action::Pass,
        5 => Action::CallSnakeEyes,
        6 => Action::SuckBack { piece: random_piece(rng), target: random_piece(rng) },
        7 => Action::BlowBack { piece: random_piece(rng) },
        8 => Action::StandUp,
        _ => Action::Roll,
    }
}

/// The invariants every position keeps.
fn check_position(game: &Uckers, home_before: &mut [u8; 4]) {
    let board = game.board();
    assert_eq!(board.all().count(), 16);
    let occ = board.occupancy();
    for square in 0..board::TRACK_LEN {
        let c = occ.counts(square);
        assert!(c[0] + c[2] == 0 || c[1] + c[3] == 0, "opponents share square {square}");
    }
    for (_, piece) in board.all() {
        assert!(piece.progress.is_none_or(|p| p <= HOME));
    }
    for c in Colour::ALL {
        let home = board.home_count(c);
        assert!(home >= home_before[c.index()], "a piece left home");
        home_before[c.index()] = home;
    }
}

struct Playout {
    game: Uckers,
    log: Vec<(Seat, Action)>,
    stalled: bool,
}

/// A random game: random legal actions (never up-boarding), with random illegal attempts
/// checked along the way when `probe` is set.
/// `fair`: provably fair dice (for replays), else faster pseudo-random ones.
fn play_out(options: &UckersOptions, seats: usize, seed: u64, probe: bool, fair: bool) -> Playout {
    let mut rng = StdRng::seed_from_u64(seed);
    let inner: Box<dyn DiceSource> =
        if fair { Box::new(fair_dice(seed)) } else { Box::new(RngDice(StdRng::seed_from_u64(!seed))) };
    let mut dice = Counting { inner, drawn: 0 };
    let (mut game, _) = Uckers::new(options.clone(), seats, &mut dice).expect("valid options");
    let mut log = Vec::new();
    let mut home = [0u8; 4];
    while let Some(seat) = game.to_act() {
        if log.len() >= ACTION_CAP {
            return Playout { game, log, stalled: true };
        }
        let legal = game.legal_actions(seat);
        assert_eq!(legal.last(), Some(&Action::UpBoard));
        let choices = &legal[..legal.len() - 1];
        assert!(!choices.is_empty(), "the seat to act has nothing to do");
        if let Some(forced) = game.forced_action() {
            assert_eq!(choices, std::slice::from_ref(&forced));
        }
        for (other, _) in (0..seats).map(|s| (s, ())) {
            if other != seat {
                assert_eq!(game.legal_actions(other), vec![Action::UpBoard]);
            }
        }
        if probe && rng.random_bool(0.3) {
            let attempt = random_action(&mut rng);
            let who = if rng.random_bool(0.8) { seat } else { rng.random_range(0..seats + 1) };
            if who != seat || game.canonical(&attempt).is_none() {
                let before = serde_json::to_string(&game).unwrap();
                let drawn = dice.drawn;
                let err = game.apply(who, &attempt, &mut dice).unwrap_err();
                assert!(!err.message.is_empty());
                assert_eq!(serde_json::to_string(&game).unwrap(), before);
                assert_eq!(dice.drawn, drawn, "a refused action drew a die");
            }
        }
        let action = choices[rng.random_range(0..choices.len())].clone();
        let events =
            game.apply(seat, &action, &mut dice).unwrap_or_else(|e| panic!("legal {action:?} refused: {e}"));
        assert!(!events.is_empty());
        log.push((seat, action));
        check_position(&game, &mut home);
    }
    Playout { game, log, stalled: false }
}

fn fair_dice(seed: u64) -> FairDice {
    FairDice::new(ServerSeed([seed as u8; 32]), seed.to_string(), 0)
}

fn replay(options: &UckersOptions, seats: usize, seed: u64, log: &[(Seat, Action)]) -> Uckers {
    let mut dice = fair_dice(seed);
    let (mut game, _) = Uckers::new(options.clone(), seats, &mut dice).unwrap();
    for (seat, action) in log {
        game.apply(*seat, action, &mut dice).unwrap();
    }
    game
}

#[test]
fn random_games_keep_every_invariant_for_every_option_set() {
    let n = games();
    for (name, options) in option_sets() {
        let mut stalled = 0;
        for i in 0..n {
            let seats = if i % 2 == 0 { 4 } else { 2 };
            let seed = (i as u64) * 7919 + name.len() as u64;
            let fair = i % 5 == 0;
            let out = play_out(&options, seats, seed, true, fair);
            if out.stalled {
                stalled += 1;
                continue;
            }
            let game = &out.game;
            let outcome = game.outcome().expect("a finished game has an outcome");
            assert_eq!(outcome.places.len(), seats);
            let winners = game.winner().unwrap();
            for c in winners.colours() {
                assert!(game.board().all_home(c));
            }
            let json = serde_json::to_string(game).unwrap();
            let back: Uckers = serde_json::from_str(&json).unwrap();
            assert_eq!(&back, game);
            if fair {
                let again = replay(&options, seats, seed, &out.log);
                assert_eq!(serde_json::to_string(&again).unwrap(), json);
            }
        }
        assert_eq!(stalled, 0, "{name}: {stalled} of {n} games hit the action cap");
    }
}

#[test]
fn actions_and_events_survive_serde() {
    let mut rng = StdRng::seed_from_u64(9);
    for _ in 0..200 {
        let a = random_action(&mut rng);
        let json = serde_json::to_string(&a).unwrap();
        assert_eq!(serde_json::from_str::<Action>(&json).unwrap(), a);
    }
    let out = play_out(&UckersOptions::default(), 4, 3, false, true);
    let mut dice = fair_dice(3);
    let (mut game, events) = Uckers::new(UckersOptions::default(), 4, &mut dice).unwrap();
    let mut all = events;
    for (seat, action) in &out.log {
        all.extend(game.apply(*seat, action, &mut dice).unwrap());
    }
    for e in all {
        let json = serde_json::to_string(&e).unwrap();
        assert_eq!(serde_json::from_str::<Event>(&json).unwrap(), e);
    }
}
