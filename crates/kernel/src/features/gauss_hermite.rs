//! Gauss-Hermite quadrature nodes and weights, computed here (Golub-Welsch, then Newton
//! refinement on the orthonormal Hermite recurrence, weights by the Christoffel formula).

use ndarray::{Array1, Array2};

use crate::error::KernelError;
use crate::linalg::symmetric_eigen;
use validation::at_least_one;

/// Nodes `t_i` and weights `w_i` of the `n`-point Gauss-Hermite rule
/// `int e^{-t^2} g(t) dt ~ sum_i w_i g(t_i)` (physicists' weight `e^{-t^2}`), exact for
/// polynomials of degree `<= 2n - 1`.
#[derive(Debug, Clone, PartialEq)]
pub struct GaussHermite {
    /// Nodes, ascending, exactly symmetric (`t_i = -t_{n-1-i}`): the zeros of `H_n`.
    pub nodes: Array1<f64>,
    /// Positive weights, symmetric; they sum to `sqrt(pi)`.
    pub weights: Array1<f64>,
}

/// Largest supported number of nodes (the orthonormal recurrence stays in range far beyond it).
pub const MAX_NODES: usize = 512;

/// The orthonormal Hermite polynomials `p_0..p_n` at `t` (orthonormal for `e^{-t^2}`):
/// `p_0 = pi^{-1/4}`, `p_1 = sqrt(2) t p_0`,
/// `p_{k+1} = sqrt(2 / (k+1)) t p_k - sqrt(k / (k+1)) p_{k-1}`; returns `(p_n, p_{n-1}, sum_{k<n} p_k^2)`.
fn orthonormal_hermite(n: usize, t: f64) -> (f64, f64, f64) {
    let mut prev = 0.0;
    let mut cur = std::f64::consts::PI.powf(-0.25);
    let mut sum_sq = 0.0;
    for k in 0..n {
        sum_sq += cur * cur;
        let kf = k as f64;
        let next = (2.0 / (kf + 1.0)).sqrt() * t * cur - (kf / (kf + 1.0)).sqrt() * prev;
        prev = cur;
        cur = next;
    }
    (cur, prev, sum_sq)
}

/// The `n`-point Gauss-Hermite rule, `1 <= n <= MAX_NODES`.
///
/// # Method
///
/// Golub & Welsch (1969): the nodes are the eigenvalues of the symmetric tridiagonal Jacobi
/// matrix with zero diagonal and off-diagonal entries `sqrt(k / 2)`, `k = 1..n-1`. Each node
/// is then polished by Newton steps on the orthonormal polynomial `p_n` (with
/// `p_n' = sqrt(2n) p_{n-1}`), the rule is symmetrised, and the weights are the Christoffel
/// numbers `w_i = 1 / sum_{k<n} p_k(t_i)^2`, which are accurate to relative precision even
/// for the tiny weights of the outer nodes (unlike the eigenvector formula).
pub fn gauss_hermite(n: usize) -> Result<GaussHermite, KernelError> {
    at_least_one("number of Gauss-Hermite nodes", n)?;
    if n > MAX_NODES {
        return Err(KernelError::InvalidCount {
            name: "number of Gauss-Hermite nodes",
            reason: format!("must be at most {MAX_NODES}, got {n}"),
        });
    }
    let jacobi = Array2::from_shape_fn((n, n), |(i, j)| {
        if i + 1 == j || j + 1 == i {
            ((i.max(j)) as f64 / 2.0).sqrt()
        } else {
            0.0
        }
    });
    let mut nodes = symmetric_eigen("Gauss-Hermite Jacobi matrix", jacobi.view())?.values;
    let nf = n as f64;
    for t in nodes.iter_mut() {
        for _ in 0..3 {
            let (pn, pn1, _) = orthonormal_hermite(n, *t);
            let d = (2.0 * nf).sqrt() * pn1;
            if d != 0.0 {
                *t -= pn / d;
            }
        }
    }
    // Exact symmetry (the nodes of H_n are symmetric about 0; the middle one is 0 for odd n).
    for i in 0..n / 2 {
        let a = 0.5 * (nodes[n - 1 - i] - nodes[i]);
        nodes[i] = -a;
        nodes[n - 1 - i] = a;
    }
    if n % 2 == 1 {
        nodes[n / 2] = 0.0;
    }
    let weights: Array1<f64> = nodes.mapv(|t| 1.0 / orthonormal_hermite(n, t).2);
    Ok(GaussHermite { nodes, weights })
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_relative_eq;
    use std::f64::consts::PI;

    #[test]
    fn small_rules_by_hand() {
        let r = gauss_hermite(1).unwrap();
        assert!(r.nodes[0] == 0.0 && r.nodes.len() == 1);
        assert_relative_eq!(r.weights[0], PI.sqrt(), max_relative = 1e-15);
        // n = 2: nodes +-1/sqrt 2, weights sqrt(pi)/2.
        let r = gauss_hermite(2).unwrap();
        assert_relative_eq!(r.nodes[1], 0.5f64.sqrt(), max_relative = 1e-15);
        assert_relative_eq!(r.weights[0], PI.sqrt() / 2.0, max_relative = 1e-14);
        // n = 3: nodes 0, +-sqrt(3/2); weights 2 sqrt(pi)/3, sqrt(pi)/6.
        let r = gauss_hermite(3).unwrap();
        assert_relative_eq!(r.nodes[2], 1.5f64.sqrt(), max_relative = 1e-15);
        assert_relative_eq!(r.weights[1], 2.0 * PI.sqrt() / 3.0, max_relative = 1e-14);
        assert_relative_eq!(r.weights[2], PI.sqrt() / 6.0, max_relative = 1e-14);
    }

    #[test]
    fn moments_are_exact() {
        // int e^{-t^2} t^{2k} dt = Gamma(k + 1/2) = (2k-1)!! sqrt(pi) / 2^k, exact for 2k <= 2n-1.
        for n in [5, 16, 32, 64] {
            let r = gauss_hermite(n).unwrap();
            let mut exact = PI.sqrt();
            for k in 0..n {
                let q: f64 = r
                    .nodes
                    .iter()
                    .zip(r.weights.iter())
                    .map(|(t, w)| w * t.powi(2 * k as i32))
                    .sum();
                assert_relative_eq!(q, exact, max_relative = 1e-11);
                exact *= (2 * k + 1) as f64 / 2.0;
            }
            if n < 16 {
                continue;
            }
            // And the rule integrates cos(a t) e^{-t^2} = sqrt(pi) e^{-a^2/4} to high accuracy.
            let q: f64 = r
                .nodes
                .iter()
                .zip(r.weights.iter())
                .map(|(t, w)| w * (1.5 * t).cos())
                .sum();
            assert_relative_eq!(
                q,
                PI.sqrt() * (-1.5f64 * 1.5 / 4.0).exp(),
                max_relative = 1e-9
            );
        }
    }

    #[test]
    fn bad_counts() {
        assert!(gauss_hermite(0).is_err());
        assert!(gauss_hermite(MAX_NODES + 1).is_err());
    }
}
