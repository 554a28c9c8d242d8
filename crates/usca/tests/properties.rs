//! Property tests (proptest) of the two facts the privacy proof rests on (docs/usca.md, "The
//! privacy proof with a sound sensitivity"): rewards are clipped to `[-B, B]` whatever they
//! are, and for any two learning data sets that differ in one user's (context, reward), with the
//! context anywhere in `C`, `mu_T` moves by at most `Delta = 2 B sup_W sigma^2` at every action
//! and context, and `0 <= sigma^2 <= 1 / tau`.

use std::sync::Arc;

use approx::assert_abs_diff_eq;
use ndarray::{Array1, array};
use proptest::prelude::*;
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use usca::problem::Instance;
use usca::sensitivity::proven_sup_sigma2;
use usca::synthetic::SyntheticProblem;
use usca::{
    LearningData, SensitivityRule, SurrogateVariance, UscaEstimator, learning_stage,
    sample_approximating_set, sensitivity,
};

/// A problem drawn from `spec` under `seed`, its approximating set of `m` points and the
/// surrogate variance for `t` rows at `tau`, and the generator after those draws.
fn surrogate(
    spec: &SyntheticProblem,
    seed: u64,
    m: usize,
    t: usize,
    tau: f64,
) -> (Instance, SurrogateVariance, ChaCha20Rng) {
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    let inst = spec.sample(&mut rng).unwrap();
    let z = sample_approximating_set(&inst.problem, m, &mut rng).unwrap();
    let v = SurrogateVariance::new(inst.kernel.clone(), z, t, tau).unwrap();
    (inst, v, rng)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Every finite reward ends in `[-B, B]`; rewards inside are kept exactly.
    #[test]
    fn rewards_are_clipped(
        ys in proptest::collection::vec(-1e6f64..1e6, 1..20),
        b in 0.01f64..10.0,
    ) {
        let n = ys.len();
        let points = ndarray::Array2::zeros((n, 2));
        let data = LearningData::new(points, Array1::from(ys.clone()), b).unwrap();
        for (got, y) in data.rewards().iter().zip(&ys) {
            prop_assert!(got.abs() <= b);
            if y.abs() <= b {
                assert_abs_diff_eq!(*got, *y, epsilon = 0.0);
            }
        }
        prop_assert_eq!(data.bound().to_bits(), b.to_bits());
    }
}

/// A problem, its surrogate variance and two learning data sets that differ in row `row % t`:
/// the same query `x_i` (drawn independently of the data), the context `c_new` anywhere in `C`
/// and the rewards `y_old` against `y_new` (Definition 2.4's neighbours).
struct Neighbours {
    inst: usca::Instance,
    v: Arc<SurrogateVariance>,
    x: LearningData,
    x_prime: LearningData,
    rng: ChaCha20Rng,
}

#[allow(clippy::too_many_arguments)] // the proptest parameters, passed through
fn neighbours(
    seed: u64,
    t: usize,
    m: usize,
    tau: f64,
    row: usize,
    c_new: f64,
    y_old: f64,
    y_new: f64,
) -> Neighbours {
    let b = 1.5;
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    let inst = SyntheticProblem::default().sample(&mut rng).unwrap();
    let data = learning_stage(&inst.problem, t, b, &mut rng).unwrap();
    let z = sample_approximating_set(&inst.problem, m, &mut rng).unwrap();
    let v = Arc::new(SurrogateVariance::new(inst.kernel.clone(), z, t, tau).unwrap());
    let i = row % t;
    let mut points = data.points().to_owned();
    let mut y = data.rewards().to_owned();
    y[i] = y_old;
    let x = LearningData::new(points.clone(), y.clone(), b).unwrap();
    let dx = inst.problem.actions().dim();
    points[[i, dx]] = c_new;
    y[i] = y_new;
    let x_prime = LearningData::new(points, y, b).unwrap();
    Neighbours {
        inst,
        v,
        x,
        x_prime,
        rng,
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// Two data sets differing in row `i` (context anywhere in `C`, rewards anywhere in
    /// `[-B, B]`): `abs(mu_T - mu'_T) <= 2 B sup sigma^2 <= 2 B / tau` at every action for a
    /// random context, and `0 <= sigma^2 <= 1 / tau` there. (With `Delta / 8` in its place the
    /// property fails within the 24 cases; how close random pairs come to `Delta` is the
    /// business of the verify audit `usca/audit/prediction-stage`, which builds the worst pair.)
    #[test]
    fn one_user_moves_mu_by_at_most_delta(
        seed in 0u64..1_000_000,
        t in 2usize..40,
        m in 1usize..60,
        tau in 0.05f64..4.0,
        row in 0usize..40,
        c_new in 0.0f64..=1.0,
        y_old in -1.5f64..=1.5,
        y_new in -1.5f64..=1.5,
        c_query in 0.0f64..=1.0,
    ) {
        let b = 1.5;
        let Neighbours { inst, v, x, x_prime, .. } =
            neighbours(seed, t, m, tau, row, c_new, y_old, y_new);
        let q = inst.problem.joint_all(array![c_query].view());
        let mu = UscaEstimator::fit(v.clone(), x).unwrap().mu(q.view()).unwrap();
        let mu_prime = UscaEstimator::fit(v.clone(), x_prime).unwrap().mu(q.view()).unwrap();
        let sup = proven_sup_sigma2(&v).unwrap();
        prop_assert!(sup <= 1.0 / tau * (1.0 + 1e-12));
        let delta = 2.0 * b * sup;
        for (a, a_prime) in mu.iter().zip(&mu_prime) {
            prop_assert!((a - a_prime).abs() <= delta * (1.0 + 1e-9),
                "|mu - mu'| = {} > Delta = {delta}", (a - a_prime).abs());
        }
        for s2 in v.sigma2(q.view()).unwrap() {
            prop_assert!((0.0..=1.0 / tau * (1.0 + 1e-12)).contains(&s2), "sigma^2 = {s2}");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// The query-context rule: the same neighbours as above move `mu_T(., c)` by at most
    /// `Delta(c) = 2 B S min(max_x sigma(x, c), S)` at the query context `c`, which never exceeds
    /// the context-free `2 B S^2`. (With `Delta(c) / 8` in its place the property fails within
    /// the 24 cases.)
    #[test]
    fn one_user_moves_mu_at_the_query_context_by_at_most_delta_c(
        seed in 0u64..1_000_000,
        t in 2usize..40,
        m in 1usize..60,
        tau in 0.05f64..4.0,
        row in 0usize..40,
        c_new in 0.0f64..=1.0,
        y_old in -1.5f64..=1.5,
        y_new in -1.5f64..=1.5,
        c_query in 0.0f64..=1.0,
        certified in any::<bool>(),
    ) {
        let b = 1.5;
        let Neighbours { inst, v, x, x_prime, mut rng } =
            neighbours(seed, t, m, tau, row, c_new, y_old, y_new);
        let c = array![c_query];
        // The proven S, or the certified one (a 16-point grid of C).
        let points_per_dim = certified.then_some(16);
        let global = sensitivity(
            SensitivityRule::QueryContext { points_per_dim, refinement_contexts: if certified { 64 } else { 0 } },
            &v,
            &inst.problem,
            Some(&inst.kernel),
            b,
            &mut rng,
        )
        .unwrap();
        let at_c = global.at_context(&v, &inst.problem, c.view()).unwrap();
        let delta_c = at_c.sensitivity();
        prop_assert!(delta_c <= global.sensitivity());
        prop_assert!(delta_c > 0.0);
        let q = inst.problem.joint_all(c.view());
        // sigma_c: the largest computed sigma^2, raised by the rounding margin (usca::rounding),
        // or the cap S where the margin or the value is unusable.
        let max_s2 = v.sigma2(q.view()).unwrap().iter().fold(0.0f64, |a, &s| a.max(s));
        let sigma_c = match usca::rounding::RoundingMargin::new(&v) {
            Some(margin) if max_s2.is_normal() => margin.upper(max_s2).sqrt(),
            _ => global.sup_sigma2().sqrt(),
        };
        prop_assert!(sigma_c >= max_s2.sqrt());
        prop_assert_eq!(at_c.context_sigma().map(f64::to_bits), Some(sigma_c.to_bits()));
        let mu = UscaEstimator::fit(v.clone(), x).unwrap().mu(q.view()).unwrap();
        let mu_prime = UscaEstimator::fit(v.clone(), x_prime).unwrap().mu(q.view()).unwrap();
        for (a, a_prime) in mu.iter().zip(&mu_prime) {
            prop_assert!((a - a_prime).abs() <= delta_c * (1.0 + 1e-9),
                "|mu - mu'| = {} > Delta(c) = {delta_c}", (a - a_prime).abs());
        }
    }
}

/// The prediction stage places a query-context bound at its own context (and leaves the
/// context-free rules alone), and `Usca::probabilities` uses the bound of the context asked.
#[test]
fn the_stage_and_the_predictor_use_the_sensitivity_of_their_context() {
    use usca::{PredictionStage, Usca, UscaParams};
    let b = 1.5;
    let (inst, v, mut rng) = surrogate(&SyntheticProblem::default(), 7, 16, 64, 1.0);
    let v = Arc::new(v);
    let rule = SensitivityRule::QueryContext {
        points_per_dim: None,
        refinement_contexts: 0,
    };
    let global = sensitivity(rule, &v, &inst.problem, None, b, &mut rng).unwrap();
    let proven = sensitivity(
        SensitivityRule::Proven,
        &v,
        &inst.problem,
        None,
        b,
        &mut rng,
    )
    .unwrap();
    assert_eq!(
        global.sensitivity().to_bits(),
        proven.sensitivity().to_bits()
    );
    let (c1, c2) = (array![0.1], array![0.8]);
    let at = |c: &Array1<f64>| global.at_context(&v, &inst.problem, c.view()).unwrap();
    assert_ne!(
        at(&c1).sensitivity().to_bits(),
        at(&c2).sensitivity().to_bits()
    );
    for c in [&c1, &c2] {
        let stage =
            PredictionStage::new(v.clone(), inst.problem.clone(), c.clone(), 1.0, global).unwrap();
        assert_eq!(
            stage.bound().sensitivity().to_bits(),
            at(c).sensitivity().to_bits()
        );
        assert!(stage.bound().sensitivity() < global.sensitivity());
        let plain =
            PredictionStage::new(v.clone(), inst.problem.clone(), c.clone(), 1.0, proven).unwrap();
        assert_eq!(plain.bound(), &proven);
    }
    assert!(
        global
            .at_context(&v, &inst.problem, array![1.5].view())
            .is_err()
    );
    // A bound is refused with another Z (or tau), and the certified S needs the joint kernel.
    let other_z = sample_approximating_set(&inst.problem, 16, &mut rng).unwrap();
    let other = SurrogateVariance::new(inst.kernel.clone(), other_z, 64, 1.0).unwrap();
    assert!(global.at_context(&other, &inst.problem, c1.view()).is_err());
    let other_tau = SurrogateVariance::new(
        inst.kernel.clone(),
        v.approximating_set().to_owned(),
        64,
        2.0,
    )
    .unwrap();
    assert!(
        global
            .at_context(&other_tau, &inst.problem, c1.view())
            .is_err()
    );
    assert!(
        PredictionStage::new(
            Arc::new(other),
            inst.problem.clone(),
            c1.clone(),
            1.0,
            proven
        )
        .is_err()
    );
    let certified_rule = SensitivityRule::QueryContext {
        points_per_dim: Some(8),
        refinement_contexts: 64,
    };
    assert!(sensitivity(certified_rule, &v, &inst.problem, None, b, &mut rng).is_err());

    let params = UscaParams::query_context(None);
    let mut coins = ChaCha20Rng::seed_from_u64(8);
    let usca = Usca::learn(
        &inst.problem,
        inst.kernel.clone(),
        None,
        params,
        64,
        &mut rng,
        &mut coins,
    )
    .unwrap();
    for c in [&c1, &c2] {
        let delta = usca.sensitivity_at(c.view()).unwrap().sensitivity();
        let u = usca.utilities(c.view()).unwrap().to_vec();
        let want = privacy::mechanisms::ExponentialMechanism::new(1.0, delta)
            .unwrap()
            .probabilities(&u)
            .unwrap();
        assert_eq!(usca.probabilities(c.view(), 1.0).unwrap(), want);
        assert!(delta < usca.summary().bound.sensitivity());
    }
}

/// `SensitivityBound::as_query_context` of a proven or certified bound is the query-context
/// bound the rule computes with the same `S` (bit for bit), and a paper's estimate has none.
#[test]
fn a_bound_turned_to_the_query_context_is_the_rule_s_own() {
    let b = 1.5;
    let (inst, v, mut rng) = surrogate(&SyntheticProblem::default(), 8, 32, 64, 1.0);
    let mut rule = |r| sensitivity(r, &v, &inst.problem, Some(&inst.kernel), b, &mut rng).unwrap();
    for (from, to) in [
        (
            SensitivityRule::Proven,
            SensitivityRule::QueryContext {
                points_per_dim: None,
                refinement_contexts: 0,
            },
        ),
        (
            SensitivityRule::Certified {
                points_per_dim: 16,
                refinement_contexts: 64,
            },
            SensitivityRule::QueryContext {
                points_per_dim: Some(16),
                refinement_contexts: 64,
            },
        ),
    ] {
        let turned = rule(from).as_query_context().unwrap();
        let own = rule(to);
        assert_eq!(turned, own);
        assert_eq!(turned.as_query_context().unwrap(), own);
        let c = array![0.3];
        assert_eq!(
            turned.at_context(&v, &inst.problem, c.view()).unwrap(),
            own.at_context(&v, &inst.problem, c.view()).unwrap()
        );
    }
    assert!(
        rule(SensitivityRule::PaperEstimate { samples: 10 })
            .as_query_context()
            .is_none()
    );
}

/// The batched `at_contexts` gives every context the `Delta(c)` of `at_context` (to rounding,
/// with and without the factored kernel), leaves the context-free rules alone and refuses a
/// context outside `C`.
#[test]
fn the_batched_query_context_bound_is_the_one_at_each_context() {
    let b = 1.5;
    let spec = SyntheticProblem {
        context_dim: 2,
        ..SyntheticProblem::default()
    };
    let (inst, v, mut rng) = surrogate(&spec, 9, 48, 64, 0.5);
    let qc = sensitivity(
        SensitivityRule::QueryContext {
            points_per_dim: Some(6),
            refinement_contexts: 64,
        },
        &v,
        &inst.problem,
        Some(&inst.kernel),
        b,
        &mut rng,
    )
    .unwrap();
    let contexts = inst.problem.contexts().sample(30, &mut rng);
    for joint in [Some(inst.kernel.as_ref()), None] {
        let batched = qc
            .at_contexts(&v, &inst.problem, joint, contexts.view())
            .unwrap();
        assert_eq!(batched.len(), 30);
        for (c, got) in contexts.rows().into_iter().zip(&batched) {
            let one = qc.at_context(&v, &inst.problem, c).unwrap();
            assert!(
                (got.sensitivity() - one.sensitivity()).abs() <= 1e-12 * one.sensitivity(),
                "{} vs {}",
                got.sensitivity(),
                one.sensitivity()
            );
            assert!(got.sensitivity() < qc.sensitivity());
        }
    }
    let proven = sensitivity(
        SensitivityRule::Proven,
        &v,
        &inst.problem,
        None,
        b,
        &mut rng,
    )
    .unwrap();
    let same = proven
        .at_contexts(&v, &inst.problem, None, contexts.view())
        .unwrap();
    assert!(same.iter().all(|s| *s == proven));
    let outside = ndarray::array![[0.5, 0.5], [0.5, 1.5]];
    assert!(
        qc.at_contexts(&v, &inst.problem, None, outside.view())
            .is_err()
    );
}

/// The certificate and the query-context bound carry the rounding margin of `usca::rounding`:
/// both are strictly above what the computed `sigma^2` alone gives, by at most the margin.
#[test]
fn the_bounds_carry_the_rounding_margin() {
    use usca::certificate::certificate;
    use usca::rounding::RoundingMargin;
    let b = 1.5;
    let (inst, v, mut rng) = surrogate(&SyntheticProblem::default(), 10, 256, 4096, 1.0);
    let margin = RoundingMargin::new(&v).unwrap();
    assert!(margin.absolute > 1e-7, "{}", margin.absolute);
    let cert = certificate(&v, &inst.problem, inst.kernel.as_ref(), 16, 0).unwrap();
    assert_eq!(cert.binding_sigma.to_bits(), cert.grid_max_sigma.to_bits());
    assert_eq!(cert.rounding, Some(margin.absolute));
    let with_margin = ((cert.grid_max_sigma.powi(2) + margin.absolute).sqrt() + cert.slack).powi(2);
    assert!(cert.bound() >= with_margin);
    assert!(
        cert.bound()
            < (cert.grid_max_sigma.powi(2) + 2.0 * margin.absolute)
                .sqrt()
                .powi(2)
                + 1.0
    );
    let qc = sensitivity(
        SensitivityRule::QueryContext {
            points_per_dim: None,
            refinement_contexts: 0,
        },
        &v,
        &inst.problem,
        None,
        b,
        &mut rng,
    )
    .unwrap();
    let c = array![0.6];
    let s2 = v.sigma2(inst.problem.joint_all(c.view()).view()).unwrap();
    let computed = s2.iter().copied().fold(0.0, f64::max);
    let placed = qc.at_context(&v, &inst.problem, c.view()).unwrap();
    let sigma_c = placed.context_sigma().unwrap();
    assert!(
        sigma_c * sigma_c >= computed + margin.absolute,
        "{sigma_c} vs {}",
        computed.sqrt()
    );
    assert!(sigma_c * sigma_c <= computed + 2.0 * margin.absolute);
}

/// The prediction stage's sensitivity ranges over rewards clipped to its `B` and points of
/// `X x C` only, so it refuses data clipped to a larger bound or with a point outside, and
/// accepts data clipped to `B` or tighter.
#[test]
fn the_prediction_stage_refuses_data_beyond_its_sensitivity() {
    use ndarray::Array2;
    use usca::{LearningData, PredictionStage};
    let b = 1.5;
    let (inst, v, mut rng) = surrogate(&SyntheticProblem::default(), 9, 16, 2, 1.0);
    let v = Arc::new(v);
    let proven = sensitivity(
        SensitivityRule::Proven,
        &v,
        &inst.problem,
        None,
        b,
        &mut rng,
    )
    .unwrap();
    let stage = PredictionStage::new(
        Arc::clone(&v),
        inst.problem.clone(),
        array![0.4],
        1.0,
        proven,
    )
    .unwrap();
    // T = 2 points of W: action 0 and the last action, at contexts 0.2 and 0.9.
    let actions = inst.problem.actions().points();
    let last = actions.nrows() - 1;
    let points = Array2::from_shape_fn((2, 2), |(r, k)| match (r, k) {
        (0, 0) => actions[[0, 0]],
        (1, 0) => actions[[last, 0]],
        (0, _) => 0.2,
        _ => 0.9,
    });
    let data = |bound: f64, points: Array2<f64>| {
        LearningData::new(points, array![0.3, -0.7], bound).unwrap()
    };
    for ok in [b, 1.0, 0.7] {
        assert!(
            stage.check_data(&data(ok, points.clone())).is_ok(),
            "B = {ok}"
        );
    }
    assert!(stage.check_data(&data(1.6, points.clone())).is_err());
    // The utilities are the estimator's mean at the stage's context, one per action, and the
    // probabilities the exponential mechanism's on them.
    let d = data(b, points.clone());
    let u = stage.utilities(&d).unwrap();
    let fitted = UscaEstimator::fit(Arc::clone(&v), d.clone()).unwrap();
    let mu = fitted
        .mu(inst.problem.joint_all(array![0.4].view()).view())
        .unwrap();
    assert_eq!(u.len(), actions.nrows());
    assert_eq!(u, mu.to_vec());
    assert_eq!(
        stage.probabilities(&d).unwrap(),
        stage.mechanism().probabilities(&u).unwrap()
    );
    // A bound remembers the rule it came from (the stage refuses the paper's estimate by it).
    assert_eq!(proven.rule(), SensitivityRule::Proven);
    let query = SensitivityRule::QueryContext {
        points_per_dim: None,
        refinement_contexts: 0,
    };
    let at_query = sensitivity(query, &v, &inst.problem, None, b, &mut rng).unwrap();
    assert_eq!(at_query.rule(), query);
    // Placed at a context below the cap, Delta(c) = 2 B S sigma_c rounded upwards by a few
    // units of roundoff (never downwards).
    let placed = at_query
        .at_context(&v, &inst.problem, array![0.4].view())
        .unwrap();
    let (cap, sigma_c) = (placed.sup_sigma2().sqrt(), placed.context_sigma().unwrap());
    assert!(sigma_c < cap, "{sigma_c} vs the cap {cap}");
    let product = 2.0 * b * cap * sigma_c;
    assert!(
        placed.sensitivity() > product && placed.sensitivity() <= product * (1.0 + 1e-14),
        "{} vs {product}",
        placed.sensitivity()
    );
    let mut outside = points;
    outside[[1, 1]] = 1.2;
    assert!(stage.check_data(&data(b, outside)).is_err());
}
