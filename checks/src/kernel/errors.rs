//! Typed errors on bad input.

use kernel::{
    ExactGp, InputError, Kernel, KernelError, Lengthscales, Matern, MaternNu, Precomputed,
    SquaredExponential,
};
use ndarray::array;
use verification::CheckKind;
use verification::{CheckResult, Context, Outcome, verdict};

/// A bad-input case: name, result, and the predicate its error variant must satisfy.
type ErrorCase = (
    &'static str,
    Result<(), KernelError>,
    fn(&KernelError) -> bool,
);

pub(super) fn typed_errors(_ctx: &Context) -> CheckResult {
    let se = SquaredExponential::isotropic(0.3)?;
    let cases: Vec<ErrorCase> = vec![
        (
            "lengthscale 0",
            SquaredExponential::isotropic(0.0).map(drop),
            |x| matches!(x, KernelError::Input(InputError::NotPositive { .. })),
        ),
        (
            "lengthscale -1",
            Lengthscales::per_dimension(vec![0.2, -1.0]).map(drop),
            |x| matches!(x, KernelError::Input(InputError::NotPositive { .. })),
        ),
        (
            "variance NaN",
            SquaredExponential::new(f64::NAN, Lengthscales::Isotropic(1.0)).map(drop),
            |x| matches!(x, KernelError::Input(InputError::NotPositive { .. })),
        ),
        (
            "Matérn variance -2",
            Matern::new(MaternNu::Half, -2.0, Lengthscales::Isotropic(1.0)).map(drop),
            |x| matches!(x, KernelError::Input(InputError::NotPositive { .. })),
        ),
        (
            "NaN input",
            se.value(array![f64::NAN].view(), array![0.0].view())
                .map(drop),
            |x| matches!(x, KernelError::Input(InputError::NonFinite { .. })),
        ),
        (
            "dimension mismatch",
            se.value(array![0.0, 1.0].view(), array![0.0].view())
                .map(drop),
            |x| matches!(x, KernelError::Input(InputError::DimensionMismatch { .. })),
        ),
        (
            "non-PSD Gram",
            Precomputed::new(array![[1.0, 2.0], [2.0, 1.0]].view()).map(drop),
            |x| matches!(x, KernelError::NotPositiveDefinite { .. }),
        ),
        (
            "asymmetric Gram",
            Precomputed::new(array![[1.0, 0.5], [0.0, 1.0]].view()).map(drop),
            |x| matches!(x, KernelError::NotSymmetric { .. }),
        ),
        ("lambda 0", ExactGp::new(se.clone(), 0.0).map(drop), |x| {
            matches!(x, KernelError::Input(InputError::NotPositive { .. }))
        }),
    ];
    let mut ok = true;
    let mut msgs = Vec::new();
    for (name, res, expected) in &cases {
        match res {
            Err(err) if expected(err) => msgs.push(format!("{name}: \"{err}\"")),
            Err(err) => {
                ok = false;
                msgs.push(format!("{name}: WRONG variant \"{err}\""));
            }
            Ok(()) => {
                ok = false;
                msgs.push(format!("{name}: accepted"));
            }
        }
    }
    Ok(Outcome::new(
        CheckKind::Property,
        "validated constructors and checked kernel evaluation".to_string(),
        "each bad input returns its own typed KernelError variant with a message".to_string(),
        msgs.join("; "),
        verdict(ok),
    )
    .value("cases", cases.len()))
}
