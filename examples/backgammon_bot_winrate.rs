//! The backgammon bot against a uniformly random player: share of games won and points per
//! game, with 95% confidence intervals.
//!
//! `cargo run --release --example backgammon_bot_winrate -- --games 10000 [--seed 1] [--no-cube]
//! [--level easy|normal|strong]` (default strong)
//!
//! Money games with the default options (cube on). The bot and the random player alternate
//! seats; the random player picks uniformly among its legal actions (roll/double, take/drop,
//! and every legal play), so it doubles, takes and drops at random too.

use luddo::bots::Level;
use luddo::bots::backgammon::choose;
use luddo::rules::Engine;
use luddo::rules::backgammon::{Backgammon, BackgammonOptions};
use luddo::rules::dice::RngDice;
use rand::{Rng, SeedableRng, rngs::StdRng};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let arg = |name: &str| {
        args.iter().position(|a| a == name).and_then(|i| args.get(i + 1)).and_then(|v| v.parse::<u64>().ok())
    };
    let games = arg("--games").unwrap_or(10_000);
    let seed = arg("--seed").unwrap_or(1);
    let level: Level =
        args.iter().position(|a| a == "--level").and_then(|i| args.get(i + 1)).map_or(Level::Strong, |v| {
            serde_json::from_value(serde_json::json!(v)).expect("--level easy|normal|strong")
        });
    let options = BackgammonOptions { cube: !args.iter().any(|a| a == "--no-cube"), ..Default::default() };
    let mut dice = RngDice(StdRng::seed_from_u64(seed));
    let mut random = StdRng::seed_from_u64(seed.wrapping_add(1));
    let (mut wins, mut gammons, mut backgammons) = (0u64, 0u64, 0u64);
    let mut points: Vec<f64> = Vec::with_capacity(games as usize);
    let start = Instant::now();
    for game in 0..games {
        let bot = (game % 2) as usize;
        let (mut g, _) = Backgammon::new(options.clone(), 2, &mut dice).unwrap();
        let mut kind = None;
        while let Some(seat) = g.to_act() {
            let action = if seat == bot {
                choose(&g, seat, level).expect("the bot acts when it is to act")
            } else {
                let legal = g.legal_actions(seat);
                legal[random.random_range(0..legal.len())].clone()
            };
            for e in g.apply(seat, &action, &mut dice).unwrap() {
                if let luddo::rules::backgammon::BackgammonEvent::GameWon { kind: k, .. } = e {
                    kind = Some(k);
                }
            }
        }
        let o = g.outcome().unwrap();
        let pts = o.points.unwrap();
        let net = (pts[bot] - pts[1 - bot]) as f64;
        points.push(net);
        if o.places[bot] == 1 {
            wins += 1;
            use luddo::rules::backgammon::WinKind;
            match kind {
                Some(WinKind::Gammon) => gammons += 1,
                Some(WinKind::Backgammon) => backgammons += 1,
                _ => {}
            }
        }
    }
    let n = games as f64;
    let p = wins as f64 / n;
    let p_ci = 1.96 * (p * (1.0 - p) / n).sqrt();
    let mean = points.iter().sum::<f64>() / n;
    let var = points.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
    let m_ci = 1.96 * (var / n).sqrt();
    println!(
        "{games} money games (cube {}), {level:?} bot vs uniformly random player, seed {seed}",
        if options.cube { "on" } else { "off" }
    );
    println!("games won:       {:.2}% ± {:.2}% (95% CI)", 100.0 * p, 100.0 * p_ci);
    println!("points per game: {mean:+.3} ± {m_ci:.3} (95% CI; net of points lost)");
    println!("bot wins by kind: {gammons} gammons, {backgammons} backgammons of {wins} wins");
    println!("{:.1} s", start.elapsed().as_secs_f64());
}
