//! Criterion benchmarks of the Ludo-family engine.
//!
//! ```text
//! cargo bench --bench ludo
//! ```
//!
//! - `luddo_random_game/4p_engine_trait`: one complete 4-player Luddo game between uniformly
//!   random players, through the [`Engine`] trait the server uses (`legal_actions` and `apply`
//!   with their event vectors). Criterion reports games/s as throughput ("elements").
//! - `luddo_random_game/4p_quiet`: the same games through the allocation-free path simulations
//!   use (`legal_moves` + `apply_quiet`).
//! - `classic_random_game/4p_engine_trait`: the same for classic Ludo.
//! - `legal_actions/*`: generating the legal actions of positions sampled from random games.
//!
//! Dice come from a seeded `SmallRng` (the provably fair HMAC dice would dominate the timing;
//! they are not part of the engine).

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use luddo::bots::ludo::random;
use luddo::rules::Engine;
use luddo::rules::dice::RngDice;
use luddo::rules::ludo::{ClassicLudo, ClassicOptions, Luddo, LuddoOptions};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// A game through the `Engine` trait; returns the number of actions played.
fn trait_game<E: Engine<Action = luddo::rules::ludo::Action>>(
    options: E::Options,
    rng: &mut RngDice<SmallRng>,
) -> usize {
    let (mut game, events) = E::new(options, 4, rng).unwrap();
    black_box(events);
    let mut actions = 0;
    while let Some(seat) = game.to_act() {
        let legal = game.legal_actions(seat);
        let action = legal[rng.0.random_range(0..legal.len())];
        black_box(game.apply(seat, &action, rng).unwrap());
        actions += 1;
    }
    actions
}

/// A Luddo game through the allocation-free path.
fn quiet_game(rng: &mut RngDice<SmallRng>) -> usize {
    let mut game = Luddo::new_quiet(LuddoOptions::default(), 4, rng).unwrap();
    let mut choices = SmallRng::seed_from_u64(rng.0.random());
    let mut actions = 0;
    while let Some(seat) = game.to_act() {
        let action = random(&game, seat, &mut choices).unwrap();
        game.apply_quiet(seat, &action, rng).unwrap();
        actions += 1;
    }
    actions
}

fn random_games(c: &mut Criterion) {
    let mut group = c.benchmark_group("luddo_random_game");
    group.throughput(Throughput::Elements(1));
    let mut rng = RngDice(SmallRng::seed_from_u64(1));
    group.bench_function("4p_engine_trait", |b| {
        b.iter(|| trait_game::<Luddo>(LuddoOptions::default(), &mut rng))
    });
    let mut rng = RngDice(SmallRng::seed_from_u64(1));
    group.bench_function("4p_quiet", |b| b.iter(|| quiet_game(&mut rng)));
    group.finish();

    let mut group = c.benchmark_group("classic_random_game");
    group.throughput(Throughput::Elements(1));
    let mut rng = RngDice(SmallRng::seed_from_u64(1));
    group.bench_function("4p_engine_trait", |b| {
        b.iter(|| trait_game::<ClassicLudo>(ClassicOptions::default(), &mut rng))
    });
    group.finish();
}

/// Positions from random 4-player games, each with a move due.
fn sample_positions<E: Engine<Action = luddo::rules::ludo::Action>>(options: E::Options) -> Vec<E> {
    let mut rng = RngDice(SmallRng::seed_from_u64(7));
    let mut positions = Vec::new();
    while positions.len() < 1000 {
        let (mut game, _) = E::new(options.clone(), 4, &mut rng).unwrap();
        while let Some(seat) = game.to_act() {
            let legal = game.legal_actions(seat);
            if legal.len() > 1 && rng.0.random_ratio(1, 10) {
                positions.push(game.clone());
            }
            let action = legal[rng.0.random_range(0..legal.len())];
            game.apply(seat, &action, &mut rng).unwrap();
        }
    }
    positions
}

fn legal_actions(c: &mut Criterion) {
    let mut group = c.benchmark_group("legal_actions");
    let luddo = sample_positions::<Luddo>(LuddoOptions::default());
    let classic = sample_positions::<ClassicLudo>(ClassicOptions::default());
    group.throughput(Throughput::Elements(luddo.len() as u64));
    group.bench_function("luddo_1000_positions", |b| {
        b.iter(|| {
            for game in &luddo {
                black_box(game.legal_actions(game.to_act().unwrap()));
            }
        })
    });
    group.bench_function("classic_1000_positions", |b| {
        b.iter(|| {
            for game in &classic {
                black_box(game.legal_actions(game.to_act().unwrap()));
            }
        })
    });
    group.finish();
}

criterion_group!(benches, random_games, legal_actions);
criterion_main!(benches);
