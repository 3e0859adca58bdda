//! Text 002's BagPick C code as printed: it stores the picks left, not the item.

use crate::catalogue::sampler::{Sampler, SamplerCheck};
use crate::catalogue::{Algorithm, CatalogueEntry, SamplerAlgorithm, SamplerWorkspace};
use crate::randomness::Randomness;

/// Text 002's C code exactly as printed:
///
/// ```c
/// for(i=0;x>0;i++) {
///   if (random(n--) < x) *dest++=x--;
/// }
/// ```
///
/// It makes the same draws as [`bag_pick`] but stores `x`, the number of picks still to
/// make, where the pseudocode stores `current` (here `i`). So whatever the draws, it writes
/// `k, k-1, …, 1`: a single subset, every time. Item 0 and items `k+1..n` are never picked.
/// Biased for every `1 <= k < n`.
///
/// With `k = n` it would write the item `n`, which does not exist, as the C code does;
/// the command line only accepts `k < n`.
pub fn bag_pick_c<R: Randomness + ?Sized>(n: usize, rng: &mut R, out: &mut [u16]) {
    let mut n = n;
    let mut x = out.len();
    let mut dest = 0;
    // The C code's `i` counts the items looked at and is never read: that is the bug.
    while x > 0 {
        let drawn = rng.index(n);
        n -= 1;
        if drawn < x {
            out[dest] = x as u16;
            dest += 1;
            x -= 1;
        }
    }
}

/// `bag-pick-c` in the catalogue: [`bag_pick_c`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BagPickC;

impl Sampler for BagPickC {
    const ENTRIES: &'static [CatalogueEntry] = &[
        CatalogueEntry {
            name: "bag-pick-c",
            summary: "text 002's BagPick C code as printed: stores the picks left (x--), not the item (i)",
            origin: "text 002 (BagPick C code)",
            biased_from: Some(2),
            parameter: None,
            algorithm: Algorithm::Sampler(SamplerAlgorithm::BagPickC),
        },
    ];

    const CHECKS: &'static [SamplerCheck] = &[
        // Biased for any k; exact: 5 samples needed at n = 6, k = 3. 10,000 is 2,000x.
        SamplerCheck {
            name: "bag-pick-c",
            n: 6,
            k: 3,
            trials: 10_000,
            seed: 14,
        },
    ];

    const ORDER_NOT_RANDOM: Option<&'static str> = Some("bag-pick-c always outputs k, k-1, ..., 1");

    #[inline(always)]
    fn sample<R: Randomness + ?Sized>(self, n: usize, rng: &mut R, out: &mut [u16], _workspace: &mut SamplerWorkspace) {
        bag_pick_c(n, rng, out)
    }
}
