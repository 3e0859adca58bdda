//! Sattolo's algorithm: the exclusive-bound off-by-one of text 003's shuffle bag.

use crate::catalogue::shuffle::{CheckCase, Shuffle, ShuffleFacts, SwapPasses, Stop};
use crate::catalogue::swaps::SwapShuffle;
use crate::catalogue::{Algorithm, CatalogueEntry, PermutationAlgorithm, Workspace};
use crate::randomness::Randomness;

/// Sattolo's algorithm: Fisher–Yates from the end with `j` drawn from `0..i`, excluding
/// `i` itself. This is the off-by-one of text 003's shuffle bag (`random.Next(position)`
/// with an exclusive bound). It produces only single `n`-cycles, each with probability
/// `1/(n-1)!`, so no card ever stays in place: biased.
#[inline(always)]
pub fn sattolo<T, R: Randomness + ?Sized>(deck: &mut [T], rng: &mut R) {
    SATTOLO.shuffle(deck, rng);
}

/// [`sattolo`]'s draws and swaps: step `s` swaps position `i = n-1-s` with a card drawn
/// from `0..i`.
pub(crate) const SATTOLO: SwapShuffle = SwapShuffle {
    draws: |n| (n.saturating_sub(1), n.saturating_sub(1) as u64),
    bound: |n, s| (n - 1 - s) as u64,
    swap: |n, s, j| (n - 1 - s, j),
};

/// `sattolo` in the catalogue: [`sattolo`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sattolo;

impl Shuffle for Sattolo {
    const ENTRIES: &'static [CatalogueEntry] = &[
        CatalogueEntry {
            name: "sattolo",
            summary: "from the end, swap a[i] with a[random(i)]: the exclusive-bound off-by-one",
            origin: "text 003 (the shuffle bag's random.Next(position))",
            biased_from: Some(2),
            parameter: None,
            algorithm: Algorithm::Permutation(PermutationAlgorithm::Sattolo),
        },
    ];

    const CHECKS: &'static [CheckCase] = &[
        // Biased (single cycles only); exact: 31 shuffles needed at n = 4. 20,000 is 645x.
        CheckCase {
            name: "sattolo",
            n: 4,
            trials: 20_000,
            seed: 4,
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
        SATTOLO.shuffle_planned::<Self, _, _>(deck, rng, &mut workspace.plan)
    }
}

impl ShuffleFacts for Sattolo {
    fn swaps(&self) -> Option<SwapPasses> {
        Some(SwapPasses {
            shuffle: SATTOLO,
            passes: 1,
        })
    }
}
