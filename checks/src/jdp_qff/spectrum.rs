//! The spectrum of the noise the server sees (Definition 3; Lemma 3 for Algorithm 2, Lemma 6
//! for Algorithm 3): over short seeded runs of the real privatizer or clients, every
//! `H_t = Sigma~_t - Sigma_t` must have its eigenvalues in `[lambda_min, lambda_max]` and every
//! `h_t = u~_t - u_t` norm at most `h_norm`. Two positive controls: the shift added to every
//! entry instead of the diagonal (post-processing, not a privacy violation: the spectrum is what
//! it breaks), and Lemma 6's `kappa` as printed (erratum 9), held against the same client runs
//! as the local check.

use std::sync::Arc;

use crate::shared::ALPHA;
use bandit::seed::mix;
use jdp_qff::{
    JdpCalibration, JdpPrivatizer, LocalCalibration, LocalClient, LocalServer, Spectrum,
    SpectrumRule,
};
use kernel::linalg::symmetric_eigen;
use kernel::{FeatureMap, QuadratureFourierFeatures};
use ndarray::{Array1, Array2};
use privacy::accountant::zcdp::ZcdpConversion;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha20Rng;
use statrs::distribution::{ChiSquared, ContinuousCDF};
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

/// The runs, horizon, features (NQFF `d = 2`, `mbar = 3`: `m = 18`) and confidence
/// `zeta = ALPHA / runs` of every spectrum check.
fn setup(
    ctx: &Context,
) -> Result<(usize, u64, Arc<QuadratureFourierFeatures>, f64), verification::CheckError> {
    let runs = ctx.mode.pick(3, 6);
    Ok((
        runs,
        ctx.mode.pick(64, 256),
        Arc::new(jdp_qff::features::nqff(2, 1.0, 3)?),
        ALPHA / runs as f64,
    ))
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
    let (runs, horizon, features, zeta) = setup(ctx)?;
    let m = features.dim();
    let cal = JdpCalibration::new(1.0, 0.1, horizon, 1.0, ZcdpConversion::Classic)?;
    let spectrum = Spectrum::jdp(&cal, m, zeta, rule)?;
    let mut out = SpectrumRun::empty(spectrum, runs, horizon, m, zeta);
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
            out.record(&h, &(release.u() - &u))?;
        }
    }
    Ok(out)
}

impl SpectrumRun {
    /// No round recorded yet.
    fn empty(spectrum: Spectrum, runs: usize, horizon: u64, m: usize, zeta: f64) -> Self {
        Self {
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
        }
    }

    /// Record one round's `H_t` and `h_t`.
    fn record(
        &mut self,
        h: &Array2<f64>,
        h_vec: &Array1<f64>,
    ) -> Result<(), verification::CheckError> {
        let eig = symmetric_eigen("H_t", h.view())?;
        let (lo, hi) = (eig.values[0], eig.values[self.m - 1]);
        let hn = h_vec.mapv(|v| v * v).sum().sqrt();
        self.min_eig = self.min_eig.min(lo);
        self.max_eig = self.max_eig.max(hi);
        self.max_h = self.max_h.max(hn);
        self.rounds += 1;
        let s = &self.spectrum;
        if lo < s.lambda_min || hi > s.lambda_max || hn > s.h_norm {
            self.rounds_outside += 1;
        }
        Ok(())
    }
}

/// `alpha` of the local runs: large enough that `sigma_X < 1` (0.165 here), the regime of
/// erratum 9 and of the local scaling check (`alpha = 100` too).
const LOCAL_ALPHA: f64 = 100.0;

/// `runs` runs of `T` rounds of real [`LocalClient`] messages (hardened sampler,
/// `alpha = LOCAL_ALPHA`, `beta = 0.1`, `B_y = 1`, the features and data of [`spectrum_runs`]),
/// summed by Algorithm 3's own SERVER ([`LocalServer`]: `Sigma~_t = shift I + sum of
/// messages`), under Lemma 6's
/// spectrum (`rule`) at `zeta = ALPHA / runs`. The runs draw from the named seed
/// `jdp-qff/spectrum/local`, so the check and its control see the same noise. `printed`: hold
/// the runs against Lemma 6's `kappa` as printed ([`Spectrum::lemma6_printed_kappa`]) instead;
/// `HalfShift`: the server adds half the shift while the spectrum claimed stays the rule's.
fn local_runs(
    ctx: &Context,
    rule: SpectrumRule,
    variant: LocalVariant,
) -> Result<SpectrumRun, verification::CheckError> {
    let (runs, horizon, features, zeta) = setup(ctx)?;
    let m = features.dim();
    let cal = LocalCalibration::new(LOCAL_ALPHA, 0.1, 1.0, ZcdpConversion::Classic)?;
    let mut spectrum = Spectrum::local(&cal, m, horizon, zeta, rule)?;
    if variant == LocalVariant::PrintedKappa {
        spectrum.h_norm =
            Spectrum::lemma6_printed_kappa(&cal, m, horizon, zeta)? * spectrum.lambda_min.sqrt();
    }
    let server_shift = if variant == LocalVariant::HalfShift {
        0.5 * spectrum.shift
    } else {
        spectrum.shift
    };
    let client = LocalClient::new(Arc::clone(&features), cal)?;
    let mut out = SpectrumRun::empty(spectrum, runs, horizon, m, zeta);
    for run in 0..runs {
        let mut rng = ChaCha20Rng::seed_from_u64(mix(
            ctx.seed_for("jdp-qff/spectrum/local") ^ mix(run as u64)
        ));
        let mut sigma = Array2::<f64>::zeros((m, m));
        let mut u = Array1::<f64>::zeros(m);
        let mut server = LocalServer::new(m, server_shift)?;
        for _ in 0..horizon {
            let x = Array1::from_shape_fn(2, |_| 4.0 * rng.random::<f64>() - 2.0);
            let y = if rng.random::<f64>() < 0.5 { 0.0 } else { 1.0 };
            let message = client.perturb(x.view(), y, &mut rng)?;
            server.receive(message)?;
            let phi = features.map(x.view())?;
            let col = phi.view().insert_axis(ndarray::Axis(1));
            sigma += &col.dot(&col.t());
            u.scaled_add(y, &phi);
            let sums = server.broadcast();
            out.record(&(&sums.sigma - &sigma), &(&sums.u - &u))?;
        }
    }
    Ok(out)
}

/// The measured text of a run set.
fn measured(r: &SpectrumRun) -> String {
    let s = &r.spectrum;
    format!(
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
    )
}

/// The values every spectrum outcome carries.
fn with_values(o: Outcome, r: &SpectrumRun) -> Outcome {
    let s = &r.spectrum;
    o.value("lambda_min", s.lambda_min)
        .value("lambda_max", s.lambda_max)
        .value("shift", s.shift)
        .value("h_norm", s.h_norm)
        .value("kappa", s.kappa())
        .value("min_eigenvalue", r.min_eig)
        .value("max_eigenvalue", r.max_eig)
        .value("max_h_norm", r.max_h)
        .value("rounds_outside", r.rounds_outside)
        .value("rounds", r.rounds)
}

fn rule_name(rule: SpectrumRule, lemma: &str) -> String {
    match rule {
        SpectrumRule::Paper => format!("the paper's {lemma} constants"),
        SpectrumRule::Derived => "the derived (matrix Gaussian series) constants".to_string(),
    }
}

fn outcome(ctx: &Context, rule: SpectrumRule, every_entry: bool) -> CheckResult {
    let r = spectrum_runs(ctx, rule, every_entry)?;
    let inside = r.rounds_outside == 0;
    let rule_name = rule_name(rule, "Lemma 3");
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
    let measured = measured(&r);
    let mut o = with_values(Outcome::new(kind, subject, claim, measured, v), &r);
    if !every_entry {
        o = o.false_alarm(ALPHA);
    }
    Ok(o)
}

/// Which local runs: the check, or one of its two controls.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum LocalVariant {
    /// The real clients and server under the rule's spectrum.
    Check,
    /// The same runs held against Lemma 6's `kappa` as printed.
    PrintedKappa,
    /// The server adds half the rule's shift; the rule's spectrum is still claimed.
    HalfShift,
}

/// The local check or one of its controls ([`LocalVariant`]).
fn local_outcome(ctx: &Context, rule: SpectrumRule, variant: LocalVariant) -> CheckResult {
    let r = local_runs(ctx, rule, variant)?;
    let inside = r.rounds_outside == 0;
    let rule_name = rule_name(rule, "Lemma 6");
    if variant == LocalVariant::HalfShift {
        // With half the shift, H_t = N_t + (shift / 2) I and the derived rule's
        // lambda_min = shift / 2, so a round is inside only if the summed noise N_t is PSD,
        // which needs its m diagonal entries >= 0. Each is a sum of independent symmetric
        // discrete Gaussians on the grid w Z, so it is >= 0 with probability at most
        // 1/2 + p0, where p0 bounds the largest atom: P(X = 0) = 1 / sum_k exp(-(k w)^2 /
        // (2 sigma^2)) <= 1 / (sigma sqrt(2 pi) / w - 1) (the sum exceeds the integral minus
        // the largest term), and a sum's atoms are at most its last term's largest.
        // Independent across the diagonal and across the runs at round T.
        let cal = LocalCalibration::new(LOCAL_ALPHA, 0.1, 1.0, ZcdpConversion::Classic)?;
        let packed = r.m * (r.m + 1) / 2;
        let w = privacy::Grid::for_sensitivity(
            cal.sensitivity_x(),
            packed,
            privacy::sampler::Norm::L2,
        )?
        .width();
        let ratio = cal.sigma_x() * (2.0 * std::f64::consts::PI).sqrt() / w;
        let p0 = if ratio > 2.0 {
            1.0 / (ratio - 1.0)
        } else {
            0.5
        };
        let per_run = (0.5 + p0).powi(i32::try_from(r.m).unwrap_or(i32::MAX));
        let false_pass = per_run.powi(i32::try_from(r.runs).unwrap_or(i32::MAX));
        let o = Outcome::new(
            CheckKind::PositiveControl,
            format!(
                "Algorithm 3's summed client messages (alpha = {LOCAL_ALPHA}) with the server adding half of {rule_name}'s PSD shift, the rule's spectrum still claimed"
            ),
            format!(
                "the local spectrum check catches a shift understated by 2 (some eigenvalue of H_t below lambda_min); a false pass needs the summed noise PSD in round T of every run, probability at most {false_pass:.1e} ((1/2 + {p0:.1e})^m per run: every diagonal entry >= 0, the grid's largest atom bounded)"
            ),
            measured(&r),
            verdict(!inside),
        );
        return Ok(with_values(o, &r).value("false_pass_bound", false_pass));
    }
    if variant == LocalVariant::PrintedKappa {
        // The control passes by mistake only if no round of any run exceeds the printed
        // h_norm, in particular not round T: ||h_T||^2 / (T sigma_u^2) is chi-square with m
        // degrees of freedom for Gaussian noise (the exact discrete Gaussian on a grid about
        // 1e-6 of its scale is that up to a negligible difference, not bounded here), so that
        // has probability about F_m(h_norm^2 / (T sigma_u^2)) per run.
        let cal = LocalCalibration::new(LOCAL_ALPHA, 0.1, 1.0, ZcdpConversion::Classic)?;
        let q = r.spectrum.h_norm.powi(2) / (r.horizon as f64 * cal.sigma_u().powi(2));
        let per_run = ChiSquared::new(r.m as f64)
            .map_err(|e| verification::CheckError::msg(e.to_string()))?
            .cdf(q);
        let false_pass = per_run.powi(i32::try_from(r.runs).unwrap_or(i32::MAX));
        let o = Outcome::new(
            CheckKind::PositiveControl,
            format!(
                "Algorithm 3's summed client messages (alpha = {LOCAL_ALPHA}, sigma_X = {:.3} < 1) held against Lemma 6's kappa as printed, sigma_u sqrt(m T / Lambda) (h_norm = kappa sqrt(lambda_min) = sigma_u sqrt(m T sigma_X))",
                cal.sigma_x()
            ),
            format!(
                "the local spectrum check catches the printed kappa (some ||h_t|| above it); a false pass has probability about {false_pass:.1e} (P(chi2_{} <= {q:.2})^{} at round T alone, the exact discrete Gaussian noise, on a grid far finer than its scale, treated as Gaussian)",
                r.m, r.runs
            ),
            measured(&r),
            verdict(!inside),
        );
        return Ok(with_values(o, &r).value("false_pass_bound", false_pass));
    }
    let o = Outcome::new(
        CheckKind::Property,
        format!(
            "the summed messages of jdp_qff::LocalClient (Algorithm 3, alpha = {LOCAL_ALPHA}), spectrum of {rule_name}"
        ),
        format!(
            "over every round of {} seeded runs, lambda_min <= eig(H_t) <= lambda_max and ||h_t|| <= h_norm (Lemma 6 at zeta = ALPHA / runs: holds for all runs with probability >= 1 - {ALPHA:e})",
            r.runs
        ),
        measured(&r),
        verdict(inside),
    );
    Ok(with_values(o, &r).false_alarm(ALPHA))
}

pub(super) fn spectrum_local_paper(ctx: &Context) -> CheckResult {
    local_outcome(ctx, SpectrumRule::Paper, LocalVariant::Check)
}

pub(super) fn spectrum_local_derived(ctx: &Context) -> CheckResult {
    local_outcome(ctx, SpectrumRule::Derived, LocalVariant::Check)
}

pub(super) fn control_lemma6_printed_kappa(ctx: &Context) -> CheckResult {
    local_outcome(ctx, SpectrumRule::Paper, LocalVariant::PrintedKappa)
}

pub(super) fn control_local_half_shift(ctx: &Context) -> CheckResult {
    local_outcome(ctx, SpectrumRule::Derived, LocalVariant::HalfShift)
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
