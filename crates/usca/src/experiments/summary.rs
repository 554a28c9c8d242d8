//! The reproduction's own summary sections: the error rates of every predictor at the largest
//! `T`, the tau and `|Z|` sweeps as tables, and the measured exponents in `T` and in `1/eps`.

use bandit::experiment::{FigureResult, Metric};
use bandit::runner::BatchResult;
use bandit::seed::mix;

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha20Rng;

use super::panels::EPSILONS;

/// The summary sections: the error rates of every predictor at the largest `T`, the sweeps,
/// and the measured exponents.
pub(super) fn section(results: &[FigureResult]) -> Option<String> {
    let mut s = error_rate_table(results);
    s.push_str(&sweep_tables(results));
    s.push_str(&exponents(results));
    Some(s)
}

/// Mean error rate (standard error over trials) at the largest `T` of every error-rate figure:
/// one row per predictor, one column per `eps`.
fn error_rate_table(results: &[FigureResult]) -> String {
    let mut s = String::from(
        "\n## Error rates at the largest T\n\nMean error rate over trials (standard error in \
         brackets) at the largest horizon of each error-rate figure, `tau = 1`, `|Z| = min(TK, \
         1024)`: USCA with the certified (and, at eps = 1, the certified from the uniform \
         grid alone, the ablation of the refinement), the query-context (certified `S`) and the \
         proven sensitivity, the verbatim fixed smoother (`rho = K tau`, proven `Delta`), the naive \
         exponential mechanism on the posterior mean, and the two non-private predictors.\n",
    );
    let rules = [
        "certified",
        "certified-uniform",
        "query-context",
        "proven",
        "verbatim",
        "naive",
    ];
    for r in results
        .iter()
        .filter(|r| r.figure.metric == Metric::ErrorRate)
    {
        let cell = |label: &str| {
            r.curves
                .iter()
                .find(|c| c.label == label)
                .map_or("-".to_string(), |c| {
                    let n = c.batch.trials.len() as f64;
                    let (mean, sd, _, _) = c.summary.last();
                    format!("{mean:.3} ({:.3})", sd / n.sqrt())
                })
        };
        let t = 1u64 << (r.figure.first_round + r.curves[0].batch.config.horizon as i64 - 1);
        s.push_str(&format!(
            "\n`{}` (T = {t}):\n\n| predictor | eps = 0.5 | eps = 1 | eps = 2 | eps = 8 | \
             eps = inf |\n|---|---|---|---|---|---|\n",
            r.figure.id
        ));
        for rule in rules {
            let row: Vec<String> = EPSILONS
                .iter()
                .map(|e| cell(&format!("{rule}-eps{e}")))
                .collect();
            s.push_str(&format!("| {rule} | {} | - |\n", row.join(" | ")));
        }
        s.push_str(&format!(
            "| USCA, argmax mu_T | - | - | - | - | {} |\n| GP posterior mean | - | - | - | - | {} |\n",
            cell("usca-nonprivate"),
            cell("posterior-mean")
        ));
    }
    s
}

/// Every sweep figure as a table: one row per sweep point, the mean error rate (standard error)
/// of each curve.
fn sweep_tables(results: &[FigureResult]) -> String {
    let mut s = String::new();
    for r in results
        .iter()
        .filter(|r| r.figure.metric != Metric::ErrorRate)
    {
        let x = r.figure.metric.x_desc();
        s.push_str(&format!(
            "\n## Sweep `{}`: {}\n\nMean error rate (standard error over trials) against {x}.\n\n| {x} | {} |\n|---|{}\n",
            r.figure.id,
            r.figure.caption,
            r.curves
                .iter()
                .map(|c| c.label.as_str())
                .collect::<Vec<_>>()
                .join(" | "),
            "---|".repeat(r.curves.len())
        ));
        let points = r.curves.first().map_or(0, |c| c.summary.mean.len());
        for i in 0..points {
            let cells: Vec<String> = r
                .curves
                .iter()
                .map(|c| {
                    let n = c.batch.trials.len() as f64;
                    format!(
                        "{:.3} ({:.3})",
                        c.summary.mean[i],
                        c.summary.std[i] / n.sqrt()
                    )
                })
                .collect();
            s.push_str(&format!(
                "| {} | {} |\n",
                r.figure.first_round + i as i64,
                cells.join(" | ")
            ));
        }
    }
    s
}

/// Slopes of ln(mean error rate) in ln T per curve (with a bootstrap interval), and in
/// ln(1/eps) at the largest T, for the summary (error-rate figures only).
fn exponents(results: &[FigureResult]) -> String {
    let mut s = String::from(
        "\n## Measured exponents\n\nSlope of ln(mean error rate) against ln T over the \
         figure's horizons, with a 95% bootstrap interval over trials (200 resamples); \
         Theorem 4.1's rate is T^(-1/2) up to the factor sqrt(gamma_T) (and \
         gamma_T / (T eps) for the private term). The last row of each figure is the slope of \
         ln(mean error rate) against ln(1 / eps) at the largest T over the four certified \
         curves (the theorem's 1/eps regime has slope 1).\n\n\
         | figure | curve | slope in T | 95% interval |\n|---|---|---|---|\n",
    );
    for r in results
        .iter()
        .filter(|r| r.figure.metric == Metric::ErrorRate)
    {
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
        let certified: Vec<f64> = EPSILONS
            .iter()
            .filter_map(|e| {
                r.curves
                    .iter()
                    .find(|c| c.label == format!("certified-eps{e}"))
                    .map(|c| c.summary.last().0.ln())
            })
            .collect();
        if certified.len() == EPSILONS.len() {
            let x: Vec<f64> = EPSILONS.iter().map(|e| -e.ln()).collect();
            let k = ols(&x, &certified);
            let k = if k.is_finite() {
                format!("{k:.3}")
            } else {
                "n/a (a mean error rate is 0)".to_string()
            };
            s.push_str(&format!(
                "| {} | slope in 1/eps at the largest T (certified, eps = 0.5..8) | {k} | - |\n",
                r.figure.id
            ));
        }
    }
    s
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
