//! Statistics: goodness-of-fit tests, p-values that survive underflow, Holm's correction,
//! verdicts and effect sizes.
//!
//! Each file holds one idea so that each can be checked against published values on its
//! own; `analysis` (one level up) puts them together for a tally.
//!
//! Power analysis (how many trials a test needs to catch a given bias) lives in
//! [`power`], on top of [`noncentral`]: the noncentral χ² distribution, which statrs does
//! not provide. It is computed as the Poisson mixture of central χ² laws, summed outward
//! from the Poisson mode with the mode's weight taken in log space (so `λ` of 10^5 and more
//! works), each direction stopping when the mass left out bounds the error below
//! `1e-14` of the result; its tests compare it with published and 50-digit values.

pub mod bag_fits;
pub mod chi_square;
pub mod confirm;
pub mod effect;
pub mod eulerian;
pub mod exact_multinomial;
pub mod exact_uniform;
pub mod fit;
pub mod guessing;
pub mod holm;
pub mod laws;
pub mod martingale;
pub mod method;
pub mod noncentral;
pub mod pooling;
pub mod power;
pub mod pvalue;
pub mod repeats;
pub mod sample_mean;
pub mod simulated;
pub mod stream_laws;
pub mod verdict;

pub use chi_square::Fit;
pub use method::PMethod;
pub use pvalue::PValue;
pub use verdict::{Thresholds, Verdict};
