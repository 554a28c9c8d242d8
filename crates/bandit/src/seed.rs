//! The one seed mixer of the workspace: SplitMix64 (Steele, Lea & Flood 2014, "Fast splittable
//! pseudorandom number generators"; Vigna's reference `splitmix64.c`), and the derivation of
//! the ChaCha20 streams of a trial from a base seed.
//!
//! # Formula
//!
//! SplitMix64 with state `s` outputs `mix(s)` and moves to `s + 0x9e3779b97f4a7c15`, where
//!
//! ```text
//! mix(s): z = s + 0x9e3779b97f4a7c15
//!         z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
//!         z = (z ^ (z >> 27)) * 0x94d049bb133111eb
//!         return z ^ (z >> 31)                      (all arithmetic mod 2^64)
//! ```
//!
//! Trial `i` of a batch with base seed `b` gives component `role` (0 environment, 1 agent,
//! 2 curator: [`Role`]) the ChaCha20 generator with key [`seed_key`]`(b)` (the four SplitMix64
//! outputs from state `b`, each little-endian) and stream `4 i + role` ([`stream`]), word
//! position 0 ([`trial_rng`]). These are the values of `fixtures/bandit/trial_seeds.json`.

use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;

/// The SplitMix64 increment, `floor(2^64 / phi)` (odd).
pub const GOLDEN_GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// SplitMix64's output from state `state` (module docs): a bijection of `u64` that scrambles
/// every input bit into every output bit. Used to derive independent-looking seeds from
/// structured ones (`mix(seed ^ mix(i))`), and by [`seed_key`].
pub fn mix(state: u64) -> u64 {
    let mut z = state.wrapping_add(GOLDEN_GAMMA);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The ChaCha20 key derived from a base seed: the four SplitMix64 outputs from state
/// `base_seed` (`mix(b)`, `mix(b + gamma)`, `mix(b + 2 gamma)`, `mix(b + 3 gamma)`), each
/// written little-endian.
pub fn seed_key(base_seed: u64) -> [u8; 32] {
    let mut state = base_seed;
    let mut key = [0u8; 32];
    for chunk in key.chunks_exact_mut(8) {
        chunk.copy_from_slice(&mix(state).to_le_bytes());
        state = state.wrapping_add(GOLDEN_GAMMA);
    }
    key
}

/// Which component of a trial an RNG stream belongs to (the stream is `4 * trial + role`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u64)]
pub enum Role {
    /// The environment (its factory, decision sets and reward noise).
    Environment = 0,
    /// The agent (its factory and its `select` calls).
    Agent = 1,
    /// The curator (its factory and its `curate` calls).
    Curator = 2,
}

/// The ChaCha20 stream number of component `role` in trial `trial`: `4 trial + role`
/// (mod 2^64).
pub fn stream(trial: usize, role: Role) -> u64 {
    (trial as u64).wrapping_mul(4).wrapping_add(role as u64)
}

/// The RNG of component `role` in trial `trial` of a batch seeded with `base_seed`: key
/// [`seed_key`]`(base_seed)`, stream [`stream`]`(trial, role)`, word position 0.
pub fn trial_rng(base_seed: u64, trial: usize, role: Role) -> ChaCha20Rng {
    let mut rng = ChaCha20Rng::from_seed(seed_key(base_seed));
    rng.set_stream(stream(trial, role));
    rng
}

/// A generator of its own for the component named `label`, derived from `parent`: key = the
/// next 32 bytes of `parent` (the only draw from it), stream = [`fnv1a64`]`(label)`. Two labels
/// give different streams of the same key (unless their hashes collide); the same parent state
/// and label give the same generator, so the streams are as reproducible as the labels (a
/// label built from a `Debug` form changes when the type's fields do). Used where components that would share one stream (the curves of a figure,
/// drawing their privacy noise from a trial's one stream) must draw independently.
pub fn own_stream(parent: &mut ChaCha20Rng, label: &str) -> ChaCha20Rng {
    let mut key = [0u8; 32];
    rand::Rng::fill_bytes(parent, &mut key);
    let mut rng = ChaCha20Rng::from_seed(key);
    rng.set_stream(fnv1a64(label.as_bytes()));
    rng
}

/// FNV-1a, 64 bits (offset basis [`FNV1A64_OFFSET`], prime `0x100000001b3`): a hash stable
/// across platforms and compiler versions.
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    fnv1a64_update(FNV1A64_OFFSET, bytes)
}

/// FNV-1a's offset basis: the state before any byte.
pub const FNV1A64_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;

/// FNV-1a continued over `bytes` from `state` (a hash of data read in pieces):
/// `fnv1a64_update(fnv1a64(a), b) == fnv1a64(a ++ b)`.
pub fn fnv1a64_update(state: u64, bytes: &[u8]) -> u64 {
    bytes.iter().fold(state, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

#[cfg(test)]
mod tests {
    use super::{fnv1a64, own_stream};
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha20Rng;

    #[test]
    fn fnv1a64_matches_its_published_test_vectors() {
        assert_eq!(fnv1a64(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a64(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a64(b"foobar"), 0x8594_4171_f739_67e8);
        assert_eq!(
            super::fnv1a64_update(fnv1a64(b"foo"), b"bar"),
            fnv1a64(b"foobar")
        );
    }

    /// The same parent state and label give the same generator; another label, or the parent
    /// one draw further on, another; the parent advances by exactly its 32-byte key.
    #[test]
    fn own_streams_are_reproducible_and_distinct() {
        let words = |mut r: ChaCha20Rng| -> Vec<u64> { (0..4).map(|_| r.random()).collect() };
        let parent = || ChaCha20Rng::seed_from_u64(9);
        let a = words(own_stream(&mut parent(), "alpha-1"));
        assert_eq!(a, words(own_stream(&mut parent(), "alpha-1")));
        assert_ne!(a, words(own_stream(&mut parent(), "alpha-0.5")));
        let mut later = parent();
        let _: u64 = later.random();
        assert_ne!(a, words(own_stream(&mut later, "alpha-1")));
        let mut p = parent();
        own_stream(&mut p, "x");
        let mut q = parent();
        let mut key = [0u8; 32];
        rand::Rng::fill_bytes(&mut q, &mut key);
        assert_eq!(words(p), words(q));
    }
}
