//! `check --junit FILE`: the suite as JUnit XML, the format CI systems (GitLab, Jenkins,
//! GitHub test reporters, Azure) display natively, one test case per case.
//!
//! A case not as expected is a `<failure>`; a case whose program exited with an error is
//! an `<error>`. Every text that reaches the file (case names, commands, messages) is
//! escaped, and characters XML 1.0 forbids are replaced, since names and commands come
//! from a user's config.
//!
//! A case that drew from a flawed source names it in its body and in its failure message,
//! since each test case is read on its own in a CI system's list of results.

use quick_junit::{NonSuccessKind, Report, TestCase, TestCaseStatus, TestSuite};

use crate::check::{CaseResult, CheckReport, CheckSettings};
use crate::output::text::check::confirmation_note;
use crate::stats::PMethod;

/// The suite as a JUnit XML document, written by the `quick-junit` crate (which escapes
/// what it writes); the texts are [`sanitized`] first, so that a character XML cannot
/// hold shows as U+FFFD rather than vanishing.
pub fn render(report: &CheckReport) -> String {
    let mut suite = TestSuite::new("shuffle-audit check");
    suite.set_time(report.elapsed);
    for result in &report.results {
        suite.add_test_case(test_case(result, &report.settings));
    }
    let mut junit = Report::new("shuffle-audit check");
    junit.set_time(report.elapsed);
    junit.add_test_suite(suite);
    junit.to_string().expect("a JUnit report in memory serializes")
}

fn test_case(result: &CaseResult, settings: &CheckSettings) -> TestCase {
    let case = &result.case;
    let source = result.case.source_under(settings);
    let flawed = source.filter(|source| !source.is_default());
    let mut details = details(result);
    if let Some(source) = flawed {
        details.insert_str(0, &format!("source: {source}: {}\n", source.definition()));
    } else if source.is_none() && !settings.source.is_default() {
        details.insert_str(
            0,
            &format!(
                "source: the program's own (--source {} applies to algorithm and generator cases only)\n",
                settings.source.name()
            ),
        );
    }
    let details = sanitized(&details);
    let status = if let Some(error) = result.error() {
        let mut status = TestCaseStatus::non_success(NonSuccessKind::Error);
        status
            .set_message(sanitized(error))
            .set_description(details.clone());
        status
    } else if !result.as_expected() {
        let verdict = result
            .verdict()
            .map_or("error".to_string(), |verdict| verdict.to_string());
        let p = result.p().map_or("no p-value".to_string(), |p| format!("p={p}"));
        let under = flawed.map_or_else(String::new, |source| format!(" under source {source}"));
        let caught = result
            .caught()
            .map_or_else(String::new, |caught| format!(": {caught}"));
        let message = match result.predictable() {
            Some(predictable)
                if result.wants_unpredictable()
                    && result
                        .verdict()
                        .is_some_and(|verdict| case.expect.is_met_by(verdict)) =>
            {
                format!("expected unpredictable deals, got {predictable}")
            }
            _ => format!("expected {}, got {verdict} ({p}){under}{caught}", case.expect),
        };
        let mut status = TestCaseStatus::non_success(NonSuccessKind::Failure);
        status
            .set_message(sanitized(&message))
            .set_description(details.clone());
        status
    } else {
        TestCaseStatus::success()
    };
    let passed = matches!(status, TestCaseStatus::Success { .. });
    let mut test_case = TestCase::new(sanitized(&case.name), status);
    test_case
        .set_classname(format!("shuffle-audit.check.{}", case.kind.label()))
        .set_time(result.elapsed);
    if passed {
        test_case.set_system_out(details);
    }
    test_case
}

/// Seed, trials, verdict and each test's p-value of every run.
fn details(result: &CaseResult) -> String {
    let mut text = String::new();
    for attempt in std::iter::once(&result.runs.first).chain(&result.runs.confirmation) {
        // A generator's trials are its streams.
        let unit = match result.case.kind {
            crate::check::CaseKind::Generator { .. } => "streams",
            _ => "trials",
        };
        let read = attempt
            .outcome
            .as_ref()
            .ok()
            .and_then(|findings| findings.samples_read)
            .map_or_else(String::new, |read| format!(", samples read {read}"));
        text.push_str(&format!(
            "seed {}, {unit} {}{read}: ",
            attempt.seed, attempt.trials
        ));
        match &attempt.outcome {
            Ok(findings) => {
                text.push_str(&findings.verdict.to_string());
                for test in &findings.tests {
                    if let (Some(p), Some(adjusted)) = (test.p, test.p_adjusted) {
                        // The method where it is not the χ² law: `p=1.3e-6 exact`.
                        let method = test
                            .method
                            .filter(|method| *method != PMethod::ChiSquare)
                            .map_or(String::new(), |method| format!(" {}", method.short()));
                        text.push_str(&format!("; {} p={p}{method} (adjusted {adjusted})", test.name));
                    }
                }
            }
            Err(error) => text.push_str(error),
        }
        text.push('\n');
    }
    if let Some(note) = confirmation_note(result) {
        text.push_str(&note);
        text.push('\n');
    }
    if let Some(note) = result.underpowered_note() {
        text.push_str(&note);
        text.push('\n');
    }
    if let Some(predictable) = result.predictable() {
        text.push_str(predictable);
        text.push('\n');
    }
    text
}

/// Text with every character XML 1.0 forbids (control characters other than tab, line
/// feed and carriage return, and the non-characters U+FFFE and U+FFFF) replaced by
/// U+FFFD: names and commands come from a user's config.
pub fn sanitized(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '\n' | '\t' | '\r' => c,
            c if c < ' ' || c == '\u{FFFE}' || c == '\u{FFFF}' => '\u{FFFD}',
            c => c,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forbidden_characters_become_replacement_characters() {
        assert_eq!(sanitized("a<b\u{1}\ne\u{FFFF}"), "a<b\u{FFFD}\ne\u{FFFD}");
        assert_eq!(sanitized("♠K ♥3"), "♠K ♥3");
    }
}
