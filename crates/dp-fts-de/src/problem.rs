//! The federated problems of Sec. 5: `N` agents on one finite domain, agent `n` maximising
//! its own `f^n`, observing `y = f^n(x) + N(0, sigma^2)`.

use std::path::Path;

use bandit::dataset::{FederatedTable, federated_svm_digits, federated_table};

use bandit::domain::{BoxDomain, FiniteDomain};
use bandit::objective::{GpSample, HeterogeneousAgents, PerturbedCopies};
use ndarray::{Array1, Array2, ArrayView1};
use rand::Rng;

use crate::error::DpFtsDeError;

/// The committed table of [`FederatedProblem::noisy_digits`] (found from this crate's source
/// folder, so it is read in place, never copied).
pub const NOISY_DIGITS_TABLE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../data/dp-fts-de/federated_svm_digits_noisy.csv"
);

/// `N` objectives on a finite domain inside a box, with Gaussian observation noise.
#[derive(Debug, Clone)]
pub struct FederatedProblem {
    name: String,
    bounds: BoxDomain,
    domain: FiniteDomain,
    objectives: Array2<f64>,
    maxima: Array1<f64>,
    noise_sd: f64,
}

impl FederatedProblem {
    /// `objectives[[n, x]] = f^n(x)` for the points `x` of `domain` (inside `bounds`), noise
    /// standard deviation `noise_sd >= 0`.
    pub fn new(
        name: impl Into<String>,
        bounds: BoxDomain,
        domain: FiniteDomain,
        objectives: Array2<f64>,
        noise_sd: f64,
    ) -> Result<Self, DpFtsDeError> {
        validation::matching_dimension(
            "objective values per point",
            domain.len(),
            objectives.ncols(),
        )?;
        validation::at_least_one("agents", objectives.nrows())?;
        validation::ensure_finite("objective values", objectives.iter())?;
        let noise_sd = validation::non_negative("noise standard deviation", noise_sd)?;
        for x in domain.points().rows() {
            if !bounds.contains(x) {
                return Err(DpFtsDeError::Setting(
                    "a domain point lies outside its box".into(),
                ));
            }
        }
        let maxima = objectives
            .rows()
            .into_iter()
            .map(|r| r.fold(f64::NEG_INFINITY, |m, &v| m.max(v)))
            .collect();
        Ok(Self {
            name: name.into(),
            bounds,
            domain,
            objectives,
            maxima,
            noise_sd,
        })
    }

    /// App. B.1.1: one draw of `f ~ GP(0, SE(0.03))` on 1000 grid points of `[0, 1]`,
    /// normalised to `[0, 1]`; `f^n(x) = f(x) +- 0.02` independently per agent and point
    /// (`n_agents` agents, the paper's 200); noise variance 0.01.
    pub fn synthetic<R: Rng + ?Sized>(n_agents: usize, rng: &mut R) -> Result<Self, DpFtsDeError> {
        let sampler = GpSample::dp_fts_de()?;
        let f = sampler.sample(rng)?;
        let copies = PerturbedCopies {
            n_agents,
            ..PerturbedCopies::default()
        }
        .sample(&f, rng)?;
        Self::new(
            "synthetic",
            BoxDomain::unit(1)?,
            sampler.domain().clone(),
            copies,
            0.1,
        )
    }

    /// App. B.1.2: heterogeneous agents `alpha f^i + (1 - alpha) f_base` on the synthetic
    /// domain, noise variance 0.01.
    pub fn heterogeneous<R: Rng + ?Sized>(
        n_agents: usize,
        alpha: f64,
        rng: &mut R,
    ) -> Result<Self, DpFtsDeError> {
        let sampler = GpSample::dp_fts_de()?;
        let (_, objectives) = HeterogeneousAgents { n_agents, alpha }.sample(&sampler, rng)?;
        Self::new(
            "heterogeneous",
            BoxDomain::unit(1)?,
            sampler.domain().clone(),
            objectives,
            0.1,
        )
    }

    /// The federated SVM-tuning table of `../shared/data` (29 agents, 25 x 25 grid on
    /// `[0, 1]^2`, `f^n` = validation accuracy), observed without noise (the accuracy of a
    /// fixed train/validation split is deterministic).
    pub fn svm_digits(data_dir: &Path) -> Result<Self, DpFtsDeError> {
        Self::from_table("svm-digits", federated_svm_digits(data_dir)?)
    }

    /// A federated tuning table on `[0, 1]^2`, observed without noise.
    fn from_table(name: &str, t: FederatedTable) -> Result<Self, DpFtsDeError> {
        Self::new(
            name,
            BoxDomain::unit(2)?,
            FiniteDomain::new(t.points)?,
            t.accuracy,
            0.0,
        )
    }

    /// The harder stand-in committed in this repository
    /// (`data/dp-fts-de/federated_svm_digits_noisy.csv`, built by the script beside it; its
    /// README gives the provenance and the landscape's statistics): 20 agents, each tuning an
    /// RBF SVM on its own shard of the scikit-learn digits with its own pixel noise, on a
    /// 25 x 25 grid of `(log10 gamma, log10 C)` in `[-3, 1] x [-4, 1]`; `f^n` = validation
    /// accuracy, observed without noise. Ten random grid points fall 0.261 short of an agent's
    /// best on average (0.022 on [`Self::svm_digits`]).
    pub fn noisy_digits() -> Result<Self, DpFtsDeError> {
        let path = Path::new(NOISY_DIGITS_TABLE);
        if !path.is_file() {
            return Err(DpFtsDeError::Setting(format!(
                "the noisy-digits table {} is missing: it is read in place from the repository \
                 checkout this crate was built from (data/dp-fts-de/); rebuild it with \
                 data/dp-fts-de/make_federated_table.py",
                path.display()
            )));
        }
        Self::from_table("svm-digits-noisy", federated_table(path)?)
    }

    /// A short name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The box the domain lies in (partitioned into the sub-regions).
    pub fn bounds(&self) -> &BoxDomain {
        &self.bounds
    }

    /// The finite domain.
    pub fn domain(&self) -> &FiniteDomain {
        &self.domain
    }

    /// `N`.
    pub fn n_agents(&self) -> usize {
        self.objectives.nrows()
    }

    /// Agent `n`'s objective on the domain.
    pub fn objective(&self, n: usize) -> ArrayView1<'_, f64> {
        self.objectives.row(n)
    }

    /// `max_x f^n(x)`.
    pub fn maximum(&self, n: usize) -> f64 {
        self.maxima[n]
    }

    /// The observation noise standard deviation.
    pub fn noise_sd(&self) -> f64 {
        self.noise_sd
    }

    /// Keep only the first `n` agents (for small runs and tests).
    pub fn first_agents(&self, n: usize) -> Result<Self, DpFtsDeError> {
        validation::index_in(
            "number of agents kept",
            n.saturating_sub(1),
            self.n_agents(),
        )?;
        Self::new(
            self.name.clone(),
            self.bounds.clone(),
            self.domain.clone(),
            self.objectives
                .select(ndarray::Axis(0), &(0..n).collect::<Vec<_>>()),
            self.noise_sd,
        )
    }
}
