//! The repeated-deck test as one test of a result: the birthday test
//! ([`crate::stats::repeats`]) on the repeats a tally counted, and, when decks repeat, how
//! many different decks the program seems able to deal.

use super::TestOutcome;
use crate::stats::PMethod;
use crate::stats::repeats::{
    DeckSpaceEstimate, RepeatsOutcome, RepeatsTest, estimate_deck_space_grouped, grouped_repeats_test,
    ln_deck_count,
};
use crate::tally::RepeatTally;

/// What the repeats say.
#[derive(Clone, Debug, PartialEq)]
pub struct RepeatsFinding {
    /// The counts they come from.
    pub tally: RepeatTally,
    /// The test against a fair shuffle of `n` cards.
    pub test: RepeatsTest,
    /// How many different decks the program deals, when any deck repeated.
    pub estimate: Option<DeckSpaceEstimate>,
}

impl RepeatsFinding {
    /// The finding for `tally`'s repeats of `n`-card decks.
    pub fn of(tally: &RepeatTally, n: usize) -> Self {
        Self {
            tally: tally.clone(),
            test: grouped_repeats_test(&tally.groups, tally.repeats, ln_deck_count(n)),
            estimate: estimate_deck_space_grouped(&tally.groups, tally.repeats),
        }
    }

    /// The test as a test of the result, in the same family as the others.
    pub fn outcome(&self) -> TestOutcome {
        match self.test.outcome {
            RepeatsOutcome::Tested { p, .. } => TestOutcome::Count {
                observed: self.test.repeats,
                expected: self.test.expected,
                p,
                // The Poisson tail plus the Chen–Stein bound on its distance from the real
                // law: never below the exact p-value.
                method: PMethod::Bound,
            },
            RepeatsOutcome::NotApplicable { .. } => TestOutcome::NotApplicable(
                "not tested: a fair shuffle of so few cards repeats decks by chance too often for the \
                 Poisson law; the permutation test covers small decks"
                    .to_string(),
            ),
        }
    }
}
