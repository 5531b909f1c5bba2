//! Snakes and Ladders: whole 4-player games per second. Run: `cargo bench --bench snakes`.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use luddo::rules::Engine;
use luddo::rules::dice::RngDice;
use luddo::rules::snakes::{Snakes, SnakesAction, SnakesOptions};
use rand::{SeedableRng, rngs::StdRng};

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

criterion_group!(benches, games);
criterion_main!(benches);
