//! The overhand shuffle, in Pemantle's model.
//!
//! The overhand shuffle (small packets slid off the top of the deck into the other hand)
//! is the other shuffle people really use. Pemantle ("An analysis of overhand shuffles",
//! J. Theoret. Probab. 2 (1989) 37–49) modelled it and showed that it needs of the order
//! of `n²` to `n² log n` repetitions to mix `n` cards; Jonasson ("The overhand shuffle
//! mixes in Θ(n² log n) steps", Ann. Appl. Probab. 16 (2006) 231–243) settled the order
//! at `n² log n`. Jonasson states the model as follows: each of the `n − 1` slots between
//! adjacent cards is, independently, declared a cut point with probability `p`; this
//! divides the deck into packets, and each packet is reversed without changing its
//! position relative to the other packets.
//!
//! The code follows that statement with `p = 1/2`: one fair coin (`below(2)`) per slot,
//! then each packet reversed in place. (The hand motion itself keeps each packet's order
//! and reverses the order of the packets; that is the model's outcome turned over as a
//! whole, the same mixing up to one fixed rearrangement.) With `2^(n−1)` equally likely
//! outcomes per shuffle and `n!` divisible by 3 from `n = 3` on, no number of overhand
//! shuffles is exactly uniform: biased from 3 cards. Two cards are exactly uniform after
//! any number (one cut keeps them, none swaps them, each with probability 1/2).

use crate::catalogue::long_deals::{each_pass, passes_until};
use crate::catalogue::shuffle::{CheckCase, Rounds, Shuffle, ShuffleFacts, whole_number, Stop};
use crate::catalogue::{Algorithm, CatalogueEntry, Parameter, PermutationAlgorithm, Workspace};
use crate::randomness::Randomness;

/// One overhand shuffle of `deck` in Pemantle's model with `p = 1/2`: a fair coin for
/// each of the `n − 1` slots between adjacent cards decides whether it is a cut, and each
/// packet between cuts is reversed in place. Draws `n − 1` coins, whatever they say.
#[inline]
pub fn overhand<T, R: Randomness + ?Sized>(deck: &mut [T], rng: &mut R) {
    let n = deck.len();
    let mut packet_start = 0;
    // The coins of 64 slots at a time (`Randomness::coins`: one word from the default
    // source, one `below(2)` per slot, in order, from any other).
    // The cuts are the coins that came up 1, visited one set bit at a time: a branch per
    // cut, not one per slot on a fair coin (half of them mispredicted).
    let mut first_slot = 1;
    while first_slot < n {
        let count = (n - first_slot).min(64);
        let mut cuts = rng.coins(count as u32);
        while cuts != 0 {
            // Slot `slot` lies between positions slot - 1 and slot.
            let slot = first_slot + cuts.trailing_zeros() as usize;
            deck[packet_start..slot].reverse();
            packet_start = slot;
            cuts &= cuts - 1;
        }
        first_slot += count;
    }
    deck[packet_start..].reverse();
}

/// `times` overhand shuffles in a row ([`overhand`]).
pub fn overhands<T, R: Randomness + ?Sized>(deck: &mut [T], rng: &mut R, times: u32) {
    overhands_until(deck, rng, times, || false);
}

/// [`overhands`], given up part way when `stop` says so, as
/// [`naive_repeated_until`](crate::catalogue::naive_repeated_until) is: `overhand:K` takes
/// any K, and one of its deals can take seconds.
pub fn overhands_until<T, R: Randomness + ?Sized>(
    deck: &mut [T],
    rng: &mut R,
    times: u32,
    stop: impl Fn() -> bool,
) {
    let cards = deck.len();
    passes_until(times, cards, stop, || overhand(deck, rng));
}

/// `overhand:K` in the catalogue: [`overhands`], `times` of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Overhand {
    /// Number of overhand shuffles.
    pub times: u32,
}

impl Shuffle for Overhand {
    const ENTRIES: &'static [CatalogueEntry] = &[
        CatalogueEntry {
            name: "overhand",
            summary: "K overhand shuffles in Pemantle's model: each gap between cards a cut with probability 1/2, each packet reversed",
            origin: "R. Pemantle, \"An analysis of overhand shuffles\", J. Theoret. Probab. 2 (1989) 37-49, as stated by J. Jonasson, Ann. Appl. Probab. 16 (2006) 231-243 (n^2 log n shuffles needed)",
            biased_from: Some(3),
            parameter: Some(Parameter {
                name: "K",
                meaning: "number of overhand shuffles",
                default: "1",
            }),
            algorithm: Algorithm::Permutation(PermutationAlgorithm::Overhand { times: 1 }),
        },
    ];

    const CHECKS: &'static [CheckCase] = &[
        // Biased (one overhand shuffle reaches 8 of the 24 orders); exact: 46 shuffles
        // needed at n = 4. 20,000 is 435x.
        CheckCase {
            name: "overhand",
            n: 4,
            trials: 20_000,
            seed: 19,
        },
    ];

    fn with_parameter(_entry: &CatalogueEntry, parameter: &Parameter, value: &str) -> Result<Self, String> {
        Ok(Self {
            times: whole_number(parameter, value, u32::MAX)?,
        })
    }

    #[inline(always)]
    fn shuffle<T: Copy, R: Randomness + ?Sized>(
        self,
        deck: &mut [T],
        rng: &mut R,
        _workspace: &mut Workspace<T>,
        stop: &impl Stop,
    ) {
        each_pass!(self.times, deck.len(), stop, overhand(deck, rng))
    }
}

impl ShuffleFacts for Overhand {
    fn parameter_shown(&self, _entry: &CatalogueEntry) -> Option<String> {
        Some(self.times.to_string())
    }

    /// One coin per slot between adjacent cards, per shuffle.
    fn draw_schedule(&self, n: usize) -> Option<Vec<u64>> {
        self.rounds(n)?.listed()
    }

    fn rounds(&self, n: usize) -> Option<Rounds> {
        Some(Rounds {
            draws: n.saturating_sub(1),
            rounds: self.times,
            bound: 2,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Coins(std::vec::IntoIter<u64>);

    impl Randomness for Coins {
        fn below(&mut self, n: u64) -> u64 {
            assert_eq!(n, 2);
            self.0.next().expect("more coins asked for than given")
        }
        fn unit(&mut self) -> f64 {
            unreachable!()
        }
    }

    #[test]
    fn packets_between_cuts_are_reversed_in_place() {
        // Slots after cards 1 and 4 are cuts (coins for slots 1..6: 0 1 0 0 1 0):
        // packets [0 1] [2 3 4] [5 6] -> [1 0] [4 3 2] [6 5].
        let mut deck = [0u16, 1, 2, 3, 4, 5, 6];
        overhand(&mut deck, &mut Coins(vec![0, 1, 0, 0, 1, 0].into_iter()));
        assert_eq!(deck, [1, 0, 4, 3, 2, 6, 5]);
        // No cut reverses the deck; every slot a cut leaves it as it was.
        let mut deck = [0u16, 1, 2, 3];
        overhand(&mut deck, &mut Coins(vec![0, 0, 0].into_iter()));
        assert_eq!(deck, [3, 2, 1, 0]);
        let mut deck = [0u16, 1, 2, 3];
        overhand(&mut deck, &mut Coins(vec![1, 1, 1].into_iter()));
        assert_eq!(deck, [0, 1, 2, 3]);
        // Nothing to draw for one card or none.
        overhand(&mut [7u16], &mut Coins(Vec::new().into_iter()));
        overhand::<u16, _>(&mut [], &mut Coins(Vec::new().into_iter()));
    }
}
