//! The rate at which DP-FTS-DE's server includes agents, counted from its broadcasts and held
//! against the `q` its reported privacy loss was computed with (issue 31: "a subsampling rate
//! different from the one the accountant is told").
//!
//! # What is recomputed
//! The `q` of the server's accountant: its reported loss after the counted releases inverted
//! by bisection in `q` on the paper's RDP epsilon written again
//! (`super::round_noise::epsilon`, Mironov, Talwar & Zhang 2019 at the integer orders 2..33),
//! at the mechanism's noise multiplier `z`.
//!
//! # What is measured
//! Inclusions, by coupled releases of the server's private round
//! (`crate::shared::count_inclusions`): `N = M = 50` agents, agent `n`'s vector the indicator
//! `e_n`, the round-robin weights of `round-noise`, 2000 rounds, 100 000 trials; an exact
//! two-sided binomial test at [`ALPHA`].

use super::round_noise::{SETTINGS, SHAPE, epsilon, weights, zeros};
use crate::shared::{ALPHA, RateJudgement, RateSides, RateVerdict, count_inclusions};
use dp_fts_de::{AgentVector, CentralServer, RoundInput};
use ndarray::{Array1, Array2};
use privacy::Mechanism;
use privacy::mechanisms::subsampled::SubsampledGaussian;
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use verification::{CheckError, CheckKind, CheckResult, Context, Outcome, Verdict};

/// Rounds released (twice each, coupled).
const ROUNDS: usize = 2000;
/// Releases whose loss is inverted.
const ACCOUNTED: usize = 4;

fn delta() -> f64 {
    (SHAPE.0 as f64).powf(-1.1)
}

/// The `q` whose recomputed epsilon over [`ACCOUNTED`] releases is the server's reported
/// loss, by bisection (epsilon increases with `q`).
fn accountant_q(server_q: f64, z: f64, seed: u64) -> Result<(f64, f64), CheckError> {
    let (_, _, s) = SETTINGS;
    let mut server = CentralServer::private(
        weights()?,
        SubsampledGaussian::new(server_q, s, z)?,
        delta(),
    )?;
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    for t in 1..=ACCOUNTED {
        server.aggregate(t, zeros()?, &mut rng)?;
    }
    let eps = server
        .privacy_loss()?
        .ok_or_else(|| CheckError::msg("no privacy loss after the releases"))?
        .epsilon_paper;
    let (mut lo, mut hi) = (1e-6, 1.0);
    for _ in 0..100 {
        let mid = 0.5 * (lo + hi);
        if epsilon(mid, z, ACCOUNTED, delta()) <= eps {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Ok((0.5 * (lo + hi), eps))
}

fn indicators() -> Result<Vec<AgentVector>, CheckError> {
    let (n, _, m) = SHAPE;
    (0..n)
        .map(|i| {
            let mut v = Array1::zeros(m);
            v[i] = 1.0;
            Ok(AgentVector::new(v)?)
        })
        .collect()
}

/// Inclusions of the private round of a server at `q`: `(included, trials)`.
fn count(q: f64, z: f64, seed: u64) -> Result<(u64, u64), CheckError> {
    let (_, _, s) = SETTINGS;
    let server = CentralServer::private(weights()?, SubsampledGaussian::new(q, s, z)?, delta())?;
    let round = server
        .private_round()
        .ok_or_else(|| CheckError::msg("the private server has no private round"))?;
    let w = weights()?.at(1);
    let expected: Vec<f64> = w.rows().into_iter().map(|r| r.dot(&r).sqrt() / q).collect();
    let (zero, ind) = (zeros()?, indicators()?);
    let (mut k, mut n) = (0, 0);
    for r in 0..ROUNDS {
        let sd = seed.wrapping_add(r as u64);
        let release = |v: &Vec<AgentVector>| -> Result<Array2<f64>, CheckError> {
            let input = RoundInput {
                t: 1,
                vectors: v.clone(),
            };
            Ok(round
                .release(&input, &mut ChaCha20Rng::seed_from_u64(sd))?
                .vectors()
                .to_owned())
        };
        let (i, t) = count_inclusions(&release(&zero)?, &release(&ind)?, &expected)?;
        k += i;
        n += t;
    }
    Ok((k, n))
}

fn judge(
    what: &str,
    sample_q: f64,
    told_q: f64,
    seed: u64,
) -> Result<(RateJudgement, f64, f64), CheckError> {
    let (_, z, _) = SETTINGS;
    let (q_acc, eps) = accountant_q(told_q, z, seed ^ 0xacc)?;
    let (k, n) = count(sample_q, z, seed)?;
    Ok((
        RateJudgement::new(
            format!(
                "{what}: inclusions against the accountant's q = {q_acc:.6} (its loss {eps:.6} after {ACCOUNTED} releases inverted)"
            ),
            k,
            n,
            q_acc,
            RateSides::Both,
            ALPHA,
        ),
        q_acc,
        eps,
    ))
}

/// `dp-fts-de/recompute/subsampling-rate`.
pub(super) fn subsampling_rate(ctx: &Context) -> CheckResult {
    let (q, z, s) = SETTINGS;
    let (j, q_acc, eps) = judge("the private server", q, q, ctx.check_seed())?;
    let ok = j.verdict == RateVerdict::Meets;
    Ok(Outcome::new(
        CheckKind::Property,
        format!("DP-FTS-DE's central server (N = {}, P = {}, M = {}, q = {q}, z = {z}, S = {s}), hardened, indicator vectors, {ROUNDS} coupled rounds", SHAPE.0, SHAPE.1, SHAPE.2),
        format!("the inclusion rate counted from coupled broadcasts equals the q its accountant used (the reported loss inverted on the recomputed RDP epsilon); exact two-sided binomial test at {ALPHA:e}"),
        j.line(),
        verification::verdict(ok),
    )
    .false_alarm(ALPHA)
    .value("accountant_q", q_acc)
    .value("reported_epsilon", eps)
    .value("judgement", &j))
}

/// `dp-fts-de/control/subsampling-rate-too-high`: a server whose round samples at `1.5 q`,
/// held to the loss of a server told `q`: must be judged above.
pub(super) fn control_too_high(ctx: &Context) -> CheckResult {
    let (q, _, _) = SETTINGS;
    let (j, _, _) = judge("a server sampling at 1.5 q", 1.5 * q, q, ctx.check_seed())?;
    Ok(Outcome::new(
        CheckKind::PositiveControl,
        "DP-FTS-DE's server sampling agents at 1.5 q = 0.375 while its accountant is told q = 0.25",
        "dp-fts-de/recompute/subsampling-rate finds the rate above the accountant's q; a control judged otherwise fails the run",
        format!("{} (expected: above)", j.line()),
        if j.verdict == RateVerdict::Above { Verdict::Pass } else { Verdict::Fail },
    )
    .value("judgement", &j))
}
