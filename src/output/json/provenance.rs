//! What every JSON export opens with (the tool, its version, the command, the seed and
//! where it came from), and for samples read by `ingest`, where they came from and
//! which lines were skipped.

use serde::Serialize;

use crate::run::{RunReport, SampleInput, SeedOrigin};

/// What every export opens with: the tool, the command, and the seed with its origin.
#[derive(Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub(crate) struct Provenance {
    /// The version of this JSON format (semantic versioning, one for every document).
    schema_version: &'static str,
    tool: &'static str,
    version: &'static str,
    command: &'static str,
    /// Absent for samples read from elsewhere (`ingest`): no seed made them.
    #[serde(skip_serializing_if = "Option::is_none")]
    seed: Option<u64>,
    /// The seed as text, for readers that hold numbers as doubles.
    #[serde(skip_serializing_if = "Option::is_none")]
    seed_string: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    seed_origin: Option<&'static str>,
}

impl Provenance {
    pub(crate) fn new(command: &'static str, seed: u64, origin: SeedOrigin) -> Self {
        Self {
            schema_version: super::SCHEMA_VERSION,
            tool: "shuffle-audit",
            version: env!("CARGO_PKG_VERSION"),
            command,
            seed: Some(seed),
            seed_string: Some(seed.to_string()),
            seed_origin: Some(match origin {
                SeedOrigin::Given => "given",
                SeedOrigin::OperatingSystem => "os",
            }),
        }
    }

    /// The provenance of a run report: its seed, or for ingested samples none.
    pub(crate) fn of_run(report: &RunReport) -> Self {
        match &report.input {
            None => Self::new("run", report.seed, report.seed_origin),
            Some(_) => Self::ingest(),
        }
    }

    /// The provenance of samples read by `ingest`: no seed made them.
    pub(crate) fn ingest() -> Self {
        Self {
            seed: None,
            seed_string: None,
            seed_origin: None,
            ..Self::new("ingest", 0, SeedOrigin::Given)
        }
    }
}

/// Where ingested samples came from (`ingest` only).
#[derive(Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub(crate) struct InputJson<'a> {
    source: &'a str,
    deck_from: &'static str,
    lines_read: u64,
    /// Samples (lines) tallied, for permutations and selections.
    #[serde(skip_serializing_if = "Option::is_none")]
    samples_read: Option<u64>,
    /// Items tallied, for a stream.
    #[serde(skip_serializing_if = "Option::is_none")]
    items_read: Option<u64>,
    lines_skipped: u64,
    skipped: Vec<SkippedJson>,
    command: &'a str,
}

impl<'a> InputJson<'a> {
    /// `input` as JSON, with the samples (lines) or the stream's items it held.
    pub(crate) fn new(input: &'a SampleInput, samples_read: Option<u64>, items_read: Option<u64>) -> Self {
        Self {
            source: &input.source,
            deck_from: input.deck_from,
            lines_read: input.lines,
            samples_read,
            items_read,
            lines_skipped: input.skipped_total(),
            skipped: input
                .skipped
                .iter()
                .map(|skipped| SkippedJson {
                    reason: skipped.reason,
                    count: skipped.count,
                    first_line: skipped.first_line,
                })
                .collect(),
            command: &input.command,
        }
    }
}

#[derive(Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
struct SkippedJson {
    reason: &'static str,
    count: u64,
    first_line: u64,
}
