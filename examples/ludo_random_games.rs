//! Random 4-player games per second, measured in CPU time as well as wall time, so that the
//! figure means "on one core" even on a machine shared with other work.
//!
//! ```text
//! cargo run --release --example ludo_random_games -- --games 20000
//! ```
//!
//! The same playouts as `benches/ludo.rs` (uniformly random players, `SmallRng` dice): through
//! the `Engine` trait (`legal_actions` + `apply`, with their vectors) and through the
//! allocation-free path (`legal_moves` + `apply_quiet`). CPU time is this thread's time on a
//! core, read from `/proc/thread-self/schedstat` (Linux); elsewhere only wall time is shown.

use std::time::Instant;

use luddo::bots::ludo::random;
use luddo::rules::Engine;
use luddo::rules::dice::RngDice;
use luddo::rules::ludo::{Action, ClassicLudo, ClassicOptions, Luddo, LuddoOptions};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// Nanoseconds this thread has spent running on a core.
fn cpu_ns() -> Option<u64> {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    stat.split_whitespace().next()?.parse().ok()
}

fn trait_game<E: Engine<Action = Action>>(options: E::Options, dice: &mut RngDice<SmallRng>) -> u64 {
    let (mut game, _) = E::new(options, 4, dice).unwrap();
    let mut actions = 0;
    while let Some(seat) = game.to_act() {
        let legal = game.legal_actions(seat);
        let action = legal[dice.0.random_range(0..legal.len())];
        std::hint::black_box(game.apply(seat, &action, dice).unwrap());
        actions += 1;
    }
    actions
}

fn quiet_game(dice: &mut RngDice<SmallRng>, choices: &mut SmallRng) -> u64 {
    let mut game = Luddo::new_quiet(LuddoOptions::default(), 4, dice).unwrap();
    let mut actions = 0;
    while let Some(seat) = game.to_act() {
        let action = random(&game, seat, choices).unwrap();
        game.apply_quiet(seat, &action, dice).unwrap();
        actions += 1;
    }
    actions
}

fn measure(label: &str, games: u64, mut play: impl FnMut() -> u64) {
    let (wall, cpu) = (Instant::now(), cpu_ns());
    let actions: u64 = (0..games).map(|_| play()).sum();
    let wall = wall.elapsed().as_secs_f64();
    let cpu = cpu.zip(cpu_ns()).map(|(a, b)| (b - a) as f64 / 1e9);
    let per_cpu = cpu.map_or("n/a".to_string(), |c| format!("{:.0}", games as f64 / c));
    println!(
        "{label:32} {:>8.0} games/s wall, {per_cpu:>8} games/s CPU, {} actions/game",
        games as f64 / wall,
        actions / games
    );
}

fn main() {
    let mut games = 20_000u64;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match (arg.as_str(), args.next().and_then(|v| v.parse().ok())) {
            ("--games", Some(n)) => games = n,
            _ => {
                eprintln!("usage: ludo_random_games [--games N]");
                std::process::exit(2)
            }
        }
    }
    let mut dice = RngDice(SmallRng::seed_from_u64(1));
    measure("luddo 4p, Engine trait", games, || trait_game::<Luddo>(LuddoOptions::default(), &mut dice));
    let mut choices = SmallRng::seed_from_u64(2);
    measure("luddo 4p, allocation-free path", games, || quiet_game(&mut dice, &mut choices));
    measure("classic ludo 4p, Engine trait", games, || {
        trait_game::<ClassicLudo>(ClassicOptions::default(), &mut dice)
    });
}
