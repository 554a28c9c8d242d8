//! Renyi DP (Mironov 2017) of the Poisson-subsampled Gaussian mechanism, exact at integer
//! orders (Abadi et al. 2016; Mironov, Talwar & Zhang 2019, Sec. 3.2) and at fractional orders
//! (Mironov, Talwar & Zhang 2019, Sec. 3.3), with the classic and the improved conversions to
//! (eps, delta)-DP, and the paper-reproduction preset of DP-FTS-DE.

use serde::{Deserialize, Serialize};

use crate::error::PrivacyError;
use crate::params::{Delta, NoiseMultiplier, SamplingRate};
use validation::{InputError, Interval, at_least_one, in_range, non_empty};

/// How an RDP curve is turned into (eps, delta)-DP.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RdpConversion {
    /// `eps = min_alpha RDP(alpha) + ln(1/delta)/(alpha - 1)` (Mironov 2017, Prop. 3): the
    /// moments accountant's conversion, used by DP-FTS-DE.
    #[default]
    Classic,
    /// `eps = min_alpha RDP(alpha) + ln((alpha-1)/alpha) - (ln delta + ln alpha)/(alpha - 1)`
    /// (Balle et al. 2020, Thm 21; Asoodeh et al. 2021; Canonne, Kamath & Steinke 2020, Prop. 12).
    Improved,
}

fn log_add(a: f64, b: f64) -> f64 {
    if a == f64::NEG_INFINITY {
        return b;
    }
    if b == f64::NEG_INFINITY {
        return a;
    }
    let (hi, lo) = if a > b { (a, b) } else { (b, a) };
    hi + (lo - hi).exp().ln_1p()
}

/// `ln(e^a - e^b)` for `a >= b` (`-inf` when equal).
fn log_sub(a: f64, b: f64) -> f64 {
    if b == f64::NEG_INFINITY {
        return a;
    }
    if a <= b {
        return f64::NEG_INFINITY;
    }
    a + (-(b - a).exp()).ln_1p()
}

/// `ln erfc(x)`, accurate for large positive `x` (asymptotic series where `erfc` underflows).
pub fn ln_erfc(x: f64) -> f64 {
    if x < 20.0 {
        statrs::function::erf::erfc(x).ln()
    } else {
        // erfc(x) = e^{-x^2} / (x sqrt(pi)) (1 - 1/(2x^2) + 3/(4x^4) - 15/(8x^6) + ...).
        let x2 = x * x;
        -x2 - x.ln() - 0.5 * std::f64::consts::PI.ln()
            + (1.0 - 0.5 / x2 + 0.75 / (x2 * x2) - 1.875 / (x2 * x2 * x2)).ln()
    }
}

/// `ln C(n, k)` for integers, as a sum of logarithms (exact to rounding).
fn ln_binomial(n: u64, k: u64) -> f64 {
    let k = k.min(n - k);
    (1..=k).map(|i| ((n - k + i) as f64 / i as f64).ln()).sum()
}

/// `ln A_alpha` at an integer order `alpha >= 2`:
/// `A_alpha = sum_{k=0}^{alpha} C(alpha,k) (1-q)^(alpha-k) q^k exp((k^2 - k) / (2 z^2))`
/// = `E_{x ~ N(0, z^2)} [((1-q) + q mu_1(x)/mu_0(x))^alpha]` with `mu_1 = N(1, z^2)`
/// (binomial expansion; `E_{mu_0}[(mu_1/mu_0)^k] = exp((k^2 - k)/(2 z^2))`). Log-sum-exp.
pub fn log_a_integer(q: f64, z: f64, alpha: u64) -> f64 {
    let lq = q.ln();
    let l1q = (-q).ln_1p();
    let mut acc = f64::NEG_INFINITY;
    for k in 0..=alpha {
        let term = ln_binomial(alpha, k)
            + if alpha - k > 0 {
                (alpha - k) as f64 * l1q
            } else {
                0.0
            }
            + if k > 0 { k as f64 * lq } else { 0.0 }
            + (k as f64 * k as f64 - k as f64) / (2.0 * z * z);
        if term.is_finite() || term == f64::INFINITY {
            acc = log_add(acc, term);
        }
    }
    acc
}

/// `ln A_alpha` at a fractional order `alpha > 1` (Mironov, Talwar & Zhang 2019, Sec. 3.3).
///
/// Split the integral at `z_0 = z^2 ln(1/q - 1) + 1/2`, where `q mu_1/mu_0 = 1 - q`. Below it the
/// binomial series in `q mu_1 / ((1-q) mu_0) < 1` converges; above it the series in the inverse
/// ratio does. Term by term:
/// `A = sum_i C(alpha,i) [ q^i (1-q)^(alpha-i) e^{(i^2-i)/(2z^2)} P(N(i,z^2) <= z_0)
///                   + q^(alpha-i) (1-q)^i e^{(j^2-j)/(2z^2)} P(N(j,z^2) > z_0) ]`, `j = alpha - i`,
/// with `P(N(i,z^2) <= z_0) = erfc((i - z_0)/(sqrt 2 z))/2` and `P(N(j,z^2) > z_0) =
/// erfc((z_0 - j)/(sqrt 2 z))/2`. Generalised binomial coefficients change sign, so the two
/// sums are accumulated with signs in log space; the series stops once `i > alpha` and both
/// terms are below `e^-40` in absolute value (negligible: `A_alpha >= 1`).
pub fn log_a_fractional(q: f64, z: f64, alpha: f64) -> f64 {
    let z0 = z * z * (1.0 / q - 1.0).ln() + 0.5;
    let (lq, l1q) = (q.ln(), (-q).ln_1p());
    let s2 = std::f64::consts::SQRT_2 * z;
    // Signed accumulators in log space: (log of positive part, log of negative part).
    let (mut pos0, mut neg0, mut pos1, mut neg1) = (
        f64::NEG_INFINITY,
        f64::NEG_INFINITY,
        f64::NEG_INFINITY,
        f64::NEG_INFINITY,
    );
    let mut log_coef = 0.0; // ln |C(alpha, 0)|
    let mut sign = 1.0;
    let mut i: u64 = 0;
    loop {
        let fi = i as f64;
        let j = alpha - fi;
        let log_t0 = log_coef + fi * lq + j * l1q;
        let log_t1 = log_coef + j * lq + fi * l1q;
        let log_e0 = 0.5f64.ln() + ln_erfc((fi - z0) / s2);
        let log_e1 = 0.5f64.ln() + ln_erfc((z0 - j) / s2);
        let log_s0 = log_t0 + (fi * fi - fi) / (2.0 * z * z) + log_e0;
        let log_s1 = log_t1 + (j * j - j) / (2.0 * z * z) + log_e1;
        if sign > 0.0 {
            pos0 = log_add(pos0, log_s0);
            pos1 = log_add(pos1, log_s1);
        } else {
            neg0 = log_add(neg0, log_s0);
            neg1 = log_add(neg1, log_s1);
        }
        if fi > alpha && log_s0.max(log_s1) < -40.0 {
            break;
        }
        if i > 100_000 {
            break;
        }
        // C(alpha, i+1) = C(alpha, i) (alpha - i) / (i + 1).
        let factor = (alpha - fi) / (fi + 1.0);
        if factor == 0.0 {
            break;
        }
        log_coef += factor.abs().ln();
        if factor < 0.0 {
            sign = -sign;
        }
        i += 1;
    }
    log_sub(log_add(pos0, pos1), log_add(neg0, neg1))
}

fn validate(q: f64, z: f64) -> Result<(f64, f64), PrivacyError> {
    Ok((SamplingRate::new(q)?.get(), NoiseMultiplier::new(z)?.get()))
}

fn validate_orders(orders: &[f64]) -> Result<(), PrivacyError> {
    non_empty("RDP orders", orders.len())?;
    for &a in orders {
        in_range("Renyi order", a, Interval::above(1.0))?;
    }
    Ok(())
}

/// The RDP of one step of the Poisson-subsampled Gaussian (sampling rate `q`, noise multiplier
/// `z`, add/remove neighbours) at each order: `ln A_alpha / (alpha - 1)`. Integer orders use
/// [`log_a_integer`], fractional ones [`log_a_fractional`]; `q = 1` is the Gaussian mechanism,
/// `alpha / (2 z^2)`. For the Gaussian mixture, `D_alpha(mixture || base)` dominates the
/// reverse direction (Mironov, Talwar & Zhang 2019, Sec. 3), so this is the RDP of the
/// mechanism.
pub fn subsampled_gaussian_rdp(q: f64, z: f64, orders: &[f64]) -> Result<Vec<f64>, PrivacyError> {
    let (q, z) = validate(q, z)?;
    validate_orders(orders)?;
    Ok(orders
        .iter()
        .map(|&a| {
            if q >= 1.0 {
                a / (2.0 * z * z)
            } else if a.fract() == 0.0 && a <= 1e6 {
                log_a_integer(q, z, a as u64) / (a - 1.0)
            } else {
                log_a_fractional(q, z, a) / (a - 1.0)
            }
        })
        .collect())
}

/// Convert an RDP curve to (eps, delta)-DP; returns `(eps, the order attaining it)`.
pub fn rdp_to_epsilon(
    orders: &[f64],
    rdp: &[f64],
    delta: f64,
    conversion: RdpConversion,
) -> Result<(f64, f64), PrivacyError> {
    validate_orders(orders)?;
    if orders.len() != rdp.len() {
        return Err(PrivacyError::Input(InputError::DimensionMismatch {
            context: "RDP values per order",
            expected: orders.len(),
            got: rdp.len(),
        }));
    }
    let d = Delta::positive(delta)?.get();
    let ld = d.ln();
    let mut best = (f64::INFINITY, orders[0]);
    for (&a, &r) in orders.iter().zip(rdp) {
        let e = match conversion {
            RdpConversion::Classic => r - ld / (a - 1.0),
            RdpConversion::Improved => r + ((a - 1.0) / a).ln() - (ld + a.ln()) / (a - 1.0),
        };
        if e < best.0 {
            best = (e, a);
        }
    }
    Ok((best.0.max(0.0), best.1))
}

/// The paper preset's orders: the integers 2..=33 (Abadi et al. 2016's moments accountant,
/// lambda = 1..32, alpha = lambda + 1; papers/README.md).
pub fn paper_orders() -> Vec<f64> {
    (2..=33).map(f64::from).collect()
}

/// The default order list of the `rdp` accountant: 1.1, 1.2, ..., 10.9 and the integers
/// 11..=63, 64, 128, 256, 512.
pub fn default_orders() -> Vec<f64> {
    let mut v: Vec<f64> = (11..110).map(|i| f64::from(i) / 10.0).collect();
    v.extend((11..=64).map(f64::from));
    v.extend([128.0, 256.0, 512.0]);
    v
}

/// The epsilon of `steps` rounds of the Poisson-subsampled Gaussian under an RDP accountant.
pub fn subsampled_gaussian_epsilon(
    q: f64,
    z: f64,
    steps: u64,
    delta: f64,
    orders: &[f64],
    conversion: RdpConversion,
) -> Result<(f64, f64), PrivacyError> {
    let steps = at_least_one("steps", steps)? as f64;
    let rdp: Vec<f64> = subsampled_gaussian_rdp(q, z, orders)?
        .into_iter()
        .map(|r| r * steps)
        .collect();
    rdp_to_epsilon(orders, &rdp, delta, conversion)
}

/// The DP-FTS-DE reproduction preset (papers/README.md): integer orders 2..=33, classic
/// conversion, `steps` = the number of aggregation rounds whose output is used.
pub fn paper_preset_epsilon(q: f64, z: f64, steps: u64, delta: f64) -> Result<f64, PrivacyError> {
    Ok(subsampled_gaussian_epsilon(q, z, steps, delta, &paper_orders(), RdpConversion::Classic)?.0)
}

/// A running RDP budget over a fixed order list (composition adds the curves).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RdpAccountant {
    orders: Vec<f64>,
    rdp: Vec<f64>,
}

impl RdpAccountant {
    /// An empty budget over `orders`.
    pub fn new(orders: Vec<f64>) -> Result<Self, PrivacyError> {
        validate_orders(&orders)?;
        let n = orders.len();
        Ok(Self {
            orders,
            rdp: vec![0.0; n],
        })
    }

    /// Compose `steps` rounds of the Poisson-subsampled Gaussian.
    pub fn compose_subsampled_gaussian(
        &mut self,
        q: f64,
        z: f64,
        steps: u64,
    ) -> Result<&mut Self, PrivacyError> {
        let steps = at_least_one("steps", steps)? as f64;
        let r = subsampled_gaussian_rdp(q, z, &self.orders)?;
        for (acc, x) in self.rdp.iter_mut().zip(r) {
            *acc += steps * x;
        }
        Ok(self)
    }

    /// The orders.
    pub fn orders(&self) -> &[f64] {
        &self.orders
    }

    /// The composed RDP values.
    pub fn rdp(&self) -> &[f64] {
        &self.rdp
    }

    /// `(eps, order)` at `delta`.
    pub fn epsilon(
        &self,
        delta: f64,
        conversion: RdpConversion,
    ) -> Result<(f64, f64), PrivacyError> {
        rdp_to_epsilon(&self.orders, &self.rdp, delta, conversion)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fractional_matches_integer_orders() {
        for &(q, z) in &[(0.15, 1.0), (0.25, 1.5), (0.5, 1.0), (0.01, 0.8)] {
            for a in [2u64, 3, 5, 8, 16, 32] {
                let i = log_a_integer(q, z, a);
                let f = log_a_fractional(q, z, a as f64);
                assert!(
                    (i - f).abs() <= 1e-9 * i.abs().max(1e-3),
                    "q={q} z={z} a={a}: {i} vs {f}"
                );
            }
        }
    }

    #[test]
    fn paper_values_reproduce() {
        let delta = 200f64.powf(-1.1);
        let cases = [
            (0.15, 1.0, 5.93413386281),
            (0.25, 1.0, 9.90847934158),
            (0.5, 1.0, 20.1231098836),
            (0.25, 1.2, 7.39058115325),
            (0.25, 1.5, 5.22253499331),
        ];
        for (q, z, paper) in cases {
            let e = paper_preset_epsilon(q, z, 40, delta).unwrap();
            assert!(
                ((e - paper) / paper).abs() <= 1e-8,
                "q={q} z={z}: {e} vs {paper}"
            );
        }
    }

    #[test]
    fn q_one_is_the_gaussian() {
        let r = subsampled_gaussian_rdp(1.0, 2.0, &[2.0, 3.5]).unwrap();
        assert_eq!(r, vec![2.0 / 8.0, 3.5 / 8.0]);
        assert!(subsampled_gaussian_rdp(0.0, 1.0, &[2.0]).is_err());
        assert!(subsampled_gaussian_rdp(1.5, 1.0, &[2.0]).is_err());
        assert!(subsampled_gaussian_rdp(0.5, 1.0, &[1.0]).is_err());
    }
}
