//! The reproduction's own summary section: the measured exponents in `T` and in `1/eps`.

use bandit::experiment::FigureResult;
use bandit::runner::BatchResult;
use bandit::seed::mix;

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha20Rng;

use super::panels::EPSILONS;

/// Slopes of ln(mean error rate) in ln T per curve (with a bootstrap interval), and in
/// ln(1/eps) at the largest T, for the summary.
pub(super) fn exponents(results: &[FigureResult]) -> Option<String> {
    let mut s = String::from(
        "\n## Measured exponents\n\nSlope of ln(mean error rate) against ln T over the \
         figure's horizons, with a 95% bootstrap interval over trials (200 resamples); \
         Theorem 4.1's rate is T^(-1/2) up to the factor sqrt(gamma_T) (and \
         gamma_T / (T eps) for the private term). The last column is the slope of \
         ln(mean error rate) against ln(1 / eps) at the largest T over the four certified \
         curves (the theorem's 1/eps regime has slope 1).\n\n\
         | figure | curve | slope in T | 95% interval |\n|---|---|---|---|\n",
    );
    for r in results {
        for c in &r.curves {
            let (b, lo, hi) = slope_with_interval(&c.batch, r.figure.first_round);
            if b.is_finite() {
                s.push_str(&format!(
                    "| {} | {} | {b:.3} | [{lo:.3}, {hi:.3}] |\n",
                    r.figure.id, c.label
                ));
            } else {
                s.push_str(&format!(
                    "| {} | {} | n/a (a mean error rate is 0) | - |\n",
                    r.figure.id, c.label
                ));
            }
        }
        if r.curves.len() >= 4 {
            let x: Vec<f64> = EPSILONS.iter().map(|e| -e.ln()).collect();
            let y: Vec<f64> = r.curves[..4]
                .iter()
                .map(|c| c.summary.last().0.ln())
                .collect();
            let k = ols(&x, &y);
            let k = if k.is_finite() {
                format!("{k:.3}")
            } else {
                "n/a (a mean error rate is 0)".to_string()
            };
            s.push_str(&format!(
                "| {} | slope in 1/eps at the largest T (eps = 0.1..2) | {k} | - |\n",
                r.figure.id
            ));
        }
    }
    Some(s)
}

fn ols(x: &[f64], y: &[f64]) -> f64 {
    let n = x.len() as f64;
    let mx = x.iter().sum::<f64>() / n;
    let my = y.iter().sum::<f64>() / n;
    let sxy: f64 = x.iter().zip(y).map(|(a, b)| (a - mx) * (b - my)).sum();
    let sxx: f64 = x.iter().map(|a| (a - mx) * (a - mx)).sum();
    sxy / sxx
}

/// The slope of `ln(mean ER)` against `ln T`, and a percentile bootstrap interval over trials.
fn slope_with_interval(batch: &BatchResult, first: i64) -> (f64, f64, f64) {
    let h = batch.config.horizon;
    let x: Vec<f64> = (0..h)
        .map(|i| (first as f64 + i as f64) * std::f64::consts::LN_2)
        .collect();
    let fit = |idx: &[usize]| {
        let y: Vec<f64> = (0..h)
            .map(|i| {
                (idx.iter()
                    .map(|&t| batch.trials[t].instantaneous_regret[i])
                    .sum::<f64>()
                    / idx.len() as f64)
                    .ln()
            })
            .collect();
        ols(&x, &y)
    };
    let n = batch.trials.len();
    let all: Vec<usize> = (0..n).collect();
    let b = fit(&all);
    if n < 2 || h < 2 {
        return (b, b, b);
    }
    let mut rng = ChaCha20Rng::seed_from_u64(mix(batch.config.base_seed ^ 0x5ca1e));
    let mut boot: Vec<f64> = (0..200)
        .map(|_| {
            let idx: Vec<usize> = (0..n).map(|_| rng.random_range(0..n)).collect();
            fit(&idx)
        })
        .filter(|v| v.is_finite())
        .collect();
    boot.sort_by(f64::total_cmp);
    if boot.is_empty() {
        return (b, f64::NAN, f64::NAN);
    }
    let q = |p: f64| boot[((p * (boot.len() - 1) as f64).round() as usize).min(boot.len() - 1)];
    (b, q(0.025), q(0.975))
}
