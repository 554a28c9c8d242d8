//! Per-round cost of DP-FTS-DE (Algorithms 1 and 2) at the paper's two scales:
//!
//! - synthetic (Sec. 5.1): N = 200 agents, M = 50 features, 1000 points of [0, 1], P = 2;
//! - real-world (Sec. 5.2): N = 29 agents, M = 100, the 625-point 25 x 25 grid of the SVM
//!   tuning table (a synthetic function on the same grid when the table is unavailable), P = 4.
//!
//! One round = every agent selects (Thompson sample or the server's vectors, Algorithm 2 lines
//! 4-8: `O(M^2 + |X| M)`), observes (a rank-one Cholesky update, `O(M^2)`) and samples its
//! vector (line 10, `O(M^2)`), one agent after the other on one thread (`run_federation`
//! spreads the agents over rayon's threads); then the private server aggregates (Algorithm 1:
//! Poisson subsample, clip, weigh, hardened discrete-Gaussian noise on `P M` entries) and the
//! accountant composes one round. Measured after the initialisation (N_init = 10 points per
//! agent) and 5 rounds, at the fixed iteration t = 10 (the cost does not depend on `t`; the
//! posteriors keep growing, which costs the same per observation). Also the two acquisition
//! argmaxes alone (`Phi w` over the domain, and per sub-region).

use std::hint::black_box;
use std::sync::Arc;

use bandit::domain::{BoxDomain, Partition};
use criterion::{Criterion, criterion_group, criterion_main};
use dp_fts_de::{
    AgentVector, Broadcast, CentralServer, DpFtsDeParams, FederatedProblem, FtsAgent,
    SharedFeatures, SubRegionWeights, beta_schedule,
};
use ndarray::{Array1, Array2};
use privacy::mechanisms::subsampled::SubsampledGaussian;
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use rand_distr::{Distribution, StandardNormal};

/// The iteration every measured round claims to be (schedules and weights of t = 10).
const T_MEASURED: usize = 10;

struct Federation {
    problem: FederatedProblem,
    features: Arc<SharedFeatures>,
    agents: Vec<FtsAgent>,
    server: CentralServer,
    broadcast: Option<Broadcast>,
    rng: ChaCha20Rng,
}

impl Federation {
    fn new(problem: FederatedProblem, params: &DpFtsDeParams) -> Self {
        let mut rng = ChaCha20Rng::seed_from_u64(1);
        let n = problem.n_agents();
        let partition =
            Partition::equal_volume(problem.bounds().clone(), params.sub_regions).expect("P");
        let features = SharedFeatures::draw(
            problem.domain().clone(),
            &partition,
            params.lengthscale,
            params.features,
            &mut rng,
        )
        .expect("features");
        let beta = beta_schedule(&problem, params).expect("beta");
        let weights = SubRegionWeights::new(
            SubRegionWeights::round_robin(n, params.sub_regions),
            params.sub_regions,
            params.a,
            params.weighting,
        )
        .expect("weights");
        let dp = params.privacy.expect("a private preset");
        let mech = SubsampledGaussian::new(dp.q, dp.clip, dp.z)
            .expect("mechanism")
            .with_sampler(dp.sampler);
        let server =
            CentralServer::private(weights.clone(), mech, dp.delta_for(n)).expect("server");
        let mut agents = Vec::with_capacity(n);
        for k in 0..n {
            let mut agent = FtsAgent::new(
                Arc::clone(&features),
                Arc::clone(&beta),
                params.exploration,
                weights.region_of(k).unwrap_or(0),
                params.lambda,
            )
            .expect("agent");
            for x in agent.initial_points(params.n_init, params.init, &mut rng) {
                let y = observation(&problem, k, x, &mut rng);
                agent.observe(x, y).expect("observe");
            }
            agents.push(agent);
        }
        let mut fed = Self {
            problem,
            features,
            agents,
            server,
            broadcast: None,
            rng,
        };
        fed.aggregate(0, None);
        for _ in 0..5 {
            fed.round();
        }
        fed
    }

    fn aggregate(&mut self, t: usize, vectors: Option<Vec<AgentVector>>) {
        let vectors = vectors.unwrap_or_else(|| {
            self.agents
                .iter()
                .map(|a| a.sample_vector(&mut self.rng).expect("vector"))
                .collect()
        });
        self.broadcast = Some(
            self.server
                .aggregate(t, vectors, &mut self.rng)
                .expect("aggregate"),
        );
    }

    /// One round at iteration `T_MEASURED`: every agent selects, observes and samples its
    /// vector; the server aggregates.
    fn round(&mut self) {
        let mut vectors = Vec::with_capacity(self.agents.len());
        for (k, agent) in self.agents.iter_mut().enumerate() {
            let (x, _) = agent
                .select(T_MEASURED, self.broadcast.as_ref(), &mut self.rng)
                .expect("select");
            let y = observation(&self.problem, k, x, &mut self.rng);
            agent.observe(x, y).expect("observe");
            vectors.push(agent.sample_vector(&mut self.rng).expect("vector"));
        }
        self.aggregate(T_MEASURED, Some(vectors));
    }
}

fn observation(problem: &FederatedProblem, n: usize, x: usize, rng: &mut ChaCha20Rng) -> f64 {
    let e: f64 = StandardNormal.sample(rng);
    problem.objective(n)[x] + problem.noise_sd() * e
}

/// The SVM table of Sec. 5.2, or (without the data) 29 smooth functions on the same grid.
fn real_world_problem() -> (FederatedProblem, &'static str) {
    match FederatedProblem::svm_digits(&bandit::dataset::default_data_dir()) {
        Ok(p) => (p, "svm-digits"),
        Err(_) => {
            let bounds = BoxDomain::unit(2).expect("box");
            let grid = bounds.grid(&[25, 25]).expect("grid");
            let points = grid.points();
            let objectives = Array2::from_shape_fn((29, grid.len()), |(n, i)| {
                (5.0 * points[[i, 0]] + 0.1 * n as f64).sin() * (4.0 * points[[i, 1]]).cos()
            });
            let p = FederatedProblem::new("grid-25x25", bounds, grid, objectives, 0.0)
                .expect("problem");
            (p, "grid-25x25")
        }
    }
}

fn bench_setting(c: &mut Criterion, name: &str, problem: FederatedProblem, params: DpFtsDeParams) {
    let label = format!(
        "{name}/N={}/M={}/X={}",
        problem.n_agents(),
        params.features,
        problem.domain().len()
    );
    let mut fed = Federation::new(problem, &params);
    c.bench_function(&format!("round/{label}"), |b| {
        b.iter(|| {
            fed.round();
            black_box(fed.broadcast.as_ref().map(|b| b.vectors()[[0, 0]]))
        });
    });
    let mut rng = ChaCha20Rng::seed_from_u64(2);
    let w: Array1<f64> = (0..fed.features.dim())
        .map(|_| StandardNormal.sample(&mut rng))
        .collect();
    let by_region = Array2::from_shape_fn((fed.features.n_regions(), fed.features.dim()), |_| {
        StandardNormal.sample(&mut rng)
    });
    let features = Arc::clone(&fed.features);
    c.bench_function(&format!("argmax/{label}"), |b| {
        b.iter(|| black_box(features.argmax(black_box(w.view()))));
    });
    c.bench_function(
        &format!("argmax_by_region/{label}/P={}", features.n_regions()),
        |b| {
            b.iter(|| black_box(features.argmax_by_region(black_box(by_region.view()))));
        },
    );
}

fn bench(c: &mut Criterion) {
    let synthetic =
        FederatedProblem::synthetic(200, &mut ChaCha20Rng::seed_from_u64(2021)).expect("problem");
    bench_setting(c, "synthetic", synthetic, DpFtsDeParams::synthetic());
    let (real, name) = real_world_problem();
    bench_setting(c, name, real, DpFtsDeParams::real_world());
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10);
    targets = bench
}
criterion_main!(benches);
