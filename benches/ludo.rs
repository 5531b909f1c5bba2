//! Luddo and classic Ludo engine benchmarks: whole random 4-player games per second and
//! legal-action generation. Run: `cargo bench --bench ludo`.
//!
//! - `random_game_4p_quiet`: the simulation fast path bots use (`legal_moves` + `apply_quiet`,
//!   no events built); the target (≥ 20,000 games/s on one core) is about this one.
//! - `random_game_4p_engine`: the same games through the generic [`Engine`] interface the
//!   table actors use (`legal_actions` + `apply`, events built).
//! - `legal_actions_10k`: `Engine::legal_actions` for the seat to act, over 10,000 positions
//!   sampled from random games (half of them move decisions).

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use luddo::bots::ludo::random;
use luddo::rules::Engine;
use luddo::rules::dice::RngDice;
use luddo::rules::ludo::{ClassicLudo, ClassicOptions, Luddo, LuddoOptions};
use rand::{Rng, SeedableRng, rngs::SmallRng};
use std::hint::black_box;

/// Positions from random Luddo games: half before a roll, half with a throw to move.
fn sample_positions(n: usize) -> Vec<Luddo> {
    let mut rng = SmallRng::seed_from_u64(1);
    let mut dice = RngDice(SmallRng::seed_from_u64(2));
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        let mut g = Luddo::new_quiet(LuddoOptions::default(), 4, &mut dice).unwrap();
        while let Some(seat) = g.to_act() {
            if rng.random_bool(0.05) {
                out.push(g.clone());
            }
            let a = random(&g, seat, &mut rng).unwrap();
            g.apply_quiet(seat, &a, &mut dice).unwrap();
        }
    }
    out.truncate(n);
    out
}

fn random_games(c: &mut Criterion) {
    let mut group = c.benchmark_group("ludo");
    group.throughput(Throughput::Elements(1));
    let mut rng = SmallRng::seed_from_u64(3);
    let mut dice = RngDice(SmallRng::seed_from_u64(4));
    group.bench_function("luddo_random_game_4p_quiet", |b| {
        b.iter(|| {
            let mut g = Luddo::new_quiet(LuddoOptions::default(), 4, &mut dice).unwrap();
            while let Some(seat) = g.to_act() {
                let a = random(&g, seat, &mut rng).unwrap();
                g.apply_quiet(seat, &a, &mut dice).unwrap();
            }
            g
        })
    });
    group.bench_function("luddo_random_game_4p_engine", |b| {
        b.iter(|| {
            let (mut g, _) = Luddo::new(LuddoOptions::default(), 4, &mut dice).unwrap();
            while let Some(seat) = g.to_act() {
                let legal = g.legal_actions(seat);
                let a = &legal[rng.random_range(0..legal.len())];
                g.apply(seat, a, &mut dice).unwrap();
            }
            g
        })
    });
    group.bench_function("classic_random_game_4p_quiet", |b| {
        b.iter(|| {
            let mut g = ClassicLudo::new_quiet(ClassicOptions::default(), 4, &mut dice).unwrap();
            while let Some(seat) = g.to_act() {
                let a = random(&g, seat, &mut rng).unwrap();
                g.apply_quiet(seat, &a, &mut dice).unwrap();
            }
            g
        })
    });
    group.finish();
}

fn legal_actions(c: &mut Criterion) {
    let positions = sample_positions(10_000);
    let mut group = c.benchmark_group("ludo");
    group.throughput(Throughput::Elements(positions.len() as u64));
    group.bench_function("luddo_legal_actions_10k", |b| {
        b.iter(|| {
            let mut total = 0usize;
            for g in &positions {
                let seat = g.to_act().unwrap();
                total += black_box(g).legal_actions(seat).len();
            }
            total
        })
    });
    group.finish();
}

criterion_group!(benches, random_games, legal_actions);
criterion_main!(benches);
