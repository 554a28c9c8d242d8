//! Insta snapshots of one short seeded federated run, private (DP-FTS-DE) and non-private
//! (FTS-DE), on the synthetic problem (App. B.1.1) cut to its first 12 agents, T = 6, P = 2
//! (values rounded), so that any change of behaviour shows up in review.

use dp_fts_de::{Choice, DpFtsDeParams, FederatedProblem, beta_schedule, run_federation};
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use serde::Serialize;

const AGENTS: usize = 12;
const ITERATIONS: usize = 6;
const SEED: u64 = 2021;

#[derive(Serialize)]
struct Loss {
    releases: u64,
    epsilon_paper: f64,
    order: f64,
}

#[derive(Serialize)]
struct Snapshot {
    variant: &'static str,
    agents: usize,
    iterations: usize,
    /// `actions[n]`: agent n's queries, the N_init = 10 initial points first.
    actions: Vec<Vec<usize>>,
    /// Averaged over agents, after each of the N_init + T queries.
    mean_simple_regret: Vec<f64>,
    privacy: Vec<Loss>,
    clipped_fraction: Option<f64>,
    /// `choices[t-1]`: one letter per agent, T = Thompson sample, S = the server's vectors.
    choices: Vec<String>,
}

fn snapshot(variant: &'static str) -> Snapshot {
    let problem = FederatedProblem::synthetic(200, &mut ChaCha20Rng::seed_from_u64(SEED))
        .expect("problem")
        .first_agents(AGENTS)
        .expect("12 agents");
    let base = DpFtsDeParams {
        iterations: ITERATIONS,
        ..DpFtsDeParams::synthetic()
    };
    let params = match variant {
        "dp-fts-de" => base,
        _ => base.fts_de(2),
    };
    let beta = beta_schedule(&problem, &params).expect("beta");
    let record = run_federation(&problem, &params, beta, SEED, 0).expect("run");
    let letter = |c: &Choice| match c {
        Choice::Initial => 'I',
        Choice::Thompson => 'T',
        Choice::Server => 'S',
        Choice::Replaced => 'R',
    };
    Snapshot {
        variant,
        agents: AGENTS,
        iterations: ITERATIONS,
        actions: record.agents.iter().map(|a| a.actions.clone()).collect(),
        mean_simple_regret: record.mean_simple_regret(),
        privacy: record
            .privacy
            .iter()
            .map(|l| Loss {
                releases: l.releases,
                epsilon_paper: l.epsilon_paper,
                order: l.order,
            })
            .collect(),
        clipped_fraction: record.clipped_fraction,
        choices: record
            .choices
            .iter()
            .map(|row| row.iter().map(letter).collect())
            .collect(),
    }
}

#[test]
fn dp_fts_de_run_on_the_synthetic_problem() {
    insta::assert_json_snapshot!(snapshot("dp-fts-de"), {
        ".mean_simple_regret[]" => insta::rounded_redaction(6),
        ".privacy[].epsilon_paper" => insta::rounded_redaction(6),
        ".clipped_fraction" => insta::rounded_redaction(6),
    });
}

#[test]
fn fts_de_run_on_the_synthetic_problem() {
    insta::assert_json_snapshot!(snapshot("fts-de"), {
        ".mean_simple_regret[]" => insta::rounded_redaction(6),
    });
}
