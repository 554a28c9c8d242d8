//! The reproduction's own summary section: early and final regret per curve, the privacy
//! losses beside the paper's, and Fig. 3a's table.

use std::fmt::Write as _;

use bandit::experiment::{self, FigureResult};

use privacy::accountant::{PldSettings, subsampled_gaussian_pld_epsilon};

use crate::params::DpFtsDeParams;

use super::panels::{EARLY, PAPER_EPSILON_Q, PAPER_EPSILON_Z, REAL_WORLD_SETTINGS, num, panels};
use super::problems::SYNTHETIC_AGENTS;
use super::runs::{CLIPPED, EPSILON, NTS_EARLY, NTS_LATE, NTS_RELEASE};

/// Mean and standard error over trials of `values(trial)`.
fn mean_se(values: impl Iterator<Item = f64>) -> (f64, f64) {
    let v: Vec<f64> = values.collect();
    let n = v.len() as f64;
    let m = v.iter().sum::<f64>() / n;
    if v.len() < 2 {
        return (m, 0.0);
    }
    let var = v.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / (n - 1.0);
    (m, (var / n).sqrt())
}

/// Final simple regret of a curve (mean, SE over runs).
fn final_regret(c: &experiment::CurveResult) -> (f64, f64) {
    mean_se(
        c.batch
            .trials
            .iter()
            .map(|t| t.simple_regret.last().copied().unwrap_or(f64::NAN)),
    )
}

/// Mean simple regret over iterations `1..=EARLY` (after the initial queries), per run: the
/// "early" performance (mean, SE over runs).
fn early_regret(c: &experiment::CurveResult, n_init: usize) -> (f64, f64) {
    mean_se(c.batch.trials.iter().map(|t| {
        let s = &t.simple_regret;
        let end = (n_init + EARLY).min(s.len());
        let w = &s[n_init.min(end)..end];
        if w.is_empty() {
            f64::NAN
        } else {
            w.iter().sum::<f64>() / w.len() as f64
        }
    }))
}

fn diag(c: &experiment::CurveResult, name: &str) -> Vec<f64> {
    c.diagnostics
        .iter()
        .filter(|(n, _)| n == name)
        .map(|(_, v)| *v)
        .collect()
}

/// The PLD loss of `T` releases at `(q, z)` and `delta` (`None` if the accountant fails).
fn pld(q: f64, z: f64, steps: u64, delta: f64) -> Option<f64> {
    subsampled_gaussian_pld_epsilon(q, z, steps, delta, PldSettings::default())
        .ok()
        .map(|e| e.epsilon)
}

pub(super) fn summary(results: &[FigureResult]) -> String {
    let all = panels();
    let mut md = String::from(
        "## Dai 2021 beside the paper\n\nEvery number is the mean simple regret over agents, \
         averaged over runs, +- the standard error over the run means. `early` is the mean over \
         iterations 1..=10, `final` the value after the last iteration. `clipped` is the \
         fraction of received vectors clipped (mean over runs). `noise/signal` is the server's \
         noise standard deviation over the root mean square of its noise-free aggregate \
         (`z s S / q`, with `s = phi_max` or, for the realised-weights calibration, \
         `max_n ||phi_n|| / sqrt(P)`, against `sum_n phi_n clip(omega_n)`, per coordinate), averaged \
         over the first 10 releases / the last 10 and over runs: a diagnostic from private \
         inputs, never released.\n\n\
         | figure | curve | early | final | clipped | noise/signal (first 10 / last 10 releases) |\n|---|---|---|---|---|---|\n",
    );
    for r in results {
        let Ok(panel) = experiment::find_panel(&all, "dp-fts-de", r.figure.id) else {
            continue;
        };
        for (c, (_, params)) in r.curves.iter().zip(panel.curves()) {
            let (em, es) = early_regret(c, params.n_init);
            let (fm, fs) = final_regret(c);
            let clipped = diag(c, CLIPPED);
            let clipped = if clipped.is_empty() {
                "-".to_string()
            } else {
                format!(
                    "{:.2}%",
                    100.0 * clipped.iter().sum::<f64>() / clipped.len() as f64
                )
            };
            let (early, late) = (diag(c, NTS_EARLY), diag(c, NTS_LATE));
            let nts = if early.is_empty() {
                "-".to_string()
            } else {
                let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
                format!("{:.3} / {:.3}", mean(&early), mean(&late))
            };
            let _ = writeln!(
                md,
                "| {} | {} | {em:.4} +- {es:.4} | {fm:.4} +- {fs:.4} | {clipped} | {nts} |",
                r.figure.id, c.label
            );
        }
    }

    let find = |id: &str| results.iter().find(|r| r.figure.id == id);
    md.push_str(
        "\nThe paper's claims about these figures are tested in the claims table above (paired \
         tests over the runs: problem draws on the synthetic problems).\n",
    );

    // Fig. 4's noise-to-signal ratio per release (finding 2: DE's early noise).
    if let Some(r) = find("fig4") {
        let private: Vec<&experiment::CurveResult> = r
            .curves
            .iter()
            .filter(|c| !diag(c, NTS_EARLY).is_empty())
            .collect();
        let releases = private.first().map_or(0, |c| {
            c.batch.config.horizon - DpFtsDeParams::synthetic().n_init
        });
        let _ = write!(
            md,
            "\n### Fig. 4: the broadcast's noise-to-signal ratio per release\n\n\
             Noise standard deviation over the root mean square of the noise-free aggregate, per \
             release (release `t` is the aggregate of iteration `t`, followed at `t + 1`), mean \
             over runs; a diagnostic from private inputs, never released.\n\n| release |"
        );
        for c in &private {
            let _ = write!(md, " {} |", c.label);
        }
        md.push_str("\n|---|");
        md.push_str(&"---|".repeat(private.len()));
        md.push('\n');
        for t in 0..releases {
            let name = format!("{NTS_RELEASE}{t:02}");
            let _ = write!(md, "| {t} |");
            for c in &private {
                let v = diag(c, &name);
                let m = v.iter().sum::<f64>() / v.len().max(1) as f64;
                let _ = write!(md, " {m:.3} |");
            }
            md.push('\n');
        }
    }

    // Privacy losses of Fig. 2c and 2d.
    let syn = DpFtsDeParams::synthetic();
    let delta_syn = (SYNTHETIC_AGENTS as f64).powf(-1.1);
    let privacy_rows = |md: &mut String, id: &str, rows: &[(f64, f64, f64, &str)]| {
        let r = find(id);
        for &(q, z, paper, label) in rows {
            let ours = r
                .and_then(|r| r.curves.iter().find(|c| c.label == label))
                .and_then(|c| diag(c, EPSILON).first().copied());
            let steps = r.map_or(syn.iterations, |r| {
                r.curves[0].batch.config.horizon - syn.n_init
            }) as u64;
            let _ = writeln!(
                md,
                "| {id} | {q} | {z} | {steps} | {paper:.2} | {} | {} |",
                ours.map_or("not run".into(), |e| format!("{e:.2}")),
                pld(q, z, steps, delta_syn).map_or("-".into(), |e| format!("{e:.2}"))
            );
        }
    };
    if find("fig2c").is_some() || find("fig2d").is_some() {
        let _ = write!(
            md,
            "\n### Privacy losses of Fig. 2c and 2d (delta = 200^-1.1)\n\n\
             `ours` is the paper's accountant (RDP, integer orders 2..=33, classic conversion) \
             after the run's releases; `PLD` the privacy-loss-distribution accountant (default \
             settings) for the same q, z, releases and delta.\n\n\
             | figure | q | z | releases | paper | ours | PLD |\n|---|---|---|---|---|---|---|\n"
        );
        let q_rows: Vec<(f64, f64, f64, String)> = PAPER_EPSILON_Q
            .iter()
            .map(|&(q, e)| (q, 1.0, e, format!("q-{}", num(q))))
            .collect();
        let z_rows: Vec<(f64, f64, f64, String)> = PAPER_EPSILON_Z
            .iter()
            .map(|&(z, e)| (0.25, z, e, format!("z-{}", num(z))))
            .collect();
        let as_ref = |v: &[(f64, f64, f64, String)]| -> Vec<(f64, f64, f64, String)> { v.to_vec() };
        for (id, rows) in [("fig2c", as_ref(&q_rows)), ("fig2d", as_ref(&z_rows))] {
            let rows: Vec<(f64, f64, f64, &str)> = rows
                .iter()
                .map(|(a, b, c, d)| (*a, *b, *c, d.as_str()))
                .collect();
            privacy_rows(&mut md, id, &rows);
        }
    }

    // The curves and ablations of Fig. 4 and Fig. 6: each private curve's loss (the z = 0.4
    // and z = 0.5 ablations pay for their lower noise or wider clip with a larger one).

    for id in ["fig4", "fig6"] {
        let (Some(r), Ok(panel)) = (find(id), experiment::find_panel(&all, "dp-fts-de", id)) else {
            continue;
        };
        let _ = write!(
            md,
            "\n### Privacy losses of {id}'s curves (delta = 200^-1.1)\n\n\
             | curve | q | z | calibration | releases | ours | PLD |\n|---|---|---|---|---|---|---|\n"
        );
        for (c, (_, params)) in r.curves.iter().zip(panel.curves()) {
            let Some(dp) = params.privacy else { continue };
            let steps = (c.batch.config.horizon - params.n_init) as u64;
            let ours = diag(c, EPSILON).first().copied();
            let _ = writeln!(
                md,
                "| {} | {} | {} | {} | {steps} | {} | {} |",
                c.label,
                dp.q,
                dp.z,
                dp.calibration.name(),
                ours.map_or("-".into(), |e| format!("{e:.2}")),
                pld(dp.q, dp.z, steps, delta_syn).map_or("-".into(), |e| format!("{e:.2}"))
            );
        }
    }

    // Fig. 3a: privacy vs utility on the stand-ins.
    for (a, d, name, agents) in [
        ("fig3a", "fig3d", "the SVM-digits stand-in", 29),
        (
            "fig3a-noisy",
            "fig3d-noisy",
            "the noisy-digits stand-in",
            20,
        ),
    ] {
        if let Some(r) = find(a) {
            fig3_table(&mut md, r, find(d), name, agents);
        }
    }
    if find("fig3a").is_some() {
        md.push_str(
            "\nThe SVM-digits stand-in keeps the paper's real-world preset unchanged (lengthscale \
             0.01 on a 25 x 25 grid with spacing 1/24 = 0.042: neighbouring grid points are \
             almost uncorrelated under the model, so each agent's surrogate learns little beyond \
             the points it queried), and ten random grid points already come within 0.022 of an \
             agent's best: an easy case that cannot tell the algorithms apart. The noisy-digits \
             stand-in (random search 0.261 short) uses lengthscale 0.1, its landscapes' median \
             fit; see `dp_fts_de::experiments` docs.\n",
        );
    }
    md
}

/// Fig. 3a's table for one stand-in: every private setting's losses and final gap, then the
/// first three curves of its Fig. 3d (no DP).
fn fig3_table(
    md: &mut String,
    r: &FigureResult,
    d: Option<&FigureResult>,
    name: &str,
    agents: usize,
) {
    let steps = (r.curves[0].batch.config.horizon - DpFtsDeParams::real_world().n_init) as u64;
    let delta = (agents as f64).powf(-1.1);
    let _ = write!(
        md,
        "\n### Fig. 3a on {name} (N = {agents}, delta = {agents}^-1.1, {steps} releases)\n\n\
         Final mean simple regret = gap of the validation error 1 - accuracy to each agent's \
         best grid point (+- SE over runs).\n\n\
         | setting | eps (paper's accountant) | eps (PLD) | final error gap | clipped |\n\
         |---|---|---|---|---|\n"
    );
    let rows = r
        .curves
        .iter()
        .zip(REAL_WORLD_SETTINGS)
        .map(|(c, (q, z))| (c, Some((q, z))))
        .chain(
            d.into_iter()
                .flat_map(|d| d.curves.iter().take(3).map(|c| (c, None))),
        );
    for (c, qz) in rows {
        let (m, s) = final_regret(c);
        let eps = diag(c, EPSILON).first().copied();
        let clipped = diag(c, CLIPPED);
        let (e1, e2, cl) = match qz {
            Some((q, z)) => (
                eps.map_or("-".into(), |e| format!("{e:.2}")),
                pld(q, z, steps, delta).map_or("-".into(), |e| format!("{e:.2}")),
                format!(
                    "{:.2}%",
                    100.0 * clipped.iter().sum::<f64>() / clipped.len().max(1) as f64
                ),
            ),
            None => ("no DP".into(), "no DP".into(), "-".into()),
        };
        let _ = writeln!(
            md,
            "| {} | {e1} | {e2} | {m:.4} +- {s:.4} | {cl} |",
            c.label
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mean_se_by_hand() {
        let (m, s) = mean_se([1.0, 2.0, 3.0].into_iter());
        assert!((m - 2.0).abs() < 1e-15);
        // sd = 1, se = 1/sqrt(3).
        assert!((s - 1.0 / 3f64.sqrt()).abs() < 1e-15);
    }
}
