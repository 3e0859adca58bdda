//! What a goodness-of-fit test gives back: its statistic, its p-value, which tails count,
//! and how each tail was computed.
//!
//! A fit is made with its upper tail (counts farther from their expectations than chance
//! allows). A test whose counts come from independent draws of the law it tests also reads
//! its lower tail ([`Fit::with_lower_tail`]): counts *closer* to their expectations than
//! chance allows are as sure a sign that the draws are not independent and random (Knuth,
//! TAOCP 2, 3.3.1: "too good to be true"). Each fit says at construction how its lower
//! tail is to be read ([`LowerTail`]): from the χ² law where the counts support it, or
//! from the counts' own law (exact, simulated, or bounded) where they do not, so that no
//! tail is ever read from a law that does not hold for the counts at hand.

use super::method::PMethod;
use super::pvalue::{PValue, chi_square_lower_tail, chi_square_upper_tail, two_sided};

/// The outcome of trying to run one χ² test.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Fit {
    /// The test ran.
    Computed {
        /// The test statistic (already scaled where the test needs it).
        statistic: f64,
        /// Degrees of freedom.
        df: u64,
        /// Cells compared, after pooling.
        cells: usize,
        /// The p-value: the upper tail, or for a test with both tails (see [`Tail`]) twice
        /// the smaller one.
        p: PValue,
        /// Which tails count against the null.
        tail: Tail,
        /// How the upper tail was computed.
        method: PMethod,
        /// How the lower tail is read once it counts ([`Fit::with_lower_tail`]).
        lower: LowerTail,
    },
    /// Some cell would expect fewer than [`super::pooling::MIN_EXPECTED`]; `needed` trials
    /// would do.
    TooFewTrials {
        /// The fewest trials for which the test would run.
        needed: u64,
    },
}

/// How a fit's lower tail is read.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum LowerTail {
    /// From the χ² law: the counts support it.
    ChiSquare,
    /// Already computed from the counts' own law.
    Computed {
        /// `P(X <= statistic)`, or an upper bound on it.
        p: PValue,
        /// How.
        method: PMethod,
    },
}

/// Which tails of a test's statistic count against the null.
///
/// Tests of laws that are even by design (a shuffle bag's frequencies) keep the upper tail
/// only; the orders of independent deals, their positions and an i.i.d. stream's
/// frequencies count both. The 24 orders of 4 cards dealt in turn give χ² = 0.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Tail {
    /// Only a large statistic counts.
    Upper,
    /// Both count: `p` is [`two_sided`] of these.
    Both {
        /// `P(X >= statistic)`.
        upper: PValue,
        /// `P(X <= statistic)`: small when the counts are too even.
        lower: PValue,
        /// How `lower` was computed.
        lower_method: PMethod,
    },
}

impl Fit {
    /// A fit read from the χ² law with `df` degrees of freedom in both tails, upper tail
    /// counting: for statistics whose counts support that law.
    pub fn chi_square(statistic: f64, df: u64, cells: usize) -> Fit {
        Fit::Computed {
            statistic,
            df,
            cells,
            p: chi_square_upper_tail(statistic, df as f64),
            tail: Tail::Upper,
            method: PMethod::ChiSquare,
            lower: LowerTail::ChiSquare,
        }
    }

    /// A fit whose upper tail is `upper` (computed by `method`) and whose lower tail, once
    /// it counts, is `lower`.
    pub fn with_tails(
        statistic: f64,
        df: u64,
        cells: usize,
        upper: PValue,
        method: PMethod,
        lower: LowerTail,
    ) -> Fit {
        Fit::Computed {
            statistic,
            df,
            cells,
            p: upper,
            tail: Tail::Upper,
            method,
            lower,
        }
    }

    /// The same fit with its lower tail too: `p` becomes two-sided. Anything but an
    /// upper-tailed computed fit is returned as it is.
    pub fn with_lower_tail(self) -> Fit {
        match self {
            Fit::Computed {
                statistic,
                df,
                cells,
                p: upper,
                tail: Tail::Upper,
                method,
                lower,
            } => {
                let (lower_p, lower_method) = match lower {
                    LowerTail::ChiSquare => (chi_square_lower_tail(statistic, df as f64), PMethod::ChiSquare),
                    LowerTail::Computed { p, method } => (p, method),
                };
                Fit::Computed {
                    statistic,
                    df,
                    cells,
                    p: two_sided(upper, lower_p),
                    tail: Tail::Both {
                        upper,
                        lower: lower_p,
                        lower_method,
                    },
                    method,
                    lower,
                }
            }
            other => other,
        }
    }

    /// Whether the lower tail decided the p-value: the counts are too even.
    pub fn too_even(&self) -> bool {
        matches!(self, Fit::Computed { tail: Tail::Both { upper, lower, .. }, .. } if lower.log10() < upper.log10())
    }

    /// How the p-value that decides was computed: the lower tail's method when the counts
    /// are too even, the upper tail's otherwise; `None` for a fit that did not run.
    pub fn p_method(&self) -> Option<PMethod> {
        match self {
            Fit::Computed {
                tail: Tail::Both { lower_method, .. },
                ..
            } if self.too_even() => Some(*lower_method),
            Fit::Computed { method, .. } => Some(*method),
            Fit::TooFewTrials { .. } => None,
        }
    }

    /// The name of [`Fit::p_method`], `-` for a fit that did not run: for tables.
    pub fn method_label(&self) -> String {
        self.p_method()
            .map_or_else(|| "-".to_string(), |method| method.name().as_str().to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_deciding_tail_names_the_method() {
        let exact_lower = LowerTail::Computed {
            p: PValue::from_probability(1e-6),
            method: PMethod::Exact,
        };
        let fit = Fit::with_tails(
            0.01,
            2,
            3,
            PValue::from_probability(0.99),
            PMethod::ChiSquare,
            exact_lower,
        );
        assert_eq!(fit.p_method(), Some(PMethod::ChiSquare), "upper tail only");
        let both = fit.with_lower_tail();
        assert!(both.too_even());
        assert_eq!(both.p_method(), Some(PMethod::Exact));
        assert_eq!(both.method_label(), "exact");
        // A χ² fit reads its lower tail from the law.
        let fit = Fit::chi_square(30.0, 20, 21).with_lower_tail();
        assert!(!fit.too_even());
        assert_eq!(fit.p_method(), Some(PMethod::ChiSquare));
        assert_eq!(Fit::TooFewTrials { needed: 5 }.method_label(), "-");
    }
}
