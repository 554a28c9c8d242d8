//! A feature map for unit tests: `phi(x) = scale * (0.6, 0.8)` whatever the point (norm
//! `scale`), so a test can put features inside, on or beyond the unit ball the algorithms clip
//! to.

use kernel::FeatureMap;
use ndarray::{ArrayView1, ArrayViewMut1, array};

/// `scale * (0.6, 0.8)` on a one-dimensional input.
#[derive(Debug)]
pub(crate) struct Fixed(pub(crate) f64);

impl FeatureMap for Fixed {
    fn input_dim(&self) -> usize {
        1
    }
    fn dim(&self) -> usize {
        2
    }
    fn map_into_unchecked(&self, _x: ArrayView1<'_, f64>, mut out: ArrayViewMut1<'_, f64>) {
        out.assign(&array![0.6 * self.0, 0.8 * self.0]);
    }
}
