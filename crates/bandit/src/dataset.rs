//! The two real data sets of `../shared/data` (light sensors, stock prices) as bandit
//! problems, built exactly as `../shared/data/README.md` describes.
//!
//! # Construction (both data sets)
//!
//! - arms: the columns (41 sensors, 29 stocks), as the points `[0], [1], ...` of a
//!   [`kernel::Precomputed`] kernel;
//! - `f_i` = mean of column `i` of the reward table (light: the test set; stocks: all days),
//!   divided by the scale `s = max_i mean_i`, so that `max f = 1` (the original code's
//!   normalisation, and `B = max f = 1`);
//! - one scale: every reward reading is divided by the same `s`, so that the expected reward
//!   of arm `i` (a reading of column `i` at a uniformly drawn row) is exactly `f_i`;
//! - kernel: `K = Z^T Z / (n - 1)`, the empirical covariance of the standardised columns
//!   `Z_ri = (X_ri - mean_i) / sd_i` of the kernel table (light: the train set; stocks: all
//!   days), with the sample standard deviation (`n - 1`); so `K` is the sample correlation
//!   matrix, `K_ii = 1` (a scale-free kernel: standardising makes the kernel independent of
//!   `s`);
//! - `alpha = 1`, `v` = mean of the squared (scaled) readings, `R` = max |reading - f_i| and
//!   `c` = mean of the squared noise `(reading - f_i)^2`, over all rows and arms (Zhou & Tan,
//!   "Light sensor data", "Stock market data").

use std::path::{Path, PathBuf};

use kernel::Precomputed;
use ndarray::{Array1, Array2, Axis};
use serde::{Deserialize, Serialize};

use crate::env::FixedSetEnvironment;
use crate::error::BanditError;
use crate::noise::RewardModel;

/// File names in the data folder.
pub const LIGHT_TRAIN: &str = "light_sensor_train.csv";
/// File names in the data folder.
pub const LIGHT_TEST: &str = "light_sensor_test.csv";
/// File names in the data folder.
pub const LIGHT_COORDS: &str = "light_sensor_coords.csv";
/// File names in the data folder.
pub const STOCKS: &str = "stocks_adjusted_close.csv";
/// File names in the data folder.
pub const FEDERATED_SVM_DIGITS: &str = "federated_svm_digits.csv";

/// The default data folder: `../shared/data` relative to the workspace root (resolved from
/// this crate's manifest directory at compile time).
pub fn default_data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data")
}

/// A data-set bandit problem.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct DataSetProblem {
    /// `"light_sensor"` or `"stocks"`.
    pub name: String,
    /// Column names (sensors `s1..s41`, tickers).
    pub arm_names: Vec<String>,
    /// `f_i`, the scaled column means (max 1).
    pub f: Array1<f64>,
    /// The scale `s` every reading was divided by (max of the raw column means).
    pub scale: f64,
    /// The Gram matrix `K` (sample correlation of the kernel table).
    pub gram: Array2<f64>,
    /// The reward table (`rows x arms`, scaled by `1 / s`).
    pub rewards: Array2<f64>,
    /// `B = max f` (= 1).
    pub b: f64,
    /// `R = max |reading - f_i|`.
    pub r: f64,
    /// `v` = mean of the squared readings (the `(1 + alpha)`-th moment bound, `alpha = 1`).
    pub v: f64,
    /// `c` = mean of the squared noise.
    pub c: f64,
    /// Sensor positions (`x, y` per arm) for the light-sensor problem.
    pub coords: Option<Array2<f64>>,
}

impl DataSetProblem {
    /// Number of arms.
    pub fn n_arms(&self) -> usize {
        self.f.len()
    }

    /// The kernel over arm indices.
    pub fn kernel(&self) -> Result<Precomputed, BanditError> {
        Ok(Precomputed::new(self.gram.view())?)
    }

    /// The arms as points `[0], [1], ...` (the inputs of [`DataSetProblem::kernel`]).
    pub fn arm_points(&self) -> Array2<f64> {
        Array2::from_shape_fn((self.n_arms(), 1), |(i, _)| i as f64)
    }

    /// The bandit environment: arms as points, means `f`, rewards drawn from the rows.
    pub fn environment(&self) -> Result<FixedSetEnvironment, BanditError> {
        FixedSetEnvironment::new(
            self.arm_points(),
            self.f.clone(),
            RewardModel::rows(self.rewards.clone())?,
        )
    }
}

/// `B` and `R` of a data-set problem fixed from rows that the private run never draws: what a
/// deployment of a locally private learner must do, since its clipping bound `B + R` is part of
/// the mechanism and cannot be read off the rewards it privatises. In the problem's units
/// (readings divided by its scale `s`): `B = max_i m_i / s` and `R = max_{r,i} |x_ri - m_i| / s`,
/// with `m_i` the column means of the held-out rows `x`.
///
/// Dividing by the problem's `s` is server-side post-processing: in raw units the clip is at
/// `s (B + R)`, computed from the held-out rows alone.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct HeldOutBounds {
    /// `B` in the problem's units.
    pub b: f64,
    /// `R` in the problem's units.
    pub r: f64,
    /// How many held-out rows they come from.
    pub rows: usize,
}

impl DataSetProblem {
    /// [`HeldOutBounds`] from `rows` (raw readings of this problem's columns, one row per time
    /// step).
    ///
    /// # Errors
    /// [`BanditError::Input`] for an empty table or a column count other than the problem's.
    pub fn bounds_from_rows(&self, rows: &Array2<f64>) -> Result<HeldOutBounds, BanditError> {
        validation::matching_dimension("held-out rows (columns)", self.n_arms(), rows.ncols())?;
        let means = rows
            .mean_axis(Axis(0))
            .ok_or(validation::InputError::Empty {
                what: "held-out rows",
            })?;
        let b = means.iter().fold(f64::NEG_INFINITY, |m, &v| m.max(v)) / self.scale;
        let mut r = 0.0f64;
        for row in rows.rows() {
            for (x, m) in row.iter().zip(means.iter()) {
                r = r.max((x - m).abs());
            }
        }
        Ok(HeldOutBounds {
            b,
            r: r / self.scale,
            rows: rows.nrows(),
        })
    }
}

/// The light-sensor problem with `B` and `R` from its train rows ([`HeldOutBounds`]): the
/// rewards are drawn from the test rows only, so the 601 train rows (which also give the
/// kernel) are data the private run does not use.
pub fn light_sensor_held_out(
    data_dir: &Path,
) -> Result<(DataSetProblem, HeldOutBounds), BanditError> {
    let problem = light_sensor(data_dir)?;
    let (_, train) = read_table(data_dir, LIGHT_TRAIN, 0)?;
    let bounds = problem.bounds_from_rows(&train)?;
    Ok((problem, bounds))
}

/// The first day of the later window of [`stocks_held_out`]: 2016 is held out (252 trading
/// days), 2017-01-03 to 2019-04-10 (571 days) is the problem.
pub const STOCKS_SPLIT: &str = "2017-01-01";

/// The stock problem on the days from [`STOCKS_SPLIT`] on (built exactly as [`stocks`] builds
/// it from all days: means, scale, kernel, `B`, `R`, `v`, `c` of those days), with
/// [`HeldOutBounds`] from the earlier days. Both are returned so that a run can compare the
/// paper's rule (`problem.b`, `problem.r`, from the rewards privatised) with bounds fixed in
/// advance (`bounds`).
pub fn stocks_held_out(data_dir: &Path) -> Result<(DataSetProblem, HeldOutBounds), BanditError> {
    let (names, prices) = read_table(data_dir, STOCKS, 1)?;
    let dates = read_first_column(data_dir, STOCKS)?;
    let split = dates
        .iter()
        .take_while(|d| d.as_str() < STOCKS_SPLIT)
        .count();
    if split == 0 || split == dates.len() {
        return Err(BanditError::DataFormat {
            path: data_dir.join(STOCKS),
            reason: format!("no rows on one side of {STOCKS_SPLIT} (dates must be sorted)"),
        });
    }
    let rows = |range: std::ops::Range<usize>| prices.select(Axis(0), &range.collect::<Vec<_>>());
    let (earlier, later) = (rows(0..split), rows(split..prices.nrows()));
    let mut problem = build("stocks", names, &later, &later, data_dir.join(STOCKS))?;
    problem.name = format!("stocks from {STOCKS_SPLIT}");
    let bounds = problem.bounds_from_rows(&earlier)?;
    Ok((problem, bounds))
}

/// Load the light-sensor problem (41 arms) from `data_dir`.
pub fn light_sensor(data_dir: &Path) -> Result<DataSetProblem, BanditError> {
    let (names, train) = read_table(data_dir, LIGHT_TRAIN, 0)?;
    let (test_names, test) = read_table(data_dir, LIGHT_TEST, 0)?;
    if test_names != names {
        return Err(BanditError::DataFormat {
            path: data_dir.join(LIGHT_TEST),
            reason: "its columns differ from those of the train set".into(),
        });
    }
    let (_, coords) = read_table(data_dir, LIGHT_COORDS, 0)?;
    if coords.nrows() != names.len() || coords.ncols() != 2 {
        return Err(BanditError::DataFormat {
            path: data_dir.join(LIGHT_COORDS),
            reason: format!(
                "expected {} rows of x,y, got {} x {}",
                names.len(),
                coords.nrows(),
                coords.ncols()
            ),
        });
    }
    let mut p = build(
        "light_sensor",
        names,
        &test,
        &train,
        data_dir.join(LIGHT_TRAIN),
    )?;
    p.coords = Some(coords);
    Ok(p)
}

/// Load the stock-price problem (29 arms) from `data_dir`.
pub fn stocks(data_dir: &Path) -> Result<DataSetProblem, BanditError> {
    let (names, prices) = read_table(data_dir, STOCKS, 1)?;
    build("stocks", names, &prices, &prices, data_dir.join(STOCKS))
}

/// The federated SVM-tuning table (`../shared/data/README.md`, "federated_svm_digits.csv"):
/// 29 agents, each with its validation accuracy on a 25 x 25 grid of `(log10 gamma, log10 C)`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct FederatedTable {
    /// The grid points `(x1, x2)` in `[0, 1]^2` (the normalised grid coordinates), in the
    /// file's order for agent 0 (`i_gamma` major, `i_c` minor): 625 x 2.
    pub points: Array2<f64>,
    /// `accuracy[[n, j]]`: agent `n`'s validation accuracy at point `j` (29 x 625).
    pub accuracy: Array2<f64>,
}

/// Load the federated SVM-tuning table from `data_dir` ([`federated_table`]).
pub fn federated_svm_digits(data_dir: &Path) -> Result<FederatedTable, BanditError> {
    federated_table(&data_dir.join(FEDERATED_SVM_DIGITS))
}

/// Load a federated tuning table in the layout of `federated_svm_digits.csv` from `path`:
/// columns `agent`, `x1`, `x2` and `accuracy` (others ignored), agents numbered `0..N` in
/// blocks, each listing the same grid in the same order. Checks that layout and that
/// accuracies lie in `[0, 1]`.
pub fn federated_table(path: &Path) -> Result<FederatedTable, BanditError> {
    let (names, table) = read_table_at(path, 0)?;
    let path = path.to_path_buf();
    let fmt = |reason: String| BanditError::DataFormat {
        path: path.clone(),
        reason,
    };
    let col = |name: &str| {
        names
            .iter()
            .position(|c| c == name)
            .ok_or_else(|| fmt(format!("no column {name:?}")))
    };
    let (ca, cx1, cx2, cacc) = (col("agent")?, col("x1")?, col("x2")?, col("accuracy")?);
    let rows = table.nrows();
    let n_agents = table[[rows - 1, ca]] as usize + 1;
    if rows % n_agents != 0 {
        return Err(fmt(format!(
            "{rows} rows are not a multiple of {n_agents} agents"
        )));
    }
    let n_points = rows / n_agents;
    let points = Array2::from_shape_fn((n_points, 2), |(j, k)| {
        table[[j, if k == 0 { cx1 } else { cx2 }]]
    });
    let mut accuracy = Array2::zeros((n_agents, n_points));
    for r in 0..rows {
        let (n, j) = (r / n_points, r % n_points);
        // The coordinates are parsed from the same decimal strings for every agent, so equal
        // grid points are bit-identical.
        let same = |c: usize, k: usize| table[[r, c]].to_bits() == points[[j, k]].to_bits();
        if table[[r, ca]] as usize != n || !same(cx1, 0) || !same(cx2, 1) {
            return Err(fmt(format!(
                "row {}: expected agent {n} at grid point {j} (agents in blocks, one grid order)",
                r + 1
            )));
        }
        let a = table[[r, cacc]];
        if !(0.0..=1.0).contains(&a) {
            return Err(fmt(format!("row {}: accuracy {a} outside [0, 1]", r + 1)));
        }
        accuracy[[n, j]] = a;
    }
    Ok(FederatedTable { points, accuracy })
}

fn build(
    name: &str,
    arm_names: Vec<String>,
    reward_table: &Array2<f64>,
    kernel_table: &Array2<f64>,
    kernel_path: PathBuf,
) -> Result<DataSetProblem, BanditError> {
    let means = reward_table.mean_axis(Axis(0)).expect("non-empty table");
    let scale = means.iter().fold(f64::NEG_INFINITY, |m, &v| m.max(v));
    if !(scale.is_finite() && scale > 0.0) {
        return Err(BanditError::DataFormat {
            path: kernel_path,
            reason: format!("the largest column mean must be > 0 to scale by it, got {scale}"),
        });
    }
    let f = &means / scale;
    let rewards = reward_table / scale;
    let gram = correlation(kernel_table, &kernel_path)?;
    let n = rewards.len() as f64;
    let mut r = 0.0f64;
    let mut c = 0.0;
    for row in rewards.rows() {
        for (y, fi) in row.iter().zip(f.iter()) {
            let e = y - fi;
            r = r.max(e.abs());
            c += e * e;
        }
    }
    let v = rewards.iter().map(|y| y * y).sum::<f64>() / n;
    let b = f.iter().fold(f64::NEG_INFINITY, |m, &x| m.max(x));
    let p = DataSetProblem {
        name: name.to_string(),
        arm_names,
        f,
        scale,
        gram,
        rewards,
        b,
        r,
        v,
        c: c / n,
        coords: None,
    };
    p.kernel()?; // validates symmetry and PSD
    Ok(p)
}

/// Sample correlation matrix of the columns (sample standard deviation, `n - 1`).
fn correlation(x: &Array2<f64>, path: &Path) -> Result<Array2<f64>, BanditError> {
    let n = x.nrows();
    if n < 2 {
        return Err(BanditError::DataFormat {
            path: path.to_path_buf(),
            reason: "need at least 2 rows".into(),
        });
    }
    let mean = x.mean_axis(Axis(0)).expect("n >= 2");
    let mut z = x - &mean;
    for (j, mut col) in z.columns_mut().into_iter().enumerate() {
        let sd = (col.iter().map(|v| v * v).sum::<f64>() / (n - 1) as f64).sqrt();
        if sd.is_nan() || sd <= 0.0 {
            return Err(BanditError::DataFormat {
                path: path.to_path_buf(),
                reason: format!(
                    "column {j} is constant (standard deviation 0): cannot standardise it"
                ),
            });
        }
        col.mapv_inplace(|v| v / sd);
    }
    let m = x.ncols();
    let mut k = Array2::zeros((m, m));
    for i in 0..m {
        for j in 0..=i {
            let v = z.column(i).dot(&z.column(j)) / (n - 1) as f64;
            k[[i, j]] = v;
            k[[j, i]] = v;
        }
    }
    Ok(k)
}

/// Read a CSV with a header row; drop the first `skip_cols` columns (a date); all other
/// fields must parse as finite floats. Returns the kept column names and the table.
fn read_table(
    dir: &Path,
    file: &'static str,
    skip_cols: usize,
) -> Result<(Vec<String>, Array2<f64>), BanditError> {
    let path = dir.join(file);
    if !path.is_file() {
        return Err(BanditError::DataMissing { path, file });
    }
    read_table_at(&path, skip_cols)
}

/// [`read_table`] of the file at `path` (a missing file is a [`BanditError::DataIo`]).
fn read_table_at(path: &Path, skip_cols: usize) -> Result<(Vec<String>, Array2<f64>), BanditError> {
    let path = path.to_path_buf();
    let text = std::fs::read_to_string(&path).map_err(|source| BanditError::DataIo {
        path: path.clone(),
        source,
    })?;
    let fmt = |reason: String| BanditError::DataFormat {
        path: path.clone(),
        reason,
    };
    let mut rdr = csv::ReaderBuilder::new()
        .has_headers(true)
        .from_reader(text.as_bytes());
    let headers = rdr.headers().map_err(|e| fmt(e.to_string()))?.clone();
    if headers.len() <= skip_cols {
        return Err(fmt("no data columns".into()));
    }
    let names: Vec<String> = headers.iter().skip(skip_cols).map(str::to_string).collect();
    let m = names.len();
    let mut values = Vec::new();
    let mut rows = 0;
    for (r, rec) in rdr.records().enumerate() {
        let rec = rec.map_err(|e| fmt(e.to_string()))?;
        if rec.len() != m + skip_cols {
            return Err(fmt(format!(
                "row {} has {} fields, expected {}",
                r + 1,
                rec.len(),
                m + skip_cols
            )));
        }
        for (j, field) in rec.iter().skip(skip_cols).enumerate() {
            let v: f64 = field.trim().parse().map_err(|_| {
                fmt(format!(
                    "row {}, column {}: {field:?} is not a number",
                    r + 1,
                    names[j]
                ))
            })?;
            if !v.is_finite() {
                return Err(fmt(format!(
                    "row {}, column {}: non-finite value",
                    r + 1,
                    names[j]
                )));
            }
            values.push(v);
        }
        rows += 1;
    }
    if rows == 0 {
        return Err(fmt("no data rows".into()));
    }
    let table = Array2::from_shape_vec((rows, m), values).map_err(|e| fmt(e.to_string()))?;
    Ok((names, table))
}

/// The first column of a CSV with a header row, as text (the stock file's dates, which must be
/// in ascending order: checked here).
fn read_first_column(dir: &Path, file: &'static str) -> Result<Vec<String>, BanditError> {
    let path = dir.join(file);
    let text = std::fs::read_to_string(&path).map_err(|source| BanditError::DataIo {
        path: path.clone(),
        source,
    })?;
    let mut rdr = csv::ReaderBuilder::new()
        .has_headers(true)
        .from_reader(text.as_bytes());
    let mut out: Vec<String> = Vec::new();
    for rec in rdr.records() {
        let rec = rec.map_err(|e| BanditError::DataFormat {
            path: path.clone(),
            reason: e.to_string(),
        })?;
        let d = rec.get(0).unwrap_or_default().trim().to_string();
        if out.last().is_some_and(|p| p.as_str() >= d.as_str()) {
            return Err(BanditError::DataFormat {
                path: path.clone(),
                reason: format!("dates not in ascending order at {d:?}"),
            });
        }
        out.push(d);
    }
    Ok(out)
}
