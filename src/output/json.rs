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
//!
//! Every document opens with `schema_version` ([`SCHEMA_VERSION`]), and [`schemas`] gives
//! the JSON Schema of each, generated from these same types (and, for the hand-written
//! `exact` document, from the mirror in `exact_schema.rs`). The generated schemas are
//! committed in `schemas/`, and `tests/schemas.rs` fails when they differ from what the
//! types generate: a pipeline reading this JSON can rely on those files, and a format
//! change is always a deliberate one that raises the version.

pub mod catalogue;
pub mod check;
pub mod crack;
pub mod exact;
pub mod exact_guessing;
pub(crate) mod exact_riffles;
mod exact_schema;
pub(crate) mod guessing;
pub(crate) mod item_guessing;
pub(crate) mod provenance;
pub mod reach;
pub mod recover;
pub mod run;
pub(crate) mod samplers;
pub mod stream;
pub(crate) mod test_report;

use serde::Serialize;
use serde_json::value::RawValue;

/// The version of the JSON formats, written as `schema_version` at the top of every
/// document. Semantic versioning for the JSON: a new field (or a new value of a field
/// that lists its values) raises the minor version; a removed or renamed field, or a
/// changed type or meaning, raises the major one. One version for every document, so a
/// reader checks one number; the schemas are in `schemas/`.
pub const SCHEMA_VERSION: &str = "1.6.0";

/// The JSON Schema of every document, by file name stem (`schemas/NAME.schema.json`),
/// from the types that write them. Generated for serialisation: a field that is always
/// written (even as `null`) is required, one left out when empty is not, and a field the
/// schema does not name is refused.
pub fn schemas() -> Vec<(&'static str, schemars::Schema)> {
    let generator = || {
        schemars::generate::SchemaSettings::draft2020_12()
            .for_serialize()
            .into_generator()
    };
    vec![
        ("run", generator().into_root_schema_for::<run::RunJson<'static>>()),
        (
            "stream",
            generator().into_root_schema_for::<stream::StreamRunJson<'static>>(),
        ),
        (
            "check",
            generator().into_root_schema_for::<check::CheckJson<'static>>(),
        ),
        (
            "exact",
            generator().into_root_schema_for::<exact_schema::ExactJson>(),
        ),
        (
            "crack",
            generator().into_root_schema_for::<crack::CrackJson<'static>>(),
        ),
        (
            "recover",
            generator().into_root_schema_for::<recover::RecoverJson<'static>>(),
        ),
        (
            "reach",
            generator().into_root_schema_for::<reach::ReachJson<'static>>(),
        ),
        (
            "list",
            generator().into_root_schema_for::<catalogue::CatalogueJson>(),
        ),
    ]
}

/// One value as a compact JSON line inside the indented document.
pub(crate) fn compact<T: Serialize + ?Sized>(value: &T) -> Box<RawValue> {
    serde_json::value::to_raw_value(value).expect("tallies serialise")
}

/// One row of a law's table (fixed points, cycles, overlaps): the count of `k` beside
/// its expectation, one compact line each.
#[derive(Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub(crate) struct LawCount {
    pub(crate) k: usize,
    pub(crate) count: u64,
    pub(crate) expected: f64,
}
