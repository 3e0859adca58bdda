//! One riffle as a text 004 commenter does it: halves merged by a fair coin.

use crate::catalogue::shuffle::{CheckCase, Shuffle, ShuffleFacts, Stop};
use crate::catalogue::{Algorithm, CatalogueEntry, PermutationAlgorithm, Workspace};
use crate::randomness::Randomness;

/// One riffle, as a text 004 commenter shuffles: split the deck into its first `⌊n/2⌋`
/// cards and the rest, then build the new deck from the top by taking the next card of a
/// half chosen by a fair coin; when one half is empty the other is appended. Only orders
/// with at most two rising sequences can come out: biased for `n >= 3`.
pub fn riffle<T: Copy, R: Randomness + ?Sized>(deck: &mut [T], rng: &mut R, merged: &mut Vec<T>) {
    let half = deck.len() / 2;
    let (left, right) = deck.split_at(half);
    merged.clear();
    let (mut l, mut r) = (0, 0);
    while l < left.len() && r < right.len() {
        if rng.below(2) == 0 {
            merged.push(left[l]);
            l += 1;
        } else {
            merged.push(right[r]);
            r += 1;
        }
    }
    merged.extend_from_slice(&left[l..]);
    merged.extend_from_slice(&right[r..]);
    deck.copy_from_slice(merged);
}

/// `riffle` in the catalogue: [`riffle`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Riffle;

impl Shuffle for Riffle {
    const ENTRIES: &'static [CatalogueEntry] = &[
        CatalogueEntry {
            name: "riffle",
            summary: "one riffle: split in half, merge taking from a half chosen by a coin",
            origin: "text 004's comments (split into two lists and merge at random)",
            biased_from: Some(3),
            parameter: None,
            algorithm: Algorithm::Permutation(PermutationAlgorithm::Riffle),
        },
    ];

    const CHECKS: &'static [CheckCase] = &[
        // Biased (one riffle is far from random); exact: 26 shuffles needed at n = 4.
        CheckCase {
            name: "riffle",
            n: 4,
            trials: 20_000,
            seed: 12,
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
        riffle(deck, rng, &mut workspace.cards)
    }
}

impl ShuffleFacts for Riffle {}
