//! Checked parameter sets: [`Validate`] says how a type is checked, [`Valid`] holds a value
//! that passed.

use std::ops::Deref;

/// A type whose values are checked as a whole (every field, and every relation between
/// fields), e.g. the parameter set of an algorithm.
pub trait Validate {
    /// What a failed check returns.
    type Error;

    /// Check the value.
    fn check(&self) -> Result<(), Self::Error>;
}

/// A value that passed [`Validate::check`].
///
/// The field is private and [`Valid::new`] is the only constructor, so every `Valid<T>` was
/// checked, and it cannot be changed afterwards (read it through `Deref`, or take it apart
/// with [`Valid::into_inner`], which gives up the guarantee). A constructor that takes a
/// `Valid<T>` needs no check of its own; a parameter type's `validate()` returns one.
///
/// ```
/// use validation::{InputError, Valid, Validate, positive};
///
/// #[derive(Debug, Clone, Copy)]
/// struct Params { lambda: f64 }
///
/// impl Validate for Params {
///     type Error = InputError;
///     fn check(&self) -> Result<(), InputError> {
///         positive("lambda", self.lambda).map(|_| ())
///     }
/// }
///
/// let ok = Valid::new(Params { lambda: 0.5 })?;
/// assert_eq!(ok.lambda, 0.5);
/// assert!(Valid::new(Params { lambda: -1.0 }).is_err());
/// # Ok::<(), InputError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
#[must_use]
pub struct Valid<T>(T);

impl<T: Validate> Valid<T> {
    /// Check `value` and keep it.
    pub fn new(value: T) -> Result<Self, T::Error> {
        value.check()?;
        Ok(Self(value))
    }
}

impl<T> Valid<T> {
    /// The value, no longer marked as checked.
    pub fn into_inner(self) -> T {
        self.0
    }
}

impl<T> Deref for Valid<T> {
    type Target = T;

    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T> AsRef<T> for Valid<T> {
    fn as_ref(&self) -> &T {
        &self.0
    }
}

/// Serialised as the value itself. There is no `Deserialize`: a value read back is checked
/// again by [`Valid::new`].
impl<T: serde::Serialize> serde::Serialize for Valid<T> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(serializer)
    }
}
