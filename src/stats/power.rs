//! How many trials a χ² test needs to catch a given bias.
//!
//! For a fixed alternative law, Pearson's statistic on `N` trials is, for large `N`, close
//! to a noncentral χ² with the test's degrees of freedom and noncentrality `N·δ`, where
//! `δ` is the noncentrality of one trial (the standard local-alternative approximation;
//! it is accurate when the bias is small, which is when the number of trials matters).
//! The test rejects when the statistic exceeds the central χ² critical value `c_α`, so
//! its power on `N` trials is `P(χ²'(df, N·δ) > c_α)`, which grows with `N`.

use super::noncentral::noncentral_chi_square_cdf;
use super::pvalue::chi_square_upper_tail;

/// The smallest number of trials `N` for which a χ² test with `df` degrees of freedom at
/// level `alpha` rejects with probability at least `power`, when one trial contributes
/// `noncentrality_per_trial` (see [`permutation_noncentrality`] and
/// [`position_noncentrality`]): the least `N` with `P(χ²'(df, N·δ) > c_α) >= power`.
///
/// `None` when the noncentrality is 0 (the bias, if any, is invisible to this test) or
/// when `N` would not fit in a `u64`.
///
/// # Panics
///
/// If `noncentrality_per_trial` is negative or not finite, `df` is not positive and
/// finite, or `alpha` or `power` is not in `(0, 1)`.
pub fn trials_needed(noncentrality_per_trial: f64, df: f64, alpha: f64, power: f64) -> Option<u64> {
    assert!(
        noncentrality_per_trial >= 0.0 && noncentrality_per_trial.is_finite(),
        "a noncentrality must be finite and >= 0, not {noncentrality_per_trial}"
    );
    assert!(df > 0.0 && df.is_finite(), "a χ² test needs df > 0, not {df}");
    assert!(alpha > 0.0 && alpha < 1.0, "α must be in (0, 1), not {alpha}");
    assert!(
        power > 0.0 && power < 1.0,
        "the power must be in (0, 1), not {power}"
    );
    if noncentrality_per_trial == 0.0 {
        return None;
    }
    let critical = critical_value(df, alpha);
    // Power >= target  ⇔  P(miss) = cdf(c_α) <= 1 - power; the cdf is summed directly and
    // stays accurate where it is small, so powers very close to 1 are reachable.
    let miss = 1.0 - power;
    let detects = |trials: u64| {
        noncentral_chi_square_cdf(critical, df, trials as f64 * noncentrality_per_trial) <= miss
    };

    // Doubling: the power only grows with N (the noncentral χ² is stochastically
    // increasing in λ), so the first N that detects brackets the answer with N/2.
    let mut enough = 1u64;
    while !detects(enough) {
        let next = enough.saturating_mul(2);
        if next == enough {
            return None;
        }
        enough = next;
    }
    let mut too_few = enough / 2; // 0 when a single trial suffices
    while enough - too_few > 1 {
        let middle = too_few + (enough - too_few) / 2;
        if detects(middle) {
            enough = middle;
        } else {
            too_few = middle;
        }
    }
    Some(enough)
}

/// What a χ² test against a known law with thin cells pooled ([`super::chi_square::law_fit`])
/// needs to catch an alternative law: the trials, and the test's noncentrality per trial
/// and degrees of freedom at that many trials.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PooledLawPower {
    /// The fewest trials at which the test, pooled for that many trials, reaches the power.
    pub trials: u64,
    /// `Σ_g (q_g − p_g)² / p_g` over the groups pooled for `trials`.
    pub noncentrality_per_trial: f64,
    /// Groups − 1 at `trials`.
    pub df: f64,
}

/// The trials a χ² test of counts against the law `null` (cells pooled as
/// [`super::pooling::pooled_groups`] pools them for the number of trials) needs to reject
/// at `alpha` with probability `power` when the counts really follow `null + shift`
/// (`shift[i]` = alternative − null in cell `i`, passed as a difference so that a tiny
/// bias is not lost to rounding in two nearly equal probabilities).
///
/// The pooling depends on the number of trials `N`: a test on `N` trials pools for `N`,
/// and its power is `P(χ²'(df_N, N·δ_N) > c_α)` with the groups' degrees of freedom and
/// noncentrality. Coarse pooling can hide a bias entirely (groups whose shifts cancel), so
/// the search starts at the fewest trials that make two groups and doubles `N` until the
/// pooled test reaches the power, then bisects between the last two. Finer groups and more
/// trials raise the power together, so the answer is the least such `N` as far as that
/// holds (a group split by one more trial can, at the boundary, move the power slightly
/// either way). `None` when no `u64` number of trials is enough, or when `null` cannot
/// make two groups at all.
pub fn pooled_law_trials_needed(
    null: &[f64],
    shift: &[f64],
    alpha: f64,
    power: f64,
) -> Option<PooledLawPower> {
    use super::pooling::{pooled_groups, sum_groups, trials_needed_for_two_groups};
    assert_eq!(null.len(), shift.len(), "a law and its shift have the same cells");
    assert!(alpha > 0.0 && alpha < 1.0, "α must be in (0, 1), not {alpha}");
    assert!(
        power > 0.0 && power < 1.0,
        "the power must be in (0, 1), not {power}"
    );
    let fewest = trials_needed_for_two_groups(null);
    if fewest == u64::MAX {
        return None;
    }
    let mut critical_values: Vec<(f64, f64)> = Vec::new();
    let mut pooled_at = |trials: u64| -> (PooledLawPower, f64) {
        let groups = pooled_groups(null, trials);
        let probabilities = sum_groups(null, &groups);
        let shifts = sum_groups(shift, &groups);
        let noncentrality_per_trial: f64 = probabilities.iter().zip(&shifts).map(|(p, d)| d * d / p).sum();
        let df = (groups.len() - 1) as f64;
        let critical = match critical_values.iter().find(|(cached, _)| *cached == df) {
            Some(&(_, critical)) => critical,
            None => {
                let critical = critical_value(df, alpha);
                critical_values.push((df, critical));
                critical
            }
        };
        let found = PooledLawPower {
            trials,
            noncentrality_per_trial,
            df,
        };
        (found, critical)
    };
    let mut detects = |trials: u64| {
        let (found, critical) = pooled_at(trials);
        let lambda = trials as f64 * found.noncentrality_per_trial;
        let reached = found.noncentrality_per_trial > 0.0
            && noncentral_chi_square_cdf(critical, found.df, lambda) <= 1.0 - power;
        (reached, found)
    };
    let mut enough = fewest;
    let mut found = loop {
        match detects(enough) {
            (true, found) => break found,
            (false, _) => enough = enough.checked_mul(2)?,
        }
    };
    let mut too_few = if enough == fewest { fewest - 1 } else { enough / 2 };
    while enough - too_few > 1 {
        let middle = too_few + (enough - too_few) / 2;
        match detects(middle) {
            (true, at_middle) => {
                enough = middle;
                found = at_middle;
            }
            (false, _) => too_few = middle,
        }
    }
    Some(found)
}

/// The per-trial noncentrality of the χ² test that a law over `law.len()` outcomes (for
/// permutations, all `n!` orders) is uniform: `Σ (p - u)² / u` with `u = 1/len`, on
/// `len - 1` degrees of freedom.
///
/// Pearson's `X = Σ (O - N u)²/(N u)` on `N` trials from `p` is close to a noncentral χ²
/// with noncentrality `Σ (N p - N u)²/(N u) = N · Σ (p - u)²/u` (this is `N` times Cohen's
/// `w²`). Exactly, `E[X] = (len - 1) + (N - 1) · Σ (p - u)²/u`.
pub fn permutation_noncentrality(law: &[f64]) -> f64 {
    let uniform = 1.0 / law.len() as f64;
    law.iter().map(|p| (p - uniform).powi(2)).sum::<f64>() / uniform
}

/// The per-trial noncentrality of the position test as [`super::chi_square::position_fit`]
/// computes it, for `matrix[item * n + position]` = the probability that `item` ends at
/// `position` (each row and column sums to 1): `(n - 1) · Σ_ij (p_ij - 1/n)²`, on
/// `(n - 1)²` degrees of freedom.
///
/// Derivation. One shuffle puts each item in exactly one position: its `n²` indicators
/// `Y_ij` have, under a uniform shuffle, variance `(n-1)/n²`, covariance `-1/n²` within a
/// row or a column and `1/(n²(n-1))` otherwise, which is `(Q ⊗ Q)/(n - 1)` with
/// `Q = I - J/n`: `1/(n-1)` times the projection onto the `(n-1)²`-dimensional space of
/// matrices whose rows and columns sum to 0. The centred counts `D = C - N/n` over `N`
/// trials are then close to normal with covariance `N/(n-1) · (Q ⊗ Q)`, so
/// `‖D‖² (n-1)/N` is close to χ² with `(n-1)²` df; that is Pearson's
/// `X = ‖D‖²/(N/n)` times `(n-1)/n`, the statistic the project uses. Under a biased
/// shuffle `D` has mean `N (p - 1/n)`, which lies in that space (`p` is doubly
/// stochastic), and for a small bias its covariance is close to the null one, so the
/// scaled statistic is close to a noncentral χ² with noncentrality
/// `(n-1)/N · ‖N (p - 1/n)‖² = N · (n-1) Σ (p_ij - 1/n)²`, which is
/// `N · (n-1)/n · Σ (p_ij - 1/n)²/(1/n)`. Exactly, since each `C_ij` is binomial,
/// `E[X (n-1)/n] = (n-1)² + (N - 1) · (n-1) Σ (p_ij - 1/n)²`.
///
/// It is never more than the [`permutation_noncentrality`] of the law the matrix comes
/// from: the matrix is a linear summary of the permutation counts.
pub fn position_noncentrality(matrix: &[f64], n: usize) -> f64 {
    assert_eq!(
        matrix.len(),
        n * n,
        "a position matrix for {n} items has {} cells",
        n * n
    );
    let uniform = 1.0 / n as f64;
    (n as f64 - 1.0) * matrix.iter().map(|p| (p - uniform).powi(2)).sum::<f64>()
}

/// The least per-trial noncentrality, over every alternative law at total variation
/// `total_variation` from the null, of a Pearson χ² test over the null's cells: `4·tv²`,
/// whatever the cells and their probabilities. So [`trials_needed`] with it gives the
/// trials that catch *every* bias of that size, the hardest included.
///
/// Why: with `d_i` the alternative minus the null in cell `i` (`Σ|d_i| = 2·tv`), the
/// noncentrality is `Σ d_i²/p_i` (see [`permutation_noncentrality`]), and by
/// Cauchy–Schwarz `(Σ|d_i|)² = (Σ (|d_i|/√p_i)·√p_i)² <= Σ d_i²/p_i · Σ p_i`, so it is
/// at least `(2·tv)²`, reached when `|d_i|` is proportional to `p_i` (the bias spread
/// over every cell: half of them up, half down). For the position test, whose cells are
/// each card's `n` positions, the same bound on every card's row at `tv` gives
/// `Σ_ij d_ij² >= 4·tv²`, and [`position_noncentrality`] is `n − 1` times that.
pub fn least_noncentrality(total_variation: f64) -> f64 {
    4.0 * total_variation * total_variation
}

/// The `c` with `P(χ²_df > c) = alpha`, by bisection on the log of the upper tail (which
/// [`chi_square_upper_tail`] keeps accurate far below `f64`'s range; `ChiSquared`'s
/// `inverse_cdf(1 - α)` would work with `1 - α`, which keeps only 10 digits of α = 1e-6).
fn critical_value(df: f64, alpha: f64) -> f64 {
    let target = alpha.log10();
    let above = |c: f64| chi_square_upper_tail(c, df).log10() > target;
    let mut low = 0.0;
    let mut high = df + 10.0;
    while above(high) {
        low = high;
        high *= 2.0;
    }
    // 200 halvings shrink any bracket to below one ulp of its ends.
    for _ in 0..200 {
        let middle = 0.5 * (low + high);
        if middle <= low || middle >= high {
            break;
        }
        if above(middle) {
            low = middle;
        } else {
            high = middle;
        }
    }
    0.5 * (low + high)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::noncentral::noncentral_chi_square_sf;

    /// The exact law of the naive swap (`for i in 0..n { swap(i, random(0..n)) }`) over
    /// its `n^n` equally likely choice sequences: the probability of each of the `n!`
    /// orders (all are reached), and the item × position matrix.
    fn naive_swap_law(n: usize) -> (Vec<f64>, Vec<f64>) {
        let sequences = n.pow(n as u32);
        let mut orders = std::collections::BTreeMap::<Vec<usize>, u64>::new();
        let mut matrix = vec![0.0; n * n];
        for mut code in 0..sequences {
            let mut deck: Vec<usize> = (0..n).collect();
            for i in 0..n {
                deck.swap(i, code % n);
                code /= n;
            }
            for (position, &item) in deck.iter().enumerate() {
                matrix[item * n + position] += 1.0 / sequences as f64;
            }
            *orders.entry(deck).or_default() += 1;
        }
        let law = orders
            .values()
            .map(|&count| count as f64 / sequences as f64)
            .collect();
        (law, matrix)
    }

    #[test]
    fn critical_values_match_scipy() {
        // scipy 1.17.1: chi2.isf(alpha, df).
        for (df, alpha, expected) in [
            (1.0, 1e-6, 23.928126976934827),
            (5.0, 1e-6, 35.888186879672865),
            (100.0, 1e-6, 182.12677711954765),
            (2601.0, 1e-6, 2958.3479822805007),
            (5.0, 0.05, 11.070497693516355),
        ] {
            let c = critical_value(df, alpha);
            // The tail's own accuracy (~1e-14 relative) moves c by far less than 1e-11.
            assert!(
                ((c - expected) / expected).abs() < 1e-11,
                "df {df} α {alpha}: {c} vs {expected}"
            );
        }
    }

    #[test]
    fn three_card_naive_swap() {
        let (law, matrix) = naive_swap_law(3);
        // 4/27 for 123, 312, 321 and 5/27 for the other three orders.
        let mut sorted = law.clone();
        sorted.sort_by(f64::total_cmp);
        let expected_law = [4.0, 4.0, 4.0, 5.0, 5.0, 5.0].map(|k| k / 27.0);
        for (p, q) in sorted.iter().zip(expected_law) {
            assert!((p - q).abs() < 1e-15);
        }
        // |p - 1/6| = 1/54 for all six: 6 · (1/54)² · 6 = 1/81.
        let delta = permutation_noncentrality(&law);
        assert!((delta - 1.0 / 81.0).abs() < 1e-15, "{delta}");

        // At α = 1e-6 and power 0.99. scipy 1.17.1 (ncx2.sf(chi2.isf(1e-6, 5), 5, N/81))
        // finds the same N = 5222 with power 0.990019 there and 0.989999 at 5221: margins
        // of 2e-5 and 9e-7, far above either side's numerical error.
        let trials = trials_needed(delta, 5.0, 1e-6, 0.99).unwrap();
        assert_eq!(trials, 5222);
        let critical = critical_value(5.0, 1e-6);
        let power_at = |n: u64| noncentral_chi_square_sf(critical, 5.0, n as f64 * delta);
        assert!(power_at(trials) >= 0.99, "{}", power_at(trials));
        assert!(power_at(trials - 1) < 0.99, "{}", power_at(trials - 1));

        // The position matrix ×27: item 0 is uniform (9, 9, 9), items 1 and 2 are
        // (10, 8, 9) and (8, 10, 9). So Σ (p - 1/3)² = 4/27², times (n - 1) = 2: 8/729,
        // a little less than the full test's 9/729. scipy (as above, df 4) gives 5661.
        let position = position_noncentrality(&matrix, 3);
        assert!((position - 8.0 / 729.0).abs() < 1e-15, "{position}");
        assert_eq!(trials_needed(position, 4.0, 1e-6, 0.99), Some(5661));
    }

    #[test]
    fn noncentralities_match_the_exact_mean_of_the_statistics() {
        // Each count is binomial, so E[(C - E0)²] = N p (1 - p) + (N p - E0)² exactly, and
        // E[statistic] = df + (N - 1) · δ. This checks the derivations' algebra (scaling,
        // df) without simulation, on the naive swap of 3, 4 and 5 cards.
        let trials = 1000.0;
        for n in 3..=5usize {
            let (law, matrix) = naive_swap_law(n);
            let factorial: usize = (1..=n).product();
            assert_eq!(law.len(), factorial);

            let expected = trials / factorial as f64;
            let mean_permutation_statistic: f64 = law
                .iter()
                .map(|p| (trials * p * (1.0 - p) + (trials * p - expected).powi(2)) / expected)
                .sum();
            let df = factorial as f64 - 1.0;
            let delta = permutation_noncentrality(&law);
            let from_mean = (mean_permutation_statistic - df) / (trials - 1.0);
            assert!(
                (from_mean - delta).abs() < 1e-12 * delta,
                "n {n}: {from_mean} vs {delta}"
            );

            let expected = trials / n as f64;
            let pearson: f64 = matrix
                .iter()
                .map(|p| (trials * p * (1.0 - p) + (trials * p - expected).powi(2)) / expected)
                .sum();
            let mean_position_statistic = pearson * (n as f64 - 1.0) / n as f64;
            let df = ((n - 1) * (n - 1)) as f64;
            let position = position_noncentrality(&matrix, n);
            let from_mean = (mean_position_statistic - df) / (trials - 1.0);
            assert!(
                (from_mean - position).abs() < 1e-12 * position,
                "n {n}: {from_mean} vs {position}"
            );

            // The position matrix summarizes the orders: it cannot see more bias.
            assert!(
                position > 0.0 && position <= delta,
                "n {n}: {position} vs {delta}"
            );
        }
    }

    #[test]
    fn uniform_laws_are_never_detected() {
        assert_eq!(permutation_noncentrality(&[1.0 / 6.0; 6]), 0.0);
        assert_eq!(
            trials_needed(permutation_noncentrality(&[0.25; 4]), 3.0, 1e-6, 0.99),
            None
        );
        assert_eq!(position_noncentrality(&[0.2; 25], 5), 0.0);
        assert_eq!(trials_needed(0.0, 16.0, 1e-6, 0.99), None);
    }

    #[test]
    fn more_power_or_a_smaller_alpha_needs_more_trials() {
        for (delta, df) in [(1.0 / 81.0, 5.0), (1e-4, 100.0), (1e-3, 2601.0)] {
            let needed = |alpha: f64, power: f64| trials_needed(delta, df, alpha, power).unwrap();
            let mut previous = 0;
            for power in [0.5, 0.8, 0.9, 0.99, 0.999999] {
                let trials = needed(1e-6, power);
                assert!(
                    trials > previous,
                    "δ {delta} power {power}: {trials} after {previous}"
                );
                previous = trials;
            }
            let mut previous = 0;
            for alpha in [0.05, 1e-3, 1e-6, 1e-12, 1e-30] {
                let trials = needed(alpha, 0.99);
                assert!(
                    trials > previous,
                    "δ {delta} α {alpha}: {trials} after {previous}"
                );
                previous = trials;
            }
            // Half the bias per trial needs about twice the trials.
            let ratio =
                trials_needed(delta / 2.0, df, 1e-6, 0.99).unwrap() as f64 / needed(1e-6, 0.99) as f64;
            assert!((ratio - 2.0).abs() < 1e-3, "{ratio}");
        }
    }

    #[test]
    fn a_pooled_law_test_needs_what_its_groups_say() {
        // A law with no thin cells is never pooled beyond the first few trials: the
        // answer is the plain figure for its cells.
        let null = [0.25; 4];
        // Shifts that cancel in pairs: pooled into two groups (as 10 trials would pool
        // them) the bias would vanish, so the search must go past the coarse pooling.
        let shift = [0.02, -0.02, 0.01, -0.01];
        let found = pooled_law_trials_needed(&null, &shift, 1e-6, 0.99).unwrap();
        let delta: f64 = shift.iter().map(|d| d * d / 0.25).sum();
        assert_eq!(found.df, 3.0);
        assert!((found.noncentrality_per_trial - delta).abs() < 1e-15);
        assert_eq!(Some(found.trials), trials_needed(delta, 3.0, 1e-6, 0.99));
        // With a thin tail the groups at the answer are those pooling makes for it.
        let null = [0.5, 0.3, 0.15, 0.04, 0.009, 0.001];
        let shift = [0.01, -0.005, -0.004, 0.0, -0.0005, -0.0005];
        let found = pooled_law_trials_needed(&null, &shift, 1e-6, 0.99).unwrap();
        let groups = crate::stats::pooling::pooled_groups(&null, found.trials);
        assert_eq!(groups.len(), 6, "at {} trials no cell is thin", found.trials);
        assert_eq!(found.df, (groups.len() - 1) as f64);
        assert_eq!(
            Some(found.trials),
            trials_needed(found.noncentrality_per_trial, found.df, 1e-6, 0.99)
        );
        // No bias, nothing to find; one possible cell, no test.
        assert_eq!(pooled_law_trials_needed(&null, &[0.0; 6], 1e-6, 0.99), None);
        assert_eq!(pooled_law_trials_needed(&[1.0], &[0.0], 1e-6, 0.99), None);
    }

    #[test]
    fn the_bias_spread_over_every_cell_is_the_hardest_of_its_size() {
        // Three alternatives at total variation 0.05 from a uniform law over 6 cells and
        // one over a law with unequal cells: the spread one reaches the bound, the
        // concentrated ones are easier to see.
        let tv = 0.05;
        let least = least_noncentrality(tv);
        assert!((least - 0.01).abs() < 1e-15);
        let spread: Vec<f64> = [1.0, -1.0, 1.0, -1.0, 1.0, -1.0]
            .iter()
            .map(|sign| 1.0 / 6.0 + sign * tv / 3.0)
            .collect();
        let concentrated = [
            1.0 / 6.0 + tv,
            1.0 / 6.0 - tv,
            1.0 / 6.0,
            1.0 / 6.0,
            1.0 / 6.0,
            1.0 / 6.0,
        ];
        assert!((permutation_noncentrality(&spread) - least).abs() < 1e-15);
        assert!(permutation_noncentrality(&concentrated) > 2.0 * least);
        // A checkerboard position matrix whose every row is off by tv, spread evenly:
        // n − 1 times the bound.
        let n = 4;
        let matrix: Vec<f64> = (0..n * n)
            .map(|cell| {
                0.25 + if (cell / n + cell % n) % 2 == 0 {
                    0.025
                } else {
                    -0.025
                }
            })
            .collect();
        let position = position_noncentrality(&matrix, n);
        assert!((position - (n - 1) as f64 * least).abs() < 1e-15, "{position}");
    }

    #[test]
    fn extremes() {
        // A bias so strong that one trial is enough.
        assert_eq!(trials_needed(1e6, 1.0, 0.05, 0.5), Some(1));
        // So weak that no u64 count of trials reaches the power.
        assert_eq!(trials_needed(1e-30, 5.0, 1e-6, 0.99), None);
    }
}
