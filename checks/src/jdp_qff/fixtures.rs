//! The jdp-qff fixtures (`fixtures/jdp-qff/`).

use std::sync::Arc;

use bandit::agent::Agent;
use jdp_qff::calibration::{paper_lemma2_sigma, paper_lemma5_variances};
use jdp_qff::{
    ApproximateGpUcb, ConfidenceWidth, JdpCalibration, JdpQffError, LocalCalibration,
    ServerStatistics, Spectrum, SpectrumRule, StatisticsMessage, WidthParams,
};
use kernel::FeatureMap;
use ndarray::{Array1, Array2, arr1, arr2};
use privacy::accountant::zcdp::ZcdpConversion;
use privacy::mechanisms::SensitivityBound;
use privacy::mechanisms::matrix::{clipped_outer_product, pack_upper, packed_len};
use privacy::mechanisms::tree::{StreamShape, TreeAggregation, prefix_nodes};
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use serde_json::json;
use verification::CheckError;
use verification::fixtures::{Entry, matrix, number, vector};
use verification::fixtures::{Tolerance, tolerances};

/// The fixtures of this area.
pub fn fixtures() -> Result<Vec<Entry>, CheckError> {
    Ok(vec![
        nqff_fixture()?,
        tree_nodes_fixture(),
        calibration_fixture()?,
        spectrum_fixture()?,
        server_fixture()?,
    ])
}

fn nqff_fixture() -> Result<Entry, CheckError> {
    let x2 = arr2(&[[0.0, 0.0], [0.5, -1.0], [1.5, 0.3], [-2.0, 1.0], [1.2, 1.2]]);
    let f2 = jdp_qff::features::nqff(2, 1.0, 3)?;
    let x1 = arr2(&[[0.0], [0.3], [-0.8], [2.5]]);
    let f1 = jdp_qff::features::nqff(1, 1.0, 2)?;
    Ok(super::AREA.fixture(
        "nqff_features",
        "Normalised quadrature Fourier features (Dubey 2021, Section 4.2; Mutny & Krause 2018) of the unit-variance SE kernel exp(-|x - y|^2 / (2 l^2)), l = 1, with mbar Gauss-Hermite nodes t_i and weights w_i per dimension: for every multi-index I of the full grid (row-major), omega_I = sqrt(2) t_I / l and W_I = prod_j (w_{i_j} / sqrt(pi)); phi = [sqrt(W_I) cos(omega_I . x) for all I, then sqrt(W_I) sin(omega_I . x) for all I], m = 2 mbar^d features with |phi(x)|_2 = 1. Case d2: d = 2, mbar = 3 (m = 18); case d1: d = 1, mbar = 2 (m = 4). One row of features per point.",
        json!({"lengthscale": 1.0, "d2": {"mbar": 3, "points": matrix(x2.view())}, "d1": {"mbar": 2, "points": matrix(x1.view())}}),
        json!({"d2": matrix(f2.map_batch(x2.view())?.view()), "d1": matrix(f1.map_batch(x1.view())?.view())}),
        tolerances([
            (
                "d1",
                Tolerance::closed_form("feature value (rows have unit norm)", 1.0),
            ),
            (
                "d2",
                Tolerance::closed_form("feature value (rows have unit norm)", 1.0),
            ),
        ]),
    ))
}

fn tree_nodes_fixture() -> Entry {
    let nodes: Vec<serde_json::Value> = (1..=16u64)
        .map(|t| {
            json!(
                prefix_nodes(t)
                    .into_iter()
                    .map(|(l, s, e)| json!([l, s, e]))
                    .collect::<Vec<_>>()
            )
        })
        .collect();
    super::AREA.fixture(
        "tree_prefix_nodes",
        "The binary mechanism of Algorithm 2 (Chan, Shi & Song 2011): the prefix sum released at time t (1-based) is the sum of one noisy node per one-bit j of t; the node of level j covers the items start..=end (1-based) with end = t with its bits below j cleared and start = end - 2^j + 1, and gets its fresh noise when it is completed, at time end. nodes[t - 1] lists [level, start, end] for t = 1..16, by increasing start (privacy::mechanisms::tree::prefix_nodes).",
        json!({"t": (1..=16).collect::<Vec<u64>>()}),
        json!({"nodes": nodes}),
        tolerances([(
            "nodes",
            Tolerance::exact("[level, start, end]: integers", "integer arithmetic: exact"),
        )]),
    )
}

fn calibration_fixture() -> Result<Entry, CheckError> {
    // (alpha, beta, T, m, B_y)
    let cases = [
        (1.0, 0.1, 1024u64, 72usize, 1.0),
        (0.1, 0.1, 1024, 72, 1.0),
        (10.0, 0.1, 4, 4, 1.0),
        (1.0, 0.01, 10_000, 18, 2.0),
    ];
    let rho_noise = WidthParams::default().rho;
    let mut ins = Vec::new();
    let mut outs = Vec::new();
    for (alpha, beta, t, m, b) in cases {
        let c = JdpCalibration::new(alpha, beta, t, b, ZcdpConversion::Classic)?;
        let packed = c.clone().with_bound(SensitivityBound::PackedExact)?;
        let packed_cks = JdpCalibration::new(alpha, beta, t, b, ZcdpConversion::Cks)?
            .with_bound(SensitivityBound::PackedExact)?;
        let l = LocalCalibration::new(alpha, beta, b, ZcdpConversion::Classic)?;
        let (vx, vu) = paper_lemma5_variances(alpha, beta, b, m)?;
        ins.push(json!({"alpha": alpha, "beta": beta, "T": t, "m": m, "B_y": b}));
        outs.push(json!({
            "levels": c.levels(),
            "sensitivity": number(c.sensitivity()),
            "rho_star": number(c.rho()),
            "sigma": number(c.sigma()),
            "packed_sensitivity": number(packed.sensitivity()),
            "packed_sigma": number(packed.sigma()),
            "packed_cks_rho_star": number(packed_cks.rho()),
            "packed_cks_sigma": number(packed_cks.sigma()),
            "paper_lemma2_sigma": number(paper_lemma2_sigma(alpha, beta, t, b, rho_noise)?),
            "local_sigma_x": number(l.sigma_x()),
            "local_sigma_u": number(l.sigma_u()),
            "paper_lemma5_sigma_x": number(vx.sqrt()),
            "paper_lemma5_sigma_u": number(vu.sqrt()),
        }));
    }
    Ok(super::AREA.fixture(
        "calibration",
        "Noise calibrations of Algorithms 2 and 3, derived through zCDP (docs/jdp-qff.md), with the paper's values beside them. rho_star = the largest rho whose classic conversion rho + 2 sqrt(rho ln(1/beta)) is <= alpha (Bun & Steinke 2016, Prop. 1.3). Tree (JDP): L = floor(log2 T) + 1 levels, Delta = sqrt(2) (1 + B_y^2) (replace-one, packed outer product of [phi; y] with |phi| <= 1, |y| <= B_y), sigma = (1 + 2^-20) Delta sqrt(L / (2 rho_star)) (the hardened sampler's grid factor). The tightened calibrations: packed_sensitivity = the exact supremum of the packed distance (replace-one, privacy::mechanisms::sensitivity): sqrt(2 + 2 B_y^2 + B_y^4 / 2) for B_y^2 <= 2, else sqrt(2 + B_y^2 + B_y^4); packed_sigma = the same formula with it; packed_cks_rho_star = the largest rho whose Canonne-Kamath-Steinke conversion (2020, Corollary 13) is <= (alpha, beta), packed_cks_sigma = (1 + 2^-20) packed_sensitivity sqrt(L / (2 packed_cks_rho_star)). Local JDP: sigma_x = (1 + 2^-20) sqrt(2) / sqrt(rho_star), sigma_u = (1 + 2^-20) 2 B_y / sqrt(rho_star). Paper, as printed, for comparison only: Lemma 2's 16 n (1 + B^2 + 2 rho^2 ln(8T/beta)) ln(10/beta)^2 / alpha^2 with n = 1 + ceil(log2 T), B = B_y and the reward-noise rho = 1/2; Lemma 5's sqrt(8 ln(5/(2 beta))) / alpha and sqrt(8 (B^2 + 2 ln(8 m / beta)) ln(5/beta)) / alpha (its undefined delta read as beta). m enters only Lemma 5.",
        json!({"conversion": "classic", "reward_noise_rho": rho_noise, "cases": ins}),
        json!({"cases": outs}),
        tolerances([
            (
                "cases",
                Tolerance::closed_form("noise standard deviation (packed-statistic units)", 1.0),
            ),
            (
                "cases.levels",
                Tolerance::exact("count of tree levels", "integer arithmetic: exact"),
            ),
            (
                "cases.rho_star",
                Tolerance::closed_form("zCDP rho (nats)", 1.0),
            ),
            (
                "cases.sensitivity",
                Tolerance::closed_form("L2 sensitivity (packed-statistic units)", 1.0),
            ),
            (
                "cases.packed_sensitivity",
                Tolerance::closed_form("L2 sensitivity (packed-statistic units)", 1.0),
            ),
            (
                "cases.packed_cks_rho_star",
                Tolerance::closed_form("zCDP rho (nats)", 1.0),
            ),
        ]),
    ))
}

fn spectrum_json(s: &Spectrum) -> serde_json::Value {
    json!({
        "shift": number(s.shift),
        "lambda_min": number(s.lambda_min),
        "lambda_max": number(s.lambda_max),
        "h_norm": number(s.h_norm),
        "kappa": number(s.kappa()),
    })
}

fn spectrum_fixture() -> Result<Entry, CheckError> {
    let cases = [
        (1.0, 0.1, 1024u64, 72usize),
        (10.0, 0.1, 64, 18),
        (0.1, 0.01, 10_000, 4),
    ];
    let zeta = 0.1;
    let mut ins = Vec::new();
    let mut outs = Vec::new();
    for (alpha, beta, t, m) in cases {
        let c = JdpCalibration::new(alpha, beta, t, 1.0, ZcdpConversion::Classic)?;
        let l = LocalCalibration::new(alpha, beta, 1.0, ZcdpConversion::Classic)?;
        ins.push(json!({"alpha": alpha, "beta": beta, "T": t, "m": m}));
        outs.push(json!({
            "jdp_paper": spectrum_json(&Spectrum::jdp(&c, m, zeta, SpectrumRule::Paper)?),
            "jdp_derived": spectrum_json(&Spectrum::jdp(&c, m, zeta, SpectrumRule::Derived)?),
            "local_paper": spectrum_json(&Spectrum::local(&l, m, t, zeta, SpectrumRule::Paper)?),
            "local_derived": spectrum_json(&Spectrum::local(&l, m, t, zeta, SpectrumRule::Derived)?),
        }));
    }
    Ok(super::AREA.fixture(
        "spectrum",
        "The PSD shift and (lambda_min, lambda_max, h_norm, kappa) of Definition 3 with B_y = 1, zeta = 0.1, the calibrations of calibration.json (classic conversion). shift = 2 Upsilon, lambda_min = Upsilon, lambda_max = 3 Upsilon, kappa = h_norm / sqrt(lambda_min). jdp_paper (Lemma 3): Upsilon = sigma sqrt(2n) (4 sqrt(m) + 2 ln(2T/zeta)), h_norm = sigma sqrt(n) (sqrt(m) + sqrt(2 ln(2T/zeta))), n = 1 + ceil(log2 T). jdp_derived: Upsilon = sigma sqrt(2 L m ln(8 m T / (zeta/4))) (matrix Gaussian series, Tropp 2015 Thm 4.1.1; privacy::mechanisms::matrix::spectral_bound with k = L summands), h_norm = sigma sqrt(L) (sqrt(m) + sqrt(2 ln(4T/zeta))). local_paper (Lemma 6, kappa repaired): Upsilon = sigma_x sqrt(T) (4 sqrt(m) + 2 ln(2T/zeta)), h_norm = sigma_u sqrt(T) (sqrt(m) + sqrt(2 ln(2T/zeta))) (the statement's kappa = sigma_u sqrt(m T / Lambda) with Lambda = Upsilon / sigma_x, i.e. h_norm = sigma_u sqrt(m T sigma_x), is not a bound when sigma_x < 1; erratum 9 of docs/jdp-qff.md). local_derived: as jdp_derived with T summands of scales sigma_x (matrix) and sigma_u (vector).",
        json!({"B_y": 1.0, "zeta": zeta, "cases": ins}),
        json!({"cases": outs}),
        tolerances([(
            "cases",
            Tolerance::closed_form(
                "spectral bound (packed-statistic units; kappa in reward units)",
                1.0,
            ),
        )]),
    ))
}

/// A release given as numbers (the fixture's privatised history), fed to the real server: it
/// replaces the server's statistics as [`jdp_qff::PrivatizedStatistics`] does.
struct GivenRelease {
    sigma: Array2<f64>,
    u: Array1<f64>,
    observations: usize,
}

impl StatisticsMessage for GivenRelease {
    fn apply(self, state: &mut ServerStatistics) -> Result<(), JdpQffError> {
        state.sigma = self.sigma;
        state.u = self.u;
        state.observations = self.observations;
        Ok(())
    }
}

fn server_fixture() -> Result<Entry, CheckError> {
    let features = Arc::new(jdp_qff::features::nqff(1, 1.0, 2)?);
    let m = features.dim();
    let horizon = 8u64;
    let cal = JdpCalibration::new(1.0, 0.1, horizon, 1.0, ZcdpConversion::Classic)?;
    let spectrum = Spectrum::jdp(&cal, m, 0.1, SpectrumRule::Paper)?;
    let width = ConfidenceWidth::new(WidthParams::default(), spectrum)?;
    let xs = [0.3, -0.8, 0.5, 0.9, -0.1, 0.6];
    let ys = [1.0, 0.0, 1.0, 1.0, 0.0, 1.0];
    let k = packed_len(m + 1);
    // Node t's noise (the node completed at time t): sigma sin(1.7 t + 0.9 j), j = 0..k-1.
    let noise = Array2::from_shape_fn((xs.len(), k), |(t, j)| {
        cal.sigma() * (1.7 * (t + 1) as f64 + 0.9 * j as f64).sin()
    });
    let mut tree = TreeAggregation::new(
        StreamShape::Symmetric(m + 1),
        horizon,
        cal.sensitivity(),
        cal.sigma(),
    )?;
    let mut server = ApproximateGpUcb::<_, GivenRelease>::new(Arc::clone(&features), width)?;
    let tests = arr2(&[[-1.0], [-0.5], [0.0], [0.5], [1.0]]);
    let mut rng = ChaCha20Rng::seed_from_u64(0);
    let mut sqrt_beta = vec![number(server.sqrt_beta())];
    let mut log_det = vec![number(server.log_det_v())];
    let mut last = None;
    for (t, (&x, &y)) in xs.iter().zip(&ys).enumerate() {
        let phi = features.map(arr1(&[x]).view())?;
        let item =
            pack_upper(clipped_outer_product(phi.view(), y, 1.0, cal.reward_bound())?.view())?;
        let prefix = tree.push_packed_with_noise(item.view(), noise.row(t))?;
        let full = privacy::mechanisms::matrix::unpack_symmetric(prefix.view(), m + 1)?;
        let sigma = Array2::from_shape_fn((m, m), |(i, j)| {
            full[[i, j]] + if i == j { spectrum.shift } else { 0.0 }
        });
        let u = Array1::from_shape_fn(m, |i| full[[i, m]]);
        server.select(tests.view(), &mut rng)?;
        server.observe(GivenRelease {
            sigma: sigma.clone(),
            u: u.clone(),
            observations: t + 1,
        })?;
        sqrt_beta.push(number(server.sqrt_beta()));
        log_det.push(number(server.log_det_v()));
        last = Some((sigma, u));
    }
    let (sigma, u) = last.ok_or_else(|| CheckError::msg("empty history"))?;
    let (mean, var) = server.posterior(tests.view())?;
    Ok(super::AREA.fixture(
        "server_after_history",
        "Algorithm 1's server after a fixed privatised history. Features: NQFF d = 1, l = 1, mbar = 2 (m = 4; see nqff_features.json). Calibration alpha = 1, beta = 0.1, T = 8, B_y = 1 (classic conversion; sigma as in calibration.json), spectrum Lemma 3 (paper constants, zeta = 0.1; see spectrum.json), Theorem 1's width with B = 1, rho = 1/2, lambda = 1/4, zeta = 0.1, eps = 0. Round t = 1..6 pushes pack_upper(v v^T), v = [phi(x_t); clip(y_t)], into the tree of T = 8 with the given node noise (row t - 1: the noise of the node completed at time t, noise[t-1][j] = sigma sin(1.7 t + 0.9 j), packed upper-triangle order of the 5 x 5 matrix); the release N~ (the noisy prefix sum, tree_prefix_nodes.json) gives Sigma~_{t+1} = top-left 4 x 4 block + shift I and u~_{t+1} = the first 4 entries of its last column, which replace the server's statistics. V_t = Sigma~_t + lambda I; sqrt_beta[t-1] = beta_t^{1/2} = B sqrt(lambda_max + lambda) + rho sqrt(2 ln(2/zeta) + max(0, ln det V_t - m ln(lambda + lambda_min))) + kappa for t = 1..7 (t = 1: Sigma~_1 = shift I, u~_1 = 0), log_det_v[t-1] = ln det V_t; after round 6: theta = V_7^-1 u~_7, posterior mean <theta, phi(x)> and squared width |phi(x)|^2_{V_7^-1} at the test points.",
        json!({"points": xs, "rewards": ys, "node_noise": matrix(noise.view()), "sigma": number(cal.sigma()), "shift": number(spectrum.shift), "test_points": matrix(tests.view())}),
        json!({"sqrt_beta": sqrt_beta, "log_det_v": log_det, "sigma_tilde_7": matrix(sigma.view()), "u_tilde_7": vector(u.view()), "theta": vector(server.theta().view()), "posterior_mean": vector(mean.view()), "posterior_squared_width": vector(var.view())}),
        tolerances([
            (
                "log_det_v",
                Tolerance::linear_solve("natural log of a determinant", 1.0),
            ),
            (
                "posterior_mean",
                Tolerance::linear_solve("reward units", 3e-3),
            ),
            (
                "posterior_squared_width",
                Tolerance::linear_solve("squared V^-1-norm", 1e-3),
            ),
            (
                "sigma_tilde_7",
                Tolerance::closed_form("packed-statistic units", 1.0),
            ),
            (
                "sqrt_beta",
                Tolerance::linear_solve("confidence width (reward units)", 1.0),
            ),
            (
                "theta",
                Tolerance::linear_solve("weight (reward units)", 3e-3),
            ),
            (
                "u_tilde_7",
                Tolerance::closed_form("packed-statistic units", 1.0),
            ),
        ]),
    ))
}
