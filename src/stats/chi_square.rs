//! Pearson χ² goodness-of-fit tests, each giving a p-value only from a law that holds for
//! the counts at hand.
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
//! Where each tail comes from (issue 40: 20 fair deals of 52 cards were called
//! "suspicious" by a χ² lower tail read where it does not hold):
//! - multinomial counts (uniform and law fits) get the exact law of their counts wherever
//!   it can be enumerated: for equally likely cells both tails from the law of `Σ o²`
//!   ([`super::exact_uniform`]) at few trials per cell; otherwise
//!   ([`super::exact_multinomial`]) both tails when every count vector can be walked, the
//!   lower tail whenever the vectors at or below the statistic can; elsewhere the counts
//!   are many enough for the χ² law, the upper tail from five expected per cell and the
//!   lower from a lattice fine enough;
//! - the position matrix and the inclusion counts read the χ² law's upper tail from five
//!   expected per cell, and its lower tail from 9 degrees of freedom on (4 cards; for
//!   inclusion, 9 items), where it was measured to hold from the smallest size a test runs
//!   at; with fewer, the lower tail is simulated ([`super::simulated`]), and a 2-card deck's
//!   matrix, which is one binomial count, is exact;
//! - a statistic of exactly 0 in a matrix or inclusion test, where the χ² law's lower tail
//!   is 0, gets an upper bound on the probability of counts that even (see
//!   [`position_fit`]).
//!
//! The statistic is computed here and the χ² tail probability taken from statrs'
//! `ChiSquared::sf` (via [`chi_square_upper_tail`]), never `1 - cdf`, which loses every
//! p-value below about 1e-16.

use statrs::function::factorial::ln_factorial;

use super::exact_multinomial::{CellLaw, pearson_tails};
use super::exact_uniform::uniform_tails;
pub use super::fit::{Fit, LowerTail, Tail};
use super::method::PMethod;
use super::pooling::{
    MIN_EXPECTED, MIN_EXPECTED_SEQUENCE, pooled_groups_at, sum_groups, trials_needed_for_two_groups_at,
};
use super::pvalue::{PValue, chi_square_upper_tail};
use super::simulated::{Side, multinomial_into, seed_for, sequential_p_value};

/// Non-multinomial statistics (the position matrix, the inclusion counts) read the χ²
/// law's lower tail from this many degrees of freedom on; below, it is simulated. Measured
/// over 10^5 fair tallies at 5 to 20 expected per cell: at 9 degrees of freedom (4 cards)
/// the share of lower tails below 1e-3 and 1e-4 stayed within noise of nominal, at 4
/// (3 cards) it was 3.6 and 36 times nominal at 5 expected per cell.
pub const LEAST_DF_FOR_CHI_SQUARE_LOWER_TAIL: u64 = 8;

/// `ln` of the multinomial probability of `counts` (summing to `trials`) with cell
/// probabilities `probability(i)`.
pub(super) fn ln_multinomial(counts: &[u64], trials: u64, probability: impl Fn(usize) -> f64) -> f64 {
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

/// The fit of a statistic of multinomial counts over cells of law `law`: each tail exact
/// where it can be enumerated, from the χ² law elsewhere (see the module docs).
fn multinomial_fit(statistic: f64, df: u64, cells: usize, trials: u64, law: CellLaw) -> Fit {
    let exact = pearson_tails(statistic, trials, law);
    let (upper, method) = match exact.upper {
        Some(p) => (p, PMethod::Exact),
        None => (chi_square_upper_tail(statistic, df as f64), PMethod::ChiSquare),
    };
    let lower = match exact.lower {
        Some(p) => LowerTail::Computed {
            p,
            method: PMethod::Exact,
        },
        None => LowerTail::ChiSquare,
    };
    Fit::with_tails(statistic, df, cells, upper, method, lower)
}

/// [`multinomial_fit`] for equally likely cells, given the observed `Σ o²`: both tails
/// exact by [`uniform_tails`] where its walk is small (few trials per cell, where the χ²
/// law's far upper tail is furthest off), else as [`multinomial_fit`].
fn uniform_multinomial_fit(statistic: f64, sum_of_squares: u128, cells: usize, trials: u64) -> Fit {
    let df = cells as u64 - 1;
    match uniform_tails(sum_of_squares, cells as u64, trials) {
        Some((upper, lower)) => Fit::with_tails(
            statistic,
            df,
            cells,
            upper,
            PMethod::Exact,
            LowerTail::Computed {
                p: lower,
                method: PMethod::Exact,
            },
        ),
        None => multinomial_fit(statistic, df, cells, trials, CellLaw::Uniform(cells)),
    }
}

/// The fit of a statistic that is not of multinomial counts (position matrix, inclusion):
/// the χ² law's upper tail, and its lower tail from
/// [`LEAST_DF_FOR_CHI_SQUARE_LOWER_TAIL`] on; below, the lower tail `simulate` gives.
/// Counts exactly at their expectations get `P(one multinomial part of them is even)`
/// (`ln_even`), an upper bound on their probability, as their lower tail: the χ² law's is
/// 0 there.
fn matrix_fit(
    statistic: f64,
    df: u64,
    cells: usize,
    even: bool,
    ln_even: impl FnOnce() -> f64,
    simulate: impl FnOnce() -> LowerTail,
) -> Fit {
    let lower = if df < LEAST_DF_FOR_CHI_SQUARE_LOWER_TAIL {
        simulate()
    } else if even {
        LowerTail::Computed {
            p: PValue::from_log10(ln_even() / std::f64::consts::LN_10),
            method: PMethod::Bound,
        }
    } else {
        LowerTail::ChiSquare
    };
    Fit::with_tails(
        statistic,
        df,
        cells,
        chi_square_upper_tail(statistic, df as f64),
        PMethod::ChiSquare,
        lower,
    )
}

/// A simulated lower tail of `observed` (see [`super::simulated`]).
fn simulated_lower_tail(
    observed: f64,
    seed: u64,
    replicate: impl FnMut(&mut rand_xoshiro::Xoshiro256PlusPlus) -> f64,
) -> LowerTail {
    let simulated = sequential_p_value(observed, Side::AtMost, seed, replicate);
    LowerTail::Computed {
        p: simulated.p,
        method: PMethod::Simulated {
            replicates: simulated.replicates,
        },
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
    let sum_of_squares = observed
        .iter()
        .map(|&count| u128::from(count) * u128::from(count))
        .sum();
    uniform_multinomial_fit(statistic, sum_of_squares, cells, trials)
}

/// [`uniform_fit`] from `Σ count²` over the `cells` cells rather than the counts (the live
/// page keeps the sum as counts are added, see [`crate::tally::OrderSummary`]):
/// Pearson's `Σ (o - e)² / e` with `e = T / cells` is `(cells · Σ o² - T²) / T`, computed
/// here in exact integers before the one division (the same statistic as summing every
/// cell, to the last few bits, and the same tails).
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
    uniform_multinomial_fit(statistic.max(0.0), sum_of_squares, cells as usize, trials)
}

/// The position statistic of an `n × n` matrix of `trials` deals: Pearson's `X`, scaled
/// by `(n - 1)/n` (see [`position_fit`]).
fn position_statistic(matrix: &[u64], n: usize, trials: u64) -> f64 {
    pearson_against_constant(matrix, trials as f64 / n as f64) * (n as f64 - 1.0) / n as f64
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
///
/// Its tails: 2 cards make one binomial count (card 0 left in place or not), whose
/// statistic is the 2-cell Pearson's exactly, so both tails are exact; 3 cards (4 degrees
/// of freedom) simulate the lower tail from 6-cell multinomials of the orders; from 4
/// cards the χ² law holds in both (see the module docs). A matrix exactly at its
/// expectation gets as lower tail the probability that card 0's positions, one multinomial
/// row, are exactly even: every even matrix needs that, so it bounds the probability from
/// above.
pub fn position_fit(matrix: &[u64], n: usize, trials: u64) -> Fit {
    debug_assert_eq!(matrix.len(), n * n);
    let expected = trials as f64 / n as f64;
    if n < 2 || expected < MIN_EXPECTED {
        return Fit::TooFewTrials {
            needed: (MIN_EXPECTED as u64).saturating_mul(n as u64),
        };
    }
    let statistic = position_statistic(matrix, n, trials);
    let df = (n as u64 - 1) * (n as u64 - 1);
    if n == 2 {
        // X·(1/2) over the 4 cells is Pearson's statistic of the 2 counts [kept, swapped].
        return multinomial_fit(statistic, df, n * n, trials, CellLaw::Uniform(2));
    }
    let even = at_expectation(matrix, |_| expected);
    let row_is_even = || ln_multinomial(&matrix[..n], trials, |_| 1.0 / n as f64);
    matrix_fit(statistic, df, n * n, even, row_is_even, || {
        // Only 3 cards come here: the 6 orders' counts are a multinomial, and the matrix
        // is theirs summed.
        let orders = orders_of(n);
        let law = vec![1.0 / orders.len() as f64; orders.len()];
        let mut counts = vec![0u64; orders.len()];
        let mut replicate_matrix = vec![0u64; n * n];
        simulated_lower_tail(statistic, seed_for("positions", &[n as u64, trials]), |rng| {
            multinomial_into(rng, trials, &law, &mut counts);
            replicate_matrix.fill(0);
            for (order, &count) in orders.iter().zip(&counts) {
                for (position, &card) in order.iter().enumerate() {
                    replicate_matrix[card * n + position] += count;
                }
            }
            position_statistic(&replicate_matrix, n, trials)
        })
    })
}

/// Every order of `n` cards (for the small decks whose matrix is simulated).
fn orders_of(n: usize) -> Vec<Vec<usize>> {
    let mut orders = vec![Vec::new()];
    for card in 0..n {
        orders = orders
            .into_iter()
            .flat_map(|order: Vec<usize>| {
                (0..=order.len()).map(move |place| {
                    let mut longer = order.clone();
                    longer.insert(place, card);
                    longer
                })
            })
            .collect();
    }
    orders
}

/// The inclusion statistic: Pearson's `X` of the counts, scaled by `(n - 1)/(n - k)`
/// (see [`inclusion_fit`]).
fn inclusion_statistic(counts: &[u64], k: usize, trials: u64) -> f64 {
    let n = counts.len();
    let expected = trials as f64 * k as f64 / n as f64;
    pearson_against_constant(counts, expected) * (n as f64 - 1.0) / (n - k) as f64
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
/// the ordinary (multinomial, so exact where small) test; for `k` near `n` the plain `X`
/// would be far too small and would hide bias, e.g. at `k = n/2` it has half the mean of
/// the χ² it would be read against.
///
/// Below 9 items the lower tail is simulated: the `C(n, k)` subsets' counts are a
/// multinomial, and the inclusion counts theirs summed.
///
/// # Panics
///
/// If `k` is 0 or at least `n` (every item is then picked equally often by construction,
/// and there is nothing to test); callers validate `k` first.
pub fn inclusion_fit(counts: &[u64], k: usize, trials: u64) -> Fit {
    let n = counts.len();
    assert!(0 < k && k < n, "inclusion of {k} of {n} items cannot be tested");
    // The counts that drive the statistic are the picks when k is small and the
    // omissions (T·(n-k)/n each) when k is near n: both must expect five.
    let fewer = k.min(n - k);
    if (trials as f64 * fewer as f64 / n as f64) < MIN_EXPECTED {
        return Fit::TooFewTrials {
            needed: (MIN_EXPECTED as u64 * n as u64).div_ceil(fewer as u64),
        };
    }
    if k == 1 {
        return uniform_fit(counts, trials);
    }
    let expected = trials as f64 * k as f64 / n as f64;
    let statistic = inclusion_statistic(counts, k, trials);
    let df = n as u64 - 1;
    let even = at_expectation(counts, |_| expected);
    // Item 0's count is binomial: picked with probability k/n in each sample.
    let item_is_even = || {
        let picked = counts[0];
        let p = k as f64 / n as f64;
        ln_multinomial(&[picked, trials - picked], trials, |i| {
            if i == 0 { p } else { 1.0 - p }
        })
    };
    matrix_fit(statistic, df, n, even, item_is_even, || {
        let subsets: Vec<u32> = (0u32..1 << n)
            .filter(|set| set.count_ones() as usize == k)
            .collect();
        let law = vec![1.0 / subsets.len() as f64; subsets.len()];
        let mut subset_counts = vec![0u64; subsets.len()];
        let mut replicate_counts = vec![0u64; n];
        simulated_lower_tail(
            statistic,
            seed_for("inclusion", &[n as u64, k as u64, trials]),
            |rng| {
                multinomial_into(rng, trials, &law, &mut subset_counts);
                replicate_counts.fill(0);
                for (&set, &count) in subsets.iter().zip(&subset_counts) {
                    for (item, total) in replicate_counts.iter_mut().enumerate() {
                        if set >> item & 1 == 1 {
                            *total += count;
                        }
                    }
                }
                inclusion_statistic(&replicate_counts, k, trials)
            },
        )
    })
}

/// Counts against a known law (probabilities per cell, summing to 1), after pooling thin
/// cells; `df = groups - 1`. The pooled counts are multinomial: their tails are exact
/// where they can be enumerated.
pub fn law_fit(observed: &[u64], law: &[f64], trials: u64) -> Fit {
    debug_assert_eq!(observed.len(), law.len());
    let groups = pooled_groups_at(law, trials, MIN_EXPECTED);
    if groups.len() < 2 {
        return Fit::TooFewTrials {
            needed: trials_needed_for_two_groups_at(law, MIN_EXPECTED),
        };
    }
    let observed = sum_groups(observed, &groups);
    let probabilities = sum_groups(law, &groups);
    let expected: Vec<f64> = probabilities
        .iter()
        .map(|probability| probability * trials as f64)
        .collect();
    let statistic = pearson_statistic(&observed, &expected);
    multinomial_fit(
        statistic,
        groups.len() as u64 - 1,
        groups.len(),
        trials,
        CellLaw::Given(&probabilities),
    )
}

/// [`law_fit`] for the run lengths and gaps of a stream, whose cells are pooled further
/// (see [`MIN_EXPECTED_SEQUENCE`]). Their counts are not multinomial (the number of runs
/// is itself random, and neighbouring runs are of different items), so no exact law is
/// enumerated: both tails are the χ² law's, which the pooling to 20 expected keeps
/// calibrated (the small-sample sweep of `scripts/calibrate.sh`, from 20 draws up). Counts
/// exactly at their expectations, where the χ² law's lower tail is 0, get a lower tail of
/// 1: no law of theirs says how rare that is, and 1 is never below it.
pub fn sequence_law_fit(observed: &[u64], law: &[f64], trials: u64) -> Fit {
    debug_assert_eq!(observed.len(), law.len());
    let groups = pooled_groups_at(law, trials, MIN_EXPECTED_SEQUENCE);
    if groups.len() < 2 {
        return Fit::TooFewTrials {
            needed: trials_needed_for_two_groups_at(law, MIN_EXPECTED_SEQUENCE),
        };
    }
    let observed = sum_groups(observed, &groups);
    let expected: Vec<f64> = sum_groups(law, &groups)
        .into_iter()
        .map(|probability| probability * trials as f64)
        .collect();
    let statistic = pearson_statistic(&observed, &expected);
    let df = groups.len() as u64 - 1;
    if at_expectation(&observed, |i| expected[i]) {
        let lower = LowerTail::Computed {
            p: PValue::ONE,
            method: PMethod::Bound,
        };
        return Fit::with_tails(
            statistic,
            df,
            groups.len(),
            chi_square_upper_tail(statistic, df as f64),
            PMethod::ChiSquare,
            lower,
        );
    }
    Fit::chi_square(statistic, df, groups.len())
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

    /// The lower tail a fit gets once both tails count, and how it was computed.
    fn lower_tail(fit: Fit) -> (PValue, PMethod) {
        match fit.with_lower_tail() {
            Fit::Computed {
                tail: Tail::Both {
                    lower, lower_method, ..
                },
                ..
            } => (lower, lower_method),
            other => panic!("no lower tail: {other:?}"),
        }
    }

    /// The upper tail of a fit and how it was computed.
    fn upper_tail(fit: Fit) -> (PValue, PMethod) {
        match fit {
            Fit::Computed { p, method, .. } => (p, method),
            other => panic!("no test: {other:?}"),
        }
    }

    fn probability(p: PValue) -> f64 {
        10f64.powf(p.log10())
    }

    #[test]
    fn perfectly_even_counts_get_their_exact_multinomial_probability_not_zero() {
        // The 6 orders of 3 cards, 100 each: χ² = 0, where the χ² law's lower tail is 0
        // (log10 −∞, written as null in JSON before). The exact probability of this table
        // is 600! / (100!^6 · 6^600), summed here term by term as logarithms.
        let (lower, method) = lower_tail(uniform_fit(&[100; 6], 600));
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
        assert_eq!(method, PMethod::Exact);
    }

    #[test]
    fn counts_even_up_to_the_rounding_of_their_expectations_count_as_even() {
        // 600 · 1/3 is 200.00000000000003: the statistic is about 1e-30, not 0, and the χ²
        // law's lower tail there (about 1e-30) would call 200/300/100 impossibly even.
        // Their multinomial probability is about 3e-3, and no other vector is as even.
        let law = [1.0 / 3.0, 0.5, 1.0 / 6.0];
        let (lower, method) = lower_tail(law_fit(&[200, 300, 100], &law, 600));
        assert!(lower.log10() > -3.0 && lower.log10() < -2.0, "{lower:?}");
        assert_eq!(method, PMethod::Exact);
        // One count off: the vectors at least as even add up.
        let (one_off, _) = lower_tail(law_fit(&[201, 299, 100], &law, 600));
        assert!(
            one_off.log10() > lower.log10() && one_off.log10() < -1.0,
            "{one_off:?}"
        );
    }

    #[test]
    fn the_issue_s_twenty_fair_deals_are_not_too_even() {
        // Issue 40: 19 consecutive pairs of fair 52-card deals, 7, 7 and 5 in the three
        // groups of the fixed-point law (0, 1, 2 or more). The χ² law's lower tail there is
        // about 1e-4, which made 20 fair deals "suspicious"; exactly it is several percent.
        let mut law = crate::stats::laws::fixed_point_law(52);
        // Cells 0, 1 and the rest: the counts are pooled the same way.
        let mut observed = vec![0u64; law.len()];
        observed[0] = 7;
        observed[1] = 7;
        observed[2] = 5;
        let fit = law_fit(&observed, &law, 19).with_lower_tail();
        let Fit::Computed {
            p,
            df,
            tail: Tail::Both {
                lower, lower_method, ..
            },
            ..
        } = fit
        else {
            panic!("{fit:?}")
        };
        assert_eq!(df, 2);
        assert_eq!(lower_method, PMethod::Exact);
        assert!(probability(lower) > 0.03, "{lower}");
        assert!(!p.is_below(0.05), "{p}");
        law.truncate(3);
        assert!(
            chi_square_lower_tail_of(&observed[..3], &law, 19) < 1e-3,
            "the χ² law's reading"
        );
    }

    /// The χ² law's lower tail of 3 counts pooled as `law_fit` pools them (the last group
    /// takes the rest of the law).
    fn chi_square_lower_tail_of(observed: &[u64], head: &[f64], trials: u64) -> f64 {
        let probabilities = [head[0], head[1], 1.0 - head[0] - head[1]];
        let expected: Vec<f64> = probabilities.iter().map(|p| p * trials as f64).collect();
        let statistic = pearson_statistic(observed, &expected);
        probability(crate::stats::pvalue::chi_square_lower_tail(statistic, 2.0))
    }

    #[test]
    fn an_even_position_matrix_or_inclusion_gets_a_finite_upper_bound() {
        // Every card 150 times in each of 4 positions: not multinomial, so one row's
        // multinomial probability bounds it from above.
        let (lower, method) = lower_tail(position_fit(&[150; 16], 4, 600));
        assert!(lower.log10().is_finite() && lower.log10() < -2.0, "{lower:?}");
        assert_eq!(method, PMethod::Bound);
        // Each of 10 items picked 180 times in 600 picks of 3: one item's binomial bounds it.
        let (lower, method) = lower_tail(inclusion_fit(&[180; 10], 3, 600));
        assert!(lower.log10().is_finite() && lower.log10() < -1.0, "{lower:?}");
        assert_eq!(method, PMethod::Bound);
    }

    #[test]
    fn small_matrices_are_simulated_or_exact() {
        // 3 cards: the lower tail is simulated, and an even matrix is rare but possible.
        let (lower, method) = lower_tail(position_fit(&[200; 9], 3, 600));
        assert!(matches!(method, PMethod::Simulated { .. }), "{method:?}");
        assert!(lower.log10() < -2.0, "{lower:?}");
        // A typical matrix stops after a few hundred replicates, with a middling tail.
        let (lower, method) = lower_tail(position_fit(
            &[210, 190, 200, 195, 205, 200, 195, 205, 200],
            3,
            600,
        ));
        assert!(
            matches!(method, PMethod::Simulated { replicates } if replicates < 10_000),
            "{method:?}"
        );
        assert!(probability(lower) > 0.01, "{lower:?}");
        // The same input, the same p-value (the simulation's seed is the test's, not the data's).
        assert_eq!(
            lower_tail(position_fit(
                &[210, 190, 200, 195, 205, 200, 195, 205, 200],
                3,
                600
            ))
            .0,
            lower
        );
        // 2 cards: card 0 kept 6 times in 10 deals is one binomial count, both tails exact:
        // P(kept 6 times or more, or 4 or fewer) = 1 − C(10, 5)/2^10.
        let fit = position_fit(&[6, 4, 4, 6], 2, 10);
        let (upper, method) = upper_tail(fit);
        assert_eq!(method, PMethod::Exact);
        assert!(
            (probability(upper) - (1.0 - 252.0 / 1024.0)).abs() < 1e-12,
            "{upper}"
        );
        // Two samples of 2 of 4 items: simulated (3 degrees of freedom).
        let (_, method) = lower_tail(inclusion_fit(&[6, 4, 5, 5], 2, 10));
        assert!(matches!(method, PMethod::Simulated { .. }), "{method:?}");
    }

    #[test]
    fn pearson_matches_a_hand_computation() {
        // Text 004's naive 3-card counts would look like this; here a small made-up table:
        // (12-10)²/10 + (8-10)²/10 + (10-10)²/10 = 0.8.
        let (statistic, df, p) = computed(uniform_fit(&[12, 8, 10], 30));
        assert!((statistic - 0.8).abs() < 1e-12);
        assert_eq!(df, 2);
        // 30 trials in 3 cells are few enough to walk every vector: the exact tail, by
        // brute force here, where the χ²(2) law would say e^-0.4 = 0.670.
        let mut at_least = 0.0;
        for a in 0..=30u64 {
            for b in 0..=30 - a {
                let c = 30 - a - b;
                let x = [a, b, c]
                    .iter()
                    .map(|&o| (o as f64 - 10.0).powi(2) / 10.0)
                    .sum::<f64>();
                if x >= 0.8 - 1e-9 {
                    at_least += (ln_factorial(30)
                        - ln_factorial(a)
                        - ln_factorial(b)
                        - ln_factorial(c)
                        - 30.0 * 3f64.ln())
                    .exp();
                }
            }
        }
        assert!((probability(p) - at_least).abs() < 1e-12, "{p} vs {at_least}");
        assert!(
            (at_least - (-0.4f64).exp()).abs() > 0.01,
            "the exact tail differs from the χ² law's"
        );
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
