//! Domains, objectives, data sets, environments, the Agent trait, baselines, regret and the
//! seeded trial runner, shared by every paper crate of the workspace.
//!
//! - [`domain`]: finite sets, grids, boxes, equal-volume partitions (DP-FTS-DE).
//! - [`objective`]: RKHS functions (Zhou & Tan synthetic), GP samples (DP-FTS-DE synthetic),
//!   Mutny & Krause benchmark functions, Dubey's synthetic.
//! - [`noise`]: reward models (Gaussian, uniform, Student-t, Pareto, Bernoulli, data rows).
//! - [`dataset`]: the light-sensor and stock-price problems from `../shared/data`.
//! - [`agent`]: the [`Agent`](agent::Agent) and [`Curator`](agent::Curator) traits.
//! - [`env`](mod@env): the [`Environment`](env::Environment) trait and fixed/sampled environments.
//! - [`runner`]: seeded trials, the parallel batch runner, result records (JSON, CSV).
//! - [`baselines`]: uniform random, GP-UCB (IGP-UCB `beta_t`), GP Thompson sampling.
//!
//! Conventions: `f64` throughout; points are rows of `n x d` arrays; library code takes
//! `&mut R` with `R: Rng + ?Sized`; every constructor validates and returns [`BanditError`].

pub mod agent;
pub mod baselines;
pub mod dataset;
pub mod domain;
pub mod env;
pub mod error;
pub mod noise;
pub mod objective;
pub mod policy;
pub mod runner;
pub mod seed;

pub use error::BanditError;
