//! Sorting by a random 64-bit float key per card: fair.
//!
//! Shuffling by sorting is the idea several text 004 commenters propose: give every card a
//! random key and sort by it, or sort with a comparator that answers at random. Random
//! keys are fine when ties cannot happen (64-bit floats) and biased when they can (8-bit
//! keys: a stable sort keeps tied cards in their original order).

use crate::catalogue::shuffle::{CheckCase, NotEnumerable, Shuffle, ShuffleFacts, Stop};
use crate::catalogue::{Algorithm, CatalogueEntry, PermutationAlgorithm, Workspace};
use crate::randomness::Randomness;

/// Stable sort by an `f64` key drawn from `[0, 1)` for each card (Ruby's `sort_by { rand }`
/// in text 004's comments). Two keys tie with probability about `n²/2^54`: fair for any
/// deck the tool can tally.
pub fn sort_random_key<T: Copy, R: Randomness + ?Sized>(
    deck: &mut [T],
    rng: &mut R,
    keyed: &mut Vec<(f64, T)>,
) {
    keyed.clear();
    keyed.extend(deck.iter().map(|&card| (rng.unit(), card)));
    // total_cmp is a total order on f64, so the standard sort is safe here.
    keyed.sort_by(|a, b| a.0.total_cmp(&b.0));
    for (slot, (_, card)) in deck.iter_mut().zip(keyed.iter()) {
        *slot = *card;
    }
}

/// `sort-random-key` in the catalogue: [`sort_random_key`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SortRandomKey;

impl Shuffle for SortRandomKey {
    const ENTRIES: &'static [CatalogueEntry] = &[
        CatalogueEntry {
            name: "sort-random-key",
            summary: "stable sort by a random f64 key per card",
            origin: "text 004's comments (sort_by { rand })",
            biased_from: None,
            parameter: None,
            algorithm: Algorithm::Permutation(PermutationAlgorithm::SortRandomKey),
        },
    ];

    const CHECKS: &'static [CheckCase] = &[
        // Fair; 1,667 expected per order at n = 5.
        CheckCase {
            name: "sort-random-key",
            n: 5,
            trials: 200_000,
            seed: 7,
        },
    ];

    #[inline(always)]
    fn shuffle<T: Copy, R: Randomness + ?Sized>(
        self,
        deck: &mut [T],
        rng: &mut R,
        workspace: &mut Workspace<T>,
        _stop: &impl Stop,
    ) {
        sort_random_key(deck, rng, &mut workspace.f64_keys)
    }
}

impl ShuffleFacts for SortRandomKey {
    fn not_enumerable(&self) -> Option<NotEnumerable> {
        Some(NotEnumerable {
            reason: "it sorts by random floating-point keys",
            draws_floats: true,
            instead: " (sort-random-key-u8 has 8-bit keys and can be enumerated on small decks)",
        })
    }
}
