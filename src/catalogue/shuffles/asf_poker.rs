//! The shuffle of the 1999 online-poker case: a naive swap that never targets the last card.

use crate::catalogue::shuffle::{CheckCase, Shuffle, ShuffleFacts, SwapPasses, Stop};
use crate::catalogue::swaps::SwapShuffle;
use crate::catalogue::{Algorithm, CatalogueEntry, PermutationAlgorithm, Workspace};
use crate::randomness::Randomness;

/// The shuffle of the 1999 online-poker case (ASF Software's, published by Reliable
/// Software Technologies; text 001 tells the story and text 004's comments link it):
///
/// ```pascal
/// for ctr := 1 to 52 do begin
///     random_number := random(51)+1;
///     tmp := card[random_number];
///     card[random_number] := card[ctr];
///     card[ctr] := tmp;
/// end;
/// ```
///
/// In 0-based terms: for every position `i`, swap `deck[i]` with `deck[random(n-1)]`. It
/// is the naive swap (`(n-1)^n` paths onto `n!` orders), and on top of that `random(51)+1`
/// never picks card 52 as a target: the last position is only ever swapped at the last
/// step, with a card from the positions before it, so the card that starts last can never
/// end last. (Its third flaw, `Randomize` from the time of day before every deal, belongs
/// to the randomness under it: `--source clock-reseed`, and `seeds crack`.) Biased from
/// two cards on: two cards always come out swapped. A one-card deck draws nothing (the
/// original's `random(0)` would return 0, swapping the card with itself).
#[inline(always)]
pub fn asf_poker<T, R: Randomness + ?Sized>(deck: &mut [T], rng: &mut R) {
    ASF_POKER.shuffle(deck, rng);
}

/// [`asf_poker`]'s draws and swaps (none below two cards).
pub(crate) const ASF_POKER: SwapShuffle = SwapShuffle {
    draws: |n| if n < 2 { (0, 1) } else { (n, (n - 1) as u64) },
    bound: |n, _| (n - 1) as u64,
    swap: |_, i, j| (i, j),
};

/// `asf-poker` in the catalogue: [`asf_poker`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AsfPoker;

impl Shuffle for AsfPoker {
    const ENTRIES: &'static [CatalogueEntry] = &[
        CatalogueEntry {
            name: "asf-poker",
            summary: "the 1999 online-poker shuffle: for each i, swap a[i] with a[random(n-1)] (card n never a target)",
            origin: "text 001 (the online-poker case) and text 004's comments (the link to it)",
            biased_from: Some(2),
            parameter: None,
            algorithm: Algorithm::Permutation(PermutationAlgorithm::AsfPoker),
        },
    ];

    const CHECKS: &'static [CheckCase] = &[
        // Biased (naive swap that never targets the last card); exact: 258 shuffles
        // needed at n = 4. 20,000 is 78x.
        CheckCase {
            name: "asf-poker",
            n: 4,
            trials: 20_000,
            seed: 17,
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
        ASF_POKER.shuffle_planned::<Self, _, _>(deck, rng, &mut workspace.plan)
    }
}

impl ShuffleFacts for AsfPoker {
    fn swaps(&self) -> Option<SwapPasses> {
        Some(SwapPasses {
            shuffle: ASF_POKER,
            passes: 1,
        })
    }
}
