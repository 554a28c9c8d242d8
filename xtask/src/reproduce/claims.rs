//! The claims table of a reproduction: each figure's claims tested over its draws
//! ([`bandit::experiment::claim`]), written into `summary.md` and `claims.json`.

use std::fmt::Write as _;

use bandit::experiment::claim::{ClaimResult, LEVEL, Ordering};

/// `p` in the table: three significant digits, scientific below 1e-3.
fn p(v: f64) -> String {
    if v < 1e-3 {
        format!("{v:.1e}")
    } else {
        format!("{v:.3}")
    }
}

fn ordering_cell(o: &Ordering) -> String {
    let t = &o.test;
    format!(
        "{} < {}: {}/{} draws below ({} ties), mean diff {:+.4}; sign p = {} (reverse {}), Wilcoxon p = {}{}",
        o.lower,
        o.higher,
        t.below,
        t.draws,
        t.ties,
        t.mean_difference,
        p(t.sign.below),
        p(t.sign.above),
        p(t.wilcoxon.below),
        if t.wilcoxon_exact {
            ""
        } else {
            " (normal approx.)"
        }
    )
}

/// The Markdown section: one row per claim, its ablations below it.
pub fn section(results: &[ClaimResult]) -> String {
    let mut md = String::new();
    let _ = writeln!(md, "\n## Claims\n");
    if results.is_empty() {
        let _ = writeln!(md, "No figure that ran states a claim.");
        return md;
    }
    let _ = writeln!(
        md,
        "Each claim of the paper is tested with paired tests across the figure's draws (curves \
         paired by trial seed): HOLDS when the exact sign test gives p <= {LEVEL} for the claimed \
         ordering, DOES NOT HOLD when it gives p <= {LEVEL} for the reverse, INCONCLUSIVE \
         otherwise (a trend over k curves: each of its k - 1 orderings at {LEVEL}/(k - 1)). \
         The Wilcoxon signed-rank p-value is shown beside the sign test's. Machine-readable: \
         `claims.json`.\n"
    );
    let _ = writeln!(md, "| figure | claim | verdict | draws | test | source |");
    let _ = writeln!(md, "|---|---|---|---|---|---|");
    for r in results {
        let draws = r.orderings.first().map_or(0, |o| o.test.draws);
        let tests: Vec<String> = r.orderings.iter().map(ordering_cell).collect();
        let _ = writeln!(
            md,
            "| {} | {} | **{}** | {} {}{} | {} | {} |",
            r.figure,
            r.claim.describe(),
            r.verdict,
            draws,
            r.problem.draws_are(),
            if r.trials_per_draw > 1 {
                format!(" ({} trials each)", r.trials_per_draw)
            } else {
                String::new()
            },
            tests.join("; "),
            r.claim.source.replace('|', "\\|"),
        );
        for (ab, o) in &r.ablations {
            let _ = writeln!(
                md,
                "| {} | ablation `{}` ({}) against `{}` | {} | {} | {} | explains `{}` |",
                r.figure,
                ab.label,
                ab.changes,
                ab.base,
                o.verdict,
                o.test.draws,
                ordering_cell(o),
                r.claim.id
            );
        }
    }
    md
}
