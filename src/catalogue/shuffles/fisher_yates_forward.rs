//! Fisher–Yates run from the front: as fair as from the end.

use crate::catalogue::shuffle::{CheckCase, Shuffle, ShuffleFacts, SwapPasses, Stop};
use crate::catalogue::swaps::SwapShuffle;
use crate::catalogue::{Algorithm, CatalogueEntry, PermutationAlgorithm, Workspace};
use crate::randomness::Randomness;

/// Fisher–Yates from the front (`knuth1` in text 004's comments): swap `deck[i]` with a
/// card drawn from `i..n`. Fair.
#[inline(always)]
pub fn fisher_yates_forward<T, R: Randomness + ?Sized>(deck: &mut [T], rng: &mut R) {
    FISHER_YATES_FORWARD.shuffle(deck, rng);
}

/// [`fisher_yates_forward`]'s draws and swaps.
pub(crate) const FISHER_YATES_FORWARD: SwapShuffle = SwapShuffle {
    draws: |n| (n.saturating_sub(1), n as u64),
    bound: |n, i| (n - i) as u64,
    swap: |_, i, j| (i, i + j),
};

/// `fisher-yates-forward` in the catalogue: [`fisher_yates_forward`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FisherYatesForward;

impl Shuffle for FisherYatesForward {
    const ENTRIES: &'static [CatalogueEntry] = &[
        CatalogueEntry {
            name: "fisher-yates-forward",
            summary: "Fisher-Yates from the front: swap a[i] with a[i + random(n-i)]",
            origin: "text 004's comments (knuth1)",
            biased_from: None,
            parameter: None,
            algorithm: Algorithm::Permutation(PermutationAlgorithm::FisherYatesForward),
        },
    ];

    const CHECKS: &'static [CheckCase] = &[
        // Fair; 120 orders at n = 5: 1,667 expected per order.
        CheckCase {
            name: "fisher-yates-forward",
            n: 5,
            trials: 200_000,
            seed: 3,
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
        FISHER_YATES_FORWARD.shuffle_planned::<Self, _, _>(deck, rng, &mut workspace.plan)
    }
}

impl ShuffleFacts for FisherYatesForward {
    fn swaps(&self) -> Option<SwapPasses> {
        Some(SwapPasses {
            shuffle: FISHER_YATES_FORWARD,
            passes: 1,
        })
    }
}
