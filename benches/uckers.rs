//! Uckers engine benchmarks: whole random 4-seat games per second and legal-action generation.
//! Run: `cargo bench --bench uckers`.
//!
//! Random players choose uniformly among the legal actions except resigning (`up_board`), as in
//! `examples/uckers_bot_winrate.rs`; default options. Legal actions are generated for the seat
//! to act over 10,000 positions sampled from such games.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use luddo::rules::Engine;
use luddo::rules::dice::RngDice;
use luddo::rules::uckers::{Action, Uckers, UckersOptions};
use rand::{Rng, SeedableRng, rngs::SmallRng};
use std::hint::black_box;

/// More actions than any game needs; a safety net so a bench can never spin forever.
const ACTION_CAP: usize = 50_000;

fn random_action(g: &Uckers, seat: usize, rng: &mut SmallRng) -> Action {
    let legal = g.legal_actions(seat);
    let playable = legal.iter().filter(|a| **a != Action::UpBoard).count();
    // Resigning is offered last (see the engine's tests); skip it unless it is all there is.
    let n = if playable == 0 { legal.len() } else { playable };
    let mut choices = legal.into_iter().filter(|a| playable == 0 || *a != Action::UpBoard);
    choices.nth(rng.random_range(0..n)).expect("a legal action")
}

fn play(rng: &mut SmallRng, dice: &mut RngDice<SmallRng>, mut on_position: impl FnMut(&Uckers)) -> Uckers {
    let (mut g, _) = Uckers::new(UckersOptions::default(), 4, dice).unwrap();
    let mut n = 0;
    while let Some(seat) = g.to_act() {
        if n == ACTION_CAP {
            break;
        }
        on_position(&g);
        let a = random_action(&g, seat, rng);
        g.apply(seat, &a, dice).unwrap();
        n += 1;
    }
    g
}

fn sample_positions(n: usize) -> Vec<Uckers> {
    let mut rng = SmallRng::seed_from_u64(1);
    let mut pick = SmallRng::seed_from_u64(5);
    let mut dice = RngDice(SmallRng::seed_from_u64(2));
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        play(&mut rng, &mut dice, |g| {
            if out.len() < n && pick.random_bool(0.05) {
                out.push(g.clone());
            }
        });
    }
    out
}

fn random_games(c: &mut Criterion) {
    let mut group = c.benchmark_group("uckers");
    group.throughput(Throughput::Elements(1));
    let mut rng = SmallRng::seed_from_u64(3);
    let mut dice = RngDice(SmallRng::seed_from_u64(4));
    group.bench_function("random_game_4_seats", |b| b.iter(|| play(&mut rng, &mut dice, |_| {})));
    group.finish();
}

fn legal_actions(c: &mut Criterion) {
    let positions = sample_positions(10_000);
    let mut group = c.benchmark_group("uckers");
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

criterion_group!(benches, random_games, legal_actions);
criterion_main!(benches);
