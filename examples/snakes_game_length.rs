//! How long Snakes and Ladders games last: rolls per game on the default board, by the number of
//! players (2–4, what the game seats), over seeded games.
//!
//! ```text
//! cargo run --release --example snakes_game_length -- [--games 10000] [--seed 1]
//! ```
//!
//! Each roll is one action (a six rolls again, as its own action). For each seat count it prints
//! the mean, median, 90th and 99th percentile of the rolls until the winner finishes (the first
//! place decides the game for the players) and until the game ends (every place settled), and
//! the winner's own rolls.

use luddo::bots::snakes::choose;
use luddo::rules::Engine;
use luddo::rules::dice::RngDice;
use luddo::rules::snakes::{Snakes, SnakesOptions};
use rand::SeedableRng;
use rand::rngs::SmallRng;

fn arg(name: &str, default: u64) -> u64 {
    let args: Vec<String> = std::env::args().collect();
    match args.iter().position(|a| a == name) {
        Some(i) => args.get(i + 1).and_then(|v| v.parse().ok()).unwrap_or_else(|| usage()),
        None => default,
    }
}

fn usage() -> ! {
    eprintln!("usage: snakes_game_length [--games N] [--seed S]");
    std::process::exit(2)
}

fn main() {
    let games = arg("--games", 10_000);
    let seed = arg("--seed", 1);
    println!("{games} games per seat count, seed {seed}: rolls (actions) per game");
    println!(
        "| players | until the winner: mean | median | p90 | p99 | winner's own rolls: mean | to the end: mean | median | p90 | p99 |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|");
    for seats in 2..=4usize {
        let (mut first, mut whole, mut own) = (Vec::new(), Vec::new(), Vec::new());
        for g in 0..games {
            let mut dice =
                RngDice(SmallRng::seed_from_u64(seed.wrapping_mul(1_000_003) ^ (g << 3) ^ seats as u64));
            let (mut game, _) =
                Snakes::new(SnakesOptions::default(), seats, &mut dice).expect("2 to 4 seats");
            let (mut rolls, mut by_seat) = (0u64, vec![0u64; seats]);
            let mut until_winner = None;
            while let Some(seat) = game.to_act() {
                let action = choose(&game, seat).expect("the seat to act rolls");
                game.apply(seat, &action, &mut dice).expect("a roll is legal");
                rolls += 1;
                by_seat[seat] += 1;
                if until_winner.is_none()
                    && let Some(winner) = game.places().iter().position(|p| *p == Some(1))
                {
                    until_winner = Some(rolls);
                    own.push(by_seat[winner] as f64);
                }
            }
            first.push(until_winner.unwrap_or(rolls) as f64);
            whole.push(rolls as f64);
        }
        let (a, b) = (stats(&mut first), stats(&mut whole));
        println!(
            "| {seats} | {:.1} | {:.0} | {:.0} | {:.0} | {:.1} | {:.1} | {:.0} | {:.0} | {:.0} |",
            a.0,
            a.1,
            a.2,
            a.3,
            own.iter().sum::<f64>() / own.len().max(1) as f64,
            b.0,
            b.1,
            b.2,
            b.3
        );
    }
}

/// Mean, median, 90th and 99th percentile (nearest rank).
fn stats(values: &mut [f64]) -> (f64, f64, f64, f64) {
    values.sort_unstable_by(f64::total_cmp);
    let n = values.len().max(1);
    let at = |q: f64| values.get(((n as f64 * q).ceil() as usize).clamp(1, n) - 1).copied().unwrap_or(0.0);
    (values.iter().sum::<f64>() / n as f64, at(0.5), at(0.9), at(0.99))
}
