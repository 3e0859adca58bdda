//! `check --config FILE`: a suite written as TOML, one `[[case]]` table per case.
//!
//! ```toml
//! [[case]]
//! algorithm = "fisher-yates"   # or generator = "shuffle-bag", or command = "..."
//! n = 5
//! trials = 200000
//! seed = 7
//! expect = "fair"              # or "biased"
//! allow_underpowered = false   # optional: let a pass on fewer samples than the case's
//!                              # test needs to catch a total variation of 0.05 stand
//! source = "msvc-rand-mod"     # optional: the randomness under it (clock_step = 0.5
//!                              # with source = "clock-reseed")
//! ```
//!
//! A case's `source` is part of what the case asserts ("a weighted pick drawing from C's
//! `rand() % 24000` must be caught"), so it wins over the suite's `--source`, which only
//! fills in for cases that name none.
//!
//! Every problem is one line naming the file, the case (its number and name) and the
//! field, so that a CI log says at once what to fix: an unknown field (a typo would
//! otherwise be ignored and the case run with defaults nobody chose), a missing or
//! misspelt value, a field that belongs to another kind of case, a value `run` or
//! `stream` would refuse.

use std::collections::HashSet;
use std::path::Path;
use std::time::Duration;

use serde::Deserialize;

use super::command::{CommandCase, CommandLine, DEFAULT_TIMEOUT, TRIALS_PLACEHOLDER};
use super::{Case, CaseKind, CheckSettings, algorithm_settings, generator_settings};
use crate::catalogue::generators::GeneratorSpec;
use crate::catalogue::items::Items;
use crate::catalogue::{AlgorithmSpec, Expectation};
use crate::error::{Error, Result};
use crate::format::{escaped_for_terminals, reaches_terminals_badly};
use crate::ingest::{IngestSettings, SampleKind};
use crate::randomness::{ClockStep, SourceKind};

/// The seed of a case that gives none.
pub const DEFAULT_SEED: u64 = 1;

/// A case as written: every field optional here, so that what is missing is said in the
/// case's own words rather than serde's.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCase {
    name: Option<String>,
    algorithm: Option<String>,
    generator: Option<String>,
    command: Option<CommandLine>,
    n: Option<usize>,
    k: Option<usize>,
    trials: Option<u64>,
    seed: Option<u64>,
    expect: Option<RawExpect>,
    items: Option<String>,
    length: Option<u64>,
    streams: Option<u64>,
    kind: Option<SampleKind>,
    deck: Option<String>,
    ordered: Option<bool>,
    unpredictable: Option<bool>,
    weights: Option<String>,
    timeout: Option<u64>,
    source: Option<String>,
    clock_step: Option<f64>,
    allow_underpowered: Option<bool>,
}

#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(rename_all = "lowercase")]
enum RawExpect {
    Fair,
    Biased,
}

/// Which fields each kind of case takes (besides `name`, `seed` and `expect`).
const ALGORITHM_FIELDS: &[&str] = &["algorithm", "n", "k", "trials", "source", "clock_step"];
const GENERATOR_FIELDS: &[&str] = &["generator", "items", "length", "streams", "source", "clock_step"];
/// The fields that choose a case's source, which a command (bringing its own randomness)
/// cannot take.
const SOURCE_FIELDS: &[&str] = &["source", "clock_step"];
const COMMAND_FIELDS: &[&str] = &[
    "command",
    "trials",
    "kind",
    "k",
    "deck",
    "ordered",
    "unpredictable",
    "weights",
    "timeout",
];
const COMMON_FIELDS: &[&str] = &["name", "seed", "expect", "allow_underpowered"];

/// Reads and checks the suite in `path`.
pub fn load(path: &Path, settings: &CheckSettings) -> Result<Vec<Case>> {
    let text = std::fs::read_to_string(path)
        .map_err(|error| Error::Usage(format!("cannot read {}: {error}", path.display())))?;
    parse(&text, &path.display().to_string(), settings)
}

/// Parses and checks a suite; `file` names it in error messages.
pub fn parse(text: &str, file: &str, settings: &CheckSettings) -> Result<Vec<Case>> {
    let document: toml::Table = text.parse().map_err(|error: toml::de::Error| {
        let line = error
            .span()
            .map(|span| {
                format!(
                    "line {}: ",
                    text[..span.start.min(text.len())].lines().count().max(1)
                )
            })
            .unwrap_or_default();
        Error::Usage(format!("{file}: {line}{}", one_line(error.message())))
    })?;
    if let Some(key) = document.keys().find(|key| *key != "case") {
        return Err(Error::Usage(format!(
            "{file}: unknown top-level key '{key}' (a suite holds only [[case]] tables)"
        )));
    }
    let tables = match document.get("case") {
        Some(toml::Value::Array(tables)) if !tables.is_empty() => tables,
        Some(toml::Value::Array(_)) | None => {
            return Err(Error::Usage(format!("{file}: no [[case]] to run")));
        }
        Some(_) => {
            return Err(Error::Usage(format!(
                "{file}: 'case' must be a list of tables, written [[case]]"
            )));
        }
    };
    let mut names = HashSet::new();
    tables
        .iter()
        .enumerate()
        .map(|(index, value)| {
            let case = parse_case(value, settings).map_err(|(name, problem)| {
                let name = name.map(|name| format!(" ({name})")).unwrap_or_default();
                Error::Usage(format!("{file}: case {}{name}: {problem}", index + 1))
            })?;
            if !names.insert(case.name.clone()) {
                return Err(Error::Usage(format!(
                    "{file}: case {} ({}): the name is used by an earlier case; give each case its own `name`",
                    index + 1,
                    case.name
                )));
            }
            Ok(case)
        })
        .collect()
}

/// A case's problem: the name it goes by (if it has one so far) and what is wrong.
type CaseError = (Option<String>, String);

fn parse_case(value: &toml::Value, settings: &CheckSettings) -> std::result::Result<Case, CaseError> {
    let Some(table) = value.as_table() else {
        return Err((None, "must be a table, written [[case]]".to_string()));
    };
    // The name the case goes by in messages, read before anything else can fail.
    let name = ["name", "algorithm", "generator"]
        .iter()
        .find_map(|key| table.get(*key).and_then(toml::Value::as_str).map(str::to_string))
        .or_else(|| {
            table
                .get("command")
                .and_then(|value| value.clone().try_into::<CommandLine>().ok())
                .map(|line| line.display())
        })
        .map(|name| escaped_for_terminals(&name));
    let raw: RawCase = value
        .clone()
        .try_into()
        .map_err(|error: toml::de::Error| (name.clone(), field_problem(table, &error)))?;
    let fail = |problem: String| (name.clone(), problem);

    let (label, allowed) = match (&raw.algorithm, &raw.generator, &raw.command) {
        (Some(_), None, None) => ("algorithm", ALGORITHM_FIELDS),
        (None, Some(_), None) => ("generator", GENERATOR_FIELDS),
        (None, None, Some(_)) => ("command", COMMAND_FIELDS),
        (None, None, None) => {
            return Err(fail(
                "needs one of `algorithm`, `generator` or `command` (what to run)".to_string(),
            ));
        }
        _ => {
            return Err(fail(
                "gives more than one of `algorithm`, `generator` and `command`; a case runs one".to_string(),
            ));
        }
    };
    if let Some(key) = table
        .keys()
        .find(|key| !allowed.contains(&key.as_str()) && !COMMON_FIELDS.contains(&key.as_str()))
    {
        if SOURCE_FIELDS.contains(&key.as_str()) {
            return Err(fail(format!(
                "field '{key}' does not apply to {label} cases: a program brings its own randomness"
            )));
        }
        return Err(fail(format!(
            "field '{key}' does not apply to {label} cases (they take {})",
            allowed
                .iter()
                .chain(COMMON_FIELDS)
                .copied()
                .collect::<Vec<_>>()
                .join(", ")
        )));
    }
    let expect = match raw
        .expect
        .ok_or_else(|| fail(missing("expect", "\"fair\" or \"biased\"")))?
    {
        RawExpect::Fair => Expectation::Fair,
        RawExpect::Biased => Expectation::Biased,
    };
    let seed = raw.seed.unwrap_or(DEFAULT_SEED);
    let own_source = case_source(raw.source.as_deref(), raw.clock_step).map_err(fail)?;
    let source = own_source.unwrap_or(settings.source);
    // `run` and `stream` name their options as flags; here they are fields.
    let as_field = |error: Error| {
        fail(match error {
            Error::BadOption { option, problem } => {
                format!("field '{}' {problem}", option.trim_start_matches('-'))
            }
            other => other.to_string(),
        })
    };

    let kind = if let Some(algorithm) = &raw.algorithm {
        let spec =
            AlgorithmSpec::parse(algorithm).map_err(|error| fail(format!("field 'algorithm': {error}")))?;
        let n = raw
            .n
            .ok_or_else(|| fail(missing("n", "the deck size, or items to pick from")))?;
        let trials = raw
            .trials
            .ok_or_else(|| fail(missing("trials", "how many shuffles, e.g. 200000")))?;
        algorithm_settings(n, raw.k, trials, seed, source, settings)
            .validate(std::slice::from_ref(&spec))
            .map_err(as_field)?;
        CaseKind::Algorithm {
            spec,
            n,
            k: raw.k,
            trials,
        }
    } else if let Some(generator) = &raw.generator {
        let spec =
            GeneratorSpec::parse(generator).map_err(|error| fail(format!("field 'generator': {error}")))?;
        let items = raw.items.as_deref().ok_or_else(|| {
            fail(missing(
                "items",
                "a count (\"7\"), weights (\"A:50,B:25\") or \"boggle\"",
            ))
        })?;
        let items = Items::parse(items).map_err(|error| fail(format!("field 'items': {error}")))?;
        let length = raw
            .length
            .ok_or_else(|| fail(missing("length", "draws per stream, e.g. 10000")))?;
        let streams = raw
            .streams
            .ok_or_else(|| fail(missing("streams", "how many streams, e.g. 100")))?;
        generator_settings(&items, length, streams, seed, source, settings)
            .validate(std::slice::from_ref(&spec))
            .map_err(as_field)?;
        CaseKind::Generator {
            spec,
            items,
            length,
            streams,
        }
    } else {
        let line = raw.command.clone().expect("one of the three is given");
        if line.program().is_empty() {
            return Err(fail(
                "field 'command' is empty: give a program to run".to_string(),
            ));
        }
        if line.contains(TRIALS_PLACEHOLDER) && raw.trials.is_none() {
            return Err(fail(
                "the command has a {trials} placeholder but no field 'trials' to fill it with".to_string(),
            ));
        }
        if raw.trials == Some(0) {
            return Err(fail("field 'trials' must be at least 1".to_string()));
        }
        let deck = raw
            .deck
            .as_deref()
            .map(crate::ingest::parse_deck)
            .transpose()
            .map_err(as_field)?;
        let weights = raw
            .weights
            .as_deref()
            .map(crate::ingest::parse_weights)
            .transpose()
            .map_err(as_field)?;
        // What `ingest` would refuse when the case runs is refused now, in the case's words.
        let ingest = IngestSettings {
            kind: raw.kind.unwrap_or_default(),
            k: raw.k,
            deck,
            weights,
            ordered: raw.ordered.unwrap_or(false),
            skip_invalid: false,
            unpredictable: raw.unpredictable.unwrap_or(false),
            predictability_budget: crate::ingest::predictability::budget(raw.unpredictable.unwrap_or(false)),
            seed_search: Vec::new(),
            seed_search_stop: None,
            threads: settings.threads,
            alpha: settings.alpha,
        };
        ingest.validate().map_err(as_field)?;
        CaseKind::Command(CommandCase {
            line,
            trials: raw.trials,
            ingest,
            timeout: match raw.timeout {
                None => DEFAULT_TIMEOUT,
                Some(0) => {
                    return Err(fail(
                        "field 'timeout' must be at least 1 (seconds one run of the program may take)"
                            .to_string(),
                    ));
                }
                Some(seconds) => Duration::from_secs(seconds),
            },
        })
    };
    let name = match (&raw.name, &kind) {
        (Some(name), _) => name.clone(),
        (None, CaseKind::Algorithm { spec, n, k, .. }) => algorithm_case_name(spec, *n, *k),
        (None, CaseKind::Generator { spec, items, .. }) => generator_case_name(spec, items),
        // A shell line may hold newlines: the table, JUnit and CI logs get them escaped.
        (None, CaseKind::Command(command)) => escaped_for_terminals(&command.line.display()),
    };
    if name.trim().is_empty() {
        return Err(fail("field 'name' is empty".to_string()));
    }
    if let Some(c) = name.chars().find(|&c| reaches_terminals_badly(c)) {
        return Err(fail(format!(
            "field 'name' holds the control or bidirectional character {}; names are printed on \
             terminals and in CI logs",
            c.escape_unicode()
        )));
    }
    Ok(Case {
        name,
        kind,
        seed,
        expect,
        source: own_source,
        allow_underpowered: raw.allow_underpowered.unwrap_or(false),
    })
}

/// A case's own source, from its `source` and `clock_step` fields (`None` when it names
/// none), or the problem with them in the config's words.
fn case_source(
    name: Option<&str>,
    clock_step: Option<f64>,
) -> std::result::Result<Option<SourceKind>, String> {
    let Some(name) = name else {
        return match clock_step {
            None => Ok(None),
            Some(_) => Err("field 'clock_step' needs source = \"clock-reseed\" in the same case".to_string()),
        };
    };
    match (SourceKind::parse(name, None).map_err(field_words)?, clock_step) {
        (kind, None) => Ok(Some(kind)),
        // A TOML number prints back as its shortest exact decimal (0.5, 15.625; 1e-4 as
        // 0.0001), which is read as `--clock-step` reads it, refused where it is refused.
        (SourceKind::ClockReseed(_), Some(milliseconds)) => milliseconds
            .to_string()
            .parse::<ClockStep>()
            .map(|step| Some(SourceKind::ClockReseed(step)))
            .map_err(field_words),
        (other, Some(_)) => Err(format!(
            "field 'clock_step' only applies to source = \"clock-reseed\" (this case's source is {})",
            other.name()
        )),
    }
}

/// An option's problem as a field's: `--clock-step must be ...` becomes `field
/// 'clock_step': must be ...`.
fn field_words(error: Error) -> String {
    match error {
        Error::BadOption { option, problem } => {
            format!(
                "field '{}': {problem}",
                option.trim_start_matches('-').replace('-', "_")
            )
        }
        other => other.to_string(),
    }
}

/// The name an algorithm case goes by when it gives none: `naive-swap n=3`.
pub fn algorithm_case_name(spec: &AlgorithmSpec, n: usize, k: Option<usize>) -> String {
    match k {
        Some(k) => format!("{} n={n} k={k}", spec.display_name(n)),
        None => format!("{} n={n}", spec.display_name(n)),
    }
}

/// The name a generator case goes by when it gives none: `shuffle-bag items=7`.
pub fn generator_case_name(spec: &GeneratorSpec, items: &Items) -> String {
    format!("{} items={}", spec.display_name(), items.spec)
}

fn missing(field: &str, what: &str) -> String {
    format!("missing field '{field}' ({what})")
}

/// serde's message for a table that would not deserialise, with the field that caused it:
/// each field is tried alone (all are optional) until one fails the same way.
fn field_problem(table: &toml::Table, error: &toml::de::Error) -> String {
    let message = one_line(error.message());
    let culprit = table.iter().find(|(key, value)| {
        let alone: toml::Table = std::iter::once(((*key).clone(), (*value).clone())).collect();
        toml::Value::Table(alone).try_into::<RawCase>().is_err()
    });
    match culprit {
        // An unknown field's message already names it.
        Some((key, _)) if !message.starts_with("unknown field") => format!("field '{key}': {message}"),
        _ => message,
    }
}

fn one_line(message: &str) -> String {
    message.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests;
