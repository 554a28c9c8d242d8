//! The dp-fts-de fixtures (`fixtures/dp-fts-de/`).

use std::sync::Arc;

use bandit::domain::{BoxDomain, FiniteDomain, Partition};
use dp_fts_de::schedule::{Annealing, Exploration};
use dp_fts_de::{
    AgentVector, BetaRule, BetaSchedule, CentralServer, FtsAgent, PrivateAggregator,
    SharedFeatures, SubRegionWeights, Weighting,
};
use kernel::{FeatureMap, RandomFourierFeatures, SquaredExponential};
use ndarray::{Array1, Array2, arr1, arr2};
use privacy::Sampler;
use privacy::accountant::rdp::{paper_orders, subsampled_gaussian_epsilon};
use privacy::accountant::{PldSettings, RdpConversion, subsampled_gaussian_pld_epsilon};
use privacy::mechanisms::subsampled::SubsampledGaussian;
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use serde_json::json;

use verification::CheckError;
use verification::fixtures::{Entry, matrix, number, vector};
use verification::fixtures::{Tolerance, tolerances};

/// The fixtures of this area.
pub fn fixtures() -> Result<Vec<Entry>, CheckError> {
    Ok(vec![
        features_fixture()?,
        posterior_fixture()?,
        weights_fixture()?,
        aggregation_fixture()?,
        privacy_fixture()?,
    ])
}

fn err(e: impl std::fmt::Display) -> CheckError {
    CheckError::msg(e.to_string())
}

/// One case of the shared features: RFF drawn from `seed`, evaluated by the crate's
/// [`SharedFeatures`] (checked equal to [`SharedFeatures::draw`] from the same seed).
fn features_case(
    points: Array2<f64>,
    p: usize,
    lengthscale: f64,
    m: usize,
    seed: u64,
    w: Array1<f64>,
    by_region: Array2<f64>,
) -> Result<serde_json::Value, CheckError> {
    let d = points.ncols();
    let domain = FiniteDomain::new(points.clone()).map_err(err)?;
    let partition = Partition::equal_volume(BoxDomain::unit(d).map_err(err)?, p).map_err(err)?;
    let kernel = SquaredExponential::isotropic(lengthscale).map_err(err)?;
    let rff = RandomFourierFeatures::new(kernel, d, m, &mut ChaCha20Rng::seed_from_u64(seed))
        .map_err(err)?;
    let phi = rff.map_batch(points.view()).map_err(err)?;
    let shared = SharedFeatures::from_matrix(domain.clone(), &partition, phi).map_err(err)?;
    let drawn = SharedFeatures::draw(
        domain,
        &partition,
        lengthscale,
        m,
        &mut ChaCha20Rng::seed_from_u64(seed),
    )
    .map_err(err)?;
    if drawn.matrix() != shared.matrix() {
        return Err(CheckError::msg(
            "SharedFeatures::draw differs from RandomFourierFeatures + from_matrix",
        ));
    }
    let regions: Vec<usize> = (0..shared.n_points())
        .map(|x| shared.region_of(x))
        .collect();
    Ok(json!({
        "inputs": {
            "points": matrix(points.view()),
            "lengthscale": lengthscale,
            "M": m,
            "P": p,
            "frequencies": matrix(rff.frequencies().view()),
            "phases": vector(rff.phases().view()),
            "w": vector(w.view()),
            "region_vectors": matrix(by_region.view()),
        },
        "outputs": {
            "phi": matrix(shared.matrix()),
            "region": regions,
            "argmax": shared.argmax(w.view()),
            "argmax_by_region": shared.argmax_by_region(by_region.view()),
        },
    }))
}

fn features_fixture() -> Result<Entry, CheckError> {
    let x1 = arr2(&[[0.0], [0.1], [0.25], [0.4], [0.5], [0.6], [0.85], [1.0]]);
    let d1 = features_case(
        x1,
        2,
        0.2,
        6,
        11,
        arr1(&[0.5, -1.0, 0.25, 2.0, -0.75, 1.5]),
        arr2(&[
            [1.0, 0.5, -0.5, 0.0, 2.0, -1.0],
            [-2.0, 1.0, 0.5, 1.5, 0.0, 0.25],
        ]),
    )?;
    let x2 = arr2(&[
        [0.1, 0.2],
        [0.3, 0.8],
        [0.5, 0.5],
        [0.7, 0.1],
        [0.9, 0.9],
        [0.2, 0.6],
    ]);
    let d2 = features_case(
        x2,
        4,
        0.3,
        5,
        12,
        arr1(&[1.0, -0.5, 0.5, 2.0, -1.0]),
        arr2(&[
            [1.0, 0.0, 0.0, 0.0, 0.0],
            [0.0, 1.0, 0.0, 0.0, 0.0],
            [0.0, 0.0, 1.0, 0.0, 0.0],
            [0.0, 0.0, 0.0, 1.0, 1.0],
        ]),
    )?;
    Ok(super::AREA.fixture(
        "shared_features",
        "The random Fourier features all agents share (Sec. 2; Rahimi & Recht 2007) evaluated on a finite domain, with the sub-region of each point and the two acquisition argmaxes of Algorithm 2. phi(x)_j = sqrt(2 / M) cos(omega_j . x + b_j), j = 1..M, for the unit-variance SE kernel exp(-|x - y|^2 / (2 l^2)); the frequencies omega_j (rows of `frequencies`, drawn N(0, I / l^2)) and phases b_j (drawn U[0, 2 pi)) were drawn by kernel::RandomFourierFeatures from ChaCha20Rng::seed_from_u64(11) (case d1) and (12) (case d2): they are inputs here, since the draw is not portable across languages. phi[x][j] for point x (row of `points`). Sub-regions: bandit::domain::Partition::equal_volume of [0, 1]^d into P equal cells (P = 2 on [0, 1]: [0, 0.5), [0.5, 1]; P = 4 on [0, 1]^2: 2 x 2, cells in row-major order of the per-dimension indices, last dimension fastest, intervals half-open except the last of each dimension, which is closed); region[x] is the 0-based cell of point x. argmax = the first (lowest-index) maximiser over x of phi(x) . w (Algorithm 2 line 6 for a given sample w); argmax_by_region = the first maximiser over x of phi(x) . region_vectors[region[x]] (line 8 with the broadcast P x M vectors).",
        json!({"d1": d1["inputs"], "d2": d2["inputs"]}),
        json!({"d1": d1["outputs"], "d2": d2["outputs"]}),
        tolerances([
            (
                "d1.argmax",
                Tolerance::exact(
                    "point index (0-based)",
                    "an argmax with ties to the lowest index: exact",
                ),
            ),
            (
                "d1.argmax_by_region",
                Tolerance::exact(
                    "point index (0-based)",
                    "an argmax with ties to the lowest index: exact",
                ),
            ),
            ("d1.phi", Tolerance::closed_form("feature value", 1.0)),
            (
                "d1.region",
                Tolerance::exact(
                    "cell index (0-based)",
                    "comparisons with the cell bounds: exact",
                ),
            ),
            (
                "d2.argmax",
                Tolerance::exact(
                    "point index (0-based)",
                    "an argmax with ties to the lowest index: exact",
                ),
            ),
            (
                "d2.argmax_by_region",
                Tolerance::exact(
                    "point index (0-based)",
                    "an argmax with ties to the lowest index: exact",
                ),
            ),
            ("d2.phi", Tolerance::closed_form("feature value", 1.0)),
            (
                "d2.region",
                Tolerance::exact(
                    "cell index (0-based)",
                    "comparisons with the cell bounds: exact",
                ),
            ),
        ]),
    ))
}

fn posterior_fixture() -> Result<Entry, CheckError> {
    // Fixed feature rows (|X| = 6 points of [0, 1], M = 4): phi[x][j] = 0.7 cos(1.3 (x+1)
    // (j+1) + 0.4 j), a smooth table any reader can check, stored below.
    let points = arr2(&[[0.0], [0.2], [0.4], [0.6], [0.8], [1.0]]);
    let m = 4;
    let phi = Array2::from_shape_fn((points.nrows(), m), |(x, j)| {
        0.7 * (1.3 * (x + 1) as f64 * (j + 1) as f64 + 0.4 * j as f64).cos()
    });
    let lambda = 0.01;
    let history: [(usize, f64); 7] = [
        (1, 0.3),
        (4, 0.9),
        (2, -0.1),
        (4, 1.0),
        (5, 0.5),
        (0, 0.2),
        (3, 0.65),
    ];
    let z = arr1(&[0.5, -1.2, 0.3, 2.0]);
    let beta = 1.7;
    let domain = FiniteDomain::new(points.clone()).map_err(err)?;
    let partition = Partition::equal_volume(BoxDomain::unit(1).map_err(err)?, 2).map_err(err)?;
    let features =
        SharedFeatures::from_matrix(domain.clone(), &partition, phi.clone()).map_err(err)?;
    let schedule = Arc::new(
        BetaSchedule::new(
            BetaRule::Constant(beta),
            &domain,
            0.2,
            lambda,
            history.len(),
        )
        .map_err(err)?,
    );
    let mut agent =
        FtsAgent::new(features, schedule, Exploration::Never, 0, lambda).map_err(err)?;
    for &(x, y) in &history {
        agent.observe(x, y).map_err(err)?;
    }
    let gp = agent.posterior();
    let chol = gp.cholesky();
    let cov = chol
        .solve_matrix(Array2::<f64>::eye(m).view())
        .map_err(err)?
        * lambda;
    let vector_with_z = gp.sample_theta_with(z.view()).map_err(err)?;
    let thompson_with_z = gp.sample_theta_with((&z * beta).view()).map_err(err)?;
    let xs: Vec<usize> = history.iter().map(|h| h.0).collect();
    let ys: Vec<f64> = history.iter().map(|h| h.1).collect();
    Ok(super::AREA.fixture(
        "agent_posterior",
        "One agent's weight-space posterior (eq. (2), Algorithm 2) after a fixed history. Feature table phi (6 points x M = 4; phi[x][j] = 0.7 cos(1.3 (x + 1)(j + 1) + 0.4 j), stored); the agent observes (phi[x_s], y_s) for s = 1..7 (x 0-based rows of phi). Sigma_t = Phi_t^T Phi_t + lambda I (Phi_t: the 7 observed rows), L its lower Cholesky factor (Sigma_t = L L^T), nu_t = Sigma_t^-1 Phi_t^T y_t. The vector an agent sends (line 10) is a draw of N(nu_t, lambda Sigma_t^-1): `vector_covariance` = lambda Sigma_t^-1, and for the given standard-normal z, `vector_with_z` = nu_t + sqrt(lambda) L^-T z. The Thompson sample of line 6 is N(nu_t, beta^2 lambda Sigma_t^-1): `thompson_with_z` = nu_t + beta sqrt(lambda) L^-T z with beta = 1.7. Conditioning: Sigma_t has eigenvalues down to about lambda, so compare nu_t and the covariance at about 1e-10 relative to their largest entry.",
        json!({"points": matrix(points.view()), "phi": matrix(phi.view()), "lambda": lambda, "observed_rows": xs, "y": ys, "z": vector(z.view()), "beta": beta}),
        json!({
            "sigma_t": matrix(gp.v().view()),
            "cholesky_lower": matrix(chol.lower().view()),
            "nu_t": vector(gp.theta()),
            "phi_t_y": vector(gp.phi_t_y()),
            "vector_mean": vector(gp.theta()),
            "vector_covariance": matrix(cov.view()),
            "vector_with_z": vector(vector_with_z.view()),
            "thompson_with_z": vector(thompson_with_z.view()),
        }),
        tolerances([
            (
                "cholesky_lower",
                Tolerance::linear_solve("sqrt of feature units squared", 1.0),
            ),
            (
                "nu_t",
                Tolerance::linear_solve("weight (reward units)", 1.0),
            ),
            (
                "phi_t_y",
                Tolerance::closed_form("feature times reward units", 1.0),
            ),
            (
                "sigma_t",
                Tolerance::closed_form("feature units squared", 1.0),
            ),
            (
                "thompson_with_z",
                Tolerance::linear_solve("weight (reward units)", 1.0),
            ),
            (
                "vector_covariance",
                Tolerance::linear_solve("weight units squared", 1e-2),
            ),
            (
                "vector_mean",
                Tolerance::linear_solve("weight (reward units)", 1.0),
            ),
            (
                "vector_with_z",
                Tolerance::linear_solve("weight (reward units)", 1.0),
            ),
        ]),
    ))
}

fn weights_case(
    n: usize,
    p: usize,
    weighting: Weighting,
    rounds: std::ops::RangeInclusive<usize>,
) -> Result<serde_json::Value, CheckError> {
    let a = 15.0;
    let assignment = SubRegionWeights::round_robin(n, p);
    let w = SubRegionWeights::new(assignment.clone(), p, a, weighting).map_err(err)?;
    let per_round: Vec<serde_json::Value> = rounds
        .clone()
        .map(|t| {
            let a_t = match weighting {
                Weighting::Adaptive(s) => number(s.a_t(a, t)),
                _ => serde_json::Value::Null,
            };
            json!({
                "t": t,
                "a_t": a_t,
                "log_ratio": number(w.log_ratio(t)),
                "weights": matrix(w.at(t).view()),
                "phi_max": number(w.phi_max(t)),
            })
        })
        .collect();
    Ok(json!({
        "inputs": {"N": n, "P": p, "a": a, "assignment": assignment, "t": rounds.collect::<Vec<_>>()},
        "outputs": per_round,
    }))
}

/// Softmax weights are ratios of positive exponentials: no cancellation, so a relative
/// tolerance alone (weights reach 1e-7).
fn softmax_weight_tolerance() -> Tolerance {
    Tolerance::new(
        "softmax weight (dimensionless)",
        0.0,
        1e-10,
        "closed form without cancellation (a ratio of positive exponentials): relative only",
    )
}

fn weights_fixture() -> Result<Entry, CheckError> {
    let synthetic = weights_case(5, 2, Weighting::Adaptive(Annealing::SYNTHETIC), 0..=45)?;
    let real = weights_case(6, 4, Weighting::Adaptive(Annealing::REAL_WORLD), 0..=45)?;
    let fixed = weights_case(5, 2, Weighting::NonAdaptive, 0..=0)?;
    Ok(super::AREA.fixture(
        "softmax_weights",
        "The public sub-region weights of distributed exploration (Sec. 3.2, App. B). Agent n (0-based) is assigned to sub-region assignment[n] = n mod P; I_n^(i) = 1 if assignment[n] = i, else 0. Softmax phi_n^(i) = exp((a I_n^(i) + 1) / T_t) / sum_m exp((a I_m^(i) + 1) / T_t), a = 15; weights[t][n][i] = phi_n^(i) at iteration t (N x P, each column sums to 1). Adaptive (App. B): T_t = a / (a_t - 1), so a / T_t = a_t - 1 = log_ratio; a_t = a + 1 for t <= hold, then a_t = (a + 1) - a (t - hold - 1) / (decay - 1) for the decay iterations t = hold + 1 .. hold + decay - 1, and a_t = 1 (infinite temperature, uniform weights 1/N) for t >= hold + decay; synthetic: hold = 5, decay = 5 (a_t = 16 for t <= 6, then 12.25, 8.5, 4.75, 1; the paper's worked values), real-world: hold = 10, decay = 30. Non-adaptive (App. B.2.5): T = 1 for every t (log_ratio = a = 15), so its one entry holds for every t (a_t null). phi_max = max_{n,i} phi_n^(i), which scales the server's noise. Computed in the overflow-free form phi_n^(i) = exp(I_n^(i) r) / (N_i exp(r) + N - N_i), r = log_ratio, N_i = number of agents assigned to i.",
        json!({"synthetic": synthetic["inputs"], "real_world": real["inputs"], "non_adaptive": fixed["inputs"]}),
        json!({"synthetic": synthetic["outputs"], "real_world": real["outputs"], "non_adaptive": fixed["outputs"]}),
        tolerances([
            (
                "non_adaptive",
                Tolerance::closed_form("softmax weight or schedule value (dimensionless)", 1.0),
            ),
            (
                "non_adaptive.t",
                Tolerance::exact("iteration", "an integer: exact"),
            ),
            ("non_adaptive.weights", softmax_weight_tolerance()),
            (
                "real_world",
                Tolerance::closed_form("softmax weight or schedule value (dimensionless)", 1.0),
            ),
            (
                "real_world.t",
                Tolerance::exact("iteration", "an integer: exact"),
            ),
            ("real_world.weights", softmax_weight_tolerance()),
            (
                "synthetic",
                Tolerance::closed_form("softmax weight or schedule value (dimensionless)", 1.0),
            ),
            (
                "synthetic.t",
                Tolerance::exact("iteration", "an integer: exact"),
            ),
            ("synthetic.weights", softmax_weight_tolerance()),
        ]),
    ))
}

fn aggregation_fixture() -> Result<Entry, CheckError> {
    let (n, p, t) = (5, 2, 7);
    let (q, clip, z) = (0.25, 2.0, 1.0);
    let vectors = arr2(&[
        [0.5, -1.0, 0.25],
        [2.0, 1.0, -2.0],
        [0.1, 0.2, 0.3],
        [-1.5, 0.5, 1.0],
        [3.0, 0.0, -4.0],
    ]);
    let selected = [true, true, false, true, true];
    let weights = SubRegionWeights::new(
        SubRegionWeights::round_robin(n, p),
        p,
        15.0,
        Weighting::Adaptive(Annealing::SYNTHETIC),
    )
    .map_err(err)?;
    let w = weights.at(t);
    let mech = SubsampledGaussian::new(q, clip, z).map_err(err)?;
    let textbook = mech.clone().with_sampler(Sampler::Textbook);
    let zero = Array2::zeros((p, vectors.ncols()));
    let aggregate = mech
        .aggregate_with(vectors.view(), w.view(), &selected, zero.view())
        .map_err(err)?;
    let clipped = Array2::from_shape_fn(vectors.dim(), |(k, j)| {
        mech.clip_vector(vectors.row(k), p)[j]
    });
    let phi_max = weights.phi_max(t);
    let hardened_round = PrivateAggregator::new(weights.clone(), mech.clone());
    let textbook_round = PrivateAggregator::new(weights.clone(), textbook);
    let agent_vectors: Vec<AgentVector> = vectors
        .rows()
        .into_iter()
        .map(|r| AgentVector::new(r.to_owned()))
        .collect::<Result<_, _>>()
        .map_err(err)?;
    let mut exact = CentralServer::non_private(weights.clone()).map_err(err)?;
    let non_private = exact
        .aggregate(t, agent_vectors, &mut ChaCha20Rng::seed_from_u64(0))
        .map_err(err)?;
    Ok(super::AREA.fixture(
        "server_aggregation",
        "One round of the central server (Algorithm 1) on fixed inputs. N = 5 agents, M = 3, P = 2, assignment n mod P, weights phi_n^(i) of the synthetic schedule at t = 7 (a_t = 12.25; see softmax_weights.json), q = 0.25, S = 2, z = 1. Private (lines 6-11) with the subsample `selected` given and the noise set to zero: each vector is clipped to L2 norm S / sqrt(P), omega_hat_n = omega_n / max(1, |omega_n|_2 / (S / sqrt(P))) (`clipped`, all agents shown); aggregate[i] = sum_{n selected} (phi_n^(i) / q) omega_hat_n (P x M; the release adds N(0, sigma^2 I) to each row). sensitivity = phi_max S / q (the L2 norm of one agent's contribution to the joint output), sigma_textbook = z phi_max S / q, sigma_hardened = (1 + 2^-20) z phi_max S / q (the discrete Gaussian's grid slack, the crate's default sampler). Non-private (FTS, FTS-DE): non_private[i] = sum_n phi_n^(i) omega_n over every agent, no clipping, no noise.",
        json!({"t": t, "q": q, "S": clip, "z": z, "P": p, "vectors": matrix(vectors.view()), "weights": matrix(w.view()), "selected": selected}),
        json!({
            "clip_bound": number(mech.clip_bound(p)),
            "clipped": matrix(clipped.view()),
            "aggregate": matrix(aggregate.view()),
            "phi_max": number(phi_max),
            "sensitivity": number(mech.sensitivity(phi_max)),
            "sigma_textbook": number(textbook_round.sigma(t)),
            "sigma_hardened": number(hardened_round.sigma(t)),
            "non_private": matrix(non_private.vectors()),
        }),
        tolerances([
            (
                "aggregate",
                Tolerance::closed_form("vector entry (units of the agents' vectors)", 1.0),
            ),
            (
                "clip_bound",
                Tolerance::closed_form("L2 norm (units of the agents' vectors)", 1.0),
            ),
            (
                "clipped",
                Tolerance::closed_form("vector entry (units of the agents' vectors)", 1.0),
            ),
            (
                "non_private",
                Tolerance::closed_form("vector entry (units of the agents' vectors)", 1.0),
            ),
            (
                "phi_max",
                Tolerance::closed_form("softmax weight (dimensionless)", 1.0),
            ),
            (
                "sensitivity",
                Tolerance::closed_form("L2 sensitivity (units of the agents' vectors)", 1.0),
            ),
            (
                "sigma_hardened",
                Tolerance::closed_form(
                    "noise standard deviation (units of the agents' vectors)",
                    1.0,
                ),
            ),
            (
                "sigma_textbook",
                Tolerance::closed_form(
                    "noise standard deviation (units of the agents' vectors)",
                    1.0,
                ),
            ),
        ]),
    ))
}

/// The releases at which the per-round fixture gives the PLD epsilon (each is a separate
/// k-fold FFT composition; all 40 of them for 5 cases would take about 16 s to regenerate).
const PLD_ROUNDS: [u64; 7] = [1, 2, 5, 10, 20, 30, 40];

/// The PLD settings of the per-round fixture (coarse, so that regenerating it is fast).
const FIXTURE_PLD: PldSettings = PldSettings {
    bin_width: 1e-3,
    tail_mass: 1e-20,
};

fn privacy_fixture() -> Result<Entry, CheckError> {
    // Fig. 2c (q at z = 1) and Fig. 2d (z at q = 0.25), with the losses the paper prints.
    let cases = [
        (0.15, 1.0, 5.93),
        (0.25, 1.0, 9.91),
        (0.5, 1.0, 20.12),
        (0.25, 1.2, 7.39),
        (0.25, 1.5, 5.22),
    ];
    let n: u32 = 200;
    let delta = f64::from(n).powf(-1.1);
    let rounds = 1..=40u64;
    let mut ins = Vec::new();
    let mut outs = Vec::new();
    for (q, z, printed) in cases {
        let mut paper = Vec::new();
        let mut order = Vec::new();
        for k in rounds.clone() {
            let (e, a) = subsampled_gaussian_epsilon(
                q,
                z,
                k,
                delta,
                &paper_orders(),
                RdpConversion::Classic,
            )
            .map_err(err)?;
            paper.push(number(e));
            order.push(number(a));
        }
        let mut pld = Vec::new();
        for &k in &PLD_ROUNDS {
            pld.push(number(
                subsampled_gaussian_pld_epsilon(q, z, k, delta, FIXTURE_PLD)
                    .map_err(err)?
                    .epsilon,
            ));
        }
        ins.push(json!({"q": q, "z": z, "paper_printed_T40": printed}));
        outs.push(json!({"epsilon_paper": paper, "order_paper": order, "epsilon_pld": pld}));
    }
    Ok(super::AREA.fixture(
        "privacy_per_round",
        "The privacy loss of DP-FTS-DE after k = 1..40 releases (T = 40 iterations, Fig. 2c/2d) for the paper's five (q, z), N = 200 agents, delta = N^-1.1 = 200^-1.1. Each release is one Poisson-subsampled Gaussian round (sampling rate q, noise multiplier z; add/remove one agent). epsilon_paper[k-1] (the paper's moments accountant, what CentralServer::privacy_loss reports): RDP at the integer orders alpha = 2..=33, A_alpha = sum_{j=0}^{alpha} C(alpha, j) (1-q)^(alpha-j) q^j exp((j^2 - j) / (2 z^2)), RDP_k(alpha) = k ln(A_alpha) / (alpha - 1), epsilon = min_alpha RDP_k(alpha) + ln(1/delta) / (alpha - 1), order_paper the minimising alpha; epsilon_paper[39] reproduces the values the paper prints (paper_printed_T40, rounded to 2 decimals). epsilon_pld[j]: at k = k_pld[j] (a subset of the releases, to keep regeneration fast), the privacy-loss-distribution accountant (privacy::accountant::subsampled_gaussian_pld_epsilon, an option, not the paper's): loss grid of width 1e-3, connect-the-dots discretisation (an upper bound), tail mass 1e-20 beyond the grid counted as infinite loss, k-fold FFT convolution on a Chernoff window with the mass beyond it and a floating-point error bound added to delta, max over the remove and add orientations; it depends on the bin width (the excess over the exact value is second order in the width).",
        json!({"N": n, "delta": number(delta), "k": rounds.collect::<Vec<_>>(), "k_pld": PLD_ROUNDS, "cases": ins}),
        json!({"cases": outs}),
        tolerances([
            (
                "cases.epsilon_paper",
                Tolerance::closed_form("epsilon (nats)", 1.0),
            ),
            (
                "cases.epsilon_pld",
                crate::privacy::fixtures::pld_epsilon_tolerance(),
            ),
            (
                "cases.order_paper",
                Tolerance::exact(
                    "RDP order",
                    "the minimiser over the integer orders 2..=33: exact",
                ),
            ),
        ]),
    ))
}
