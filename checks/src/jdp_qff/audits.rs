//! Audits of the real code at the derived calibration: one tree-node release, the tree's prefix
//! sums, the whole JDP pipeline (the server's view) and one local-JDP client message; each
//! through the Gaussian-DP route, with its tightness relative to the audited pair.

use std::sync::Arc;

use super::common::{
    AUDIT_ALPHA, AUDIT_BETA, OUT_OF_RANGE_REWARD, REWARD_BOUND, audit_features, calibration,
    flatten_rows, flatten_view, packed_calibration_at, packed_difference, scalar_feature_stream,
};
use crate::shared::{ALPHA, Expect, MIN_TIGHTNESS, audit_outcome};
use jdp_qff::{
    ClientMessage, JdpPrivatizer, LocalCalibration, LocalClient, PrivatizedStatistics, Spectrum,
    SpectrumRule,
};
use kernel::FeatureMap;
use ndarray::{Array1, arr1};
use privacy::Mechanism;
use privacy::accountant::zcdp::ZcdpConversion;
use privacy::mechanisms::matrix::Neighbouring;
use privacy::mechanisms::{OuterProductGaussian, SensitivityBound, packed_worst_pair};
use rand_chacha::ChaCha20Rng;
use verification::CheckKind;
use verification::audit::{AuditConfig, FisherDiscriminant, Known, Mapped, audit, audit_mechanism};
use verification::{CheckError, CheckResult, Context};

/// One node of the tree of Algorithm 2 is the symmetric matrix Gaussian on one clipped outer
/// product at the derived node sigma ([`jdp_qff::JdpCalibration`], `T = 1024`): audited through
/// [`OuterProductGaussian::with_noise`] at that sigma (its claim: `Delta_eff^2 / (2 sigma^2)`-zCDP,
/// which is `rho* / L` of the whole-stream budget). Pair: `phi = (1)` with rewards `+5` and `-5`
/// (clipped to `+-1`): the packed items differ by `2 B_y = 2` in the `(phi, y)` entry, the
/// largest packed distance of the replace-one relation for `m = 1` (the Frobenius bound
/// `2 sqrt 2` counts the mirrored entry twice), so the pair's `mu = 2 / sigma`.
pub(super) fn tree_node(ctx: &Context) -> CheckResult {
    let cal = calibration(1024)?;
    let m =
        OuterProductGaussian::with_noise(1, 1.0, REWARD_BOUND, Neighbouring::Replace, cal.sigma())?;
    let (x, xp) = (
        (arr1(&[1.0]), OUT_OF_RANGE_REWARD),
        (arr1(&[1.0]), -OUT_OF_RANGE_REWARD),
    );
    let d = 2.0 * REWARD_BOUND;
    let mu_pair = d / cal.sigma();
    // The exact LLR of the Gaussian shift: the (0, 1) packed entry (larger under x).
    let llr = Known::new(
        "exact Gaussian LLR ordering (the (phi, y) entry)",
        |o: &Array1<f64>| o[1],
    );
    let n = ctx.mode.pick(200_000, 1_000_000);
    let cfg = AuditConfig::new(n, ALPHA, ctx.check_seed())
        .train(n / 4)
        .delta(1e-5)
        .gaussian(Some(mu_pair));
    let r = audit_mechanism(&m, &x, &xp, &llr, &cfg)?;
    let mut o = audit_outcome(
        ctx,
        CheckKind::Audit,
        format!(
            "one tree node of Algorithm 2 at the derived sigma (alpha = {AUDIT_ALPHA}, beta = {AUDIT_BETA}, T = 1024, L = {}, B_y = {REWARD_BOUND}): {}",
            cal.levels(),
            m.claim().subject
        ),
        &r,
        Expect::holds(Some(MIN_TIGHTNESS)),
    );
    o.measured.push_str(&format!(
        "; node sigma {:.4}, claimed node rho = {:.5} (= rho* / L = {:.5}), the pair's mu = 2 / sigma = {mu_pair:.4}",
        cal.sigma(),
        m.rho(),
        cal.rho() / cal.levels() as f64
    ));
    Ok(o.value("node_sigma", cal.sigma())
        .value("rho_star", cal.rho())
        .value("levels", cal.levels())
        .value("mu_pair", mu_pair))
}

/// One tree node of Algorithm 2 calibrated with the exact packed sensitivity
/// ([`SensitivityBound::PackedExact`]: `Delta = sqrt(4.5) = 2.121` at `B_y = 1` against the
/// Frobenius bound's `2 sqrt 2 = 2.828`), `T = 1024`, audited on the pair that attains it
/// ([`packed_worst_pair`]: `m = 2`, `phi = (cos th, sin th)` with `y = 1` against
/// `(sin th, cos th)` with `y = -1`, `sin 2th = 1/2`). The pair's `mu` equals the claim's
/// `sqrt(2 rho)` up to the grid factor, so a tightness near 1 shows the tightened sensitivity
/// is attained; a sensitivity below it would be flagged (its control:
/// `jdp-qff/control/packed-sensitivity-x0.8`).
pub(super) fn tree_node_packed(ctx: &Context) -> CheckResult {
    let horizon = 1024;
    let cal = packed_calibration_at(AUDIT_ALPHA, horizon, REWARD_BOUND)?;
    let frobenius = calibration(horizon)?;
    let m =
        OuterProductGaussian::with_noise(2, 1.0, REWARD_BOUND, Neighbouring::Replace, cal.sigma())?
            .with_bound(SensitivityBound::PackedExact)?;
    let (x, xp) = packed_worst_pair(1.0, REWARD_BOUND)?;
    let diff = packed_difference(&x, &xp, REWARD_BOUND)?;
    let pair_distance = diff.dot(&diff).sqrt();
    let mu_pair = pair_distance / cal.sigma();
    let llr = Known::new(
        "exact Gaussian LLR ordering (the output's projection on u(x) - u(x'))",
        move |o: &Array1<f64>| o.dot(&diff),
    );
    let n = ctx.mode.pick(150_000, 1_000_000);
    let cfg = AuditConfig::new(n, ALPHA, ctx.check_seed())
        .train(n / 4)
        .delta(1e-5)
        .gaussian(Some(mu_pair));
    let r = audit_mechanism(&m, &x, &xp, &llr, &cfg)?;
    let mut o = audit_outcome(
        ctx,
        CheckKind::Audit,
        format!(
            "one tree node of Algorithm 2 with the exact packed sensitivity (alpha = {AUDIT_ALPHA}, beta = {AUDIT_BETA}, T = {horizon}, L = {}, B_y = {REWARD_BOUND}, m = 2) on the pair that attains it: {}",
            cal.levels(),
            m.claim().subject
        ),
        &r,
        Expect::holds(Some(MIN_TIGHTNESS)),
    );
    let mu_claim = (2.0 * m.rho()).sqrt();
    o.measured.push_str(&format!(
        "; packed sensitivity {:.4} (Frobenius bound {:.4}), the pair's distance {pair_distance:.4}; node sigma {:.4} (Frobenius {:.4}, ratio {:.4}); the pair's mu {mu_pair:.4} against the claim's sqrt(2 rho) = {mu_claim:.4} (ratio {:.6})",
        cal.sensitivity(),
        frobenius.sensitivity(),
        cal.sigma(),
        frobenius.sigma(),
        cal.sigma() / frobenius.sigma(),
        mu_pair / mu_claim
    ));
    Ok(o.value("node_sigma", cal.sigma())
        .value("frobenius_node_sigma", frobenius.sigma())
        .value("sensitivity", cal.sensitivity())
        .value("pair_distance", pair_distance)
        .value("mu_pair", mu_pair)
        .value("mu_claim", mu_claim))
}

/// The whole released stream of the tree of Algorithm 2 ([`jdp_qff::JdpCalibration::tree`],
/// `m = 1`, `T = 8`, `L = 4`) for two streams that differ in the first item (rewards `+5` vs
/// `-5`, clipped): the first item lies in one released node of every level, so the releases are
/// a Gaussian shift of Mahalanobis norm `2 sqrt(L) / sigma`; claim: the tree's rho-zCDP.
pub(super) fn prefix_sums(ctx: &Context) -> CheckResult {
    let horizon = 8;
    let cal = calibration(horizon)?;
    let tree = cal.tree(1)?;
    let s0 = scalar_feature_stream(horizon as usize, 0, OUT_OF_RANGE_REWARD)?;
    let s1 = scalar_feature_stream(horizon as usize, 0, -OUT_OF_RANGE_REWARD)?;
    let mu_pair = 2.0 * REWARD_BOUND * (tree.levels() as f64).sqrt() / tree.sigma();
    let stat = Mapped::new("the released prefix sums", flatten_rows, FisherDiscriminant);
    let n = ctx.mode.pick(60_000, 300_000);
    let cfg = AuditConfig::new(n, ALPHA, ctx.check_seed())
        .train(n / 2)
        .delta(1e-5)
        .gaussian(Some(mu_pair));
    let r = audit_mechanism(&tree, &s0, &s1, &stat, &cfg)?;
    let rho = tree.rho();
    let mut o = audit_outcome(
        ctx,
        CheckKind::Audit,
        format!(
            "the prefix sums of Algorithm 2's tree (alpha = {AUDIT_ALPHA}, beta = {AUDIT_BETA}, T = {horizon}, m = 1) for two streams differing in item 1 (rewards +-{OUT_OF_RANGE_REWARD}, clipped to +-{REWARD_BOUND}): {}",
            tree.claim().subject
        ),
        &r,
        Expect::holds(Some(0.85)),
    );
    o.measured.push_str(&format!(
        "; claimed rho = {rho:.4} (mu = sqrt(2 rho) = {:.4}), the pair's mu = 2 sqrt(L) / sigma = {mu_pair:.4}",
        (2.0 * rho).sqrt()
    ));
    Ok(o.value("mu_pair", mu_pair).value("rho", rho))
}

/// The users' stream of the pipeline audit: `T = 4` users at fixed points of `[-1, 1]` with
/// fixed rewards; user 1 (the worst case: its item lies in one released node of every level)
/// has reward `reward`.
fn users(reward: f64) -> Vec<(Array1<f64>, f64)> {
    vec![
        (arr1(&[0.3]), reward),
        (arr1(&[-0.8]), 0.0),
        (arr1(&[0.5]), 1.0),
        (arr1(&[0.9]), 1.0),
    ]
}

/// The whole JDP pipeline: the sequence of [`PrivatizedStatistics`] the server receives from
/// [`JdpPrivatizer`] (its [`privacy::Mechanism`] impl: a fresh privatizer per stream) for two
/// user streams that differ in user 1's `(x, y)`: same `x` (the worst case: with `||Phi|| = 1`
/// the packed items then differ by `2 B_y ||Phi|| = 2`, only in the `u` column), rewards `+5` vs
/// `-5` (clipped). `m = 4`, `T = 4`, `L = 3`; the pair's `mu = 2 sqrt(L) / sigma`; claim: the
/// tree's rho-zCDP, joint model.
pub(super) fn pipeline(ctx: &Context) -> CheckResult {
    let horizon = 4;
    let features = audit_features()?;
    let cal = calibration(horizon)?;
    let spectrum = Spectrum::jdp(&cal, features.dim(), 0.1, SpectrumRule::Paper)?;
    let p = JdpPrivatizer::new(Arc::clone(&features), cal.clone(), spectrum)?;
    let (x, xp) = (users(OUT_OF_RANGE_REWARD), users(-OUT_OF_RANGE_REWARD));
    let mu_pair = 2.0 * REWARD_BOUND * (cal.levels() as f64).sqrt() / cal.sigma();
    let stat = Mapped::new(
        "the server's view (upper triangles of Sigma~_t and u~_t, t = 2..5)",
        |v: &Vec<PrivatizedStatistics>| flatten_view(v),
        FisherDiscriminant,
    );
    let n = ctx.mode.pick(30_000, 150_000);
    let cfg = AuditConfig::new(n, ALPHA, ctx.check_seed())
        .train(n)
        .delta(1e-5)
        .gaussian(Some(mu_pair));
    let r = audit_mechanism(&p, &x, &xp, &stat, &cfg)?;
    let mut o = audit_outcome(
        ctx,
        CheckKind::Audit,
        format!(
            "the server's view of JDP GP-UCB (Algorithms 1-2, NQFF m = {}, T = {horizon}) when user 1's reward changes from {OUT_OF_RANGE_REWARD} to -{OUT_OF_RANGE_REWARD} (clipped to +-{REWARD_BOUND}) at the same x: {}",
            features.dim(),
            p.claim().subject
        ),
        &r,
        Expect::holds(Some(0.8)),
    );
    o.measured.push_str(&format!(
        "; claimed rho = {:.4}, the pair's mu = 2 sqrt(L) / sigma = {mu_pair:.4}",
        p.tree().rho()
    ));
    Ok(o.value("mu_pair", mu_pair))
}

/// The exact mean of a client's message (clipped features and reward), packed: the upper
/// triangle of `Phi Phi^T`, then `y Phi`.
fn client_mean(phi: &Array1<f64>, y: f64) -> (Vec<f64>, Vec<f64>) {
    let y = y.clamp(-REWARD_BOUND, REWARD_BOUND);
    let m = phi.len();
    let mut a = Vec::new();
    for i in 0..m {
        for j in i..m {
            a.push(phi[i] * phi[j]);
        }
    }
    (a, phi.iter().map(|p| y * p).collect())
}

/// One local-JDP client message ([`LocalClient`], Algorithm 3, `m = 4`) on the worst pair of a
/// grid: `x = 0` with reward `+5` (clipped to 1) against `x'` on 121 points of `[-3, 3]` with
/// reward `-5` or `+5`, the pair of largest `mu = sqrt(|dA|^2 / sigma_X^2 + |du|^2 / sigma_u^2)`
/// (`dA` the packed difference of `Phi Phi^T`, `du` of `y Phi`); the statistic is the exact LLR
/// `<o, (dA / sigma_X^2, du / sigma_u^2)>`. Claim: the message's rho-zCDP (`rho*/2` for each
/// half), local model; a pair reaches at most `mu = sqrt(2 rho*)`.
pub(super) fn local_client(ctx: &Context) -> CheckResult {
    let features = audit_features()?;
    let cal = LocalCalibration::new(
        AUDIT_ALPHA,
        AUDIT_BETA,
        REWARD_BOUND,
        ZcdpConversion::Classic,
    )?;
    let client = LocalClient::new(Arc::clone(&features), cal.clone())?;
    let x0 = arr1(&[0.0]);
    let phi0 = features.map(x0.view())?;
    let (a0, u0) = client_mean(&phi0, OUT_OF_RANGE_REWARD);
    let mut best: Option<(f64, Array1<f64>, f64)> = None;
    for k in 0..=120 {
        let xp = arr1(&[-3.0 + 0.05 * f64::from(k)]);
        let phi = features.map(xp.view())?;
        for yp in [-OUT_OF_RANGE_REWARD, OUT_OF_RANGE_REWARD] {
            let (a, u) = client_mean(&phi, yp);
            let da: f64 = a0.iter().zip(&a).map(|(p, q)| (p - q) * (p - q)).sum();
            let du: f64 = u0.iter().zip(&u).map(|(p, q)| (p - q) * (p - q)).sum();
            let mu = (da / (cal.sigma_x() * cal.sigma_x()) + du / (cal.sigma_u() * cal.sigma_u()))
                .sqrt();
            if best.as_ref().is_none_or(|b| mu > b.0) {
                best = Some((mu, xp.clone(), yp));
            }
        }
    }
    let (mu_pair, xp, yp) = best.ok_or_else(|| CheckError::msg("empty grid"))?;
    let (a1, u1) = client_mean(&features.map(xp.view())?, yp);
    let (sx2, su2) = (cal.sigma_x() * cal.sigma_x(), cal.sigma_u() * cal.sigma_u());
    let wa: Vec<f64> = a0.iter().zip(&a1).map(|(p, q)| (p - q) / sx2).collect();
    let wu: Vec<f64> = u0.iter().zip(&u1).map(|(p, q)| (p - q) / su2).collect();
    let llr = Known::new(
        "exact Gaussian LLR ordering <o, (dA / sigma_X^2, du / sigma_u^2)>",
        move |msg: &ClientMessage| {
            let s = msg.sigma_increment();
            let m = s.nrows();
            let mut acc = 0.0;
            let mut k = 0;
            for i in 0..m {
                for j in i..m {
                    acc += s[[i, j]] * wa[k];
                    k += 1;
                }
            }
            acc + msg
                .u_increment()
                .iter()
                .zip(&wu)
                .map(|(o, w)| o * w)
                .sum::<f64>()
        },
    );
    let x = (x0, OUT_OF_RANGE_REWARD);
    let xprime = (xp.clone(), yp);
    let n = ctx.mode.pick(120_000, 600_000);
    let cfg = AuditConfig::new(n, ALPHA, ctx.check_seed())
        .train(n / 4)
        .delta(1e-5)
        .gaussian(Some(mu_pair));
    let r = audit(
        |i: &(Array1<f64>, f64), rng: &mut ChaCha20Rng| client.release(i, rng),
        &x,
        &xprime,
        &client.claim(),
        &llr,
        &cfg,
    )?;
    let rho = cal.message_rho();
    let mut o = audit_outcome(
        ctx,
        CheckKind::Audit,
        format!(
            "one local-JDP client message (Algorithm 3, NQFF m = {}, alpha = {AUDIT_ALPHA}, beta = {AUDIT_BETA}): (x = 0, y = {OUT_OF_RANGE_REWARD}) vs (x' = {:.2}, y' = {yp}), rewards clipped to +-{REWARD_BOUND}: {}",
            features.dim(),
            xp[0],
            client.claim().subject
        ),
        &r,
        Expect::holds(Some(MIN_TIGHTNESS)),
    );
    o.measured.push_str(&format!(
        "; claimed rho = {rho:.4} (mu = sqrt(2 rho) = {:.4}), the worst grid pair's mu = {mu_pair:.4}",
        (2.0 * rho).sqrt()
    ));
    Ok(o.value("mu_pair", mu_pair)
        .value("x_prime", xp[0])
        .value("y_prime", yp)
        .value("sigma_x", cal.sigma_x())
        .value("sigma_u", cal.sigma_u()))
}
