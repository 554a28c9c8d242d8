//! The usca fixtures (`fixtures/usca/`): everything is given as input (no seeded draws), so
//! another implementation can recompute every output from the file alone.

use std::sync::Arc;

use kernel::{Kernel, Product, SquaredExponential};
use ndarray::{Array1, arr1, arr2};
use privacy::mechanisms::ExponentialMechanism;
use serde_json::json;
use usca::{LearningData, SurrogateVariance, UscaEstimator, posterior_mean_sensitivity};

use verification::CheckError;
use verification::fixtures::{Entry, matrix, number, vector};
use verification::fixtures::{Tolerance, tolerances};

/// The fixtures of this area.
pub fn fixtures() -> Result<Vec<Entry>, CheckError> {
    Ok(vec![estimator_fixture()?, mechanism_fixture()?])
}

fn estimator_fixture() -> Result<Entry, CheckError> {
    let (lx, lc) = (0.2, 0.3);
    let kernel = Product::new(
        Box::new(SquaredExponential::isotropic(lx)?),
        Box::new(SquaredExponential::isotropic(lc)?),
        1,
        1,
    )?;
    let kernel: Arc<dyn Kernel> = Arc::new(kernel);
    // W_T: 8 rows [x; c], rewards (one above B = 1.5, clipped), Z: 6 rows, queries: 5 rows.
    let w_t = arr2(&[
        [0.0, 0.1],
        [0.2, 0.9],
        [0.4, 0.5],
        [0.6, 0.3],
        [0.8, 0.7],
        [1.0, 0.2],
        [0.3, 0.35],
        [0.7, 0.95],
    ]);
    let y = arr1(&[0.3, -0.8, 1.1, 2.4, -0.2, 0.5, -1.0, 0.05]);
    let z = arr2(&[
        [0.1, 0.2],
        [0.5, 0.5],
        [0.9, 0.8],
        [0.3, 0.7],
        [0.7, 0.1],
        [0.5, 0.95],
    ]);
    let q = arr2(&[[0.0, 0.0], [0.25, 0.5], [0.5, 0.4], [0.75, 0.9], [1.0, 1.0]]);
    let (t, tau, b) = (8usize, 0.5, 1.5);
    let data = LearningData::new(w_t.clone(), y.clone(), b)?;
    let v = Arc::new(SurrogateVariance::new(kernel, z.clone(), t, tau)?);
    let e = UscaEstimator::fit(v.clone(), data.clone())?;
    let mu = e.mu(q.view())?;
    let s2 = v.sigma2(q.view())?;
    let clipped: Array1<f64> = data.rewards().to_owned();
    Ok(super::AREA.fixture(
        "estimator",
        "USCA's estimator mu_T (eq. 4) and surrogate variance sigma^2 (eq. 5) for fixed learning \
         data W_T (rows [x; c]), rewards Y_T clipped to [-B, B], an approximating set Z and query \
         points, with the product kernel k((x,c),(x',c')) = exp(-(x-x')^2/(2 lx^2)) \
         exp(-(c-c')^2/(2 lc^2)). With m = |Z| and rho = (m / T) tau (the paper's K tau when \
         m = T K): mu_T(w) = (1/tau)(k_W(w)^T Y - k_Z(w)^T (K_ZZ + rho I)^{-1} K_{Z,W} Y), \
         sigma^2(w) = (1/tau)(k(w,w) - k_Z(w)^T (K_ZZ + rho I)^{-1} k_Z(w)). The proven \
         sensitivity is 2 B sup_diag / tau; the naive posterior-mean baseline's is \
         min(B sqrt(T/tau), 2 B (1 + sqrt(T/tau)/2) / tau) (docs/usca.md).",
        json!({
            "lx": lx, "lc": lc, "T": t, "tau": tau, "B": b,
            "W_T": matrix(w_t.view()), "Y_T": vector(y.view()),
            "Z": matrix(z.view()), "queries": matrix(q.view()),
        }),
        json!({
            "Y_T_clipped": vector(clipped.view()),
            "rho": number(v.rho()),
            "mu_T": vector(mu.view()),
            "sigma2": vector(s2.view()),
            "proven_sensitivity": number(2.0 * b / tau),
            "posterior_mean_sensitivity": number(posterior_mean_sensitivity(t, tau, b)?),
        }),
        tolerances([
            ("Y_T_clipped", Tolerance::closed_form("reward units", 1.0)),
            ("mu_T", Tolerance::linear_solve("reward units", 1.0)),
            (
                "posterior_mean_sensitivity",
                Tolerance::closed_form("reward units", 1.0),
            ),
            (
                "proven_sensitivity",
                Tolerance::closed_form("reward units", 1.0),
            ),
            (
                "rho",
                Tolerance::closed_form("regulariser (kernel units)", 1.0),
            ),
            (
                "sigma2",
                Tolerance::linear_solve("surrogate variance (kernel units / tau)", 1.0),
            ),
        ]),
    ))
}

fn mechanism_fixture() -> Result<Entry, CheckError> {
    let u = [0.12, -0.4, 0.88, 0.5, 0.0, 0.87, -1.0];
    let mut cases = Vec::new();
    for (eps, delta) in [(1.0, 3.0), (0.1, 3.0), (2.0, 0.25)] {
        let p = ExponentialMechanism::new(eps, delta)?.probabilities(&u)?;
        cases.push(json!({"eps": eps, "sensitivity": delta, "probabilities": p}));
    }
    Ok(super::AREA.fixture(
        "prediction_probabilities",
        "The prediction stage's selection probabilities (Definition 3.2 on a finite X): \
         p_i = exp(eps u_i / (2 Delta)) / sum_j exp(eps u_j / (2 Delta)) for fixed utilities \
         u_i = mu_T(x_i, c_{T+1}) of 7 actions, at three (eps, Delta).",
        json!({"utilities": u}),
        json!({"cases": cases}),
        tolerances([
            ("cases.eps", Tolerance::echoed("epsilon (nats)")),
            (
                "cases.probabilities",
                Tolerance::closed_form("probability", 1.0),
            ),
            ("cases.sensitivity", Tolerance::echoed("utility units")),
        ]),
    ))
}
