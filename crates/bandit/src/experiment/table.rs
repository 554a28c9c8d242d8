//! A table of numbers a run reports beside its batch: one row per trial and checkpoint (e.g. a
//! learner's internal quantities at a few rounds), written by `cargo xtask reproduce` as
//! `ID-LABEL-diagnostics.csv` beside the curve's records. Not plotted.

use std::fmt::Write as _;

use super::ExperimentError;

/// Named columns of numbers; a `NaN` is a value the row does not have (written as an empty
/// field).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RunTable {
    columns: Vec<String>,
    rows: Vec<Vec<f64>>,
}

impl RunTable {
    /// An empty table with these columns.
    pub fn new<S: Into<String>>(columns: impl IntoIterator<Item = S>) -> Self {
        Self {
            columns: columns.into_iter().map(Into::into).collect(),
            rows: Vec::new(),
        }
    }

    /// The column names.
    pub fn columns(&self) -> &[String] {
        &self.columns
    }

    /// The rows, in the order pushed.
    pub fn rows(&self) -> &[Vec<f64>] {
        &self.rows
    }

    /// The values of column `name`, or `None` when the table has no such column.
    pub fn column(&self, name: &str) -> Option<Vec<f64>> {
        let i = self.columns.iter().position(|c| c == name)?;
        Some(self.rows.iter().map(|r| r[i]).collect())
    }

    /// Append a row.
    ///
    /// # Errors
    /// [`ExperimentError::Serialise`] when the row's length is not the number of columns.
    pub fn push(&mut self, row: Vec<f64>) -> Result<(), ExperimentError> {
        if row.len() != self.columns.len() {
            return Err(ExperimentError::Serialise(format!(
                "a diagnostics row has {} values for {} columns ({})",
                row.len(),
                self.columns.len(),
                self.columns.join(", ")
            )));
        }
        self.rows.push(row);
        Ok(())
    }

    /// The table as CSV: a header line, then one line per row; full precision (Rust's shortest
    /// round-trip form), `NaN` as an empty field.
    pub fn to_csv(&self) -> String {
        let mut out = self.columns.join(",");
        out.push('\n');
        for row in &self.rows {
            for (i, v) in row.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                if !v.is_nan() {
                    let _ = write!(out, "{v}");
                }
            }
            out.push('\n');
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_has_a_header_and_empty_fields_for_nan() {
        let mut t = RunTable::new(["trial", "x"]);
        t.push(vec![0.0, 1.5]).unwrap();
        t.push(vec![1.0, f64::NAN]).unwrap();
        assert_eq!(t.to_csv(), "trial,x\n0,1.5\n1,\n");
        assert!(t.push(vec![1.0]).is_err());
        assert_eq!(t.column("x").unwrap()[0].to_bits(), 1.5f64.to_bits());
        assert!(t.column("y").is_none());
    }
}
