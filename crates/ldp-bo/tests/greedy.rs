//! The `greedy` control option: the whole UCB width is 0, and the default keeps it.

use std::sync::Arc;

use bandit::agent::Agent;
use kernel::{Kernel, SquaredExponential};
use ldp_bo::{CtlCurator, Preset, TgpParams, TgpUcb};
use ndarray::Array2;
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;

#[test]
fn greedy_tgp_plays_with_width_zero_and_the_default_does_not() {
    let arms = Array2::from_shape_fn((5, 1), |(i, _)| i as f64 / 4.0);
    let k: Arc<dyn Kernel> = Arc::new(SquaredExponential::isotropic(0.2).unwrap());
    let c = CtlCurator::new(1.0, 1.0, 1.0).unwrap();
    let mut rng = ChaCha20Rng::seed_from_u64(3);
    let default = TgpParams::of(Preset::Practical);
    assert!(!default.greedy);
    let mut ucb = TgpUcb::private(k.clone(), arms.view(), &c, default).unwrap();
    ucb.select(arms.view(), &mut rng).unwrap();
    assert!(ucb.last_beta() > 0.0);
    let greedy = TgpParams {
        greedy: true,
        ..default
    };
    let mut g = TgpUcb::private(k, arms.view(), &c, greedy).unwrap();
    g.select(arms.view(), &mut rng).unwrap();
    assert_eq!(g.last_beta().to_bits(), 0f64.to_bits());
}
