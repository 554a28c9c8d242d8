//! The benchmark functions of Mutny & Krause (2018) on `[-0.5, 0.5]^d`, in their normalised
//! (maximisation) forms; Dubey (2021, Table 1) uses the same three.
//!
//! The paper itself is not in `papers/`; the forms are those of its authors' library `stpy`
//! (`stpy/test_functions/benchmarks.py`: `CamelbackBenchmark`, `StybTangBenchmark`,
//! `MichalBenchmark`, read for reference), written out in `docs/bandit.md`.

use ndarray::{Array2, ArrayView1, array};

use super::{Maximum, Objective};
use crate::error::{BanditError, InputError};

/// Six-hump camelback, rescaled to `[-0.5, 0.5]^2`, negated and divided by 5.
///
/// # Formula
///
/// With `u = 4 x_1`, `v = 2 x_2` (so `(u, v) in [-2, 2] x [-1, 1]`, the textbook domain):
///
/// `f(x) = -[(4 - 2.1 u^2 + u^4 / 3) u^2 + u v + (-4 + 4 v^2) v^2] / 5`
///
/// The textbook minimum `-1.031628453489877` at `(u, v) = +-(0.0898420131003, -0.7126564030207)`
/// gives the maximum `0.2063256906979754` at `x = +-(0.02246050327508, -0.35632820151035)`.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Camelback;

impl Camelback {
    /// The textbook six-hump camelback minimum (Dixon & Szegő), at the points in
    /// [`Camelback::TEXTBOOK_MINIMISER`] and its negative.
    pub const TEXTBOOK_MINIMUM: f64 = -1.031_628_453_489_877;
    /// One textbook minimiser `(u, v)`; the other is its negative.
    pub const TEXTBOOK_MINIMISER: [f64; 2] = [0.089_842_013_100_3, -0.712_656_403_020_7];
}

impl Objective for Camelback {
    fn dim(&self) -> usize {
        2
    }

    fn value_unchecked(&self, x: ArrayView1<'_, f64>) -> f64 {
        let u = 4.0 * x[0];
        let v = 2.0 * x[1];
        let u2 = u * u;
        let v2 = v * v;
        -((4.0 - 2.1 * u2 + u2 * u2 / 3.0) * u2 + u * v + (-4.0 + 4.0 * v2) * v2) / 5.0
    }

    fn maximum(&self) -> Option<Maximum> {
        let [u, v] = Self::TEXTBOOK_MINIMISER;
        Some(Maximum {
            value: -Self::TEXTBOOK_MINIMUM / 5.0,
            maximisers: array![[u / 4.0, v / 2.0], [-u / 4.0, -v / 2.0]],
        })
    }
}

/// Styblinski-Tang in dimension `d`, rescaled to `[-0.5, 0.5]^d` and normalised.
///
/// # Formula
///
/// With `z = 8 x` (so `z in [-4, 4]^d`, the textbook domain):
///
/// `f(x) = -( (1/2) sum_i (z_i^4 - 16 z_i^2 + 5 z_i) / (200 d) + 1/2 )`
///
/// The textbook function `(1/2) sum_i (z_i^4 - 16 z_i^2 + 5 z_i)` is minimised at
/// `z_i = z* = -2.903534027771177` (the negative root of `4 z^3 - 32 z + 5 = 0`), value
/// `d * m` with `m = (z*^4 - 16 z*^2 + 5 z*) / 2 = -39.16616570377142`. So the maximum of `f` is
/// `-(m / 200 + 1/2) = -0.3041691714811429` (for every `d`) at `x_i = z* / 8 = -0.36294175347`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StyblinskiTang {
    d: usize,
}

impl StyblinskiTang {
    /// The minimiser of the one-dimensional textbook term, root of `4 z^3 - 32 z + 5 = 0`.
    pub const Z_STAR: f64 = -2.903_534_027_771_177;

    /// Styblinski-Tang in dimension `d >= 1` (Dubey's Table 1 uses `d = 20`).
    pub fn new(d: usize) -> Result<Self, BanditError> {
        if d == 0 {
            return Err(BanditError::Input(InputError::Empty {
                what: "Styblinski-Tang dimension",
            }));
        }
        Ok(Self { d })
    }
}

impl Objective for StyblinskiTang {
    fn dim(&self) -> usize {
        self.d
    }

    fn value_unchecked(&self, x: ArrayView1<'_, f64>) -> f64 {
        let s: f64 = x
            .iter()
            .map(|&xi| {
                let z = 8.0 * xi;
                let z2 = z * z;
                z2 * z2 - 16.0 * z2 + 5.0 * z
            })
            .sum();
        -(0.5 * s / (200.0 * self.d as f64) + 0.5)
    }

    fn maximum(&self) -> Option<Maximum> {
        let z = Self::Z_STAR;
        let m = 0.5 * (z.powi(4) - 16.0 * z * z + 5.0 * z);
        Some(Maximum {
            value: -(m / 200.0 + 0.5),
            maximisers: Array2::from_elem((1, self.d), z / 8.0),
        })
    }
}

/// The Michalewicz function in the form of Mutny & Krause's library, on `[-0.5, 0.5]^d`.
///
/// # Formula
///
/// With `w_i = x_i / 0.75 + 1/2` and `z_i = pi w_i` (so `x in [-0.5, 0.5]` maps to
/// `z in [-pi/6, 7 pi/6]`):
///
/// `f(x) = sum_{i=1}^d sin(z_i) sin(i w_i)^{2d}`
///
/// This is **not** the textbook Michalewicz `-sum_i sin(z_i) sin(i z_i^2 / pi)^{2m}` on
/// `[0, pi]^d` with `m = 10`: the inner argument is `i z_i / pi` instead of `i z_i^2 / pi`,
/// the steepness exponent is `2d` instead of `2m = 20`, the sign is flipped for maximisation
/// and the domain is stretched by `1/0.75`. We implement this form because it is the function
/// behind the regret numbers of Mutny & Krause (2018) and of Dubey (2021, Table 1, "mw"),
/// whose environments we reproduce; see `docs/bandit.md`.
///
/// The function is additive, so its maximum is the sum of `d` one-dimensional maxima; we
/// compute each by a dense grid search refined by golden-section search
/// ([`Michalewicz::coordinate_maximum`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Michalewicz {
    d: usize,
}

impl Michalewicz {
    /// Michalewicz in dimension `d >= 1` (Dubey's Table 1 uses `d = 10`).
    pub fn new(d: usize) -> Result<Self, BanditError> {
        if d == 0 {
            return Err(BanditError::Input(InputError::Empty {
                what: "Michalewicz dimension",
            }));
        }
        Ok(Self { d })
    }

    /// The term of coordinate `i` (1-based) at `x_i`, in dimension `d`.
    pub fn term(i: usize, d: usize, xi: f64) -> f64 {
        let w = xi / 0.75 + 0.5;
        (std::f64::consts::PI * w).sin() * (i as f64 * w).sin().powi(2 * d as i32)
    }

    /// `(argmax, max)` of the term of coordinate `i` (1-based) over `x_i in [-0.5, 0.5]`: the
    /// best of 20001 grid points, refined by golden-section search on the bracketing cells
    /// (each term is smooth; the grid spacing 5e-5 is far below the width of its peaks).
    pub fn coordinate_maximum(i: usize, d: usize) -> (f64, f64) {
        let n = 20_000;
        let h = 1.0 / n as f64;
        let mut best = (0usize, f64::NEG_INFINITY);
        for k in 0..=n {
            let v = Self::term(i, d, -0.5 + k as f64 * h);
            if v > best.1 {
                best = (k, v);
            }
        }
        let lo = (-0.5 + (best.0 as f64 - 1.0) * h).max(-0.5);
        let hi = (-0.5 + (best.0 as f64 + 1.0) * h).min(0.5);
        let g = (5f64.sqrt() - 1.0) / 2.0;
        let (mut a, mut b) = (lo, hi);
        for _ in 0..200 {
            let c = b - g * (b - a);
            let e = a + g * (b - a);
            if Self::term(i, d, c) >= Self::term(i, d, e) {
                b = e;
            } else {
                a = c;
            }
        }
        let x = 0.5 * (a + b);
        let v = Self::term(i, d, x);
        if v >= best.1 {
            (x, v)
        } else {
            (-0.5 + best.0 as f64 * h, best.1)
        }
    }
}

impl Objective for Michalewicz {
    fn dim(&self) -> usize {
        self.d
    }

    fn value_unchecked(&self, x: ArrayView1<'_, f64>) -> f64 {
        x.iter()
            .enumerate()
            .map(|(k, &xi)| Self::term(k + 1, self.d, xi))
            .sum()
    }

    fn maximum(&self) -> Option<Maximum> {
        let mut arg = Array2::zeros((1, self.d));
        let mut value = 0.0;
        for i in 1..=self.d {
            let (x, v) = Self::coordinate_maximum(i, self.d);
            arg[[0, i - 1]] = x;
            value += v;
        }
        Some(Maximum {
            value,
            maximisers: arg,
        })
    }
}
