//! Poisson-subsampled Gaussian aggregation, as in DP-FedAvg (McMahan et al. 2018) and
//! DP-FTS-DE (Dai, Low & Jaillet 2021), Algorithm 1, lines 6-11.

use crate::claim::NeighbouringRelation;
use ndarray::{Array1, Array2, ArrayView1, ArrayView2, Axis};
use rand::Rng;

use crate::accountant::rdp::subsampled_gaussian_rdp;
use crate::claim::{Guarantee, PrivacyClaim, TrustModel};
use crate::error::{InputError, PrivacyError};
use crate::mechanism::Mechanism;
use crate::params::{NoiseMultiplier, SamplingRate, Sensitivity};
use crate::sampler::{Grid, NoiseSampler, Norm, Sampler};
use serde::{Deserialize, Serialize};
use validation::{finite, non_negative, positive};

/// How the noise of a round is calibrated to the participants' weights: the factor `s(phi)` in
/// the sensitivity `s(phi) S / q` of the joint output (see [`SubsampledGaussian`],
/// "Calibration"). Both profiles are `(q, z)`-subsampled Gaussian rounds with the same claim;
/// they differ in how much noise that claim needs.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WeightCalibration {
    /// The paper's (DP-FTS-DE Sec. 3.3, App. A): `s = phi_max = max_{n,i} phi_n^(i)`. Private;
    /// loose whenever a participant's weights differ across the `P` aggregates.
    #[default]
    PhiMax,
    /// The realised weights: `s = max_n ||phi_n||_2 / sqrt(P)`, the largest L2 norm of a
    /// participant's weight row over `sqrt(P)`. Private with the same claim, and never more
    /// noise than [`WeightCalibration::PhiMax`] (`||phi_n||_2 <= sqrt(P) phi_max`); equal to
    /// it when some participant has the same weight `phi_max` in every aggregate.
    RowNorm,
}

impl WeightCalibration {
    /// The profile's name, as in the claim's description.
    pub fn name(self) -> &'static str {
        match self {
            Self::PhiMax => "phi_max",
            Self::RowNorm => "row_norm",
        }
    }
}

/// Poisson-subsampled Gaussian aggregation of `N` participants' vectors into `P` weighted
/// aggregates (one per sub-region in DP-FTS-DE; `P = 1` is DP-FedAvg).
///
/// One round (Algorithm 1 of DP-FTS-DE): select each participant independently with
/// probability `q` (line 6); clip each selected vector to L2 norm `S / sqrt(P)` (line 9); for
/// each `i`, `omega^(i) = sum_{n selected} (phi_n^(i) / q) omega_hat_n` (line 10) plus
/// `N(0, (z s S / q)^2 I)` (line 11), where `s = phi_max = max_{n,i} phi_n^(i)` in the paper's
/// calibration ([`WeightCalibration`]).
///
/// # Calibration
/// Neighbouring: one participant added or removed (user-level DP), the weights public and
/// fixed by the round (an absent participant is one whose vector is 0). The joint output
/// `(omega^(i))_i` changes, when participant `n` is present, by `(phi_n^(i) omega_hat_n / q)_i`,
/// of L2 norm `||phi_n||_2 ||omega_hat_n|| / q <= ||phi_n||_2 S / (sqrt(P) q)`. The paper
/// bounds `||phi_n||_2 <= sqrt(P) phi_max`, giving `phi_max S / q` (DP-FTS-DE Sec. 3.3 and
/// App. A; McMahan et al. 2018, Lemma 1): [`WeightCalibration::PhiMax`], the default. The
/// bound before that last step, maximised over every participant (selected or not),
/// `max_n ||phi_n||_2 S / (sqrt(P) q)`, is also a sensitivity and never larger:
/// [`WeightCalibration::RowNorm`]. Either way the noise has standard deviation `z` times the
/// sensitivity, so each round is the Poisson-subsampled Gaussian mechanism with sampling rate
/// `q` and noise multiplier `z` (the same claim), accounted by [`crate::accountant`]. Hardened:
/// participants are selected by exact Bernoulli(q) and the noise is the discrete Gaussian on a
/// grid, with the sensitivity inflated by `1 + GRID_SLACK` (noise `z (1 + GRID_SLACK) s S /
/// q`). The
/// integer-order RDP bound of the accountant holds for the discrete Gaussian in the direction
/// `D_alpha(mixture || base)` (each binomial term `E[(mu_1/mu_0)^k] = exp((k-1) D_k)` is at most
/// the continuous one because `D_k` of the discrete Gaussian is at most `k Delta^2 / (2 sigma^2)`);
/// see `docs/privacy.md` for what is and is not proved for the other direction.
#[derive(Debug, Clone, PartialEq)]
pub struct SubsampledGaussian {
    q: SamplingRate,
    clip: f64,
    z: NoiseMultiplier,
    sampler: Sampler,
    calibration: WeightCalibration,
    /// The one-step RDP `eps(alpha)` at [`RDP_ORDERS`], computed once at construction.
    one_step_rdp: Vec<f64>,
}

/// The integer Renyi orders `2..=33` of the claims (the orders DP-FTS-DE accounts at).
const RDP_ORDERS: std::ops::RangeInclusive<u8> = 2..=33;

fn rdp_orders() -> Vec<f64> {
    RDP_ORDERS.map(f64::from).collect()
}

/// The input of one aggregation round (Algorithm 1 of DP-FTS-DE, lines 6-11): the
/// participants' vectors and their weights. Validated at release: equal numbers of rows, at
/// least one participant and one weight column, finite vector entries, finite non-negative
/// weights with a positive maximum.
#[derive(Debug, Clone, PartialEq)]
pub struct Participants {
    /// `N x M`: row `n` is participant `n`'s vector `omega_n`.
    pub vectors: Array2<f64>,
    /// `N x P`: row `n` holds participant `n`'s weights `phi_n^(i)`, `i = 1..P`.
    pub weights: Array2<f64>,
}

/// What one aggregation round releases: the `P` noisy aggregates `omega^(i)` and nothing else
/// (which participants were subsampled stays secret: the privacy amplification by subsampling
/// depends on it). Only [`SubsampledGaussian`] makes one.
#[derive(Debug, Clone, PartialEq)]
pub struct NoisyAggregate {
    vectors: Array2<f64>,
}

impl NoisyAggregate {
    /// `P x M`: row `i` is `omega^(i)`.
    pub fn vectors(&self) -> ArrayView2<'_, f64> {
        self.vectors.view()
    }

    /// The `P x M` aggregates, by value.
    pub fn into_vectors(self) -> Array2<f64> {
        self.vectors
    }
}

/// One aggregation round together with its subsample, for tests and diagnostics. **Not a
/// release**: `selected` is the secret subsample, and publishing it voids the amplification by
/// subsampling that [`SubsampledGaussian::claim`] counts on. Made by
/// [`SubsampledGaussian::aggregate_with_subsample`]; the release is [`NoisyAggregate`].
#[derive(Debug, Clone, PartialEq)]
pub struct AggregateWithSubsample {
    /// `P x M`: row `i` is `omega^(i)` (the same numbers [`SubsampledGaussian::aggregate`]
    /// releases for the same random draws).
    pub vectors: Array2<f64>,
    /// Which participants were selected (secret).
    pub selected: Vec<bool>,
    /// The noise standard deviation used.
    pub sigma: f64,
}

impl SubsampledGaussian {
    /// Sampling rate `q` in (0, 1], clipping threshold `S > 0`, noise multiplier `z > 0`;
    /// hardened sampler. Also an error when the one-step RDP curve of the claim is not finite
    /// at every order `2..=33` (a noise multiplier so small that no claim can be stated).
    pub fn new(q: f64, clip: f64, noise_multiplier: f64) -> Result<Self, PrivacyError> {
        let q = SamplingRate::new(q)?;
        let clip = Sensitivity::positive(clip)?.get();
        let z = NoiseMultiplier::new(noise_multiplier)?;
        let orders = rdp_orders();
        let one_step_rdp = subsampled_gaussian_rdp(q.get(), z.get(), &orders)?;
        // Validates the curve (finite, >= 0) once, so that the one-step claim cannot fail.
        Guarantee::rdp_curve(orders, one_step_rdp.clone())?;
        Ok(Self {
            q,
            clip,
            z,
            sampler: Sampler::Hardened,
            calibration: WeightCalibration::PhiMax,
            one_step_rdp,
        })
    }

    /// Use another sampler.
    pub fn with_sampler(mut self, sampler: Sampler) -> Self {
        self.sampler = sampler;
        self
    }

    /// The sampler in use.
    pub fn sampler(&self) -> Sampler {
        self.sampler
    }

    /// Calibrate the noise by another [`WeightCalibration`] (the claim is the same).
    pub fn with_calibration(mut self, calibration: WeightCalibration) -> Self {
        self.calibration = calibration;
        self
    }

    /// The calibration in use.
    pub fn calibration(&self) -> WeightCalibration {
        self.calibration
    }

    /// The calibration's weight factor `s(phi)` of `N x P` weights (rows are participants):
    /// `phi_max`, or `max_n ||phi_n||_2 / sqrt(P)` ([`WeightCalibration`]). For weights a
    /// release accepts (finite, non-negative, positive maximum; a release checks them).
    pub fn weight_scale(&self, weights: ArrayView2<'_, f64>) -> f64 {
        let phi_max = weights.iter().fold(0.0f64, |m, &w| m.max(w));
        self.scale_of(weights, phi_max)
    }

    fn scale_of(&self, weights: ArrayView2<'_, f64>, phi_max: f64) -> f64 {
        match self.calibration {
            WeightCalibration::PhiMax => phi_max,
            WeightCalibration::RowNorm => {
                let p = weights.ncols().max(1) as f64;
                let row = weights
                    .rows()
                    .into_iter()
                    .map(|r| r.dot(&r).sqrt())
                    .fold(0.0f64, f64::max);
                // Never above phi_max, also after rounding (the bound is ||phi_n|| <= sqrt(P) phi_max).
                (row / p.sqrt()).min(phi_max)
            }
        }
    }

    /// The sampling rate.
    pub fn q(&self) -> f64 {
        self.q.get()
    }

    /// The noise multiplier.
    pub fn noise_multiplier(&self) -> f64 {
        self.z.get()
    }

    /// The L2 sensitivity of the joint output, `s S / q`, for the weight factor `s`
    /// ([`Self::weight_scale`]; `phi_max` in the paper's calibration).
    pub fn sensitivity(&self, scale: f64) -> f64 {
        scale * self.clip / self.q.get()
    }

    /// The noise standard deviation `z s S / q` for the weight factor `s` (times
    /// `1 + GRID_SLACK` when hardened).
    pub fn sigma(&self, scale: f64) -> f64 {
        self.z.get() * self.sensitivity(scale) * self.sampler.sensitivity_factor()
    }

    /// The claim of one round ([`Mechanism::claim`]): the RDP curve of the Poisson-subsampled
    /// Gaussian at the paper's integer orders 2..=33. Equal to `composed_claim(1)`.
    pub fn claim(&self) -> PrivacyClaim {
        // The curve was validated at construction (finite, >= 0, one value per order).
        self.claim_from(
            1.0,
            Guarantee::RdpCurve {
                orders: rdp_orders(),
                epsilons: self.one_step_rdp.clone(),
            },
        )
    }

    /// The claim for `steps >= 1` rounds: the one-round RDP curve times `steps` (RDP composes
    /// additively at each order, Mironov 2017, Prop. 1).
    pub fn composed_claim(&self, steps: u64) -> Result<PrivacyClaim, PrivacyError> {
        let steps = validation::at_least_one("steps", steps)? as f64;
        let eps: Vec<f64> = self.one_step_rdp.iter().map(|e| e * steps).collect();
        Ok(self.claim_from(steps, Guarantee::rdp_curve(rdp_orders(), eps)?))
    }

    fn claim_from(&self, steps: f64, guarantee: Guarantee) -> PrivacyClaim {
        // The paper's calibration keeps the description it always had.
        let calibration = match self.calibration {
            WeightCalibration::PhiMax => String::new(),
            c => format!(", calibration={}", c.name()),
        };
        PrivacyClaim::new(
            format!(
                "subsampled_gaussian(q={}, z={}, S={}, steps={steps}, sampler={}{calibration})",
                self.q,
                self.z,
                self.clip,
                self.sampler.name()
            ),
            guarantee,
            TrustModel::Central,
            NeighbouringRelation::AddRemove,
            "one participant added or removed (user-level)",
        )
    }

    fn check(
        &self,
        vectors: ArrayView2<'_, f64>,
        weights: ArrayView2<'_, f64>,
    ) -> Result<f64, PrivacyError> {
        if vectors.nrows() != weights.nrows() {
            return Err(PrivacyError::Input(InputError::DimensionMismatch {
                context: "weights per participant",
                expected: vectors.nrows(),
                got: weights.nrows(),
            }));
        }
        if weights.ncols() == 0 {
            return Err(PrivacyError::Input(InputError::Empty {
                what: "weight columns (sub-regions)",
            }));
        }
        if vectors.nrows() == 0 {
            return Err(PrivacyError::Input(InputError::Empty {
                what: "participants",
            }));
        }
        for &v in vectors {
            finite("participant vector entry", v)?;
        }
        let mut phi_max: f64 = 0.0;
        for &w in weights {
            non_negative("weight", w)?;
            phi_max = phi_max.max(w);
        }
        positive("max weight", phi_max)?;
        Ok(phi_max)
    }

    /// The clipping threshold `S`.
    pub fn clip(&self) -> f64 {
        self.clip
    }

    /// The per-vector clipping bound `S / sqrt(P)` for `P` sub-regions (line 9).
    pub fn clip_bound(&self, p: usize) -> f64 {
        self.clip / (p.max(1) as f64).sqrt()
    }

    /// `omega_hat = omega / max(1, ||omega||_2 / (S / sqrt(P)))` (line 9).
    pub fn clip_vector(&self, v: ArrayView1<'_, f64>, p: usize) -> Array1<f64> {
        let bound = self.clip_bound(p);
        let norm = v.dot(&v).sqrt();
        let f = (norm / bound).max(1.0);
        v.mapv(|x| x / f)
    }

    /// The deterministic part with the selection and the noise passed in: `vectors` is
    /// `N x M` (row n = participant n), `weights` `N x P`, `noise` `P x M`.
    pub fn aggregate_with(
        &self,
        vectors: ArrayView2<'_, f64>,
        weights: ArrayView2<'_, f64>,
        selected: &[bool],
        noise: ArrayView2<'_, f64>,
    ) -> Result<Array2<f64>, PrivacyError> {
        self.check(vectors, weights)?;
        let (p, m) = (weights.ncols(), vectors.ncols());
        if selected.len() != vectors.nrows() {
            return Err(PrivacyError::Input(InputError::DimensionMismatch {
                context: "selection per participant",
                expected: vectors.nrows(),
                got: selected.len(),
            }));
        }
        if noise.dim() != (p, m) {
            return Err(PrivacyError::Input(InputError::DimensionMismatch {
                context: "noise rows x columns",
                expected: p * m,
                got: noise.len(),
            }));
        }
        let mut out = Array2::zeros((p, m));
        for (n, row) in vectors.axis_iter(Axis(0)).enumerate() {
            if !selected[n] {
                continue;
            }
            let c = self.clip_vector(row, p);
            for i in 0..p {
                let w = weights[[n, i]] / self.q.get();
                out.row_mut(i).scaled_add(w, &c);
            }
        }
        for &x in noise {
            finite("noise", x)?;
        }
        Ok(out + noise)
    }

    /// One round (the release, the same as [`Mechanism::release`]): select, clip, weight, add
    /// noise; `vectors` is `N x M` (row n = participant n), `weights` `N x P`.
    pub fn aggregate<R: Rng + ?Sized>(
        &self,
        vectors: ArrayView2<'_, f64>,
        weights: ArrayView2<'_, f64>,
        rng: &mut R,
    ) -> Result<NoisyAggregate, PrivacyError> {
        let a = self.aggregate_with_subsample(vectors, weights, rng)?;
        Ok(NoisyAggregate { vectors: a.vectors })
    }

    /// One round as [`SubsampledGaussian::aggregate`] (the same random draws, the same
    /// aggregates), also returning the secret subsample and the noise level: for tests and
    /// diagnostics only, **not a release** (see [`AggregateWithSubsample`]).
    pub fn aggregate_with_subsample<R: Rng + ?Sized>(
        &self,
        vectors: ArrayView2<'_, f64>,
        weights: ArrayView2<'_, f64>,
        rng: &mut R,
    ) -> Result<AggregateWithSubsample, PrivacyError> {
        let phi_max = self.check(vectors, weights)?;
        let (p, m) = (weights.ncols(), vectors.ncols());
        let selected: Vec<bool> = (0..vectors.nrows())
            .map(|_| self.sampler.bernoulli(self.q.get(), rng))
            .collect::<Result<_, _>>()?;
        let exact =
            self.aggregate_with(vectors, weights, &selected, Array2::zeros((p, m)).view())?;
        let scale = self.scale_of(weights, phi_max);
        let sigma = self.sigma(scale);
        let grid = Grid::for_sensitivity(self.sensitivity(scale), p * m, Norm::L2)?;
        let mut out = Array2::zeros((p, m));
        for (o, &x) in out.iter_mut().zip(exact.iter()) {
            *o = self.sampler.perturb_gaussian(x, sigma, grid, rng)?;
        }
        Ok(AggregateWithSubsample {
            vectors: out,
            selected,
            sigma,
        })
    }
}

/// Input: the participants' vectors and weights of one round ([`Participants`]); output: the
/// `P` noisy aggregates only ([`NoisyAggregate`], the subsample stays secret), by
/// [`SubsampledGaussian::aggregate`]. Claim: one round, [`SubsampledGaussian::claim`]; `T`
/// rounds compose to [`SubsampledGaussian::composed_claim`].
impl Mechanism for SubsampledGaussian {
    type Input = Participants;
    type Output = NoisyAggregate;

    fn claim(&self) -> PrivacyClaim {
        SubsampledGaussian::claim(self)
    }

    fn release<R: Rng + ?Sized>(
        &self,
        input: &Participants,
        rng: &mut R,
    ) -> Result<NoisyAggregate, PrivacyError> {
        self.aggregate(input.vectors.view(), input.weights.view(), rng)
    }
}

#[cfg(test)]
mod tests {
    use super::{SubsampledGaussian, WeightCalibration};
    use crate::Sampler;
    use crate::sampler::{GRID_SLACK, Grid, Norm};
    use ndarray::{Array2, array};
    use rand::SeedableRng;

    #[test]
    fn the_parameters_and_the_noise_scale_are_the_ones_given() {
        let m = SubsampledGaussian::new(0.25, 3.0, 1.5).unwrap();
        assert_eq!(m.sampler(), Sampler::Hardened);
        assert_eq!(m.calibration(), WeightCalibration::PhiMax);
        approx::assert_relative_eq!(m.q(), 0.25);
        approx::assert_relative_eq!(m.clip(), 3.0);
        approx::assert_relative_eq!(m.noise_multiplier(), 1.5);
        // sigma = z s S / q (1 + 2^-20) at s = 0.5: 1.5 * 0.5 * 3 / 0.25 (1 + 2^-20).
        approx::assert_relative_eq!(m.sensitivity(0.5), 6.0, max_relative = 1e-15);
        approx::assert_relative_eq!(m.sigma(0.5), 9.0 * (1.0 + GRID_SLACK), max_relative = 1e-15);
        approx::assert_relative_eq!(m.clip_bound(4), 1.5, max_relative = 1e-15);
        let m = m
            .with_sampler(Sampler::Textbook)
            .with_calibration(WeightCalibration::RowNorm);
        assert_eq!(m.sampler(), Sampler::Textbook);
        assert_eq!(m.calibration(), WeightCalibration::RowNorm);
        approx::assert_relative_eq!(m.sigma(0.5), 9.0, max_relative = 1e-15);
    }

    #[test]
    fn the_aggregate_is_the_weighted_sum_of_the_clipped_selected_vectors_plus_noise() {
        // q = 1/2, S = 2, P = 1 (bound S / sqrt(P) = 2): row 0 (3, 4) is clipped to
        // (1.2, 1.6), row 1 is not selected, row 2 (1, 0) is inside the bound.
        let m = SubsampledGaussian::new(0.5, 2.0, 1.0).unwrap();
        let vectors = array![[3.0, 4.0], [10.0, 10.0], [1.0, 0.0]];
        let weights = array![[0.5], [0.25], [1.0]];
        let noise = array![[0.125, -0.25]];
        let out = m
            .aggregate_with(
                vectors.view(),
                weights.view(),
                &[true, false, true],
                noise.view(),
            )
            .unwrap();
        // (0.5 / 0.5) (1.2, 1.6) + (1 / 0.5) (1, 0) + noise = (3.325, 1.35).
        approx::assert_relative_eq!(out[[0, 0]], 3.325, max_relative = 1e-15);
        approx::assert_relative_eq!(out[[0, 1]], 1.35, max_relative = 1e-15);
    }

    #[test]
    #[allow(clippy::float_cmp)] // grid units are exact integers
    fn the_release_lies_on_the_grid_of_all_its_coordinates() {
        // P = 8 aggregates of M = 8 coordinates: the grid is the one for 64 coordinates in
        // L2, width 2^k <= 2^-20 sensitivity / 8; not the coarser one of fewer coordinates
        // (some release is an odd multiple of the width). P + M = 16 coordinates would give a
        // grid exactly twice as coarse (at P = 2, M = 3, P + M = 5 gives the same grid as 6).
        let m = SubsampledGaussian::new(1.0, 1.0, 1.0).unwrap();
        let vectors = Array2::from_shape_fn((2, 8), |(i, j)| 0.1 * ((i + j) % 3) as f64);
        let weights =
            Array2::from_shape_fn((2, 8), |(i, j)| if (i + j) % 2 == 0 { 1.0 } else { 0.5 });
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(29);
        let a = m
            .aggregate_with_subsample(vectors.view(), weights.view(), &mut rng)
            .unwrap();
        let width = Grid::for_sensitivity(m.sensitivity(1.0), 64, Norm::L2)
            .unwrap()
            .width();
        let units: Vec<f64> = a.vectors.iter().map(|x| x / width).collect();
        assert!(units.iter().all(|u| u.fract() == 0.0), "{units:?}");
        assert!(units.iter().any(|u| u.rem_euclid(2.0) == 1.0), "{units:?}");
    }
}
