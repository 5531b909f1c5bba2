//! Snakes and Ladders: whole 4-player games per second, and legal-action generation over
//! 10,000 positions sampled from games (the only choice is to roll, so this measures the
//! engine's overhead). Run: `cargo bench --bench snakes`.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use luddo::rules::Engine;
use luddo::rules::dice::RngDice;
use luddo::rules::snakes::{Snakes, SnakesAction, SnakesOptions};
use rand::{Rng, SeedableRng, rngs::StdRng};
use std::hint::black_box;

fn games(c: &mut Criterion) {
    let mut group = c.benchmark_group("snakes");
    group.throughput(Throughput::Elements(1));
    let mut dice = RngDice(StdRng::seed_from_u64(1));
    group.bench_function("game_4_players", |b| {
        b.iter(|| {
            let (mut g, _) = Snakes::new(SnakesOptions::default(), 4, &mut dice).unwrap();
            while let Some(seat) = g.to_act() {
                g.apply(seat, &SnakesAction::Roll, &mut dice).unwrap();
            }
            g
        })
    });
    group.finish();
}

fn legal_actions(c: &mut Criterion) {
    let mut dice = RngDice(StdRng::seed_from_u64(2));
    let mut pick = StdRng::seed_from_u64(3);
    let mut positions = Vec::with_capacity(10_000);
    while positions.len() < 10_000 {
        let (mut g, _) = Snakes::new(SnakesOptions::default(), 4, &mut dice).unwrap();
        while let Some(seat) = g.to_act() {
            if positions.len() < 10_000 && pick.random_bool(0.2) {
                positions.push(g.clone());
            }
            g.apply(seat, &SnakesAction::Roll, &mut dice).unwrap();
        }
    }
    let mut group = c.benchmark_group("snakes");
    group.throughput(Throughput::Elements(positions.len() as u64));
    group.bench_function("legal_actions_10k", |b| {
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

criterion_group!(benches, games, legal_actions);
criterion_main!(benches);
