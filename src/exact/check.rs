//! The simulator checked against exact analysis: when the law of an algorithm can be
//! enumerated quickly, a run also tests its tally against that law. The test asks "is
//! this what the algorithm does?", not "is it fair?", so a correct simulator passes it
//! for biased and fair algorithms alike; it proves the simulator, the tallies and the
//! ranking right, and is kept out of the verdict.

use crate::catalogue::PermutationAlgorithm;
use crate::randomness::DrawLaw;
use crate::simulate::NoProgress;
use crate::stats::Fit;
use crate::stats::chi_square::law_fit;
use crate::tally::PermutationTally;

use super::enumerate::enumerate_permutations_within;

/// Laws of up to this many paths are enumerated for the check (a fraction of a second).
pub const CHECK_PATHS: u64 = 1_000_000;

/// A tally against the exact law.
#[derive(Clone, Debug, PartialEq)]
pub struct SimulatorCheck {
    /// Random paths of the exact law.
    pub paths: u64,
    /// Shuffles that gave an order the exact law says is impossible (0 for a correct
    /// simulator).
    pub impossible_seen: u64,
    /// The χ² test of the possible orders' counts against their exact probabilities.
    pub fit: Fit,
}

impl SimulatorCheck {
    /// Whether the tally is consistent with the exact law at `alpha`.
    pub fn passes(&self, alpha: f64) -> bool {
        self.impossible_seen == 0
            && match self.fit {
                Fit::Computed { p, .. } => !p.is_below(alpha),
                Fit::TooFewTrials { .. } => true,
            }
    }
}

/// The check of `tally` (shuffles by `algorithm`), when its law has at most
/// [`CHECK_PATHS`] paths, the tally holds every order, and the algorithm's deals are
/// independent of each other.
pub fn check_simulation(algorithm: PermutationAlgorithm, tally: &PermutationTally) -> Option<SimulatorCheck> {
    // A dealer's deals follow on from each other: the enumerated law is that of a series'
    // first deal only, not of the deals tallied.
    if algorithm.carries_deck_between_deals() {
        return None;
    }
    let counts = tally.permutation_counts.as_ref()?;
    let law =
        enumerate_permutations_within(algorithm, tally.n, DrawLaw::Uniform, CHECK_PATHS, &NoProgress).ok()?;
    let possible: Vec<usize> = (0..counts.len())
        .filter(|&cell| law.numerators[cell] > 0)
        .collect();
    let impossible_seen = counts.iter().sum::<u64>() - possible.iter().map(|&cell| counts[cell]).sum::<u64>();
    let observed: Vec<u64> = possible.iter().map(|&cell| counts[cell]).collect();
    let probabilities: Vec<f64> = possible.iter().map(|&cell| law.probability(cell)).collect();
    let trials = observed.iter().sum();
    let fit = if possible.len() < 2 {
        // One possible order: nothing to compare but the impossible ones.
        Fit::TooFewTrials { needed: 0 }
    } else {
        law_fit(&observed, &probabilities, trials)
    };
    Some(SimulatorCheck {
        paths: law.paths,
        impossible_seen,
        fit,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tally::{PermutationRecorder, TallyOptions};

    fn tally(decks: &[(&[u16], u64)]) -> PermutationTally {
        let mut recorder = PermutationRecorder::new(decks[0].0.len(), TallyOptions::default());
        for (deck, times) in decks {
            recorder.record_times(deck, *times);
        }
        recorder.finish()
    }

    #[test]
    fn counts_in_proportion_to_the_law_pass_and_others_fail() {
        // The naive swap on 3 cards: 4, 5, 5, 5, 4, 4 of 27 paths.
        let exact = tally(&[
            (&[0, 1, 2], 4000),
            (&[0, 2, 1], 5000),
            (&[1, 0, 2], 5000),
            (&[1, 2, 0], 5000),
            (&[2, 0, 1], 4000),
            (&[2, 1, 0], 4000),
        ]);
        let check = check_simulation(PermutationAlgorithm::NaiveSwap, &exact).unwrap();
        assert_eq!(check.paths, 27);
        assert!(check.passes(1e-6), "{check:?}");
        // Uniform counts are what Fisher-Yates gives, not the naive swap.
        let uniform = tally(&[
            (&[0, 1, 2], 4500),
            (&[0, 2, 1], 4500),
            (&[1, 0, 2], 4500),
            (&[1, 2, 0], 4500),
            (&[2, 0, 1], 4500),
            (&[2, 1, 0], 4500),
        ]);
        assert!(
            !check_simulation(PermutationAlgorithm::NaiveSwap, &uniform)
                .unwrap()
                .passes(1e-6)
        );
        assert!(
            check_simulation(PermutationAlgorithm::FisherYates, &uniform)
                .unwrap()
                .passes(1e-6)
        );
        // Sattolo never leaves a card in place: one identity is a simulator error.
        let wrong = tally(&[(&[1, 2, 0], 100), (&[2, 0, 1], 100), (&[0, 1, 2], 1)]);
        let check = check_simulation(PermutationAlgorithm::Sattolo, &wrong).unwrap();
        assert_eq!(check.impossible_seen, 1);
        assert!(!check.passes(1e-6));
        // Floats cannot be enumerated: no check.
        assert!(check_simulation(PermutationAlgorithm::SortRandomKey, &uniform).is_none());
    }
}
