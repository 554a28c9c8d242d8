//! `mu_T(., c)` over the finite action set for a product kernel, with the action factor
//! computed once per fitted estimator instead of once per context.
//!
//! For `k([x; c], [x'; c']) = k_X(x, x') k_C(c, c')` ([`JointKernel`]), eq. (4)'s
//! `mu_T(w) = (k_{W_T}(w)^T y - k_Z(w)^T v) / tau` at `w = [x_i; c]` needs
//! `k(w, [x_t; c_t]) = k_X(x_i, x_t) k_C(c, c_t)` for every action `x_i`, learning row `t` and
//! point of `Z`. The action factors `k_X(x_i, x_t)` and `k_X(x_i, z_j)` do not depend on the
//! context, so they are computed once (`n x T` and `n x m`); a context then costs `T + m`
//! evaluations of `k_C` and an elementwise product, instead of `n (T + m)` evaluations of `k`.
//!
//! The result is bit-identical to [`UscaEstimator::mu`] on `problem.joint_all(c)`: each entry
//! is the same product of the same two factors in the same order (`k_X * k_C`, as
//! [`kernel::Product`] computes it), and the two matrix-vector products are the same.

use std::sync::Arc;

use kernel::Kernel;
use ndarray::{Array1, Array2, ArrayView1, ArrayView2, Axis};

use crate::error::UscaError;
use crate::estimator::{SurrogateVariance, UscaEstimator};
use crate::joint_kernel::JointKernel;
use crate::problem::ContextualProblem;

/// The kernel matrix `k([x_i; c], w_t)` between the action set at one context `c` and a fixed
/// set of points `w_t = [x_t; c_t]` of `W`, for a product kernel, with the action factors
/// `k_X(x_i, x_t)` (`n x rows`) computed once: each entry is then `k_X(x_i, x_t) * k_C(c, c_t)`,
/// the same product in the same order as [`kernel::Product`], so the matrix is bit-identical to
/// `Kernel::cross(problem.joint_all(c), w)`.
#[derive(Debug, Clone)]
pub(crate) struct ActionFactors {
    joint: Arc<JointKernel>,
    /// `k_X(x_i, x_t)`, `n x rows`.
    action: Array2<f64>,
    /// The context parts `c_t` of the points, `rows x dim C`.
    contexts: Array2<f64>,
}

impl ActionFactors {
    /// The action factors for the rows of `actions` (validated points of `X`) against the rows
    /// of `points` (validated points of `W`).
    pub(crate) fn new(
        joint: Arc<JointKernel>,
        actions: ArrayView2<'_, f64>,
        points: ArrayView2<'_, f64>,
    ) -> Self {
        let p = joint.product();
        let (k_x, a) = (p.action_kernel(), p.action_dim());
        let (xs, cs) = points.split_at(Axis(1), a);
        Self {
            action: Array2::from_shape_fn((actions.nrows(), points.nrows()), |(i, t)| {
                k_x.value_unchecked(actions.row(i), xs.row(t))
            }),
            contexts: cs.to_owned(),
            joint,
        }
    }

    /// `k([x_i; c], w_t)` for every action `i` and point `t` (`n x rows`) at the validated
    /// context `c`.
    pub(crate) fn at(&self, c: ArrayView1<'_, f64>) -> Array2<f64> {
        let k_c = self.joint.product().context_kernel();
        let kc: Vec<f64> = self
            .contexts
            .axis_iter(Axis(0))
            .map(|ct| k_c.value_unchecked(c, ct))
            .collect();
        let mut k = self.action.clone();
        for mut row in k.rows_mut() {
            row.iter_mut().zip(&kc).for_each(|(v, w)| *v *= w);
        }
        k
    }
}

/// The context-free half of `mu_T(., c)` on the action set.
#[derive(Debug, Clone)]
pub(crate) struct FactoredMu {
    /// Against the learning rows.
    data: ActionFactors,
    /// Against `Z`.
    z: ActionFactors,
}

impl FactoredMu {
    /// The action factors for the rows of `actions` (validated points of `X`), for the
    /// estimator's learning rows and approximating set (validated points of `W`).
    pub(crate) fn new(
        joint: Arc<JointKernel>,
        actions: ArrayView2<'_, f64>,
        estimator: &UscaEstimator,
    ) -> Self {
        Self {
            data: ActionFactors::new(Arc::clone(&joint), actions, estimator.data().points()),
            z: ActionFactors::new(joint, actions, estimator.variance().approximating_set()),
        }
    }

    /// `mu_T(x_i, c)` for every action, given the estimator the factors were built for and a
    /// validated context `c`.
    pub(crate) fn mu(&self, estimator: &UscaEstimator, c: ArrayView1<'_, f64>) -> Array1<f64> {
        estimator.combine(&self.data.at(c), &self.z.at(c))
    }
}

/// `sigma^2([x_i; c])` for every action at one context `c` at a time, for a product kernel,
/// with the action factors `k_X(z_j, x_i)` computed once: the same numbers, bit for bit, as
/// [`SurrogateVariance::sigma2`] on `problem.joint_all(c)` (each entry of `k_Z(w)` is the same
/// product `k_X * k_C` in the same order, then the same triangular solve).
pub(crate) struct FactoredSigma2<'a> {
    variance: &'a SurrogateVariance,
    joint: &'a JointKernel,
    /// `k_X(z_j, x_i)`, `m x n`.
    z_action: Array2<f64>,
    /// The context parts of `Z`, `m x dim C`.
    context_z: Array2<f64>,
}

impl<'a> FactoredSigma2<'a> {
    /// For the rows of `actions`, if `joint` is the variance's own kernel (the same object);
    /// `None` otherwise (then evaluate [`SurrogateVariance::sigma2`] directly).
    pub(crate) fn new(
        variance: &'a SurrogateVariance,
        joint: Option<&'a JointKernel>,
        actions: ArrayView2<'_, f64>,
    ) -> Option<Self> {
        let joint = joint.filter(|j| j.is(variance.kernel()))?;
        let p = joint.product();
        let (k_x, a) = (p.action_kernel(), p.action_dim());
        let (z_x, z_c) = variance.approximating_set().split_at(Axis(1), a);
        Some(Self {
            z_action: Array2::from_shape_fn((z_x.nrows(), actions.nrows()), |(j, i)| {
                k_x.value_unchecked(z_x.row(j), actions.row(i))
            }),
            context_z: z_c.to_owned(),
            variance,
            joint,
        })
    }

    /// `sigma^2` at every action for the context `c`; `w` is `problem.joint_all(c)` (for the
    /// diagonal `k(w, w)`).
    pub(crate) fn sigma2(
        &self,
        c: ArrayView1<'_, f64>,
        w: ArrayView2<'_, f64>,
    ) -> Result<Array1<f64>, UscaError> {
        self.variance
            .sigma2_from(self.k_z(c).view(), self.joint.diag(w)?.view())
    }

    /// `k_Z([x_i; c])` for every action (`m x n`, column `i` for action `i`) at the validated
    /// context `c`.
    pub(crate) fn k_z(&self, c: ArrayView1<'_, f64>) -> Array2<f64> {
        let k_c = self.joint.product().context_kernel();
        let mut kzw = self.z_action.clone();
        for (mut row, zc) in kzw.rows_mut().into_iter().zip(self.context_z.rows()) {
            let g = k_c.value_unchecked(zc, c);
            row.iter_mut().for_each(|v| *v *= g);
        }
        kzw
    }
}

/// `sigma^2` at every action of every row of `contexts` (validated contexts of `C`), context
/// after context (`|X|` values each), with one triangular solve for all of them; `factored`
/// (the variance's own product kernel) gives the action factors of `k_Z` once.
pub(crate) fn sigma2_at_contexts(
    variance: &SurrogateVariance,
    problem: &ContextualProblem,
    factored: Option<&FactoredSigma2<'_>>,
    contexts: ndarray::ArrayView2<'_, f64>,
) -> Result<Array1<f64>, UscaError> {
    let n = problem.actions().len();
    let m = variance.approximating_set().nrows();
    let mut kzw = Array2::zeros((m, n * contexts.nrows()));
    let mut diag = Array1::zeros(n * contexts.nrows());
    for (i, c) in contexts.rows().into_iter().enumerate() {
        let w = problem.joint_all(c);
        let block = match factored {
            Some(f) => f.k_z(c),
            None => variance
                .kernel()
                .cross(variance.approximating_set(), w.view())?,
        };
        for (j, col) in block.columns().into_iter().enumerate() {
            kzw.column_mut(i * n + j).assign(&col);
        }
        for (j, d) in variance.kernel().diag(w.view())?.into_iter().enumerate() {
            diag[i * n + j] = d;
        }
    }
    variance.sigma2_from(kzw.view(), diag.view())
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand_chacha::ChaCha20Rng;

    use crate::{
        ApproximatingSetSize, KernelFamily, Usca, UscaParams, learning_stage,
        synthetic::SyntheticProblem,
    };

    /// A synthetic instance of `family` with `dim C = context_dim` drawn with `seed`, the rng
    /// after the draw, and a second kernel object equal to the instance's (same family and
    /// lengthscales) that the factored paths must not use.
    fn problem(
        seed: u64,
        family: KernelFamily,
        context_dim: usize,
    ) -> (
        ChaCha20Rng,
        crate::Instance,
        std::sync::Arc<crate::JointKernel>,
    ) {
        let mut rng = ChaCha20Rng::seed_from_u64(seed);
        let inst = SyntheticProblem {
            family,
            context_dim,
            ..SyntheticProblem::default()
        }
        .sample(&mut rng)
        .unwrap();
        let (l_x, l_c) = inst.kernel.lengthscales();
        let other = crate::JointKernel::new(family, l_x, l_c, 1, context_dim).unwrap();
        (rng, inst, std::sync::Arc::new(other))
    }

    /// The factored utilities equal the direct ones bit for bit (SE and Matérn, `dim C` 1 and
    /// 2), and only a `Usca` given its own kernel as the joint kernel factors.
    #[test]
    fn factored_utilities_are_the_direct_ones_bit_for_bit() {
        for (seed, family, context_dim) in [
            (1, KernelFamily::SquaredExponential, 1),
            (2, KernelFamily::Matern52, 1),
            (3, KernelFamily::SquaredExponential, 2),
            (4, KernelFamily::Matern52, 2),
        ] {
            let (mut rng, inst, other) = problem(seed, family, context_dim);
            let params = UscaParams {
                approximating_set: ApproximatingSetSize::Capped { cap: 64 },
                ..UscaParams::default()
            };
            let data = learning_stage(&inst.problem, 40, params.reward_bound, &mut rng).unwrap();
            let fit = |joint| {
                Usca::from_data(
                    &inst.problem,
                    inst.kernel.clone(),
                    joint,
                    params,
                    data.clone(),
                    &mut ChaCha20Rng::seed_from_u64(seed + 100),
                )
                .unwrap()
            };
            let (factored, direct) = (fit(Some(&inst.kernel)), fit(None));
            assert!(factored.factored.is_some() && direct.factored.is_none());
            assert!(fit(Some(&other)).factored.is_none());
            let contexts = inst.problem.contexts().sample(20, &mut rng);
            for c in contexts.rows() {
                let (a, b) = (factored.utilities(c).unwrap(), direct.utilities(c).unwrap());
                let bits =
                    |u: &ndarray::Array1<f64>| u.iter().map(|v| v.to_bits()).collect::<Vec<_>>();
                assert_eq!(bits(&a), bits(&b), "{family:?}, dim C = {context_dim}");
            }
        }
    }

    /// The factored `sigma^2` equals the direct one bit for bit; another kernel object (even
    /// with the same lengthscales) is not used.
    #[test]
    fn factored_sigma2_is_the_direct_one_bit_for_bit() {
        for (seed, family, context_dim) in [
            (5, KernelFamily::SquaredExponential, 1),
            (6, KernelFamily::Matern52, 2),
        ] {
            let (mut rng, inst, other) = problem(seed, family, context_dim);
            let z = crate::sample_approximating_set(&inst.problem, 80, &mut rng).unwrap();
            let v = crate::SurrogateVariance::new(inst.kernel.clone(), z, 40, 0.5).unwrap();
            let actions = inst.problem.actions().points();
            let f = super::FactoredSigma2::new(&v, Some(inst.kernel.as_ref()), actions).unwrap();
            assert!(super::FactoredSigma2::new(&v, Some(other.as_ref()), actions).is_none());
            let bits = |u: ndarray::Array1<f64>| u.iter().map(|v| v.to_bits()).collect::<Vec<_>>();
            for c in inst.problem.contexts().sample(20, &mut rng).rows() {
                let w = inst.problem.joint_all(c);
                assert_eq!(
                    bits(f.sigma2(c, w.view()).unwrap()),
                    bits(v.sigma2(w.view()).unwrap()),
                    "{family:?}, dim C = {context_dim}"
                );
            }
        }
    }
}
