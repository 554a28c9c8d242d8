//! The parameter schedules of the three algorithms, as the theorems of Zhou & Tan 2021 state
//! them (and, for the non-private TGP-UCB, as derived in `docs/ldp-bo.md`).
//!
//! Every function here is the plain formula; the algorithms multiply the confidence widths by
//! a documented scale (see `docs/ldp-bo.md`, "Presets").

use crate::error::LdpBoError;
use validation::{Interval, at_least_one, finite, in_range, non_negative, open_unit, positive};

/// The Laplace scale of the CTL(eps) curator, `L = 2 (B + R) / eps` (Curator 1).
pub fn ctl_scale(b: f64, r: f64, epsilon: f64) -> Result<f64, LdpBoError> {
    positive("B", b)?;
    non_negative("R", r)?;
    positive("epsilon", epsilon)?;
    Ok(2.0 * (b + r) / epsilon)
}

/// `ln(max(x, 1))`: the convention that makes `ln(t - 1)` defined at `t = 1` (Algorithm 2,
/// lines 4-5, are undefined there; `docs/ldp-bo.md`, "Deviations and errata").
pub fn ln_at_least_one(x: f64) -> f64 {
    x.max(1.0).ln()
}

/// The schedule of LDP-TGP-UCB (Algorithm 2).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TgpSchedule {
    /// RKHS norm bound `B`.
    pub b: f64,
    /// Noise bound `R`.
    pub r: f64,
    /// CTL Laplace scale `L = 2 (B + R) / eps`.
    pub laplace_scale: f64,
    /// Regulariser `lambda`.
    pub lambda: f64,
    /// Confidence `delta`.
    pub delta: f64,
}

impl TgpSchedule {
    /// Validated schedule.
    pub fn new(b: f64, r: f64, epsilon: f64, lambda: f64, delta: f64) -> Result<Self, LdpBoError> {
        Self::from_laplace_scale(b, r, ctl_scale(b, r, epsilon)?, lambda, delta)
    }

    /// Validated schedule for a curator whose actual Laplace scale is `laplace_scale` (the
    /// hardened sampler's scale is `2(B+R)/eps` times a grid factor slightly above 1).
    pub fn from_laplace_scale(
        b: f64,
        r: f64,
        laplace_scale: f64,
        lambda: f64,
        delta: f64,
    ) -> Result<Self, LdpBoError> {
        positive("B", b)?;
        non_negative("R", r)?;
        positive("Laplace scale", laplace_scale)?;
        positive("lambda", lambda)?;
        open_unit("delta", delta)?;
        Ok(Self {
            b,
            r,
            laplace_scale,
            lambda,
            delta,
        })
    }

    /// Line 2: `K = B^2 + R^2 + 2 L^2`.
    pub fn k_constant(&self) -> f64 {
        self.b * self.b + self.r * self.r + 2.0 * self.laplace_scale * self.laplace_scale
    }

    /// Line 4: the truncation point `b_t = B + R + L ln(t)`, with `ln(max(t, 1))` so that
    /// `b_0 = B + R`.
    pub fn truncation(&self, t: u64) -> f64 {
        self.b + self.r + self.laplace_scale * ln_at_least_one(t as f64)
    }

    /// Line 5: `beta_t = B + 2 sqrt(2/lambda) b_{t-1} sqrt(gamma_{t-1} + ln(1/delta))
    /// + sqrt(K (ln(t-1) + 1) / lambda)`, for `t >= 1`, with `ln(max(t-1, 1))`.
    pub fn beta(&self, t: u64, gamma_prev: f64) -> f64 {
        let tm1 = t.saturating_sub(1);
        self.b
            + 2.0
                * (2.0 / self.lambda).sqrt()
                * self.truncation(tm1)
                * (gamma_prev + (1.0 / self.delta).ln()).sqrt()
            + (self.k_constant() * (ln_at_least_one(tm1 as f64) + 1.0) / self.lambda).sqrt()
    }
}

/// The schedule of the non-private TGP-UCB (Chowdhury & Gopalan 2019) for rewards with
/// `E|y|^(1+alpha) <= v`, derived in `docs/ldp-bo.md` with the argument of the proof of
/// Theorem 3: truncation point `b_t = v^(1/(1+a)) t^(1/(2(1+a)))` and width
/// `beta_t = B + 2 sqrt(2/lambda) b_{t-1} sqrt(gamma_{t-1} + ln(1/delta))
/// + sqrt((1+a)/lambda) v^(1/(1+a)) (t-1)^(1/(2(1+a)))`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HeavyTailTgpSchedule {
    /// RKHS norm bound `B`.
    pub b: f64,
    /// Moment bound `v`.
    pub v: f64,
    /// Moment order `alpha` in (0, 1].
    pub alpha: f64,
    /// Regulariser `lambda`.
    pub lambda: f64,
    /// Confidence `delta`.
    pub delta: f64,
}

impl HeavyTailTgpSchedule {
    /// Validated schedule.
    pub fn new(b: f64, v: f64, alpha: f64, lambda: f64, delta: f64) -> Result<Self, LdpBoError> {
        positive("B", b)?;
        positive("v", v)?;
        validate_alpha(alpha)?;
        positive("lambda", lambda)?;
        open_unit("delta", delta)?;
        Ok(Self {
            b,
            v,
            alpha,
            lambda,
            delta,
        })
    }

    /// `b_t = v^(1/(1+a)) max(t,1)^(1/(2(1+a)))`.
    pub fn truncation(&self, t: u64) -> f64 {
        let a = self.alpha;
        self.v.powf(1.0 / (1.0 + a)) * (t.max(1) as f64).powf(1.0 / (2.0 * (1.0 + a)))
    }

    /// `beta_t` for `t >= 1`.
    pub fn beta(&self, t: u64, gamma_prev: f64) -> f64 {
        let a = self.alpha;
        let tm1 = t.saturating_sub(1);
        self.b
            + 2.0
                * (2.0 / self.lambda).sqrt()
                * self.truncation(tm1)
                * (gamma_prev + (1.0 / self.delta).ln()).sqrt()
            + ((1.0 + a) / self.lambda).sqrt()
                * self.v.powf(1.0 / (1.0 + a))
                * (tm1 as f64).powf(1.0 / (2.0 * (1.0 + a)))
    }
}

fn validate_alpha(alpha: f64) -> Result<f64, LdpBoError> {
    Ok(in_range("alpha", alpha, Interval::open_closed(0.0, 1.0))?)
}

/// The Nyström accuracy constants shared by ATA and MoMA (Theorem 2, Theorem 4):
/// `rho = (1 + e) / (1 - e)` and `q = 6 rho ln(4T/delta) / e^2` for the accuracy `e` in (0, 1).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NystromAccuracy {
    /// The accuracy `e` (the paper's varepsilon) in (0, 1).
    pub accuracy: f64,
}

impl NystromAccuracy {
    /// Validated accuracy.
    pub fn new(accuracy: f64) -> Result<Self, LdpBoError> {
        Ok(Self {
            accuracy: open_unit("Nystrom accuracy", accuracy)?,
        })
    }

    /// `rho = (1 + e)/(1 - e)`.
    pub fn rho(&self) -> f64 {
        (1.0 + self.accuracy) / (1.0 - self.accuracy)
    }

    /// `q = 6 rho ln(4T/delta) / e^2` (Theorem 2 and Theorem 4).
    pub fn q(&self, horizon: u64, delta: f64) -> f64 {
        6.0 * self.rho() * (4.0 * horizon as f64 / delta).ln() / (self.accuracy * self.accuracy)
    }

    /// The bias term of the widths: `B (1 + 1/sqrt(1 - e))`.
    pub fn bias_width(&self, b: f64) -> f64 {
        b * (1.0 + 1.0 / (1.0 - self.accuracy).sqrt())
    }
}

/// The schedule of (LDP-)ATA-GP-UCB, Theorem 2 (`alpha = 1`):
/// `b_t = sqrt(v / ln(4 m_t T/delta))`,
/// `beta_{t+1} = B (1 + 1/sqrt(1-e)) + 4 sqrt(ln(4 m_t T/delta) v m_t / lambda)`.
///
/// For LDP-ATA-GP-UCB, `v = B^2 + R^2 + 8 (B+R)^2 / eps^2` ([`ata_private_v`]); for the
/// non-private ATA-GP-UCB, `v` bounds the second moment of the reward (the paper's `B^2 + 3`
/// for Student-t(3) noise).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AtaSchedule {
    /// RKHS norm bound `B`.
    pub b: f64,
    /// Second-moment bound `v`.
    pub v: f64,
    /// Regulariser `lambda`.
    pub lambda: f64,
    /// Confidence `delta`.
    pub delta: f64,
    /// Horizon `T`.
    pub horizon: u64,
    /// Nyström accuracy.
    pub accuracy: NystromAccuracy,
}

/// `v = B^2 + R^2 + 8 (B + R)^2 / eps^2` (Theorem 2): the second moment of a CTL(eps) reward.
pub fn ata_private_v(b: f64, r: f64, epsilon: f64) -> Result<f64, LdpBoError> {
    let l = ctl_scale(b, r, epsilon)?;
    Ok(b * b + r * r + 2.0 * l * l)
}

impl AtaSchedule {
    /// Validated schedule.
    pub fn new(
        b: f64,
        v: f64,
        lambda: f64,
        delta: f64,
        horizon: u64,
        accuracy: f64,
    ) -> Result<Self, LdpBoError> {
        positive("B", b)?;
        positive("v", v)?;
        positive("lambda", lambda)?;
        open_unit("delta", delta)?;
        at_least_one("horizon T", horizon)?;
        Ok(Self {
            b,
            v,
            lambda,
            delta,
            horizon,
            accuracy: NystromAccuracy::new(accuracy)?,
        })
    }

    fn log_term(&self, m: usize) -> f64 {
        (4.0 * m.max(1) as f64 * self.horizon as f64 / self.delta).ln()
    }

    /// `b_t = sqrt(v / ln(4 m_t T / delta))` for the current feature dimension `m_t`
    /// (`ln(4 max(m,1) T/delta)`).
    pub fn truncation(&self, m: usize) -> f64 {
        (self.v / self.log_term(m)).sqrt()
    }

    /// `beta_{t+1}` from the dimension `m_t` of round `t` (`m_0 = 0` gives the bias term only).
    pub fn beta_next(&self, m: usize) -> f64 {
        self.accuracy.bias_width(self.b)
            + 4.0 * (self.log_term(m) * self.v * m as f64 / self.lambda).sqrt()
    }
}

/// The schedule of (LDP-)MoMA-GP-UCB, Theorem 4 and Corollary 1:
/// `k = ceil(24 ln(4eT/delta))`, `N = floor(T/k)`,
/// `beta_{n+1} = B (1 + 1/sqrt(1-e)) + 3 lambda^(-1/2) (9 m_n c)^(1/(1+a)) n^((1-a)/(2(1+a)))`.
///
/// The factor `lambda^(-1/2)` is in the proof (eq. 10 and 22) but not in the statement of
/// Theorem 4; it matters only for `lambda != 1` (`docs/ldp-bo.md`, errata).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MomaSchedule {
    /// RKHS norm bound `B`.
    pub b: f64,
    /// Noise moment bound `c` (`E|eta|^(1+a) <= c`).
    pub c: f64,
    /// Moment order `alpha` in (0, 1].
    pub alpha: f64,
    /// Regulariser `lambda`.
    pub lambda: f64,
    /// Confidence `delta`.
    pub delta: f64,
    /// Horizon `T`.
    pub horizon: u64,
    /// Nyström accuracy.
    pub accuracy: NystromAccuracy,
}

/// `c = R^2 + 8 (B + R)^2 / eps^2` (Corollary 1): the second moment of the CTL(eps) noise.
pub fn moma_private_c(b: f64, r: f64, epsilon: f64) -> Result<f64, LdpBoError> {
    let l = ctl_scale(b, r, epsilon)?;
    Ok(r * r + 2.0 * l * l)
}

impl MomaSchedule {
    /// Validated schedule.
    pub fn new(
        b: f64,
        c: f64,
        alpha: f64,
        lambda: f64,
        delta: f64,
        horizon: u64,
        accuracy: f64,
    ) -> Result<Self, LdpBoError> {
        positive("B", b)?;
        positive("c", c)?;
        validate_alpha(alpha)?;
        positive("lambda", lambda)?;
        open_unit("delta", delta)?;
        at_least_one("horizon T", horizon)?;
        // The epoch length's logarithm must exist: a subnormal delta overflows 4eT/delta.
        finite(
            "4 e T / delta (delta too small)",
            4.0 * std::f64::consts::E * horizon as f64 / delta,
        )?;
        Ok(Self {
            b,
            c,
            alpha,
            lambda,
            delta,
            horizon,
            accuracy: NystromAccuracy::new(accuracy)?,
        })
    }

    /// The theorem's epoch length `k = ceil(24 ln(4 e T / delta))`.
    pub fn theorem_epoch_length(&self) -> u64 {
        self.scaled_epoch_length(1.0)
    }

    /// The epoch length `k = max(1, ceil(scale * 24 ln(4 e T / delta)))` (`scale = 1`: the
    /// theorem's; [`crate::EpochLength::Scaled`]).
    pub fn scaled_epoch_length(&self, scale: f64) -> u64 {
        let log = (4.0 * std::f64::consts::E * self.horizon as f64 / self.delta).ln();
        (scale * 24.0 * log).ceil().max(1.0) as u64
    }

    /// `beta_{n+1}` from the dimension `m_n` and epoch index `n` (`n = 0` gives the bias term).
    pub fn beta_next(&self, m: usize, n: u64) -> f64 {
        let a = self.alpha;
        let gamma = (9.0 * m as f64 * self.c).powf(1.0 / (1.0 + a))
            * (n as f64).powf((1.0 - a) / (2.0 * (1.0 + a)));
        self.accuracy.bias_width(self.b) + 3.0 * gamma / self.lambda.sqrt()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_relative_eq;

    #[test]
    fn tgp_schedule_by_hand() {
        // B = 1, R = 1, eps = 1: L = 4, K = 1 + 1 + 32 = 34.
        let s = TgpSchedule::new(1.0, 1.0, 1.0, 1.0, 0.1).unwrap();
        assert_relative_eq!(s.laplace_scale, 4.0);
        assert_relative_eq!(s.k_constant(), 34.0);
        assert_relative_eq!(s.truncation(0), 2.0);
        assert_relative_eq!(s.truncation(1), 2.0);
        assert_relative_eq!(s.truncation(10), 2.0 + 4.0 * 10f64.ln());
        // beta_1 = 1 + 2 sqrt 2 * 2 * sqrt(ln 10) + sqrt(34).
        let b1 = 1.0 + 2.0 * 2f64.sqrt() * 2.0 * 10f64.ln().sqrt() + 34f64.sqrt();
        assert_relative_eq!(s.beta(1, 0.0), b1, max_relative = 1e-15);
        // beta_11 with gamma_10 = 3.
        let b11 = 1.0
            + 2.0 * 2f64.sqrt() * (2.0 + 4.0 * 10f64.ln()) * (3.0 + 10f64.ln()).sqrt()
            + (34.0 * (10f64.ln() + 1.0)).sqrt();
        assert_relative_eq!(s.beta(11, 3.0), b11, max_relative = 1e-15);
    }

    #[test]
    fn heavy_tail_tgp_at_alpha_one() {
        let s = HeavyTailTgpSchedule::new(1.0, 4.0, 1.0, 1.0, 0.1).unwrap();
        assert_relative_eq!(s.truncation(16), 2.0 * 2.0);
        let b = 1.0
            + 2.0 * 2f64.sqrt() * 2.0 * 16f64.powf(0.25) * (10f64.ln()).sqrt()
            + 2f64.sqrt() * 2.0 * 2.0;
        assert_relative_eq!(s.beta(17, 0.0), b, max_relative = 1e-15);
    }

    #[test]
    fn ata_and_moma_by_hand() {
        assert_relative_eq!(ata_private_v(1.0, 1.0, 1.0).unwrap(), 1.0 + 1.0 + 32.0);
        assert_relative_eq!(moma_private_c(1.0, 1.0, 1.0).unwrap(), 1.0 + 32.0);
        let acc = NystromAccuracy::new(0.5).unwrap();
        assert_relative_eq!(acc.rho(), 3.0);
        assert_relative_eq!(acc.q(1000, 0.1), 6.0 * 3.0 * 40_000f64.ln() / 0.25);
        let a = AtaSchedule::new(1.0, 34.0, 1.0, 0.1, 1000, 0.5).unwrap();
        assert_relative_eq!(a.truncation(10), (34.0 / 400_000f64.ln()).sqrt());
        assert_relative_eq!(
            a.beta_next(10),
            1.0 + 2f64.sqrt() + 4.0 * (400_000f64.ln() * 34.0 * 10.0).sqrt(),
            max_relative = 1e-15
        );
        assert_relative_eq!(a.beta_next(0), 1.0 + 2f64.sqrt());
        let m = MomaSchedule::new(1.0, 3.0, 1.0, 1.0, 0.1, 1000, 0.5).unwrap();
        assert_eq!(
            m.theorem_epoch_length(),
            (24.0 * (4.0 * std::f64::consts::E * 10_000.0f64).ln()).ceil() as u64
        );
        assert_relative_eq!(
            m.beta_next(5, 7),
            1.0 + 2f64.sqrt() + 3.0 * (9.0 * 5.0 * 3.0f64).sqrt()
        );
    }

    #[test]
    fn invalid_parameters() {
        assert!(TgpSchedule::new(-1.0, 1.0, 1.0, 1.0, 0.1).is_err());
        assert!(TgpSchedule::new(1.0, -1.0, 1.0, 1.0, 0.1).is_err());
        assert!(TgpSchedule::new(1.0, 1.0, 0.0, 1.0, 0.1).is_err());
        assert!(TgpSchedule::new(1.0, 1.0, 1.0, 1.0, 1.0).is_err());
        assert!(HeavyTailTgpSchedule::new(1.0, 1.0, 0.0, 1.0, 0.1).is_err());
        assert!(AtaSchedule::new(1.0, 1.0, 1.0, 0.1, 0, 0.5).is_err());
        assert!(MomaSchedule::new(1.0, 1.0, 1.0, 1.0, 0.1, 10, 1.0).is_err());
        assert!(NystromAccuracy::new(f64::NAN).is_err());
    }
}
