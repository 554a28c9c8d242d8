//! The data-set problems: sizes, the one-scale rule, the kernel, the missing-folder error.

// Exact float equality is intended here: the runner and the constructions are bit-reproducible.
#![allow(clippy::float_cmp)]

use approx::assert_abs_diff_eq;
use bandit::BanditError;
use bandit::dataset::{default_data_dir, light_sensor, stocks};
use bandit::env::Environment;
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;

#[test]
fn light_sensor_problem_has_41_arms_and_one_scale() {
    let p = light_sensor(&default_data_dir()).expect("data folder ../shared/data");
    assert_eq!(p.n_arms(), 41);
    assert_eq!(p.arm_names[0], "s1");
    assert_eq!(p.rewards.dim(), (192, 41));
    assert_eq!(p.coords.as_ref().unwrap().dim(), (41, 2));
    // max f = 1 = B and the expected reward of arm i is f_i (one scale for f and rewards).
    assert_abs_diff_eq!(p.b, 1.0, epsilon = 1e-15);
    let col_means = p.rewards.mean_axis(ndarray::Axis(0)).unwrap();
    for (m, f) in col_means.iter().zip(p.f.iter()) {
        assert_abs_diff_eq!(*m, *f, epsilon = 1e-12);
    }
    // K is a correlation matrix: unit diagonal, |K_ij| <= 1, symmetric.
    for i in 0..41 {
        assert_abs_diff_eq!(p.gram[[i, i]], 1.0, epsilon = 1e-12);
        for j in 0..41 {
            assert!(p.gram[[i, j]].abs() <= 1.0 + 1e-12);
            assert_eq!(p.gram[[i, j]], p.gram[[j, i]]);
        }
    }
    p.kernel().expect("PSD");
    assert!(p.v > 0.0 && p.r > 0.0 && p.c > 0.0);
}

#[test]
fn stocks_problem_has_29_arms() {
    let p = stocks(&default_data_dir()).expect("data folder ../shared/data");
    assert_eq!(p.n_arms(), 29);
    assert_eq!(p.arm_names[0], "AAPL");
    assert_eq!(p.rewards.dim(), (823, 29));
    assert_abs_diff_eq!(p.b, 1.0, epsilon = 1e-15);
    assert!(p.coords.is_none());
    p.kernel().expect("PSD");
}

#[test]
fn environment_draws_scaled_readings_of_the_chosen_arm() {
    let p = stocks(&default_data_dir()).unwrap();
    let mut env = p.environment().unwrap();
    let mut rng = ChaCha20Rng::seed_from_u64(3);
    env.begin_round(0, &mut rng).unwrap();
    assert_eq!(env.decision_set().dim(), (29, 1));
    assert_eq!(env.optimal_mean(), 1.0);
    for _ in 0..50 {
        let y = env.sample_reward(5, &mut rng).unwrap();
        assert!(p.rewards.column(5).iter().any(|&v| v == y));
    }
}

#[test]
fn missing_data_folder_is_a_typed_error_with_a_clear_message() {
    let dir = std::path::Path::new("/nonexistent/shared/data");
    let err = light_sensor(dir).unwrap_err();
    assert!(
        matches!(
            err,
            BanditError::DataMissing {
                file: "light_sensor_train.csv",
                ..
            }
        ),
        "{err}"
    );
    let msg = err.to_string();
    assert!(
        msg.contains("/nonexistent/shared/data/light_sensor_train.csv"),
        "{msg}"
    );
    assert!(msg.contains("../shared/data"), "{msg}");
    let err = stocks(dir).unwrap_err();
    assert!(
        matches!(
            err,
            BanditError::DataMissing {
                file: "stocks_adjusted_close.csv",
                ..
            }
        ),
        "{err}"
    );
}
