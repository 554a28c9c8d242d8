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
use verification::audit::external::OutputKind;
use verification::audit::external_stream::{
    OutputFiles, StreamedFiles, audit_external_shard, audit_external_streamed, scan,
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

/// The four files of a streamed audit in `d` (`tx`, `txp`, `hx`, `hxp`), written from lines.
struct Files {
    paths: [PathBuf; 4],
}

impl Files {
    fn new(d: &Path) -> Self {
        Self {
            paths: ["tx", "txp", "hx", "hxp"].map(|n| d.join(format!("{n}.txt"))),
        }
    }

    fn write(&self, lines: [&[String]; 4]) {
        for (p, l) in self.paths.iter().zip(lines) {
            write(p, l);
        }
    }

    /// Everything in memory up to `in_memory` training outputs per input.
    fn streamed(&self, in_memory: usize) -> StreamedFiles<'_> {
        let [tx, txp, hx, hxp] = &self.paths;
        StreamedFiles {
            train: OutputFiles {
                x: tx,
                x_prime: txp,
            },
            held: OutputFiles {
                x: hx,
                x_prime: hxp,
            },
            kind: None,
            in_memory,
        }
    }
}

#[test]
fn the_streamed_audit_is_the_in_memory_audit_of_the_same_split() {
    let d = dir("same");
    let files = Files::new(&d);
    let config = AuditConfig::new(10, 1e-6, 3);
    let run = |in_memory: usize| {
        audit_external_streamed(&files.streamed(in_memory), &claim(1.0), None, 0.9, &config)
            .unwrap()
    };
    // Scalars, histogram statistic. The files print each value with `{:e}` (shortest round
    // trip): parsed back exactly.
    let (tx, txp) = (gaussian(TRAIN, 1, 0.0, 1), gaussian(TRAIN, 1, 1.0, 2));
    let (hx, hxp) = (gaussian(HELD, 1, 0.0, 3), gaussian(HELD, 1, 1.0, 4));
    files.write([
        &as_lines(&tx),
        &as_lines(&txp),
        &as_lines(&hx),
        &as_lines(&hxp),
    ]);
    assert_eq!(scan(&files.paths[2]).unwrap().outputs, HELD as u64);
    let flat = |v: &[Vec<f64>]| v.iter().map(|o| o[0]).collect::<Vec<f64>>();
    let streamed = run(TRAIN);
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
    assert_eq!(streamed.result.train_samples, TRAIN);
    // Fewer training outputs in memory than in the files: the pilot's plan, another event
    // choice but the same held-out outputs.
    let piloted = run(1000);
    assert_eq!(piloted.result.train_samples, TRAIN);
    assert_eq!(piloted.result.samples, HELD);

    // Vectors, mean-difference projection.
    let (tx, txp) = (gaussian(TRAIN, 3, 0.0, 5), gaussian(TRAIN, 3, 0.4, 6));
    let (hx, hxp) = (gaussian(HELD, 3, 0.0, 7), gaussian(HELD, 3, 0.4, 8));
    files.write([
        &as_lines(&tx),
        &as_lines(&txp),
        &as_lines(&hx),
        &as_lines(&hxp),
    ]);
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
    assert_eq!(run(TRAIN).result, in_memory);
    assert_eq!(run(TRAIN).kind, OutputKind::Vector);

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
    files.write([&tx, &txp, &hx, &hxp]);
    let in_memory =
        audit_outputs(&tx, &txp, &hx, &hxp, &claim(1.0), &DiscreteCounts, &config).unwrap();
    assert_eq!(run(TRAIN).result, in_memory);
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn three_shards_merge_to_the_unsharded_certificate_and_other_files_are_refused() {
    let d = dir("shards");
    let files = Files::new(&d);
    let config = AuditConfig::new(10, 1e-6, 3);
    let lines = |n, shift, seed| as_lines(&gaussian(n, 1, shift, seed));
    files.write([
        &lines(TRAIN, 0.0, 1),
        &lines(TRAIN, 1.0, 2),
        &lines(HELD, 0.0, 3),
        &lines(HELD, 1.0, 4),
    ]);
    let other = d.join("other.txt");
    write(&other, &lines(HELD, 1.0, 5));
    // The training phase both in memory and streamed (a pilot of 1000).
    for in_memory in [TRAIN, 1000] {
        let streamed = files.streamed(in_memory);
        let shard = |i: usize, f: &StreamedFiles<'_>| {
            audit_external_shard(f, &claim(1.0), None, &config, Shard::new(i, 3).unwrap()).unwrap()
        };
        let shards: Vec<_> = (0..3).map(|i| shard(i, &streamed)).collect();
        // One chunk each, the last one partial.
        let sizes: Vec<u64> = shards.iter().map(|s| s.counts.outputs_x).collect();
        assert_eq!(sizes, [8192, 8192, 4000]);
        let whole = audit_external_streamed(&streamed, &claim(1.0), None, 0.9, &config).unwrap();
        assert_eq!(merge(&shards).unwrap(), whole.result);

        // A shard of other held-out files has another plan (its label names their
        // fingerprints).
        let mut foreign = streamed;
        foreign.held.x_prime = &other;
        let err = merge(&[shards[0].clone(), shard(1, &foreign), shards[2].clone()])
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("another audit") && err.contains("label"),
            "{err}"
        );
    }
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn files_that_do_not_fit_are_refused_with_their_reason() {
    let d = dir("bad");
    let files = Files::new(&d);
    let config = AuditConfig::new(10, 1e-6, 3);
    let run = |f: &Files| {
        audit_external_streamed(&f.streamed(1 << 20), &claim(1.0), None, 0.9, &config)
            .unwrap_err()
            .to_string()
    };
    let rep = |s: &str, n: usize| -> Vec<String> { vec![s.to_string(); n] };
    // Training outputs 0 and 1, held-out ones 2 and 3 (no held-out file repeats a training one).
    let (t0, t1, h0, h1) = (rep("0", 100), rep("1", 100), rep("2", 100), rep("3", 100));
    files.write([&t0, &t1, &h0, &rep("3", 99)]);
    assert!(run(&files).contains("unequal numbers of held-out outputs: 100"));
    files.write([&t0, &rep("1", 98), &h0, &h1]);
    assert!(run(&files).contains("unequal numbers of training outputs: 100"));
    // A label among numbers, at its line in the file: output 38 (from 0) is on line 42, after
    // the comment line and two blank ones.
    let mut bad = h1.clone();
    bad[38] = "oops".into();
    files.write([&t0, &t1, &h0, &bad]);
    let err = run(&files);
    assert!(
        err.contains("oops") && err.contains("hxp.txt, line 42:"),
        "{err}"
    );
    // The same in a later chunk: output 9000 is on line 9000 + 2 (9000 / 3000 + 1) + 2.
    let (t0, t1, h0) = (rep("0", 10_000), rep("1", 10_000), rep("2", 10_000));
    let mut bad = rep("3", 10_000);
    bad[9000] = "oops".into();
    files.write([&t0, &t1, &h0, &bad]);
    let err = run(&files);
    assert!(err.contains("hxp.txt, line 9010:"), "{err}");
    // A held-out file of vectors of another length than the training ones (consistent within
    // itself, so only the check against the training length refuses it).
    let (v2, w2, u2, v3) = (
        rep("1, 2", 100),
        rep("3, 4", 100),
        rep("5, 6", 100),
        rep("1, 2, 3", 100),
    );
    files.write([&v2, &w2, &u2, &v3]);
    let err = run(&files);
    assert!(
        err.contains("hxp.txt, output 1 (counting from 1") && err.contains("3 numbers"),
        "{err}"
    );
    // A held-out file with a training file's bytes.
    let (t0, t1, h0) = (rep("0", 100), rep("1", 100), rep("2", 100));
    files.write([&t0, &t1, &h0, &t1]);
    let err = run(&files);
    assert!(
        err.contains("hxp.txt has the bytes of the training file") && err.contains("txp.txt"),
        "{err}"
    );
    // A missing file, named.
    std::fs::remove_file(&files.paths[3]).unwrap();
    let err = run(&files);
    assert!(err.contains("hxp.txt"), "{err}");
    std::fs::remove_dir_all(&d).unwrap();
}
