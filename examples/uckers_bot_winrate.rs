//! How often the Uckers bot's partnership beats a partnership playing uniformly random legal
//! actions (never resigning), or the rule-based player (`--against priority`:
//! `luddo::bots::uckers::priority`). The bot alternates sides game by game; `--player priority`
//! measures the rule-based player instead of the bot.
//!
//! `cargo run --release --example uckers_bot_winrate -- --games 10000 [--seats 4] [--seed 1]
//! [--player bot|priority] [--against random|priority]`

use luddo::bots::uckers::{choose, priority};
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
    let (player, against) = (word("--player", "bot"), word("--against", "random"));
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
            let policy = if game.partnership_of(seat) == bot { &player } else { &against };
            let action = match policy.as_str() {
                "bot" => choose(&game, seat).expect("the bot has a choice"),
                "priority" => priority(&game, seat).expect("the rule-based player has a choice"),
                "random" => {
                    let legal: Vec<Action> =
                        game.legal_actions(seat).into_iter().filter(|a| *a != Action::UpBoard).collect();
                    legal[rng.random_range(0..legal.len())].clone()
                }
                other => panic!("unknown policy {other:?}: bot, priority or random"),
            };
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
}
