//! Porosity (Mironov 2012): the textbook Laplace sampler leaves outputs unreachable, the
//! hardened one does not.

use crate::shared::ALPHA;
use privacy::Sampler;
use privacy::mechanisms::LaplaceMechanism;
use privacy::sampler::{Grid, Norm};
use rand_chacha::ChaCha20Rng;
use verification::CheckKind;
use verification::audit::porosity::{ReplayRng, TEXTBOOK_PIECES, reachable};
use verification::audit::sample_map;
use verification::outcome::{PorosityAudit, PorosityRow};
use verification::stats::clopper_pearson_lower;
use verification::{CheckError, CheckResult, Context, Outcome};

/// The test and its event, without results.
fn porosity_test() -> PorosityAudit {
    PorosityAudit {
        test: "porosity (Mironov 2012)".into(),
        event: "output not in the image of x' = 1".into(),
        confidence: None,
        samples: None,
        unreachable: None,
        grid_exponent: None,
        rows: None,
        eps_lower: None,
        tightness: None,
    }
}

/// The porosity test of one Laplace mechanism: `n` outputs under `x = 0`, each checked for
/// reachability from `x' = 1` by `reachable_from_xp`; `m` outputs under `x'` must all be
/// reachable from `x'` (a check of the reachability decision itself).
pub(super) fn porosity_counts(
    mech: &LaplaceMechanism,
    n: usize,
    seed: u64,
    reachable_from_xp: &(dyn Fn(f64) -> Result<bool, CheckError> + Sync),
) -> Result<(u64, u64, u64), CheckError> {
    let f = |x: &f64, rng: &mut ChaCha20Rng| mech.release_scalar(*x, rng).map_err(CheckError::from);
    let count_unreachable = |v: Vec<bool>| v.iter().filter(|ok| !**ok).count() as u64;
    let unreachable = count_unreachable(sample_map(&f, &0.0, n, seed, reachable_from_xp)?);
    let m = (n / 10).max(100);
    let self_unreachable =
        count_unreachable(sample_map(&f, &1.0, m, seed ^ 0x5eed, reachable_from_xp)?);
    Ok((unreachable, self_unreachable, m as u64))
}

pub(super) fn porosity_textbook(ctx: &Context) -> CheckResult {
    let n = ctx.mode.pick(100_000, 1_000_000);
    let mut rows = Vec::new();
    let mut all_flagged = true;
    let mut measured = Vec::new();
    for eps in [0.1, 0.5, 1.0, 2.0, 4.0] {
        let mech = LaplaceMechanism::new(eps, 1.0)?.with_sampler(Sampler::Textbook);
        // The textbook sampler maps the uniform double k 2^-53 monotonically (increasing in k on
        // [0, 2^52) and on [2^52, 2^53)); we evaluate the mechanism itself on a replayed uniform.
        let pieces = TEXTBOOK_PIECES;
        let m = &mech;
        let from_xp = move |y: f64| -> Result<bool, CheckError> {
            // The search needs a plain function of the replayed uniform; a failed release (or one
            // that does not draw exactly one u64) is remembered and fails the check afterwards.
            let failure = std::cell::RefCell::new(None::<CheckError>);
            let g = |k: u64| {
                let mut rng = ReplayRng::new(k << 11);
                match m.release_scalar(1.0, &mut rng) {
                    Ok(v) if rng.draws() == 1 => v,
                    Ok(_) => {
                        failure.replace(Some(CheckError::msg(
                            "the textbook sampler does not draw exactly one u64 per output",
                        )));
                        f64::NAN
                    }
                    Err(e) => {
                        failure.replace(Some(e.into()));
                        f64::NAN
                    }
                }
            };
            let found = reachable(g, y, &pieces);
            match failure.into_inner() {
                Some(e) => Err(e),
                None => Ok(found),
            }
        };
        let (unreachable, self_unreachable, m_checked) =
            porosity_counts(&mech, n, ctx.sub_seed(&format!("{eps}")), &from_xp)?;
        if self_unreachable > 0 {
            return Err(CheckError::msg(format!(
                "{self_unreachable} outputs under x' were found unreachable from x': the reachability search is wrong"
            )));
        }
        // P_x'(E) = 0 exactly; a certified P_x(E) > 0 (> delta = 0 of pure DP) violates eps-DP for
        // every eps. Clopper-Pearson lower bound at level ALPHA.
        let p_lower = clopper_pearson_lower(unreachable, n as u64, ALPHA);
        let flagged = p_lower > 0.0;
        all_flagged &= flagged;
        measured.push(format!(
            "eps {eps}: {unreachable}/{n} outputs unreachable from x' (P >= {p_lower:.3e})"
        ));
        rows.push(PorosityRow {
            epsilon: eps,
            scale: mech.scale(),
            unreachable,
            samples: n,
            p_unreachable_lower: p_lower,
            outputs_under_x_prime_checked: m_checked,
            flagged,
        });
    }
    Ok(Outcome::new(
        CheckKind::PositiveControl,
        "textbook Laplace mechanism (inverse CDF on a uniform double), sensitivity 1, inputs 0 and 1",
        "at every eps in {0.1, 0.5, 1, 2, 4} some outputs under x = 0 are unreachable from x' = 1 (porosity: infinite privacy loss)",
        measured.join("; "),
        verification::verdict(all_flagged),
    )
    .value("rows", &rows)
    .audit(PorosityAudit {
        confidence: Some(1.0 - ALPHA),
        rows: Some(rows),
        eps_lower: Some(if all_flagged { "inf" } else { "none" }.into()),
        ..porosity_test()
    }))
}

pub(super) fn porosity_hardened(ctx: &Context) -> CheckResult {
    let _id = ctx.id();
    let n = ctx.mode.pick(100_000, 1_000_000);
    let mech = LaplaceMechanism::new(1.0, 1.0)?;
    let grid = Grid::for_sensitivity(1.0, 1, Norm::L1)?;
    let w = grid.width();
    // The hardened output is value_of(index_of(x') + Z) with Z a discrete Laplace (every integer
    // has positive probability) and value_of(j) = j 2^k exact for |j| <= 2^53. So an output y is
    // reachable from x' = 1 exactly when y / 2^k (exact: a power-of-two division) is an integer
    // of magnitude <= 2^53.
    let from_xp = move |y: f64| -> Result<bool, CheckError> {
        let j = y / w;
        Ok(y.is_finite() && j.fract() == 0.0 && j.abs() <= 9_007_199_254_740_992.0)
    };
    let (unreachable, self_unreachable, m_checked) =
        porosity_counts(&mech, n, ctx.check_seed(), &from_xp)?;
    let ok = unreachable == 0 && self_unreachable == 0;
    Ok(Outcome::new(
        CheckKind::NegativeControl,
        format!("{} (discrete Laplace on the grid 2^{})", mech.claim().subject, grid.exponent()),
        "no output under x = 0 is unreachable from x' = 1 (the support does not depend on the input)",
        format!("{unreachable}/{n} outputs under x unreachable from x'; {self_unreachable}/{m_checked} under x' off the grid"),
        verification::verdict(ok),
    )
    .audit(PorosityAudit {
        samples: Some(n),
        unreachable: Some(unreachable),
        grid_exponent: Some(grid.exponent()),
        ..porosity_test()
    })
    .value("unreachable", unreachable)
    .false_alarm(0.0))
}
