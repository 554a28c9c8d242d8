//! The nodes of a binary-tree (tree-aggregation) release recovered from its prefix sums, and
//! the nodes one item touches: what the noise checks of issue 31 measure instead of reading a
//! tree's `sigma` and `levels`.
//!
//! The release after round `t` (1-based) is the sum of the noisy nodes of the one-bits of `t`
//! (Chan, Shi & Song 2011, Algorithm 2), so the node completed at `t` is `r_t - r_(t - 2^i)`,
//! `2^i` the lowest set bit of `t` (`r_0 = 0`). A tree that is not binary breaks this
//! identity, and then the recovered "nodes" are not independent draws of one scale.

/// The node completed at each round, from the releases `r_1, ..., r_n` (each flattened).
pub fn recovered_nodes(releases: &[Vec<f64>]) -> Vec<Vec<f64>> {
    (1..=releases.len())
        .map(|t| {
            let low = t & t.wrapping_neg();
            let r = &releases[t - 1];
            if t == low {
                r.clone()
            } else {
                r.iter()
                    .zip(&releases[t - low - 1])
                    .map(|(a, b)| a - b)
                    .collect()
            }
        })
        .collect()
}

/// The number of items in the node completed at round `t` (1-based): its lowest set bit.
pub fn node_items(t: usize) -> usize {
    t & t.wrapping_neg()
}

/// How many recovered nodes differ (by more than `1e-6` in some entry) between two runs with
/// the same seed whose streams differ in one item: the nodes that contain it, i.e. the number
/// of Gaussian mechanisms that item takes part in (the noise draws are the same in both runs).
pub fn nodes_touched(base: &[Vec<f64>], moved: &[Vec<f64>]) -> usize {
    moved
        .iter()
        .zip(base)
        .filter(|(a, b)| a.iter().zip(b.iter()).any(|(x, y)| (x - y).abs() > 1e-6))
        .count()
}
