//! Rendering a run's (or a stream run's) report: a terminal text report, JSON and CSV, and writing them to
//! a file, a directory or standard output without ever leaving a half-written file behind.
//!
//! Renderers build strings and never print, so that the binary decides where things go
//! and the tests can read exactly what a user would see.

pub mod check_json;
pub mod check_text;
pub mod crack_json;
pub mod crack_text;
pub mod csv;
pub mod exact_json;
pub mod exact_riffles;
pub mod exact_text;
pub mod json;
pub mod junit;
mod long_table;
pub mod reach_json;
pub mod reach_text;
pub mod stream_csv;
pub mod stream_json;
pub mod stream_text;
pub mod text;
