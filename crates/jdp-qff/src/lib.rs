#![doc = include_str!("../../../docs/jdp-qff.md")]

pub mod calibration;
pub mod error;
pub mod experiments;
pub mod features;
pub mod implied;
pub mod local;
pub mod local_protocol;
pub mod local_server;
pub mod params;
pub mod posterior;
pub mod privatizer;
pub mod profile;
pub mod server;
pub mod spectrum;
pub mod statistics;
#[cfg(test)]
mod test_features;
pub mod width;

pub use calibration::{JdpCalibration, LocalCalibration};
pub use error::{InputError, JdpQffError};
pub use implied::{ImpliedPrivacy, SigmaByRoute};
pub use local::{ClientSelection, LocalClient};
pub use local_protocol::LocalJdpGpUcb;
pub use local_server::LocalServer;
pub use params::{JdpQffParams, NoiseRule, jdp, local, non_private};
pub use posterior::Posterior;
pub use privatizer::{ExactStatistics, JdpPrivatizer};
pub use profile::Profile;
pub use server::ApproximateGpUcb;
pub use spectrum::{Spectrum, SpectrumRule};
pub use statistics::{
    ClientMessage, ExactSums, PrivatizedStatistics, ServerStatistics, StatisticsMessage,
};
pub use width::{ConfidenceWidth, WidthParams, WidthTerms};
