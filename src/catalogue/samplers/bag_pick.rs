//! Selection sampling as text 002's BAG-PICK pseudocode has it: fair.

use crate::catalogue::sampler::{Sampler, SamplerCheck};
use crate::catalogue::{Algorithm, CatalogueEntry, SamplerAlgorithm, SamplerWorkspace};
use crate::randomness::Randomness;

/// Text 002's BAG-PICK pseudocode (selection sampling, Knuth's Algorithm S): walk the items
/// in order and keep item `current` when `random(max) < remaining`, where `max` items are
/// left to look at and `remaining` picks are still to make. Each item is kept with exactly
/// the conditional probability a uniform subset gives it, so every `k`-subset has
/// probability `1/C(n, k)`: fair. The picks come out in increasing order.
///
/// Stops as soon as the last pick is made, so it draws between `k` and `n` times.
pub fn bag_pick<R: Randomness + ?Sized>(n: usize, rng: &mut R, out: &mut [u16]) {
    let mut max = n;
    let mut remaining = out.len();
    let mut current = 0;
    while remaining > 0 {
        if rng.index(max) < remaining {
            out[out.len() - remaining] = current as u16;
            remaining -= 1;
        }
        max -= 1;
        current += 1;
    }
}

/// `bag-pick` in the catalogue: [`bag_pick`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BagPick;

impl Sampler for BagPick {
    const ENTRIES: &'static [CatalogueEntry] = &[
        CatalogueEntry {
            name: "bag-pick",
            summary: "text 002's BAG-PICK: keep item i when random(items left) < picks left",
            origin: "text 002 (BAG-PICK pseudocode)",
            biased_from: None,
            parameter: None,
            algorithm: Algorithm::Sampler(SamplerAlgorithm::BagPick),
        },
    ];

    const CHECKS: &'static [SamplerCheck] = &[
        // Fair; C(6, 3) = 20 subsets: 5,000 expected per subset.
        SamplerCheck {
            name: "bag-pick",
            n: 6,
            k: 3,
            trials: 100_000,
            seed: 13,
        },
    ];

    const ORDER_NOT_RANDOM: Option<&'static str> = Some("bag-pick outputs its picks in increasing order");

    #[inline(always)]
    fn sample<R: Randomness + ?Sized>(self, n: usize, rng: &mut R, out: &mut [u16], _workspace: &mut SamplerWorkspace) {
        bag_pick(n, rng, out)
    }
}
