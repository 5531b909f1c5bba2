//! TD(λ) self-play training of the backgammon network (`net.rs`): what made `weights.bin`
//! (`examples/train_backgammon.rs` runs it; docs/bots.md has the provenance).

use super::{
    duel::{opening_roll, roll},
    net::{INPUTS, Net, OUTPUTS, Outputs, best_play, encode},
};
use crate::rules::backgammon::board::Position;
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

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand::rngs::StdRng;

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
