//! Spectral bounds on the noise (Definition 3): `lambda_min`, `lambda_max` and `kappa` with the
//! PSD shift of Shariff & Sheffet (2018), for the tree-based noise of Algorithm 2 (Lemma 3) and
//! the per-client noise of Algorithm 3 (Lemma 6).
//!
//! The server sees `Sigma~_t = Sigma_t + H_t` with `H_t = N_t + shift I`, where `N_t` is the
//! symmetric noise the mechanism added (a sum of tree nodes, or of client noises) and the shift
//! is added to the **diagonal only**, as in Shariff & Sheffet (2018), Section 4.2. With
//! probability at least `1 - zeta/2` over all rounds, `||N_t||_2 <= Upsilon` and
//! `||h_t||_2 <= h_norm`; with `shift = 2 Upsilon` this gives `Upsilon I <= H_t <= 3 Upsilon I`,
//! i.e. `lambda_min = Upsilon`, `lambda_max = 3 Upsilon`, and `||h_t||_{H_t^-1} <= kappa =
//! h_norm / sqrt(lambda_min)`.

use privacy::mechanisms::matrix::spectral_bound;
use serde::Serialize;
use validation::{at_least_one, open_unit, positive};

use crate::calibration::{JdpCalibration, LocalCalibration};
use crate::error::JdpQffError;

/// Which high-probability bound on `||N_t||_2` and `||h_t||_2` sets `Upsilon`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SpectrumRule {
    /// The paper's constants: Lemma 3 (JDP) as stated, `Upsilon = sigma sqrt(2n) (4 sqrt(m) +
    /// 2 ln(2T/zeta))`, `kappa = sigma sqrt(n / Upsilon) (sqrt(m) + sqrt(2 ln(2T/zeta)))`
    /// (`n = 1 + ceil(log2 T)`); Lemma 6 (local) with its `Upsilon = sigma_X sqrt(T) (4 sqrt(m) +
    /// 2 ln(2T/zeta))` and a repaired `kappa`: `h_norm = sigma_u sqrt(T) (sqrt(m) +
    /// sqrt(2 ln(2T/zeta)))`, the norm bound of a sum of `t <= T` sub-Gaussian client noises at
    /// the lemma's `(zeta / 2T)` per round, instead of the statement's `kappa = sigma_u
    /// sqrt(m T / Lambda)`, which is not a bound when `sigma_X < 1` ([`Spectrum::lemma6_printed_kappa`],
    /// erratum 9 of the crate docs).
    #[default]
    Paper,
    /// Derived here: the matrix Gaussian series bound (Tropp 2015, Thm 4.1.1;
    /// [`spectral_bound`]) `Upsilon = s sqrt(2 k m ln(8 m T / zeta))` for a sum of `k` symmetric
    /// `m x m` noises of entry scale `s`, and the norm bound of a sub-Gaussian vector
    /// (Hsu, Kakade & Zhang 2012, Thm 1) `h_norm = s_h sqrt(k) (sqrt(m) + sqrt(2 ln(4T/zeta)))`,
    /// each with probability `1 - zeta/4` over all `T` rounds.
    Derived,
}

/// `(shift, lambda_min, lambda_max, h_norm)` of Definition 3 for one noise model.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Spectrum {
    /// The diagonal shift added to every released `Sigma~_t` (`2 Upsilon`).
    pub shift: f64,
    /// `lambda_min` (`Upsilon`): `H_t >= lambda_min I`.
    pub lambda_min: f64,
    /// `lambda_max` (`3 Upsilon`): `H_t <= lambda_max I`.
    pub lambda_max: f64,
    /// The bound on `||h_t||_2`.
    pub h_norm: f64,
}

impl Spectrum {
    /// No noise (the non-private algorithm): every bound 0, no shift.
    pub fn none() -> Self {
        Self {
            shift: 0.0,
            lambda_min: 0.0,
            lambda_max: 0.0,
            h_norm: 0.0,
        }
    }

    /// `kappa = h_norm / sqrt(lambda_min)` (0 without noise), Lemmas 3 and 6.
    pub fn kappa(&self) -> f64 {
        if self.h_norm == 0.0 {
            0.0
        } else {
            self.h_norm / self.lambda_min.sqrt()
        }
    }

    /// Lemma 3: the spectrum of the tree-based noise for `m` features over `T` rounds at
    /// confidence `zeta` in `(0, 1)`. Each released prefix is a sum of at most `L` nodes (the
    /// paper's `n = 1 + ceil(log2 T)` for [`SpectrumRule::Paper`], `L = floor(log2 T) + 1` for
    /// [`SpectrumRule::Derived`]).
    pub fn jdp(
        calibration: &JdpCalibration,
        m: usize,
        zeta: f64,
        rule: SpectrumRule,
    ) -> Result<Self, JdpQffError> {
        let t = calibration.horizon();
        match rule {
            SpectrumRule::Paper => {
                let n = 1.0 + f64::from(crate::calibration::ceil_log2(t)?);
                let (s, m, zeta) = checked(calibration.sigma(), m, zeta)?;
                let l = (2.0 * t as f64 / zeta).ln();
                let upsilon = s * (2.0 * n).sqrt() * (4.0 * m.sqrt() + 2.0 * l);
                Ok(Self::shifted(
                    upsilon,
                    s * n.sqrt() * (m.sqrt() + (2.0 * l).sqrt()),
                ))
            }
            SpectrumRule::Derived => derived(
                calibration.sigma(),
                calibration.sigma(),
                calibration.levels(),
                m,
                t,
                zeta,
            ),
        }
    }

    /// Lemma 6: the spectrum of the summed client noises of Algorithm 3 (at most `T` of them).
    pub fn local(
        calibration: &LocalCalibration,
        m: usize,
        horizon: u64,
        zeta: f64,
        rule: SpectrumRule,
    ) -> Result<Self, JdpQffError> {
        let t = at_least_one("horizon T", horizon)?;
        match rule {
            SpectrumRule::Paper => {
                let (sx, mf, zeta) = checked(calibration.sigma_x(), m, zeta)?;
                let su = positive("noise standard deviation", calibration.sigma_u())?;
                let tf = t as f64;
                let l = (2.0 * tf / zeta).ln();
                let upsilon = sx * tf.sqrt() * (4.0 * mf.sqrt() + 2.0 * l);
                // h_t is a sum of t <= T independent client noises, each with i.i.d.
                // sigma_u-sub-Gaussian coordinates (the exact discrete Gaussian is), so
                // ||h_t|| <= sigma_u sqrt(t) (sqrt(m) + sqrt(2 ln(1/delta))) with probability
                // >= 1 - delta (Hsu, Kakade & Zhang 2012, Thm 1); delta = zeta / 2T per round.
                Ok(Self::shifted(
                    upsilon,
                    su * tf.sqrt() * (mf.sqrt() + (2.0 * l).sqrt()),
                ))
            }
            SpectrumRule::Derived => derived(
                calibration.sigma_x(),
                calibration.sigma_u(),
                usize::try_from(t).unwrap_or(usize::MAX),
                m,
                t,
                zeta,
            ),
        }
    }

    /// Lemma 6's `kappa` as printed, `sigma_u sqrt(m T / Lambda)` with `Lambda = sqrt(T)
    /// (4 sqrt(m) + 2 ln(2T/zeta))` and `lambda_min = sigma_X Lambda`: the `kappa = h_norm /
    /// sqrt(lambda_min)` of an `h_norm = sigma_u sqrt(m T sigma_X)`, below the typical
    /// `||h_T|| ~ sigma_u sqrt(m T)` whenever `sigma_X < 1` (the paper's proof sketch bounds
    /// `||h_t|| <= sigma_u sqrt(m T)` and then divides by `sqrt(Lambda)` instead of
    /// `sqrt(sigma_X Lambda)`). Reported for comparison and used by the control that shows the
    /// local spectrum check rejects it; never used by the algorithm.
    pub fn lemma6_printed_kappa(
        calibration: &LocalCalibration,
        m: usize,
        horizon: u64,
        zeta: f64,
    ) -> Result<f64, JdpQffError> {
        let t = at_least_one("horizon T", horizon)? as f64;
        let (_, mf, zeta) = checked(calibration.sigma_x(), m, zeta)?;
        let lambda = t.sqrt() * (4.0 * mf.sqrt() + 2.0 * (2.0 * t / zeta).ln());
        Ok(calibration.sigma_u() * (mf * t / lambda).sqrt())
    }

    fn shifted(upsilon: f64, h_norm: f64) -> Self {
        Self {
            shift: 2.0 * upsilon,
            lambda_min: upsilon,
            lambda_max: 3.0 * upsilon,
            h_norm,
        }
    }
}

fn checked(sigma: f64, m: usize, zeta: f64) -> Result<(f64, f64, f64), JdpQffError> {
    positive("noise standard deviation", sigma)?;
    at_least_one("feature dimension m", m)?;
    open_unit("confidence zeta", zeta)?;
    Ok((sigma, m as f64, zeta))
}

/// [`SpectrumRule::Derived`] for a sum of at most `k` noises (matrix scale `s_n`, vector scale
/// `s_h`) over `T` rounds, each event with probability `1 - zeta/4`.
fn derived(
    s_n: f64,
    s_h: f64,
    k: usize,
    m: usize,
    t: u64,
    zeta: f64,
) -> Result<Spectrum, JdpQffError> {
    let (s_n, mf, zeta) = checked(s_n, m, zeta)?;
    positive("noise standard deviation", s_h)?;
    let upsilon = spectral_bound(s_n, m, k, t, zeta / 4.0)?;
    let h_norm =
        s_h * (k as f64).sqrt() * (mf.sqrt() + (2.0 * (4.0 * t as f64 / zeta).ln()).sqrt());
    Ok(Spectrum::shifted(upsilon, h_norm))
}
