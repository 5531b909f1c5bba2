//! Backgammon policies against each other: cubeless games, share won and points per game with
//! 95% intervals, and the time the first policy takes per checker play.
//!
//! `cargo run --release --example backgammon_duel -- --a strong --b pubeval --games 10000 --seed 1`
//!
//! Policies: `strong`, `normal`, `easy` (the bot levels as the server plays them), `net0` (the
//! network at 0 ply), `net1:K` (the network with a 1-ply search over its K best plays),
//! `pubeval`. The two alternate who starts; the dice are seeded.

use luddo::bots::Level;
use luddo::bots::backgammon::duel::{OnePly, Policy, Pubeval, series};
use luddo::bots::backgammon::network;
use luddo::rules::backgammon::board::Position;
use rand::SeedableRng;
use rand::rngs::StdRng;
use std::time::{Duration, Instant};

fn policy(name: &str) -> Box<dyn Policy> {
    match name {
        "strong" => Box::new(Level::Strong),
        "normal" => Box::new(Level::Normal),
        "easy" => Box::new(Level::Easy),
        "net0" => Box::new(network()),
        "pubeval" => Box::new(Pubeval),
        other => match other.strip_prefix("net1:").and_then(|k| k.parse().ok()) {
            Some(keep) => Box::new(OnePly(network(), keep)),
            None => panic!("unknown policy {other:?}: strong, normal, easy, net0, net1:K, pubeval"),
        },
    }
}

/// A policy whose every play is timed.
struct Timed(Box<dyn Policy>, Vec<Duration>);

impl Policy for Timed {
    fn play(&mut self, pos: &Position, dice: [u8; 2]) -> Position {
        let start = Instant::now();
        let after = self.0.play(pos, dice);
        self.1.push(start.elapsed());
        after
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let arg = |name: &str, default: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .map_or(default.to_string(), |v| v.clone())
    };
    let (a, b) = (arg("--a", "strong"), arg("--b", "pubeval"));
    let games: u32 = arg("--games", "10000").parse().expect("--games");
    let seed: u64 = arg("--seed", "1").parse().expect("--seed");
    let mut timed = Timed(policy(&a), Vec::new());
    let start = Instant::now();
    let s = series(&mut timed, &mut *policy(&b), games, &mut StdRng::seed_from_u64(seed));
    let n = s.games as f64;
    println!("{a} against {b}: {games} cubeless games, seed {seed}");
    println!("won:             {:.1}% ± {:.1}% (95% interval)", 100.0 * s.share(), 100.0 * s.margin());
    println!("points per game: {:+.3}", s.points as f64 / n);
    let mut t = timed.1;
    t.sort();
    let q = |p: f64| t[((t.len() - 1) as f64 * p) as usize].as_secs_f64() * 1e3;
    println!(
        "{a}'s checker plays: {} timed, p50 {:.3} ms, p99 {:.3} ms, max {:.3} ms",
        t.len(),
        q(0.5),
        q(0.99),
        t.last().map_or(0.0, |d| d.as_secs_f64() * 1e3)
    );
    println!("{:.1} s", start.elapsed().as_secs_f64());
}
