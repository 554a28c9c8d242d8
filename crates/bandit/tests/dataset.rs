//! The data-set problems: sizes, the one-scale rule, the kernel, the missing-folder error.

// Exact float equality is intended here: the runner and the constructions are bit-reproducible.
#![allow(clippy::float_cmp)]

use approx::{assert_abs_diff_eq, assert_relative_eq};
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

#[test]
fn held_out_bounds_follow_the_papers_rule_on_other_rows() {
    use bandit::dataset::{STOCKS_SPLIT, light_sensor_held_out, stocks_held_out};
    // The rule applied to the problem's own (raw) reward rows gives the problem's B and R.
    for p in [
        light_sensor(&default_data_dir()).unwrap(),
        stocks(&default_data_dir()).unwrap(),
    ] {
        let own = p.bounds_from_rows(&(&p.rewards * p.scale)).unwrap();
        assert_relative_eq!(own.b, p.b, max_relative = 1e-12);
        assert_relative_eq!(own.r, p.r, max_relative = 1e-12);
    }
    // Light sensors: the same problem, bounds from the 601 train rows.
    let (light, held) = light_sensor_held_out(&default_data_dir()).unwrap();
    assert_eq!(held.rows, 601);
    assert_eq!(light.rewards.nrows(), 192);
    assert!(held.b > 0.0 && held.r > 0.0 && held.b.is_finite() && held.r.is_finite());
    // Stocks: 2016 (252 days) held out, the problem on the 571 later days.
    let (later, held) = stocks_held_out(&default_data_dir()).unwrap();
    assert_eq!((held.rows, later.rewards.nrows()), (252, 571));
    assert!(later.name.contains(STOCKS_SPLIT));
    assert_relative_eq!(later.b, 1.0, max_relative = 1e-15);
    // A table with other columns is a typed error.
    let wrong = ndarray::Array2::<f64>::ones((3, 2));
    assert!(later.bounds_from_rows(&wrong).is_err());
}
