//! Backgammon engine benchmarks: legal-play generation (positions per second) and whole random
//! games per second. Run: `cargo bench --bench backgammon`.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use luddo::rules::Engine;
use luddo::rules::backgammon::board::{MoveGen, Position};
use luddo::rules::backgammon::{Backgammon, BackgammonOptions, Phase};
use luddo::rules::dice::RngDice;
use rand::{Rng, SeedableRng, rngs::StdRng};
use std::hint::black_box;

/// Positions with their rolls, sampled from games of random plays.
fn sample_positions(n: usize) -> Vec<(Position, [u8; 2])> {
    let mut rng = StdRng::seed_from_u64(1);
    let mut dice = RngDice(StdRng::seed_from_u64(2));
    let mut out = Vec::with_capacity(n);
    let no_cube = BackgammonOptions { cube: false, ..Default::default() };
    while out.len() < n {
        let (mut g, _) = Backgammon::new(no_cube.clone(), 2, &mut dice).unwrap();
        while let Some(seat) = g.to_act() {
            if let Phase::ToPlay { dice } = g.phase() {
                out.push((g.position(), dice));
            }
            let legal = g.legal_actions(seat);
            let a = legal[rng.random_range(0..legal.len())].clone();
            g.apply(seat, &a, &mut dice).unwrap();
        }
    }
    out.truncate(n);
    out
}

fn legal_play_generation(c: &mut Criterion) {
    let positions = sample_positions(10_000);
    let mut group = c.benchmark_group("backgammon");
    group.throughput(Throughput::Elements(positions.len() as u64));
    group.bench_function("legal_plays_10k_positions", |b| {
        let mut generator = MoveGen::new();
        b.iter(|| {
            let mut total = 0usize;
            for (pos, dice) in &positions {
                total += generator.generate(black_box(pos), *dice).len();
            }
            total
        })
    });
    group.finish();
}

fn random_games(c: &mut Criterion) {
    let mut group = c.benchmark_group("backgammon");
    group.throughput(Throughput::Elements(1));
    let no_cube = BackgammonOptions { cube: false, ..Default::default() };
    let mut rng = StdRng::seed_from_u64(3);
    let mut dice = RngDice(StdRng::seed_from_u64(4));
    group.bench_function("random_game", |b| {
        b.iter(|| {
            let (mut g, _) = Backgammon::new(no_cube.clone(), 2, &mut dice).unwrap();
            while let Some(seat) = g.to_act() {
                let legal = g.legal_actions(seat);
                let a = &legal[rng.random_range(0..legal.len())];
                g.apply(seat, a, &mut dice).unwrap();
            }
            g
        })
    });
    group.finish();
}

criterion_group!(benches, legal_play_generation, random_games);
criterion_main!(benches);
