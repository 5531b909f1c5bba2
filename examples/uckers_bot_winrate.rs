//! How often the Uckers bot's partnership beats a partnership playing uniformly random legal
//! actions (never resigning), or the rule-based player (`--against priority`:
//! `luddo::bots::uckers::priority`). The measured player alternates sides game by game:
//! `--player strong` (the default: the searching bot, `bots::uckers::search`), `normal` (its
//! one-ply policy, `bots::uckers::choose`; `bot` says the same), `priority` or `random`. It also
//! prints the measured player's time per decision among two actions or more (p50, p99).
//!
//! `cargo run --release --example uckers_bot_winrate -- --games 10000 [--seats 4] [--seed 1]
//! [--player strong|normal|priority|random] [--against random|priority|normal]`

use luddo::bots::uckers::{choose, priority, search};
use luddo::rules::Engine;
use luddo::rules::dice::RngDice;
use luddo::rules::uckers::{Action, Partnership, Uckers, UckersOptions};
use rand::{Rng, SeedableRng, rngs::StdRng};

/// More actions than any game needs: a game reaching it counts as stalled.
const ACTION_CAP: usize = 50_000;

fn arg(name: &str, default: u64) -> u64 {
    let args: Vec<String> = std::env::args().collect();
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn word(name: &str, default: &str) -> String {
    let args: Vec<String> = std::env::args().collect();
    args.iter().position(|a| a == name).and_then(|i| args.get(i + 1)).cloned().unwrap_or(default.into())
}

fn main() {
    let (player, against) = (word("--player", "strong"), word("--against", "random"));
    let mut times = Vec::new();
    let games = arg("--games", 10_000);
    let seats = arg("--seats", 4) as usize;
    let seed = arg("--seed", 1);
    let started = std::time::Instant::now();
    let (mut wins, mut stalled, mut actions) = (0u64, 0u64, 0u64);
    for i in 0..games {
        let bot = if i % 2 == 0 { Partnership::YellowGreen } else { Partnership::RedBlue };
        let mut dice = RngDice(StdRng::seed_from_u64(seed.wrapping_mul(1_000_003) + i));
        let mut rng = StdRng::seed_from_u64(seed.wrapping_mul(7_919) + i);
        let (mut game, _) = Uckers::new(UckersOptions::default(), seats, &mut dice).expect("valid options");
        let mut n = 0;
        while let Some(seat) = game.to_act() {
            if n == ACTION_CAP {
                stalled += 1;
                break;
            }
            let measured = game.partnership_of(seat) == bot;
            let policy = if measured { &player } else { &against };
            let timed = measured
                && game.legal_actions(seat).into_iter().filter(|a| *a != Action::UpBoard).count() > 1;
            let start = cpu_time();
            let action = match policy.as_str() {
                "strong" => search(&game, seat).expect("the bot has a choice"),
                "normal" | "bot" => choose(&game, seat).expect("the bot has a choice"),
                "priority" => priority(&game, seat).expect("the rule-based player has a choice"),
                "random" => {
                    let legal: Vec<Action> =
                        game.legal_actions(seat).into_iter().filter(|a| *a != Action::UpBoard).collect();
                    legal[rng.random_range(0..legal.len())].clone()
                }
                other => panic!("unknown policy {other:?}: strong, normal, priority or random"),
            };
            if timed {
                times.push(cpu_time() - start);
            }
            game.apply(seat, &action, &mut dice).expect("legal");
            n += 1;
        }
        actions += n as u64;
        if game.winner() == Some(bot) {
            wins += 1;
        }
    }
    let n = games as f64;
    let p = wins as f64 / n;
    // Wilson score interval, 95%.
    let z = 1.96;
    let centre = (p + z * z / (2.0 * n)) / (1.0 + z * z / n);
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / (1.0 + z * z / n);
    println!(
        "uckers {player} vs {against}, {seats} seats, {games} games ({player} alternates sides): \
         {player} partnership won {wins} = {:.2}% (95% CI {:.2}%..{:.2}%); stalled games: {stalled}; \
         mean actions per game {:.0}; {:.1}s",
        100.0 * p,
        100.0 * (centre - half),
        100.0 * (centre + half),
        actions as f64 / n,
        started.elapsed().as_secs_f64()
    );
    if !times.is_empty() {
        times.sort_unstable_by(f64::total_cmp);
        let at = |q: f64| times[((times.len() - 1) as f64 * q) as usize] * 1e3;
        println!(
            "{player}'s CPU time over {} choices among two actions or more: p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
            times.len(),
            at(0.5),
            at(0.99),
            at(1.0)
        );
    }
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
