//! Pearson χ² goodness-of-fit tests, each refusing to give a p-value where the χ²
//! approximation does not hold.
//!
//! Three shapes are needed for shuffles:
//! - [`uniform_fit`]: every cell equally likely (the `n!` orders of a deck; for samplers,
//!   the `C(n, k)` subsets and the `n!/(n-k)!` ordered selections);
//! - [`position_fit`]: the item × position matrix, which is not an ordinary contingency
//!   table (see its docs for the calibration);
//! - [`law_fit`]: cells with a known non-uniform law (fixed points, cycles), thin cells
//!   pooled first.
//!
//! and one more for samplers, [`inclusion_fit`]: how often each item was picked, which is
//! not multinomial either (each sample picks exactly `k` items).
//!
//! The statistic is computed here and the tail probability taken from statrs'
//! `ChiSquared::sf` (via [`chi_square_upper_tail`]), never `1 - cdf`, which loses every
//! p-value below about 1e-16.

use super::pooling::{
    MIN_EXPECTED, MIN_EXPECTED_SEQUENCE, pooled_groups_at, sum_groups, trials_needed_for_two_groups_at,
};
use statrs::function::factorial::ln_factorial;

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
        /// For a statistic of exactly 0, set by the fits that know their counts' law (see
        /// [`EvenCounts`]); `None` otherwise.
        even: Option<EvenCounts>,
    },
    /// Some cell would expect fewer than [`MIN_EXPECTED`]; `needed` trials would do.
    TooFewTrials {
        /// The fewest trials for which the test would run.
        needed: u64,
    },
}

/// The probability, under the null, of counts exactly at their expectations (a statistic
/// of exactly 0), from the counts' own discrete law.
///
/// The χ² law is continuous, so its lower tail at 0 is exactly 0: read as a p-value it
/// would be "impossible", and its logarithm `-inf` (which JSON cannot hold: serde writes
/// it as `null`). But the counts are discrete, and perfectly even counts have a positive
/// probability: for multinomial counts (every order, selection or law of a deal, an
/// i.i.d. stream's frequencies) exactly the multinomial probability of the observed table
/// (`bound` false); for the position matrix and the inclusion counts, which are not
/// multinomial, the probability that one row (one card's positions, a multinomial) or one
/// item's count (a binomial) is exactly at its expectation, which every even table needs:
/// an upper bound (`bound` true), so the p-value stays conservative.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EvenCounts {
    /// `P(every count at its expectation)`, or an upper bound on it.
    pub p: PValue,
    /// Whether `p` is an upper bound rather than the exact probability.
    pub bound: bool,
}

/// `ln` of the multinomial probability of `counts` (summing to `trials`) with cell
/// probabilities `probability(i)`.
fn ln_multinomial(counts: &[u64], trials: u64, probability: impl Fn(usize) -> f64) -> f64 {
    ln_factorial(trials)
        + counts
            .iter()
            .enumerate()
            .map(|(i, &count)| count as f64 * probability(i).ln() - ln_factorial(count))
            .sum::<f64>()
}

/// Whether every count is at its expectation, up to the rounding of the expectations
/// (`trials · p` in floating point: 600 · 1/3 is 200.00000000000003, which leaves a
/// statistic of 1e-30 instead of 0, and the χ² law's lower tail there, about 1e-30, would
/// be as wrong as 0).
fn at_expectation(observed: &[u64], expected: impl Fn(usize) -> f64) -> bool {
    observed.iter().enumerate().all(|(i, &count)| {
        let expected = expected(i);
        (count as f64 - expected).abs() <= 1e-9 * expected.max(1.0)
    })
}

/// The fit of `statistic`, remembering, when every count is at its expectation (`even`),
/// how likely that is (`ln_even()`, natural log, and whether that is a bound).
fn fit_of(statistic: f64, df: u64, cells: usize, even: bool, ln_even: impl FnOnce() -> (f64, bool)) -> Fit {
    let even = even.then(|| {
        let (ln_p, bound) = ln_even();
        EvenCounts {
            p: PValue::from_log10(ln_p / std::f64::consts::LN_10),
            bound,
        }
    });
    match Fit::chi_square(statistic, df, cells) {
        Fit::Computed { p, tail, .. } => Fit::Computed {
            statistic,
            df,
            cells,
            p,
            tail,
            even,
        },
        other => other,
    }
}

/// Which tails of a test's statistic count against the null.
///
/// Every χ² fit starts with its upper tail: counts farther from their expectations than
/// chance allows. A test whose counts come from independent draws of the law it tests (the
/// orders of independent deals, their positions, an i.i.d. stream's frequencies) also gets
/// its lower tail ([`Fit::with_lower_tail`]): counts *closer* to their expectations than
/// chance allows are as sure a sign that the draws are not independent and random (Knuth,
/// TAOCP 2, 3.3.1: "too good to be true"). The 24 orders of 4 cards dealt in turn give
/// χ² = 0. Tests of laws that are even by design (a shuffle bag's frequencies) keep the
/// upper tail only.
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
    },
}

impl Fit {
    /// A χ² fit from its statistic and degrees of freedom, upper tail only.
    pub fn chi_square(statistic: f64, df: u64, cells: usize) -> Fit {
        Fit::Computed {
            statistic,
            df,
            cells,
            p: chi_square_upper_tail(statistic, df as f64),
            tail: Tail::Upper,
            even: None,
        }
    }

    /// The same fit with its lower tail too: `p` becomes two-sided. Only for fits whose
    /// statistic is (close to) χ² with `df` degrees of freedom under the null, as every
    /// fit of this module is; anything else is returned as it is.
    pub fn with_lower_tail(self) -> Fit {
        match self {
            Fit::Computed {
                statistic,
                df,
                cells,
                p: upper,
                tail: Tail::Upper,
                even,
            } => {
                // At 0 the χ² law's lower tail is 0 (see [`EvenCounts`]): the counts' own
                // law says how likely perfectly even counts are.
                let lower = match even {
                    Some(even) => even.p,
                    None => chi_square_lower_tail(statistic, df as f64),
                };
                Fit::Computed {
                    statistic,
                    df,
                    cells,
                    p: two_sided(upper, lower),
                    tail: Tail::Both { upper, lower },
                    even,
                }
            }
            other => other,
        }
    }

    /// Whether the lower tail decided the p-value: the counts are too even.
    pub fn too_even(&self) -> bool {
        matches!(self, Fit::Computed { tail: Tail::Both { upper, lower }, .. } if lower.log10() < upper.log10())
    }
}

/// `Σ (observed - expected)² / expected`.
pub fn pearson_statistic(observed: &[u64], expected: &[f64]) -> f64 {
    debug_assert_eq!(observed.len(), expected.len());
    observed
        .iter()
        .zip(expected)
        .map(|(&o, &e)| {
            let difference = o as f64 - e;
            difference * difference / e
        })
        .sum()
}

/// Pearson's statistic against the same expected count in every cell.
fn pearson_against_constant(observed: &[u64], expected: f64) -> f64 {
    observed
        .iter()
        .map(|&o| {
            let difference = o as f64 - expected;
            difference * difference
        })
        .sum::<f64>()
        / expected
}

/// All `observed.len()` cells equally likely, out of `trials`; `df = cells - 1`.
pub fn uniform_fit(observed: &[u64], trials: u64) -> Fit {
    let cells = observed.len();
    let expected = trials as f64 / cells as f64;
    if cells < 2 || expected < MIN_EXPECTED {
        return Fit::TooFewTrials {
            needed: (MIN_EXPECTED as u64).saturating_mul(cells as u64),
        };
    }
    let statistic = pearson_against_constant(observed, expected);
    let df = cells as u64 - 1;
    let even = at_expectation(observed, |_| expected);
    fit_of(statistic, df, cells, even, || {
        (ln_multinomial(observed, trials, |_| 1.0 / cells as f64), false)
    })
}

/// [`uniform_fit`] from `Σ count²` over the `cells` cells rather than the counts (the live
/// page keeps the sum as counts are added, see [`crate::tally::OrderSummary`]):
/// Pearson's `Σ (o - e)² / e` with `e = T / cells` is `(cells · Σ o² - T²) / T`, computed
/// here in exact integers before the one division (the same statistic as summing every
/// cell, to the last few bits).
pub fn uniform_fit_from_squares(sum_of_squares: u128, cells: u64, trials: u64) -> Fit {
    let expected = trials as f64 / cells as f64;
    if cells < 2 || expected < MIN_EXPECTED {
        return Fit::TooFewTrials {
            needed: (MIN_EXPECTED as u64).saturating_mul(cells),
        };
    }
    let squared_trials = u128::from(trials) * u128::from(trials);
    let statistic = match u128::from(cells).checked_mul(sum_of_squares) {
        // Never below T² (Cauchy–Schwarz): the saturation only guards the arithmetic.
        Some(scaled) => scaled.saturating_sub(squared_trials) as f64 / trials as f64,
        None => (cells as f64 * sum_of_squares as f64 - squared_trials as f64) / trials as f64,
    };
    Fit::chi_square(statistic.max(0.0), cells - 1, cells as usize)
}

/// The item × position matrix of `trials` shuffles of `n` cards (row-major, `n × n`).
///
/// Every shuffle puts each card in exactly one position and fills each position exactly
/// once, so the matrix is a sum of permutation matrices, not a table of independent
/// multinomial draws. Under a uniform shuffle one permutation matrix, centred, has
/// covariance `(Q⊗Q)/(n-1)` with `Q = I - J/n`: a projection onto the `(n-1)²`-dimensional
/// space of matrices whose rows and columns sum to zero, scaled by `1/(n-1)`. Pearson's
/// `X = (n/T)·‖observed - T/n‖²` is therefore `n/(n-1)` times a χ² with `(n-1)²` degrees of
/// freedom (its mean is `n(n-1)`), and the test uses `X·(n-1)/n`. Using `X` itself would
/// raise false alarms (about ten times α at `n = 10`, α = 0.001).
pub fn position_fit(matrix: &[u64], n: usize, trials: u64) -> Fit {
    debug_assert_eq!(matrix.len(), n * n);
    let expected = trials as f64 / n as f64;
    if n < 2 || expected < MIN_EXPECTED {
        return Fit::TooFewTrials {
            needed: (MIN_EXPECTED as u64).saturating_mul(n as u64),
        };
    }
    let pearson = pearson_against_constant(matrix, expected);
    let statistic = pearson * (n as f64 - 1.0) / n as f64;
    let df = (n as u64 - 1) * (n as u64 - 1);
    // Card 0's positions are a multinomial over the n positions.
    let even = at_expectation(matrix, |_| expected);
    fit_of(statistic, df, n * n, even, || {
        (ln_multinomial(&matrix[..n], trials, |_| 1.0 / n as f64), true)
    })
}

/// How often each of `n = counts.len()` items was picked in `trials` samples of `k` items
/// (`1 <= k < n`), against "each item is picked with probability `p = k/n`".
///
/// Each sample picks exactly `k` items, so the count vector is not multinomial. One
/// sample's indicator vector `Y` (`Y_i = 1` when item `i` is picked) has, under a uniform
/// subset, `Var(Y_i) = p(1-p)` and `Cov(Y_i, Y_j) = k(k-1)/(n(n-1)) - p² = -p(1-p)/(n-1)`:
/// covariance `p(1-p)·n/(n-1)·Q` with `Q = I - J/n`, the projection onto the
/// `(n-1)`-dimensional space of vectors summing to zero. Over `T` samples the centred
/// counts are therefore close to normal with covariance `T·p(1-p)·n/(n-1)·Q`, and Pearson's
/// `X = Σ (c_i - Tk/n)² / (Tk/n) = ‖c - Tp‖²/(Tp)` is `(1-p)·n/(n-1) = (n-k)/(n-1)` times a
/// χ² with `n-1` degrees of freedom (its mean is exactly `n-k`). The test uses
/// `X·(n-1)/(n-k)` on `n-1` degrees of freedom. For `k = 1` the factor is 1 and this is
/// the ordinary test; for `k` near `n` the plain `X` would be far too small and would
/// hide bias, e.g. at `k = n/2` it has half the mean of the χ² it would be read against.
///
/// # Panics
///
/// If `k` is 0 or at least `n` (every item is then picked equally often by construction,
/// and there is nothing to test); callers validate `k` first.
pub fn inclusion_fit(counts: &[u64], k: usize, trials: u64) -> Fit {
    let n = counts.len();
    assert!(0 < k && k < n, "inclusion of {k} of {n} items cannot be tested");
    let expected = trials as f64 * k as f64 / n as f64;
    // The counts that drive the statistic are the picks when k is small and the
    // omissions (T·(n-k)/n each) when k is near n: both must expect five.
    let fewer = k.min(n - k);
    if (trials as f64 * fewer as f64 / n as f64) < MIN_EXPECTED {
        return Fit::TooFewTrials {
            needed: (MIN_EXPECTED as u64 * n as u64).div_ceil(fewer as u64),
        };
    }
    let pearson = pearson_against_constant(counts, expected);
    let statistic = pearson * (n as f64 - 1.0) / (n - k) as f64;
    let df = n as u64 - 1;
    // Item 0's count is binomial: picked with probability k/n in each sample.
    let even = at_expectation(counts, |_| expected);
    fit_of(statistic, df, n, even, || {
        let picked = counts[0];
        let p = k as f64 / n as f64;
        let counts = [picked, trials - picked];
        (
            ln_multinomial(&counts, trials, |i| if i == 0 { p } else { 1.0 - p }),
            true,
        )
    })
}

/// Counts against a known law (probabilities per cell, summing to 1), after pooling thin
/// cells; `df = groups - 1`.
pub fn law_fit(observed: &[u64], law: &[f64], trials: u64) -> Fit {
    law_fit_pooled_to(observed, law, trials, MIN_EXPECTED)
}

/// [`law_fit`] for the run lengths and gaps of a stream, whose cells are pooled further
/// (see [`MIN_EXPECTED_SEQUENCE`]).
pub fn sequence_law_fit(observed: &[u64], law: &[f64], trials: u64) -> Fit {
    law_fit_pooled_to(observed, law, trials, MIN_EXPECTED_SEQUENCE)
}

fn law_fit_pooled_to(observed: &[u64], law: &[f64], trials: u64, min_expected: f64) -> Fit {
    debug_assert_eq!(observed.len(), law.len());
    let groups = pooled_groups_at(law, trials, min_expected);
    if groups.len() < 2 {
        return Fit::TooFewTrials {
            needed: trials_needed_for_two_groups_at(law, min_expected),
        };
    }
    let observed = sum_groups(observed, &groups);
    let expected: Vec<f64> = sum_groups(law, &groups)
        .into_iter()
        .map(|probability| probability * trials as f64)
        .collect();
    let statistic = pearson_statistic(&observed, &expected);
    let df = groups.len() as u64 - 1;
    let even = at_expectation(&observed, |i| expected[i]);
    fit_of(statistic, df, groups.len(), even, || {
        let probabilities = sum_groups(law, &groups);
        (ln_multinomial(&observed, trials, |i| probabilities[i]), false)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn computed(fit: Fit) -> (f64, u64, PValue) {
        match fit {
            Fit::Computed { statistic, df, p, .. } => (statistic, df, p),
            Fit::TooFewTrials { needed } => panic!("expected a test, got too few trials ({needed})"),
        }
    }

    /// The lower tail a fit gets once both tails count, and what it knows of even counts.
    fn lower_tail(fit: Fit) -> (PValue, Option<EvenCounts>) {
        match fit.with_lower_tail() {
            Fit::Computed {
                tail: Tail::Both { lower, .. },
                even,
                ..
            } => (lower, even),
            other => panic!("no lower tail: {other:?}"),
        }
    }

    #[test]
    fn perfectly_even_counts_get_their_exact_multinomial_probability_not_zero() {
        // The 6 orders of 3 cards, 100 each: χ² = 0, where the χ² law's lower tail is 0
        // (log10 −∞, written as null in JSON before). The exact probability of this table
        // is 600! / (100!^6 · 6^600), summed here term by term as logarithms.
        let (lower, even) = lower_tail(uniform_fit(&[100; 6], 600));
        let ln_600: f64 = (1..=600).map(|k| (k as f64).ln()).sum();
        let ln_100: f64 = (1..=100).map(|k| (k as f64).ln()).sum();
        let expected_log10 = (ln_600 - 6.0 * ln_100 - 600.0 * 6f64.ln()) / std::f64::consts::LN_10;
        assert!(lower.log10().is_finite());
        assert!(
            (lower.log10() - expected_log10).abs() < 1e-9,
            "{lower:?} vs 10^{expected_log10}"
        );
        // About 2.5e-7 (Stirling: sqrt(6^6 / (2π·600)^5)): small, but far from 0.
        assert!(lower.log10() > -7.0 && lower.log10() < -6.0, "{lower:?}");
        assert_eq!(even.map(|even| even.bound), Some(false));
    }

    #[test]
    fn counts_even_up_to_the_rounding_of_their_expectations_count_as_even() {
        // 600 · 1/3 is 200.00000000000003: the statistic is about 1e-30, not 0, and the χ²
        // law's lower tail there (about 1e-30) would call 200/300/100 impossibly even.
        // Their multinomial probability is about 3e-3.
        let law = [1.0 / 3.0, 0.5, 1.0 / 6.0];
        let (lower, even) = lower_tail(law_fit(&[200, 300, 100], &law, 600));
        assert!(lower.log10() > -3.0 && lower.log10() < -2.0, "{lower:?}");
        assert_eq!(even.map(|even| even.bound), Some(false));
        // One count off: no longer even, the χ² lower tail is read as before.
        let (_, even) = lower_tail(law_fit(&[201, 299, 100], &law, 600));
        assert_eq!(even, None);
    }

    #[test]
    fn an_even_position_matrix_or_inclusion_gets_a_finite_upper_bound() {
        // Every card 200 times in each of 3 positions (the 6 orders 100 times each): not
        // multinomial, so one row's multinomial probability bounds it from above.
        let (lower, even) = lower_tail(position_fit(&[200; 9], 3, 600));
        assert!(lower.log10().is_finite() && lower.log10() < -2.0, "{lower:?}");
        assert_eq!(even.map(|even| even.bound), Some(true));
        // Each of 4 items picked 300 times in 600 picks of 2: one item's binomial bounds it.
        let (lower, even) = lower_tail(inclusion_fit(&[300; 4], 2, 600));
        assert!(lower.log10().is_finite() && lower.log10() < -1.0, "{lower:?}");
        assert_eq!(even.map(|even| even.bound), Some(true));
    }

    #[test]
    fn pearson_matches_a_hand_computation() {
        // Text 004's naive 3-card counts would look like this; here a small made-up table:
        // (12-10)²/10 + (8-10)²/10 + (10-10)²/10 = 0.8.
        let (statistic, df, p) = computed(uniform_fit(&[12, 8, 10], 30));
        assert!((statistic - 0.8).abs() < 1e-12);
        assert_eq!(df, 2);
        // χ²(2) tail is exp(-x/2).
        assert!((10f64.powf(p.log10()) - (-0.4f64).exp()).abs() < 1e-12);
    }

    #[test]
    fn the_fit_from_squares_is_the_fit_from_counts() {
        let counts = [12u64, 8, 10, 0, 31, 9, 17, 13];
        let trials: u64 = counts.iter().sum();
        let squares: u128 = counts.iter().map(|&c| u128::from(c) * u128::from(c)).sum();
        let (a, df_a, p_a) = computed(uniform_fit(&counts, trials));
        let (b, df_b, p_b) = computed(uniform_fit_from_squares(squares, 8, trials));
        assert!((a - b).abs() < 1e-9 * a, "{a} vs {b}");
        assert_eq!(df_a, df_b);
        assert!((p_a.log10() - p_b.log10()).abs() < 1e-9);
        assert_eq!(
            uniform_fit_from_squares(squares, 80, trials),
            uniform_fit(&[0; 80], trials),
            "too few trials alike"
        );
    }

    #[test]
    fn too_few_trials_is_reported_with_the_count_needed() {
        assert_eq!(
            uniform_fit(&[3, 2, 4, 1, 0, 2], 12),
            Fit::TooFewTrials { needed: 30 }
        );
        assert_eq!(
            position_fit(&[1, 0, 0, 1], 2, 1),
            Fit::TooFewTrials { needed: 10 }
        );
    }

    #[test]
    fn the_position_statistic_is_scaled() {
        // 3 cards, 30 shuffles, each position/card pair seen 10 times except a 2-cycle
        // of deviations: X = 4 · (2²/10) = 1.6, scaled by 2/3.
        let matrix = [12, 8, 10, 8, 12, 10, 10, 10, 10];
        let (statistic, df, _) = computed(position_fit(&matrix, 3, 30));
        assert!((statistic - 1.6 * 2.0 / 3.0).abs() < 1e-12);
        assert_eq!(df, 4);
    }

    #[test]
    fn the_inclusion_statistic_is_scaled() {
        // 4 items, 2 per sample, 10 samples: each item expects 5. Counts 7, 3, 5, 5 (they
        // sum to k·T = 20): X = (4 + 4 + 0 + 0)/5 = 1.6, scaled by (n-1)/(n-k) = 3/2.
        let (statistic, df, p) = computed(inclusion_fit(&[7, 3, 5, 5], 2, 10));
        assert!((statistic - 2.4).abs() < 1e-12);
        assert_eq!(df, 3);
        // χ²(3) tail at 2.4: 0.4936 (tables; erfc(√1.2) + √(2·1.2/π)·e^-1.2 = 0.49363).
        assert!((10f64.powf(p.log10()) - 0.49363).abs() < 1e-4, "{p}");
        // k = 1 is the ordinary uniform test over the items.
        let counts = [12, 8, 10];
        assert_eq!(inclusion_fit(&counts, 1, 30), uniform_fit(&counts, 30));
    }

    #[test]
    fn the_inclusion_test_needs_five_picks_per_item() {
        // 10 items, 3 per sample: 16 samples expect 4.8 per item, 17 expect 5.1.
        assert_eq!(inclusion_fit(&[5; 10], 3, 16), Fit::TooFewTrials { needed: 17 });
        assert!(matches!(inclusion_fit(&[5; 10], 3, 17), Fit::Computed { .. }));
        // k = 9 of 10: each item is left out 0.1 T times; 50 samples make that 5.
        assert_eq!(inclusion_fit(&[45; 10], 9, 49), Fit::TooFewTrials { needed: 50 });
        assert!(matches!(inclusion_fit(&[45; 10], 9, 50), Fit::Computed { .. }));
    }

    #[test]
    #[should_panic(expected = "cannot be tested")]
    fn picking_every_item_cannot_be_tested() {
        inclusion_fit(&[10, 10, 10], 3, 10);
    }

    #[test]
    fn law_fit_pools_and_counts_degrees_of_freedom() {
        let law = [0.5, 0.3, 0.13, 0.06, 0.009, 0.001];
        // Expected 50, 30, 13, 7 after pooling the last three cells.
        let (statistic, df, _) = computed(law_fit(&[50, 30, 13, 4, 2, 1], &law, 100));
        assert_eq!(df, 3);
        assert!(statistic.abs() < 1e-12);
        assert!(matches!(
            law_fit(&[1, 1, 0, 0, 0, 0], &law, 2),
            Fit::TooFewTrials { .. }
        ));
    }
}
