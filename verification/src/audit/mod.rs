//! The privacy auditor: a statistical lower bound on the privacy loss of a randomised function
//! on one pair of neighbouring inputs, compared with the function's [`PrivacyClaim`].
//!
//! # Procedure (see `docs/verification.md` for the derivations and references)
//! 1. *Training split.* Sample `m` outputs under each input; fit the test statistic `s`
//!    (oriented: large is evidence for `x`) and choose, among the events `E_t = {s > t}`, the
//!    one that maximises the *predicted* lower bound at the held-out size (one event for the
//!    epsilon route and, for Gaussian mechanisms, one for the Gaussian-DP route). Choosing on
//!    independent data leaves a single event per route on the held-out split: no multiplicity
//!    correction beyond the routes is needed.
//! 2. *Held-out split.* Sample `n` fresh outputs under each input and count the event (only
//!    counts are kept, at thresholds fixed on the training split: [`counts`]; the chunks of
//!    this phase can be drawn by several processes and their counts merged: [`shard`]). With
//!    `FPR = P_x'(E)` and `FNR = P_x(not E)`, one-sided Clopper-Pearson upper bounds
//!    `FPR_ub`, `FNR_ub` hold together with probability `>= 1 - alpha` (each at level
//!    `alpha / (2 r)` for `r` routes: Bonferroni).
//! 3. *Bounds.* `(eps, delta)`-DP implies `FNR >= 1 - delta - e^eps FPR` and
//!    `FPR >= 1 - delta - e^eps FNR` (Kairouz, Oh & Viswanath 2015), hence
//!    `eps_lower = max(ln((1 - delta - FNR_ub) / FPR_ub), ln((1 - delta - FPR_ub) / FNR_ub))`.
//!    mu-GDP implies `FNR >= Phi(Phi^-1(1 - FPR) - mu)`, hence
//!    `mu_lower = Phi^-1(1 - FPR_ub) - Phi^-1(FNR_ub)` (Dong, Roth & Su 2019; Nasr et al. 2021).
//! 4. *Verdict.* The claim is violated when a certified point `(FPR_ub, FNR_ub)` (or its mirror)
//!    lies strictly below the claim's trade-off curve ([`PrivacyClaim::tradeoff`]); for pure
//!    and approximate DP this is exactly `eps_lower > eps_claimed`. If the claim holds, every
//!    true point lies on or above the (non-increasing) curve, so a false violation needs one of
//!    the Clopper-Pearson bounds to fail: probability `<= alpha`.

pub mod counts;
pub mod exact;
pub mod external;
pub mod external_stream;
pub mod porosity;
pub mod shard;
pub mod statistic;

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use privacy::{Guarantee, Mechanism, PrivacyClaim};
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

pub use crate::outcome::{AuditSummary, CertifiedEvent};
use crate::outcome::{DetectableViolation, TightnessOf};
use crate::stats::{clopper_pearson_upper, normal_quantile};
pub use counts::{HeldOutCounts, Thresholds};
pub use shard::{Shard, ShardCounts, merge};
pub use statistic::{
    DiscreteCounts, FisherDiscriminant, HistogramRatio, Known, Mapped, MeanDifferenceProjection,
    Score, Statistic,
};

/// Errors of the auditor.
#[derive(Debug, Clone, thiserror::Error)]
#[non_exhaustive]
pub enum AuditError {
    /// A configuration value is out of range.
    #[error("invalid audit configuration: {0}")]
    InvalidConfig(String),
    /// The mechanism's outputs cannot be used by the statistic.
    #[error("unusable mechanism output: {0}")]
    Output(String),
    /// The audited mechanism returned an error: the audit stops (an error is never an output).
    #[error("the audited mechanism failed")]
    Mechanism(#[source] Arc<dyn std::error::Error + Send + Sync + 'static>),
}

impl AuditError {
    /// Wrap an error of the audited mechanism.
    pub fn mechanism(e: impl Into<Box<dyn std::error::Error + Send + Sync + 'static>>) -> Self {
        Self::Mechanism(Arc::from(e.into()))
    }
}

/// Outputs are drawn in chunks of this many, chunk `c` of stream `s` from its own
/// `ChaCha20Rng` seeded by `(seed, s, c)`: bit-identical whatever the number of threads.
pub const CHUNK: usize = 1 << 13;

pub use bandit::seed::mix;

/// Draw `n` outputs of `mechanism(input, rng)` in parallel and map each through `map`, in a
/// deterministic order (chunk by chunk). The first error (in chunk order, so the same whatever
/// the thread count) of either closure stops the sampling and is returned: an error is never
/// turned into a sample.
pub fn sample_map<I, O, T, E, F, G>(
    mechanism: &F,
    input: &I,
    n: usize,
    seed: u64,
    map: G,
) -> Result<Vec<T>, E>
where
    F: Fn(&I, &mut ChaCha20Rng) -> Result<O, E> + Sync,
    G: Fn(O) -> Result<T, E> + Sync,
    I: Sync + ?Sized,
    T: Send,
    E: Send,
{
    let chunks = n.div_ceil(CHUNK);
    let parts: Vec<Result<Vec<T>, E>> = (0..chunks)
        .into_par_iter()
        .map(|c| {
            let mut rng = ChaCha20Rng::seed_from_u64(mix(seed ^ mix(c as u64)));
            let len = CHUNK.min(n - c * CHUNK);
            (0..len)
                .map(|_| mechanism(input, &mut rng).and_then(&map))
                .collect()
        })
        .collect();
    let mut out = Vec::with_capacity(n);
    for part in parts {
        out.extend(part?);
    }
    Ok(out)
}

/// Draw the held-out chunks of `shard` (chunk `c` of `n.div_ceil(CHUNK)` when
/// [`Shard::owns`] it) under `x` (stream `seed_x`) and `x'` (stream `seed_x_prime`), score each
/// output and count it. Chunk `c` of a stream draws from the same `ChaCha20Rng` as in
/// [`sample_map`], so the counts are those of the scores `sample_map` would return,
/// whatever the thread count and the sharding. Memory: one bin vector per chunk in flight.
///
/// # Errors
/// The first error in chunk order (under `x` before `x'` within a chunk), the same whatever the
/// thread count: the mechanism's, or a NaN score. Chunks after a failed one are skipped.
#[allow(clippy::too_many_arguments)]
fn count_held_out<I, O, F>(
    mechanism: &F,
    x: &I,
    x_prime: &I,
    n: usize,
    (seed_x, seed_x_prime): (u64, u64),
    score: &Score<O>,
    thresholds: &Thresholds,
    shard: Shard,
) -> Result<HeldOutCounts, AuditError>
where
    F: Fn(&I, &mut ChaCha20Rng) -> Result<O, AuditError> + Sync,
    I: Sync + ?Sized,
{
    let chunks = n.div_ceil(CHUNK);
    let failed = AtomicUsize::new(usize::MAX);
    let k = thresholds.len();
    let chunk_counts = |c: usize| -> Result<HeldOutCounts, AuditError> {
        let mut counts = HeldOutCounts::zeros(k);
        if !shard.owns(c) || c > failed.load(Ordering::Relaxed) {
            return Ok(counts);
        }
        let len = CHUNK.min(n - c * CHUNK);
        let result = [(x, seed_x, false), (x_prime, seed_x_prime, true)]
            .into_iter()
            .try_for_each(|(input, seed, prime)| {
                let mut rng = ChaCha20Rng::seed_from_u64(mix(seed ^ mix(c as u64)));
                let mut scores = Vec::with_capacity(len);
                for _ in 0..len {
                    scores.push(score(&mechanism(input, &mut rng)?));
                }
                counts.count(thresholds, scores, prime, c * CHUNK)
            });
        match result {
            Ok(()) => Ok(counts),
            Err(e) => {
                failed.fetch_min(c, Ordering::Relaxed);
                Err(e)
            }
        }
    };
    // `reduce` keeps the chunks' order (left operand before right), so the error kept is the
    // first one in chunk order.
    (0..chunks).into_par_iter().map(chunk_counts).reduce(
        || Ok(HeldOutCounts::zeros(k)),
        |a, b| {
            let mut a = a?;
            a.add(&b?)?;
            Ok(a)
        },
    )
}

/// Budget and level of an audit.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AuditConfig {
    /// Training outputs per input (fitting the statistic and choosing the events).
    pub train: usize,
    /// Held-out outputs per input (the certified counts).
    pub samples: usize,
    /// Probability that the audit reports a violation of a claim that holds (`<= 1e-6` in the
    /// checks).
    pub alpha: f64,
    /// The delta at which `eps_lower` is computed; `None` = the claim's stated delta (0 for
    /// pure DP), or 0 when the claim states none.
    pub delta: Option<f64>,
    /// Also run the Gaussian-DP route. It declares that the mechanism adds continuous Gaussian
    /// noise (or a discrete Gaussian on a grid much finer than sigma, as the hardened samplers
    /// here: at least `2^20` grid points per sigma) to a statistic of bounded sensitivity: such
    /// a mechanism is `rho`-zCDP exactly when it is `sqrt(2 rho)`-GDP, so a zCDP claim is also
    /// compared on that Gaussian-DP curve (a certified `mu_lower > sqrt(2 rho)` is a violation;
    /// issue 14: the `(eps, delta)` envelope of a zCDP claim is looser). Do not set it for
    /// other noise: a Laplace mechanism is `eps^2/2`-zCDP but not `eps`-GDP, and an integer
    /// discrete Gaussian with `sigma = 1` has a test reaching `mu = 1.046` at `sqrt(2 rho) = 1`.
    pub gaussian: bool,
    /// The mu the mechanism's noise implies (sensitivity / sigma), for the GDP tightness.
    pub mu_reference: Option<f64>,
    /// Base seed.
    pub seed: u64,
    /// Training outputs per input kept in memory, when fewer than `train`: the statistic is
    /// fitted on the first `pilot` training outputs and the candidate events are their scores'
    /// thresholds (at most [`MAX_CANDIDATES`], evenly spaced by rank); every one of the `train`
    /// outputs is then drawn again, scored and counted at those candidates, and the events are
    /// chosen on those counts (so memory does not grow with `train`). `None` (the default), or `pilot >= train`: everything in memory, the
    /// candidates being all the training scores.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pilot: Option<usize>,
}

impl AuditConfig {
    /// `samples` held-out and `samples` training outputs per input, level `alpha`, epsilon route
    /// only.
    pub fn new(samples: usize, alpha: f64, seed: u64) -> Self {
        Self {
            train: samples,
            samples,
            alpha,
            delta: None,
            gaussian: false,
            mu_reference: None,
            seed,
            pilot: None,
        }
    }

    /// Keep only the first `pilot` training outputs per input in memory (see the field).
    pub fn pilot(mut self, pilot: usize) -> Self {
        self.pilot = Some(pilot);
        self
    }

    /// The pilot size when it is smaller than the training split (the streamed training phase).
    fn streamed_pilot(&self) -> Option<usize> {
        self.pilot.filter(|&p| p < self.train)
    }

    /// Set the number of training outputs per input.
    pub fn train(mut self, train: usize) -> Self {
        self.train = train;
        self
    }

    /// Compute `eps_lower` at this delta.
    pub fn delta(mut self, delta: f64) -> Self {
        self.delta = Some(delta);
        self
    }

    /// Add the Gaussian-DP route; `mu_reference` is the mechanism's own mu (for tightness).
    pub fn gaussian(mut self, mu_reference: Option<f64>) -> Self {
        self.gaussian = true;
        self.mu_reference = mu_reference;
        self
    }

    fn validate(&self) -> Result<(), AuditError> {
        if self.train < 10 || self.samples < 10 {
            return Err(AuditError::InvalidConfig(format!(
                "need at least 10 training and held-out outputs, got {} and {}",
                self.train, self.samples
            )));
        }
        if self.pilot.is_some_and(|p| p < 10) {
            return Err(AuditError::InvalidConfig(format!(
                "need at least 10 training outputs in memory (the pilot), got {}",
                self.pilot.unwrap_or_default()
            )));
        }
        if !(self.alpha > 0.0 && self.alpha < 0.5) {
            return Err(AuditError::InvalidConfig(format!(
                "alpha = {} not in (0, 0.5)",
                self.alpha
            )));
        }
        if let Some(d) = self.delta
            && !(0.0..1.0).contains(&d)
        {
            return Err(AuditError::InvalidConfig(format!(
                "delta = {d} not in [0, 1)"
            )));
        }
        Ok(())
    }
}

/// The result of an audit: its numbers ([`AuditSummary`], which a report record carries) and
/// the empirical trade-off curve (which the plot draws). Reads of the numbers go through
/// `Deref` (`result.eps_lower`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AuditResult {
    /// The audit's numbers.
    #[serde(flatten)]
    pub summary: AuditSummary,
    /// Empirical trade-off curve on the held-out split: `(FPR, FNR)` at the plan's thresholds
    /// (the 0, 1, ..., 100th percentiles of the training scores under each input, and the
    /// chosen events' thresholds), with the corners `(1, 0)` and `(0, 1)`, by increasing FPR.
    pub empirical_tradeoff: Vec<(f64, f64)>,
}

impl std::ops::Deref for AuditResult {
    type Target = AuditSummary;

    fn deref(&self) -> &AuditSummary {
        &self.summary
    }
}

/// `(1 - delta - fnr) / fpr` and its mirror, as a log; `-inf` when no evidence.
pub fn eps_bound(fpr: f64, fnr: f64, delta: f64) -> f64 {
    let l = |num: f64, den: f64| {
        if num <= 0.0 {
            f64::NEG_INFINITY
        } else if den <= 0.0 {
            f64::INFINITY
        } else {
            (num / den).ln()
        }
    };
    l(1.0 - delta - fnr, fpr).max(l(1.0 - delta - fpr, fnr))
}

/// `Phi^-1(1 - fpr) - Phi^-1(fnr)`.
pub fn mu_bound(fpr: f64, fnr: f64) -> f64 {
    normal_quantile(1.0 - fpr) - normal_quantile(fnr)
}

/// Whether `(fpr, fnr)` or its mirror lies strictly below the claim's trade-off curve.
pub fn below_tradeoff(claim: &PrivacyClaim, fpr: f64, fnr: f64) -> bool {
    const SLACK: f64 = 1e-12;
    fnr < claim.tradeoff(fpr) - SLACK || fpr < claim.tradeoff(fnr) - SLACK
}

/// Normal-approximation upper bound used only to *choose* events on the training split.
fn predicted_upper(count: f64, total: f64, n: f64, z: f64) -> f64 {
    let p = count / total;
    (p + z * (p * (1.0 - p) / n).sqrt() + z * z / n).min(1.0)
}

/// Choose the thresholds on the training scores: `(eps threshold, mu threshold)`.
fn choose_thresholds(
    s0: &mut [f64],
    s1: &mut [f64],
    n: usize,
    z: f64,
    delta: f64,
    gaussian: bool,
) -> (f64, f64) {
    s0.sort_by(f64::total_cmp);
    s1.sort_by(f64::total_cmp);
    let mut cands: Vec<f64> = Vec::with_capacity(s0.len() + s1.len() + 1);
    cands.push(f64::NEG_INFINITY);
    cands.extend(s0.iter().chain(s1.iter()).copied());
    cands.sort_by(f64::total_cmp);
    cands.dedup();
    let (mut i0, mut i1) = (0usize, 0usize);
    let (s0, s1) = (&*s0, &*s1);
    let below = cands.iter().map(|&t| {
        while i0 < s0.len() && s0[i0] <= t {
            i0 += 1;
        }
        while i1 < s1.len() && s1[i1] <= t {
            i1 += 1;
        }
        (t, i0 as u64, i1 as u64)
    });
    let m = (s0.len() as u64, s1.len() as u64);
    choose_events(below, m, n, z, delta, gaussian)
}

/// Most candidate thresholds of the streamed training phase ([`AuditConfig::pilot`]): each
/// chunk of training outputs is counted in a vector of this many bins per input (1 MB), and
/// `2^16` order statistics of the pilot's scores space the candidates at most about
/// `1.5e-5` apart in the pilot's probability.
pub const MAX_CANDIDATES: usize = 1 << 16;

/// At most `max` (>= 2) of the sorted `values`, evenly spaced by rank, the first and the last
/// included: the order statistics `(i (len - 1)) / (max - 1)` for `i = 0..max`; all of them
/// when there are at most `max`.
fn thin(values: &[f64], max: usize) -> Vec<f64> {
    if values.len() <= max {
        return values.to_vec();
    }
    (0..max)
        .map(|i| values[(i * (values.len() - 1)) / (max - 1)])
        .collect()
}

/// Choose among candidate events `{s > t}`, each given as `(t, k0, k1)`: `k0` of the `m.0`
/// training scores under `x` and `k1` of the `m.1` under `x'` are `<= t`. Predicts each
/// event's held-out bounds at `n` outputs ([`predicted_upper`]) and returns the best
/// `(eps threshold, mu threshold)` (the first best, in the candidates' order).
fn choose_events(
    candidates: impl IntoIterator<Item = (f64, u64, u64)>,
    (m0, m1): (u64, u64),
    n: usize,
    z: f64,
    delta: f64,
    gaussian: bool,
) -> (f64, f64) {
    let (m0f, m1f, nf) = (m0 as f64, m1 as f64, n as f64);
    let (mut best_eps, mut t_eps) = (f64::NEG_INFINITY, f64::NEG_INFINITY);
    let (mut best_mu, mut t_mu) = (f64::NEG_INFINITY, f64::NEG_INFINITY);
    for (t, i0, i1) in candidates {
        // E_t = {s > t}: under x, i0 outputs fall outside (false negatives).
        let fnr_ub = predicted_upper(i0 as f64, m0f, nf, z);
        let fpr_ub = predicted_upper((m1 - i1) as f64, m1f, nf, z);
        let e = eps_bound(fpr_ub, fnr_ub, delta);
        if e > best_eps {
            best_eps = e;
            t_eps = t;
        }
        if gaussian {
            let m = mu_bound(fpr_ub, fnr_ub);
            if m > best_mu {
                best_mu = m;
                t_mu = t;
            }
        }
    }
    (t_eps, t_mu)
}

/// The delta at which the events are chosen and the normal quantile of their predicted bounds.
fn event_level(claim: &PrivacyClaim, config: &AuditConfig) -> (f64, f64) {
    let delta = config.delta.or_else(|| claim.stated_delta()).unwrap_or(0.0);
    (delta, -normal_quantile(alpha_rate(config)))
}

/// A fitted score and the scores of the two samples it was fitted on.
type Fitted<O> = (Score<O>, Vec<f64>, Vec<f64>);

/// Fit `statistic` on `a` (under `x`) and `b` (under `x'`): the score and both samples' scores
/// (refused when one is NaN).
fn fitted_scores<O, S: Statistic<O>>(
    statistic: &S,
    a: &[O],
    b: &[O],
) -> Result<Fitted<O>, AuditError> {
    let score: Score<O> = statistic.fit(a, b)?;
    let t0: Vec<f64> = a.iter().map(|o| score(o)).collect();
    let t1: Vec<f64> = b.iter().map(|o| score(o)).collect();
    no_nan(&t0)?;
    no_nan(&t1)?;
    Ok((score, t0, t1))
}

/// What the training split decides, and all an audit's certificate needs besides the held-out
/// counts: the audited function's label (free text naming the mechanism and its parameters, so
/// that shards of different mechanisms cannot be merged), the claim, the statistic's name, the
/// configuration, the chosen events' thresholds and the thresholds at which the held-out phase
/// counts (the chosen ones and the trade-off curve's). Written exactly to a shard file
/// ([`exact`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AuditPlan {
    /// What was audited (free text; empty for [`audit`]).
    pub label: String,
    /// The claim audited.
    pub claim: PrivacyClaim,
    /// The statistic's name.
    pub statistic: String,
    /// The audit's configuration.
    pub config: AuditConfig,
    /// The epsilon route's event `{s > eps_threshold}`.
    #[serde(with = "exact::number")]
    pub eps_threshold: f64,
    /// The Gaussian-DP route's event `{s > mu_threshold}`, when that route runs.
    #[serde(with = "exact::optional")]
    pub mu_threshold: Option<f64>,
    /// Every threshold counted on the held-out split (includes the two above).
    pub thresholds: Thresholds,
}

impl AuditPlan {
    /// Fit `statistic` on the training outputs and choose the events: the plan and the fitted
    /// score.
    fn fit<O, S: Statistic<O>>(
        statistic: &S,
        train_x: &[O],
        train_xp: &[O],
        claim: &PrivacyClaim,
        config: &AuditConfig,
        label: &str,
    ) -> Result<(Self, Score<O>), AuditError> {
        let (delta, z) = event_level(claim, config);
        let (score, mut t0, mut t1) = fitted_scores(statistic, train_x, train_xp)?;
        let events = choose_thresholds(&mut t0, &mut t1, config.samples, z, delta, config.gaussian);
        // `choose_thresholds` sorted the training scores.
        let plan = Self::assemble(statistic.name(), &t0, &t1, events, claim, config, label)?;
        Ok((plan, score))
    }

    /// The streamed training phase ([`AuditConfig::pilot`]): fit `statistic` on the pilot
    /// outputs, take their scores as the candidate thresholds (at most [`MAX_CANDIDATES`] of
    /// them, evenly spaced by rank), let `count` score and count all the training outputs at
    /// those thresholds, and choose the events on those counts.
    fn fit_streamed<O, S: Statistic<O>>(
        statistic: &S,
        pilot_x: &[O],
        pilot_xp: &[O],
        claim: &PrivacyClaim,
        config: &AuditConfig,
        label: &str,
        count: impl FnOnce(&Score<O>, &Thresholds) -> Result<HeldOutCounts, AuditError>,
    ) -> Result<(Self, Score<O>), AuditError> {
        let (delta, z) = event_level(claim, config);
        let (score, mut t0, mut t1) = fitted_scores(statistic, pilot_x, pilot_xp)?;
        t0.sort_by(f64::total_cmp);
        t1.sort_by(f64::total_cmp);
        let mut pooled: Vec<f64> = t0.iter().chain(&t1).copied().collect();
        pooled.sort_by(f64::total_cmp);
        let candidates = Thresholds::new(thin(&pooled, MAX_CANDIDATES))?;
        let counts = count(&score, &candidates)?;
        let (mut k0, mut k1) = (0u64, 0u64);
        let below = std::iter::once((f64::NEG_INFINITY, 0, 0)).chain(
            candidates.as_slice().iter().enumerate().map(|(j, &t)| {
                k0 += counts.bins_x[j];
                k1 += counts.bins_x_prime[j];
                (t, k0, k1)
            }),
        );
        let m = (counts.outputs_x, counts.outputs_x_prime);
        let events = choose_events(below, m, config.samples, z, delta, config.gaussian);
        drop(candidates);
        let plan = Self::assemble(statistic.name(), &t0, &t1, events, claim, config, label)?;
        Ok((plan, score))
    }

    /// The plan of the chosen events `(eps threshold, mu threshold)`, counting also at the
    /// percentiles of the sorted training scores `t0`, `t1` (the trade-off curve's).
    fn assemble(
        statistic: String,
        t0: &[f64],
        t1: &[f64],
        (t_eps, t_mu): (f64, f64),
        claim: &PrivacyClaim,
        config: &AuditConfig,
        label: &str,
    ) -> Result<Self, AuditError> {
        let mut ts: Vec<f64> = [t0, t1]
            .iter()
            .flat_map(|a| (0..=100).map(|i| a[(i * (a.len() - 1)) / 100]))
            .collect();
        ts.push(t_eps);
        let mu_threshold = config.gaussian.then_some(t_mu);
        ts.extend(mu_threshold);
        Ok(Self {
            label: label.to_string(),
            claim: claim.clone(),
            statistic,
            config: config.clone(),
            eps_threshold: t_eps,
            mu_threshold,
            thresholds: Thresholds::new(ts)?,
        })
    }

    /// `fnv1a64:` and the FNV-1a hash of the plan's JSON (every field, the thresholds
    /// exactly): equal for the shards of one audit, different for two audits that differ in
    /// anything above.
    pub fn fingerprint(&self) -> String {
        // Cannot fail: the plan has no map, and its numbers are written by `exact` or are finite.
        let json = serde_json::to_vec(self).unwrap_or_default();
        format!("fnv1a64:{:016x}", shard::fnv1a64(&json))
    }

    /// The fields in which `other` differs (for an error message).
    #[allow(clippy::float_cmp)] // any difference, however small, is one
    pub fn difference(&self, other: &Self) -> String {
        let (a, b) = (&self.config, &other.config);
        let fields = [
            ("label", self.label != other.label),
            ("claim", self.claim != other.claim),
            ("statistic", self.statistic != other.statistic),
            ("held-out samples", a.samples != b.samples),
            ("training samples", a.train != b.train),
            ("alpha", a.alpha != b.alpha),
            ("delta", a.delta != b.delta),
            ("Gaussian-DP route", a.gaussian != b.gaussian),
            ("mu reference", a.mu_reference != b.mu_reference),
            ("seed", a.seed != b.seed),
            ("training outputs in memory", a.pilot != b.pilot),
            (
                "thresholds",
                self.thresholds != other.thresholds
                    || self.eps_threshold.to_bits() != other.eps_threshold.to_bits()
                    || self.mu_threshold.map(f64::to_bits) != other.mu_threshold.map(f64::to_bits),
            ),
        ];
        let differ: Vec<&str> = fields.iter().filter(|f| f.1).map(|f| f.0).collect();
        if differ.is_empty() {
            "the plans differ in the encoding of equal values".into()
        } else {
            format!("they differ in {}", differ.join(", "))
        }
    }

    /// The index of a chosen event's threshold among the counted ones.
    fn event_index(&self, t: f64) -> Result<usize, AuditError> {
        self.thresholds.index_of(t).ok_or_else(|| {
            AuditError::InvalidConfig(format!(
                "the event threshold {t:e} is not among the plan's counted thresholds"
            ))
        })
    }

    /// The certified event `{s > t_j}` from the held-out counts.
    fn certify(&self, counts: &HeldOutCounts, t: f64) -> Result<CertifiedEvent, AuditError> {
        let j = self.event_index(t)?;
        let (n0, n1) = (counts.outputs_x, counts.outputs_x_prime);
        let fnc = counts.false_negatives(j);
        let fpc = counts.false_positives(j);
        let alpha_rate = alpha_rate(&self.config);
        Ok(CertifiedEvent {
            event: format!("s > {t:.6e}"),
            threshold: t,
            false_negatives: fnc,
            false_positives: fpc,
            fpr: fpc as f64 / n1 as f64,
            fnr: fnc as f64 / n0 as f64,
            fpr_upper: clopper_pearson_upper(fpc, n1, alpha_rate),
            fnr_upper: clopper_pearson_upper(fnc, n0, alpha_rate),
        })
    }

    /// Certify the chosen events on the held-out counts and assemble the result (a function of
    /// the plan and the counts only).
    ///
    /// # Errors
    /// [`AuditError::InvalidConfig`] when the counts do not fit the plan: other numbers of bins,
    /// or not `config.samples` outputs under each input.
    pub fn conclude(&self, counts: &HeldOutCounts) -> Result<AuditResult, AuditError> {
        let config = &self.config;
        let bins = self.thresholds.len() + 1;
        let n = config.samples as u64;
        if counts.bins_x.len() != bins
            || counts.bins_x_prime.len() != bins
            || counts.outputs_x != n
            || counts.outputs_x_prime != n
        {
            return Err(AuditError::InvalidConfig(format!(
                "held-out counts of {} and {} outputs in {} and {} bins, the plan has {n} \
                 outputs per input in {bins} bins",
                counts.outputs_x,
                counts.outputs_x_prime,
                counts.bins_x.len(),
                counts.bins_x_prime.len()
            )));
        }
        let claim = &self.claim;
        let delta = config.delta.or_else(|| claim.stated_delta()).unwrap_or(0.0);
        let eps_event = self.certify(counts, self.eps_threshold)?;
        let mu_event = match (config.gaussian, self.mu_threshold) {
            (true, Some(t)) => Some(self.certify(counts, t)?),
            (false, None) => None,
            _ => {
                return Err(AuditError::InvalidConfig(
                    "the plan's Gaussian-DP route and its threshold disagree".into(),
                ));
            }
        };
        let eps_lower = eps_bound(eps_event.fpr_upper, eps_event.fnr_upper, delta);
        let eps_estimate = eps_bound(eps_event.fpr, eps_event.fnr, delta);
        let eps_claimed = claim.epsilon_at(delta);
        let mu_lower = mu_event
            .as_ref()
            .map(|e| mu_bound(e.fpr_upper, e.fnr_upper));
        let mu_estimate = mu_event.as_ref().map(|e| mu_bound(e.fpr, e.fnr));
        // A Gaussian-noise mechanism's zCDP claim is the Gaussian-DP curve of mu = sqrt(2 rho).
        let gdp_of_claim = match &claim.guarantee {
            Guarantee::Zcdp { rho } if config.gaussian => Some((2.0 * rho.get()).sqrt()),
            _ => None,
        };
        let violated = below_tradeoff(claim, eps_event.fpr_upper, eps_event.fnr_upper)
            || mu_event
                .as_ref()
                .is_some_and(|e| below_tradeoff(claim, e.fpr_upper, e.fnr_upper))
            || gdp_of_claim.zip(mu_lower).is_some_and(|(m, l)| l > m);
        let finite = |v: f64| v.is_finite().then_some(v);
        let summary = AuditSummary {
            claim: claim.clone(),
            statistic: self.statistic.clone(),
            delta,
            eps_claimed,
            eps_lower,
            eps_estimate,
            mu_lower,
            mu_estimate,
            mu_reference: config.mu_reference,
            confidence: 1.0 - config.alpha,
            samples: config.samples,
            train_samples: config.train,
            eps_tightness: eps_claimed.and_then(|e| finite(eps_lower / e)),
            mu_tightness: mu_lower
                .zip(config.mu_reference)
                .and_then(|(l, r)| finite(l / r)),
            detectable_epsilon: eps_claimed.and_then(|e| finite(e + (eps_estimate - eps_lower))),
            detectable_mu: config
                .mu_reference
                .zip(mu_estimate)
                .zip(mu_lower)
                .and_then(|((r, e), l)| finite(r + (e - l))),
            violated,
            eps_event,
            mu_event,
            tightness: None,
            tightness_of: TightnessOf::Epsilon,
            event: String::new(),
            smallest_detectable_violation: DetectableViolation {
                epsilon: None,
                mu: None,
            },
        }
        .headline();
        Ok(AuditResult {
            summary,
            empirical_tradeoff: self.empirical_curve(counts),
        })
    }

    /// `(FPR, FNR)` of `{s > t_j}` for every counted threshold, and the two corners.
    fn empirical_curve(&self, counts: &HeldOutCounts) -> Vec<(f64, f64)> {
        let (n0, n1) = (counts.outputs_x as f64, counts.outputs_x_prime as f64);
        let (mut fnc, mut fpc) = (0u64, counts.outputs_x_prime);
        let mut pts: Vec<(f64, f64)> = (0..self.thresholds.len())
            .map(|j| {
                fnc += counts.bins_x[j];
                fpc -= counts.bins_x_prime[j];
                (fpc as f64 / n1, fnc as f64 / n0)
            })
            .collect();
        pts.push((1.0, 0.0));
        pts.push((0.0, 1.0));
        pts.sort_by(|p, q| p.0.total_cmp(&q.0));
        pts
    }
}

/// The level of each Clopper-Pearson bound: `alpha / (2 r)` for `r` routes.
fn alpha_rate(config: &AuditConfig) -> f64 {
    let routes = if config.gaussian { 2.0 } else { 1.0 };
    config.alpha / (2.0 * routes)
}

/// Audit `mechanism` on the neighbouring pair `(x, x_prime)` against `claim`.
///
/// `mechanism(input, rng)` must be the whole randomised function (validated parameters are
/// built outside the closure); outputs under the two inputs are drawn from independent streams
/// derived from `config.seed`. An error of the mechanism stops the audit with
/// [`AuditError::Mechanism`].
///
/// Memory: the training outputs (`config.train` per input) and, on the held-out split, one bin
/// vector per chunk in flight: it does not grow with `config.samples`.
pub fn audit<I, O, E, F, S>(
    mechanism: F,
    x: &I,
    x_prime: &I,
    claim: &PrivacyClaim,
    statistic: &S,
    config: &AuditConfig,
) -> Result<AuditResult, AuditError>
where
    F: Fn(&I, &mut ChaCha20Rng) -> Result<O, E> + Sync,
    E: Into<Box<dyn std::error::Error + Send + Sync + 'static>> + Send,
    I: Sync + ?Sized,
    O: Send + Sync + 'static,
    S: Statistic<O>,
{
    let (plan, counts) = run_shard(
        mechanism,
        x,
        x_prime,
        claim,
        statistic,
        config,
        "",
        Shard::WHOLE,
    )?;
    plan.conclude(&counts)
}

/// One shard of [`audit`]: the training phase (the same in every shard), then only the held-out
/// chunks of `shard`, counted. `label` names the audited function (it goes into the plan and
/// its fingerprint, so that [`merge`] refuses shards of different mechanisms). [`merge`] of the
/// shards `0/n, ..., (n-1)/n` gives the certificate of [`audit`] with the same arguments.
///
/// # Errors
/// As [`audit`].
#[allow(clippy::too_many_arguments)]
pub fn audit_shard<I, O, E, F, S>(
    mechanism: F,
    x: &I,
    x_prime: &I,
    claim: &PrivacyClaim,
    statistic: &S,
    config: &AuditConfig,
    label: &str,
    shard: Shard,
) -> Result<ShardCounts, AuditError>
where
    F: Fn(&I, &mut ChaCha20Rng) -> Result<O, E> + Sync,
    E: Into<Box<dyn std::error::Error + Send + Sync + 'static>> + Send,
    I: Sync + ?Sized,
    O: Send + Sync + 'static,
    S: Statistic<O>,
{
    let (plan, counts) = run_shard(
        mechanism, x, x_prime, claim, statistic, config, label, shard,
    )?;
    Ok(ShardCounts::new(plan, shard, counts))
}

/// The training phase and the held-out counts of one shard.
#[allow(clippy::too_many_arguments)]
fn run_shard<I, O, E, F, S>(
    mechanism: F,
    x: &I,
    x_prime: &I,
    claim: &PrivacyClaim,
    statistic: &S,
    config: &AuditConfig,
    label: &str,
    shard: Shard,
) -> Result<(AuditPlan, HeldOutCounts), AuditError>
where
    F: Fn(&I, &mut ChaCha20Rng) -> Result<O, E> + Sync,
    E: Into<Box<dyn std::error::Error + Send + Sync + 'static>> + Send,
    I: Sync + ?Sized,
    O: Send + Sync + 'static,
    S: Statistic<O>,
{
    config.validate()?;
    let mechanism = |i: &I, rng: &mut ChaCha20Rng| mechanism(i, rng).map_err(AuditError::mechanism);
    let seed = mix(config.seed);
    let (plan, score) = match config.streamed_pilot() {
        None => {
            let train_x = sample_map(&mechanism, x, config.train, seed ^ 1, Ok)?;
            let train_xp = sample_map(&mechanism, x_prime, config.train, seed ^ 2, Ok)?;
            AuditPlan::fit(statistic, &train_x, &train_xp, claim, config, label)?
        }
        Some(pilot) => {
            // The pilot is the training streams' first outputs (the same chunks' generators).
            let pilot_x = sample_map(&mechanism, x, pilot, seed ^ 1, Ok)?;
            let pilot_xp = sample_map(&mechanism, x_prime, pilot, seed ^ 2, Ok)?;
            let count = |score: &Score<O>, candidates: &Thresholds| {
                count_held_out(
                    &mechanism,
                    x,
                    x_prime,
                    config.train,
                    (seed ^ 1, seed ^ 2),
                    score,
                    candidates,
                    Shard::WHOLE,
                )
            };
            AuditPlan::fit_streamed(statistic, &pilot_x, &pilot_xp, claim, config, label, count)?
        }
    };
    let counts = count_held_out(
        &mechanism,
        x,
        x_prime,
        config.samples,
        (seed ^ 3, seed ^ 4),
        &score,
        &plan.thresholds,
        shard,
    )?;
    Ok((plan, counts))
}

/// Audit outputs drawn outside this crate (another implementation's samples): `train_*` fit
/// the statistic and choose the events, `held_*` certify them; `config.train` and
/// `config.samples` are taken from the slices. The same audit as [`audit`] otherwise.
///
/// # Errors
/// [`AuditError::InvalidConfig`] when the training or held-out parts under `x` and `x'` differ
/// in size or have fewer than 10 outputs, or the statistic cannot be fitted.
pub fn audit_outputs<O, S>(
    train_x: &[O],
    train_x_prime: &[O],
    held_x: &[O],
    held_x_prime: &[O],
    claim: &PrivacyClaim,
    statistic: &S,
    config: &AuditConfig,
) -> Result<AuditResult, AuditError>
where
    S: Statistic<O>,
{
    if train_x.len() != train_x_prime.len() || held_x.len() != held_x_prime.len() {
        return Err(AuditError::InvalidConfig(format!(
            "the outputs under x and x' must come in equal numbers: training {} and {}, \
             held-out {} and {}",
            train_x.len(),
            train_x_prime.len(),
            held_x.len(),
            held_x_prime.len()
        )));
    }
    let config = AuditConfig {
        train: train_x.len(),
        samples: held_x.len(),
        ..config.clone()
    };
    config.validate()?;
    let (plan, score) = AuditPlan::fit(statistic, train_x, train_x_prime, claim, &config, "")?;
    let mut counts = HeldOutCounts::zeros(plan.thresholds.len());
    counts.count(&plan.thresholds, held_x.iter().map(|o| score(o)), false, 0)?;
    counts.count(
        &plan.thresholds,
        held_x_prime.iter().map(|o| score(o)),
        true,
        0,
    )?;
    plan.conclude(&counts)
}

/// A NaN training score: refused, as a held-out one ([`counts::HeldOutCounts::count`]).
fn no_nan(scores: &[f64]) -> Result<(), AuditError> {
    match scores.iter().position(|s| s.is_nan()) {
        Some(i) => Err(AuditError::InvalidConfig(format!(
            "the statistic is NaN on training output {i} (an output too large or not finite for it)"
        ))),
        None => Ok(()),
    }
}

/// Audit `mechanism` on the neighbouring pair `(x, x_prime)` against its own claim
/// ([`Mechanism::claim`]): [`audit`] with the mechanism's [`Mechanism::release`] as the
/// randomised function. A release that returns an error stops the audit with
/// [`AuditError::Mechanism`].
pub fn audit_mechanism<M, S>(
    mechanism: &M,
    x: &M::Input,
    x_prime: &M::Input,
    statistic: &S,
    config: &AuditConfig,
) -> Result<AuditResult, AuditError>
where
    M: Mechanism + Sync,
    M::Input: Sync,
    M::Output: Send + Sync + 'static,
    S: Statistic<M::Output>,
{
    audit(
        |input: &M::Input, rng: &mut ChaCha20Rng| mechanism.release(input, rng),
        x,
        x_prime,
        &mechanism.claim(),
        statistic,
        config,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use privacy::NeighbouringRelation;

    use rand::RngExt;

    fn laplace(b: f64) -> impl Fn(&f64, &mut ChaCha20Rng) -> Result<f64, AuditError> + Sync {
        move |x: &f64, rng: &mut ChaCha20Rng| {
            let u: f64 = rng.random::<f64>() - 0.5;
            Ok(x - b * u.signum() * (-2.0 * u.abs()).ln_1p())
        }
    }

    #[test]
    fn sampling_is_reproducible_and_thread_independent() {
        let f = laplace(1.0);
        let a = sample_map(&f, &0.0, 3 * CHUNK + 5, 7, Ok).unwrap();
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap();
        let b = pool
            .install(|| sample_map(&f, &0.0, 3 * CHUNK + 5, 7, Ok))
            .unwrap();
        assert_eq!(a, b);
        assert_eq!(a.len(), 3 * CHUNK + 5);
    }

    /// The Gaussian-DP route of a zCDP claim: Gaussian noise at mu = 1.25 (sigma 0.8, inputs 0
    /// and 1) violates rho = 0.5 (sqrt(2 rho) = 1), which the claim's (eps, delta) envelope
    /// alone does not show, and satisfies rho = 0.78125 (mu = 1.25).
    #[test]
    fn a_zcdp_claim_is_compared_on_its_gaussian_curve() {
        use privacy::{Rho, TrustModel};
        let gauss = |x: &f64, rng: &mut ChaCha20Rng| -> Result<f64, AuditError> {
            let n: f64 = rand_distr::Distribution::sample(&rand_distr::StandardNormal, rng);
            Ok(x + 0.8 * n)
        };
        let claim = |rho: f64| {
            PrivacyClaim::new(
                "test",
                Guarantee::Zcdp {
                    rho: Rho::new(rho).unwrap(),
                },
                TrustModel::Central,
                NeighbouringRelation::WithinSensitivity,
                "inputs 0 and 1",
            )
        };
        let stat = Known::new("identity", |o: &f64| -o);
        let cfg = AuditConfig::new(200_000, 1e-6, 3)
            .delta(1e-5)
            .gaussian(Some(1.25));
        let r = audit(gauss, &0.0, &1.0, &claim(0.5), &stat, &cfg).unwrap();
        assert!(r.violated && r.mu_lower.unwrap() > 1.0, "{:?}", r.mu_lower);
        // Without the Gaussian-DP comparison the envelope does not flag it.
        let mu_event = r.mu_event.as_ref().unwrap();
        assert!(!below_tradeoff(
            &r.claim,
            mu_event.fpr_upper,
            mu_event.fnr_upper
        ));
        assert!(!below_tradeoff(
            &r.claim,
            r.eps_event.fpr_upper,
            r.eps_event.fnr_upper
        ));
        let r = audit(gauss, &0.0, &1.0, &claim(0.78125), &stat, &cfg).unwrap();
        assert!(!r.violated, "{:?}", r.mu_lower);
    }

    /// The streamed held-out phase counts exactly what the scores of `sample_map` (the held-out
    /// vectors the auditor kept before it streamed) give at every threshold, for any sharding
    /// and thread count.
    #[test]
    fn streamed_counts_equal_the_in_memory_counts() {
        let f = |x: &f64, rng: &mut ChaCha20Rng| laplace(1.0)(x, rng);
        let n = 4 * CHUNK + 77;
        let score: Score<f64> = Arc::new(|o: &f64| -*o);
        let thresholds = Thresholds::new((-20..=20).map(|i| f64::from(i) / 5.0).collect()).unwrap();
        let h0 = sample_map(&f, &0.0, n, 11, |o| Ok(-o)).unwrap();
        let h1 = sample_map(&f, &1.0, n, 12, |o| Ok(-o)).unwrap();
        let one_thread = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap();
        for shards in [1, 2, 3, 9] {
            let mut total = HeldOutCounts::zeros(thresholds.len());
            for i in 0..shards {
                let shard = Shard::new(i, shards).unwrap();
                let count =
                    || count_held_out(&f, &0.0, &1.0, n, (11, 12), &score, &thresholds, shard);
                let part = count().unwrap();
                assert_eq!(part, one_thread.install(count).unwrap());
                assert_eq!(part.outputs_x, shard.outputs(n));
                total.add(&part).unwrap();
            }
            for (j, &t) in thresholds.as_slice().iter().enumerate() {
                let fnc = h0.iter().filter(|&&s| s <= t).count() as u64;
                let fpc = h1.iter().filter(|&&s| s > t).count() as u64;
                assert_eq!(total.false_negatives(j), fnc, "{shards} shards, t = {t}");
                assert_eq!(total.false_positives(j), fpc, "{shards} shards, t = {t}");
            }
        }
    }

    /// The streamed training phase ([`AuditConfig::pilot`]) chooses exactly the events that
    /// [`choose_events`] picks from the pilot's scores (the training streams' first outputs) as
    /// candidates and *every* training output's count at them, recomputed here from the whole
    /// training vectors of `sample_map`; with the pilot at least the training split it is the
    /// in-memory audit.
    #[test]
    fn the_pilot_chooses_on_every_training_output() {
        use privacy::{Epsilon, TrustModel};
        let f = laplace(0.7);
        let claim = PrivacyClaim::new(
            "test",
            Guarantee::PureDp {
                epsilon: Epsilon::new(1.0).unwrap(),
            },
            TrustModel::Central,
            NeighbouringRelation::WithinSensitivity,
            "inputs 0 and 1",
        );
        let stat = Known::new("-o", |o: &f64| -o);
        let (train, pilot) = (5 * CHUNK + 300, 3000);
        let cfg = AuditConfig::new(20_000, 1e-6, 9).train(train);
        let streamed = audit_shard(
            &f,
            &0.0,
            &1.0,
            &claim,
            &stat,
            &cfg.clone().pilot(pilot),
            "",
            Shard::WHOLE,
        )
        .unwrap();
        let seed = mix(cfg.seed);
        let all = |x: f64, s: u64| sample_map(&f, &x, train, seed ^ s, |o| Ok(-o)).unwrap();
        let (t0, t1) = (all(0.0, 1), all(1.0, 2));
        let mut candidates: Vec<f64> = t0[..pilot].iter().chain(&t1[..pilot]).copied().collect();
        candidates.sort_by(f64::total_cmp);
        let below = std::iter::once((f64::NEG_INFINITY, 0, 0)).chain(candidates.iter().map(|&t| {
            let k = |v: &[f64]| v.iter().filter(|&&s| s <= t).count() as u64;
            (t, k(&t0), k(&t1))
        }));
        let z = -normal_quantile(alpha_rate(&cfg));
        let (t_eps, _) = choose_events(below, (train as u64, train as u64), 20_000, z, 0.0, false);
        assert_eq!(streamed.plan.eps_threshold.to_bits(), t_eps.to_bits());
        // The same event chosen on the pilot's own counts would differ (the test's power).
        let pilot_only =
            std::iter::once((f64::NEG_INFINITY, 0, 0)).chain(candidates.iter().map(|&t| {
                let k = |v: &[f64]| v[..pilot].iter().filter(|&&s| s <= t).count() as u64;
                (t, k(&t0), k(&t1))
            }));
        let (t_pilot, _) = choose_events(
            pilot_only,
            (pilot as u64, pilot as u64),
            20_000,
            z,
            0.0,
            false,
        );
        assert_ne!(t_pilot.to_bits(), t_eps.to_bits());
        // A pilot as large as the training split: the in-memory audit.
        let whole = |c: &AuditConfig| {
            let s = audit_shard(&f, &0.0, &1.0, &claim, &stat, c, "", Shard::WHOLE).unwrap();
            s.plan.conclude(&s.counts).unwrap()
        };
        assert_eq!(whole(&cfg.clone().pilot(train)), whole(&cfg));
    }

    #[test]
    fn thinning_keeps_the_ends_and_spaces_the_ranks() {
        let v: Vec<f64> = (0..1000).map(f64::from).collect();
        assert_eq!(thin(&v, 2000), v);
        let t = thin(&v, 4);
        assert_eq!(t, [0.0, 333.0, 666.0, 999.0]);
        let t = thin(&v, 100);
        assert_eq!((t.len(), t[0], t[99]), (100, 0.0, 999.0));
        assert!(t.windows(2).all(|w| (10.0..=11.0).contains(&(w[1] - w[0]))));
    }

    /// The first error in chunk order is returned, whatever the thread count.
    #[test]
    fn the_first_failing_chunk_decides_the_error() {
        let f = |x: &f64, rng: &mut ChaCha20Rng| {
            let v = laplace(1.0)(x, rng)?;
            if v > 4.0 {
                Err(AuditError::Output(format!("{v}")))
            } else {
                Ok(v)
            }
        };
        let score: Score<f64> = Arc::new(|o: &f64| -*o);
        let thresholds = Thresholds::new(vec![0.0]).unwrap();
        let run = || {
            count_held_out(
                &f,
                &0.0,
                &1.0,
                8 * CHUNK,
                (1, 2),
                &score,
                &thresholds,
                Shard::WHOLE,
            )
            .unwrap_err()
            .to_string()
        };
        let one = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap()
            .install(run);
        assert_eq!(run(), one);
    }

    #[test]
    fn eps_bound_formula() {
        // FPR 0.1, FNR 0.5: ln(0.5 / 0.1) = ln 5.
        assert!((eps_bound(0.1, 0.5, 0.0) - 5f64.ln()).abs() < 1e-15);
        assert!((mu_bound(0.5, 0.5)).abs() < 1e-12);
    }
}
