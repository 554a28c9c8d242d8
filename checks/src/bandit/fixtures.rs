//! The bandit fixtures (`fixtures/bandit/`).

use bandit::dataset::{DataSetProblem, light_sensor, stocks};
use bandit::domain::{BoxDomain, Partition};
use bandit::objective::{Camelback, Michalewicz, Objective, StyblinskiTang};
use bandit::runner::{Role, seed_key, trial_rng};
use ndarray::Array2;
use rand::{Rng as _, RngExt, SeedableRng};
use rand_chacha::ChaCha20Rng;
use serde_json::json;
use verification::CheckError;
use verification::fixtures::{
    Entry, Fixture, Tolerance, entry, matrix, number, tolerances, vector,
};

// ----------------------------------------------------------------------------------------
// Fixtures

pub(super) fn fixed_points(n: usize, d: usize, seed: u64) -> Array2<f64> {
    // Rounded to 3 decimals in [-0.5, 0.5] so that the inputs are exact in text.
    let mut r = ChaCha20Rng::seed_from_u64(seed);
    Array2::from_shape_fn((n, d), |_| {
        (r.random::<f64>() * 1000.0).round() / 1000.0 - 0.5
    })
}

pub(super) fn dataset_fixture(name: &str, p: &DataSetProblem, description: &str) -> Entry {
    let rows = 3.min(p.n_arms());
    entry(
        &format!("bandit/{name}.json"),
        Fixture {
            name: name.into(),
            description: description.into(),
            inputs: json!({"data_folder_files": if p.coords.is_some() {
                json!(["light_sensor_train.csv", "light_sensor_test.csv"]) } else { json!(["stocks_adjusted_close.csv"]) },
                "arm_names": p.arm_names}),
            outputs: json!({
                "n_arms": p.n_arms(),
                "scale": number(p.scale),
                "f": vector(p.f.view()),
                "gram_first_rows": matrix(p.gram.slice_axis(ndarray::Axis(0), ndarray::Slice::from(0..rows))),
                "b": number(p.b),
                "r": number(p.r),
                "v": number(p.v),
                "c": number(p.c),
            }),
            tolerances: tolerances([
                (
                    "b",
                    Tolerance::closed_form("reward / scale (dimensionless)", 1.0),
                ),
                ("c", Tolerance::closed_form("(reward / scale)^2", 1.0)),
                (
                    "f",
                    Tolerance::closed_form("reward / scale (dimensionless)", 1.0),
                ),
                (
                    "gram_first_rows",
                    Tolerance::closed_form("correlation (dimensionless)", 1.0),
                ),
                ("n_arms", Tolerance::exact("count", "a count: exact")),
                (
                    "r",
                    Tolerance::closed_form("reward / scale (dimensionless)", 1.0),
                ),
                (
                    "scale",
                    Tolerance::closed_form("the data's reading units", 1.0),
                ),
                ("v", Tolerance::closed_form("(reward / scale)^2", 1.0)),
            ]),
        },
    )
}

/// The fixtures of this area.
pub fn fixtures() -> Result<Vec<Entry>, CheckError> {
    let mut out = Vec::new();

    let cam_x = fixed_points(6, 2, 31);
    let st_x = fixed_points(4, 5, 32);
    let mi_x = fixed_points(4, 10, 33);
    let st = StyblinskiTang::new(5)?;
    let mi = Michalewicz::new(10)?;
    let cam_max = Camelback
        .maximum()
        .ok_or_else(|| CheckError::msg("camelback maximum"))?;
    let st_max = st
        .maximum()
        .ok_or_else(|| CheckError::msg("styblinski-tang maximum"))?;
    let mi_max = mi
        .maximum()
        .ok_or_else(|| CheckError::msg("michalewicz maximum"))?;
    out.push(entry(
        "bandit/benchmarks.json",
        Fixture {
            name: "benchmarks".into(),
            description: "Mutny & Krause (2018) benchmark functions on [-0.5, 0.5]^d (maximisation forms, docs/bandit.md). \
                camelback (d = 2): u = 4 x1, v = 2 x2, f = -((4 - 2.1 u^2 + u^4/3) u^2 + u v + (-4 + 4 v^2) v^2) / 5. \
                styblinski_tang (d = 5): z = 8 x, f = -(0.5 sum_i (z_i^4 - 16 z_i^2 + 5 z_i) / (200 d) + 0.5). \
                michalewicz (d = 10): w_i = x_i / 0.75 + 0.5, f = sum_{i=1}^d sin(pi w_i) sin(i w_i)^(2d). \
                Values at the given points (rows) and the maxima: camelback_maximisers lists both maximisers, the one with x1 > 0 first; the others one maximiser each."
                .into(),
            inputs: json!({
                "camelback_points": matrix(cam_x.view()),
                "styblinski_tang_points": matrix(st_x.view()),
                "michalewicz_points": matrix(mi_x.view()),
            }),
            outputs: json!({
                "camelback_values": vector(Camelback.values(cam_x.view())?.view()),
                "styblinski_tang_values": vector(st.values(st_x.view())?.view()),
                "michalewicz_values": vector(mi.values(mi_x.view())?.view()),
                "camelback_max": number(cam_max.value),
                "camelback_maximisers": matrix(cam_max.maximisers.view()),
                "styblinski_tang_max": number(st_max.value),
                "styblinski_tang_maximiser": vector(st_max.maximisers.row(0)),
                "michalewicz_max": number(mi_max.value),
                "michalewicz_maximiser": vector(mi_max.maximisers.row(0)),
            }),
            tolerances: tolerances([
                ("camelback_max", Tolerance::closed_form("objective value", 1.0)),
                ("camelback_maximisers", Tolerance::new("coordinate of a maximiser", 1e-7, 0.0,
                    "a maximiser is determined by its value only to about sqrt(machine epsilon) ~ 1.5e-8 (the \
                     function is flat there); ours come from 13-digit textbook constants or a 200-step golden-section \
                     search: another optimiser agrees to ~1e-8")),
                ("camelback_values", Tolerance::closed_form("objective value", 1.0)),
                ("michalewicz_max", Tolerance::closed_form("objective value", 1.0)),
                ("michalewicz_maximiser", Tolerance::new("coordinate of a maximiser", 1e-7, 0.0,
                    "a maximiser is determined by its value only to about sqrt(machine epsilon) ~ 1.5e-8 (the \
                     function is flat there); ours come from 13-digit textbook constants or a 200-step golden-section \
                     search: another optimiser agrees to ~1e-8")),
                ("michalewicz_values", Tolerance::closed_form("objective value", 1.0)),
                ("styblinski_tang_max", Tolerance::closed_form("objective value", 1.0)),
                ("styblinski_tang_maximiser", Tolerance::new("coordinate of a maximiser", 1e-7, 0.0,
                    "a maximiser is determined by its value only to about sqrt(machine epsilon) ~ 1.5e-8 (the \
                     function is flat there); ours come from 13-digit textbook constants or a 200-step golden-section \
                     search: another optimiser agrees to ~1e-8")),
                ("styblinski_tang_values", Tolerance::closed_form("objective value", 1.0)),
            ]),
        },
    ));

    let dir = bandit::dataset::default_data_dir();
    let light = light_sensor(&dir)?;
    out.push(dataset_fixture(
        "light_sensor",
        &light,
        "Light-sensor bandit problem (41 arms = sensors) from ../shared/data: scale = max of the test-set column means; \
         f_i = (test column mean i) / scale (so max f = 1); rewards = test readings / scale; K = sample correlation matrix \
         (n - 1 normalisation) of the train columns; gram_first_rows = the first 3 rows of K; b = max f; r = max |reading/scale - f_i|; \
         v = mean of (reading/scale)^2; c = mean of (reading/scale - f_i)^2, over all test rows and arms.",
    ));
    let stock = stocks(&dir)?;
    out.push(dataset_fixture(
        "stocks",
        &stock,
        "Stock bandit problem (29 arms = tickers, Date column dropped) from ../shared/data: scale = max of the column means \
         over all 823 days; f_i = (column mean i) / scale; rewards = prices / scale; K = sample correlation matrix (n - 1) of \
         the price columns; gram_first_rows = the first 3 rows of K; b, r, v, c as for the light sensors, over all days and arms.",
    ));

    // Partitions of DP-FTS-DE's distributed exploration.
    let cases: Vec<(usize, usize)> = vec![(1, 2), (1, 3), (2, 4), (3, 4), (2, 6), (2, 8), (3, 12)];
    let mut parts = Vec::new();
    for &(d, p) in &cases {
        let part = Partition::equal_volume(BoxDomain::unit(d)?, p)?;
        let mut lowers = Vec::new();
        let mut uppers = Vec::new();
        for c in 0..p {
            let b = part.cell_bounds(c)?;
            lowers.push(b.lower().to_vec());
            uppers.push(b.upper().to_vec());
        }
        parts.push(json!({"d": d, "p": p, "splits": part.splits(), "cell_lower": lowers, "cell_upper": uppers}));
    }
    out.push(entry(
        "bandit/partitions.json",
        Fixture {
            name: "partitions".into(),
            description: "Equal-volume partitions of [0,1]^d into P hyper-rectangles (DP-FTS-DE distributed exploration): \
                primes of P, largest first, each multiplies the split count of the dimension with the fewest parts (ties: lowest \
                dimension). Cells in row-major order of per-dimension indices (last dimension fastest); intervals [a, b) except the \
                last of each dimension, [a, 1]."
                .into(),
            inputs: json!({"cases": cases.iter().map(|(d, p)| json!({"d": d, "p": p})).collect::<Vec<_>>()}),
            outputs: json!({"partitions": parts}),
            tolerances: tolerances([
                ("partitions.cell_lower", Tolerance::closed_form("coordinate in [0, 1]", 1.0)),
                ("partitions.cell_upper", Tolerance::closed_form("coordinate in [0, 1]", 1.0)),
                ("partitions.d", Tolerance::echoed("dimension")),
                ("partitions.p", Tolerance::echoed("count of cells")),
                ("partitions.splits", Tolerance::exact("count of parts per dimension", "integer arithmetic: exact")),
            ]),
        },
    ));

    // Trial seeding, for reproducing runs in another language.
    let base = 2021u64;
    let key = seed_key(base);
    let mut streams = Vec::new();
    for trial in 0..2 {
        for role in [Role::Environment, Role::Agent, Role::Curator] {
            let mut r = trial_rng(base, trial, role);
            let words: Vec<String> = (0..4).map(|_| format!("{:016x}", r.next_u64())).collect();
            streams.push(json!({"trial": trial, "role": role as u64, "stream": 4 * trial as u64 + role as u64, "first_u64_hex": words}));
        }
    }
    out.push(entry(
        "bandit/trial_seeds.json",
        Fixture {
            name: "trial_seeds".into(),
            description: "Seeding of trial i of a batch with base seed s: ChaCha20 (20 rounds, rand_chacha's ChaCha20Rng) keyed by \
                four consecutive SplitMix64 outputs from state s (each little-endian), stream 4 i + role (role 0 = environment, \
                1 = agent, 2 = curator), word position 0. key_hex: the 32 key bytes as 64 lowercase hex digits; first_u64_hex: the first four next_u64() outputs of each stream, each as 16 lowercase zero-padded hex digits without prefix."
                .into(),
            inputs: json!({"base_seed": base}),
            outputs: json!({"key_hex": key.iter().map(|b| format!("{b:02x}")).collect::<String>(), "streams": streams}),
            tolerances: tolerances([
                ("key_hex", Tolerance::exact("32 bytes as hex", "bit-exact")),
                ("streams.first_u64_hex", Tolerance::exact("u64 as hex", "bit-exact")),
                ("streams.role", Tolerance::echoed("role code")),
                ("streams.stream", Tolerance::exact("ChaCha20 stream number", "integer arithmetic: exact")),
                ("streams.trial", Tolerance::echoed("trial index")),
            ]),
        },
    ));
    Ok(out)
}
