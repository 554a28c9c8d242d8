//! The problems of Section 6 (Dubey 2021): the synthetic of Section 6.1 and the Table 1
//! benchmarks, their features (QFF, additive QFF) and measured kernel error, and their
//! parameters and environments.

use bandit::BanditError;
use bandit::domain::BoxDomain;
use bandit::env::{BestOfSet, SampledBoxEnvironment};
use bandit::experiment;
use bandit::noise::RewardModel;
use bandit::objective::{DubeyEnvironment, DubeyObjective, Michalewicz, Normalised, Objective};
use kernel::{
    AdditiveFeatures, FeatureMap, Kernel, KernelError, QuadratureFourierFeatures,
    SquaredExponential,
};
use ndarray::{Array1, Array2, ArrayView1, ArrayView2, ArrayViewMut1};
use privacy::Sampler;
use rand_chacha::ChaCha20Rng;
use serde::{Deserialize, Serialize};

use crate::error::JdpQffError;
use crate::params::JdpQffParams;

/// Section 6.1: input dimension.
pub const DUBEY_D: usize = 2;
/// Section 6.1: points per decision set.
pub const DUBEY_N: usize = 25;
/// Section 6.1: the SE lengthscale.
pub const DUBEY_LENGTHSCALE: f64 = 1.0;
/// Section 6.1: QFF nodes per dimension (module docs: the smallest with sup error <= 1e-3).
pub const DUBEY_MBAR: usize = 14;
/// Section 6.2: uniform points of the box per round.
pub const BENCHMARK_CANDIDATES: usize = 25;
/// Section 6.2: sd of the Gaussian reward noise (on the normalised function).
pub const BENCHMARK_NOISE_SD: f64 = 0.1;

/// The problems of Section 6.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Problem {
    /// The synthetic of Section 6.1.
    Dubey,
    /// Six-hump camelback, `d = 2`.
    Camelback,
    /// Styblinski-Tang, `d = 20`.
    StyblinskiTang20,
    /// Michalewicz, `d = 10`.
    Michalewicz10,
}

impl Problem {
    /// What the trials of a panel on this problem are: independent problem draws on the
    /// synthetic (a new objective per trial), independent runs on a fixed benchmark (whose
    /// decision sets are still drawn anew each round).
    pub fn draws(self) -> experiment::Problem {
        match self {
            Self::Dubey => experiment::Problem::RandomPerTrial,
            _ => experiment::Problem::Fixed,
        }
    }

    /// The input dimension.
    pub fn dim(self) -> usize {
        match self {
            Self::Dubey | Self::Camelback => 2,
            Self::StyblinskiTang20 => 20,
            Self::Michalewicz10 => 10,
        }
    }

    /// The SE lengthscale of the learners' kernel.
    pub fn lengthscale(self) -> f64 {
        match self {
            Self::Dubey => DUBEY_LENGTHSCALE,
            Self::Camelback => 0.4,
            Self::StyblinskiTang20 | Self::Michalewicz10 => 0.5,
        }
    }

    /// QFF nodes per dimension (per group for the additive problems).
    pub fn mbar(self) -> usize {
        match self {
            Self::Dubey => DUBEY_MBAR,
            Self::Camelback => 10,
            Self::StyblinskiTang20 | Self::Michalewicz10 => 8,
        }
    }

    /// The learners' features: the full QFF (Dubey, Camelback) or the additive QFF with one
    /// group per coordinate.
    pub fn features(self) -> Result<Features, JdpQffError> {
        let k = SquaredExponential::isotropic(self.lengthscale())?;
        Ok(match self {
            Self::Dubey | Self::Camelback => {
                Features::Full(QuadratureFourierFeatures::new(&k, self.dim(), self.mbar())?)
            }
            Self::StyblinskiTang20 | Self::Michalewicz10 => {
                Features::Additive(AdditiveFeatures::qff(
                    &k,
                    AdditiveFeatures::one_per_coordinate(self.dim()),
                    self.mbar(),
                )?)
            }
        })
    }

    /// The differences `x - y` over which the features' error is measured: a polar grid of
    /// the disc of radius 4 (Dubey: the ball of radius 2) or of `[-1, 1]^2` (Camelback's box;
    /// the additive maps are measured per group on `[-1, 1]`, [`feature_error`]).
    fn differences(self) -> Array2<f64> {
        match self {
            Self::Dubey => {
                let (nr, na) = (400, 90);
                Array2::from_shape_fn(((nr + 1) * na, 2), |(i, j)| {
                    let r = 4.0 * (i / na) as f64 / nr as f64;
                    let a = std::f64::consts::PI * (i % na) as f64 / na as f64;
                    if j == 0 { r * a.cos() } else { r * a.sin() }
                })
            }
            _ => {
                let n = 201;
                Array2::from_shape_fn((n * n, 2), |(i, j)| {
                    let k = if j == 0 { i / n } else { i % n };
                    -1.0 + 2.0 * k as f64 / (n - 1) as f64
                })
            }
        }
    }

    /// A short name for ids and tables.
    pub fn name(self) -> &'static str {
        match self {
            Self::Dubey => "dubey-synthetic",
            Self::Camelback => "camelback",
            Self::StyblinskiTang20 => "styblinski-tang-20",
            Self::Michalewicz10 => "michalewicz-10",
        }
    }
}

/// The two feature maps of the experiments.
#[derive(Debug, Clone, PartialEq)]
pub enum Features {
    /// Tensor-product QFF.
    Full(QuadratureFourierFeatures),
    /// Additive QFF.
    Additive(AdditiveFeatures),
}

impl FeatureMap for Features {
    fn input_dim(&self) -> usize {
        match self {
            Self::Full(f) => f.input_dim(),
            Self::Additive(f) => f.input_dim(),
        }
    }

    fn dim(&self) -> usize {
        match self {
            Self::Full(f) => f.dim(),
            Self::Additive(f) => f.dim(),
        }
    }

    fn map_into_unchecked(&self, x: ArrayView1<'_, f64>, out: ArrayViewMut1<'_, f64>) {
        match self {
            Self::Full(f) => f.map_into_unchecked(x, out),
            Self::Additive(f) => f.map_into_unchecked(x, out),
        }
    }
}

/// `sup_r |phi(r)^T phi(0) - k(r, 0)|` over the rows `r` of `diffs`: the uniform error of a
/// stationary feature map (QFF: `phi(x)^T phi(y)` depends on `x - y` only).
pub fn sup_error<F: FeatureMap, K: Kernel>(
    features: &F,
    kernel: &K,
    diffs: ArrayView2<'_, f64>,
) -> Result<f64, KernelError> {
    let zero = Array1::zeros(diffs.ncols());
    let p0 = features.map(zero.view())?;
    let mut sup = 0.0f64;
    for r in diffs.rows() {
        let e = (features.map(r)?.dot(&p0) - kernel.value(r, zero.view())?).abs();
        sup = sup.max(e);
    }
    Ok(sup)
}

/// The measured uniform error `eps` of a problem's features (Definition 2): on the
/// problem's differences for the full QFF; for the additive map `(1/G) sum_g sup_{|r| <= 1}
/// e_g(r)`, the sup over `[-1, 1]^d` of the additive error.
pub fn feature_error(problem: Problem) -> Result<f64, JdpQffError> {
    let k = SquaredExponential::isotropic(problem.lengthscale())?;
    Ok(match problem.features()? {
        Features::Full(f) => sup_error(&f, &k, problem.differences().view())?,
        Features::Additive(a) => {
            let line = Array2::from_shape_fn((2001, 1), |(i, _)| -1.0 + i as f64 / 1000.0);
            let mut total = 0.0;
            for map in a.maps() {
                total += sup_error(map, &k, line.view())?;
            }
            total / a.maps().len() as f64
        }
    })
}

/// The parameters of a problem's runs other than the setting: the presets
/// [`JdpQffParams::section_6_1`] (the synthetic) and [`JdpQffParams::section_6_2`] (Table 1),
/// with the given noise sampler (the reproduction's default is the hardened one) and
/// `epsilon` the measured error of the features.
pub fn problem_params(problem: Problem, sampler: Sampler) -> Result<JdpQffParams, JdpQffError> {
    let epsilon = feature_error(problem)?;
    let mut p = if problem == Problem::Dubey {
        JdpQffParams::section_6_1()
    } else {
        JdpQffParams::section_6_2()
    };
    p.sampler = sampler;
    p.width.epsilon = epsilon;
    Ok(p)
}

/// The smallest value of `f(x) = sum_i term(i, x_i)` over `[-0.5, 0.5]^d` for an additive `f`
/// is the sum of the per-coordinate minima; each is bounded below by the minimum over a grid of
/// 20 001 points minus nothing (the terms are smooth; the grid minimum is what we map to -1,
/// and the few points below it map slightly below -1).
pub(super) fn michalewicz_minimum(d: usize) -> f64 {
    (1..=d)
        .map(|i| {
            (0..=20_000)
                .map(|k| Michalewicz::term(i, d, -0.5 + k as f64 / 20_000.0))
                .fold(f64::INFINITY, f64::min)
        })
        .sum()
}

/// The Table 1 environment of a benchmark problem (module docs).
pub(super) fn benchmark_env<O: Objective + Clone>(
    objective: Normalised<O>,
) -> impl Fn(&mut ChaCha20Rng) -> Result<BestOfSet<SampledBoxEnvironment<Normalised<O>>>, BanditError>
+ Sync {
    move |_rng| {
        let d = objective.dim();
        Ok(BestOfSet::new(SampledBoxEnvironment::new(
            objective.clone(),
            BoxDomain::cube(d, -0.5, 0.5)?,
            BENCHMARK_CANDIDATES,
            RewardModel::gaussian(BENCHMARK_NOISE_SD)?,
        )?))
    }
}

/// The Section 6.1 environment of one trial: a fresh objective, `n = 25`.
pub(super) fn dubey_env(rng: &mut ChaCha20Rng) -> Result<DubeyEnvironment, BanditError> {
    DubeyEnvironment::new(DubeyObjective::sample(DUBEY_D, rng)?, DUBEY_N)
}

#[cfg(test)]
mod tests {
    use super::*;

    // Exact: the presets copy these values.
    #[allow(clippy::float_cmp)]
    #[test]
    fn the_section_6_2_preset_assumes_the_noise_the_benchmarks_draw() {
        let p = problem_params(Problem::Camelback, Sampler::Textbook).unwrap();
        assert_eq!(p.width.rho, BENCHMARK_NOISE_SD);
        assert_eq!(p.reward_bound, 1.5);
        assert_eq!(p.sampler, Sampler::Textbook);
        let q = problem_params(Problem::Dubey, Sampler::Hardened).unwrap();
        assert_eq!(q.sampler, Sampler::Hardened);
        assert_eq!(
            (q.alpha, q.beta, q.reward_bound, q.width.rho),
            (1.0, 0.1, 1.0, crate::width::WidthParams::default().rho)
        );
    }

    #[test]
    fn the_chosen_features_are_accurate_and_small() {
        let e = feature_error(Problem::Dubey).unwrap();
        assert!(e <= 1e-3, "{e}");
        assert_eq!(Problem::Dubey.features().unwrap().dim(), 392);
        let e13 = {
            let k = SquaredExponential::isotropic(1.0).unwrap();
            let f = QuadratureFourierFeatures::new(&k, 2, 13).unwrap();
            sup_error(&f, &k, Problem::Dubey.differences().view()).unwrap()
        };
        assert!(e13 > 1e-3, "13 nodes already suffice: {e13}");
        for p in [
            Problem::Camelback,
            Problem::StyblinskiTang20,
            Problem::Michalewicz10,
        ] {
            let e = feature_error(p).unwrap();
            assert!(e <= 1e-4, "{p:?}: {e}");
        }
        assert_eq!(Problem::StyblinskiTang20.features().unwrap().dim(), 320);
    }

    #[test]
    fn normalised_benchmarks_lie_in_the_unit_range() {
        let mut rng = <ChaCha20Rng as rand::SeedableRng>::seed_from_u64(3);
        let cube = BoxDomain::cube(10, -0.5, 0.5).unwrap();
        let mw = Michalewicz::new(10).unwrap();
        let hi = mw.maximum().unwrap().value;
        let f = Normalised::new(mw, michalewicz_minimum(10), hi).unwrap();
        let xs = cube.sample_uniform(2000, &mut rng);
        let v = f.values(xs.view()).unwrap();
        assert!(v.iter().all(|&y| (-1.0 - 1e-6..=1.0).contains(&y)));
        assert!((f.maximum().unwrap().value - 1.0).abs() < 1e-12);
    }
}
