//! Bad input is a typed error (issue 12, "What it must show").

use std::sync::Arc;

use bandit::domain::{BoxDomain, FiniteDomain};
use ndarray::{Array1, Array2, array};
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use usca::synthetic::SyntheticProblem;
use usca::{ContextSpace, InputError, LearningData, Usca, UscaError, UscaParams, learning_stage};

fn fitted() -> (usca::Instance, Usca) {
    let mut rng = ChaCha20Rng::seed_from_u64(3);
    let inst = SyntheticProblem::default().sample(&mut rng).unwrap();
    let mut coins = ChaCha20Rng::seed_from_u64(30);
    let u = Usca::learn(
        &inst.problem,
        inst.kernel.clone(),
        Some(&inst.kernel),
        UscaParams::default(),
        16,
        &mut rng,
        &mut coins,
    )
    .unwrap();
    (inst, u)
}

#[test]
fn epsilon_must_be_positive() {
    let (_, u) = fitted();
    for eps in [0.0, -1.0, f64::NAN] {
        let e = u.prediction_stage(array![0.5].view(), eps).unwrap_err();
        assert!(matches!(e, UscaError::Privacy(_)), "{eps}: {e}");
        assert!(u.probabilities(array![0.5].view(), eps).is_err());
    }
}

#[test]
fn tau_b_and_t_are_validated() {
    let mut rng = ChaCha20Rng::seed_from_u64(4);
    let inst = SyntheticProblem::default().sample(&mut rng).unwrap();
    let learn = |p: UscaParams, t: usize, rng: &mut ChaCha20Rng| {
        let mut coins = ChaCha20Rng::seed_from_u64(40);
        Usca::learn(
            &inst.problem,
            inst.kernel.clone(),
            None,
            p,
            t,
            rng,
            &mut coins,
        )
    };
    let bad_tau = UscaParams {
        tau: 0.0,
        ..UscaParams::default()
    };
    assert!(matches!(
        learn(bad_tau, 8, &mut rng),
        Err(UscaError::Input(InputError::NotPositive {
            what: "tau",
            ..
        }))
    ));
    let bad_b = UscaParams {
        reward_bound: -1.0,
        ..UscaParams::default()
    };
    assert!(matches!(
        learn(bad_b, 8, &mut rng),
        Err(UscaError::Input(InputError::NotPositive { .. }))
    ));
    assert!(matches!(
        learn(UscaParams::default(), 0, &mut rng),
        Err(UscaError::Input(InputError::ZeroCount { .. }))
    ));
    assert!(learning_stage(&inst.problem, 0, 1.0, &mut rng).is_err());
}

#[test]
fn an_empty_action_set_is_refused() {
    assert!(FiniteDomain::new(Array2::zeros((0, 1))).is_err());
}

#[test]
fn a_context_outside_c_is_an_error() {
    let (inst, u) = fitted();
    for c in [array![1.5], array![-0.1]] {
        assert!(matches!(
            u.prediction_stage(c.view(), 1.0),
            Err(UscaError::ContextOutside { .. })
        ));
        assert!(matches!(
            inst.problem.means(c.view()),
            Err(UscaError::ContextOutside { .. })
        ));
    }
    assert!(matches!(
        u.utilities(array![0.2, 0.3].view()),
        Err(UscaError::Input(InputError::DimensionMismatch { .. }))
    ));
    let space = ContextSpace::uniform(BoxDomain::unit(1).unwrap());
    assert!(space.check(array![f64::NAN].view(), 0).is_err());
}

#[test]
fn a_nan_reward_is_an_error() {
    let e =
        LearningData::new(array![[0.1, 0.2], [0.3, 0.4]], array![0.5, f64::NAN], 1.0).unwrap_err();
    assert!(
        matches!(e, UscaError::Input(InputError::NonFinite { .. })),
        "{e}"
    );
}

#[test]
fn a_reward_function_of_the_wrong_dimension_is_refused() {
    let (inst, _) = fitted();
    let f = bandit::objective::RkhsFunction::new(
        kernel::SquaredExponential::isotropic(0.2).unwrap(),
        Array2::zeros((1, 1)),
        Array1::ones(1),
    )
    .unwrap();
    let r = usca::ContextualProblem::new(
        inst.problem.actions().clone(),
        inst.problem.contexts().clone(),
        Arc::new(f),
        0.1,
    );
    assert!(matches!(
        r,
        Err(UscaError::Input(InputError::DimensionMismatch { .. }))
    ));
}

#[test]
fn learning_rows_outside_w_are_refused() {
    // The sensitivity 2 B sup_W sigma^2 covers learning rows in W = X x C only: a row whose
    // action is not in X, or whose context is outside C, must be refused by `from_data`.
    let mut rng = ChaCha20Rng::seed_from_u64(4);
    let inst = SyntheticProblem::default().sample(&mut rng).unwrap();
    let data = learning_stage(&inst.problem, 8, 1.5, &mut rng).unwrap();
    let fit = |points: Array2<f64>, rng: &mut ChaCha20Rng| {
        let d = LearningData::new(points, data.rewards().to_owned(), 1.5).unwrap();
        Usca::from_data(
            &inst.problem,
            inst.kernel.clone(),
            Some(&inst.kernel),
            UscaParams::default(),
            d,
            rng,
        )
    };
    assert!(fit(data.points().to_owned(), &mut rng).is_ok());
    let mut off_grid = data.points().to_owned();
    off_grid[[0, 0]] += 1e-3;
    assert!(matches!(
        fit(off_grid, &mut rng),
        Err(UscaError::Input(InputError::IndexOutOfRange { .. }))
    ));
    let mut outside = data.points().to_owned();
    outside[[1, 1]] = 1.5;
    assert!(matches!(
        fit(outside, &mut rng),
        Err(UscaError::ContextOutside { .. })
    ));
}
