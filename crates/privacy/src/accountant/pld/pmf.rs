//! A discretised privacy-loss distribution: masses on the grid `l_k = (offset + k) h`, an atom
//! at `+infinity`, and what the floating-point computation may have lost, kept as two numbers.
//!
//! # What a `Pmf` guarantees
//! There is an exact distribution `a''` on the same grid plus `+infinity` that *dominates* the
//! mechanism's privacy loss (its hockey-stick curve `delta(eps)` is at least the mechanism's for
//! every `eps`), and a vector `d` with `||d||_2 <= error_l2`, such that for every grid entry `k`
//! `a''_k <= (1 + relative_error) (masses[k] + d_k)`, and `a''(inf) <= infinity`. Hence, by
//! Cauchy-Schwarz, for every `eps`, with `w_k = (1 - e^(eps - l_k))_+`,
//! `delta(eps) <= (1 + relative_error) (sum_k masses[k] w_k + error_l2 ||w||_2) + infinity`,
//! which is what `Pmf::delta` returns (up to the rounding of the sums, covered by a further
//! factor `1 + 2 n u`). Composition of dominating pairs dominates the composition (Zhu, Dong &
//! Wang 2022, Theorem 10), and every operation below keeps the invariant:
//!
//! * `Pmf::compose`: `a'' * b''` is bounded entrywise by `(1 + r_a)(1 + r_b)` times
//!   `a~ * b~ + d_a * b~ + a~ * d_b + d_a * d_b`; by Young's inequality
//!   (`||f * g||_2 <= ||f||_2 ||g||_1`) the last three have `l2` norm at most
//!   `E_a ||b~||_1 + E_b ||a~||_1 + E_a E_b sqrt(len_b)`, and `a~ * b~` is the computed
//!   convolution up to its FFT error ([`super::fft`]); infinity: `1 - (1 - i_a)(1 - i_b)`.
//! * `Pmf::self_compose`: the `T`-fold convolution is computed on a window of the loss axis
//!   whose ends come from Chernoff bounds of the law itself: mass above the window is at most
//!   `min_lambda (1 + r)^T M(lambda)^T e^(-lambda u)` with
//!   `M(lambda) = sum_k masses[k] e^(lambda l_k) + E sqrt(sum_k e^(2 lambda l_k))`, and is added
//!   to `infinity`; mass below the window folds (cyclic FFT) onto higher losses, which can only
//!   raise `delta`. An input error propagates as
//!   `||(a~ + d)^{*T} - a~^{*T}||_2 <= E ((1 + ||d||_1)^T - 1) / ||d||_1`, `||d||_1 <= sqrt(len) E`,
//!   times `sqrt(folds)` for the folding.
//! * Trimming (`Pmf::trim`): the top entries whose masses plus `sqrt(count) E` sum to at most
//!   `tail` go to `infinity`; the bottom ones (with the same allowance, as mass) move up onto the
//!   lowest kept entry (moving loss mass up dominates).

use super::fft;
use crate::error::PrivacyError;

const U: f64 = f64::EPSILON / 2.0;

/// Lambdas of the Chernoff window search: a coarse grid, then a golden-section refinement.
const LAMBDA_GRID: std::ops::RangeInclusive<i32> = -16..=16;

/// Largest FFT length of a composition (2^24 complex numbers, 256 MiB).
pub(super) const MAX_FFT_LEN: usize = 1 << 24;

/// A discretised, dominating privacy-loss distribution (see the module documentation).
#[derive(Debug, Clone)]
pub struct Pmf {
    pub(super) h: f64,
    pub(super) offset: i64,
    pub(super) masses: Vec<f64>,
    pub(super) infinity: f64,
    pub(super) error_l2: f64,
    pub(super) relative_error: f64,
    /// An estimate from below instead of a dominating law: tails are dropped instead of moved
    /// up, and the error allowances are subtracted in [`Pmf::delta`] and [`Pmf::epsilon`].
    pub(super) lower_estimate: bool,
}

impl Pmf {
    /// The loss of entry `k`.
    fn loss(&self, k: usize) -> f64 {
        (self.offset + k as i64) as f64 * self.h
    }

    /// The masses of the grid entries, from the lowest loss up.
    pub fn masses(&self) -> &[f64] {
        &self.masses
    }

    /// Number of grid entries.
    pub fn len(&self) -> usize {
        self.masses.len()
    }

    /// Always false: a `Pmf` has at least one entry.
    pub fn is_empty(&self) -> bool {
        self.masses.is_empty()
    }

    /// Mass at `+infinity` (an upper bound; it counts fully towards delta).
    pub fn infinity_mass(&self) -> f64 {
        self.infinity
    }

    /// Bound on the `l2` norm of the floating-point error of the masses (see the module
    /// documentation).
    pub fn error_l2(&self) -> f64 {
        self.error_l2
    }

    /// Relative allowance on every mass (see the module documentation).
    pub fn relative_error(&self) -> f64 {
        self.relative_error
    }

    /// Move the upper tail (mass plus `sqrt(count) error_l2` at most `tail`) to `+infinity` and
    /// the lower tail onto the lowest kept entry (exact zeros at the ends go when there is no
    /// error allowance).
    pub(super) fn trim(&mut self, tail: f64) {
        let e = self.error_l2;
        let factor = 1.0 + self.relative_error;
        let allowance = |sum: f64, count: usize| sum + (count as f64).sqrt() * e;
        // Upper tail.
        let mut top = self.masses.len();
        let mut cut = 0.0;
        while top > 1 {
            let next = cut + self.masses[top - 1];
            let free = e == 0.0 && self.masses[top - 1] == 0.0;
            if allowance(next, self.masses.len() + 1 - top) > tail && !free {
                break;
            }
            cut = next;
            top -= 1;
        }
        if self.lower_estimate {
            // Dropping mass lowers delta: the exact zeros and the tails go, nothing is added.
            self.masses.truncate(top);
        } else if top < self.masses.len() {
            let count = self.masses.len() - top;
            self.infinity +=
                factor * allowance(cut, count) * (1.0 + 2.0 * self.masses.len() as f64 * U);
            self.masses.truncate(top);
        }
        // Lower tail: moved up onto the first kept entry, with the error allowance turned into
        // mass (so the invariant holds there).
        let mut bottom = 0;
        let mut moved = 0.0;
        while bottom + 1 < self.masses.len() {
            let next = moved + self.masses[bottom];
            let free = e == 0.0 && self.masses[bottom] == 0.0;
            if allowance(next, bottom + 1) > tail && !free {
                break;
            }
            moved = next;
            bottom += 1;
        }
        if bottom > 0 {
            self.masses.drain(..bottom);
            if !self.lower_estimate {
                self.masses[0] += allowance(moved, bottom) * (1.0 + 2.0 * bottom as f64 * U);
            }
            self.offset += bottom as i64;
        }
    }

    /// The composition of `self` and `other` (the losses add).
    pub(super) fn compose(&self, other: &Pmf, tail: f64) -> Result<Pmf, PrivacyError> {
        if self.h.to_bits() != other.h.to_bits() {
            return Err(PrivacyError::Calibration(format!(
                "PLD: cannot compose grids of bin widths {} and {}",
                self.h, other.h
            )));
        }
        let len = self.len() + other.len() - 1;
        if len.next_power_of_two() > MAX_FFT_LEN {
            return Err(too_long(len, MAX_FFT_LEN));
        }
        let c = fft::convolve(&self.masses, &other.masses);
        let (na, nb) = (mass(&self.masses), mass(&other.masses));
        let (ea, eb) = (self.error_l2, other.error_l2);
        let mut out = Pmf {
            h: self.h,
            offset: self.offset + other.offset,
            masses: c.masses,
            infinity: self.infinity + other.infinity - self.infinity * other.infinity,
            error_l2: c.error_l2 + ea * nb + eb * na + ea * eb * (other.len() as f64).sqrt(),
            relative_error: (1.0 + self.relative_error) * (1.0 + other.relative_error) - 1.0,
            lower_estimate: self.lower_estimate || other.lower_estimate,
        };
        out.trim(tail);
        Ok(out)
    }

    /// `ln M(lambda)`, `M(lambda) = sum_k m_k e^(lambda l_k) + E sqrt(sum_k e^(2 lambda l_k))`
    /// (log-sum-exp; see the module documentation).
    fn log_mgf(&self, lambda: f64) -> f64 {
        let n = self.masses.len();
        // e^(lambda (l_k - l_top)) along the geometric sequence from the largest exponent
        // down (factor e^(-|lambda| h) per entry): one exp in all. The products' rounding
        // (relative k u after k steps, below n u) is covered by the factor 1 + 2 n u.
        let step = (-(lambda.abs()) * self.h).exp();
        let top_index = if lambda >= 0.0 { n - 1 } else { 0 };
        let top = lambda * self.loss(top_index);
        let (mut s, mut s2, mut x) = (0.0, 0.0, 1.0);
        for i in 0..n {
            let k = if lambda >= 0.0 { n - 1 - i } else { i };
            s += self.masses[k] * x;
            s2 += x * x;
            x *= step;
        }
        let inflate = 1.0 + 2.0 * n as f64 * U;
        top + ((s + self.error_l2 * s2.sqrt()) * inflate).ln()
    }

    /// The tightest Chernoff end of the `steps`-fold sum's support at tail mass `tail`:
    /// upper (`sign = 1`): `min_lambda (T ln M(lambda) + ln(1/tail)) / lambda`; lower (`sign =
    /// -1`): `max_lambda -(T ln M(-lambda) + ln(1/tail)) / lambda`. Any lambda gives a valid
    /// end; the search only makes the window shorter.
    fn chernoff_end(&self, steps: f64, tail: f64, sign: f64) -> f64 {
        let log_t = (1.0 / tail).ln() + steps * (1.0 + self.relative_error).ln();
        let end = |ln_lambda: f64| {
            let lambda = ln_lambda.exp();
            (steps * self.log_mgf(sign * lambda) + log_t) / lambda
        };
        let step = 10f64.ln() / 4.0;
        let (mut best, mut at) = (f64::INFINITY, 0.0);
        for i in LAMBDA_GRID {
            let v = end(i as f64 * step);
            if v < best {
                (best, at) = (v, i as f64 * step);
            }
        }
        // Golden-section refinement in [at - step, at + step].
        let g = 0.5 * (5f64.sqrt() - 1.0);
        let (mut a, mut b) = (at - step, at + step);
        let (mut c, mut d) = (b - g * (b - a), a + g * (b - a));
        let (mut fc, mut fd) = (end(c), end(d));
        for _ in 0..12 {
            if fc < fd {
                (b, d, fd) = (d, c, fc);
                c = b - g * (b - a);
                fc = end(c);
            } else {
                (a, c, fc) = (c, d, fd);
                d = a + g * (b - a);
                fd = end(d);
            }
        }
        sign * best.min(fc).min(fd)
    }

    /// Bound on the mass of the `steps`-fold sum at losses `>= u`.
    fn upper_tail_bound(&self, steps: f64, u: f64) -> f64 {
        let factor = steps * (1.0 + self.relative_error).ln();
        (0..=48)
            .map(|i| {
                let lambda = 10f64.powf(-4.0 + i as f64 / 6.0);
                (steps * self.log_mgf(lambda) + factor - lambda * u).exp()
            })
            .fold(1.0, f64::min)
    }

    /// The grid indices `[k_lo, k_hi]` of the `steps`-fold sum's Chernoff window at tail mass
    /// `tail` (see [`Pmf::chernoff_end`]), inside the full support
    /// `[steps offset, steps (offset + len - 1)]`.
    fn chernoff_window(&self, steps: u64, tail: f64) -> (i64, i64) {
        let t = steps as f64;
        let full_lo = self.offset * steps as i64;
        let full_hi = full_lo + (steps as i64) * (self.len() as i64 - 1);
        let lo = self.chernoff_end(t, tail, -1.0);
        let hi = self.chernoff_end(t, tail, 1.0);
        let clamp = |v: f64, a: i64, b: i64| {
            if v.is_nan() {
                a
            } else {
                (v.max(a as f64).min(b as f64)) as i64
            }
        };
        let k_lo = clamp((lo / self.h).floor(), full_lo, full_hi);
        let k_hi = clamp((hi / self.h).ceil(), k_lo, full_hi);
        (k_lo, k_hi)
    }

    /// The length on the loss axis of the `steps`-fold sum's Chernoff window (the span the
    /// composition keeps before rounding its length up to a power of two).
    pub(super) fn window_span(&self, steps: u64, tail: f64) -> f64 {
        if steps == 1 {
            return (self.len() - 1) as f64 * self.h;
        }
        let (k_lo, k_hi) = self.chernoff_window(steps, tail);
        (k_hi - k_lo) as f64 * self.h
    }

    /// The `steps`-fold composition of `self` with itself, on an FFT of at most `max_len`
    /// points (a power of two).
    pub(super) fn self_compose(
        &self,
        steps: u64,
        tail: f64,
        max_len: usize,
    ) -> Result<Pmf, PrivacyError> {
        if steps == 1 {
            return Ok(self.clone());
        }
        let t = steps as f64;
        let len = self.len();
        let full_lo = self.offset * steps as i64;
        let full_len = (steps as u128) * (len as u128 - 1) + 1;
        // The window [k_lo, k_lo + n) of grid indices.
        let (k_lo, n, upper) = if full_len <= 1 << 16 {
            // Small: the whole support, no folding.
            (full_lo, (full_len as usize).next_power_of_two(), 0.0)
        } else {
            let full_hi = full_lo + (full_len - 1) as i64;
            let (k_lo, k_hi) = self.chernoff_window(steps, tail);
            let width = (k_hi - k_lo + 1) as u128;
            let n = width.next_power_of_two();
            if n > max_len as u128 {
                return Err(too_long_u128(width, max_len));
            }
            let n = n as usize;
            // A window reaching past the support's end is moved down to end there, so that
            // the mass below it folds onto window entries that are kept (never onto entries
            // beyond the support, which are not).
            let k_lo = if k_lo + n as i64 - 1 > full_hi {
                (full_hi - n as i64 + 1).max(full_lo)
            } else {
                k_lo
            };
            let upper = if k_lo + n as i64 > full_hi {
                0.0
            } else {
                self.upper_tail_bound(t, (k_lo + n as i64) as f64 * self.h)
            };
            (k_lo, n, upper)
        };
        if n > max_len {
            return Err(too_long(n, max_len));
        }
        let start = usize::try_from(k_lo - full_lo).expect("window starts above the support");
        // Entries beyond the full support's end are zero in exact arithmetic: not kept.
        let out_len = (n as u128).min(full_len - start as u128) as usize;
        let c = fft::power_cyclic(&self.masses, steps, n, start, out_len);
        // Input errors: ||(a~ + d)^{*T} - a~^{*T}||_2 <= E ((1 + ||d||_1)^T - 1) / ||d||_1 with
        // ||d||_1 <= sqrt(len) E, times sqrt(folds) for the folding onto the window.
        let e = self.error_l2;
        let folds = (full_len as f64 / n as f64).ceil().max(1.0);
        let propagated = if e > 0.0 {
            let d1 = (len as f64).sqrt() * e;
            folds.sqrt() * e * (t * d1.ln_1p()).exp_m1() / d1
        } else {
            0.0
        };
        let mut out = Pmf {
            h: self.h,
            offset: k_lo,
            masses: c.masses,
            // A lower estimate leaves the mass beyond the window out (it folds onto the window:
            // at most `tail` by the Chernoff bound).
            infinity: -(t * (-self.infinity).ln_1p()).exp_m1()
                + if self.lower_estimate { 0.0 } else { upper },
            error_l2: c.error_l2 + propagated,
            relative_error: (t * self.relative_error.ln_1p()).exp_m1(),
            lower_estimate: self.lower_estimate,
        };
        out.trim(tail);
        Ok(out)
    }

    /// Upper bound on `delta(eps)` (see the module documentation).
    pub(super) fn delta(&self, eps: f64) -> f64 {
        let (mut s, mut w2) = (0.0, 0.0);
        for (k, m) in self.masses.iter().enumerate() {
            if self.loss(k) > eps {
                let w = -(eps - self.loss(k)).exp_m1();
                s += m * w;
                w2 += w * w;
            }
        }
        if self.lower_estimate {
            (s - self.error_l2 * w2.sqrt()).max(0.0) / self.rounding_factor() + self.infinity
        } else {
            self.rounding_factor() * (s + self.error_l2 * w2.sqrt()) + self.infinity
        }
    }

    fn rounding_factor(&self) -> f64 {
        (1.0 + self.relative_error) * (1.0 + 2.0 * self.masses.len() as f64 * U)
    }

    /// The allowance's sign and the masses' factor of [`Pmf::epsilon`]'s comparison.
    fn sides(&self) -> (f64, f64) {
        if self.lower_estimate {
            (-1.0, 1.0 / self.rounding_factor())
        } else {
            (1.0, self.rounding_factor())
        }
    }

    /// For a bound: move `eps` up (by relative steps of `1e-12`, doubling) until [`Pmf::delta`]
    /// at it is at most `delta`, so that the epsilon returned satisfies the bound as evaluated,
    /// whatever the rounding of the one-pass recursion (review of issue 15: it could be above
    /// by `1e-9` relative). A lower estimate is returned as solved.
    fn settle(&self, eps: f64, delta: f64) -> f64 {
        if self.lower_estimate {
            return eps;
        }
        let mut step = 1e-12 * eps.max(self.h);
        let mut e = eps;
        for _ in 0..200 {
            if self.delta(e) <= delta {
                return e;
            }
            e = eps + step;
            step *= 2.0;
        }
        e
    }

    /// The smallest `eps >= 0` whose [`Pmf::delta`] bound is at most `delta`, or `None` when
    /// the mass at infinity alone reaches `delta`.
    ///
    /// One pass from the top. With `W_k = sum_{j >= k} m_j e^(l_k - l_j)`,
    /// `D_k = sum_{j > k} m_j (1 - e^(l_k - l_j))`: `W_k = m_k + e^-h W_{k+1}` and
    /// `D_{k-1} = D_k + (1 - e^-h) W_k` (non-negative terms, no cancellation); on
    /// `(l_{k-1}, l_k]`, `t = eps - l_k`, the masses' part is `D_k + W_k (1 - e^t)` and
    /// `||w||_2^2 = N_k - 2 e^t S1_k + e^(2t) S2_k` (`N_k` entries from `k` up,
    /// `S1_k = sum e^(l_k - l_j)`, `S2_k = sum e^(2(l_k - l_j))`); the bound is decreasing in
    /// `t`, and its crossing is found by bisection.
    pub(super) fn epsilon(&self, delta: f64) -> Option<f64> {
        let (sign, factor) = self.sides();
        let target = (delta - self.infinity) / factor;
        if target.is_nan() || target <= 0.0 {
            return None;
        }
        if self.delta(0.0) <= delta {
            return Some(0.0);
        }
        let e = sign * self.error_l2;
        let h = self.h;
        let (decay, decay2) = ((-h).exp(), (-2.0 * h).exp());
        let gain = -(-h).exp_m1();
        let (mut w, mut d, mut s1, mut s2) = (0.0, 0.0, 0.0, 0.0);
        let bound = |t: f64, d: f64, w: f64, count: f64, s1: f64, s2: f64| {
            let et = t.exp();
            let w2 = (count - 2.0 * et * s1 + et * et * s2).max(0.0);
            d - w * t.exp_m1() + e * w2.sqrt()
        };
        let n = self.masses.len();
        for k in (0..n).rev() {
            w = self.masses[k] + decay * w;
            s1 = 1.0 + decay * s1;
            s2 = 1.0 + decay2 * s2;
            let count = (n - k) as f64;
            // Smallest t allowed on this interval: -h, or down to eps = 0 on the lowest one.
            let t_min = if k == 0 { -self.loss(0) } else { -h };
            let t_min = t_min.max(-self.loss(k)).min(0.0);
            if bound(t_min, d, w, count, s1, s2) > target {
                // The crossing lies in (t_min, 0]: bisection (the bound decreases in t).
                let (mut lo, mut hi) = (t_min, 0.0);
                for _ in 0..100 {
                    let mid = 0.5 * (lo + hi);
                    if mid <= lo || mid >= hi {
                        break;
                    }
                    if bound(mid, d, w, count, s1, s2) > target {
                        lo = mid
                    } else {
                        hi = mid
                    }
                }
                return Some(self.settle((self.loss(k) + hi).max(0.0), delta));
            }
            if self.loss(k) - h <= 0.0 {
                // The bound at eps = 0 (reached on this interval) is below the target.
                return Some(self.settle(0.0, delta));
            }
            d += gain * w;
        }
        Some(self.settle(0.0, delta))
    }
}

fn mass(m: &[f64]) -> f64 {
    m.iter().sum::<f64>() * (1.0 + m.len() as f64 * U)
}

fn too_long(len: usize, max_len: usize) -> PrivacyError {
    too_long_u128(len as u128, max_len)
}

fn too_long_u128(len: u128, max_len: usize) -> PrivacyError {
    PrivacyError::GridTooFine(format!(
        "PLD: the composed loss needs {len} grid points (an FFT of at most 2^{}); increase the \
         bin width (PldSettings::bin_width)",
        max_len.trailing_zeros()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pmf(offset: i64, masses: Vec<f64>, h: f64) -> Pmf {
        Pmf {
            h,
            offset,
            masses,
            infinity: 0.0,
            error_l2: 0.0,
            relative_error: 0.0,
            lower_estimate: false,
        }
    }

    /// delta and epsilon are inverse to each other, and agree with the direct sum.
    #[test]
    fn epsilon_inverts_delta() {
        let h = 0.01;
        let masses: Vec<f64> = (0..200)
            .map(|k| (-(k as f64 - 60.0).powi(2) / 800.0).exp())
            .collect();
        let s: f64 = masses.iter().sum();
        let p = pmf(-50, masses.into_iter().map(|m| m / s).collect(), h);
        for delta in [1e-1, 1e-3, 1e-6, 1e-9] {
            // The epsilon returned satisfies the bound as evaluated, and is the smallest such
            // to within 1e-9.
            let eps = p.epsilon(delta).unwrap();
            assert!(p.delta(eps) <= delta, "{delta}: {}", p.delta(eps));
            assert!(p.delta(eps - 1e-9) > delta, "{delta}");
        }
        // delta above delta(0): epsilon 0.
        assert_eq!(p.epsilon(0.99).unwrap().to_bits(), 0f64.to_bits());
        // The mass at infinity alone reaching delta: no epsilon.
        let mut q = p.clone();
        q.infinity = 1e-5;
        assert!(q.epsilon(1e-5).is_none());
    }

    /// A two-point loss composed T times by the windowed FFT equals the binomial law.
    #[test]
    fn self_composition_is_the_binomial_law() {
        let h = 0.5;
        let p = pmf(-1, vec![0.3, 0.0, 0.7], h);
        let t = 40_000u64;
        let c = p.self_compose(t, 1e-30, MAX_FFT_LEN).unwrap();
        // The exact binomial law by the ratio recurrence from the mode (relative error about
        // (distance from the mode) u), normalised by its sum.
        let n = t as usize;
        let mode = (0.7 * t as f64).floor() as usize;
        let mut w = vec![0.0f64; n + 1];
        w[mode] = 1.0;
        for j in mode..n {
            w[j + 1] = w[j] * (n - j) as f64 / (j + 1) as f64 * (0.7 / 0.3);
        }
        for j in (1..=mode).rev() {
            w[j - 1] = w[j] * j as f64 / (n - j + 1) as f64 * (0.3 / 0.7);
        }
        let total: f64 = w.iter().sum();
        let mut worst = 0.0f64;
        for (k, m) in c.masses.iter().enumerate() {
            // Entry k has loss (offset + k) h = (2 ups - T) h: ups = (offset + k + T) / 2.
            let ups2 = c.offset + k as i64 + t as i64;
            let exact = if ups2 % 2 != 0 {
                0.0
            } else {
                w[(ups2 / 2) as usize] / total
            };
            worst += (m - exact).powi(2);
        }
        assert!(
            worst.sqrt() <= c.error_l2,
            "{} > {}",
            worst.sqrt(),
            c.error_l2
        );
        assert!(c.infinity < 1e-25, "{}", c.infinity);
    }
}
