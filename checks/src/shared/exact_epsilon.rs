//! The exact epsilon of an audited pair at the audit's delta, when the claim is an accountant's
//! upper bound that the true privacy curve may lie well below: the audit's tightness is then
//! stated against the exact value (what any pair and test could reach) as well as against the
//! claim, and the audit must reach a stated fraction of the exact value.
//!
//! For a pair `(P, Q)`, `eps(delta) = sup_E ln((P(E) - delta) / Q(E))` over the events with
//! `P(E) > delta` (`delta(eps) <= delta` exactly when `e^eps Q(E) >= P(E) - delta` for every
//! `E`), and by Neyman-Pearson the supremum is over the level sets of the likelihood ratio: the
//! events the auditor certifies, so an audit with the exact LLR statistic can approach it.

use super::ALPHA;
use verification::audit::AuditResult;
use verification::{Outcome, Verdict};

/// The exact epsilon of an audited pair, bracketed.
#[derive(Debug, Clone)]
pub struct ExactEpsilon {
    /// An upper bound on the exact epsilon (the tightness is stated against it: conservative).
    pub upper: f64,
    /// A lower bound, or an estimate from below, showing how close `upper` is.
    pub lower: f64,
    /// How the two were computed, in words.
    pub how: String,
}

/// `1 - Phi(x)`, accurate in the upper tail.
fn normal_sf(x: f64) -> f64 {
    verification::stats::normal_cdf(-x)
}

/// The exact `eps(delta)` of one step of the Poisson-subsampled Gaussian: the larger over the
/// two orientations of the add/remove pair `((1 - q) N(0, z^2) + q N(1, z^2), N(0, z^2))`
/// (`z`: the noise over the shift). Both likelihood ratios are monotone in the output, so the
/// events are the half-lines `{y > t}` (remove) and `{y <= t}` (add), and
/// `eps(delta) = max_t ln((P(y > t) - delta) / Q(y > t))` (remove; the mirror for add), with
/// Gaussian tail probabilities. The maximum over `t` is taken on a grid of 40 001 points over
/// `[-14 z, 1 + 14 z]`, refined by golden section around the best point. The value is that of
/// a threshold actually evaluated, so it is a lower bound on the exact epsilon (up to floating
/// point), and the refinement leaves it below the maximum by far less than the audits resolve.
pub fn subsampled_gaussian_exact_epsilon(q: f64, z: f64, delta: f64) -> f64 {
    let p_gt = |t: f64| (1.0 - q) * normal_sf(t / z) + q * normal_sf((t - 1.0) / z);
    let q_gt = |t: f64| normal_sf(t / z);
    let ln_ratio = |num: f64, den: f64| {
        if num > 0.0 && den > 0.0 {
            (num / den).ln()
        } else {
            f64::NEG_INFINITY
        }
    };
    // Remove: E = {y > t}; add: E = {y <= t}, P and Q swapped.
    let remove = |t: f64| ln_ratio(p_gt(t) - delta, q_gt(t));
    let add = |t: f64| ln_ratio((1.0 - q_gt(t)) - delta, 1.0 - p_gt(t));
    let (lo, hi) = (-14.0 * z, 1.0 + 14.0 * z);
    let points = 40_000;
    let step = (hi - lo) / points as f64;
    let maximise = |f: &dyn Fn(f64) -> f64| -> f64 {
        let (mut best, mut arg) = (f64::NEG_INFINITY, lo);
        for i in 0..=points {
            let t = lo + step * i as f64;
            let v = f(t);
            if v > best {
                (best, arg) = (v, t);
            }
        }
        // Golden section on [arg - step, arg + step].
        let g = (5f64.sqrt() - 1.0) / 2.0;
        let (mut a, mut b) = (arg - step, arg + step);
        for _ in 0..100 {
            let (c, d) = (b - g * (b - a), a + g * (b - a));
            if f(c) >= f(d) {
                b = d;
            } else {
                a = c;
            }
        }
        best.max(f((a + b) / 2.0))
    };
    maximise(&remove).max(maximise(&add))
}

/// Compare the audit with the exact epsilon of its pair: FAIL when `eps_lower` exceeds its
/// upper bound (a certified loss above what the pair can have: the exact curve, hence the
/// accountant, would be wrong), INCONCLUSIVE when a PASS reaches less than `min_tightness` of
/// it; the claim and the measured text say so, with both tightnesses.
pub fn against_exact(
    mut o: Outcome,
    r: &AuditResult,
    exact: &ExactEpsilon,
    min_tightness: f64,
) -> Outcome {
    let tightness = r.eps_lower / exact.upper;
    if r.eps_lower > exact.upper {
        o.verdict = Verdict::Fail;
    } else if o.verdict == Verdict::Pass && tightness < min_tightness {
        o.verdict = Verdict::Inconclusive;
    }
    o.claim.push_str(&format!(
        "; and eps_lower <= the pair's exact epsilon (at most {:.4}) at delta = {:e}, reaching \
         at least {min_tightness} of it (confidence 1 - {ALPHA:e})",
        exact.upper, r.delta
    ));
    o.measured.push_str(&format!(
        "; the pair's exact epsilon at delta = {:e} is in [{:.5}, {:.5}] ({}); tightness against \
         the exact epsilon {tightness:.3}, against the claim {}",
        r.delta,
        exact.lower,
        exact.upper,
        exact.how,
        super::fmt_opt(r.eps_tightness)
    ));
    o.value("exact_epsilon", exact.upper)
        .value("exact_epsilon_lower", exact.lower)
        .value(verification::outcome::EXACT_TIGHTNESS, tightness)
        .value("min_exact_tightness", min_tightness)
}

#[cfg(test)]
mod tests {
    use super::*;
    use privacy::accountant::pld::subsampled_gaussian_pld_epsilon;

    /// The closed form lies in the PLD accountant's bracket (connect-the-dots above, the
    /// optimistic discretisation below) at the audits' settings.
    #[test]
    fn the_closed_form_is_inside_the_pld_bracket() {
        for (q, z, delta) in [(0.25, 1.0, 1e-2), (0.25, 1.0, 1e-5), (0.1, 2.0, 1e-3)] {
            let e = subsampled_gaussian_exact_epsilon(q, z, delta);
            let pld = subsampled_gaussian_pld_epsilon(q, z, 1, delta, Default::default()).unwrap();
            assert!(
                e <= pld.epsilon + 1e-9 && e >= pld.epsilon_optimistic - 1e-6,
                "q {q}, z {z}, delta {delta}: exact {e}, PLD [{}, {}]",
                pld.epsilon_optimistic,
                pld.epsilon
            );
        }
    }
}
