//! Properties of a whole federated run (Algorithms 1 and 2): determinism (thread count, seed),
//! what the server releases, where the initial points lie, the privacy loss per release,
//! standard TS without a server, and the follow probability.

use std::collections::HashSet;

use approx::assert_relative_eq;
use bandit::domain::Partition;
use dp_fts_de::{
    AgentVector, Broadcast, CentralServer, Choice, DpFtsDeParams, Exploration, FederatedProblem,
    FederationRecord, Init, PrivateAggregator, RoundInput, SubRegionWeights, Weighting,
    beta_schedule, run_federation,
};
use ndarray::Array2;
use privacy::Mechanism;
use privacy::accountant::paper_preset_epsilon;
use privacy::mechanisms::WeightCalibration;
use privacy::mechanisms::subsampled::SubsampledGaussian;
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;

const AGENTS: usize = 12;
const SEED: u64 = 7;

/// The synthetic problem (App. B.1.1) cut to its first 12 agents.
fn problem() -> FederatedProblem {
    FederatedProblem::synthetic(200, &mut ChaCha20Rng::seed_from_u64(2021))
        .unwrap()
        .first_agents(AGENTS)
        .unwrap()
}

/// The synthetic preset (P = 2, q = 0.25, z = 1, S = 11) with T = 6.
fn params() -> DpFtsDeParams {
    DpFtsDeParams {
        iterations: 6,
        ..DpFtsDeParams::synthetic()
    }
}

fn run(prob: &FederatedProblem, p: &DpFtsDeParams, seed: u64, run: usize) -> FederationRecord {
    let beta = beta_schedule(prob, p).unwrap();
    run_federation(prob, p, beta, seed, run).unwrap()
}

fn in_pool(threads: usize, f: impl FnOnce() -> FederationRecord + Send) -> FederationRecord {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
        .install(f)
}

#[test]
fn the_record_is_bit_identical_for_one_and_two_threads() {
    let prob = problem();
    for p in [params(), params().fts_de(2)] {
        let one = in_pool(1, || run(&prob, &p, SEED, 0));
        let two = in_pool(2, || run(&prob, &p, SEED, 0));
        // PartialEq on f64 is exact equality: every regret, reward and epsilon bit for bit.
        assert_eq!(one, two);
    }
}

#[test]
fn the_same_seed_gives_the_same_record_and_another_seed_another() {
    let prob = problem();
    let p = params();
    let a = run(&prob, &p, SEED, 0);
    assert_eq!(a, run(&prob, &p, SEED, 0));
    assert_eq!(a.agents.len(), AGENTS);
    for rec in &a.agents {
        assert_eq!(rec.actions.len(), p.n_init + p.iterations);
    }
    assert_eq!(a.choices.len(), p.iterations);
    // Another run of the batch and another base seed draw other queries.
    for b in [run(&prob, &p, SEED, 1), run(&prob, &p, SEED + 1, 0)] {
        let same = a
            .agents
            .iter()
            .zip(&b.agents)
            .all(|(x, y)| x.actions == y.actions);
        assert!(!same, "two different streams gave the same actions");
    }
}

/// A type-level statement: the private round's public output is a [`Broadcast`].
fn releases_a_broadcast<M: Mechanism<Input = RoundInput, Output = Broadcast>>(_: &M) {}

#[test]
fn the_release_is_the_p_by_m_vectors_and_nothing_else() {
    let (n, m, p, t) = (9, 5, 3, 2);
    let weights = SubRegionWeights::new(
        SubRegionWeights::round_robin(n, p),
        p,
        15.0,
        Weighting::NonAdaptive,
    )
    .unwrap();
    let mech = SubsampledGaussian::new(0.5, 2.0, 1.0).unwrap();
    let stacked = Array2::from_shape_fn((n, m), |(k, j)| ((k * m + j) as f64 * 0.37).sin());
    let vectors: Vec<AgentVector> = stacked
        .rows()
        .into_iter()
        .map(|r| AgentVector::new(r.to_owned()).unwrap())
        .collect();
    let round = PrivateAggregator::new(weights.clone(), mech.clone());
    releases_a_broadcast(&round);
    let b = round
        .release(
            &RoundInput {
                t,
                vectors: vectors.clone(),
            },
            &mut ChaCha20Rng::seed_from_u64(11),
        )
        .unwrap();
    assert_eq!(b.vectors().dim(), (p, m));
    // The broadcast is its P x M vectors alone (its only field; `Broadcast` has no public
    // constructor, so only a server makes one): it carries no subsample or other hidden state.
    assert_eq!(
        std::mem::size_of::<Broadcast>(),
        std::mem::size_of::<ndarray::Array2<f64>>()
    );
    // It is exactly the mechanism's aggregate for the same draws (whose subsample only the
    // test-only diagnostic of the privacy crate shows).
    let inside = mech
        .aggregate_with_subsample(
            stacked.view(),
            weights.at(t).view(),
            &mut ChaCha20Rng::seed_from_u64(11),
        )
        .unwrap();
    assert_eq!(b.vectors(), inside.vectors.view());
    // The server of a federation releases the same thing for the same draws.
    let mut server = CentralServer::private(weights, mech, 1e-5).unwrap();
    let from_server = server
        .aggregate(t, vectors, &mut ChaCha20Rng::seed_from_u64(11))
        .unwrap();
    assert_eq!(from_server, b);
}

#[test]
fn initial_points_lie_in_the_sub_region_only_under_init_sub_region() {
    let prob = problem();
    let p = params();
    let cells = Partition::equal_volume(prob.bounds().clone(), p.sub_regions)
        .unwrap()
        .assign_points(prob.domain())
        .unwrap();
    let region_of = |x: usize| cells.iter().position(|c| c.contains(&x)).unwrap();
    let sub = run(&prob, &p, SEED, 0);
    for (k, rec) in sub.agents.iter().enumerate() {
        let init = &rec.actions[..p.n_init];
        assert_eq!(init.iter().collect::<HashSet<_>>().len(), p.n_init);
        // Agent k is assigned to sub-region k mod P (round robin).
        assert!(
            init.iter().all(|&x| region_of(x) == k % p.sub_regions),
            "agent {k}: {init:?}"
        );
    }
    let whole = run(
        &prob,
        &DpFtsDeParams {
            init: Init::WholeDomain,
            ..p
        },
        SEED,
        0,
    );
    // Uniform on the whole domain: half the 1000 points lie outside the agent's own half, so
    // all 120 initial points inside their agent's half would have probability about 2^-120.
    let outside = whole
        .agents
        .iter()
        .enumerate()
        .flat_map(|(k, rec)| rec.actions[..p.n_init].iter().map(move |&x| (k, x)))
        .filter(|&(k, x)| region_of(x) != k % p.sub_regions)
        .count();
    assert!(outside > 0);
    for rec in &whole.agents {
        let init = &rec.actions[..p.n_init];
        assert_eq!(init.iter().collect::<HashSet<_>>().len(), p.n_init);
    }
}

#[test]
fn the_privacy_loss_after_release_k_is_the_papers_accountant_at_k() {
    let prob = problem();
    let p = params();
    let dp = p.privacy.unwrap();
    let rec = run(&prob, &p, SEED, 0);
    // T releases: the aggregates of iterations 0..T (the last iteration's are never used).
    assert_eq!(rec.privacy.len(), p.iterations);
    let delta = (AGENTS as f64).powf(-1.1);
    let mut last = 0.0;
    for (i, loss) in rec.privacy.iter().enumerate() {
        let k = i as u64 + 1;
        assert_eq!(loss.releases, k);
        assert_relative_eq!(loss.delta, delta, max_relative = 1e-15);
        let expected = paper_preset_epsilon(dp.q, dp.z, k, delta).unwrap();
        assert_relative_eq!(loss.epsilon_paper, expected, max_relative = 1e-12);
        assert!(loss.epsilon_paper > last, "not increasing at release {k}");
        assert!((2.0..=33.0).contains(&loss.order) && loss.order.fract() == 0.0);
        last = loss.epsilon_paper;
    }
    let clipped = rec.clipped_fraction.unwrap();
    assert!((0.0..=1.0).contains(&clipped));
    // A non-private federation reports none.
    let fts = run(&prob, &p.fts_de(2), SEED, 0);
    assert!(fts.privacy.is_empty() && fts.clipped_fraction.is_none());
}

#[test]
fn standard_ts_has_no_server_and_only_thompson_choices() {
    let prob = problem();
    let p = params().ts();
    let rec = run(&prob, &p, SEED, 0);
    assert!(rec.privacy.is_empty());
    assert!(rec.clipped_fraction.is_none());
    assert_eq!(rec.choices.len(), p.iterations);
    for row in &rec.choices {
        assert_eq!(row.len(), AGENTS);
        assert!(row.iter().all(|&c| c == Choice::Thompson), "{row:?}");
    }
}

#[test]
fn with_one_over_t_every_agent_follows_the_server_at_t_1() {
    let prob = problem();
    for base in [params(), params().fts_de(2)] {
        let p = DpFtsDeParams {
            exploration: Exploration::Inverse,
            ..base
        };
        let rec = run(&prob, &p, SEED, 0);
        assert!(rec.choices[0].iter().all(|&c| c == Choice::Server));
        // Later iterations mix (1 - p_t = 1/t < 1): over 5 x 12 choices at t = 2..6, all
        // Server would have probability prod_t (1/t)^12, about 1e-25.
        let later: Vec<Choice> = rec.choices[1..].iter().flatten().copied().collect();
        assert!(later.contains(&Choice::Thompson));
        // A federated agent that never explores (p_t = 1) never follows.
        let never = run(
            &prob,
            &DpFtsDeParams {
                exploration: Exploration::Never,
                ..base
            },
            SEED,
            0,
        );
        assert!(
            never
                .choices
                .iter()
                .flatten()
                .all(|&c| c == Choice::Thompson)
        );
    }
}

/// Erratum 14's numbers: the synthetic preset's Theorem 1 `beta` at the posterior sizes of the
/// Thompson steps (`N_init + t - 1 = 10 ... 49` observations) runs from 1.91 to 2.59; it
/// depends on the domain only (the same for every problem draw).
#[test]
fn the_synthetic_beta_is_the_documented_one() {
    let params = DpFtsDeParams::synthetic();
    for seed in [0u64, 1] {
        let mut rng = ChaCha20Rng::seed_from_u64(seed);
        let problem = FederatedProblem::synthetic(200, &mut rng).unwrap();
        let beta = beta_schedule(&problem, &params).unwrap();
        let v = beta.values();
        let (first, last) = (params.n_init, params.n_init + params.iterations - 1);
        assert!((v[first] - 1.908).abs() < 1e-3, "{}", v[first]);
        assert!((v[last] - 2.586).abs() < 1e-3, "{}", v[last]);
        assert!(v[first..=last].windows(2).all(|w| w[0] <= w[1]));
    }
}

/// The server's noise-to-signal diagnostic against a hand computation: `sigma_t` over the root
/// mean square of `W_t^T clip(Omega)` (rows clipped to `S / sqrt(P)`), one value per release,
/// none for a non-private server.
#[test]
fn the_noise_to_signal_ratio_is_sigma_over_the_clean_aggregate() {
    let (n, m, p, t) = (6, 4, 2, 3);
    let weights = SubRegionWeights::new(
        SubRegionWeights::round_robin(n, p),
        p,
        15.0,
        Weighting::NonAdaptive,
    )
    .unwrap();
    // Clip 1 per vector (S = sqrt(2), P = 2): rows 0 and 3 exceed it.
    let mech = SubsampledGaussian::new(0.5, 2f64.sqrt(), 1.3).unwrap();
    let stacked = Array2::from_shape_fn((n, m), |(k, j)| {
        let base = ((k * m + j) as f64 * 0.7).cos() * 0.4;
        if k % 3 == 0 { base * 6.0 } else { base }
    });
    let vectors: Vec<AgentVector> = stacked
        .rows()
        .into_iter()
        .map(|r| AgentVector::new(r.to_owned()).unwrap())
        .collect();
    let mut clipped = stacked.clone();
    let mut n_clipped = 0;
    for mut r in clipped.rows_mut() {
        let norm = r.dot(&r).sqrt();
        if norm > 1.0 {
            r /= norm;
            n_clipped += 1;
        }
    }
    assert!(n_clipped >= 2);
    let w = weights.at(t);
    let clean = w.t().dot(&clipped);
    let rms = (clean.iter().map(|v| v * v).sum::<f64>() / (p * m) as f64).sqrt();
    // z phi_max S / q, times the hardened sampler's grid slack (about 1e-6).
    let sigma = mech.sigma(weights.phi_max(t));
    assert_relative_eq!(
        sigma,
        1.3 * weights.phi_max(t) * 2f64.sqrt() / 0.5,
        max_relative = 1e-5
    );
    let mut server = CentralServer::private(weights.clone(), mech.clone(), 1e-5).unwrap();
    server
        .aggregate(t, vectors.clone(), &mut ChaCha20Rng::seed_from_u64(3))
        .unwrap();
    let got = server.noise_to_signal();
    assert_eq!(got.len(), 1);
    assert_relative_eq!(got[0], sigma / rms, max_relative = 1e-12);
    // The realised-weights calibration: z max_n ||phi_n|| S / (sqrt(P) q), below phi_max's
    // (the non-adaptive weights differ across the two sub-regions).
    let row = w
        .rows()
        .into_iter()
        .map(|r| r.dot(&r).sqrt())
        .fold(0.0, f64::max);
    let tight_sigma = 1.3 * row / 2f64.sqrt() * 2f64.sqrt() / 0.5;
    assert!(tight_sigma < 0.75 * sigma, "{tight_sigma} vs {sigma}");
    let tight = mech.with_calibration(WeightCalibration::RowNorm);
    let mut server = CentralServer::private(weights.clone(), tight, 1e-5).unwrap();
    assert_relative_eq!(
        server.private_round().unwrap().sigma(t),
        tight_sigma,
        max_relative = 1e-5
    );
    server
        .aggregate(t, vectors.clone(), &mut ChaCha20Rng::seed_from_u64(3))
        .unwrap();
    assert_relative_eq!(
        server.noise_to_signal()[0],
        server.private_round().unwrap().sigma(t) / rms,
        max_relative = 1e-12
    );
    let mut exact = CentralServer::non_private(weights).unwrap();
    exact
        .aggregate(t, vectors, &mut ChaCha20Rng::seed_from_u64(3))
        .unwrap();
    assert!(exact.noise_to_signal().is_empty());
}
