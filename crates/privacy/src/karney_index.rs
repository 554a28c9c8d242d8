//! Step D1 of Karney's Algorithm D in one draw: the integer `k >= 0` with
//! `P(k) = exp(-k^2/2) / Z`, `Z = sum_{j >= 0} exp(-j^2/2)`, by inversion.
//!
//! Karney 2016 ("Sampling exactly from the normal distribution", ACM TOMS 42(1), Sec. 5) draws
//! `k` with `P(k) ∝ exp(-k/2)` and keeps it with probability `exp(-k(k-1)/2)`, restarting the
//! whole round otherwise; the kept `k` has the law above. Both stages are sequences of
//! Bernoulli(exp(-1/2)) draws, about 3.3 per round, and a third of the rounds end there. This
//! module draws the kept `k` directly: `k = min{k : U < C_k}` for one uniform real `U` in
//! [0, 1) and the cumulative probabilities `C_k = sum_{j <= k} exp(-j^2/2) / Z`, so
//! `P(k) = C_k - C_{k-1}` exactly. A round of Algorithm D that starts from this `k` has the same
//! law as one that starts from Karney's two stages conditioned on keeping `k`, and the rejected
//! rounds of those stages only restart the round, so the sampler's output law is unchanged.
//!
//! The `C_k` are irrational; the comparison `U < C_k` is nevertheless exact. `U` is revealed 64
//! bits at a time and `C_k` is known through rigorous intervals at any precision
//! (`cumulative`): with `U`'s first `m` words `u` (`U` in `[u, u + 1) / 2^(64 m)`) and
//! `C_k` in `[lo, hi] / 2^(64 m)`, `U < C_k` holds surely when `u + 1 <= lo` and fails surely
//! when `u >= hi`; otherwise one more word of `U` and a tighter interval decide. On the first
//! word this reads a table of 64-bit bounds (`hi - lo = 1`), so the slow path, in arbitrary
//! precision, is taken for one first word per table entry: probability `10 / 2^64` per draw.
//!
//! The intervals rest on one series: `exp(-1/2) = sum_n (-1/2)^n / n!`, an alternating series
//! whose terms decrease, so its partial sum `S_N` is within the first omitted term
//! `1 / (2^(N+1) (N+1)!)` of the limit. Powers, sums and the quotient by `Z` are taken on
//! integer bounds rounded outwards (floor for the lower bound, ceiling for the upper one), and
//! `Z`'s tail after `J` terms lies in `[0, 2 exp(-(J+1)^2/2)]`, because
//! `sum_{j > J} exp(-j^2/2) <= exp(-(J+1)^2/2) / (1 - exp(-(J+1))) <= 2 exp(-(J+1)^2/2)`.

use std::sync::OnceLock;

use num_bigint::BigUint;
use num_integer::Integer;
use num_traits::{One, Zero};

/// Extra bits carried by the interval arithmetic beyond the precision asked for: enough to
/// absorb the outward rounding of a few hundred operations (each adds at most one unit).
const GUARD_BITS: u64 = 32;

/// `x / 2^shift` rounded down (`up = false`) or up (`up = true`).
fn shift_round(x: &BigUint, shift: u64, up: bool) -> BigUint {
    let q = x >> shift;
    if up && (&q << shift) != *x {
        q + 1u32
    } else {
        q
    }
}

/// `a / b` rounded down or up (`b > 0`).
fn div_round(a: &BigUint, b: &BigUint, up: bool) -> BigUint {
    let (q, r) = a.div_rem(b);
    if up && !r.is_zero() { q + 1u32 } else { q }
}

/// Bounds `(lo, hi)` with `lo <= 2^bits exp(-1/2) <= hi` and `hi - lo <= 3`.
///
/// `S_N = A / D` with `D = 2^N N!` and `A = sum_{n <= N} (-1)^n 2^(N-n) N!/n!` exactly; `N` is
/// the first with `2^(N+1) (N+1)! >= 2^bits`, so the limit is within `2^-bits` of `S_N` (one
/// unit) and `[floor(2^bits S_N) - 1, ceil(2^bits S_N) + 1]` contains `2^bits exp(-1/2)`.
fn exp_neg_half(bits: u64) -> (BigUint, BigUint) {
    let target = BigUint::one() << bits;
    // omitted = 2^(N+1) (N+1)!, the reciprocal of the first omitted term.
    let mut n: u64 = 0;
    let mut omitted = BigUint::from(2u32);
    while omitted < target {
        n += 1;
        omitted *= 2 * (n + 1);
    }
    // A and D by Horner's rule over the terms: D_n = 2 n D_{n-1}, and every term
    // (-1)^i 2^(n-i) n!/i! of A_n is 2 n times the same term of A_{n-1}, plus (-1)^n.
    let mut positive = BigUint::one(); // the terms of A with even i
    let mut negative = BigUint::zero(); // minus the terms with odd i
    let mut d = BigUint::one();
    for i in 1..=n {
        positive *= 2 * i;
        negative *= 2 * i;
        d *= 2 * i;
        if i % 2 == 0 {
            positive += 1u32;
        } else {
            negative += 1u32;
        }
    }
    let a = positive - negative;
    let scaled = &a << bits;
    let lo = div_round(&scaled, &d, false);
    let hi = div_round(&scaled, &d, true);
    (if lo.is_zero() { lo } else { lo - 1u32 }, hi + 1u32)
}

/// Interval bounds in units of `2^-bits`.
#[derive(Debug, Clone)]
struct Bounds {
    lo: BigUint,
    hi: BigUint,
}

impl Bounds {
    /// The product of two non-negative intervals, rescaled to `2^-bits` with outward rounding.
    fn times(&self, other: &Bounds, bits: u64) -> Bounds {
        Bounds {
            lo: shift_round(&(&self.lo * &other.lo), bits, false),
            hi: shift_round(&(&self.hi * &other.hi), bits, true),
        }
    }
}

/// Bounds on `2^bits C_k` for `k = 0..=last`, valid for every `bits`, computed at the working
/// precision `bits + GUARD_BITS`; `hi - lo <= 2` at the precisions the tests check (64, 128
/// and 256 bits). The terms `exp(-j^2/2) = exp(-1/2)^(j^2)` are built as
/// `exp(-(j+1)^2/2) = exp(-j^2/2) exp(-1/2)^(2j+1)`.
pub(crate) fn cumulative(last: u64, bits: u64) -> Vec<(BigUint, BigUint)> {
    let work = bits + GUARD_BITS;
    let (lo, hi) = exp_neg_half(work);
    let q = Bounds { lo, hi };
    let unit = BigUint::one() << work;
    // q^(2j+1) for the current j, and the term exp(-j^2/2).
    let mut odd_power = q.clone();
    let mut term = Bounds {
        lo: unit.clone(),
        hi: unit.clone(),
    };
    let mut partial: Vec<Bounds> = Vec::new();
    let mut sum = Bounds {
        lo: BigUint::zero(),
        hi: BigUint::zero(),
    };
    // Sum the terms until the next one's upper bound is at most one unit and every asked-for
    // partial sum exists; the tail after the last summed term is then at most 2 units.
    let mut j: u64 = 0;
    loop {
        sum.lo += &term.lo;
        sum.hi += &term.hi;
        if j <= last {
            partial.push(sum.clone());
        }
        // term <- term * q^(2j+1); odd_power <- q^(2j+3).
        term = term.times(&odd_power, work);
        odd_power = odd_power.times(&q, work).times(&q, work);
        j += 1;
        if j > last && term.hi <= BigUint::one() {
            break;
        }
    }
    let z = Bounds {
        lo: sum.lo,
        hi: with_tail(&sum.hi, &term.hi),
    };
    let one = BigUint::one() << bits;
    partial
        .iter()
        .map(|s| {
            let lo = div_round(&(&s.lo << bits), &z.hi, false);
            let hi = div_round(&(&s.hi << bits), &z.lo, true).min(one.clone());
            (lo, hi)
        })
        .collect()
}

/// The first-word bounds of `C_0, C_1, ...`: `lo_k <= 2^64 C_k <= hi_k`, up to the first `k`
/// whose lower bound is `2^64 - 1` (every word below `2^64 - 1` is decided by then).
struct Table {
    lo: Vec<u128>,
    hi: Vec<u128>,
}

fn table() -> &'static Table {
    static TABLE: OnceLock<Table> = OnceLock::new();
    TABLE.get_or_init(|| {
        // C_k >= 1 - 2^-64 from k = 9 on (1 - C_9 = exp(-50) / Z * (1 + ...) < 2^-72); 16 is
        // ample, and the loop below stops at the first k that is decided for every word.
        let bounds = cumulative(16, 64);
        let mut lo = Vec::new();
        let mut hi = Vec::new();
        for (l, h) in bounds {
            let l = u128::try_from(l).expect("lo <= 2^64");
            let h = u128::try_from(h).expect("hi <= 2^64");
            lo.push(l);
            hi.push(h);
            if l == u128::from(u64::MAX) {
                break;
            }
        }
        Table { lo, hi }
    })
}

/// Draw `k` with `P(k) = exp(-k^2/2) / Z`, taking 64-bit words from `word` (one, except with
/// probability `10 / 2^64`: a first word equal to a table entry's one undecided value).
pub fn draw(mut word: impl FnMut() -> u64) -> u64 {
    let t = table();
    let w = word();
    let w128 = u128::from(w);
    for (k, (&lo, &hi)) in t.lo.iter().zip(&t.hi).enumerate() {
        if w128 < lo {
            // U < (w + 1) / 2^64 <= lo / 2^64 <= C_k, and U >= w / 2^64 >= C_{k-1}.
            return k as u64;
        }
        if w128 < hi {
            return slow(k as u64, vec![w], &mut word);
        }
    }
    // Not reached with this table: its last entry (lo = 2^64 - 1, hi = 2^64) decides every w.
    slow(t.lo.len() as u64, vec![w], &mut word)
}

/// The comparisons from `C_first` on, in arbitrary precision, for the `U` whose first words are
/// `words` (every `C_k` with `k < first` is known to be at most `U`).
#[cold]
#[inline(never)]
fn slow(first: u64, mut words: Vec<u64>, word: &mut impl FnMut() -> u64) -> u64 {
    let mut k = first;
    loop {
        let bits = 64 * words.len() as u64;
        let (lo, hi) = cumulative(k, bits).pop().expect("k + 1 partial sums");
        let u = words
            .iter()
            .fold(BigUint::zero(), |acc, &w| (acc << 64u32) + BigUint::from(w));
        // u + 1 <= lo: U < (u + 1) / 2^bits <= C_k.
        if u < lo {
            return k;
        }
        if u >= hi {
            k += 1;
        } else {
            words.push(word());
        }
    }
}

/// The upper bound of `Z` from the upper bound of its partial sum up to `J` and that of the
/// first omitted term `exp(-(J+1)^2/2)`: the tail `sum_{j > J} exp(-j^2/2)` is at most
/// `exp(-(J+1)^2/2) / (1 - exp(-(J+1))) <= 2 exp(-(J+1)^2/2)` (for `J >= 0`:
/// `1 / (1 - e^-1) = 1.58`).
fn with_tail(partial_hi: &BigUint, next_term_hi: &BigUint) -> BigUint {
    partial_hi + 2u32 * next_term_hi
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `floor(2^128 exp(-1/2))` and `floor(2^128 C_k)` for k = 0..11, from mpmath at 100 digits
    /// (`floor(exp(-mpf(1)/2) * 2**128)`; `Z = nsum(lambda j: exp(-j**2/mpf(2)), [0, inf])`): a
    /// second, independent computation of the constants.
    const EXP_NEG_HALF_128: u128 = 0x9b45_97e3_7cb0_4ff3_d675_a355_30cd_d767;
    const C_128: [u128; 12] = [
        0x9202_5b19_482c_e72b_d402_41fe_3d85_03e0,
        0xea91_7985_47a0_ef93_d55d_4ff9_ab84_2149,
        0xfe54_15c6_e9da_4bae_eaba_b39c_56d4_19be,
        0xfff3_5233_1990_8c11_d937_bd03_927c_2f09,
        0xffff_dc31_b8ef_5942_488c_43f4_219a_48e8,
        0xffff_ffda_a2d7_2344_f06d_574f_25e2_6ea2,
        0xffff_ffff_f1a2_0da4_272e_3924_79b0_e3d6,
        0xffff_ffff_fffd_f76c_4ac9_d6ef_1966_7473,
        0xffff_ffff_ffff_ffe4_e341_e1b0_f476_4936,
        0xffff_ffff_ffff_ffff_ff7b_01de_dd7a_579c,
        0xffff_ffff_ffff_ffff_ffff_ff10_0072_148c,
        0xffff_ffff_ffff_ffff_ffff_ffff_ff60_ab69,
    ];

    #[test]
    fn the_series_brackets_exp_minus_one_half() {
        let (lo, hi) = exp_neg_half(128);
        let reference = BigUint::from(EXP_NEG_HALF_128);
        assert!(lo <= reference && reference < hi, "{lo} {reference} {hi}");
        assert!(&hi - &lo <= BigUint::from(3u32));
        // Low precisions too (the lower bound is clamped at 0 there).
        for bits in [0u64, 1, 2, 5, 64] {
            let (lo, hi) = exp_neg_half(bits);
            let r = BigUint::from(EXP_NEG_HALF_128) >> (128 - bits);
            assert!(lo <= r && r < hi, "bits {bits}: {lo} {r} {hi}");
        }
    }

    /// The reference value of `C_k` at `bits <= 128` bits: `floor(2^bits C_k)`.
    fn reference(k: usize, bits: u64) -> BigUint {
        BigUint::from(C_128[k]) >> (128 - bits)
    }

    #[test]
    fn the_cumulative_bounds_contain_the_reference_and_are_at_most_two_units_wide() {
        for bits in [64u64, 128] {
            let bounds = cumulative(11, bits);
            assert_eq!(bounds.len(), 12);
            for (k, (lo, hi)) in bounds.iter().enumerate() {
                let r = reference(k, bits);
                assert!(lo <= &r && &r < hi, "k {k}, bits {bits}: {lo} {r} {hi}");
                assert!(hi - lo <= BigUint::from(2u32), "k {k}, bits {bits}");
            }
        }
        // At 256 bits the bounds still contain the 128-bit reference interval's points.
        for (k, (lo, hi)) in cumulative(11, 256).iter().enumerate() {
            let r = reference(k, 128);
            assert!(
                lo < &((&r + 1u32) << 128u32) && hi >= &(&r << 128u32),
                "k {k}"
            );
            assert!(hi - lo <= BigUint::from(2u32), "k {k}");
        }
    }

    #[test]
    fn the_table_holds_the_first_word_bounds_up_to_k_9() {
        let t = table();
        assert_eq!(t.lo.len(), 10);
        for (k, c) in C_128.iter().enumerate().take(10) {
            let r = u128::from((c >> 64) as u64);
            assert!(
                t.lo[k] <= r && r < t.hi[k] && t.hi[k] - t.lo[k] == 1,
                "k {k}"
            );
        }
        assert_eq!(t.lo[9], u128::from(u64::MAX));
    }

    /// A draw from scripted 64-bit words (panicking when the script runs out).
    fn scripted(words: &[u64]) -> u64 {
        let mut it = words.iter().copied();
        draw(|| it.next().expect("script exhausted"))
    }

    #[test]
    fn one_word_decides_away_from_the_constants() {
        assert_eq!(scripted(&[0]), 0);
        let top = |k: usize| (C_128[k] >> 64) as u64;
        assert_eq!(scripted(&[top(0) - 3]), 0);
        assert_eq!(scripted(&[top(0) + 3]), 1);
        assert_eq!(scripted(&[top(1) - 3]), 1);
        assert_eq!(scripted(&[top(1) + 3]), 2);
        assert_eq!(scripted(&[top(4) + 3]), 5);
        assert_eq!(scripted(&[top(8) + 3]), 9);
        assert_eq!(scripted(&[u64::MAX - 1]), 9);
    }

    #[test]
    fn a_word_on_a_constant_reads_the_next_word_against_its_next_bits() {
        // U's first word is C_k's: the second word against C_k's second 64 bits decides.
        for k in [0usize, 1, 3, 8] {
            let top = (C_128[k] >> 64) as u64;
            let next = C_128[k] as u64;
            assert_eq!(scripted(&[top, next - 1]), k as u64, "k {k}");
            assert_eq!(scripted(&[top, next + 1]), k as u64 + 1, "k {k}");
        }
        // Past the table: U = 0.ffff_ffff_ffff_ffff ... lies above C_9 when its second word
        // exceeds C_9's, and below C_10 (whose second word is larger).
        let next9 = C_128[9] as u64;
        assert_eq!(scripted(&[u64::MAX, next9 - 1]), 9);
        assert_eq!(scripted(&[u64::MAX, next9 + 1]), 10);
        let next10 = C_128[10] as u64;
        assert_eq!(scripted(&[u64::MAX, next10 + 1]), 11);
        // A tie over two words reads a third.
        let c = C_128[0];
        let third = cumulative(0, 192).pop().unwrap().0;
        let third = (&third & BigUint::from(u64::MAX))
            .iter_u64_digits()
            .next()
            .unwrap_or(0);
        assert_eq!(scripted(&[(c >> 64) as u64, c as u64, third - 1]), 0);
        assert_eq!(scripted(&[(c >> 64) as u64, c as u64, third + 2]), 1);
    }

    #[test]
    fn outward_rounding_rounds_down_or_up_and_keeps_exact_values() {
        let b = |x: u64| BigUint::from(x);
        // 13 / 4 = 3.25; 12 / 4 = 3 exactly; 13 / 1 = 13.
        assert_eq!(shift_round(&b(13), 2, false), b(3));
        assert_eq!(shift_round(&b(13), 2, true), b(4));
        assert_eq!(shift_round(&b(12), 2, false), b(3));
        assert_eq!(shift_round(&b(12), 2, true), b(3));
        assert_eq!(shift_round(&b(13), 0, true), b(13));
        assert_eq!(shift_round(&b(0), 5, true), b(0));
        // 2^70 + 1 over 2^64: 64 and a bit, so 65 rounded up.
        let x = (BigUint::one() << 70u32) + 1u32;
        assert_eq!(shift_round(&x, 64, true), b(65));
        assert_eq!(shift_round(&x, 64, false), b(64));
        assert_eq!(div_round(&b(13), &b(4), false), b(3));
        assert_eq!(div_round(&b(13), &b(4), true), b(4));
        assert_eq!(div_round(&b(12), &b(4), true), b(3));
        assert_eq!(div_round(&b(12), &b(5), true), b(3));
    }

    #[test]
    fn the_tail_allowance_is_twice_the_first_omitted_term() {
        let b = |x: u64| BigUint::from(x);
        assert_eq!(with_tail(&b(10), &b(1)), b(12));
        assert_eq!(with_tail(&b(10), &b(0)), b(10));
        assert_eq!(with_tail(&b(7), &b(3)), b(13));
    }

    #[test]
    fn every_partial_sum_asked_for_is_returned_even_past_the_negligible_terms() {
        // At 64 bits the terms fall below one unit of the working precision from j = 12 on;
        // the partial sums up to `last` still all come back, and C_last is the last one.
        for last in [0u64, 11, 12, 13, 20, 40] {
            let bounds = cumulative(last, 64);
            assert_eq!(bounds.len() as u64, last + 1, "last {last}");
            // C_last for last >= 9 is within 2^-64 of 1: its upper bound is 2^64.
            if last >= 9 {
                assert_eq!(
                    bounds[last as usize].1,
                    BigUint::one() << 64u32,
                    "last {last}"
                );
            }
        }
    }
}
