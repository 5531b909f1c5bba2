//! Best-of-N timing of legal-play generation over positions from random games (a steadier
//! figure than criterion's mean on a busy machine). `cargo run --release --example movegen_speed`
use luddo::rules::Engine;
use luddo::rules::backgammon::board::{MoveGen, Position};
use luddo::rules::backgammon::{Backgammon, BackgammonOptions, Phase};
use luddo::rules::dice::RngDice;
use rand::{Rng, SeedableRng, rngs::StdRng};
use std::time::Instant;

fn main() {
    let mut rng = StdRng::seed_from_u64(1);
    let mut dice = RngDice(StdRng::seed_from_u64(2));
    let mut positions: Vec<(Position, [u8; 2])> = Vec::new();
    let o = BackgammonOptions { cube: false, ..Default::default() };
    while positions.len() < 10_000 {
        let (mut g, _) = Backgammon::new(o.clone(), 2, &mut dice).unwrap();
        while let Some(seat) = g.to_act() {
            if let Phase::ToPlay { dice } = g.phase() {
                positions.push((g.position(), dice));
            }
            let legal = g.legal_actions(seat);
            let a = legal[rng.random_range(0..legal.len())].clone();
            g.apply(seat, &a, &mut dice).unwrap();
        }
    }
    positions.truncate(10_000);
    let mut generator = MoveGen::new();
    let mut best = f64::MAX;
    let mut total = 0;
    let runs: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(30);
    for _ in 0..runs {
        let t = Instant::now();
        for (p, d) in &positions {
            total += generator.generate(std::hint::black_box(p), *d).len();
        }
        best = best.min(t.elapsed().as_secs_f64());
    }
    println!("{} plays; best {:.2} ms per 10k => {:.0} positions/s", total / 30, best * 1e3, 1e4 / best);
}
