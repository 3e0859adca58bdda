//! Pooling the thin cells of a law so that a χ² test is valid.
//!
//! The χ² approximation needs an expected count of about 5 in every cell. Laws such as
//! "number of fixed points" have long thin tails (7 fixed points out of 52 has
//! probability 7e-5), so neighbouring cells are merged from left to right until each
//! group expects at least [`MIN_EXPECTED`], and a thin remainder at the right end joins
//! the last group. Grouping depends only on the law and the number of trials, never on
//! the observed counts, so it cannot be tuned by the data.

use std::ops::Range;

/// The smallest expected count per cell for which a χ² p-value is reported.
pub const MIN_EXPECTED: f64 = 5.0;

/// The smallest expected count per group for the run-length and gap laws of a stream.
///
/// Their counts are not draws from a multinomial with a fixed number of trials: the number
/// of runs (or gaps) is itself random, and neighbouring runs are of different items.
/// Pooled only down to 5, their χ² p-values came out too small too often: over 30,000
/// seeds of fair i.i.d. streams (1,000 draws of `A:50,B:25,C:20,D:5`), the run-length test
/// gave p < 1e-4 ten times where 3 were expected, and first verdicts of `suspicious` 55
/// times where Holm allows at most 30. Pooled down to 20, the same 30,000 seeds gave 3 and
/// 34 (gaps: 2 at 1e-4, 27 at 1e-3 where 30 are expected), so a CI gate reading them keeps
/// its nominal false-alarm rate.
pub const MIN_EXPECTED_SEQUENCE: f64 = 20.0;

/// Groups of consecutive cells, each expecting at least [`MIN_EXPECTED`] out of
/// `trials`. Fewer than two groups means the test cannot be made at this size.
pub fn pooled_groups(law: &[f64], trials: u64) -> Vec<Range<usize>> {
    pooled_groups_at(law, trials, MIN_EXPECTED)
}

/// [`pooled_groups`] with each group expecting at least `min_expected`.
pub fn pooled_groups_at(law: &[f64], trials: u64, min_expected: f64) -> Vec<Range<usize>> {
    let trials = trials as f64;
    let mut groups: Vec<Range<usize>> = Vec::new();
    let mut start = 0;
    let mut mass = 0.0;
    for (cell, &probability) in law.iter().enumerate() {
        mass += probability;
        if mass * trials >= min_expected {
            groups.push(start..cell + 1);
            start = cell + 1;
            mass = 0.0;
        }
    }
    if start < law.len() {
        match groups.last_mut() {
            Some(last) => last.end = law.len(),
            None => groups.push(start..law.len()),
        }
    }
    groups
}

/// Sums `values` over each group.
pub fn sum_groups<T: Copy + std::iter::Sum<T>>(values: &[T], groups: &[Range<usize>]) -> Vec<T> {
    groups
        .iter()
        .map(|group| values[group.clone()].iter().copied().sum())
        .collect()
}

/// The fewest trials for which [`pooled_groups`] makes at least two groups.
pub fn trials_needed_for_two_groups(law: &[f64]) -> u64 {
    trials_needed_for_two_groups_at(law, MIN_EXPECTED)
}

/// [`trials_needed_for_two_groups`] for groups expecting at least `min_expected`.
pub fn trials_needed_for_two_groups_at(law: &[f64], min_expected: f64) -> u64 {
    // Two groups exist once some split leaves MIN_EXPECTED on both sides: the best split
    // maximises the smaller side. Suffix sums are added up from the right, not taken as
    // `1 - prefix`, which would lose the last digits of a thin tail.
    let mut suffixes = vec![0.0f64; law.len() + 1];
    for (i, &probability) in law.iter().enumerate().rev() {
        suffixes[i] = suffixes[i + 1] + probability;
    }
    let mut prefix = 0.0;
    let mut best_smaller_side = 0.0f64;
    for (i, &probability) in law.iter().enumerate() {
        prefix += probability;
        best_smaller_side = best_smaller_side.max(prefix.min(suffixes[i + 1]));
    }
    if best_smaller_side <= 0.0 {
        return u64::MAX; // a law with a single possible outcome cannot be tested
    }
    // Settle on the exact boundary of what pooling does by bisection around the estimate
    // (more trials never make fewer groups). Stepping one trial at a time from the
    // estimate would never end for laws so thin that the estimate is beyond 2^53.
    let has_two_groups = |trials| pooled_groups_at(law, trials, min_expected).len() >= 2;
    let estimate = (min_expected / best_smaller_side).ceil();
    if estimate >= u64::MAX as f64 || !has_two_groups(u64::MAX) {
        return u64::MAX;
    }
    let (mut low, mut high) = (0u64, u64::MAX); // !has_two_groups(low), has_two_groups(high)
    let guess = estimate as u64;
    if has_two_groups(guess) {
        high = guess;
    } else {
        low = guess;
    }
    while high - low > 1 {
        let middle = low + (high - low) / 2;
        if has_two_groups(middle) {
            high = middle;
        } else {
            low = middle;
        }
    }
    high
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thin_tails_are_merged_and_every_group_expects_five() {
        let law = [0.5, 0.3, 0.13, 0.06, 0.009, 0.001];
        let groups = pooled_groups(&law, 100);
        assert_eq!(groups, vec![0..1, 1..2, 2..3, 3..6]);
        for group in &groups {
            let expected: f64 = law[group.clone()].iter().sum::<f64>() * 100.0;
            assert!(expected >= MIN_EXPECTED);
        }
        assert_eq!(
            sum_groups(&[10u64, 20, 30, 1, 2, 3], &groups),
            vec![10, 20, 30, 6]
        );
    }

    #[test]
    fn a_thin_left_tail_is_merged_too() {
        let law = [0.001, 0.01, 0.489, 0.5];
        assert_eq!(pooled_groups(&law, 100), vec![0..3, 3..4]);
    }

    #[test]
    fn too_few_trials_give_a_single_group_and_the_needed_count() {
        let law = [0.9, 0.1];
        assert_eq!(pooled_groups(&law, 20).len(), 1);
        let needed = trials_needed_for_two_groups(&law);
        assert_eq!(needed, 50);
        assert_eq!(pooled_groups(&law, needed).len(), 2);
        assert_eq!(pooled_groups(&law, needed - 1).len(), 1);
        assert_eq!(trials_needed_for_two_groups(&[1.0]), u64::MAX);
        // A law too thin for stepping one trial at a time to end (the estimate is past
        // 2^53): the answer still comes back, exact.
        let thin = [1.0 - 1e-17, 1e-17];
        let needed = trials_needed_for_two_groups(&thin);
        assert!(needed > 1 << 53);
        assert_eq!(pooled_groups(&thin, needed).len(), 2);
        assert_eq!(pooled_groups(&thin, needed - 1).len(), 1);
    }

    #[test]
    fn sequence_laws_pool_to_twenty() {
        let law = [0.5, 0.25, 0.125, 0.0625, 0.0625];
        // 200 trials expect 100, 50, 25, 12.5, 12.5: the last two join at 20.
        assert_eq!(
            pooled_groups_at(&law, 200, MIN_EXPECTED_SEQUENCE),
            vec![0..1, 1..2, 2..3, 3..5]
        );
        assert_eq!(pooled_groups(&law, 200).len(), 5);
        let needed = trials_needed_for_two_groups_at(&law, MIN_EXPECTED_SEQUENCE);
        assert_eq!(pooled_groups_at(&law, needed, MIN_EXPECTED_SEQUENCE).len(), 2);
        assert_eq!(pooled_groups_at(&law, needed - 1, MIN_EXPECTED_SEQUENCE).len(), 1);
    }
}
