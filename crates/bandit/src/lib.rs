#![doc = include_str!("../../../docs/bandit.md")]

pub mod agent;
pub mod baselines;
pub mod dataset;
pub mod domain;
pub mod env;
pub mod error;
pub mod experiment;
pub mod noise;
pub mod objective;
pub mod policy;
pub mod runner;
pub mod seed;

pub use error::{BanditError, InputError};
