//! Additive feature maps: one feature map per disjoint group of input coordinates, concatenated
//! (Mutny & Krause 2018, Section 5, additive kernels; used by Dubey 2021, Table 1).

use ndarray::{Array1, ArrayView1, ArrayViewMut1, Slice};

use super::{FeatureMap, QuadratureFourierFeatures};
use crate::error::{InputError, KernelError};
use crate::kernels::SquaredExponential;

/// Groups of at most this many coordinates are gathered on the stack when mapping a point.
const STACK_GROUP: usize = 16;

/// The feature map of an additive kernel `k(x, y) = (1/G) sum_{g=1}^G k_g(x_{S_g}, y_{S_g})`,
/// where `S_1, ..., S_G` partition the coordinates `0..d`.
///
/// # Formula
///
/// With `phi_g: R^{|S_g|} -> R^{m_g}` the feature map of `k_g`,
///
/// `Phi(x) = G^{-1/2} (phi_1(x_{S_1}), ..., phi_G(x_{S_G})) in R^m`, `m = sum_g m_g`,
///
/// so that `Phi(x)^T Phi(y) = (1/G) sum_g phi_g(x_{S_g})^T phi_g(y_{S_g})`. If each `phi_g`
/// approximates `k_g` uniformly to `eps_g`, `Phi` approximates the additive kernel uniformly to
/// `(1/G) sum_g eps_g <= max_g eps_g`; if each `phi_g` has unit norm (normalised QFF of a
/// unit-variance kernel), `||Phi(x)||^2 = (1/G) sum_g ||phi_g||^2 = 1`, the bound Dubey's
/// Theorem 1 needs. The `1/G` keeps the additive kernel's variance at `k(x, x) = 1`.
///
/// A tensor-product QFF needs `2 mbar^d` features; the additive one with one group per
/// coordinate needs `2 d mbar`, which is what makes `d = 10, 20` feasible (Mutny & Krause
/// 2018, Section 5; Dubey 2021, Table 1 does not state its decomposition).
///
/// # Examples
///
/// ```
/// use kernel::{AdditiveFeatures, FeatureMap, SquaredExponential};
/// use ndarray::array;
///
/// let k = SquaredExponential::isotropic(0.5)?;
/// // Coordinates {0, 2} and {1}: a 2-d QFF and a 1-d QFF, 10 nodes per dimension.
/// let phi = AdditiveFeatures::qff(&k, vec![vec![0, 2], vec![1]], 10)?;
/// assert_eq!(phi.dim(), 2 * 10 * 10 + 2 * 10);
/// let (x, y) = (array![0.1, -0.3, 0.4], array![0.2, 0.2, -0.1]);
/// let (px, py) = (phi.map(x.view())?, phi.map(y.view())?);
/// let se = |a: f64| (-a / (2.0 * 0.25)).exp();
/// let additive = 0.5 * (se(0.01 + 0.25) + se(0.25));
/// assert!((px.dot(&py) - additive).abs() < 1e-7);
/// assert!((px.dot(&px) - 1.0).abs() < 1e-12);
/// # Ok::<(), kernel::KernelError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct AdditiveFeatures<F = QuadratureFourierFeatures> {
    groups: Vec<Vec<usize>>,
    maps: Vec<F>,
    /// Offset of group `g`'s features in `Phi(x)`; `offsets[G] = m`.
    offsets: Vec<usize>,
    input_dim: usize,
    /// `G^{-1/2}`.
    scale: f64,
}

impl<F: FeatureMap> AdditiveFeatures<F> {
    /// The additive map of the feature maps `maps[g]` on the coordinate groups `groups[g]` of
    /// inputs in `R^d`, `d` = the number of coordinates the groups cover.
    ///
    /// # Errors
    /// [`InputError::Empty`] when there is no group or a group is empty;
    /// [`InputError::DimensionMismatch`] when `maps` and `groups` differ in length or a map's
    /// input dimension is not its group's size; [`InputError::Unsatisfied`] when the groups
    /// are not disjoint or do not cover `0..d` exactly.
    pub fn new(groups: Vec<Vec<usize>>, maps: Vec<F>) -> Result<Self, KernelError> {
        validation::non_empty("additive feature groups", groups.len())?;
        validation::matching_dimension(
            "additive feature maps (one per group)",
            groups.len(),
            maps.len(),
        )?;
        let input_dim: usize = groups.iter().map(Vec::len).sum();
        let mut seen = vec![false; input_dim];
        for (group, map) in groups.iter().zip(&maps) {
            validation::non_empty("additive feature group", group.len())?;
            validation::matching_dimension(
                "additive feature map input (the group's size)",
                group.len(),
                map.input_dim(),
            )?;
            for &j in group {
                if j >= input_dim || seen[j] {
                    return Err(InputError::Unsatisfied {
                        what: "additive feature group coordinate",
                        value: j as f64,
                        requirement: "the groups must be disjoint and cover 0..d, d = the total \
                                      group size",
                    }
                    .into());
                }
                seen[j] = true;
            }
        }
        let mut offsets = Vec::with_capacity(maps.len() + 1);
        offsets.push(0);
        for map in &maps {
            offsets.push(offsets.last().copied().unwrap_or(0) + map.dim());
        }
        let scale = 1.0 / (groups.len() as f64).sqrt();
        Ok(Self {
            groups,
            maps,
            offsets,
            input_dim,
            scale,
        })
    }

    /// The coordinate groups `S_g`.
    pub fn groups(&self) -> &[Vec<usize>] {
        &self.groups
    }

    /// The feature map of each group.
    pub fn maps(&self) -> &[F] {
        &self.maps
    }
}

impl AdditiveFeatures<QuadratureFourierFeatures> {
    /// One QFF of the SE kernel `kernel` restricted to each group's coordinates (its variance
    /// and, per coordinate, its lengthscale), with `mbar` nodes per dimension.
    ///
    /// # Errors
    /// As [`AdditiveFeatures::new`], and [`QuadratureFourierFeatures::new`]'s errors (e.g. a
    /// per-dimension lengthscale vector whose length is not `d`).
    pub fn qff(
        kernel: &SquaredExponential,
        groups: Vec<Vec<usize>>,
        mbar: usize,
    ) -> Result<Self, KernelError> {
        let d: usize = groups.iter().map(Vec::len).sum();
        let ls = kernel.lengthscales().to_vec(d)?;
        let maps = groups
            .iter()
            .map(|g| {
                let sub: Array1<f64> = g
                    .iter()
                    .map(|&j| ls.get(j).copied().unwrap_or(f64::NAN))
                    .collect();
                let k = SquaredExponential::new(
                    kernel.variance(),
                    crate::kernels::Lengthscales::per_dimension(sub)?,
                )?;
                QuadratureFourierFeatures::new(&k, g.len().max(1), mbar)
            })
            .collect::<Result<Vec<_>, _>>()?;
        Self::new(groups, maps)
    }

    /// The groups `{0}, {1}, ..., {d - 1}`: one group per coordinate (a first-order additive
    /// kernel).
    pub fn one_per_coordinate(d: usize) -> Vec<Vec<usize>> {
        (0..d).map(|j| vec![j]).collect()
    }
}

impl<F: FeatureMap> FeatureMap for AdditiveFeatures<F> {
    fn input_dim(&self) -> usize {
        self.input_dim
    }

    fn dim(&self) -> usize {
        self.offsets.last().copied().unwrap_or(0)
    }

    fn map_into_unchecked(&self, x: ArrayView1<'_, f64>, mut out: ArrayViewMut1<'_, f64>) {
        let mut stack = [0.0; STACK_GROUP];
        for (g, (group, map)) in self.groups.iter().zip(&self.maps).enumerate() {
            let mut block = out.slice_axis_mut(
                ndarray::Axis(0),
                Slice::from(self.offsets[g]..self.offsets[g + 1]),
            );
            if group.len() <= STACK_GROUP {
                for (b, &j) in stack.iter_mut().zip(group) {
                    *b = x[j];
                }
                map.map_into_unchecked(ArrayView1::from(&stack[..group.len()]), block.view_mut());
            } else {
                let sub: Array1<f64> = group.iter().map(|&j| x[j]).collect();
                map.map_into_unchecked(sub.view(), block.view_mut());
            }
            block *= self.scale;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::{Kernel, Lengthscales};
    use ndarray::{Array2, array};
    use rand::RngExt;
    use rand::SeedableRng;
    use rand_chacha::ChaCha20Rng;

    /// The additive SE kernel `(1/G) sum_g k_g(x_{S_g}, y_{S_g})`, computed directly.
    fn additive_se(ls: &[f64], groups: &[Vec<usize>], x: &Array1<f64>, y: &Array1<f64>) -> f64 {
        groups
            .iter()
            .map(|g| {
                let r2: f64 = g.iter().map(|&j| ((x[j] - y[j]) / ls[j]).powi(2)).sum();
                (-0.5 * r2).exp()
            })
            .sum::<f64>()
            / groups.len() as f64
    }

    fn points(n: usize, d: usize, seed: u64) -> Array2<f64> {
        let mut rng = ChaCha20Rng::seed_from_u64(seed);
        Array2::from_shape_fn((n, d), |_| rng.random_range(-0.5..0.5))
    }

    #[test]
    fn reproduces_the_additive_se_kernel_with_unit_norm() {
        let ls = [0.4, 0.6, 0.5, 0.3, 0.8];
        let k = SquaredExponential::new(1.0, Lengthscales::per_dimension(ls.to_vec()).unwrap())
            .unwrap();
        let groups = vec![vec![3, 0], vec![1], vec![4, 2]];
        let phi = AdditiveFeatures::qff(&k, groups.clone(), 20).unwrap();
        assert_eq!(phi.input_dim(), 5);
        assert_eq!(phi.dim(), 2 * 20 * 20 + 2 * 20 + 2 * 20 * 20);
        let xs = points(30, 5, 1);
        let f = phi.map_batch(xs.view()).unwrap();
        for i in 0..xs.nrows() {
            assert!((f.row(i).dot(&f.row(i)) - 1.0).abs() < 1e-12);
            for j in 0..xs.nrows() {
                let exact = additive_se(&ls, &groups, &xs.row(i).to_owned(), &xs.row(j).to_owned());
                let approx = f.row(i).dot(&f.row(j));
                assert!((approx - exact).abs() < 1e-7, "{approx} vs {exact}");
            }
        }
    }

    #[test]
    fn one_group_is_the_group_map_itself() {
        let k = SquaredExponential::isotropic(0.7).unwrap();
        let qff = QuadratureFourierFeatures::new(&k, 2, 6).unwrap();
        let add = AdditiveFeatures::new(vec![vec![0, 1]], vec![qff.clone()]).unwrap();
        let x = array![0.3, -0.2];
        assert_eq!(add.map(x.view()).unwrap(), qff.map(x.view()).unwrap());
        // A permuted group feeds the map its coordinates in the group's order.
        let swapped = AdditiveFeatures::new(vec![vec![1, 0]], vec![qff.clone()]).unwrap();
        assert_eq!(
            swapped.map(x.view()).unwrap(),
            qff.map(array![-0.2, 0.3].view()).unwrap()
        );
        let one_d = AdditiveFeatures::qff(&k, AdditiveFeatures::one_per_coordinate(3), 8).unwrap();
        let (a, b) = (array![0.1, 0.2, 0.3], array![-0.4, 0.0, 0.5]);
        let exact = (0..3)
            .map(|j| k.value(array![a[j]].view(), array![b[j]].view()).unwrap())
            .sum::<f64>()
            / 3.0;
        let approx = one_d
            .map(a.view())
            .unwrap()
            .dot(&one_d.map(b.view()).unwrap());
        assert!((approx - exact).abs() < 1e-6);
    }

    #[test]
    fn invalid_groups_are_typed_errors() {
        let k = SquaredExponential::isotropic(0.5).unwrap();
        let q1 = || QuadratureFourierFeatures::new(&k, 1, 4).unwrap();
        let err = |r: Result<AdditiveFeatures, KernelError>| r.unwrap_err();
        assert!(matches!(
            err(AdditiveFeatures::new(vec![], vec![])),
            KernelError::Input(InputError::Empty { .. })
        ));
        assert!(matches!(
            err(AdditiveFeatures::new(
                vec![vec![0], vec![]],
                vec![q1(), q1()]
            )),
            KernelError::Input(InputError::Empty { .. })
        ));
        // Overlapping groups.
        assert!(matches!(
            err(AdditiveFeatures::new(
                vec![vec![0], vec![0]],
                vec![q1(), q1()]
            )),
            KernelError::Input(InputError::Unsatisfied { .. })
        ));
        // Not covering 0..d (coordinate 2 of d = 2).
        assert!(matches!(
            err(AdditiveFeatures::new(
                vec![vec![0], vec![2]],
                vec![q1(), q1()]
            )),
            KernelError::Input(InputError::Unsatisfied { .. })
        ));
        // One map too few, and a map of the wrong input dimension.
        assert!(matches!(
            err(AdditiveFeatures::new(vec![vec![0], vec![1]], vec![q1()])),
            KernelError::Input(InputError::DimensionMismatch { .. })
        ));
        assert!(matches!(
            err(AdditiveFeatures::new(vec![vec![0, 1]], vec![q1()])),
            KernelError::Input(InputError::DimensionMismatch { .. })
        ));
        // A point of the wrong dimension is rejected by the checked map.
        let ok = AdditiveFeatures::qff(&k, vec![vec![0], vec![1]], 4).unwrap();
        assert!(ok.map(array![0.1].view()).is_err());
        assert!(ok.map(array![0.1, f64::NAN].view()).is_err());
    }
}
