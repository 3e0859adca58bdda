//! The first `k` steps of Fisher–Yates: fair, in order too.

use crate::catalogue::sampler::{Sampler, SamplerCheck};
use crate::catalogue::{Algorithm, CatalogueEntry, SamplerAlgorithm, SamplerWorkspace};
use crate::randomness::Randomness;
use crate::randomness::batched::each_draw;

/// The first `k` steps of Durstenfeld's Fisher–Yates from the end, as a text 004 commenter
/// proposes ("run KFY for m steps and take the cards you've selected"): for
/// `i = n-1` down to `n-k`, swap `deck[i]` with `deck[random(i+1)]`; the selection is
/// `deck[n-1], deck[n-2], …, deck[n-k]`, in the order selected.
///
/// Step `j` picks uniformly among the `n-j` items not yet selected, so every ordered
/// selection of `k` distinct items has probability `(n-k)!/n!`: fair as a subset, and the
/// order is uniformly random too. `deck` is scratch space, reset to `0..n` on each call.
pub fn partial_fisher_yates<R: Randomness + ?Sized>(
    n: usize,
    rng: &mut R,
    out: &mut [u16],
    deck: &mut Vec<u16>,
) {
    deck.clear();
    deck.extend(0..n as u16);
    // Step `s` is `i = n-1-s`; the bounds do not depend on the answers, so the default
    // source answers a word's worth at a time ([`each_draw`]).
    let steps = out.len().min(n);
    each_draw(
        rng,
        steps,
        n as u64,
        |s| (n - s) as u64,
        |s, j| {
            let i = n - 1 - s;
            deck.swap(i, j);
            out[s] = deck[i];
        },
    );
}

/// `partial-fisher-yates` in the catalogue: [`partial_fisher_yates`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PartialFisherYates;

impl Sampler for PartialFisherYates {
    const ENTRIES: &'static [CatalogueEntry] = &[
        CatalogueEntry {
            name: "partial-fisher-yates",
            summary: "the first k steps of Fisher-Yates from the end; the cards moved, in order",
            origin: "text 004's comments (\"run KFY for m steps and take the cards you've selected\")",
            biased_from: None,
            parameter: None,
            algorithm: Algorithm::Sampler(SamplerAlgorithm::PartialFisherYates),
        },
    ];

    const CHECKS: &'static [SamplerCheck] = &[
        // Fair, in order too; 6!/3! = 120 ordered selections: 1,667 expected per cell.
        SamplerCheck {
            name: "partial-fisher-yates",
            n: 6,
            k: 3,
            trials: 200_000,
            seed: 15,
        },
    ];

    const ORDER_NOT_RANDOM: Option<&'static str> = None;

    #[inline(always)]
    fn sample<R: Randomness + ?Sized>(self, n: usize, rng: &mut R, out: &mut [u16], workspace: &mut SamplerWorkspace) {
        partial_fisher_yates(n, rng, out, &mut workspace.deck)
    }
}
