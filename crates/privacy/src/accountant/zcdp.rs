//! Zero-concentrated DP (Bun & Steinke 2016): composition, conversion to (eps, delta)-DP and
//! its inverse.

use serde::{Deserialize, Serialize};

use crate::error::PrivacyError;
use crate::params::{Delta, Epsilon, Rho, Sensitivity};
use validation::at_least_one;

/// How rho-zCDP is turned into (eps, delta)-DP.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ZcdpConversion {
    /// `eps = rho + 2 sqrt(rho ln(1/delta))` (Bun & Steinke 2016, Prop. 1.3).
    #[default]
    Classic,
    /// The tighter conversion of Canonne, Kamath & Steinke 2020 (Corollary 13):
    /// `eps = inf_{alpha > 1} alpha rho + (ln(1/delta) - ln alpha)/(alpha - 1) + ln(1 - 1/alpha)`,
    /// i.e. `delta = exp((alpha-1)(alpha rho - eps)) / (alpha - 1) * (1 - 1/alpha)^alpha` solved for
    /// eps (the same bound as Balle et al. 2020, Thm 21, for the RDP curve `alpha rho`).
    Cks,
}

/// Minimise a unimodal function of `alpha > 1` over `alpha = 1 + exp(s)`, `s` in
/// `[s_lo, s_hi]`: a scan of 200 points, then golden-section refinement around the best one.
pub(crate) fn minimise_over_order(f: impl Fn(f64) -> f64, s_lo: f64, s_hi: f64) -> (f64, f64) {
    let g = |s: f64| f(1.0 + s.exp());
    let n = 200;
    let step = (s_hi - s_lo) / n as f64;
    let (mut best_s, mut best) = (s_lo, g(s_lo));
    for i in 1..=n {
        let s = s_lo + step * i as f64;
        let v = g(s);
        if v < best {
            best = v;
            best_s = s;
        }
    }
    let (mut a, mut b) = (best_s - step, best_s + step);
    let r = 0.5 * (5f64.sqrt() - 1.0);
    let mut c = b - r * (b - a);
    let mut d = a + r * (b - a);
    let (mut fc, mut fd) = (g(c), g(d));
    for _ in 0..200 {
        if fc < fd {
            b = d;
            d = c;
            fd = fc;
            c = b - r * (b - a);
            fc = g(c);
        } else {
            a = c;
            c = d;
            fc = fd;
            d = a + r * (b - a);
            fd = g(d);
        }
        if (b - a).abs() < 1e-13 {
            break;
        }
    }
    let s = 0.5 * (a + b);
    let v = g(s).min(best);
    let alpha = 1.0 + if g(s) <= best { s.exp() } else { best_s.exp() };
    (v, alpha)
}

/// The CKS 2020 conversion at one order: `alpha rho + (ln(1/delta) - ln alpha)/(alpha-1) + ln(1 - 1/alpha)`.
fn cks_at(rho: f64, ln_inv_delta: f64, alpha: f64) -> f64 {
    alpha * rho + (ln_inv_delta - alpha.ln()) / (alpha - 1.0) + (-1.0 / alpha).ln_1p()
}

/// The epsilon of rho-zCDP at `delta` in (0, 1).
pub fn zcdp_to_epsilon(
    rho: f64,
    delta: f64,
    conversion: ZcdpConversion,
) -> Result<f64, PrivacyError> {
    let rho = Rho::new(rho)?.get();
    let d = Delta::positive(delta)?.get();
    let l = (1.0 / d).ln();
    Ok(match conversion {
        ZcdpConversion::Classic => rho + 2.0 * (rho * l).sqrt(),
        ZcdpConversion::Cks => {
            // The optimum is near alpha = 1 + sqrt(l / rho); search alpha - 1 in a wide log range
            // around it.
            let centre = (l / rho).sqrt().max(1e-300).ln();
            let (v, _) = minimise_over_order(|a| cks_at(rho, l, a), centre - 15.0, centre + 15.0);
            // Never report more than the classic bound (the infimum is at most it).
            v.min(rho + 2.0 * (rho * l).sqrt()).max(0.0)
        }
    })
}

/// The largest rho whose conversion is at most `eps` at `delta` (the inverse of
/// [`zcdp_to_epsilon`]). Classic: `sqrt(rho) = sqrt(ln(1/delta) + eps) - sqrt(ln(1/delta))`
/// (the positive root of `rho + 2 sqrt(rho L) = eps`). CKS: bisection on rho (the conversion is
/// increasing in rho) to `1e-15` relative.
pub fn rho_for_target(
    epsilon: f64,
    delta: f64,
    conversion: ZcdpConversion,
) -> Result<f64, PrivacyError> {
    let e = Epsilon::new(epsilon)?.get();
    let d = Delta::positive(delta)?.get();
    let l = (1.0 / d).ln();
    // (sqrt(l + e) - sqrt(l))^2 written without cancellation.
    let classic = (e / ((l + e).sqrt() + l.sqrt())).powi(2);
    match conversion {
        ZcdpConversion::Classic => Ok(classic),
        ZcdpConversion::Cks => {
            let f = |rho: f64| {
                zcdp_to_epsilon(rho, d, ZcdpConversion::Cks).unwrap_or(f64::INFINITY) - e
            };
            let mut lo = classic;
            let mut hi = classic * 2.0;
            while f(hi) <= 0.0 {
                lo = hi;
                hi *= 2.0;
                if hi > 1e300 {
                    return Err(PrivacyError::Calibration(format!(
                        "zCDP: no rho for eps={e}, delta={d}"
                    )));
                }
            }
            for _ in 0..200 {
                let mid = 0.5 * (lo + hi);
                if f(mid) <= 0.0 {
                    lo = mid
                } else {
                    hi = mid
                }
                if hi - lo <= 1e-15 * hi {
                    break;
                }
            }
            Ok(lo)
        }
    }
}

/// The Gaussian noise for a target: `k` Gaussian mechanisms of L2 sensitivity `Delta`, each with
/// noise `sigma`, compose to `k Delta^2 / (2 sigma^2)`-zCDP; the smallest `sigma` meeting
/// (eps, delta) is `Delta sqrt(k / (2 rho*))` with `rho* = rho_for_target(eps, delta)`.
pub fn gaussian_sigma_for_target(
    epsilon: f64,
    delta: f64,
    l2_sensitivity: f64,
    compositions: u64,
    conversion: ZcdpConversion,
) -> Result<f64, PrivacyError> {
    let s = Sensitivity::positive(l2_sensitivity)?.get();
    let k = at_least_one("compositions", compositions)? as f64;
    let rho = rho_for_target(epsilon, delta, conversion)?;
    Ok(s * (k / (2.0 * rho)).sqrt())
}

/// A running zCDP budget: composition adds the rhos (Bun & Steinke 2016, Lemma 1.7).
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct ZcdpAccountant {
    rho: f64,
}

impl ZcdpAccountant {
    /// An empty budget.
    pub fn new() -> Self {
        Self::default()
    }

    /// Compose with a rho-zCDP mechanism.
    pub fn compose(&mut self, rho: f64) -> Result<&mut Self, PrivacyError> {
        self.rho += Rho::new(rho)?.get();
        Ok(self)
    }

    /// Compose `k` Gaussian mechanisms with noise `sigma` and sensitivity `Delta`.
    pub fn compose_gaussian(
        &mut self,
        sigma: f64,
        l2_sensitivity: f64,
        k: u64,
    ) -> Result<&mut Self, PrivacyError> {
        let k = at_least_one("compositions", k)? as f64;
        let rho = crate::mechanisms::gaussian::gaussian_rho(sigma, l2_sensitivity)?;
        self.compose(k * rho)
    }

    /// The total rho.
    pub fn rho(&self) -> f64 {
        self.rho
    }

    /// The epsilon at `delta`.
    pub fn epsilon(&self, delta: f64, conversion: ZcdpConversion) -> Result<f64, PrivacyError> {
        zcdp_to_epsilon(self.rho, delta, conversion)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The CKS inverse is the largest rho meeting the target: the conversion at it is at most
    /// eps, and 1e-9 (relative) more rho exceeds it; at eps = 0.1 and 0.01 its bracket must
    /// grow past twice the classic rho (CKS is that much tighter there).
    #[test]
    fn rho_for_target_is_the_largest_rho_meeting_the_target() {
        let cks = ZcdpConversion::Cks;
        for (e, d) in [(0.1, 1e-5), (0.01, 1e-3), (1.0, 1e-5), (50.0, 1e-5)] {
            let rho = rho_for_target(e, d, cks).unwrap();
            assert!(zcdp_to_epsilon(rho, d, cks).unwrap() <= e, "eps {e}");
            assert!(
                zcdp_to_epsilon(rho * (1.0 + 1e-9), d, cks).unwrap() > e,
                "eps {e}"
            );
        }
    }

    /// The Gaussian noise for a target: `Delta sqrt(k / (2 rho*))` with the classic
    /// `rho* = (eps / (sqrt(L + eps) + sqrt(L)))^2`, `L = ln(1/delta)`, written out here at
    /// `Delta = 2`, `k = 3`, `(eps, delta) = (1, 1e-5)`.
    #[test]
    fn the_gaussian_noise_for_a_target_by_hand() {
        let l = 1e5f64.ln();
        let rho = (1.0 / ((l + 1.0).sqrt() + l.sqrt())).powi(2);
        let want = 2.0 * (3.0 / (2.0 * rho)).sqrt();
        let got = gaussian_sigma_for_target(1.0, 1e-5, 2.0, 3, ZcdpConversion::Classic).unwrap();
        assert!((got / want - 1.0).abs() < 1e-14, "{got} vs {want}");
    }

    /// The running budget: `k` Gaussians of noise `sigma` and sensitivity `Delta` add
    /// `k Delta^2 / (2 sigma^2)` (5 of sigma 2, Delta 3: 5.625), a rho adds itself, and the
    /// epsilon is the conversion of the total (classic: `rho + 2 sqrt(rho ln(1/delta))`).
    #[test]
    fn the_accountant_adds_rhos_and_converts_the_total() {
        let mut a = ZcdpAccountant::new();
        a.compose_gaussian(2.0, 3.0, 5)
            .unwrap()
            .compose(0.375)
            .unwrap();
        assert_eq!(a.rho().to_bits(), 6f64.to_bits());
        let want = 6.0 + 2.0 * (6.0 * 1e5f64.ln()).sqrt();
        let got = a.epsilon(1e-5, ZcdpConversion::Classic).unwrap();
        assert!((got / want - 1.0).abs() < 1e-15, "{got} vs {want}");
        assert!(a.compose_gaussian(2.0, 3.0, 0).is_err());
    }

    /// The order search returns the minimiser too: `(alpha - 3)^2 + 1` over `alpha > 1` is
    /// least at 3, with value 1 (the refined point, not the scan's, 0.15 apart in
    /// `ln(alpha - 1)`).
    #[test]
    fn the_order_search_returns_the_minimiser() {
        let (v, alpha) = minimise_over_order(|a| (a - 3.0).powi(2) + 1.0, -5.0, 5.0);
        assert!((alpha - 3.0).abs() < 1e-6, "{alpha}");
        assert!((v - 1.0).abs() < 1e-12, "{v}");
    }

    /// The CKS conversion is the minimum over the order, found to 1e-12 relative: mpmath's
    /// minimum (40 digits, the root of the derivative; at rho = 1e-8, 50 digits by golden
    /// section) at six settings, with the optimal order from 1.47 to 14018 (the scan's grid
    /// alone is 0.15 apart in ln(alpha - 1)).
    #[test]
    fn cks_is_the_minimum_over_the_order_to_mpmath_precision() {
        for (rho, delta, want) in [
            (0.5, 1e-5, 4.728_386_984_943_314),
            (0.01, 1e-6, 0.621_692_654_559_602_5),
            (2.0, 1e-3, 8.416_064_294_321_277),
            (1e-4, 1e-10, 0.080_143_698_441_725_96),
            (50.0, 1e-5, 96.035_270_675_173_15),
            // alpha = 14018: ln(alpha - 1) = 9.5, outside the +-15 search window were it
            // centred on sqrt(L rho) instead of sqrt(L / rho).
            (1e-8, 1e-5, 2.090_152_455_414_772e-4),
        ] {
            let got = zcdp_to_epsilon(rho, delta, ZcdpConversion::Cks).unwrap();
            assert!(
                (got / want - 1.0).abs() < 1e-12,
                "rho {rho}, delta {delta}: {got} vs {want}"
            );
        }
    }
    use approx::assert_relative_eq;

    #[test]
    fn conversions_and_inverses() {
        let (rho, d) = (0.5, 1e-6);
        let c = zcdp_to_epsilon(rho, d, ZcdpConversion::Classic).unwrap();
        assert_relative_eq!(
            c,
            0.5 + 2.0 * (0.5 * (1e6f64).ln()).sqrt(),
            max_relative = 1e-15
        );
        let k = zcdp_to_epsilon(rho, d, ZcdpConversion::Cks).unwrap();
        assert!(k < c);
        // The CKS value is the infimum: no order on a fine grid does better.
        let l = (1.0 / d).ln();
        for i in 1..2000 {
            let a = 1.0 + i as f64 * 0.01;
            assert!(cks_at(rho, l, a) >= k - 1e-12);
        }
        for conv in [ZcdpConversion::Classic, ZcdpConversion::Cks] {
            let r = rho_for_target(1.0, 1e-5, conv).unwrap();
            let e = zcdp_to_epsilon(r, 1e-5, conv).unwrap();
            assert!((e - 1.0).abs() <= 1e-9, "{conv:?}: {e}");
        }
        assert!(zcdp_to_epsilon(0.5, 0.0, ZcdpConversion::Classic).is_err());
        assert!(rho_for_target(-1.0, 1e-5, ZcdpConversion::Classic).is_err());
    }
}
