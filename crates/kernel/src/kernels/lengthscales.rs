//! Lengthscales of a stationary kernel: one for all dimensions or one per dimension.

use ndarray::Array1;
use serde::{Deserialize, Serialize};

use crate::error::{InputError, KernelError};
use validation::positive;

/// Lengthscales `l` of a stationary kernel, which sees `(x - y) / l`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Lengthscales {
    /// One lengthscale for every dimension (any input dimension is accepted).
    Isotropic(f64),
    /// One lengthscale per dimension (automatic relevance determination); fixes the input
    /// dimension.
    PerDimension(Array1<f64>),
}

impl Lengthscales {
    /// A single lengthscale, validated (finite, > 0).
    pub fn isotropic(l: f64) -> Result<Self, KernelError> {
        Ok(Self::Isotropic(positive("lengthscale", l)?))
    }

    /// One lengthscale per dimension, validated (non-empty, each finite and > 0).
    pub fn per_dimension(ls: impl Into<Array1<f64>>) -> Result<Self, KernelError> {
        let ls = ls.into();
        if ls.is_empty() {
            return Err(KernelError::Input(InputError::Empty {
                what: "lengthscales",
            }));
        }
        for &l in &ls {
            positive("lengthscale", l)?;
        }
        Ok(Self::PerDimension(ls))
    }

    /// The input dimension fixed by these lengthscales, if any.
    pub fn input_dim(&self) -> Option<usize> {
        match self {
            Self::Isotropic(_) => None,
            Self::PerDimension(ls) => Some(ls.len()),
        }
    }

    /// The lengthscale of dimension `i`.
    pub fn get(&self, i: usize) -> f64 {
        match self {
            Self::Isotropic(l) => *l,
            Self::PerDimension(ls) => ls[i],
        }
    }

    /// The lengthscales as a vector for dimension `d` (`d` must match a per-dimension vector).
    pub fn to_vec(&self, d: usize) -> Result<Array1<f64>, KernelError> {
        match self {
            Self::Isotropic(l) => Ok(Array1::from_elem(d, *l)),
            Self::PerDimension(ls) if ls.len() == d => Ok(ls.clone()),
            Self::PerDimension(ls) => Err(KernelError::Input(InputError::DimensionMismatch {
                context: "lengthscales",
                expected: ls.len(),
                got: d,
            })),
        }
    }
}
