//! Every check of `cargo xtask verify`, one module per area (the id prefix).

pub mod audit;
pub mod bandit;
pub mod kernel;
pub mod ldp_bo;
pub mod privacy;

use crate::check::Check;

/// All checks, in the order they run: foundations first, then audits, then the paper crates.
pub fn all() -> Vec<Check> {
    let mut v = Vec::new();
    v.extend(kernel::checks());
    v.extend(bandit::checks());
    v.extend(privacy::checks());
    v.extend(audit::checks());
    v.extend(ldp_bo::checks());
    v
}
