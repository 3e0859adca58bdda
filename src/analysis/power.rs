//! Whether a result had the samples to see a bias at all: a `pass` on 700 deals of five
//! cards says nothing, since no test on so few could have caught any bias worth fearing.
//!
//! The yardstick is the samples a result's whole-sample test needs to catch *every* bias
//! of a total variation of [`CATCH_TOTAL_VARIATION`] (the hardest one: spread over every
//! cell, [`least_noncentrality`]) with probability [`CATCH_POWER`] at the level that test
//! faces: `alpha` over the number of tests that ran, since Holm's correction multiplies the
//! smallest p-value by it. The figure is [`trials_needed`], the "samples needed" that
//! `exact` reports for a known bias, here for an unknown one of that size.
//!
//! The whole-sample test is the first that ran of: `permutations` (every order of a deck,
//! up to 10 cards), `subsets` (every subset a sampler picks), `positions` (each card's
//! position, for larger decks: a total variation of each card's position law), and
//! `frequencies` (each item of a stream). A result with none of them (a sampler whose
//! subsets are too many to tally) gets no figure.

use super::{TestOutcome, TestReport};
use crate::stats::Fit;
use crate::stats::power::{least_noncentrality, trials_needed};

/// The size of bias a result must have had the samples to catch.
pub const CATCH_TOTAL_VARIATION: f64 = 0.05;

/// The probability with which it must have been caught.
pub const CATCH_POWER: f64 = 0.99;

/// What a result's whole-sample test needs to catch a bias of [`CATCH_TOTAL_VARIATION`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Power {
    /// The test (`permutations`, `subsets`, `positions`, `frequencies`).
    pub test: &'static str,
    /// The samples it had (deals, selections, a stream's items).
    pub samples: u64,
    /// The samples it needs; `None` when no number of samples would do.
    pub needed: Option<u64>,
}

impl Power {
    /// Whether the samples fall short of what the test needs.
    pub fn short(&self) -> bool {
        self.needed.is_none_or(|needed| self.samples < needed)
    }
}

/// The whole-sample tests, in the order a result is searched for one.
const WHOLE_SAMPLE_TESTS: [&str; 4] = ["permutations", "subsets", "positions", "frequencies"];

/// The power of the first whole-sample test that ran among `tests`, on `samples`, at level
/// `alpha` before Holm's correction; `None` when none ran.
pub fn power_to_catch(tests: &[TestReport], samples: u64, alpha: f64) -> Option<Power> {
    let ran = tests
        .iter()
        .filter(|test| test.p_value().is_some())
        .count()
        .max(1);
    let (test, df) = WHOLE_SAMPLE_TESTS.iter().find_map(|&name| {
        tests.iter().find_map(|test| match test.outcome {
            TestOutcome::Fit(Fit::Computed { df, .. }) if test.name == name && df > 0 => {
                Some((test.name, df))
            }
            _ => None,
        })
    })?;
    let least = least_noncentrality(CATCH_TOTAL_VARIATION);
    let noncentrality = if test == "positions" {
        // The position test of n cards has (n − 1)² degrees of freedom, and its
        // noncentrality is n − 1 times the cells' (see `least_noncentrality`).
        (df as f64).sqrt() * least
    } else {
        least
    };
    Some(Power {
        test,
        samples,
        needed: trials_needed(noncentrality, df as f64, alpha / ran as f64, CATCH_POWER),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::analyse_permutations;
    use crate::stats::Thresholds;
    use crate::tally::{PermutationRecorder, TallyOptions};

    /// The tests of `trials` deals of `n` cards, each the identity rotated by one more.
    fn tests_of(n: usize, trials: u64) -> Vec<TestReport> {
        let mut recorder = PermutationRecorder::new(n, TallyOptions::default());
        let mut deck: Vec<u16> = (0..n as u16).collect();
        for _ in 0..trials {
            deck.rotate_left(1);
            recorder.record(&deck);
        }
        analyse_permutations(&recorder.finish(), &Thresholds::new(1e-6).unwrap()).tests
    }

    #[test]
    fn seven_hundred_deals_of_five_cards_are_far_too_few() {
        let tests = tests_of(5, 700);
        let power = power_to_catch(&tests, 700, 1e-6).unwrap();
        assert_eq!(power.test, "permutations");
        // 120 orders, δ = 0.01: λ ≈ 170 is needed at α of about 1e-7, so N in the tens of
        // thousands, far above 700 (the exact figure is trials_needed's, tested there).
        let needed = power.needed.unwrap();
        assert!((10_000..40_000).contains(&needed), "{needed}");
        assert!(power.short());
        assert!(
            !Power {
                samples: needed,
                ..power
            }
            .short()
        );
    }

    #[test]
    fn more_tests_or_a_smaller_alpha_need_more_samples() {
        let tests = tests_of(4, 2_000);
        let needed = |alpha| power_to_catch(&tests, 2_000, alpha).unwrap().needed.unwrap();
        assert!(needed(1e-9) > needed(1e-6));
        let alone: Vec<TestReport> = tests.iter().take(1).cloned().collect();
        assert_eq!(alone[0].name, "permutations");
        let fewer = power_to_catch(&alone, 2_000, 1e-6).unwrap().needed.unwrap();
        assert!(fewer < needed(1e-6), "{fewer} vs {}", needed(1e-6));
    }

    #[test]
    fn large_decks_are_judged_by_their_positions() {
        let tests = tests_of(12, 5_000);
        let power = power_to_catch(&tests, 5_000, 1e-6).unwrap();
        assert_eq!(power.test, "positions");
        // 121 degrees of freedom and 11 times the cells' noncentrality: a few thousand.
        let needed = power.needed.unwrap();
        assert!((500..5_000).contains(&needed), "{needed}");
        assert!(power_to_catch(&[], 10, 1e-6).is_none());
    }
}
