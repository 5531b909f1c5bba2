//! Win rate of the Ludo bot as one of four players against three uniformly random players, or
//! three rule-based ones (`--against priority`: `luddo::bots::ludo::priority`, the "expert"
//! priority list of the Ludo AI literature).
//!
//! ```text
//! cargo run --release --example ludo_bot_winrate -- --games 10000 [--seed 1] [--classic]
//!     [--player bot|priority] [--against random|priority]
//! ```
//!
//! Plays Luddo (default options) or classic Ludo on the square board with seeded dice, once with
//! the bot always in seat 0 and once rotating its seat game by game (so the first-move advantage
//! averages out), and prints each win rate with a 95% confidence interval (Wilson score). A third
//! run with four random players gives the baseline the bot is compared with.

use luddo::bots::ludo::{choose, priority, random};
use luddo::rules::dice::RngDice;
use luddo::rules::ludo::{ClassicLudo, ClassicOptions, Luddo, LuddoOptions};
use rand::SeedableRng;
use rand::rngs::SmallRng;

fn main() {
    let mut games = 10_000u64;
    let mut seed = 1u64;
    let mut classic = false;
    let (mut player, mut against) = (Policy::Bot, Policy::Random);
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut text = || args.next().unwrap_or_else(|| usage());
        match arg.as_str() {
            "--games" => games = text().parse().unwrap_or_else(|_| usage()),
            "--seed" => seed = text().parse().unwrap_or_else(|_| usage()),
            "--classic" => classic = true,
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
        let start = std::time::Instant::now();
        let mut wins = 0u64;
        let mut actions = 0u64;
        for game in 0..games {
            let bot_seat = if rotate { (game % 4) as usize } else { 0 };
            let me = if use_bot { player } else { against };
            let (won, n) = play(classic, bot_seat, me, against, seed.wrapping_mul(1_000_003) ^ game);
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
    }
}

#[derive(Debug, Clone, Copy)]
enum Policy {
    Bot,
    Priority,
    Random,
}

impl Policy {
    fn parse(name: &str) -> Self {
        match name {
            "bot" => Policy::Bot,
            "priority" => Policy::Priority,
            "random" => Policy::Random,
            _ => usage(),
        }
    }
}

/// Plays one game with `me` in `bot_seat` and `against` in the others; returns whether
/// `bot_seat` won and how many actions were played.
fn play(classic: bool, bot_seat: usize, me: Policy, against: Policy, seed: u64) -> (bool, u64) {
    let mut dice = RngDice(SmallRng::seed_from_u64(seed));
    let mut rng = SmallRng::seed_from_u64(seed ^ 0x9e37_79b9_7f4a_7c15);
    macro_rules! run {
        ($game:expr) => {{
            let mut game = $game;
            let mut actions = 0;
            while let Some(seat) = game.to_act() {
                let policy = if seat == bot_seat { me } else { against };
                let action = match policy {
                    Policy::Bot => choose(&game, seat),
                    Policy::Priority => priority(&game, seat),
                    Policy::Random => random(&game, seat, &mut rng),
                }
                .expect("the seat to act has an action");
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
        "usage: ludo_bot_winrate [--games N] [--seed S] [--classic] [--player bot|priority] [--against random|priority]"
    );
    std::process::exit(2)
}
