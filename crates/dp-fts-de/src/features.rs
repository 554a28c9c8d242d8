//! The random Fourier features every agent shares (Sec. 2: "all participating agents share
//! the same set of random features"), evaluated once on the finite domain, with the
//! sub-region of every point.

use std::sync::Arc;

use bandit::domain::{FiniteDomain, Partition};
use kernel::{FeatureMap, RandomFourierFeatures, SquaredExponential};
use ndarray::{Array2, ArrayView1, ArrayView2};
use rand::Rng;

use crate::error::DpFtsDeError;

/// `phi(x)` for every point `x` of a finite domain (`|X| x M`, Rahimi & Recht's features of
/// the SE kernel: `phi(x)_j = sqrt(2 / M) cos(w_j^T x + b_j)`), and the partition of the domain
/// into the `P` sub-regions of distributed exploration.
///
/// The features are drawn once from a seed that all agents share (the FTS protocol); the
/// server never needs them. On a finite domain both acquisition steps of Algorithm 2 are
/// exact argmaxes of `Phi w` over the rows (lines 6 and 8): `O(|X| M)` per choice.
#[derive(Debug, Clone)]
pub struct SharedFeatures {
    domain: FiniteDomain,
    phi: Array2<f64>,
    cell_of: Vec<usize>,
    cells: Vec<Vec<usize>>,
}

impl SharedFeatures {
    /// Draw `m` features of the SE kernel with `lengthscale` from `rng` and evaluate them on
    /// `domain`, split by `partition`.
    pub fn draw<R: Rng + ?Sized>(
        domain: FiniteDomain,
        partition: &Partition,
        lengthscale: f64,
        m: usize,
        rng: &mut R,
    ) -> Result<Arc<Self>, DpFtsDeError> {
        let kernel = SquaredExponential::isotropic(lengthscale)?;
        let rff = RandomFourierFeatures::new(kernel, domain.dim(), m, rng)?;
        let phi = rff.map_batch(domain.points())?;
        Self::from_matrix(domain, partition, phi)
    }

    /// Wrap given feature rows (`|X| x M`, one row per point of `domain`).
    pub fn from_matrix(
        domain: FiniteDomain,
        partition: &Partition,
        phi: Array2<f64>,
    ) -> Result<Arc<Self>, DpFtsDeError> {
        validation::matching_dimension("feature rows per domain point", domain.len(), phi.nrows())?;
        validation::at_least_one("number of random features M", phi.ncols())?;
        validation::ensure_finite("random features", phi.iter())?;
        let cells = partition.assign_points(&domain)?;
        let mut cell_of = vec![0; domain.len()];
        for (i, c) in cells.iter().enumerate() {
            for &x in c {
                cell_of[x] = i;
            }
        }
        Ok(Arc::new(Self {
            domain,
            phi,
            cell_of,
            cells,
        }))
    }

    /// The domain.
    pub fn domain(&self) -> &FiniteDomain {
        &self.domain
    }

    /// `M`.
    pub fn dim(&self) -> usize {
        self.phi.ncols()
    }

    /// `|X|`.
    pub fn n_points(&self) -> usize {
        self.phi.nrows()
    }

    /// `P`.
    pub fn n_regions(&self) -> usize {
        self.cells.len()
    }

    /// All feature rows.
    pub fn matrix(&self) -> ArrayView2<'_, f64> {
        self.phi.view()
    }

    /// `phi(x)` of point `x`.
    pub fn row(&self, x: usize) -> ArrayView1<'_, f64> {
        self.phi.row(x)
    }

    /// The points of sub-region `i`.
    pub fn region_points(&self, i: usize) -> &[usize] {
        &self.cells[i]
    }

    /// The sub-region of point `x`.
    pub fn region_of(&self, x: usize) -> usize {
        self.cell_of[x]
    }

    /// `argmax_x phi(x)^T w` over the whole domain (first maximiser on ties).
    pub fn argmax(&self, w: ArrayView1<'_, f64>) -> usize {
        first_argmax(self.phi.dot(&w).iter().copied())
    }

    /// `argmax_x phi(x)^T w^(i(x))` with `w^(i)` row `i` of `vectors` (`P x M`) and `i(x)` the
    /// sub-region of `x` (Algorithm 2 line 8 and footnote 9).
    pub fn argmax_by_region(&self, vectors: ArrayView2<'_, f64>) -> usize {
        first_argmax(
            (0..self.n_points()).map(|x| self.phi.row(x).dot(&vectors.row(self.cell_of[x]))),
        )
    }
}

/// The index of the first maximum (NaN never wins).
pub(crate) fn first_argmax(values: impl Iterator<Item = f64>) -> usize {
    let mut best = (0, f64::NEG_INFINITY);
    for (i, v) in values.enumerate() {
        if v > best.1 {
            best = (i, v);
        }
    }
    best.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use bandit::domain::BoxDomain;
    use ndarray::arr2;

    fn line(n: usize, p: usize, phi: Array2<f64>) -> Arc<SharedFeatures> {
        let bounds = BoxDomain::unit(1).unwrap();
        let domain = bounds.grid(&[n]).unwrap();
        let partition = Partition::equal_volume(bounds, p).unwrap();
        SharedFeatures::from_matrix(domain, &partition, phi).unwrap()
    }

    #[test]
    fn argmax_by_region_uses_each_points_own_vector() {
        // Four points on [0, 1], two sub-regions ([0, 0.5) and [0.5, 1]), features e_1, e_2.
        let phi = arr2(&[[1.0, 0.0], [0.0, 1.0], [1.0, 0.0], [0.0, 1.0]]);
        let f = line(4, 2, phi);
        assert_eq!(f.region_points(0), &[0, 1]);
        assert_eq!(f.region_points(1), &[2, 3]);
        // Region 0's vector favours feature 2 (point 1), region 1's favours feature 1 (point 2),
        // and region 1's is larger: the argmax is point 2.
        let v = arr2(&[[0.0, 3.0], [5.0, 0.0]]);
        assert_eq!(f.argmax_by_region(v.view()), 2);
        // With one vector for the whole domain the first maximiser wins.
        assert_eq!(f.argmax(ndarray::arr1(&[0.0, 3.0]).view()), 1);
        let v = arr2(&[[0.0, 6.0], [5.0, 0.0]]);
        assert_eq!(f.argmax_by_region(v.view()), 1);
    }

    #[test]
    fn bad_feature_matrices_are_rejected() {
        let bounds = BoxDomain::unit(1).unwrap();
        let domain = bounds.grid(&[3]).unwrap();
        let partition = Partition::equal_volume(bounds, 1).unwrap();
        assert!(
            SharedFeatures::from_matrix(domain.clone(), &partition, Array2::zeros((2, 2))).is_err()
        );
        assert!(
            SharedFeatures::from_matrix(domain.clone(), &partition, Array2::zeros((3, 0))).is_err()
        );
        let mut nan = Array2::zeros((3, 2));
        nan[[1, 1]] = f64::NAN;
        assert!(SharedFeatures::from_matrix(domain, &partition, nan).is_err());
    }
}
