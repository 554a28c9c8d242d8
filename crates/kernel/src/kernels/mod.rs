//! Positive-definite kernels behind one trait.
//!
//! Points are rows: a batch of `n` points in dimension `d` is an `n x d` array. Every checked
//! method validates its inputs (finite values, matching dimensions) once per call and then
//! runs an unchecked inner loop.

mod lengthscales;
mod linear;
mod matern;
mod precomputed;
mod product;
mod squared_exponential;

pub use lengthscales::Lengthscales;
pub use linear::Linear;
pub use matern::{Matern, MaternNu};
pub use precomputed::Precomputed;
pub use product::Product;
pub use squared_exponential::SquaredExponential;

use ndarray::{Array1, Array2, ArrayView1, ArrayView2};

use crate::error::{InputError, KernelError};
use validation::ensure_finite;

/// A positive-definite kernel `k: X x X -> R`.
///
/// Implementors provide [`Kernel::value_unchecked`] and, when their inputs are restricted,
/// [`Kernel::validate_point`]; the batch methods are provided and validate their inputs.
///
/// # Examples
///
/// `Box<dyn Kernel>` is a kernel, so the kernel can be chosen at run time; the
/// Matérn-1/2 kernel is `s^2 exp(-r)` (Rasmussen & Williams 2006, Sec. 4.2.1).
///
/// ```
/// use kernel::{Kernel, Matern, MaternNu, SquaredExponential};
/// use ndarray::array;
///
/// let kernels: Vec<Box<dyn Kernel>> = vec![
///     Box::new(SquaredExponential::isotropic(0.2)?),
///     Box::new(Matern::isotropic(MaternNu::Half, 0.2)?),
/// ];
/// let (x, y) = (array![0.1], array![0.3]); // r = |x - y| / l = 1
/// let matern = kernels[1].value(x.view(), y.view())?;
/// assert!((matern - (-1.0f64).exp()).abs() < 1e-12);
/// assert!(kernels.iter().all(|k| k.sup_diag() == Some(1.0)));
/// # Ok::<(), kernel::KernelError>(())
/// ```
pub trait Kernel: Send + Sync + std::fmt::Debug {
    /// The input dimension when the kernel fixes one (per-dimension lengthscales, a
    /// precomputed kernel over arm indices), `None` when any dimension is accepted.
    fn input_dim(&self) -> Option<usize>;

    /// `sup_x k(x, x)`, when it is finite: the bound `k(x, x) <= sup_diag` that regret and
    /// sensitivity analyses use. `None` for kernels that are unbounded (linear).
    fn sup_diag(&self) -> Option<f64>;

    /// `k(x, y)` without validation. Callers must have validated both points.
    fn value_unchecked(&self, x: ArrayView1<'_, f64>, y: ArrayView1<'_, f64>) -> f64;

    /// Check that `x` is an admissible point: finite, and of the kernel's dimension if it has one.
    fn validate_point(&self, x: ArrayView1<'_, f64>) -> Result<(), KernelError> {
        ensure_finite("point", x.iter())?;
        if let Some(d) = self.input_dim()
            && x.len() != d
        {
            return Err(KernelError::Input(InputError::DimensionMismatch {
                context: "kernel input",
                expected: d,
                got: x.len(),
            }));
        }
        Ok(())
    }

    /// Check every row of a batch with [`Kernel::validate_point`].
    fn validate_batch(&self, x: ArrayView2<'_, f64>) -> Result<(), KernelError> {
        for row in x.rows() {
            self.validate_point(row)?;
        }
        Ok(())
    }

    /// `k(x, y)`, validated.
    fn value(&self, x: ArrayView1<'_, f64>, y: ArrayView1<'_, f64>) -> Result<f64, KernelError> {
        self.validate_point(x)?;
        self.validate_point(y)?;
        if x.len() != y.len() {
            return Err(KernelError::Input(InputError::DimensionMismatch {
                context: "kernel value: second point",
                expected: x.len(),
                got: y.len(),
            }));
        }
        Ok(self.value_unchecked(x, y))
    }

    /// The Gram matrix `K[i, j] = k(x_i, x_j)` of the rows of `x` (exactly symmetric).
    fn gram(&self, x: ArrayView2<'_, f64>) -> Result<Array2<f64>, KernelError> {
        self.validate_batch(x)?;
        let n = x.nrows();
        let mut k = Array2::zeros((n, n));
        for i in 0..n {
            for j in 0..=i {
                let v = self.value_unchecked(x.row(i), x.row(j));
                k[[i, j]] = v;
                k[[j, i]] = v;
            }
        }
        Ok(k)
    }

    /// The cross matrix `K[i, j] = k(x_i, y_j)` between the rows of `x` and of `y`.
    fn cross(
        &self,
        x: ArrayView2<'_, f64>,
        y: ArrayView2<'_, f64>,
    ) -> Result<Array2<f64>, KernelError> {
        self.validate_batch(x)?;
        self.validate_batch(y)?;
        if x.ncols() != y.ncols() {
            return Err(KernelError::Input(InputError::DimensionMismatch {
                context: "kernel cross matrix: second batch",
                expected: x.ncols(),
                got: y.ncols(),
            }));
        }
        let mut k = Array2::zeros((x.nrows(), y.nrows()));
        for (i, xi) in x.rows().into_iter().enumerate() {
            for (j, yj) in y.rows().into_iter().enumerate() {
                k[[i, j]] = self.value_unchecked(xi, yj);
            }
        }
        Ok(k)
    }

    /// The diagonal `k(x_i, x_i)` of the rows of `x`.
    fn diag(&self, x: ArrayView2<'_, f64>) -> Result<Array1<f64>, KernelError> {
        self.validate_batch(x)?;
        Ok(x.rows()
            .into_iter()
            .map(|r| self.value_unchecked(r, r))
            .collect())
    }
}

/// Forward every method (including the provided ones, which an implementor may override) to
/// the pointee, so that `Box<dyn Kernel>`, `Arc<dyn Kernel>` and `&K` are kernels wherever a
/// generic `K: Kernel` is accepted.
macro_rules! forward_kernel {
    ($($ty:ty),*) => {$(
        impl<K: Kernel + ?Sized> Kernel for $ty {
            fn input_dim(&self) -> Option<usize> {
                (**self).input_dim()
            }
            fn sup_diag(&self) -> Option<f64> {
                (**self).sup_diag()
            }
            fn value_unchecked(&self, x: ArrayView1<'_, f64>, y: ArrayView1<'_, f64>) -> f64 {
                (**self).value_unchecked(x, y)
            }
            fn validate_point(&self, x: ArrayView1<'_, f64>) -> Result<(), KernelError> {
                (**self).validate_point(x)
            }
            fn validate_batch(&self, x: ArrayView2<'_, f64>) -> Result<(), KernelError> {
                (**self).validate_batch(x)
            }
            fn value(&self, x: ArrayView1<'_, f64>, y: ArrayView1<'_, f64>) -> Result<f64, KernelError> {
                (**self).value(x, y)
            }
            fn gram(&self, x: ArrayView2<'_, f64>) -> Result<Array2<f64>, KernelError> {
                (**self).gram(x)
            }
            fn cross(&self, x: ArrayView2<'_, f64>, y: ArrayView2<'_, f64>) -> Result<Array2<f64>, KernelError> {
                (**self).cross(x, y)
            }
            fn diag(&self, x: ArrayView2<'_, f64>) -> Result<Array1<f64>, KernelError> {
                (**self).diag(x)
            }
        }
    )*};
}

forward_kernel!(Box<K>, std::sync::Arc<K>, &K);

/// Squared Euclidean distance of `(x - y) / l`, with per-dimension lengthscales.
///
/// The terms are summed left to right from `-0.0`, exactly as `Iterator::sum` does for `f64`;
/// contiguous inputs (the rows of a standard-layout matrix, the common case) take a slice loop
/// that computes the same bits without ndarray's element iterators.
pub(crate) fn scaled_sq_dist(
    x: ArrayView1<'_, f64>,
    y: ArrayView1<'_, f64>,
    l: &Lengthscales,
) -> f64 {
    if let (Some(xs), Some(ys)) = (x.as_slice(), y.as_slice()) {
        return match l {
            Lengthscales::Isotropic(l) => {
                let mut s = -0.0;
                for (a, b) in xs.iter().zip(ys) {
                    s += (a - b) * (a - b);
                }
                s / (l * l)
            }
            Lengthscales::PerDimension(ls) => {
                let mut s = -0.0;
                for ((a, b), l) in xs.iter().zip(ys).zip(ls.iter()) {
                    let z = (a - b) / l;
                    s += z * z;
                }
                s
            }
        };
    }
    match l {
        Lengthscales::Isotropic(l) => {
            let s: f64 = x.iter().zip(y.iter()).map(|(a, b)| (a - b) * (a - b)).sum();
            s / (l * l)
        }
        Lengthscales::PerDimension(ls) => x
            .iter()
            .zip(y.iter())
            .zip(ls.iter())
            .map(|((a, b), l)| {
                let z = (a - b) / l;
                z * z
            })
            .sum(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::{Array1, Array2};
    use proptest::prelude::*;

    /// The definition: `Iterator::sum` over the element iterators.
    fn by_iterators(x: ArrayView1<'_, f64>, y: ArrayView1<'_, f64>, l: &Lengthscales) -> f64 {
        match l {
            Lengthscales::Isotropic(l) => {
                let s: f64 = x.iter().zip(y.iter()).map(|(a, b)| (a - b) * (a - b)).sum();
                s / (l * l)
            }
            Lengthscales::PerDimension(ls) => x
                .iter()
                .zip(y.iter())
                .zip(ls.iter())
                .map(|((a, b), l)| ((a - b) / l) * ((a - b) / l))
                .sum(),
        }
    }

    proptest! {
        /// The slice loop and the strided path give the bits of the definition, for both kinds
        /// of lengthscale and every length from 0 (where the sum is `-0.0`) to 9.
        #[test]
        fn scaled_sq_dist_is_bit_identical_to_the_iterator_sum(
            xs in prop::collection::vec(-3.0f64..3.0, 0..10),
            shift in -1.0f64..1.0,
            l in 0.05f64..4.0,
        ) {
            let d = xs.len();
            let x = Array1::from(xs.clone());
            let y = x.mapv(|v| v * 0.7 + shift);
            let per = Lengthscales::PerDimension(Array1::from_shape_fn(d, |j| l + j as f64 * 0.1));
            // Strided copies: a column of a d x 2 matrix.
            let mut m = Array2::zeros((d, 2));
            m.column_mut(0).assign(&x);
            m.column_mut(1).assign(&y);
            for ls in [Lengthscales::Isotropic(l), per] {
                let want = by_iterators(x.view(), y.view(), &ls);
                prop_assert_eq!(scaled_sq_dist(x.view(), y.view(), &ls).to_bits(), want.to_bits());
                prop_assert_eq!(
                    scaled_sq_dist(m.column(0), m.column(1), &ls).to_bits(),
                    want.to_bits()
                );
            }
        }
    }
}
