//! Per-round cost of Algorithm 1 behind each curator at m = 50, 200, 800 (NQFF in d = 2 with
//! mbar = 5, 10, 20): one round = the server's `select` over 25 points of the square
//! [-1.4, 1.4]^2 (inside Section 6.1's ball of radius 2), the curator's release of
//! `(x_t, y_t)` (JDP: a tree push of the `(m+1) x (m+1)` outer product; non-private: the exact
//! sums) and the server's `observe` (one Cholesky of the `m x m` matrix `V_t`: O(m^3)).
//! Measured after 16 warm-up rounds, rounds following each other (the cost does not depend on
//! `t`). Both samplers at every m: the hardened one draws the node's exact discrete Gaussians
//! with the fixed-width sampler in one batch (`privacy::exact_fixed`; 321 201 draws a round at
//! m = 800).

use std::hint::black_box;
use std::sync::Arc;

use bandit::agent::{Agent, Curator, Feedback};
use criterion::{Criterion, criterion_group, criterion_main};
use jdp_qff::experiments::{DUBEY_LENGTHSCALE, DUBEY_N};
use jdp_qff::features::nqff;
use jdp_qff::{ApproximateGpUcb, JdpQffParams, StatisticsMessage, WidthParams, jdp, non_private};
use kernel::QuadratureFourierFeatures;
use ndarray::Array2;
use privacy::Sampler;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha20Rng;

type Server<M> = ApproximateGpUcb<QuadratureFourierFeatures, M>;

/// One round: select, release, observe.
fn round<M: StatisticsMessage, C: Curator<Message = M, Error = jdp_qff::JdpQffError>>(
    server: &mut Server<M>,
    curator: &mut C,
    d: &Array2<f64>,
    t: &mut usize,
    rng: &mut ChaCha20Rng,
) {
    let action = server.select(d.view(), rng).expect("select");
    let reward = f64::from(u8::from(rng.random_bool(0.5)));
    let fb = Feedback {
        round: *t,
        action,
        point: d.row(action),
        reward,
    };
    let m = curator.curate(&fb, rng).expect("release");
    server.observe(m).expect("observe");
    *t += 1;
}

fn bench_curator<M: StatisticsMessage, C: Curator<Message = M, Error = jdp_qff::JdpQffError>>(
    c: &mut Criterion,
    name: &str,
    mut server: Server<M>,
    mut curator: C,
) {
    let mut rng = ChaCha20Rng::seed_from_u64(1);
    let d = Array2::from_shape_fn((DUBEY_N, 2), |_| rng.random_range(-1.4..1.4));
    let mut t = 0;
    for _ in 0..16 {
        round(&mut server, &mut curator, &d, &mut t, &mut rng);
    }
    c.bench_function(name, |b| {
        b.iter(|| {
            round(&mut server, &mut curator, &d, &mut t, &mut rng);
            black_box(server.sqrt_beta())
        });
    });
}

fn bench(c: &mut Criterion) {
    for mbar in [5usize, 10, 20] {
        let features = Arc::new(nqff(2, DUBEY_LENGTHSCALE, mbar).expect("features"));
        let m = 2 * mbar * mbar;
        let (server, exact) =
            non_private(Arc::clone(&features), WidthParams::default()).expect("non-private");
        bench_curator(c, &format!("round/non-private/m={m}"), server, exact);
        for (sampler, name) in [
            (Sampler::Textbook, "textbook"),
            (Sampler::Hardened, "hardened"),
        ] {
            let params = JdpQffParams {
                sampler,
                ..JdpQffParams::section_6_1()
            };
            let (server, privatizer) = jdp(Arc::clone(&features), 1 << 20, &params).expect("jdp");
            bench_curator(c, &format!("round/jdp-{name}/m={m}"), server, privatizer);
        }
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10);
    targets = bench
}
criterion_main!(benches);
