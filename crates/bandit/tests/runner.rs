//! The runner: determinism across thread counts, regret bookkeeping, error paths.

// Exact float equality is intended here: the runner and the constructions are bit-reproducible.
#![allow(clippy::float_cmp)]

use bandit::agent::{Agent, Curator, Feedback};
use bandit::baselines::{GpUcb, IgpUcbParams, UniformRandom};
use bandit::env::{Environment, FixedSetEnvironment};
use bandit::noise::RewardModel;
use bandit::objective::{RkhsEnvironment, RkhsSynthetic};
use bandit::runner::{
    BatchResult, Role, RoundView, RunConfig, Runner, Shard, Transcript, seed_key, trial_rng,
};
use bandit::seed::{GOLDEN_GAMMA, mix, stream};
use bandit::{BanditError, InputError};
use ndarray::{ArrayView2, array};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha20Rng;

fn batch(threads: usize) -> BatchResult {
    sharded_batch(threads, None)
}

/// The 7-trial batch of [`batch`], or `shard`'s block of it.
fn sharded_batch(threads: usize, shard: Option<Shard>) -> BatchResult {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("pool");
    let config = RunConfig {
        horizon: 60,
        n_trials: 7,
        base_seed: 2021,
        shard,
    };
    pool.install(|| {
        Runner::new(
            config,
            |rng| {
                RkhsSynthetic::default()
                    .sample(rng)?
                    .environment(RewardModel::uniform(1.0)?)
            },
            |_env, _rng| Ok(UniformRandom),
        )
        .trials()
    })
    .expect("batch runs")
}

#[test]
fn same_seed_gives_identical_results_with_one_and_two_threads() {
    let one = batch(1);
    let two = batch(2);
    assert_eq!(one, two);
    // Bit-identical, not just equal as floats: compare the JSON text.
    assert_eq!(one.to_json().unwrap(), two.to_json().unwrap());
    // Different trials really are different (independent streams).
    assert_ne!(one.trials[0].actions, one.trials[1].actions);
}

#[test]
fn shards_run_contiguous_blocks_whose_concatenation_is_the_whole_batch() {
    let whole = batch(2);
    // 7 trials in 3 shards: blocks 0..2, 2..4, 4..7; in 9 shards, two blocks are empty.
    let blocks: Vec<_> = (0..3)
        .map(|i| Shard::new(i, 3).unwrap().trials(7))
        .collect();
    assert_eq!(blocks, [0..2, 2..4, 4..7]);
    let nine: Vec<usize> = (0..9)
        .map(|i| Shard::new(i, 9).unwrap().trials(7).len())
        .collect();
    assert_eq!(nine.iter().sum::<usize>(), 7);
    assert_eq!(nine.iter().filter(|&&n| n == 0).count(), 2);
    let mut trials = Vec::new();
    for (i, block) in blocks.iter().enumerate() {
        let shard = Shard::new(i, 3).unwrap();
        let part = sharded_batch(1, Some(shard));
        assert_eq!(part.config.shard, Some(shard));
        assert_eq!(part.config.trial_indices(), *block);
        trials.extend(part.trials);
    }
    assert_eq!(trials, whole.trials);
    // A whole batch's JSON does not mention shards; a shard's does.
    assert!(!whole.to_json().unwrap().contains("shard"));
    let part = sharded_batch(1, Some(Shard::new(1, 3).unwrap()));
    let back: BatchResult = serde_json::from_str(&part.to_json().unwrap()).unwrap();
    assert_eq!(back, part);
}

#[test]
fn shards_are_validated() {
    assert_eq!("2/5".parse::<Shard>().unwrap(), Shard::new(2, 5).unwrap());
    assert_eq!(Shard::new(2, 5).unwrap().to_string(), "2/5");
    for bad in ["5/5", "0/0", "3", "a/2", "1/b", "-1/2"] {
        let err = bad.parse::<Shard>().unwrap_err();
        assert!(
            matches!(err, BanditError::InvalidShard { .. }),
            "{bad}: {err}"
        );
        assert!(err.to_string().starts_with("invalid shard"), "{err}");
    }
    assert!(
        Shard::new(3, 3)
            .unwrap_err()
            .to_string()
            .contains("0 <= i < n")
    );
    // A shard read from JSON is validated too.
    let config = r#"{"horizon":1,"n_trials":2,"base_seed":0,"shard":{"index":2,"count":2}}"#;
    assert!(serde_json::from_str::<RunConfig>(config).is_err());
}

#[test]
fn regret_records_are_consistent() {
    let b = batch(2);
    for r in &b.trials {
        assert_eq!(r.horizon(), 60);
        let mut cum = 0.0;
        let mut simple = f64::INFINITY;
        for t in 0..60 {
            assert!(r.instantaneous_regret[t] >= 0.0);
            cum += r.instantaneous_regret[t];
            simple = simple.min(r.instantaneous_regret[t]);
            assert_eq!(r.cumulative_regret[t], cum);
            assert_eq!(r.simple_regret[t], simple);
        }
    }
    let mean = b.mean_cumulative_regret();
    let direct: f64 = b
        .trials
        .iter()
        .map(|r| r.cumulative_regret[59])
        .sum::<f64>()
        / 7.0;
    assert!((mean[59] - direct).abs() <= 1e-12 * direct.abs());
    let mut csv = Vec::new();
    b.write_csv(&mut csv).unwrap();
    let text = String::from_utf8(csv).unwrap();
    assert_eq!(text.lines().count(), 1 + 7 * 60);
    assert!(text.starts_with(
        "trial,round,action,reward,mean_reward,instantaneous_regret,cumulative_regret,simple_regret"
    ));
    let back: BatchResult = serde_json::from_str(&b.to_json().unwrap()).unwrap();
    assert_eq!(back, b);
}

#[test]
fn regret_curve_is_trial_zero_of_the_batch() {
    let curve = Runner::new(
        RunConfig::single(60, 2021),
        |rng| {
            RkhsSynthetic::default()
                .sample(rng)?
                .environment(RewardModel::uniform(1.0)?)
        },
        |_env, _rng| Ok(UniformRandom),
    )
    .trial(0)
    .map(|r| r.cumulative_regret)
    .unwrap();
    assert_eq!(curve, batch(1).trials[0].cumulative_regret);
}

#[test]
fn mix_is_splitmix64() {
    // Vigna's splitmix64.c from state 0: the first four outputs.
    let expected = [
        0xe220_a839_7b1d_cdaf,
        0x6e78_9e6a_a1b9_65f4,
        0x06c4_5d18_8009_454f,
        0xf88b_b8a8_724c_81ec,
    ];
    let mut state = 0u64;
    for e in expected {
        assert_eq!(mix(state), e);
        state = state.wrapping_add(GOLDEN_GAMMA);
    }
    // The key is those outputs, little-endian, from the base seed as state.
    for base in [0u64, 1, 2021, u64::MAX] {
        let key = seed_key(base);
        for (i, chunk) in key.chunks_exact(8).enumerate() {
            let z = mix(base.wrapping_add((i as u64).wrapping_mul(GOLDEN_GAMMA)));
            assert_eq!(chunk, z.to_le_bytes());
        }
    }
    // Streams 4 i + role; the trial RNG is the keyed ChaCha20 on that stream.
    assert_eq!(stream(0, Role::Environment), 0);
    assert_eq!(stream(3, Role::Curator), 14);
    let mut expected = ChaCha20Rng::from_seed(seed_key(7));
    expected.set_stream(9);
    assert_eq!(trial_rng(7, 2, Role::Agent), expected);
}

#[test]
fn seed_key_is_splitmix64() {
    // SplitMix64 from state 0: first output 0xe220a8397b1dcdaf (Vigna's reference sequence).
    let k = seed_key(0);
    assert_eq!(
        u64::from_le_bytes(k[0..8].try_into().unwrap()),
        0xe220_a839_7b1d_cdaf
    );
    assert_eq!(
        u64::from_le_bytes(k[8..16].try_into().unwrap()),
        0x6e78_9e6a_a1b9_65f4
    );
}

/// An agent that returns an action outside the decision set.
struct OutOfRange;
impl Agent for OutOfRange {
    type Message = f64;
    type Error = BanditError;
    fn select<R: Rng + ?Sized>(
        &mut self,
        d: ArrayView2<'_, f64>,
        _rng: &mut R,
    ) -> Result<usize, BanditError> {
        Ok(d.nrows())
    }
    fn observe(&mut self, _m: f64) -> Result<(), BanditError> {
        Ok(())
    }
}

#[test]
fn out_of_range_action_and_nan_reward_are_typed_errors() {
    let config = RunConfig {
        horizon: 3,
        n_trials: 1,
        base_seed: 1,
        shard: None,
    };
    let env = || {
        FixedSetEnvironment::new(
            array![[0.0], [1.0]],
            array![0.0, 1.0],
            RewardModel::gaussian(0.1).unwrap(),
        )
    };
    let err = Runner::new(config, |_| env(), |_, _| Ok(OutOfRange))
        .trials()
        .unwrap_err();
    assert!(
        matches!(
            err,
            BanditError::ActionOutOfRange {
                round: 0,
                action: 2,
                n_actions: 2
            }
        ),
        "{err}"
    );
    // A data-row reward table with a NaN is rejected when the environment is built, and so
    // are non-finite means.
    let err = RewardModel::rows(array![[1.0, f64::NAN]]).unwrap_err();
    assert!(
        matches!(err, BanditError::Input(InputError::NonFinite { .. })),
        "{err}"
    );
    let err = FixedSetEnvironment::new(
        array![[0.0]],
        array![f64::NAN],
        RewardModel::gaussian(0.1).unwrap(),
    )
    .unwrap_err();
    assert!(
        matches!(err, BanditError::Input(InputError::NonFinite { .. })),
        "{err}"
    );
    // A NaN reward produced at run time stops the trial with its round and action.
    let err = Runner::new(
        config,
        |_| {
            Ok(FaultAt {
                round: 2,
                fault: Fault::NanReward,
                inner: env()?,
                t: 0,
            })
        },
        |_, _| Ok(UniformRandom),
    )
    .trials()
    .unwrap_err();
    assert!(
        matches!(err, BanditError::NonFiniteReward { round: 2, .. }),
        "{err}"
    );
    assert!(err.to_string().contains("is not finite (NaN)"), "{err}");
}

/// What goes wrong in the faulty round.
#[derive(Clone, Copy)]
enum Fault {
    /// The reward is NaN.
    NanReward,
    /// Drawing the reward fails.
    SamplingFails,
}

/// Wraps an environment and injects `fault` in round `round`.
struct FaultAt {
    round: usize,
    fault: Fault,
    inner: FixedSetEnvironment,
    t: usize,
}

impl Environment for FaultAt {
    fn dim(&self) -> usize {
        self.inner.dim()
    }
    fn begin_round<R: Rng + ?Sized>(
        &mut self,
        round: usize,
        rng: &mut R,
    ) -> Result<(), BanditError> {
        self.t = round;
        self.inner.begin_round(round, rng)
    }
    fn decision_set(&self) -> ArrayView2<'_, f64> {
        self.inner.decision_set()
    }
    fn mean_reward(&self, action: usize) -> f64 {
        self.inner.mean_reward(action)
    }
    fn optimal_mean(&self) -> f64 {
        self.inner.optimal_mean()
    }
    fn sample_reward<R: Rng + ?Sized>(
        &mut self,
        action: usize,
        rng: &mut R,
    ) -> Result<f64, BanditError> {
        if self.t != self.round {
            return self.inner.sample_reward(action, rng);
        }
        match self.fault {
            Fault::NanReward => {
                self.inner.sample_reward(action, rng)?;
                Ok(f64::NAN)
            }
            Fault::SamplingFails => Err(BanditError::SamplingFailed {
                what: "reward",
                attempts: 1,
            }),
        }
    }
}

/// A curator whose message differs from the raw reward (`y + 1`), to tell them apart.
struct Shift;
impl Curator for Shift {
    type Message = f64;
    type Error = std::convert::Infallible;
    fn curate<R: Rng + ?Sized>(
        &mut self,
        feedback: &Feedback<'_>,
        _rng: &mut R,
    ) -> Result<f64, Self::Error> {
        Ok(feedback.reward + 1.0)
    }
}

#[test]
fn the_transcript_of_a_seeded_run_is_what_the_runner_records() {
    let config = RunConfig {
        horizon: 15,
        n_trials: 3,
        base_seed: 99,
        shard: None,
    };
    let problem = RkhsSynthetic::default();
    let make_env = problem.annotated_environments(RewardModel::uniform(1.0).unwrap());
    let make_agent = |e: &RkhsEnvironment, _: &mut ChaCha20Rng| {
        GpUcb::new(
            e.info.1.clone(),
            config.horizon,
            IgpUcbParams::with_norm_bound(e.info.0),
        )
    };
    let make_curator = |_: &_, _: &mut ChaCha20Rng| Ok::<_, std::convert::Infallible>(Shift);
    let runner = Runner::new(config, &make_env, make_agent).curator(make_curator);
    let batch = runner.trials().unwrap();
    let trial = 2;
    let mut transcript = Transcript::new();
    let record = runner.trial_observed(trial, &mut transcript).unwrap();
    let expected = &batch.trials[trial];
    // Observing changes nothing.
    assert_eq!(&record, expected);
    assert_eq!(record, runner.trial(trial).unwrap());
    // Same actions, same regret (bit for bit), raw rewards on the trusted side and the
    // curator's messages as the agent received them.
    assert_eq!(transcript.rounds.len(), config.horizon);
    assert_eq!(transcript.actions(), expected.actions);
    assert_eq!(transcript.cumulative_regret(), expected.cumulative_regret);
    assert_eq!(
        transcript.instantaneous_regret(),
        expected.instantaneous_regret
    );
    let mut env = make_env(&mut trial_rng(config.base_seed, trial, Role::Environment)).unwrap();
    env.begin_round(0, &mut ChaCha20Rng::seed_from_u64(0))
        .unwrap();
    for (t, (r, m)) in transcript
        .rounds
        .iter()
        .zip(transcript.messages())
        .enumerate()
    {
        assert_eq!(r.round, t);
        assert_eq!(r.reward, expected.rewards[t]);
        assert_eq!(r.mean_reward, expected.mean_rewards[t]);
        assert_eq!(*m, r.reward + 1.0);
        assert_eq!(r.decision_set, env.decision_set());
    }
    // A closure is an observer too.
    let mut seen = Vec::new();
    runner
        .trial_observed(trial, &mut |r: &RoundView<'_, f64>| {
            seen.push((r.action, *r.message, r.regret()))
        })
        .unwrap();
    let from_transcript: Vec<_> = transcript
        .rounds
        .iter()
        .map(|r| (r.action, r.message, r.optimal_mean - r.mean_reward))
        .collect();
    assert_eq!(seen, from_transcript);
    // Every trial observed in parallel: the same batch, each observer saw its own trial.
    let (observed, transcripts) = runner
        .trials_observed(|_| Transcript::<f64>::new())
        .unwrap();
    assert_eq!(observed, batch);
    assert_eq!(transcripts.len(), config.n_trials);
    for (i, t) in transcripts.iter().enumerate() {
        assert_eq!(t.actions(), batch.trials[i].actions, "trial {i}");
    }
    assert_eq!(transcripts[trial], transcript);
}

#[test]
fn an_environment_failure_is_reported_with_its_round() {
    let config = RunConfig {
        horizon: 4,
        n_trials: 1,
        base_seed: 3,
        shard: None,
    };
    let err = Runner::new(
        config,
        |_| {
            Ok(FaultAt {
                round: 1,
                fault: Fault::SamplingFails,
                inner: FixedSetEnvironment::new(
                    array![[0.0], [1.0]],
                    array![0.0, 1.0],
                    RewardModel::gaussian(0.1)?,
                )?,
                t: 0,
            })
        },
        |_, _| Ok(UniformRandom),
    )
    .trials()
    .unwrap_err();
    match &err {
        BanditError::Environment {
            round: Some(1),
            source,
        } => assert!(
            matches!(
                source.downcast_ref::<BanditError>(),
                Some(BanditError::SamplingFailed { .. })
            ),
            "{source}"
        ),
        other => panic!("expected an environment error at round 1, got {other}"),
    }
    assert!(
        err.to_string()
            .contains("environment failed at round Some(1)"),
        "{err}"
    );
}
