//! Domains, partitions and reward models: constructions, bad inputs, noise statistics.

// Exact float equality is intended here: the runner and the constructions are bit-reproducible.
#![allow(clippy::float_cmp)]

use approx::assert_abs_diff_eq;
use bandit::domain::{BoxDomain, FiniteDomain, Partition};
use bandit::noise::RewardModel;
use bandit::{BanditError, InputError};
use ndarray::{Array2, array};
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;

#[test]
fn empty_domains_are_typed_errors() {
    let err = FiniteDomain::new(Array2::zeros((0, 1))).unwrap_err();
    assert!(matches!(err, BanditError::Input(InputError::Empty { .. })));
    assert_eq!(
        err.to_string(),
        "finite domain (no points) must not be empty"
    );
    assert!(matches!(
        FiniteDomain::new(array![[f64::NAN]]),
        Err(BanditError::Input(InputError::NonFinite { .. }))
    ));
    assert!(matches!(
        BoxDomain::unit(0),
        Err(BanditError::Input(InputError::Empty { .. }))
    ));
    let err = BoxDomain::new(array![0.0, 1.0], array![1.0, 1.0]).unwrap_err();
    assert!(
        matches!(err, BanditError::InvalidBox { dim: 1, .. }),
        "{err}"
    );
    assert!(matches!(
        BoxDomain::unit(2).unwrap().grid(&[3, 0]),
        Err(BanditError::Input(InputError::Empty { .. }))
    ));
}

#[test]
fn grid_is_row_major_with_endpoints() {
    let g = BoxDomain::cube(2, -0.5, 0.5)
        .unwrap()
        .grid(&[3, 2])
        .unwrap();
    assert_eq!(
        g.points(),
        array![
            [-0.5, -0.5],
            [-0.5, 0.5],
            [0.0, -0.5],
            [0.0, 0.5],
            [0.5, -0.5],
            [0.5, 0.5]
        ]
    );
    let g = BoxDomain::unit(1).unwrap().grid(&[1]).unwrap();
    assert_eq!(g.points(), array![[0.5]]);
}

#[test]
fn uniform_box_samples_stay_in_the_box() {
    let b = BoxDomain::new(array![-1.0, 2.0], array![1.0, 2.5]).unwrap();
    let mut rng = ChaCha20Rng::seed_from_u64(1);
    let x = b.sample_uniform(1000, &mut rng);
    assert!(x.rows().into_iter().all(|r| b.contains(r)));
    assert_abs_diff_eq!(b.volume(), 1.0, epsilon = 1e-15);
}

#[test]
fn partition_rule_reproduces_the_papers_examples() {
    // App. B.2: P = 4 in D = 2 and D = 3.
    let p = Partition::equal_volume(BoxDomain::unit(2).unwrap(), 4).unwrap();
    assert_eq!(p.splits(), &[2, 2]);
    let c1 = p.cell_bounds(1).unwrap();
    assert_eq!(
        (c1.lower().to_vec(), c1.upper().to_vec()),
        (vec![0.0, 0.5], vec![0.5, 1.0])
    );
    let p3 = Partition::equal_volume(BoxDomain::unit(3).unwrap(), 4).unwrap();
    assert_eq!(p3.splits(), &[2, 2, 1]);
    let c3 = p3.cell_bounds(3).unwrap();
    assert_eq!(
        (c3.lower().to_vec(), c3.upper().to_vec()),
        (vec![0.5, 0.5, 0.0], vec![1.0, 1.0, 1.0])
    );
    assert_eq!(
        Partition::equal_volume(BoxDomain::unit(2).unwrap(), 6)
            .unwrap()
            .splits(),
        &[3, 2]
    );
    assert_eq!(
        Partition::equal_volume(BoxDomain::unit(2).unwrap(), 8)
            .unwrap()
            .splits(),
        &[4, 2]
    );
    assert_eq!(
        Partition::equal_volume(BoxDomain::unit(1).unwrap(), 3)
            .unwrap()
            .splits(),
        &[3]
    );
    // Equal volumes.
    for cell in 0..6 {
        let b = Partition::equal_volume(BoxDomain::unit(2).unwrap(), 6)
            .unwrap()
            .cell_bounds(cell)
            .unwrap();
        assert_abs_diff_eq!(b.volume(), 1.0 / 6.0, epsilon = 1e-15);
    }
}

#[test]
fn cells_are_half_open_except_the_last() {
    // App. B.1.1: [0, 1/3), [1/3, 2/3), [2/3, 1].
    let p = Partition::equal_volume(BoxDomain::unit(1).unwrap(), 3).unwrap();
    assert_eq!(p.cell_of(array![0.0].view()), Some(0));
    assert_eq!(p.cell_of(array![0.5].view()), Some(1));
    assert_eq!(p.cell_of(array![2.0 / 3.0].view()), Some(2));
    assert_eq!(p.cell_of(array![1.0].view()), Some(2));
    assert_eq!(p.cell_of(array![1.5].view()), None);
    let p2 = Partition::equal_volume(BoxDomain::unit(1).unwrap(), 2).unwrap();
    assert_eq!(p2.cell_of(array![0.5].view()), Some(1));
    // The DP-FTS-DE grid of 1000 points: j/999 >= 1/3 iff j >= 333, >= 2/3 iff j >= 666.
    let grid = BoxDomain::unit(1).unwrap().grid(&[1000]).unwrap();
    let cells = p.assign_points(&grid).unwrap();
    assert_eq!(
        cells.iter().map(Vec::len).collect::<Vec<_>>(),
        vec![333, 333, 334]
    );
    assert_eq!(cells[1][0], 333);
}

#[test]
fn partitions_that_do_not_divide_the_box_are_typed_errors() {
    let err = Partition::equal_volume(BoxDomain::unit(2).unwrap(), 0).unwrap_err();
    assert!(matches!(err, BanditError::InvalidPartition { .. }));
    assert!(err.to_string().contains("P must be >= 1"), "{err}");
    let err = Partition::with_splits(BoxDomain::unit(2).unwrap(), vec![2]).unwrap_err();
    assert!(err.to_string().contains("one count per dimension"), "{err}");
    let err = Partition::with_splits(BoxDomain::unit(2).unwrap(), vec![2, 0]).unwrap_err();
    assert!(matches!(err, BanditError::InvalidPartition { .. }));
    // More sub-regions than a finite domain can fill.
    let grid = BoxDomain::unit(1).unwrap().grid(&[10]).unwrap();
    let err = Partition::equal_volume(BoxDomain::unit(1).unwrap(), 20)
        .unwrap()
        .assign_points(&grid)
        .unwrap_err();
    assert!(
        matches!(
            err,
            BanditError::EmptySubRegion {
                n_cells: 20,
                n_points: 10,
                ..
            }
        ),
        "{err}"
    );
}

#[test]
fn bad_noise_parameters_are_typed_errors_with_clear_messages() {
    let err = RewardModel::uniform(-1.0).unwrap_err();
    assert_eq!(
        err.to_string(),
        "uniform noise half-width R must be finite and >= 0, got -1"
    );
    assert!(matches!(
        RewardModel::gaussian(f64::NAN),
        Err(BanditError::Input(InputError::Negative { .. }))
    ));
    assert!(matches!(
        RewardModel::student_t(0.0, 1.0),
        Err(BanditError::Input(InputError::NotPositive { .. }))
    ));
    assert!(matches!(
        RewardModel::pareto(1.0, 1.0),
        Err(BanditError::Input(InputError::OutOfRange {
            what: "Pareto shape a",
            ..
        }))
    ));
    // A hand-built variant with a bad parameter is caught by validate().
    assert!(
        RewardModel::Uniform { half_width: -0.5 }
            .validate()
            .is_err()
    );
    let mut rng = ChaCha20Rng::seed_from_u64(0);
    let err = RewardModel::Bernoulli.sample(1.5, 0, &mut rng).unwrap_err();
    assert!(err.to_string().contains("in [0, 1]"), "{err}");
    let err = bandit::env::FixedSetEnvironment::new(
        array![[0.0], [1.0]],
        array![0.5, -0.1],
        RewardModel::Bernoulli,
    )
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "mean reward of a Bernoulli arm must lie in [0, 1], got -0.1"
    );
}

fn mean_noise(model: &RewardModel, n: usize, seed: u64) -> f64 {
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    (0..n)
        .map(|_| model.sample(0.0, 0, &mut rng).unwrap())
        .sum::<f64>()
        / n as f64
}

/// Uniform noise on [-R, R] has mean zero. Hoeffding: for n = 10^5 draws in [-1, 1],
/// P(|mean| >= s) <= 2 exp(-n s^2 / 2) = 1e-6 at s = sqrt(2 ln(2e6) / n) = 0.01704.
/// Power: the uncentred variant U[0, 1] (mean 0.5) is rejected.
#[test]
fn uniform_noise_is_centred_and_bounded() {
    let n = 100_000;
    let s = (2.0 * (2e6f64).ln() / n as f64).sqrt();
    let m = RewardModel::uniform(1.0).unwrap();
    assert!(mean_noise(&m, n, 7).abs() < s);
    let mut rng = ChaCha20Rng::seed_from_u64(8);
    assert!((0..10_000).all(|_| m.sample(0.3, 0, &mut rng).unwrap().abs() <= 1.3));
    // The broken variant: mean + R U (not centred).
    let mut rng = ChaCha20Rng::seed_from_u64(7);
    let broken: f64 = (0..n)
        .map(|_| rand::RngExt::random::<f64>(&mut rng))
        .sum::<f64>()
        / n as f64;
    assert!(broken.abs() >= s);
}

/// Centred Pareto(x_m = 1, a = 3) noise: variance a x_m^2 / ((a-1)^2 (a-2)) = 3/4. Chebyshev
/// for n = 10^6 draws: P(|mean| >= k sqrt(0.75 / n)) <= 1/k^2 = 1e-6 at k = 1000, i.e. the
/// threshold 0.866. Power: the uncentred Pareto (mean a x_m / (a-1) = 1.5) is rejected.
#[test]
fn pareto_noise_is_centred() {
    let n = 1_000_000;
    let threshold = 1000.0 * (0.75 / n as f64).sqrt();
    let m = RewardModel::pareto(1.0, 3.0).unwrap();
    let mean = mean_noise(&m, n, 9);
    assert!(mean.abs() < threshold, "{mean}");
    assert!(
        (mean + 1.5).abs() >= threshold,
        "the uncentred variant would have mean 1.5"
    );
}

#[test]
fn row_rewards_read_the_chosen_column() {
    let m = RewardModel::rows(array![[1.0, 10.0], [2.0, 20.0]]).unwrap();
    let mut rng = ChaCha20Rng::seed_from_u64(1);
    for _ in 0..100 {
        let y = m.sample(0.0, 1, &mut rng).unwrap();
        assert!(y == 10.0 || y == 20.0);
    }
    assert!(matches!(
        m.sample(0.0, 2, &mut rng),
        Err(BanditError::Input(InputError::DimensionMismatch { .. }))
    ));
    assert_eq!(
        RewardModel::gaussian(0.5).unwrap().sub_gaussian_parameter(),
        Some(0.5)
    );
    assert_eq!(
        RewardModel::student_t(3.0, 1.0)
            .unwrap()
            .sub_gaussian_parameter(),
        None
    );
}
