//! The floating-point porosity test (Mironov 2012, "On significance of the least significant
//! bits for differential privacy", CCS).
//!
//! A sampler that computes `x + noise(u)` in floating point from a uniform double `u` on the grid
//! `{k 2^-b : 0 <= k < 2^b}` can only output the finitely many doubles `f(x, k 2^-b)`, and the
//! set of these depends on `x`. An output `y` produced from `x` that no grid point maps to from
//! the neighbour `x'` is an event of probability > 0 under `x` and exactly 0 under `x'`: no
//! finite epsilon, and delta at least its probability.
//!
//! # Exact reachability
//! [`reachable`] decides whether `y = f(x', k 2^-b)` for some `k`. On each piece of `k` where
//! `f(x', .)` is monotone it binary-searches the first `k` with `f >= y` (or `<=`, decreasing)
//! and compares a window of `W` grid points on each side of it. The search over all `2^b` grid
//! points is exact when the floating-point evaluation of `f` is monotone on each piece; the
//! window makes it robust against local non-monotonicity of the math library narrower than `W`
//! grid points. The test of this module checks the monotonicity empirically on the samplers it
//! is used with, and the audit also checks that every output sampled under `x'` is found
//! reachable from `x'` (which would fail if the replicated formula differed from the sampler).

use std::convert::Infallible;

use rand::TryRng;

/// A "random" generator that returns one fixed `u64` (and counts the draws): feeding
/// `k << 11` makes `rng.random::<f64>()` (rand 0.10: the top 53 bits times `2^-53`) return
/// exactly `k 2^-53`, so a sampler can be evaluated on a chosen uniform double with its own code.
#[derive(Debug, Clone)]
pub struct ReplayRng {
    value: u64,
    draws: u64,
}

impl ReplayRng {
    /// A generator returning `value` for every `u64` (and its low half for every `u32`).
    pub fn new(value: u64) -> Self {
        Self { value, draws: 0 }
    }

    /// How many values were drawn.
    pub fn draws(&self) -> u64 {
        self.draws
    }
}

impl TryRng for ReplayRng {
    type Error = Infallible;
    fn try_next_u32(&mut self) -> Result<u32, Infallible> {
        self.draws += 1;
        Ok(self.value as u32)
    }
    fn try_next_u64(&mut self) -> Result<u64, Infallible> {
        self.draws += 1;
        Ok(self.value)
    }
    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Infallible> {
        self.draws += 1;
        for (i, b) in dst.iter_mut().enumerate() {
            *b = self.value.to_le_bytes()[i % 8];
        }
        Ok(())
    }
}

/// Half-width of the window of grid points compared around the binary-search position.
pub const WINDOW: u64 = 64;

/// A piece `[start, end)` of grid indices on which `k -> f(x, k 2^-bits)` is monotone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Piece {
    /// First index.
    pub start: u64,
    /// One past the last index.
    pub end: u64,
}

/// The pieces of the textbook samplers: they map the uniform double `k 2^-53` monotonically on
/// `[0, 2^52)` and on `[2^52, 2^53)` (below and above 1/2).
pub const TEXTBOOK_PIECES: [Piece; 2] = [
    Piece {
        start: 0,
        end: 1 << 52,
    },
    Piece {
        start: 1 << 52,
        end: 1 << 53,
    },
];

/// Whether some grid index `k` in one of the `pieces` gives `f(k) == y` (bitwise equality of
/// the doubles, `+0` and `-0` identified), `f` being monotone on each piece.
pub fn reachable(f: impl Fn(u64) -> f64, y: f64, pieces: &[Piece]) -> bool {
    pieces.iter().any(|p| reachable_on(&f, y, *p))
}

// Bitwise comparison of doubles is the point here (exact reachability).
#[allow(clippy::float_cmp)]
fn reachable_on(f: &impl Fn(u64) -> f64, y: f64, p: Piece) -> bool {
    if p.end <= p.start {
        return false;
    }
    let (a, b) = (f(p.start), f(p.end - 1));
    let increasing = a <= b;
    let (lo_v, hi_v) = if increasing { (a, b) } else { (b, a) };
    if y.is_nan() || y < lo_v || y > hi_v {
        return false;
    }
    // First k with f(k) >= y (increasing) or f(k) <= y (decreasing).
    let (mut lo, mut hi) = (p.start, p.end - 1);
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        let v = f(mid);
        let past = if increasing { v >= y } else { v <= y };
        if past { hi = mid } else { lo = mid + 1 }
    }
    let from = lo.saturating_sub(WINDOW).max(p.start);
    let to = (lo + WINDOW).min(p.end - 1);
    (from..=to).any(|k| f(k) == y)
}

#[cfg(test)]
#[allow(clippy::float_cmp)]
mod tests {
    use super::*;

    #[test]
    fn replay_gives_the_chosen_uniform() {
        use rand::RngExt;
        let mut r = ReplayRng::new(12345 << 11);
        let u: f64 = r.random();
        assert_eq!(u, 12345.0 * 2f64.powi(-53));
        assert_eq!(r.draws(), 1);
    }

    #[test]
    fn finds_exactly_the_images_of_a_coarse_map() {
        // f(k) = x + k * 0.25 for k < 8: images are x, x + 0.25, ..., x + 1.75.
        let f = |k: u64| 1.0 + k as f64 * 0.25;
        let p = [Piece { start: 0, end: 8 }];
        assert!(reachable(f, 1.5, &p));
        assert!(!reachable(f, 1.6, &p));
        assert!(!reachable(f, 3.0, &p));
        let g = |k: u64| -(k as f64);
        assert!(reachable(g, -5.0, &[Piece { start: 0, end: 8 }]));
        assert!(!reachable(g, -5.5, &[Piece { start: 0, end: 8 }]));
    }
}
