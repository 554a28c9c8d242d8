//! The replace-one relation for the Poisson-subsampled Gaussian.
//!
//! # The dominating pair
//! One record's clipped contribution `u` (`|u| <= 1`, in units of the add/remove sensitivity)
//! is replaced by `v` (`|v| <= 1`); the noise is `N(0, z^2 I)`. We account the pair
//! `P_e = (1-q) N_0 + q N_e` against `P_-e = (1-q) N_0 + q N_-e` (`N_w = N(w, z^2 I)`, `e` a unit
//! vector; in one dimension `+1` replaced by `-1`), which dominates every replace-one pair
//! (Zhu, Dong & Wang 2022, Def. 7): for every `alpha' >= 0`,
//! `H_alpha'(M(D) || M(D')) <= H_alpha'(P_e || P_-e)` with the hockey-stick divergence
//! `H_a(P || Q) = int (p - a q)_+`. Proof (review of issue 15; checked numerically in
//! `tests` below and in `xtask/scripts/replace_one_pair_search.py`):
//!
//! 1. *One record.* `M(D) = K P_u` and `M(D') = K P_v`, `K` the convolution with the law of
//!    the rest of the subsampled sum, the same for both; by data processing
//!    `H(M(D) || M(D')) <= H(P_u || P_v)`.
//! 2. *Advanced joint convexity* (Balle, Barthe & Gaboardi 2018, Thm 2; direct to check). For
//!    `alpha' >= 1` let `alpha = 1 + (alpha' - 1)/q`, `beta = alpha'/alpha`. Then
//!    `P_u - alpha' P_v = q (N_u - alpha ((1-beta) N_0 + beta N_v))`, and after translating by
//!    `-u`, `H_alpha'(P_u || P_v) = q E[(1 - alpha Lambda)_+]`, `X ~ N_0`,
//!    `Lambda = (1-beta) A + beta B` with the likelihood ratios `A = dN_a/dN_0 (X)`, `a = -u`,
//!    `|a| <= 1`, and `B = dN_b/dN_0 (X)`, `b = v - u`, `|b| <= 2`: mean-one lognormals with
//!    log-variances `|a|^2/z^2` and `|b|^2/z^2`.
//! 3. For the antipodal pair, `a = -e`, `b = -2e`: the largest log-variances, and `A*`, `B*`
//!    comonotone (both increasing in `<-e, X>`).
//! 4. *Convex order.* A mean-one lognormal with a larger log-variance is `A* = A M`, `M` an
//!    independent mean-one lognormal, so `E[A* | A] = A` and `E f(A) <= E f(A*)` for convex `f`
//!    (Jensen); the same for `B`.
//! 5. *Comonotone sums.* For `d > 0` pick `d1 + d2 = d` at a common quantile of the comonotone
//!    `(1-beta) A*` and `beta B*`, so that `(Lambda* - d)_+ = ((1-beta) A* - d1)_+ +
//!    (beta B* - d2)_+`. For any coupling `(Lambda - d)_+ <= ((1-beta) A - d1)_+ +
//!    (beta B - d2)_+`; with step 4, `E(Lambda - d)_+ <= E(Lambda* - d)_+` (for `d <= 0` both
//!    sides are `1 - d`).
//! 6. Since `E Lambda = 1`, `E(1 - alpha Lambda)_+ = alpha E(Lambda - 1/alpha)_+ - alpha + 1`,
//!    so `H_alpha'(P_u || P_v) <= H_alpha'(P_e || P_-e)` for `alpha' >= 1`.
//! 7. For `alpha' < 1`: `H_alpha'(P || Q) = 1 - alpha' + alpha' H_(1/alpha')(Q || P)`, step 6
//!    for the pair `(v, u)`, and the reflection `x -> -x`, which swaps `P_e` and `P_-e`.
//! 8. *Composition.* The pair dominates every ordered replace-one pair at every order, so its
//!    `T`-fold product dominates the adaptive composition (Zhu, Dong & Wang 2022, Thm 10). The
//!    pitfalls of Lebeda et al. 2024 concern pairs worst at one `(eps, delta)` only; this one
//!    is worst at every order.
//!
//! This is the pair Google's dp_accounting uses for `REPLACE_ONE`. At `q = 1` it is the
//! Gaussian mechanism at sensitivity 2.
//!
//! # Group privacy, an independent route
//! [`replace_one_epsilon`] bounds replace-one from any add/remove PLD by group privacy, with
//! `D'' = D` minus the replaced record: `P[M(D) in E] <= e^eps_r(d1) P[M(D'') in E] + d1`
//! (remove orientation) and `P[M(D'') in E] <= e^eps_a(d2) P[M(D') in E] + d2` (add
//! orientation), so `eps_r(d1) + eps_a(d2)` holds at `delta = d1 + e^eps_r(d1) d2` (Dwork &
//! Roth 2014, Sec. 2.3), for the adaptively composed mechanism and for both orders. It is
//! looser (the add leg needs `delta e^-eps_r`, which the PLD's error allowances cannot resolve
//! once `eps_r` is large) and serves as a cross-check of the pair, and for PLDs without a known
//! replace-one pair (heterogeneous compositions).

use super::PrivacyLossDistribution;
use crate::error::PrivacyError;
use crate::params::Delta;

/// Number of splits of delta between the two legs that [`replace_one_epsilon`] tries.
pub const SPLITS: usize = 64;

/// A replace-one epsilon from group privacy, with the split that gave it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GroupPrivacyEpsilon {
    /// The upper bound on epsilon under replace-one.
    pub epsilon: f64,
    /// delta of the remove leg (`d1`).
    pub delta_remove: f64,
    /// epsilon of the remove leg at `d1`.
    pub epsilon_remove: f64,
    /// delta of the add leg (`d2 = (delta - d1) e^-eps_r(d1)`).
    pub delta_add: f64,
    /// epsilon of the add leg at `d2`.
    pub epsilon_add: f64,
}

/// The replace-one epsilon at `delta` of the mechanism whose add/remove PLD is `pld` (see the
/// module documentation): the smallest `eps_r(d1) + eps_a(d2)` over [`SPLITS`] fractions
/// `d1 / delta` spread geometrically over `[1e-4, 1 - 1e-4]`, with `d2 = (delta - d1)
/// e^-eps_r(d1)`.
///
/// # Errors
/// `delta` outside (0, 1); [`PrivacyError::Unbounded`] when no split gives finite epsilons.
pub fn replace_one_epsilon(
    pld: &PrivacyLossDistribution,
    delta: f64,
) -> Result<GroupPrivacyEpsilon, PrivacyError> {
    let delta = Delta::positive(delta)?.get();
    let mut best: Option<GroupPrivacyEpsilon> = None;
    for f in split_fractions() {
        let d1 = f * delta;
        let Some(eps_r) = pld.remove_law().epsilon(d1) else {
            continue;
        };
        // rounded down, so that d1 + e^eps_r d2 <= delta survives the rounding
        let d2 = (delta - d1) * (-eps_r).exp() * (1.0 - 4.0 * f64::EPSILON);
        if d2.is_nan() || d2 <= 0.0 {
            continue;
        }
        let Some(eps_a) = pld.add_law().epsilon(d2) else {
            continue;
        };
        let candidate = GroupPrivacyEpsilon {
            epsilon: eps_r + eps_a,
            delta_remove: d1,
            epsilon_remove: eps_r,
            delta_add: d2,
            epsilon_add: eps_a,
        };
        if best.is_none_or(|b| candidate.epsilon < b.epsilon) {
            best = Some(candidate);
        }
    }
    best.ok_or_else(|| {
        PrivacyError::Unbounded(format!(
            "replace-one by group privacy: no split of delta = {delta:e} between the remove and \
             add legs gives finite epsilons (the add leg needs delta e^-eps_remove, below what the \
             PLD's tails and error allowances can resolve when eps_remove is large)"
        ))
    })
}

/// The fractions `d1 / delta`: geometric from 1e-4 to 1/2, then their mirror images `1 - f`.
fn split_fractions() -> impl Iterator<Item = f64> {
    let half = SPLITS / 2;
    let lower = (0..half).map(move |i| {
        let t = i as f64 / (half - 1) as f64;
        (1e-4f64.ln() * (1.0 - t) + 0.5f64.ln() * t).exp()
    });
    let upper = (0..half - 1).map(move |i| {
        let t = i as f64 / (half - 1) as f64;
        1.0 - (1e-4f64.ln() * (1.0 - t) + 0.5f64.ln() * t).exp()
    });
    lower.chain(upper)
}

/// The replace-one epsilon of `steps` rounds of the Poisson-subsampled Gaussian (sampling rate
/// `q`, noise multiplier `z`: noise standard deviation over the largest norm of one record's
/// contribution) at `delta`: the connect-the-dots PLD of the dominating pair (module
/// documentation), composed `steps` times. An upper bound.
///
/// # Errors
/// As [`super::subsampled_gaussian_pld_epsilon`].
pub fn subsampled_gaussian_pld_epsilon_replace_one(
    q: f64,
    z: f64,
    steps: u64,
    delta: f64,
    settings: super::PldSettings,
) -> Result<f64, PrivacyError> {
    Delta::positive(delta)?;
    PrivacyLossDistribution::subsampled_gaussian_replace_one(q, z, settings)?
        .self_compose(steps)?
        .epsilon(delta)
}

#[cfg(test)]
mod tests {
    use super::super::loss::{LossLaw, SubsampledGaussianReplace};
    use super::*;
    use crate::accountant::pld::{PldSettings, subsampled_gaussian_pld_epsilon};
    use crate::mechanisms::gaussian::gaussian_epsilon;

    const S: PldSettings = PldSettings {
        bin_width: 1e-4,
        tail_mass: 1e-15,
    };

    #[test]
    fn the_splits_cover_both_ends_and_stay_inside() {
        let f: Vec<f64> = split_fractions().collect();
        assert_eq!(f.len(), SPLITS - 1);
        assert!(f.iter().all(|&x| x > 0.0 && x < 1.0));
        assert!((f[0] - 1e-4).abs() < 1e-15 && (f[SPLITS / 2 - 1] - 0.5).abs() < 1e-12);
        assert!(f.iter().any(|&x| (x - (1.0 - 1e-4)).abs() < 1e-15));
    }

    #[test]
    fn the_pair_law_inverts_its_loss_and_splits_its_mass() {
        for (q, z) in [(0.01, 0.5), (0.25, 1.0), (0.9, 3.0), (1.0, 2.0)] {
            let law = SubsampledGaussianReplace { q, z };
            for l in [-40.0f64, -3.0, -1e-3, 1e-9, 0.5, 7.0, 60.0] {
                let x = law.x_of(l);
                let back = law.loss_at(x);
                assert!(
                    (back - l).abs() <= 1e-12 * l.abs().max(1.0),
                    "q={q} l={l}: {back}"
                );
            }
            // the bins of a grid sum to the mass between its ends; the excess is within [0, p]
            let (h, lo, hi) = (0.05, -2.0, 2.0);
            let mut total = 0.0;
            for k in 0..80 {
                let a = lo + k as f64 * h;
                let (p, x) = law.bin(a, a + h);
                assert!((0.0..=p).contains(&x), "q={q}: excess {x} of {p}");
                total += p;
            }
            let expect = law.cdf(hi) - law.cdf(lo);
            assert!((total - expect).abs() < 1e-12, "q={q}: {total} vs {expect}");
            assert!((law.cdf(0.3) + law.sf(0.3) - 1.0).abs() < 1e-15);
        }
    }

    /// The loss in log space: exact at q = 1 (`2x/z^2`) even where `e^s2` underflows (small
    /// `z`, review of issue 15), and accurate near `L = 0` (the slope at 0 times `x`).
    #[test]
    fn the_pair_loss_is_accurate_at_q_one_small_z_and_near_zero() {
        for z in [0.02f64, 0.03, 0.05, 1.0] {
            let law = SubsampledGaussianReplace { q: 1.0, z };
            for x in [1e-12f64, 0.3, 1.35, 1.363, 5.0, -2.0] {
                let exact = 2.0 * x / (z * z);
                let l = law.loss_at(x);
                assert!(
                    (l - exact).abs() <= 1e-13 * exact.abs(),
                    "z={z} x={x}: {l} vs {exact}"
                );
                let back = law.x_of(exact);
                assert!(
                    (back - x).abs() <= 1e-13 * x.abs(),
                    "z={z} x={x}: x_of {back}"
                );
            }
        }
        for (q, z) in [(0.5, 1.0), (0.01, 0.3), (0.9, 3.0)] {
            let law = SubsampledGaussianReplace { q, z };
            let w = 1.0 / (1.0 + (1.0 - q) / q * (1.0 / (2.0 * z * z)).exp());
            let slope0 = 2.0 * w / (z * z);
            for x in [1e-12f64, -3e-11] {
                let l = law.loss_at(x);
                assert!(
                    (l - slope0 * x).abs() <= 1e-12 * (slope0 * x).abs(),
                    "q={q}: {l}"
                );
            }
        }
    }

    #[test]
    fn at_q_one_and_small_z_the_pair_is_the_exact_gaussian() {
        let coarse = PldSettings {
            bin_width: 1e-2,
            tail_mass: 1e-15,
        };
        // z = 0.05: e^s2 underflows on the upper grid (s2 < -745 for x > 1.36)
        for z in [0.05, 0.055] {
            let exact = gaussian_epsilon(z, 2.0, 1e-5).unwrap();
            let e = subsampled_gaussian_pld_epsilon_replace_one(1.0, z, 1, 1e-5, coarse).unwrap();
            assert!(e >= exact && e <= exact + 0.05, "z={z}: {e} vs {exact}");
        }
    }

    /// At q = 1 the pair is the Gaussian mechanism at sensitivity 2, whose exact epsilon is
    /// Balle & Wang's; group privacy lies above it.
    #[test]
    fn at_q_one_the_pair_is_the_exact_gaussian_at_twice_the_sensitivity() {
        for (z, t, delta) in [
            (2.0, 1u64, 1e-5),
            (5.0, 4, 1e-6),
            (10.0, 10, 1e-5),
            (2.0, 100, 1e-5),
        ] {
            // T-fold Gaussian at sensitivity 2 = one Gaussian with sigma z / sqrt(T)
            let exact = gaussian_epsilon(z / (t as f64).sqrt(), 2.0, delta).unwrap();
            let pair = subsampled_gaussian_pld_epsilon_replace_one(1.0, z, t, delta, S).unwrap();
            assert!(
                pair >= exact && pair <= exact + 1e-3,
                "z={z}: {pair} vs {exact}"
            );
            if t <= 10 {
                let pld = PrivacyLossDistribution::subsampled_gaussian(1.0, z, S)
                    .unwrap()
                    .self_compose(t)
                    .unwrap();
                let g = replace_one_epsilon(&pld, delta).unwrap();
                assert!(
                    g.epsilon >= exact,
                    "z={z}: group {} < exact {exact}",
                    g.epsilon
                );
                let used = g.delta_remove + g.epsilon_remove.exp() * g.delta_add;
                assert!((used - delta).abs() <= 1e-12 * delta, "{used} vs {delta}");
            }
        }
    }

    /// The pair's epsilon lies between the add/remove epsilon and the group-privacy bound (two
    /// independent upper bounds: the pair may not exceed the looser one by more than its
    /// discretisation).
    #[test]
    fn the_pair_lies_between_add_remove_and_group_privacy() {
        for (q, z, t) in [
            (0.01, 1.0, 1000u64),
            (0.1, 2.0, 100),
            (0.5, 0.8, 10),
            (0.25, 1.0, 4),
        ] {
            let delta = 1e-5;
            let pair = subsampled_gaussian_pld_epsilon_replace_one(q, z, t, delta, S).unwrap();
            let ar = subsampled_gaussian_pld_epsilon(q, z, t, delta, S).unwrap();
            let pld = PrivacyLossDistribution::subsampled_gaussian(q, z, S)
                .unwrap()
                .self_compose(t)
                .unwrap();
            let group = replace_one_epsilon(&pld, delta).unwrap().epsilon;
            assert!(pair > ar.epsilon, "q={q}: {pair} <= {}", ar.epsilon);
            assert!(pair <= group + 1e-6, "q={q}: pair {pair} > group {group}");
            // group privacy is at most the even split
            let (er, _) = pld.epsilons(delta / 2.0).unwrap();
            let (_, ea) = pld.epsilons(delta / 2.0 * (-er).exp()).unwrap();
            assert!(group <= er + ea + 1e-12, "q={q}: {group} > {}", er + ea);
        }
    }

    /// The hockey-stick divergence `int (p - e^eps q)_+` of the pair `+1` replaced by `-1`,
    /// `p = (1-q) N(0, z^2) + q N(1, z^2)`, `q = (1-q) N(0, z^2) + q N(-1, z^2)`, by the
    /// trapezoid rule on a fine grid: the exact one-step `delta(eps)`.
    fn antipodal_delta(q: f64, z: f64, eps: f64) -> f64 {
        let n = 400_000;
        let (lo, hi) = (-14.0 * z - 2.0, 14.0 * z + 2.0);
        let h = (hi - lo) / n as f64;
        let phi =
            |x: f64| (-(x * x) / (2.0 * z * z)).exp() / (z * (2.0 * std::f64::consts::PI).sqrt());
        let f = |x: f64| {
            let p = (1.0 - q) * phi(x) + q * phi(x - 1.0);
            let r = (1.0 - q) * phi(x) + q * phi(x + 1.0);
            (p - eps.exp() * r).max(0.0)
        };
        (0..=n)
            .map(|i| {
                let w = if i == 0 || i == n { 0.5 } else { 1.0 };
                w * f(lo + i as f64 * h)
            })
            .sum::<f64>()
            * h
    }

    #[test]
    fn one_step_is_the_exact_epsilon_of_the_pair_up_to_the_grid() {
        for (q, z, delta) in [
            (0.25, 1.0, 1e-2),
            (0.1, 0.7, 1e-3),
            (0.5, 2.0, 1e-5),
            (0.01, 0.5, 1e-6),
        ] {
            let e = subsampled_gaussian_pld_epsilon_replace_one(q, z, 1, delta, S).unwrap();
            let d = antipodal_delta(q, z, e);
            assert!(
                d <= delta * (1.0 + 1e-6),
                "q={q} z={z}: delta({e}) = {d:e} > {delta:e}"
            );
            assert!(
                antipodal_delta(q, z, (e - 1e-3).max(0.0)) > delta,
                "q={q} z={z}: loose"
            );
            // group privacy, the independent route, is also above the exact value
            let pld = PrivacyLossDistribution::subsampled_gaussian(q, z, S).unwrap();
            let g = replace_one_epsilon(&pld, delta).unwrap().epsilon;
            assert!(
                antipodal_delta(q, z, g) <= delta * (1.0 + 1e-6),
                "q={q} z={z}: group {g}"
            );
        }
    }

    #[test]
    fn bad_delta_is_an_error() {
        let pld = PrivacyLossDistribution::subsampled_gaussian(0.1, 1.0, S).unwrap();
        assert!(replace_one_epsilon(&pld, 0.0).is_err());
        assert!(replace_one_epsilon(&pld, 1.0).is_err());
        assert!(replace_one_epsilon(&pld, f64::NAN).is_err());
        assert!(subsampled_gaussian_pld_epsilon_replace_one(0.1, 1.0, 1, 0.0, S).is_err());
        assert!(subsampled_gaussian_pld_epsilon_replace_one(1.5, 1.0, 1, 1e-5, S).is_err());
    }
}
