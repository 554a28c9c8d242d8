//! Paired tests across problem draws: the exact sign test and the Wilcoxon signed-rank test of
//! the differences `d_i = a_i - b_i` between two curves on the same draws.
//!
//! # Formula
//!
//! Zero differences are dropped (both tests), leaving `n` pairs.
//!
//! - **Sign test** (exact): with `n_-` the number of negative differences, under the null
//!   hypothesis that a difference is as likely negative as positive, `n_- ~ Bin(n, 1/2)`; the
//!   one-sided p-value of "`a` below `b`" is `P(Bin(n, 1/2) >= n_-)`, computed from the exact
//!   binomial sum. It assumes nothing about the shape of the differences.
//! - **Wilcoxon signed-rank**: rank `|d_i|` (mid-ranks for ties), `W_- = ` the sum of the ranks
//!   of the negative differences. Without ties and for `n <= 60` its null distribution is
//!   computed exactly (the number of subsets of `{1..n}` with each sum, divided by `2^n`);
//!   otherwise the normal approximation with the tie-corrected variance
//!   `n(n+1)(2n+1)/24 - sum_t (t^3 - t)/48` and a continuity correction of 1/2. It assumes the
//!   differences are symmetric about their median, and has more power than the sign test
//!   when they are.
//!
//! Both return the p-values of both directions, so that a caller can say whether an ordering
//! holds, is reversed, or neither.

use serde::Serialize;

/// The p-values of the two one-sided alternatives of a paired test.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct OneSided {
    /// p-value of "`a` below `b`" (the differences tend to be negative).
    pub below: f64,
    /// p-value of "`a` above `b`".
    pub above: f64,
}

/// The paired tests of one comparison.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PairedTest {
    /// Pairs (problem draws) compared, zero differences included.
    pub draws: usize,
    /// Pairs with `a < b`.
    pub below: usize,
    /// Pairs with `a > b`.
    pub above: usize,
    /// Pairs with `a == b` (dropped by both tests).
    pub ties: usize,
    /// Mean of `a - b` over all pairs.
    pub mean_difference: f64,
    /// Median of `a - b` over all pairs.
    pub median_difference: f64,
    /// The exact sign test.
    pub sign: OneSided,
    /// The Wilcoxon signed-rank test.
    pub wilcoxon: OneSided,
    /// Whether the Wilcoxon p-values are exact (no ties, `n <= 60`) or normal approximations.
    pub wilcoxon_exact: bool,
}

/// `P(Bin(n, 1/2) >= k)`, exactly (a sum of `C(n, j) / 2^n` in log space).
pub fn binomial_half_sf(n: usize, k: usize) -> f64 {
    if k == 0 {
        return 1.0;
    }
    if k > n {
        return 0.0;
    }
    // ln C(n, j) by the running product C(n, j) = C(n, j-1) (n - j + 1) / j.
    let mut ln_c = 0.0_f64;
    let mut terms = Vec::with_capacity(n + 1);
    for j in 0..=n {
        if j > 0 {
            ln_c += ((n - j + 1) as f64).ln() - (j as f64).ln();
        }
        if j >= k {
            terms.push(ln_c);
        }
    }
    let max = terms.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let sum: f64 = terms.iter().map(|t| (t - max).exp()).sum();
    (max + sum.ln() - n as f64 * std::f64::consts::LN_2)
        .exp()
        .min(1.0)
}

/// The standard normal survival function `P(Z > z)`, from libm's `erfc` (accurate in the far
/// tail, where `1 - cdf` would cancel).
fn normal_sf(z: f64) -> f64 {
    0.5 * libm::erfc(z / std::f64::consts::SQRT_2)
}

/// The exact null distribution of the signed-rank sum for `n` untied pairs: `P(W >= w)` for
/// every `w`, as a vector indexed by `w`.
fn signed_rank_sf(n: usize) -> Vec<f64> {
    let max = n * (n + 1) / 2;
    // counts[w] = number of subsets of {1..n} with sum w, divided by 2^n as we go (each step
    // halves), so that the numbers stay in range.
    let mut p = vec![0.0_f64; max + 1];
    p[0] = 1.0;
    for r in 1..=n {
        for w in (0..=max).rev() {
            let with = if w >= r { p[w - r] } else { 0.0 };
            p[w] = 0.5 * (p[w] + with);
        }
    }
    let mut sf = vec![0.0; max + 2];
    for w in (0..=max).rev() {
        sf[w] = sf[w + 1] + p[w];
    }
    sf.truncate(max + 1);
    sf
}

/// The paired tests of `a` against `b` (same length: one value per problem draw, the draws
/// in the same order).
///
/// # Panics
/// When the lengths differ or a value is not finite (the caller's summaries are finite by
/// construction; a NaN here is a bug, not an input error).
pub fn paired_test(a: &[f64], b: &[f64]) -> PairedTest {
    assert_eq!(a.len(), b.len(), "paired samples of different lengths");
    let d: Vec<f64> = a.iter().zip(b).map(|(x, y)| x - y).collect();
    assert!(d.iter().all(|v| v.is_finite()), "non-finite paired values");
    let draws = d.len();
    let below = d.iter().filter(|v| **v < 0.0).count();
    let above = d.iter().filter(|v| **v > 0.0).count();
    let ties = draws - below - above;
    let mean_difference = if draws == 0 {
        0.0
    } else {
        d.iter().sum::<f64>() / draws as f64
    };
    let mut sorted = d.clone();
    sorted.sort_by(f64::total_cmp);
    let median_difference = match draws {
        0 => 0.0,
        n if n % 2 == 1 => sorted[n / 2],
        n => 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]),
    };
    let n = below + above;
    let sign = OneSided {
        below: binomial_half_sf(n, below),
        above: binomial_half_sf(n, above),
    };
    // Ranks of |d| over the non-zero differences, mid-ranks for ties.
    let mut nz: Vec<f64> = d.iter().copied().filter(|v| *v != 0.0).collect();
    nz.sort_by(|x, y| x.abs().total_cmp(&y.abs()));
    let mut ranks = vec![0.0; nz.len()];
    let mut tie_term = 0.0;
    let mut i = 0;
    while i < nz.len() {
        let mut j = i;
        while j + 1 < nz.len() && nz[j + 1].abs().total_cmp(&nz[i].abs()).is_eq() {
            j += 1;
        }
        let mid = (i + j) as f64 / 2.0 + 1.0;
        for r in &mut ranks[i..=j] {
            *r = mid;
        }
        let t = (j - i + 1) as f64;
        tie_term += t * t * t - t;
        i = j + 1;
    }
    let w_below: f64 = nz
        .iter()
        .zip(&ranks)
        .filter(|(v, _)| **v < 0.0)
        .map(|(_, r)| r)
        .sum();
    let total = (n * (n + 1)) as f64 / 2.0;
    let w_above = total - w_below;
    let wilcoxon_exact = tie_term == 0.0 && n <= 60;
    let wilcoxon = if n == 0 {
        OneSided {
            below: 1.0,
            above: 1.0,
        }
    } else if wilcoxon_exact {
        let sf = signed_rank_sf(n);
        // Without ties every rank sum is an integer.
        let at = |w: f64| sf.get(w.round() as usize).copied().unwrap_or(0.0);
        OneSided {
            below: at(w_below),
            above: at(w_above),
        }
    } else {
        let nf = n as f64;
        let var = nf * (nf + 1.0) * (2.0 * nf + 1.0) / 24.0 - tie_term / 48.0;
        let mean = total / 2.0;
        let z = |w: f64| (w - mean - 0.5) / var.sqrt();
        OneSided {
            below: normal_sf(z(w_below)),
            above: normal_sf(z(w_above)),
        }
    };
    PairedTest {
        draws,
        below,
        above,
        ties,
        mean_difference,
        median_difference,
        sign,
        wilcoxon,
        wilcoxon_exact,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_relative_eq;

    #[test]
    fn binomial_tail_by_hand() {
        // P(Bin(10, 1/2) >= 8) = (45 + 10 + 1) / 1024.
        assert_relative_eq!(binomial_half_sf(10, 8), 56.0 / 1024.0, max_relative = 1e-13);
        assert_relative_eq!(binomial_half_sf(10, 0), 1.0);
        assert_relative_eq!(binomial_half_sf(10, 11), 0.0);
        // P(Bin(20, 1/2) >= 20) = 2^-20.
        assert_relative_eq!(
            binomial_half_sf(20, 20),
            2f64.powi(-20),
            max_relative = 1e-12
        );
    }

    #[test]
    fn signed_rank_distribution_by_hand() {
        // n = 3: sums of subsets of {1, 2, 3}: 0,1,2,3,3,4,5,6 (each 1/8).
        let sf = signed_rank_sf(3);
        assert_relative_eq!(sf[0], 1.0);
        assert_relative_eq!(sf[3], 5.0 / 8.0);
        assert_relative_eq!(sf[6], 1.0 / 8.0);
    }

    #[test]
    fn normal_tail_against_reference_values() {
        // P(Z > 1.96) and P(Z > 5) (mpmath).
        assert_relative_eq!(
            normal_sf(1.96),
            0.024_997_895_148_220_435,
            max_relative = 1e-13
        );
        assert_relative_eq!(
            normal_sf(5.0),
            2.866_515_718_791_939e-7,
            max_relative = 1e-12
        );
        assert_relative_eq!(
            normal_sf(-1.96),
            1.0 - 0.024_997_895_148_220_435,
            max_relative = 1e-13
        );
    }

    #[test]
    fn an_ordering_on_every_draw_is_significant_both_ways_round() {
        let a: Vec<f64> = (0..20).map(|i| i as f64).collect();
        let b: Vec<f64> = (0..20).map(|i| i as f64 + 1.0 + 0.01 * i as f64).collect();
        let t = paired_test(&a, &b);
        assert_eq!((t.below, t.above, t.ties), (20, 0, 0));
        assert_relative_eq!(t.sign.below, 2f64.powi(-20), max_relative = 1e-12);
        assert_relative_eq!(t.sign.above, 1.0);
        assert!(t.wilcoxon_exact);
        assert_relative_eq!(t.wilcoxon.below, 2f64.powi(-20), max_relative = 1e-12);
        let r = paired_test(&b, &a);
        assert_relative_eq!(r.sign.above, t.sign.below);
        assert_relative_eq!(r.wilcoxon.above, t.wilcoxon.below);
    }

    #[test]
    fn normal_approximation_close_to_exact_without_ties() {
        // 60 differences: alternate signs with magnitudes 1..60, the negative ones larger on
        // average; the normal approximation (forced by a tie) is close to the exact value.
        let d: Vec<f64> = (1..=60)
            .map(|i| if i % 3 == 0 { i as f64 } else { -(i as f64) })
            .collect();
        let zeros = vec![0.0; d.len()];
        let exact = paired_test(&d, &zeros);
        assert!(exact.wilcoxon_exact);
        let mut tied = d.clone();
        tied[0] = -2.0; // |d| = 2 twice: a tie
        let approx = paired_test(&tied, &zeros);
        assert!(!approx.wilcoxon_exact);
        assert!((exact.wilcoxon.below.ln() - approx.wilcoxon.below.ln()).abs() < 0.2);
    }

    #[test]
    fn zeros_are_dropped() {
        let t = paired_test(&[1.0, 2.0, 3.0], &[1.0, 3.0, 3.0]);
        assert_eq!((t.below, t.above, t.ties, t.draws), (1, 0, 2, 3));
        assert_relative_eq!(t.sign.below, 0.5);
        assert_relative_eq!(t.median_difference, 0.0);
    }
}
