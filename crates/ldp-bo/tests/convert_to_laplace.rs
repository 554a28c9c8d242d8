//! Zhou & Tan's curator CTL(eps) (`ldp_bo::ConvertToLaplace`, moved here from the privacy
//! crate): it clips, then adds Laplace noise of the stated scale; its `Mechanism` release is its
//! inherent `privatize` draw for draw; bad parameters are errors.

#![allow(clippy::float_cmp)] // clipping and the noise passed in are exact

use approx::assert_relative_eq;
use ldp_bo::ConvertToLaplace;
use privacy::sampler::GRID_SLACK;
use privacy::{Guarantee, InputError, Mechanism, PrivacyError, Sampler};
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;

#[test]
fn convert_to_laplace_clips_then_adds() {
    let c = ConvertToLaplace::new(0.5, 1.0, 0.5).unwrap();
    assert_eq!(c.bound(), 1.5);
    assert_relative_eq!(c.paper_scale(), 6.0);
    assert_relative_eq!(c.scale(), 6.0 * (1.0 + GRID_SLACK));
    assert_relative_eq!(c.clone().with_sampler(Sampler::Textbook).scale(), 6.0);
    assert_eq!(c.privatize_with_noise(10.0, 0.25).unwrap(), 1.75);
    assert_eq!(c.privatize_with_noise(-10.0, 0.0).unwrap(), -1.5);
    assert_eq!(c.privatize_with_noise(0.3, -1.0).unwrap(), 0.3 - 1.0);
    assert!(matches!(c.claim().guarantee, Guarantee::PureDp { .. }));
    // Section 4.5: R = K1 ln(T/delta)^theta.
    let s = ConvertToLaplace::sub_weibull(1.0, 1.0, 2.0, 0.5, 100, 0.01).unwrap();
    assert_relative_eq!(
        s.bound(),
        1.0 + 2.0 * (1e4f64).ln().sqrt(),
        max_relative = 1e-15
    );
    assert_eq!(s.clipping_delta(), Some(0.01));
    let mut rng = ChaCha20Rng::seed_from_u64(1);
    let y = c.privatize(100.0, &mut rng).unwrap();
    assert!(y.is_finite());
    assert!(c.privatize(f64::NAN, &mut rng).is_err());
}

/// `release` (the trait) and `privatize` (inherent) draw the same values from generators in
/// the same state, several calls in a row.
#[test]
fn convert_to_laplace_releases_privatized_rewards() {
    for s in [Sampler::Hardened, Sampler::Textbook] {
        for c in [
            ConvertToLaplace::new(1.0, 1.0, 0.5).unwrap(),
            ConvertToLaplace::sub_weibull(0.5, 1.0, 2.0, 0.5, 100, 0.01).unwrap(),
        ] {
            let c = c.with_sampler(s);
            for y in [
                f64::NEG_INFINITY,
                -100.0,
                -1.5,
                0.0,
                0.4,
                1e9,
                f64::INFINITY,
            ] {
                for seed in 0..8 {
                    let mut a = ChaCha20Rng::seed_from_u64(seed);
                    let mut b = ChaCha20Rng::seed_from_u64(seed);
                    for _ in 0..4 {
                        assert_eq!(
                            c.release(&y, &mut a).unwrap().to_bits(),
                            c.privatize(y, &mut b).unwrap().to_bits(),
                            "seed {seed}"
                        );
                    }
                }
            }
            assert_eq!(Mechanism::claim(&c), c.claim());
            let mut rng = ChaCha20Rng::seed_from_u64(0);
            assert!(matches!(
                c.release(&f64::NAN, &mut rng),
                Err(PrivacyError::Input(InputError::NotANumber { .. }))
            ));
        }
    }
}

#[test]
fn bad_parameters_are_errors() {
    for e in [0.0, -1.0, f64::NAN, f64::INFINITY] {
        assert!(ConvertToLaplace::new(e, 1.0, 1.0).is_err(), "eps {e}");
    }
    for s in [-1.0, f64::NAN, f64::INFINITY] {
        assert!(ConvertToLaplace::new(1.0, s, 1.0).is_err(), "B {s}");
    }
    // B + R must be positive.
    assert!(ConvertToLaplace::new(1.0, 0.0, 0.0).is_err());
    for d in [0.0, 1.0, -0.5, f64::NAN] {
        assert!(
            ConvertToLaplace::sub_weibull(1.0, 1.0, 1.0, 0.5, 10, d).is_err(),
            "delta {d}"
        );
    }
    assert!(ConvertToLaplace::sub_weibull(1.0, 1.0, 1.0, 0.5, 0, 0.1).is_err());
    assert!(ConvertToLaplace::sub_weibull(1.0, 1.0, 0.0, 0.5, 10, 0.1).is_err());
    assert!(ConvertToLaplace::sub_weibull(1.0, 1.0, 1.0, 0.0, 10, 0.1).is_err());
}
