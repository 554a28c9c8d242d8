//! Insta snapshots of one short seeded run of each variant (JDP, local JDP, non-private) on the
//! Section 6.1 problem (values rounded), so that any change of behaviour shows up in review.

use std::sync::Arc;

use bandit::BanditError;
use bandit::objective::{DubeyEnvironment, DubeyObjective};
use bandit::runner::{RunConfig, Runner};
use jdp_qff::{JdpQffParams, WidthParams};
use kernel::QuadratureFourierFeatures;
use rand_chacha::ChaCha20Rng;
use serde::Serialize;

const HORIZON: usize = 24;
const SEED: u64 = 2021;

#[derive(Serialize)]
struct Snapshot {
    variant: &'static str,
    horizon: usize,
    actions: Vec<usize>,
    cumulative_regret: Vec<f64>,
}

fn environment(rng: &mut ChaCha20Rng) -> Result<DubeyEnvironment, BanditError> {
    DubeyEnvironment::new(DubeyObjective::sample(2, rng)?, 25)
}

/// NQFF of the paper's kernel in d = 2 with mbar = 3 (m = 18).
fn features() -> Arc<QuadratureFourierFeatures> {
    Arc::new(jdp_qff::features::nqff(2, 1.0, 3).expect("features"))
}

fn snapshot(variant: &'static str) -> Snapshot {
    let f = features();
    let t = HORIZON as u64;
    // The paper's parameters (alpha = 1, beta = 0.1, hardened sampler).
    let p = JdpQffParams::section_6_1();
    let record = match variant {
        "jdp" => Runner::new(
            RunConfig::single(HORIZON, SEED),
            &environment,
            |_: &DubeyEnvironment, _: &mut ChaCha20Rng| {
                jdp_qff::jdp(Arc::clone(&f), t, &p).map(|x| x.0)
            },
        )
        .curator(|_: &DubeyEnvironment, _: &mut ChaCha20Rng| {
            jdp_qff::jdp(Arc::clone(&f), t, &p).map(|x| x.1)
        })
        .trial(0),
        "local" => Runner::new(
            RunConfig::single(HORIZON, SEED),
            &environment,
            |_: &DubeyEnvironment, _: &mut ChaCha20Rng| {
                jdp_qff::local(Arc::clone(&f), t, &p).map(|x| x.0)
            },
        )
        .curator(|_: &DubeyEnvironment, _: &mut ChaCha20Rng| {
            jdp_qff::local(Arc::clone(&f), t, &p).map(|x| x.1)
        })
        .trial(0),
        _ => Runner::new(
            RunConfig::single(HORIZON, SEED),
            &environment,
            |_: &DubeyEnvironment, _: &mut ChaCha20Rng| {
                jdp_qff::non_private(Arc::clone(&f), WidthParams::default()).map(|x| x.0)
            },
        )
        .curator(|_: &DubeyEnvironment, _: &mut ChaCha20Rng| {
            jdp_qff::non_private(Arc::clone(&f), WidthParams::default()).map(|x| x.1)
        })
        .trial(0),
    }
    .expect("run");
    Snapshot {
        variant,
        horizon: HORIZON,
        actions: record.actions,
        cumulative_regret: record.cumulative_regret,
    }
}

#[test]
fn jdp_run_on_the_section_6_1_problem() {
    insta::assert_json_snapshot!(snapshot("jdp"), {
        ".cumulative_regret[]" => insta::rounded_redaction(6),
    });
}

#[test]
fn local_jdp_run_on_the_section_6_1_problem() {
    insta::assert_json_snapshot!(snapshot("local"), {
        ".cumulative_regret[]" => insta::rounded_redaction(6),
    });
}

#[test]
fn non_private_run_on_the_section_6_1_problem() {
    insta::assert_json_snapshot!(snapshot("non-private"), {
        ".cumulative_regret[]" => insta::rounded_redaction(6),
    });
}
