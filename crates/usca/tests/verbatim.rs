//! The verbatim fixed smoother (`rho = K tau` as printed, [`usca::Regulariser::AsPrinted`]) is the
//! scaled estimator at `tau' = tau T K / |Z|`: utilities scaled by `tau' / tau`, and under every
//! sensitivity rule the same selection probabilities (docs of `usca::regulariser`).

use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use usca::synthetic::SyntheticProblem;
use usca::{ApproximatingSetSize, Regulariser, SensitivityRule, Usca, UscaParams, learning_stage};

const T: usize = 48;
const M: usize = 40;

fn fitted(
    inst: &usca::Instance,
    data: &usca::LearningData,
    params: UscaParams,
) -> Result<Usca, usca::UscaError> {
    Usca::from_data(
        &inst.problem,
        inst.kernel.clone(),
        Some(&inst.kernel),
        params,
        data.clone(),
        &mut ChaCha20Rng::seed_from_u64(7),
    )
}

#[test]
fn the_printed_smoother_is_the_scaled_one_at_a_larger_tau() {
    let mut rng = ChaCha20Rng::seed_from_u64(31);
    let inst = SyntheticProblem::default().sample(&mut rng).unwrap();
    let data = learning_stage(&inst.problem, T, 1.5, &mut rng).unwrap();
    for rule in [
        SensitivityRule::Proven,
        SensitivityRule::Certified {
            points_per_dim: 16,
            refinement_contexts: 64,
        },
        SensitivityRule::QueryContext {
            points_per_dim: None,
            refinement_contexts: 0,
        },
        SensitivityRule::QueryContext {
            points_per_dim: Some(16),
            refinement_contexts: 64,
        },
    ] {
        let printed = fitted(
            &inst,
            &data,
            UscaParams {
                approximating_set: ApproximatingSetSize::Fixed { m: M },
                sensitivity: rule,
                tau: 0.5,
                ..UscaParams::verbatim()
            },
        )
        .unwrap();
        let s = printed.summary();
        assert!(s.k > 1, "K = {} would make the readings equal", s.k);
        let tau2 = Regulariser::AsPrinted
            .equivalent_scaled_tau(M, T, s.k, 0.5)
            .unwrap();
        let scaled = fitted(
            &inst,
            &data,
            UscaParams {
                approximating_set: ApproximatingSetSize::Fixed { m: M },
                sensitivity: rule,
                tau: tau2,
                ..UscaParams::default()
            },
        )
        .unwrap();
        // The same Z (the same coins, a fixed |Z|) and the same rho up to rounding.
        assert!((scaled.summary().rho - s.rho).abs() <= 1e-12 * s.rho);
        assert!((s.rho - s.k as f64 * 0.5).abs() <= 1e-12 * s.rho);
        let ratio = tau2 / 0.5;
        for c in [0.0, 0.37, 0.81, 1.0] {
            let c = ndarray::array![c];
            let up = printed.utilities(c.view()).unwrap();
            let us = scaled.utilities(c.view()).unwrap();
            for (a, b) in up.iter().zip(us.iter()) {
                assert!(
                    (a - ratio * b).abs() <= 1e-9 * (1.0 + a.abs()),
                    "{rule:?}: {a} vs {ratio} x {b}"
                );
            }
            let dp = printed.sensitivity_at(c.view()).unwrap().sensitivity();
            let ds = scaled.sensitivity_at(c.view()).unwrap().sensitivity();
            assert!(
                (dp - ratio * ds).abs() <= 1e-9 * dp,
                "{rule:?}: Delta {dp} vs {ratio} x {ds}"
            );
            for eps in [0.5, 1.0, 8.0] {
                let pp = printed.probabilities(c.view(), eps).unwrap();
                let ps = scaled.probabilities(c.view(), eps).unwrap();
                for (a, b) in pp.iter().zip(&ps) {
                    assert!((a - b).abs() <= 1e-9, "{rule:?}, eps {eps}: {a} vs {b}");
                }
            }
        }
    }
}

#[test]
fn the_printed_smoother_is_not_the_scaled_one_at_the_same_tau() {
    // The power check of the identity above: at the same tau the two readings differ (by the
    // factor T K / |Z| in the weight of the data), so the test above is not vacuous.
    let mut rng = ChaCha20Rng::seed_from_u64(31);
    let inst = SyntheticProblem::default().sample(&mut rng).unwrap();
    let data = learning_stage(&inst.problem, T, 1.5, &mut rng).unwrap();
    let size = ApproximatingSetSize::Fixed { m: M };
    let printed = fitted(
        &inst,
        &data,
        UscaParams {
            approximating_set: size,
            ..UscaParams::verbatim()
        },
    )
    .unwrap();
    let scaled = fitted(
        &inst,
        &data,
        UscaParams {
            approximating_set: size,
            ..UscaParams::default()
        },
    )
    .unwrap();
    let c = ndarray::array![0.37];
    let pp = printed.probabilities(c.view(), 1.0).unwrap();
    let ps = scaled.probabilities(c.view(), 1.0).unwrap();
    let gap = pp
        .iter()
        .zip(&ps)
        .map(|(a, b)| (a - b).abs())
        .fold(0.0, f64::max);
    assert!(gap > 1e-4, "largest difference {gap}");
    // Both carry the proven Delta = 2 B / tau: the printed reading changes mu_T, not Delta.
    assert!(
        (printed.summary().bound.sensitivity() - scaled.summary().bound.sensitivity()).abs()
            < 1e-15
    );
}
