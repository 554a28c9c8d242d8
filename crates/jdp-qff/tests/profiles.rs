//! The named profiles as a user selects them: each sets the noise, sensitivity, conversion,
//! spectrum and width it says, the default is unchanged, and bad names are refused.

use std::str::FromStr;
use std::sync::Arc;

use jdp_qff::calibration::{paper_lemma2_sigma, paper_lemma5_variances};
use jdp_qff::profile::DEFAULT_TUNED_WIDTH_SCALE;
use jdp_qff::{JdpCalibration, JdpQffParams, LocalCalibration, Profile, SpectrumRule, jdp, local};
use kernel::FeatureMap;
use privacy::accountant::zcdp::ZcdpConversion;
use privacy::mechanisms::SensitivityBound;

const T: u64 = 1024;

fn features() -> Arc<kernel::QuadratureFourierFeatures> {
    Arc::new(jdp_qff::features::nqff(2, 1.0, 4).unwrap())
}

#[test]
fn names_round_trip_and_bad_names_are_refused() {
    for p in Profile::all() {
        assert_eq!(Profile::from_str(&p.to_string()).unwrap(), p);
        assert!(!p.guarantee().is_empty());
    }
    assert_eq!(
        Profile::from_str("tuned:0.5").unwrap(),
        Profile::Tuned { width_scale: 0.5 }
    );
    for bad in ["tight", "", "tuned:", "tuned:abc", "Tightened"] {
        let e = Profile::from_str(bad).unwrap_err().to_string();
        assert!(
            e.contains("unknown profile") && e.contains("provably-private"),
            "{bad}: {e}"
        );
    }
    for bad in ["tuned:0", "tuned:-1", "tuned:NaN", "tuned:inf"] {
        let e = Profile::from_str(bad).unwrap_err().to_string();
        assert!(e.contains("tuned width scale"), "{bad}: {e}");
    }
    let e = Profile::Tuned { width_scale: 0.0 }
        .apply(JdpQffParams::section_6_1())
        .unwrap_err()
        .to_string();
    assert!(e.contains("tuned width scale"), "{e}");
}

/// `provably-private` is the crate's default: applying it changes nothing.
#[test]
fn provably_private_is_the_default() {
    for base in [JdpQffParams::section_6_1(), JdpQffParams::section_6_2()] {
        assert_eq!(Profile::ProvablyPrivate.apply(base).unwrap(), base);
        assert_eq!(Profile::default(), Profile::ProvablyPrivate);
    }
}

/// Algorithm 2 under each profile: the node sigma and the alpha its calibration reports.
#[test]
fn algorithm_2_under_each_profile() {
    let f = features();
    let base = JdpQffParams::section_6_2();
    let sigma = |p: Profile| {
        let params = p.apply(base).unwrap();
        let (server, privatizer) = jdp(Arc::clone(&f), T, &params).unwrap();
        (privatizer.calibration().clone(), *server.width())
    };
    let (paper, _) = sigma(Profile::PaperAsPrinted);
    let printed =
        paper_lemma2_sigma(base.alpha, base.beta, T, base.width.b, base.width.rho).unwrap();
    assert_eq!(paper.sigma().to_bits(), printed.to_bits());
    assert!(paper.given_sigma());
    // The printed sigma is far above the derived one here, so the alpha it carries is far
    // below the requested 1.
    assert!(paper.alpha() < 0.01 * base.alpha, "{}", paper.alpha());

    let (derived, w_derived) = sigma(Profile::ProvablyPrivate);
    let reference = JdpCalibration::new(
        base.alpha,
        base.beta,
        T,
        base.reward_bound,
        ZcdpConversion::Classic,
    )
    .unwrap();
    assert_eq!(derived, reference);
    assert_eq!(w_derived.params().scale.to_bits(), 1f64.to_bits());

    let (tight, w_tight) = sigma(Profile::Tightened);
    let packed_cks = JdpCalibration::new(
        base.alpha,
        base.beta,
        T,
        base.reward_bound,
        ZcdpConversion::Cks,
    )
    .unwrap()
    .with_bound(SensitivityBound::PackedExact)
    .unwrap();
    assert_eq!(tight, packed_cks);
    assert!((tight.alpha() - base.alpha).abs() < 1e-12);
    assert!(
        tight.sigma() < 0.5 * derived.sigma(),
        "{} vs {}",
        tight.sigma(),
        derived.sigma()
    );
    // The derived spectral rule gives a smaller shift for the same sigma.
    assert!(
        w_tight.spectrum().shift < w_derived.spectrum().shift * tight.sigma() / derived.sigma()
    );

    let (tuned, w_tuned) = sigma(Profile::Tuned {
        width_scale: DEFAULT_TUNED_WIDTH_SCALE,
    });
    assert_eq!(tuned, tight);
    assert_eq!(
        w_tuned.params().scale.to_bits(),
        DEFAULT_TUNED_WIDTH_SCALE.to_bits()
    );
    assert_eq!(w_tuned.spectrum(), w_tight.spectrum());
}

/// Algorithm 3 under `paper-as-printed`: Lemma 5's sigmas, and the alpha they carry.
#[test]
fn algorithm_3_paper_as_printed_uses_lemma_5() {
    let f = features();
    let base = JdpQffParams::section_6_1();
    let params = Profile::PaperAsPrinted.apply(base).unwrap();
    assert_eq!(params.spectrum, SpectrumRule::Paper);
    let (_, client) = local(Arc::clone(&f), T, &params).unwrap();
    let (vx, vu) = paper_lemma5_variances(base.alpha, base.beta, base.width.b, f.dim()).unwrap();
    let c = client.calibration();
    assert_eq!(
        (c.sigma_x().to_bits(), c.sigma_u().to_bits()),
        (vx.sqrt().to_bits(), vu.sqrt().to_bits())
    );
    let again = LocalCalibration::of_sigmas(
        vx.sqrt(),
        vu.sqrt(),
        base.beta,
        base.reward_bound,
        ZcdpConversion::Classic,
    )
    .unwrap();
    assert_eq!(c.alpha().to_bits(), again.alpha().to_bits());
    assert!((c.rho() - c.message_rho()).abs() <= 1e-15 * c.rho());
    // The provably-private client meets the request exactly.
    let (_, derived) = local(f, T, &base).unwrap();
    assert!((derived.calibration().alpha() - base.alpha).abs() < 1e-15);
}
