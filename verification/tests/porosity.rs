//! The porosity test (Mironov 2012) on the privacy crate's samplers: the textbook Laplace
//! sampler leaves outputs under x = 0 that no uniform double produces from x' = 1; the hardened
//! sampler does not. The reachability search evaluates the mechanism itself on replayed uniforms.

use privacy::Sampler;
use privacy::mechanisms::LaplaceMechanism;
use privacy::sampler::{Grid, Norm};
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use verification::audit::porosity::{Piece, ReplayRng, TEXTBOOK_PIECES, reachable};

const PIECES: [Piece; 2] = TEXTBOOK_PIECES;

fn image(m: &LaplaceMechanism, x: f64) -> impl Fn(u64) -> f64 + '_ {
    move |k| m.release_scalar(x, &mut ReplayRng::new(k << 11)).unwrap()
}

/// The search assumes the textbook map `k -> output` is monotone on each piece; check it on
/// windows at many places (including near the centre, where outputs are finest).
#[test]
fn textbook_map_is_monotone_on_each_piece() {
    let m = LaplaceMechanism::new(1.0, 1.0)
        .unwrap()
        .with_sampler(Sampler::Textbook);
    let f = image(&m, 1.0);
    let mut rng = ChaCha20Rng::seed_from_u64(1);
    let starts: Vec<u64> = (0..200)
        .map(|_| rand::RngExt::random_range(&mut rng, 1..(1u64 << 53) - 5000))
        .chain([1, (1 << 52) - 2000, 1 << 52])
        .collect();
    for s in starts {
        for p in PIECES {
            if s >= p.start && s + 2000 <= p.end {
                assert!(
                    (s..s + 2000).all(|k| f(k) <= f(k + 1)),
                    "not monotone near k = {s}"
                );
            }
        }
    }
}

#[test]
fn textbook_sampler_is_porous_and_its_own_outputs_are_reachable() {
    for eps in [0.1, 1.0, 4.0] {
        let m = LaplaceMechanism::new(eps, 1.0)
            .unwrap()
            .with_sampler(Sampler::Textbook);
        let from_xp = image(&m, 1.0);
        let mut rng = ChaCha20Rng::seed_from_u64(7);
        let mut unreachable = 0;
        for _ in 0..2000 {
            let y = m.release_scalar(0.0, &mut rng).unwrap();
            unreachable += usize::from(!reachable(&from_xp, y, &PIECES));
            let y_prime = m.release_scalar(1.0, &mut rng).unwrap();
            assert!(
                reachable(&from_xp, y_prime, &PIECES),
                "an output of x' is not found reachable from x'"
            );
        }
        // Mironov 2012: most outputs near 0 have more precision than any output near 1.
        assert!(
            unreachable > 1000,
            "eps = {eps}: only {unreachable}/2000 unreachable"
        );
    }
}

#[test]
fn hardened_sampler_outputs_lie_on_its_grid() {
    let m = LaplaceMechanism::new(1.0, 1.0).unwrap();
    let w = Grid::for_sensitivity(1.0, 1, Norm::L1).unwrap().width();
    let mut rng = ChaCha20Rng::seed_from_u64(9);
    for _ in 0..2000 {
        let y = m.release_scalar(0.0, &mut rng).unwrap();
        // Exact: w is a power of two, so y / w is exact and must be an integer.
        assert!(
            (y / w).fract().abs() < f64::MIN_POSITIVE,
            "{y} is off the grid of width {w}"
        );
    }
}
