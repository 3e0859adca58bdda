//! `list --json`: every algorithm, sampler, stream generator and source of randomness,
//! each with its kind, what it does (for a source, its exact definition), where it comes
//! from and the verdict it is known to get.

use serde::Serialize;

use crate::catalogue::generators::GENERATORS;
use crate::catalogue::{Expectation, Kind, Parameter, entries};
use crate::randomness::SourceKind;

#[derive(Serialize)]
struct EntryJson {
    name: &'static str,
    kind: &'static str,
    /// What it does; for a source, its exact definition.
    summary: String,
    origin: &'static str,
    /// The verdict it is known to get; for a source, `fair` (xoshiro) or `flawed` (whether the
    /// flaw shows depends on the algorithm, the sizes and the trials).
    expected: &'static str,
    biased_from_n: Option<usize>,
    parameter: Option<Parameter>,
}

/// The whole catalogue as an indented JSON array, ending with a newline.
pub fn render() -> String {
    let entries: Vec<EntryJson> = entries()
        .map(|entry| EntryJson {
            name: entry.name,
            kind: match entry.kind() {
                Kind::Shuffle => "shuffle",
                Kind::Sampler => "sampler",
            },
            summary: entry.summary.to_string(),
            origin: entry.origin,
            expected: if entry.biased_from.is_some() {
                "biased"
            } else {
                "fair"
            },
            biased_from_n: entry.biased_from,
            parameter: entry.parameter,
        })
        .chain(GENERATORS.iter().map(|entry| EntryJson {
            name: entry.name,
            kind: "generator",
            summary: entry.summary.to_string(),
            origin: entry.origin,
            expected: match entry.always {
                Some(Expectation::Fair) => "fair",
                Some(Expectation::Biased) => "biased",
                None => "depends on the items",
            },
            biased_from_n: None,
            parameter: entry.parameter,
        }))
        .chain(SourceKind::all().map(|source| EntryJson {
            name: source.name(),
            kind: "source",
            summary: source.definition(),
            origin: source.origin(),
            expected: if source.is_default() { "fair" } else { "flawed" },
            biased_from_n: None,
            parameter: None,
        }))
        .collect();
    let mut text = serde_json::to_string_pretty(&entries).expect("the catalogue serialises");
    text.push('\n');
    text
}
