//! Exact binomial confidence bounds (Clopper & Pearson 1934) and the normal quantile, the
//! statistical primitives of the auditor.
//!
//! The Clopper-Pearson bounds are computed from exact binomial tail sums (no continued fraction
//! with an iteration cap), so they stay accurate at the sample sizes of the audits (10^7 trials,
//! 10^6 successes) where the incomplete-beta routines of `statrs` stop converging.

use statrs::distribution::{ContinuousCDF, Normal};
use statrs::function::gamma::ln_gamma;

/// `ln P(X = k)` for `X ~ Binomial(n, p)`, `0 < p < 1`.
fn ln_pmf(n: u64, k: u64, p: f64) -> f64 {
    let (nf, kf) = (n as f64, k as f64);
    ln_gamma(nf + 1.0) - ln_gamma(kf + 1.0) - ln_gamma(nf - kf + 1.0)
        + kf * p.ln()
        + (nf - kf) * (-p).ln_1p()
}

/// Sum of the pmf from `start` away from the mode (downwards when `down`), by the ratio
/// recurrence `P(j-1)/P(j) = j (1-p) / ((n-j+1) p)`, stopping when the terms are negligible.
fn tail_from(n: u64, start: u64, p: f64, down: bool) -> f64 {
    let mut term = ln_pmf(n, start, p).exp();
    let mut sum = term;
    let r = (1.0 - p) / p;
    let mut j = start;
    loop {
        if down {
            if j == 0 {
                break;
            }
            term *= j as f64 / (n - j + 1) as f64 * r;
            j -= 1;
        } else {
            if j == n {
                break;
            }
            term *= (n - j) as f64 / ((j + 1) as f64 * r);
            j += 1;
        }
        sum += term;
        if term <= sum * 1e-18 {
            break;
        }
    }
    sum.min(1.0)
}

/// `P(X <= k)` for `X ~ Binomial(n, p)`, exact up to floating-point rounding.
///
/// The tail on the side of `k` away from the mode is summed directly (decreasing terms); the
/// other side is `1 -` the complementary tail.
pub fn binomial_cdf(n: u64, k: u64, p: f64) -> f64 {
    if k >= n || p <= 0.0 {
        return 1.0;
    }
    if p >= 1.0 {
        return 0.0;
    }
    let mean = n as f64 * p;
    if (k as f64) <= mean {
        tail_from(n, k, p, true)
    } else {
        1.0 - tail_from(n, k + 1, p, false)
    }
}

/// `P(X >= k)` for `X ~ Binomial(n, p)`.
pub fn binomial_sf(n: u64, k: u64, p: f64) -> f64 {
    if k == 0 {
        return 1.0;
    }
    if k > n || p <= 0.0 {
        return 0.0;
    }
    if p >= 1.0 {
        return 1.0;
    }
    let mean = n as f64 * p;
    if (k as f64) >= mean {
        tail_from(n, k, p, false)
    } else {
        1.0 - tail_from(n, k - 1, p, true)
    }
}

/// Bisection for the root of a monotone function on `[lo, hi]` to 1e-15 absolute (and 1e-12
/// relative near 0); `increasing` says which way `g` goes.
fn bisect(mut lo: f64, mut hi: f64, g: impl Fn(f64) -> f64, increasing: bool) -> f64 {
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if hi - lo <= 1e-15_f64.max(1e-12 * lo) {
            break;
        }
        let above = g(mid) > 0.0;
        if above == increasing {
            hi = mid
        } else {
            lo = mid
        }
    }
    0.5 * (lo + hi)
}

/// One-sided Clopper-Pearson upper bound: the largest `p` with `P(Bin(n, p) <= k) >= alpha`.
/// `P(p_true > upper) <= alpha` whatever `p_true` is.
///
/// # Formula
/// `upper = Beta^{-1}(1 - alpha; k + 1, n - k)`, and `1` when `k = n`.
pub fn clopper_pearson_upper(k: u64, n: u64, alpha: f64) -> f64 {
    assert!(
        k <= n && n > 0 && alpha > 0.0 && alpha < 1.0,
        "clopper_pearson_upper({k}, {n}, {alpha})"
    );
    if k == n {
        return 1.0;
    }
    if k == 0 {
        // P(Bin(n,p) = 0) = (1-p)^n = alpha.
        return -(alpha.ln() / n as f64).exp_m1();
    }
    // P(Bin(n, p) <= k) decreases in p.
    bisect(
        k as f64 / n as f64,
        1.0,
        |p| binomial_cdf(n, k, p) - alpha,
        false,
    )
}

/// One-sided Clopper-Pearson lower bound: the smallest `p` with `P(Bin(n, p) >= k) >= alpha`.
/// `P(p_true < lower) <= alpha` whatever `p_true` is.
///
/// # Formula
/// `lower = Beta^{-1}(alpha; k, n - k + 1)`, and `0` when `k = 0`.
pub fn clopper_pearson_lower(k: u64, n: u64, alpha: f64) -> f64 {
    assert!(
        k <= n && n > 0 && alpha > 0.0 && alpha < 1.0,
        "clopper_pearson_lower({k}, {n}, {alpha})"
    );
    if k == 0 {
        return 0.0;
    }
    if k == n {
        return (alpha.ln() / n as f64).exp();
    }
    // P(Bin(n, p) >= k) increases in p.
    bisect(
        0.0,
        k as f64 / n as f64,
        |p| binomial_sf(n, k, p) - alpha,
        true,
    )
}

/// The standard normal quantile `Phi^{-1}(p)`, with `-inf`/`+inf` at 0 and 1.
pub fn normal_quantile(p: f64) -> f64 {
    if p <= 0.0 {
        f64::NEG_INFINITY
    } else if p >= 1.0 {
        f64::INFINITY
    } else {
        Normal::standard().inverse_cdf(p)
    }
}

/// The standard normal cdf `Phi(x)`.
pub fn normal_cdf(x: f64) -> f64 {
    Normal::standard().cdf(x)
}

#[cfg(test)]
#[allow(clippy::float_cmp)]
mod tests {
    use super::*;
    use approx::assert_relative_eq;

    // Reference values: R `binom.test(k, n, conf.level = 0.95)$conf.int` (two-sided 95%, i.e.
    // one-sided alpha = 0.025 each side).
    #[test]
    fn clopper_pearson_matches_r() {
        let cases = [
            (5, 10, 0.187_086_5, 0.812_913_5),
            (10, 100, 0.049_004_689, 0.176_222_6),
            (0, 20, 0.0, 0.168_433_9),
            (1, 1000, 2.531_8e-5, 5.558e-3),
        ];
        for (k, n, lo, hi) in cases {
            let l = clopper_pearson_lower(k, n, 0.025);
            let u = clopper_pearson_upper(k, n, 0.025);
            assert_relative_eq!(l, lo, max_relative = 2e-4, epsilon = 1e-12);
            assert_relative_eq!(u, hi, max_relative = 2e-4);
        }
    }

    #[test]
    fn clopper_pearson_closed_forms_at_the_ends() {
        let n = 1_000_000;
        assert_relative_eq!(
            clopper_pearson_upper(0, n, 1e-6),
            1.0 - 1e-6f64.powf(1.0 / n as f64),
            max_relative = 1e-9
        );
        assert_relative_eq!(
            clopper_pearson_lower(n, n, 1e-6),
            1e-6f64.powf(1.0 / n as f64),
            max_relative = 1e-12
        );
        assert_eq!(clopper_pearson_upper(n, n, 1e-6), 1.0);
        assert_eq!(clopper_pearson_lower(0, n, 1e-6), 0.0);
    }

    /// The defining identity at audit-sized samples: the tail at the bound equals alpha, and
    /// the bound is close to the normal approximation.
    #[test]
    fn clopper_pearson_at_large_n_solves_its_equation() {
        let (n, k, alpha) = (10_000_000u64, 1_839_397u64, 1e-7);
        let u = clopper_pearson_upper(k, n, alpha);
        let l = clopper_pearson_lower(k, n, alpha);
        assert_relative_eq!(binomial_cdf(n, k, u), alpha, max_relative = 1e-6);
        assert_relative_eq!(binomial_sf(n, k, l), alpha, max_relative = 1e-6);
        let p = k as f64 / n as f64;
        let sd = (p * (1.0 - p) / n as f64).sqrt();
        let z = -normal_quantile(alpha);
        assert_relative_eq!(u, p + z * sd, max_relative = 1e-4);
        assert_relative_eq!(l, p - z * sd, max_relative = 1e-4);
    }

    #[test]
    fn binomial_tails_are_exact_on_a_small_case() {
        // Bin(4, 0.3): P(X <= 1) = 0.7^4 + 4 * 0.3 * 0.7^3 = 0.6517.
        assert_relative_eq!(binomial_cdf(4, 1, 0.3), 0.6517, max_relative = 1e-12);
        assert_relative_eq!(binomial_sf(4, 2, 0.3), 1.0 - 0.6517, max_relative = 1e-12);
        assert_relative_eq!(binomial_sf(4, 4, 0.3), 0.0081, max_relative = 1e-12);
    }
}
