//! `cargo xtask accountant --relation replace-one` as a user runs it: the PLD's replace-one
//! epsilon is printed and is above the add/remove one; at q = 1 it is the Gaussian at twice
//! the sensitivity; accountants without a replace-one bound are refused with exit status 1.
//! The PLD's grid (issue 30): at q = 1 the exact Gaussian route, labelled; a loss too wide for
//! the default width answers on a chosen width, printed; a width given too fine is refused
//! naming `--pld-bin-width`.

use std::process::{Command, Output};

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_xtask"))
        .env("RUST_BACKTRACE", "0")
        .arg("accountant")
        .args(args)
        .output()
        .expect("the xtask binary runs")
}

fn epsilon(args: &[&str]) -> (f64, serde_json::Value) {
    let out = run(args);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    (v["results"][0]["epsilon"].as_f64().expect("an epsilon"), v)
}

const SETTING: [&str; 8] = [
    "--q",
    "0.25",
    "--noise-multiplier",
    "1",
    "--steps",
    "4",
    "--delta",
    "1e-3",
];

#[test]
fn replace_one_is_printed_and_above_add_remove() {
    let mut ro_args = SETTING.to_vec();
    ro_args.extend([
        "--relation",
        "replace-one",
        "--json",
        "--pld-bin-width",
        "1e-3",
    ]);
    let (ro, v) = epsilon(&ro_args);
    assert_eq!(v["relation"], "replace-one");
    let method = v["results"][0]["method"].as_str().unwrap();
    assert!(method.starts_with("dominating pair"), "{method}");
    let mut ar_args = SETTING.to_vec();
    ar_args.extend(["--accountant", "pld", "--json", "--pld-bin-width", "1e-3"]);
    let (ar, v) = epsilon(&ar_args);
    assert_eq!(v["relation"], "add/remove");
    assert!(ro > ar, "replace-one {ro} <= add/remove {ar}");
    let text = run(&[
        &SETTING[..],
        &["--relation", "replace-one", "--pld-bin-width", "1e-3"],
    ]
    .concat());
    let stdout = String::from_utf8_lossy(&text.stdout);
    assert!(stdout.contains("replace-one"), "{stdout}");
}

#[test]
fn at_q_one_replace_one_is_the_gaussian_at_twice_the_sensitivity() {
    let (ro, v) = epsilon(&[
        "--q",
        "1",
        "--noise-multiplier",
        "4",
        "--steps",
        "1",
        "--delta",
        "1e-5",
        "--relation",
        "replace-one",
        "--json",
    ]);
    assert_eq!(v["relation"], "replace-one");
    let (half, _) = epsilon(&[
        "--q",
        "1",
        "--noise-multiplier",
        "2",
        "--steps",
        "1",
        "--delta",
        "1e-5",
        "--accountant",
        "pld",
        "--json",
    ]);
    assert!((ro - half).abs() < 1e-9, "{ro} vs {half}");
}

#[test]
fn accountants_without_a_replace_one_bound_are_refused() {
    for acc in ["rdp", "rdp-paper", "gdp-clt"] {
        let out = run(&[
            &SETTING[..],
            &["--relation", "replace-one", "--accountant", acc],
        ]
        .concat());
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{acc}: {stderr}");
        assert!(stderr.contains("no replace-one bound"), "{acc}: {stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
}

/// `accountant jdp-qff`: the node sigma printed for a target implies the target back, per
/// route and bound (the review's values at T = 1e4, B_y = 1.5, alpha = 1: classic 40.55, CKS
/// 23.48, exact GDP 18.67 under the Frobenius bound), and the exact packed bound asks for less.
#[test]
fn jdp_qff_sigma_for_a_target_implies_the_target() {
    let setting = [
        "--beta",
        "0.1",
        "--horizon",
        "10000",
        "--reward-bound",
        "1.5",
    ];
    let out = run(&[&["jdp-qff", "--alpha", "1", "--json"][..], &setting[..]].concat());
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let rows = v["results"].as_array().expect("rows");
    assert_eq!(rows.len(), 2);
    let (frob, packed) = (&rows[0], &rows[1]);
    assert_eq!(frob["bound"], "frobenius");
    assert_eq!(packed["bound"], "packed-exact");
    for (key, quoted) in [
        ("zcdp_classic", 40.55),
        ("zcdp_cks", 23.48),
        ("gdp_textbook", 18.67),
    ] {
        let s = frob[key].as_f64().unwrap();
        assert!((s - quoted).abs() < 0.01, "{key}: {s}");
        assert!(packed[key].as_f64().unwrap() < s);
    }
    for (row, bound) in [(frob, "frobenius"), (packed, "packed-exact")] {
        for (key, alpha_key) in [
            ("zcdp_classic", "alpha_zcdp_classic"),
            ("zcdp_cks", "alpha_zcdp_cks"),
            ("gdp_textbook", "alpha_gdp"),
        ] {
            let sigma = row[key].as_f64().unwrap().to_string();
            let out = run(&[
                &["jdp-qff", "--sigma", &sigma, "--bound", bound, "--json"][..],
                &setting[..],
            ]
            .concat());
            assert_eq!(out.status.code(), Some(0));
            let w: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
            let alpha = w["results"][0][alpha_key].as_f64().unwrap();
            assert!((alpha - 1.0).abs() < 1e-6, "{bound} {key}: alpha {alpha}");
        }
    }
}

/// Bad input to `accountant jdp-qff` is refused with exit status 1 and a message naming it; an
/// unknown bound is a usage error (status 2), and so is no option at all (the help).
#[test]
fn jdp_qff_bad_input_is_refused() {
    let setting = ["--beta", "0.1", "--horizon", "100", "--reward-bound", "1"];
    for sigma in ["0", "-1", "NaN", "inf"] {
        let arg = format!("--sigma={sigma}");
        let out = run(&[&["jdp-qff", arg.as_str()][..], &setting[..]].concat());
        assert_eq!(out.status.code(), Some(1), "sigma {sigma}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("sigma"), "sigma {sigma}: {err}");
    }
    let out = run(&[
        "jdp-qff",
        "--sigma",
        "1",
        "--beta",
        "1",
        "--horizon",
        "100",
        "--reward-bound",
        "1",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("beta"));
    let out = run(&[
        &["jdp-qff", "--sigma", "1", "--bound", "spectral"][..],
        &setting[..],
    ]
    .concat());
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("spectral"));
    // No options: the help, which names the subcommand, as a usage error.
    let out = run(&[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("jdp-qff"));
}

/// Issue 30's example: q = 1, z = 0.01, one step, delta = 1e-5 was refused at the default
/// width; it is the Gaussian mechanism, answered exactly (mpmath: 5425.509846147430) from
/// above, and the text names the route.
#[test]
fn at_q_one_the_pld_answers_by_the_exact_gaussian_route() {
    let setting = [
        "--q",
        "1",
        "--noise-multiplier",
        "0.01",
        "--steps",
        "1",
        "--delta",
        "1e-5",
        "--accountant",
        "pld",
    ];
    let (eps, v) = epsilon(&[&setting[..], &["--json"]].concat());
    let exact = 5_425.509_846_147_43;
    assert!(eps >= exact && eps <= exact * (1.0 + 1.1e-11), "{eps}");
    assert_eq!(v["results"][0]["route"], "exact-gaussian");
    let text = run(&setting);
    let stdout = String::from_utf8_lossy(&text.stdout);
    assert!(
        stdout.contains("eps = 5425.509846") && stdout.contains("exact Gaussian route"),
        "{stdout}"
    );
}

/// q = 0.5, z = 0.05, 10 steps: the composed loss needs 2.6e7 points at the default width;
/// without --pld-bin-width a coarser width is chosen and printed, and the epsilon is at least
/// the optimistic estimate printed beside it. The same width given explicitly gives the same
/// epsilon.
#[test]
fn a_wide_loss_answers_on_a_chosen_width() {
    let setting = [
        "--q",
        "0.5",
        "--noise-multiplier",
        "0.05",
        "--steps",
        "10",
        "--delta",
        "1e-5",
        "--accountant",
        "pld",
    ];
    let (eps, v) = epsilon(&[&setting[..], &["--json"]].concat());
    let row = &v["results"][0];
    assert_eq!(row["route"], "grid");
    assert_eq!(row["bin_width_chosen"], true);
    let h = row["bin_width"].as_f64().unwrap();
    assert!(h > 1e-4, "{h}");
    assert!(eps >= row["epsilon_optimistic"].as_f64().unwrap(), "{row}");
    let given = h.to_string();
    let (again, v) = epsilon(&[&setting[..], &["--json", "--pld-bin-width", &given]].concat());
    assert_eq!(again.to_bits(), eps.to_bits());
    assert_eq!(v["results"][0]["bin_width_chosen"], false);
    let text = run(&setting);
    let stdout = String::from_utf8_lossy(&text.stdout);
    assert!(
        stdout.contains(&format!("bin width {h}, chosen")),
        "{stdout}"
    );
}

/// A width given that is too fine for the loss is refused, naming the flag.
#[test]
fn a_width_given_too_fine_is_refused_naming_the_flag() {
    let out = run(&[
        "--q",
        "0.5",
        "--noise-multiplier",
        "0.01",
        "--steps",
        "1",
        "--delta",
        "1e-5",
        "--accountant",
        "pld",
        "--pld-bin-width",
        "1e-4",
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("--pld-bin-width"), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}
