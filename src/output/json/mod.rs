//! Every command's report as JSON, one file per report type, for machines: it holds
//! everything (full tallies, every test with raw and adjusted p-values, the verdict), and
//! numbers cards and items from 0. Fields are documented in the user guide.
//!
//! JSON comes from serde-derived structs mirroring the report ([`check`], [`crack`],
//! [`reach`], [`stream`], and [`run`] with `samplers.rs`). Where a document can be too
//! large to hold, it is still produced while it is written, never held whole:
//!
//! - [`run`] and `samplers.rs` serialise 10! orders (or every subset) through serde
//!   iterators, each row one compact line (`compact`) inside the indented document;
//! - [`exact`] writes its outcome list (10! exact fractions, hundreds of megabytes) line
//!   by line by hand, and with it the closed-form riffle law (`exact_riffles.rs`), whose
//!   fields sit inside each result's object.

pub mod catalogue;
pub mod check;
pub mod crack;
pub mod exact;
pub mod exact_guessing;
pub(crate) mod exact_riffles;
pub(crate) mod guessing;
pub(crate) mod item_guessing;
pub(crate) mod provenance;
pub mod reach;
pub mod run;
pub(crate) mod samplers;
pub mod stream;
pub(crate) mod test_report;

use serde::Serialize;
use serde_json::value::RawValue;

/// One value as a compact JSON line inside the indented document.
pub(crate) fn compact<T: Serialize + ?Sized>(value: &T) -> Box<RawValue> {
    serde_json::value::to_raw_value(value).expect("tallies serialise")
}
