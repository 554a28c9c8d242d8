//! `cargo xtask compare DIR`: compare another implementation's fixture outputs with ours.
//!
//! `DIR` mirrors `fixtures/`: for `fixtures/kernel/se_gram.json` the other implementation
//! writes `DIR/kernel/se_gram.json` with `{"outputs": {...}}` in the fixture's schema
//! (`fixtures/schema/kernel/se_gram.schema.json`). Fixtures without a file are listed as not
//! provided. For each file: schema check, then per output field the largest absolute and
//! relative error and pass/fail against the tolerance the fixture states
//! (`verification::fixtures::compare`). Exit status: 0 when every compared field is within
//! tolerance, 3 when one is not, 1 on bad input (unknown fixture, a file that is not JSON or
//! does not match its schema, an unreadable folder), 2 on a malformed command line.

use std::path::PathBuf;

use anyhow::bail;
use verification::fixtures::compare::{FixtureOutcome, Report, compare_directory, published};

/// Options of `compare`.
#[derive(clap::Args)]
pub struct Args {
    /// Folder of your outputs, laid out like fixtures/ (DIR/kernel/se_gram.json, ...).
    dir: PathBuf,
    /// Compare only these fixtures (e.g. kernel/se_gram); repeatable. Default: every fixture
    /// with a file in DIR.
    #[arg(long = "fixture", value_name = "AREA/NAME")]
    fixtures: Vec<String>,
    /// Print the report as JSON instead of a table.
    #[arg(long)]
    json: bool,
    /// Show only the failing fields (default: every field of every compared fixture).
    #[arg(long)]
    failing_only: bool,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let fixtures = published(&crate::workspace_root().join("fixtures"))?;
    let report = compare_directory(&fixtures, &args.dir, &args.fixtures)?;
    if args.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        print(&report, !args.failing_only);
    }
    if report.schema_mismatches() > 0 {
        bail!(
            "{} file(s) do not match their fixture's schema (fixtures/schema/AREA/NAME.schema.json)",
            report.schema_mismatches()
        );
    }
    if report.failed() > 0 {
        std::process::exit(3);
    }
    Ok(())
}

fn print(report: &Report, all_fields: bool) {
    for (name, outcome) in &report.fixtures {
        match outcome {
            FixtureOutcome::NotProvided => println!("{name}: not provided"),
            FixtureOutcome::SchemaMismatch { problems } => {
                println!("{name}: SCHEMA MISMATCH");
                for p in problems {
                    println!("    {p}");
                }
            }
            FixtureOutcome::Compared { fields, pass } => {
                let n: usize = fields.iter().map(|f| f.values).sum();
                println!(
                    "{name}: {} ({} fields, {n} values)",
                    if *pass { "pass" } else { "FAIL" },
                    fields.len()
                );
                for f in fields.iter().filter(|f| all_fields || !f.pass) {
                    println!(
                        "    {:<4} {:<32} max abs {:.3e}  max rel {:.3e}  tolerance abs {:.1e} + rel {:.1e} ({}){}",
                        if f.pass { "ok" } else { "FAIL" },
                        f.field,
                        f.max_abs_error,
                        f.max_rel_error,
                        f.tolerance.absolute,
                        f.tolerance.relative,
                        f.tolerance.units,
                        if f.pass {
                            String::new()
                        } else {
                            format!(
                                "\n         {} of {} values outside; worst {}",
                                f.failures,
                                f.values,
                                f.worst.as_deref().unwrap_or("-")
                            )
                        }
                    );
                }
            }
        }
    }
    for p in &report.ignored {
        println!("ignored {p} (no `outputs` key)");
    }
    println!(
        "\n{} passed, {} failed, {} schema mismatches, {} not provided",
        report.passed(),
        report.failed(),
        report.schema_mismatches(),
        report.not_provided()
    );
}
