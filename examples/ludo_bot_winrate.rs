//! Win rate of the Ludo bot as one of four players against three uniformly random players, or
//! three rule-based ones (`--against priority`: `luddo::bots::ludo::priority`, the "expert"
//! priority list of the Ludo AI literature).
//!
//! ```text
//! cargo run --release --example ludo_bot_winrate -- --games 10000 [--seed 1] [--classic]
//!     [--player strong|normal|priority|heuristic|random] [--against random|priority|heuristic|normal]
//!     [--rotating-only]
//! ```
//!
//! Plays Luddo (default options) or classic Ludo on the square board with seeded dice, once with
//! the bot always in seat 0 and once rotating its seat game by game (so the first-move advantage
//! averages out), and prints each win rate with a 95% confidence interval (Wilson score). A third
//! run with four random players gives the baseline the bot is compared with.

use luddo::bots::ludo::{choose, heuristic, priority, random, search};
use luddo::rules::dice::RngDice;
use luddo::rules::ludo::{ClassicLudo, ClassicOptions, Luddo, LuddoOptions, Phase};
use rand::SeedableRng;
use rand::rngs::SmallRng;

fn main() {
    let mut games = 10_000u64;
    let mut seed = 1u64;
    let mut classic = false;
    let mut rotating_only = false;
    let (mut player, mut against) = (Policy::Strong, Policy::Random);
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut text = || args.next().unwrap_or_else(|| usage());
        match arg.as_str() {
            "--games" => games = text().parse().unwrap_or_else(|_| usage()),
            "--seed" => seed = text().parse().unwrap_or_else(|_| usage()),
            "--classic" => classic = true,
            "--rotating-only" => rotating_only = true,
            "--player" => player = Policy::parse(&text()),
            "--against" => against = Policy::parse(&text()),
            _ => usage(),
        }
    }
    println!(
        "{} games of {}, {player:?} vs three {against:?} players, seed {seed}",
        games,
        if classic { "classic Ludo" } else { "Luddo" }
    );
    let modes = [
        ("bot in seat 0", false, true),
        ("bot in rotating seats", true, true),
        ("baseline: all opponents", true, false),
    ];
    for (label, rotate, use_bot) in modes {
        if rotating_only && !(rotate && use_bot) {
            continue;
        }
        let mut times = Vec::new();
        let start = std::time::Instant::now();
        let mut wins = 0u64;
        let mut actions = 0u64;
        for game in 0..games {
            let bot_seat = if rotate { (game % 4) as usize } else { 0 };
            let me = if use_bot { player } else { against };
            let (won, n) =
                play(classic, bot_seat, me, against, seed.wrapping_mul(1_000_003) ^ game, &mut times);
            wins += won as u64;
            actions += n;
        }
        let (p, lo, hi) = wilson(wins, games);
        println!(
            "{label:22} win rate {:.1}% (95% CI {:.1}–{:.1}%), {wins}/{games} wins, {:.0} actions/game, {:.1}s",
            100.0 * p,
            100.0 * lo,
            100.0 * hi,
            actions as f64 / games as f64,
            start.elapsed().as_secs_f64()
        );
        if !times.is_empty() {
            times.sort_unstable_by(f64::total_cmp);
            let at = |q: f64| times[((times.len() - 1) as f64 * q) as usize];
            println!(
                "{:22} decision time (CPU) over {} choices between moves: p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
                "",
                times.len(),
                at(0.5) * 1e3,
                at(0.99) * 1e3,
                at(1.0) * 1e3
            );
        }
    }
}

#[derive(Debug, Clone, Copy)]
enum Policy {
    /// The `strong` bot: [`search`].
    Strong,
    /// The `normal` bot: [`choose`].
    Normal,
    Priority,
    Heuristic,
    Random,
}

impl Policy {
    fn parse(name: &str) -> Self {
        match name {
            "strong" => Policy::Strong,
            "normal" | "bot" => Policy::Normal,
            "priority" => Policy::Priority,
            "heuristic" => Policy::Heuristic,
            "random" => Policy::Random,
            _ => usage(),
        }
    }
}

/// Plays one game with `me` in `bot_seat` and `against` in the others; returns whether
/// `bot_seat` won and how many actions were played.
/// `times` gets the measured player's time (seconds) for each choice between two moves or more.
fn play(
    classic: bool,
    bot_seat: usize,
    me: Policy,
    against: Policy,
    seed: u64,
    times: &mut Vec<f64>,
) -> (bool, u64) {
    let mut dice = RngDice(SmallRng::seed_from_u64(seed));
    let mut rng = SmallRng::seed_from_u64(seed ^ 0x9e37_79b9_7f4a_7c15);
    macro_rules! run {
        ($game:expr) => {{
            let mut game = $game;
            let mut actions = 0;
            while let Some(seat) = game.to_act() {
                let policy = if seat == bot_seat { me } else { against };
                let timed = seat == bot_seat && game.phase() == Phase::Move && game.legal_moves().len() > 1;
                let start = cpu_time();
                let action = match policy {
                    Policy::Strong => search(&game, seat),
                    Policy::Normal => choose(&game, seat),
                    Policy::Priority => priority(&game, seat),
                    Policy::Heuristic => heuristic(&game, seat),
                    Policy::Random => random(&game, seat, &mut rng),
                }
                .expect("the seat to act has an action");
                if timed {
                    times.push(cpu_time() - start);
                }
                game.apply_quiet(seat, &action, &mut dice).expect("chosen actions are legal");
                actions += 1;
            }
            (game.place(bot_seat) == Some(1), actions)
        }};
    }
    if classic {
        run!(ClassicLudo::new_quiet(ClassicOptions::default(), 4, &mut dice).unwrap())
    } else {
        run!(Luddo::new_quiet(LuddoOptions::default(), 4, &mut dice).unwrap())
    }
}

/// The Wilson score interval at 95%: (estimate, low, high).
fn wilson(wins: u64, n: u64) -> (f64, f64, f64) {
    let n = n.max(1) as f64;
    let p = wins as f64 / n;
    let z = 1.96f64;
    let centre = (p + z * z / (2.0 * n)) / (1.0 + z * z / n);
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / (1.0 + z * z / n);
    (p, centre - half, centre + half)
}

fn usage() -> ! {
    eprintln!(
        "usage: ludo_bot_winrate [--games N] [--seed S] [--classic] [--player P] [--against P] [--rotating-only] (P: strong, normal, priority, heuristic, random)"
    );
    std::process::exit(2)
}

/// This thread's time on a core so far, in seconds (`/proc/thread-self/schedstat`; wall-clock
/// time elsewhere): the "one core" measure, whatever else the machine runs.
fn cpu_time() -> f64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse::<u64>().ok())
        .map(|ns| ns as f64 / 1e9)
        .unwrap_or_else(|| {
            static START: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
            START.get_or_init(std::time::Instant::now).elapsed().as_secs_f64()
        })
}
