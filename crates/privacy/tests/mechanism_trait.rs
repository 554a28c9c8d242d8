//! The `Mechanism` trait: for every mechanism, the trait's release draws exactly the numbers of
//! the inherent method it stands for (same seed, bit for bit, both samplers), a bad input is an
//! `Err` through the trait, and the trait's claim is the inherent one.
#![allow(clippy::float_cmp)] // bit-identity is the point

use ndarray::{Array1, Array2, arr1, array};
use privacy::mechanisms::matrix::{clipped_outer_product, pack_upper};
use privacy::mechanisms::{
    ExponentialMechanism, GaussianMechanism, LaplaceMechanism, Neighbouring, OuterProductGaussian,
    Participants, StreamShape, SubsampledGaussian, TreeAggregation, outer_product_sensitivity,
    symmetric_gaussian_noise,
};
use privacy::sampler::{Grid, Norm};
use privacy::{Guarantee, InputError, Mechanism, PrivacyError, Sampler};
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;

const SAMPLERS: [Sampler; 2] = [Sampler::Hardened, Sampler::Textbook];

/// Two generators in the same state.
fn twin(seed: u64) -> (ChaCha20Rng, ChaCha20Rng) {
    (
        ChaCha20Rng::seed_from_u64(seed),
        ChaCha20Rng::seed_from_u64(seed),
    )
}

fn bits(a: &Array1<f64>) -> Vec<u64> {
    a.iter().map(|x| x.to_bits()).collect()
}

fn bits2(a: &Array2<f64>) -> Vec<u64> {
    a.iter().map(|x| x.to_bits()).collect()
}

/// Runs `trait_release` and `inherent` from twin generators on each seed, several calls in a
/// row (so that the generators' states after each call must agree too), and compares.
fn same_draws<T: PartialEq + std::fmt::Debug>(
    mut trait_release: impl FnMut(&mut ChaCha20Rng) -> T,
    mut inherent: impl FnMut(&mut ChaCha20Rng) -> T,
) {
    for seed in 0..8 {
        let (mut a, mut b) = twin(seed);
        for _ in 0..4 {
            assert_eq!(trait_release(&mut a), inherent(&mut b), "seed {seed}");
        }
    }
}

#[test]
fn laplace_and_gaussian_release_the_scalar_query() {
    for s in SAMPLERS {
        let m = LaplaceMechanism::new(0.7, 1.5).unwrap().with_sampler(s);
        for x in [-2.0, 0.0, 0.3, 1e6] {
            same_draws(
                |r| m.release(&x, r).unwrap().to_bits(),
                |r| m.release_scalar(x, r).unwrap().to_bits(),
            );
        }
        assert_eq!(Mechanism::claim(&m), m.claim());
        let mut rng = ChaCha20Rng::seed_from_u64(0);
        assert!(matches!(
            m.release(&f64::NAN, &mut rng),
            Err(PrivacyError::Input(InputError::NonFinite { .. }))
        ));

        for g in [
            GaussianMechanism::analytic(1.0, 1e-5, 2.0).unwrap(),
            GaussianMechanism::classic(0.5, 1e-6, 1.0).unwrap(),
            GaussianMechanism::zcdp(0.3, 1.0).unwrap(),
        ] {
            let g = g.with_sampler(s).unwrap();
            for x in [-2.0, 0.0, 0.3, 1e6] {
                same_draws(
                    |r| g.release(&x, r).unwrap().to_bits(),
                    |r| g.release_scalar(x, r).unwrap().to_bits(),
                );
            }
            assert_eq!(Mechanism::claim(&g), g.claim());
            assert!(matches!(
                g.release(&f64::INFINITY, &mut rng),
                Err(PrivacyError::Input(InputError::NonFinite { .. }))
            ));
        }
    }
}

#[test]
fn scalar_release_is_the_one_coordinate_vector_release() {
    // The renamed vector path draws the same numbers on a length-1 query (same grid).
    let m = LaplaceMechanism::new(1.0, 1.0).unwrap();
    let g = GaussianMechanism::zcdp(0.5, 1.0).unwrap();
    same_draws(
        |r| m.release(&0.25, r).unwrap().to_bits(),
        |r| m.release_vector(arr1(&[0.25]).view(), r).unwrap()[0].to_bits(),
    );
    same_draws(
        |r| g.release(&0.25, r).unwrap().to_bits(),
        |r| g.release_vector(arr1(&[0.25]).view(), r).unwrap()[0].to_bits(),
    );
}

#[test]
fn exponential_releases_an_index() {
    let u = [0.0, 1.0, 2.0, -3.5, 0.25];
    for s in SAMPLERS {
        let m = ExponentialMechanism::new(1.5, 1.0).unwrap().with_sampler(s);
        same_draws(
            |r| m.release(&u[..], r).unwrap(),
            |r| m.select(&u, r).unwrap(),
        );
        assert_eq!(Mechanism::claim(&m), m.claim());
        let mut rng = ChaCha20Rng::seed_from_u64(0);
        assert!(matches!(
            m.release(&[][..], &mut rng),
            Err(PrivacyError::Input(InputError::Empty { .. }))
        ));
        assert!(matches!(
            m.release(&[0.0, f64::NAN][..], &mut rng),
            Err(PrivacyError::Input(InputError::NonFinite { .. }))
        ));
    }
}

#[test]
fn subsampled_gaussian_releases_only_the_aggregates() {
    let input = Participants {
        vectors: array![[3.0, 4.0], [0.5, 0.0], [-1.0, 2.0]],
        weights: array![[1.0, 0.5], [0.5, 0.5], [0.2, 1.0]],
    };
    for s in SAMPLERS {
        let m = SubsampledGaussian::new(0.5, 2.0, 1.0)
            .unwrap()
            .with_sampler(s);
        same_draws(
            |r| bits2(&m.release(&input, r).unwrap().into_vectors()),
            |r| {
                let a = m
                    .aggregate_with_subsample(input.vectors.view(), input.weights.view(), r)
                    .unwrap();
                assert_eq!(a.sigma, m.sigma(1.0));
                bits2(&a.vectors)
            },
        );
        same_draws(
            |r| bits2(&m.release(&input, r).unwrap().into_vectors()),
            |r| {
                let a = m
                    .aggregate(input.vectors.view(), input.weights.view(), r)
                    .unwrap();
                bits2(&a.vectors().to_owned())
            },
        );
        // The trait's claim is one round, the inherent composition at 1 step.
        let one = Mechanism::claim(&m);
        assert_eq!(one, m.claim());
        assert_eq!(one, m.composed_claim(1).unwrap());
        let (Guarantee::RdpCurve { epsilons: e1, .. }, Guarantee::RdpCurve { epsilons: e40, .. }) =
            (one.guarantee, m.composed_claim(40).unwrap().guarantee)
        else {
            panic!("the subsampled Gaussian claims an RDP curve");
        };
        for (a, b) in e1.iter().zip(&e40) {
            assert_eq!(40.0 * a, *b);
        }
        // Bad inputs: a non-finite entry, a weight row missing, no participant.
        let mut rng = ChaCha20Rng::seed_from_u64(0);
        let bad = [
            Participants {
                vectors: array![[f64::NAN, 0.0]],
                weights: array![[1.0]],
            },
            Participants {
                vectors: array![[1.0, 0.0], [0.0, 1.0]],
                weights: array![[1.0]],
            },
            Participants {
                vectors: Array2::zeros((0, 2)),
                weights: Array2::zeros((0, 1)),
            },
            Participants {
                vectors: array![[1.0, 0.0]],
                weights: array![[-1.0]],
            },
        ];
        for p in &bad {
            assert!(m.release(p, &mut rng).is_err(), "{p:?}");
        }
    }
}

#[test]
fn tree_releases_the_whole_stream_on_a_fresh_tree() {
    let stream = array![[1.0, -2.0], [0.5, 0.0], [3.0, 1.0], [0.0, 0.0], [-1.0, 4.0]];
    for s in SAMPLERS {
        let tree = TreeAggregation::new(StreamShape::Vector(2), 8, 1.0, 0.7)
            .unwrap()
            .with_sampler(s);
        same_draws(
            |r| bits2(&tree.release(&stream, r).unwrap()),
            |r| {
                // What the audit does today: push every item into a clone of a fresh tree.
                let mut t = tree.clone();
                let rows: Vec<f64> = stream
                    .outer_iter()
                    .flat_map(|x| t.push_packed(x, r).unwrap().to_vec())
                    .collect();
                rows.iter().map(|x| x.to_bits()).collect()
            },
        );
        assert_eq!(tree.time(), 0, "release does not touch the tree");
        assert_eq!(Mechanism::claim(&tree), tree.claim());

        // A tree that has been pushed into releases as a fresh one.
        let mut used = tree.clone();
        let mut rng = ChaCha20Rng::seed_from_u64(9);
        used.push_packed(arr1(&[1.0, 1.0]).view(), &mut rng)
            .unwrap();
        let (mut a, mut b) = twin(3);
        assert_eq!(
            bits2(&used.release(&stream, &mut a).unwrap()),
            bits2(&tree.release(&stream, &mut b).unwrap())
        );
        assert_eq!(used.time(), 1);

        // Bad inputs: empty, longer than the horizon, wrong width, non-finite.
        let bad = [
            Array2::zeros((0, 2)),
            Array2::zeros((9, 2)),
            Array2::zeros((3, 3)),
            array![[0.0, f64::NAN]],
        ];
        for x in &bad {
            assert!(tree.release(x, &mut rng).is_err(), "{x:?}");
        }
    }
    // A full stream of T items is allowed; the matrix shape takes packed items.
    let m = TreeAggregation::new(StreamShape::Symmetric(2), 4, 1.0, 1.0).unwrap();
    let mut rng = ChaCha20Rng::seed_from_u64(5);
    assert_eq!(
        m.release(&Array2::ones((4, 3)), &mut rng).unwrap().dim(),
        (4, 3)
    );
}

/// The hand-built release of `checks/src/audit/matrix.rs` (fn `matrix_gaussian`).
fn audit_matrix_release(
    v: (f64, f64),
    sigma: f64,
    sens: f64,
    sampler: Sampler,
    rng: &mut ChaCha20Rng,
) -> Vec<u64> {
    let phi = arr1(&[v.0]);
    let m = clipped_outer_product(phi.view(), v.1, 1.0, 1.0).unwrap()
        + symmetric_gaussian_noise(2, sigma, sens, sampler, rng).unwrap();
    bits(&pack_upper(m.view()).unwrap())
}

#[test]
fn outer_product_gaussian_reproduces_the_audit() {
    let sens = outer_product_sensitivity(1.0, 1.0, Neighbouring::Replace).unwrap();
    let rho: f64 = 0.5;
    for s in SAMPLERS {
        let m = OuterProductGaussian::zcdp(1, 1.0, 1.0, Neighbouring::Replace, rho)
            .unwrap()
            .with_sampler(s);
        // The audit's sigma, computed the audit's way.
        let sigma = sens * s.sensitivity_factor() / (2.0 * rho).sqrt();
        assert_eq!(m.sigma(), sigma);
        assert_eq!(m.sensitivity(), sens);
        assert_eq!(m.packed_len(), 3);
        // The audit's pair (and a clipped one), same draws bit for bit.
        for v in [(1.0, 1.0), (1.0, -1.0), (0.5, 0.25), (-3.0, 7.0)] {
            let input = (arr1(&[v.0]), v.1);
            same_draws(
                |r| bits(&m.release(&input, r).unwrap()),
                |r| audit_matrix_release(v, sigma, sens, s, r),
            );
        }
        let claim = Mechanism::claim(&m);
        assert_eq!(claim, m.claim());
        assert_eq!(
            claim.guarantee,
            Guarantee::Zcdp {
                rho: privacy::Rho::new(rho).unwrap()
            }
        );
        let mut rng = ChaCha20Rng::seed_from_u64(0);
        assert!(matches!(
            m.release(&(arr1(&[1.0, 0.0]), 0.5), &mut rng),
            Err(PrivacyError::Input(InputError::DimensionMismatch { .. }))
        ));
        assert!(matches!(
            m.release(&(arr1(&[1.0]), f64::NAN), &mut rng),
            Err(PrivacyError::Input(InputError::NonFinite { .. }))
        ));
        assert!(matches!(
            m.release(&(arr1(&[f64::INFINITY]), 0.0), &mut rng),
            Err(PrivacyError::Input(InputError::NonFinite { .. }))
        ));
    }
}

#[test]
fn hardened_outer_product_rounds_to_the_grid_first() {
    // Off the grid (0.1^2 is not a multiple of 2^-20) the hardened release still lies on the
    // grid: the statistic is rounded before the discrete noise is added, so the output's low
    // bits do not depend on the data.
    let m = OuterProductGaussian::zcdp(1, 1.0, 1.0, Neighbouring::Replace, 0.5).unwrap();
    let w = Grid::for_sensitivity(m.sensitivity(), 3, Norm::L2)
        .unwrap()
        .width();
    let mut rng = ChaCha20Rng::seed_from_u64(11);
    for _ in 0..50 {
        let out = m.release(&(arr1(&[0.1]), 0.3), &mut rng).unwrap();
        for o in out {
            assert_eq!((o / w).fract(), 0.0, "{o}");
        }
    }
}

#[test]
fn outer_product_gaussian_calibration_and_noise_passed_in() {
    // A given sigma claims rho = Delta_eff^2 / (2 sigma^2); the textbook sampler has no grid
    // factor.
    let m = OuterProductGaussian::with_noise(2, 1.0, 2.0, Neighbouring::AddRemove, 4.0)
        .unwrap()
        .with_sampler(Sampler::Textbook);
    assert_eq!(m.sensitivity(), 5.0); // phi_bound^2 + y_bound^2
    assert_eq!(m.rho(), 25.0 / 32.0);
    assert_eq!(m.packed_len(), 6);
    // phi = (3, 4) is clipped to (0.6, 0.8), y = 5 to 2: v = (0.6, 0.8, 2).
    let out = m
        .release_with_noise(
            arr1(&[3.0, 4.0]).view(),
            5.0,
            arr1(&[0.0, 0.0, 0.0, 0.0, 0.0, 1.0]).view(),
        )
        .unwrap();
    let v = [0.6, 0.8, 2.0];
    let expected = [
        v[0] * v[0],
        v[0] * v[1],
        v[0] * v[2],
        v[1] * v[1],
        v[1] * v[2],
        v[2] * v[2] + 1.0,
    ];
    for (o, e) in out.iter().zip(expected) {
        assert!((o - e).abs() <= 1e-15, "{o} vs {e}");
    }
    assert!(
        m.release_with_noise(arr1(&[1.0, 0.0]).view(), 0.0, arr1(&[0.0]).view())
            .is_err()
    );
    // Validated constructor.
    assert!(OuterProductGaussian::zcdp(0, 1.0, 1.0, Neighbouring::Replace, 0.5).is_err());
    assert!(OuterProductGaussian::zcdp(1, 0.0, 0.0, Neighbouring::Replace, 0.5).is_err());
    assert!(OuterProductGaussian::zcdp(1, f64::NAN, 1.0, Neighbouring::Replace, 0.5).is_err());
    assert!(OuterProductGaussian::zcdp(1, 1.0, 1.0, Neighbouring::Replace, 0.0).is_err());
    assert!(OuterProductGaussian::with_noise(1, 1.0, 1.0, Neighbouring::Replace, -1.0).is_err());
}

/// The auditor's view: generic code that runs any mechanism on two inputs and sees its errors.
fn release_pair<M: Mechanism>(
    m: &M,
    x: &M::Input,
    xp: &M::Input,
    seed: u64,
) -> Result<(M::Output, M::Output), PrivacyError> {
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    Ok((m.release(x, &mut rng)?, m.release(xp, &mut rng)?))
}

#[test]
fn generic_callers_see_errors() {
    let m = LaplaceMechanism::new(1.0, 1.0).unwrap();
    assert!(release_pair(&m, &0.0, &1.0, 1).is_ok());
    assert!(release_pair(&m, &0.0, &f64::NAN, 1).is_err());
    let e = ExponentialMechanism::new(1.0, 1.0).unwrap();
    let (i, j) = release_pair(&e, &[1.0, 0.0][..], &[0.0, 1.0][..], 2).unwrap();
    assert!(i < 2 && j < 2);
}
