//! Exact samplers on the integers (Canonne, Kamath & Steinke 2020, "The Discrete Gaussian for
//! Differential Privacy", Algorithms 1-3) and a hardened uniform double.
//!
//! Every sampler here uses only random bits and exact integer arithmetic (`num-bigint`): no
//! floating-point operation is on the sampling path, so the output distribution is exactly the
//! stated one (Mironov 2012's attack on the low-order bits of floating-point noise does not
//! apply). Rational parameters are taken as numerator/denominator pairs; [`dyadic`] turns a
//! finite non-negative `f64` into the exact rational it represents.

use num_bigint::{BigInt, BigUint, Sign};
use num_integer::Integer;
use num_traits::{One, ToPrimitive, Zero};
use rand::Rng;

/// The exact rational value of a finite `x >= 0` as `(numerator, denominator)`, the denominator
/// a power of two (every finite double is a dyadic rational). `None` for negative or
/// non-finite input.
pub fn dyadic(x: f64) -> Option<(BigUint, BigUint)> {
    if !(x.is_finite() && x >= 0.0) {
        return None;
    }
    if x == 0.0 {
        return Some((BigUint::zero(), BigUint::one()));
    }
    let (mantissa, exponent) = mantissa_exponent(x);
    if exponent >= 0 {
        Some((
            BigUint::from(mantissa) << (exponent as usize),
            BigUint::one(),
        ))
    } else {
        // Lowest terms: the gcd of `m` and `2^-e` is `2^k` with `k` the smaller of `m`'s
        // trailing zero bits and `-e` (`m > 0` here), so no arbitrary-precision gcd is needed.
        let k = i64::from(mantissa.trailing_zeros()).min(-exponent);
        Some((
            BigUint::from(mantissa >> k),
            BigUint::one() << ((-exponent - k) as usize),
        ))
    }
}

/// [`dyadic`] in machine integers: the exact value of a finite `x > 0` as `(numerator,
/// denominator)` in lowest terms when both are at most `max`; `None` otherwise (zero, negative,
/// non-finite, or too many bits). The fast path of the hardened samplers
/// ([`crate::exact_fixed`]) takes its parameters this way.
pub fn dyadic_u64(x: f64, max: u64) -> Option<(u64, u64)> {
    if !(x.is_finite() && x > 0.0) {
        return None;
    }
    let (mantissa, exponent) = mantissa_exponent(x);
    let (num, den) = if exponent >= 0 {
        let shift = u32::try_from(exponent).ok()?;
        if shift >= 64 || mantissa.leading_zeros() < shift {
            return None;
        }
        (mantissa << shift, 1)
    } else {
        // Lowest terms as in `dyadic`: cancel the common power of two.
        let k = i64::from(mantissa.trailing_zeros()).min(-exponent);
        let shift = u32::try_from(-exponent - k).ok()?;
        if shift >= 64 {
            return None;
        }
        (mantissa >> k, 1u64 << shift)
    };
    (num <= max && den <= max).then_some((num, den))
}

/// The exact value of a finite `x` as `(m, e)` with `x = m 2^e` (`m` a signed integer with at
/// most 53 bits); `None` for non-finite `x`.
pub fn signed_dyadic(x: f64) -> Option<(BigInt, i64)> {
    if !x.is_finite() {
        return None;
    }
    let (mantissa, exponent) = mantissa_exponent(x);
    let sign = if x.is_sign_negative() && mantissa != 0 {
        Sign::Minus
    } else {
        Sign::Plus
    };
    Some((
        BigInt::from_biguint(sign, BigUint::from(mantissa)),
        exponent,
    ))
}

/// The unsigned mantissa and the exponent of a finite double: `|x| = mantissa 2^exponent`
/// (IEEE 754 binary64: 52 stored fraction bits, the implicit leading 1 for normal numbers,
/// exponent bias 1023, subnormals at `2^-1074`).
fn mantissa_exponent(x: f64) -> (u64, i64) {
    let bits = x.to_bits();
    let exp_field = ((bits >> 52) & 0x7ff) as i64;
    let frac = bits & ((1u64 << 52) - 1);
    if exp_field == 0 {
        (frac, -1074)
    } else {
        (frac | (1u64 << 52), exp_field - 1075)
    }
}

/// A uniform integer in `[0, n)`, `n >= 1`, by rejection on `bits(n - 1)` random bits (fewer
/// than two draws on average).
pub fn uniform_below<R: Rng + ?Sized>(n: &BigUint, rng: &mut R) -> BigUint {
    if n.is_zero() || n.is_one() {
        return BigUint::zero();
    }
    if let Some(small) = n.to_u64() {
        return BigUint::from(uniform_below_u64(small, rng));
    }
    let bits = (n - 1u32).bits();
    let words = bits.div_ceil(32) as usize;
    let top_bits = bits - 32 * (words as u64 - 1);
    let mask: u32 = if top_bits == 32 {
        u32::MAX
    } else {
        (1u32 << top_bits) - 1
    };
    let mut buf = vec![0u32; words];
    loop {
        for w in buf.iter_mut() {
            *w = rng.next_u32();
        }
        buf[words - 1] &= mask;
        let x = BigUint::from_slice(&buf);
        if &x < n {
            return x;
        }
    }
}

/// A uniform integer in `[0, n)` for `n >= 1`, by rejection on a bit mask.
pub fn uniform_below_u64<R: Rng + ?Sized>(n: u64, rng: &mut R) -> u64 {
    if n <= 1 {
        return 0;
    }
    let mask = u64::MAX >> (n - 1).leading_zeros();
    loop {
        let x = rng.next_u64() & mask;
        if x < n {
            return x;
        }
    }
}

/// Bernoulli(n/d) exactly, for `0 <= n <= d`, `d >= 1`: a uniform integer below `d` is below `n`.
pub fn bernoulli_ratio<R: Rng + ?Sized>(n: &BigUint, d: &BigUint, rng: &mut R) -> bool {
    if n.is_zero() {
        return false;
    }
    if n >= d {
        return true;
    }
    &uniform_below(d, rng) < n
}

/// Bernoulli(exp(-n/d)) exactly for a rational `n/d >= 0` (`d >= 1`): Canonne, Kamath & Steinke
/// 2020, Algorithm 1.
///
/// For `gamma = n/d` in [0, 1]: draw `A_k ~ Bernoulli(gamma/k)` for `k = 1, 2, ...` until the
/// first `A_k = 0`; return 1 iff that `k` is odd (`P = sum_k (-1)^(k-1) gamma^(k-1)/(k-1)! ...
/// = exp(-gamma)`). For `gamma > 1`: `floor(gamma)` independent Bernoulli(exp(-1)) draws all
/// equal to 1, then one Bernoulli(exp(-(gamma - floor(gamma)))).
pub fn bernoulli_exp_neg<R: Rng + ?Sized>(n: &BigUint, d: &BigUint, rng: &mut R) -> bool {
    if n.is_zero() {
        return true;
    }
    if n <= d {
        return bernoulli_exp_neg_unit(n, d, rng);
    }
    let (whole, rest) = n.div_rem(d);
    let one = BigUint::one();
    let mut k = BigUint::zero();
    while k < whole {
        if !bernoulli_exp_neg_unit(&one, &one, rng) {
            return false;
        }
        k += 1u32;
    }
    bernoulli_exp_neg_unit(&rest, d, rng)
}

/// Algorithm 1 of Canonne, Kamath & Steinke 2020 for `gamma = n/d` in [0, 1].
fn bernoulli_exp_neg_unit<R: Rng + ?Sized>(n: &BigUint, d: &BigUint, rng: &mut R) -> bool {
    let mut k: u64 = 1;
    loop {
        let dk = d * k;
        if bernoulli_ratio(n, &dk, rng) {
            k += 1;
        } else {
            return k % 2 == 1;
        }
    }
}

/// The discrete Laplace distribution `P(Y = y) ∝ exp(-|y| s / t)` on the integers (scale
/// `t/s`), exactly: Canonne, Kamath & Steinke 2020, Algorithm 2. `s, t >= 1`.
///
/// Loop: `U` uniform on `{0..t-1}`; reject unless Bernoulli(exp(-U/t)); `V` = number of
/// Bernoulli(exp(-1)) successes before the first failure (geometric); `X = U + t V` is geometric
/// with ratio `exp(-1/t)`; `Y = floor(X / s)`; a fair sign `B`; reject `(B = 1, Y = 0)`; return
/// `(1 - 2B) Y`.
pub fn discrete_laplace<R: Rng + ?Sized>(s: &BigUint, t: &BigUint, rng: &mut R) -> BigInt {
    let one = BigUint::one();
    loop {
        let u = uniform_below(t, rng);
        if !bernoulli_exp_neg(&u, t, rng) {
            continue;
        }
        let mut v = BigUint::zero();
        while bernoulli_exp_neg_unit(&one, &one, rng) {
            v += 1u32;
        }
        let x = u + t * v;
        let y = x / s;
        let negative = rng.next_u32() & 1 == 1;
        if negative && y.is_zero() {
            continue;
        }
        return BigInt::from_biguint(if negative { Sign::Minus } else { Sign::Plus }, y);
    }
}

/// The discrete Gaussian `P(Y = y) ∝ exp(-y^2 / (2 sigma^2))` on the integers, `sigma^2 = p/q`
/// rational (`p, q >= 1`), exactly: Canonne, Kamath & Steinke 2020, Algorithm 3.
///
/// With `t = floor(sigma) + 1`: draw `Y` from the discrete Laplace of scale `t`, accept with
/// probability `exp(-(|Y| - sigma^2/t)^2 / (2 sigma^2))`, i.e. Bernoulli(exp(-num/den)) with
/// `num = (|Y| q t - p)^2` and `den = 2 p q t^2` (exact).
pub fn discrete_gaussian<R: Rng + ?Sized>(p: &BigUint, q: &BigUint, rng: &mut R) -> BigInt {
    // floor(sqrt(p/q)) = floor(sqrt(floor(p/q))).
    let t = (p / q).sqrt() + 1u32;
    let one = BigUint::one();
    let den = BigUint::from(2u32) * p * q * &t * &t;
    let pq = BigInt::from(p.clone());
    let qt = BigInt::from(q * &t);
    loop {
        let y = discrete_laplace(&one, &t, rng);
        let diff = BigInt::from(y.magnitude().clone()) * &qt - &pq;
        let num = diff.magnitude() * diff.magnitude();
        if bernoulli_exp_neg(&num, &den, rng) {
            return y;
        }
    }
}

/// [`discrete_laplace`] with scale `num / den` given as machine integers (both >= 1); the
/// sample as `i64` (`None` if it does not fit or a parameter is 0).
pub fn discrete_laplace_small<R: Rng + ?Sized>(num: u64, den: u64, rng: &mut R) -> Option<i64> {
    if num == 0 || den == 0 {
        return None;
    }
    discrete_laplace(&BigUint::from(den), &BigUint::from(num), rng).to_i64()
}

/// [`discrete_gaussian`] with `sigma^2 = num / den` given as machine integers (both >= 1); the
/// sample as `i64` (`None` if it does not fit or a parameter is 0).
pub fn discrete_gaussian_small<R: Rng + ?Sized>(num: u64, den: u64, rng: &mut R) -> Option<i64> {
    if num == 0 || den == 0 {
        return None;
    }
    discrete_gaussian(&BigUint::from(num), &BigUint::from(den), rng).to_i64()
}

/// A uniform double on [0, 1) at full precision: every double `x` in [2^-1074, 1) is returned
/// with probability equal to the length of `[x, next(x))`, i.e. the law of a uniform real rounded
/// down to a double.
///
/// The binary exponent is geometric (count leading zero bits of an unbounded random bit stream:
/// `x` lies in `[2^-(z+1), 2^-z)` with probability `2^-(z+1)`), then 52 uniform mantissa bits.
/// The textbook `random::<f64>()` instead returns multiples of 2^-53 only, so values below
/// 2^-53 are never produced and small values have few significant bits (Mironov 2012). Values
/// below 2^-1022 (probability 2^-1022) are returned as 0.
pub fn hardened_uniform<R: Rng + ?Sized>(rng: &mut R) -> f64 {
    let mut zeros: u32 = 0;
    loop {
        let w = rng.next_u64();
        if w != 0 {
            zeros += w.leading_zeros();
            break;
        }
        zeros += 64;
        if zeros >= 1022 {
            return 0.0;
        }
    }
    if zeros >= 1022 {
        return 0.0;
    }
    // x in [2^-(zeros+1), 2^-zeros): biased exponent 1023 - (zeros + 1).
    let exponent = u64::from(1022 - zeros);
    let mantissa = rng.next_u64() >> 12;
    f64::from_bits((exponent << 52) | mantissa)
}

/// The integer nearest to a finite `x` (ties away from zero), exactly, as a big integer.
pub fn round_to_bigint(x: f64) -> Option<BigInt> {
    if !x.is_finite() {
        return None;
    }
    let r = x.round();
    let (n, d) = dyadic(r.abs())?;
    debug_assert!(d.is_one());
    Some(BigInt::from_biguint(
        if r < 0.0 { Sign::Minus } else { Sign::Plus },
        n / d,
    ))
}

#[cfg(test)]
#[allow(clippy::float_cmp)] // exact arithmetic is what these tests check
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha20Rng;

    proptest::proptest! {
        /// `dyadic` is the rational in lowest terms: `n / d` with `gcd(n, d) = 1`, `d` a power of
        /// two, and `n = x d` exactly (checked against the definition with a big-integer gcd),
        /// for normal and subnormal doubles alike.
        #[test]
        fn dyadic_is_in_lowest_terms(bits in 1u64..0x7ff0_0000_0000_0000) {
            let x = f64::from_bits(bits);
            let (n, d) = dyadic(x).unwrap();
            let (mantissa, exponent) = mantissa_exponent(x);
            let (want_n, want_d) = if exponent >= 0 {
                (BigUint::from(mantissa) << (exponent as usize), BigUint::one())
            } else {
                let m = BigUint::from(mantissa);
                let d = BigUint::one() << ((-exponent) as usize);
                let g = m.gcd(&d);
                (m / &g, d / g)
            };
            proptest::prop_assert_eq!(n, want_n);
            proptest::prop_assert_eq!(d, want_d);
        }
    }

    proptest::proptest! {
        /// `dyadic_u64` agrees with `dyadic` whenever both parts fit, and refuses otherwise.
        #[test]
        fn dyadic_u64_is_dyadic_when_it_fits(bits in 1u64..0x7ff0_0000_0000_0000, cap in 0u32..64) {
            let x = f64::from_bits(bits);
            let max = if cap == 63 { u64::MAX } else { 1u64 << cap };
            let (n, d) = dyadic(x).unwrap();
            let fits = n.to_u64().is_some_and(|n| n <= max) && d.to_u64().is_some_and(|d| d <= max);
            match dyadic_u64(x, max) {
                Some((a, b)) => {
                    proptest::prop_assert!(fits);
                    proptest::prop_assert_eq!((BigUint::from(a), BigUint::from(b)), (n, d));
                }
                None => proptest::prop_assert!(!fits),
            }
        }
    }

    #[test]
    fn dyadic_is_exact() {
        let (n, d) = dyadic(0.375).unwrap();
        assert_eq!((n, d), (BigUint::from(3u32), BigUint::from(8u32)));
        let (n, d) = dyadic(1024.0).unwrap();
        assert_eq!((n, d), (BigUint::from(1024u32), BigUint::one()));
        let (n, d) = dyadic(0.1).unwrap();
        assert_eq!(n.to_f64().unwrap() / d.to_f64().unwrap(), 0.1);
        assert!(dyadic(-1.0).is_none() && dyadic(f64::NAN).is_none());
        assert_eq!(round_to_bigint(-2.5).unwrap(), BigInt::from(-3));
        assert_eq!(round_to_bigint(1e300).unwrap().to_f64().unwrap(), 1e300);
    }

    #[test]
    fn bernoulli_exp_frequencies() {
        // Binomial count of n draws; |count - n p| <= 5.5 sqrt(n p (1-p)) fails w.p. < 4e-8
        // (normal approximation, n = 20000).
        let mut rng = ChaCha20Rng::seed_from_u64(1);
        for &(num, den) in &[(1u32, 3u32), (1, 1), (5, 2), (7, 1)] {
            let p = (-(f64::from(num) / f64::from(den))).exp();
            let n = 20_000;
            let c = (0..n)
                .filter(|_| bernoulli_exp_neg(&BigUint::from(num), &BigUint::from(den), &mut rng))
                .count() as f64;
            let sd = (n as f64 * p * (1.0 - p)).sqrt();
            assert!(
                (c - n as f64 * p).abs() <= 5.5 * sd,
                "{num}/{den}: {c} vs {}",
                n as f64 * p
            );
        }
    }

    #[test]
    fn hardened_uniform_range_and_mean() {
        let mut rng = ChaCha20Rng::seed_from_u64(2);
        let n = 100_000;
        let mut s = 0.0;
        for _ in 0..n {
            let u = hardened_uniform(&mut rng);
            assert!((0.0..1.0).contains(&u));
            s += u;
        }
        // Mean 1/2, sd of the mean sqrt(1/12/n); 6 sd fails w.p. < 2e-9.
        assert!((s / n as f64 - 0.5).abs() < 6.0 * (1.0 / 12.0 / n as f64).sqrt());
    }
}
