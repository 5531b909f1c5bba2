//! Fits the backgammon network to positions labelled by GNU Backgammon (`scripts/gnubg_label.py`)
//! and writes its weights file.
//!
//! `cargo run --release --example backgammon_fit -- --data a.tsv,b.tsv --epochs 6 --seed 1`
//!
//! Options: `--from FILE` the weights to start from (default: the shipped network), `--hidden N`
//! widen it to N hidden units first (the new units start with no effect on the outputs),
//! `--rate 0.02` the step size, falling linearly to `--rate-end` (default a tenth of it) over the
//! run, `--epochs 6` passes over the data (shuffled each time), `--holdout 0.05` the share of
//! the positions kept out of training to measure the fit on, `--eval-games 2000` cubeless games
//! against pubeval after each epoch (0: none), `--out src/bots/backgammon/weights.bin`.
//! Single-threaded and seeded: the same command on the same data gives the same weights.

use luddo::bots::backgammon::WEIGHTS;
use luddo::bots::backgammon::duel::{Pubeval, series};
use luddo::bots::backgammon::net::Net;
use luddo::bots::backgammon::train::{Fitter, Labelled, equity_rmse, read_labels, widen};
use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let arg = |name: &str| args.iter().position(|a| a == name).and_then(|i| args.get(i + 1)).cloned();
    let num = |name: &str, default: f64| arg(name).map_or(default, |v| v.parse().expect(name));
    let data = arg("--data").expect("--data FILE[,FILE...]: labels written by scripts/gnubg_label.py");
    let seed = num("--seed", 1.0) as u64;
    let epochs = num("--epochs", 6.0) as usize;
    let rate = num("--rate", 0.02) as f32;
    let rate_end = num("--rate-end", rate as f64 / 10.0) as f32;
    let holdout = num("--holdout", 0.05);
    let eval_games = num("--eval-games", 2_000.0) as u32;
    let out = arg("--out").unwrap_or_else(|| "src/bots/backgammon/weights.bin".into());

    let mut rng = StdRng::seed_from_u64(seed);
    let start = match arg("--from") {
        Some(path) => Net::from_bytes(&std::fs::read(&path).expect("read --from")).expect("a weights file"),
        None => Net::from_bytes(WEIGHTS).expect("the shipped weights"),
    };
    let hidden = num("--hidden", start.hidden() as f64) as usize;
    let net = widen(&start, hidden, &mut rng);

    let mut samples: Vec<Labelled> = Vec::new();
    for path in data.split(',') {
        let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("read {path}: {e}"));
        samples.extend(read_labels(&text).unwrap_or_else(|e| panic!("{path}: {e}")));
    }
    samples.shuffle(&mut rng);
    let held = ((samples.len() as f64 * holdout) as usize).min(samples.len());
    let (test, train) = samples.split_at(held);
    let mut train = train.to_vec();
    println!(
        "fitting: {} positions ({} held out), {hidden} hidden units, {epochs} epochs, rate {rate} → {rate_end}, seed {seed}",
        train.len(),
        test.len()
    );
    println!("before: equity rmse {:.4} on the held-out positions", equity_rmse(&net, test));

    let mut fitter = Fitter::new(net);
    let clock = Instant::now();
    let steps = (epochs * train.len()).max(1);
    for epoch in 1..=epochs {
        train.shuffle(&mut rng);
        let mut sq = 0.0f64;
        for (i, s) in train.iter().enumerate() {
            let done = (epoch - 1) * train.len() + i;
            let r = rate + (rate_end - rate) * done as f32 / steps as f32;
            sq += fitter.step(s, r) as f64;
        }
        let mut line = format!(
            "epoch {epoch} ({:.0} s): equity rmse {:.4} training, {:.4} held out",
            clock.elapsed().as_secs_f64(),
            (sq / train.len().max(1) as f64).sqrt(),
            equity_rmse(&fitter.net, test)
        );
        if eval_games > 0 {
            let s = series(&mut &fitter.net, &mut Pubeval, eval_games, &mut StdRng::seed_from_u64(seed ^ 77));
            line += &format!(
                "; {:.1}% ± {:.1}% of {} games against pubeval",
                100.0 * s.share(),
                100.0 * s.margin(),
                s.games
            );
        }
        println!("{line}");
        std::fs::write(&out, fitter.net.to_bytes()).expect("write the weights");
    }
    println!("weights written to {out}");
}
