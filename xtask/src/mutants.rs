//! `cargo xtask mutants`: mutation testing of the privacy-critical code.
//!
//! ```text
//! cargo install cargo-mutants --locked        # once (about 5 minutes of CPU)
//! cargo xtask mutants --list                  # the mutants of each group, nothing run
//! cargo xtask mutants                         # every group (over two hours on 2 cores)
//! cargo xtask mutants --shard 0/2 --out target/mutants-half0   # half of every group (73 min measured)
//! cargo xtask mutants --recheck-equivalents   # also test the mutants listed as equivalent
//! cargo xtask mutants --group privacy-noise   # one group
//! cargo xtask mutants --group privacy-noise --iterate   # only what was not caught last time
//! cargo xtask mutants --summary               # re-read the last results, run nothing
//! cargo xtask mutants --in-diff REV --out target/mutants-diff   # only lines changed since REV
//! ```
//!
//! The scope ([`GROUPS`]) is the code that calibrates noise, clips, samples noise, states
//! claims and converts between privacy notions, in every crate; each group names its files,
//! the functions left out of them with the reason, and the tests that judge its mutants (the
//! mutated package's own tests, with the slow accountant tests filtered out where they do not
//! exercise the group's files). Each mutant is built and tested by `cargo mutants` in a copy
//! of the workspace, one at a time (`--jobs 1`: the tests already use both cores), with
//! `--timeout`; nextest runs the tests when it is installed (it is on the project's
//! machines), `cargo test` otherwise: the outcome of a mutant does not depend on which.
//!
//! A mutant that no test catches is either killed by a new test or check, or listed in
//! [`EQUIVALENT_FILE`] with the reason it cannot change behaviour (one line per mutant:
//! its name as `cargo mutants` prints it, a tab, the reason). The summary
//! (`target/mutants/summary.md`) counts, per group: caught (a test failed), timeout (counted
//! as caught: the mutant hangs), missed, unviable (does not compile: not a mutant), equivalent
//! (missed and listed) and the score `(caught + timeout) / (total - unviable - equivalent)`.
//! The command fails when a missed mutant is not listed, and names a listed one that is no
//! longer generated or (with `--recheck-equivalents`, which tests the listed ones too) was
//! caught: the list is stale. By default the listed ones are not tested (each would cost the
//! group's whole test run) and count as equivalent while the group still generates them.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, bail};
use serde_json::Value;

use crate::workspace_root;

/// The committed list of equivalent mutants, relative to the workspace root.
pub const EQUIVALENT_FILE: &str = "xtask/mutants-equivalent.txt";

/// One group of files mutated together and judged by the same tests.
pub struct Group {
    /// The name used by `--group` and in the summary.
    pub name: &'static str,
    /// The package whose tests judge the mutants.
    pub package: &'static str,
    /// The files mutated, relative to the workspace root.
    pub files: &'static [&'static str],
    /// Mutants left out: `(regex on the mutant's name, why)`.
    pub left_out: &'static [(&'static str, &'static str)],
    /// A nextest filter expression narrowing the package's tests (with `cargo test`, the
    /// whole package runs), and why it is safe.
    pub tests: Option<(&'static str, &'static str)>,
    /// Seconds a mutant's tests may take before it counts as a timeout: about three times the
    /// unmutated tests' wall time on 2 cores, at least 10 (a mutant that turns a rejection loop
    /// infinite waits this long, so it is kept short). On 2026-12-05 the longest test run of a
    /// caught mutant was 3.7 s in `privacy-noise` and 0.7 s in `privacy-conversions`, whose 46
    /// hanging mutants cost 23 minutes at the earlier timeouts of 20 and 60 s.
    pub timeout: u64,
}

/// Tests of the privacy crate that only exercise the accountants (PLD, RDP laws, the
/// dp_accounting reference): tens of seconds per mutant, and none of them calls the
/// mechanisms or samplers.
const NOT_ACCOUNTANT_TESTS: &str =
    "not (test(/pld|replace_one/) | binary(accountant_laws) | binary(pld_reference))";

/// Tests of the privacy crate that exercise only the PLD grid, the replace-one PLD pair and the
/// RDP laws (about 65 of the package's 77 s of test time, the slowest 3-12 s each). Some call a
/// conversion on the way (the exact Gaussian as a reference); a mutant that only they would
/// catch shows up as missed, and is then killed by a test of its own.
const NOT_PLD_RDP_TESTS: &str = "not test(/replace_one::tests|pld::tests::(a_huge_span|the_chosen_width)|pld_refuses_grids|the_bin_width_given|rdp_epsilon|rdp_composition|replace_one_is_at_least|twelve_settings/)";

/// The reproductions' whole-figure tests (labels, reruns bit-identical, thread counts): most of
/// a paper crate's test time, and about presentation and determinism, not calibration.
const FIGURE_TESTS: &str = "not test(/every_figure_runs_with_its_labels_and_is_reproducible|a_run_is_bit_identical_for_any_thread_count/)";

/// The groups, in the order they run.
pub const GROUPS: &[Group] = &[
    Group {
        name: "privacy-noise",
        package: "privacy",
        files: &[
            "crates/privacy/src/mechanisms/laplace.rs",
            "crates/privacy/src/mechanisms/gaussian.rs",
            "crates/privacy/src/mechanisms/additive.rs",
            "crates/privacy/src/mechanisms/zcdp_by_sampler.rs",
            "crates/privacy/src/mechanisms/exponential.rs",
            "crates/privacy/src/mechanisms/sensitivity.rs",
            "crates/privacy/src/mechanisms/subsampled.rs",
            "crates/privacy/src/mechanisms/tree.rs",
            "crates/privacy/src/mechanisms/matrix.rs",
            "crates/privacy/src/sampler.rs",
            "crates/privacy/src/exact_fixed.rs",
            "crates/privacy/src/karney_index.rs",
        ],
        left_out: &[
            (
                r"in (pack_upper|unpack_symmetric|packed_len|checked_packed_len)$|OuterProductGaussian::(packed_len|feature_dim)",
                "the packed layout of a symmetric matrix: index arithmetic, not calibration; a wrong layout fails every matrix test that compares with the dense product",
            ),
            (
                r"TreeAggregation::psd_shift",
                "post-processing of the released prefix sums (a shift that keeps the matrix positive definite): cannot weaken privacy",
            ),
            (
                r"NoisyAggregate::(vectors|into_vectors)",
                "reads the released aggregate back out: post-processing",
            ),
            (
                r"::name -> &'static str|::description -> |::label -> ",
                "names and labels printed in reports",
            ),
        ],
        tests: Some((
            NOT_ACCOUNTANT_TESTS,
            "the mutated files are the mechanisms and samplers; the filtered-out tests call the accountants only",
        )),
        timeout: 10,
    },
    Group {
        name: "privacy-conversions",
        package: "privacy",
        files: &[
            "crates/privacy/src/accountant/zcdp.rs",
            "crates/privacy/src/accountant/calibrate.rs",
            "crates/privacy/src/accountant/gdp.rs",
            "crates/privacy/src/claim.rs",
        ],
        left_out: &[(
            r"::name -> &'static str|::description -> |::label -> ",
            "names and labels printed in reports",
        )],
        tests: Some((
            NOT_PLD_RDP_TESTS,
            "the left-out tests check the PLD grid, the replace-one PLD pair and the RDP laws; the mutated conversions, calibration search and claims have their own tests",
        )),
        timeout: 10,
    },
    Group {
        name: "jdp-qff",
        package: "jdp-qff",
        files: &[
            "crates/jdp-qff/src/calibration.rs",
            "crates/jdp-qff/src/privatizer.rs",
            "crates/jdp-qff/src/local.rs",
            "crates/jdp-qff/src/local_protocol.rs",
            "crates/jdp-qff/src/implied.rs",
        ],
        left_out: &[],
        tests: Some((
            FIGURE_TESTS,
            "the left-out test draws every figure of the reproduction (25 of the package's 26 s) to check labels and that a rerun is bit-identical; the calibration it uses is judged by the others",
        )),
        timeout: 15,
    },
    Group {
        name: "dp-fts-de",
        package: "dp-fts-de",
        files: &[
            "crates/dp-fts-de/src/server.rs",
            "crates/dp-fts-de/src/params.rs",
        ],
        left_out: &[],
        tests: Some((
            FIGURE_TESTS,
            "the left-out tests draw every figure of the reproduction (29 s) and rerun it at other thread counts (4 s) to check labels and bit-identity; the calibration and the server are judged by the others",
        )),
        timeout: 20,
    },
    Group {
        name: "ldp-bo",
        package: "ldp-bo",
        files: &[
            "crates/ldp-bo/src/convert_to_laplace.rs",
            "crates/ldp-bo/src/curator.rs",
            "crates/ldp-bo/src/truncation.rs",
        ],
        left_out: &[],
        tests: None,
        timeout: 10,
    },
    Group {
        name: "usca",
        package: "usca",
        files: &[
            "crates/usca/src/sensitivity.rs",
            "crates/usca/src/certificate.rs",
            "crates/usca/src/prediction.rs",
            "crates/usca/src/rounding.rs",
        ],
        left_out: &[],
        tests: None,
        timeout: 45,
    },
];

/// Options of `mutants`.
#[derive(clap::Args)]
pub struct Args {
    /// Run only these groups (default: all). `--list` prints the names.
    #[arg(long)]
    group: Vec<String>,
    /// Print each group's mutants and counts; build and test nothing.
    #[arg(long)]
    list: bool,
    /// Re-read the last results and print the summary; build and test nothing.
    #[arg(long)]
    summary: bool,
    /// Test only the mutants not caught by the group's previous run (its caught ones are
    /// counted as caught).
    #[arg(long)]
    iterate: bool,
    /// Seconds a mutant's tests may take before it counts as a timeout (default: each
    /// group's own, about five times its unmutated tests' wall time).
    #[arg(long)]
    timeout: Option<u64>,
    /// Where the results go (one folder per group).
    #[arg(long, default_value = "target/mutants")]
    out: PathBuf,
    /// Test again only the mutants the group's last run missed (and that are not listed as
    /// equivalent), by name; the summary then counts their new outcomes in place of the old
    /// ones. The way to measure the score after new tests when the last run was a shard
    /// (`--iterate` would also test the other shards' mutants).
    #[arg(long, conflicts_with_all = ["iterate", "shard"])]
    retest_missed: bool,
    /// Test only shard `k` of `n` of each group's mutants (`k/n`, `0 <= k < n`, round-robin):
    /// the shards together are the whole run, for splitting it across machines or sessions.
    /// Each shard writes its own folder (`--out`); their summaries add up (shard 0 counts the
    /// group's skipped equivalents).
    #[arg(long)]
    shard: Option<String>,
    /// Also test the mutants listed as equivalent. By default they are skipped (each would
    /// cost the group's whole test run, 8 minutes of the 2026-12-05 run) and counted as
    /// equivalent when the group still generates them; with this flag a listed mutant that a
    /// test now catches is reported as a stale entry of the list.
    #[arg(long)]
    recheck_equivalents: bool,
    /// Mutants built and tested at once, each in its own copy of the tree and build folder
    /// (`cargo mutants --jobs`). On 2 cores keep 1: with 2, a mutant's build took 15-28 s
    /// instead of 2-4 s, a net loss (measured; why the builds slowed this much is unexplained:
    /// no run isolated it).
    #[arg(long, default_value_t = 1)]
    jobs: u32,
    /// Test only the mutants on lines changed since this git revision (`git diff REV` of the
    /// group's files, the working tree against REV; `cargo mutants --in-diff`): the re-measure
    /// after a change when the last whole-scope run was at REV. The summary labels such a
    /// group and does not judge the list's entries outside the changed lines. A group file
    /// that git does not track yet is not in the diff: add it first. `--retest-missed` and
    /// `--iterate` after such a run keep its patch.
    #[arg(long, value_name = "REV", conflicts_with_all = ["iterate", "shard", "retest_missed", "list"])]
    in_diff: Option<String>,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let root = workspace_root();
    let groups: Vec<&Group> = if args.group.is_empty() {
        GROUPS.iter().collect()
    } else {
        args.group
            .iter()
            .map(|g| {
                GROUPS.iter().find(|x| x.name == g).with_context(|| {
                    let names: Vec<_> = GROUPS.iter().map(|x| x.name).collect();
                    format!("no mutants group {g}; the groups: {}", names.join(", "))
                })
            })
            .collect::<anyhow::Result<_>>()?
    };
    let out = if args.out.is_absolute() {
        args.out.clone()
    } else {
        root.join(&args.out)
    };
    if !args.summary {
        ensure_cargo_mutants()?;
        let nextest = has_nextest();
        let equivalent = equivalents(&root)?;
        for g in &groups {
            if args.list {
                let text = list_group(&root, &out, g, None)?;
                println!("## {} ({} mutants)", g.name, text.lines().count());
                print!("{text}");
                continue;
            }
            // The group's whole listing (before the listed equivalents are skipped): the summary
            // reads it to count the skipped equivalents and to name the stale entries of the list.
            std::fs::create_dir_all(out.join(g.name))?;
            let diff_marker = out.join(g.name).join(IN_DIFF_FILE);
            let diff = match &args.in_diff {
                Some(rev) => {
                    let patch = write_group_diff(&root, &out, g, rev)?;
                    std::fs::write(&diff_marker, rev)?;
                    Some(patch)
                }
                // A retest or an iteration of an `--in-diff` run keeps to the changed lines
                // (without a patch, `--iterate` would test the whole group under the diff's
                // label): the diff against the run's revision, taken again so that its lines
                // are today's.
                None if (args.retest_missed || args.iterate) && diff_marker.exists() => {
                    let rev = std::fs::read_to_string(&diff_marker)?;
                    Some(write_group_diff(&root, &out, g, rev.trim())?)
                }
                None => {
                    if diff_marker.exists() {
                        std::fs::remove_file(&diff_marker)?;
                    }
                    None
                }
            };
            let generated = match &diff {
                Some(patch) if std::fs::metadata(patch)?.len() == 0 => String::new(),
                _ => list_group(&root, &out, g, diff.as_deref())?,
            };
            std::fs::write(out.join(g.name).join(GENERATED_FILE), &generated)?;
            if diff.is_some() && generated.trim().is_empty() {
                // Nothing to test: the group's earlier outcomes in this folder are not this
                // run's, so they go.
                let old = out.join(g.name).join("mutants.out");
                if old.exists() {
                    std::fs::remove_dir_all(&old)?;
                }
                println!(
                    "{}: no mutant on the lines changed since the revision",
                    g.name
                );
                continue;
            }
            let mut cmd = group_command(&root, &out, g)?;
            if let Some(patch) = &diff {
                cmd.arg("--in-diff").arg(patch);
            }
            let skipped: Vec<&str> = if args.recheck_equivalents {
                Vec::new()
            } else {
                generated
                    .lines()
                    .filter(|n| equivalent.contains_key(*n))
                    .collect()
            };
            for name in &skipped {
                cmd.arg("--exclude-re")
                    .arg(format!("^{}$", regex_escape(name)));
            }
            std::fs::write(out.join(g.name).join(SKIPPED_FILE), skipped.join("\n"))?;
            let mut target = out.join(g.name);
            if args.retest_missed {
                let list = outcomes(&target)
                    .with_context(|| format!("--retest-missed needs a run of {}", g.name))?
                    .list;
                let missed: Vec<&String> = list
                    .iter()
                    .filter(|(n, k)| *k == Kind::Missed && !equivalent.contains_key(n))
                    .map(|(n, _)| n)
                    .collect();
                if missed.is_empty() {
                    println!("{}: no missed mutant to test again", g.name);
                    continue;
                }
                for name in missed {
                    cmd.arg("--re").arg(format!("^{}$", regex_escape(name)));
                }
                // Each retest writes its own folder; the summary applies them in order.
                let k = (1..).find(|k| !target.join(format!("retest-{k}")).exists());
                target = target.join(format!("retest-{}", k.expect("a free number")));
            }
            cmd.args(["--package", g.package, "--no-shuffle"])
                .arg("--jobs")
                .arg(args.jobs.max(1).to_string())
                .arg("--timeout")
                .arg(args.timeout.unwrap_or(g.timeout).to_string())
                .arg("--build-timeout")
                .arg("900")
                .arg("--output")
                .arg(&target);
            if args.iterate {
                cmd.arg("--iterate");
            }
            if let Some(shard) = &args.shard {
                cmd.args(["--shard", shard, "--sharding", "round-robin"]);
            }
            if nextest {
                // The profile of `.config/nextest.toml` that ends a mutant's tests at the first
                // failure, stopping the tests in flight (measured on a usca mutant: 4.3 s
                // instead of 26.1 s, the certificate's fine-grid test no longer waited for).
                cmd.args(["--test-tool", "nextest"])
                    .env("NEXTEST_PROFILE", "mutants");
                if let Some((filter, _)) = g.tests {
                    cmd.arg("--cargo-test-arg=-E")
                        .arg(format!("--cargo-test-arg={filter}"));
                }
            }
            println!("== mutants: {} (package {}) ==", g.name, g.package);
            // A new run of the group makes its earlier retests stale.
            if !args.retest_missed {
                for k in 1.. {
                    let retest_dir = out.join(g.name).join(format!("retest-{k}"));
                    if !retest_dir.exists() {
                        break;
                    }
                    std::fs::remove_dir_all(&retest_dir)?;
                }
            }
            let marker = out.join(g.name).join("shard.txt");
            std::fs::create_dir_all(out.join(g.name))?;
            match &args.shard {
                Some(shard) => std::fs::write(&marker, shard)?,
                None if marker.exists() && !args.iterate && !args.retest_missed => {
                    std::fs::remove_file(&marker)?
                }
                None => {}
            }
            // cargo mutants exits non-zero when a mutant is missed: the summary below judges.
            let status = cmd.status().context("running cargo mutants")?;
            if !status.success() && !target.join("mutants.out/outcomes.json").exists() {
                bail!(
                    "cargo mutants failed for {} before testing any mutant",
                    g.name
                );
            }
        }
        if args.list {
            return Ok(());
        }
    }
    summarise(&root, &out, &groups)
}

/// Where a run keeps its group's whole listing (`cargo mutants --list` with the group's files
/// and left-out functions, before the listed equivalents are skipped), in the group's folder.
const GENERATED_FILE: &str = "generated.txt";

/// Where an `--in-diff` run records its revision, in the group's folder (its patch beside it,
/// [`IN_DIFF_PATCH`]).
const IN_DIFF_FILE: &str = "in-diff.txt";

/// The group's `git diff REV` of an `--in-diff` run, in the group's folder.
const IN_DIFF_PATCH: &str = "in-diff.patch";

/// Write `git diff REV -- <the group's files>` (the working tree against `rev`) to the group's
/// folder and return its path (an empty file when none of them changed).
fn write_group_diff(root: &Path, out: &Path, g: &Group, rev: &str) -> anyhow::Result<PathBuf> {
    let diff = Command::new("git")
        .current_dir(root)
        .args(["diff", "--no-color", "--no-ext-diff", rev, "--"])
        .args(g.files)
        .output()
        .context("running git diff")?;
    if !diff.status.success() {
        bail!(
            "git diff {rev} failed: {}",
            String::from_utf8_lossy(&diff.stderr).trim()
        );
    }
    let path = out.join(g.name).join(IN_DIFF_PATCH);
    std::fs::write(&path, &diff.stdout)?;
    Ok(path)
}

/// Where a run keeps the names of the listed equivalents it skipped (none with
/// `--recheck-equivalents`), in the group's folder.
const SKIPPED_FILE: &str = "skipped-equivalents.txt";

/// `cargo mutants` on the group's files, its left-out functions excluded, run from the
/// workspace root with the shared build folder and the scratch folder of `out`.
fn group_command(root: &Path, out: &Path, g: &Group) -> anyhow::Result<Command> {
    let mut cmd = Command::new("cargo");
    cmd.current_dir(root).arg("mutants");
    // Dependencies stay compiled between runs; the copies of the workspace live where the
    // tests' default data folder (`../shared/data` beside the workspace) resolves.
    cmd.env("CARGO_TARGET_DIR", out.join("build"))
        .env("TMPDIR", scratch_dir(root, out)?);
    for f in g.files {
        cmd.arg("--file").arg(f);
    }
    for (re, _) in g.left_out {
        cmd.arg("--exclude-re").arg(re);
    }
    Ok(cmd)
}

/// The names of the group's mutants (`cargo mutants --list`: nothing is built), one per line;
/// with `diff`, only those on its changed lines.
fn list_group(root: &Path, out: &Path, g: &Group, diff: Option<&Path>) -> anyhow::Result<String> {
    let mut cmd = group_command(root, out, g)?;
    if let Some(patch) = diff {
        cmd.arg("--in-diff").arg(patch);
    }
    let listed = cmd
        .arg("--list")
        .output()
        .context("running cargo mutants --list")?;
    if !listed.status.success() {
        bail!(
            "cargo mutants --list failed for {}: {}",
            g.name,
            String::from_utf8_lossy(&listed.stderr)
        );
    }
    Ok(String::from_utf8_lossy(&listed.stdout).into_owned())
}

/// The folder the copies of the workspace go to. The tests find the data sets at
/// `../shared/data` relative to the workspace (`crates/x/../../../shared/data`); a copy at
/// `<scratch>/cargo-mutants-*/` looks for them at `<scratch>/shared/data`, so `<scratch>/shared`
/// links to the real one.
fn scratch_dir(root: &Path, out: &Path) -> anyhow::Result<PathBuf> {
    let scratch = out.join("scratch");
    std::fs::create_dir_all(&scratch)?;
    let link = scratch.join("shared");
    let shared = root.join("../shared");
    if shared.exists() && std::fs::symlink_metadata(&link).is_err() {
        #[cfg(unix)]
        std::os::unix::fs::symlink(shared.canonicalize()?, &link)
            .with_context(|| format!("linking {}", link.display()))?;
    }
    Ok(scratch)
}

/// `name` with the regex metacharacters escaped (for `--re ^name$`).
fn regex_escape(name: &str) -> String {
    let mut s = String::with_capacity(name.len() + 8);
    for c in name.chars() {
        if "\\.+*?()|[]{}^$".contains(c) {
            s.push('\\');
        }
        s.push(c);
    }
    s
}

fn ensure_cargo_mutants() -> anyhow::Result<()> {
    let ok = Command::new("cargo")
        .args(["mutants", "--version"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        bail!("cargo-mutants is not installed: cargo install cargo-mutants --locked");
    }
    Ok(())
}

fn has_nextest() -> bool {
    Command::new("cargo")
        .args(["nextest", "--version"])
        .output()
        .is_ok_and(|o| o.status.success())
}

/// A mutant's outcome as `cargo mutants` records it.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    Caught,
    Timeout,
    Missed,
    Unviable,
}

/// The equivalent mutants: name -> reason.
fn equivalents(root: &Path) -> anyhow::Result<BTreeMap<String, String>> {
    let path = root.join(EQUIVALENT_FILE);
    let text =
        std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
    let mut map = BTreeMap::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let Some((name, reason)) = line.split_once('\t') else {
            bail!(
                "{}:{}: no tab between the mutant and the reason",
                EQUIVALENT_FILE,
                i + 1
            );
        };
        if reason.trim().is_empty() {
            bail!(
                "{}:{}: an equivalent mutant needs its reason",
                EQUIVALENT_FILE,
                i + 1
            );
        }
        map.insert(name.trim().to_string(), reason.trim().to_string());
    }
    Ok(map)
}

/// One group's results: each mutant's outcome, how many were generated, and the seconds the
/// last run spent building and testing (its baseline included; its retests not).
struct Results {
    list: Vec<(String, Kind)>,
    generated: usize,
    seconds: f64,
    /// Per mutated file: mutants, and the seconds of each one's latest recorded build and test
    /// (its retest where it was retested): what a rerun on today's tests costs, about.
    per_file: BTreeMap<String, (usize, f64)>,
    /// The baseline's seconds (the unmutated build and tests).
    baseline: f64,
}

/// The seconds `cargo mutants` recorded for one outcome: the sum of its phases (build, test).
fn phase_seconds(outcome: &Value) -> f64 {
    outcome["phase_results"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|p| p["duration"].as_f64())
        .sum()
}

/// The outcomes of one group's last run, with the mutants caught by its earlier runs when the
/// last one was `--iterate`.
fn outcomes(dir: &Path) -> anyhow::Result<Results> {
    let path = dir.join("mutants.out/outcomes.json");
    let text =
        std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
    let json: Value = serde_json::from_str(&text)?;
    // mutants.json lists every mutant of the run, written before the first is tested.
    let generated = std::fs::read_to_string(dir.join("mutants.out/mutants.json"))
        .ok()
        .and_then(|t| serde_json::from_str::<Value>(&t).ok())
        .and_then(|m| m.as_array().map(Vec::len))
        .unwrap_or(0);
    // name -> (outcome, file, seconds of its latest build and test); the file is unknown for
    // a mutant known only from `previously_caught.txt`.
    let mut entries: BTreeMap<String, (Kind, Option<String>, f64)> = BTreeMap::new();
    let mut seconds = 0.0;
    let mut baseline = 0.0;
    for o in json["outcomes"]
        .as_array()
        .context("outcomes.json without outcomes")?
    {
        seconds += phase_seconds(o);
        let Some(name) = o["scenario"]["Mutant"]["name"].as_str() else {
            baseline += phase_seconds(o);
            continue; // the baseline
        };
        let summary = o["summary"].as_str();
        let kind = summary.and_then(kind_of).with_context(|| {
            format!("{}: unknown outcome {summary:?} for {name}", path.display())
        })?;
        let file = o["scenario"]["Mutant"]["file"].as_str().map(str::to_string);
        entries.insert(name.to_string(), (kind, file, phase_seconds(o)));
    }
    let previous = dir.join("mutants.out/previously_caught.txt");
    if let Ok(text) = std::fs::read_to_string(previous) {
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            entries
                .entry(line.to_string())
                .or_insert((Kind::Caught, None, 0.0));
        }
    }
    // Later `--retest-missed` runs, in order: their outcomes (and times) replace those of the
    // mutants they tested.
    for k in 1.. {
        let retest = dir.join(format!("retest-{k}/mutants.out/outcomes.json"));
        let Ok(text) = std::fs::read_to_string(&retest) else {
            break;
        };
        let json: Value = serde_json::from_str(&text)?;
        for o in json["outcomes"].as_array().into_iter().flatten() {
            let (Some(name), Some(summary)) = (
                o["scenario"]["Mutant"]["name"].as_str(),
                o["summary"].as_str(),
            ) else {
                continue;
            };
            if let Some(entry) = entries.get_mut(name) {
                entry.0 = kind_of(summary).unwrap_or(Kind::Unviable);
                entry.2 = phase_seconds(o);
            }
        }
    }
    let generated = generated.max(entries.len());
    let mut per_file = BTreeMap::new();
    for (_, file, t) in entries.values() {
        if let Some(file) = file {
            let e = per_file.entry(file.clone()).or_insert((0, 0.0));
            e.0 += 1;
            e.1 += t;
        }
    }
    Ok(Results {
        list: entries
            .into_iter()
            .map(|(n, (kind, _, _))| (n, kind))
            .collect(),
        generated,
        seconds,
        per_file,
        baseline,
    })
}

/// A mutant's outcome from the `summary` field of `outcomes.json`.
fn kind_of(summary: &str) -> Option<Kind> {
    match summary {
        "CaughtMutant" => Some(Kind::Caught),
        "MissedMutant" => Some(Kind::Missed),
        "Timeout" => Some(Kind::Timeout),
        "Unviable" => Some(Kind::Unviable),
        _ => None,
    }
}

fn summarise(root: &Path, out: &Path, groups: &[&Group]) -> anyhow::Result<()> {
    summarise_with(&equivalents(root)?, out, groups)
}

/// The summary of the runs under `out` against the list of equivalent mutants `equivalent`.
fn summarise_with(
    equivalent: &BTreeMap<String, String>,
    out: &Path,
    groups: &[&Group],
) -> anyhow::Result<()> {
    let mut md = String::from(
        "# Mutation testing of the privacy-critical code\n\n\
         | group | tested | of | caught | timeout | missed | equivalent | unviable | score | minutes | now |\n\
         |---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n",
    );
    let mut files = String::from(
        "\n## Estimated cost of a rerun, per file\n\n\
         Each mutant's latest recorded build and test time (its retest where it was retested), \
         summed per file; a group's baseline (the unmutated build and tests) is added once in \
         the column `now` above.\n\n\
         | group | file | mutants | minutes |\n|---|---|---:|---:|\n",
    );
    let mut unexplained = Vec::new();
    let mut stale = Vec::new();
    let mut seen = Vec::new();
    // Groups not run, or whose last run tested one shard: an entry of the list missing from it
    // may be in another shard, so "no longer generated" is not judged for them.
    let mut sharded = Vec::new();
    // Groups whose run saved its listing: their stale entries are judged from it.
    let mut listed_groups = Vec::new();
    for g in groups {
        let dir = out.join(g.name);
        // An `--in-diff` run tested only the changed lines: like a shard, its listing is not the
        // group's, so the list's entries are not judged against it.
        let in_diff = std::fs::read_to_string(dir.join(IN_DIFF_FILE))
            .ok()
            .map(|rev| rev.trim().to_string());
        if let Some(rev) = &in_diff {
            sharded.push(g.name);
            let listing = std::fs::read_to_string(dir.join(GENERATED_FILE)).unwrap_or_default();
            if listing.trim().is_empty() {
                md.push_str(&format!(
                    "| {} (lines changed since {rev}) | 0 | 0 | no mutant on the changed lines | | | | | | | |\n",
                    g.name
                ));
                continue;
            }
        }
        let Results {
            list,
            generated: generated_count,
            seconds,
            per_file,
            baseline,
        } = match outcomes(&dir) {
            Ok(l) => l,
            Err(e) => {
                sharded.push(g.name);
                md.push_str(&format!(
                    "| {} | not run ({e}) | | | | | | | | | |\n",
                    g.name
                ));
                continue;
            }
        };
        let shard = std::fs::read_to_string(dir.join("shard.txt")).ok();
        if shard.is_some() {
            sharded.push(g.name);
        }
        let label = match (&shard, &in_diff) {
            (Some(k), _) => format!("{} (shard {})", g.name, k.trim()),
            (None, Some(rev)) => format!("{} (lines changed since {rev})", g.name),
            (None, None) => g.name.to_string(),
        };
        // The listed equivalents the run skipped and still listed (a sharded run skips those of
        // the whole group; shard 0 counts them), and the group's listing.
        let read_lines = |file: &str| -> Option<Vec<String>> {
            std::fs::read_to_string(dir.join(file)).ok().map(|t| {
                t.lines()
                    .filter(|l| !l.is_empty())
                    .map(str::to_string)
                    .collect()
            })
        };
        let generated = read_lines(GENERATED_FILE);
        let skipped: Vec<String> = read_lines(SKIPPED_FILE)
            .unwrap_or_default()
            .into_iter()
            .filter(|n| equivalent.contains_key(n))
            .collect();
        seen.extend(skipped.iter().cloned());
        if let Some(generated) = generated.as_ref().filter(|_| in_diff.is_none()) {
            for name in equivalent.keys() {
                if g.files.iter().any(|f| name.starts_with(f)) && !generated.contains(name) {
                    stale.push(format!("{name} (no longer generated)"));
                }
            }
            listed_groups.push(g.name);
        }
        let skipped = match shard.as_deref().map(str::trim) {
            Some(k) if !k.starts_with("0/") => 0,
            _ => skipped.len(),
        };
        let mut n = BTreeMap::new();
        let mut equiv = 0;
        for (name, kind) in &list {
            seen.push(name.clone());
            let listed = equivalent.contains_key(name);
            match kind {
                Kind::Missed if listed => equiv += 1,
                Kind::Missed => unexplained.push(name.clone()),
                Kind::Caught | Kind::Timeout if listed => stale.push(format!("{name} (caught)")),
                _ => {}
            }
            *n.entry(*kind).or_insert(0usize) += 1;
        }
        let get = |k| n.get(&k).copied().unwrap_or(0);
        let missed = get(Kind::Missed) - equiv;
        let killed = get(Kind::Caught) + get(Kind::Timeout);
        let judged = list.len() - get(Kind::Unviable) - equiv;
        let score = if judged == 0 {
            f64::NAN
        } else {
            killed as f64 / judged as f64
        };
        md.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} | {} | {} | {:.3} | {:.1} | {:.1} |\n",
            label,
            list.len(),
            generated_count + skipped,
            get(Kind::Caught),
            get(Kind::Timeout),
            missed,
            equiv + skipped,
            get(Kind::Unviable),
            score,
            seconds / 60.0,
            (baseline + per_file.values().map(|f| f.1).sum::<f64>()) / 60.0
        ));
        for (file, (n, t)) in &per_file {
            files.push_str(&format!("| {label} | `{file}` | {n} | {:.1} |\n", t / 60.0));
        }
    }
    for name in equivalent.keys() {
        let in_group = groups.iter().any(|g| {
            !sharded.contains(&g.name)
                && !listed_groups.contains(&g.name)
                && g.files.iter().any(|f| name.starts_with(f))
        });
        if in_group && !seen.contains(name) {
            stale.push(format!("{name} (no longer generated)"));
        }
    }
    md.push_str(
        "\nScore: (caught + timeout) / (tested - unviable - equivalent); `of` counts the mutants \
         generated, the listed equivalents the run skipped included (`--recheck-equivalents` \
         tests them too); `tested` below `of` minus the skipped equivalents means the run was \
         stopped (or is still going) before every generated mutant was tested. \
         Minutes: the build and test time `cargo mutants` recorded for the last run (baseline \
         included, retests not), about its wall time at `--jobs 1`; now: the same with each \
         retested mutant's retest time in place of its first (a rerun with today's tests \
         spends less on a mutant that is now caught early).\n",
    );
    md.push_str(&files);
    if !unexplained.is_empty() {
        md.push_str("\n## Missed, neither killed nor listed as equivalent\n\n");
        for m in &unexplained {
            md.push_str(&format!("- `{m}`\n"));
        }
    }
    if !stale.is_empty() {
        md.push_str(&format!("\n## Stale entries of {EQUIVALENT_FILE}\n\n"));
        for m in &stale {
            md.push_str(&format!("- `{m}`\n"));
        }
    }
    std::fs::create_dir_all(out)?;
    std::fs::write(out.join("summary.md"), &md)?;
    print!("{md}");
    println!("written: {}", out.join("summary.md").display());
    if !unexplained.is_empty() || !stale.is_empty() {
        bail!(
            "{} missed mutants are neither killed nor listed as equivalent, {} entries of {EQUIVALENT_FILE} are stale",
            unexplained.len(),
            stale.len()
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const GROUP: Group = Group {
        name: "g",
        package: "p",
        files: &["src/a.rs"],
        left_out: &[],
        tests: None,
        timeout: 10,
    };

    fn outcome(name: &str, summary: &str) -> Value {
        serde_json::json!({
            "scenario": {"Mutant": {"name": name, "file": "src/a.rs"}},
            "summary": summary,
            "phase_results": [{"phase": "Build", "duration": 2.0}, {"phase": "Test", "duration": 1.0}],
        })
    }

    /// A run folder for the group: the outcomes (a baseline and `tested`), and the listing.
    fn run_dir(
        label: &str,
        tested: &[(&str, &str)],
        generated: &[&str],
        skipped: &[&str],
    ) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("xtask-mutants-test-{}-{label}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let mo = dir.join("g/mutants.out");
        std::fs::create_dir_all(&mo).unwrap();
        let mut outcomes = vec![serde_json::json!({
            "scenario": "Baseline", "summary": "Success",
            "phase_results": [{"phase": "Build", "duration": 30.0}],
        })];
        outcomes.extend(tested.iter().map(|(n, k)| outcome(n, k)));
        std::fs::write(
            mo.join("outcomes.json"),
            serde_json::json!({ "outcomes": outcomes }).to_string(),
        )
        .unwrap();
        let names: Vec<_> = tested.iter().map(|(n, _)| *n).collect();
        std::fs::write(
            mo.join("mutants.json"),
            serde_json::to_string(&names).unwrap(),
        )
        .unwrap();
        std::fs::write(dir.join("g").join(GENERATED_FILE), generated.join("\n")).unwrap();
        std::fs::write(dir.join("g").join(SKIPPED_FILE), skipped.join("\n")).unwrap();
        dir
    }

    fn listed(names: &[&str]) -> BTreeMap<String, String> {
        names
            .iter()
            .map(|n| (n.to_string(), "reason".to_string()))
            .collect()
    }

    /// The row of the summary whose label is `label`, split into its cells.
    fn row(dir: &Path, label: &str) -> Vec<String> {
        let md = std::fs::read_to_string(dir.join("summary.md")).unwrap();
        let line = md
            .lines()
            .find(|l| l.starts_with(&format!("| {label} |")))
            .unwrap();
        line.split('|').map(|c| c.trim().to_string()).collect()
    }

    #[test]
    fn a_skipped_listed_equivalent_counts_as_equivalent_not_as_tested() {
        // Generated: a, b, c, e (listed, skipped by the run); tested: a caught, b timeout,
        // c unviable.
        let dir = run_dir(
            "skipped",
            &[
                ("src/a.rs:1:1: a", "CaughtMutant"),
                ("src/a.rs:2:1: b", "Timeout"),
                ("src/a.rs:3:1: c", "Unviable"),
            ],
            &[
                "src/a.rs:1:1: a",
                "src/a.rs:2:1: b",
                "src/a.rs:3:1: c",
                "src/a.rs:4:1: e",
            ],
            &["src/a.rs:4:1: e"],
        );
        summarise_with(&listed(&["src/a.rs:4:1: e"]), &dir, &[&GROUP]).unwrap();
        let r = row(&dir, "g");
        // | g | tested | of | caught | timeout | missed | equivalent | unviable | score | ...
        assert_eq!(&r[2..10], ["3", "4", "1", "1", "0", "1", "1", "1.000"]);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_listed_equivalent_no_longer_generated_is_stale_and_fails_the_summary() {
        let dir = run_dir(
            "stale",
            &[("src/a.rs:1:1: a", "CaughtMutant")],
            &["src/a.rs:1:1: a"],
            &[],
        );
        let err = summarise_with(&listed(&["src/a.rs:9:9: gone"]), &dir, &[&GROUP])
            .unwrap_err()
            .to_string();
        assert!(err.contains("1 entries"), "{err}");
        let md = std::fs::read_to_string(dir.join("summary.md")).unwrap();
        assert!(
            md.contains("src/a.rs:9:9: gone (no longer generated)"),
            "{md}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn an_in_diff_run_is_labelled_and_does_not_judge_the_list_outside_its_lines() {
        // The run's listing is the changed lines only: a listed equivalent elsewhere in the
        // file (9:9) is not stale; the run's own outcomes are counted as usual.
        let dir = run_dir(
            "in-diff",
            &[
                ("src/a.rs:1:1: a", "CaughtMutant"),
                ("src/a.rs:2:1: b", "MissedMutant"),
            ],
            &["src/a.rs:1:1: a", "src/a.rs:2:1: b"],
            &[],
        );
        std::fs::write(dir.join("g").join(IN_DIFF_FILE), "abc123\n").unwrap();
        let err = summarise_with(&listed(&["src/a.rs:9:9: elsewhere"]), &dir, &[&GROUP])
            .unwrap_err()
            .to_string();
        // The one failure is the missed b, not a stale entry.
        assert!(
            err.starts_with("1 missed") && err.contains(", 0 entries"),
            "{err}"
        );
        let r = row(&dir, "g (lines changed since abc123)");
        assert_eq!(&r[2..10], ["2", "2", "1", "0", "1", "0", "0", "0.500"]);
        // No mutant on the changed lines: a row saying so, and nothing stale.
        std::fs::remove_dir_all(dir.join("g/mutants.out")).unwrap();
        std::fs::write(dir.join("g").join(GENERATED_FILE), "").unwrap();
        summarise_with(&listed(&["src/a.rs:9:9: elsewhere"]), &dir, &[&GROUP]).unwrap();
        let r = row(&dir, "g (lines changed since abc123)");
        assert_eq!(r[4], "no mutant on the changed lines");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_missed_mutant_that_is_not_listed_fails_the_summary() {
        let dir = run_dir(
            "missed",
            &[
                ("src/a.rs:1:1: a", "CaughtMutant"),
                ("src/a.rs:5:5: m", "MissedMutant"),
            ],
            &["src/a.rs:1:1: a", "src/a.rs:5:5: m", "src/a.rs:6:6: f"],
            &["src/a.rs:6:6: f"],
        );
        let err = summarise_with(&listed(&["src/a.rs:6:6: f"]), &dir, &[&GROUP])
            .unwrap_err()
            .to_string();
        assert!(err.starts_with("1 missed"), "{err}");
        let r = row(&dir, "g");
        assert_eq!(&r[2..10], ["2", "3", "1", "0", "1", "1", "0", "0.500"]);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_recheck_names_a_caught_listed_mutant_and_a_later_shard_does_not_count_the_skipped() {
        // --recheck-equivalents: nothing skipped, the listed e tested and caught: stale.
        let dir = run_dir(
            "recheck",
            &[
                ("src/a.rs:1:1: a", "CaughtMutant"),
                ("src/a.rs:4:1: e", "CaughtMutant"),
            ],
            &["src/a.rs:1:1: a", "src/a.rs:4:1: e"],
            &[],
        );
        let err = summarise_with(&listed(&["src/a.rs:4:1: e"]), &dir, &[&GROUP])
            .unwrap_err()
            .to_string();
        assert!(err.contains("1 entries"), "{err}");
        let md = std::fs::read_to_string(dir.join("summary.md")).unwrap();
        assert!(md.contains("src/a.rs:4:1: e (caught)"), "{md}");
        std::fs::remove_dir_all(&dir).unwrap();
        // Shard 1/2 skipped e too, but shard 0/2 counts it: not this one.
        let dir = run_dir(
            "shard",
            &[("src/a.rs:2:1: b", "CaughtMutant")],
            &["src/a.rs:1:1: a", "src/a.rs:2:1: b", "src/a.rs:4:1: e"],
            &["src/a.rs:4:1: e"],
        );
        std::fs::write(dir.join("g/shard.txt"), "1/2").unwrap();
        summarise_with(&listed(&["src/a.rs:4:1: e"]), &dir, &[&GROUP]).unwrap();
        let r = row(&dir, "g (shard 1/2)");
        assert_eq!(&r[2..10], ["1", "1", "1", "0", "0", "0", "0", "1.000"]);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
