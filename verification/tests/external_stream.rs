//! The streamed external audit ([`verification::audit::external_stream`]): held-out files read
//! in chunks (with comments, blank lines and a partial last chunk) give exactly the certificate
//! of the in-memory audit of the same split; three shards merged give exactly the unsharded
//! certificate; files that do not fit are refused with their reason.

use privacy::NeighbouringRelation;
use privacy::claim::{Guarantee, PrivacyClaim, TrustModel};
use privacy::params::Epsilon;
use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use rand_distr::{Distribution, Normal};
use std::path::{Path, PathBuf};
use verification::audit::external::{OutputKind, Outputs};
use verification::audit::external_stream::{
    HeldOutFiles, audit_external_shard, audit_external_streamed, scan,
};
use verification::audit::{
    AuditConfig, DiscreteCounts, HistogramRatio, MeanDifferenceProjection, Shard, audit_outputs,
    merge,
};

fn claim(eps: f64) -> PrivacyClaim {
    PrivacyClaim::new(
        "external",
        Guarantee::PureDp {
            epsilon: Epsilon::new(eps).unwrap(),
        },
        TrustModel::Central,
        NeighbouringRelation::StatedPair,
        "inputs 0 and 1",
    )
}

fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("external-stream-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Write `lines` with a header comment, a blank line every 3000 outputs and no final newline.
fn write(path: &Path, lines: &[String]) {
    let mut text = String::from("# outputs\n");
    for (i, l) in lines.iter().enumerate() {
        if i % 3000 == 0 {
            text.push_str("\n   \n");
        }
        text.push_str(l);
        if i + 1 < lines.len() {
            text.push('\n');
        }
    }
    std::fs::write(path, text).unwrap();
}

/// Gaussian outputs: `n` scalars (or `d`-vectors) shifted by `shift`, with `sigma` 1.
fn gaussian(n: usize, d: usize, shift: f64, seed: u64) -> Vec<Vec<f64>> {
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    let z = Normal::new(shift, 1.0).unwrap();
    (0..n)
        .map(|_| (0..d).map(|_| z.sample(&mut rng)).collect())
        .collect()
}

fn as_lines(v: &[Vec<f64>]) -> Vec<String> {
    v.iter()
        .map(|o| {
            o.iter()
                .map(|x| format!("{x:e}"))
                .collect::<Vec<_>>()
                .join(", ")
        })
        .collect()
}

/// 2.5 chunks of held-out outputs per input, 5000 training.
const HELD: usize = 8192 * 2 + 4000;
const TRAIN: usize = 5000;

#[test]
fn the_streamed_audit_is_the_in_memory_audit_of_the_same_split() {
    let d = dir("same");
    let config = AuditConfig::new(10, 1e-6, 3);
    // Scalars, histogram statistic.
    let (tx, txp) = (gaussian(TRAIN, 1, 0.0, 1), gaussian(TRAIN, 1, 1.0, 2));
    let (hx, hxp) = (gaussian(HELD, 1, 0.0, 3), gaussian(HELD, 1, 1.0, 4));
    let (px, pxp) = (d.join("hx.txt"), d.join("hxp.txt"));
    write(&px, &as_lines(&hx));
    write(&pxp, &as_lines(&hxp));
    assert_eq!(scan(&px).unwrap().outputs, HELD as u64);
    // The files print each value with `{:e}` (shortest round trip): parsed back exactly.
    let flat = |v: &[Vec<f64>]| v.iter().map(|o| o[0]).collect::<Vec<f64>>();
    let streamed = audit_external_streamed(
        &Outputs::Scalar(flat(&tx)),
        &Outputs::Scalar(flat(&txp)),
        HeldOutFiles {
            x: &px,
            x_prime: &pxp,
        },
        &claim(1.0),
        None,
        0.9,
        &config,
    )
    .unwrap();
    let in_memory = audit_outputs(
        &flat(&tx),
        &flat(&txp),
        &flat(&hx),
        &flat(&hxp),
        &claim(1.0),
        &HistogramRatio { bins: 100 },
        &config,
    )
    .unwrap();
    assert_eq!(streamed.result, in_memory);
    assert_eq!(streamed.kind, OutputKind::Scalar);
    assert_eq!(streamed.outputs_per_input, TRAIN + HELD);
    assert_eq!(streamed.result.samples, HELD);

    // Vectors, mean-difference projection.
    let (tx, txp) = (gaussian(TRAIN, 3, 0.0, 5), gaussian(TRAIN, 3, 0.4, 6));
    let (hx, hxp) = (gaussian(HELD, 3, 0.0, 7), gaussian(HELD, 3, 0.4, 8));
    write(&px, &as_lines(&hx));
    write(&pxp, &as_lines(&hxp));
    let streamed = audit_external_streamed(
        &Outputs::Vector(tx.clone()),
        &Outputs::Vector(txp.clone()),
        HeldOutFiles {
            x: &px,
            x_prime: &pxp,
        },
        &claim(1.0),
        None,
        0.9,
        &config,
    )
    .unwrap();
    let in_memory = audit_outputs(
        &tx,
        &txp,
        &hx,
        &hxp,
        &claim(1.0),
        &MeanDifferenceProjection,
        &config,
    )
    .unwrap();
    assert_eq!(streamed.result, in_memory);

    // Labels, counts statistic.
    let label = |v: &[Vec<f64>]| -> Vec<String> {
        v.iter()
            .map(|o| if o[0] > 0.5 { "a".into() } else { "b".into() })
            .collect()
    };
    let (tx, txp) = (
        label(&gaussian(TRAIN, 1, 0.0, 9)),
        label(&gaussian(TRAIN, 1, 1.0, 10)),
    );
    let (hx, hxp) = (
        label(&gaussian(HELD, 1, 0.0, 11)),
        label(&gaussian(HELD, 1, 1.0, 12)),
    );
    write(&px, &hx);
    write(&pxp, &hxp);
    let streamed = audit_external_streamed(
        &Outputs::Discrete(tx.clone()),
        &Outputs::Discrete(txp.clone()),
        HeldOutFiles {
            x: &px,
            x_prime: &pxp,
        },
        &claim(1.0),
        None,
        0.9,
        &config,
    )
    .unwrap();
    let in_memory =
        audit_outputs(&tx, &txp, &hx, &hxp, &claim(1.0), &DiscreteCounts, &config).unwrap();
    assert_eq!(streamed.result, in_memory);
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn three_shards_merge_to_the_unsharded_certificate_and_other_files_are_refused() {
    let d = dir("shards");
    let config = AuditConfig::new(10, 1e-6, 3);
    let flat = |v: Vec<Vec<f64>>| Outputs::Scalar(v.into_iter().map(|o| o[0]).collect());
    let (tx, txp) = (
        flat(gaussian(TRAIN, 1, 0.0, 1)),
        flat(gaussian(TRAIN, 1, 1.0, 2)),
    );
    let (px, pxp, other) = (d.join("hx.txt"), d.join("hxp.txt"), d.join("other.txt"));
    write(&px, &as_lines(&gaussian(HELD, 1, 0.0, 3)));
    write(&pxp, &as_lines(&gaussian(HELD, 1, 1.0, 4)));
    write(&other, &as_lines(&gaussian(HELD, 1, 1.0, 5)));
    let held = HeldOutFiles {
        x: &px,
        x_prime: &pxp,
    };
    let shard = |i: usize, held: HeldOutFiles<'_>| {
        audit_external_shard(
            &tx,
            &txp,
            held,
            &claim(1.0),
            None,
            &config,
            Shard::new(i, 3).unwrap(),
        )
        .unwrap()
    };
    let shards: Vec<_> = (0..3).map(|i| shard(i, held)).collect();
    // One chunk each, the last one partial.
    let sizes: Vec<u64> = shards.iter().map(|s| s.counts.outputs_x).collect();
    assert_eq!(sizes, [8192, 8192, 4000]);
    let whole = audit_external_streamed(&tx, &txp, held, &claim(1.0), None, 0.9, &config).unwrap();
    assert_eq!(merge(&shards).unwrap(), whole.result);

    // A shard of other held-out files has another plan (its label names their fingerprints).
    let foreign = shard(
        1,
        HeldOutFiles {
            x: &px,
            x_prime: &other,
        },
    );
    let err = merge(&[shards[0].clone(), foreign, shards[2].clone()])
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("another audit") && err.contains("label"),
        "{err}"
    );
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn held_out_files_that_do_not_fit_are_refused_with_their_reason() {
    let d = dir("bad");
    let config = AuditConfig::new(10, 1e-6, 3);
    let tx = Outputs::Scalar(vec![0.0; 100]);
    let txp = Outputs::Scalar(vec![1.0; 100]);
    let (a, b) = (d.join("a.txt"), d.join("b.txt"));
    let run = |x: &Path, xp: &Path| {
        audit_external_streamed(
            &tx,
            &txp,
            HeldOutFiles { x, x_prime: xp },
            &claim(1.0),
            None,
            0.9,
            &config,
        )
        .unwrap_err()
        .to_string()
    };
    std::fs::write(&a, "1\n2\n".repeat(50)).unwrap();
    std::fs::write(&b, "1\n2\n".repeat(49)).unwrap();
    assert!(run(&a, &b).contains("unequal numbers of held-out outputs: 100"));
    // A label among numbers, at its line.
    std::fs::write(
        &b,
        format!("{}oops\n{}", "1\n".repeat(40), "2\n".repeat(59)),
    )
    .unwrap();
    let err = run(&a, &b);
    assert!(err.contains("line 41") && err.contains("oops"), "{err}");
    // Vectors of another length than the training ones.
    let tv = Outputs::Vector(vec![vec![0.0, 0.0]; 100]);
    let tvp = Outputs::Vector(vec![vec![1.0, 1.0]; 100]);
    std::fs::write(&a, "1, 2\n".repeat(100)).unwrap();
    std::fs::write(&b, format!("{}1, 2, 3\n", "1, 2\n".repeat(99))).unwrap();
    let err = audit_external_streamed(
        &tv,
        &tvp,
        HeldOutFiles { x: &a, x_prime: &b },
        &claim(1.0),
        None,
        0.9,
        &config,
    )
    .unwrap_err()
    .to_string();
    assert!(err.contains("3 numbers"), "{err}");
    // A missing file, named.
    let err = run(&a, &d.join("missing.txt"));
    assert!(err.contains("missing.txt"), "{err}");
    std::fs::remove_dir_all(&d).unwrap();
}
