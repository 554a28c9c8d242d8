//! The `--data-dir` option of every command that reads the shared data sets (`verify`,
//! `reproduce`, `bench`), and its one resolution rule.

use std::path::{Path, PathBuf};

/// The folder of the shared data sets, as a flattened clap option.
#[derive(clap::Args, Debug, Clone)]
pub struct DataDirArg {
    /// Folder of the shared data sets (a relative path is relative to the workspace root).
    #[arg(long = "data-dir", default_value = "../shared/data")]
    data_dir: PathBuf,
}

impl DataDirArg {
    /// The folder, resolved by [`resolve`].
    pub fn resolve(&self) -> PathBuf {
        resolve(&self.data_dir)
    }
}

/// `path` itself when absolute, else `path` under the workspace root (not the current
/// directory, so that `cargo xtask` reads the same data from any folder of the workspace).
pub fn resolve(path: &Path) -> PathBuf {
    if path.is_absolute() {
        path.to_path_buf()
    } else {
        crate::workspace_root().join(path)
    }
}
