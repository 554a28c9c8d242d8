//! The learner plumbing of `bandit::policy`: the tie rule (with a power check), and the
//! select/observe guard of the bandit agents.

use bandit::agent::Agent;
use bandit::baselines::{GpThompson, GpUcb, IgpUcbParams, UniformRandom};
use bandit::policy::{argmax, ucb_argmax};
use bandit::{BanditError, InputError};
use kernel::SquaredExponential;
use ndarray::{Array1, Array2, array};
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;

/// Draws of the tie test.
const DRAWS: usize = 3000;

/// Whether `rule` picks each of the `tied` indices with probability `1/|tied|` and never
/// another one. Test: `DRAWS` independent picks; for each tied index the frequency must be
/// within `t` of `1/m`, with `t = sqrt(ln(2 m / 1e-6) / (2 DRAWS))` (Hoeffding, union bound over
/// the `m` indices: false-failure probability at most 1e-6). For `m = 3`, `t = 0.051`.
fn uniform_among_ties(
    mut rule: impl FnMut(&mut ChaCha20Rng) -> usize,
    tied: &[usize],
    seed: u64,
) -> Result<(), String> {
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    let mut counts = vec![0usize; tied.iter().max().map_or(0, |&m| m + 1)];
    for _ in 0..DRAWS {
        let a = rule(&mut rng);
        if !tied.contains(&a) {
            return Err(format!("picked {a}, not one of the maxima {tied:?}"));
        }
        counts[a] += 1;
    }
    let m = tied.len() as f64;
    let t = ((2.0 * m / 1e-6).ln() / (2.0 * DRAWS as f64)).sqrt();
    for &i in tied {
        let p = counts[i] as f64 / DRAWS as f64;
        if (p - 1.0 / m).abs() >= t {
            return Err(format!(
                "index {i} picked with frequency {p}, outside 1/{m} +- {t}"
            ));
        }
    }
    Ok(())
}

/// The first-index rule the baselines used before: what the power check must reject.
fn first_index(scores: &Array1<f64>) -> usize {
    let mut best = 0;
    for (i, &s) in scores.iter().enumerate() {
        if s > scores[best] {
            best = i;
        }
    }
    best
}

#[test]
fn ties_are_broken_uniformly_and_a_first_index_rule_fails_the_same_test() {
    // Three bit-equal maxima at 1, 2 and 4.
    let scores = array![0.5, 1.0, 1.0, 0.2, 1.0];
    let tied = [1, 2, 4];
    uniform_among_ties(|rng| argmax(scores.view(), rng).unwrap(), &tied, 1).unwrap();
    // The UCB form: mean + 2 sqrt(variance) = [1, 1, 0.5, 1, 0.9] (bit-equal: 0 + 2 * 0.5).
    let mean = array![0.0, 0.0, 0.5, 0.0, 0.9];
    let variance = array![0.25, 0.25, 0.0, 0.25, 0.0];
    uniform_among_ties(
        |rng| ucb_argmax(mean.view(), variance.view(), 2.0, rng).unwrap(),
        &[0, 1, 3],
        2,
    )
    .unwrap();
    // Power: the first-index rule (always index 1) is rejected by the same test.
    assert!(uniform_among_ties(|_| first_index(&scores), &tied, 1).is_err());
    // GP-UCB's first round: every candidate ties under the prior; the choice of a fresh agent
    // is uniform over the 4 candidates.
    let d = Array2::from_shape_fn((4, 1), |(i, _)| i as f64 / 3.0);
    let kernel = SquaredExponential::isotropic(0.2).unwrap();
    let params = IgpUcbParams::default();
    uniform_among_ties(
        |rng| {
            GpUcb::new(kernel.clone(), 50, params)
                .unwrap()
                .select(d.view(), rng)
                .unwrap()
        },
        &[0, 1, 2, 3],
        3,
    )
    .unwrap();
}

#[test]
fn near_ties_are_ordered_as_computed() {
    let mut rng = ChaCha20Rng::seed_from_u64(0);
    let next = 1.0f64.next_up();
    for _ in 0..100 {
        assert_eq!(argmax(array![1.0, next, 1.0].view(), &mut rng).unwrap(), 1);
    }
}

#[test]
fn observe_before_select_is_a_typed_error_for_the_bandit_agents() {
    let d = Array2::from_shape_fn((5, 1), |(i, _)| i as f64 / 4.0);
    let kernel = SquaredExponential::isotropic(0.2).unwrap();
    let params = IgpUcbParams::default();
    let mut rng = ChaCha20Rng::seed_from_u64(4);
    fn cycle<A: Agent<Message = f64, Error = BanditError>>(
        mut agent: A,
        d: &Array2<f64>,
        rng: &mut ChaCha20Rng,
    ) {
        assert!(matches!(
            agent.observe(0.0),
            Err(BanditError::ObserveBeforeSelect)
        ));
        agent.select(d.view(), rng).unwrap();
        // The later of two selections is the one observed (Reselect::Replace).
        agent.select(d.view(), rng).unwrap();
        agent.observe(0.3).unwrap();
        assert!(matches!(
            agent.observe(0.3),
            Err(BanditError::ObserveBeforeSelect)
        ));
        agent.select(d.view(), rng).unwrap();
        assert!(matches!(
            agent.observe(f64::NAN),
            Err(BanditError::Input(InputError::NonFinite { .. }))
        ));
    }
    cycle(
        GpUcb::new(kernel.clone(), 50, params).unwrap(),
        &d,
        &mut rng,
    );
    cycle(GpThompson::new(kernel, 50, params).unwrap(), &d, &mut rng);
    // UniformRandom is stateless: no choice to attach a message to, so any message is
    // accepted (documented on the type).
    assert!(UniformRandom.observe(0.0).is_ok());
}

#[test]
fn agents_refuse_bad_decision_sets() {
    let kernel = SquaredExponential::isotropic(0.2).unwrap();
    let params = IgpUcbParams::default();
    let mut rng = ChaCha20Rng::seed_from_u64(4);
    let empty = Array2::<f64>::zeros((0, 1));
    let nan = array![[0.0], [f64::NAN]];
    let mut ucb = GpUcb::new(kernel.clone(), 50, params).unwrap();
    let mut ts = GpThompson::new(kernel, 50, params).unwrap();
    assert!(matches!(
        ucb.select(empty.view(), &mut rng),
        Err(BanditError::Input(InputError::Empty { .. }))
    ));
    assert!(matches!(
        ts.select(nan.view(), &mut rng),
        Err(BanditError::Input(InputError::NonFinite {
            index: Some(1),
            ..
        }))
    ));
    assert!(matches!(
        UniformRandom.select(empty.view(), &mut rng),
        Err(BanditError::Input(InputError::Empty { .. }))
    ));
}
