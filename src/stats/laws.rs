//! Exact laws of a uniformly random permutation of `n` cards, for any `n`.
//!
//! - Fixed points: `P(k) = D(n-k) / (k! (n-k)!)` where `D(m)` is the number of
//!   derangements of `m` cards (the rencontres numbers). `D(m)/m!` is the partial sum
//!   `Σ_{j<=m} (-1)^j / j!`, so the law is computed from quotients that never overflow.
//! - Number of cycles: `P(k) = c(n, k) / n!` with `c` the unsigned Stirling numbers of the
//!   first kind. `c(n, k) = c(n-1, k-1) + (n-1) c(n-1, k)` becomes, divided by `n!`,
//!   `p_n(k) = p_{n-1}(k-1) / n + p_{n-1}(k) (n-1) / n`: a recurrence on probabilities that
//!   stays in range for decks of any size.
//! - For samplers, the overlap of two independent selections of `k` of `n` items:
//!   hypergeometric ([`overlap_law`]).

/// The law of how many items two independent uniform selections of `k` of `n` items share:
/// hypergeometric, `P(j) = C(k, j) C(n−k, k−j) / C(n, k)` for `j = 0..=k` (computed in
/// log space, for any `n` up to 65,535).
pub fn overlap_law(n: usize, k: usize) -> Vec<f64> {
    use statrs::function::gamma::ln_gamma;
    let ln_choose = |a: usize, b: usize| {
        if b > a {
            f64::NEG_INFINITY
        } else {
            ln_gamma(a as f64 + 1.0) - ln_gamma(b as f64 + 1.0) - ln_gamma((a - b) as f64 + 1.0)
        }
    };
    let all = ln_choose(n, k);
    (0..=k)
        .map(|j| (ln_choose(k, j) + ln_choose(n - k, k - j) - all).exp())
        .collect()
}

/// `P(exactly k fixed points)` for `k = 0..=n`.
pub fn fixed_point_law(n: usize) -> Vec<f64> {
    // derangement_ratio[m] = D(m) / m!
    let mut derangement_ratio = Vec::with_capacity(n + 1);
    let mut term = 1.0f64; // (-1)^m / m!
    let mut sum = 0.0f64;
    for m in 0..=n {
        if m > 0 {
            term /= -(m as f64);
        }
        sum += term;
        derangement_ratio.push(sum);
    }
    let mut inverse_factorial = 1.0f64; // 1 / k!
    (0..=n)
        .map(|k| {
            if k > 0 {
                inverse_factorial /= k as f64;
            }
            // D(1) = 0 exactly: n-1 fixed points are impossible.
            (derangement_ratio[n - k] * inverse_factorial).max(0.0)
        })
        .collect()
}

/// `P(exactly k cycles)` for `k = 0..=n` (entry 0 is 0 for `n >= 1`).
pub fn cycle_count_law(n: usize) -> Vec<f64> {
    let mut law = vec![0.0f64; n + 1];
    law[0] = 1.0; // the empty permutation has no cycles
    for size in 1..=n {
        let size_f = size as f64;
        for k in (1..=size).rev() {
            law[k] = law[k - 1] / size_f + law[k] * (size_f - 1.0) / size_f;
        }
        law[0] = 0.0;
    }
    law
}

#[cfg(test)]
mod tests {
    use super::*;

    fn assert_close(actual: &[f64], expected: &[f64]) {
        assert_eq!(actual.len(), expected.len());
        for (a, e) in actual.iter().zip(expected) {
            assert!((a - e).abs() < 1e-15, "{actual:?} vs {expected:?}");
        }
    }

    #[test]
    fn small_decks_match_hand_counts() {
        // 4 cards: 9 derangements, 8 with one fixed point, 6 with two, 0 with three, 1 with four.
        assert_close(
            &fixed_point_law(4),
            &[9.0 / 24.0, 8.0 / 24.0, 6.0 / 24.0, 0.0, 1.0 / 24.0],
        );
        // Stirling numbers c(4, k) = 0, 6, 11, 6, 1.
        assert_close(
            &cycle_count_law(4),
            &[0.0, 6.0 / 24.0, 11.0 / 24.0, 6.0 / 24.0, 1.0 / 24.0],
        );
        assert_close(&fixed_point_law(1), &[0.0, 1.0]);
        assert_close(&cycle_count_law(3), &[0.0, 2.0 / 6.0, 3.0 / 6.0, 1.0 / 6.0]);
    }

    #[test]
    fn laws_sum_to_one_for_every_size() {
        for n in [1, 2, 3, 5, 10, 52, 100, 1000] {
            for law in [fixed_point_law(n), cycle_count_law(n)] {
                let total: f64 = law.iter().sum();
                assert!((total - 1.0).abs() < 1e-12, "n = {n}: sum {total}");
                assert!(law.iter().all(|&p| (0.0..=1.0).contains(&p)));
            }
        }
    }

    #[test]
    fn large_decks_approach_the_known_limits() {
        // Fixed points tend to Poisson(1): P(0) -> 1/e. Mean number of cycles is H(n).
        let fixed = fixed_point_law(52);
        assert!((fixed[0] - (-1.0f64).exp()).abs() < 1e-15);
        let cycles = cycle_count_law(52);
        let mean: f64 = cycles.iter().enumerate().map(|(k, p)| k as f64 * p).sum();
        let harmonic: f64 = (1..=52).map(|k| 1.0 / k as f64).sum();
        assert!((mean - harmonic).abs() < 1e-12);
    }
}
