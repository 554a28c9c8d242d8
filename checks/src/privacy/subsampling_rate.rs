//! The rate at which [`privacy::mechanisms::SubsampledGaussian`] includes records, counted from
//! its releases and held against the `q` its claim states (issue 31: "a subsampling rate
//! different from the one the accountant is told").
//!
//! # What is recomputed
//! The `q` of the claim, from its one-round RDP curve at order 2 (Mironov, Talwar & Zhang 2019,
//! Sec. 3.3): `A_2 = (1-q)^2 + 2q(1-q) + q^2 e^(1/z^2) = 1 + q^2 (e^(1/z^2) - 1)`, so
//! `q = sqrt(expm1(RDP(2)) / expm1(1/z^2))` with `z` the mechanism's noise multiplier.
//!
//! # What is measured
//! Inclusions, by coupled releases (`crate::shared::count_inclusions`): `N = 50` records, one
//! weight column of ones, 2000 rounds, 100 000 Bernoulli trials; compared with the claim's `q` by
//! an exact two-sided binomial test at [`ALPHA`] (`crate::shared::RateJudgement`).

use crate::shared::{ALPHA, RateJudgement, RateSides, RateVerdict, count_inclusions};
use ndarray::Array2;
use privacy::Guarantee;
use privacy::mechanisms::subsampled::SubsampledGaussian;
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use verification::{CheckError, CheckKind, CheckResult, Context, Outcome, Verdict};

/// Records (and coordinates).
const RECORDS: usize = 50;
/// Rounds released (twice each, coupled).
const ROUNDS: usize = 2000;
/// `(q, S, z)`.
const SETTINGS: (f64, f64, f64) = (0.25, 1.0, 1.0);

/// The `q` the mechanism's claim uses, from its RDP at order 2.
pub(super) fn claimed_q(m: &SubsampledGaussian) -> Result<f64, CheckError> {
    let Guarantee::RdpCurve { orders, epsilons } = m.claim().guarantee else {
        return Err(CheckError::msg(
            "the subsampled Gaussian does not claim an RDP curve",
        ));
    };
    let i = orders
        .iter()
        .position(|&a| (a - 2.0).abs() < 1e-12)
        .ok_or_else(|| CheckError::msg("no order 2 in the claim"))?;
    let z = m.noise_multiplier();
    Ok((epsilons[i].exp_m1() / (1.0 / (z * z)).exp_m1()).sqrt())
}

/// Inclusions of `m` over the coupled rounds: `(included, trials)`.
fn count(m: &SubsampledGaussian, seed: u64) -> Result<(u64, u64), CheckError> {
    let weights = Array2::<f64>::ones((RECORDS, 1));
    let zero = Array2::<f64>::zeros((RECORDS, RECORDS));
    let ind = Array2::<f64>::eye(RECORDS);
    // ||phi_n|| / q with the q the mechanism divides by (its own): only the order of magnitude
    // matters for the classification.
    let expected = vec![1.0 / m.q(); RECORDS];
    let (mut k, mut n) = (0, 0);
    for r in 0..ROUNDS {
        let s = seed.wrapping_add(r as u64);
        let a = m.aggregate(
            zero.view(),
            weights.view(),
            &mut ChaCha20Rng::seed_from_u64(s),
        )?;
        let b = m.aggregate(
            ind.view(),
            weights.view(),
            &mut ChaCha20Rng::seed_from_u64(s),
        )?;
        let (i, t) = count_inclusions(&a.into_vectors(), &b.into_vectors(), &expected)?;
        k += i;
        n += t;
    }
    Ok((k, n))
}

fn judge(
    what: &str,
    m: &SubsampledGaussian,
    q: f64,
    seed: u64,
) -> Result<RateJudgement, CheckError> {
    let (k, n) = count(m, seed)?;
    Ok(RateJudgement::new(
        format!("{what}: inclusions against the claim's q = {q:.6}"),
        k,
        n,
        q,
        RateSides::Both,
        ALPHA,
    ))
}

/// `privacy/recompute/subsampling-rate`.
pub(super) fn subsampling_rate(ctx: &Context) -> CheckResult {
    let (q, s, z) = SETTINGS;
    let m = SubsampledGaussian::new(q, s, z)?;
    let qc = claimed_q(&m)?;
    let j = judge("SubsampledGaussian(q = 0.25)", &m, qc, ctx.check_seed())?;
    let ok = j.verdict == RateVerdict::Meets;
    Ok(Outcome::new(
        CheckKind::Property,
        format!("privacy::SubsampledGaussian (q = {q}, S = {s}, z = {z}), hardened, {RECORDS} indicator records, {ROUNDS} coupled rounds"),
        format!("the inclusion rate counted from coupled releases equals the q of the claim's RDP curve (order 2 inverted: q = sqrt(expm1(RDP(2)) / expm1(1/z^2))); exact two-sided binomial test at {ALPHA:e}"),
        format!("{}; q recovered from the claim {qc:.9}", j.line()),
        verification::verdict(ok),
    )
    .false_alarm(ALPHA)
    .value("judgement", &j))
}

/// `privacy/control/subsampling-rate-too-high`: a mechanism sampling at `1.5 q` held to the
/// claim of `q` (the accountant told `q`): must be judged above.
pub(super) fn control_too_high(ctx: &Context) -> CheckResult {
    let (q, s, z) = SETTINGS;
    let told = claimed_q(&SubsampledGaussian::new(q, s, z)?)?;
    let m = SubsampledGaussian::new(1.5 * q, s, z)?;
    let j = judge(
        "SubsampledGaussian sampling at 1.5 q",
        &m,
        told,
        ctx.check_seed(),
    )?;
    Ok(Outcome::new(
        CheckKind::PositiveControl,
        "privacy::SubsampledGaussian sampling at 1.5 q = 0.375 while the claim the accountant uses says q = 0.25",
        "privacy/recompute/subsampling-rate finds the rate above the claimed q; a control judged otherwise fails the run",
        format!("{} (expected: above)", j.line()),
        if j.verdict == RateVerdict::Above { Verdict::Pass } else { Verdict::Fail },
    )
    .value("judgement", &j))
}
