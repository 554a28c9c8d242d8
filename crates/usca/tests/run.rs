//! A short seeded run: the release of the prediction stage is the exponential mechanism on
//! the utilities, and an insta snapshot of the numbers (rounded) of one run.

use privacy::Mechanism;
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use usca::synthetic::SyntheticProblem;
use usca::{ApproximatingSetSize, SensitivityRule, Usca, UscaParams, learning_stage};

#[test]
fn release_is_select_on_utilities() {
    let mut rng = ChaCha20Rng::seed_from_u64(11);
    let inst = SyntheticProblem::default().sample(&mut rng).unwrap();
    let data = learning_stage(&inst.problem, 24, 1.5, &mut rng).unwrap();
    let u = Usca::from_data(
        &inst.problem,
        inst.kernel.clone(),
        None,
        UscaParams::default(),
        data.clone(),
        &mut rng,
    )
    .unwrap();
    let stage = u
        .prediction_stage(ndarray::array![0.3].view(), 1.0)
        .unwrap();
    let util = stage.utilities(&data).unwrap();
    for seed in 0..20 {
        let a = stage
            .release(&data, &mut ChaCha20Rng::seed_from_u64(seed))
            .unwrap();
        let b = stage
            .mechanism()
            .select(&util, &mut ChaCha20Rng::seed_from_u64(seed))
            .unwrap();
        assert_eq!(a, b);
    }
    let p = stage.probabilities(&data).unwrap();
    assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-12);
}

#[test]
fn seeded_run_snapshot() {
    let mut rng = ChaCha20Rng::seed_from_u64(2025);
    let inst = SyntheticProblem::default().sample(&mut rng).unwrap();
    let params = UscaParams {
        approximating_set: ApproximatingSetSize::Capped { cap: 256 },
        sensitivity: SensitivityRule::Certified {
            points_per_dim: 32,
            refinement_contexts: 64,
        },
        ..UscaParams::default()
    };
    let u = Usca::learn(
        &inst.problem,
        inst.kernel.clone(),
        Some(&inst.kernel),
        params,
        64,
        &mut rng,
        &mut ChaCha20Rng::seed_from_u64(2026),
    )
    .unwrap();
    let s = u.summary();
    let c = ndarray::array![0.4];
    let utilities = u.utilities(c.view()).unwrap();
    let p = u.probabilities(c.view(), 1.0).unwrap();
    let er = inst
        .problem
        .error_rate(|c| u.probabilities(c, 2.0), 100, &mut rng)
        .unwrap();
    let x_hat = u.predict(c.view(), 1.0, &mut rng).unwrap();
    let round = |v: f64| (v * 1e6).round() / 1e6;
    insta::assert_json_snapshot!(serde_json::json!({
        "gamma_t": round(s.gamma_t),
        "k": s.k,
        "z_size": s.z_size,
        "sup_sigma2": round(s.bound.sup_sigma2()),
        "sensitivity": round(s.bound.sensitivity()),
        "utilities_first_5": utilities.iter().take(5).map(|&v| round(v)).collect::<Vec<_>>(),
        "probabilities_first_5": p.iter().take(5).map(|&v| round(v)).collect::<Vec<_>>(),
        "error_rate_eps2": round(er.mean),
        "x_hat": x_hat,
    }));
}
