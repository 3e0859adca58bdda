//! Helpers shared by the statistical test files.

use shuffle_audit::analysis::{TestOutcome, TestReport};
use shuffle_audit::stats::Fit;

/// `name: X = .., df = .., adjusted p = ..` for every test, for failure messages.
pub fn summary(tests: &[TestReport]) -> String {
    tests
        .iter()
        .map(|test| match (&test.outcome, test.p_adjusted) {
            (TestOutcome::Fit(Fit::Computed { statistic, df, .. }), Some(p)) => {
                format!("{}: X = {statistic:.1}, df = {df}, adjusted p = {p}", test.name)
            }
            (outcome, _) => format!("{}: {outcome:?}", test.name),
        })
        .collect::<Vec<_>>()
        .join("; ")
}
