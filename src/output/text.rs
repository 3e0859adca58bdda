//! Every command's report as terminal text: one file per report type, what a person
//! reads after the command. Renderers build a `String` and never print.
//!
//! Cards and items are labelled from 1 here, as in the source texts; JSON and CSV count
//! from 0. The parts every result shares (heading, tests table, total variation) are in
//! `result.rs`, so that they read the same in every report.

pub mod catalogue;
pub mod check;
pub mod crack;
pub mod exact;
pub mod exact_guessing;
pub mod exact_riffles;
pub mod reach;
pub mod recover;
pub(crate) mod result;
pub mod run;
pub mod samplers;
pub mod stream;
pub mod teaching;
