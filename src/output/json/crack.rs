//! The JSON export of `seeds crack` (schema in README.md, "The online-poker crack"):
//! the source (as every export records it: name, definition, origin), what a seed means
//! to it (`seeding`), the algorithm, the window, the cards seen, the number of matching
//! seeds and the number expected by chance, and the first [`MAX_LISTED`] matching seeds
//! with the whole deck each deals (labels 1..n in dealing order) and, for a window
//! written in times of day or a clock-seeded source, the seed as a time.

use std::io::Write;

use serde::Serialize;
use serde_json::value::RawValue;

use crate::randomness::SourceKind;
use crate::seeds::crack::{CrackReport, MAX_LISTED};
use crate::seeds::seen::SeenCard;

#[derive(Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub(crate) struct CrackJson<'a> {
    /// The version of this JSON format (semantic versioning, one for every document).
    schema_version: &'static str,
    tool: &'static str,
    version: &'static str,
    command: &'static str,
    source: SourceKind,
    seeding: &'static str,
    algorithm: &'a str,
    n: usize,
    window: WindowJson,
    seen: &'a [SeenCard],
    threads: usize,
    elapsed_seconds: f64,
    matches: u64,
    chance_matches: f64,
    listed: usize,
    list_limit: usize,
    found: Vec<FoundJson>,
}

#[derive(Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
struct WindowJson {
    first: u64,
    last: u64,
    seeds: u64,
    text: String,
}

#[derive(Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
struct FoundJson {
    seed: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    time_of_day: Option<String>,
    /// On one line: a thousand decks of 52 cards, one number per line, would bury the
    /// rest of the file.
    #[schemars(with = "Vec<u16>")]
    deck: Box<RawValue>,
}

/// Writes the report as pretty JSON.
pub fn write(report: &CrackReport, out: &mut dyn Write) -> std::io::Result<()> {
    let settings = &report.settings;
    let window = &settings.window;
    let json = CrackJson {
        schema_version: super::SCHEMA_VERSION,
        tool: "shuffle-audit",
        version: env!("CARGO_PKG_VERSION"),
        command: "seeds crack",
        source: settings.dealer.source(),
        seeding: settings.dealer.seeding(),
        algorithm: settings.dealer.algorithm_name(),
        n: settings.dealer.n(),
        window: WindowJson {
            first: window.first(),
            last: window.last(),
            seeds: window.len(),
            text: window.describe(),
        },
        seen: settings.seen.cards(),
        threads: settings.threads,
        elapsed_seconds: report.elapsed.as_secs_f64(),
        matches: report.matches,
        chance_matches: report.chance_matches(),
        listed: report.recovered.len(),
        list_limit: MAX_LISTED,
        found: report
            .recovered
            .iter()
            .map(|recovered| FoundJson {
                seed: recovered.seed,
                time_of_day: report.time_of_day(recovered.seed),
                deck: serde_json::value::to_raw_value(&recovered.deck).expect("numbers serialise"),
            })
            .collect(),
    };
    serde_json::to_writer_pretty(&mut *out, &json)?;
    out.write_all(b"\n")
}
