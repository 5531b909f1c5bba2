//! Backgammon policies against each other: cubeless games, share won and points per game with
//! 95% intervals, and the time the first policy takes per checker play (wall and thread CPU).
//!
//! `cargo run --release --example backgammon_duel -- --a strong --b pubeval --games 10000 --seed 1`
//!
//! Policies: `strong`, `normal`, `easy` (the bot levels as the server plays them, with
//! `--weights` if given), `net0` (the
//! network at 0 ply), `net1:K` (the network with a 1-ply search over its K best plays),
//! `net2:K` (a 2-ply search over the 1-ply search's K best), `pubeval`. `--weights FILE` plays
//! the `net…` policies with another weights file than the shipped one. The two alternate who
//! starts; the dice are seeded.

use luddo::bots::Level;
use luddo::bots::backgammon::duel::{OnePly, Policy, Pubeval, series};
use luddo::bots::backgammon::net::{Net, pick_2ply};
use luddo::bots::backgammon::{STRONG_CANDIDATES, network, pick_play_with};
use luddo::rules::backgammon::board::Position;
use luddo::rules::backgammon::board::with_plays;
use rand::SeedableRng;
use rand::rngs::StdRng;
use std::time::{Duration, Instant};

/// A bot level as the server plays it, with the network `.1`.
struct Bot(Level, &'static Net);

impl Policy for Bot {
    fn play(&mut self, pos: &Position, dice: [u8; 2]) -> Position {
        with_plays(pos, dice, |plays| {
            pick_play_with(self.1, self.0, pos, dice, plays).map_or(*pos, |i| plays[i].result)
        })
    }
}

/// The network with a 2-ply search over its 1-ply search's `.1` best plays within `.2`.
struct TwoPly(&'static Net, usize, f32);

impl Policy for TwoPly {
    fn play(&mut self, pos: &Position, dice: [u8; 2]) -> Position {
        with_plays(pos, dice, |plays| {
            pick_2ply(self.0, plays, STRONG_CANDIDATES, self.1, self.2).map_or(*pos, |i| plays[i].result)
        })
    }
}

fn policy(name: &str, net: &'static Net) -> Box<dyn Policy> {
    match name {
        "strong" => Box::new(Bot(Level::Strong, net)),
        "normal" => Box::new(Bot(Level::Normal, net)),
        "easy" => Box::new(Bot(Level::Easy, net)),
        "net0" => Box::new(net),
        "pubeval" => Box::new(Pubeval),
        other => match (other.strip_prefix("net1:"), other.strip_prefix("net2:")) {
            (Some(k), _) if k.parse::<usize>().is_ok() => Box::new(OnePly(net, k.parse().unwrap())),
            (_, Some(k)) if two_ply(k).is_some() => {
                let (deep, within) = two_ply(k).unwrap();
                Box::new(TwoPly(net, deep, within))
            }
            _ => panic!("unknown policy {other:?}: strong, normal, easy, net0, net1:K, net2:K, pubeval"),
        },
    }
}

/// A policy whose every play is timed: wall time, and the thread's CPU time (what the play
/// costs on one core, whatever else the machine runs).
struct Timed(Box<dyn Policy>, Vec<Duration>, Vec<Duration>);

/// The CPU time this thread has used.
fn thread_cpu() -> Duration {
    let mut t = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `t` is a valid timespec to write to; the clock id is a constant the OS knows.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    Duration::new(t.tv_sec as u64, t.tv_nsec as u32)
}

impl Policy for Timed {
    fn play(&mut self, pos: &Position, dice: [u8; 2]) -> Position {
        let (start, cpu) = (Instant::now(), thread_cpu());
        let after = self.0.play(pos, dice);
        self.1.push(start.elapsed());
        self.2.push(thread_cpu() - cpu);
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
    let net: &'static Net = match args.iter().position(|a| a == "--weights").and_then(|i| args.get(i + 1)) {
        Some(path) => Box::leak(Box::new(
            Net::from_bytes(&std::fs::read(path).expect("read --weights")).expect("a weights file"),
        )),
        None => network(),
    };
    let mut timed = Timed(policy(&a, net), Vec::new(), Vec::new());
    let start = Instant::now();
    let s = series(&mut timed, &mut *policy(&b, net), games, &mut StdRng::seed_from_u64(seed));
    let n = s.games as f64;
    println!("{a} against {b}: {games} cubeless games, seed {seed}");
    println!("won:             {:.1}% ± {:.1}% (95% interval)", 100.0 * s.share(), 100.0 * s.margin());
    println!("points per game: {:+.3}", s.points as f64 / n);
    for (what, mut t) in [("wall", timed.1), ("CPU", timed.2)] {
        t.sort();
        let q = |p: f64| t[((t.len() - 1) as f64 * p) as usize].as_secs_f64() * 1e3;
        println!(
            "{a}'s checker plays, {what} time: {} timed, p50 {:.3} ms, p99 {:.3} ms, max {:.3} ms",
            t.len(),
            q(0.5),
            q(0.99),
            t.last().map_or(0.0, |d| d.as_secs_f64() * 1e3)
        );
    }
    println!("{:.1} s", start.elapsed().as_secs_f64());
}

/// `K` or `K:W` of a `net2:` policy: the plays searched at 2 ply, and how far below the best at
/// 1 ply they may be (default: any).
fn two_ply(spec: &str) -> Option<(usize, f32)> {
    let (k, w) = spec.split_once(':').unwrap_or((spec, "100"));
    Some((k.parse().ok()?, w.parse().ok()?))
}
