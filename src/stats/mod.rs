//! Statistics: goodness-of-fit tests, p-values that survive underflow, Holm's correction,
//! verdicts and effect sizes.
//!
//! Each file holds one idea so that each can be checked against published values on its
//! own; `analysis` (one level up) puts them together for a tally.

pub mod bag_fits;
pub mod chi_square;
pub mod effect;
pub mod holm;
pub mod laws;
pub mod noncentral;
pub mod pooling;
pub mod pvalue;
pub mod stream_laws;
pub mod verdict;

pub use chi_square::Fit;
pub use pvalue::PValue;
pub use verdict::{Thresholds, Verdict};
