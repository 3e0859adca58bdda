//! Every command's report rendered for the terminal and for machines: text, JSON, CSV and
//! JUnit XML.
//!
//! One rule places every renderer: **a folder per format, a file per report type.** The
//! text a command prints is `text/<report>.rs`, its JSON `json/<report>.rs`, its CSV
//! `csv/<report>.rs`, its JUnit XML `junit/<report>.rs`, where `<report>` names the report
//! (`run`, `samplers`, `stream`, `exact`, `exact_riffles`, `check`, `reach`, `crack`,
//! `catalogue`). A new command's text goes in `text/`, its JSON in `json/`, and so on: no
//! question to ask. Format-first, because the reports of one format share more with each
//! other than with their other formats: every text report lays out its tests, verdicts
//! and outcomes alike (`text/result.rs`), every JSON export opens with the same
//! provenance and writes tests alike, every CSV is the same long table. Placing each
//! format together keeps those shared parts beside their users and one format's
//! conventions in one place (cards from 1 in text, from 0 in JSON and CSV).
//!
//! Renderers build strings (or write to a `Write`) and never print or open files, so that
//! the binary decides where things go ([`crate::files`] puts them there) and the tests
//! read exactly what a user would see. The HTML and Markdown report with its SVG charts is
//! a document of its own, in [`crate::report`], built from the same report structs and
//! from the text parts here. JSON comes from serde-derived structs wherever a document can
//! be held; where it cannot ([`json`] says which and why), it is streamed.
//!
//! This module sits above every command's library code and below the report and the
//! binary: it reads the report structs and nothing reads it but those.

pub mod csv;
pub mod json;
pub mod junit;
pub mod text;
