//! Top-down merge sort with a comparator that returns a fair coin: biased.
//!
//! A random comparator is biased whatever the sort, and it is not a total order, which
//! Rust's own `sort_by` may detect and panic on (Rust >= 1.81). So the comparator
//! shuffles run on our own insertion sort and top-down merge sort, the two shapes
//! JavaScript engines have used for `Array.prototype.sort`.

use std::cmp::Ordering;

use crate::catalogue::shuffle::{CheckCase, Shuffle, ShuffleFacts, Stop};
use crate::catalogue::{Algorithm, CatalogueEntry, PermutationAlgorithm, Workspace};
use crate::randomness::Randomness;

use super::sort_comparator_insertion::coin_comparator;

/// Top-down merge sort with a coin-flip comparator: split at `len/2`, sort both halves,
/// merge taking the left card unless the comparator says it is greater. When one half
/// runs out the rest of the other is copied without further comparisons, which is why
/// the paths have different lengths and the result cannot be uniform for `n >= 3`.
pub fn sort_comparator_merge<T: Copy, R: Randomness + ?Sized>(
    deck: &mut [T],
    rng: &mut R,
    buffer: &mut Vec<T>,
) {
    buffer.clear();
    buffer.extend_from_slice(deck);
    merge_sort_range(deck, buffer, rng);
}

/// Sorts `deck` using `buffer` (same length) as merge space.
fn merge_sort_range<T: Copy, R: Randomness + ?Sized>(deck: &mut [T], buffer: &mut [T], rng: &mut R) {
    let len = deck.len();
    if len <= 1 {
        return;
    }
    let mid = len / 2;
    {
        let (deck_left, deck_right) = deck.split_at_mut(mid);
        let (buffer_left, buffer_right) = buffer.split_at_mut(mid);
        merge_sort_range(deck_left, buffer_left, rng);
        merge_sort_range(deck_right, buffer_right, rng);
    }
    buffer.copy_from_slice(deck);
    let (left, right) = buffer.split_at(mid);
    let (mut l, mut r) = (0, 0);
    for slot in deck.iter_mut() {
        let take_left = if l == left.len() {
            false
        } else if r == right.len() {
            true
        } else {
            coin_comparator(rng) != Ordering::Greater
        };
        if take_left {
            *slot = left[l];
            l += 1;
        } else {
            *slot = right[r];
            r += 1;
        }
    }
}

/// `sort-comparator-merge` in the catalogue: [`sort_comparator_merge`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SortComparatorMerge;

impl Shuffle for SortComparatorMerge {
    const ENTRIES: &'static [CatalogueEntry] = &[
        CatalogueEntry {
            name: "sort-comparator-merge",
            summary: "top-down merge sort with a comparator that returns a fair coin",
            origin: "text 004's comments (arr.sort(function () { return Math.sin(Math.random() * 360); }))",
            biased_from: Some(3),
            parameter: None,
            algorithm: Algorithm::Permutation(PermutationAlgorithm::SortComparatorMerge),
        },
    ];

    const CHECKS: &'static [CheckCase] = &[
        // Biased; exact: 721 shuffles needed at n = 4. 20,000 is 28x.
        CheckCase {
            name: "sort-comparator-merge",
            n: 4,
            trials: 20_000,
            seed: 10,
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
        sort_comparator_merge(deck, rng, &mut workspace.cards)
    }
}

impl ShuffleFacts for SortComparatorMerge {}
