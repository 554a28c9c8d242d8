//! A rate measured by counting (records a subsampled mechanism includes, selections of one
//! candidate by an exponential mechanism) held against the rate a claim or a recomputed
//! requirement allows, with an exact binomial test (issue 31, "checks that do not trust the
//! claim").
//!
//! # Test
//! `k` successes in `n` independent trials of probability `p`. With `p0` the rate the claim
//! uses: **above** when `P(Bin(n, p0) >= k) <= a`, **below** when `P(Bin(n, p0) <= k) <= a`,
//! the tails summed exactly ([`verification::stats::binomial_sf`],
//! [`verification::stats::binomial_cdf`]). A two-sided judgement spends `alpha / 2` per side,
//! a one-sided one `alpha` on its side, so with the true rate equal to `p0` (or on the allowed
//! side of it) the judgement fails with probability at most `alpha`, its seed fixed.

use verification::stats::{binomial_cdf, binomial_sf};

/// Which departures from the claimed rate are violations.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RateSides {
    /// Both (the rate must be the claimed one): `alpha / 2` per side.
    Both,
    /// Only a rate above `p0` (`p0` is an upper limit): `alpha` on that side.
    AboveOnly,
}

/// Where a counted rate stands against the claimed one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RateVerdict {
    /// Consistent with the claimed rate (or on its allowed side).
    Meets,
    /// Certainly above the claimed rate.
    Above,
    /// Certainly below the claimed rate.
    Below,
}

impl RateVerdict {
    /// The words in the report.
    pub fn words(self) -> &'static str {
        match self {
            Self::Meets => "consistent with the claim",
            Self::Above => "ABOVE the claimed rate",
            Self::Below => "BELOW the claimed rate",
        }
    }
}

/// One counted rate against one claimed rate.
#[derive(Debug, Clone, serde::Serialize)]
pub struct RateJudgement {
    /// What was counted.
    pub what: String,
    /// Successes.
    pub successes: u64,
    /// Trials.
    pub trials: u64,
    /// `successes / trials`.
    pub measured: f64,
    /// The rate the claim uses (or the largest one the requirement allows).
    pub claimed: f64,
    /// `P(Bin(trials, claimed) >= successes)`.
    pub p_upper_tail: f64,
    /// `P(Bin(trials, claimed) <= successes)`.
    pub p_lower_tail: f64,
    /// Which sides count.
    pub sides: RateSides,
    /// The false-failure probability of this judgement.
    pub alpha: f64,
    /// The verdict.
    pub verdict: RateVerdict,
}

impl RateJudgement {
    /// Judge `successes` of `trials` against `claimed` at total level `alpha`.
    pub fn new(
        what: impl Into<String>,
        successes: u64,
        trials: u64,
        claimed: f64,
        sides: RateSides,
        alpha: f64,
    ) -> Self {
        let upper = binomial_sf(trials, successes, claimed);
        let lower = binomial_cdf(trials, successes, claimed);
        let per_side = match sides {
            RateSides::Both => alpha / 2.0,
            RateSides::AboveOnly => alpha,
        };
        // No trials certify nothing: judged above (a violation), never "meets".
        let verdict = if trials == 0 || upper <= per_side {
            RateVerdict::Above
        } else if sides == RateSides::Both && lower <= per_side {
            RateVerdict::Below
        } else {
            RateVerdict::Meets
        };
        Self {
            what: what.into(),
            successes,
            trials,
            measured: successes as f64 / trials.max(1) as f64,
            claimed,
            p_upper_tail: upper,
            p_lower_tail: lower,
            sides,
            alpha,
            verdict,
        }
    }

    /// One line for the report.
    pub fn line(&self) -> String {
        format!(
            "{}: {} of {} = {:.5} against {:.5} (ratio {:.4}; P(>= k) = {:.3e}, P(<= k) = {:.3e}; {} at {:e}): {}",
            self.what,
            self.successes,
            self.trials,
            self.measured,
            self.claimed,
            self.measured / self.claimed,
            self.p_upper_tail,
            self.p_lower_tail,
            match self.sides {
                RateSides::Both => "two-sided",
                RateSides::AboveOnly => "one-sided (above)",
            },
            self.alpha,
            self.verdict.words()
        )
    }
}
