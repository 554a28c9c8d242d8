//! Dubey's synthetic (AISTATS 2021, Sec. 6.1): an RKHS function with 4 centres in the ball of
//! radius 2, weights from the unit L1 ball, random decision sets with exactly one good arm,
//! Bernoulli rewards.

use ndarray::{Array1, Array2, ArrayView1, ArrayView2};
use rand::{Rng, RngExt};
use rand_distr::{Distribution, Exp1, StandardNormal};
use serde::{Deserialize, Serialize};

use super::{Objective, check_centres_and_weights};
use crate::env::{RoundEnvironment, RoundState};
use crate::error::{BanditError, InputError};

/// `f(x) = sum_{i=1}^{4} alpha_i exp(-||x - x_i||^2 / 2)` on `R^d` (Dubey: `d = 2`, SE kernel
/// with variance 1, `k(x, y) = exp(-||x - y||_2^2 / 2)`), with `|alpha|_1 <= 1`, so
/// `|f| <= 1` and `B = 1`.
///
/// # Construction (Sec. 6.1)
///
/// - centres `x_i` uniform in the Euclidean ball `B_d(2)`: a standard normal direction
///   scaled to radius `2 U^{1/d}`;
/// - `alpha` uniform in the unit L1 ball of `R^4`: with `E_1..E_5 ~ Exp(1)` and independent
///   fair signs `s_i`, `alpha_i = s_i E_i / (E_1 + ... + E_5)` (the first four coordinates of a
///   flat Dirichlet on the 5-simplex are uniform on the solid simplex, and random signs
///   spread it uniformly over the cross-polytope);
/// - the paper's decision sets need arms with `f >= 0.8`, which many draws cannot reach
///   (e.g. when `|alpha|_1 < 0.8`), so the draw is repeated until one of `PILOT` uniform
///   points of `B_d(2)` has `f >= 0.8` ("implemented somewhat crudely
///   by iterative sampling"). Draw order per attempt: the centres (d normals and one
///   uniform each), the five exponentials, the four signs (`random_bool(0.5)`, true = +), then
///   the pilot points until the first hit.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DubeyObjective {
    centres: Array2<f64>,
    alpha: Array1<f64>,
}

/// Radius of Dubey's ball `B_d(2)`.
pub const BALL_RADIUS: f64 = 2.0;
/// Lower threshold of the good arm.
pub const GOOD_THRESHOLD: f64 = 0.8;
/// Upper threshold of the other arms.
pub const BAD_THRESHOLD: f64 = 0.6;

impl DubeyObjective {
    /// Number of pilot points used to check that `{f >= 0.8}` is reachable.
    pub const PILOT: usize = 4096;
    /// Maximum number of instance draws.
    pub const MAX_INSTANCE_ATTEMPTS: usize = 100_000;

    /// An objective with given centres (`4 x d` or any `m x d`) and weights.
    pub fn new(centres: Array2<f64>, alpha: Array1<f64>) -> Result<Self, BanditError> {
        check_centres_and_weights(
            &centres,
            &alpha,
            "Dubey objective centres",
            "Dubey objective weights",
        )?;
        validation::ensure_finite("Dubey objective centres", centres.iter())?;
        validation::ensure_finite("Dubey objective weights", alpha.iter())?;
        Ok(Self { centres, alpha })
    }

    /// Draw an instance in dimension `d` by the construction above.
    pub fn sample<R: Rng + ?Sized>(d: usize, rng: &mut R) -> Result<Self, BanditError> {
        if d == 0 {
            return Err(BanditError::Input(InputError::Empty {
                what: "Dubey objective dimension",
            }));
        }
        for _ in 0..Self::MAX_INSTANCE_ATTEMPTS {
            let mut centres = Array2::zeros((4, d));
            for i in 0..4 {
                centres
                    .row_mut(i)
                    .assign(&uniform_in_ball(d, BALL_RADIUS, rng));
            }
            let e: Vec<f64> = (0..5).map(|_| Exp1.sample(rng)).collect();
            let total: f64 = e.iter().sum();
            let alpha: Array1<f64> = (0..4)
                .map(|i| {
                    if rng.random_bool(0.5) {
                        e[i] / total
                    } else {
                        -e[i] / total
                    }
                })
                .collect();
            let f = Self { centres, alpha };
            // A pilot hit (rather than, say, a centre reaching 0.8) also guarantees that the
            // region {f >= 0.8} is not vanishingly small, so that the rejection sampling of
            // decision sets stays fast.
            let reachable = (0..Self::PILOT).any(|_| {
                f.value_unchecked(uniform_in_ball(d, BALL_RADIUS, rng).view()) >= GOOD_THRESHOLD
            });
            if reachable {
                return Ok(f);
            }
        }
        Err(BanditError::SamplingFailed {
            what: "Dubey objective with max f >= 0.8",
            attempts: Self::MAX_INSTANCE_ATTEMPTS,
        })
    }

    /// The centres.
    pub fn centres(&self) -> ArrayView2<'_, f64> {
        self.centres.view()
    }

    /// The weights `alpha`.
    pub fn alpha(&self) -> ArrayView1<'_, f64> {
        self.alpha.view()
    }
}

impl Objective for DubeyObjective {
    fn dim(&self) -> usize {
        self.centres.ncols()
    }

    fn value_unchecked(&self, x: ArrayView1<'_, f64>) -> f64 {
        self.centres
            .rows()
            .into_iter()
            .zip(self.alpha.iter())
            .map(|(c, a)| {
                let r2: f64 = c.iter().zip(x.iter()).map(|(p, q)| (p - q) * (p - q)).sum();
                a * (-0.5 * r2).exp()
            })
            .sum()
    }
}

/// A point uniform in the Euclidean ball of radius `r` in `R^d`: `d` standard normals for
/// the direction, then one `U[0, 1)` for the radius `r U^{1/d}`.
pub fn uniform_in_ball<R: Rng + ?Sized>(d: usize, r: f64, rng: &mut R) -> Array1<f64> {
    loop {
        let g: Array1<f64> = (0..d).map(|_| StandardNormal.sample(rng)).collect();
        let norm = g.dot(&g).sqrt();
        if norm > 0.0 {
            let u: f64 = rng.random();
            return g * (r * u.powf(1.0 / d as f64) / norm);
        }
    }
}

/// Dubey's environment: each round a decision set of `n` points of `B_d(2)` with exactly one
/// point with `f >= 0.8` and `n - 1` points with `f <= 0.6` (a suboptimality gap of at least
/// 0.2), and rewards `y ~ Bernoulli(f(x))`.
///
/// # Construction of a decision set
///
/// The paper draws `D_t` "by iterative sampling". Drawing `n` i.i.d. uniform points of the
/// ball and conditioning on "exactly one in `G = {f >= 0.8}`, all others in
/// `L = {f <= 0.6}`" gives: a uniformly random position holds a point uniform on `G`, the
/// others are i.i.d. uniform on `L`. We sample exactly that distribution: the position
/// (`random_range(0..n)`), then, position by position, a uniform point of the ball
/// rejected until it lies in the required set (at most [`DubeyEnvironment::MAX_ATTEMPTS`]
/// tries per point).
///
/// # Rewards
///
/// `f` can be negative (the weights have random signs), where `Bernoulli(f)` is undefined:
/// the success probability is `clamp(f(x), 0, 1)`. The pseudo-regret uses `f` itself,
/// `f(x*_t) - f(x_t)` with `x*_t` the good arm of `D_t`, as in the paper.
#[derive(Debug, Clone)]
pub struct DubeyEnvironment {
    objective: DubeyObjective,
    n: usize,
    /// The round's decision set and means; the reference is its one good arm's mean.
    state: RoundState,
}

impl DubeyEnvironment {
    /// Rejection budget per point of a decision set.
    pub const MAX_ATTEMPTS: usize = 10_000_000;

    /// An environment with decision sets of `n >= 1` points (Dubey: `n = 25` in Figs. 1-2).
    pub fn new(objective: DubeyObjective, n: usize) -> Result<Self, BanditError> {
        if n == 0 {
            return Err(BanditError::Input(InputError::Empty {
                what: "Dubey decision set (n = 0)",
            }));
        }
        let d = objective.dim();
        Ok(Self {
            objective,
            n,
            state: RoundState::empty(d),
        })
    }

    /// The objective.
    pub fn objective(&self) -> &DubeyObjective {
        &self.objective
    }

    fn draw_in<R: Rng + ?Sized>(
        &self,
        good: bool,
        rng: &mut R,
    ) -> Result<(Array1<f64>, f64), BanditError> {
        let d = self.objective.dim();
        for _ in 0..Self::MAX_ATTEMPTS {
            let x = uniform_in_ball(d, BALL_RADIUS, rng);
            let v = self.objective.value_unchecked(x.view());
            if (good && v >= GOOD_THRESHOLD) || (!good && v <= BAD_THRESHOLD) {
                return Ok((x, v));
            }
        }
        Err(BanditError::SamplingFailed {
            what: if good {
                "decision-set point with f >= 0.8"
            } else {
                "decision-set point with f <= 0.6"
            },
            attempts: Self::MAX_ATTEMPTS,
        })
    }
}

impl RoundEnvironment for DubeyEnvironment {
    fn round_state(&self) -> &RoundState {
        &self.state
    }

    fn next_round<R: Rng + ?Sized>(
        &mut self,
        _round: usize,
        rng: &mut R,
    ) -> Result<(), BanditError> {
        let d = self.objective.dim();
        let good_at = rng.random_range(0..self.n);
        let mut points = Array2::zeros((self.n, d));
        let mut means = Array1::zeros(self.n);
        for i in 0..self.n {
            let (x, v) = self.draw_in(i == good_at, rng)?;
            points.row_mut(i).assign(&x);
            means[i] = v;
        }
        let best = means[good_at];
        self.state = RoundState::new(points, means, best);
        Ok(())
    }

    fn draw_reward<R: Rng + ?Sized>(
        &mut self,
        action: usize,
        rng: &mut R,
    ) -> Result<f64, BanditError> {
        let p = self.state.mean(action).clamp(0.0, 1.0);
        Ok(if rng.random_bool(p) { 1.0 } else { 0.0 })
    }
}
