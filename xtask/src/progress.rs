//! The one progress-bar style of the long-running commands (`verify`, `reproduce`).

use indicatif::{ProgressBar, ProgressStyle};

/// A bar of `len` steps: elapsed time, the bar, `pos/len` and a message.
pub fn bar(len: u64) -> ProgressBar {
    let bar = ProgressBar::new(len);
    bar.set_style(
        ProgressStyle::with_template("{elapsed_precise} [{bar:30}] {pos}/{len} {msg}")
            .expect("a valid template")
            .progress_chars("=> "),
    );
    bar
}
