//! The registry of shuffles: one line each, in the order `list` prints them.
//!
//! Each line names a shuffle's type, its parameters and the file under `shuffles/` that
//! declares everything about it ([`Shuffle`]: its entries, its code, its facts, its
//! `check` cases). From the lines, `registry!` makes the module declarations, the
//! [`PermutationAlgorithm`] enum (one variant per shuffle, its parameters as fields),
//! the conversions between each type and its variant, the one `match` that hands a
//! variant to generic code as its own type ([`PermutationAlgorithm::visit`]), and the
//! lists [`SHUFFLES`] and [`SHUFFLE_CHECKS`]. Everything else about a shuffle is asked
//! of it through those, so adding one is a new file and a line here (hyperfine adds an
//! exporter the same way).

use super::shuffle::{CheckCase, Shuffle, ShuffleFacts, SwapShuffle, Visitor};
use super::{CatalogueEntry, Parameter, Workspace, concatenated};
use crate::randomness::Randomness;

/// Declares the shuffles: `Type { field: type, .. } in module,` one per line.
macro_rules! registry {
    ($( $Type:ident $({ $($field:ident : $ty:ty),* $(,)? })? in $module:ident, )*) => {
        $( mod $module; pub use $module::*; )*

        /// How a catalogue shuffle rearranges a deck: one variant per shuffle of the
        /// registry, with its type's parameters as fields. Parameters that default to a
        /// function of the deck size are kept as `None` until a run fixes `n`
        /// ([`PermutationAlgorithm::resolve`]).
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum PermutationAlgorithm {
            $(
                #[doc = concat!("[`", stringify!($Type), "`], its parameters as fields.")]
                $Type $({ $( #[doc = concat!("[`", stringify!($Type), "`]'s `", stringify!($field), "`.")] $field: $ty ),* })?,
            )*
        }

        $(
            impl From<$Type> for PermutationAlgorithm {
                #[inline(always)]
                fn from(shuffle: $Type) -> Self {
                    let $Type $({ $($field),* })? = shuffle;
                    PermutationAlgorithm::$Type $({ $($field),* })?
                }
            }
        )*

        impl PermutationAlgorithm {
            /// Hands the shuffle to `visitor` as its own type: the only `match` on the
            /// shuffles, so that generic code (the engine's loops) is compiled for each.
            #[inline(always)]
            pub fn visit<V: Visitor>(self, visitor: V) -> V::Output {
                match self {
                    $( PermutationAlgorithm::$Type $({ $($field),* })? => visitor.visit($Type $({ $($field),* })?), )*
                }
            }
        }

        /// Every shuffle's entries, in the registry's order.
        const ALL_ENTRIES: [CatalogueEntry; 0 $(+ <$Type as Shuffle>::ENTRIES.len())*] =
            concatenated(&[$(<$Type as Shuffle>::ENTRIES),*]);

        /// Every shuffle's `check` cases, in the registry's order.
        const ALL_CHECKS: [CheckCase; 0 $(+ <$Type as Shuffle>::CHECKS.len())*] =
            concatenated(&[$(<$Type as Shuffle>::CHECKS),*]);
    };
}

registry! {
    NaiveSwap in naive_swap,
    FisherYates in fisher_yates,
    FisherYatesForward in fisher_yates_forward,
    Sattolo in sattolo,
    RoguelikeShuffle in roguelike_shuffle,
    NaiveRepeated { passes: Option<u32> } in naive_repeated,
    SortRandomKey in sort_random_key,
    SortRandomKeyU8 in sort_random_key_u8,
    SortComparatorInsertion in sort_comparator_insertion,
    SortComparatorMerge in sort_comparator_merge,
    InsertWithRetry in insert_with_retry,
    Riffle in riffle,
    AsfPoker in asf_poker,
    Riffles { times: u32 } in riffles,
    DealerRiffles { times: u32 } in dealer_riffles,
    Overhand { times: u32 } in overhand,
    Shelf { shelves: u32, passes: u32 } in shelf,
    Pile { piles: u32, random: bool } in pile,
}

/// Every shuffle in the catalogue, in the order `list` prints them.
pub const SHUFFLES: &[CatalogueEntry] = &ALL_ENTRIES;

/// Every shuffle's cases in `check`'s default suite, in the registry's order.
pub const SHUFFLE_CHECKS: &[CheckCase] = &ALL_CHECKS;

impl PermutationAlgorithm {
    /// Asks the shuffle a question of [`ShuffleFacts`].
    pub fn facts<O>(&self, ask: impl FnOnce(&dyn ShuffleFacts) -> O) -> O {
        struct Ask<F>(F);
        impl<O, F: FnOnce(&dyn ShuffleFacts) -> O> Visitor for Ask<F> {
            type Output = O;
            fn visit<S: Shuffle>(self, shuffle: S) -> O {
                (self.0)(&shuffle)
            }
        }
        self.visit(Ask(ask))
    }

    /// The shuffle `entry` names with `value` after its colon, or what is wrong with it
    /// ([`Shuffle::with_parameter`]); `self` is the entry's algorithm.
    pub(crate) fn with_parameter(
        self,
        entry: &CatalogueEntry,
        parameter: &Parameter,
        value: &str,
    ) -> Result<Self, String> {
        struct WithParameter<'a>(&'a CatalogueEntry, &'a Parameter, &'a str);
        impl Visitor for WithParameter<'_> {
            type Output = Result<PermutationAlgorithm, String>;
            fn visit<S: Shuffle>(self, _default: S) -> Self::Output {
                S::with_parameter(self.0, self.1, self.2).map(Into::into)
            }
        }
        self.visit(WithParameter(entry, parameter, value))
    }

    /// Fixes parameters that default to a function of the deck size.
    pub fn resolve(self, n: usize) -> Self {
        struct Resolve(usize);
        impl Visitor for Resolve {
            type Output = PermutationAlgorithm;
            fn visit<S: Shuffle>(self, shuffle: S) -> PermutationAlgorithm {
                shuffle.resolve(self.0).into()
            }
        }
        self.visit(Resolve(n))
    }

    /// Whether each shuffle continues from the previous one (a dealer who carries the
    /// deck) instead of rearranging the deck handed in afresh
    /// ([`ShuffleFacts::deals_follow_by`]).
    pub fn carries_deck_between_deals(&self) -> bool {
        self.facts(|shuffle| shuffle.deals_follow_by().is_some())
    }

    /// The swap shuffle this algorithm is, run once, if it is one: its draws and swaps,
    /// which `exact` walks by swapping.
    pub(crate) fn swap_shuffle(&self) -> Option<SwapShuffle> {
        self.facts(|shuffle| shuffle.swaps())
            .filter(|swaps| swaps.passes == 1)
            .map(|swaps| swaps.shuffle)
    }

    /// The bounds of the draws one shuffle of `n` cards makes, in order, for algorithms
    /// whose draws do not depend on earlier answers ([`ShuffleFacts::draw_schedule`]).
    pub fn draw_schedule(&self, n: usize) -> Option<Vec<u64>> {
        self.resolve(n).facts(|shuffle| shuffle.draw_schedule(n))
    }

    /// Whether it is fair on decks of every size (its entries list no size from which it
    /// is biased).
    pub fn fair_at_every_size(&self) -> bool {
        struct Fair;
        impl Visitor for Fair {
            type Output = bool;
            fn visit<S: Shuffle>(self, shuffle: S) -> bool {
                S::ENTRIES
                    .iter()
                    .all(|entry| shuffle.biased_from(entry.biased_from).is_none())
            }
        }
        self.visit(Fair)
    }

    /// Shuffles `deck` in place, drawing only from `rng`.
    #[inline]
    pub fn shuffle<T: Copy, R: Randomness + ?Sized>(
        &self,
        deck: &mut [T],
        rng: &mut R,
        workspace: &mut Workspace<T>,
    ) {
        self.shuffle_each(std::iter::once(deck), rng, workspace);
    }

    /// Shuffles every deck `decks` yields, in order, drawing only from `rng`.
    ///
    /// The batch form of [`PermutationAlgorithm::shuffle`]: the shuffle is found once
    /// per batch ([`PermutationAlgorithm::visit`]), and the loop over the decks compiled
    /// for it alone, instead of a dispatch per shuffle.
    #[inline]
    pub fn shuffle_each<T, R, D>(
        &self,
        decks: impl Iterator<Item = D>,
        rng: &mut R,
        workspace: &mut Workspace<T>,
    ) where
        T: Copy,
        R: Randomness + ?Sized,
        D: AsMut<[T]>,
    {
        self.shuffle_each_until(decks, rng, workspace, || false);
    }

    /// [`PermutationAlgorithm::shuffle_each`], with `stop` asked inside the deals that can
    /// take seconds each (`naive-repeated:K` and `overhand:K` with a large K; see
    /// [`naive_repeated_until`]): once it says so, those deals end part way, and the decks
    /// are the caller's to throw away. Every other shuffle never asks.
    #[inline]
    pub fn shuffle_each_until<T, R, D>(
        &self,
        decks: impl Iterator<Item = D>,
        rng: &mut R,
        workspace: &mut Workspace<T>,
        stop: impl Fn() -> bool,
    ) where
        T: Copy,
        R: Randomness + ?Sized,
        D: AsMut<[T]>,
    {
        self.visit(EachDeck {
            decks,
            rng,
            workspace,
            stop,
        });
    }
}

/// The engine's loop over a batch of decks, compiled for one shuffle.
struct EachDeck<'a, I, R: ?Sized, T, F> {
    decks: I,
    rng: &'a mut R,
    workspace: &'a mut Workspace<T>,
    stop: F,
}

impl<I, D, R, T, F> Visitor for EachDeck<'_, I, R, T, F>
where
    I: Iterator<Item = D>,
    D: AsMut<[T]>,
    R: Randomness + ?Sized,
    T: Copy,
    F: Fn() -> bool,
{
    type Output = ();

    /// The shuffle is called directly in the loop, not through a closure: with its
    /// batched draws ([`crate::randomness::batched`]) a shuffle is too large for the
    /// compiler to inline a closure that calls it, and a 3-card Fisher–Yates called out of
    /// line, its deck's length unknown, ran at a seventh of its speed; a shared loop that
    /// took the ASF poker shuffle as a closure was compiled as a call per deck, sending
    /// the generator's state to memory and back at every deck (issue 43).
    #[inline(always)]
    fn visit<S: Shuffle>(self, shuffle: S) {
        let EachDeck {
            decks,
            rng,
            workspace,
            stop,
        } = self;
        for mut deck in decks {
            rng.begin_trial();
            shuffle.shuffle(deck.as_mut(), rng, workspace, &stop);
        }
    }
}
