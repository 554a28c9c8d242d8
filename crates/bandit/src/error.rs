//! The bandit crate's error type: the shared bad-input vocabulary ([`InputError`], from the
//! `validation` crate) plus what only domains, environments, data sets and the runner can get
//! wrong.

use std::path::PathBuf;

use kernel::KernelError;
use thiserror::Error;

pub use validation::InputError;

/// A boxed error from an agent, a curator or a factory of another crate.
pub type BoxedError = Box<dyn std::error::Error + Send + Sync + 'static>;

/// Everything that can go wrong in the bandit crate. Each kind of bad input has its own variant
/// and a message that says what was expected; the kinds every crate shares are the variants of
/// [`InputError`], wrapped in [`BanditError::Input`].
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum BanditError {
    /// Bad input of a kind shared with the other crates (see [`InputError`]): an empty domain,
    /// decision set, data set or list; a NaN or infinite coordinate, weight or score; a
    /// dimension mismatch; a parameter that is not positive, negative, or out of its range; a
    /// horizon of zero.
    #[error(transparent)]
    Input(#[from] InputError),
    /// A box is not a box: a lower bound is not below its upper bound.
    #[error(
        "box bounds in dimension {dim} must satisfy lower < upper (both finite), got [{lower}, {upper}]"
    )]
    InvalidBox {
        /// The dimension.
        dim: usize,
        /// Its lower bound.
        lower: f64,
        /// Its upper bound.
        upper: f64,
    },
    /// A reward model that the environment cannot use (recorded data rows on a continuous box,
    /// which has no arm indices).
    #[error("unsupported reward model: {reason}")]
    RewardModelUnsupported {
        /// Why the reward model does not fit the environment.
        reason: &'static str,
    },
    /// The regret on a continuous box needs the maximum of the objective, which the objective
    /// does not know.
    #[error(
        "the objective's maximum is not known: the regret on a continuous box needs it \
         (use a benchmark with a known optimum or a finite domain)"
    )]
    MaximumUnknown,
    /// A partition of a box into sub-regions cannot be built as documented.
    #[error("invalid partition: {reason}")]
    InvalidPartition {
        /// Why (P = 0, wrong number of splits, ...).
        reason: String,
    },
    /// A sub-region of a partition of a finite domain holds no point of the domain.
    #[error(
        "sub-region {cell} of the partition into {n_cells} hyper-rectangles holds no point of the \
         {n_points}-point domain: use fewer sub-regions or a finer domain"
    )]
    EmptySubRegion {
        /// The empty sub-region.
        cell: usize,
        /// Number of sub-regions.
        n_cells: usize,
        /// Number of points of the domain.
        n_points: usize,
    },
    /// An environment produced a reward that is NaN or infinite.
    #[error("round {round}: the reward of action {action} is not finite ({value})")]
    NonFiniteReward {
        /// The round (0-based).
        round: usize,
        /// The action.
        action: usize,
        /// The reward.
        value: f64,
    },
    /// An agent chose an action outside the decision set.
    #[error("round {round}: action {action} is not in the decision set of {n_actions} actions")]
    ActionOutOfRange {
        /// The round (0-based).
        round: usize,
        /// The action chosen.
        action: usize,
        /// Size of the decision set.
        n_actions: usize,
    },
    /// The folder of the shared data sets (or one of its files) does not exist.
    #[error(
        "data set file {path} not found: the data folder is a parameter (default ../shared/data \
         relative to the workspace root, see bandit::dataset::default_data_dir); point it at the \
         folder holding {file}"
    )]
    DataMissing {
        /// The path that was looked for.
        path: PathBuf,
        /// The file name expected in the folder.
        file: &'static str,
    },
    /// A data set file could not be read.
    #[error("cannot read data set file {path}: {source}")]
    DataIo {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },
    /// A data set file is not in the documented format.
    #[error("data set file {path}: {reason}")]
    DataFormat {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        reason: String,
    },
    /// Rejection sampling did not produce an accepted sample within its budget.
    #[error("rejection sampling of {what} gave up after {attempts} attempts")]
    SamplingFailed {
        /// What was being sampled.
        what: &'static str,
        /// Attempts made.
        attempts: usize,
    },
    /// An error of the kernel crate (kernel evaluation, factorisation, PSD check).
    #[error(transparent)]
    Kernel(#[from] KernelError),
    /// An agent failed (its own error type, boxed).
    #[error("agent failed at round {round:?}: {source}")]
    Agent {
        /// The round (0-based); `None` while the agent was being built.
        round: Option<usize>,
        /// The agent's error.
        #[source]
        source: BoxedError,
    },
    /// A curator failed (its own error type, boxed).
    #[error("curator failed at round {round:?}: {source}")]
    Curator {
        /// The round (0-based); `None` while the curator was being built.
        round: Option<usize>,
        /// The curator's error.
        #[source]
        source: BoxedError,
    },
    /// An environment failed (drawing a decision set or a reward, or building an instance in
    /// a factory of another crate, whose error is boxed).
    #[error("environment failed at round {round:?}: {source}")]
    Environment {
        /// The round (0-based); `None` while the environment was being built.
        round: Option<usize>,
        /// The environment's error.
        #[source]
        source: BoxedError,
    },
    /// An agent was asked to observe a message before selecting an action
    /// ([`crate::policy::Pending`]).
    #[error("observe() called before select(): there is no action to attach the message to")]
    ObserveBeforeSelect,
    /// An agent whose algorithm forbids it was asked to select again before observing the
    /// message about its previous action ([`crate::policy::Reselect::Forbid`]).
    #[error(
        "select() called twice without observe(): the previous action still awaits its message"
    )]
    SelectTwice,
    /// The decision set offered differs from the fixed arm set an algorithm was built for
    /// ([`crate::policy::FixedArms`]).
    #[error(
        "the decision set differs from the learner's fixed arm set (first difference at row \
         {row}, column {col})"
    )]
    DecisionSetChanged {
        /// Row of the first differing entry.
        row: usize,
        /// Column of the first differing entry.
        col: usize,
    },
    /// A shard of a batch is not `i/n` with `0 <= i < n` ([`crate::runner::Shard`]).
    #[error("invalid shard {shard:?}: {reason}")]
    InvalidShard {
        /// The shard as given.
        shard: String,
        /// What is wrong.
        reason: &'static str,
    },
    /// Result records could not be serialised.
    #[error("cannot serialise results: {0}")]
    Serialise(String),
}
