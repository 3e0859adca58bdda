//! The graded verdict: `pass`, `suspicious` or `fail`, from the smallest Holm-adjusted
//! p-value of a result, or `inconclusive` when no test could run.
//!
//! `fail` needs strong evidence (α = 1e-6 by default) because a CI job that fails by bad
//! luck gets switched off. `suspicious` marks the band between α and 1e-3 where a fair
//! shuffle lands about once in a thousand runs: worth a second look, not an alarm.

use serde::Serialize;

use super::pvalue::PValue;
use crate::error::{Error, Result};

/// The default significance level for `fail`.
pub const DEFAULT_ALPHA: f64 = 1e-6;
/// Adjusted p-values below this (and not below α) are `suspicious`.
pub const SUSPICIOUS_BELOW: f64 = 1e-3;

/// What the tests say about a result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// No test rejected uniformity.
    Pass,
    /// The smallest adjusted p-value is below 1e-3 but not below α.
    Suspicious,
    /// The smallest adjusted p-value is below α.
    Fail,
    /// No test had enough trials to run.
    Inconclusive,
}

impl std::fmt::Display for Verdict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Verdict::Pass => "pass",
            Verdict::Suspicious => "suspicious",
            Verdict::Fail => "fail",
            Verdict::Inconclusive => "inconclusive",
        })
    }
}

impl Verdict {
    /// The verdict as a headline shows it: `PASS`, `SUSPICIOUS`, `FAIL`, `INCONCLUSIVE`.
    pub fn headline(self) -> &'static str {
        match self {
            Verdict::Pass => "PASS",
            Verdict::Suspicious => "SUSPICIOUS",
            Verdict::Fail => "FAIL",
            Verdict::Inconclusive => "INCONCLUSIVE",
        }
    }
}

/// The significance levels a verdict is read against.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Thresholds {
    alpha: f64,
}

impl Thresholds {
    /// `fail` below `alpha`, which must lie in `(0, 1)`.
    pub fn new(alpha: f64) -> Result<Self> {
        if !(alpha > 0.0 && alpha < 1.0) {
            return Err(Error::BadOption {
                option: "--alpha",
                problem: format!("must be a probability between 0 and 1 (exclusive), not {alpha}"),
            });
        }
        Ok(Self { alpha })
    }

    /// The significance level for `fail`.
    pub fn alpha(&self) -> f64 {
        self.alpha
    }

    /// The verdict for a result whose tests gave these adjusted p-values.
    pub fn verdict(&self, adjusted: impl IntoIterator<Item = PValue>) -> Verdict {
        let smallest = adjusted
            .into_iter()
            .min_by(|a, b| a.log10().total_cmp(&b.log10()));
        match smallest {
            None => Verdict::Inconclusive,
            Some(p) if p.is_below(self.alpha) => Verdict::Fail,
            Some(p) if p.is_below(SUSPICIOUS_BELOW) => Verdict::Suspicious,
            Some(_) => Verdict::Pass,
        }
    }
}

impl Default for Thresholds {
    fn default() -> Self {
        Self { alpha: DEFAULT_ALPHA }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grades() {
        let thresholds = Thresholds::default();
        let p = PValue::from_probability;
        assert_eq!(thresholds.verdict([p(0.5), p(0.01)]), Verdict::Pass);
        assert_eq!(thresholds.verdict([p(0.5), p(1e-4)]), Verdict::Suspicious);
        assert_eq!(thresholds.verdict([p(1e-7), p(0.9)]), Verdict::Fail);
        assert_eq!(thresholds.verdict([PValue::from_log10(-4000.0)]), Verdict::Fail);
        assert_eq!(thresholds.verdict([]), Verdict::Inconclusive);
        assert_eq!(Thresholds::new(0.01).unwrap().verdict([p(0.005)]), Verdict::Fail);
    }

    #[test]
    fn alpha_must_be_a_probability() {
        for bad in [0.0, 1.0, -0.1, 2.0, f64::NAN] {
            assert!(Thresholds::new(bad).is_err(), "{bad}");
        }
    }
}
