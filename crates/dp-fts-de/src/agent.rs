//! An agent of DP-FTS-DE (Algorithm 2): its own weight-space GP posterior on the shared
//! features, its query rule, and the vector it sends to the server.

use std::sync::Arc;

use bandit::policy::{Pending, Reselect};
use kernel::WeightSpaceGp;
use ndarray::Array1;
use rand::{Rng, RngExt};
use rand_distr::{Distribution, StandardNormal};
use serde::{Deserialize, Serialize};

use crate::beta::BetaSchedule;
use crate::error::DpFtsDeError;
use crate::features::SharedFeatures;
use crate::features::first_argmax;
use crate::local_step::{ExactPrior, LocalModel, LocalSettings, LocalStep, uniform_point};
use crate::messages::{AgentVector, Broadcast};
use crate::schedule::Exploration;

/// Where an agent draws its `N_init` initial points (Algorithm 2 line 2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Init {
    /// Uniformly from its assigned sub-region (distributed exploration).
    SubRegion,
    /// Uniformly from the whole domain (FTS without DE, and Fig. 5's ablation).
    WholeDomain,
}

/// How an agent chose its query at an iteration (for diagnostics and tests).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Choice {
    /// An initial point (iteration 0).
    Initial,
    /// Thompson sampling from its own posterior (line 6).
    Thompson,
    /// The argmax of the server's vectors (line 8).
    Server,
    /// A uniformly random point replacing a repeated query (the authors' practice,
    /// [`LocalSettings::replace_repeats`]).
    Replaced,
}

/// Agent `A_n` of Algorithm 2 on a finite domain.
///
/// State: the weight-space posterior of eq. (2) on the shared features,
/// `Sigma_t = Phi_t^T Phi_t + lambda I`, `nu_t = Sigma_t^-1 Phi_t^T y_t`, updated by a rank-one
/// Cholesky update per observation (`O(M^2)`).
///
/// Iteration `t >= 1` (lines 4-8): draw `r ~ U(0, 1)`; if `r <= p_t` (or there is no server
/// broadcast) choose `argmax_x phi(x)^T w` with `w = nu_t + beta sqrt(lambda) L^-T z`,
/// `z ~ N(0, I_M)`, a draw of `N(nu_t, beta^2 lambda Sigma_t^-1)` (the weight-space form of
/// `f ~ GP(mu_t, beta^2 sigma_t^2)`), `beta` from the [`BetaSchedule`] at the posterior's
/// number of observations; otherwise choose `argmax_x phi(x)^T omega^(i(x))_{t-1}` from the
/// broadcast. Then (line 10) send `omega_{n,t} ~ N(nu_t, lambda Sigma_t^-1)` (eq. (2), after
/// adding the new observation).
///
/// Random draws, in this order and only from the agent's own generator: `r`, then `z` when
/// Thompson sampling; then `N(0, I_M)` for the vector. Initial points: a partial Fisher-Yates
/// shuffle ([`FtsAgent::initial_points`]).
///
/// The local step can be replaced ([`FtsAgent::with_local`], [`LocalSettings`]): the exact GP
/// of eq. (1), or the authors' fresh features per sample; a repeated query can be replaced by
/// a uniformly random point (one more draw, after the choice). The vector sent is always the
/// weight-space draw on the shared features.
#[derive(Debug, Clone)]
pub struct FtsAgent {
    features: Arc<SharedFeatures>,
    beta: Arc<BetaSchedule>,
    exploration: Exploration,
    region: usize,
    gp: WeightSpaceGp,
    pending: Pending<usize>,
    local: LocalModel,
    replace_repeats: bool,
    refit_every: Option<usize>,
    xs: Vec<usize>,
    ys: Vec<f64>,
}

impl FtsAgent {
    /// An agent with an empty posterior (`lambda > 0`) assigned to sub-region `region`.
    pub fn new(
        features: Arc<SharedFeatures>,
        beta: Arc<BetaSchedule>,
        exploration: Exploration,
        region: usize,
        lambda: f64,
    ) -> Result<Self, DpFtsDeError> {
        if region >= features.n_regions() {
            return Err(DpFtsDeError::Setting(format!(
                "sub-region {region} does not exist (P = {})",
                features.n_regions()
            )));
        }
        let gp = WeightSpaceGp::new(features.dim(), lambda)?;
        Ok(Self {
            features,
            beta,
            exploration,
            region,
            gp,
            pending: Pending::new(Reselect::Forbid),
            local: LocalModel::WeightSpace,
            replace_repeats: false,
            refit_every: None,
            xs: Vec::new(),
            ys: Vec::new(),
        })
    }

    /// The same agent (before any observation) with another local step: `prior` is the shared
    /// exact prior ([`ExactPrior::new`] on the domain with the preset's lengthscale), required by
    /// [`LocalStep::ExactGp`]; `lengthscale` and `lambda` start the fresh-features model
    /// (variance 1) until its first refit.
    pub fn with_local(
        mut self,
        settings: LocalSettings,
        prior: Option<Arc<ExactPrior>>,
        lengthscale: f64,
        lambda: f64,
    ) -> Result<Self, DpFtsDeError> {
        settings.check()?;
        if !self.xs.is_empty() {
            return Err(DpFtsDeError::Setting(
                "the local step is set before the first observation".into(),
            ));
        }
        self.local = match settings.step {
            LocalStep::WeightSpace => LocalModel::WeightSpace,
            LocalStep::ExactGp => {
                let prior = prior.ok_or_else(|| {
                    DpFtsDeError::Setting("the exact-GP step needs the shared prior".into())
                })?;
                validation::matching_dimension(
                    "exact prior points (|X|)",
                    self.features.n_points(),
                    prior.gram().nrows(),
                )?;
                LocalModel::Exact {
                    prior,
                    lambda: validation::positive("lambda", lambda)?,
                    chol: kernel::linalg::Cholesky::empty(),
                }
            }
            LocalStep::FreshFeatures { features } => LocalModel::Fresh {
                features,
                lengthscale: validation::positive("lengthscale", lengthscale)?,
                variance: 1.0,
                lambda: validation::positive("lambda", lambda)?,
            },
        };
        self.replace_repeats = settings.replace_repeats;
        self.refit_every = settings.refit_every;
        Ok(self)
    }

    /// The assigned sub-region.
    pub fn region(&self) -> usize {
        self.region
    }

    /// The posterior (for tests, fixtures and diagnostics; it stays with the agent).
    pub fn posterior(&self) -> &WeightSpaceGp {
        &self.gp
    }

    /// `n_init` distinct initial points (line 2), uniformly from the assigned sub-region or
    /// the whole domain (fewer when the set has fewer points). Drawn by a partial
    /// Fisher-Yates shuffle of the candidate list (`random_range` per step).
    pub fn initial_points<R: Rng + ?Sized>(
        &self,
        n_init: usize,
        init: Init,
        rng: &mut R,
    ) -> Vec<usize> {
        let mut pool: Vec<usize> = match init {
            Init::SubRegion => self.features.region_points(self.region).to_vec(),
            Init::WholeDomain => (0..self.features.n_points()).collect(),
        };
        let k = n_init.min(pool.len());
        for i in 0..k {
            let j = rng.random_range(i..pool.len());
            pool.swap(i, j);
        }
        pool.truncate(k);
        pool
    }

    /// Choose the query of iteration `t >= 1` (lines 4-8); `broadcast` is the server's
    /// output of the previous round (`None` for an agent without a server: standard TS).
    pub fn select<R: Rng + ?Sized>(
        &mut self,
        t: usize,
        broadcast: Option<&Broadcast>,
        rng: &mut R,
    ) -> Result<(usize, Choice), DpFtsDeError> {
        // A second select before the first query's value: BanditError::SelectTwice.
        self.pending.check_select()?;
        let r: f64 = rng.random();
        let follow = self.exploration.follow_probability(t);
        let choice = match broadcast {
            Some(b) if r > 1.0 - follow => {
                if b.vectors().dim() != (self.features.n_regions(), self.features.dim()) {
                    return Err(DpFtsDeError::Input(
                        validation::InputError::DimensionMismatch {
                            context: "broadcast P x M",
                            expected: self.features.n_regions() * self.features.dim(),
                            got: b.vectors().len(),
                        },
                    ));
                }
                (self.features.argmax_by_region(b.vectors()), Choice::Server)
            }
            _ => {
                let beta = self.beta.get(self.gp.len());
                if let LocalModel::WeightSpace = self.local {
                    let z: Array1<f64> = (0..self.features.dim())
                        .map(|_| {
                            let e: f64 = StandardNormal.sample(rng);
                            beta * e
                        })
                        .collect();
                    let w = self.gp.sample_theta_with(z.view())?;
                    (self.features.argmax(w.view()), Choice::Thompson)
                } else {
                    let f = self.local.sample(
                        self.features.domain().points(),
                        &self.xs,
                        &self.ys,
                        beta,
                        rng,
                    )?;
                    (first_argmax(f.iter().copied()), Choice::Thompson)
                }
            }
        };
        let choice = if self.replace_repeats && self.xs.contains(&choice.0) {
            (
                uniform_point(self.features.n_points(), rng),
                Choice::Replaced,
            )
        } else {
            choice
        };
        self.pending.store(choice.0)?;
        Ok(choice)
    }

    /// Record the value `y` observed at point `x` (an initial point, or the query just
    /// selected).
    pub fn observe(&mut self, x: usize, y: f64) -> Result<(), DpFtsDeError> {
        if let Some(&pending) = self.pending.get()
            && pending != x
        {
            return Err(DpFtsDeError::ObservedOtherPoint {
                observed: x,
                pending,
            });
        }
        validation::index_in("observed point", x, self.features.n_points())?;
        self.gp.observe(self.features.row(x), y)?;
        self.local.observe(&self.xs, x)?;
        self.xs.push(x);
        self.ys.push(y);
        if let Some(k) = self.refit_every
            && self.xs.len().is_multiple_of(k)
        {
            self.local
                .refit(self.features.domain().points(), &self.xs, &self.ys)?;
        }
        if self.pending.is_pending() {
            self.pending.take()?;
        }
        Ok(())
    }

    /// The vector to send (line 10): a draw of eq. (2), `N(nu_t, lambda Sigma_t^-1)`.
    pub fn sample_vector<R: Rng + ?Sized>(&self, rng: &mut R) -> Result<AgentVector, DpFtsDeError> {
        let z: Array1<f64> = (0..self.features.dim())
            .map(|_| StandardNormal.sample(rng))
            .collect();
        AgentVector::new(self.gp.sample_theta_with(z.view())?)
    }
}
