//! The backgammon evaluator: a neural network trained here by self-play (TD(λ), as Tesauro's
//! TD-Gammon; the trainer is `train.rs`).
//!
//! The network sees a position from the side that has just moved (`pos.me`; the opponent is on
//! roll), encoded as TD-Gammon encodes a board ([`encode`]), and estimates five probabilities for
//! that side: win, win a gammon or better, win a backgammon, lose a gammon or worse, lose a
//! backgammon (the outputs GNU Backgammon's nets have). One hidden layer of sigmoid units;
//! sigmoid outputs. [`Outputs::equity`] turns them into cubeless points per game.
//!
//! The weights ship as `weights.bin` beside this file (format in [`Net::from_bytes`]), with
//! their provenance in `docs/bots.md`; `examples/train_backgammon.rs` reproduces them.

use crate::rules::backgammon::board::{BAR, MoveGen, Play, Position};
use rand::Rng;

/// Inputs of the network: 98 per side (four per point, the bar, the checkers off), then three
/// overall features.
pub const INPUTS: usize = 199;
/// Outputs: win, win gammon, win backgammon, lose gammon, lose backgammon.
pub const OUTPUTS: usize = 5;

/// The magic number that starts a weights file.
const MAGIC: &[u8; 8] = b"LUDDOBG1";

/// Fills `x` with the network's inputs for `pos`, seen from `pos.me` (the side that just moved).
///
/// For each side, each of its points 1–24 has four units (TD-Gammon's): one checker or more,
/// two or more, three or more, and half of each checker beyond three; then half its checkers on
/// the bar and its share of checkers borne off. Then: whether the position is a race (no
/// contact), and each side's pip count / 100.
pub fn encode(pos: &Position, x: &mut [f32; INPUTS]) {
    for (side, base) in [(&pos.me, 0usize), (&pos.opp, 98)] {
        for (i, &n) in side[..24].iter().enumerate() {
            let at = base + 4 * i;
            x[at] = (n >= 1) as u8 as f32;
            x[at + 1] = (n >= 2) as u8 as f32;
            x[at + 2] = (n >= 3) as u8 as f32;
            x[at + 3] = if n > 3 { (n - 3) as f32 / 2.0 } else { 0.0 };
        }
        x[base + 96] = side[BAR] as f32 / 2.0;
        x[base + 97] = (15 - Position::on_board(side)) as f32 / 15.0;
    }
    x[196] = pos.is_race() as u8 as f32;
    x[197] = Position::pips(&pos.me) as f32 / 100.0;
    x[198] = Position::pips(&pos.opp) as f32 / 100.0;
}

/// The five probabilities, for the side that just moved.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Outputs(pub [f32; OUTPUTS]);

impl Outputs {
    /// The result of a finished game for the side that bore off its last checker (`pos.me`).
    pub fn won(pos: &Position) -> Self {
        let gammon = Position::on_board(&pos.opp) == 15;
        // The loser still has a checker on the bar or in the winner's home board.
        let backgammon = gammon && pos.opp[18..].iter().any(|&n| n > 0);
        Self([1.0, gammon as u8 as f32, backgammon as u8 as f32, 0.0, 0.0])
    }

    /// The same estimate seen from the other side.
    pub fn flipped(self) -> Self {
        let [w, wg, wb, lg, lb] = self.0;
        Self([1.0 - w, lg, lb, wg, wb])
    }

    /// Cubeless points per game for the side that just moved: +1 a win, +2 a gammon, +3 a
    /// backgammon, and as much lost on a loss. Inconsistent outputs are clamped first (a gammon
    /// no likelier than a win, a backgammon no likelier than a gammon).
    pub fn equity(&self) -> f32 {
        let [w, wg, wb, lg, lb] = self.0;
        let wg = wg.min(w);
        let wb = wb.min(wg);
        let lg = lg.min(1.0 - w);
        let lb = lb.min(lg);
        2.0 * w - 1.0 + wg - lg + wb - lb
    }
}

/// A network with one hidden layer.
#[derive(Debug, Clone, PartialEq)]
pub struct Net {
    pub(super) hidden: usize,
    /// Input → hidden weights, input-major (`w1[i * hidden + j]`), so a zero input costs nothing.
    pub(super) w1: Vec<f32>,
    pub(super) b1: Vec<f32>,
    /// Hidden → output weights, output-major (`w2[k * hidden + j]`).
    pub(super) w2: Vec<f32>,
    pub(super) b2: [f32; OUTPUTS],
}

/// Why a weights file was refused.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum WeightsError {
    #[error("not a weights file (bad magic number)")]
    Magic,
    #[error("the file has {found} inputs and {outputs} outputs; this build expects {INPUTS} and {OUTPUTS}", outputs = OUTPUTS)]
    Shape { found: usize },
    #[error("the file is {found} bytes long; its header says {expected}")]
    Length { found: usize, expected: usize },
    #[error("a weight is not a finite number")]
    NotFinite,
}

#[inline]
fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

impl Net {
    /// A new network with small random weights.
    pub fn random(hidden: usize, rng: &mut impl Rng) -> Self {
        let mut w = |n: usize| (0..n).map(|_| rng.random_range(-0.1f32..0.1)).collect::<Vec<_>>();
        Self { hidden, w1: w(INPUTS * hidden), b1: w(hidden), w2: w(OUTPUTS * hidden), b2: [0.0; OUTPUTS] }
    }

    /// Hidden units.
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// Reads a weights file: the magic `LUDDOBG1`, then inputs, hidden units and outputs as
    /// little-endian `u32`, then the weights as little-endian `f32`: input → hidden (input-major),
    /// hidden biases, hidden → output (output-major), output biases.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, WeightsError> {
        if bytes.len() < 20 || &bytes[..8] != MAGIC {
            return Err(WeightsError::Magic);
        }
        let word = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap()) as usize;
        let (inputs, hidden, outputs) = (word(8), word(12), word(16));
        if inputs != INPUTS || outputs != OUTPUTS {
            return Err(WeightsError::Shape { found: inputs });
        }
        let floats = hidden * (INPUTS + 1 + OUTPUTS) + OUTPUTS;
        let expected = 20 + 4 * floats;
        if bytes.len() != expected {
            return Err(WeightsError::Length { found: bytes.len(), expected });
        }
        let mut values = bytes[20..].chunks_exact(4).map(|c| f32::from_le_bytes(c.try_into().unwrap()));
        let mut take = |n: usize| values.by_ref().take(n).collect::<Vec<_>>();
        let (w1, b1, w2, b2) = (take(INPUTS * hidden), take(hidden), take(OUTPUTS * hidden), take(OUTPUTS));
        if [&w1, &b1, &w2, &b2].iter().any(|v| v.iter().any(|x| !x.is_finite())) {
            return Err(WeightsError::NotFinite);
        }
        Ok(Self { hidden, w1, b1, w2, b2: b2.try_into().unwrap() })
    }

    /// The weights file of this network (see [`Net::from_bytes`]).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        for n in [INPUTS, self.hidden, OUTPUTS] {
            out.extend_from_slice(&(n as u32).to_le_bytes());
        }
        for v in [&self.w1[..], &self.b1, &self.w2, &self.b2] {
            for x in v {
                out.extend_from_slice(&x.to_le_bytes());
            }
        }
        out
    }

    /// The hidden layer's activations for the inputs `x`.
    pub(super) fn hidden_layer(&self, x: &[f32; INPUTS], h: &mut [f32]) {
        let n = self.hidden;
        h.copy_from_slice(&self.b1);
        for (i, &xi) in x.iter().enumerate() {
            if xi != 0.0 {
                let row = &self.w1[i * n..(i + 1) * n];
                for (hj, wj) in h.iter_mut().zip(row) {
                    *hj += xi * wj;
                }
            }
        }
        for hj in h.iter_mut() {
            *hj = sigmoid(*hj);
        }
    }

    pub(super) fn output_layer(&self, h: &[f32]) -> Outputs {
        let n = self.hidden;
        let mut y = [0.0; OUTPUTS];
        for (k, yk) in y.iter_mut().enumerate() {
            let row = &self.w2[k * n..(k + 1) * n];
            *yk = sigmoid(self.b2[k] + row.iter().zip(h).map(|(w, h)| w * h).sum::<f32>());
        }
        Outputs(y)
    }

    /// The estimate for `pos.me`, the side that just moved; exact when it has borne off.
    pub fn evaluate(&self, pos: &Position) -> Outputs {
        if Position::on_board(&pos.me) == 0 {
            return Outputs::won(pos);
        }
        let mut x = [0.0; INPUTS];
        encode(pos, &mut x);
        let mut h = vec![0.0; self.hidden];
        self.hidden_layer(&x, &mut h);
        self.output_layer(&h)
    }
}

/// The position left by the play `net` rates best for the side on roll in `pos` (`pos` itself
/// when there is no legal play).
pub fn best_play(net: &Net, pos: &Position, dice: [u8; 2]) -> Position {
    crate::rules::backgammon::board::with_plays(pos, dice, |plays| {
        let mut best: Option<(f32, Position)> = None;
        for p in plays {
            let v = net.evaluate(&p.result).equity();
            if best.is_none_or(|(b, _)| v > b) {
                best = Some((v, p.result));
            }
        }
        best.map_or(*pos, |(_, p)| p)
    })
}

/// How far below the best play's 0-ply equity a play may be and still be searched deeper (GNU
/// Backgammon's default move filter: up to 8 plays within 0.16).
pub const SEARCH_WITHIN: f32 = 0.16;

/// The index of the play a 1-ply search prefers among `plays`: of the plays the network rates
/// best at 0 ply, up to `keep` within [`SEARCH_WITHIN`] of the best are each looked at from the
/// opponent's side over its 21 rolls, the opponent answering each with the play the network
/// rates best for it; the play whose average outcome is best wins. `None` when there are no
/// plays.
pub fn pick_1ply(net: &Net, plays: &[Play], keep: usize) -> Option<usize> {
    let mut ranked: Vec<(f32, usize)> =
        plays.iter().enumerate().map(|(i, p)| (net.evaluate(&p.result).equity(), i)).collect();
    // Best first; the engine's order among equals (a stable sort).
    ranked.sort_by(|a, b| b.0.total_cmp(&a.0));
    if ranked.len() <= 1 {
        return ranked.first().map(|&(_, i)| i);
    }
    let mut generator = MoveGen::new();
    let mut best: Option<(f32, usize)> = None;
    let top = ranked[0].0;
    for &(_, i) in ranked.iter().take(keep.max(1)).take_while(|&&(v, _)| v >= top - SEARCH_WITHIN) {
        let result = &plays[i].result;
        let value = if Position::on_board(&result.me) == 0 {
            net.evaluate(result).equity()
        } else {
            let opponent = result.swapped();
            let mut total = 0.0;
            for d1 in 1..=6u8 {
                for d2 in d1..=6u8 {
                    let weight = if d1 == d2 { 1.0 } else { 2.0 };
                    let replies = generator.generate(&opponent, [d1, d2]);
                    // The opponent's best reply, as it rates it; its equity is ours negated.
                    let reply = replies
                        .iter()
                        .map(|r| net.evaluate(&r.result).equity())
                        .fold(None, |b: Option<f32>, v| Some(b.map_or(v, |b| b.max(v))))
                        .unwrap_or_else(|| net.evaluate(&opponent).equity());
                    total -= weight * reply;
                }
            }
            total / 36.0
        };
        if best.is_none_or(|(b, _)| value > b) {
            best = Some((value, i));
        }
    }
    best.map(|(_, i)| i)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand::rngs::StdRng;

    #[test]
    fn a_weights_file_reads_back_as_the_same_network_and_bad_files_are_refused() {
        let net = Net::random(8, &mut StdRng::seed_from_u64(1));
        let bytes = net.to_bytes();
        assert_eq!(Net::from_bytes(&bytes), Ok(net));
        assert_eq!(Net::from_bytes(b"not weights at all"), Err(WeightsError::Magic));
        assert!(matches!(Net::from_bytes(&bytes[..bytes.len() - 4]), Err(WeightsError::Length { .. })));
        let mut nan = bytes.clone();
        let at = nan.len() - 4;
        nan[at..].copy_from_slice(&f32::NAN.to_le_bytes());
        assert_eq!(Net::from_bytes(&nan), Err(WeightsError::NotFinite));
    }

    #[test]
    fn the_result_of_a_game_counts_gammons_and_backgammons() {
        let mut pos = Position { me: [0; 25], opp: [0; 25] };
        pos.opp[0] = 15;
        assert_eq!(Outputs::won(&pos).0, [1.0, 1.0, 0.0, 0.0, 0.0]);
        pos.opp[0] = 14;
        pos.opp[BAR] = 1;
        assert_eq!(Outputs::won(&pos).0, [1.0, 1.0, 1.0, 0.0, 0.0]);
        assert_eq!(Outputs::won(&pos).equity(), 3.0);
        pos.opp[0] = 1;
        pos.opp[BAR] = 0;
        assert_eq!(Outputs::won(&pos).equity(), 1.0);
        assert_eq!(Outputs::won(&pos).flipped().equity(), -1.0);
    }
}
