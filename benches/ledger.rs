//! The luck and fairness ledger's cost per finished table (docs/luck.md): counting a table's dice
//! per seat from its log's events, and for backgammon rating every roll's luck with the network.
//! The logs are games played by the strong bots (a 4-seat Luddo game, a 4-seat classic Ludo
//! game, a 2-seat backgammon money game without the cube). The database write (one transaction
//! of a few rows) is not in it. Run: `cargo bench --bench ledger`.

use criterion::{Criterion, criterion_group, criterion_main};
use luddo::{
    bots::{Level, backgammon::network},
    games::GameKind,
    ledger::{luck::GameLuck, seat_dice},
    rules::dice::RngDice,
};
use rand::{SeedableRng, rngs::StdRng};
use serde_json::{Value, json};
use std::hint::black_box;

/// A bot game's entries: (seat, events), the opening first.
fn bot_game(game: GameKind, seats: usize, options: Value, seed: u64) -> Vec<(Option<usize>, Vec<Value>)> {
    let mut dice = RngDice(StdRng::seed_from_u64(seed));
    let options = game.normalize_options(&options, seats).unwrap();
    let (mut g, opening) = game.start(&options, seats, &mut dice).unwrap();
    let mut entries = vec![(None, opening)];
    while let Some(seat) = g.to_act() {
        let action = g.forced_action().or_else(|| g.bot_action(seat, Level::Strong)).unwrap();
        let applied = g.apply(seat, &action, &mut dice).unwrap();
        entries.push((Some(seat), applied.events));
    }
    entries
}

fn ledger(c: &mut Criterion) {
    let mut group = c.benchmark_group("ledger");
    let luddo = bot_game(GameKind::Luddo, 4, Value::Null, 1);
    group.bench_function("luddo_4_seats_dice", |b| {
        b.iter(|| seat_dice(4, luddo.iter().map(|(s, e)| (*s, black_box(&e[..])))))
    });
    let ludo = bot_game(GameKind::Ludo, 4, Value::Null, 3);
    group.bench_function("ludo_4_seats_dice", |b| {
        b.iter(|| seat_dice(4, ludo.iter().map(|(s, e)| (*s, black_box(&e[..])))))
    });
    let backgammon = bot_game(GameKind::Backgammon, 2, json!({"match_to": 0, "cube": false}), 2);
    let net = network();
    group.bench_function("backgammon_dice", |b| {
        b.iter(|| seat_dice(2, backgammon.iter().map(|(s, e)| (*s, black_box(&e[..])))))
    });
    group.sample_size(10);
    group.bench_function("backgammon_luck", |b| {
        b.iter(|| {
            let mut luck = GameLuck::default();
            for (_, events) in &backgammon {
                luck.feed(net, black_box(events));
            }
            luck.seats
        })
    });
    group.finish();
    let rolls: usize = backgammon.iter().flat_map(|(_, e)| e).filter(|e| e["type"] == "rolled").count();
    eprintln!(
        "luddo: {} entries; ludo: {} entries; backgammon: {} entries, {rolls} rolls",
        luddo.len(),
        ludo.len(),
        backgammon.len()
    );
}

criterion_group!(benches, ledger);
criterion_main!(benches);
