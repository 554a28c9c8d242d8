//! Which records a Poisson-subsampled aggregation included, read from its released outputs by
//! coupled runs (issue 31: "a subsampling rate different from the one the accountant is
//! told").
//!
//! Record `n` holds the indicator vector `e_n` (coordinate `n` is its own), and the same round
//! is released twice with one seed: once on all-zero vectors, once on the indicators. The
//! selection and the noise are the same draws in both runs (the noise's grid and scale depend on
//! the public weights and the clip only), so the two releases differ, in column `n`, by
//! `phi_n / q` when record `n` was included and by nothing (up to the noise grid's rounding)
//! when it was not. A column whose difference is neither below `1e-3` of the expected change nor
//! above half of it is an error (the coupling failed), never counted.

use ndarray::Array2;
use verification::CheckError;

/// Count the inclusions of one coupled round: `zero` and `indicator` are the `P x N` releases
/// on the zero and the indicator vectors (same seed), `expected[n]` the L2 norm
/// `||phi_n|| / q` of column `n`'s change when record `n` is included. Returns
/// `(included, records)`.
pub fn count_inclusions(
    zero: &Array2<f64>,
    indicator: &Array2<f64>,
    expected: &[f64],
) -> Result<(u64, u64), CheckError> {
    if zero.dim() != indicator.dim() || zero.ncols() != expected.len() {
        return Err(CheckError::msg(format!(
            "coupled releases of shapes {:?} and {:?} for {} records",
            zero.dim(),
            indicator.dim(),
            expected.len()
        )));
    }
    let mut included = 0u64;
    for (n, &e) in expected.iter().enumerate() {
        let d = zero
            .column(n)
            .iter()
            .zip(indicator.column(n))
            .map(|(a, b)| (a - b) * (a - b))
            .sum::<f64>()
            .sqrt();
        if d > 0.5 * e {
            included += 1;
        } else if d > 1e-3 * e {
            return Err(CheckError::msg(format!(
                "record {n}: the coupled releases differ by {d}, neither 0 nor about {e}: the noise did not cancel"
            )));
        }
    }
    Ok((included, expected.len() as u64))
}
