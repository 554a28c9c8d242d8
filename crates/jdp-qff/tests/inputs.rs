//! Bad input gives a typed error; a reward outside the declared bound is clipped, never passed
//! through; the non-private server is ridge regression in feature space.

use std::sync::Arc;

use approx::assert_relative_eq;
use bandit::agent::Agent;
use jdp_qff::calibration::{JdpCalibration, LocalCalibration};
use jdp_qff::features::{nqff, paper_feature_count, paper_mbar};
use jdp_qff::{InputError, JdpQffError, JdpQffParams, jdp, local, non_private};
use kernel::FeatureMap;
use ndarray::{Array2, array};
use privacy::accountant::zcdp::ZcdpConversion;
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;

fn features() -> Arc<kernel::QuadratureFourierFeatures> {
    Arc::new(nqff(2, 1.0, 3).unwrap())
}

fn is_input(e: &JdpQffError) -> bool {
    matches!(e, JdpQffError::Input(_))
        || matches!(e, JdpQffError::Privacy(privacy::PrivacyError::Input(_)))
        || matches!(e, JdpQffError::Kernel(kernel::KernelError::Input(_)))
        || matches!(e, JdpQffError::Bandit(bandit::BanditError::Input(_)))
}

#[test]
fn bad_privacy_parameters_are_typed_errors() {
    for alpha in [0.0, -1.0, f64::NAN, f64::INFINITY] {
        let p = JdpQffParams {
            alpha,
            ..JdpQffParams::section_6_1()
        };
        let e = jdp(features(), 16, &p).unwrap_err();
        assert!(is_input(&e), "alpha = {alpha}: {e}");
        let e = local(features(), 16, &p).unwrap_err();
        assert!(is_input(&e), "alpha = {alpha}: {e}");
    }
    for beta in [0.0, 1.0, 1.5, -0.1, f64::NAN] {
        let p = JdpQffParams {
            beta,
            ..JdpQffParams::section_6_1()
        };
        let e = jdp(features(), 16, &p).unwrap_err();
        assert!(is_input(&e), "beta = {beta}: {e}");
    }
    let e = JdpCalibration::new(1.0, 0.1, 0, 1.0, ZcdpConversion::Classic).unwrap_err();
    assert!(
        matches!(e, JdpQffError::Input(InputError::ZeroCount { .. })),
        "{e}"
    );
    let e = jdp(features(), 0, &JdpQffParams::section_6_1()).unwrap_err();
    assert!(is_input(&e), "T = 0: {e}");
    let cal = JdpCalibration::new(1.0, 0.1, 16, 1.0, ZcdpConversion::Classic).unwrap();
    assert!(matches!(
        cal.tree(0).unwrap_err(),
        JdpQffError::Input(InputError::ZeroCount { .. })
    ));
    assert!(nqff(2, 1.0, 0).is_err(), "mbar = 0 (m = 0)");
    assert!(paper_mbar(0).is_err() && paper_feature_count(16, 0).is_err());
    let e = LocalCalibration::new(1.0, 0.1, 0.0, ZcdpConversion::Classic).unwrap_err();
    assert!(is_input(&e), "B_y = 0: {e}");
}

#[test]
fn empty_decision_set_and_nan_reward_are_typed_errors() {
    let mut rng = ChaCha20Rng::seed_from_u64(1);
    let (mut server, mut privatizer) = jdp(features(), 16, &JdpQffParams::section_6_1()).unwrap();
    let empty = Array2::<f64>::zeros((0, 2));
    assert!(is_input(
        &server.select(empty.view(), &mut rng).unwrap_err()
    ));
    let nan_point = array![[0.0, f64::NAN]];
    assert!(is_input(
        &server.select(nan_point.view(), &mut rng).unwrap_err()
    ));
    let e = privatizer
        .privatize(array![0.1, 0.2].view(), f64::NAN, &mut rng)
        .unwrap_err();
    assert!(
        matches!(e, JdpQffError::Input(InputError::NonFinite { .. })),
        "{e}"
    );
    let (_, client) = local(features(), 16, &JdpQffParams::section_6_1()).unwrap();
    let e = client
        .perturb(array![0.1, 0.2].view(), f64::NAN, &mut rng)
        .unwrap_err();
    assert!(
        matches!(e, JdpQffError::Input(InputError::NonFinite { .. })),
        "{e}"
    );
    // observe before select is the protocol error of bandit::policy.
    let (mut server, mut exact) = non_private(features(), Default::default()).unwrap();
    let x = array![0.1, 0.2];
    let fb = bandit::agent::Feedback {
        round: 0,
        action: 0,
        point: x.view(),
        reward: 1.0,
    };
    let msg = bandit::agent::Curator::curate(&mut exact, &fb, &mut rng).unwrap();
    assert!(matches!(
        server.observe(msg).unwrap_err(),
        JdpQffError::Bandit(bandit::BanditError::ObserveBeforeSelect)
    ));
}

#[test]
fn rewards_outside_the_bound_are_clipped_before_noise() {
    // Same seed, same point: a reward of 1e9 and one of exactly B_y give the same release,
    // bit for bit (the item is clipped before it enters the tree or the client's noise).
    let p = JdpQffParams::section_6_1();
    let x = array![0.3, -0.4];
    for big in [1e9, 7.5] {
        let (_, mut a) = jdp(features(), 8, &p).unwrap();
        let (_, mut b) = jdp(features(), 8, &p).unwrap();
        let ra = a
            .privatize(x.view(), big, &mut ChaCha20Rng::seed_from_u64(3))
            .unwrap();
        let rb = b
            .privatize(x.view(), p.reward_bound, &mut ChaCha20Rng::seed_from_u64(3))
            .unwrap();
        assert_eq!(ra, rb, "JDP privatizer, y = {big}");
        let (_, c) = local(features(), 8, &p).unwrap();
        let ma = c
            .perturb(x.view(), -big, &mut ChaCha20Rng::seed_from_u64(4))
            .unwrap();
        let mb = c
            .perturb(
                x.view(),
                -p.reward_bound,
                &mut ChaCha20Rng::seed_from_u64(4),
            )
            .unwrap();
        assert_eq!(ma, mb, "local client, y = -{big}");
    }
}

#[test]
fn non_private_server_is_ridge_regression_in_feature_space() {
    let f = features();
    let width = jdp_qff::WidthParams::default();
    let (mut server, mut exact) = non_private(Arc::clone(&f), width).unwrap();
    let mut rng = ChaCha20Rng::seed_from_u64(5);
    let pts = array![[0.0, 0.0], [0.5, -0.2], [1.0, 1.0], [-0.7, 0.3]];
    // Round 1: no data, theta = 0, beta^{1/2} = B sqrt(lambda) + rho sqrt(2 ln(2/zeta)).
    assert_relative_eq!(
        server.sqrt_beta(),
        width.b * width.lambda.sqrt() + width.rho * (2.0 * (2.0 / width.zeta).ln()).sqrt(),
        max_relative = 1e-14
    );
    let ys = [0.2, -0.1, 0.9, 0.4];
    for (i, y) in ys.iter().enumerate() {
        server.select(pts.view(), &mut rng).unwrap();
        let fb = bandit::agent::Feedback {
            round: i,
            action: i,
            point: pts.row(i),
            reward: *y,
        };
        let msg = bandit::agent::Curator::curate(&mut exact, &fb, &mut rng).unwrap();
        server.observe(msg).unwrap();
    }
    // theta = (Phi^T Phi + lambda I)^-1 Phi^T y, computed independently by a dense solve.
    let phi = f.map_batch(pts.view()).unwrap();
    let m = f.dim();
    let g = phi.t().dot(&phi) + Array2::<f64>::eye(m) * width.lambda;
    let rhs = phi.t().dot(&ndarray::Array1::from(ys.to_vec()));
    let chol = kernel::linalg::Cholesky::factor("G", g.view()).unwrap();
    let theta = chol.solve(rhs.view()).unwrap();
    for (a, b) in server.theta().iter().zip(theta.iter()) {
        assert_relative_eq!(a, b, epsilon = 1e-12);
    }
    assert_eq!(server.statistics().observations, 4);
}

#[test]
fn paper_feature_count_follows_corollary_1() {
    assert_eq!(paper_mbar(1024).unwrap(), 42); // ceil(6 ln 1024) = ceil(41.59)
    assert_eq!(paper_feature_count(1024, 2).unwrap(), 2 * 42 * 42);
    let f = nqff(2, 1.0, 4).unwrap();
    let phi = f.map(array![0.7, -1.3].view()).unwrap();
    assert_relative_eq!(phi.dot(&phi), 1.0, epsilon = 1e-12); // NQFF: ||Phi(x)|| = 1
}

#[test]
fn calibrations_follow_their_derivations() {
    // JDP (Algorithm 2): sigma = Delta_eff sqrt(L / (2 rho*)), rho* = (sqrt(l + a) - sqrt(l))^2.
    let (a, b, t, by) = (1.0f64, 0.1f64, 1024u64, 1.0f64);
    let cal = JdpCalibration::new(a, b, t, by, ZcdpConversion::Classic).unwrap();
    let l = (1.0 / b).ln();
    let rho = ((l + a).sqrt() - l.sqrt()).powi(2);
    assert_relative_eq!(cal.rho(), rho, max_relative = 1e-12);
    assert_eq!(cal.levels(), 11); // floor(log2 1024) + 1
    let delta = std::f64::consts::SQRT_2 * (1.0 + by * by);
    let f = privacy::Sampler::Hardened.sensitivity_factor();
    assert_relative_eq!(
        cal.sigma(),
        f * delta * (11.0 / (2.0 * rho)).sqrt(),
        max_relative = 1e-12
    );
    // Local (Algorithm 3): each half of rho*.
    let lc = LocalCalibration::new(a, b, by, ZcdpConversion::Classic).unwrap();
    assert_relative_eq!(lc.message_rho(), rho, max_relative = 1e-12);
    assert_relative_eq!(
        lc.sigma_x(),
        f * std::f64::consts::SQRT_2 / rho.sqrt(),
        max_relative = 1e-12
    );
    assert_relative_eq!(
        lc.sigma_u(),
        f * 2.0 * by / rho.sqrt(),
        max_relative = 1e-12
    );
}

/// A local calibration is made only by its constructor (its fields are private, so no caller
/// can set a noise to zero after the fact): every calibration it makes has positive noise and
/// a finite zCDP per message, which the client validates when it is built.
#[test]
fn every_local_calibration_has_noise_and_is_accepted() {
    let features = Arc::new(nqff(2, 0.2, 3).unwrap());
    for (alpha, beta, by) in [(1.0, 0.1, 1.0), (1e6, 0.5, 0.1), (1e-3, 1e-9, 5.0)] {
        let cal = LocalCalibration::new(alpha, beta, by, ZcdpConversion::Classic).unwrap();
        assert!(cal.sigma_x() > 0.0 && cal.sigma_u() > 0.0, "{cal:?}");
        assert!(cal.message_rho().is_finite(), "{cal:?}");
        assert!(jdp_qff::local::LocalClient::new(Arc::clone(&features), cal).is_ok());
    }
}
