//! Bad input gives a typed error, never a panic.

use std::sync::Arc;

use bandit::agent::Agent;
use bandit::{BanditError, InputError};
use kernel::{Kernel, SquaredExponential};
use ldp_bo::Preset;
use ldp_bo::{
    AtaGpUcb, AtaParams, CtlCurator, LdpBoError, MomaGpUcb, MomaParams, TgpParams, TgpUcb,
};
use ndarray::Array2;
use proptest::prelude::*;
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;

fn arms() -> Array2<f64> {
    Array2::from_shape_fn((5, 1), |(i, _)| i as f64 / 4.0)
}

fn k() -> Arc<dyn Kernel> {
    Arc::new(SquaredExponential::isotropic(0.2).unwrap())
}

#[test]
fn curator_parameters() {
    assert!(matches!(
        CtlCurator::new(0.0, 1.0, 1.0),
        Err(LdpBoError::Privacy(_))
    ));
    assert!(matches!(
        CtlCurator::new(-1.0, 1.0, 1.0),
        Err(LdpBoError::Privacy(_))
    ));
    assert!(matches!(
        CtlCurator::new(1.0, -1.0, 1.0),
        Err(LdpBoError::Privacy(_))
    ));
    assert!(matches!(
        CtlCurator::new(1.0, 1.0, -0.5),
        Err(LdpBoError::Privacy(_))
    ));
    assert!(matches!(
        CtlCurator::new(f64::NAN, 1.0, 1.0),
        Err(LdpBoError::Privacy(_))
    ));
}

#[test]
fn horizon_zero_and_empty_arm_sets() {
    let c = CtlCurator::new(1.0, 1.0, 1.0).unwrap();
    assert!(matches!(
        AtaGpUcb::private(k(), arms().view(), &c, 0, AtaParams::of(Preset::Practical)),
        Err(LdpBoError::Input(InputError::ZeroCount { .. }))
    ));
    assert!(matches!(
        MomaGpUcb::private(k(), arms().view(), &c, 0, MomaParams::of(Preset::Practical)),
        Err(LdpBoError::Input(InputError::ZeroCount { .. }))
    ));
    let empty = Array2::<f64>::zeros((0, 1));
    assert!(matches!(
        TgpUcb::private(k(), empty.view(), &c, TgpParams::of(Preset::Practical)),
        Err(LdpBoError::Bandit(BanditError::Input(
            InputError::Empty { .. }
        )))
    ));
    assert!(matches!(
        AtaGpUcb::private(k(), empty.view(), &c, 10, AtaParams::of(Preset::Practical)),
        Err(LdpBoError::Bandit(BanditError::Input(
            InputError::Empty { .. }
        )))
    ));
    assert!(matches!(
        MomaGpUcb::private(k(), empty.view(), &c, 10, MomaParams::of(Preset::Practical)),
        Err(LdpBoError::Bandit(BanditError::Input(
            InputError::Empty { .. }
        )))
    ));
}

/// Regression (a CI run's proptest case): a subnormal `delta` made `ln(4eT/delta)` infinite and
/// MoMA tried to reserve `k = u64::MAX` rewards. It is now a typed error; a huge but finite
/// epoch-length scale is accepted and reserves at most `T` rewards.
#[test]
fn subnormal_delta_and_huge_epoch_length() {
    let c = CtlCurator::new(1.0, 1.0, 1.0).unwrap();
    let tiny = MomaParams {
        delta: 5e-324,
        ..MomaParams::of(Preset::Practical)
    };
    assert!(matches!(
        MomaGpUcb::private(k(), arms().view(), &c, 4, tiny),
        Err(LdpBoError::Input(InputError::NonFinite { .. }))
    ));
    let long = MomaParams {
        epoch_length: ldp_bo::EpochLength::Scaled(1e300),
        ..MomaParams::of(Preset::Practical)
    };
    let moma = MomaGpUcb::private(k(), arms().view(), &c, 4, long).unwrap();
    assert_eq!(moma.epoch_length(), usize::MAX);
}

#[test]
fn negative_bound_in_the_non_private_versions() {
    assert!(
        TgpUcb::heavy_tailed(
            k(),
            arms().view(),
            -1.0,
            1.0,
            2.0,
            TgpParams::of(Preset::Practical)
        )
        .is_err()
    );
    assert!(
        AtaGpUcb::heavy_tailed(
            k(),
            arms().view(),
            -1.0,
            2.0,
            10,
            AtaParams::of(Preset::Practical)
        )
        .is_err()
    );
    assert!(
        MomaGpUcb::heavy_tailed(
            k(),
            arms().view(),
            1.0,
            1.0,
            -3.0,
            10,
            MomaParams::of(Preset::Practical)
        )
        .is_err()
    );
}

#[test]
fn nan_reward_and_protocol_errors() {
    let mut rng = ChaCha20Rng::seed_from_u64(1);
    let a = arms();
    let mut tgp = TgpUcb::heavy_tailed(
        k(),
        a.view(),
        1.0,
        1.0,
        2.0,
        TgpParams::of(Preset::Practical),
    )
    .unwrap();
    assert!(matches!(
        tgp.observe(1.0),
        Err(LdpBoError::Bandit(BanditError::ObserveBeforeSelect))
    ));
    tgp.select(a.view(), &mut rng).unwrap();
    assert!(matches!(
        tgp.observe(f64::NAN),
        Err(LdpBoError::Bandit(BanditError::Input(
            InputError::NonFinite { .. }
        )))
    ));
    let mut ata = AtaGpUcb::heavy_tailed(
        k(),
        a.view(),
        1.0,
        2.0,
        10,
        AtaParams::of(Preset::Practical),
    )
    .unwrap();
    ata.select(a.view(), &mut rng).unwrap();
    assert!(matches!(
        ata.observe(f64::INFINITY),
        Err(LdpBoError::Bandit(BanditError::Input(
            InputError::NonFinite { .. }
        )))
    ));
    let mut moma = MomaGpUcb::heavy_tailed(
        k(),
        a.view(),
        1.0,
        1.0,
        2.0,
        10,
        MomaParams::of(Preset::Practical),
    )
    .unwrap();
    moma.select(a.view(), &mut rng).unwrap();
    assert!(matches!(
        moma.select(a.view(), &mut rng),
        Err(LdpBoError::Bandit(BanditError::SelectTwice))
    ));
    assert!(matches!(
        moma.observe(f64::NAN),
        Err(LdpBoError::Bandit(BanditError::Input(
            InputError::NonFinite { .. }
        )))
    ));
    // A decision set other than the learner's arms is refused: other values, other shapes.
    let other = Array2::from_shape_fn((5, 1), |(i, _)| i as f64);
    assert!(matches!(
        tgp.select(other.view(), &mut rng),
        Err(LdpBoError::Bandit(BanditError::DecisionSetChanged {
            row: 1,
            col: 0
        }))
    ));
    let fewer = Array2::from_shape_fn((4, 1), |(i, _)| i as f64 / 4.0);
    assert!(matches!(
        ata.select(fewer.view(), &mut rng),
        Err(LdpBoError::Bandit(BanditError::Input(
            InputError::DimensionMismatch { .. }
        )))
    ));
    let wider = Array2::<f64>::zeros((5, 2));
    assert!(matches!(
        moma.select(wider.view(), &mut rng),
        Err(LdpBoError::Bandit(BanditError::Input(
            InputError::DimensionMismatch { .. }
        )))
    ));
    // A non-finite arm coordinate is refused when the learner is built.
    let mut bad = arms();
    bad[[2, 0]] = f64::NAN;
    assert!(matches!(
        TgpUcb::heavy_tailed(
            k(),
            bad.view(),
            1.0,
            1.0,
            2.0,
            TgpParams::of(Preset::Practical)
        ),
        Err(LdpBoError::Bandit(BanditError::Input(
            InputError::NonFinite { index: Some(2), .. }
        )))
    ));
}

/// The select/observe guard (`bandit::policy::Pending`) in every agent of the crate, private
/// and non-private: `observe` before any `select`, and again after the message was taken, is
/// `ObserveBeforeSelect`; a full select/observe cycle works in between.
#[test]
fn observe_before_select_is_a_typed_error_for_every_agent() {
    fn check<A: Agent>(name: &str, mut agent: A, message: impl Fn() -> A::Message)
    where
        A::Error: Into<LdpBoError>,
    {
        let a = arms();
        let mut rng = ChaCha20Rng::seed_from_u64(5);
        let before = agent.observe(message()).map_err(Into::into);
        assert!(
            matches!(
                before,
                Err(LdpBoError::Bandit(BanditError::ObserveBeforeSelect))
            ),
            "{name}: {before:?}"
        );
        agent.select(a.view(), &mut rng).unwrap();
        agent.observe(message()).map_err(Into::into).unwrap();
        let again = agent.observe(message()).map_err(Into::into);
        assert!(
            matches!(
                again,
                Err(LdpBoError::Bandit(BanditError::ObserveBeforeSelect))
            ),
            "{name}: {again:?}"
        );
    }
    let c = CtlCurator::new(1.0, 1.0, 1.0).unwrap();
    let private = || {
        let point = [0.0];
        let fb = bandit::agent::Feedback {
            round: 0,
            action: 0,
            point: ndarray::ArrayView1::from(&point),
            reward: 0.5,
        };
        bandit::agent::Curator::curate(&mut c.clone(), &fb, &mut ChaCha20Rng::seed_from_u64(9))
            .unwrap()
    };
    let a = arms();
    check(
        "LDP-TGP-UCB",
        TgpUcb::private(k(), a.view(), &c, TgpParams::of(Preset::Practical)).unwrap(),
        private,
    );
    check(
        "LDP-ATA-GP-UCB",
        AtaGpUcb::private(k(), a.view(), &c, 10, AtaParams::of(Preset::Practical)).unwrap(),
        private,
    );
    check(
        "LDP-MoMA-GP-UCB",
        MomaGpUcb::private(k(), a.view(), &c, 10, MomaParams::of(Preset::Practical)).unwrap(),
        private,
    );
    check(
        "TGP-UCB",
        TgpUcb::heavy_tailed(
            k(),
            a.view(),
            1.0,
            1.0,
            2.0,
            TgpParams::of(Preset::Practical),
        )
        .unwrap(),
        || 0.5,
    );
    check(
        "ATA-GP-UCB",
        AtaGpUcb::heavy_tailed(
            k(),
            a.view(),
            1.0,
            2.0,
            10,
            AtaParams::of(Preset::Practical),
        )
        .unwrap(),
        || 0.5,
    );
    check(
        "MoMA-GP-UCB",
        MomaGpUcb::heavy_tailed(
            k(),
            a.view(),
            1.0,
            1.0,
            2.0,
            10,
            MomaParams::of(Preset::Practical),
        )
        .unwrap(),
        || 0.5,
    );
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// Constructors never panic, whatever the numbers.
    #[test]
    fn constructors_never_panic(
        eps in prop::num::f64::ANY,
        b in prop::num::f64::ANY,
        r in prop::num::f64::ANY,
        lambda in prop::num::f64::ANY,
        delta in prop::num::f64::ANY,
        scale in prop::num::f64::ANY,
        horizon in 0u64..5,
    ) {
        let _ = CtlCurator::new(eps, b, r);
        if let Ok(c) = CtlCurator::new(eps, b, r) {
            let tp = TgpParams { lambda, delta, beta_scale: scale, ..TgpParams::of(Preset::Practical) };
            let _ = TgpUcb::private(k(), arms().view(), &c, tp);
            let ap = AtaParams { lambda, delta, beta_scale: scale, ..AtaParams::of(Preset::Practical) };
            let _ = AtaGpUcb::private(k(), arms().view(), &c, horizon, ap);
            let mp = MomaParams { lambda, delta, beta_scale: scale, ..MomaParams::of(Preset::Practical) };
            let _ = MomaGpUcb::private(k(), arms().view(), &c, horizon, mp);
        }
        let _ = TgpUcb::heavy_tailed(k(), arms().view(), b, r, eps, TgpParams::of(Preset::Practical));
        let _ = ldp_bo::schedule::TgpSchedule::new(b, r, eps, lambda, delta);
        let _ = ldp_bo::schedule::MomaSchedule::new(b, r, eps, lambda, delta, horizon, scale);
    }
}
