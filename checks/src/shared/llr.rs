//! Exact log-likelihood-ratio statistics of the Laplace and Gaussian shifts.

use verification::audit::Known;

/// The exact log-likelihood ratio of a Laplace shift (x = 0 vs x' = d, scale b), as a function of
/// the output: `(|o - d| - |o|) / b`. Also exact for the discrete Laplace on a grid containing
/// 0 and d (same density ratio at every grid point).
pub fn laplace_llr(d: f64, b: f64) -> Known<impl Fn(&f64) -> f64 + Clone + Send + Sync + 'static> {
    Known::new(
        format!("exact Laplace LLR (shift {d}, scale {b})"),
        move |o: &f64| ((o - d).abs() - o.abs()) / b,
    )
}

/// Any decreasing function of the output is the LLR ordering of a Gaussian shift x = 0 vs x' > 0.
pub fn gaussian_llr() -> Known<impl Fn(&f64) -> f64 + Clone + Send + Sync + 'static> {
    Known::new("exact Gaussian LLR ordering (-o)", |o: &f64| -*o)
}
