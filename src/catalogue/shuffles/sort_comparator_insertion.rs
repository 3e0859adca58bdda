//! Insertion sort with a comparator that returns a fair coin: biased.
//!
//! A random comparator is biased whatever the sort, and it is not a total order, which
//! Rust's own `sort_by` may detect and panic on (Rust >= 1.81). So the comparator
//! shuffles run on our own insertion sort and top-down merge sort, the two shapes
//! JavaScript engines have used for `Array.prototype.sort`.

use std::cmp::Ordering;

use crate::catalogue::shuffle::{CheckCase, Shuffle, ShuffleFacts, Stop};
use crate::catalogue::{Algorithm, CatalogueEntry, PermutationAlgorithm, Workspace};
use crate::randomness::Randomness;

/// A comparator that ignores its arguments and returns `Less` or `Greater` with
/// probability 1/2 each: `sort(() => Math.random() - 0.5)`.
pub(super) fn coin_comparator<R: Randomness + ?Sized>(rng: &mut R) -> Ordering {
    if rng.below(2) == 0 {
        Ordering::Less
    } else {
        Ordering::Greater
    }
}

/// Right-to-left linear insertion sort with a coin-flip comparator: card `i` moves left
/// past its neighbour for as long as the comparator says the neighbour is greater. On
/// three cards this gives 1/4 to `1 2 3` and `2 1 3` and 1/8 to each other order.
pub fn sort_comparator_insertion<T: Copy, R: Randomness + ?Sized>(deck: &mut [T], rng: &mut R) {
    for i in 1..deck.len() {
        let card = deck[i];
        let mut j = i;
        while j > 0 && coin_comparator(rng) == Ordering::Greater {
            deck[j] = deck[j - 1];
            j -= 1;
        }
        deck[j] = card;
    }
}

/// `sort-comparator-insertion` in the catalogue: [`sort_comparator_insertion`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SortComparatorInsertion;

impl Shuffle for SortComparatorInsertion {
    const ENTRIES: &'static [CatalogueEntry] = &[
        CatalogueEntry {
            name: "sort-comparator-insertion",
            summary: "insertion sort with a comparator that returns a fair coin",
            origin: "text 004's comments (arr.sort(function () { return Math.sin(Math.random() * 360); }))",
            biased_from: Some(3),
            parameter: None,
            algorithm: Algorithm::Permutation(PermutationAlgorithm::SortComparatorInsertion),
        },
    ];

    const CHECKS: &'static [CheckCase] = &[
        // Biased; exact: 165 shuffles needed at n = 4. 20,000 is 121x.
        CheckCase {
            name: "sort-comparator-insertion",
            n: 4,
            trials: 20_000,
            seed: 9,
        },
    ];

    #[inline(always)]
    fn shuffle<T: Copy, R: Randomness + ?Sized>(
        self,
        deck: &mut [T],
        rng: &mut R,
        _workspace: &mut Workspace<T>,
        _stop: &impl Stop,
    ) {
        sort_comparator_insertion(deck, rng)
    }
}

impl ShuffleFacts for SortComparatorInsertion {}
