//! # shuffle-audit
//!
//! Finds out whether a shuffle is fair: runs it millions of times in parallel, tallies
//! what comes out, tests the tallies, and says how large any bias is and where.
//!
//! The pieces, in the order data flows through them:
//!
//! - [`randomness`]: the one narrow door ([`Randomness`]) through which every algorithm
//!   draws, and the Xoshiro256++ simulation source behind it.
//! - [`catalogue`]: the shuffles from the source texts, fair and subtly biased, each with
//!   its origin and the verdict it deserves.
//! - [`simulate`]: the deterministic parallel engine (same seed, same tallies, whatever the
//!   thread count).
//! - [`tally`]: order counts by Lehmer rank, the item × position matrix, fixed points and
//!   cycles.
//! - [`stats`] and [`analysis`]: χ² tests with the right calibration, p-values that survive
//!   underflow, Holm's correction, verdicts and effect sizes.
//! - [`run`]: the `shuffle-audit run` command as a library call; [`stream`]: the
//!   `shuffle-audit stream` command (generators of endless item sequences, shuffle bags);
//!   [`output`] renders their reports as text, JSON and CSV, and [`report`] as an HTML
//!   page with SVG charts (and the committed teaching report).
//! - [`ingest`]: the `shuffle-audit ingest` command: samples written by another program,
//!   read as a stream and tested as `run` tests a catalogue algorithm.
//!
//! ```
//! use shuffle_audit::catalogue::AlgorithmSpec;
//! use shuffle_audit::run::{run, RunSettings};
//! use shuffle_audit::simulate::NoProgress;
//! use shuffle_audit::stats::Verdict;
//!
//! let naive = AlgorithmSpec::parse("naive-swap").unwrap();
//! let settings = RunSettings { n: 3, k: None, trials: 600_000, seed: Some(1), threads: 2, alpha: 1e-6 };
//! let report = run(&[naive], &settings, &NoProgress).unwrap();
//! assert_eq!(report.results[0].analysis.verdict, Verdict::Fail);
//! ```

pub mod analysis;
pub mod catalogue;
pub mod error;
pub mod exact;
pub mod ingest;
pub mod output;
pub mod parse;
pub mod randomness;
pub mod report;
pub mod run;
pub mod simulate;
pub mod stats;
pub mod stream;
pub mod tally;

pub use error::{Error, Result};
pub use randomness::{Randomness, SimulationSource};

/// The README's code examples, compiled and run as doctests so that they stay true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
