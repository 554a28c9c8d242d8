//! The per-run diagnostics of the reproduction describe the runs they sit beside: one row per
//! trial and checkpoint, the recorder's copy of the statistics equal to the learner's (no noise:
//! `Sigma~_t - Sigma_t = 0`; the noise-free ablation: exactly the shift), and each row of the
//! posterior the learner selected from (the chosen point has the best score of `D_t`, bit for
//! bit), for replacing (JDP) and adding (local JDP) messages.

use bandit::runner::RunConfig;
use jdp_qff::experiments::diagnostics::{COLUMNS, checkpoints};
use jdp_qff::experiments::{Problem, Setting, problem_params, run};

const CONFIG: RunConfig = RunConfig {
    horizon: 24,
    n_trials: 2,
    base_seed: 9,
    shard: None,
};

fn table(setting: Setting) -> Vec<std::collections::HashMap<String, f64>> {
    let params = problem_params(Problem::Camelback, privacy::Sampler::Hardened).unwrap();
    let (batch, table) = run(Problem::Camelback, setting, &params, &CONFIG).unwrap();
    assert_eq!(batch.trials.len(), CONFIG.n_trials);
    assert_eq!(table.columns(), COLUMNS);
    let rounds = checkpoints(CONFIG.horizon);
    assert_eq!(rounds, vec![3, 6, 12, 24]);
    assert_eq!(table.rows().len(), CONFIG.n_trials * rounds.len());
    table
        .rows()
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let row: std::collections::HashMap<String, f64> = COLUMNS
                .iter()
                .map(|c| c.to_string())
                .zip(r.clone())
                .collect();
            assert_eq!(row["trial"].to_bits(), ((i / 4) as f64).to_bits());
            assert_eq!(row["round"].to_bits(), (rounds[i % 4] as f64).to_bits());
            let (b, o) = (row["boundary_chosen"], row["boundary_offered"]);
            assert!(
                (0.0..=1.0).contains(&b) && (0.0..=1.0).contains(&o),
                "{b} {o}"
            );
            row
        })
        .collect()
}

fn check_learner_row(row: &std::collections::HashMap<String, f64>) {
    let terms =
        row["beta_norm"] + row["beta_information"] + row["beta_approximation"] + row["beta_kappa"];
    assert!((row["sqrt_beta"] - row["beta_scale"] * terms).abs() <= 1e-12 * row["sqrt_beta"]);
    let chosen = row["chosen_mean"] + row["chosen_width"];
    let slack = 1e-12 * chosen.abs().max(1.0);
    assert!(
        chosen + slack >= row["mean_max"] + row["width_min"],
        "{row:?}"
    );
    assert!(
        chosen + slack >= row["mean_min"] + row["width_max"],
        "{row:?}"
    );
    assert!(row["data_eig_1"] >= row["data_eig_2"] && row["data_eig_2"] >= row["data_eig_3"]);
    assert!(row["width_min"] > 0.0 && row["width_min"] <= row["width_max"]);
}

#[test]
fn without_noise_the_recorded_statistics_are_the_data() {
    for row in table(Setting::NonPrivate) {
        check_learner_row(&row);
        assert_eq!(row["sigma_x"].to_bits(), 0f64.to_bits());
        assert_eq!(row["shift"].to_bits(), 0f64.to_bits());
        assert!(row["noise_eig_min"].abs() < 1e-10, "{row:?}");
        assert!(row["noise_eig_max"].abs() < 1e-10, "{row:?}");
        // The data Gram of t - 1 unit-norm features has trace t - 1.
        assert!(row["data_eig_1"] <= row["round"] - 1.0 + 1e-9);
    }
}

#[test]
fn the_noise_free_ablation_holds_exactly_the_shift() {
    for row in table(Setting::JdpNoiseFree {
        alpha: 1.0,
        beta: 0.1,
    }) {
        check_learner_row(&row);
        let shift = row["shift"];
        assert!(shift > 0.0);
        for k in ["noise_eig_min", "noise_eig_max"] {
            assert!((row[k] - shift).abs() <= 1e-9 * shift, "{k}: {row:?}");
        }
    }
}

#[test]
fn private_runs_record_their_noise_and_uniform_play_only_the_boundary() {
    for row in table(Setting::Jdp {
        alpha: 1.0,
        beta: 0.1,
    }) {
        check_learner_row(&row);
        assert!(row["sigma_x"] > 0.0);
    }
    // Local JDP: the recorder adds the client messages as the server does.
    for row in table(Setting::LocalJdp {
        alpha: 1.0,
        beta: 0.1,
    }) {
        check_learner_row(&row);
        assert!(row["sigma_x"] > 0.0 && row["sigma_u"] > 0.0);
    }
    for row in table(Setting::Uniform) {
        for c in COLUMNS.iter().skip(2).take(COLUMNS.len() - 4) {
            assert!(row[*c].is_nan(), "{c}");
        }
    }
}
