//! `list --json`: every algorithm, sampler, stream generator and source of randomness,
//! each with its kind, what it does (for a source, its exact definition), where it comes
//! from and the verdict it is known to get.

use serde::Serialize;

use crate::catalogue::generators::GENERATORS;
use crate::catalogue::{Expectation, Kind, Parameter, entries};
use crate::randomness::SourceKind;
use crate::seeds::recover::RUNTIMES;

/// The document: what wrote it, then the entries.
#[derive(Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub(crate) struct CatalogueJson {
    /// The version of this JSON format (semantic versioning, one for every document).
    schema_version: &'static str,
    tool: &'static str,
    version: &'static str,
    command: &'static str,
    /// Every shuffle, sampler, stream generator and source, in that order.
    entries: Vec<EntryJson>,
    /// The runtimes `seeds recover` recovers from deals.
    runtimes: Vec<RuntimeJson>,
}

#[derive(Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
struct RuntimeJson {
    /// The name `--runtime` takes.
    name: &'static str,
    /// Other names `--runtime` takes for it (since schema 1.6.0).
    aliases: &'static [&'static str],
    generator: &'static str,
    state_bits: u32,
    /// The smallest deck it recovers from.
    min_cards: usize,
    /// The shuffles it models, each with the code it models.
    shuffles: Vec<ShuffleCodeJson>,
    /// The runtime versions the model holds for.
    versions: &'static str,
    /// What to use instead.
    instead: &'static str,
}

#[derive(Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
struct ShuffleCodeJson {
    name: &'static str,
    code: &'static str,
}

#[derive(Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
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

/// The whole catalogue as an indented JSON object (`entries` under a `schema_version`),
/// ending with a newline.
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
    let document = CatalogueJson {
        schema_version: super::SCHEMA_VERSION,
        tool: "shuffle-audit",
        version: env!("CARGO_PKG_VERSION"),
        command: "list",
        entries,
        runtimes: RUNTIMES
            .iter()
            .map(|runtime| {
                let about = runtime.about();
                RuntimeJson {
                    name: about.name,
                    aliases: about.aliases,
                    generator: about.generator,
                    state_bits: about.state_bits,
                    min_cards: about.min_cards,
                    shuffles: about
                        .shuffles
                        .iter()
                        .map(|shuffle| ShuffleCodeJson {
                            name: shuffle.name,
                            code: shuffle.code,
                        })
                        .collect(),
                    versions: about.versions,
                    instead: about.instead,
                }
            })
            .collect(),
    };
    let mut text = serde_json::to_string_pretty(&document).expect("the catalogue serialises");
    text.push('\n');
    text
}
