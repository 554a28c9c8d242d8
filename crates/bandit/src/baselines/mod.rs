//! Baseline policies every paper compares against: uniform random, exact GP-UCB with the
//! IGP-UCB width, and GP Thompson sampling.

mod gp_ts;
mod gp_ucb;
mod uniform;

pub use gp_ts::GpThompson;
pub use gp_ucb::{GammaSource, GpUcb, IgpUcbParams};
pub use uniform::UniformRandom;
