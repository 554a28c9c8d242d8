//! GP Thompson sampling (Chowdhury & Gopalan 2017, GP-TS, Algorithm 2).

use kernel::linalg::psd_sqrt;
use kernel::{ExactGp, Kernel};
use ndarray::{Array1, ArrayView2};
use rand::Rng;
use rand_distr::{Distribution, StandardNormal};

use super::gp_ucb::{GammaSource, IgpUcbParams};
use crate::agent::Agent;
use crate::error::BanditError;
use crate::policy::{Pending, Reselect, argmax, finite_message, validate_decision_set};

/// GP-TS on a finite decision set: sample `f_t ~ N(mu_{t-1}, v_t^2 Sigma_{t-1})` jointly over
/// the `n` candidates and play its argmax, with
/// `v_t = B + R sqrt(2 (gamma_{t-1} + 1 + ln(2/delta)))` (Chowdhury & Gopalan 2017, Sec. 3.2)
/// and the posterior of regulariser `lambda = 1 + eta` (same [`IgpUcbParams`] as GP-UCB).
///
/// The joint draw is `mu + v_t S z` with `S = Sigma^{1/2}` the symmetric PSD square root
/// (`kernel::linalg::psd_sqrt`, an eigendecomposition: exact for the rank-deficient posterior
/// covariances of smooth kernels, where a Cholesky factor would need jitter) and `z` `n`
/// standard normals. Cost O(n^3) per round. The argmax is [`crate::policy::argmax`] (exact
/// ties, which a continuous sample has with probability 0, are broken uniformly at random).
#[derive(Debug, Clone)]
pub struct GpThompson<K: Kernel> {
    params: IgpUcbParams,
    gp: ExactGp<K>,
    last: Pending<Array1<f64>>,
}

impl<K: Kernel> GpThompson<K> {
    /// A fresh agent (the GP prior) with kernel `kernel`.
    ///
    /// `horizon` is `T`, which sets `eta = 2/T` unless `params.eta` overrides it.
    pub fn new(kernel: K, horizon: usize, params: IgpUcbParams) -> Result<Self, BanditError> {
        params.validate()?;
        let gp = ExactGp::new(kernel, params.lambda_for(horizon)?)?;
        Ok(Self {
            params,
            gp,
            last: Pending::new(Reselect::Replace),
        })
    }

    /// The current posterior.
    pub fn posterior(&self) -> &ExactGp<K> {
        &self.gp
    }

    fn gamma(&self) -> f64 {
        match self.params.gamma {
            GammaSource::Realised => self.gp.information_gain(),
            GammaSource::Fixed(g) => g,
        }
    }
}

impl<K: Kernel> Agent for GpThompson<K> {
    type Message = f64;
    type Error = BanditError;

    fn select<R: Rng + ?Sized>(
        &mut self,
        decision_set: ArrayView2<'_, f64>,
        rng: &mut R,
    ) -> Result<usize, BanditError> {
        validate_decision_set(decision_set)?;
        let n = decision_set.nrows();
        let (mean, cov) = self.gp.predict_cov(decision_set)?;
        let sym = (&cov + &cov.t()) * 0.5;
        let s = psd_sqrt("GP-TS posterior covariance", sym.view())?;
        let v = self.params.width(self.gamma(), 2.0);
        let z: Array1<f64> = (0..n).map(|_| StandardNormal.sample(rng)).collect();
        let sample = mean + s.dot(&z) * v;
        let a = argmax(sample.view(), rng)?;
        self.last.store(decision_set.row(a).to_owned())?;
        Ok(a)
    }

    fn observe(&mut self, reward: f64) -> Result<(), BanditError> {
        let x = self.last.take()?;
        self.gp.observe(x.view(), finite_message(reward)?)?;
        Ok(())
    }
}
