//! What an audit of a user's shuffle found, and the report a failing test prints.
//!
//! The report is what a developer reads in `cargo test` output when their shuffle fails,
//! so it says the verdict in words first, then shows each run's tests with the same rows
//! as `shuffle-audit run` (statistic, df, p-value, Holm-adjusted p-value), the findings
//! of the run that counts (total variation, most and least frequent orders), and the
//! builder call that repeats the audit exactly.

use std::fmt::Write;

use super::FairShuffleAudit;
use crate::analysis::{PermutationAnalysis, TestOutcome};
use crate::format::{counted, format_probability, group_thousands};
use crate::output::text::{result::render_tests, run::render_tally_findings};
use crate::run::About;
use crate::stats::confirm::{Attempt, CONFIRMATION_FACTOR, Confirmed};
use crate::stats::{Fit, Verdict};
use crate::tally::PermutationTally;

/// One run of an audit: the tally and what the statistics say about it.
#[derive(Clone, Debug)]
pub struct AuditOutcome {
    /// The orders (and, derived from them, positions, fixed points, cycles) that came out.
    pub tally: PermutationTally,
    /// The tests, the verdict, the most and least frequent outcomes.
    pub analysis: PermutationAnalysis,
}

/// A finished audit of a user's shuffle: its first run and, when that was suspicious, the
/// confirmation run whose verdict counts.
#[derive(Clone, Debug)]
pub struct ShuffleAudit {
    /// The settings it ran with.
    pub settings: FairShuffleAudit,
    /// The runs (`runs.first`, and `runs.confirmation` when the first was suspicious).
    pub runs: Confirmed<AuditOutcome>,
}

impl ShuffleAudit {
    /// The verdict that counts: the confirmation's when there was one.
    pub fn verdict(&self) -> Verdict {
        self.runs.verdict()
    }

    /// Whether the shuffle passed: verdict `pass` (a test left out for want of trials
    /// makes the verdict `inconclusive`).
    pub fn passed(&self) -> bool {
        self.verdict() == Verdict::Pass
    }

    /// The first test of the counting run that had too few trials to run, with the
    /// trials it needs.
    pub fn too_few_trials(&self) -> Option<(&'static str, u64)> {
        self.runs
            .last()
            .outcome
            .analysis
            .tests
            .iter()
            .find_map(|test| match test.outcome {
                TestOutcome::Fit(Fit::TooFewTrials { needed }) => Some((test.name, needed)),
                _ => None,
            })
    }

    /// The multi-line report a failing assertion prints.
    pub fn report(&self) -> String {
        let mut out = String::new();
        writeln!(out, "shuffle-audit: {}", self.headline()).unwrap();
        let n = self.settings.n;
        writeln!(
            out,
            "tested against: a fair shuffle (each of the {n}! orders of {n} cards equally likely)"
        )
        .unwrap();
        writeln!(
            out,
            "the deck is [0, 1, ..., {}] before every shuffle; below, cards are labelled 1..{n} (card k is the value k-1)",
            n - 1
        )
        .unwrap();
        let first = &self.runs.first;
        match &self.runs.confirmation {
            None => render_run(&mut out, "run", first, true),
            Some(confirmation) => {
                render_run(&mut out, "first run", first, false);
                writeln!(
                    out,
                    "the first run was suspicious, so it was run again with an independent seed and \
                     {CONFIRMATION_FACTOR} times the shuffles; that run's verdict is the one that counts"
                )
                .unwrap();
                render_run(&mut out, "confirmation run", confirmation, true);
            }
        }
        writeln!(out, "reproduce: {}", self.reproduce()).unwrap();
        out
    }

    /// The verdict in words.
    fn headline(&self) -> String {
        let alpha = format_probability(self.settings.alpha);
        let one_ran = self.runs.last().outcome.analysis.smallest_p_adjusted().is_some();
        match (self.verdict(), self.too_few_trials().filter(|_| one_ran)) {
            (Verdict::Pass, _) => "PASS: no test found a bias in the shuffle".to_string(),
            (Verdict::Inconclusive, Some((test, needed))) => format!(
                "INCONCLUSIVE: the other tests pass, but the {test} test needs at least {} shuffles \
                 and was not run; raise .trials()",
                group_thousands(needed)
            ),
            (Verdict::Fail, _) => {
                format!("FAIL: the shuffle is biased (a test rejects uniformity at alpha {alpha})")
            }
            (Verdict::Suspicious, _) => format!(
                "SUSPICIOUS: the shuffle is probably biased (smallest adjusted p-value below 1e-3, twice, \
                 though not below alpha {alpha}); a fair shuffle does this about once in a million audits"
            ),
            (Verdict::Inconclusive, None) => {
                "INCONCLUSIVE: too few shuffles for any test to run; raise .trials()".to_string()
            }
        }
    }

    /// The builder call that repeats this audit exactly.
    fn reproduce(&self) -> String {
        let settings = &self.settings;
        let mut call = format!(
            "FairShuffleAudit::new().n({}).trials({}).seed({})",
            settings.n,
            underscored(settings.trials),
            settings.seed
        );
        if settings.alpha != FairShuffleAudit::new().alpha {
            write!(call, ".alpha({})", format_probability(settings.alpha)).unwrap();
        }
        call.push_str(".assert(your_shuffle) (the result does not depend on the thread count)");
        call
    }
}

impl std::fmt::Display for ShuffleAudit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.report())
    }
}

/// One run: its size, seed and verdict, its tests and, for the run that counts, its
/// findings.
fn render_run(out: &mut String, label: &str, attempt: &Attempt<AuditOutcome>, findings: bool) {
    writeln!(
        out,
        "\n{label}: {}, seed {}: {}",
        counted(attempt.trials, "shuffle"),
        attempt.seed,
        attempt.verdict.headline()
    )
    .unwrap();
    render_tests(
        out,
        &attempt.outcome.analysis.tests,
        attempt.verdict,
        |_| "shuffles",
    );
    if findings {
        // A user's shuffle is no catalogue entry: its cards are numbered from 1, as said above.
        render_tally_findings(
            out,
            &attempt.outcome.tally,
            &attempt.outcome.analysis,
            &About::numbered(),
        );
    }
}

/// `300000` as `300_000`, as a Rust literal.
fn underscored(value: u64) -> String {
    group_thousands(value).replace(',', "_")
}
