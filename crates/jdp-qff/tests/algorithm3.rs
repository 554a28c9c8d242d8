//! Algorithm 3 as printed: the SERVER ([`LocalServer`]) only adds the clients' messages and
//! broadcasts the sums; each CLIENT(t) ([`ClientSelection`]) selects from the broadcast and its
//! own `D_t`. Fed the same messages, the protocol makes the same choices as Algorithm 1's server.
//! (Both build their posterior with [`jdp_qff::Posterior`], so this test cannot see a change in
//! that shared code; that the refactoring changed no number is shown by the local snapshot test
//! and by the reproduction's and checks' outputs, compared before and after.)

use std::sync::Arc;

use bandit::agent::{Agent, Curator, Feedback};
use jdp_qff::{
    ApproximateGpUcb, ClientMessage, JdpQffError, JdpQffParams, LocalServer, StatisticsMessage,
    local,
};
use kernel::FeatureMap;
use ndarray::Array2;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha20Rng;

fn features() -> Arc<kernel::QuadratureFourierFeatures> {
    Arc::new(jdp_qff::features::nqff(2, 1.0, 4).unwrap())
}

/// The local protocol and Algorithm 1's server fed the same client messages: every choice and
/// every `beta_t^{1/2}` agree bit for bit, and so do the final sums.
#[test]
fn selection_in_the_client_chooses_what_the_server_would() {
    let f = features();
    let horizon = 64;
    let params = JdpQffParams::section_6_1();
    let (mut protocol, mut client) = local(Arc::clone(&f), horizon, &params).unwrap();
    let width = *protocol.clients().width();
    let mut server: ApproximateGpUcb<_, ClientMessage> =
        ApproximateGpUcb::new(Arc::clone(&f), width).unwrap();
    let mut data = ChaCha20Rng::seed_from_u64(3);
    let (mut rng_a, mut rng_b) = (ChaCha20Rng::seed_from_u64(5), ChaCha20Rng::seed_from_u64(5));
    let mut noise = ChaCha20Rng::seed_from_u64(7);
    for round in 0..horizon as usize {
        let d = Array2::from_shape_fn((9, 2), |_| 4.0 * data.random::<f64>() - 2.0);
        let a = protocol.select(d.view(), &mut rng_a).unwrap();
        let b = server.select(d.view(), &mut rng_b).unwrap();
        assert_eq!(a, b, "round {round}");
        let posterior = protocol
            .clients()
            .posterior(protocol.server().broadcast())
            .unwrap();
        assert_eq!(
            posterior.sqrt_beta().to_bits(),
            server.sqrt_beta().to_bits()
        );
        let reward = if data.random::<f64>() < 0.5 { 0.0 } else { 1.0 };
        let feedback = Feedback {
            round,
            action: a,
            point: d.row(a),
            reward,
        };
        let message = client.curate(&feedback, &mut noise).unwrap();
        server.observe(message.clone()).unwrap();
        protocol.observe(message).unwrap();
    }
    assert_eq!(protocol.server().broadcast(), server.statistics());
    assert_eq!(protocol.server().broadcast().observations, horizon as usize);
}

/// The server's sums are the shift plus the messages, nothing else.
#[test]
fn the_server_only_adds_messages() {
    let f = features();
    let m = f.dim();
    let (_, client) = local(Arc::clone(&f), 8, &JdpQffParams::section_6_1()).unwrap();
    let mut server = LocalServer::new(m, 0.5).unwrap();
    let mut rng = ChaCha20Rng::seed_from_u64(11);
    let mut expected = Array2::<f64>::eye(m) * 0.5;
    let mut expected_u = ndarray::Array1::<f64>::zeros(m);
    for _ in 0..5 {
        let x = ndarray::Array1::from_shape_fn(2, |_| rng.random::<f64>());
        let msg = client.perturb(x.view(), 1.0, &mut rng).unwrap();
        expected += msg.sigma_increment();
        expected_u += msg.u_increment();
        server.receive(msg).unwrap();
    }
    let sums = server.broadcast();
    assert_eq!(sums.observations, 5);
    assert_eq!(sums.sigma, expected);
    assert_eq!(sums.u, expected_u);
}

/// Bad input: no features, a negative or non-finite shift, a message of another dimension.
#[test]
fn bad_server_input_is_a_typed_error() {
    assert!(matches!(
        LocalServer::new(0, 1.0).unwrap_err(),
        JdpQffError::Input(_)
    ));
    for shift in [-1.0, f64::NAN, f64::INFINITY] {
        let e = LocalServer::new(4, shift).unwrap_err();
        assert!(matches!(e, JdpQffError::Input(_)), "shift {shift}: {e}");
        assert!(e.to_string().contains("PSD shift"), "{e}");
    }
    let f = features();
    let (_, client) = local(Arc::clone(&f), 8, &JdpQffParams::section_6_1()).unwrap();
    let msg = client
        .perturb(
            ndarray::array![0.1, 0.2].view(),
            1.0,
            &mut ChaCha20Rng::seed_from_u64(1),
        )
        .unwrap();
    let mut server = LocalServer::new(f.dim() + 1, 0.0).unwrap();
    let e = server.receive(msg).unwrap_err();
    assert!(e.to_string().contains("feature dimension"), "{e}");
    // A message of the right dimension is still accepted by the trait (the replay path).
    let mut sums = jdp_qff::ServerStatistics::initial(f.dim(), 0.0);
    let msg = client
        .perturb(
            ndarray::array![0.1, 0.2].view(),
            1.0,
            &mut ChaCha20Rng::seed_from_u64(1),
        )
        .unwrap();
    msg.apply(&mut sums).unwrap();
    assert_eq!(sums.observations, 1);
}
