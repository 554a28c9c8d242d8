//! The product kernel on a product space `W = X x C`.

use ndarray::ArrayView1;

use super::Kernel;
use crate::error::{InputError, KernelError};
use validation::ensure_finite;

/// The product kernel `k((x, c), (x', c')) = k_X(x, x') k_C(c, c')` on `W = X x C`, a point
/// `w` being the concatenation `[x; c]` of an action `x` (the first `action_dim` coordinates)
/// and a context `c` (the rest).
///
/// A product of positive-definite kernels is positive definite (Schur product theorem), and
/// `k(w, w) = k_X(x, x) k_C(c, c)`, so `sup_diag` is the product of the factors' (`<= 1` when
/// both are, as Pavlovic, Salgia & Zhao 2025, Sec. 2.1, assume). Its RKHS is the tensor
/// product of the factors' RKHSs. With SE factors it equals one SE kernel with per-dimension
/// lengthscales; with Matérn factors it is *not* a Matérn kernel of `[x; c]`.
///
/// # Examples
/// ```
/// use kernel::{Kernel, Matern, MaternNu, Product, SquaredExponential};
/// use ndarray::array;
///
/// let k = Product::new(
///     Box::new(Matern::isotropic(MaternNu::FiveHalves, 0.2)?),
///     Box::new(SquaredExponential::isotropic(0.3)?),
///     1,
///     1,
/// )?;
/// let (w, v) = (array![0.1, 0.5], array![0.3, 0.2]);
/// let kx = Matern::isotropic(MaternNu::FiveHalves, 0.2)?.value(array![0.1].view(), array![0.3].view())?;
/// let kc = SquaredExponential::isotropic(0.3)?.value(array![0.5].view(), array![0.2].view())?;
/// assert!((k.value(w.view(), v.view())? - kx * kc).abs() < 1e-15);
/// assert_eq!(k.sup_diag(), Some(1.0));
/// assert!(k.value(array![0.1].view(), array![0.1].view()).is_err()); // a point of W has 2 coordinates
/// # Ok::<(), kernel::KernelError>(())
/// ```
#[derive(Debug)]
pub struct Product {
    action: Box<dyn Kernel>,
    context: Box<dyn Kernel>,
    action_dim: usize,
    context_dim: usize,
}

impl Product {
    /// `k_X` on the first `action_dim >= 1` coordinates times `k_C` on the next
    /// `context_dim >= 1`; a factor that fixes its input dimension must agree.
    pub fn new(
        action: Box<dyn Kernel>,
        context: Box<dyn Kernel>,
        action_dim: usize,
        context_dim: usize,
    ) -> Result<Self, KernelError> {
        validation::at_least_one("action dimension", action_dim)?;
        validation::at_least_one("context dimension", context_dim)?;
        for (what, k, d) in [
            ("product kernel: action factor", &action, action_dim),
            ("product kernel: context factor", &context, context_dim),
        ] {
            if let Some(e) = k.input_dim()
                && e != d
            {
                return Err(KernelError::Input(InputError::DimensionMismatch {
                    context: what,
                    expected: d,
                    got: e,
                }));
            }
        }
        Ok(Self {
            action,
            context,
            action_dim,
            context_dim,
        })
    }

    /// The kernel on actions `k_X`.
    pub fn action_kernel(&self) -> &dyn Kernel {
        self.action.as_ref()
    }

    /// The kernel on contexts `k_C`.
    pub fn context_kernel(&self) -> &dyn Kernel {
        self.context.as_ref()
    }

    /// `dim X`.
    pub fn action_dim(&self) -> usize {
        self.action_dim
    }

    /// `dim C`.
    pub fn context_dim(&self) -> usize {
        self.context_dim
    }
}

impl Kernel for Product {
    fn input_dim(&self) -> Option<usize> {
        Some(self.action_dim + self.context_dim)
    }

    fn sup_diag(&self) -> Option<f64> {
        Some(self.action.sup_diag()? * self.context.sup_diag()?)
    }

    fn value_unchecked(&self, x: ArrayView1<'_, f64>, y: ArrayView1<'_, f64>) -> f64 {
        let (xa, xc) = x.split_at(ndarray::Axis(0), self.action_dim);
        let (ya, yc) = y.split_at(ndarray::Axis(0), self.action_dim);
        self.action.value_unchecked(xa, ya) * self.context.value_unchecked(xc, yc)
    }

    fn validate_point(&self, x: ArrayView1<'_, f64>) -> Result<(), KernelError> {
        ensure_finite("point", x.iter())?;
        if x.len() != self.action_dim + self.context_dim {
            return Err(KernelError::Input(InputError::DimensionMismatch {
                context: "product kernel input [x; c]",
                expected: self.action_dim + self.context_dim,
                got: x.len(),
            }));
        }
        let (xa, xc) = x.split_at(ndarray::Axis(0), self.action_dim);
        self.action.validate_point(xa)?;
        self.context.validate_point(xc)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::{Lengthscales, SquaredExponential};
    use ndarray::array;

    #[test]
    fn se_times_se_is_se_with_per_dimension_lengthscales() {
        let p = Product::new(
            Box::new(SquaredExponential::isotropic(0.2).unwrap()),
            Box::new(SquaredExponential::isotropic(0.7).unwrap()),
            1,
            1,
        )
        .unwrap();
        let se = SquaredExponential::new(1.0, Lengthscales::per_dimension(vec![0.2, 0.7]).unwrap())
            .unwrap();
        let (a, b) = (array![0.1, 0.9], array![0.35, 0.2]);
        let d = p.value(a.view(), b.view()).unwrap() - se.value(a.view(), b.view()).unwrap();
        assert!(d.abs() < 1e-15, "{d}");
    }

    #[test]
    fn dimensions_are_checked() {
        let se = || Box::new(SquaredExponential::isotropic(0.2).unwrap());
        assert!(Product::new(se(), se(), 0, 1).is_err());
        let fixed = Box::new(
            SquaredExponential::new(1.0, Lengthscales::per_dimension(vec![0.2, 0.3]).unwrap())
                .unwrap(),
        );
        assert!(Product::new(fixed, se(), 1, 1).is_err());
        let p = Product::new(se(), se(), 1, 2).unwrap();
        assert!(p.validate_point(array![0.1, 0.2].view()).is_err());
        assert!(p.validate_point(array![0.1, 0.2, f64::NAN].view()).is_err());
        assert!(p.validate_point(array![0.1, 0.2, 0.3].view()).is_ok());
    }
}
