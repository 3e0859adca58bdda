//! What `shuffle-audit report` prints while it writes the teaching report: each result's
//! verdict beside the verdict it is known to get, one line each, so that a reader sees at once
//! whether the claims of the source texts came out as they should.

use crate::catalogue::Graded;

/// One line per result: `name  known to be fail    fail`.
pub fn render(graded: &[Graded]) -> String {
    let width = graded.iter().map(|result| result.name.len()).max().unwrap_or(0);
    let mut text = String::new();
    for result in graded {
        text.push_str(&format!(
            "{:<width$}  known to be {:<7} {}\n",
            result.name,
            result.expected.to_string(),
            result.verdict
        ));
    }
    text
}
