//! A data-driven instance from the light-sensor readings (`../shared/data`, Krause 2005; the
//! loader is [`bandit::dataset::light_sensor`]): the action is a sensor (its position), the
//! context is the ambient light level of a time step, the reward is that sensor's reading at
//! that time step.
//!
//! - `X`: the 41 sensor positions, scaled to `[0, 1]^2` (min-max over sensors per coordinate).
//! - Contexts: for each of the 192 time steps of the test table, the mean reading over all
//!   sensors, scaled to `C = [0, 1]` (min-max over time steps); `kappa` is uniform over the
//!   time steps (time steps with the same ambient level are merged, their readings averaged).
//!   The recording does not say the time of day, so the ambient level stands in for it: a
//!   context anyone in the building can observe.
//! - `f(x_i, c_r)`: the reading of sensor `i` at time step `r`, divided by the largest reading
//!   of the table (so `0 <= f <= 1`); the observed reward is `f` itself (the table is the
//!   truth, noise 0), and `B = 1`.
//! - Kernel (a choice, not fitted): SE on the positions (lengthscale 0.2) times SE on the
//!   ambient level (lengthscale 0.2). `f` is a table, not an RKHS function: the instance tests
//!   the method on data that do not satisfy the paper's assumptions.

use std::path::Path;
use std::sync::Arc;

use bandit::domain::{BoxDomain, FiniteDomain};
use bandit::objective::Objective;
use ndarray::{Array1, Array2, ArrayView1, Axis};

use crate::error::UscaError;
use crate::joint_kernel::{JointKernel, KernelFamily};
use crate::problem::{ContextSpace, ContextualProblem, Instance};

/// The reward table as an objective on `W = [x; c]`: the reading of the sensor at `x` at the
/// time step with ambient level `c` (the nearest listed sensor and level for other points).
#[derive(Debug, Clone)]
pub struct ReadingTable {
    positions: Array2<f64>,
    levels: Array1<f64>,
    values: Array2<f64>,
}

impl ReadingTable {
    fn nearest(&self, x: ArrayView1<'_, f64>, c: f64) -> (usize, usize) {
        let i = (0..self.positions.nrows())
            .min_by(|&a, &b| {
                let da = (&self.positions.row(a) - &x).mapv(|v| v * v).sum();
                let db = (&self.positions.row(b) - &x).mapv(|v| v * v).sum();
                da.total_cmp(&db)
            })
            .unwrap_or(0);
        let r = (0..self.levels.len())
            .min_by(|&a, &b| {
                (self.levels[a] - c)
                    .abs()
                    .total_cmp(&(self.levels[b] - c).abs())
            })
            .unwrap_or(0);
        (r, i)
    }
}

impl Objective for ReadingTable {
    fn dim(&self) -> usize {
        3
    }

    fn value_unchecked(&self, w: ArrayView1<'_, f64>) -> f64 {
        let (x, c) = w.split_at(Axis(0), 2);
        let (r, i) = self.nearest(x, c[0]);
        self.values[[r, i]]
    }
}

/// The product kernel of the instance.
pub fn light_sensor_kernel() -> Result<JointKernel, UscaError> {
    JointKernel::new(KernelFamily::SquaredExponential, 0.2, 0.2, 2, 1)
}

fn min_max(v: ArrayView1<'_, f64>) -> Result<(f64, f64), UscaError> {
    let lo = v.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    validation::positive("range of a coordinate to scale to [0, 1]", hi - lo)?;
    Ok((lo, hi))
}

/// Load the instance from `data_dir` (the folder of `light_sensor_{train,test,coords}.csv`).
pub fn light_sensor(data_dir: &Path) -> Result<Instance, UscaError> {
    let d = bandit::dataset::light_sensor(data_dir)?;
    let coords = d.coords.clone().ok_or(crate::InputError::Empty {
        what: "light-sensor coordinates",
    })?;
    let mut positions = coords.clone();
    for j in 0..2 {
        let (lo, hi) = min_max(coords.column(j))?;
        positions
            .column_mut(j)
            .mapv_inplace(|v| (v - lo) / (hi - lo));
    }
    let table = &d.rewards; // rows = time steps, scaled readings
    let ambient = table.mean_axis(Axis(1)).ok_or(crate::InputError::Empty {
        what: "light-sensor table",
    })?;
    let (lo, hi) = min_max(ambient.view())?;
    let max_reading = table.iter().copied().fold(0.0, f64::max);
    let max_reading = validation::positive("largest light reading", max_reading)?;
    // Merge time steps with the same (scaled) ambient level, in increasing order.
    let mut rows: Vec<(f64, usize)> = ambient
        .iter()
        .enumerate()
        .map(|(r, a)| ((a - lo) / (hi - lo), r))
        .collect();
    rows.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut levels: Vec<f64> = Vec::new();
    let mut values: Vec<Array1<f64>> = Vec::new();
    let mut counts: Vec<f64> = Vec::new();
    for (c, r) in rows {
        let reading = table.row(r).mapv(|v| v / max_reading);
        #[allow(clippy::float_cmp)] // merge bit-equal levels only
        if levels.last() == Some(&c) {
            let k = levels.len() - 1;
            values[k] = &values[k] + &reading;
            counts[k] += 1.0;
        } else {
            levels.push(c);
            values.push(reading);
            counts.push(1.0);
        }
    }
    let n = levels.len();
    let mut v = Array2::zeros((n, positions.nrows()));
    for k in 0..n {
        v.row_mut(k).assign(&(&values[k] / counts[k]));
    }
    let levels = Array1::from(levels);
    let contexts =
        ContextSpace::empirical(BoxDomain::unit(1)?, levels.clone().insert_axis(Axis(1)))?;
    let reward = ReadingTable {
        positions: positions.clone(),
        levels,
        values: v,
    };
    let problem = ContextualProblem::new(
        FiniteDomain::new(positions)?,
        contexts,
        Arc::new(reward),
        0.0,
    )?;
    Ok(Instance {
        problem,
        kernel: Arc::new(light_sensor_kernel()?),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_instance_loads_and_reads_the_table() {
        use rand::SeedableRng;
        let dir = bandit::dataset::default_data_dir();
        let inst = light_sensor(&dir).expect("the shared data folder ../shared/data");
        assert_eq!(inst.problem.actions().len(), 41);
        let c = inst
            .problem
            .contexts()
            .sample(5, &mut rand_chacha::ChaCha20Rng::from_seed([7; 32]));
        for row in c.rows() {
            let f = inst.problem.means(row).unwrap();
            assert!(f.iter().all(|&v| (0.0..=1.0).contains(&v)));
        }
    }
}
