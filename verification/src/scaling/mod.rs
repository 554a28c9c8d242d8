//! The regret-scaling checker: does the cumulative regret of an algorithm grow no faster than
//! the power of the horizon its paper proves?
//!
//! # Method
//! Run the algorithm on a geometric grid of horizons `T_1 < ... < T_H` (`H >= 6`) with `S`
//! seeds. With `R_h` the mean regret over seeds at `T_h` and the paper's bound
//! `R_T = O(T^a L(T))`, where `L(T) = (ln T)^c` collects the stated log factors, fit by ordinary
//! least squares the slope `b` of
//!
//! `y_h = ln(R_h / L(T_h))` against `x_h = ln T_h`.
//!
//! Dividing by `L` before fitting is how the log factors are accounted for: if
//! `R_T <= C T^a L(T)` then `y_h <= ln C + a x_h`, so a slope above `a` over a long enough range
//! contradicts the bound. The slope's uncertainty comes from a bootstrap over seeds (seeds
//! resampled with replacement, the same resample at every horizon, so that correlations
//! between horizons of one seed are kept): the interval is `b +- z se_boot` with
//! `z = Phi^-1(1 - alpha/2)` (normal bootstrap interval; its level is asymptotic).
//!
//! Verdict: PASS when the upper end is `<= a`, FAIL when the lower end is `> a`, INCONCLUSIVE
//! otherwise. A PASS says the regret grew no faster than `T^a L(T)` over the tested horizons; it
//! says nothing about horizons beyond the grid, nor about the constant.

use std::sync::Arc;

use rayon::prelude::*;
use serde::Serialize;

use crate::audit::mix;
use crate::outcome::Verdict;
use crate::stats::normal_quantile;

mod bootstrap;
mod power;
mod sweep;

pub use power::{calibrated_process, detectable_excess, fail_rate, replicate_fail_rate};
pub use sweep::{SweepResult, privacy_sweep};

/// Errors of the scaling checker.
#[derive(Debug, Clone, thiserror::Error)]
#[non_exhaustive]
pub enum ScalingError {
    /// A configuration value is out of range.
    #[error("invalid scaling configuration: {0}")]
    InvalidConfig(String),
    /// The algorithm returned a regret that cannot be fitted (non-finite, or a mean of 0).
    #[error("unusable regret: {0}")]
    Regret(String),
    /// A run of the algorithm failed: the check stops (a failed run is never a regret).
    #[error("a run failed")]
    Run(#[source] Arc<dyn std::error::Error + Send + Sync + 'static>),
}

impl ScalingError {
    /// Wrap the error of a failed run.
    pub fn run(e: impl Into<Box<dyn std::error::Error + Send + Sync + 'static>>) -> Self {
        Self::Run(Arc::from(e.into()))
    }
}

/// The first error of a list of run results, in index order (deterministic whatever the
/// thread count), or the values.
fn first_error<T, E>(results: Vec<Result<T, E>>) -> Result<Vec<T>, ScalingError>
where
    E: Into<Box<dyn std::error::Error + Send + Sync + 'static>> + Send,
{
    results
        .into_iter()
        .map(|r| r.map_err(ScalingError::run))
        .collect()
}

/// `count` horizons from `t_min` to `t_max`, geometrically spaced, rounded, distinct.
pub fn geometric_horizons(t_min: usize, t_max: usize, count: usize) -> Vec<usize> {
    if count < 2 || t_min == 0 || t_max <= t_min {
        return vec![t_min.max(1)];
    }
    let r = (t_max as f64 / t_min as f64).powf(1.0 / (count - 1) as f64);
    let mut v: Vec<usize> = (0..count)
        .map(|i| (t_min as f64 * r.powi(i as i32)).round() as usize)
        .collect();
    v.dedup();
    v
}

/// What the checker compares against.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ScalingConfig {
    /// Horizons (at least 6, increasing).
    pub horizons: Vec<usize>,
    /// Seeds per horizon (at least 8).
    pub seeds: usize,
    /// Bootstrap replicates (at least 200).
    pub bootstrap: usize,
    /// Two-sided level of the slope interval.
    pub alpha: f64,
    /// The proven exponent `a` of `T`.
    pub theory_exponent: f64,
    /// The power `c` of the stated log factor `L(T) = (ln T)^c`.
    pub log_power: f64,
    /// Base seed (run `s` uses `mix(seed, s)`).
    pub seed: u64,
}

impl ScalingConfig {
    fn validate(&self) -> Result<(), ScalingError> {
        let bad = |m: String| Err(ScalingError::InvalidConfig(m));
        if self.horizons.len() < 6 {
            return bad(format!("{} horizons, need at least 6", self.horizons.len()));
        }
        if self.horizons.windows(2).any(|w| w[1] <= w[0]) || self.horizons[0] < 2 {
            return bad("horizons must be increasing and >= 2".into());
        }
        if self.seeds < 8 || self.bootstrap < 200 {
            return bad(format!(
                "{} seeds and {} bootstrap replicates, need >= 8 and >= 200",
                self.seeds, self.bootstrap
            ));
        }
        let alpha_ok = self.alpha > 0.0 && self.alpha < 0.5;
        if !alpha_ok || !self.theory_exponent.is_finite() || !self.log_power.is_finite() {
            return bad("alpha in (0, 0.5), finite exponent and log power required".into());
        }
        Ok(())
    }

    fn log_factor(&self, t: usize) -> f64 {
        (t as f64).ln().powf(self.log_power)
    }
}

/// The result of a scaling check.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ScalingResult {
    /// The configuration.
    pub config: ScalingConfig,
    /// Regret of run `s` at horizon `h`: `regret[s][h]`.
    pub regret: Vec<Vec<f64>>,
    /// Mean regret over seeds per horizon.
    pub mean: Vec<f64>,
    /// Fitted slope of `ln(mean / L(T))` against `ln T`: what the verdict tests.
    pub slope: f64,
    /// Fitted slope of `ln(mean)` against `ln T`, without the log factor: reported beside
    /// [`ScalingResult::slope`] so a reader sees how much the division by `L(T)` moves it
    /// (`slope = raw_slope - c * (slope of ln ln T against ln T)`).
    pub raw_slope: f64,
    /// Intercept of the fit.
    pub intercept: f64,
    /// Bootstrap standard error of the slope.
    pub slope_se: f64,
    /// Interval `slope -+ z se`.
    pub slope_lower: f64,
    /// Upper end of the interval.
    pub slope_upper: f64,
    /// 2.5% and 97.5% percentiles of the bootstrap slopes (for reference).
    pub percentile_95: (f64, f64),
    /// PASS / FAIL / INCONCLUSIVE against `theory_exponent`.
    pub verdict: Verdict,
}

/// OLS slope and intercept of `y` against `x`.
pub fn ols(x: &[f64], y: &[f64]) -> (f64, f64) {
    let n = x.len() as f64;
    let mx = x.iter().sum::<f64>() / n;
    let my = y.iter().sum::<f64>() / n;
    let sxy: f64 = x.iter().zip(y).map(|(a, b)| (a - mx) * (b - my)).sum();
    let sxx: f64 = x.iter().map(|a| (a - mx) * (a - mx)).sum();
    let b = sxy / sxx;
    (b, my - b * mx)
}

fn fit(config: &ScalingConfig, mean: &[f64]) -> Option<(f64, f64)> {
    let x: Vec<f64> = config.horizons.iter().map(|&t| (t as f64).ln()).collect();
    let y: Vec<f64> = config
        .horizons
        .iter()
        .zip(mean)
        .map(|(&t, &r)| (r / config.log_factor(t)).ln())
        .collect();
    y.iter().all(|v| v.is_finite()).then(|| ols(&x, &y))
}

/// Check the scaling of `regret(T, seed)` (cumulative regret of one run of horizon `T`). Runs
/// are independent across horizons.
pub fn check_scaling<F, E>(regret: F, config: &ScalingConfig) -> Result<ScalingResult, ScalingError>
where
    F: Fn(usize, u64) -> Result<f64, E> + Sync,
    E: Into<Box<dyn std::error::Error + Send + Sync + 'static>> + Send,
{
    config.validate()?;
    let h = config.horizons.len();
    let flat: Vec<Result<f64, E>> = (0..config.seeds * h)
        .into_par_iter()
        .map(|i| {
            let (s, j) = (i / h, i % h);
            regret(
                config.horizons[j],
                mix(config.seed ^ mix(s as u64) ^ mix(1000 + j as u64)),
            )
        })
        .collect();
    let flat = first_error(flat)?;
    let runs: Vec<Vec<f64>> = flat.chunks(h).map(<[f64]>::to_vec).collect();
    analyse(runs, config)
}

/// Check the scaling of `curve(T_max, seed)` (the cumulative regret after each round of one
/// run, of length at least `T_max`), reading every horizon off the same run: for anytime
/// algorithms whose parameters do not depend on the horizon.
pub fn check_scaling_curves<F, E>(
    curve: F,
    config: &ScalingConfig,
) -> Result<ScalingResult, ScalingError>
where
    F: Fn(usize, u64) -> Result<Vec<f64>, E> + Sync,
    E: Into<Box<dyn std::error::Error + Send + Sync + 'static>> + Send,
{
    config.validate()?;
    let t_max = *config.horizons.last().unwrap_or(&1);
    let runs: Result<Vec<Vec<f64>>, ScalingError> = (0..config.seeds)
        .into_par_iter()
        .map(|s| {
            let c = curve(t_max, mix(config.seed ^ mix(s as u64))).map_err(ScalingError::run)?;
            if c.len() < t_max {
                return Err(ScalingError::Regret(format!(
                    "curve of length {} < T_max = {t_max}",
                    c.len()
                )));
            }
            Ok(config.horizons.iter().map(|&t| c[t - 1]).collect())
        })
        .collect();
    analyse(runs?, config)
}

fn analyse(runs: Vec<Vec<f64>>, config: &ScalingConfig) -> Result<ScalingResult, ScalingError> {
    let h = config.horizons.len();
    if runs.iter().flatten().any(|r| !r.is_finite()) {
        return Err(ScalingError::Regret("non-finite regret".into()));
    }
    let mean_of = |idx: &[usize]| -> Vec<f64> {
        (0..h)
            .map(|j| idx.iter().map(|&s| runs[s][j]).sum::<f64>() / idx.len() as f64)
            .collect()
    };
    let all: Vec<usize> = (0..runs.len()).collect();
    let mean = mean_of(&all);
    let (slope, intercept) = fit(config, &mean)
        .ok_or_else(|| ScalingError::Regret(format!("mean regret {mean:?} has a zero")))?;
    let mut boot = bootstrap::slopes(runs.len(), config.bootstrap, config.seed ^ 0xb007, |idx| {
        fit(config, &mean_of(idx)).map(|(b, _)| b)
    });
    if boot.len() < config.bootstrap / 2 {
        return Err(ScalingError::Regret(
            "most bootstrap resamples have a zero mean regret".into(),
        ));
    }
    let se = bootstrap::standard_deviation(&boot);
    boot.sort_by(f64::total_cmp);
    let q = |p: f64| boot[((boot.len() - 1) as f64 * p).round() as usize];
    let z = -normal_quantile(config.alpha / 2.0);
    let (lo, hi) = (slope - z * se, slope + z * se);
    let a = config.theory_exponent;
    let x: Vec<f64> = config.horizons.iter().map(|&t| (t as f64).ln()).collect();
    let y: Vec<f64> = mean.iter().map(|m| m.ln()).collect();
    let (raw_slope, _) = ols(&x, &y);
    let verdict = if hi <= a {
        Verdict::Pass
    } else if lo > a {
        Verdict::Fail
    } else {
        Verdict::Inconclusive
    };
    Ok(ScalingResult {
        config: config.clone(),
        regret: runs,
        mean,
        slope,
        raw_slope,
        intercept,
        slope_se: se,
        slope_lower: lo,
        slope_upper: hi,
        percentile_95: (q(0.025), q(0.975)),
        verdict,
    })
}

/// The checker's verdict on given runs (`runs[s][h]` at `config.horizons[h]`): what
/// [`check_scaling_curves`] computes after it has the runs.
///
/// # Errors
/// As [`check_scaling_curves`].
pub fn check_scaling_runs(
    runs: Vec<Vec<f64>>,
    config: &ScalingConfig,
) -> Result<ScalingResult, ScalingError> {
    config.validate()?;
    analyse(runs, config)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha20Rng;
    use rand_distr::{Distribution, LogNormal};

    fn config(a: f64, c: f64) -> ScalingConfig {
        ScalingConfig {
            horizons: geometric_horizons(100, 10_000, 7),
            seeds: 32,
            bootstrap: 500,
            alpha: 1e-6,
            theory_exponent: a,
            log_power: c,
            seed: 11,
        }
    }

    /// Synthetic regret `T^b (ln T)^c` times log-normal noise (sd 0.3 on the log scale).
    fn synthetic(b: f64, c: f64) -> impl Fn(usize, u64) -> Result<f64, ScalingError> + Sync {
        move |t, seed| {
            let mut rng = ChaCha20Rng::seed_from_u64(seed);
            let noise = LogNormal::new(0.0, 0.3).unwrap().sample(&mut rng);
            Ok((t as f64).powf(b) * (t as f64).ln().powf(c) * noise)
        }
    }

    #[test]
    fn horizons_are_geometric() {
        assert_eq!(
            geometric_horizons(100, 10_000, 5),
            vec![100, 316, 1000, 3162, 10_000]
        );
    }

    #[test]
    fn recovers_a_power_law_after_removing_the_log_factor() {
        let r = check_scaling(synthetic(0.5, 1.5), &config(0.5, 1.5)).unwrap();
        assert!((r.slope - 0.5).abs() < 0.05, "slope {}", r.slope);
        // The raw slope keeps the log factor: T^0.5 (ln T)^1.5 rises faster than T^0.5 over the
        // grid, by 1.5 times the slope of ln ln T against ln T.
        let x: Vec<f64> = r.config.horizons.iter().map(|&t| (t as f64).ln()).collect();
        let lnln: Vec<f64> = x.iter().map(|v| v.ln()).collect();
        let (g, _) = ols(&x, &lnln);
        assert!(
            (r.raw_slope - r.slope - 1.5 * g).abs() < 1e-9,
            "raw {} slope {} g {g}",
            r.raw_slope,
            r.slope
        );
        let flat = check_scaling(synthetic(0.5, 0.0), &config(0.5, 0.0)).unwrap();
        assert!((flat.raw_slope - flat.slope).abs() < 1e-12);
        assert!(r.slope_lower < 0.5 && 0.5 < r.slope_upper);
    }

    #[test]
    fn verdicts_follow_the_interval() {
        // Slope 0.4 against theory 0.5: pass. Slope 1.0 (linear regret): fail.
        assert_eq!(
            check_scaling(synthetic(0.4, 0.0), &config(0.5, 0.0))
                .unwrap()
                .verdict,
            Verdict::Pass
        );
        let lin = check_scaling(synthetic(1.0, 0.0), &config(0.5, 0.0)).unwrap();
        assert_eq!(lin.verdict, Verdict::Fail);
        assert!(lin.slope_lower > 0.9);
        // Exactly at the theory: the interval straddles it.
        assert_eq!(
            check_scaling(synthetic(0.5, 0.0), &config(0.5, 0.0))
                .unwrap()
                .verdict,
            Verdict::Inconclusive
        );
    }

    #[test]
    fn calibrated_process_has_the_given_exponent_and_the_runs_dispersion() {
        // Measured: T^0.3 (ln T)^2 with noise; calibrated to 0.8: the mean is exactly
        // T^0.8 (ln T)^2, so the checker sees slope 0.8, and FAILs.
        let cfg = config(0.5, 2.0);
        let measured = check_scaling(synthetic(0.3, 2.0), &cfg).unwrap();
        let runs = calibrated_process(&measured, 0.8).unwrap();
        let control = check_scaling_runs(runs.clone(), &cfg).unwrap();
        assert!(
            (control.slope - 0.8).abs() < 0.05,
            "slope {}",
            control.slope
        );
        assert_eq!(control.verdict, Verdict::Fail);
        // Every run keeps its ratio to the horizon's mean: ln(R_sh / C_sh) is the same for every
        // run s (the measured mean over the new trend).
        let first: Vec<f64> = (0..cfg.horizons.len())
            .map(|j| {
                (measured.regret[0][j] / runs[0][j]).ln()
                    - (measured.regret[1][j] / runs[1][j]).ln()
            })
            .collect();
        assert!(first.iter().all(|d| d.abs() < 1e-9), "{first:?}");
        // A horizon with zero mean regret has no ratio.
        let mut zero = measured.clone();
        for r in &mut zero.regret {
            r[0] = 0.0;
        }
        assert!(calibrated_process(&zero, 0.8).is_err());
    }

    #[test]
    fn detectable_excess_grows_with_the_noise() {
        let cfg = config(0.5, 0.0);
        let quiet = check_scaling(synthetic(0.5, 0.0), &cfg).unwrap();
        let (d_quiet, rate) = detectable_excess(&quiet, 0.99, 0.025, 1.0, 50)
            .unwrap()
            .unwrap();
        assert!(rate >= 0.99);
        // Log-normal sd 0.3 per run, 32 seeds, 7 horizons over two decades: the slope's se is
        // about 0.3 / (sqrt(32) * 1.4 * sqrt(7)) ~ 0.015 -> d of order (4.9 + 2.3) se ~ 0.1.
        assert!(d_quiet > 0.0 && d_quiet < 0.3, "{d_quiet}");
        let loud = |t: usize, seed: u64| {
            let mut rng = ChaCha20Rng::seed_from_u64(seed);
            let noise = LogNormal::new(0.0, 1.5).unwrap().sample(&mut rng);
            Ok::<_, ScalingError>((t as f64).sqrt() * noise)
        };
        let loud = check_scaling(loud, &cfg).unwrap();
        let d_loud = detectable_excess(&loud, 0.99, 0.025, 1.0, 50)
            .unwrap()
            .map_or(f64::INFINITY, |(d, _)| d);
        assert!(d_loud > d_quiet, "{d_loud} <= {d_quiet}");
        // At the theory's own exponent the checker must almost never FAIL (its false-alarm
        // level is 1e-6), and the resampled slopes vary: the rate at a + d is below 1 for a
        // d just under the detectable one.
        assert!(fail_rate(&quiet, 0.5, 50).unwrap() < 0.05);
        // The shortcut of detectable_excess agrees with judging every replicate at a + d.
        let direct = fail_rate(&quiet, 0.5 + d_quiet, 50).unwrap();
        assert!((direct - rate).abs() < 1e-12, "{direct} vs {rate}");
        assert!(fail_rate(&quiet, 0.5 + d_quiet - 0.05, 50).unwrap() < 0.99);
    }

    #[test]
    fn curves_and_sweep() {
        let curve = |t: usize, _seed: u64| {
            Ok::<_, ScalingError>((1..=t).map(|i| (i as f64).sqrt()).collect::<Vec<f64>>())
        };
        let r = check_scaling_curves(curve, &config(0.5, 0.0)).unwrap();
        assert!((r.slope - 0.5).abs() < 0.01);
        let sweep = privacy_sweep(
            |eps, seed| {
                let mut rng = ChaCha20Rng::seed_from_u64(seed);
                Ok::<_, ScalingError>(
                    (10.0 + 50.0 / eps) * LogNormal::new(0.0, 0.1).unwrap().sample(&mut rng),
                )
            },
            &[0.5, 1.0, 2.0, 4.0, 8.0],
            16,
            1.0,
            1e-6,
            3,
        )
        .unwrap();
        assert_eq!(sweep.verdict, Verdict::Pass, "{sweep:?}");
        assert!(sweep.exponent > 0.3 && sweep.exponent < 1.0);
    }

    #[test]
    fn bad_config_is_an_error() {
        let mut c = config(0.5, 0.0);
        c.horizons.truncate(5);
        assert!(check_scaling(synthetic(0.5, 0.0), &c).is_err());
    }
}
