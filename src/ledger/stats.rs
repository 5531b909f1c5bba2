//! Chi-square goodness of fit for dice, with p-values from the regularized upper incomplete
//! gamma function.
//!
//! Our own small implementation rather than a statistics crate: two degrees of freedom are ever
//! asked (5 for the faces, 1 for sixes or doubles), the functions are a page of textbook
//! numerics (Numerical Recipes §6.1–6.2: Lanczos's log-gamma, the series below `a + 1`, Lentz's
//! continued fraction above), and the tests check them against the closed forms those two
//! cases have.

/// ln Γ(x) for x > 0 (Lanczos, g = 7, nine coefficients: about 15 significant digits).
pub fn ln_gamma(x: f64) -> f64 {
    const G: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    if x < 0.5 {
        // Reflection: Γ(x)Γ(1 − x) = π / sin(πx).
        return (std::f64::consts::PI / (std::f64::consts::PI * x).sin()).ln() - ln_gamma(1.0 - x);
    }
    let x = x - 1.0;
    let t = x + 7.5;
    let sum = G[1..].iter().enumerate().fold(G[0], |s, (i, g)| s + g / (x + i as f64 + 1.0));
    0.5 * (2.0 * std::f64::consts::PI).ln() + (x + 0.5) * t.ln() - t + sum.ln()
}

/// Q(a, x) = Γ(a, x) / Γ(a), the regularized upper incomplete gamma function (a > 0, x ≥ 0).
pub fn gamma_q(a: f64, x: f64) -> f64 {
    if x <= 0.0 {
        return 1.0;
    }
    let front = (-x + a * x.ln() - ln_gamma(a)).exp();
    if x < a + 1.0 {
        // P(a, x) by its series Σ xⁿ / (a (a+1) … (a+n)).
        let (mut term, mut sum, mut ap) = (1.0 / a, 1.0 / a, a);
        for _ in 0..1000 {
            ap += 1.0;
            term *= x / ap;
            sum += term;
            if term.abs() < sum.abs() * 1e-16 {
                break;
            }
        }
        (1.0 - sum * front).clamp(0.0, 1.0)
    } else {
        // Q(a, x) by its continued fraction (modified Lentz).
        let tiny = 1e-300;
        let mut b = x + 1.0 - a;
        let mut c = 1.0 / tiny;
        let mut d = 1.0 / b;
        let mut h = d;
        for i in 1..1000 {
            let an = -(i as f64) * (i as f64 - a);
            b += 2.0;
            d = an * d + b;
            if d.abs() < tiny {
                d = tiny;
            }
            c = b + an / c;
            if c.abs() < tiny {
                c = tiny;
            }
            d = 1.0 / d;
            let delta = d * c;
            h *= delta;
            if (delta - 1.0).abs() < 1e-16 {
                break;
            }
        }
        (front * h).clamp(0.0, 1.0)
    }
}

/// The probability that a chi-square variable with `dof` degrees of freedom is at least `x`:
/// the p-value of the statistic `x`.
pub fn chi_square_p(x: f64, dof: u32) -> f64 {
    gamma_q(dof as f64 / 2.0, x / 2.0)
}

/// A statistic and its p-value (`None` with nothing counted).
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, schemars::JsonSchema)]
pub struct ChiSquare {
    /// Pearson's statistic Σ (observed − expected)² / expected.
    pub chi_square: f64,
    pub dof: u32,
    /// How likely fair dice give a statistic this large or larger.
    pub p_value: f64,
}

/// Pearson's test of `observed` counts against `probabilities` (summing to 1): `None` when
/// nothing was counted.
pub fn pearson(observed: &[u64], probabilities: &[f64]) -> Option<ChiSquare> {
    let n: u64 = observed.iter().sum();
    if n == 0 {
        return None;
    }
    let chi_square = observed
        .iter()
        .zip(probabilities)
        .map(|(&o, &p)| {
            let e = n as f64 * p;
            (o as f64 - e).powi(2) / e
        })
        .sum::<f64>();
    let dof = observed.len() as u32 - 1;
    Some(ChiSquare { chi_square, dof, p_value: chi_square_p(chi_square, dof) })
}

/// The faces 1–6 against a fair die: 5 degrees of freedom.
pub fn faces(counts: &[u64; 6]) -> Option<ChiSquare> {
    pearson(counts, &[1.0 / 6.0; 6])
}

/// `hits` of `n` (sixes among dice, doubles among two-dice throws) against 1/6: 1 degree of
/// freedom.
pub fn one_in_six(hits: u64, n: u64) -> Option<ChiSquare> {
    pearson(&[hits, n.saturating_sub(hits)], &[1.0 / 6.0, 5.0 / 6.0])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// erfc by its own continued fraction / series (independent of the gamma code above):
    /// Abramowitz–Stegun 7.1.26 is too coarse, so the series of erf below 3 and the asymptotic
    /// continued fraction above.
    fn erfc(x: f64) -> f64 {
        if x < 3.0 {
            // erf(x) = 2/√π Σ (−1)ⁿ x^(2n+1) / (n! (2n+1)).
            let mut sum = 0.0;
            let mut term = x;
            for n in 0..200 {
                sum += term / (2 * n + 1) as f64;
                term *= -x * x / (n + 1) as f64;
            }
            1.0 - 2.0 / std::f64::consts::PI.sqrt() * sum
        } else {
            // erfc(x) = e^(−x²)/√π · 1/(x + 1/2 /(x + 1/(x + 3/2 /(x + …)))).
            let mut f = x;
            for k in (1..100).rev() {
                f = x + (k as f64 / 2.0) / f;
            }
            (-x * x).exp() / std::f64::consts::PI.sqrt() / f
        }
    }

    #[test]
    fn p_values_match_the_closed_forms_for_one_and_five_degrees_of_freedom() {
        for x in [0.01, 0.1, 0.5, 1.0, 2.0, 3.84, 5.0, 7.0, 11.07, 15.0, 20.0, 30.0, 50.0] {
            let one = erfc((x / 2.0f64).sqrt());
            let five = one + (2.0 * x / std::f64::consts::PI).sqrt() * (-x / 2.0).exp() * (1.0 + x / 3.0);
            assert!((chi_square_p(x, 1) - one).abs() < 1e-10 * one.max(1e-5), "1 dof at {x}");
            assert!((chi_square_p(x, 5) - five).abs() < 1e-10 * five.max(1e-5), "5 dof at {x}");
        }
        // The textbook critical values at 5%.
        assert!((chi_square_p(3.841_458_820_694_124, 1) - 0.05).abs() < 1e-9);
        assert!((chi_square_p(11.070_497_693_516_35, 5) - 0.05).abs() < 1e-9);
    }

    #[test]
    fn ln_gamma_matches_factorials_and_the_half() {
        assert!((ln_gamma(0.5) - std::f64::consts::PI.sqrt().ln()).abs() < 1e-12);
        let mut fact = 1.0f64;
        for n in 1..20 {
            assert!((ln_gamma(n as f64) - fact.ln()).abs() < 1e-10, "Γ({n})");
            fact *= n as f64;
        }
    }

    #[test]
    fn statistics_are_counted_as_by_hand() {
        // 60 dice: 8, 12, 10, 9, 11, 10 → Σ (o − 10)² / 10 = (4 + 4 + 0 + 1 + 1 + 0) / 10.
        let s = faces(&[8, 12, 10, 9, 11, 10]).unwrap();
        assert!((s.chi_square - 1.0).abs() < 1e-12);
        assert_eq!(s.dof, 5);
        // 12 sixes of 36 dice: (12 − 6)²/6 + (24 − 30)²/30 = 6 + 1.2.
        let s = one_in_six(12, 36).unwrap();
        assert!((s.chi_square - 7.2).abs() < 1e-12);
        assert!(faces(&[0; 6]).is_none());
        assert!(one_in_six(0, 0).is_none());
    }
}
