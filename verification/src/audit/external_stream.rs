//! Audits of output files too large for memory, and their shards (`cargo xtask audit
//! --train-x ... --x ...`, with `--shard i/n`).
//!
//! [`audit_external`](super::external::audit_external) reads both files into memory and splits
//! them itself (shuffled with a seed). Here the split is the user's: training outputs in their
//! own files (read into memory: they fit the statistic and choose the events), held-out outputs
//! in theirs, which are streamed and only counted. Memory is the training outputs plus one
//! chunk of [`CHUNK`] held-out outputs, whatever the held-out files' length.
//!
//! Each held-out file is read twice:
//! 1. to count its outputs (the event's choice depends on the held-out size) and to take its
//!    FNV-1a fingerprint, which goes into the plan's label (so shards of different files
//!    cannot be merged);
//! 2. to score and count the outputs of the chunks the shard owns: output `k` (blank and `#`
//!    lines are not outputs) is in chunk `k / CHUNK`, and shard `i` of `n` owns the chunks
//!    `c` with `c mod n = i` ([`Shard::owns`]), as in a sharded mechanism audit.
//!
//! Every shard reads the same training files and fits the same plan (the fit draws no
//! randomness), so the shards' chunks partition the held-out outputs and their counts add up,
//! integer for integer, to those of the unsharded run: [`merge`] gives its
//! certificate.
//!
//! The held-out outputs must be drawn independently of the training ones (fresh runs of the
//! mechanism), each file's outputs independent and identically distributed: the certificate's
//! Clopper-Pearson bounds assume it. No shuffling is needed for counts; nothing checks the
//! independence.

use std::io::{BufRead, BufReader};
use std::path::Path;

use bandit::seed::{FNV1A64_OFFSET, fnv1a64_update};
use privacy::claim::PrivacyClaim;

use super::counts::HeldOutCounts;
use super::external::{ExternalAudit, OutputKind, Outputs, Scorer, fit, parse_outputs};
use super::{AuditConfig, AuditError, CHUNK, Shard, ShardCounts, merge};

/// What the first pass over a held-out file finds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FileScan {
    /// Output lines (neither blank nor starting with `#`).
    pub outputs: u64,
    /// FNV-1a (64 bits) of the file's bytes.
    pub fingerprint: u64,
}

/// Whether a line (without its end) is an output: not blank, not a `#` comment (the rule of
/// [`parse_outputs`]).
fn is_output(line: &str) -> bool {
    let t = line.trim();
    !t.is_empty() && !t.starts_with('#')
}

fn io_error(path: &Path, e: &std::io::Error) -> AuditError {
    AuditError::InvalidConfig(format!("reading {}: {e}", path.display()))
}

/// Call `line(n, text)` for each line of `path` (`n` from 1, `text` with its end), reusing one
/// buffer; fingerprint the bytes on the way.
fn for_each_line(
    path: &Path,
    mut line: impl FnMut(usize, &str) -> Result<(), AuditError>,
) -> Result<u64, AuditError> {
    let file = std::fs::File::open(path).map_err(|e| io_error(path, &e))?;
    let mut reader = BufReader::with_capacity(1 << 20, file);
    let mut buf = String::new();
    let mut hash = FNV1A64_OFFSET;
    for n in 1.. {
        buf.clear();
        let read = reader.read_line(&mut buf).map_err(|e| io_error(path, &e))?;
        if read == 0 {
            break;
        }
        hash = fnv1a64_update(hash, buf.as_bytes());
        line(n, &buf)?;
    }
    Ok(hash)
}

/// Count the outputs of `path` and fingerprint it (the first pass).
///
/// # Errors
/// The file cannot be read (or is not UTF-8).
pub fn scan(path: &Path) -> Result<FileScan, AuditError> {
    let mut outputs = 0u64;
    let fingerprint = for_each_line(path, |_, l| {
        outputs += u64::from(is_output(l));
        Ok(())
    })?;
    Ok(FileScan {
        outputs,
        fingerprint,
    })
}

/// Score and count the outputs of the chunks `shard` owns in `path` (the second pass); returns
/// the file's fingerprint, to be compared with the first pass's.
fn count_owned(
    path: &Path,
    kind: OutputKind,
    scorer: &Scorer,
    plan: &super::AuditPlan,
    shard: Shard,
    prime: bool,
    counts: &mut HeldOutCounts,
) -> Result<u64, AuditError> {
    // The chunk being collected: its index, its text, the line of its first output.
    let mut text = String::new();
    let mut first_line = 0usize;
    let mut k = 0usize; // outputs seen
    let flush = |text: &mut String,
                 first_line: usize,
                 chunk: usize,
                 counts: &mut HeldOutCounts|
     -> Result<(), AuditError> {
        if text.is_empty() {
            return Ok(());
        }
        let source = format!("{} (chunk {chunk}, from line {first_line})", path.display());
        let held: Outputs = parse_outputs(text, Some(kind), &source)?;
        scorer.count(counts, &plan.thresholds, &held, prime, chunk * CHUNK)?;
        text.clear();
        Ok(())
    };
    let fingerprint = for_each_line(path, |n, l| {
        if !is_output(l) {
            return Ok(());
        }
        let chunk = k / CHUNK;
        if k.is_multiple_of(CHUNK) && k > 0 {
            flush(&mut text, first_line, chunk - 1, counts)?;
        }
        if shard.owns(chunk) {
            if text.is_empty() {
                first_line = n;
            }
            text.push_str(l);
            if !l.ends_with('\n') {
                text.push('\n');
            }
        }
        k += 1;
        Ok(())
    })?;
    if k > 0 {
        flush(&mut text, first_line, (k - 1) / CHUNK, counts)?;
    }
    Ok(fingerprint)
}

/// The held-out files of a streamed audit.
#[derive(Debug, Clone, Copy)]
pub struct HeldOutFiles<'a> {
    /// Outputs drawn under `x`.
    pub x: &'a Path,
    /// Outputs drawn under `x'`.
    pub x_prime: &'a Path,
}

/// Shard `shard` of the streamed audit of `held` (with the training outputs `train_x`,
/// `train_x_prime`) against `claim`: its plan and counts. `config` gives the level, the delta,
/// the Gaussian-DP route and the seed (recorded, unused: nothing is drawn); its sizes are
/// replaced by the files'.
///
/// # Errors
/// Files that cannot be read, held-out files with different numbers of outputs (or fewer than
/// 10), training outputs of another kind, fewer than 10, or in different numbers, a held-out
/// output that does not parse as the training kind, a file changed between the two passes,
/// and the errors of the fit.
pub fn audit_external_shard(
    train_x: &Outputs,
    train_x_prime: &Outputs,
    held: HeldOutFiles<'_>,
    claim: &PrivacyClaim,
    statistic: Option<&str>,
    config: &AuditConfig,
    shard: Shard,
) -> Result<ShardCounts, AuditError> {
    let (sx, sxp) = (scan(held.x)?, scan(held.x_prime)?);
    if sx.outputs != sxp.outputs {
        return Err(AuditError::InvalidConfig(format!(
            "unequal numbers of held-out outputs: {} in {}, {} in {} (draw as many under each)",
            sx.outputs,
            held.x.display(),
            sxp.outputs,
            held.x_prime.display()
        )));
    }
    let samples = usize::try_from(sx.outputs).map_err(|_| {
        AuditError::InvalidConfig(format!("{} held-out outputs per input", sx.outputs))
    })?;
    let config = AuditConfig {
        train: train_x.len(),
        samples,
        ..config.clone()
    };
    config.validate()?;
    let kind = train_x.kind();
    let label = format!(
        "external outputs ({kind:?}), streamed: held-out files fnv1a64:{:016x} (x) and \
         fnv1a64:{:016x} (x'), {samples} outputs each",
        sx.fingerprint, sxp.fingerprint
    );
    let (plan, scorer) = fit(train_x, train_x_prime, statistic, claim, &config, &label)?;
    let mut counts = HeldOutCounts::zeros(plan.thresholds.len());
    for (path, scanned, prime) in [(held.x, sx, false), (held.x_prime, sxp, true)] {
        let again = count_owned(path, kind, &scorer, &plan, shard, prime, &mut counts)?;
        if again != scanned.fingerprint {
            return Err(AuditError::InvalidConfig(format!(
                "{} changed while it was being read",
                path.display()
            )));
        }
    }
    Ok(ShardCounts::new(plan, shard, counts))
}

/// The whole streamed audit in one process ([`audit_external_shard`] with [`Shard::WHOLE`],
/// concluded): the verdict and the held-out outputs per input that `target_tightness` would
/// need.
///
/// # Errors
/// Those of [`audit_external_shard`], and a target tightness outside `(0, 1]`.
pub fn audit_external_streamed(
    train_x: &Outputs,
    train_x_prime: &Outputs,
    held: HeldOutFiles<'_>,
    claim: &PrivacyClaim,
    statistic: Option<&str>,
    target_tightness: f64,
    config: &AuditConfig,
) -> Result<ExternalAudit, AuditError> {
    if !(target_tightness > 0.0 && target_tightness <= 1.0) {
        return Err(AuditError::InvalidConfig(format!(
            "the target tightness {target_tightness} is not in (0, 1]"
        )));
    }
    let shard = audit_external_shard(
        train_x,
        train_x_prime,
        held,
        claim,
        statistic,
        config,
        Shard::WHOLE,
    )?;
    let result = merge(std::slice::from_ref(&shard))?;
    let n = shard.plan.config.train + shard.plan.config.samples;
    Ok(ExternalAudit::of(
        result,
        train_x.kind(),
        n,
        target_tightness,
        &shard.plan.config,
    ))
}
