#![doc = include_str!("../../../docs/validation.md")]

mod checks;
mod error;
mod interval;
mod valid;

pub use checks::{
    Count, at_least_one, ensure_finite, ensure_finite_slice, finite, in_range, index_in,
    matching_dimension, non_empty, non_negative, not_nan, open_unit, positive,
};
pub use error::InputError;
pub use interval::Interval;
pub use valid::{Valid, Validate};
