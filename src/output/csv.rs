//! Every tally as CSV, one file per report type, for spreadsheets and data frames: `run`
//! (and `ingest`'s samples, `merge`'s whole run) in [`run`], `stream` in [`stream`]. All
//! share one shape, a long table with one row per cell (`long_table.rs`), so that every
//! table of a run fits one file with one header.

pub(crate) mod long_table;
pub mod run;
pub mod stream;
