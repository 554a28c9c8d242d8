//! Checks with ids under `bandit/` and their fixtures.

use crate::check::Check;
use crate::fixtures::Entry;

/// The checks of this area, in the order they run.
pub fn checks() -> Vec<Check> {
    Vec::new()
}

/// The fixtures of this area.
pub fn fixtures() -> Result<Vec<Entry>, String> {
    Ok(Vec::new())
}
