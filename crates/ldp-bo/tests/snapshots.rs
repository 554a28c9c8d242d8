//! Insta snapshots of one seeded short run of each of the six algorithms (values rounded), so
//! that any change of behaviour shows up in review.

use bandit::runner::RunConfig;
use ldp_bo::Preset;
use ldp_bo::experiments::{Algorithm, AlgorithmParams, Setting, Source, panels, run};
use serde::Serialize;

#[derive(Serialize)]
struct Snapshot {
    algorithm: &'static str,
    horizon: usize,
    actions: Vec<usize>,
    cumulative_regret: Vec<f64>,
}

fn snapshot(setting: Setting, figure: &str) -> Vec<Snapshot> {
    let panels = panels();
    let fig = panels
        .iter()
        .find(|p| p.id() == figure)
        .expect("figure exists")
        .problem();
    let source =
        Source::load(fig.problem, &bandit::dataset::default_data_dir()).expect("synthetic source");
    let horizon = 40;
    let config = RunConfig {
        horizon,
        n_trials: 1,
        base_seed: 17,
        shard: None,
    };
    Algorithm::ALL
        .iter()
        .map(|&alg| {
            let batch = run(
                &source,
                setting,
                alg,
                &AlgorithmParams::of(Preset::Practical),
                &config,
            )
            .expect("run");
            let t = &batch.trials[0];
            Snapshot {
                algorithm: alg.name(setting),
                horizon,
                actions: t.actions.clone(),
                cumulative_regret: t.cumulative_regret.clone(),
            }
        })
        .collect()
}

#[test]
fn private_algorithms_on_the_synthetic_se_problem() {
    insta::assert_json_snapshot!(snapshot(Setting::Ldp { epsilon: 1.0 }, "fig3a"), {
        "[].cumulative_regret[]" => insta::rounded_redaction(6),
    });
}

#[test]
fn non_private_algorithms_on_the_synthetic_se_problem() {
    insta::assert_json_snapshot!(snapshot(Setting::NonPrivate, "fig2d"), {
        "[].cumulative_regret[]" => insta::rounded_redaction(6),
    });
}
