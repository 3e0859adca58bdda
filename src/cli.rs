//! The commands of the binary, one module per command, each owning its clap arguments
//! and its body: it reads its flags, calls the library, and hands the report to
//! [`deliver`]. The flags several commands share are in [`flags`]; the progress bar,
//! the exit statuses of verdicts, the signal handling and clap's errors made one line each
//! have their own module.
//!
//! A module of the binary, not of the library: the library's API stays what a user of
//! `assert_fair_shuffle` or of the report types needs, and nothing here is tested except
//! through the binary (`tests/`).

pub mod check;
pub mod completions;
pub mod deliver;
pub mod exact;
pub mod flags;
pub mod ingest;
pub mod list;
pub mod man;
pub mod merge;
pub mod parse_errors;
pub mod progress;
pub mod report;
pub mod run;
pub mod seeds;
pub mod serve;
pub mod signals;
pub mod status;
pub mod stream;
