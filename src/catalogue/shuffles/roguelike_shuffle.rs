//! Text 002's SHUFFLE, as printed: Sattolo's algorithm from the front.

use crate::catalogue::shuffle::{CheckCase, Shuffle, ShuffleFacts, SwapPasses, Stop};
use crate::catalogue::swaps::SwapShuffle;
use crate::catalogue::{Algorithm, CatalogueEntry, PermutationAlgorithm, Workspace};
use crate::randomness::Randomness;

/// Text 002's SHUFFLE taken literally: `for f := 0 to n: SWAP array[f] WITH
/// array[random(f)]`, where the text defines `random(x)` as a number in `0..x-1`.
///
/// Two readings had to be decided, and both follow the text's own C code:
/// - the loop runs `f = 0 .. n-1` (the C code's `f < n`); the pseudocode's `to n` would
///   touch a card past the end of the array;
/// - `random(0)` asks for a number in an empty range. We read it as 0 and draw nothing,
///   so the first step swaps `array[0]` with itself. (A C `random(0)` built on `% 0`
///   would crash instead; any value other than 0 would index out of bounds.)
///
/// What remains is Sattolo's algorithm run from the front: every outcome is a single
/// `n`-cycle, although the text calls the shuffle "truly random". Biased.
#[inline(always)]
pub fn roguelike_shuffle<T, R: Randomness + ?Sized>(deck: &mut [T], rng: &mut R) {
    ROGUELIKE_SHUFFLE.shuffle(deck, rng);
}

/// [`roguelike_shuffle`]'s draws and swaps: `f = 0` swaps the first card with itself;
/// step `s` is `f = s + 1`.
pub(crate) const ROGUELIKE_SHUFFLE: SwapShuffle = SwapShuffle {
    draws: |n| (n.saturating_sub(1), n.saturating_sub(1) as u64),
    bound: |_, s| (s + 1) as u64,
    swap: |_, s, g| (s + 1, g),
};

/// `roguelike-shuffle` in the catalogue: [`roguelike_shuffle`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RoguelikeShuffle;

impl Shuffle for RoguelikeShuffle {
    const ENTRIES: &'static [CatalogueEntry] = &[
        CatalogueEntry {
            name: "roguelike-shuffle",
            summary: "text 002's SHUFFLE as printed: swap a[f] with a[random(f)], random(0) = 0",
            origin: "text 002 (SHUFFLE pseudocode and C code)",
            biased_from: Some(2),
            parameter: None,
            algorithm: Algorithm::Permutation(PermutationAlgorithm::RoguelikeShuffle),
        },
    ];

    const CHECKS: &'static [CheckCase] = &[
        // Biased; exact: 31 shuffles needed at n = 4. 20,000 is 645x.
        CheckCase {
            name: "roguelike-shuffle",
            n: 4,
            trials: 20_000,
            seed: 5,
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
        ROGUELIKE_SHUFFLE.shuffle_planned::<Self, _, _>(deck, rng, &mut workspace.plan)
    }
}

impl ShuffleFacts for RoguelikeShuffle {
    fn swaps(&self) -> Option<SwapPasses> {
        Some(SwapPasses {
            shuffle: ROGUELIKE_SHUFFLE,
            passes: 1,
        })
    }
}
