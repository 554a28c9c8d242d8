//! RKHS functions `f = sum_i a_i k(x_i, .)` and the Zhou & Tan / Chowdhury & Gopalan synthetic.

use kernel::{Kernel, Matern, MaternNu, SquaredExponential};
use ndarray::{Array1, Array2, ArrayView1, ArrayView2};
use rand::{Rng, RngExt};
use serde::{Deserialize, Serialize};

use super::{Objective, check_centres_and_weights};
use crate::domain::{BoxDomain, FiniteDomain};
use crate::env::{Annotated, FixedSetEnvironment};
use crate::error::{BanditError, InputError};
use crate::noise::RewardModel;
use validation::{ensure_finite, positive};

/// A function in the RKHS of `kernel` with finitely many centres:
/// `f(x) = sum_i a_i k(x_i, x)`, with RKHS norm `||f||_H = sqrt(a^T K a)`, `K_ij = k(x_i, x_j)`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RkhsFunction<K> {
    kernel: K,
    centres: Array2<f64>,
    weights: Array1<f64>,
}

impl<K: Kernel> RkhsFunction<K> {
    /// Validate: at least one centre, one finite weight per centre, centres admissible for
    /// the kernel.
    pub fn new(kernel: K, centres: Array2<f64>, weights: Array1<f64>) -> Result<Self, BanditError> {
        check_centres_and_weights(
            &centres,
            &weights,
            "RKHS function centres",
            "RKHS function weights (one per centre)",
        )?;
        ensure_finite("RKHS function weights", weights.iter())?;
        kernel.validate_batch(centres.view())?;
        Ok(Self {
            kernel,
            centres,
            weights,
        })
    }

    /// The kernel.
    pub fn kernel(&self) -> &K {
        &self.kernel
    }

    /// The centres `x_i`, one per row.
    pub fn centres(&self) -> ArrayView2<'_, f64> {
        self.centres.view()
    }

    /// The weights `a_i`.
    pub fn weights(&self) -> ArrayView1<'_, f64> {
        self.weights.view()
    }

    /// The RKHS norm `||f||_H = sqrt(a^T K a)` (the `B` of the regret analyses).
    pub fn rkhs_norm(&self) -> Result<f64, BanditError> {
        let k = self.kernel.gram(self.centres.view())?;
        let q = self.weights.dot(&k.dot(&self.weights));
        Ok(q.max(0.0).sqrt())
    }
}

impl<K: Kernel + Clone> RkhsFunction<K> {
    /// The same function multiplied by `c` (weights `c a_i`).
    pub fn scaled(&self, c: f64) -> Result<Self, BanditError> {
        Self::new(self.kernel.clone(), self.centres.clone(), &self.weights * c)
    }
}

impl<K: Kernel> Objective for RkhsFunction<K> {
    fn dim(&self) -> usize {
        self.centres.ncols()
    }

    fn value_unchecked(&self, x: ArrayView1<'_, f64>) -> f64 {
        self.centres
            .rows()
            .into_iter()
            .zip(self.weights.iter())
            .map(|(c, a)| a * self.kernel.value_unchecked(c, x))
            .sum()
    }
}

/// The two kernels of the Zhou & Tan synthetic, as one serialisable type.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum RkhsKernel {
    /// Squared exponential `exp(-r^2 / (2 l^2))`.
    SquaredExponential(SquaredExponential),
    /// Matérn 5/2.
    Matern(Matern),
}

impl RkhsKernel {
    /// SE with unit variance and lengthscale `l`.
    pub fn se(l: f64) -> Result<Self, BanditError> {
        Ok(Self::SquaredExponential(SquaredExponential::isotropic(l)?))
    }

    /// Matérn 5/2 with unit variance and lengthscale `l`.
    pub fn matern52(l: f64) -> Result<Self, BanditError> {
        Ok(Self::Matern(Matern::isotropic(MaternNu::FiveHalves, l)?))
    }
}

impl Kernel for RkhsKernel {
    fn input_dim(&self) -> Option<usize> {
        match self {
            Self::SquaredExponential(k) => k.input_dim(),
            Self::Matern(k) => k.input_dim(),
        }
    }

    fn sup_diag(&self) -> Option<f64> {
        match self {
            Self::SquaredExponential(k) => k.sup_diag(),
            Self::Matern(k) => k.sup_diag(),
        }
    }

    fn value_unchecked(&self, x: ArrayView1<'_, f64>, y: ArrayView1<'_, f64>) -> f64 {
        match self {
            Self::SquaredExponential(k) => k.value_unchecked(x, y),
            Self::Matern(k) => k.value_unchecked(x, y),
        }
    }
}

/// How the centres `x_i` of the synthetic RKHS function are drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum CentreSampling {
    /// Uniformly from the arms of the domain, with replacement: Zhou & Tan (AAAI 2021, Sec.
    /// "Datasets and Settings": "support points `x_i in D`").
    #[default]
    DomainPoints,
    /// Uniformly from the box `[0, 1]`, i.e. `x_i ~ U[0, 1]`.
    UniformInBox,
}

/// The synthetic RKHS problem of Zhou & Tan (2021, "Synthetic data"), after Chowdhury &
/// Gopalan: the domain discretises `[0, 1]` uniformly into `n_arms` points; `p` centres and
/// weights `a_i ~ U[-1, 1]` define `f = sum_i a_i k(., x_i)`; `f` is then divided by
/// `max_{x in D} |f(x)|` so that `max |f| = 1` on the domain (`B = max |f|` in the paper).
///
/// Defaults: 100 arms, `p = 100`, SE kernel with `l = 0.2`, centres from the domain points.
///
/// Draw order (for reproduction in another language): the `p` centres (each an index
/// `random_range(0..n_arms)`, or a `U[0, 1)` float for [`CentreSampling::UniformInBox`]),
/// then the `p` weights `2 U - 1` with `U ~ U[0, 1)` (rand's `random::<f64>()`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RkhsSynthetic {
    /// Number of arms (grid points on `[0, 1]`).
    pub n_arms: usize,
    /// Number of centres `p`.
    pub n_centres: usize,
    /// The kernel (SE `l = 0.2` or Matérn 5/2 `l = 0.2` in the paper).
    pub kernel: RkhsKernel,
    /// How centres are drawn.
    pub centres: CentreSampling,
}

impl Default for RkhsSynthetic {
    fn default() -> Self {
        Self {
            n_arms: 100,
            n_centres: 100,
            kernel: RkhsKernel::se(0.2).expect("0.2 > 0"),
            centres: CentreSampling::DomainPoints,
        }
    }
}

/// One drawn instance of [`RkhsSynthetic`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RkhsInstance {
    /// The arms.
    pub domain: FiniteDomain,
    /// The normalised function (`max_D |f| = 1`).
    pub function: RkhsFunction<RkhsKernel>,
    /// `f` at the arms.
    pub values: Array1<f64>,
    /// The normalising constant `max_D |f|` of the raw draw.
    pub normaliser: f64,
    /// `||f||_H` of the normalised function.
    pub rkhs_norm: f64,
}

impl RkhsSynthetic {
    /// Same as default with the Matérn 5/2 kernel, `l = 0.2`.
    pub fn matern() -> Self {
        Self {
            kernel: RkhsKernel::matern52(0.2).expect("0.2 > 0"),
            ..Self::default()
        }
    }

    /// Check counts (`n_arms >= 1`, `p >= 1`).
    pub fn validate(&self) -> Result<(), BanditError> {
        if self.n_arms == 0 {
            return Err(BanditError::Input(InputError::Empty {
                what: "RKHS synthetic domain (n_arms = 0)",
            }));
        }
        if self.n_centres == 0 {
            return Err(BanditError::Input(InputError::Empty {
                what: "RKHS synthetic centres (p = 0)",
            }));
        }
        Ok(())
    }

    /// The environment factory of a batch run ([`crate::runner::Runner`]): each call draws
    /// an instance with the trial's `rng` ([`RkhsSynthetic::sample`]) and returns its
    /// `RkhsInstance::annotated_environment` with `reward`.
    pub fn annotated_environments<R: Rng + ?Sized>(
        &self,
        reward: RewardModel,
    ) -> impl Fn(&mut R) -> Result<RkhsEnvironment, BanditError> + Sync + '_ {
        move |rng| self.sample(rng)?.annotated_environment(reward.clone())
    }

    /// Draw an instance.
    pub fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> Result<RkhsInstance, BanditError> {
        self.validate()?;
        let domain = BoxDomain::unit(1)?.grid(&[self.n_arms])?;
        let p = self.n_centres;
        let mut centres = Array2::zeros((p, 1));
        for i in 0..p {
            centres[[i, 0]] = match self.centres {
                CentreSampling::DomainPoints => {
                    domain.points()[[rng.random_range(0..self.n_arms), 0]]
                }
                CentreSampling::UniformInBox => rng.random::<f64>(),
            };
        }
        let weights: Array1<f64> = (0..p).map(|_| 2.0 * rng.random::<f64>() - 1.0).collect();
        let raw = RkhsFunction::new(self.kernel.clone(), centres, weights)?;
        let raw_values = raw.values(domain.points())?;
        let normaliser = raw_values.iter().fold(0.0f64, |m, v| m.max(v.abs()));
        positive("max |f| of the RKHS draw (all-zero function)", normaliser)?;
        let function = raw.scaled(1.0 / normaliser)?;
        let values = raw_values / normaliser;
        let rkhs_norm = function.rkhs_norm()?;
        Ok(RkhsInstance {
            domain,
            function,
            values,
            normaliser,
            rkhs_norm,
        })
    }
}

/// An environment on a drawn instance of [`RkhsSynthetic`] annotated with `(B, kernel)`:
/// `B = ||f||_H` and the kernel of the instance (`RkhsInstance::annotated_environment`).
pub type RkhsEnvironment = Annotated<FixedSetEnvironment, (f64, RkhsKernel)>;

impl RkhsInstance {
    /// The bandit problem on the arms with the given reward model (Zhou & Tan: uniform noise
    /// on `[-1, 1]` in the LDP case, Student-t(3) in the heavy-tailed case).
    pub fn environment(&self, reward: RewardModel) -> Result<FixedSetEnvironment, BanditError> {
        FixedSetEnvironment::new(self.domain.points().to_owned(), self.values.clone(), reward)
    }

    /// [`RkhsInstance::environment`] annotated with `B = ||f||_H` (the exact RKHS norm of the
    /// drawn function, what IGP-UCB needs) and the kernel.
    pub fn annotated_environment(
        &self,
        reward: RewardModel,
    ) -> Result<RkhsEnvironment, BanditError> {
        Ok(Annotated {
            env: self.environment(reward)?,
            info: (self.rkhs_norm, self.function.kernel().clone()),
        })
    }
}
