//! The runner's records do not depend on the thread count.

use bandit::baselines::{GpUcb, IgpUcbParams};
use bandit::noise::RewardModel;
use bandit::objective::RkhsSynthetic;
use bandit::runner::{RunConfig, Runner};
use verification::CheckKind;
use verification::{CheckError, CheckResult, Context, Outcome, verdict};

pub(super) fn thread_invariance(ctx: &Context) -> CheckResult {
    let config = RunConfig {
        horizon: 40,
        n_trials: 6,
        base_seed: ctx.seed_for("bandit/runner/thread-invariance"),
        shard: None,
    };
    let problem = RkhsSynthetic::matern();
    let env = problem.annotated_environments(RewardModel::student_t(3.0, 1.0)?);
    let run = |threads: usize| -> Result<String, CheckError> {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()?;
        let b = pool.install(|| {
            Runner::new(config, &env, |en, _| {
                GpUcb::new(
                    en.info.1.clone(),
                    config.horizon,
                    IgpUcbParams::with_norm_bound(en.info.0),
                )
            })
            .trials()
        })?;
        b.to_json().map_err(CheckError::from)
    };
    let (one, two) = (run(1)?, run(2)?);
    Ok(Outcome::new(
        CheckKind::Property,
        "the seeded batch runner (GP-UCB, Matérn 5/2 RKHS synthetic, Student-t(3) noise, 6 trials x 40 rounds)",
        "the JSON result records are byte-identical on a rayon pool of 1 thread and of 2 threads",
        format!("{} bytes each, identical: {}", one.len(), one == two),
        verdict(one == two),
    ))
}
