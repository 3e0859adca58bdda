//! The registry of samplers: one line each, in the order `list` prints them.
//!
//! A sampler picks `k` of the `n` items `0..n`, without replacement. Its outcome is a set
//! (or, for some, an ordered selection), not a deck, so samplers are a family of their
//! own. As with the shuffles, each one's code is written as its source describes it, not
//! "fixed" (text 002's C code is kept with its bug), writes its `k = out.len()` picks into
//! `out`, draws only through [`Randomness`], and takes its scratch space from the caller.
//!
//! Each line names a sampler's type and the file under `samplers/` that declares
//! everything about it ([`Sampler`]); `samplers!` makes the module declarations,
//! [`SamplerAlgorithm`], its one `match` ([`SamplerAlgorithm::visit`]), [`SAMPLERS`] and
//! [`SAMPLER_CHECKS`].

use super::sampler::{Sampler, SamplerCheck, SamplerVisitor};
use super::{CatalogueEntry, SamplerWorkspace, concatenated};
use crate::randomness::Randomness;

/// Declares the samplers: `Type in module,` one per line.
macro_rules! samplers {
    ($( $Type:ident in $module:ident, )*) => {
        $( mod $module; pub use $module::*; )*

        /// How a catalogue sampler picks `k` of the items `0..n`: one variant per sampler
        /// of the registry.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum SamplerAlgorithm {
            $( #[doc = concat!("[`", stringify!($Type), "`]")] $Type, )*
        }

        $(
            impl From<$Type> for SamplerAlgorithm {
                fn from(_: $Type) -> Self {
                    SamplerAlgorithm::$Type
                }
            }
        )*

        impl SamplerAlgorithm {
            /// Hands the sampler to `visitor` as its own type: the only `match` on the
            /// samplers, so that generic code (the engine's loop) is compiled for each.
            #[inline(always)]
            pub fn visit<V: SamplerVisitor>(self, visitor: V) -> V::Output {
                match self {
                    $( SamplerAlgorithm::$Type => visitor.visit($Type), )*
                }
            }
        }

        /// Every sampler's entries, in the registry's order.
        const ALL_ENTRIES: [CatalogueEntry; 0 $(+ <$Type as Sampler>::ENTRIES.len())*] =
            concatenated(&[$(<$Type as Sampler>::ENTRIES),*]);

        /// Every sampler's `check` cases, in the registry's order.
        const ALL_CHECKS: [SamplerCheck; 0 $(+ <$Type as Sampler>::CHECKS.len())*] =
            concatenated(&[$(<$Type as Sampler>::CHECKS),*]);
    };
}

samplers! {
    BagPick in bag_pick,
    BagPickC in bag_pick_c,
    PartialFisherYates in partial_fisher_yates,
    Reservoir in reservoir,
}

/// Every sampler in the catalogue, in the order `list` prints them.
pub const SAMPLERS: &[CatalogueEntry] = &ALL_ENTRIES;

/// Every sampler's cases in `check`'s default suite, in the registry's order.
pub const SAMPLER_CHECKS: &[SamplerCheck] = &ALL_CHECKS;

impl SamplerAlgorithm {
    /// `None` if the order of the picks is uniformly random as well as the subset (so the
    /// ordered selections can be tested); otherwise why it is not, for the report.
    pub fn order_not_random(&self) -> Option<&'static str> {
        struct Order;
        impl SamplerVisitor for Order {
            type Output = Option<&'static str>;
            fn visit<S: Sampler>(self, _sampler: S) -> Self::Output {
                S::ORDER_NOT_RANDOM
            }
        }
        self.visit(Order)
    }

    /// Whether it promises a uniformly random order of its picks.
    pub fn promises_order(&self) -> bool {
        self.order_not_random().is_none()
    }

    /// Picks `out.len()` of the items `0..n` into `out`, drawing only from `rng`.
    #[inline]
    pub fn sample<R: Randomness + ?Sized>(
        &self,
        n: usize,
        rng: &mut R,
        out: &mut [u16],
        workspace: &mut SamplerWorkspace,
    ) {
        self.sample_each(n, 1, rng, out, workspace, |_| {});
    }

    /// Samples `times` times into `out`, handing each selection to `record`.
    ///
    /// The batch form of [`SamplerAlgorithm::sample`]: the sampler is found once per batch
    /// ([`SamplerAlgorithm::visit`]) and the loop compiled for it alone.
    #[inline]
    pub fn sample_each<R: Randomness + ?Sized>(
        &self,
        n: usize,
        times: u64,
        rng: &mut R,
        out: &mut [u16],
        workspace: &mut SamplerWorkspace,
        record: impl FnMut(&[u16]),
    ) {
        self.visit(EachSample {
            n,
            times,
            rng,
            out,
            workspace,
            record,
        });
    }
}

/// The engine's loop over a batch of samples, compiled for one sampler.
struct EachSample<'a, R: ?Sized, F> {
    n: usize,
    times: u64,
    rng: &'a mut R,
    out: &'a mut [u16],
    workspace: &'a mut SamplerWorkspace,
    record: F,
}

impl<R: Randomness + ?Sized, F: FnMut(&[u16])> SamplerVisitor for EachSample<'_, R, F> {
    type Output = ();

    #[inline(always)]
    fn visit<S: Sampler>(self, sampler: S) {
        let EachSample {
            n,
            times,
            rng,
            out,
            workspace,
            mut record,
        } = self;
        for _ in 0..times {
            rng.begin_trial();
            sampler.sample(n, rng, out, workspace);
            record(out);
        }
    }
}

#[cfg(test)]
mod tests;
