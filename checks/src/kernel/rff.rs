//! Random Fourier features: the Monte Carlo error rate and a wrong-lengthscale control.

use super::{feature_gram_error, rng, uniform_points};
use kernel::{RandomFourierFeatures, SquaredExponential};
use rand::RngExt;
use verification::CheckKind;
use verification::{CheckError, CheckResult, Context, Outcome, verdict};

/// Mean over seeds of `max |K - Phi Phi^T|` on fixed points, for each `m`, and the fitted
/// log-log slope; plus a bootstrap over seeds of the slope.
pub(super) struct RateFit {
    ms: Vec<usize>,
    mean_errors: Vec<f64>,
    slope: f64,
    bootstrap_sd: f64,
}

pub(super) fn slope(xs: &[f64], ys: &[f64]) -> f64 {
    let n = xs.len() as f64;
    let mx = xs.iter().sum::<f64>() / n;
    let my = ys.iter().sum::<f64>() / n;
    let sxy: f64 = xs.iter().zip(ys).map(|(x, y)| (x - mx) * (y - my)).sum();
    let sxx: f64 = xs.iter().map(|x| (x - mx) * (x - mx)).sum();
    sxy / sxx
}

pub(super) fn rff_rate(ctx: &Context, feature_lengthscale: f64) -> Result<RateFit, CheckError> {
    let seeds = ctx.mode.pick(48, 192);
    let ms: Vec<usize> = (6..=12).map(|p| 1usize << p).collect();
    let k = SquaredExponential::isotropic(0.3)?;
    let kf = SquaredExponential::isotropic(feature_lengthscale)?;
    let x = uniform_points(40, 2, &mut rng(ctx.sub_seed("points")));
    // errors[s][j]: seed s, m = ms[j].
    let mut errors = vec![vec![0.0; ms.len()]; seeds];
    for (s, row) in errors.iter_mut().enumerate() {
        let mut r = rng(ctx.sub_seed(&format!("seed-{s}")));
        for (j, &m) in ms.iter().enumerate() {
            let f = RandomFourierFeatures::new(kf.clone(), 2, m, &mut r)?;
            row[j] = feature_gram_error(&k, &f, x.view())?;
        }
    }
    let log_m: Vec<f64> = ms.iter().map(|&m| (m as f64).ln()).collect();
    let fit = |idx: &[usize]| {
        let means: Vec<f64> = (0..ms.len())
            .map(|j| idx.iter().map(|&s| errors[s][j]).sum::<f64>() / idx.len() as f64)
            .collect();
        (
            slope(&log_m, &means.iter().map(|v| v.ln()).collect::<Vec<_>>()),
            means,
        )
    };
    let all: Vec<usize> = (0..seeds).collect();
    let (sl, means) = fit(&all);
    let mut r = rng(ctx.sub_seed("bootstrap"));
    let boots: Vec<f64> = (0..200)
        .map(|_| {
            let idx: Vec<usize> = (0..seeds).map(|_| r.random_range(0..seeds)).collect();
            fit(&idx).0
        })
        .collect();
    let mb = boots.iter().sum::<f64>() / boots.len() as f64;
    let sd =
        (boots.iter().map(|b| (b - mb) * (b - mb)).sum::<f64>() / (boots.len() - 1) as f64).sqrt();
    Ok(RateFit {
        ms,
        mean_errors: means,
        slope: sl,
        bootstrap_sd: sd,
    })
}

pub(super) fn rff_error_rate(ctx: &Context) -> CheckResult {
    let fit = rff_rate(ctx, 0.3)?;
    let gap = (fit.slope + 0.5).abs();
    let margin_sds = (0.1 - gap) / fit.bootstrap_sd;
    Ok(Outcome::new(
        CheckKind::Convergence,
        "random Fourier features of the SE kernel (l = 0.3, d = 2), m = 64..4096".to_string(),
        "the mean (over seeds) of max |K - Phi Phi^T| on 40 fixed points decays like m^(-1/2): fitted log-log slope within 0.1 of -0.5"
            .to_string(),
        format!(
            "slope {:.4} (bootstrap sd over seeds {:.4}; deterministic, fixed seeds); mean errors {:?} at m = {:?}",
            fit.slope,
            fit.bootstrap_sd,
            fit.mean_errors.iter().map(|v| format!("{v:.3e}")).collect::<Vec<_>>(),
            fit.ms
        ),
        verdict(gap <= 0.1),
    )
    .value("slope", fit.slope)
    .value("bootstrap_sd", fit.bootstrap_sd)
    .value("m", fit.ms)
    .value("mean_max_error", fit.mean_errors)
    // Deterministic: fixed ChaCha20 seeds derived from the base seed, so no false-alarm
    // probability is claimed. How far the slope is from the band edge, in bootstrap sds over
    // seeds, says how robust the verdict is to the choice of seeds.
    .value("margin_in_bootstrap_sds", margin_sds))
}

pub(super) fn rff_wrong_lengthscale_flagged(ctx: &Context) -> CheckResult {
    let fit = rff_rate(ctx, 0.45)?;
    let flagged = (fit.slope + 0.5).abs() > 0.1;
    Ok(Outcome::new(
        CheckKind::PositiveControl,
        "random Fourier features drawn for lengthscale 0.45, compared with the SE kernel of lengthscale 0.3".to_string(),
        "the rate check flags it: the error stalls at the bias, slope not within 0.1 of -0.5".to_string(),
        format!(
            "slope {:.4} ({}); mean errors {:?}",
            fit.slope,
            if flagged { "flagged" } else { "NOT flagged" },
            fit.mean_errors.iter().map(|v| format!("{v:.3e}")).collect::<Vec<_>>()
        ),
        verdict(flagged),
    )
    .value("slope", fit.slope)
    .value("mean_max_error", fit.mean_errors))
}
