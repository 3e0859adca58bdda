//! The naive swap: for every position, swap its card with one drawn from the whole deck.

use crate::catalogue::shuffle::{CheckCase, Shuffle, ShuffleFacts, SwapPasses, Stop};
use crate::catalogue::swaps::SwapShuffle;
use crate::catalogue::{Algorithm, CatalogueEntry, PermutationAlgorithm, Workspace};
use crate::randomness::Randomness;

/// Text 001's `SimpleListShuffle` and text 004's first listing: for every position `i`,
/// swap `deck[i]` with a card drawn from the whole deck. `n^n` equally likely paths onto
/// `n!` orders, which `n!` does not divide for `n >= 3`: biased.
#[inline(always)]
pub fn naive_swap<T, R: Randomness + ?Sized>(deck: &mut [T], rng: &mut R) {
    NAIVE_SWAP.shuffle(deck, rng);
}

/// [`naive_swap`]'s draws and swaps.
pub(crate) const NAIVE_SWAP: SwapShuffle = SwapShuffle {
    draws: |n| (n, n as u64),
    bound: |n, _| n as u64,
    swap: |_, i, j| (i, j),
};

/// `naive-swap` in the catalogue: [`naive_swap`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NaiveSwap;

impl Shuffle for NaiveSwap {
    const ENTRIES: &'static [CatalogueEntry] = &[
        CatalogueEntry {
            name: "naive-swap",
            summary: "for each i, swap a[i] with a[random(n)]",
            origin: "texts 001 (SimpleListShuffle) and 004 (the first listing)",
            biased_from: Some(3),
            parameter: None,
            algorithm: Algorithm::Permutation(PermutationAlgorithm::NaiveSwap),
        },
    ];

    const CHECKS: &'static [CheckCase] = &[
        // Biased from n = 3; exact: 5,222 shuffles needed at n = 3. 200,000 is 38x.
        CheckCase {
            name: "naive-swap",
            n: 3,
            trials: 200_000,
            seed: 1,
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
        NAIVE_SWAP.shuffle_planned::<Self, _, _>(deck, rng, &mut workspace.plan)
    }
}

impl ShuffleFacts for NaiveSwap {
    fn swaps(&self) -> Option<SwapPasses> {
        Some(SwapPasses {
            shuffle: NAIVE_SWAP,
            passes: 1,
        })
    }
}
