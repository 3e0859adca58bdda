//! What a sampler of the catalogue declares about itself, in its own file under
//! `samplers/`: the names it is listed under, how it picks `k` of `n` items, whether the
//! order of its picks is random too, and its `check` cases. The registry (`samplers.rs`)
//! lists the samplers one line each and makes [`SamplerAlgorithm`] of them, as the
//! shuffles' registry does (`shuffle.rs`).

use super::{CatalogueEntry, SamplerAlgorithm, SamplerWorkspace};
use crate::randomness::Randomness;

/// A sampler of the catalogue.
pub trait Sampler: Copy + Into<SamplerAlgorithm> + 'static {
    /// The names it is listed under, in `list`'s order.
    const ENTRIES: &'static [CatalogueEntry];

    /// Its cases in `check`'s default suite, in order.
    const CHECKS: &'static [SamplerCheck] = &[];

    /// `None` if the order of its picks is uniformly random as well as the subset (so the
    /// ordered selections can be tested); otherwise why it is not, for the report.
    const ORDER_NOT_RANDOM: Option<&'static str>;

    /// Picks `out.len()` of the items `0..n` into `out`, drawing only from `rng`, with
    /// `workspace`'s scratch space. Inlined into the engine's loop over the samples.
    fn sample<R: Randomness + ?Sized>(
        self,
        n: usize,
        rng: &mut R,
        out: &mut [u16],
        workspace: &mut SamplerWorkspace,
    );
}

/// Hands a sampler to generic code as its own type ([`SamplerAlgorithm::visit`]).
pub trait SamplerVisitor {
    /// What the visit gives back.
    type Output;
    /// Does the work with `sampler`.
    fn visit<S: Sampler>(self, sampler: S) -> Self::Output;
}

/// One case of `check`'s default suite: `trials` samples of `k` of `n` items with `seed`,
/// with why that size and count beside it in the sampler's file.
#[derive(Clone, Copy, Debug)]
pub struct SamplerCheck {
    /// The name as typed.
    pub name: &'static str,
    /// Items.
    pub n: usize,
    /// Picks.
    pub k: usize,
    /// Samples.
    pub trials: u64,
    /// The case's seed (unique within the suite).
    pub seed: u64,
}
