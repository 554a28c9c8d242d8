//! The certified bound on `sup_W sigma^2` (`usca::certificate`) against fine grids, cell by
//! cell: the leaf cells tile `C`, every context of a fine grid lies in a leaf whose bound is at
//! least `sigma` at every action there, and the refinement tightens the bound within its budget.

use ndarray::{Array1, Array2};
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use usca::certificate::{Cell, certificate_cells};
use usca::synthetic::SyntheticProblem;
use usca::{KernelFamily, SurrogateVariance, sample_approximating_set};

/// `(problem, dim C, T, |Z|, tau, grid points per dimension, fine points per dimension)`.
fn settings() -> Vec<(SyntheticProblem, usize, usize, f64, usize, usize)> {
    let se = SyntheticProblem::default();
    let matern2 = SyntheticProblem {
        family: KernelFamily::Matern52,
        context_dim: 2,
        ..SyntheticProblem::default()
    };
    let se2 = SyntheticProblem {
        context_dim: 2,
        ..SyntheticProblem::default()
    };
    vec![
        (se, 64, 16, 0.5, 16, 1601),
        (se, 1024, 256, 1.0, 32, 1601),
        (matern2, 256, 64, 0.5, 8, 81),
        (se2, 1024, 128, 1.0, 10, 81),
    ]
}

/// `max_x sigma(x, c)` at every row `c` of `contexts`.
fn sigma_max(
    v: &SurrogateVariance,
    problem: &usca::ContextualProblem,
    contexts: &Array2<f64>,
) -> Vec<f64> {
    contexts
        .rows()
        .into_iter()
        .map(|c| {
            v.sigma2(problem.joint_all(c).view())
                .unwrap()
                .iter()
                .fold(0.0f64, |m, &s| m.max(s))
                .sqrt()
        })
        .collect()
}

/// The `k^d` points of a grid over the box `centre +- half` (both ends included).
fn box_grid(centre: &Array1<f64>, half: &Array1<f64>, k: usize) -> Array2<f64> {
    let d = centre.len();
    let total = k.pow(d as u32);
    Array2::from_shape_fn((total, d), |(idx, i)| {
        let j = (idx / k.pow(i as u32)) % k;
        centre[i] - half[i] + 2.0 * half[i] * j as f64 / (k - 1) as f64
    })
}

/// Every context of `contexts` lies in at least one cell, and `sigma` there is at most the
/// bound of every cell that contains it. Returns the largest `sigma` seen.
fn covered(cells: &[Cell], contexts: &Array2<f64>, sigmas: &[f64]) -> f64 {
    for (c, &s) in contexts.rows().into_iter().zip(sigmas) {
        let holding: Vec<&Cell> = cells.iter().filter(|cell| cell.contains(c)).collect();
        assert!(!holding.is_empty(), "context {c} lies in no cell");
        for cell in holding {
            assert!(
                s <= cell.upper,
                "sigma {s} at {c} above the bound {} of the cell at {} (half {})",
                cell.upper,
                cell.centre,
                cell.half
            );
        }
    }
    sigmas.iter().fold(0.0f64, |m, &s| m.max(s))
}

#[test]
fn the_cells_tile_c_and_bound_sigma_on_a_fine_grid() {
    let mut rng = ChaCha20Rng::seed_from_u64(27);
    for (spec, t, m, tau, n, fine) in settings() {
        let inst = spec.sample(&mut rng).unwrap();
        let z = sample_approximating_set(&inst.problem, m, &mut rng).unwrap();
        let v = SurrogateVariance::new(inst.kernel.clone(), z, t, tau).unwrap();
        let joint = inst.kernel.as_ref();
        let dc = spec.context_dim;
        let (uniform, _) = certificate_cells(&v, &inst.problem, joint, n, 0).unwrap();
        let budget = 256;
        let (cert, cells) = certificate_cells(&v, &inst.problem, joint, n, budget).unwrap();

        // The leaves tile C = [0, 1]^d: their volumes add up to 1 (and each fine-grid point is
        // in one, below).
        let volume: f64 = cells
            .iter()
            .map(|c| c.half.iter().map(|h| 2.0 * h).product::<f64>())
            .sum();
        assert!((volume - 1.0).abs() < 1e-12, "volume {volume}");
        assert_eq!(cert.cells, cells.len());
        assert!(cert.contexts <= n.pow(dc as u32) + budget);
        assert!(cert.contexts > n.pow(dc as u32), "nothing was refined");

        // A fine grid of all of C, and a finer one over each of the 16 cells whose bounds are the
        // largest (their corners included, where the slack is needed).
        let whole = box_grid(
            &Array1::from_elem(dc, 0.5),
            &Array1::from_elem(dc, 0.5),
            fine,
        );
        let mut seen = covered(&cells, &whole, &sigma_max(&v, &inst.problem, &whole));
        let per_cell = if dc == 1 { 41 } else { 9 };
        for cell in cells.iter().take(16) {
            let local = box_grid(&cell.centre, &cell.half, per_cell);
            seen = seen.max(covered(
                &cells,
                &local,
                &sigma_max(&v, &inst.problem, &local),
            ));
        }
        // The certificate bounds every sigma seen; no computed centre exceeds its grid maximum.
        assert!(
            cert.bound() >= seen * seen,
            "{} < {}",
            cert.bound(),
            seen * seen
        );
        assert!(cert.bound().sqrt() >= cert.grid_max_sigma);
        assert_eq!(cert.binding_sigma.to_bits(), cells[0].sigma.to_bits());
        assert_eq!(cert.slack.to_bits(), cells[0].slack.to_bits());
        assert_eq!(cert.upper_sigma.to_bits(), cells[0].upper.to_bits());
        // The refinement tightens the uniform grid's bound and its binding slack.
        assert!(
            cert.bound() < uniform.bound(),
            "{} vs {}",
            cert.bound(),
            uniform.bound()
        );
        assert!(cert.slack < uniform.slack);
        assert_eq!(cert.grid_slack.to_bits(), uniform.slack.to_bits());

        // Every cell's slack recomputed in closed form: unit-variance factors, so
        // s(h) = (2 (1 - k_C(h)) / tau)^{1/2} with k_C the family's profile at r = |h / l|.
        let l = inst.kernel.lengthscales().1;
        for cell in &cells {
            let r = cell
                .half
                .iter()
                .map(|h| (h / l).powi(2))
                .sum::<f64>()
                .sqrt();
            let kc = match spec.family {
                KernelFamily::SquaredExponential => (-0.5 * r * r).exp(),
                KernelFamily::Matern52 => {
                    let a = 5f64.sqrt() * r;
                    (1.0 + a + a * a / 3.0) * (-a).exp()
                }
            };
            let exact = (2.0 * (1.0 - kc) / tau).sqrt();
            assert!(
                cell.slack >= exact && cell.slack <= exact * (1.0 + 1e-6),
                "slack {} against {exact} at half {}",
                cell.slack,
                cell.half
            );
        }
    }
}

/// The refinement spends its budget in whole splits (`2^{dim C}` centres each) and never more:
/// a budget smaller than one split refines nothing.
#[test]
fn the_refinement_respects_its_budget() {
    let mut rng = ChaCha20Rng::seed_from_u64(28);
    let spec = SyntheticProblem {
        context_dim: 2,
        ..SyntheticProblem::default()
    };
    let inst = spec.sample(&mut rng).unwrap();
    let z = sample_approximating_set(&inst.problem, 128, &mut rng).unwrap();
    let v = SurrogateVariance::new(inst.kernel.clone(), z, 1024, 1.0).unwrap();
    let joint = inst.kernel.as_ref();
    for budget in [0, 3, 4, 7, 40] {
        let (cert, cells) = certificate_cells(&v, &inst.problem, joint, 5, budget).unwrap();
        // Four children per split in two dimensions.
        assert_eq!(cert.contexts - 25, budget / 4 * 4, "budget {budget}");
        assert_eq!(cells.len(), 25 + 3 * (budget / 4));
    }
}

/// A reward that is 0 everywhere (the certificate reads only the kernel and the sets).
#[derive(Debug)]
struct Zero(usize);

impl bandit::objective::Objective for Zero {
    fn dim(&self) -> usize {
        self.0
    }
    fn value_unchecked(&self, _x: ndarray::ArrayView1<'_, f64>) -> f64 {
        0.0
    }
}

/// On a context box other than the unit cube (here `C = [-1, 1]`, where `upper + lower = 0`)
/// the uniform grid's cells have half-width `(upper - lower) / 2n` and tile `C`: their lengths
/// add up to 2, and every point of a fine grid of `C` lies in one whose bound holds there.
#[test]
fn the_cells_tile_a_context_box_off_the_unit_cube() {
    use bandit::domain::BoxDomain;
    use std::sync::Arc;
    use usca::{ContextSpace, ContextualProblem};
    let spec = SyntheticProblem::default();
    let joint = Arc::new(spec.kernel().unwrap());
    let actions = BoxDomain::unit(1).unwrap().grid(&[spec.n_actions]).unwrap();
    let box_c = BoxDomain::new(ndarray::array![-1.0], ndarray::array![1.0]).unwrap();
    let problem = ContextualProblem::new(
        actions,
        ContextSpace::uniform(box_c),
        Arc::new(Zero(2)),
        0.1,
    )
    .unwrap();
    let mut rng = ChaCha20Rng::seed_from_u64(8);
    let z = sample_approximating_set(&problem, 64, &mut rng).unwrap();
    let v = SurrogateVariance::new(joint.clone(), z, 16, 0.5).unwrap();
    let n = 8;
    let (_, cells) = certificate_cells(&v, &problem, joint.as_ref(), n, 0).unwrap();
    assert_eq!(cells.len(), n);
    let length: f64 = cells.iter().map(|c| 2.0 * c.half[0]).sum();
    assert!((length - 2.0).abs() < 1e-12, "length {length}");
    let whole = box_grid(&ndarray::array![0.0], &ndarray::array![1.0], 201);
    covered(&cells, &whole, &sigma_max(&v, &problem, &whole));

    // argmax_sigma2's grid spans the same box: with the approximating set at `c = -1`,
    // `sigma` is largest at the far end, `c = 1`.
    let z = Array2::from_shape_fn((5, 2), |(r, k)| if k == 0 { r as f64 / 4.0 } else { -1.0 });
    let v = SurrogateVariance::new(joint.clone(), z, 16, 0.5).unwrap();
    let (_, c, _) = usca::certificate::argmax_sigma2(&v, &problem, None, 3).unwrap();
    assert_eq!(c.to_vec(), vec![1.0]);
    // One point per dimension: the centre of C, 0 here.
    let (_, c, _) = usca::certificate::argmax_sigma2(&v, &problem, None, 1).unwrap();
    assert_eq!(c.to_vec(), vec![0.0]);
}

/// `argmax_sigma2` (where the prediction audits put the differing user) returns the largest
/// `sigma^2` over every action and every context of the grid, at a grid context: checked
/// against a brute-force search written here (nested loops over a 2-dimensional grid), with
/// and without the factored evaluation. The approximating set lies on the edge `c_2 = 0`, so
/// `sigma` is largest far from it: a search that missed part of the grid would miss the
/// maximum.
#[test]
fn argmax_sigma2_is_the_largest_sigma2_on_the_grid() {
    use usca::certificate::argmax_sigma2;
    let spec = SyntheticProblem {
        context_dim: 2,
        ..SyntheticProblem::default()
    };
    let mut rng = ChaCha20Rng::seed_from_u64(31);
    let inst = spec.sample(&mut rng).unwrap();
    let z = Array2::from_shape_fn((15, 3), |(r, k)| match k {
        0 => (r % 5) as f64 / 4.0,
        1 => (r / 5) as f64 / 2.0,
        _ => 0.0,
    });
    let v = SurrogateVariance::new(inst.kernel.clone(), z, 16, 0.5).unwrap();
    let n = 6;
    let mut best = (0, [0.0, 0.0], f64::NEG_INFINITY);
    for j0 in 0..n {
        for j1 in 0..n {
            let c = [j0 as f64 / (n - 1) as f64, j1 as f64 / (n - 1) as f64];
            let s2 = v
                .sigma2(
                    inst.problem
                        .joint_all(ndarray::array![c[0], c[1]].view())
                        .view(),
                )
                .unwrap();
            for (a, &s) in s2.iter().enumerate() {
                if s > best.2 {
                    best = (a, c, s);
                }
            }
        }
    }
    assert!(best.1[1] > 0.5, "the maximum at {:?}", best.1);
    for joint in [None, Some(inst.kernel.as_ref())] {
        let (a, c, s2) = argmax_sigma2(&v, &inst.problem, joint, n).unwrap();
        assert_eq!(a, best.0);
        assert_eq!(c.to_vec(), best.1.to_vec());
        assert!((s2 - best.2).abs() <= 1e-12 * best.2, "{s2} vs {}", best.2);
    }
    // One point per dimension: the centre of C.
    let (_, c, _) = argmax_sigma2(&v, &inst.problem, None, 1).unwrap();
    assert_eq!(c.to_vec(), vec![0.5, 0.5]);
}
