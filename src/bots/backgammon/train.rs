//! Training of the backgammon network (`net.rs`): TD(λ) self-play ([`Trainer`],
//! `examples/train_backgammon.rs`), which made the first weights, and supervised fitting to
//! positions labelled by GNU Backgammon ([`Fitter`], `examples/backgammon_fit.rs`, the data from
//! `scripts/gnubg_label.py`), which refines them. docs/bots.md has the provenance of `weights.bin`.

use super::{
    duel::{opening_roll, roll},
    net::{INPUTS, Net, OUTPUTS, Outputs, best_play, encode},
};
use crate::rules::backgammon::board::Position;
use crate::rules::backgammon::ids::parse_position_id;
use rand::Rng;

/// TD(λ) self-play training of a [`Net`].
///
/// Each game is a chain of positions, each seen from the side that just moved; the target of a
/// position is the next one's estimate seen from the other side ([`Outputs::flipped`]), and the
/// last one's target is the result. The eligibility traces carry the gradient of each output;
/// since consecutive positions belong to alternate sides, the traces are turned round at each
/// step too (win ↔ loss: the win trace changes sign, the gammon traces swap).
pub struct Trainer {
    pub net: Net,
    /// Learning rate.
    pub alpha: f32,
    /// Trace decay.
    pub lambda: f32,
    /// One trace per output, each shaped as all the weights (w1, b1, w2, b2 concatenated).
    traces: [Vec<f32>; OUTPUTS],
    x: Box<[f32; INPUTS]>,
    h: Vec<f32>,
}

impl Trainer {
    pub fn new(net: Net, alpha: f32, lambda: f32) -> Self {
        let size = net.w1.len() + net.b1.len() + net.w2.len() + OUTPUTS;
        let h = vec![0.0; net.hidden];
        Self {
            net,
            alpha,
            lambda,
            traces: std::array::from_fn(|_| vec![0.0; size]),
            x: Box::new([0.0; INPUTS]),
            h,
        }
    }

    /// Evaluates `pos` (not finished) keeping the inputs and hidden layer for [`Trainer::trace`].
    fn forward(&mut self, pos: &Position) -> Outputs {
        encode(pos, &mut self.x);
        let mut h = std::mem::take(&mut self.h);
        self.net.hidden_layer(&self.x, &mut h);
        let y = self.net.output_layer(&h);
        self.h = h;
        y
    }

    /// Turns the traces round for the other side, decays them by λ, and adds the gradient of
    /// each output at the last [`Trainer::forward`] (whose result is `y`).
    fn trace(&mut self, y: &Outputs) {
        self.traces.swap(1, 3);
        self.traces.swap(2, 4);
        let (n, lambda) = (self.net.hidden, self.lambda);
        // Where the hidden biases and the output weights start in a trace (w1 comes first).
        let (b1_at, w2_at) = (INPUTS * n, INPUTS * n + n);
        for (k, e) in self.traces.iter_mut().enumerate() {
            let decay = if k == 0 { -lambda } else { lambda };
            e.iter_mut().for_each(|v| *v *= decay);
            let dy = y.0[k] * (1.0 - y.0[k]);
            let w2 = &self.net.w2[k * n..(k + 1) * n];
            // Output layer.
            for j in 0..n {
                e[w2_at + k * n + j] += dy * self.h[j];
            }
            e[w2_at + OUTPUTS * n + k] += dy;
            // Hidden layer: dy * w2[k][j] * h'(j) * x[i].
            for j in 0..n {
                e[b1_at + j] += dy * w2[j] * self.h[j] * (1.0 - self.h[j]);
            }
            for (i, &xi) in self.x.iter().enumerate() {
                if xi != 0.0 {
                    let row = &mut e[i * n..(i + 1) * n];
                    for j in 0..n {
                        row[j] += dy * w2[j] * self.h[j] * (1.0 - self.h[j]) * xi;
                    }
                }
            }
        }
    }

    /// Moves the weights by α · δ_k · trace_k for each output's error δ_k.
    fn learn(&mut self, delta: [f32; OUTPUTS]) {
        let n = self.net.hidden;
        let (w1_len, b1_len, w2_len) = (INPUTS * n, n, OUTPUTS * n);
        for (k, e) in self.traces.iter().enumerate() {
            let step = self.alpha * delta[k];
            if step == 0.0 {
                continue;
            }
            let (e_w1, rest) = e.split_at(w1_len);
            let (e_b1, rest) = rest.split_at(b1_len);
            let (e_w2, e_b2) = rest.split_at(w2_len);
            for (w, e) in self.net.w1.iter_mut().zip(e_w1) {
                *w += step * e;
            }
            for (w, e) in self.net.b1.iter_mut().zip(e_b1) {
                *w += step * e;
            }
            for (w, e) in self.net.w2.iter_mut().zip(e_w2) {
                *w += step * e;
            }
            for (w, e) in self.net.b2.iter_mut().zip(e_b2) {
                *w += step * e;
            }
        }
    }

    /// Plays one game against itself, each side choosing the play the network rates best, and
    /// learns from every position. Returns the number of plays.
    pub fn play_game(&mut self, rng: &mut impl Rng) -> u32 {
        self.traces.iter_mut().for_each(|e| e.fill(0.0));
        let mut pos = Position::start();
        let mut dice = opening_roll(rng);
        // The estimate of the last position, seen from the side that made it.
        let mut last: Option<Outputs> = None;
        let mut plies = 0;
        loop {
            let after = best_play(&self.net, &pos, dice);
            plies += 1;
            if Position::on_board(&after.me) == 0 {
                let z = Outputs::won(&after);
                if let Some(v) = last {
                    self.learn(delta(z.flipped(), v));
                }
                return plies;
            }
            let mut y = self.forward(&after);
            if let Some(v) = last {
                self.learn(delta(y.flipped(), v));
                // The weights moved: this position's estimate and gradient with the new ones.
                y = self.forward(&after);
            }
            self.trace(&y);
            last = Some(y);
            pos = after.swapped();
            dice = roll(rng);
        }
    }
}

fn delta(target: Outputs, estimate: Outputs) -> [f32; OUTPUTS] {
    std::array::from_fn(|k| target.0[k] - estimate.0[k])
}

/// A position and the probabilities the network should give it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Labelled {
    /// Seen from the side that has just moved (as [`Net::evaluate`] sees positions).
    pub pos: Position,
    /// The five probabilities for that side.
    pub target: Outputs,
}

/// Reads the lines `scripts/gnubg_label.py` writes: `<position id> <win> <win gammon> <win
/// backgammon> <lose gammon> <lose backgammon>`, the Position ID seen from the side on roll and
/// the probabilities for that side; each becomes the position seen from the side that has just
/// moved and its probabilities turned round. Blank lines are skipped; a bad line is an error
/// naming its number.
pub fn read_labels(text: &str) -> Result<Vec<Labelled>, String> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let fields: Vec<&str> = line.split_whitespace().collect();
        if fields.is_empty() {
            continue;
        }
        let bad = |why: String| format!("line {}: {why}", n + 1);
        if fields.len() != 1 + OUTPUTS {
            return Err(bad(format!("expected a Position ID and {OUTPUTS} probabilities, got {line:?}")));
        }
        let on_roll = parse_position_id(fields[0]).map_err(|e| bad(e.to_string()))?;
        let mut p = [0.0f32; OUTPUTS];
        for (k, f) in fields[1..].iter().enumerate() {
            p[k] = f
                .parse::<f32>()
                .ok()
                .filter(|v| (0.0..=1.0).contains(v))
                .ok_or_else(|| bad(format!("{f:?} is not a probability")))?;
        }
        out.push(Labelled { pos: on_roll.swapped(), target: Outputs(p).flipped() });
    }
    Ok(out)
}

/// The network `net` with `hidden` hidden units (at least its own): its units unchanged, and the
/// new ones with small random input weights and no say in the outputs yet, so the wider network
/// starts out evaluating exactly as `net` does.
pub fn widen(net: &Net, hidden: usize, rng: &mut impl Rng) -> Net {
    let (old, n) = (net.hidden, hidden.max(net.hidden));
    let mut wider = Net::random(n, rng);
    for i in 0..INPUTS {
        wider.w1[i * n..i * n + old].copy_from_slice(&net.w1[i * old..(i + 1) * old]);
    }
    wider.b1[..old].copy_from_slice(&net.b1);
    for k in 0..OUTPUTS {
        wider.w2[k * n..k * n + old].copy_from_slice(&net.w2[k * old..(k + 1) * old]);
        wider.w2[k * n + old..(k + 1) * n].fill(0.0);
    }
    wider.b2 = net.b2;
    wider
}

/// Supervised fitting of a [`Net`] to [`Labelled`] positions: stochastic gradient descent on
/// each output's cross-entropy (the outputs are sigmoids, so the error at an output's input is
/// simply estimate − target).
pub struct Fitter {
    pub net: Net,
    x: Box<[f32; INPUTS]>,
    h: Vec<f32>,
    /// The error at each hidden unit's input.
    gh: Vec<f32>,
}

impl Fitter {
    pub fn new(net: Net) -> Self {
        let n = net.hidden;
        Self { net, x: Box::new([0.0; INPUTS]), h: vec![0.0; n], gh: vec![0.0; n] }
    }

    /// One gradient step of size `rate` towards `sample`'s target. Returns the squared error of
    /// the cubeless equity before the step.
    pub fn step(&mut self, sample: &Labelled, rate: f32) -> f32 {
        encode(&sample.pos, &mut self.x);
        let mut h = std::mem::take(&mut self.h);
        self.net.hidden_layer(&self.x, &mut h);
        let y = self.net.output_layer(&h);
        let n = self.net.hidden;
        let g: [f32; OUTPUTS] = std::array::from_fn(|k| y.0[k] - sample.target.0[k]);
        self.gh.fill(0.0);
        for (k, gk) in g.iter().enumerate() {
            let row = &mut self.net.w2[k * n..(k + 1) * n];
            for ((w, gh), hj) in row.iter_mut().zip(self.gh.iter_mut()).zip(&h) {
                *gh += gk * *w;
                *w -= rate * gk * hj;
            }
            self.net.b2[k] -= rate * gk;
        }
        for (gh, hj) in self.gh.iter_mut().zip(&h) {
            *gh *= hj * (1.0 - hj);
        }
        for (b, gh) in self.net.b1.iter_mut().zip(&self.gh) {
            *b -= rate * gh;
        }
        for (i, &xi) in self.x.iter().enumerate() {
            if xi != 0.0 {
                let row = &mut self.net.w1[i * n..(i + 1) * n];
                for (w, gh) in row.iter_mut().zip(&self.gh) {
                    *w -= rate * xi * gh;
                }
            }
        }
        self.h = h;
        let e = y.equity() - sample.target.equity();
        e * e
    }
}

/// The root mean square error of `net`'s cubeless equity over `samples`.
pub fn equity_rmse(net: &Net, samples: &[Labelled]) -> f32 {
    let sum: f64 = samples
        .iter()
        .map(|s| {
            let e = (net.evaluate(&s.pos).equity() - s.target.equity()) as f64;
            e * e
        })
        .sum();
    (sum / samples.len().max(1) as f64).sqrt() as f32
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand::rngs::StdRng;

    #[test]
    fn labels_read_as_positions_of_the_side_that_moved_and_bad_lines_are_refused() {
        // The starting position with the side on roll winning 60%, gammons 10% / 5%.
        let text = "4HPwATDgc/ABMA 0.6 0.1 0.01 0.05 0.002\n\n";
        let labels = read_labels(text).unwrap();
        assert_eq!(labels.len(), 1);
        assert_eq!(labels[0].pos, Position::start().swapped());
        for (a, b) in labels[0].target.0.iter().zip([0.4, 0.05, 0.002, 0.1, 0.01]) {
            assert!((a - b).abs() < 1e-6, "{:?}", labels[0].target);
        }
        assert!(read_labels("4HPwATDgc/ABMA 0.6 0.1 0.01 0.05").unwrap_err().starts_with("line 1:"));
        assert!(read_labels("x\n4HPwATDgc/ABMA 0.6 0.1 0.01 0.05 0.002").unwrap_err().starts_with("line 1:"));
        assert!(read_labels("4HPwATDgc/ABMA 0.6 0.1 0.01 0.05 1.5").is_err());
        assert!(read_labels("4HPwATDgc/ABMX 0.6 0.1 0.01 0.05 0.5").is_err());
    }

    #[test]
    fn a_widened_network_evaluates_as_before_and_fitting_moves_it_to_its_targets() {
        let mut rng = StdRng::seed_from_u64(5);
        let net = Net::random(6, &mut rng);
        let wide = widen(&net, 10, &mut rng);
        assert_eq!(wide.hidden(), 10);
        let mut pos = Position::start();
        pos.me[5] -= 1;
        pos.me[4] += 1;
        for (a, b) in net.evaluate(&pos).0.iter().zip(wide.evaluate(&pos).0) {
            assert!((a - b).abs() < 1e-6);
        }
        let samples = [
            Labelled { pos, target: Outputs([0.7, 0.2, 0.01, 0.05, 0.0]) },
            Labelled { pos: Position::start().swapped(), target: Outputs([0.45, 0.12, 0.005, 0.14, 0.006]) },
        ];
        let before = equity_rmse(&wide, &samples);
        let mut fitter = Fitter::new(wide);
        for _ in 0..3000 {
            for s in &samples {
                fitter.step(s, 0.5);
            }
        }
        let after = equity_rmse(&fitter.net, &samples);
        assert!(after < 0.02 && after < before / 5.0, "{before} -> {after}");
    }

    #[test]
    fn the_traces_hold_each_outputs_gradient() {
        // With λ = 0 the trace of output k is dy_k/dw: compare with finite differences.
        let mut t = Trainer::new(Net::random(6, &mut StdRng::seed_from_u64(2)), 0.1, 0.0);
        let mut pos = Position::start();
        pos.me[5] -= 1;
        pos.me[4] += 1;
        let y = t.forward(&pos);
        t.trace(&y);
        let n = t.net.hidden;
        for k in 0..OUTPUTS {
            // A weight from an input that is on (point 6 has four checkers: input 4*5), a hidden
            // bias, an output weight.
            for (at, get) in [(4 * 5 * n + 2, 0usize), (INPUTS * n + 3, 1), (INPUTS * n + n + k * n + 1, 2)] {
                let eps = 1e-2f32;
                let bump = |net: &mut Net, d: f32| match get {
                    0 => net.w1[at] += d,
                    1 => net.b1[at - INPUTS * n] += d,
                    _ => net.w2[at - INPUTS * n - n] += d,
                };
                let mut plus = t.net.clone();
                bump(&mut plus, eps);
                let mut minus = t.net.clone();
                bump(&mut minus, -eps);
                let numeric = (plus.evaluate(&pos).0[k] - minus.evaluate(&pos).0[k]) / (2.0 * eps);
                let analytic = t.traces[k][at];
                assert!(
                    (numeric - analytic).abs() < 1e-3,
                    "output {k}, weight {at}: {numeric} vs {analytic}"
                );
            }
        }
    }
}
