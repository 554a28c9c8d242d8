//! One curve as a seeded batch: an algorithm of the paper, private or not, with a preset's
//! parameters, on a problem's instances.

use bandit::agent::{Agent, Curator, Identity};
use validation::{Valid, Validate};

use bandit::runner::{BatchResult, RunConfig, Runner};

use privacy::Sampler;
use rand_chacha::ChaCha20Rng;
use serde::{Deserialize, Serialize};

use super::problems::{Instance, InstanceInfo, Setting, Source};
use crate::ata::{AtaGpUcb, AtaParams};
use crate::convert_to_laplace::ConvertToLaplace;
use crate::curator::CtlCurator;
use crate::error::LdpBoError;
use crate::moma::{MomaGpUcb, MomaParams};
use crate::preset::Preset;
use crate::tgp::{TgpParams, TgpUcb};

/// The three algorithms; the setting decides between the private and non-private version.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Algorithm {
    /// (LDP-)ATA-GP-UCB, Algorithm 1.
    Ata,
    /// (LDP-)TGP-UCB, Algorithm 2.
    Tgp,
    /// (LDP-)MoMA-GP-UCB, Algorithm 3.
    Moma,
}

impl Algorithm {
    /// All three, in the paper's order.
    pub const ALL: [Algorithm; 3] = [Self::Ata, Self::Tgp, Self::Moma];

    /// The paper's name in a setting.
    pub fn name(self, setting: Setting) -> &'static str {
        match (self, setting) {
            (Self::Ata, Setting::Ldp { .. }) => "LDP-ATA-GP-UCB",
            (Self::Tgp, Setting::Ldp { .. }) => "LDP-TGP-UCB",
            (Self::Moma, Setting::Ldp { .. }) => "LDP-MoMA-GP-UCB",
            (Self::Ata, Setting::NonPrivate) => "ATA-GP-UCB",
            (Self::Tgp, Setting::NonPrivate) => "TGP-UCB",
            (Self::Moma, Setting::NonPrivate) => "MoMA-GP-UCB",
        }
    }
}

/// The parameters of the three algorithms, built from a named [`Preset`]
/// ([`AlgorithmParams::of`]; `docs/ldp-bo.md`, "Presets"). The horizon `T` is not among them:
/// [`run`] passes `RunConfig::horizon` to the algorithms it builds.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct AlgorithmParams {
    /// (LDP-)TGP-UCB.
    pub tgp: TgpParams,
    /// (LDP-)ATA-GP-UCB.
    pub ata: AtaParams,
    /// (LDP-)MoMA-GP-UCB.
    pub moma: MomaParams,
}

impl Validate for AlgorithmParams {
    type Error = LdpBoError;

    /// Check the parameters of the three algorithms.
    fn check(&self) -> Result<(), LdpBoError> {
        self.tgp.check()?;
        self.ata.check()?;
        self.moma.check()
    }
}

impl AlgorithmParams {
    /// The three algorithms' parameters of `preset`.
    pub fn of(preset: Preset) -> Self {
        Self {
            tgp: TgpParams::of(preset),
            ata: AtaParams::of(preset),
            moma: MomaParams::of(preset),
        }
    }

    /// Check the parameters of the three algorithms.
    ///
    /// Returns the checked value ([`Valid`]), what the constructors work from.
    pub fn validate(&self) -> Result<Valid<Self>, LdpBoError> {
        Valid::new(*self)
    }
}

/// Run `config.n_trials` seeded trials of `algorithm` in `setting` on the instances of
/// `source` (trial `i` seeded from `(config.base_seed, i)`, bit-identical for any thread
/// count).
pub fn run(
    source: &Source,
    setting: Setting,
    algorithm: Algorithm,
    params: &AlgorithmParams,
    config: &RunConfig,
) -> Result<BatchResult, LdpBoError> {
    run_with_sampler(
        source,
        setting,
        algorithm,
        params,
        config,
        Sampler::Hardened,
    )
}

/// [`run`] with CTL(eps)'s Laplace noise drawn by `sampler` ([`Sampler::Hardened`], the
/// default: the exact discrete Laplace on a grid the claim is about; [`Sampler::Textbook`]:
/// the floating-point Laplace at the scale `2(B+R)/eps`, the control). The non-private
/// setting draws no privacy noise, so there the sampler changes nothing.
pub fn run_with_sampler(
    source: &Source,
    setting: Setting,
    algorithm: Algorithm,
    params: &AlgorithmParams,
    config: &RunConfig,
    sampler: Sampler,
) -> Result<BatchResult, LdpBoError> {
    let p = params.validate()?;
    let horizon = config.horizon as u64;
    match setting {
        Setting::Ldp { epsilon } => {
            let ctl = |i: &InstanceInfo| {
                let mechanism = ConvertToLaplace::new(epsilon, i.b, i.r)?.with_sampler(sampler);
                CtlCurator::from_mechanism(mechanism, i.b, i.r)
            };
            match algorithm {
                Algorithm::Ata => batch(source, setting, config, ctl, |i| {
                    AtaGpUcb::private(i.kernel.clone(), i.arms.view(), &ctl(i)?, horizon, p.ata)
                }),
                Algorithm::Tgp => batch(source, setting, config, ctl, |i| {
                    TgpUcb::private(i.kernel.clone(), i.arms.view(), &ctl(i)?, p.tgp)
                }),
                Algorithm::Moma => batch(source, setting, config, ctl, |i| {
                    MomaGpUcb::private(i.kernel.clone(), i.arms.view(), &ctl(i)?, horizon, p.moma)
                }),
            }
        }
        Setting::NonPrivate => {
            let identity = |_: &InstanceInfo| Ok::<_, std::convert::Infallible>(Identity);
            match algorithm {
                Algorithm::Ata => batch(source, setting, config, identity, |i| {
                    AtaGpUcb::heavy_tailed(
                        i.kernel.clone(),
                        i.arms.view(),
                        i.b,
                        i.v,
                        horizon,
                        p.ata,
                    )
                }),
                Algorithm::Tgp => batch(source, setting, config, identity, |i| {
                    TgpUcb::heavy_tailed(i.kernel.clone(), i.arms.view(), i.b, i.alpha, i.v, p.tgp)
                }),
                Algorithm::Moma => batch(source, setting, config, identity, |i| {
                    MomaGpUcb::heavy_tailed(
                        i.kernel.clone(),
                        i.arms.view(),
                        i.b,
                        i.alpha,
                        i.c,
                        horizon,
                        p.moma,
                    )
                }),
            }
        }
    }
}

/// The cumulative-regret curve `R_1, ..., R_T` of one seeded trial (trial 0 of a batch with
/// base seed `seed`): what the regret-scaling checks read their horizons from.
pub fn regret_curve(
    source: &Source,
    setting: Setting,
    algorithm: Algorithm,
    params: &AlgorithmParams,
    horizon: usize,
    seed: u64,
) -> Result<Vec<f64>, LdpBoError> {
    let config = RunConfig::single(horizon, seed);
    let mut batch = run(source, setting, algorithm, params, &config)?;
    Ok(batch.trials.swap_remove(0).cumulative_regret)
}

/// The batch runner with this crate's instances, a curator and an agent built from the
/// instance's [`InstanceInfo`].
fn batch<A, C>(
    source: &Source,
    setting: Setting,
    config: &RunConfig,
    curator: impl Fn(&InstanceInfo) -> Result<C, C::Error> + Sync,
    agent: impl Fn(&InstanceInfo) -> Result<A, LdpBoError> + Sync,
) -> Result<BatchResult, LdpBoError>
where
    C: Curator,
    A: Agent<Message = C::Message, Error = LdpBoError>,
{
    let make_env = |rng: &mut ChaCha20Rng| -> Result<Instance, bandit::BanditError> {
        source.instance(setting, rng).map_err(|e| match e {
            LdpBoError::Bandit(b) => b,
            other => bandit::BanditError::Environment {
                round: None,
                source: Box::new(other),
            },
        })
    };
    Ok(
        Runner::new(*config, make_env, |e: &Instance, _: &mut ChaCha20Rng| {
            agent(&e.info)
        })
        .curator(|e: &Instance, _: &mut ChaCha20Rng| curator(&e.info))
        .trials()?,
    )
}
