//! Rendering a run's (or a stream run's) report: a terminal text report, JSON and CSV, and writing them to
//! a file, a directory or standard output without ever leaving a half-written file behind.
//!
//! Renderers build strings and never print, so that the binary decides where things go
//! and the tests can read exactly what a user would see.

pub mod check_json;
pub mod check_text;
mod cleanup;
pub mod crack_json;
pub mod crack_text;
pub mod csv;
mod destination;
mod directory;
pub mod exact_json;
pub mod exact_riffles;
pub mod exact_text;
mod fnv;
pub mod json;
mod long_table;
mod plan;
pub mod reach_json;
pub mod reach_text;
pub mod stream_csv;
pub mod stream_json;
pub mod stream_text;
pub mod text;

pub(crate) use cleanup::{kill_process_group, spawn_registered};
pub use cleanup::{remove_pending_temporaries, sweep_stale};
pub use destination::{Destination, stdout_reader_gone, write_atomically};
pub use directory::{MANIFEST, check_directory, write_directory};
pub use plan::{LegacyRule, Plan};
