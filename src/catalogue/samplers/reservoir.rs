//! Algorithm R, reservoir sampling: fair as a subset, not in order.

use crate::catalogue::sampler::{Sampler, SamplerCheck};
use crate::catalogue::{Algorithm, CatalogueEntry, SamplerAlgorithm, SamplerWorkspace};
use crate::randomness::Randomness;

/// Algorithm R (Vitter 1985; Knuth, TAOCP vol. 2, §3.4.2), reservoir sampling over a
/// stream of the `n` items: the reservoir starts as items `0..k`; then item `i` (for
/// `i = k..n`) draws `j = random(i+1)` and replaces `reservoir[j]` when `j < k`.
///
/// It is the streaming counterpart of text 002's BAG-PICK, for when `n` is not known in
/// advance. Every `k`-subset is equally likely (by induction: after item `i`, each of the
/// first `i+1` items is in the reservoir with probability `k/(i+1)`, and all subsets of
/// that size alike). The order of the reservoir is not uniform: an item that stays from
/// the start keeps its slot, so on 3 items with `k = 2` only 3 of the 6 ordered pairs can
/// come out. Only the subset is tested.
pub fn reservoir<R: Randomness + ?Sized>(n: usize, rng: &mut R, out: &mut [u16]) {
    let k = out.len();
    for (item, slot) in out.iter_mut().enumerate() {
        *slot = item as u16;
    }
    for i in k..n {
        let j = rng.index(i + 1);
        if j < k {
            out[j] = i as u16;
        }
    }
}

/// `reservoir` in the catalogue: [`reservoir`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reservoir;

impl Sampler for Reservoir {
    const ENTRIES: &'static [CatalogueEntry] = &[
        CatalogueEntry {
            name: "reservoir",
            summary: "Algorithm R: keep items 0..k, then item i replaces slot random(i+1) if < k",
            origin: "Algorithm R (Vitter 1985; Knuth TAOCP 3.4.2), the streaming counterpart of text 002's BAG-PICK",
            biased_from: None,
            parameter: None,
            algorithm: Algorithm::Sampler(SamplerAlgorithm::Reservoir),
        },
    ];

    const CHECKS: &'static [SamplerCheck] = &[
        // Fair; 5,000 expected per subset.
        SamplerCheck {
            name: "reservoir",
            n: 6,
            k: 3,
            trials: 100_000,
            seed: 16,
        },
    ];

    const ORDER_NOT_RANDOM: Option<&'static str> = Some("a reservoir item keeps the slot it replaced");

    #[inline(always)]
    fn sample<R: Randomness + ?Sized>(self, n: usize, rng: &mut R, out: &mut [u16], _workspace: &mut SamplerWorkspace) {
        reservoir(n, rng, out)
    }
}
