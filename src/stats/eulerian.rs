//! The law of the number of rising sequences of a uniformly random deck (the Eulerian
//! law), for decks of any size the tool runs (up to 2,000 cards and beyond).
//!
//! A deck of `n` cards has `r` rising sequences ([`crate::tally::rising`]) when its
//! inverse has `r − 1` descents, and the inverse of a uniform deck is uniform, so
//!
//! `P(r) = A(n, r − 1) / n!`,  `r = 1..=n`,
//!
//! with `A(n, k)` the Eulerian numbers (permutations of `n` with `k` descents). They obey
//! `A(n, k) = (k + 1) A(n−1, k) + (n − k) A(n−1, k−1)`, which divided by `n!` is a
//! recurrence on the probabilities themselves:
//!
//! `p_n(k) = [(k + 1) p_{n−1}(k) + (n − k) p_{n−1}(k−1)] / n`.
//!
//! Every term is positive, so nothing cancels; but the tails span hundreds of orders of
//! magnitude (`P(r = 1) = 1/n!`, about `10^-5736` at 2,000 cards), far below what an `f64`
//! holds. So the recurrence runs on logarithms (log-sum-exp of the two terms). Each step
//! adds a relative error of a few units in the last place of the logarithm; over `n`
//! steps the probabilities where the mass lies stay good to about `1e-13` relative, and
//! the logarithms of the far tails to `1e-13` of themselves (checked against exact integer
//! Eulerian numbers: all of them up to 34 cards, the most that fit in a `u128`, and
//! reference values at 2,000 cards computed with big integers). The
//! explicit formula `A(n,k) = Σ_j (−1)^j C(n+1, j) (k+1−j)^n` would cancel catastrophically
//! and is not used. `O(n²)`: about 4 million steps, a few milliseconds, at 2,000 cards.
//!
//! For a χ² test the law is pooled ([`super::pooling`]): the tails are thin (at 52 cards
//! `P(r <= 16)` is about `3e-5`), so thin cells are merged until each group expects
//! enough deals.

use std::ops::Range;

use super::pooling::{pooled_groups, sum_groups};

/// `ln P(r rising sequences)` for a uniform deck of `n` cards, indexed by `r` in
/// `0..=n`. Entry 0 is `ln 0 = −∞` for `n >= 1` (every non-empty deck has at least one
/// rising sequence); the empty deck has 0 with probability 1.
pub fn ln_rising_sequence_law(n: usize) -> Vec<f64> {
    // row[k] = ln p_m(k) for descents k = 0..m-1 of m cards, built up from m = 1.
    let mut row: Vec<f64> = Vec::with_capacity(n);
    if n >= 1 {
        row.push(0.0);
    }
    let mut next: Vec<f64> = Vec::with_capacity(n);
    for m in 2..=n {
        let ln_m = (m as f64).ln();
        next.clear();
        for k in 0..m {
            // (k + 1) p_{m-1}(k): exists for k <= m - 2.
            let stay = (k + 1 < m).then(|| ((k + 1) as f64).ln() + row[k]);
            // (m - k) p_{m-1}(k - 1): exists for k >= 1.
            let rise = (k >= 1).then(|| ((m - k) as f64).ln() + row[k - 1]);
            let sum = match (stay, rise) {
                (Some(a), Some(b)) => ln_add(a, b),
                (Some(a), None) | (None, Some(a)) => a,
                (None, None) => unreachable!("m >= 2 gives every k one term at least"),
            };
            next.push(sum - ln_m);
        }
        std::mem::swap(&mut row, &mut next);
    }
    let mut law = Vec::with_capacity(n + 1);
    law.push(if n == 0 { 0.0 } else { f64::NEG_INFINITY });
    law.extend(row);
    law
}

/// `P(r rising sequences)` for a uniform deck of `n` cards, indexed by `r` in `0..=n`
/// (see [`ln_rising_sequence_law`]). Probabilities below about `1e-308` come out as 0;
/// they matter to no test (pooling merges them into their neighbours).
pub fn rising_sequence_law(n: usize) -> Vec<f64> {
    ln_rising_sequence_law(n).into_iter().map(f64::exp).collect()
}

/// `ln(e^a + e^b)` without overflow or underflow.
pub(crate) fn ln_add(a: f64, b: f64) -> f64 {
    let (high, low) = if a >= b { (a, b) } else { (b, a) };
    if low == f64::NEG_INFINITY {
        return high;
    }
    high + (low - high).exp().ln_1p()
}

/// The Eulerian law pooled for a χ² test of `trials` deals: cells of consecutive `r`,
/// each expecting at least [`super::pooling::MIN_EXPECTED`] deals.
#[derive(Clone, Debug, PartialEq)]
pub struct PooledRisingSequenceLaw {
    /// Groups of `r` values (indices into the law, `0..=n`); they cover `0..=n`.
    pub groups: Vec<Range<usize>>,
    /// The probability of each group under a fair shuffle.
    pub probabilities: Vec<f64>,
}

impl PooledRisingSequenceLaw {
    /// Sums per-`r` counts (indexed `0..=n`) into the groups.
    pub fn pool_counts(&self, counts: &[u64]) -> Vec<u64> {
        sum_groups(counts, &self.groups)
    }

    /// Whether a test can be made: at least two groups.
    pub fn is_testable(&self) -> bool {
        self.groups.len() >= 2
    }
}

/// The law of the rising sequences of a fair `n`-card deck, pooled for `trials` deals
/// ([`pooled_groups`]: thin cells merged from the left, a thin right tail joined to the
/// last group). Fewer than two groups means `trials` is too few for a test
/// ([`super::pooling::trials_needed_for_two_groups`] on [`rising_sequence_law`] says how
/// many would do).
pub fn pooled_rising_sequence_law(n: usize, trials: u64) -> PooledRisingSequenceLaw {
    let law = rising_sequence_law(n);
    let groups = pooled_groups(&law, trials);
    let probabilities = sum_groups(&law, &groups);
    PooledRisingSequenceLaw {
        groups,
        probabilities,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tally::lehmer::{factorial, unrank};
    use crate::tally::rising::RisingSequences;

    /// Eulerian numbers A(n, k) as exact integers, for `n <= 34` (34! < 2^128).
    fn eulerian_numbers(n: usize) -> Vec<u128> {
        let mut row = vec![1u128]; // n = 1
        for m in 2..=n {
            let mut next = vec![0u128; m];
            for (k, slot) in next.iter_mut().enumerate() {
                let stay = if k + 1 < m { (k as u128 + 1) * row[k] } else { 0 };
                let rise = if k >= 1 { (m - k) as u128 * row[k - 1] } else { 0 };
                *slot = stay + rise;
            }
            row = next;
        }
        row
    }

    #[test]
    fn small_decks_match_brute_force_enumeration() {
        let mut counter = RisingSequences::new();
        for n in 1..=8usize {
            let orders = factorial(n).unwrap() as usize;
            let mut counts = vec![0u64; n + 1];
            let mut deck = vec![0u16; n];
            for rank in 0..orders {
                unrank(rank, &mut deck);
                counts[counter.count(&deck)] += 1;
            }
            let law = rising_sequence_law(n);
            assert_eq!(law.len(), n + 1);
            assert_eq!(law[0], 0.0);
            for r in 1..=n {
                let exact = counts[r] as f64 / orders as f64;
                assert!(
                    (law[r] - exact).abs() <= 1e-14 * exact,
                    "n {n} r {r}: {} vs {exact}",
                    law[r]
                );
            }
        }
        // The textbook row: A(4, k) = 1, 11, 11, 1.
        let four = rising_sequence_law(4);
        for (r, count) in [(1, 1.0), (2, 11.0), (3, 11.0), (4, 1.0)] {
            assert!((four[r] - count / 24.0).abs() < 1e-16);
        }
    }

    #[test]
    fn agrees_with_exact_integers_up_to_34_cards() {
        for n in [9, 13, 20, 27, 34] {
            let exact = eulerian_numbers(n);
            let ln_factorial: f64 = (1..=n).map(|k| (k as f64).ln()).sum();
            let law = ln_rising_sequence_law(n);
            for (k, &count) in exact.iter().enumerate() {
                let expected = (count as f64).ln() - ln_factorial;
                // Relative error of the probability = absolute error of its logarithm;
                // ln_factorial's own rounding (~1e-15 relative) is included.
                assert!(
                    (law[k + 1] - expected).abs() < 1e-12,
                    "n {n} r {}: {} vs {expected}",
                    k + 1,
                    law[k + 1]
                );
            }
        }
    }

    #[test]
    fn agrees_with_exact_integers_at_2000_cards() {
        // ln(A(2000, r-1) / 2000!) from exact integers (Python 3: the recurrence on big
        // integers, then math.log of the integers, each correctly rounded).
        let reference = [
            (1, -13206.524350513806),
            (2, -11820.229989393916),
            (3, -11009.299773177587),
            (200, -2609.9784082361493),
            (500, -821.7898442673377),
            (1000, -3.4780107443166344),
            (1001, -3.4780107443166344),
            (2000, -13206.524350513806),
        ];
        let law = ln_rising_sequence_law(2000);
        for (r, expected) in reference {
            let error = (law[r] - expected).abs();
            // Where the mass is (r near 1000), the probability is good to 1e-12 relative
            // (measured: 1.6e-13). In the tails the logarithm itself is good to 1e-13
            // relative (measured: at most 2.3e-14); those cells only ever enter a test
            // pooled with their heavier neighbours.
            let allowed = if expected > -10.0 {
                1e-12
            } else {
                1e-13 * expected.abs()
            };
            assert!(error < allowed, "r {r}: {} vs {expected}", law[r]);
        }
    }

    #[test]
    fn sums_to_one_and_has_the_known_mean_and_variance() {
        for n in [2usize, 3, 10, 52, 100, 500, 2000] {
            let law = rising_sequence_law(n);
            let total: f64 = law.iter().sum();
            assert!((total - 1.0).abs() < 1e-12, "n {n}: sums to {total}");
            let mean: f64 = law.iter().enumerate().map(|(r, p)| r as f64 * p).sum();
            let variance: f64 = law
                .iter()
                .enumerate()
                .map(|(r, p)| (r as f64 - mean).powi(2) * p)
                .sum();
            // Descents of a uniform permutation: mean (n-1)/2, variance (n+1)/12 (n >= 2).
            let n_f = n as f64;
            assert!(
                (mean - (n_f + 1.0) / 2.0).abs() < 1e-9 * n_f,
                "n {n}: mean {mean}"
            );
            assert!(
                (variance - (n_f + 1.0) / 12.0).abs() < 1e-9 * n_f,
                "n {n}: variance {variance}"
            );
        }
    }

    #[test]
    fn is_symmetric_and_the_tails_are_exact_far_below_f64() {
        // A(n, k) = A(n, n-1-k): r and n+1-r are equally likely.
        let n = 2000;
        let law = ln_rising_sequence_law(n);
        for r in [1, 2, 10, 500, 1000] {
            assert!(
                (law[r] - law[n + 1 - r]).abs() < 1e-12 * law[r].abs().max(1.0),
                "r {r}"
            );
        }
        // P(1) = 1/n! and P(2) = (2^n - n - 1)/n!, both far below 1e-308.
        let ln_factorial: f64 = (1..=n).map(|k| (k as f64).ln()).sum();
        assert!((law[1] + ln_factorial).abs() < 1e-12 * ln_factorial);
        let ln_two_sequences = n as f64 * 2f64.ln() + (-(n as f64 + 1.0) / 2f64.powi(n as i32)).ln_1p();
        assert!((law[2] - (ln_two_sequences - ln_factorial)).abs() < 1e-12 * ln_factorial);
        assert_eq!(ln_rising_sequence_law(0), vec![0.0]);
        assert_eq!(ln_rising_sequence_law(1), vec![f64::NEG_INFINITY, 0.0]);
    }

    #[test]
    fn pooling_merges_both_tails_and_keeps_every_group_at_five() {
        let trials = 100_000;
        let pooled = pooled_rising_sequence_law(52, trials);
        assert!(pooled.is_testable());
        let first = &pooled.groups[0];
        let last = pooled.groups.last().unwrap();
        assert_eq!(first.start, 0);
        assert_eq!(last.end, 53);
        // r near the mean (26.5) is never merged; the tails are.
        assert!(first.len() > 5 && last.len() > 5, "{:?}", pooled.groups);
        assert!(pooled.groups.iter().any(|group| group == &(26..27)));
        for &p in &pooled.probabilities {
            assert!(p * trials as f64 >= 5.0);
        }
        let total: f64 = pooled.probabilities.iter().sum();
        assert!((total - 1.0).abs() < 1e-12);
        let mut counts = vec![0u64; 53];
        counts[1] = 3;
        counts[26] = 7;
        let pooled_counts = pooled.pool_counts(&counts);
        assert_eq!(pooled_counts.iter().sum::<u64>(), 10);
        assert_eq!(pooled_counts[0], 3);
        // Too few deals for two groups.
        assert!(!pooled_rising_sequence_law(52, 5).is_testable());
    }
}
