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

use crate::check::{CaseResult, CheckReport, CheckSettings};
use crate::output::text::check::confirmation_note;

/// The suite as a JUnit XML document.
pub fn render(report: &CheckReport) -> String {
    let failures = report
        .not_as_expected()
        .filter(|result| result.error().is_none())
        .count();
    let errors = report
        .results
        .iter()
        .filter(|result| result.error().is_some())
        .count();
    let mut xml = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let suite = format!(
        "name=\"shuffle-audit check\" tests=\"{}\" failures=\"{failures}\" errors=\"{errors}\" time=\"{:.3}\"",
        report.results.len(),
        report.elapsed.as_secs_f64()
    );
    xml.push_str(&format!("<testsuites {suite}>\n  <testsuite {suite}>\n"));
    for result in &report.results {
        xml.push_str(&test_case(result, &report.settings));
    }
    xml.push_str("  </testsuite>\n</testsuites>\n");
    xml
}

fn test_case(result: &CaseResult, settings: &CheckSettings) -> String {
    let case = &result.case;
    let mut xml = format!(
        "    <testcase classname=\"shuffle-audit.check.{}\" name=\"{}\" time=\"{:.3}\"",
        case.kind.label(),
        escape(&case.name),
        result.elapsed.as_secs_f64()
    );
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
    if let Some(error) = result.error() {
        xml.push_str(&format!(
            ">\n      <error message=\"{}\">{}</error>\n",
            escape(error),
            escape_content(&details)
        ));
    } else if !result.as_expected() {
        let verdict = result
            .verdict()
            .map_or("error".to_string(), |verdict| verdict.to_string());
        let p = result.p().map_or("no p-value".to_string(), |p| format!("p={p}"));
        let under = flawed.map_or_else(String::new, |source| format!(" under source {source}"));
        let caught = result
            .caught()
            .map_or_else(String::new, |caught| format!(": {caught}"));
        let message = format!("expected {}, got {verdict} ({p}){under}{caught}", case.expect);
        xml.push_str(&format!(
            ">\n      <failure message=\"{}\">{}</failure>\n",
            escape(&message),
            escape_content(&details)
        ));
    } else {
        xml.push_str(&format!(
            ">\n      <system-out>{}</system-out>\n",
            escape_content(&details)
        ));
    }
    xml.push_str("    </testcase>\n");
    xml
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
                        text.push_str(&format!("; {} p={p} (adjusted {adjusted})", test.name));
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
    text
}

/// Text made safe for an XML attribute value (line breaks kept as character references,
/// which readers would otherwise turn into spaces).
pub fn escape(text: &str) -> String {
    escape_as(text, true)
}

/// Text made safe for XML element content (line breaks kept as they are).
pub fn escape_content(text: &str) -> String {
    escape_as(text, false)
}

fn escape_as(text: &str, attribute: bool) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\n' | '\t' if !attribute => out.push(c),
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            // Newlines and tabs in attributes would be normalised to spaces by readers.
            '\n' => out.push_str("&#10;"),
            '\t' => out.push_str("&#9;"),
            '\r' => out.push_str("&#13;"),
            // XML 1.0 forbids other control characters and the non-characters, even escaped.
            c if (c < ' ') || c == '\u{FFFE}' || c == '\u{FFFF}' => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_markup_quotes_and_forbidden_characters() {
        assert_eq!(
            escape("a<b & \"c\" 'd'>\u{1}\ne"),
            "a&lt;b &amp; &quot;c&quot; &apos;d&apos;&gt;\u{FFFD}&#10;e"
        );
        assert_eq!(escape("♠K ♥3"), "♠K ♥3");
        assert_eq!(escape_content("a\n<b>\t\u{1}"), "a\n&lt;b&gt;\t\u{FFFD}");
    }
}
