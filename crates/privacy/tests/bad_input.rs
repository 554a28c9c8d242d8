//! Property test: constructors, calibrations and accountants never panic on bad input and
//! return the crate's typed error (eps <= 0 or NaN, delta outside [0, 1), q outside (0, 1],
//! negative or non-finite sensitivity, T = 0).
#![allow(clippy::float_cmp)] // exact test vectors: equality is the point

use ndarray::array;
use privacy::accountant::rdp::paper_preset_epsilon;
use privacy::accountant::{
    PldSettings, RdpConversion, ZcdpConversion, rho_for_target, subsampled_gaussian_epsilon,
    subsampled_gaussian_pld_epsilon, zcdp_to_epsilon,
};
use privacy::mechanisms::{
    ExponentialMechanism, GaussianMechanism, LaplaceMechanism, Neighbouring, OuterProductGaussian,
    StreamShape, SubsampledGaussian, TreeAggregation, analytic_sigma, classic_sigma, node_sigma,
};
use privacy::{Delta, Epsilon, InputError, PrivacyError, SamplingRate, Sensitivity};
use proptest::prelude::*;

fn bad_eps() -> impl Strategy<Value = f64> {
    prop_oneof![
        Just(0.0),
        Just(f64::NAN),
        Just(f64::INFINITY),
        Just(f64::NEG_INFINITY),
        -1e10..=0.0f64
    ]
}
fn bad_delta() -> impl Strategy<Value = f64> {
    prop_oneof![
        Just(1.0),
        Just(f64::NAN),
        Just(f64::INFINITY),
        1.0..1e10f64,
        -1e10..-1e-300f64
    ]
}
fn bad_q() -> impl Strategy<Value = f64> {
    prop_oneof![
        Just(0.0),
        Just(f64::NAN),
        Just(f64::INFINITY),
        1.0 + 1e-12..1e10f64,
        -1e10..=0.0f64
    ]
}
fn bad_sens() -> impl Strategy<Value = f64> {
    prop_oneof![Just(f64::NAN), Just(f64::INFINITY), -1e10..-1e-300f64]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn bad_epsilon(e in bad_eps()) {
        prop_assert!(
            matches!(Epsilon::new(e), Err(PrivacyError::Input(InputError::NotPositive { what: "epsilon", .. }))),
            "Epsilon::new({}) gave the wrong error: {:?}",
            e,
            Epsilon::new(e)
        );
        prop_assert!(LaplaceMechanism::new(e, 1.0).is_err());
        prop_assert!(GaussianMechanism::analytic(e, 1e-5, 1.0).is_err());
        prop_assert!(GaussianMechanism::classic(e, 1e-5, 1.0).is_err());
        prop_assert!(ExponentialMechanism::new(e, 1.0).is_err());
        prop_assert!(analytic_sigma(e, 1e-5, 1.0).is_err());
        prop_assert!(rho_for_target(e, 1e-5, ZcdpConversion::Cks).is_err());
        prop_assert!(node_sigma(10, e, 1e-5, 1.0, ZcdpConversion::Classic).is_err());
        prop_assert!(TreeAggregation::calibrated(StreamShape::Vector(2), 8, e, 1e-5, 1.0, ZcdpConversion::Classic).is_err());
    }

    #[test]
    fn bad_delta_values(d in bad_delta()) {
        prop_assert!(
            matches!(Delta::new(d), Err(PrivacyError::Input(InputError::OutOfRange { what: "delta", .. }))),
            "Delta::new({}) gave the wrong error: {:?}",
            d,
            Delta::new(d)
        );
        prop_assert!(GaussianMechanism::analytic(1.0, d, 1.0).is_err());
        prop_assert!(classic_sigma(0.5, d, 1.0).is_err());
        prop_assert!(zcdp_to_epsilon(1.0, d, ZcdpConversion::Classic).is_err());
        prop_assert!(paper_preset_epsilon(0.25, 1.0, 40, d).is_err());
        prop_assert!(subsampled_gaussian_pld_epsilon(0.25, 1.0, 4, d, PldSettings::default()).is_err());
    }

    #[test]
    fn bad_sampling_rate(q in bad_q()) {
        prop_assert!(
            matches!(SamplingRate::new(q), Err(PrivacyError::Input(InputError::OutOfRange { what: "sampling rate q", .. }))),
            "SamplingRate::new({}) gave the wrong error: {:?}",
            q,
            SamplingRate::new(q)
        );
        prop_assert!(SubsampledGaussian::new(q, 1.0, 1.0).is_err());
        prop_assert!(paper_preset_epsilon(q, 1.0, 40, 1e-5).is_err());
        prop_assert!(subsampled_gaussian_epsilon(q, 1.0, 40, 1e-5, &[2.0, 2.5], RdpConversion::Improved).is_err());
        prop_assert!(subsampled_gaussian_pld_epsilon(q, 1.0, 4, 1e-5, PldSettings::default()).is_err());
    }

    #[test]
    fn bad_sensitivity(s in bad_sens()) {
        prop_assert!(
            matches!(Sensitivity::new(s), Err(PrivacyError::Input(InputError::Negative { what: "sensitivity", .. }))),
            "Sensitivity::new({}) gave the wrong error: {:?}",
            s,
            Sensitivity::new(s)
        );
        prop_assert!(LaplaceMechanism::new(1.0, s).is_err());
        prop_assert!(GaussianMechanism::zcdp(1.0, s).is_err());
        prop_assert!(ExponentialMechanism::new(1.0, s).is_err());
        prop_assert!(SubsampledGaussian::new(0.5, s, 1.0).is_err());
        prop_assert!(TreeAggregation::new(StreamShape::Vector(2), 8, s, 1.0).is_err());
    }

    #[test]
    fn bad_inputs_to_release(x in prop_oneof![Just(f64::NAN), Just(f64::INFINITY), Just(f64::NEG_INFINITY)]) {
        let mut rng = <rand_chacha::ChaCha20Rng as rand::SeedableRng>::seed_from_u64(0);
        prop_assert!(LaplaceMechanism::new(1.0, 1.0).unwrap().release_vector(array![x].view(), &mut rng).is_err());
        prop_assert!(GaussianMechanism::zcdp(1.0, 1.0).unwrap().release_vector(array![1.0, x].view(), &mut rng).is_err());
        prop_assert!(ExponentialMechanism::new(1.0, 1.0).unwrap().select(&[0.0, x], &mut rng).is_err());
        let mut t = TreeAggregation::new(StreamShape::Vector(1), 4, 1.0, 1.0).unwrap();
        prop_assert!(t.push(array![x].view(), &mut rng).is_err());
        let s = SubsampledGaussian::new(0.5, 1.0, 1.0).unwrap();
        prop_assert!(s.aggregate(array![[x]].view(), array![[1.0]].view(), &mut rng).is_err());
        prop_assert!(s.aggregate(array![[1.0]].view(), array![[x]].view(), &mut rng).is_err());
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Extreme but valid parameters and inputs: a result (finite output) or a typed error,
    /// never a panic.
    #[test]
    fn extreme_finite_values_never_panic(
        e in prop_oneof![Just(1e-300), Just(1e300), 1e-6..1e6f64],
        s in prop_oneof![Just(1e-300), Just(1e300), 1e-6..1e6f64],
        x in prop_oneof![Just(1e300), Just(-1e300), Just(5e-324), -1e6..1e6f64],
    ) {
        let mut rng = <rand_chacha::ChaCha20Rng as rand::SeedableRng>::seed_from_u64(1);
        if let Ok(y) = LaplaceMechanism::new(e, s).and_then(|m| m.release_scalar(x, &mut rng)) {
            prop_assert!(!y.is_nan());
        }
        if let Ok(y) = GaussianMechanism::zcdp(e, s).and_then(|m| m.release_scalar(x, &mut rng)) {
            prop_assert!(!y.is_nan());
        }
        if let Ok(i) = ExponentialMechanism::new(e, s).and_then(|m| m.select(&[x, 0.0, -x], &mut rng)) {
            prop_assert!(i < 3);
        }
        let _ = analytic_sigma(e, 1e-5, s);
        let _ = node_sigma(1 << 20, e, 1e-9, s, ZcdpConversion::Cks);
        let _ = zcdp_to_epsilon(e, 1e-5, ZcdpConversion::Cks);
        let _ = subsampled_gaussian_epsilon(0.5, s.clamp(1e-3, 1e3), 1000, 1e-5, &[1.5, 2.0, 40.5], RdpConversion::Improved);
    }
}

#[test]
fn zero_counts() {
    assert!(matches!(
        paper_preset_epsilon(0.25, 1.0, 0, 1e-5),
        Err(PrivacyError::Input(InputError::ZeroCount { .. }))
    ));
    assert!(matches!(
        node_sigma(0, 1.0, 1e-5, 1.0, ZcdpConversion::Classic),
        Err(PrivacyError::Input(InputError::ZeroCount { .. }))
    ));
    assert!(TreeAggregation::new(StreamShape::Vector(2), 0, 1.0, 1.0).is_err());
    assert!(TreeAggregation::new(StreamShape::Vector(0), 4, 1.0, 1.0).is_err());
    assert!(subsampled_gaussian_pld_epsilon(0.25, 1.0, 0, 1e-5, PldSettings::default()).is_err());
    assert!(
        SubsampledGaussian::new(0.5, 1.0, 1.0)
            .unwrap()
            .composed_claim(0)
            .is_err()
    );
    assert!(
        GaussianMechanism::zcdp(1.0, 0.0).is_err(),
        "zero sensitivity has no noise scale"
    );
}

#[test]
fn pld_refuses_grids_that_do_not_fit() {
    // A tiny noise multiplier over many steps: a typed error, not an allocation failure.
    assert!(
        subsampled_gaussian_pld_epsilon(0.5, 0.05, 100_000, 1e-5, PldSettings::default()).is_err()
    );
    assert!(
        subsampled_gaussian_pld_epsilon(0.5, 1.0, 100_000, 1e-5, PldSettings::default()).is_err()
    );
}

/// A noise level whose zCDP parameter is not a positive finite number is refused when the
/// mechanism is built (its claim never falls back to a stand-in value); the same construction
/// at an ordinary scale succeeds.
#[test]
fn degenerate_noise_is_refused_at_construction() {
    // rho = L * Delta^2 / (2 sigma^2) overflows: Delta = 1e200, sigma = 1e-200.
    let e = TreeAggregation::new(StreamShape::Vector(2), 8, 1e200, 1e-200).unwrap_err();
    assert!(e.to_string().contains("zCDP parameter"), "{e}");
    assert!(TreeAggregation::new(StreamShape::Vector(2), 8, 1e2, 1e-2).is_ok());
    let e = OuterProductGaussian::with_noise(3, 1e100, 1e100, Neighbouring::AddRemove, 1e-200)
        .unwrap_err();
    assert!(e.to_string().contains("zCDP parameter"), "{e}");
    assert!(OuterProductGaussian::with_noise(3, 1.0, 1.0, Neighbouring::AddRemove, 0.5).is_ok());
    // rho underflows to 0: sigma = 1e200 at sensitivity 1e-200.
    let e = TreeAggregation::new(StreamShape::Vector(1), 4, 1e-200, 1e200).unwrap_err();
    assert!(e.to_string().contains("zCDP parameter"), "{e}");
}
