//! The library's error type.
//!
//! Every error a user can cause (a misspelt algorithm, a deck that is too small, an
//! unwritable output file) is a variant here with a message that fits on one line and
//! names what is wrong, so that the binary can print it as it is and exit with status 2.
//! Nothing the user types may reach a panic.

use std::path::PathBuf;

/// What can go wrong in a run, each with a one-line message for the user.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// An algorithm name that is not in the catalogue.
    #[error("unknown algorithm '{name}'{suggestion} (`shuffle-audit list` shows the catalogue)")]
    UnknownAlgorithm {
        /// The name as the user typed it.
        name: String,
        /// "; did you mean ...?" or empty.
        suggestion: String,
    },
    /// A stream generator name that is not in the catalogue.
    #[error("unknown generator '{name}'{suggestion} (`shuffle-audit list` shows the catalogue)")]
    UnknownGenerator {
        /// The name as the user typed it.
        name: String,
        /// "; did you mean ...?" or empty.
        suggestion: String,
    },
    /// A stream generator that cannot run as asked (its parameter, or the items given).
    #[error("generator '{spec}': {problem}")]
    BadGenerator {
        /// The generator as typed, parameter included.
        spec: String,
        /// What is wrong.
        problem: String,
    },
    /// A `:parameter` that the algorithm does not take or that does not parse.
    #[error("algorithm '{spec}': {problem}")]
    BadParameter {
        /// The algorithm as typed, parameter included.
        spec: String,
        /// What is wrong with it.
        problem: String,
    },
    /// A numeric option outside the range the tool can honour.
    #[error("{option} {problem}")]
    BadOption {
        /// The option, e.g. `--n`.
        option: &'static str,
        /// What is wrong with its value.
        problem: String,
    },
    /// The operating system could not provide a seed.
    #[error("could not read a seed from the operating system ({0}); pass --seed")]
    OsRandomness(String),
    /// The worker threads could not be started.
    #[error("could not start {threads} worker threads: {reason}")]
    ThreadPool {
        /// How many were asked for.
        threads: usize,
        /// The operating system's reason.
        reason: String,
    },
    /// An output file could not be written.
    #[error("cannot write {}: {source}", path.display())]
    Write {
        /// The file that was being written.
        path: PathBuf,
        /// The underlying failure.
        source: std::io::Error,
    },
    /// A user's shuffle (audited with `assert_fair_shuffle`) gave back a deck that is not a
    /// permutation of the cards it was given.
    #[error(
        "the shuffle is broken: trial {trial} (seed {seed}) gave back the deck {deck}: {problem}; \
         a shuffle must return a rearrangement of the cards 0..n it was given"
    )]
    BrokenShuffle {
        /// The trial, counted from 0.
        trial: u64,
        /// The seed of the run it was in.
        seed: u64,
        /// The deck as the shuffle left it.
        deck: String,
        /// What is wrong with it.
        problem: String,
    },
    /// Two outputs were sent to standard output at once.
    #[error("{0}")]
    Usage(String),
    /// Shard files that cannot be merged (unreadable, not a run's JSON, tampered with, or
    /// not the shards of one run), the message naming the file and what is wrong.
    #[error("{0}")]
    Merge(String),
    /// Samples read by `ingest` that cannot be used: a malformed line (`line 7: ...`),
    /// an empty input, or input that could not be read.
    #[error("{0}")]
    Input(String),
    /// The work was cancelled by whoever asked for it ([`crate::simulate::Progress::cancelled`]):
    /// the live page's Stop, or a closed connection.
    #[error("cancelled before it ended")]
    Cancelled,
}

/// Shorthand for results whose error is [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;
