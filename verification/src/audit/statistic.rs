//! Test statistics of the auditor: a function of one output, oriented so that a large value is
//! evidence for the first input `x` of the neighbouring pair (against `x'`).
//!
//! A statistic is either known (the exact log-likelihood ratio of a white-box mechanism) or
//! learned on the training split: a histogram density ratio for scalar outputs, the projection
//! on the estimated mean difference for vector outputs, exact counts for discrete outputs. The
//! rejection regions the auditor considers are its upper level sets `{s(o) > t}` and their
//! complements.

use std::collections::HashMap;
use std::hash::Hash;
use std::sync::Arc;

use super::AuditError;

/// A fitted score function.
pub type Score<O> = Arc<dyn Fn(&O) -> f64 + Send + Sync>;

/// A test statistic: fitted on training outputs under `x` and under `x'`.
pub trait Statistic<O>: Sync {
    /// A short description for the report (`"exact LLR"`, `"histogram ratio, 100 bins"`).
    fn name(&self) -> String;
    /// Fit on training outputs (the same number under each input is not required).
    fn fit(&self, under_x: &[O], under_x_prime: &[O]) -> Result<Score<O>, AuditError>;
}

/// The exact log-likelihood ratio `ln p_x(o) - ln p_x'(o)` of a white-box mechanism (or any
/// fixed function of the output: nothing is learned).
#[derive(Clone)]
pub struct Known<F> {
    name: String,
    score: F,
}

impl<F> Known<F> {
    /// A known statistic with its description.
    pub fn new(name: impl Into<String>, score: F) -> Self {
        Self {
            name: name.into(),
            score,
        }
    }
}

impl<O, F> Statistic<O> for Known<F>
where
    F: Fn(&O) -> f64 + Clone + Send + Sync + 'static,
{
    fn name(&self) -> String {
        self.name.clone()
    }
    fn fit(&self, _: &[O], _: &[O]) -> Result<Score<O>, AuditError> {
        Ok(Arc::new(self.score.clone()))
    }
}

/// Histogram density ratio for scalar outputs: bin edges at the quantiles of the pooled
/// training outputs, score `ln((c_x + 1/2) / (c_x' + 1/2)) - ln(n_x / n_x')` of the output's bin.
#[derive(Debug, Clone, Copy)]
pub struct HistogramRatio {
    /// Number of bins (at least 2).
    pub bins: usize,
}

impl Statistic<f64> for HistogramRatio {
    fn name(&self) -> String {
        format!("histogram density ratio, {} quantile bins", self.bins)
    }
    fn fit(&self, a: &[f64], b: &[f64]) -> Result<Score<f64>, AuditError> {
        if self.bins < 2 {
            return Err(AuditError::InvalidConfig(
                "histogram needs at least 2 bins".into(),
            ));
        }
        let mut pooled: Vec<f64> = a.iter().chain(b).copied().filter(|v| !v.is_nan()).collect();
        if pooled.is_empty() {
            return Err(AuditError::InvalidConfig("no training outputs".into()));
        }
        pooled.sort_by(f64::total_cmp);
        let mut edges: Vec<f64> = (1..self.bins)
            .map(|i| pooled[i * (pooled.len() - 1) / self.bins])
            .collect();
        edges.dedup();
        let bin = move |edges: &[f64], v: f64| edges.partition_point(|e| *e < v);
        let mut ca = vec![0.0f64; edges.len() + 1];
        let mut cb = vec![0.0f64; edges.len() + 1];
        for &v in a.iter().filter(|v| !v.is_nan()) {
            ca[bin(&edges, v)] += 1.0;
        }
        for &v in b.iter().filter(|v| !v.is_nan()) {
            cb[bin(&edges, v)] += 1.0;
        }
        let norm = (b.len().max(1) as f64 / a.len().max(1) as f64).ln();
        let ratio: Vec<f64> = ca
            .iter()
            .zip(&cb)
            .map(|(x, y)| ((x + 0.5) / (y + 0.5)).ln() + norm)
            .collect();
        Ok(Arc::new(move |v: &f64| {
            if v.is_nan() {
                0.0
            } else {
                ratio[bin(&edges, *v)]
            }
        }))
    }
}

/// Projection on the estimated mean difference, for vector outputs: `s(o) = <m_x - m_x', o>`
/// with the training means (the likelihood-ratio statistic of a spherical Gaussian shift).
#[derive(Debug, Clone, Copy, Default)]
pub struct MeanDifferenceProjection;

impl Statistic<Vec<f64>> for MeanDifferenceProjection {
    fn name(&self) -> String {
        "projection on the estimated mean difference".into()
    }
    fn fit(&self, a: &[Vec<f64>], b: &[Vec<f64>]) -> Result<Score<Vec<f64>>, AuditError> {
        let d = common_dim(a, b)?;
        let (ma, mb) = (mean(a, d), mean(b, d));
        let w: Vec<f64> = ma.iter().zip(&mb).map(|(x, y)| x - y).collect();
        Ok(linear_score(w))
    }
}

/// The length `d` shared by all the training outputs of both inputs.
fn common_dim(a: &[Vec<f64>], b: &[Vec<f64>]) -> Result<usize, AuditError> {
    let d = a
        .first()
        .or(b.first())
        .map(Vec::len)
        .ok_or_else(|| AuditError::InvalidConfig("no training outputs".into()))?;
    match a.iter().chain(b).find(|x| x.len() != d) {
        Some(x) => Err(AuditError::Output(format!(
            "vector outputs of lengths {} and {d}",
            x.len()
        ))),
        None => Ok(d),
    }
}

/// The entrywise mean of vectors of length `d` (zeros for none).
fn mean(xs: &[Vec<f64>], d: usize) -> Vec<f64> {
    let mut m = vec![0.0; d];
    for x in xs {
        for (mi, xi) in m.iter_mut().zip(x) {
            *mi += xi;
        }
    }
    let n = xs.len().max(1) as f64;
    m.into_iter().map(|v| v / n).collect()
}

/// The linear score `s(o) = <w, o>` (0 for an output of another length).
fn linear_score(w: Vec<f64>) -> Score<Vec<f64>> {
    Arc::new(move |o: &Vec<f64>| {
        if o.len() != w.len() {
            return 0.0;
        }
        o.iter().zip(&w).map(|(x, y)| x * y).sum()
    })
}

/// Fisher's linear discriminant for vector outputs: `s(o) = <S^-1 (m_x - m_x'), o>` with the
/// pooled training covariance `S` (plus a ridge of `1e-9 tr(S)/d`): the exact log-likelihood
/// ratio statistic of a Gaussian shift with a common, correlated covariance (e.g. the prefix sums
/// of tree aggregation, whose noises share tree nodes).
#[derive(Debug, Clone, Copy, Default)]
pub struct FisherDiscriminant;

/// Solve `a w = b` for a symmetric positive definite `a` (row-major `d x d`) by Cholesky.
fn cholesky_solve(mut a: Vec<f64>, mut b: Vec<f64>, d: usize) -> Option<Vec<f64>> {
    for j in 0..d {
        let mut s = a[j * d + j];
        for k in 0..j {
            s -= a[j * d + k] * a[j * d + k];
        }
        if s.is_nan() || s <= 0.0 {
            return None;
        }
        let l = s.sqrt();
        a[j * d + j] = l;
        for i in j + 1..d {
            let mut t = a[i * d + j];
            for k in 0..j {
                t -= a[i * d + k] * a[j * d + k];
            }
            a[i * d + j] = t / l;
        }
    }
    for i in 0..d {
        let mut t = b[i];
        for k in 0..i {
            t -= a[i * d + k] * b[k];
        }
        b[i] = t / a[i * d + i];
    }
    for i in (0..d).rev() {
        let mut t = b[i];
        for k in i + 1..d {
            t -= a[k * d + i] * b[k];
        }
        b[i] = t / a[i * d + i];
    }
    Some(b)
}

impl Statistic<Vec<f64>> for FisherDiscriminant {
    fn name(&self) -> String {
        "Fisher discriminant (pooled covariance)".into()
    }
    fn fit(&self, a: &[Vec<f64>], b: &[Vec<f64>]) -> Result<Score<Vec<f64>>, AuditError> {
        let d = common_dim(a, b)?;
        if a.len() < 2 || b.len() < 2 {
            return Err(AuditError::InvalidConfig(
                "Fisher discriminant needs at least 2 outputs per input".into(),
            ));
        }
        let (ma, mb) = (mean(a, d), mean(b, d));
        let mut cov = vec![0.0; d * d];
        for (xs, m) in [(a, &ma), (b, &mb)] {
            for x in xs {
                for i in 0..d {
                    let ci = x[i] - m[i];
                    for j in 0..=i {
                        cov[i * d + j] += ci * (x[j] - m[j]);
                    }
                }
            }
        }
        let n = (a.len() + b.len() - 2) as f64;
        for i in 0..d {
            for j in 0..=i {
                cov[i * d + j] /= n;
                cov[j * d + i] = cov[i * d + j];
            }
        }
        let ridge = 1e-9 * (0..d).map(|i| cov[i * d + i]).sum::<f64>() / d as f64;
        for i in 0..d {
            cov[i * d + i] += ridge;
        }
        let diff: Vec<f64> = ma.iter().zip(&mb).map(|(x, y)| x - y).collect();
        let w = cholesky_solve(cov, diff, d).ok_or_else(|| {
            AuditError::Output("the pooled covariance is not positive definite".into())
        })?;
        Ok(linear_score(w))
    }
}

/// Exact counts for discrete outputs (an arm, an arm sequence): score `ln((c_x(o) + 1/2) /
/// (c_x'(o) + 1/2)) - ln(n_x / n_x')`, 0 for an output never seen in training.
#[derive(Debug, Clone, Copy, Default)]
pub struct DiscreteCounts;

impl<O> Statistic<O> for DiscreteCounts
where
    O: Hash + Eq + Clone + Send + Sync + 'static,
{
    fn name(&self) -> String {
        "exact counts of discrete outputs".into()
    }
    fn fit(&self, a: &[O], b: &[O]) -> Result<Score<O>, AuditError> {
        let mut c: HashMap<O, (f64, f64)> = HashMap::new();
        for o in a {
            c.entry(o.clone()).or_default().0 += 1.0;
        }
        for o in b {
            c.entry(o.clone()).or_default().1 += 1.0;
        }
        let norm = (b.len().max(1) as f64 / a.len().max(1) as f64).ln();
        let ratio: HashMap<O, f64> = c
            .into_iter()
            .map(|(k, (x, y))| (k, ((x + 0.5) / (y + 0.5)).ln() + norm))
            .collect();
        Ok(Arc::new(move |o: &O| ratio.get(o).copied().unwrap_or(0.0)))
    }
}

/// A statistic of a feature of the output: `inner` fitted on `map(o)` (e.g. the arm sequence of
/// a run, or the vector of released prefix sums).
#[derive(Clone)]
pub struct Mapped<G, S> {
    name: String,
    map: G,
    inner: S,
}

impl<G, S> Mapped<G, S> {
    /// `inner` applied to the feature `map` (described by `name`).
    pub fn new(name: impl Into<String>, map: G, inner: S) -> Self {
        Self {
            name: name.into(),
            map,
            inner,
        }
    }
}

impl<O, P, G, S> Statistic<O> for Mapped<G, S>
where
    G: Fn(&O) -> P + Clone + Send + Sync + 'static,
    S: Statistic<P>,
    P: 'static,
{
    fn name(&self) -> String {
        format!("{} of {}", self.inner.name(), self.name)
    }
    fn fit(&self, a: &[O], b: &[O]) -> Result<Score<O>, AuditError> {
        let fa: Vec<P> = a.iter().map(&self.map).collect();
        let fb: Vec<P> = b.iter().map(&self.map).collect();
        let inner = self.inner.fit(&fa, &fb)?;
        let map = self.map.clone();
        Ok(Arc::new(move |o: &O| inner(&map(o))))
    }
}

#[cfg(test)]
#[allow(clippy::float_cmp)]
mod tests {
    use super::*;

    #[test]
    fn histogram_orders_bins_by_ratio() {
        let a: Vec<f64> = (0..1000).map(|i| i as f64 / 1000.0).collect();
        let b: Vec<f64> = (0..1000).map(|i| 0.5 + i as f64 / 1000.0).collect();
        let s = HistogramRatio { bins: 10 }.fit(&a, &b).unwrap();
        assert!(s(&0.1) > 2.0);
        assert!(s(&1.4) < -2.0);
        assert!(s(&0.7).abs() < 0.5);
    }

    #[test]
    fn projection_points_to_x() {
        let a = vec![vec![1.0, 0.0]; 10];
        let b = vec![vec![0.0, 0.0]; 10];
        let s = MeanDifferenceProjection.fit(&a, &b).unwrap();
        assert!(s(&vec![1.0, 5.0]) > s(&vec![0.0, 5.0]));
    }

    #[test]
    fn cholesky_solves_a_small_system() {
        // [[4, 2], [2, 3]] w = [2, 1] -> w = [0.5, 0].
        let w = cholesky_solve(vec![4.0, 2.0, 2.0, 3.0], vec![2.0, 1.0], 2).unwrap();
        assert!((w[0] - 0.5).abs() < 1e-15 && w[1].abs() < 1e-15);
        assert!(cholesky_solve(vec![1.0, 2.0, 2.0, 1.0], vec![1.0, 1.0], 2).is_none());
    }

    #[test]
    fn counts_score_unseen_as_zero() {
        let s = DiscreteCounts
            .fit(&[1u8, 1, 1, 2], &[2u8, 2, 2, 1])
            .unwrap();
        assert!(s(&1) > 0.0 && s(&2) < 0.0);
        assert_eq!(s(&7), 0.0);
    }
}
