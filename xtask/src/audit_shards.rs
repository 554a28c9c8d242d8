//! Shard files of an audit and the certificate of their merge, shared by `cargo xtask
//! audit-mechanism` and `cargo xtask audit` (streamed external outputs).

use std::path::{Path, PathBuf};

use anyhow::Context;
use serde_json::json;
use verification::audit::external::{Verdict, samples_for_tightness};
use verification::audit::{AuditConfig, AuditResult, ShardCounts, merge};

/// How to print a certificate.
pub struct ReportOptions<'a> {
    /// JSON instead of text.
    pub json: bool,
    /// Where to write the trade-off plot.
    pub plot: &'a Path,
    /// The tightness whose held-out sample size is reported.
    pub target_tightness: f64,
}

/// Warn when the training split is less than a tenth of the held-out one: the events are
/// chosen on the training rates with the held-out size's widths, and the training rates' own
/// error is not counted (docs/verification.md).
pub fn warn_if_training_small(train: usize, held: usize) {
    if held > 10 * train {
        eprintln!(
            "warning: the events are chosen on {train} training outputs per input, fewer than a \
             tenth of the {held} held out: a tail event can be chosen on training noise and \
             certify little; give at least a tenth as many training outputs \
             (docs/verification.md)"
        );
    }
}

/// Write a shard's counts (JSON) to `path`, creating its folder.
pub fn write_shard(path: &Path, counts: &ShardCounts) -> anyhow::Result<()> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    let text = serde_json::to_string_pretty(counts)?;
    std::fs::write(path, text + "\n").with_context(|| format!("writing {}", path.display()))
}

/// Read the shard files, merge them (every shard of one audit, once) and report the
/// certificate.
pub fn merge_files(files: &[PathBuf], options: &ReportOptions<'_>) -> anyhow::Result<()> {
    let shards = files
        .iter()
        .map(|p| {
            let text =
                std::fs::read_to_string(p).with_context(|| format!("reading {}", p.display()))?;
            serde_json::from_str::<ShardCounts>(&text)
                .with_context(|| format!("{} is not a shard file", p.display()))
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    let result = merge(&shards)?;
    let plan = &shards[0].plan;
    report(
        &plan.label,
        &result,
        &plan.config,
        options,
        Some(shards.len()),
    )
}

/// Print the certificate (text or JSON, the same for a run and a merge of its shards; `label`
/// names what was audited), write the plot, exit 3 on a certified violation.
pub fn report(
    label: &str,
    r: &AuditResult,
    config: &AuditConfig,
    options: &ReportOptions<'_>,
    merged: Option<usize>,
) -> anyhow::Result<()> {
    let verdict = Verdict::of(r);
    let plot = if options.plot.is_absolute() {
        options.plot.to_path_buf()
    } else {
        std::env::current_dir()?.join(options.plot)
    };
    let target = options.target_tightness;
    let samples_for_target = samples_for_tightness(r, target, config);
    let title = format!("audit: {}", verdict.label());
    if let Err(e) = verification::plot::tradeoff(&plot, &title, r) {
        eprintln!(
            "warning: the plot could not be written to {}: {e}",
            plot.display()
        );
    }
    if options.json {
        let v = json!({
            "mechanism": label,
            "verdict": verdict,
            "target_tightness": target,
            "samples_for_target": samples_for_target,
            "result": r,
        });
        println!("{}", serde_json::to_string_pretty(&v)?);
    } else {
        let opt = |v: Option<f64>| v.map_or("-".to_string(), |t| format!("{t:.4}"));
        println!("verdict: {}", verdict.label());
        println!("audited: {label}");
        println!(
            "claim: {:?}; epsilon at delta = {:e}: {}",
            r.claim.guarantee,
            r.delta,
            opt(r.eps_claimed)
        );
        println!(
            "certified: eps >= {:.6} with confidence {} (point estimate {:.6}); tightness {}",
            r.eps_lower,
            r.confidence,
            r.eps_estimate,
            opt(r.eps_tightness)
        );
        if let (Some(mu), Some(reference)) = (r.mu_lower, r.mu_reference) {
            println!(
                "Gaussian-DP route: mu >= {mu:.6} against {reference:.6} (tightness {})",
                opt(r.mu_tightness)
            );
        }
        println!("{}", event_line(r));
        println!("{}", target_line(r, target, samples_for_target));
        let from = merged.map_or(String::new(), |n| format!("; merged from {n} shards"));
        println!(
            "outputs per input: {} held out, {} training{from}",
            r.samples, r.train_samples
        );
        println!("plot: {}", plot.display());
    }
    if verdict == Verdict::ViolationCertified {
        std::process::exit(3);
    }
    Ok(())
}

/// The certified event's line of a text certificate (both audit commands).
pub fn event_line(r: &AuditResult) -> String {
    format!(
        "event: {} (false positives {} of {}, false negatives {} of {}); statistic: {}",
        r.eps_event.event,
        r.eps_event.false_positives,
        r.samples,
        r.eps_event.false_negatives,
        r.samples,
        r.statistic
    )
}

/// The line of a text certificate on the held-out outputs per input that `target` tightness
/// would need (`samples`, from [`samples_for_tightness`]).
pub fn target_line(r: &AuditResult, target: f64, samples: Option<u64>) -> String {
    match samples {
        Some(n) => format!(
            "held-out outputs per input for tightness {target}: about {n} (at this event's rates)"
        ),
        None => format!(
            "tightness {target} is not reachable at this event (its point estimate is {:.6})",
            r.eps_estimate
        ),
    }
}
