//! Checks with ids under `dp-fts-de/`: Dai, Low & Jaillet 2021 (DP federated Thompson sampling
//! with distributed exploration).

mod fixtures;

use crate::check::Check;

use super::Area;

/// The paper's crate, as this area checks it. `cargo xtask` reaches the paper through this
/// re-export (its experiments for `reproduce` and `bench`), so that adding a paper needs no
/// dependency line in xtask.
pub use ::dp_fts_de as paper;

/// The `dp-fts-de/` area.
pub const AREA: Area = Area {
    prefix: "dp-fts-de/",
    about: "Dai, Low & Jaillet 2021: server-release audits with their controls, the accountant, utility",
    checks,
    fixtures: fixtures::fixtures,
};

/// The checks of this area, in the order they run.
pub fn checks() -> Vec<Check> {
    vec![]
}
