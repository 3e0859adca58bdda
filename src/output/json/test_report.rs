//! One statistical test as every JSON export writes it: its statistic, degrees of
//! freedom, raw and Holm-adjusted p-values (floored at 1e-300, with exact base-10
//! logarithms beside them), the tail it was read in, or why it could not run.

use serde::Serialize;

use crate::analysis::{TestOutcome, TestReport};
use crate::stats::chi_square::Tail;
use crate::stats::method::PMethodName;
use crate::stats::{Fit, PMethod, PValue};

/// One test of a result, as every JSON export writes it. A test that ran (`status`
/// `computed`) always has its p-values and their logarithms as numbers (never `null`: a
/// p-value is never 0, and its logarithm is exact however small); the others have none.
#[derive(Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
#[schemars(extend(
    "if" = {"properties": {"status": {"const": "computed"}}},
    "then" = {"properties": {
        "p_value": {"type": "number"},
        "log10_p_value": {"type": "number"},
        "p_adjusted": {"type": "number"},
        "log10_p_adjusted": {"type": "number"}
    }}
))]
pub(crate) struct TestJson {
    name: &'static str,
    description: &'static str,
    /// `computed`, `too_few_trials`, `not_tallied` or `not_applicable`.
    status: &'static str,
    statistic: Option<f64>,
    df: Option<u64>,
    cells: Option<usize>,
    p_value: Option<f64>,
    log10_p_value: Option<f64>,
    p_adjusted: Option<f64>,
    log10_p_adjusted: Option<f64>,
    /// `upper` (large statistics count against the null), `both` (small ones too: the
    /// counts can be too even), or `count` (one count against its expectation).
    #[serde(skip_serializing_if = "Option::is_none")]
    tail: Option<&'static str>,
    /// For tests with both tails: `P(X >= statistic)` and `P(X <= statistic)`, and
    /// whether the lower one decided (the counts are too even).
    #[serde(skip_serializing_if = "Option::is_none")]
    p_upper: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    log10_p_upper: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    p_lower: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    log10_p_lower: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    too_even: Option<bool>,
    /// How the p-value was computed (the tail that decided it, for tests with both):
    /// `chi-square` (the χ² law, read only where the counts support it), `exact` (the
    /// exact law of the counts), `simulated` (a seeded simulation of the null) or `bound`
    /// (an upper bound on the p-value).
    #[serde(skip_serializing_if = "Option::is_none")]
    p_method: Option<PMethodName>,
    /// For tests with both tails: how each was computed.
    #[serde(skip_serializing_if = "Option::is_none")]
    p_upper_method: Option<PMethodName>,
    #[serde(skip_serializing_if = "Option::is_none")]
    p_lower_method: Option<PMethodName>,
    /// The replicates drawn for a simulated tail.
    #[serde(skip_serializing_if = "Option::is_none")]
    simulated_replicates: Option<u64>,
    /// For a count: what a fair shuffle gives on average (`statistic` is the count).
    #[serde(skip_serializing_if = "Option::is_none")]
    expected: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    trials_needed: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    note: Option<String>,
}

/// A test as JSON; `unit` names what the trials are (`shuffles`, `draws`).
pub(crate) fn test_json(test: &TestReport, unit: &str) -> TestJson {
    let mut json = TestJson {
        name: test.name,
        description: test.description,
        status: "computed",
        statistic: None,
        df: None,
        cells: None,
        p_value: None,
        log10_p_value: None,
        p_adjusted: test.p_adjusted.map(PValue::value_floored),
        log10_p_adjusted: test.p_adjusted.map(PValue::log10),
        tail: None,
        p_upper: None,
        log10_p_upper: None,
        p_lower: None,
        log10_p_lower: None,
        too_even: None,
        p_method: None,
        p_upper_method: None,
        p_lower_method: None,
        simulated_replicates: None,
        expected: None,
        trials_needed: None,
        note: None,
    };
    match &test.outcome {
        TestOutcome::Fit(
            fit @ Fit::Computed {
                statistic,
                df,
                cells,
                p,
                tail,
                method,
                ..
            },
        ) => {
            json.statistic = Some(*statistic);
            json.df = Some(*df);
            json.cells = Some(*cells);
            json.p_value = Some(p.value_floored());
            json.log10_p_value = Some(p.log10());
            json.p_method = fit.p_method().map(PMethod::name);
            json.simulated_replicates = method.replicates();
            match tail {
                Tail::Upper => json.tail = Some("upper"),
                Tail::Both {
                    upper,
                    lower,
                    lower_method,
                } => {
                    json.tail = Some("both");
                    json.p_upper = Some(upper.value_floored());
                    json.log10_p_upper = Some(upper.log10());
                    json.p_lower = Some(lower.value_floored());
                    json.log10_p_lower = Some(lower.log10());
                    json.too_even = Some(fit.too_even());
                    json.p_upper_method = Some(method.name());
                    json.p_lower_method = Some(lower_method.name());
                    json.simulated_replicates = lower_method.replicates().or(method.replicates());
                    if statistic.abs() < 1e-9 && *lower_method != PMethod::ChiSquare {
                        json.note = Some(format!(
                            "every count is at its expectation (statistic 0), where the χ² law's lower tail is 0: \
                             p_lower is {} of such even counts under the null",
                            match lower_method {
                                PMethod::Bound => "an upper bound on the probability",
                                PMethod::Simulated { .. } => "the simulated probability",
                                _ => "the exact (multinomial) probability",
                            }
                        ));
                    }
                }
            }
        }
        TestOutcome::Count {
            observed,
            expected,
            p,
            method,
        } => {
            json.tail = Some("count");
            json.p_method = Some(method.name());
            json.statistic = Some(*observed as f64);
            json.expected = Some(*expected);
            json.p_value = Some(p.value_floored());
            json.log10_p_value = Some(p.log10());
        }
        TestOutcome::Fit(Fit::TooFewTrials { needed }) => {
            json.status = "too_few_trials";
            json.trials_needed = Some(*needed);
            json.note = Some(format!(
                "some cell would expect fewer than 5 {unit}; needs at least {needed}"
            ));
        }
        TestOutcome::NotTallied(reason) => {
            json.status = "not_tallied";
            json.note = Some(reason.clone());
        }
        TestOutcome::NotApplicable(reason) => {
            json.status = "not_applicable";
            json.note = Some(reason.clone());
        }
    }
    json
}
