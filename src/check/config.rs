//! `check --config FILE`: a suite written as TOML, one `[[case]]` table per case.
//!
//! ```toml
//! [[case]]
//! algorithm = "fisher-yates"   # or generator = "shuffle-bag", or command = "..."
//! n = 5
//! trials = 200000
//! seed = 7
//! expect = "fair"              # or "biased"
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
    weights: Option<String>,
    timeout: Option<u64>,
    source: Option<String>,
    clock_step: Option<f64>,
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
    "command", "trials", "kind", "k", "deck", "ordered", "weights", "timeout",
];
const COMMON_FIELDS: &[&str] = &["name", "seed", "expect"];

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
mod tests {
    use super::*;

    const SETTINGS: CheckSettings = CheckSettings {
        threads: 2,
        alpha: 1e-6,
        source: SourceKind::Xoshiro,
    };

    fn error(text: &str) -> String {
        parse(text, "suite.toml", &SETTINGS).unwrap_err().to_string()
    }

    #[test]
    fn command_cases_take_a_shell_line_or_a_program_and_the_ingest_fields() {
        let cases = parse(
            r#"
[[case]]
command = "python3 shuffle.py --seed {seed} --count {trials}"
trials = 1000
expect = "biased"

[[case]]
name = "picks"
command = ["./pick", "{seed}"]
kind = "selections"
k = 3
deck = "A B C D E"
ordered = true
seed = 9
expect = "fair"
"#,
            "suite.toml",
            &SETTINGS,
        )
        .unwrap();
        assert_eq!(cases[0].name, "python3 shuffle.py --seed {seed} --count {trials}");
        assert_eq!(cases[0].seed, DEFAULT_SEED);
        assert_eq!(cases[0].expect, Expectation::Biased);
        let CaseKind::Command(command) = &cases[0].kind else {
            panic!("a command case")
        };
        assert!(command.takes_seed());
        assert_eq!(command.trials, Some(1000));
        // Without ingest fields: whole decks, the first line fixing the deck, read with the
        // suite's threads and α.
        let defaults = IngestSettings::permutations(SETTINGS.threads, SETTINGS.alpha);
        assert_eq!(command.ingest, defaults);
        let CaseKind::Command(command) = &cases[1].kind else {
            panic!("a command case")
        };
        assert_eq!(
            command.line,
            CommandLine::Program(vec!["./pick".into(), "{seed}".into()])
        );
        assert_eq!(
            command.ingest,
            IngestSettings {
                kind: SampleKind::Selections,
                k: Some(3),
                deck: Some(["A", "B", "C", "D", "E"].map(String::from).to_vec()),
                ordered: true,
                ..defaults
            }
        );
        assert_eq!(cases[1].seed, 9);
    }

    #[test]
    fn cases_get_names_from_what_they_run_and_names_must_differ() {
        let cases = parse(
            "[[case]]\nalgorithm = \"naive-repeated:2\"\nn = 4\ntrials = 10\nexpect = \"biased\"\n\
             [[case]]\nalgorithm = \"bag-pick\"\nn = 6\nk = 2\ntrials = 10\nexpect = \"fair\"\n\
             [[case]]\ngenerator = \"tetris-7-bag\"\nitems = \"7\"\nlength = 100\nstreams = 2\nexpect = \"fair\"\n",
            "suite.toml",
            &SETTINGS,
        )
        .unwrap();
        let names: Vec<&str> = cases.iter().map(|case| case.name.as_str()).collect();
        assert_eq!(
            names,
            ["naive-repeated:2 n=4", "bag-pick n=6 k=2", "tetris-7-bag items=7"]
        );
        let twice = "[[case]]\nalgorithm = \"fisher-yates\"\nn = 4\ntrials = 10\nexpect = \"fair\"\n";
        assert_eq!(
            error(&format!("{twice}{twice}")),
            "suite.toml: case 2 (fisher-yates n=4): the name is used by an earlier case; give each case its own `name`"
        );
    }

    #[test]
    fn each_kind_of_case_is_checked_as_run_and_stream_check_it() {
        assert_eq!(
            error("[[case]]\nalgorithm = \"bag-pick\"\nn = 6\ntrials = 10\nexpect = \"fair\"\n"),
            "suite.toml: case 1 (bag-pick): bag-pick is a sampler: give --k (how many of the n items it picks)"
        );
        assert!(
            error("[[case]]\ngenerator = \"tetris-7-bag\"\nitems = \"A:2,B:1\"\nlength = 100\nstreams = 2\nexpect = \"fair\"\n")
                .starts_with("suite.toml: case 1 (tetris-7-bag): generator 'tetris-7-bag': deals one of each item")
        );
        assert!(
            error("[[case]]\ngenerator = \"iid\"\nitems = \"3\"\nlength = 100\nexpect = \"fair\"\n")
                .ends_with("missing field 'streams' (how many streams, e.g. 100)")
        );
        assert!(
            error("[[case]]\nalgorithm = \"sattolo\"\ngenerator = \"iid\"\nexpect = \"fair\"\n")
                .contains("gives more than one of `algorithm`, `generator` and `command`")
        );
        assert!(
            error("[[case]]\nexpect = \"fair\"\n")
                .contains("needs one of `algorithm`, `generator` or `command`")
        );
        assert!(error("[[case]]\ncommand = []\nexpect = \"fair\"\n").contains("field 'command' is empty"));
        assert!(
            error("[[case]]\nalgorithm = \"sattolo\"\nn = 4\ntrials = 10\n")
                .ends_with("missing field 'expect' (\"fair\" or \"biased\")")
        );
        assert!(
            error(
                "[[case]]\nalgorithm = \"sattolo\"\nn = 4\ntrials = 10\nexpect = \"fair\"\nitems = \"3\"\n"
            )
            .contains("field 'items' does not apply to algorithm cases")
        );
        assert!(error("case = 3\n").contains("'case' must be a list of tables"));
    }

    #[test]
    fn a_case_may_name_its_own_source_which_wins_over_the_suites() {
        let suite = CheckSettings {
            source: SourceKind::Delphi,
            ..SETTINGS
        };
        let cases = parse(
            "[[case]]\nalgorithm = \"fisher-yates\"\nn = 4\ntrials = 10\nexpect = \"fair\"\n\
             [[case]]\nname = \"c\"\nalgorithm = \"fisher-yates\"\nn = 4\ntrials = 10\nexpect = \"fair\"\nsource = \"msvc-rand-mod\"\n\
             [[case]]\ngenerator = \"iid\"\nitems = \"3\"\nlength = 10\nstreams = 2\nexpect = \"biased\"\nsource = \"clock-reseed\"\nclock_step = 0.5\n\
             [[case]]\nname = \"whole ms\"\ngenerator = \"iid\"\nitems = \"3\"\nlength = 10\nstreams = 2\nexpect = \"biased\"\nsource = \"clock-reseed\"\nclock_step = 2\n\
             [[case]]\ncommand = \"true\"\nexpect = \"fair\"\n",
            "suite.toml",
            &suite,
        )
        .unwrap();
        let own: Vec<Option<SourceKind>> = cases.iter().map(|case| case.source).collect();
        let half_ms = SourceKind::ClockReseed("0.5".parse().unwrap());
        let two_ms = SourceKind::ClockReseed("2".parse().unwrap());
        assert_eq!(
            own,
            [
                None,
                Some(SourceKind::MsvcRandMod),
                Some(half_ms),
                Some(two_ms),
                None
            ]
        );
        let under: Vec<Option<SourceKind>> = cases.iter().map(|case| case.source_under(&suite)).collect();
        assert_eq!(
            under,
            [
                Some(SourceKind::Delphi),
                Some(SourceKind::MsvcRandMod),
                Some(half_ms),
                Some(two_ms),
                None
            ]
        );
    }

    #[test]
    fn bad_sources_are_one_line_errors_naming_the_field() {
        let case = |fields: &str| {
            error(&format!(
                "[[case]]\nalgorithm = \"fisher-yates\"\nn = 4\ntrials = 10\nexpect = \"fair\"\n{fields}"
            ))
        };
        for (fields, wanted) in [
            (
                "source = \"rand\"\n",
                "suite.toml: case 1 (fisher-yates): field 'source': unknown source 'rand' (the sources are \
                 xoshiro, msvc-rand-mod, delphi, clock-reseed)",
            ),
            (
                "source = \"delphi\"\nclock_step = 1\n",
                "suite.toml: case 1 (fisher-yates): field 'clock_step' only applies to source = \
                 \"clock-reseed\" (this case's source is delphi)",
            ),
            (
                "clock_step = 1\n",
                "suite.toml: case 1 (fisher-yates): field 'clock_step' needs source = \"clock-reseed\" in \
                 the same case",
            ),
            (
                "source = \"clock-reseed\"\nclock_step = 0.0001\n",
                "suite.toml: case 1 (fisher-yates): field 'clock_step': the modelled clock counts whole \
                 microseconds: at most three decimals (got 0.0001)",
            ),
            (
                "source = \"clock-reseed\"\nclock_step = -1\n",
                "suite.toml: case 1 (fisher-yates): field 'clock_step': expected milliseconds such as 1, \
                 0.25 or 15.625 (got '-1')",
            ),
            (
                "source = \"clock-reseed\"\nclock_step = 1e9\n",
                "suite.toml: case 1 (fisher-yates): field 'clock_step': must be between 0.001 and 86400000 \
                 ms (got 1000000000000 µs)",
            ),
            (
                "source = 3\n",
                "suite.toml: case 1 (fisher-yates): field 'source': invalid type: integer `3`, expected a string",
            ),
        ] {
            assert_eq!(case(fields), wanted, "{fields}");
        }
        assert_eq!(
            error("[[case]]\ncommand = \"true\"\nexpect = \"fair\"\nsource = \"delphi\"\n"),
            "suite.toml: case 1 (true): field 'source' does not apply to command cases: a program brings \
             its own randomness"
        );
    }
}
