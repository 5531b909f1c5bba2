//! Trains the backgammon network by self-play (TD(λ)) and writes its weights file.
//!
//! `cargo run --release --example train_backgammon -- --games 200000 --seed 1`
//!
//! Options: `--hidden 80` hidden units, `--alpha 0.1` learning rate (falling linearly to
//! `--alpha-end`, default a tenth of it, over the run), `--lambda 0.7` trace decay,
//! `--eval-every 10000` games between evaluations against pubeval of `--eval-games 2000`
//! cubeless games each, `--out src/bots/backgammon/weights.bin`. Single-threaded and seeded:
//! the same command on the same build gives the same weights.

use luddo::bots::backgammon::duel::{Pubeval, series};
use luddo::bots::backgammon::{net::Net, train::Trainer};
use rand::SeedableRng;
use rand::rngs::StdRng;
use std::io::Write;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let arg = |name: &str| args.iter().position(|a| a == name).and_then(|i| args.get(i + 1)).cloned();
    let num = |name: &str, default: f64| arg(name).map_or(default, |v| v.parse().expect(name));
    let games = num("--games", 200_000.0) as u64;
    let seed = num("--seed", 1.0) as u64;
    let hidden = num("--hidden", 80.0) as usize;
    let alpha = num("--alpha", 0.1) as f32;
    let alpha_end = num("--alpha-end", alpha as f64 / 10.0) as f32;
    let lambda = num("--lambda", 0.7) as f32;
    let eval_every = num("--eval-every", 10_000.0) as u64;
    let eval_games = num("--eval-games", 2_000.0) as u32;
    let out = arg("--out").unwrap_or_else(|| "src/bots/backgammon/weights.bin".into());

    let mut rng = StdRng::seed_from_u64(seed);
    let mut trainer = Trainer::new(Net::random(hidden, &mut rng), alpha, lambda);
    println!(
        "training: {games} games, seed {seed}, {hidden} hidden units, alpha {alpha} → {alpha_end}, lambda {lambda}"
    );
    let start = Instant::now();
    let mut plies = 0u64;
    for game in 1..=games {
        trainer.alpha = alpha + (alpha_end - alpha) * (game - 1) as f32 / games as f32;
        plies += trainer.play_game(&mut rng) as u64;
        if game % 500 == 0 || game == games {
            let secs = start.elapsed().as_secs_f64();
            let rate = game as f64 / secs;
            eprint!(
                "\r[{:<30}] {game}/{games} games · {rate:.0} games/s · {:.0} plies/game · eta {:.0} s   ",
                "#".repeat((30 * game / games) as usize),
                plies as f64 / game as f64,
                (games - game) as f64 / rate
            );
        }
        if game % eval_every == 0 || game == games {
            // Its own dice, so evaluating does not change the training run.
            let mut eval_rng = StdRng::seed_from_u64(seed ^ game);
            let s = series(&mut &trainer.net, &mut Pubeval, eval_games, &mut eval_rng);
            eprintln!();
            println!(
                "after {game} games ({:.0} s): {:.1}% ± {:.1}% of {} cubeless games against pubeval, {:+.3} points per game",
                start.elapsed().as_secs_f64(),
                100.0 * s.share(),
                100.0 * s.margin(),
                s.games,
                s.points as f64 / s.games as f64
            );
            std::fs::write(&out, trainer.net.to_bytes()).expect("write the weights");
            std::io::stdout().flush().ok();
        }
    }
    println!("weights written to {out}");
}
