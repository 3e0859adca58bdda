//! Helpers shared by the test files that call the library directly: the settings of a
//! run, and test summaries for failure messages.
#![allow(
    dead_code,
    reason = "each test file compiles this module and uses only some of it"
)]

use shuffle_audit::analysis::{TestOutcome, TestReport};
use shuffle_audit::run::RunSettings;
use shuffle_audit::stats::Fit;

/// The settings of a run of `trials` on `n` cards (`k` of them for samplers) from `seed`,
/// on 2 threads at α = 1e-6 from the default source, as every library test runs.
pub fn run_settings(n: usize, k: Option<usize>, trials: u64, seed: u64) -> RunSettings {
    RunSettings {
        source: Default::default(),
        n,
        k,
        trials,
        seed: Some(seed),
        threads: 2,
        alpha: 1e-6,
        shard: None,
    }
}

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
