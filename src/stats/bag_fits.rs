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
    Fit::chi_square(statistic, df, bins * present.len())
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
    Fit::chi_square(statistic, 1, 2)
}

/// The most items a one-of-each bag may have for [`one_of_each_gap_fit`]: its covariance
/// is a `(2m-1)²` matrix decomposed by Jacobi rotations, `O(m³)` work.
pub const MOST_GAP_ITEMS: u64 = 64;

/// The pairs of consecutive complete cycles [`one_of_each_gap_fit`] needs for `m` items
/// (its thinnest cells, gaps of 1 and of `2m - 1`, expect `pairs/m`), or `None` when it
/// does not test that many items.
pub fn gap_pairs_needed(m: u64) -> Option<u64> {
    (2..=MOST_GAP_ITEMS)
        .contains(&m)
        .then(|| (MIN_EXPECTED * m as f64).ceil() as u64)
}

/// Gaps between consecutive copies of each item in a bag dealing one of each of `m`
/// items per cycle, over `pairs` pairs of consecutive complete cycles. `histogram[d]` is
/// the number of gaps of `d` (`1..=2m-1`) that end in a complete cycle.
///
/// Within one pair of cycles the `m` gaps are not independent: they are `m + σ(a) - a`
/// for the uniformly random permutation `σ` that takes each item's place in one cycle to
/// its place in the next (with two items, gaps come only as (2, 2) or (1, 3)). A Pearson
/// χ² on `2m-2` degrees of freedom would reject a fair bag several times too often. The
/// per-pair histograms are independent and identically distributed (each pair has its own
/// uniform `σ`), with an exactly known mean and covariance `C` (rank `2m-3`: the gaps'
/// number and their sum are fixed), so the test is Wald's: `(H - Pμ)ᵀ (P C)⁺ (H - Pμ)`,
/// χ² with `2m-3` degrees of freedom.
pub fn one_of_each_gap_fit(histogram: &[u64], pairs: u64, m: u64) -> Fit {
    let Some(needed) = gap_pairs_needed(m) else {
        return Fit::TooFewTrials { needed: u64::MAX };
    };
    if pairs < needed {
        return Fit::TooFewTrials { needed };
    }
    let cells = (2 * m - 1) as usize;
    let (mean, covariance) = displacement_moments(m);
    let deviation: Vec<f64> = (0..cells)
        .map(|i| histogram.get(i + 1).copied().unwrap_or(0) as f64 - pairs as f64 * mean[i])
        .collect();
    let (values, vectors) = symmetric_eigen(covariance, cells);
    let largest = values.iter().copied().fold(0.0, f64::max);
    let mut statistic = 0.0;
    let mut df = 0;
    for (k, &value) in values.iter().enumerate() {
        if value > 1e-9 * largest {
            let projection: f64 = (0..cells).map(|i| vectors[i * cells + k] * deviation[i]).sum();
            statistic += projection * projection / (pairs as f64 * value);
            df += 1;
        }
    }
    Fit::chi_square(statistic, df, cells)
}

/// Mean and covariance (row-major) of the histogram of `σ(a) - a` over `a`, for a
/// uniformly random permutation `σ` of `m` places, indexed by displacement `-(m-1)..m`.
///
/// `E[h_x] = (m - |x|)/m`. For `E[h_x h_y]`: the same place counts when `x = y`
/// (`(m - |x|)/m`), and two different places `a ≠ b` with targets `a + x ≠ b + y` both
/// inside count `1/(m(m-1))` each; those pairs are all pairs of valid places, less
/// `a = b`, less those sharing a target.
pub fn displacement_moments(m: u64) -> (Vec<f64>, Vec<f64>) {
    let m = m as i64;
    let cells = (2 * m - 1) as usize;
    let valid = |x: i64| m - x.abs(); // places a with a + x in 0..m
    // Places in 0..m that are also in lo..hi for every (lo, hi).
    let overlap = |ranges: &[(i64, i64)]| {
        let low = ranges.iter().map(|r| r.0).fold(0, i64::max);
        let high = ranges.iter().map(|r| r.1).fold(m, i64::min);
        (high - low).max(0)
    };
    let mean: Vec<f64> = (-(m - 1)..m).map(|x| valid(x) as f64 / m as f64).collect();
    let mut covariance = vec![0.0; cells * cells];
    for (i, x) in (-(m - 1)..m).enumerate() {
        for (j, y) in (-(m - 1)..m).enumerate() {
            let same_place = overlap(&[(-x, m - x), (-y, m - y)]);
            let same_target = if x == y {
                0
            } else {
                overlap(&[(x, m + x), (y, m + y)])
            };
            let pairs = valid(x) * valid(y) - same_place - same_target;
            let mut second = pairs as f64 / (m * (m - 1)) as f64;
            if x == y {
                second += valid(x) as f64 / m as f64;
            }
            covariance[i * cells + j] = second - mean[i] * mean[j];
        }
    }
    (mean, covariance)
}

/// Eigenvalues and eigenvectors (columns of a row-major matrix) of a symmetric matrix,
/// by cyclic Jacobi rotations: slow for big matrices, exact to rounding for the small
/// ones here.
fn symmetric_eigen(mut a: Vec<f64>, n: usize) -> (Vec<f64>, Vec<f64>) {
    let mut v = vec![0.0; n * n];
    for i in 0..n {
        v[i * n + i] = 1.0;
    }
    for _sweep in 0..100 {
        let off: f64 = (0..n)
            .flat_map(|i| (0..n).filter(move |&j| j != i).map(move |j| (i, j)))
            .map(|(i, j)| a[i * n + j] * a[i * n + j])
            .sum();
        let scale: f64 = (0..n)
            .map(|i| a[i * n + i] * a[i * n + i])
            .sum::<f64>()
            .max(f64::MIN_POSITIVE);
        if off <= 1e-30 * scale {
            break;
        }
        for p in 0..n {
            for q in p + 1..n {
                let apq = a[p * n + q];
                if apq.abs() <= f64::MIN_POSITIVE {
                    continue;
                }
                let theta = (a[q * n + q] - a[p * n + p]) / (2.0 * apq);
                let t = theta.signum() / (theta.abs() + (theta * theta + 1.0).sqrt());
                let t = if theta == 0.0 { 1.0 } else { t };
                let c = 1.0 / (t * t + 1.0).sqrt();
                let s = t * c;
                for k in 0..n {
                    let akp = a[k * n + p];
                    let akq = a[k * n + q];
                    a[k * n + p] = c * akp - s * akq;
                    a[k * n + q] = s * akp + c * akq;
                }
                for k in 0..n {
                    let apk = a[p * n + k];
                    let aqk = a[q * n + k];
                    a[p * n + k] = c * apk - s * aqk;
                    a[q * n + k] = s * apk + c * aqk;
                }
                for k in 0..n {
                    let vkp = v[k * n + p];
                    let vkq = v[k * n + q];
                    v[k * n + p] = c * vkp - s * vkq;
                    v[k * n + q] = s * vkp + c * vkq;
                }
            }
        }
    }
    ((0..n).map(|i| a[i * n + i]).collect(), v)
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
    fn displacement_moments_match_every_permutation() {
        // All 24 permutations of 4 places, counted by hand.
        let m = 4usize;
        let cells = 2 * m - 1;
        let mut permutation: Vec<u16> = (0..m as u16).collect();
        let mut sum = vec![0.0; cells];
        let mut products = vec![0.0; cells * cells];
        for _ in 0..24 {
            let mut h = vec![0.0; cells];
            for (a, &target) in permutation.iter().enumerate() {
                h[(target as usize + m - 1) - a] += 1.0;
            }
            for i in 0..cells {
                sum[i] += h[i] / 24.0;
                for j in 0..cells {
                    products[i * cells + j] += h[i] * h[j] / 24.0;
                }
            }
            crate::tally::lehmer::next_permutation(&mut permutation);
        }
        let (mean, covariance) = displacement_moments(m as u64);
        for i in 0..cells {
            assert!((mean[i] - sum[i]).abs() < 1e-12);
            for j in 0..cells {
                let expected = products[i * cells + j] - sum[i] * sum[j];
                assert!((covariance[i * cells + j] - expected).abs() < 1e-12, "{i} {j}");
            }
        }
    }

    #[test]
    fn two_items_reduce_the_gap_test_to_a_fair_coin() {
        // With two items a pair of cycles either keeps the order (gaps 2, 2) or swaps it
        // (gaps 1, 3): the Wald statistic is the binomial z² of the keeps, on 1 df.
        let (keeps, swaps) = (5_300u64, 4_700u64);
        let histogram = [0, swaps, 2 * keeps, swaps];
        let Fit::Computed { statistic, df, .. } = one_of_each_gap_fit(&histogram, keeps + swaps, 2) else {
            panic!()
        };
        let z = (keeps as f64 - 5_000.0) / (10_000.0f64 * 0.25).sqrt();
        assert_eq!(df, 1);
        assert!((statistic - z * z).abs() < 1e-9, "{statistic} vs {}", z * z);
        // Seven items: 2m - 3 = 11 degrees of freedom.
        let (mean, _) = displacement_moments(7);
        let pairs = 1_000u64;
        let mut exact = vec![0u64; 14];
        for d in 1..14 {
            exact[d] = (mean[d - 1] * pairs as f64).round() as u64;
        }
        let Fit::Computed { df, .. } = one_of_each_gap_fit(&exact, pairs, 7) else {
            panic!()
        };
        assert_eq!(df, 11);
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
