//! Tests of the order in which a bag deals: where each item falls within the cycle, and
//! whether a cycle repeats the one before.
//!
//! - [`cycle_position_fit`]: the bins × items table of complete cycles. A cycle of a
//!   whole bag is a random arrangement of a multiset, so (as with the position matrix of
//!   permutations) the table is not a set of independent multinomial draws. One cycle's
//!   table, centred, has covariance `S/(S-1) · (I - J/S) ⊗ B` with `B` the covariance of
//!   a single draw; grouping positions into bins keeps `(I - J/S)` a projection once each
//!   row is scaled by its bin size. So Pearson's `X` (expected = row total × column total
//!   / total) is `S/(S-1)` times a χ² with `(bins-1)(items-1)` degrees of freedom, and
//!   the test uses `X·(S-1)/S`. For a bag that deals a random half of a doubled bag of
//!   `2S` slots (`double-bag-half`) the same argument holds with `2S` in place of `S`
//!   (the positions dealt are the first half of an arrangement of the doubled bag), and
//!   the column totals, which vary from cycle to cycle, only shrink the variance: the
//!   test uses `X·(2S-1)/(2S)` and is then slightly conservative.
//! - [`cycle_repeat_fit`]: the number of positions where a cycle deals the same item as
//!   the cycle before, against its exact mean and variance (see
//!   [`cycle_repeat_moments`]). Consecutive pairs share a cycle, but the law of the
//!   matches with a new uniformly shuffled cycle does not depend on how the shared one
//!   is arranged, so the pair counts are independent and their total is close to normal
//!   once its variance is large ([`MIN_REPEAT_VARIANCE`]) and the rarest item matches
//!   often enough ([`MIN_RARE_MATCHES`]); `z²` is referred to χ² with 1 degree of freedom.
//!   This is the test that sees text 003's off-by-one bag once its cycles have mixed:
//!   its exclusive bound never leaves a slot's item in place, so repeats are too rare.

use super::chi_square::Fit;
use super::pooling::MIN_EXPECTED;
use super::pvalue::chi_square_upper_tail;
use super::stream_laws::cycle_repeat_moments;

/// The bins × items table (row-major) of complete cycles, each dealt from a bag of
/// `slots` slots (the cycle's own length for a whole bag).
pub fn cycle_position_fit(table: &[u64], bins: usize, items: usize, slots: u64) -> Fit {
    debug_assert_eq!(table.len(), bins * items);
    let rows: Vec<u64> = table.chunks(items).map(|row| row.iter().sum()).collect();
    let columns: Vec<u64> = (0..items)
        .map(|item| table.iter().skip(item).step_by(items).sum())
        .collect();
    let total: u64 = rows.iter().sum();
    let present: Vec<usize> = (0..items).filter(|&item| columns[item] > 0).collect();
    let expected_cell = |row: usize, item: usize| rows[row] as f64 * columns[item] as f64 / total as f64;
    let smallest = (0..bins)
        .flat_map(|row| present.iter().map(move |&item| (row, item)))
        .map(|(row, item)| expected_cell(row, item))
        .fold(f64::INFINITY, f64::min);
    if bins < 2 || present.len() < 2 || slots < 2 || smallest.is_nan() || smallest < MIN_EXPECTED {
        let scale = if smallest.is_finite() && smallest > 0.0 {
            MIN_EXPECTED / smallest
        } else {
            2.0
        };
        return Fit::TooFewTrials {
            needed: (total as f64 * scale.max(2.0)).ceil() as u64,
        };
    }
    let mut pearson = 0.0;
    for row in 0..bins {
        for &item in &present {
            let expected = expected_cell(row, item);
            let difference = table[row * items + item] as f64 - expected;
            pearson += difference * difference / expected;
        }
    }
    let statistic = pearson * (slots as f64 - 1.0) / slots as f64;
    let df = (bins as u64 - 1) * (present.len() as u64 - 1);
    Fit::Computed {
        statistic,
        df,
        cells: bins * present.len(),
        p: chi_square_upper_tail(statistic, df as f64),
    }
}

/// The fewest consecutive-cycle pairs for which the repeat count is tested at all.
pub const MIN_CYCLE_PAIRS: u64 = 30;

/// The variance (in matches²) the total must reach: the normal tail of a Poisson-like
/// count is then within 20 % of the true one at 1e-6 (at a variance of 100 it is three
/// times too light, and a fair bag would fail three times as often as α says).
pub const MIN_REPEAT_VARIANCE: f64 = 1000.0;

/// The matches the rarest item must expect, so that its lumpy contribution (a bag with
/// one copy of A among 1,000 B matches on A once in a thousand pairs) is near normal.
pub const MIN_RARE_MATCHES: f64 = 25.0;

/// The pairs of consecutive complete cycles [`cycle_repeat_fit`] needs for a bag holding
/// `copies` of each item; `None` if the bag's order cannot vary (one item only).
pub fn cycle_pairs_needed(copies: &[u64]) -> Option<u64> {
    let (_, variance) = cycle_repeat_moments(copies)?;
    let slots: u64 = copies.iter().sum();
    let rarest = copies.iter().copied().filter(|&c| c > 0).min()?;
    if variance <= 0.0 || copies.iter().filter(|&&c| c > 0).count() < 2 {
        return None;
    }
    let rare_per_pair = (rarest as f64).powi(2) / slots as f64;
    let needed = (MIN_REPEAT_VARIANCE / variance)
        .max(MIN_RARE_MATCHES / rare_per_pair)
        .ceil();
    Some((needed.min(u64::MAX as f64) as u64).max(MIN_CYCLE_PAIRS))
}

/// `matches` repeats over `pairs` pairs of consecutive complete cycles of a bag holding
/// `copies` of each item. `TooFewTrials` counts pairs of cycles here, not draws.
pub fn cycle_repeat_fit(matches: u64, pairs: u64, copies: &[u64]) -> Fit {
    let (Some((mean, variance)), Some(needed)) = (cycle_repeat_moments(copies), cycle_pairs_needed(copies))
    else {
        return Fit::TooFewTrials { needed: u64::MAX };
    };
    if pairs < needed {
        return Fit::TooFewTrials { needed };
    }
    let z = (matches as f64 - mean * pairs as f64) / (variance * pairs as f64).sqrt();
    let statistic = z * z;
    Fit::Computed {
        statistic,
        df: 1,
        cells: 2,
        p: chi_square_upper_tail(statistic, 1.0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_even_table_passes_and_a_skewed_one_fails() {
        // 2 bins × 2 items, 400 cycles of a 2-slot bag (one A, one B).
        let even = cycle_position_fit(&[200, 200, 200, 200], 2, 2, 2);
        let Fit::Computed { statistic, df, .. } = even else {
            panic!("{even:?}")
        };
        assert_eq!((statistic, df), (0.0, 1));
        let skewed = cycle_position_fit(&[300, 100, 100, 300], 2, 2, 2);
        let Fit::Computed { statistic, p, .. } = skewed else {
            panic!("{skewed:?}")
        };
        // X = 4 · 100²/200 = 200, scaled by (2-1)/2.
        assert!((statistic - 100.0).abs() < 1e-9);
        assert!(p.is_below(1e-20));
    }

    #[test]
    fn thin_tables_and_few_pairs_ask_for_more() {
        assert!(matches!(
            cycle_position_fit(&[2, 1, 1, 2], 2, 2, 2),
            Fit::TooFewTrials { .. }
        ));
        assert!(matches!(
            cycle_repeat_fit(3, 10, &[1; 7]),
            Fit::TooFewTrials { .. }
        ));
    }

    #[test]
    fn repeats_are_tested_against_their_exact_moments() {
        // One of each of 7 items: mean 1, variance 1 per pair. 10,000 pairs.
        let Fit::Computed { statistic, .. } = cycle_repeat_fit(10_000, 10_000, &[1; 7]) else {
            panic!()
        };
        assert!(statistic.abs() < 1e-12);
        // No repeats at all (the C# bag): z = -100.
        let Fit::Computed { statistic, p, .. } = cycle_repeat_fit(0, 10_000, &[1; 7]) else {
            panic!()
        };
        assert!((statistic - 10_000.0).abs() < 1e-6);
        assert!(p.is_below(1e-300));
    }
}
