//! The usca fixtures (`fixtures/usca/`).

use crate::check::CheckError;
use crate::fixtures::Entry;

/// The fixtures of this area.
pub fn fixtures() -> Result<Vec<Entry>, CheckError> {
    Ok(vec![])
}
