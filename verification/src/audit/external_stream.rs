//! Audits of output files too large for memory, and their shards (`cargo xtask audit
//! --train-x ... --x ...`, with `--shard i/n`).
//!
//! [`audit_external`](super::external::audit_external) reads both files into memory and splits
//! them itself (shuffled with a seed). Here the split is the user's: training outputs in their
//! own files, held-out outputs in theirs. The held-out files are streamed and only counted;
//! the training files are read into memory up to [`StreamedFiles::in_memory`] outputs per
//! input, and beyond it the first ones are the pilot of
//! [`AuditConfig::pilot`](super::AuditConfig) and the rest are streamed and counted at the
//! pilot's candidate events. Memory is then the pilot plus one chunk of [`CHUNK`] outputs,
//! whatever the files' length.
//!
//! Each file is read at least twice:
//! 1. to count its outputs (the event's choice depends on the held-out size) and to take its
//!    FNV-1a fingerprint, which goes into the plan's label (so shards of different files
//!    cannot be merged);
//! 2. to score and count its outputs (for a held-out file, those of the chunks the shard owns:
//!    output `k`, blank and `#` lines not counting, is in chunk `k / CHUNK`, and shard `i` of
//!    `n` owns the chunks `c` with `c mod n = i` ([`Shard::owns`]), as in a sharded mechanism
//!    audit).
//!
//! Every shard reads the same training files and fits the same plan (the fit draws no
//! randomness), so the shards' chunks partition the held-out outputs and their counts add up,
//! integer for integer, to those of the unsharded run: [`merge`] gives its certificate.
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
use super::counts::Thresholds;
use super::external::{
    ExternalAudit, OutputKind, Outputs, Scorer, TrainingCount, fit, is_output, parse_outputs,
    parse_outputs_at,
};
use super::{AuditConfig, AuditError, CHUNK, Shard, ShardCounts, merge};

/// What the first pass over a held-out file finds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FileScan {
    /// Output lines (neither blank nor starting with `#`).
    pub outputs: u64,
    /// FNV-1a (64 bits) of the file's bytes.
    pub fingerprint: u64,
}

/// Append line `l` (read with or without its end) to `text`, ending it.
fn push_line(text: &mut String, l: &str) {
    text.push_str(l);
    if !l.ends_with('\n') {
        text.push('\n');
    }
}

fn io_error(path: &Path, e: &std::io::Error) -> AuditError {
    AuditError::InvalidConfig(format!("reading {}: {e}", path.display()))
}

/// Call `line(n, text)` for each line of `path` (`n` from 1, `text` with its end), reusing one
/// buffer, until it returns `false`; fingerprint the bytes read on the way.
fn for_each_line(
    path: &Path,
    mut line: impl FnMut(usize, &str) -> Result<bool, AuditError>,
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
        if !line(n, &buf)? {
            break;
        }
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
        Ok(true)
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
    thresholds: &Thresholds,
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
        let source = path.display().to_string();
        let held: Outputs = parse_outputs_at(text, Some(kind), &source, first_line)?;
        scorer.count(counts, thresholds, &held, prime, (&source, chunk * CHUNK))?;
        text.clear();
        Ok(())
    };
    let fingerprint = for_each_line(path, |n, l| {
        if !is_output(l) {
            // Kept inside an owned chunk, so that its text's lines are the file's.
            if !text.is_empty() {
                push_line(&mut text, l);
            }
            return Ok(true);
        }
        let chunk = k / CHUNK;
        if k.is_multiple_of(CHUNK) && k > 0 {
            flush(&mut text, first_line, chunk - 1, counts)?;
        }
        if shard.owns(chunk) {
            if text.is_empty() {
                first_line = n;
            }
            push_line(&mut text, l);
        }
        k += 1;
        Ok(true)
    })?;
    if k > 0 {
        flush(&mut text, first_line, (k - 1) / CHUNK, counts)?;
    }
    Ok(fingerprint)
}

/// A pair of output files: drawn under `x` and under `x'`.
#[derive(Debug, Clone, Copy)]
pub struct OutputFiles<'a> {
    /// Outputs drawn under `x`.
    pub x: &'a Path,
    /// Outputs drawn under `x'`.
    pub x_prime: &'a Path,
}

/// What a streamed audit reads.
#[derive(Debug, Clone, Copy)]
pub struct StreamedFiles<'a> {
    /// The training outputs (fitting the statistic, choosing the events).
    pub train: OutputFiles<'a>,
    /// The held-out outputs (counted for the certificate), independent of the training ones.
    pub held: OutputFiles<'a>,
    /// The outputs' kind (`None`: the first training line's).
    pub kind: Option<OutputKind>,
    /// Training outputs per input kept in memory: with more in the training files, the first
    /// ones are the pilot of [`AuditConfig::pilot`] and the rest are streamed and counted.
    pub in_memory: usize,
}

/// The first `n` outputs of `path` (all of them when it has fewer), parsed as `kind` (`None`:
/// the kind of its first output line).
///
/// # Errors
/// The file cannot be read, or an output does not parse ([`parse_outputs`]).
pub fn read_first(path: &Path, n: usize, kind: Option<OutputKind>) -> Result<Outputs, AuditError> {
    let mut text = String::new();
    let mut k = 0usize;
    for_each_line(path, |_, l| {
        if k == n {
            return Ok(false);
        }
        push_line(&mut text, l);
        k += usize::from(is_output(l));
        Ok(true)
    })?;
    parse_outputs(&text, kind, &path.display().to_string())
}

/// Two scans (of the files under `x` and `x'`) of equally many outputs, or the error naming
/// both.
fn same_size(what: &str, files: OutputFiles<'_>) -> Result<(FileScan, FileScan), AuditError> {
    let (a, b) = (scan(files.x)?, scan(files.x_prime)?);
    if a.outputs != b.outputs {
        return Err(AuditError::InvalidConfig(format!(
            "unequal numbers of {what} outputs: {} in {}, {} in {} (draw as many under each)",
            a.outputs,
            files.x.display(),
            b.outputs,
            files.x_prime.display()
        )));
    }
    Ok((a, b))
}

/// Count the outputs of both files of `files` that `shard` owns into `counts` (at
/// `thresholds`), checking that neither changed since its scan.
fn count_pair(
    files: OutputFiles<'_>,
    scans: (FileScan, FileScan),
    kind: OutputKind,
    scorer: &Scorer,
    thresholds: &Thresholds,
    shard: Shard,
    counts: &mut HeldOutCounts,
) -> Result<(), AuditError> {
    for (path, scanned, prime) in [(files.x, scans.0, false), (files.x_prime, scans.1, true)] {
        let again = count_owned(path, kind, scorer, thresholds, shard, prime, counts)?;
        if again != scanned.fingerprint {
            return Err(AuditError::InvalidConfig(format!(
                "{} changed while it was being read",
                path.display()
            )));
        }
    }
    Ok(())
}

fn as_usize(n: u64) -> Result<usize, AuditError> {
    usize::try_from(n).map_err(|_| AuditError::InvalidConfig(format!("{n} outputs per input")))
}

/// Shard `shard` of the streamed audit of `files` against `claim`: its plan and counts.
/// `config` gives the level, the delta, the Gaussian-DP route and the seed (recorded, unused:
/// nothing is drawn); its sizes are the files'.
///
/// # Errors
/// Files that cannot be read, training or held-out files with different numbers of outputs
/// (or fewer than 10), an output that does not parse as the training kind, a file changed
/// between two passes, and the errors of the fit.
pub fn audit_external_shard(
    files: &StreamedFiles<'_>,
    claim: &PrivacyClaim,
    statistic: Option<&str>,
    config: &AuditConfig,
    shard: Shard,
) -> Result<ShardCounts, AuditError> {
    Ok(shard_and_kind(files, claim, statistic, config, shard)?.0)
}

/// [`audit_external_shard`], with the outputs' kind.
fn shard_and_kind(
    files: &StreamedFiles<'_>,
    claim: &PrivacyClaim,
    statistic: Option<&str>,
    config: &AuditConfig,
    shard: Shard,
) -> Result<(ShardCounts, OutputKind), AuditError> {
    let train_scans = same_size("training", files.train)?;
    let held_scans = same_size("held-out", files.held)?;
    // A held-out file with a training file's bytes would certify events chosen on itself.
    for (t, tp) in [
        (train_scans.0, files.train.x),
        (train_scans.1, files.train.x_prime),
    ] {
        for (h, hp) in [
            (held_scans.0, files.held.x),
            (held_scans.1, files.held.x_prime),
        ] {
            if t == h {
                return Err(AuditError::InvalidConfig(format!(
                    "the held-out file {} has the bytes of the training file {} (the same \
                     FNV-1a fingerprint and outputs): the held-out outputs must be fresh draws, \
                     independent of the training ones (a mechanism whose outputs never vary \
                     repeats them, but then its outputs carry no information to audit)",
                    hp.display(),
                    tp.display()
                )));
            }
        }
    }
    let train = as_usize(train_scans.0.outputs)?;
    let samples = as_usize(held_scans.0.outputs)?;
    let pilot = train.min(files.in_memory);
    let pilot_x = read_first(files.train.x, pilot, files.kind)?;
    let kind = pilot_x.kind();
    let pilot_xp = read_first(files.train.x_prime, pilot, Some(kind))?;
    let config = AuditConfig {
        train,
        samples,
        pilot: (train > files.in_memory).then_some(files.in_memory),
        ..config.clone()
    };
    config.validate()?;
    let label = format!(
        "external outputs ({kind:?}), streamed: training files fnv1a64:{:016x} (x) and \
         fnv1a64:{:016x} (x'), {train} outputs each; held-out files fnv1a64:{:016x} (x) and \
         fnv1a64:{:016x} (x'), {samples} outputs each",
        train_scans.0.fingerprint,
        train_scans.1.fingerprint,
        held_scans.0.fingerprint,
        held_scans.1.fingerprint
    );
    let rest = |scorer: &Scorer, candidates: &Thresholds| {
        let mut counts = HeldOutCounts::zeros(candidates.len());
        count_pair(
            files.train,
            train_scans,
            kind,
            scorer,
            candidates,
            Shard::WHOLE,
            &mut counts,
        )?;
        Ok(counts)
    };
    let rest: Option<TrainingCount<'_>> = config.pilot.map(|_| &rest as TrainingCount<'_>);
    let (plan, scorer) = fit(&pilot_x, &pilot_xp, statistic, claim, &config, &label, rest)?;
    drop((pilot_x, pilot_xp));
    let mut counts = HeldOutCounts::zeros(plan.thresholds.len());
    count_pair(
        files.held,
        held_scans,
        kind,
        &scorer,
        &plan.thresholds,
        shard,
        &mut counts,
    )?;
    Ok((ShardCounts::new(plan, shard, counts), kind))
}

/// The whole streamed audit in one process ([`audit_external_shard`] with [`Shard::WHOLE`],
/// concluded): the verdict and the held-out outputs per input that `target_tightness` would
/// need.
///
/// # Errors
/// Those of [`audit_external_shard`], and a target tightness outside `(0, 1]`.
pub fn audit_external_streamed(
    files: &StreamedFiles<'_>,
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
    let (shard, kind) = shard_and_kind(files, claim, statistic, config, Shard::WHOLE)?;
    let result = merge(std::slice::from_ref(&shard))?;
    let plan = &shard.plan;
    let n = plan.config.train + plan.config.samples;
    Ok(ExternalAudit::of(
        result,
        kind,
        n,
        target_tightness,
        &plan.config,
    ))
}

#[cfg(test)]
mod tests {
    use super::super::{alpha_rate, choose_events, thin};
    use super::*;
    use crate::stats::normal_quantile;
    use privacy::NeighbouringRelation;
    use privacy::claim::{Guarantee, TrustModel};
    use privacy::params::Epsilon;

    /// With more training outputs than it keeps in memory, the streamed audit chooses exactly
    /// the event [`choose_events`] picks from the pilot's scores (the training files' first
    /// outputs) as candidates and every training output's count at them, recomputed here
    /// from the whole files; counting only the pilot would choose another one.
    #[test]
    fn the_pilot_chooses_on_every_training_output() {
        let d = std::env::temp_dir().join(format!("external-stream-pilot-{}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap();
        // Laplace outputs of scale 0.7 at 0 and 1.
        let laplace = |n: usize, shift: f64, seed: u64| -> Vec<f64> {
            use rand::{RngExt, SeedableRng};
            let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(seed);
            (0..n)
                .map(|_| {
                    let u: f64 = rng.random::<f64>() - 0.5;
                    shift - 0.7 * u.signum() * (1.0 - 2.0 * u.abs()).ln()
                })
                .collect()
        };
        let (train, pilot, held) = (6000, 700, 3000);
        let data = [
            laplace(train, 0.0, 1),
            laplace(train, 1.0, 2),
            laplace(held, 0.0, 3),
            laplace(held, 1.0, 4),
        ];
        let paths = ["tx", "txp", "hx", "hxp"].map(|n| d.join(n));
        for (p, v) in paths.iter().zip(&data) {
            let text: String = v.iter().map(|x| format!("{x:e}\n")).collect();
            std::fs::write(p, text).unwrap();
        }
        let files = StreamedFiles {
            train: OutputFiles {
                x: &paths[0],
                x_prime: &paths[1],
            },
            held: OutputFiles {
                x: &paths[2],
                x_prime: &paths[3],
            },
            kind: None,
            in_memory: pilot,
        };
        let claim = PrivacyClaim::new(
            "test",
            Guarantee::PureDp {
                epsilon: Epsilon::new(1.0).unwrap(),
            },
            TrustModel::Central,
            NeighbouringRelation::StatedPair,
            "inputs 0 and 1",
        );
        let config = AuditConfig::new(10, 1e-6, 1);
        let shard =
            audit_external_shard(&files, &claim, Some("identity"), &config, Shard::WHOLE).unwrap();
        assert_eq!(shard.plan.config.pilot, Some(pilot));
        // The identity statistic, oriented on the pilot's means (x below x': -o).
        let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
        assert!(mean(&data[0][..pilot]) < mean(&data[1][..pilot]));
        let scores: Vec<Vec<f64>> = data[..2]
            .iter()
            .map(|v| v.iter().map(|o| -o).collect())
            .collect();
        let mut pooled: Vec<f64> = scores[0][..pilot]
            .iter()
            .chain(&scores[1][..pilot])
            .copied()
            .collect();
        pooled.sort_by(f64::total_cmp);
        let candidates = thin(&pooled, super::super::MAX_CANDIDATES);
        let z = -normal_quantile(alpha_rate(&shard.plan.config));
        let choose = |upto: usize| {
            let below =
                std::iter::once((f64::NEG_INFINITY, 0, 0)).chain(candidates.iter().map(|&t| {
                    let k = |v: &[f64]| v[..upto].iter().filter(|&&s| s <= t).count() as u64;
                    (t, k(&scores[0]), k(&scores[1]))
                }));
            choose_events(below, (upto as u64, upto as u64), held, z, 0.0, false).0
        };
        assert_eq!(shard.plan.eps_threshold.to_bits(), choose(train).to_bits());
        assert_ne!(choose(pilot).to_bits(), choose(train).to_bits());
        std::fs::remove_dir_all(&d).unwrap();
    }
}
