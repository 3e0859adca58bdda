//! The JSON export of a `check` run (`check --json FILE`), which `scripts/calibrate.sh`
//! reads: every case with its kind, expectation, first run (seed, trials, verdict, each
//! test's raw and Holm-adjusted p-value), its confirmation if one ran, the verdict that
//! counts, whether that is as expected, and its time.
//!
//! Sources are recorded as `run` records them (name, definition, origin, and
//! `clock_step_ms` for `clock-reseed`): the suite's `--source` at the top, and the source
//! every algorithm and generator case drew from in the case (`null` for a command, which
//! brings its own randomness).
//!
//! p-values are given both as numbers (floored at 1e-300) and as base-10 logarithms
//! (exact however small), as in the other exports.

use std::io::Write;

use serde::Serialize;

use crate::analysis::power::{CATCH_POWER, CATCH_TOTAL_VARIATION};
use crate::check::{CaseResult, CheckReport, CheckSettings, RunOutcome};
use crate::randomness::SourceKind;
use crate::stats::confirm::Attempt;
use crate::stats::method::PMethodName;
use crate::stats::{PMethod, PValue, Verdict};

#[derive(Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub(crate) struct CheckJson<'a> {
    /// The version of this JSON format (semantic versioning, one for every document).
    schema_version: &'static str,
    tool: &'static str,
    version: &'static str,
    command: &'static str,
    threads: usize,
    alpha: f64,
    /// `--source`: the source of the algorithm and generator cases that name none.
    source: SourceKind,
    all_as_expected: bool,
    elapsed_seconds: f64,
    cases: Vec<CaseJson<'a>>,
}

#[derive(Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
struct CaseJson<'a> {
    name: &'a str,
    kind: &'static str,
    expected: String,
    /// The source its runs drew from; `None` (null) for a command.
    source: Option<SourceKind>,
    first: AttemptJson<'a>,
    confirmation: Option<AttemptJson<'a>>,
    /// Why a suspicious first run was not confirmed.
    unconfirmed_because: Option<&'a str>,
    /// `pass`, `suspicious`, `fail`, `inconclusive`, or `error`.
    verdict: String,
    as_expected: bool,
    elapsed_seconds: f64,
    /// What the whole-sample test of the run that counts needed to catch a total variation
    /// of 0.05 with 99 % power, and had; null when no such test ran (or the run failed).
    power: Option<PowerJson>,
    /// Whether the run that counts passed on fewer samples than that: its `verdict` is
    /// then `inconclusive`, unless `underpowered_allowed`.
    underpowered: bool,
    /// Whether an underpowered pass stands (`--allow-underpowered`, or the case's
    /// `allow_underpowered`).
    underpowered_allowed: bool,
    /// For a command's decks, the generator its deals give away, in one
    /// sentence (with the next deal); null when none was recovered.
    predictable: Option<&'a str>,
    /// The case's `unpredictable`: predictable deals make it not as expected.
    unpredictable: bool,
}

#[derive(Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
struct PowerJson {
    /// `permutations`, `subsets`, `positions` or `frequencies`.
    test: &'static str,
    /// The samples it had: deals, selections, or a stream's draws.
    samples: u64,
    /// The samples it needs; null when no count would do.
    samples_needed: Option<u64>,
    total_variation: f64,
    power: f64,
}

#[derive(Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
struct AttemptJson<'a> {
    seed: u64,
    trials: u64,
    /// For a command: the samples (or items) its output held.
    #[serde(skip_serializing_if = "Option::is_none")]
    samples_read: Option<u64>,
    verdict: String,
    p_adjusted_min: Option<f64>,
    log10_p_adjusted_min: Option<f64>,
    error: Option<&'a str>,
    tests: Vec<TestJson<'a>>,
}

#[derive(Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
struct TestJson<'a> {
    name: &'a str,
    p_value: Option<f64>,
    log10_p_value: Option<f64>,
    /// How `p_value` was computed: `chi-square`, `exact`, `simulated` or `bound`.
    p_method: Option<PMethodName>,
    p_adjusted: Option<f64>,
    log10_p_adjusted: Option<f64>,
}

/// Writes the report as pretty JSON.
pub fn write(report: &CheckReport, out: &mut dyn Write) -> std::io::Result<()> {
    let json = CheckJson {
        schema_version: super::SCHEMA_VERSION,
        tool: "shuffle-audit",
        version: env!("CARGO_PKG_VERSION"),
        command: "check",
        threads: report.settings.threads,
        alpha: report.settings.alpha,
        source: report.settings.source,
        all_as_expected: report.all_as_expected(),
        elapsed_seconds: report.elapsed.as_secs_f64(),
        cases: report
            .results
            .iter()
            .map(|result| case_json(result, &report.settings))
            .collect(),
    };
    serde_json::to_writer_pretty(&mut *out, &json)?;
    out.write_all(b"\n")
}

fn case_json<'a>(result: &'a CaseResult, settings: &CheckSettings) -> CaseJson<'a> {
    CaseJson {
        name: &result.case.name,
        kind: result.case.kind.label(),
        expected: result.case.expect.to_string(),
        source: result.case.source_under(settings),
        first: attempt_json(&result.runs.first),
        confirmation: result.runs.confirmation.as_ref().map(attempt_json),
        unconfirmed_because: result.unconfirmed_because.as_deref(),
        verdict: verdict_word(result.verdict()),
        as_expected: result.as_expected(),
        elapsed_seconds: result.elapsed.as_secs_f64(),
        power: result.power().map(|power| PowerJson {
            test: power.test,
            samples: power.samples,
            samples_needed: power.needed,
            total_variation: CATCH_TOTAL_VARIATION,
            power: CATCH_POWER,
        }),
        underpowered: result.underpowered().is_some(),
        underpowered_allowed: result.underpowered_allowed,
        predictable: result.predictable(),
        unpredictable: result.wants_unpredictable(),
    }
}

fn attempt_json(attempt: &Attempt<RunOutcome>) -> AttemptJson<'_> {
    let findings = attempt.outcome.as_ref().ok();
    let smallest = findings.and_then(|findings| findings.smallest_p_adjusted());
    AttemptJson {
        seed: attempt.seed,
        trials: attempt.trials,
        samples_read: findings.and_then(|findings| findings.samples_read),
        verdict: verdict_word(findings.map(|findings| findings.verdict)),
        p_adjusted_min: smallest.map(PValue::value_floored),
        log10_p_adjusted_min: smallest.map(PValue::log10),
        error: attempt.outcome.as_ref().err().map(String::as_str),
        tests: findings
            .map(|findings| {
                findings
                    .tests
                    .iter()
                    .map(|test| TestJson {
                        name: &test.name,
                        p_value: test.p.map(PValue::value_floored),
                        log10_p_value: test.p.map(PValue::log10),
                        p_method: test.method.map(PMethod::name),
                        p_adjusted: test.p_adjusted.map(PValue::value_floored),
                        log10_p_adjusted: test.p_adjusted.map(PValue::log10),
                    })
                    .collect()
            })
            .unwrap_or_default(),
    }
}

fn verdict_word(verdict: Option<Verdict>) -> String {
    verdict.map_or("error".to_string(), |verdict| verdict.to_string())
}
