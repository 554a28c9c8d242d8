//! Bad input gives a typed error (design principle 5), matched on its variant: the privacy
//! settings, the counts, `lambda`, agent vectors (a NaN never reaches an aggregate, a vector of
//! the wrong length is never averaged in), broadcasts of the wrong shape, and weight
//! assignments out of range.

use std::sync::Arc;

use bandit::domain::{BoxDomain, FiniteDomain, Partition};
use dp_fts_de::{
    AgentVector, Broadcast, CentralServer, DpFtsDeError, DpFtsDeParams, Exploration,
    FederatedProblem, FtsAgent, InputError, PrivateAggregator, RoundInput, SharedFeatures,
    SubRegionWeights, Weighting, beta_schedule, run_federation,
};
use ndarray::{Array1, Array2, array};
use privacy::Mechanism;
use privacy::mechanisms::subsampled::SubsampledGaussian;
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;

const N: usize = 4;

/// Four agents on 24 points of [0, 1], `f^n(x) = sin(6 x + n / 10)`, noise sd 0.1.
fn problem() -> FederatedProblem {
    let points = Array2::from_shape_fn((24, 1), |(i, _)| i as f64 / 23.0);
    let objectives = Array2::from_shape_fn((N, 24), |(n, i)| {
        (6.0 * points[[i, 0]] + n as f64 / 10.0).sin()
    });
    FederatedProblem::new(
        "test",
        BoxDomain::unit(1).unwrap(),
        FiniteDomain::new(points).unwrap(),
        objectives,
        0.1,
    )
    .unwrap()
}

/// The synthetic preset made small: T = 3, N_init = 2, M = 8, P = 2, DP with q = 0.25.
fn params() -> DpFtsDeParams {
    DpFtsDeParams {
        iterations: 3,
        n_init: 2,
        features: 8,
        ..DpFtsDeParams::synthetic()
    }
}

/// `validate` and `run_federation` (with the beta table of the valid preset, so that the run
/// itself has to catch the setting) both reject `p`; the run's error is returned.
fn rejected(p: DpFtsDeParams) -> DpFtsDeError {
    let prob = problem();
    let v = p.validate(N).expect_err("validate accepts a bad setting");
    let beta = beta_schedule(&prob, &params()).unwrap();
    let e = run_federation(&prob, &p, beta, 1, 0).expect_err("run accepts a bad setting");
    assert_eq!(v.to_string(), e.to_string());
    e
}

#[test]
fn the_valid_setting_runs() {
    let prob = problem();
    let p = params();
    let beta = beta_schedule(&prob, &p).unwrap();
    let r = run_federation(&prob, &p, beta, 1, 0).unwrap();
    assert_eq!(r.privacy.len(), 3);
    assert_eq!(r.agents.len(), N);
}

#[test]
fn a_sampling_rate_outside_0_1_is_out_of_range() {
    for q in [0.0, -0.1, 1.5, f64::NAN] {
        let e = rejected(params().with_privacy(q, 1.0, 11.0));
        assert!(
            matches!(
                e,
                DpFtsDeError::Input(InputError::OutOfRange {
                    what: "sampling rate q",
                    ..
                })
            ),
            "q = {q}: {e}"
        );
    }
    // q = 1 (no subsampling) is allowed.
    let q1 = params().with_privacy(1.0, 1.0, 11.0);
    assert_eq!(*q1.validate(N).unwrap(), q1);
}

#[test]
fn a_non_positive_noise_multiplier_or_clip_is_not_positive() {
    for z in [0.0, -1.0, f64::NAN] {
        let e = rejected(params().with_privacy(0.25, z, 11.0));
        assert!(
            matches!(
                e,
                DpFtsDeError::Input(InputError::NotPositive {
                    what: "noise multiplier z",
                    ..
                })
            ),
            "z = {z}: {e}"
        );
    }
    for s in [0.0, -11.0, f64::INFINITY] {
        let e = rejected(params().with_privacy(0.25, 1.0, s));
        assert!(
            matches!(
                e,
                DpFtsDeError::Input(InputError::NotPositive {
                    what: "clipping threshold S",
                    ..
                })
            ),
            "S = {s}: {e}"
        );
    }
    // The mechanism itself rejects them too.
    assert!(matches!(
        SubsampledGaussian::new(0.0, 1.0, 1.0),
        Err(privacy::PrivacyError::Input(InputError::OutOfRange { .. }))
    ));
}

#[test]
fn a_bad_number_of_sub_regions_is_a_setting_error() {
    for p in [0, N + 1] {
        let e = rejected(DpFtsDeParams {
            sub_regions: p,
            ..params()
        });
        assert!(matches!(e, DpFtsDeError::Setting(_)), "P = {p}: {e}");
    }
    let e = SubRegionWeights::new(vec![0, 0], 0, 15.0, Weighting::Equal).unwrap_err();
    assert!(matches!(e, DpFtsDeError::Setting(_)), "{e}");
}

#[test]
fn zero_counts_are_zero_count_errors() {
    let cases = [
        (
            DpFtsDeParams {
                features: 0,
                ..params()
            },
            "number of random features M",
        ),
        (
            DpFtsDeParams {
                iterations: 0,
                ..params()
            },
            "iterations T",
        ),
        (
            DpFtsDeParams {
                n_init: 0,
                ..params()
            },
            "initial points N_init",
        ),
    ];
    for (p, name) in cases {
        let e = rejected(p);
        assert!(
            matches!(e, DpFtsDeError::Input(InputError::ZeroCount { what }) if what == name),
            "{name}: {e}"
        );
    }
    // M = 0 also where features are given as a matrix.
    let prob = problem();
    let partition = Partition::equal_volume(prob.bounds().clone(), 2).unwrap();
    let e = SharedFeatures::from_matrix(prob.domain().clone(), &partition, Array2::zeros((24, 0)))
        .unwrap_err();
    assert!(
        matches!(e, DpFtsDeError::Input(InputError::ZeroCount { .. })),
        "{e}"
    );
    let e = SharedFeatures::from_matrix(prob.domain().clone(), &partition, Array2::zeros((23, 8)))
        .unwrap_err();
    assert!(
        matches!(e, DpFtsDeError::Input(InputError::DimensionMismatch { .. })),
        "{e}"
    );
}

#[test]
fn a_non_positive_lambda_is_not_positive() {
    for lambda in [0.0, -0.01, f64::NAN] {
        let e = rejected(DpFtsDeParams { lambda, ..params() });
        assert!(
            matches!(
                e,
                DpFtsDeError::Input(InputError::NotPositive { what: "lambda", .. })
            ),
            "lambda = {lambda}: {e}"
        );
    }
    // An agent built directly checks it through its posterior.
    let (features, beta) = agent_parts();
    let e = FtsAgent::new(features, beta, Exploration::Inverse, 0, 0.0).unwrap_err();
    assert!(
        matches!(
            e,
            DpFtsDeError::Kernel(kernel::KernelError::Input(InputError::NotPositive { .. }))
        ),
        "{e}"
    );
}

#[test]
fn privacy_settings_without_a_server_are_a_setting_error() {
    let e = rejected(DpFtsDeParams {
        federated: false,
        ..params()
    });
    assert!(matches!(e, DpFtsDeError::Setting(_)), "{e}");
}

/// Features (M = 8, P = 2) of the test problem and a beta table.
fn agent_parts() -> (Arc<SharedFeatures>, Arc<dp_fts_de::BetaSchedule>) {
    let prob = problem();
    let partition = Partition::equal_volume(prob.bounds().clone(), 2).unwrap();
    let f = SharedFeatures::draw(
        prob.domain().clone(),
        &partition,
        0.1,
        8,
        &mut ChaCha20Rng::seed_from_u64(3),
    )
    .unwrap();
    (f, beta_schedule(&prob, &params()).unwrap())
}

#[test]
fn a_nan_agent_vector_cannot_be_made() {
    for bad in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
        let e = AgentVector::new(array![0.1, bad, 0.3]).unwrap_err();
        assert!(
            matches!(
                e,
                DpFtsDeError::Input(InputError::NonFinite { index: Some(1), .. })
            ),
            "{bad}: {e}"
        );
    }
    let e = AgentVector::new(Array1::zeros(0)).unwrap_err();
    assert!(
        matches!(e, DpFtsDeError::Input(InputError::ZeroCount { .. })),
        "{e}"
    );
}

/// A real broadcast of `P x M` vectors: the non-private server's aggregate of `P` agents (one
/// per sub-region) each sending `M` halves (a broadcast is made by a server only).
fn broadcast(p: usize, m: usize) -> Broadcast {
    let weights = SubRegionWeights::new(
        SubRegionWeights::round_robin(p, p),
        p,
        15.0,
        Weighting::NonAdaptive,
    )
    .unwrap();
    let mut server = CentralServer::non_private(weights).unwrap();
    let mut rng = ChaCha20Rng::seed_from_u64(3);
    server.aggregate(0, vectors(&vec![m; p]), &mut rng).unwrap()
}

fn weights() -> SubRegionWeights {
    SubRegionWeights::new(
        SubRegionWeights::round_robin(3, 2),
        2,
        15.0,
        Weighting::NonAdaptive,
    )
    .unwrap()
}

fn vectors(lengths: &[usize]) -> Vec<AgentVector> {
    lengths
        .iter()
        .map(|&m| AgentVector::new(Array1::from_elem(m, 0.5)).unwrap())
        .collect()
}

#[test]
fn a_server_never_averages_a_vector_of_the_wrong_length() {
    let mech = SubsampledGaussian::new(1.0, 1.0, 1.0).unwrap();
    let mut rng = ChaCha20Rng::seed_from_u64(5);
    let servers = [
        CentralServer::private(weights(), mech.clone(), 1e-5).unwrap(),
        CentralServer::non_private(weights()).unwrap(),
    ];
    for mut server in servers {
        for bad in [vec![4, 3, 4], vec![4, 4], vec![4, 4, 4, 4]] {
            let e = server.aggregate(0, vectors(&bad), &mut rng).unwrap_err();
            assert!(
                matches!(e, DpFtsDeError::Input(InputError::DimensionMismatch { .. })),
                "{bad:?}: {e}"
            );
        }
        // Nothing was released or accounted.
        assert_eq!(server.releases(), 0);
        assert!(server.privacy_loss().unwrap().is_none());
        assert!(server.clipped_fraction().is_none());
        // A good round still works afterwards.
        let b = server.aggregate(0, vectors(&[4, 4, 4]), &mut rng).unwrap();
        assert_eq!(b.vectors().dim(), (2, 4));
        assert_eq!(server.releases(), 1);
    }
    // The round as a privacy::Mechanism keeps the error's type.
    let round = PrivateAggregator::new(weights(), mech);
    let e = round
        .release(
            &RoundInput {
                t: 0,
                vectors: vectors(&[4, 3, 4]),
            },
            &mut rng,
        )
        .unwrap_err();
    assert!(
        matches!(
            e,
            privacy::PrivacyError::Input(InputError::DimensionMismatch { .. })
        ),
        "{e}"
    );
}

#[test]
fn a_broadcast_of_the_wrong_shape_is_a_dimension_mismatch() {
    let (features, beta) = agent_parts();
    let mut rng = ChaCha20Rng::seed_from_u64(9);
    // With 1 - p_1 = 1 the agent always follows the server at t = 1.
    for shape in [(3, 8), (2, 7), (1, 16)] {
        let mut agent = FtsAgent::new(
            Arc::clone(&features),
            Arc::clone(&beta),
            Exploration::Inverse,
            0,
            0.01,
        )
        .unwrap();
        let b = broadcast(shape.0, shape.1);
        assert_eq!(b.vectors().dim(), shape);
        let e = agent.select(1, Some(&b), &mut rng).unwrap_err();
        assert!(
            matches!(e, DpFtsDeError::Input(InputError::DimensionMismatch { .. })),
            "{shape:?}: {e}"
        );
    }
    // The right shape is accepted.
    let mut agent = FtsAgent::new(features, beta, Exploration::Inverse, 0, 0.01).unwrap();
    let b = broadcast(2, 8);
    assert!(agent.select(1, Some(&b), &mut rng).is_ok());
}

#[test]
fn an_assignment_out_of_range_is_a_setting_error() {
    let e = SubRegionWeights::new(vec![0, 1, 2], 2, 15.0, Weighting::Equal).unwrap_err();
    assert!(matches!(e, DpFtsDeError::Setting(_)), "{e}");
    let e = SubRegionWeights::new(vec![], 2, 15.0, Weighting::Equal).unwrap_err();
    assert!(matches!(e, DpFtsDeError::Setting(_)), "{e}");
    let e = SubRegionWeights::new(vec![0], 1, 0.0, Weighting::Equal).unwrap_err();
    assert!(
        matches!(e, DpFtsDeError::Input(InputError::NotPositive { .. })),
        "{e}"
    );
    // An agent's own sub-region must exist.
    let (features, beta) = agent_parts();
    let e = FtsAgent::new(features, beta, Exploration::Inverse, 2, 0.01).unwrap_err();
    assert!(matches!(e, DpFtsDeError::Setting(_)), "{e}");
}

#[test]
fn agent_protocol_errors_are_typed() {
    let (features, beta) = agent_parts();
    let mut rng = ChaCha20Rng::seed_from_u64(4);
    let mut agent = FtsAgent::new(features, beta, Exploration::Never, 1, 0.01).unwrap();
    let e = agent.observe(24, 0.0).unwrap_err();
    assert!(
        matches!(e, DpFtsDeError::Input(InputError::IndexOutOfRange { .. })),
        "{e}"
    );
    let e = agent.observe(3, f64::NAN).unwrap_err();
    assert!(
        matches!(
            e,
            DpFtsDeError::Kernel(kernel::KernelError::Input(InputError::NonFinite { .. }))
        ),
        "{e}"
    );
    let (x, _) = agent.select(1, None, &mut rng).unwrap();
    let e = agent.select(2, None, &mut rng).unwrap_err();
    assert!(
        matches!(e, DpFtsDeError::Bandit(bandit::BanditError::SelectTwice)),
        "{e}"
    );
    let e = agent.observe((x + 1) % 24, 0.0).unwrap_err();
    assert!(
        matches!(e, DpFtsDeError::ObservedOtherPoint { observed, pending } if pending == x && observed == (x + 1) % 24),
        "{e}"
    );
    agent.observe(x, 0.0).unwrap();
}

#[test]
fn bad_problems_are_typed_errors() {
    let prob = problem();
    let e = prob.first_agents(N + 1).unwrap_err();
    assert!(
        matches!(e, DpFtsDeError::Input(InputError::IndexOutOfRange { .. })),
        "{e}"
    );
    let e = prob.first_agents(0).unwrap_err();
    assert!(
        matches!(e, DpFtsDeError::Input(InputError::ZeroCount { .. })),
        "{e}"
    );
    let mut objectives = Array2::zeros((2, 24));
    objectives[[1, 5]] = f64::NAN;
    let e = FederatedProblem::new(
        "nan",
        BoxDomain::unit(1).unwrap(),
        prob.domain().clone(),
        objectives,
        0.1,
    )
    .unwrap_err();
    assert!(
        matches!(e, DpFtsDeError::Input(InputError::NonFinite { .. })),
        "{e}"
    );
    let e = FederatedProblem::new(
        "negative noise",
        BoxDomain::unit(1).unwrap(),
        prob.domain().clone(),
        Array2::zeros((2, 24)),
        -0.1,
    )
    .unwrap_err();
    assert!(
        matches!(e, DpFtsDeError::Input(InputError::Negative { .. })),
        "{e}"
    );
}
