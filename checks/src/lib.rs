#![doc = include_str!("../../docs/checks.md")]

pub mod audit;
pub mod bandit;
pub mod checker;
pub mod dp_fts_de;
pub mod jdp_qff;
pub mod kernel;
pub mod ldp_bo;
pub mod privacy;
pub mod shared;
pub mod usca;

use ::bandit::experiment::PaperExperiments;
use verification::fixtures::Entry;
use verification::{Check, CheckError};

/// One area of the suite: its id prefix, its checks and its fixtures.
#[derive(Clone, Copy)]
pub struct Area {
    /// The prefix of every id of the area (`"kernel/"`).
    pub prefix: &'static str,
    /// What the area covers, in a few words (`cargo xtask verify --list` prints it).
    pub about: &'static str,
    /// The checks, in the order they run.
    pub checks: fn() -> Vec<Check>,
    /// The golden fixtures under `fixtures/<area>/`.
    pub fixtures: fn() -> Result<Vec<Entry>, CheckError>,
    /// The paper's experiments (`cargo xtask reproduce` and `bench`), for a paper's area.
    pub paper: Option<&'static dyn PaperExperiments>,
}

impl Area {
    /// The fixture `name` of this area: file `<area>/<name>.json` under `fixtures/` (the area's
    /// prefix without its slash), with its description, inputs, outputs and tolerances.
    pub fn fixture(
        &self,
        name: &str,
        description: &str,
        inputs: serde_json::Value,
        outputs: serde_json::Value,
        tolerances: std::collections::BTreeMap<String, verification::fixtures::Tolerance>,
    ) -> Entry {
        verification::fixtures::area_entry(
            self.prefix.trim_end_matches('/'),
            name,
            description,
            inputs,
            outputs,
            tolerances,
        )
    }
}

/// Every area, in the order the checks run: foundations first, then the audits of the
/// mechanisms and of the checkers, then the paper crates.
pub const AREAS: &[Area] = &[
    kernel::AREA,
    bandit::AREA,
    privacy::AREA,
    audit::AREA,
    checker::AREA,
    ldp_bo::AREA,
    jdp_qff::AREA,
    dp_fts_de::AREA,
    usca::AREA,
];

/// All checks, in the order they run.
pub fn all() -> Vec<Check> {
    AREAS.iter().flat_map(|a| (a.checks)()).collect()
}

/// Every fixture of the workspace, area by area; an error if a fixture's tolerances do not
/// cover each of its output fields exactly ([`verification::fixtures::checked`]).
pub fn all_fixtures() -> Result<Vec<Entry>, CheckError> {
    let mut out = Vec::new();
    for a in AREAS {
        out.extend((a.fixtures)()?);
    }
    verification::fixtures::checked(out)
}

/// The papers with a reproduction, in the order of [`AREAS`]: what `cargo xtask reproduce` and
/// `bench` offer.
pub fn papers() -> impl Iterator<Item = &'static dyn PaperExperiments> {
    AREAS.iter().filter_map(|a| a.paper)
}

/// The fixtures of an area that has none.
pub fn no_fixtures() -> Result<Vec<Entry>, CheckError> {
    Ok(Vec::new())
}
