//! The largest privacy loss that a neighbouring pair of the audited design can have, bracketed,
//! and the pair that attains the lower end: what the prediction-stage audits are held against
//! (docs/usca.md, "Tightness of the prediction-stage audits").
//!
//! The design fixes `Z`, the query context `c*`, the mechanism and the learning rows `1..T`;
//! a neighbouring pair replaces row 0 (the differing user: action `x`, the same in both data
//! sets, context `c` against `c'`, reward `y` against `y'`, contexts in `C`, rewards in
//! `[-B, B]`). `mu_T` is linear in the rows, so the utilities are `b + y a(x, c)` and
//! `b + y' a(x, c')`, with `b` the utilities of rows `1..T` alone and
//! `a_j(w) = <phi(w_j), phi(w)>` (the `Z~^{-1}` inner product, `w_j = [x_j; c*]`). The loss at
//! output `i` is `f_i(x, c, y) - f_i(x, c', y')` with `f_i = ln p_i(b + y a(x, c))`, so
//!
//! `sup loss = max_{x, i} (sup_{c, y} f_i - inf_{c, y} f_i)`.
//!
//! `f_i` is concave in `y` (a log-softmax of logits affine in `y`), so its infimum over `y` is
//! at `y = +-B` and its supremum is bounded from above, between two points of a grid of `y`,
//! by the lower of the two tangents. Over `c`, a grid of cells with half-widths `h` covers `C`,
//! and inside a cell `f_i` moves by at most `2 (eps / (2 Delta)) B max_j sigma(w_j) s(h)`
//! (`|d ln p_i| <= (eps / (2 Delta)) (max_j - min_j) of the change of the utilities`, each
//! utility moves by at most `abs(y) sigma(w_j) |phi([x; c]) - phi([x; g])|`, and `s(h)` bounds
//! that distance: [`usca::certificate::slack`]). The bound is therefore rigorous (up to the
//! rounding of the computed values); the pair found is the grid point that attains the
//! largest `max f - min f`, and its exact loss (computed from the crate's utilities) is the
//! lower end.
//!
//! Over *all* pairs of learning data sets (any rows `1..T`, so any `b`), the loss is at most
//! `(eps / (2 Delta)) (max_i d_i - min_j d_j)` with `d = u - u'` (the normaliser's ratio is a
//! mean of `e^{eps d_j / (2 Delta)}`), and
//! `d_i - d_j = <phi(w_i) - phi(w_j), y phi(w_t) - y' phi(w'_t)>
//! <= |phi(w_i) - phi(w_j)| 2 B S` (Cauchy-Schwarz, `S^2` the rule's bound on `sup sigma^2`):
//! [`Search::all_data_bound`].

use kernel::linalg::Cholesky;
use ndarray::{Array1, Array2, ArrayView1, ArrayView2, Axis};
use usca::certificate::slack;
use usca::{ContextualProblem, JointKernel, LearningData, PredictionStage, SurrogateVariance};

use verification::CheckError;

/// Grid points per context dimension of the search (cells of half-width `1 / (2 (n - 1))`):
/// `(quick, full)`; the finer grid of the full run halves the cell slack twice.
pub(super) const CONTEXT_GRID: (usize, usize) = (401, 1601);
/// Grid points of the reward on `[-B, B]`.
const REWARD_GRID: usize = 25;

/// The audited design: the stage (mechanism, `Z`, `c*`) and the learning data whose row 0 is
/// the differing user's.
pub(super) struct Design<'a> {
    pub stage: &'a PredictionStage,
    pub variance: &'a SurrogateVariance,
    pub problem: &'a ContextualProblem,
    pub kernel: &'a JointKernel,
    pub data: &'a LearningData,
}

/// One neighbouring pair of the design: the differing user's action, and its (context, reward)
/// in each data set.
#[derive(Debug, Clone)]
pub(super) struct Candidate {
    pub action: usize,
    pub context: Array1<f64>,
    pub reward: f64,
    pub context_prime: Array1<f64>,
    pub reward_prime: f64,
}

/// A pair of the design with its utilities under the two data sets (the crate's) and its exact
/// loss `max_i abs(ln p_i - ln p'_i)` under the claim.
#[derive(Debug, Clone)]
pub(super) struct Scored {
    pub pair: Candidate,
    pub u: Vec<f64>,
    pub u_prime: Vec<f64>,
    pub loss: f64,
}

/// Distinct pairs kept from the search (the largest losses on the grid), for the audit to choose
/// the one its budget certifies best.
const KEPT: usize = 64;

/// The result of the search.
pub(super) struct Search {
    /// The pairs kept, by decreasing exact loss: the first is the largest found.
    pub pairs: Vec<Scored>,
    /// The largest exact loss found (a lower bound on the design's largest).
    pub best_loss: f64,
    /// A rigorous upper bound on the largest loss over the design's pairs.
    pub upper: f64,
    /// The part of `upper` that covers the contexts between grid points (both ends).
    pub context_slack: f64,
    /// The upper bound over every pair of data sets (any rows `1..T`): Cauchy-Schwarz.
    pub all_data_bound: f64,
    /// Grid sizes (contexts, rewards) of the search.
    pub grid: (usize, usize),
    /// The mechanism's scale `eps / (2 Delta)` under the claim.
    pub scale: f64,
}

/// `a_j(w) = <phi(w_j), phi(w)>` in the `Z~^{-1}` inner product for the query points `w_j`:
/// `(k(w_j, w) - (L^{-1} k_Z(w_j)) . (L^{-1} k_Z(w))) / tau` with `L L^T = K_ZZ + rho I`
/// (the estimator's formula written again: the search checks it against the crate's utilities).
struct Weights<'a> {
    variance: &'a SurrogateVariance,
    chol: Cholesky,
    query: Array2<f64>,
    /// `L^{-1} K_{Z, W_q}` (`|Z| x n_q`).
    lq: Array2<f64>,
}

impl<'a> Weights<'a> {
    fn new(variance: &'a SurrogateVariance, query: Array2<f64>) -> Result<Self, CheckError> {
        let k = variance.kernel();
        let z = variance.approximating_set();
        let mut kzz = k.gram(z)?;
        for i in 0..kzz.nrows() {
            kzz[[i, i]] += variance.rho();
        }
        let chol = Cholesky::factor("K_ZZ + rho I", kzz.view())?;
        let lq = chol.solve_lower_matrix(k.cross(z, query.view())?.view())?;
        Ok(Self {
            variance,
            chol,
            query,
            lq,
        })
    }

    /// `a(w)` for each row of `w`: column `c` of the result (`n_q x n_w`).
    fn at(&self, w: ArrayView2<'_, f64>) -> Result<Array2<f64>, CheckError> {
        let k = self.variance.kernel();
        let lw = self
            .chol
            .solve_lower_matrix(k.cross(self.variance.approximating_set(), w)?.view())?;
        let kqw = k.cross(self.query.view(), w)?;
        Ok((kqw - self.lq.t().dot(&lw)) / self.variance.tau())
    }
}

/// `ln softmax(cm v)` into `out`.
fn log_softmax(cm: f64, v: impl Iterator<Item = f64>, out: &mut [f64]) {
    for (o, x) in out.iter_mut().zip(v) {
        *o = cm * x;
    }
    let m = out.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let lse = m + out.iter().map(|x| (x - m).exp()).sum::<f64>().ln();
    for o in out.iter_mut() {
        *o -= lse;
    }
}

/// For one weight vector `a`: for every output `i`, `(inf_y f_i, (max over the grid of f_i, its
/// grid index), upper bound on sup_y f_i)` with `f_i(y) = ln p_i(b + y a)`.
struct Sweep {
    ys: Vec<f64>,
    f: Vec<f64>,
    s: Vec<f64>,
}

impl Sweep {
    fn new(b: f64) -> Self {
        let ys = (0..REWARD_GRID)
            .map(|k| -b + 2.0 * b * k as f64 / (REWARD_GRID - 1) as f64)
            .collect();
        Self {
            ys,
            f: Vec::new(),
            s: Vec::new(),
        }
    }

    /// Fill `f[k n + i] = f_i(y_k)` and the slopes `s[k n + i] = cm (a_i - p . a)`.
    fn run(&mut self, cm: f64, base: &[f64], a: ArrayView1<'_, f64>) {
        let n = base.len();
        self.f.resize(REWARD_GRID * n, 0.0);
        self.s.resize(REWARD_GRID * n, 0.0);
        for (k, &y) in self.ys.iter().enumerate() {
            let f = &mut self.f[k * n..(k + 1) * n];
            log_softmax(cm, base.iter().zip(a.iter()).map(|(b, a)| b + y * a), f);
            let mean: f64 = f.iter().zip(a.iter()).map(|(l, a)| l.exp() * a).sum();
            for (s, a) in self.s[k * n..(k + 1) * n].iter_mut().zip(a.iter()) {
                *s = cm * (a - mean);
            }
        }
    }

    /// `(inf, attained max, its grid index, upper bound on the sup)` of `f_i`.
    fn output(&self, n: usize, i: usize) -> (f64, f64, usize, f64) {
        let f = |k: usize| self.f[k * n + i];
        let s = |k: usize| self.s[k * n + i];
        let last = REWARD_GRID - 1;
        let inf = f(0).min(f(last));
        let (mut att, mut arg) = (f64::NEG_INFINITY, 0);
        let mut upper = f64::NEG_INFINITY;
        for k in 0..REWARD_GRID {
            if f(k) > att {
                (att, arg) = (f(k), k);
            }
        }
        for k in 0..last {
            let (y0, y1) = (self.ys[k], self.ys[k + 1]);
            // A concave function lies below each of its tangents: on [y0, y1] below the lower
            // of the two, whose maximum is at an end or where they cross.
            let bound = if s(k) <= 0.0 {
                f(k)
            } else if s(k + 1) >= 0.0 {
                f(k + 1)
            } else {
                let y = (f(k + 1) - f(k) + s(k) * y0 - s(k + 1) * y1) / (s(k) - s(k + 1));
                f(k) + s(k) * (y.clamp(y0, y1) - y0)
            };
            upper = upper.max(bound);
        }
        (inf, att, arg, upper.max(att))
    }
}

/// `ln softmax(cm u)`: the log-probabilities of the exponential mechanism at scale `cm`.
pub(super) fn log_probabilities(cm: f64, u: &[f64]) -> Vec<f64> {
    let mut out = vec![0.0; u.len()];
    log_softmax(cm, u.iter().copied(), &mut out);
    out
}

/// `max_i abs(ln p_i - ln p'_i)` for `p = softmax(cm u)`, `p' = softmax(cm v)`: the exact
/// privacy loss of a pair of utility vectors under the exponential mechanism of the claim.
pub(super) fn ideal_loss(cm: f64, u: &[f64], v: &[f64]) -> f64 {
    let (p, q) = (log_probabilities(cm, u), log_probabilities(cm, v));
    p.iter()
        .zip(&q)
        .map(|(a, b)| (a - b).abs())
        .fold(0.0, f64::max)
}

impl Design<'_> {
    /// The learning data with row 0 replaced by `[x_action; c]` and reward `y`.
    pub(super) fn with_row0(
        &self,
        action: usize,
        c: ArrayView1<'_, f64>,
        y: f64,
    ) -> Result<LearningData, CheckError> {
        let mut points = self.data.points().to_owned();
        points.row_mut(0).assign(&self.problem.joint(action, c));
        let mut rewards = self.data.rewards().to_owned();
        rewards[0] = y;
        Ok(LearningData::new(points, rewards, self.data.bound())?)
    }

    /// The grid of `n` points per dimension of `C` (ends included) and its cells' half-widths.
    fn context_grid(&self, n: usize) -> (Vec<Array1<f64>>, Array1<f64>) {
        let set = self.problem.contexts().set();
        let dc = set.dim();
        let point = |i: usize, j: usize| {
            let (l, u) = (set.lower()[i], set.upper()[i]);
            l + (u - l) * j as f64 / (n - 1) as f64
        };
        let grid = (0..n.pow(dc as u32))
            .map(|idx| {
                let mut rem = idx;
                (0..dc)
                    .map(|i| {
                        let j = rem % n;
                        rem /= n;
                        point(i, j)
                    })
                    .collect()
            })
            .collect();
        let half = (0..dc)
            .map(|i| (set.upper()[i] - set.lower()[i]) / (2.0 * (n - 1) as f64))
            .collect();
        (grid, half)
    }

    /// Search the design's pairs (every action of the differing user, contexts on a grid of
    /// `context_grid` points per dimension ([`CONTEXT_GRID`]), rewards on [`REWARD_GRID`] points of `[-B, B]`),
    /// bound the largest loss from above over all of them, and also over every pair of data
    /// sets. `extra` (a pair built otherwise) is kept if its loss is larger than the best found.
    pub(super) fn search(
        &self,
        extra: Option<&Candidate>,
        context_grid: usize,
    ) -> Result<Search, CheckError> {
        let delta = self.stage.bound().sensitivity();
        let b = self.data.bound();
        let c_star = self.stage.context().to_owned();
        let query = self.problem.joint_all(c_star.view());
        let nq = query.nrows();
        // The scale of the claim (eps of the claim, Delta of the bound), not the mechanism's: the
        // bracket is what the audited mechanism must respect.
        let cm = claimed_epsilon(self.stage)? / (2.0 * delta);
        let weights = Weights::new(self.variance, query.clone())?;
        let base = self
            .stage
            .utilities(&self.with_row0(0, c_star.view(), 0.0)?)?;

        // The all-data bound: max_{i,j} |phi_i - phi_j| from the Gram matrix of the query points.
        let gram = weights.at(query.view())?;
        let mut dmax: f64 = 0.0;
        for i in 0..nq {
            for j in 0..nq {
                let d2 = gram[[i, i]] + gram[[j, j]] - 2.0 * gram[[i, j]];
                dmax = dmax.max(d2.max(0.0).sqrt());
            }
        }
        let s_rule = self.stage.bound().sup_sigma2().sqrt();
        let all_data_bound = cm * 2.0 * b * s_rule * dmax;

        // The search.
        let (grid, half) = self.context_grid(context_grid.max(2));
        let sigma_q = (0..nq)
            .map(|j| gram[[j, j]].max(0.0).sqrt())
            .fold(0.0, f64::max);
        let context_slack =
            2.0 * (2.0 * cm * b * sigma_q * slack(self.kernel, self.variance.tau(), half.view())?);
        let na = self.problem.actions().len();
        // Per (action, output): sup bound, attained max (grid context, reward index), inf (grid
        // context, reward).
        let mut hi = vec![f64::NEG_INFINITY; na * nq];
        let mut att = vec![(f64::NEG_INFINITY, 0usize, 0usize); na * nq];
        let mut lo = vec![(f64::INFINITY, 0usize, 0.0f64); na * nq];
        let mut sweep = Sweep::new(b);
        for (g, c) in grid.iter().enumerate() {
            let a = weights.at(self.problem.joint_all(c.view()).view())?;
            for x in 0..na {
                sweep.run(cm, &base, a.column(x));
                for i in 0..nq {
                    let (inf, at, k, up) = sweep.output(nq, i);
                    let r = x * nq + i;
                    hi[r] = hi[r].max(up);
                    if at > att[r].0 {
                        att[r] = (at, g, k);
                    }
                    if inf < lo[r].0 {
                        let y = if sweep.f[i] <= sweep.f[(REWARD_GRID - 1) * nq + i] {
                            -b
                        } else {
                            b
                        };
                        lo[r] = (inf, g, y);
                    }
                }
            }
        }
        let upper = (0..na * nq)
            .map(|r| hi[r] - lo[r].0)
            .fold(f64::NEG_INFINITY, f64::max)
            + context_slack;
        // The distinct pairs of the largest grid losses, and the extra one.
        let mut order: Vec<usize> = (0..na * nq).collect();
        order.sort_by(|&r, &s| (att[s].0 - lo[s].0).total_cmp(&(att[r].0 - lo[r].0)));
        let mut keys = Vec::new();
        let mut cands: Vec<Candidate> = Vec::new();
        for r in order {
            let key = (r / nq, att[r].1, att[r].2, lo[r].1, lo[r].2.to_bits());
            if keys.contains(&key) {
                continue;
            }
            keys.push(key);
            cands.push(Candidate {
                action: r / nq,
                context: grid[att[r].1].clone(),
                reward: sweep.ys[att[r].2],
                context_prime: grid[lo[r].1].clone(),
                reward_prime: lo[r].2,
            });
            if cands.len() == KEPT {
                break;
            }
        }
        cands.extend(extra.cloned());

        // The exact losses from the crate's utilities, and the recomputed weights checked
        // against them.
        let mut pairs = Vec::with_capacity(cands.len());
        for cand in cands {
            let u = self.stage.utilities(&self.with_row0(
                cand.action,
                cand.context.view(),
                cand.reward,
            )?)?;
            let u_prime = self.stage.utilities(&self.with_row0(
                cand.action,
                cand.context_prime.view(),
                cand.reward_prime,
            )?)?;
            for (c, y, got) in [
                (&cand.context, cand.reward, &u),
                (&cand.context_prime, cand.reward_prime, &u_prime),
            ] {
                let w = self
                    .problem
                    .joint(cand.action, c.view())
                    .insert_axis(Axis(0));
                let a = weights.at(w.view())?;
                let err = got
                    .iter()
                    .zip(&base)
                    .zip(a.column(0))
                    .map(|((g, b0), a)| (g - (b0 + y * a)).abs())
                    .fold(0.0, f64::max);
                let scale = got.iter().map(|v| v.abs()).fold(1.0, f64::max);
                if err > 1e-9 * scale {
                    return Err(CheckError::msg(format!(
                        "the recomputed weights disagree with the crate's utilities by {err:e}"
                    )));
                }
            }
            let loss = ideal_loss(cm, &u, &u_prime);
            pairs.push(Scored {
                pair: cand,
                u,
                u_prime,
                loss,
            });
        }
        pairs.sort_by(|a, b| b.loss.total_cmp(&a.loss));
        let best_loss = pairs
            .first()
            .map(|p| p.loss)
            .ok_or_else(|| CheckError::msg("the search kept no pair"))?;
        if best_loss > upper {
            return Err(CheckError::msg(format!(
                "a pair's exact loss {best_loss} exceeds the upper bound {upper} of the search"
            )));
        }
        Ok(Search {
            pairs,
            best_loss,
            upper,
            context_slack,
            all_data_bound,
            grid: (context_grid.max(2), REWARD_GRID),
            scale: cm,
        })
    }
}

/// The `eps` of the stage's claim (pure DP).
fn claimed_epsilon(stage: &PredictionStage) -> Result<f64, CheckError> {
    match privacy::Mechanism::claim(stage).guarantee {
        privacy::Guarantee::PureDp { epsilon } => Ok(epsilon.get()),
        _ => Err(CheckError::msg(
            "the prediction stage's claim is not pure DP",
        )),
    }
}
