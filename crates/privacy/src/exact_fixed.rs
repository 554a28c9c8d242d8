//! Exact samplers on the integers in fixed-width arithmetic (`u64`/`u128`): the fast path of the
//! hardened samplers. [`crate::exact`] (arbitrary precision, Canonne, Kamath & Steinke 2020) is
//! the fallback for parameters that do not fit and the reference the distributional tests
//! compare against. The proofs of exactness are in `docs/privacy.md` ("Fixed-width exact
//! samplers"); each function below states the identity it rests on.
//!
//! Every random quantity is a uniform real `U` in [0, 1) revealed lazily 64 bits at a time
//! (`Lazy`). A comparison of `U` with a rational `a/b` or with another lazy uniform reads
//! words until they differ, so it is exact (two reals are equal with probability 0, and a tie
//! over every word read only asks for the next word). No floating-point operation is on the
//! sampling path.
//!
//! - [`bernoulli_ratio`]: Bernoulli(a/b) from one 64-bit word in all but a `b / 2^64` fraction
//!   of calls, with no division.
//! - [`bernoulli_exp_neg`]: Bernoulli(exp(-a/b)) by von Neumann's alternating-run method
//!   (Karney 2016, Sec. 2; Forsythe 1972).
//! - [`DiscreteLaplace`]: Canonne, Kamath & Steinke 2020, Algorithm 2, with its Bernoulli
//!   draws replaced by the lazy ones above.
//! - [`DiscreteGaussian`]: Karney 2016 ("Sampling exactly from the normal distribution", ACM
//!   TOMS 42(1)), Algorithm D with `mu = 0` and a rational `sigma`: integers of size about
//!   `sigma`, and about 8 words of 32 bits of randomness per sample at the mechanisms' scales
//!   (step D1 drawn by inversion, [`crate::karney_index`]).

use rand::Rng;

use crate::karney_index;

/// The random source of the fixed-width samplers: 32-bit words from the generator, and single
/// bits from a buffered 64-bit word (a sign or a fair coin costs one bit, not a word). The
/// words and bits are independent and uniform, so reusing the buffer's leftover bits across
/// samples changes nothing in the law; it only makes a batch ([`DiscreteGaussian::fill`])
/// cheaper than repeated single calls.
pub struct Bits<'a, R: Rng + ?Sized> {
    rng: &'a mut R,
    buffer: u64,
    left: u32,
}

impl<'a, R: Rng + ?Sized> Bits<'a, R> {
    /// A source drawing from `rng`.
    pub fn new(rng: &'a mut R) -> Self {
        Self {
            rng,
            buffer: 0,
            left: 0,
        }
    }

    /// A uniform 32-bit word.
    #[inline]
    fn word(&mut self) -> u32 {
        self.rng.next_u32()
    }

    /// A uniform 64-bit word.
    #[inline]
    fn word64(&mut self) -> u64 {
        self.rng.next_u64()
    }

    /// A fair bit.
    #[inline]
    fn bit(&mut self) -> bool {
        if self.left == 0 {
            self.buffer = self.rng.next_u64();
            self.left = 64;
        }
        let b = self.buffer & 1 == 1;
        self.buffer >>= 1;
        self.left -= 1;
        b
    }
}

/// A uniform real in [0, 1) of which only the leading 32-bit words drawn so far are known:
/// `U = sum_j w_j 2^(-32 (j + 1))`. The first word is kept inline; later words (needed only
/// after a tie over 32 bits, probability `2^-32` per comparison) go to `tail`.
#[derive(Debug, Clone, Default)]
struct Lazy {
    head: u32,
    tail: Vec<u32>,
}

impl Lazy {
    /// Word `j` (0 = the most significant), drawing the words up to it if not yet known.
    fn word<R: Rng + ?Sized>(&mut self, j: usize, bits: &mut Bits<'_, R>) -> u32 {
        if j == 0 {
            return self.head;
        }
        while self.tail.len() < j {
            self.tail.push(bits.word());
        }
        self.tail[j - 1]
    }

    /// Draw a fresh uniform `Z` and decide `Z < self`; when it is, `self` becomes `Z` (the
    /// words of `Z` read so far, the rest still undrawn: the conditional law of `Z` given
    /// `Z < self` and its known words is what the later comparisons need).
    #[inline]
    fn replace_if_fresh_is_smaller<R: Rng + ?Sized>(&mut self, bits: &mut Bits<'_, R>) -> bool {
        let z0 = bits.word();
        if z0 < self.head {
            self.head = z0;
            self.tail.clear();
            return true;
        }
        if z0 > self.head {
            return false;
        }
        self.after_tie(bits)
    }

    /// [`Self::replace_if_fresh_is_smaller`] after a tie on the first word.
    #[cold]
    #[inline(never)]
    fn after_tie<R: Rng + ?Sized>(&mut self, bits: &mut Bits<'_, R>) -> bool {
        let mut z_tail = Vec::new();
        for j in 1.. {
            let v = self.word(j, bits);
            let z = bits.word();
            z_tail.push(z);
            if z != v {
                if z < v {
                    self.tail = z_tail;
                    return true;
                }
                return false;
            }
        }
        unreachable!("the loop over j returns")
    }
}

/// Decide `U < a/b` for a fresh uniform `U` (`1 <= b <= 2^64 - 1`, `a <= b`), returning `U`
/// when it is below (its words read so far).
///
/// With the first word `r`, `U = (r + U') / 2^32` for a fresh uniform `U'`, so
/// `U < a/b <=> r b + U' b < a 2^32`. As `0 <= U' b < b`: the event holds surely when
/// `r b + b <= a 2^32`, fails surely when `r b >= a 2^32`, and otherwise is `U' < a'/b` with
/// `a' = a 2^32 - r b` in (0, b): the same question one word further down.
fn fresh_below_ratio<R: Rng + ?Sized>(a: u64, b: u64, bits: &mut Bits<'_, R>) -> Option<Lazy> {
    debug_assert!(b >= 1 && a <= b);
    if a == 0 {
        return None;
    }
    let b128 = u128::from(b);
    let mut rest = a;
    let mut words = Lazy::default();
    for j in 0.. {
        let r = bits.word();
        if j == 0 {
            words.head = r;
        } else {
            words.tail.push(r);
        }
        let m = u128::from(r) * b128;
        let target = u128::from(rest) << 32;
        if m + b128 <= target {
            return Some(words);
        }
        if m >= target {
            return None;
        }
        // 0 < target - m < b <= u64::MAX.
        rest = (target - m) as u64;
    }
    unreachable!("the loop over j returns")
}

/// Bernoulli(a/b) exactly, for `b >= 1` and any `a` (`a >= b` is certain): the event `U < a/b`
/// of one lazy uniform. Reads one 32-bit word except with probability below `b / 2^32`; no
/// division.
pub fn bernoulli_ratio<R: Rng + ?Sized>(a: u64, b: u64, rng: &mut R) -> bool {
    assert!(
        b >= 1,
        "bernoulli_ratio: the denominator must be at least 1"
    );
    if a >= b {
        return true;
    }
    fresh_below_ratio(a, b, &mut Bits::new(rng)).is_some()
}

/// A uniform integer in `[0, n)`, `n >= 1`, exactly: Lemire's multiply-and-reject (the high
/// half of `r n` for a uniform word `r`, rejecting the `2^w mod n` low halves that would make
/// some values more likely than others), on a 32-bit word when `n < 2^32` and a 64-bit one
/// otherwise.
fn uniform_below<R: Rng + ?Sized>(n: u64, bits: &mut Bits<'_, R>) -> u64 {
    debug_assert!(n >= 1);
    if let Ok(n) = u32::try_from(n) {
        loop {
            let m = u64::from(bits.word()) * u64::from(n);
            let low = m as u32;
            if low < n && low < n.wrapping_neg() % n {
                continue;
            }
            return m >> 32;
        }
    }
    loop {
        let m = u128::from(bits.word64()) * u128::from(n);
        let low = m as u64;
        if low < n && low < n.wrapping_neg() % n {
            continue;
        }
        return (m >> 64) as u64;
    }
}

/// A uniform integer in `[0, n)` for a `u128` bound `n >= 1`: rejection on the smallest
/// power of two above `n - 1` (two 64-bit words per try, fewer than two tries on average).
fn uniform_below_wide<R: Rng + ?Sized>(n: u128, bits: &mut Bits<'_, R>) -> u128 {
    debug_assert!(n >= 1);
    let mask = u128::MAX >> (n - 1).leading_zeros().min(127);
    loop {
        let x = ((u128::from(bits.word64()) << 64) | u128::from(bits.word64())) & mask;
        if x < n {
            return x;
        }
    }
}

/// Bernoulli(exp(-a/b)) for `a/b` in [0, 1] (`b >= 1`, `a <= b`): von Neumann's method. Draw
/// uniforms while `a/b > U_1 > U_2 > ...`; with `N` the length of that run,
/// `P(N >= n) = (a/b)^n / n!`, so `P(N even) = sum_n (-1)^n (a/b)^n / n! = exp(-a/b)`.
/// Expected words: `exp(a/b) <= e`.
fn bernoulli_exp_neg_unit<R: Rng + ?Sized>(a: u64, b: u64, bits: &mut Bits<'_, R>) -> bool {
    let Some(v) = fresh_below_ratio(a, b, bits) else {
        return true;
    };
    alternating_run_is_even(v, bits)
}

/// Given `U_1 = v` below the threshold (a run of length at least 1), extend the run
/// `U_1 > U_2 > ...` with fresh uniforms and return whether its length is even.
fn alternating_run_is_even<R: Rng + ?Sized>(mut v: Lazy, bits: &mut Bits<'_, R>) -> bool {
    let mut n: u64 = 1;
    while v.replace_if_fresh_is_smaller(bits) {
        n += 1;
    }
    n.is_multiple_of(2)
}

/// Bernoulli(exp(-a/b)) exactly for a rational `a/b >= 0` (`b >= 1`): `floor(a/b)`
/// Bernoulli(exp(-1)) draws that must all succeed, then one Bernoulli(exp(-(a mod b)/b))
/// (independent events multiply: `exp(-a/b) = exp(-1)^floor(a/b) exp(-(a mod b)/b)`).
pub fn bernoulli_exp_neg<R: Rng + ?Sized>(a: u64, b: u64, rng: &mut R) -> bool {
    assert!(
        b >= 1,
        "bernoulli_exp_neg: the denominator must be at least 1"
    );
    let bits = &mut Bits::new(rng);
    for _ in 0..a / b {
        if !bernoulli_exp_neg_unit(1, 1, bits) {
            return false;
        }
    }
    bernoulli_exp_neg_unit(a % b, b, bits)
}

/// The largest parameter (scale numerator and denominator, sigma numerator and denominator)
/// the fixed-width samplers take: `2^53`, so that every intermediate fits `u128` and a sample
/// fits `i64` except with probability below `exp(-500 000)` (the samplers report that case as
/// `None` rather than return a wrong value).
pub const MAX_PARAMETER: u64 = 1 << 53;

/// The discrete Laplace law `P(Y = y) ∝ exp(-|y| s / t)` on the integers (scale `t/s`), for
/// `1 <= s, t <= MAX_PARAMETER`: Canonne, Kamath & Steinke 2020, Algorithm 2.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DiscreteLaplace {
    t: u64,
    s: u64,
}

impl DiscreteLaplace {
    /// The law of scale `t/s`; `None` unless `1 <= s, t <= MAX_PARAMETER`.
    pub fn new(t: u64, s: u64) -> Option<Self> {
        ((1..=MAX_PARAMETER).contains(&t) && (1..=MAX_PARAMETER).contains(&s))
            .then_some(Self { t, s })
    }

    /// One sample (`None` only if it does not fit `i64`; see [`MAX_PARAMETER`]).
    pub fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<i64> {
        self.draw(&mut Bits::new(rng))
    }

    /// Fill `out` with independent samples (the batch form; `Err(k)` if sample `k` did not fit
    /// `i64`, `out[..k]` filled).
    pub fn fill<R: Rng + ?Sized>(&self, out: &mut [i64], rng: &mut R) -> Result<(), usize> {
        for (k, (entry, y)) in out.iter_mut().zip(self.samples(rng)).enumerate() {
            *entry = y.ok_or(k)?;
        }
        Ok(())
    }

    /// An endless stream of independent samples sharing one buffer of random bits (each item as
    /// [`Self::sample`]).
    pub fn samples<'a, R: Rng + ?Sized>(
        &'a self,
        rng: &'a mut R,
    ) -> impl Iterator<Item = Option<i64>> + 'a {
        let mut bits = Bits::new(rng);
        std::iter::repeat_with(move || self.draw(&mut bits))
    }

    /// CKS Algorithm 2: `U` uniform on `{0..t-1}`; reject unless Bernoulli(exp(-U/t)); `V` = the
    /// number of Bernoulli(exp(-1)) successes before the first failure; then `X = U + t V` is
    /// geometric, `P(X = x) ∝ exp(-x/t)`; `Y = floor(X / s)` is geometric with ratio
    /// `exp(-s/t)`; a fair sign `B`; reject `(B = 1, Y = 0)`; return `(1 - 2B) Y`.
    fn draw<R: Rng + ?Sized>(&self, bits: &mut Bits<'_, R>) -> Option<i64> {
        loop {
            let u = uniform_below(self.t, bits);
            if !bernoulli_exp_neg_unit(u, self.t, bits) {
                continue;
            }
            let mut v: u128 = 0;
            while bernoulli_exp_neg_unit(1, 1, bits) {
                v += 1;
            }
            let x = u128::from(u) + u128::from(self.t) * v;
            let y = x / u128::from(self.s);
            let negative = bits.bit();
            if negative && y == 0 {
                continue;
            }
            let y = i64::try_from(y).ok()?;
            return Some(if negative { -y } else { y });
        }
    }
}

/// The discrete Gaussian `P(Y = y) ∝ exp(-y^2 / (2 sigma^2))` on the integers, for a rational
/// `sigma = num / den` with `1 <= num, den <= MAX_PARAMETER`: Karney 2016, Algorithm D with
/// `mu = 0`.
///
/// One round: draw `k >= 0` with `P(k) ∝ exp(-k^2/2)` (Karney's step D1 draws it from
/// `P(k) ∝ exp(-k/2)` kept with probability `exp(-k(k-1)/2)`; [`crate::karney_index`] draws
/// it in one inversion: same law, no rejection in step D1); a fair sign `s`;
/// `i = ceil(k sigma) + j` with `j` uniform on `{0..ceil(sigma)-1}`; `x = i/sigma - k`; reject
/// when `x >= 1`, or when `x = 0`, `k = 0` and `s = -1` (the origin is counted once); keep with
/// probability `exp(-x (2k + x) / 2)`, drawn as `k + 1` independent runs of Algorithm B, each
/// true with probability `exp(-x (2k + x) / (2k + 2))`; return `s i`. Each integer `i >= 0`
/// comes from exactly one `k = floor(i / sigma)`, so a round returns `s i` with probability
/// `∝ exp(-k^2/2) exp(-x(2k + x)/2) / ceil(sigma) = exp(-(k + x)^2 / 2) / ceil(sigma)
/// = exp(-i^2 / (2 sigma^2)) / ceil(sigma)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DiscreteGaussian {
    /// `sigma = num / den` in lowest terms.
    num: u64,
    den: u64,
    /// `ceil(sigma)`.
    ceil_sigma: u64,
}

impl DiscreteGaussian {
    /// The law with `sigma = num / den`; `None` unless `1 <= num, den <= MAX_PARAMETER`.
    pub fn new(num: u64, den: u64) -> Option<Self> {
        if !((1..=MAX_PARAMETER).contains(&num) && (1..=MAX_PARAMETER).contains(&den)) {
            return None;
        }
        let g = gcd(num, den);
        let (num, den) = (num / g, den / g);
        Some(Self {
            num,
            den,
            ceil_sigma: num.div_ceil(den),
        })
    }

    /// `sigma` as `(numerator, denominator)` in lowest terms.
    pub fn sigma(&self) -> (u64, u64) {
        (self.num, self.den)
    }

    /// One sample (`None` only if it does not fit `i64`; see [`MAX_PARAMETER`]).
    pub fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<i64> {
        self.draw(&mut Bits::new(rng))
    }

    /// Fill `out` with independent samples (the batch form; `Err(k)` if sample `k` did not fit
    /// `i64`, `out[..k]` filled).
    pub fn fill<R: Rng + ?Sized>(&self, out: &mut [i64], rng: &mut R) -> Result<(), usize> {
        for (k, (entry, z)) in out.iter_mut().zip(self.samples(rng)).enumerate() {
            *entry = z.ok_or(k)?;
        }
        Ok(())
    }

    /// An endless stream of independent samples sharing one buffer of random bits (each item as
    /// [`Self::sample`]).
    pub fn samples<'a, R: Rng + ?Sized>(
        &'a self,
        rng: &'a mut R,
    ) -> impl Iterator<Item = Option<i64>> + 'a {
        let mut bits = Bits::new(rng);
        std::iter::repeat_with(move || self.draw(&mut bits))
    }

    fn draw<R: Rng + ?Sized>(&self, bits: &mut Bits<'_, R>) -> Option<i64> {
        let num = u128::from(self.num);
        let den = u128::from(self.den);
        loop {
            // Step D1: k with P(k) ∝ exp(-k^2/2), in one draw (crate::karney_index).
            let k = u128::from(karney_index::draw(|| bits.word64()));
            let negative = bits.bit();
            // i = ceil(k num / den) + j.
            let kn = k * num;
            let ceil_k_sigma = match k {
                0 => 0,
                1 => u128::from(self.ceil_sigma),
                // k num < 2^64 for k < 2^11 (num <= 2^53): a machine division.
                _ => match u64::try_from(kn) {
                    Ok(kn) => u128::from(kn.div_ceil(self.den)),
                    Err(_) => kn.div_ceil(den),
                },
            };
            let i = ceil_k_sigma + u128::from(uniform_below(self.ceil_sigma, bits));
            // x = i / sigma - k = (i den - k num) / num = p / num with p >= 0.
            let p = i * den - kn;
            if p >= num || (p == 0 && k == 0 && negative) {
                continue;
            }
            if p > 0 {
                // p < num <= 2^53: x = p / num in (0, 1).
                let p = p as u64;
                let mut runs = k + 1;
                let mut accepted = true;
                while runs > 0 {
                    if !self.algorithm_b(k, p, bits) {
                        accepted = false;
                        break;
                    }
                    runs -= 1;
                }
                if !accepted {
                    continue;
                }
            }
            let i = i64::try_from(i).ok()?;
            return Some(if negative { -i } else { i });
        }
    }

    /// Karney 2016, Algorithm B: true with probability `exp(-x (2k + x) / (2k + 2))` for
    /// `x = p / num` in (0, 1).
    ///
    /// Draw uniforms while `x > Z_1 > Z_2 > ...`, each step also passing an independent
    /// Bernoulli(`r`) with `r = (2k + x)/(2k + 2)`; with `N` the number of steps passed,
    /// `P(N >= n) = x^n r^n / n!`, so `P(N even) = exp(-x r)`. Bernoulli(`r`) is drawn as: `c`
    /// uniform on `{0..2k+1}`; pass when `c >= 2`; fail when `c = 1`; when `c = 0`, pass with
    /// probability `x` (`P = 2k/(2k+2) + x/(2k+2) = r`).
    fn algorithm_b<R: Rng + ?Sized>(&self, k: u128, p: u64, bits: &mut Bits<'_, R>) -> bool {
        // k is a u64 from step D1 (k >= K has probability about exp(-K^2/2)), so 2k + 2 fits
        // u64 unless k >= 2^63 - 1; the wide draw keeps the law exact regardless.
        let h = 2 * k + 2;
        let Some(mut v) = fresh_below_ratio(p, self.num, bits) else {
            return true;
        };
        let mut n: u64 = 0;
        loop {
            // Step n + 1's Bernoulli(r).
            let c = match u64::try_from(h) {
                // k = 0 (the commonest case): one fair bit.
                Ok(2) => u128::from(bits.bit()),
                Ok(h) => u128::from(uniform_below(h, bits)),
                Err(_) => uniform_below_wide(h, bits),
            };
            let pass = match c {
                0 => fresh_below_ratio(p, self.num, bits).is_some(),
                1 => false,
                _ => true,
            };
            if !pass {
                return n.is_multiple_of(2);
            }
            n += 1;
            if !v.replace_if_fresh_is_smaller(bits) {
                return n.is_multiple_of(2);
            }
        }
    }
}

/// The greatest common divisor of `a, b >= 1` by Stein's binary algorithm (shifts and
/// subtractions: the hardened sampler builds a law per call, with `b` usually a power of two).
fn gcd(mut a: u64, mut b: u64) -> u64 {
    debug_assert!(a >= 1 && b >= 1);
    let shift = (a | b).trailing_zeros();
    a >>= a.trailing_zeros();
    loop {
        b >>= b.trailing_zeros();
        if a > b {
            (a, b) = (b, a);
        }
        b -= a;
        if b == 0 {
            return a << shift;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{SeedableRng, TryRng};
    use rand_chacha::ChaCha20Rng;
    use std::convert::Infallible;

    /// A generator replaying a script of 32-bit words (then panicking): drives the lazy
    /// comparisons into their rare branches (ties over a whole word).
    struct Script(Vec<u32>);

    impl TryRng for Script {
        type Error = Infallible;
        fn try_next_u32(&mut self) -> Result<u32, Infallible> {
            assert!(!self.0.is_empty(), "script exhausted");
            Ok(self.0.remove(0))
        }
        fn try_next_u64(&mut self) -> Result<u64, Infallible> {
            let hi = u64::from(self.try_next_u32()?);
            Ok((hi << 32) | u64::from(self.try_next_u32()?))
        }
        fn try_fill_bytes(&mut self, _: &mut [u8]) -> Result<(), Infallible> {
            unreachable!("not used by the samplers")
        }
    }

    #[test]
    fn bernoulli_ratio_reads_on_after_an_undecided_word() {
        // U < 1/3 with first word r0 = floor(2^32 / 3): r0 * 3 = 2^32 - 1, so U lies in
        // [r0, r0 + 1) / 2^32, an interval containing 1/3: the next word decides, against
        // a' = 2^32 - 3 r0 = 1, i.e. the same question U' < 1/3.
        let r0 = 0x5555_5555;
        assert!(bernoulli_ratio(1, 3, &mut Script(vec![r0, 0])));
        assert!(!bernoulli_ratio(1, 3, &mut Script(vec![r0, 0x5555_5556])));
        assert!(bernoulli_ratio(
            1,
            3,
            &mut Script(vec![r0, r0, 0x5555_5554])
        ));
        // Decided on the first word.
        assert!(bernoulli_ratio(1, 3, &mut Script(vec![r0 - 1])));
        assert!(!bernoulli_ratio(1, 3, &mut Script(vec![r0 + 1])));
        // Certain outcomes read nothing.
        assert!(bernoulli_ratio(3, 3, &mut Script(vec![])));
        assert!(!bernoulli_ratio(0, 3, &mut Script(vec![])));
    }

    #[test]
    fn the_next_word_is_compared_with_the_remainder_of_the_ratio() {
        // U < 2/3 with first word r0 = floor(2^33 / 3): 3 r0 = 2^33 - 2, undecided; the next
        // word decides U' < a'/3 with a' = 2^33 - 3 r0 = 2 (not 2^33 / (3 r0) = 1 or any other
        // combination of the two): U' < 2/3 holds for the word 2e9 (2e9 / 2^32 = 0.47).
        let r0 = 2_863_311_530;
        assert!(bernoulli_ratio(2, 3, &mut Script(vec![r0, 2_000_000_000])));
        assert!(!bernoulli_ratio(2, 3, &mut Script(vec![r0, 3_000_000_000])));
    }

    #[test]
    fn lemire_rejects_exactly_the_low_halves_below_two_to_the_w_mod_n() {
        // n = 3: 2^32 mod 3 = 1, so only the low half 0 is rejected. The word 0x5555_5556 gives
        // 3 r = 2^32 + 2: high half 1, low half 2 >= 1, accepted (one word read).
        let mut script = Script(vec![0x5555_5556]);
        assert_eq!(uniform_below(3, &mut Bits::new(&mut script)), 1);
        // The word 0: low half 0 < 1, rejected; the next word 0xAAAA_AAAB (3 r = 2^33 + 1,
        // low half 1) is accepted: 2.
        let mut script = Script(vec![0, 0xAAAA_AAAB]);
        assert_eq!(uniform_below(3, &mut Bits::new(&mut script)), 2);
        // The 64-bit branch, n = 2^33 + 1: 2^64 mod n = 6442450945 = t. The word r = 0 (low
        // half 0) is rejected; r = 0xffff_ffff_8000_0001 has low half exactly t, accepted:
        // its high half 2^33.
        let n = (1u64 << 33) + 1;
        let mut script = Script(vec![0, 0, 0xffff_ffff, 0x8000_0001]);
        assert_eq!(uniform_below(n, &mut Bits::new(&mut script)), 1u64 << 33);
        // r = 0xffff_fff5_8000_0006: low half t + 5, high half 2^33 - 20.
        // r = 0x9a5f_4400_b2d0_5e00: low half 3e9, below t (rejected) though above
        // (2^64 - n) / n = 2^31 - 1; the next word (low half t) is accepted.
        let mut script = Script(vec![0x9a5f_4400, 0xb2d0_5e00, 0xffff_ffff, 0x8000_0001]);
        assert_eq!(uniform_below(n, &mut Bits::new(&mut script)), 1u64 << 33);
        let mut script = Script(vec![0xffff_fff5, 0x8000_0006]);
        assert_eq!(
            uniform_below(n, &mut Bits::new(&mut script)),
            (1u64 << 33) - 20
        );
    }

    /// The four 32-bit words of a 128-bit draw `(hi << 64) | lo` of `uniform_below_wide`.
    fn words128(hi: u64, lo: u64) -> Vec<u32> {
        vec![(hi >> 32) as u32, hi as u32, (lo >> 32) as u32, lo as u32]
    }

    #[test]
    fn the_wide_uniform_masks_to_the_bit_length_of_n_and_rejects_at_or_above_n() {
        // n = 2^64 + 5 (65 bits): the draw is masked to 65 bits, so a high word of 3 reads as
        // 1; 2^64 + 3 < n is accepted; 2^64 + 7 >= n is rejected and the next draw (9) taken.
        let n = (1u128 << 64) + 5;
        let mut script = Script(words128(3, 2));
        assert_eq!(
            uniform_below_wide(n, &mut Bits::new(&mut script)),
            (1 << 64) + 2
        );
        let mut script = Script([words128(1, 7), words128(0, 9)].concat());
        assert_eq!(uniform_below_wide(n, &mut Bits::new(&mut script)), 9);
        // n = 2^65 - 1: n - 1 has 65 bits and so does the mask (not 66, which n + 1 would
        // give): a high word of 6 reads as 0 and the draw is accepted at once.
        let n = (1u128 << 65) - 1;
        let mut script = Script(words128(6, 11));
        assert_eq!(uniform_below_wide(n, &mut Bits::new(&mut script)), 11);
        // A draw of exactly n is rejected (the range is [0, n), not [0, n]).
        let n = (1u128 << 64) + 5;
        let mut script = Script([words128(1, 5), words128(0, 9)].concat());
        assert_eq!(uniform_below_wide(n, &mut Bits::new(&mut script)), 9);
        // n = 2^65, a power of two: the mask is the bit length of n - 1 (65 bits), not of n
        // (66), so a high word of 2 (bit 65) reads as 0 and the draw 11 is accepted at once.
        let n = 1u128 << 65;
        let mut script = Script([words128(2, 11), words128(0, 13)].concat());
        assert_eq!(uniform_below_wide(n, &mut Bits::new(&mut script)), 11);
    }

    #[test]
    fn a_tie_over_a_word_compares_the_next_words() {
        let mut v = Lazy {
            head: 7,
            tail: Vec::new(),
        };
        // Fresh Z: first word 7 (tie); v's second word is drawn (100), then Z's (99): Z < v.
        let mut script = Script(vec![7, 100, 99]);
        let bits = &mut Bits::new(&mut script);
        assert!(v.replace_if_fresh_is_smaller(bits));
        assert_eq!((v.head, v.tail.clone()), (7, vec![99]));
        // Fresh Z: 7, then v's known second word 99 against Z's 99 (tie), v's third word drawn
        // (5) against Z's (6): Z > v, v unchanged but for its drawn third word.
        let mut script = Script(vec![7, 99, 5, 6]);
        let bits = &mut Bits::new(&mut script);
        assert!(!v.replace_if_fresh_is_smaller(bits));
        assert_eq!((v.head, v.tail.clone()), (7, vec![99, 5]));
    }

    #[test]
    fn uniform_below_rejects_the_biased_low_words() {
        // n = 3: 2^32 mod 3 = 1, so a low half of 0 is rejected. r = 0 gives m = 0 (low 0 <
        // 1): rejected; r = 2^31 gives m = 3 * 2^31 = 2^32 + 2^31, value 1.
        let mut script = Script(vec![0, 1 << 31]);
        assert_eq!(uniform_below(3, &mut Bits::new(&mut script)), 1);
    }

    #[test]
    fn parameters_are_validated_and_reduced() {
        assert!(DiscreteGaussian::new(0, 1).is_none());
        assert!(DiscreteGaussian::new(1, 0).is_none());
        assert!(DiscreteGaussian::new(MAX_PARAMETER + 1, 1).is_none());
        assert_eq!(DiscreteGaussian::new(14, 6).unwrap().sigma(), (7, 3));
        assert!(DiscreteLaplace::new(0, 1).is_none());
        assert!(DiscreteLaplace::new(1, MAX_PARAMETER + 1).is_none());
        assert!(DiscreteLaplace::new(MAX_PARAMETER, MAX_PARAMETER).is_some());
    }

    #[test]
    fn binary_gcd_is_euclid() {
        let euclid = |mut a: u64, mut b: u64| {
            while b != 0 {
                (a, b) = (b, a % b);
            }
            a
        };
        let mut rng = ChaCha20Rng::seed_from_u64(9);
        for _ in 0..10_000 {
            let a = (rand::Rng::next_u64(&mut rng) >> (rand::Rng::next_u32(&mut rng) % 64)).max(1);
            let b = (rand::Rng::next_u64(&mut rng) >> (rand::Rng::next_u32(&mut rng) % 64)).max(1);
            assert_eq!(gcd(a, b), euclid(a, b), "{a} {b}");
        }
        assert_eq!(gcd(12, 1 << 40), 4);
        assert_eq!(gcd(1, 1), 1);
    }

    #[test]
    fn the_batch_is_deterministic_for_a_seed() {
        let law = DiscreteGaussian::new(7, 3).unwrap();
        let mut a = [0i64; 100];
        let mut b = [0i64; 100];
        law.fill(&mut a, &mut ChaCha20Rng::seed_from_u64(5))
            .unwrap();
        law.fill(&mut b, &mut ChaCha20Rng::seed_from_u64(5))
            .unwrap();
        assert_eq!(a, b);
        assert!(a.iter().any(|&x| x != a[0]));
    }

    #[test]
    fn bernoulli_exp_frequencies() {
        // Binomial count of n draws; |count - n p| <= 5.5 sqrt(n p (1-p)) fails w.p. < 4e-8
        // per case (normal approximation, n = 200 000).
        let mut rng = ChaCha20Rng::seed_from_u64(1);
        for &(a, b) in &[(1u64, 3u64), (1, 1), (5, 2), (7, 1), (12_345, 1024)] {
            let p = (-(a as f64 / b as f64)).exp();
            let n = 200_000;
            let c = (0..n).filter(|_| bernoulli_exp_neg(a, b, &mut rng)).count() as f64;
            let sd = (n as f64 * p * (1.0 - p)).sqrt();
            assert!(
                (c - n as f64 * p).abs() <= 5.5 * sd.max(1.0),
                "{a}/{b}: {c} vs {}",
                n as f64 * p
            );
        }
    }

    #[test]
    fn algorithm_b_accepts_with_probability_exp_of_minus_x_2k_plus_x_over_2k_plus_2() {
        // Karney's Algorithm B for x = p / num and k: P(true) = exp(-x (2k + x) / (2k + 2)).
        // Hoeffding: |count / n - P| > sqrt(ln(2 / 1e-7) / (2 n)) = 0.0092 at n = 100 000 has
        // probability below 1e-7 per case. A Bernoulli(r) step that passed on c = 0 without
        // its Bernoulli(x) (r = (2k + 1)/(2k + 2)) would give exp(-x (2k + 1) / (2k + 2)):
        // 0.1037 lower at (k, x) = (0, 1/2), 0.026 at (2, 1/4), 0.036 at (1, 3/4).
        let g = DiscreteGaussian::new(4, 1).unwrap();
        let mut rng = ChaCha20Rng::seed_from_u64(2);
        let n = 100_000;
        let tol = ((2.0f64 / 1e-7).ln() / (2.0 * n as f64)).sqrt();
        for &(k, p) in &[(0u128, 2u64), (2, 1), (1, 3), (5, 1)] {
            let x = p as f64 / 4.0;
            let kf = k as f64;
            let want = (-x * (2.0 * kf + x) / (2.0 * kf + 2.0)).exp();
            let mut bits = Bits::new(&mut rng);
            let c = (0..n).filter(|_| g.algorithm_b(k, p, &mut bits)).count() as f64;
            assert!(
                (c / n as f64 - want).abs() <= tol,
                "k = {k}, x = {x}: {} vs {want}",
                c / n as f64
            );
        }
    }
}
