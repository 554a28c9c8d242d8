//! The exponential mechanism's law and the hardened defaults of every mechanism.

use crate::shared::ALPHA;
use ::ldp_bo::ConvertToLaplace;
use privacy::Sampler;
use privacy::distribution_tests::hoeffding_threshold;
use privacy::mechanisms::{
    ExponentialMechanism, GaussianMechanism, LaplaceMechanism, StreamShape, SubsampledGaussian,
    TreeAggregation,
};
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use verification::CheckKind;
use verification::{CheckError, CheckResult, Context, Outcome, verdict};

pub(super) fn exponential_law(ctx: &Context) -> CheckResult {
    let n = ctx.mode.pick(100_000, 1_000_000);
    let u = [0.0, 1.0, 2.0, 3.0, 0.5];
    let m = ExponentialMechanism::new(2.0, 1.0)?;
    let p = m.probabilities(&u)?;
    let mut rng = ChaCha20Rng::seed_from_u64(ctx.seed_for("privacy/mechanism/exponential-law"));
    let freq =
        |mech: &ExponentialMechanism, rng: &mut ChaCha20Rng| -> Result<Vec<f64>, CheckError> {
            let mut c = vec![0usize; u.len()];
            for _ in 0..n {
                c[mech.select(&u, rng)?] += 1;
            }
            Ok(c.into_iter().map(|x| x as f64 / n as f64).collect())
        };
    let f = freq(&m, &mut rng)?;
    let g = freq(&ExponentialMechanism::new(2.2, 1.0)?, &mut rng)?;
    let dev = |x: &[f64]| {
        x.iter()
            .zip(&p)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f64::max)
    };
    let thr = hoeffding_threshold(n, u.len(), ALPHA);
    let (null, power) = (dev(&f), dev(&g));
    Ok(Outcome::new(
        CheckKind::Distribution,
        "exponential mechanism, exact rejection sampler (hardened), utilities (0,1,2,3,0.5), eps 2, sensitivity 1",
        "all selection frequencies within the simultaneous Hoeffding threshold of softmax(eps u / (2 Delta)) at alpha = 1e-6; eps 10% too large is rejected",
        format!("n = {n}: max deviation {null:.5} vs threshold {thr:.5}; power variant {power:.5}"),
        verdict(null <= thr && power > thr),
    )
    .value("probabilities", p)
    .value("frequencies", f)
    .value("threshold", thr)
    .false_alarm(ALPHA))
}

pub(super) fn hardened_defaults(_ctx: &Context) -> CheckResult {
    let defaults = [
        ("laplace", LaplaceMechanism::new(1.0, 1.0)?.sampler()),
        (
            "convert_to_laplace",
            ConvertToLaplace::new(1.0, 1.0, 1.0)?.sampler(),
        ),
        (
            "gaussian",
            GaussianMechanism::analytic(1.0, 1e-5, 1.0)?.sampler(),
        ),
        (
            "tree_aggregation",
            TreeAggregation::new(StreamShape::Vector(2), 8, 1.0, 1.0)?.sampler(),
        ),
        (
            "exponential",
            ExponentialMechanism::new(1.0, 1.0)?.sampler(),
        ),
        (
            "subsampled_gaussian",
            SubsampledGaussian::new(0.5, 1.0, 1.0)?.sampler(),
        ),
    ];
    let bad: Vec<&str> = defaults
        .iter()
        .filter(|(_, s)| *s != Sampler::Hardened)
        .map(|(n, _)| *n)
        .collect();
    Ok(Outcome::new(
        CheckKind::Property,
        "default sampler of every data-releasing mechanism",
        "is the hardened one (textbook samplers only by explicit choice)",
        if bad.is_empty() {
            "all six mechanisms default to the hardened sampler".to_string()
        } else {
            format!("textbook by default: {bad:?}")
        },
        verdict(bad.is_empty() && Sampler::default() == Sampler::Hardened),
    ))
}
