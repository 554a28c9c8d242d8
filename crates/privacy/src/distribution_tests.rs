//! Goodness-of-fit tests with a rigorous false-alarm probability, used by this crate's tests and
//! by the `privacy/` checks of `cargo xtask verify`.
//!
//! - [`ks_statistic`] with [`dkw_threshold`]: the Kolmogorov-Smirnov distance between the
//!   empirical CDF of `n` i.i.d. samples and the true CDF exceeds
//!   `sqrt(ln(2/alpha) / (2n))` with probability at most `alpha` (Dvoretzky-Kiefer-Wolfowitz
//!   inequality with Massart's constant, valid for every distribution, discrete or not).
//! - [`hoeffding_threshold`]: for `k` categories, each empirical frequency is within
//!   `sqrt(ln(2k/alpha) / (2n))` of its probability, all at once, with probability at least
//!   `1 - alpha` (Hoeffding and a union bound).

/// `sqrt(ln(2/alpha) / (2n))`: the DKW threshold at false-alarm probability `alpha`.
pub fn dkw_threshold(n: usize, alpha: f64) -> f64 {
    ((2.0 / alpha).ln() / (2.0 * n as f64)).sqrt()
}

/// `sqrt(ln(2k/alpha) / (2n))`: the simultaneous Hoeffding threshold for `k` frequencies.
pub fn hoeffding_threshold(n: usize, k: usize, alpha: f64) -> f64 {
    ((2.0 * k as f64 / alpha).ln() / (2.0 * n as f64)).sqrt()
}

/// The Kolmogorov-Smirnov distance `sup_x |F_n(x) - F(x)|` for a continuous `cdf`.
pub fn ks_statistic(samples: &[f64], cdf: impl Fn(f64) -> f64) -> f64 {
    let mut s: Vec<f64> = samples.to_vec();
    s.sort_by(f64::total_cmp);
    let n = s.len() as f64;
    let mut d: f64 = 0.0;
    for (i, &x) in s.iter().enumerate() {
        let f = cdf(x);
        d = d.max((i as f64 + 1.0) / n - f).max(f - i as f64 / n);
    }
    d
}

/// The Kolmogorov-Smirnov distance for integer-valued samples and a CDF on the integers
/// (`cdf(k) = P(X <= k)`): both step functions jump only at integers, so the supremum is
/// attained at a sample value `k` or at `k - 1`.
pub fn ks_statistic_integer(samples: &[i64], cdf: impl Fn(i64) -> f64) -> f64 {
    let mut s = samples.to_vec();
    s.sort_unstable();
    let n = s.len() as f64;
    let mut d: f64 = 0.0;
    let mut i = 0;
    let mut below = 0usize; // number of samples < current value
    while i < s.len() {
        let k = s[i];
        let mut j = i;
        while j < s.len() && s[j] == k {
            j += 1;
        }
        // F_n(k - 1) = below / n, F_n(k) = j / n.
        d = d.max((below as f64 / n - cdf(k - 1)).abs());
        d = d.max((j as f64 / n - cdf(k)).abs());
        below = j;
        i = j;
    }
    d
}

/// The CDF of the discrete Laplace `P(k) ∝ r^|k|`, `r = exp(-1/t)`:
/// `P(X <= k) = r^|k| / (1 + r)` for `k < 0`, `1 - r^(k+1) / (1 + r)` for `k >= 0`.
pub fn discrete_laplace_cdf(t: f64, k: i64) -> f64 {
    let r = (-1.0 / t).exp();
    if k < 0 {
        r.powf((-k) as f64) / (1.0 + r)
    } else {
        1.0 - r.powf((k + 1) as f64) / (1.0 + r)
    }
}

/// The CDF of the discrete Gaussian `P(k) ∝ exp(-k^2 / (2 sigma^2))`, tabulated on
/// `|k| <= 40 sigma + 40` (the rest has mass below 1e-300); returns a closure.
pub fn discrete_gaussian_cdf(sigma: f64) -> impl Fn(i64) -> f64 {
    let m = (40.0 * sigma + 40.0).ceil() as i64;
    let w: Vec<f64> = (-m..=m)
        .map(|k| (-(k as f64).powi(2) / (2.0 * sigma * sigma)).exp())
        .collect();
    let total: f64 = w.iter().sum();
    let mut acc = 0.0;
    let cum: Vec<f64> = w
        .iter()
        .map(|x| {
            acc += x;
            acc / total
        })
        .collect();
    move |k: i64| {
        if k < -m {
            0.0
        } else if k >= m {
            1.0
        } else {
            cum[(k + m) as usize]
        }
    }
}

/// The continuous Laplace CDF with scale `b`.
pub fn laplace_cdf(b: f64, x: f64) -> f64 {
    if x < 0.0 {
        0.5 * (x / b).exp()
    } else {
        1.0 - 0.5 * (-x / b).exp()
    }
}
