//! The median-of-means choice of MoMA-GP-UCB (Algorithm 3, lines 10-12), after MENU
//! (Shao et al. 2018).

use ndarray::{Array1, ArrayView2};

use crate::error::LdpBoError;
use validation::{InputError, at_least_one, ensure_finite};

/// The result of the median-of-means choice.
#[derive(Debug, Clone, PartialEq)]
pub struct MedianOfMeans {
    /// `k*`, the 0-based index of the chosen least-squares estimate.
    pub chosen: usize,
    /// `r_j` for every estimate `j`.
    pub medians: Array1<f64>,
}

/// Algorithm 3, lines 11-12: given the `k` least-squares estimates `theta_j` (rows of
/// `thetas`, `k x m`) and `V` (`m x m`, symmetric positive definite), compute
/// `r_j = median{ ||theta_j - theta_s||_V : s != j }` and return `k* = argmin_j r_j`.
///
/// Conventions (the paper leaves them open): the median of an even number of values is the
/// mean of the two middle ones; ties in the argmin go to the smallest index. With `k = 1` the
/// only estimate is chosen (`r_1 = 0`).
pub fn median_of_means(
    thetas: ArrayView2<'_, f64>,
    v: ArrayView2<'_, f64>,
) -> Result<MedianOfMeans, LdpBoError> {
    let (k, m) = thetas.dim();
    at_least_one("number of least-squares estimates k", k)?;
    if v.dim() != (m, m) {
        return Err(LdpBoError::Input(InputError::DimensionMismatch {
            context: "median of means: V must be m x m with m the estimates' dimension",
            expected: m,
            got: v.nrows(),
        }));
    }
    // The flat index runs over the entries of the thetas, then those of V.
    ensure_finite("median-of-means input", thetas.iter().chain(v.iter()))?;
    // dist[j][s] = ||theta_j - theta_s||_V, computed from the difference (not from the Gram of
    // the thetas) so that nearly equal estimates do not lose precision.
    let mut dist = ndarray::Array2::<f64>::zeros((k, k));
    let mut diff = Array1::zeros(m);
    for j in 0..k {
        for s in (j + 1)..k {
            diff.assign(&(&thetas.row(j) - &thetas.row(s)));
            let q = diff.dot(&v.dot(&diff)).max(0.0).sqrt();
            dist[[j, s]] = q;
            dist[[s, j]] = q;
        }
    }
    let mut medians = Array1::zeros(k);
    for j in 0..k {
        let mut others: Vec<f64> = (0..k).filter(|&s| s != j).map(|s| dist[[j, s]]).collect();
        medians[j] = median(&mut others);
    }
    let mut chosen = 0;
    for j in 1..k {
        if medians[j] < medians[chosen] {
            chosen = j;
        }
    }
    Ok(MedianOfMeans { chosen, medians })
}

/// The median of `values` (mean of the two middle values for an even count; 0 when empty).
fn median(values: &mut [f64]) -> f64 {
    if values.is_empty() {
        return 0.0;
    }
    values.sort_by(f64::total_cmp);
    let n = values.len();
    if n % 2 == 1 {
        values[n / 2]
    } else {
        0.5 * (values[n / 2 - 1] + values[n / 2])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_abs_diff_eq;
    use ndarray::{Array2, array};

    #[test]
    fn chooses_the_central_estimate() {
        // Scalars 0, 1, 2, 10 with V = 1: distances from 1 are {1, 1, 9} -> median 1;
        // from 0: {1, 2, 10} -> 2; from 2: {2, 1, 8} -> 2; from 10: {10, 9, 8} -> 9.
        let thetas = array![[0.0], [1.0], [2.0], [10.0]];
        let v = Array2::eye(1);
        let r = median_of_means(thetas.view(), v.view()).unwrap();
        assert_eq!(r.chosen, 1);
        assert_abs_diff_eq!(r.medians[0], 2.0);
        assert_abs_diff_eq!(r.medians[1], 1.0);
        assert_abs_diff_eq!(r.medians[2], 2.0);
        assert_abs_diff_eq!(r.medians[3], 9.0);
    }

    #[test]
    fn uses_the_v_norm() {
        // With V = diag(100, 1), a shift in the first coordinate costs 10x more.
        let thetas = array![[0.0, 0.0], [0.1, 0.0], [0.0, 0.5]];
        let v = array![[100.0, 0.0], [0.0, 1.0]];
        let r = median_of_means(thetas.view(), v.view()).unwrap();
        // ||t0 - t1||_V = 1, ||t0 - t2||_V = 0.5, ||t1 - t2||_V = sqrt(1 + 0.25).
        assert_abs_diff_eq!(r.medians[0], 0.75, epsilon = 1e-15);
        assert_abs_diff_eq!(r.medians[1], 0.5 * (1.0 + 1.25f64.sqrt()), epsilon = 1e-15);
        assert_abs_diff_eq!(r.medians[2], 0.5 * (0.5 + 1.25f64.sqrt()), epsilon = 1e-15);
        assert_eq!(r.chosen, 0);
    }

    #[test]
    fn single_estimate_and_bad_inputs() {
        let r = median_of_means(array![[3.0, 4.0]].view(), Array2::eye(2).view()).unwrap();
        assert_eq!(r.chosen, 0);
        assert!(median_of_means(Array2::zeros((0, 2)).view(), Array2::eye(2).view()).is_err());
        assert!(median_of_means(array![[1.0]].view(), Array2::eye(2).view()).is_err());
        assert!(median_of_means(array![[f64::NAN]].view(), Array2::eye(1).view()).is_err());
    }
}
