//! Domains: a finite set of points, a regular grid on a box, a box with uniform sampling, and
//! the partition of a box into `P` equal-volume hyper-rectangles used by DP-FTS-DE's
//! distributed exploration.
//!
//! Points are rows: a set of `n` points in dimension `d` is an `n x d` array.

use ndarray::{Array1, Array2, ArrayView1, ArrayView2};
use rand::{Rng, RngExt};
use serde::{Deserialize, Serialize};

use crate::error::{BanditError, InputError};
use validation::ensure_finite;

/// A non-empty finite set of points in `R^d` (the rows of an `n x d` array).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FiniteDomain {
    points: Array2<f64>,
}

impl FiniteDomain {
    /// Validate and wrap a set of points: at least one point, `d >= 1`, all finite.
    pub fn new(points: Array2<f64>) -> Result<Self, BanditError> {
        if points.nrows() == 0 {
            return Err(BanditError::Input(InputError::Empty {
                what: "finite domain (no points)",
            }));
        }
        if points.ncols() == 0 {
            return Err(BanditError::Input(InputError::Empty {
                what: "finite domain (points of dimension 0)",
            }));
        }
        ensure_finite("finite domain", points.iter())?;
        Ok(Self { points })
    }

    /// The points `0, 1, ..., n-1` as an `n x 1` array: the arms of a precomputed (Gram
    /// matrix) kernel, see [`kernel::Precomputed`].
    pub fn arm_indices(n: usize) -> Result<Self, BanditError> {
        Self::new(Array2::from_shape_fn((n, 1), |(i, _)| i as f64))
    }

    /// The points, one per row.
    pub fn points(&self) -> ArrayView2<'_, f64> {
        self.points.view()
    }

    /// Number of points.
    pub fn len(&self) -> usize {
        self.points.nrows()
    }

    /// Always `false` (a finite domain is never empty); present for clippy's `len_without_is_empty`.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The dimension `d`.
    pub fn dim(&self) -> usize {
        self.points.ncols()
    }

    /// Consume the domain and return its points.
    pub fn into_points(self) -> Array2<f64> {
        self.points
    }
}

/// An axis-aligned box `[l_1, u_1] x ... x [l_d, u_d]` with `l_i < u_i`, finite.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BoxDomain {
    lower: Array1<f64>,
    upper: Array1<f64>,
}

impl BoxDomain {
    /// Validate a box: equal lengths, `d >= 1`, finite bounds with `lower[i] < upper[i]`.
    pub fn new(lower: Array1<f64>, upper: Array1<f64>) -> Result<Self, BanditError> {
        if lower.is_empty() {
            return Err(BanditError::Input(InputError::Empty {
                what: "box (dimension 0)",
            }));
        }
        if lower.len() != upper.len() {
            return Err(BanditError::Input(InputError::DimensionMismatch {
                context: "box upper bounds",
                expected: lower.len(),
                got: upper.len(),
            }));
        }
        for (dim, (&l, &u)) in lower.iter().zip(upper.iter()).enumerate() {
            if !(l.is_finite() && u.is_finite() && l < u) {
                return Err(BanditError::InvalidBox {
                    dim,
                    lower: l,
                    upper: u,
                });
            }
        }
        Ok(Self { lower, upper })
    }

    /// The cube `[lo, hi]^d`.
    pub fn cube(d: usize, lo: f64, hi: f64) -> Result<Self, BanditError> {
        Self::new(Array1::from_elem(d, lo), Array1::from_elem(d, hi))
    }

    /// The unit cube `[0, 1]^d`.
    pub fn unit(d: usize) -> Result<Self, BanditError> {
        Self::cube(d, 0.0, 1.0)
    }

    /// The dimension `d`.
    pub fn dim(&self) -> usize {
        self.lower.len()
    }

    /// Lower bounds.
    pub fn lower(&self) -> ArrayView1<'_, f64> {
        self.lower.view()
    }

    /// Upper bounds.
    pub fn upper(&self) -> ArrayView1<'_, f64> {
        self.upper.view()
    }

    /// The volume `prod_i (u_i - l_i)`.
    pub fn volume(&self) -> f64 {
        self.lower
            .iter()
            .zip(self.upper.iter())
            .map(|(l, u)| u - l)
            .product()
    }

    /// Whether `x` lies in the closed box.
    pub fn contains(&self, x: ArrayView1<'_, f64>) -> bool {
        x.len() == self.dim()
            && x.iter()
                .zip(self.lower.iter().zip(self.upper.iter()))
                .all(|(v, (l, u))| *l <= *v && *v <= *u)
    }

    /// `n` points drawn independently and uniformly from the box (coordinate `i` is
    /// `l_i + (u_i - l_i) U`, `U ~ U[0, 1)`, drawn in row-major order).
    pub fn sample_uniform<R: Rng + ?Sized>(&self, n: usize, rng: &mut R) -> Array2<f64> {
        let d = self.dim();
        let mut out = Array2::zeros((n, d));
        for i in 0..n {
            for j in 0..d {
                let u: f64 = rng.random();
                out[[i, j]] = self.lower[j] + (self.upper[j] - self.lower[j]) * u;
            }
        }
        out
    }

    /// The regular grid with `counts[i]` equally spaced points in dimension `i`, endpoints
    /// included (`counts[i] = 1` puts the single point at the centre), as a finite domain
    /// of `prod_i counts[i]` points in row-major order (the last dimension varies fastest).
    ///
    /// The Zhou & Tan synthetic domain is `BoxDomain::unit(1)?.grid(&[100])`: the points
    /// `j / 99`, `j = 0..99`; the DP-FTS-DE synthetic domain is `grid(&[1000])`.
    pub fn grid(&self, counts: &[usize]) -> Result<FiniteDomain, BanditError> {
        if counts.len() != self.dim() {
            return Err(BanditError::Input(InputError::DimensionMismatch {
                context: "grid counts per dimension",
                expected: self.dim(),
                got: counts.len(),
            }));
        }
        if counts.contains(&0) {
            return Err(BanditError::Input(InputError::Empty {
                what: "grid (a dimension with 0 points)",
            }));
        }
        let axes: Vec<Vec<f64>> = counts
            .iter()
            .enumerate()
            .map(|(i, &m)| {
                let (l, u) = (self.lower[i], self.upper[i]);
                if m == 1 {
                    vec![0.5 * (l + u)]
                } else {
                    (0..m)
                        .map(|j| {
                            if j + 1 == m {
                                u
                            } else {
                                l + (u - l) * j as f64 / (m - 1) as f64
                            }
                        })
                        .collect()
                }
            })
            .collect();
        let n: usize = counts.iter().product();
        let d = self.dim();
        let mut points = Array2::zeros((n, d));
        for row in 0..n {
            let mut rem = row;
            for j in (0..d).rev() {
                points[[row, j]] = axes[j][rem % counts[j]];
                rem /= counts[j];
            }
        }
        FiniteDomain::new(points)
    }
}

/// A partition of a box into `P = prod_i splits[i]` hyper-rectangles of equal volume: dimension
/// `i` is cut into `splits[i]` equal intervals (DP-FTS-DE, Sec. 3.2 footnote 6 and App. B.1.1,
/// B.2: "hyper-rectangles with equal volumes").
///
/// # Which P are allowed
///
/// [`Partition::equal_volume`] accepts every `P >= 1` and chooses the splits by this rule,
/// which reproduces every partition the paper writes out: factor `P` into primes, and give the
/// primes, largest first, one at a time to the dimension with the fewest parts so far (ties to
/// the lowest dimension). So `P = 4` on `[0,1]^2` is `2 x 2`, on `[0,1]^3` it is `2 x 2 x 1`
/// (App. B.2: `X_1 = [0,0.5] x [0,0.5] x [0,1]`, ...), and on `[0,1]` it is four intervals
/// (App. B.1.1); `P = 6` on `[0,1]^2` is `3 x 2`. What does not divide a box as documented:
/// `P = 0`, explicit splits of the wrong length or with a zero, and (for a finite domain,
/// [`Partition::assign_points`]) a partition that leaves a sub-region without any point.
///
/// # Cells
///
/// Cell intervals are half-open, `[a, b)`, except the last one of each dimension, which is
/// closed (App. B.1.1: "`[0, 1/3)`, `[1/3, 2/3)` and `[2/3, 1]`"). Cells are numbered in
/// row-major order of their per-dimension indices (the last dimension varies fastest), which
/// is the paper's order `X_1 = [0,0.5]x[0,0.5]`, `X_2 = [0,0.5]x[0.5,1]`, ...
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Partition {
    bounds: BoxDomain,
    splits: Vec<usize>,
}

impl Partition {
    /// Partition `bounds` into `p` equal-volume hyper-rectangles by the rule documented on
    /// [`Partition`].
    pub fn equal_volume(bounds: BoxDomain, p: usize) -> Result<Self, BanditError> {
        if p == 0 {
            return Err(BanditError::InvalidPartition {
                reason: "the number of sub-regions P must be >= 1, got 0".into(),
            });
        }
        let mut primes = Vec::new();
        let mut rest = p;
        let mut f = 2;
        while f * f <= rest {
            while rest.is_multiple_of(f) {
                primes.push(f);
                rest /= f;
            }
            f += 1;
        }
        if rest > 1 {
            primes.push(rest);
        }
        primes.sort_unstable_by(|a, b| b.cmp(a));
        let mut splits = vec![1usize; bounds.dim()];
        for q in primes {
            let (i, _) = splits
                .iter()
                .enumerate()
                .min_by_key(|&(i, &s)| (s, i))
                .expect("d >= 1");
            splits[i] *= q;
        }
        Self::with_splits(bounds, splits)
    }

    /// Partition `bounds` by cutting dimension `i` into `splits[i] >= 1` equal intervals.
    pub fn with_splits(bounds: BoxDomain, splits: Vec<usize>) -> Result<Self, BanditError> {
        if splits.len() != bounds.dim() {
            return Err(BanditError::InvalidPartition {
                reason: format!(
                    "{} splits given for a box of dimension {} (one count per dimension is needed)",
                    splits.len(),
                    bounds.dim()
                ),
            });
        }
        if let Some(i) = splits.iter().position(|&s| s == 0) {
            return Err(BanditError::InvalidPartition {
                reason: format!("dimension {i} is cut into 0 intervals (every count must be >= 1)"),
            });
        }
        if splits
            .iter()
            .try_fold(1usize, |acc, &s| acc.checked_mul(s))
            .is_none()
        {
            return Err(BanditError::InvalidPartition {
                reason: "the number of sub-regions overflows usize".into(),
            });
        }
        Ok(Self { bounds, splits })
    }

    /// Number of sub-regions `P`.
    pub fn n_cells(&self) -> usize {
        self.splits.iter().product()
    }

    /// Intervals per dimension.
    pub fn splits(&self) -> &[usize] {
        &self.splits
    }

    /// The partitioned box.
    pub fn bounds(&self) -> &BoxDomain {
        &self.bounds
    }

    /// The sub-region (cell index) of a point of the box; `None` when the point is outside
    /// the closed box or of the wrong dimension.
    pub fn cell_of(&self, x: ArrayView1<'_, f64>) -> Option<usize> {
        if !self.bounds.contains(x) {
            return None;
        }
        let mut cell = 0;
        for (j, &v) in x.iter().enumerate() {
            let (l, u, s) = (self.bounds.lower[j], self.bounds.upper[j], self.splits[j]);
            let k = (((v - l) / (u - l)) * s as f64).floor() as usize;
            cell = cell * s + k.min(s - 1);
        }
        Some(cell)
    }

    /// The closed bounds of sub-region `cell` (the half-open convention of [`Partition`]
    /// decides which cell owns a shared face).
    pub fn cell_bounds(&self, cell: usize) -> Result<BoxDomain, BanditError> {
        if cell >= self.n_cells() {
            return Err(BanditError::InvalidPartition {
                reason: format!(
                    "cell {cell} does not exist (the partition has {} cells)",
                    self.n_cells()
                ),
            });
        }
        let d = self.bounds.dim();
        let mut idx = vec![0; d];
        let mut rem = cell;
        for j in (0..d).rev() {
            idx[j] = rem % self.splits[j];
            rem /= self.splits[j];
        }
        let mut lo = Array1::zeros(d);
        let mut hi = Array1::zeros(d);
        for j in 0..d {
            let (l, u, s) = (
                self.bounds.lower[j],
                self.bounds.upper[j],
                self.splits[j] as f64,
            );
            lo[j] = l + (u - l) * idx[j] as f64 / s;
            hi[j] = if idx[j] + 1 == self.splits[j] {
                u
            } else {
                l + (u - l) * (idx[j] + 1) as f64 / s
            };
        }
        BoxDomain::new(lo, hi)
    }

    /// Assign every point of a finite domain to its sub-region: element `i` lists the indices
    /// of the points in sub-region `i`. Errors when a point lies outside the box or when a
    /// sub-region is left without a point ([`BanditError::EmptySubRegion`]).
    pub fn assign_points(&self, domain: &FiniteDomain) -> Result<Vec<Vec<usize>>, BanditError> {
        if domain.dim() != self.bounds.dim() {
            return Err(BanditError::Input(InputError::DimensionMismatch {
                context: "partition of a finite domain",
                expected: self.bounds.dim(),
                got: domain.dim(),
            }));
        }
        let mut cells = vec![Vec::new(); self.n_cells()];
        for (i, x) in domain.points().rows().into_iter().enumerate() {
            let c = self
                .cell_of(x)
                .ok_or_else(|| BanditError::InvalidPartition {
                    reason: format!("point {i} of the domain lies outside the partitioned box"),
                })?;
            cells[c].push(i);
        }
        if let Some(cell) = cells.iter().position(Vec::is_empty) {
            return Err(BanditError::EmptySubRegion {
                cell,
                n_cells: self.n_cells(),
                n_points: domain.len(),
            });
        }
        Ok(cells)
    }
}
