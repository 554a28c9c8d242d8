//! The power of the scaling checker: a calibrated process with the measured runs' dispersion
//! and a known exponent, how often the checker fails it, and the smallest excess over the
//! theory's exponent it detects.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha20Rng;
use rayon::prelude::*;

use super::{ScalingError, ScalingResult, analyse};
use crate::audit::mix;
use crate::outcome::Verdict;

/// A calibrated synthetic regret process: the measured runs of `result` with their trend
/// replaced by `T^exponent L(T)` (`L` the configuration's log factor). Run `s` at horizon `h`
/// is `T_h^exponent L(T_h) R_sh / m_h`, with `m_h` the mean of the measured runs at `T_h`: every
/// run keeps its ratio to the mean, and so the correlation of its deviations across horizons,
/// while the mean over runs is exactly `T^exponent L(T)`. So the process has the algorithm's
/// dispersion and a known exponent, in the statistic the checker fits (the mean).
///
/// # Errors
/// [`ScalingError::Regret`] when a horizon's mean regret is not positive.
pub fn calibrated_process(
    result: &ScalingResult,
    exponent: f64,
) -> Result<Vec<Vec<f64>>, ScalingError> {
    let runs = &result.regret;
    let h = result.config.horizons.len();
    let mean: Vec<f64> = (0..h)
        .map(|j| runs.iter().map(|r| r[j]).sum::<f64>() / runs.len() as f64)
        .collect();
    if mean.iter().any(|&m| !(m.is_finite() && m > 0.0)) {
        return Err(ScalingError::Regret(format!(
            "mean regret {mean:?} is not positive at every horizon: no calibrated process"
        )));
    }
    Ok(runs
        .iter()
        .map(|r| {
            (0..h)
                .map(|j| {
                    let t = result.config.horizons[j];
                    (t as f64).powf(exponent) * result.config.log_factor(t) * r[j] / mean[j]
                })
                .collect()
        })
        .collect())
}

/// The resampled experiments of [`fail_rate`] and [`detectable_excess`]: `replicates` data sets
/// drawn with replacement from the population [`calibrated_process`]`(result, exponent)`, each
/// as many runs as `result` has, judged by the checker; returns each one's result.
fn resampled(
    result: &ScalingResult,
    exponent: f64,
    replicates: usize,
) -> Result<Vec<ScalingResult>, ScalingError> {
    let population = calibrated_process(result, exponent)?;
    judge_resamples(&population, &result.config, replicates)
}

/// `replicates` data sets drawn with replacement from `population` (each as many runs as it
/// has), each judged by the checker under `config`.
fn judge_resamples(
    population: &[Vec<f64>],
    config: &super::ScalingConfig,
    replicates: usize,
) -> Result<Vec<ScalingResult>, ScalingError> {
    let n = population.len();
    (0..replicates)
        .into_par_iter()
        .map(|k| {
            let mut rng = ChaCha20Rng::seed_from_u64(mix(config.seed ^ mix(0xd00d + k as u64)));
            let runs = (0..n)
                .map(|_| population[rng.random_range(0..n)].clone())
                .collect();
            analyse(runs, config)
        })
        .collect()
}

/// How often the checker FAILs data sets drawn from a process with exponent `exponent` and
/// `result`'s dispersion: the population [`calibrated_process`]`(result, exponent)` (whose mean
/// is exactly `T^exponent L(T)`) is resampled with replacement, `replicates` times, each
/// resample as many runs as `result` has; each resample's mean, and so its fitted slope,
/// varies as a new experiment's would, and the checker (with its own bootstrap interval)
/// judges it. The rate is an estimate from `replicates` draws (standard error at most
/// `0.5 / sqrt(replicates)`).
///
/// # Errors
/// As [`calibrated_process`] and the checker.
pub fn fail_rate(
    result: &ScalingResult,
    exponent: f64,
    replicates: usize,
) -> Result<f64, ScalingError> {
    let judged = resampled(result, exponent, replicates)?;
    Ok(judged.iter().filter(|r| r.verdict == Verdict::Fail).count() as f64 / replicates as f64)
}

/// How often the checker FAILs a new experiment like `result` itself (same algorithm, same
/// number of runs): `result`'s runs are resampled with replacement, `replicates` times, and each
/// resample is judged as [`fail_rate`] judges its. It estimates the power of a check against
/// the process that produced the runs (a positive control's probability of being FAILed),
/// without assuming any exponent; standard error at most `0.5 / sqrt(replicates)`, and, being a
/// bootstrap estimate from the measured runs, it is only as good as they are representative.
///
/// # Errors
/// As the checker.
pub fn replicate_fail_rate(result: &ScalingResult, replicates: usize) -> Result<f64, ScalingError> {
    let judged = judge_resamples(&result.regret, &result.config, replicates)?;
    Ok(judged.iter().filter(|r| r.verdict == Verdict::Fail).count() as f64 / replicates as f64)
}

/// The smallest excess `d` over the theory's exponent `a` (a multiple of `step`, at most
/// `d_max`) that the checker detects (verdict FAIL) with probability at least `power`, for
/// processes with the dispersion of `result`'s runs, with that probability; `None` when no such
/// `d` reaches it.
///
/// One set of resampled experiments at exponent `a` ([`fail_rate`]'s, with the same resamples
/// for every `d`) suffices: raising the exponent by `d` multiplies every run at `T_h` by the
/// same `T_h^d`, which adds exactly `d` to a replicate's slope and leaves its bootstrap standard
/// error unchanged, so replicate `k` FAILs at `a + d` exactly when `d > a - lower_k`, `lower_k`
/// the lower end of its interval at `a`. The rate at `a + d` is the fraction of replicates with
/// `a - lower_k < d`.
///
/// # Errors
/// As [`fail_rate`].
pub fn detectable_excess(
    result: &ScalingResult,
    power: f64,
    step: f64,
    d_max: f64,
    replicates: usize,
) -> Result<Option<(f64, f64)>, ScalingError> {
    let a = result.config.theory_exponent;
    let thresholds: Vec<f64> = resampled(result, a, replicates)?
        .iter()
        .map(|r| a - r.slope_lower)
        .collect();
    let steps = (d_max / step).round() as usize;
    for i in 1..=steps {
        let d = (step * i as f64 * 1e6).round() / 1e6;
        let rate = thresholds.iter().filter(|&&t| t < d).count() as f64 / replicates as f64;
        if rate >= power {
            return Ok(Some((d, rate)));
        }
    }
    Ok(None)
}
