//! Information gain `1/2 log det(I + K_A / lambda)` and a greedy estimate of the maximum
//! information gain `gamma_T`.

use ndarray::{Array1, Array2, ArrayView2};

use crate::error::{InputError, KernelError};
use crate::gp::regulariser;
use crate::kernels::Kernel;
use crate::linalg::Cholesky;

/// `I(A) = 1/2 log det(I + K_A / lambda)` for the points `A` (rows of `points`, repetitions
/// allowed): the mutual information between `f` and noisy observations at `A` under a GP
/// prior with kernel `k` and noise variance `lambda` (Srinivas et al. 2010, Lemma 5.3).
///
/// Computed as `1/2 (log det(K_A + lambda I) - |A| log lambda)` from a Cholesky factor.
pub fn information_gain<K: Kernel + ?Sized>(
    kernel: &K,
    points: ArrayView2<'_, f64>,
    lambda: f64,
) -> Result<f64, KernelError> {
    let lambda = regulariser(lambda)?;
    if points.nrows() == 0 {
        return Ok(0.0);
    }
    let mut k = kernel.gram(points)?;
    k.diag_mut().mapv_inplace(|v| v + lambda);
    let c = Cholesky::factor("K_A + lambda I", k.view())?;
    Ok(0.5 * (c.log_det() - points.nrows() as f64 * lambda.ln()))
}

/// The result of [`greedy_information_gain`].
#[derive(Debug, Clone, PartialEq)]
pub struct GreedyGain {
    /// The candidate indices chosen at steps `1..=T` (repetitions possible).
    pub chosen: Vec<usize>,
    /// `gains[t-1] = I(A_t)`, the information gain of the first `t` greedy choices.
    pub gains: Vec<f64>,
}

impl GreedyGain {
    /// The greedy value `I(A_T)`: a lower bound on `gamma_T` over the candidate set.
    pub fn lower_bound(&self) -> f64 {
        self.gains.last().copied().unwrap_or(0.0)
    }

    /// `I(A_T) / (1 - 1/e)`: an upper bound on `gamma_T` over the candidate set (by the
    /// greedy guarantee, see [`greedy_information_gain`]).
    pub fn upper_bound(&self) -> f64 {
        self.lower_bound() / (1.0 - (-1.0f64).exp())
    }
}

/// Greedy estimate of the maximum information gain
/// `gamma_T(C) = max_{A subset C, |A| = T} I(A)` over a finite candidate set `C` (rows of
/// `candidates`, multisets allowed, as for a bandit that may repeat an arm).
///
/// # Method and guarantee
///
/// Step `t` adds the candidate with the largest posterior variance `sigma_{t-1}^2(x)` given the
/// points chosen so far (the marginal gain of `x` is `1/2 log(1 + sigma_{t-1}^2(x) / lambda)`,
/// increasing in the variance). The posterior variances of all candidates are kept up to date
/// incrementally (one new row of `L^{-1} K(A, C)` per step), O(T^2 |C| + T |C|) kernel work.
///
/// `I` is monotone and submodular (Krause & Guestrin 2005; Srinivas et al. 2010), so the
/// greedy set satisfies `I(A_T) >= (1 - 1/e) gamma_T(C)` (Nemhauser, Wolsey & Fisher 1978).
/// Hence `gamma_T(C)` lies in `[I(A_T), I(A_T) / (1 - 1/e)] ~ [I(A_T), 1.582 I(A_T)]`:
/// the greedy value is an *estimate* (a certified lower bound) of `gamma_T(C)`, never an upper
/// bound on it. `gamma_T` of a continuous domain is at least `gamma_T(C)` for every finite
/// `C` in it, so on a grid this is a lower estimate of the domain's `gamma_T` as well.
pub fn greedy_information_gain<K: Kernel + ?Sized>(
    kernel: &K,
    candidates: ArrayView2<'_, f64>,
    steps: usize,
    lambda: f64,
) -> Result<GreedyGain, KernelError> {
    let lambda = regulariser(lambda)?;
    let n = candidates.nrows();
    if n == 0 {
        return Err(KernelError::Input(InputError::Empty {
            what: "information-gain candidate set",
        }));
    }
    kernel.validate_batch(candidates)?;
    let mut var: Array1<f64> = candidates
        .rows()
        .into_iter()
        .map(|x| kernel.value_unchecked(x, x))
        .collect();
    // Rows of W = L^{-1} K(A, C), one per chosen point; L is the factor of K_A + lambda I.
    let mut w: Vec<Array1<f64>> = Vec::with_capacity(steps);
    let mut diag: Vec<f64> = Vec::with_capacity(steps);
    let mut chosen = Vec::with_capacity(steps);
    let mut gains = Vec::with_capacity(steps);
    let mut total = 0.0;
    for _ in 0..steps {
        let (best, &v) = var
            .iter()
            .enumerate()
            .max_by(|a, b| a.1.total_cmp(b.1))
            .ok_or(KernelError::Input(InputError::Empty { what: "candidates" }))?;
        let v = v.max(0.0);
        total += 0.5 * (1.0 + v / lambda).ln();
        // New row of L: l_j = W[j, best] for the previous rows, d = sqrt(v + lambda).
        let d = (v + lambda).sqrt();
        let xb = candidates.row(best);
        let mut row: Array1<f64> = candidates
            .rows()
            .into_iter()
            .map(|c| kernel.value_unchecked(xb, c))
            .collect();
        for wj in &w {
            row.scaled_add(-wj[best], wj);
        }
        row /= d;
        var.zip_mut_with(&row, |s, r| *s -= r * r);
        w.push(row);
        diag.push(d);
        chosen.push(best);
        gains.push(total);
    }
    Ok(GreedyGain { chosen, gains })
}

/// The exact `gamma_T(C)` by enumerating every multiset of `T` candidates: `C(|C| + T - 1, T)`
/// log-determinants. Only for tiny cases (tests and the verification check of the greedy
/// estimate); errors when there are more than `max_sets` multisets.
pub fn exact_max_information_gain<K: Kernel + ?Sized>(
    kernel: &K,
    candidates: ArrayView2<'_, f64>,
    steps: usize,
    lambda: f64,
    max_sets: usize,
) -> Result<(f64, Vec<usize>), KernelError> {
    let n = candidates.nrows();
    if n == 0 {
        return Err(KernelError::Input(InputError::Empty {
            what: "information-gain candidate set",
        }));
    }
    // Number of multisets C(n + T - 1, T), guarded against overflow.
    let mut count: f64 = 1.0;
    for i in 0..steps {
        count *= (n + i) as f64 / (i + 1) as f64;
    }
    if count > max_sets as f64 {
        return Err(KernelError::InvalidCount {
            name: "exhaustive information-gain search",
            reason: format!("{count:.0} multisets exceed the limit {max_sets}"),
        });
    }
    let mut idx = vec![0usize; steps];
    let mut best = (f64::NEG_INFINITY, idx.clone());
    loop {
        let a = Array2::from_shape_fn((steps, candidates.ncols()), |(r, c)| {
            candidates[[idx[r], c]]
        });
        let g = information_gain(kernel, a.view(), lambda)?;
        if g > best.0 {
            best = (g, idx.clone());
        }
        // Next non-decreasing index sequence.
        let mut p = steps;
        loop {
            if p == 0 {
                return Ok(best);
            }
            p -= 1;
            if idx[p] + 1 < n {
                idx[p] += 1;
                let v = idx[p];
                for q in idx.iter_mut().skip(p + 1) {
                    *q = v;
                }
                break;
            }
        }
    }
}
