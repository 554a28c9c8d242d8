//! The privacy sweep: how the regret at a fixed horizon depends on epsilon, `R ~ eps^-k`, with
//! a bootstrap over seeds.

use rayon::prelude::*;
use serde::Serialize;

use super::{ScalingError, bootstrap, first_error, ols};
use crate::audit::mix;
use crate::outcome::Verdict;
use crate::stats::normal_quantile;

/// The result of a privacy sweep: how the regret at a fixed horizon depends on epsilon.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SweepResult {
    /// The epsilons.
    pub epsilons: Vec<f64>,
    /// Mean regret over seeds at each epsilon.
    pub mean: Vec<f64>,
    /// Slope of `ln R` against `ln(1/eps)`: the exponent `k` of `R ~ eps^-k`.
    pub exponent: f64,
    /// Interval of the exponent (normal bootstrap, level `1 - alpha`).
    pub exponent_lower: f64,
    /// Upper end.
    pub exponent_upper: f64,
    /// PASS when the interval lies in `[0, max_exponent]` (regret does not increase with epsilon
    /// and grows no faster than the theory's `eps^-max_exponent`), FAIL when it lies entirely
    /// outside, INCONCLUSIVE otherwise.
    pub verdict: Verdict,
}

/// Privacy sweep: `regret(eps, seed)` at each epsilon for `seeds` seeds; the exponent `k` of
/// `R ~ eps^-k` with a bootstrap over seeds, compared with `[0, max_exponent]`.
pub fn privacy_sweep<F, E>(
    regret: F,
    epsilons: &[f64],
    seeds: usize,
    max_exponent: f64,
    alpha: f64,
    seed: u64,
) -> Result<SweepResult, ScalingError>
where
    F: Fn(f64, u64) -> Result<f64, E> + Sync,
    E: Into<Box<dyn std::error::Error + Send + Sync + 'static>> + Send,
{
    if epsilons.len() < 3 || seeds < 8 || epsilons.iter().any(|e| !(e.is_finite() && *e > 0.0)) {
        return Err(ScalingError::InvalidConfig(
            "need >= 3 positive epsilons and >= 8 seeds".into(),
        ));
    }
    let k = epsilons.len();
    let flat = (0..seeds * k)
        .into_par_iter()
        .map(|i| {
            regret(
                epsilons[i % k],
                mix(seed ^ mix((i / k) as u64) ^ mix(2000 + (i % k) as u64)),
            )
        })
        .collect::<Vec<Result<f64, E>>>();
    let flat = first_error(flat)?;
    if flat.iter().any(|r| !r.is_finite()) {
        return Err(ScalingError::Regret("non-finite regret".into()));
    }
    let x: Vec<f64> = epsilons.iter().map(|e| -e.ln()).collect();
    let fit_idx = |idx: &[usize]| -> Option<f64> {
        let m: Vec<f64> = (0..k)
            .map(|j| idx.iter().map(|&s| flat[s * k + j]).sum::<f64>() / idx.len() as f64)
            .collect();
        let y: Vec<f64> = m.iter().map(|v| v.ln()).collect();
        y.iter().all(|v| v.is_finite()).then(|| ols(&x, &y).0)
    };
    let all: Vec<usize> = (0..seeds).collect();
    let mean: Vec<f64> = (0..k)
        .map(|j| all.iter().map(|&s| flat[s * k + j]).sum::<f64>() / seeds as f64)
        .collect();
    let exponent =
        fit_idx(&all).ok_or_else(|| ScalingError::Regret("a mean regret is zero".into()))?;
    let boot = bootstrap::slopes(seeds, 1000, seed ^ 0x5eed, fit_idx);
    let se = bootstrap::standard_deviation(&boot);
    let z = -normal_quantile(alpha / 2.0);
    let (lo, hi) = (exponent - z * se, exponent + z * se);
    let verdict = if lo >= 0.0 && hi <= max_exponent {
        Verdict::Pass
    } else if hi < 0.0 || lo > max_exponent {
        Verdict::Fail
    } else {
        Verdict::Inconclusive
    };
    Ok(SweepResult {
        epsilons: epsilons.to_vec(),
        mean,
        exponent,
        exponent_lower: lo,
        exponent_upper: hi,
        verdict,
    })
}
