//! The benchmark functions reach their stated maxima.

use bandit::domain::BoxDomain;
use bandit::objective::{Camelback, Michalewicz, Objective, StyblinskiTang};
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use verification::CheckKind;
use verification::{CheckError, CheckResult, Context, Outcome, verdict};

pub(super) fn benchmark_maxima(ctx: &Context) -> CheckResult {
    let n = ctx.mode.pick(100_000, 1_000_000);
    let mut rng = ChaCha20Rng::seed_from_u64(ctx.seed_for("bandit/benchmarks/maxima"));
    let fs: Vec<(String, Box<dyn Objective>)> = vec![
        ("camelback".into(), Box::new(Camelback)),
        (
            "styblinski-tang-20".into(),
            Box::new(StyblinskiTang::new(20)?),
        ),
        ("michalewicz-10".into(), Box::new(Michalewicz::new(10)?)),
    ];
    let mut ok = true;
    let mut parts = Vec::new();
    for (name, f) in &fs {
        let m = f
            .maximum()
            .ok_or_else(|| CheckError::msg("maximum unknown"))?;
        let attained = m
            .maximisers
            .rows()
            .into_iter()
            .all(|x| (f.value_unchecked(x) - m.value).abs() <= 1e-12);
        let b = BoxDomain::cube(f.dim(), -0.5, 0.5)?;
        let xs = b.sample_uniform(n, &mut rng);
        let best = xs
            .rows()
            .into_iter()
            .map(|x| f.value_unchecked(x))
            .fold(f64::NEG_INFINITY, f64::max);
        ok &= attained && best <= m.value + 1e-12;
        parts.push(format!(
            "{name}: max {:.12} attained {attained}, best of {n} uniform samples {best:.6}",
            m.value
        ));
    }
    Ok(Outcome::new(
        CheckKind::Property,
        "Mutny & Krause benchmark functions on [-0.5, 0.5]^d (docs/bandit.md)",
        "each documented maximum is attained at its maximiser (to 1e-12) and no uniform sample exceeds it",
        parts.join("; "),
        verdict(ok),
    ))
}
