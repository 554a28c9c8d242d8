//! The privacy fixtures (`fixtures/privacy/`).

use super::accountant::{PAPER_CASES, PAPER_STEPS, paper_delta};
use ::ldp_bo::ConvertToLaplace;
use ndarray::Array1;
use privacy::accountant::rdp::{default_orders, paper_preset_epsilon, subsampled_gaussian_epsilon};
use privacy::accountant::{
    PldSettings, RdpConversion, ZcdpConversion, rho_for_target, subsampled_gaussian_pld_epsilon,
    zcdp_to_epsilon,
};
use privacy::mechanisms::{
    ExponentialMechanism, analytic_sigma, classic_sigma, node_sigma, tree_levels,
};
use serde_json::{Value, json};
use verification::CheckError;
use verification::fixtures::{Entry, Fixture, Tolerance, number, tolerances};

/// The fixtures of this area.
pub fn fixtures() -> Result<Vec<Entry>, CheckError> {
    Ok(vec![
        accountant_fixture()?,
        calibration_fixture()?,
        exponential_fixture()?,
    ])
}

/// The PLD settings of the accountant fixture (coarse, so that the regeneration test is fast).
pub(super) const FIXTURE_PLD: PldSettings = PldSettings {
    bin_width: 1e-3,
    tail_mass: 1e-20,
};

/// The tolerance of a PLD epsilon (bin width 1e-3, [`FIXTURE_PLD`]) for another implementation
/// of the same connect-the-dots discretisation.
pub(crate) fn pld_epsilon_tolerance() -> Tolerance {
    Tolerance::new(
        "epsilon (nats)",
        5e-7,
        0.0,
        "the PLD epsilon at bin width 1e-3 depends on the discretisation and on the floating-point error \
         allowances: dp_accounting 0.6.0 with the same width (connect-the-dots pessimistic, privacy buckets \
         optimistic) lies within 2.8e-7 of these values on privacy/accountant.json (largest at T = 100, \
         delta = 1e-5); other discretisations or widths differ by more",
    )
}

pub(super) fn accountant_fixture() -> Result<Entry, CheckError> {
    let mut cases = Vec::new();
    let mut outs = Vec::new();
    let delta = paper_delta();
    let mut list: Vec<(f64, f64, u64, f64)> = PAPER_CASES
        .iter()
        .map(|&(q, z, _)| (q, z, PAPER_STEPS, delta))
        .collect();
    list.push((1.0, 2.0, 10, 1e-5));
    list.push((0.05, 0.9, 100, 1e-5));
    for (q, z, t, d) in list {
        let paper = paper_preset_epsilon(q, z, t, d)?;
        let (rdp, order) =
            subsampled_gaussian_epsilon(q, z, t, d, &default_orders(), RdpConversion::Improved)?;
        let pld = subsampled_gaussian_pld_epsilon(q, z, t, d, FIXTURE_PLD)?;
        cases.push(json!({"q": q, "noise_multiplier": z, "steps": t, "delta": d}));
        outs.push(json!({"rdp_paper": number(paper), "rdp_improved": number(rdp), "rdp_improved_order": number(order),
                         "pld": number(pld.epsilon), "pld_optimistic": number(pld.epsilon_optimistic)}));
    }
    Ok((
        "privacy/accountant.json".into(),
        Fixture {
            name: "accountant".into(),
            description: "Epsilon of `steps` rounds of the Poisson-subsampled Gaussian mechanism (sampling rate q, noise std = noise_multiplier * sensitivity, add/remove neighbours) at delta. rdp_paper: RDP at integer orders 2..=33, A_a = sum_k C(a,k)(1-q)^(a-k) q^k exp((k^2-k)/(2z^2)), RDP = steps ln(A_a)/(a-1), eps = min_a RDP + ln(1/delta)/(a-1) (the DP-FTS-DE moments accountant; the first five cases are the paper's Fig. 2c/2d, delta = 200^-1.1). rdp_improved: orders 1.1,1.2,...,10.9, 11..=64, 128, 256, 512 (fractional orders by Mironov-Talwar-Zhang 2019 Sec. 3.3), eps = min_a RDP + ln((a-1)/a) - (ln delta + ln a)/(a-1) (Balle et al. 2020). pld: privacy-loss distribution, loss grid of width 1e-3, connect-the-dots discretisation (Doroshenko et al. 2022: each bin's mass split between its ends so that its P- and Q-masses are kept; an upper bound), tail mass above the grid (1e-20) counted as infinite loss, T-fold FFT convolution on a Chernoff window with the mass beyond it and a bound on the floating-point error added to delta, max over the remove and add orientations; pld_optimistic: masses at the lower bin ends, allowances subtracted (an estimate from below). The PLD numbers depend on the bin width (the connect-the-dots excess over the exact value is second order in the width; the optimistic gap is about steps * 1e-3). dp_accounting 0.6.0 with the same width reproduces pld to within our allowances (issue 15).".into(),
            inputs: json!({"cases": cases}),
            outputs: json!({"epsilons": outs}),
            tolerances: tolerances([
                ("epsilons.pld", pld_epsilon_tolerance()),
                ("epsilons.pld_optimistic", pld_epsilon_tolerance()),
                ("epsilons.rdp_improved", Tolerance::new("epsilon (nats)", 1e-12, 1e-9,
                    "RDP at fractional orders from alternating series summed in log space (terms stop below e^-40): \
                     the crate's integer- and fractional-order evaluations agree to 1e-9 relative at integer orders")),
                ("epsilons.rdp_improved_order", Tolerance::new("RDP order", 1e-12, 0.0, "the minimiser over the stated order grid; a decimal order such as 2.7 is the double nearest 1 + k/10, and a grid built by repeated addition (numpy arange) differs by ~1e-15")),
                ("epsilons.rdp_paper", Tolerance::closed_form("epsilon (nats)", 1.0)),
            ]),
        },
    ))
}

pub(super) fn calibration_fixture() -> Result<Entry, CheckError> {
    let mut gauss = Vec::new();
    for (eps, delta, s) in [(0.5, 1e-5, 1.0), (0.9, 1e-6, 2.0), (0.1, 1e-3, 0.5)] {
        gauss.push(json!({"eps": eps, "delta": delta, "l2_sensitivity": s,
            "classic_sigma": number(classic_sigma(eps, delta, s)?),
            "analytic_sigma": number(analytic_sigma(eps, delta, s)?)}));
    }
    for (eps, delta, s) in [(1.0, 1e-5, 1.0), (4.0, 1e-8, 3.0)] {
        gauss.push(json!({"eps": eps, "delta": delta, "l2_sensitivity": s,
            "analytic_sigma": number(analytic_sigma(eps, delta, s)?)}));
    }
    let mut zc = Vec::new();
    for (rho, delta) in [(0.1, 1e-5), (0.5, 1e-6), (2.0, 1e-3)] {
        zc.push(json!({"rho": rho, "delta": delta,
            "eps_classic": number(zcdp_to_epsilon(rho, delta, ZcdpConversion::Classic)?),
            "eps_cks": number(zcdp_to_epsilon(rho, delta, ZcdpConversion::Cks)?)}));
    }
    let mut inv = Vec::new();
    for (eps, delta) in [(1.0, 1e-5), (0.3, 1e-6), (5.0, 1e-3)] {
        inv.push(json!({"eps": eps, "delta": delta,
            "rho_classic": number(rho_for_target(eps, delta, ZcdpConversion::Classic)?),
            "rho_cks": number(rho_for_target(eps, delta, ZcdpConversion::Cks)?)}));
    }
    let mut tree = Vec::new();
    for (t, eps, delta, s) in [
        (1000u64, 1.0, 1e-5, 1.0),
        (64, 0.5, 1e-6, std::f64::consts::SQRT_2 * 2.0),
        (1, 2.0, 1e-3, 1.0),
    ] {
        tree.push(
            json!({"horizon": t, "eps": eps, "delta": delta, "l2_sensitivity": number(s),
            "levels": tree_levels(t)?,
            "node_sigma_classic": number(node_sigma(t, eps, delta, s, ZcdpConversion::Classic)?),
            "node_sigma_cks": number(node_sigma(t, eps, delta, s, ZcdpConversion::Cks)?)}),
        );
    }
    let mut ctl = Vec::new();
    for (eps, b, r) in [(1.0, 1.0, 0.5), (0.5, 2.0, 0.0), (8.0, 1.0, 1.0)] {
        let c = ConvertToLaplace::new(eps, b, r)?;
        ctl.push(json!({"eps": eps, "B": b, "R": r, "paper_scale": number(c.paper_scale()), "hardened_scale": number(c.scale())}));
    }
    Ok((
        "privacy/calibration.json".into(),
        Fixture {
            name: "calibration".into(),
            description: "Noise calibrations. gaussian: classic_sigma = Delta sqrt(2 ln(1.25/delta))/eps (only for eps < 1); analytic_sigma = (1 + 1e-9) times the smallest sigma with Phi(Delta/(2 sigma) - eps sigma/Delta) - e^eps Phi(-Delta/(2 sigma) - eps sigma/Delta) <= delta (Balle & Wang 2018); the factor is a safety margin for floating-point error in the normal CDF, so an implementation returning the exact smallest sigma is 1e-9 relative below these values. zcdp_to_eps: eps_classic = rho + 2 sqrt(rho ln(1/delta)); eps_cks = inf_{a>1} a rho + (ln(1/delta) - ln a)/(a-1) + ln(1 - 1/a) (Canonne, Kamath & Steinke 2020). eps_to_rho: the largest rho whose conversion equals eps. tree: node noise std of the binary mechanism, sigma = Delta sqrt(L/(2 rho*)) with L = floor(log2 T) + 1 levels and rho* = eps_to_rho(eps, delta) (classic or CKS). ctl: Convert-to-Laplace scale 2(B+R)/eps (Zhou & Tan 2021, Curator 1) and the hardened scale 2(B+R)(1 + 2^-20)/eps (grid rounding counted in the sensitivity).".into(),
            inputs: json!({"note": "inputs are listed with each output row"}),
            outputs: json!({"gaussian": gauss, "zcdp_to_eps": zc, "eps_to_rho": inv, "tree": tree, "ctl": ctl}),
            tolerances: tolerances([
                ("ctl.B", Tolerance::echoed("reward units")),
                ("ctl.R", Tolerance::echoed("reward units")),
                ("ctl.eps", Tolerance::echoed("epsilon (nats)")),
                ("ctl.hardened_scale", Tolerance::closed_form("Laplace scale (reward units)", 1.0)),
                ("ctl.paper_scale", Tolerance::closed_form("Laplace scale (reward units)", 1.0)),
                ("eps_to_rho.delta", Tolerance::echoed("probability")),
                ("eps_to_rho.eps", Tolerance::echoed("epsilon (nats)")),
                ("eps_to_rho.rho_cks", Tolerance::closed_form("zCDP rho (nats); CKS: bisection to 1e-15 relative", 1.0)),
                ("eps_to_rho.rho_classic", Tolerance::closed_form("zCDP rho (nats)", 1.0)),
                ("gaussian.analytic_sigma", Tolerance::new("noise standard deviation (units of the L2 sensitivity)", 0.0, 5e-9,
                    "bisection to 1e-15 relative, times (1 + 1e-9): measured against mpmath at 40 digits these values are \
                     1.0e-9 to 1.7e-9 relative above the exact smallest sigma (the margin plus the normal CDF's rounding), \
                     so an exact implementation agrees within 5e-9")),
                ("gaussian.classic_sigma", Tolerance::closed_form("noise standard deviation (units of the L2 sensitivity)", 1.0)),
                ("gaussian.delta", Tolerance::echoed("probability")),
                ("gaussian.eps", Tolerance::echoed("epsilon (nats)")),
                ("gaussian.l2_sensitivity", Tolerance::echoed("L2 sensitivity")),
                ("tree.delta", Tolerance::echoed("probability")),
                ("tree.eps", Tolerance::echoed("epsilon (nats)")),
                ("tree.horizon", Tolerance::echoed("rounds")),
                ("tree.l2_sensitivity", Tolerance::echoed("L2 sensitivity")),
                ("tree.levels", Tolerance::exact("count of tree levels", "integer arithmetic: exact")),
                ("tree.node_sigma_cks", Tolerance::closed_form("noise standard deviation (units of the L2 sensitivity)", 1.0)),
                ("tree.node_sigma_classic", Tolerance::closed_form("noise standard deviation (units of the L2 sensitivity)", 1.0)),
                ("zcdp_to_eps.delta", Tolerance::echoed("probability")),
                ("zcdp_to_eps.eps_cks", Tolerance::closed_form("epsilon (nats); CKS: golden-section minimisation over the order to 1e-13", 1.0)),
                ("zcdp_to_eps.eps_classic", Tolerance::closed_form("epsilon (nats)", 1.0)),
                ("zcdp_to_eps.rho", Tolerance::echoed("zCDP rho (nats)")),
            ]),
        },
    ))
}

pub(super) fn exponential_fixture() -> Result<Entry, CheckError> {
    let mut rows = Vec::new();
    let cases: [(Vec<f64>, f64, f64); 3] = [
        (vec![0.0, 1.0, 2.0, 3.0, 0.5], 2.0, 1.0),
        (vec![-5.0, 0.0, 5.0], 0.1, 2.0),
        (vec![1000.0, 999.0, 0.0, 1000.0], 1.0, 0.5),
    ];
    for (u, eps, s) in cases {
        let p = ExponentialMechanism::new(eps, s)?.probabilities(&u)?;
        rows.push(json!({"utilities": Array1::from(u.clone()).to_vec(), "eps": eps, "utility_sensitivity": s,
                         "probabilities": Value::Array(p.into_iter().map(number).collect())}));
    }
    Ok((
        "privacy/exponential.json".into(),
        Fixture {
            name: "exponential".into(),
            description: "Exponential mechanism selection probabilities p_i = exp(eps u_i / (2 Delta_u)) / sum_j exp(eps u_j / (2 Delta_u)), computed by log-sum-exp (no overflow for large utilities).".into(),
            inputs: json!({"note": "inputs are listed with each output row"}),
            outputs: json!({"cases": rows}),
            tolerances: tolerances([
                ("cases.eps", Tolerance::echoed("epsilon (nats)")),
                ("cases.probabilities", Tolerance::closed_form("probability", 1.0)),
                ("cases.utilities", Tolerance::echoed("utility units")),
                ("cases.utility_sensitivity", Tolerance::echoed("utility units")),
            ]),
        },
    ))
}
