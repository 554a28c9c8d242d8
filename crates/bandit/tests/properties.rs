//! Property tests: validated constructors never panic; partitions have P equal-volume cells
//! that cover the box; a continuous-box environment measures regret against the known maximum.

// Exact float equality is intended here: the environment stores the values it computed.
#![allow(clippy::float_cmp)]

use bandit::domain::{BoxDomain, Partition};
use bandit::env::{Environment, SampledBoxEnvironment};
use bandit::noise::RewardModel;
use bandit::objective::{Camelback, Objective};
use ndarray::Array1;
use proptest::prelude::*;
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn partition_has_p_equal_cells_covering_the_box(d in 1usize..4, p in 1usize..40, seed in 0u64..1000) {
        let b = BoxDomain::new(Array1::from_elem(d, -1.0), Array1::from_elem(d, 2.0)).unwrap();
        let part = Partition::equal_volume(b.clone(), p).unwrap();
        prop_assert_eq!(part.n_cells(), p);
        prop_assert_eq!(part.splits().iter().product::<usize>(), p);
        for c in 0..p {
            let cell = part.cell_bounds(c).unwrap();
            prop_assert!((cell.volume() - b.volume() / p as f64).abs() <= 1e-12 * b.volume());
        }
        // Every point of the box lies in exactly the cell whose bounds contain it (ties on
        // shared faces go to the upper cell, which also contains it).
        let mut rng = ChaCha20Rng::seed_from_u64(seed);
        for x in b.sample_uniform(50, &mut rng).rows() {
            let c = part.cell_of(x).unwrap();
            prop_assert!(part.cell_bounds(c).unwrap().contains(x));
        }
    }

    #[test]
    fn constructors_never_panic(lo in -1e3f64..1e3, w in -10.0f64..10.0, r in -5.0f64..5.0, nu in -2.0f64..5.0, p in 0usize..100) {
        let _ = BoxDomain::new(Array1::from_elem(2, lo), Array1::from_elem(2, lo + w));
        let _ = RewardModel::uniform(r);
        let _ = RewardModel::gaussian(r);
        let _ = RewardModel::student_t(nu, r);
        let _ = RewardModel::pareto(r, nu);
        if let Ok(b) = BoxDomain::unit(2) {
            let _ = Partition::equal_volume(b, p);
        }
        prop_assert_eq!(RewardModel::uniform(r).is_ok(), r >= 0.0);
    }
}

#[test]
fn sampled_box_environment_measures_regret_against_the_global_maximum() {
    let b = BoxDomain::cube(2, -0.5, 0.5).unwrap();
    let mut env =
        SampledBoxEnvironment::new(Camelback, b, 64, RewardModel::gaussian(0.1).unwrap()).unwrap();
    let mut rng = ChaCha20Rng::seed_from_u64(4);
    let best = Camelback.maximum().unwrap().value;
    for t in 0..20 {
        env.begin_round(t, &mut rng).unwrap();
        assert_eq!(env.decision_set().nrows(), 64);
        assert_eq!(env.optimal_mean(), best);
        for a in 0..64 {
            assert!(env.mean_reward(a) <= best);
            assert_eq!(
                env.mean_reward(a),
                Camelback.value(env.decision_set().row(a)).unwrap()
            );
        }
    }
    assert!(
        SampledBoxEnvironment::new(
            Camelback,
            BoxDomain::unit(3).unwrap(),
            8,
            RewardModel::Bernoulli
        )
        .is_err()
    );
    assert!(
        SampledBoxEnvironment::new(
            Camelback,
            BoxDomain::unit(2).unwrap(),
            0,
            RewardModel::Bernoulli
        )
        .is_err()
    );
}
