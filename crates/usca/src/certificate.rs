//! A certified upper bound on `sup_W sigma^2` for one drawn `Z`: a grid of cells over `C`,
//! refined best-first around the maximum ([`crate::SensitivityRule::Certified`]).
//!
//! # The bound on one cell
//!
//! `sigma(w) = |Z~^{-1/2} phi(w)|_H` (eq. 5) and `|Z~^{-1/2}|_op <= tau^{-1/2}` (`Z~ >= tau I`),
//! so `|sigma(w) - sigma(w')| <= tau^{-1/2} d_k(w, w')` with
//! `d_k^2 = k(w, w) + k(w', w') - 2 k(w, w')`. For a product kernel
//! `k([x; c], [x'; c']) = k_X(x, x') k_C(c - c')` whose context factor is stationary and
//! non-increasing in every `abs(c_i - c'_i)` (SE, Matérn 5/2: [`JointKernel`]), a point `[x; c]`
//! of the box cell with centre `g` and half-widths `h` is at
//! `d_k^2 = 2 k_X(x, x) (k_C(0) - k_C(c - g)) <= 2 sup k_X (k_C(0) - k_C(h))` from `[x; g]`, so
//!
//! `sup_{x in X, c in cell} sigma(x, c) <= max_{x in X} sigma(x, g) + s(h)`,
//! `s(h) = tau^{-1/2} (2 sup k_X (k_C(0) - k_C(h)))^{1/2}` (the cell's *slack*).
//!
//! The computed `sigma^2` at the centre is raised by the rounding margin of [`crate::rounding`];
//! `k_C(0) - k_C(h)` is raised by `16 u k_C(0)` (`u = 2^-53`), an allowance for the rounding
//! of the two kernel values and their difference, not a proven bound (the kernel's own
//! evaluation is outside [`crate::rounding`]); the sum and the square are rounded upwards.
//!
//! # The cells
//!
//! The cells start as the `n^{dim C}` equal boxes of a grid of `n = points_per_dim` points per
//! dimension (their centres). The cells cover `C`, so `sup_W sigma^2` is at most the largest
//! cell bound, squared. The refinement then splits, best first, the cells whose bound is the
//! largest (each into its `2^{dim C}` halves, which cover it), as long as that bound exceeds the
//! largest `sigma` computed at any centre by more than the relative [`REFINEMENT_TOLERANCE`]
//! and the budget of `refinement_contexts` new centres allows; a half keeps the bound of the
//! cell it came from when its own is larger, so a split never loosens the bound. A split halves a cell's slack
//! (about: `s(h)` is about `tau^{-1/2} sup k_X^{1/2} |h / l|` for small `h`), so the budget
//! goes where the bound is decided, around the maximum; the cells that cannot hold the maximum
//! stay coarse. The bound covers every context of `C` whatever the budget: every leaf cell
//! bounds its box, and the leaves tile `C`.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use ndarray::{Array1, Array2};
use serde::Serialize;

use crate::error::UscaError;
use crate::estimator::SurrogateVariance;
use crate::factored_mu::{FactoredSigma2, sigma2_at_contexts};
use crate::joint_kernel::JointKernel;
use crate::problem::ContextualProblem;
use crate::rounding::RoundingMargin;

/// Grid contexts per triangular solve of the certificate.
const GRID_CHUNK: usize = 32;

/// The refinement stops once the largest cell bound on `sigma` is within this relative distance
/// of the largest `sigma` computed at a centre (the bound cannot fall below that value).
pub const REFINEMENT_TOLERANCE: f64 = 1e-3;

/// The refinement budget of the profiles [`crate::UscaParams::certified`] and
/// [`crate::UscaParams::query_context`] (and of the reproduction): further cell centres.
pub const DEFAULT_REFINEMENT_CONTEXTS: usize = 256;

/// `u = 2^-53`.
const U: f64 = f64::EPSILON / 2.0;

/// One cell of the certificate: a box of `C` and the bound on `sigma` over it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Cell {
    /// The centre `g`.
    pub centre: Array1<f64>,
    /// The half-widths `h` (the box is `g - h ..= g + h`).
    pub half: Array1<f64>,
    /// `max_{x in X} sigma(x, g)`, as computed.
    pub sigma: f64,
    /// The slack `s(h)` of the module docs.
    pub slack: f64,
    /// The bound on `sigma` over the box: `sigma` raised by the rounding margin, plus `slack`
    /// (rounded upwards), or the bound of the cell it was split from if that is smaller (the
    /// box lies in that cell); infinite without a rounding margin.
    pub upper: f64,
}

impl Cell {
    /// Whether `c` lies in the closed box, up to the rounding of its edges (a split's centres
    /// `g +- h / 2` are rounded, so two neighbours' computed edges can miss each other by a unit
    /// of roundoff): `abs(c_i - g_i) <= h_i + 8 u max(abs(c_i), abs(g_i), h_i)`.
    pub fn contains(&self, c: ndarray::ArrayView1<'_, f64>) -> bool {
        c.iter()
            .zip(self.centre.iter().zip(self.half.iter()))
            .all(|(&x, (&g, &h))| (x - g).abs() <= h + 8.0 * U * x.abs().max(g.abs()).max(h))
    }
}

/// What the certified bound is made of: the cell whose bound is the largest (the *binding*
/// cell), the largest `sigma` computed anywhere, and the work done.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Certificate {
    /// `max sigma(x, g)` over every action `x` and every centre `g` evaluated (the uniform grid
    /// and the refined cells), as computed: no bound can be below it.
    pub grid_max_sigma: f64,
    /// The bound on `sup_W sigma`: the binding cell's [`Cell::upper`].
    pub upper_sigma: f64,
    /// `max_x sigma(x, g)` at the binding cell's centre.
    pub binding_sigma: f64,
    /// The binding cell's slack: how much `sigma` can grow from its centre to any context of
    /// the cell.
    pub slack: f64,
    /// The slack of the uniform grid's cells, before any refinement.
    pub grid_slack: f64,
    /// The rounding margin `M` of [`crate::rounding`] (in units of `sigma^2`), by which a
    /// computed `sigma^2` may fall short of the exact one; `None` when it cannot be made small
    /// (then the certificate is no bound, the rule uses the proven cap, and nothing is refined).
    pub rounding: Option<f64>,
    /// Contexts at which `sigma` was evaluated (the uniform grid and the refinement).
    pub contexts: usize,
    /// Leaf cells (they tile `C`).
    pub cells: usize,
}

impl Certificate {
    /// The certified bound `upper_sigma^2` on `sup_W sigma^2`, rounded upwards, not capped (the
    /// rule caps it at `sup_diag / tau`); infinite without a rounding margin.
    pub fn bound(&self) -> f64 {
        self.upper_sigma * self.upper_sigma * (1.0 + 4.0 * U)
    }
}

/// The bound on `sigma` over a cell whose centre has the computed `sigma` and whose slack is
/// `slack`: `sqrt(upper(sigma^2)) + slack` ([`RoundingMargin::upper`]), rounded upwards;
/// infinite without a margin.
fn cell_upper(margin: Option<RoundingMargin>, sigma: f64, slack: f64) -> f64 {
    match margin {
        None => f64::INFINITY,
        Some(m) => (m.upper(sigma * sigma).sqrt() + slack) * (1.0 + 4.0 * U),
    }
}

/// The certified bound of the module docs, not capped (the rule caps it at `sup_diag / tau`):
/// [`certificate`]'s [`Certificate::bound`]. `joint` must be the variance's kernel (the rule
/// checks it; this function is for the verification of the bound itself).
pub fn certified_sup_sigma2(
    variance: &SurrogateVariance,
    problem: &ContextualProblem,
    joint: &JointKernel,
    points_per_dim: usize,
    refinement_contexts: usize,
) -> Result<f64, UscaError> {
    Ok(certificate(
        variance,
        problem,
        joint,
        points_per_dim,
        refinement_contexts,
    )?
    .bound())
}

/// The certificate from `points_per_dim` cell centres per dimension of `C`, refined with at
/// most `refinement_contexts` further centres (module docs).
pub fn certificate(
    variance: &SurrogateVariance,
    problem: &ContextualProblem,
    joint: &JointKernel,
    points_per_dim: usize,
    refinement_contexts: usize,
) -> Result<Certificate, UscaError> {
    Ok(certificate_cells(
        variance,
        problem,
        joint,
        points_per_dim,
        refinement_contexts,
    )?
    .0)
}

/// A cell in the best-first queue, ordered by its bound.
struct Queued(Cell);

impl PartialEq for Queued {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}
impl Eq for Queued {}
impl PartialOrd for Queued {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Queued {
    fn cmp(&self, other: &Self) -> Ordering {
        self.0.upper.total_cmp(&other.0.upper)
    }
}

/// The slack `s(h)` of a cell with half-widths `half` (module docs): for every action `x` and
/// contexts `c`, `g` with `abs(c_i - g_i) <= half_i`, an upper bound on the distance
/// `|phi([x; c]) - phi([x; g])|` in the `Z~^{-1}` inner product, hence on the change of `sigma`
/// and, by Cauchy-Schwarz, of `<phi(w), phi([x; .])>` divided by `sigma(w)` (the prediction
/// audits' bound on the largest loss over a cell of contexts uses it that way).
pub fn slack(
    joint: &JointKernel,
    tau: f64,
    half: ndarray::ArrayView1<'_, f64>,
) -> Result<f64, UscaError> {
    let product = joint.product();
    let kc = product.context_kernel();
    let zero = Array1::<f64>::zeros(half.len());
    let k0 = kc.value(zero.view(), zero.view())?;
    let kh = kc.value(zero.view(), half)?;
    let sup_kx = product.action_kernel().sup_diag().unwrap_or(f64::INFINITY);
    let d2 = 2.0 * sup_kx * ((k0 - kh).max(0.0) + 16.0 * U * k0);
    Ok((d2 / tau).sqrt() * (1.0 + 4.0 * U))
}

/// [`certificate`] and its leaf cells (they tile `C`; each bounds `sigma` over its box), for
/// the tests that check the certificate against a fine grid cell by cell.
pub fn certificate_cells(
    variance: &SurrogateVariance,
    problem: &ContextualProblem,
    joint: &JointKernel,
    points_per_dim: usize,
    refinement_contexts: usize,
) -> Result<(Certificate, Vec<Cell>), UscaError> {
    let n = validation::at_least_one("grid points per context dimension", points_per_dim)?;
    let set = problem.contexts().set();
    let dc = set.dim();
    let tau = variance.tau();
    let margin = RoundingMargin::new(variance);
    let factored = FactoredSigma2::new(variance, Some(joint), problem.actions().points());
    let actions = problem.actions().len();
    // max_x sigma(x, g) at every row g of `centres`, in chunks of contexts (one triangular
    // solve per chunk: the factor is read once per chunk instead of once per context).
    let evaluate = |centres: &Array2<f64>| -> Result<Vec<f64>, UscaError> {
        let mut out = Vec::with_capacity(centres.nrows());
        for chunk in centres.axis_chunks_iter(ndarray::Axis(0), GRID_CHUNK) {
            let s2 = sigma2_at_contexts(variance, problem, factored.as_ref(), chunk)?;
            out.extend(
                s2.as_slice()
                    .expect("a fresh array is contiguous")
                    .chunks(actions)
                    .map(|b| b.iter().fold(0.0f64, |m, &v| m.max(v)).sqrt()),
            );
        }
        Ok(out)
    };

    // The uniform grid: n cells per dimension, centres at the middle of each.
    let half: Array1<f64> = (0..dc)
        .map(|i| (set.upper()[i] - set.lower()[i]) / (2.0 * n as f64))
        .collect();
    let grid_slack = slack(joint, tau, half.view())?;
    let total: usize = n.pow(dc as u32);
    let mut grid = Array2::zeros((total, dc));
    for (idx, mut row) in grid.rows_mut().into_iter().enumerate() {
        let mut rem = idx;
        for i in 0..dc {
            let j = rem % n;
            rem /= n;
            let (l, u) = (set.lower()[i], set.upper()[i]);
            row[i] = l + (u - l) * (j as f64 + 0.5) / n as f64;
        }
    }
    let sigmas = evaluate(&grid)?;
    let mut grid_max_sigma = sigmas.iter().fold(0.0f64, |m, &s| m.max(s));
    let mut queue: BinaryHeap<Queued> = grid
        .rows()
        .into_iter()
        .zip(sigmas)
        .map(|(g, sigma)| {
            Queued(Cell {
                centre: g.to_owned(),
                half: half.clone(),
                sigma,
                slack: grid_slack,
                upper: cell_upper(margin, sigma, grid_slack),
            })
        })
        .collect();
    let mut contexts = total;

    // Best-first refinement (nothing to refine without a margin: the bound is infinite).
    let children = 1usize << dc;
    let per_batch = (GRID_CHUNK / children).max(1);
    let mut budget = if margin.is_some() {
        refinement_contexts
    } else {
        0
    };
    loop {
        let floor = cell_upper(margin, grid_max_sigma, 0.0) * (1.0 + REFINEMENT_TOLERANCE);
        let mut batch = Vec::new();
        while batch.len() < per_batch.min(budget / children) {
            match queue.peek() {
                Some(top) if top.0.upper > floor => batch.push(queue.pop().expect("peeked").0),
                _ => break,
            }
        }
        if batch.is_empty() {
            break;
        }
        let mut centres = Array2::zeros((batch.len() * children, dc));
        let mut halves = Vec::with_capacity(batch.len());
        for (b, cell) in batch.iter().enumerate() {
            let h = &cell.half / 2.0;
            for k in 0..children {
                let mut row = centres.row_mut(b * children + k);
                for i in 0..dc {
                    let sign = if (k >> i) & 1 == 1 { 1.0 } else { -1.0 };
                    row[i] = cell.centre[i] + sign * h[i];
                }
            }
            halves.push(h);
        }
        let sigmas = evaluate(&centres)?;
        for (row, (g, sigma)) in centres.rows().into_iter().zip(sigmas).enumerate() {
            let (h, parent) = (&halves[row / children], &batch[row / children]);
            let s = slack(joint, tau, h.view())?;
            grid_max_sigma = grid_max_sigma.max(sigma);
            queue.push(Queued(Cell {
                centre: g.to_owned(),
                half: h.clone(),
                sigma,
                slack: s,
                // The parent's bound also holds on the child's box: a split never loosens.
                upper: cell_upper(margin, sigma, s).min(parent.upper),
            }));
        }
        contexts += centres.nrows();
        budget -= centres.nrows();
    }

    let cells: Vec<Cell> = queue
        .into_sorted_vec()
        .into_iter()
        .rev()
        .map(|q| q.0)
        .collect();
    let binding = &cells[0];
    Ok((
        Certificate {
            grid_max_sigma,
            upper_sigma: binding.upper,
            binding_sigma: binding.sigma,
            slack: binding.slack,
            grid_slack,
            rounding: margin.map(|m| m.absolute),
            contexts,
            cells: cells.len(),
        },
        cells,
    ))
}
/// The point of `W` (an action index and a context on a grid of `points_per_dim` per
/// dimension) with the largest `sigma^2`, and that value: where the prediction-stage audit puts
/// the differing user. `joint`, if it is the variance's own kernel (the same object), lets the
/// action factors be computed once (the same values, faster); any other kernel is ignored.
pub fn argmax_sigma2(
    variance: &SurrogateVariance,
    problem: &ContextualProblem,
    joint: Option<&JointKernel>,
    points_per_dim: usize,
) -> Result<(usize, Array1<f64>, f64), UscaError> {
    let factored = FactoredSigma2::new(variance, joint, problem.actions().points());
    let n = validation::at_least_one("grid points per context dimension", points_per_dim)?;
    let set = problem.contexts().set();
    let dc = set.dim();
    let total = n.pow(dc as u32);
    let mut best = (0, Array1::zeros(dc), f64::NEG_INFINITY);
    for idx in 0..total {
        let mut rem = idx;
        let c: Array1<f64> = (0..dc)
            .map(|i| {
                let j = rem % n;
                rem /= n;
                let (l, u) = (set.lower()[i], set.upper()[i]);
                if n == 1 {
                    0.5 * (l + u)
                } else {
                    l + (u - l) * j as f64 / (n - 1) as f64
                }
            })
            .collect();
        let w = problem.joint_all(c.view());
        let s2 = match &factored {
            Some(f) => f.sigma2(c.view(), w.view())?,
            None => variance.sigma2(w.view())?,
        };
        for (a, &v) in s2.iter().enumerate() {
            if v > best.2 {
                best = (a, c.clone(), v);
            }
        }
    }
    Ok(best)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    /// The rounding analysis of the module docs uses the unit roundoff `u = 2^-53`.
    #[test]
    fn u_is_the_unit_roundoff() {
        assert_eq!(U.to_bits(), 2f64.powi(-53).to_bits());
    }

    /// The certified bounds round upwards, by a few units of roundoff and no more:
    /// `sigma^2 < bound <= sigma^2 (1 + 1e-15)`, and a cell's bound is
    /// `sqrt(sigma^2 + M) + slack` raised by as little.
    #[test]
    fn bounds_round_upwards_by_a_few_units() {
        let c = Certificate {
            grid_max_sigma: 0.3,
            upper_sigma: 0.7,
            binding_sigma: 0.3,
            slack: 0.01,
            grid_slack: 0.01,
            rounding: Some(1e-12),
            contexts: 1,
            cells: 1,
        };
        let s2 = 0.7 * 0.7;
        assert!(
            c.bound() > s2 && c.bound() <= s2 * (1.0 + 1e-15),
            "{}",
            c.bound()
        );
        let margin = RoundingMargin { absolute: 1e-6 };
        let exact = (0.25f64 + 1e-6).sqrt() + 0.02;
        let upper = cell_upper(Some(margin), 0.5, 0.02);
        assert!(
            upper >= exact && upper <= exact * (1.0 + 1e-15),
            "{upper} vs {exact}"
        );
        assert!(cell_upper(None, 0.5, 0.02).is_infinite());
        // Raised above the computed value itself, not only above the exact one.
        assert!(upper > margin.upper(0.25).sqrt() + 0.02);
    }

    /// At a zero half-width the slack is its rounding allowance alone,
    /// `sqrt(2 * 16 u / tau)` for unit-variance factors, raised by a few units of roundoff:
    /// strictly above the computed square root, and within `1e-15` of it.
    #[test]
    fn the_slack_of_a_point_is_its_rounding_allowance_rounded_upwards() {
        use crate::joint_kernel::KernelFamily;
        for family in [KernelFamily::SquaredExponential, KernelFamily::Matern52] {
            let joint = JointKernel::new(family, 0.2, 0.3, 1, 2).unwrap();
            let s = slack(&joint, 0.5, array![0.0, 0.0].view()).unwrap();
            let computed = (2.0 * 16.0 * U / 0.5).sqrt();
            assert!(
                s > computed && s <= computed * (1.0 + 1e-15),
                "{s} vs {computed}"
            );
        }
    }

    /// A cell contains its box up to a few units of roundoff at the edges, nothing further.
    #[test]
    fn a_cell_contains_its_box_and_no_more() {
        let cell = Cell {
            centre: array![0.5, 0.25],
            half: array![0.125, 0.125],
            sigma: 0.0,
            slack: 0.0,
            upper: 0.0,
        };
        for c in [[0.5, 0.25], [0.625, 0.375], [0.375, 0.125]] {
            assert!(cell.contains(array![c[0], c[1]].view()), "{c:?}");
        }
        // One unit of roundoff beyond the edge is still in (neighbours' edges may miss by it).
        assert!(cell.contains(array![0.625 * (1.0 + 2.0 * U), 0.25].view()));
        for c in [[0.63, 0.25], [0.5, 0.1], [0.9, 0.9], [-0.5, 0.25]] {
            assert!(!cell.contains(array![c[0], c[1]].view()), "{c:?}");
        }
        // The allowance scales with the coordinates' size: `8 u max(|c|, |g|, h)`, about
        // 6.3 units in the last place at 101 (ulp 2^-46), so 4 ulps beyond the edge are in and
        // 16 are out.
        let far = Cell {
            centre: array![100.0],
            half: array![1.0],
            sigma: 0.0,
            slack: 0.0,
            upper: 0.0,
        };
        let ulp = 2f64.powi(-46);
        assert!(far.contains(array![101.0 + 4.0 * ulp].view()));
        assert!(!far.contains(array![101.0 + 16.0 * ulp].view()));
    }
}
