//! The terminal table of a `check` run: one line per case (case, expected, verdict, p,
//! time, and whether it is as expected), a note under each case whose first run was
//! confirmed (or could not be) or that passed on too few samples, and a closing line with
//! the gate's answer.
//!
//! A suite run under a flawed source (`--source`) says so above the table, and a case
//! whose own source differs from the suite's says so under its line: a verdict means
//! nothing without the randomness it was reached with.
//!
//! Compact on purpose: a CI log is read by someone looking for the one case that broke
//! the build, so the cases not as expected are named again at the end.

use crate::check::{CaseKind, CaseResult, CheckReport, CheckSettings, Findings};
use crate::stats::confirm::CONFIRMATION_FACTOR;

/// The table and its closing lines.
pub fn render(report: &CheckReport) -> String {
    let width = report
        .results
        .iter()
        .map(|result| result.case.name.chars().count())
        .chain(std::iter::once(4))
        .max()
        .unwrap_or(4)
        .min(60);
    let mut text = suite_source_line(report).unwrap_or_default();
    text.push_str(&format!(
        "{:<width$}  {:<8}  {:<12}  {:>9}  {:>8}  result\n",
        "case", "expected", "verdict", "p", "time"
    ));
    for result in &report.results {
        let verdict = result
            .verdict()
            .map_or("error".to_string(), |verdict| verdict.to_string());
        let p = result.p().map_or("-".to_string(), |p| p.to_string());
        text.push_str(&format!(
            "{:<width$}  {:<8}  {:<12}  {:>9}  {:>8}  {}\n",
            result.case.name,
            result.case.expect.to_string(),
            verdict,
            p,
            seconds(result.elapsed.as_secs_f64()),
            if result.as_expected() {
                "ok"
            } else {
                "NOT AS EXPECTED"
            }
        ));
        if let Some(source) = own_source_note(result, &report.settings) {
            text.push_str(&format!("  {source}\n"));
        }
        if let Some(error) = result.error() {
            text.push_str(&format!("  {error}\n"));
        }
        if !result.as_expected()
            && let Some(caught) = result.caught()
        {
            text.push_str(&format!("  {caught}\n"));
        }
        if let Some(note) = confirmation_note(result) {
            text.push_str(&format!("  {note}\n"));
        }
        if let Some(note) = result.underpowered_note() {
            text.push_str(&format!("  {note}\n"));
        }
        if let Some(predictable) = result.predictable() {
            let unwanted = if result.wants_unpredictable() {
                " (unpredictable = true)"
            } else {
                ""
            };
            text.push_str(&format!("  {predictable}{unwanted}\n"));
        }
    }
    let wrong: Vec<&str> = report
        .not_as_expected()
        .map(|result| result.case.name.as_str())
        .collect();
    text.push_str(&format!(
        "\n{}, {} as expected, {} not; {} on {} thread{}, alpha {:e}\n",
        crate::format::counted(report.results.len() as u64, "case"),
        report.results.len() - wrong.len(),
        wrong.len(),
        seconds(report.elapsed.as_secs_f64()),
        report.settings.threads,
        if report.settings.threads == 1 { "" } else { "s" },
        report.settings.alpha
    ));
    if wrong.is_empty() {
        text.push_str("check passed: every case got the verdict it expects\n");
    } else {
        text.push_str(&format!("check FAILED: not as expected: {}\n", wrong.join(", ")));
    }
    text
}

/// The line above the table of a suite run under a flawed `--source`; `None` under the
/// default source.
fn suite_source_line(report: &CheckReport) -> Option<String> {
    let source = report.settings.source;
    if source.is_default() {
        return None;
    }
    let cases = |wanted: fn(&CaseResult) -> bool| report.results.iter().any(wanted);
    let some_name_their_own = cases(|result| result.case.source.is_some());
    let some_commands = cases(|result| matches!(result.case.kind, CaseKind::Command(_)));
    Some(format!(
        "source: {source}, under every algorithm and generator case{}{}\n",
        if some_name_their_own {
            " that names none of its own"
        } else {
            ""
        },
        if some_commands {
            "; command cases bring their own randomness"
        } else {
            ""
        }
    ))
}

/// `source: msvc-rand-mod`, under a case whose own source differs from the suite's.
fn own_source_note(result: &CaseResult, settings: &CheckSettings) -> Option<String> {
    result
        .case
        .source_under(settings)
        .filter(|source| *source != settings.source)
        .map(|source| format!("source: {source}"))
}

/// `suspicious (p=2.1e-4) → re-run with seed S, 4x trials: pass`, for a case whose first
/// run was suspicious; `None` for the others.
pub fn confirmation_note(result: &CaseResult) -> Option<String> {
    let first = &result.runs.first;
    let first_p = first
        .outcome
        .as_ref()
        .ok()
        .and_then(|findings| findings.smallest_p_adjusted())
        .map_or(String::new(), |p| format!(" (p={p})"));
    if let Some(because) = &result.unconfirmed_because {
        return Some(format!("{}{first_p}: {because}", first.verdict));
    }
    let confirmation = result.runs.confirmation.as_ref()?;
    let outcome = match &confirmation.outcome {
        Ok(findings) => {
            let p = findings
                .smallest_p_adjusted()
                .map_or(String::new(), |p| format!(" (p={p})"));
            format!("{}{p}", findings.verdict)
        }
        Err(_) => "error".to_string(),
    };
    let read = match &confirmation.outcome {
        Ok(Findings {
            samples_read: Some(read),
            ..
        }) => format!(", {read} samples read"),
        _ => String::new(),
    };
    Some(format!(
        "{}{first_p} → re-run with seed {}, {CONFIRMATION_FACTOR}x trials ({}{read}): {outcome}",
        first.verdict, confirmation.seed, confirmation.trials
    ))
}

fn seconds(seconds: f64) -> String {
    if seconds < 10.0 {
        format!("{seconds:.2} s")
    } else {
        format!("{seconds:.1} s")
    }
}
