//! Linear algebra on ndarray views, backed by faer (see the kernel helper's full module).

use ndarray::ArrayView2;

use crate::error::KernelError;

/// Return an error unless the symmetric matrix `a` is positive semi-definite, i.e. its smallest
/// eigenvalue is at least `-1e-10 * max(1, max |eigenvalue|)`.
pub fn ensure_psd(what: &'static str, a: ArrayView2<'_, f64>) -> Result<(), KernelError> {
    let _ = (what, a);
    Err(KernelError::Unsupported("linalg::ensure_psd is being written".into()))
}
