//! The spectrum of the noise the server sees (Definition 3, Lemma 3): over short seeded runs of
//! the real privatizer, every `H_t = Sigma~_t - Sigma_t` must have its eigenvalues in
//! `[lambda_min, lambda_max]` and every `h_t = u~_t - u_t` norm at most `h_norm`; and the
//! positive control that shifts every entry instead of the diagonal (post-processing, not a
//! privacy violation: the spectrum is what it breaks).

use std::sync::Arc;

use crate::shared::ALPHA;
use jdp_qff::{JdpCalibration, JdpPrivatizer, Spectrum, SpectrumRule};
use kernel::FeatureMap;
use kernel::linalg::symmetric_eigen;
use ndarray::{Array1, Array2};
use privacy::accountant::zcdp::ZcdpConversion;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha20Rng;
use verification::CheckKind;
use verification::{CheckResult, Context, Outcome, verdict};

/// What the runs showed: the extreme eigenvalues of `H_t` and the largest `||h_t||` over every
/// round of every run, and the bounds.
struct SpectrumRun {
    spectrum: Spectrum,
    min_eig: f64,
    max_eig: f64,
    max_h: f64,
    rounds_outside: usize,
    rounds: usize,
    runs: usize,
    horizon: u64,
    m: usize,
    zeta: f64,
}

/// `runs` runs of `T` rounds of the real [`JdpPrivatizer`] (hardened sampler, `alpha = 1`,
/// `beta = 0.1`, `B_y = 1`, NQFF `d = 2`, `mbar = 3`: `m = 18`) on points uniform in
/// `[-2, 2]^2` with Bernoulli(1/2) rewards, its spectrum at confidence `zeta = ALPHA / runs`
/// (Lemma 3 holds for all `T` rounds of a run with probability `>= 1 - zeta`, so all runs hold
/// with probability `>= 1 - ALPHA`). `every_entry`: the release as the broken prototype makes
/// it, with the shift added to every entry (`Sigma~ - shift I + shift 1 1^T`).
fn spectrum_runs(
    ctx: &Context,
    rule: SpectrumRule,
    every_entry: bool,
) -> Result<SpectrumRun, verification::CheckError> {
    let runs = ctx.mode.pick(3, 6);
    let horizon: u64 = ctx.mode.pick(64, 256);
    let features = Arc::new(jdp_qff::features::nqff(2, 1.0, 3)?);
    let m = features.dim();
    let zeta = ALPHA / runs as f64;
    let cal = JdpCalibration::new(1.0, 0.1, horizon, 1.0, ZcdpConversion::Classic)?;
    let spectrum = Spectrum::jdp(&cal, m, zeta, rule)?;
    let mut out = SpectrumRun {
        spectrum,
        min_eig: f64::INFINITY,
        max_eig: f64::NEG_INFINITY,
        max_h: 0.0,
        rounds_outside: 0,
        rounds: 0,
        runs,
        horizon,
        m,
        zeta,
    };
    for run in 0..runs {
        let mut rng = ChaCha20Rng::seed_from_u64(ctx.sub_seed(&format!("run-{run}")));
        let mut p = JdpPrivatizer::new(Arc::clone(&features), cal.clone(), spectrum)?;
        let mut sigma = Array2::<f64>::zeros((m, m));
        let mut u = Array1::<f64>::zeros(m);
        for _ in 0..horizon {
            let x = Array1::from_shape_fn(2, |_| 4.0 * rng.random::<f64>() - 2.0);
            let y = if rng.random::<f64>() < 0.5 { 0.0 } else { 1.0 };
            let release = p.privatize(x.view(), y, &mut rng)?;
            let phi = features.map(x.view())?;
            let col = phi.view().insert_axis(ndarray::Axis(1));
            sigma += &col.dot(&col.t());
            u.scaled_add(y, &phi);
            let mut h = release.sigma() - &sigma;
            if every_entry {
                let s = spectrum.shift;
                h.mapv_inplace(|v| v + s);
                h.diag_mut().mapv_inplace(|v| v - s);
            }
            let eig = symmetric_eigen("H_t", h.view())?;
            let (lo, hi) = (eig.values[0], eig.values[m - 1]);
            let hn = (release.u() - &u).mapv(|v| v * v).sum().sqrt();
            out.min_eig = out.min_eig.min(lo);
            out.max_eig = out.max_eig.max(hi);
            out.max_h = out.max_h.max(hn);
            out.rounds += 1;
            if lo < spectrum.lambda_min || hi > spectrum.lambda_max || hn > spectrum.h_norm {
                out.rounds_outside += 1;
            }
        }
    }
    Ok(out)
}

fn outcome(ctx: &Context, rule: SpectrumRule, every_entry: bool) -> CheckResult {
    let r = spectrum_runs(ctx, rule, every_entry)?;
    let s = &r.spectrum;
    let inside = r.rounds_outside == 0;
    let rule_name = match rule {
        SpectrumRule::Paper => "the paper's Lemma 3 constants",
        SpectrumRule::Derived => "the derived (matrix Gaussian series) constants",
    };
    let measured = format!(
        "eigenvalues of H_t in [{:.3}, {:.3}] against [lambda_min, lambda_max] = [{:.3}, {:.3}] (shift {:.3}); max ||h_t|| = {:.3} against h_norm = {:.3}; {} of {} rounds outside ({} runs of T = {}, m = {}, zeta = {:e})",
        r.min_eig,
        r.max_eig,
        s.lambda_min,
        s.lambda_max,
        s.shift,
        r.max_h,
        s.h_norm,
        r.rounds_outside,
        r.rounds,
        r.runs,
        r.horizon,
        r.m,
        r.zeta
    );
    let (kind, subject, claim, v) = if every_entry {
        (
            CheckKind::PositiveControl,
            format!(
                "Algorithm 2's releases with the PSD shift added to every entry instead of the diagonal, spectrum of {rule_name}"
            ),
            "the spectrum check catches the broken shift (some round outside the bounds)"
                .to_string(),
            verdict(!inside),
        )
    } else {
        (
            CheckKind::Property,
            format!("the noise of jdp_qff::JdpPrivatizer's releases, spectrum of {rule_name}"),
            format!(
                "over every round of {} seeded runs, lambda_min <= eig(H_t) <= lambda_max and ||h_t|| <= h_norm (Lemma 3 at zeta = ALPHA / runs: holds for all runs with probability >= 1 - {ALPHA:e})",
                r.runs
            ),
            verdict(inside),
        )
    };
    let mut o = Outcome::new(kind, subject, claim, measured, v)
        .value("lambda_min", s.lambda_min)
        .value("lambda_max", s.lambda_max)
        .value("shift", s.shift)
        .value("h_norm", s.h_norm)
        .value("kappa", s.kappa())
        .value("min_eigenvalue", r.min_eig)
        .value("max_eigenvalue", r.max_eig)
        .value("max_h_norm", r.max_h)
        .value("rounds_outside", r.rounds_outside)
        .value("rounds", r.rounds);
    if !every_entry {
        o = o.false_alarm(ALPHA);
    }
    Ok(o)
}

pub(super) fn spectrum_paper(ctx: &Context) -> CheckResult {
    outcome(ctx, SpectrumRule::Paper, false)
}

pub(super) fn spectrum_derived(ctx: &Context) -> CheckResult {
    outcome(ctx, SpectrumRule::Derived, false)
}

pub(super) fn control_shift_every_entry(ctx: &Context) -> CheckResult {
    outcome(ctx, SpectrumRule::Derived, true)
}
