//! Sharded audits: the held-out phase split over processes (or machines), merged into the
//! certificate of one run.
//!
//! # Why a merged certificate is the unsharded one
//! An audit's training phase is deterministic given its seed (its outputs are drawn from the
//! streams `(seed, 1)` and `(seed, 2)`), so every shard recomputes it and reaches the same
//! [`AuditPlan`]: the same statistic, the same chosen events and the same thresholds. The
//! held-out outputs are drawn in chunks of [`CHUNK`], chunk `c` of a stream from its
//! own `ChaCha20Rng` seeded by `(seed, stream, c)`; shard `i` of `n` draws exactly the chunks
//! with `c mod n = i` ([`Shard::owns`]) and keeps their bin counts
//! ([`HeldOutCounts`]). The shards' chunks partition the chunks of the unsharded run, and each
//! chunk's counts do not depend on who draws them, so the sum of the shards' counts is, integer
//! for integer, the unsharded run's counts; the certificate
//! ([`conclude`](super::AuditPlan::conclude)) is a function of the plan and these counts only.
//!
//! # Files
//! A shard is written as [`ShardCounts`] (JSON): the plan (the audited function's label, the
//! claim, the statistic's name, the configuration, the chosen thresholds, written exactly),
//! its FNV-1a fingerprint, the shard `i/n` and the counts. [`merge`] refuses shards of
//! different plans (any difference in mechanism label, claim, configuration, seed or
//! thresholds changes the fingerprint), a file whose plan does not match its own fingerprint,
//! a missing or repeated shard, and counts of the wrong size.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use super::counts::HeldOutCounts;
use super::{AuditError, AuditPlan, AuditResult, CHUNK};

/// The format tag of a shard file.
pub const SHARD_FORMAT: &str = "dp-gp-bandits audit shard, version 1";

/// Shard `index` of `count`: the held-out chunks `c` with `c mod count = index`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    index: usize,
    count: usize,
}

impl Shard {
    /// The whole audit: shard 0 of 1.
    pub const WHOLE: Self = Self { index: 0, count: 1 };

    /// Shard `index` of `count`.
    ///
    /// # Errors
    /// [`AuditError::InvalidConfig`] unless `count >= 1` and `index < count`.
    pub fn new(index: usize, count: usize) -> Result<Self, AuditError> {
        if count == 0 || index >= count {
            return Err(AuditError::InvalidConfig(format!(
                "shard {index}/{count}: need a count of at least 1 and an index below it \
                 (shards 0/{count} to {}/{count})",
                count.saturating_sub(1)
            )));
        }
        Ok(Self { index, count })
    }

    /// The index `i`.
    pub fn index(&self) -> usize {
        self.index
    }

    /// The number of shards `n`.
    pub fn count(&self) -> usize {
        self.count
    }

    /// Whether this shard draws chunk `c`.
    pub fn owns(&self, chunk: usize) -> bool {
        chunk % self.count == self.index
    }

    /// Held-out outputs per input this shard draws of `samples`.
    pub fn outputs(&self, samples: usize) -> u64 {
        (0..samples.div_ceil(CHUNK))
            .filter(|&c| self.owns(c))
            .map(|c| CHUNK.min(samples - c * CHUNK) as u64)
            .sum()
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl FromStr for Shard {
    type Err = AuditError;

    /// `"i/n"`, e.g. `"0/4"`.
    fn from_str(s: &str) -> Result<Self, AuditError> {
        let bad = || AuditError::InvalidConfig(format!("shard {s:?} is not of the form i/n"));
        let (i, n) = s.split_once('/').ok_or_else(bad)?;
        let parse = |v: &str| v.trim().parse::<usize>().map_err(|_| bad());
        Self::new(parse(i)?, parse(n)?)
    }
}

/// The counts of one shard of an audit, with the plan that produced them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ShardCounts {
    /// [`SHARD_FORMAT`].
    pub format: String,
    /// [`AuditPlan::fingerprint`] of `plan`.
    pub fingerprint: String,
    /// Which shard.
    pub shard: Shard,
    /// The plan (identical in every shard of one audit).
    pub plan: AuditPlan,
    /// This shard's held-out counts.
    pub counts: HeldOutCounts,
}

impl ShardCounts {
    /// A shard's counts under its plan.
    pub fn new(plan: AuditPlan, shard: Shard, counts: HeldOutCounts) -> Self {
        Self {
            format: SHARD_FORMAT.into(),
            fingerprint: plan.fingerprint(),
            shard,
            plan,
            counts,
        }
    }

    /// Check the file against itself: format, fingerprint of its plan, shard, numbers of bins and
    /// of outputs.
    fn validate(&self) -> Result<(), AuditError> {
        let bad = |why: String| {
            AuditError::InvalidConfig(format!(
                "shard {} ({}): {why}",
                self.shard, self.fingerprint
            ))
        };
        if self.format != SHARD_FORMAT {
            return Err(bad(format!(
                "format {:?}, expected {SHARD_FORMAT:?}",
                self.format
            )));
        }
        Shard::new(self.shard.index, self.shard.count).map_err(|e| bad(e.to_string()))?;
        let own = self.plan.fingerprint();
        if own != self.fingerprint {
            return Err(bad(format!(
                "its plan has the fingerprint {own}, not the one it states (the file was edited \
                 or written by another version)"
            )));
        }
        let bins = self.plan.thresholds.len() + 1;
        let c = &self.counts;
        if c.bins_x.len() != bins || c.bins_x_prime.len() != bins {
            return Err(bad(format!(
                "{} and {} bins, the plan's thresholds make {bins}",
                c.bins_x.len(),
                c.bins_x_prime.len()
            )));
        }
        let expected = self.shard.outputs(self.plan.config.samples);
        let sums = (
            c.bins_x.iter().sum::<u64>(),
            c.bins_x_prime.iter().sum::<u64>(),
        );
        if (c.outputs_x, c.outputs_x_prime) != (expected, expected) || sums != (expected, expected)
        {
            return Err(bad(format!(
                "{} and {} outputs counted ({} and {} in the bins), the shard draws {expected} \
                 per input",
                c.outputs_x, c.outputs_x_prime, sums.0, sums.1
            )));
        }
        Ok(())
    }
}

/// Sum the counts of the `n` shards of one audit and conclude: the certificate of the
/// unsharded audit (see the module).
///
/// # Errors
/// [`AuditError::InvalidConfig`] for no shards, a shard that fails its own checks, shards of
/// different plans or shard counts, and a shard missing or given twice.
pub fn merge(shards: &[ShardCounts]) -> Result<AuditResult, AuditError> {
    let first = shards
        .first()
        .ok_or_else(|| AuditError::InvalidConfig("no shards to merge".into()))?;
    let n = first.shard.count;
    let mut seen = vec![false; n];
    let mut total = HeldOutCounts::zeros(first.plan.thresholds.len());
    for s in shards {
        s.validate()?;
        if s.fingerprint != first.fingerprint {
            return Err(AuditError::InvalidConfig(format!(
                "shard {} belongs to another audit (fingerprint {}) than shard {} ({}): {}",
                s.shard,
                s.fingerprint,
                first.shard,
                first.fingerprint,
                first.plan.difference(&s.plan)
            )));
        }
        if s.shard.count != n {
            return Err(AuditError::InvalidConfig(format!(
                "shard {} is one of {}, shard {} one of {n}",
                s.shard, s.shard.count, first.shard
            )));
        }
        if std::mem::replace(&mut seen[s.shard.index], true) {
            return Err(AuditError::InvalidConfig(format!(
                "shard {} is given twice",
                s.shard
            )));
        }
        total.add(&s.counts)?;
    }
    let missing: Vec<String> = (0..n)
        .filter(|&i| !seen[i])
        .map(|i| format!("{i}/{n}"))
        .collect();
    if !missing.is_empty() {
        return Err(AuditError::InvalidConfig(format!(
            "missing shards: {}",
            missing.join(", ")
        )));
    }
    first.plan.conclude(&total)
}

/// FNV-1a, 64 bits ([`bandit::seed::fnv1a64`]): a stable fingerprint (the same on every
/// platform and compiler version, unlike the standard library's hasher). Not cryptographic: it
/// detects mistakes (shards of two audits), not forgery.
pub(super) use bandit::seed::fnv1a64;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_partition_the_chunks() {
        let samples = 7 * CHUNK + 5;
        for n in 1..10 {
            let total: u64 = (0..n)
                .map(|i| Shard::new(i, n).unwrap().outputs(samples))
                .sum();
            assert_eq!(total, samples as u64);
        }
        assert_eq!("2/3".parse::<Shard>().unwrap(), Shard::new(2, 3).unwrap());
        for bad in ["3/3", "0/0", "1", "a/2", "-1/2", ""] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
    }

    #[test]
    fn fnv1a_test_vectors() {
        // From the FNV reference (Fowler, Noll, Vo): "" and "a".
        assert_eq!(fnv1a64(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a64(b"a"), 0xaf63_dc4c_8601_ec8c);
    }
}
