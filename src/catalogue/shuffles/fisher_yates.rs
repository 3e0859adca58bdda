//! Durstenfeld's Fisher–Yates, the correct shuffle the others are measured against.

use crate::catalogue::shuffle::{CheckCase, Shuffle, ShuffleFacts, SwapPasses, Stop};
use crate::catalogue::swaps::SwapShuffle;
use crate::catalogue::{Algorithm, CatalogueEntry, PermutationAlgorithm, Workspace};
use crate::randomness::Randomness;

/// Durstenfeld's Fisher–Yates, as in texts 001 and 004: from the last position down,
/// swap `deck[i]` with a card drawn from `0..=i`. `n!` paths, one per order: fair.
#[inline(always)]
pub fn fisher_yates<T, R: Randomness + ?Sized>(deck: &mut [T], rng: &mut R) {
    FISHER_YATES.shuffle(deck, rng);
}

/// [`fisher_yates`]' draws and swaps: step `s` swaps position `i = n-1-s` with a card
/// drawn from `0..=i`.
pub(crate) const FISHER_YATES: SwapShuffle = SwapShuffle {
    draws: |n| (n.saturating_sub(1), n as u64),
    bound: |n, s| (n - s) as u64,
    swap: |n, s, j| (n - 1 - s, j),
};

/// `fisher-yates` in the catalogue: [`fisher_yates`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FisherYates;

impl Shuffle for FisherYates {
    const ENTRIES: &'static [CatalogueEntry] = &[
        CatalogueEntry {
            name: "fisher-yates",
            summary: "Durstenfeld's Fisher-Yates: from the end, swap a[i] with a[random(i+1)]",
            origin: "texts 001 (ListShuffle) and 004 (Knuth-Fisher-Yates)",
            biased_from: None,
            parameter: None,
            algorithm: Algorithm::Permutation(PermutationAlgorithm::FisherYates),
        },
    ];

    const CHECKS: &'static [CheckCase] = &[
        // Fair; 120 orders at n = 5: 1,667 expected per order.
        CheckCase {
            name: "fisher-yates",
            n: 5,
            trials: 200_000,
            seed: 2,
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
        FISHER_YATES.shuffle_planned::<Self, _, _>(deck, rng, &mut workspace.plan)
    }
}

impl ShuffleFacts for FisherYates {
    fn swaps(&self) -> Option<SwapPasses> {
        Some(SwapPasses {
            shuffle: FISHER_YATES,
            passes: 1,
        })
    }
}
