//! What pairing costs a tournament's driver (issue #36: 1,000 waiting players paired in under
//! 50 ms): an arena's queue of 1,000 players at tables of 2, 4 and 6 seats, spread over the
//! standings and ratings as after an hour of play, each having just met the players of their
//! latest game; and a Swiss round of 1,000 players after five rounds. Run:
//! `cargo bench --bench pairing`.

use criterion::{Criterion, criterion_group, criterion_main};
use luddo::tournament::{
    arena::{self, Waiting},
    swiss::{self, Entrant, Game},
};
use rand::{Rng, SeedableRng, rngs::StdRng};
use std::hint::black_box;

/// 1,000 waiting players; `last[i]` is the group of `seats` that player `i` just played in.
fn queue(seats: usize, rng: &mut StdRng) -> (Vec<Waiting>, Vec<usize>) {
    let n = 1000;
    let waiting = (0..n)
        .map(|i| Waiting {
            rank: rng.random_range(1..=800),
            rating: rng.random_range(900.0..2300.0),
            since: i as i64,
        })
        .collect();
    // The players' latest tables: consecutive ids in a shuffled order.
    let mut order: Vec<usize> = (0..n).collect();
    for i in (1..n).rev() {
        order.swap(i, rng.random_range(0..=i));
    }
    let mut last = vec![0; n];
    for (pos, &p) in order.iter().enumerate() {
        last[p] = pos / seats;
    }
    (waiting, last)
}

fn arena_pairing(c: &mut Criterion) {
    let mut group = c.benchmark_group("arena_pair_1000");
    for seats in [2, 4, 6] {
        let mut rng = StdRng::seed_from_u64(seats as u64);
        let (waiting, last) = queue(seats, &mut rng);
        group.bench_function(format!("{seats}_seats"), |b| {
            b.iter(|| arena::pair(black_box(&waiting), seats, |a, b| last[a] == last[b]))
        });
    }
    group.finish();
}

fn swiss_round(c: &mut Criterion) {
    let mut rng = StdRng::seed_from_u64(7);
    let mut entrants: Vec<Entrant> = (0..1000)
        .map(|_| Entrant { rating: rng.random_range(900.0..2300.0), ..Entrant::default() })
        .collect();
    for _ in 0..5 {
        let round = swiss::pair_round(&entrants);
        for (a, b) in round.pairs {
            let a_wins = rng.random_bool(0.5);
            entrants[a].games.push(Game { opponent: b, won: a_wins });
            entrants[b].games.push(Game { opponent: a, won: !a_wins });
        }
    }
    c.bench_function("swiss_round_6_of_1000", |b| b.iter(|| swiss::pair_round(black_box(&entrants))));
}

criterion_group!(benches, arena_pairing, swiss_round);
criterion_main!(benches);
