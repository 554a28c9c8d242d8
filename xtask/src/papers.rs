//! The papers `reproduce` and `bench` know: the areas of the checks that name a paper
//! ([`checks::papers`]). Adding a paper adds nothing here (its crate implements
//! [`PaperExperiments`] in its `experiments` module, and its area of checks names it).

use std::sync::LazyLock;

use bandit::experiment::PaperExperiments;
use clap::builder::PossibleValue;

/// Every paper with a reproduction, in the order of the areas of the checks.
static PAPERS: LazyLock<Vec<Paper>> = LazyLock::new(|| checks::papers().map(Paper).collect());

/// A paper, chosen on the command line by its crate name (`ldp-bo`).
#[derive(Clone, Copy)]
pub struct Paper(&'static dyn PaperExperiments);

impl Paper {
    /// Every paper.
    pub fn all() -> &'static [Paper] {
        &PAPERS
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
        &PAPERS
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(PossibleValue::new(self.0.name()).help(self.0.title()))
    }
}
