//! The papers `reproduce` and `bench` know. Adding a paper is one line in [`PAPERS`] (its
//! crate implements [`PaperExperiments`] in its `experiments` module).

use bandit::experiment::PaperExperiments;
use clap::builder::PossibleValue;

/// Every paper with a reproduction, in the order of `--help`.
static PAPERS: &[Paper] = &[
    Paper(&verification::checks::ldp_bo::paper::experiments::ZhouTan2021), // Zhou & Tan 2021
    Paper(&verification::checks::jdp_qff::paper::experiments::Dubey2021),  // Dubey 2021
    Paper(&verification::checks::dp_fts_de::paper::experiments::Dai2021), // Dai, Low & Jaillet 2021
    Paper(&verification::checks::usca::paper::experiments::Pavlovic2025), // Pavlovic, Salgia & Zhao 2025
];

/// A paper, chosen on the command line by its crate name (`ldp-bo`).
#[derive(Clone, Copy)]
pub struct Paper(&'static dyn PaperExperiments);

impl Paper {
    /// Every paper.
    pub fn all() -> &'static [Paper] {
        PAPERS
    }

    /// The paper whose crate is `name`, if any.
    pub fn named(name: &str) -> Option<Paper> {
        PAPERS.iter().copied().find(|p| p.0.name() == name)
    }

    /// The crate names of every paper, comma-separated.
    pub fn names() -> String {
        PAPERS
            .iter()
            .map(|p| p.0.name())
            .collect::<Vec<_>>()
            .join(", ")
    }
}

impl std::ops::Deref for Paper {
    type Target = dyn PaperExperiments;

    fn deref(&self) -> &Self::Target {
        self.0
    }
}

impl clap::ValueEnum for Paper {
    fn value_variants<'a>() -> &'a [Self] {
        PAPERS
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(PossibleValue::new(self.0.name()).help(self.0.title()))
    }
}
