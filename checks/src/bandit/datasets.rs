//! The real data sets load with the expected arms.

use bandit::dataset::{DataSetProblem, light_sensor, stocks};
use verification::CheckKind;
use verification::{CheckError, CheckResult, Context, Outcome, verdict};

pub(super) fn describe(p: &DataSetProblem) -> String {
    format!(
        "{}: {} arms, {} reward rows, scale {:.4}, max f = {}, argmax {}, R = {:.4}, v = {:.4}, c = {:.4}",
        p.name,
        p.n_arms(),
        p.rewards.nrows(),
        p.scale,
        p.b,
        p.arm_names[p
            .f
            .iter()
            .enumerate()
            .fold(0, |b, (i, &v)| if v > p.f[b] { i } else { b })],
        p.r,
        p.v,
        p.c
    )
}

pub(super) fn datasets_load(ctx: &Context) -> CheckResult {
    let light = light_sensor(&ctx.data_dir)?;
    let stock = stocks(&ctx.data_dir)?;
    let mut ok = light.n_arms() == 41 && stock.n_arms() == 29;
    for p in [&light, &stock] {
        let means = p
            .rewards
            .mean_axis(ndarray::Axis(0))
            .ok_or_else(|| CheckError::msg("empty reward table"))?;
        let one_scale = means
            .iter()
            .zip(p.f.iter())
            .all(|(m, f)| (m - f).abs() <= 1e-12);
        let unit_diag = p.gram.diag().iter().all(|d| (d - 1.0).abs() <= 1e-12);
        ok &= one_scale && unit_diag && (p.b - 1.0).abs() <= 1e-15 && p.kernel().is_ok();
    }
    Ok(Outcome::new(
        CheckKind::Sanity,
        format!("data-set problems from {}", ctx.data_dir.display()),
        "light sensors: 41 arms (192 test rows), stocks: 29 arms (823 days); max f = 1; the expected reward of every arm equals f_i \
         (one scale); K is a PSD correlation matrix (unit diagonal)",
        format!("{}; {}", describe(&light), describe(&stock)),
        verdict(ok),
    )
    .value("light_sensor_arms", light.n_arms())
    .value("stocks_arms", stock.n_arms())
    .value("light_sensor_scale", light.scale)
    .value("stocks_scale", stock.scale))
}
