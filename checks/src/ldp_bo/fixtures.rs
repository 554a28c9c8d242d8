//! The ldp-bo fixtures (`fixtures/ldp-bo/`).

use ldp_bo::CtlCurator;
use ndarray::Array2;
use serde_json::json;
use verification::CheckError;
use verification::fixtures::{Entry, matrix, number, vector};
use verification::fixtures::{Tolerance, tolerances};

/// The fixtures of this area.
pub fn fixtures() -> Result<Vec<Entry>, CheckError> {
    Ok(vec![
        ctl_scale_fixture()?,
        tgp_schedule_fixture()?,
        truncation_fixture()?,
        median_of_means_fixture()?,
        posterior_fixture()?,
    ])
}

pub(super) fn ctl_scale_fixture() -> Result<Entry, CheckError> {
    let cases = [
        (1.0, 1.0, 1.0),
        (1.0, 1.0, 0.5),
        (0.8, 3.5, 2.0),
        (1.0, 0.0, 0.1),
    ];
    let mut ins = Vec::new();
    let mut paper = Vec::new();
    let mut used = Vec::new();
    for (b, r, eps) in cases {
        let c = CtlCurator::new(eps, b, r)?;
        ins.push(json!({"B": b, "R": r, "epsilon": eps}));
        paper.push(number(ldp_bo::schedule::ctl_scale(b, r, eps)?));
        used.push(number(c.laplace_scale()));
    }
    Ok(super::AREA.fixture(
        "ctl_scale",
        "CTL(eps) of Zhou & Tan (Curator 1): rewards are clipped to [-(B+R), B+R], then Laplace noise of scale L = 2(B+R)/eps is added (paper_scale). With the hardened sampler (exact discrete Laplace on a grid of width 2^-k) the sensitivity is inflated by the grid factor (1 + 2^-20) and the scale used is hardened_scale = (1 + 2^-20) * 2(B+R)/eps.",
        json!({"cases": ins}),
        json!({"paper_scale": paper, "hardened_scale": used}),
        tolerances([
            (
                "hardened_scale",
                Tolerance::closed_form("Laplace scale (reward units)", 1.0),
            ),
            (
                "paper_scale",
                Tolerance::closed_form("Laplace scale (reward units)", 1.0),
            ),
        ]),
    ))
}

pub(super) fn tgp_schedule_fixture() -> Result<Entry, CheckError> {
    let (b, r, eps, lambda, delta) = (1.0, 1.0, 1.0, 1.0, 0.1);
    let s = ldp_bo::schedule::TgpSchedule::new(b, r, eps, lambda, delta)?;
    let gammas = [0.0, 0.5, 1.2, 2.0, 2.5, 3.1, 3.5, 3.9, 4.2, 4.4];
    let ts: Vec<u64> = (1..=10).collect();
    let bt: Vec<f64> = (0..=10).map(|t| s.truncation(t)).collect();
    let beta: Vec<f64> = ts
        .iter()
        .zip(&gammas)
        .map(|(&t, &g)| s.beta(t, g))
        .collect();
    Ok(super::AREA.fixture(
        "tgp_schedule",
        "LDP-TGP-UCB (Algorithm 2): L = 2(B+R)/eps, K = B^2 + R^2 + 2 L^2, truncation points b_t = B + R + L ln(max(t, 1)) for t = 0..10 (ln 0 is replaced by ln 1: b_0 = B + R), and beta_t = B + 2 sqrt(2/lambda) b_{t-1} sqrt(gamma_{t-1} + ln(1/delta)) + sqrt(K (ln(max(t-1, 1)) + 1) / lambda) for t = 1..10 with the given gamma_{t-1} (gamma_prev[i] is used for t = i + 1).",
        json!({"B": b, "R": r, "epsilon": eps, "lambda": lambda, "delta": delta, "gamma_prev": gammas}),
        json!({"laplace_scale": s.laplace_scale, "K": s.k_constant(), "b_t_for_t_0_to_10": bt, "beta_t_for_t_1_to_10": beta}),
        tolerances([
            ("K", Tolerance::closed_form("reward units squared", 1.0)),
            (
                "b_t_for_t_0_to_10",
                Tolerance::closed_form("truncation point (reward units)", 1.0),
            ),
            (
                "beta_t_for_t_1_to_10",
                Tolerance::closed_form("confidence width (reward units)", 1.0),
            ),
            (
                "laplace_scale",
                Tolerance::closed_form("Laplace scale (reward units)", 1.0),
            ),
        ]),
    ))
}

pub(super) fn truncation_fixture() -> Result<Entry, CheckError> {
    let u = ndarray::array![
        [0.5, -1.2, 0.3, 2.0, -0.1],
        [1.5, 0.2, -0.7, 0.05, 0.9],
        [-0.4, 0.8, 1.1, -1.9, 0.6]
    ];
    let y = ndarray::array![1.0, -2.0, 3.5, 0.4, -6.0];
    let b = ndarray::array![1.0, 1.0, 1.5, 1.5, 2.0];
    let r = ldp_bo::truncation::feature_adaptive_truncation(u.view(), y.view(), b.view())?;
    let raw: Vec<f64> = y
        .iter()
        .zip(&b)
        .map(|(&v, &bb)| ldp_bo::truncation::truncate_reward(v, bb))
        .collect();
    Ok(super::AREA.fixture(
        "ata_truncation",
        "LDP-ATA-GP-UCB, Algorithm 1 line 10: r_i = sum_tau u[i][tau] y[tau] 1{|u[i][tau] y[tau]| <= b[tau]} for the rows u_i of U = V^{-1/2} Phi^T; and Algorithm 2 line 8 on the same rewards: y_hat[tau] = y[tau] 1{|y[tau]| <= b[tau]} (set to 0, not clipped, beyond b).",
        json!({"U": matrix(u.view()), "y": vector(y.view()), "b": vector(b.view())}),
        json!({"r": vector(r.view()), "raw_truncation": raw}),
        tolerances([
            ("r", Tolerance::closed_form("reward units", 1.0)),
            (
                "raw_truncation",
                Tolerance::closed_form("reward units (a copy of y or 0)", 1.0),
            ),
        ]),
    ))
}

pub(super) fn median_of_means_fixture() -> Result<Entry, CheckError> {
    let thetas = ndarray::array![
        [0.1, 0.2],
        [0.15, 0.22],
        [0.9, -0.4],
        [0.12, 0.18],
        [0.11, 0.5],
        [-0.3, 0.25]
    ];
    let v = ndarray::array![[3.0, 0.5], [0.5, 2.0]];
    let m = ldp_bo::median_of_means::median_of_means(thetas.view(), v.view())?;
    Ok(super::AREA.fixture(
        "moma_median_of_means",
        "LDP-MoMA-GP-UCB, Algorithm 3 lines 11-12: r_j = median over s != j of ||theta_j - theta_s||_V (the median of an even count is the mean of the two middle values), k* = argmin_j r_j (0-based, ties to the smallest index).",
        json!({"thetas": matrix(thetas.view()), "V": matrix(v.view())}),
        json!({"r": vector(m.medians.view()), "k_star": m.chosen}),
        tolerances([
            (
                "k_star",
                Tolerance::exact(
                    "index (0-based)",
                    "an argmin with ties to the smallest index: exact",
                ),
            ),
            ("r", Tolerance::closed_form("V-norm distance", 1.0)),
        ]),
    ))
}

pub(super) fn posterior_fixture() -> Result<Entry, CheckError> {
    let arms = Array2::from_shape_fn((8, 1), |(i, _)| i as f64 / 7.0);
    let k = kernel::SquaredExponential::isotropic(0.2)?;
    let plays = [0usize, 3, 3, 7, 5, 1];
    let rewards = [0.4, 1.3, -0.2, 8.0, 0.7, -5.0];
    let c = CtlCurator::new(1.0, 1.0, 1.0)?;
    // The schedule LDP-TGP-UCB builds from this curator (its actual Laplace scale).
    let s =
        ldp_bo::schedule::TgpSchedule::from_laplace_scale(1.0, 1.0, c.laplace_scale(), 1.0, 0.1)?;
    let mut truncated = Vec::new();
    let mut gp = kernel::FiniteDomainGp::new(k, arms.view(), 1.0, false)?;
    for (t, (&a, &y)) in plays.iter().zip(&rewards).enumerate() {
        let y_hat = ldp_bo::truncation::truncate_reward(y, s.truncation(t as u64 + 1));
        truncated.push(y_hat);
        gp.observe(a, y_hat)?;
    }
    let var = gp.variance();
    Ok(super::AREA.fixture(
        "tgp_posterior",
        "LDP-TGP-UCB posterior after a fixed history (Algorithm 2 lines 8-10): arms = 8 points 0, 1/7, ..., 1 on [0, 1]; SE kernel k(x, y) = exp(-(x - y)^2 / (2 * 0.2^2)); lambda = 1; privatised rewards y_bar at the played arms (0-based indices) are truncated at b_t = B + R + L ln t with B = R = 1, eps = 1 and the hardened CTL scale L (see ctl_scale.json) for t = 1..6 (y_hat = 0 beyond b_t); then mu(x) = k_t(x)^T (K_t + lambda I)^{-1} y_hat and sigma^2(x) = k(x, x) - k_t(x)^T (K_t + lambda I)^{-1} k_t(x) at every arm.",
        json!({"arms": matrix(arms.view()), "lengthscale": 0.2, "lambda": 1.0, "B": 1.0, "R": 1.0, "epsilon": 1.0, "played_arms": plays, "y_bar": rewards}),
        json!({"laplace_scale": s.laplace_scale, "y_hat": truncated, "mean": vector(gp.mean()), "variance": vector(var.view())}),
        tolerances([
            (
                "laplace_scale",
                Tolerance::closed_form("Laplace scale (reward units)", 1.0),
            ),
            (
                "mean",
                Tolerance::linear_solve("posterior mean (reward units)", 1.0),
            ),
            (
                "variance",
                Tolerance::linear_solve("posterior variance (kernel units)", 1.0),
            ),
            (
                "y_hat",
                Tolerance::closed_form("reward units (a copy of y_bar or 0)", 1.0),
            ),
        ]),
    ))
}
