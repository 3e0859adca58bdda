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

    /// `700 samples, but its permutations test needs 17,234 to catch a total variation of
    /// 0.05 with 99 % power`.
    pub fn shortfall(&self) -> String {
        let needs = self.needed.map_or("more than any count".to_string(), |needed| {
            crate::format::group_thousands(needed)
        });
        format!(
            "{} samples, but its {} test needs {needs} to catch a total variation of {} with {} % power",
            crate::format::group_thousands(self.samples),
            self.test,
            CATCH_TOTAL_VARIATION,
            CATCH_POWER * 100.0,
        )
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
        // The smallest α f64 holds still asks a test something (α below it is no level).
        needed: trials_needed(
            noncentrality,
            df as f64,
            (alpha / ran as f64).max(f64::MIN_POSITIVE),
            CATCH_POWER,
        ),
    })
}

/// The most tests with a p-value that a table of whole decks can get: the five deal tests
/// (permutations, positions, fixed points, cycles, rising sequences), their five serial
/// twins, repeats and the guessing game. Holm's correction divides α by at most this.
pub const MOST_DECK_TESTS: usize = 12;

/// The deals of `n` cards that an `ingest` needs for its whole-sample test to catch every
/// bias of total variation [`CATCH_TOTAL_VARIATION`] with probability [`CATCH_POWER`] at
/// level `alpha`: the figure [`power_to_catch`] checks afterwards, decided before dealing.
///
/// Decks of up to 10 cards are tallied order by order, and `ingest` is `inconclusive`
/// until its permutation test can run (five deals per order: 1.8 and 18 million deals at 9
/// and 10 cards), so their figure is at least that; larger decks need only what their
/// position test needs. How many tests share α depends on the deck, so the need is taken
/// at α over [`MOST_DECK_TESTS`]: that many deals are never underpowered, and at most a
/// few per cent more than the figure of the tests that do run. `None` when no number of
/// deals would do.
pub fn deals_to_catch(n: usize, alpha: f64) -> Option<u64> {
    if n < 2 {
        return None;
    }
    let least = least_noncentrality(CATCH_TOTAL_VARIATION);
    let alpha = (alpha / MOST_DECK_TESTS as f64).max(f64::MIN_POSITIVE);
    let cells = (n - 1) as f64;
    // The position test: (n − 1)² degrees of freedom, n − 1 times the cells' noncentrality;
    // it runs once each of its n² cells expects MIN_EXPECTED deals (5n deals; one more for
    // its serial twin, which counts the deals − 1 pairs of consecutive deals), which is
    // more than its power needs from about 220 cards on.
    let min_expected = crate::stats::pooling::MIN_EXPECTED as u64;
    let positions =
        trials_needed(cells * least, cells * cells, alpha, CATCH_POWER)?.max(min_expected * n as u64 + 1);
    if n > crate::tally::lehmer::MAX_RANKED_N {
        return Some(positions);
    }
    let orders: u64 = (2..=n as u64).product();
    let permutations = trials_needed(least, (orders - 1) as f64, alpha, CATCH_POWER)?;
    // The permutation test runs once every order expects MIN_EXPECTED deals (and pairs of
    // deals, for its serial twin).
    let runs_from = min_expected.saturating_mul(orders) + 1;
    Some(permutations.max(positions).max(runs_from))
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
    fn deals_to_catch_are_never_underpowered_and_close_to_the_figure_of_the_tests_that_ran() {
        for n in [2, 3, 5, 6, 8, 12, 52] {
            let deals = deals_to_catch(n, 1e-6).unwrap();
            let power = power_to_catch(&tests_of(n, deals), deals, 1e-6).unwrap();
            let needed = power.needed.unwrap();
            assert!(!power.short(), "{n} cards: {deals} deals, {needed} needed");
            // Fewer tests ran here than MOST_DECK_TESTS (no serial, repeats or guessing
            // table): the figure is larger, but only by the few per cent that α/12
            // instead of α/5 costs.
            assert!(
                deals as f64 <= needed as f64 * 1.1,
                "{n} cards: {deals} deals, {needed} needed"
            );
        }
        // Up to 10 cards the permutation test runs, and is the whole-sample one; at 9 and
        // 10 cards only once every order expects five deals.
        assert_eq!(deals_to_catch(9, 1e-6), Some(5 * 362_880 + 1));
        assert_eq!(deals_to_catch(10, 1e-6), Some(5 * 3_628_800 + 1));
        assert_eq!(deals_to_catch(1, 1e-6), None);
        // From about 220 cards, what lets the position test and its serial twin run at
        // all: five deals (and pairs of deals) per cell.
        assert_eq!(deals_to_catch(300, 1e-6), Some(1_501));
        assert_eq!(deals_to_catch(2_000, 1e-6), Some(10_001));
        // The smallest α there is still gives a figure, never a panic.
        assert!(deals_to_catch(5, f64::MIN_POSITIVE / 4.0).is_some());
        assert!(power_to_catch(&tests_of(5, 100), 100, 5e-324).is_some());
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
