//! Sharded audits in one process: the shards' counts, written to JSON and read back, merge into
//! exactly the certificate of the unsharded audit (epsilon and Gaussian-DP routes, several shard
//! counts); shards of different audits, missing or repeated shards and edited files are refused.

use privacy::{Epsilon, Guarantee, Mu, NeighbouringRelation, PrivacyClaim, TrustModel};
use rand::RngExt;
use rand_chacha::ChaCha20Rng;
use rand_distr::{Distribution, StandardNormal};
use verification::audit::{
    AuditConfig, AuditError, CHUNK, Known, Shard, ShardCounts, audit, audit_shard, merge,
};

type Never = std::convert::Infallible;

fn laplace(x: &f64, rng: &mut ChaCha20Rng) -> Result<f64, Never> {
    let u: f64 = rng.random::<f64>() - 0.5;
    Ok(x - u.signum() * (-2.0 * u.abs()).ln_1p())
}

fn gaussian(x: &f64, rng: &mut ChaCha20Rng) -> Result<f64, Never> {
    let z: f64 = StandardNormal.sample(rng);
    Ok(x + z)
}

fn claim(guarantee: Guarantee) -> PrivacyClaim {
    PrivacyClaim::new(
        "test",
        guarantee,
        TrustModel::Central,
        NeighbouringRelation::WithinSensitivity,
        "inputs 0 and 1",
    )
}

fn pure(eps: f64) -> PrivacyClaim {
    claim(Guarantee::PureDp {
        epsilon: Epsilon::new(eps).unwrap(),
    })
}

fn order() -> Known<impl Fn(&f64) -> f64 + Clone + Send + Sync + 'static> {
    Known::new("-o", |o: &f64| -*o)
}

/// The shards `0/n, ..., (n-1)/n`, each through a JSON file's text.
fn shards(
    mech: fn(&f64, &mut ChaCha20Rng) -> Result<f64, Never>,
    c: &PrivacyClaim,
    config: &AuditConfig,
    n: usize,
) -> Vec<ShardCounts> {
    (0..n)
        .map(|i| {
            let s = audit_shard(
                mech,
                &0.0,
                &1.0,
                c,
                &order(),
                config,
                "test mechanism",
                Shard::new(i, n).unwrap(),
            )
            .unwrap();
            let text = serde_json::to_string_pretty(&s).unwrap();
            serde_json::from_str(&text).unwrap()
        })
        .collect()
}

#[test]
fn merged_shards_give_the_unsharded_certificate() {
    let config = AuditConfig::new(5 * CHUNK + 123, 1e-6, 3).train(4_000);
    let whole = audit(laplace, &0.0, &1.0, &pure(1.0), &order(), &config).unwrap();
    let whole_json = serde_json::to_string(&whole).unwrap();
    for n in [1, 2, 3, 7] {
        let mut parts = shards(laplace, &pure(1.0), &config, n);
        parts.reverse();
        let merged = merge(&parts).unwrap();
        assert_eq!(merged, whole, "{n} shards");
        assert_eq!(serde_json::to_string(&merged).unwrap(), whole_json);
    }

    let gdp = claim(Guarantee::GaussianDp {
        mu: Mu::new(1.0).unwrap(),
    });
    let config = AuditConfig::new(3 * CHUNK + 5, 1e-6, 4)
        .train(3_000)
        .delta(1e-5)
        .gaussian(Some(1.0));
    let whole = audit(gaussian, &0.0, &1.0, &gdp, &order(), &config).unwrap();
    assert!(whole.mu_event.is_some());
    let merged = merge(&shards(gaussian, &gdp, &config, 3)).unwrap();
    assert_eq!(merged, whole);
    assert_eq!(
        serde_json::to_string(&merged).unwrap(),
        serde_json::to_string(&whole).unwrap()
    );
}

fn refused(shards: &[ShardCounts], message: &str) {
    match merge(shards) {
        Err(AuditError::InvalidConfig(m)) => assert!(m.contains(message), "{m}"),
        other => panic!("expected an error containing {message:?}, got {other:?}"),
    }
}

#[test]
fn mismatched_missing_repeated_or_edited_shards_are_refused() {
    let config = AuditConfig::new(2 * CHUNK, 1e-6, 5).train(2_000);
    let parts = shards(laplace, &pure(1.0), &config, 3);
    refused(&[], "no shards");
    refused(&parts[..2], "missing shards: 2/3");
    refused(
        &[parts[0].clone(), parts[0].clone(), parts[2].clone()],
        "given twice",
    );
    // Another seed: another plan.
    let other = shards(
        laplace,
        &pure(1.0),
        &AuditConfig::new(2 * CHUNK, 1e-6, 6).train(2_000),
        3,
    );
    refused(
        &[parts[0].clone(), other[1].clone(), parts[2].clone()],
        "seed",
    );
    let other_claim = shards(laplace, &pure(2.0), &config, 3);
    refused(
        &[parts[0].clone(), parts[1].clone(), other_claim[2].clone()],
        "claim",
    );
    // Another shard count.
    let halves = shards(laplace, &pure(1.0), &config, 2);
    refused(&[parts[0].clone(), halves[1].clone()], "one of 2");
    // An edited count, an edited threshold.
    let mut edited = parts.clone();
    edited[1].counts.bins_x[0] += 1;
    refused(&edited, "outputs counted");
    let mut edited = parts.clone();
    edited[2].plan.eps_threshold = 0.5;
    refused(&edited, "fingerprint");
    // Counts of one shard alone do not conclude an audit of three.
    assert!(parts[0].plan.conclude(&parts[0].counts).is_err());
}
