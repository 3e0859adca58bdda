//! The catalogue: every algorithm the tool can audit, with where it comes from and what
//! verdict it is known to get.
//!
//! An entry is data (name, one-line summary, source text, expected verdict, parameter)
//! plus an [`Algorithm`] value that runs it: a [`PermutationAlgorithm`] for the shuffles,
//! which rearrange a whole deck, or a [`SamplerAlgorithm`] for the samplers, which pick
//! `k` of `n` items. The two families produce different outcomes (an order, a subset) and
//! are tallied and tested differently, so the type says which one an entry belongs to.
//! Keeping the expected verdict next to the code is what lets tests and, later, `check`
//! say "this one must fail" without a second list that could drift. Names of both families
//! are parsed here too (`naive-repeated:3`), with suggestions for near misses.

mod dealer;
mod entries;
pub mod generators;
pub mod items;
pub(crate) mod names;
mod overhand;
mod riffles;
mod samplers;
mod shelf;
mod shuffles;
mod sorts;

use serde::Serialize;

use crate::error::{Error, Result};
use crate::randomness::Randomness;
use crate::randomness::batched::DrawPlan;
use crate::stats::Verdict;

pub use dealer::{DealerState, dealer_riffles};
pub use entries::{SAMPLERS, SHUFFLES, entries};
pub use names::{AlgorithmSpec, suggestion_among};
pub use overhand::{overhand, overhands, overhands_until};
pub use riffles::{gsr_riffle, riffles};
pub use samplers::{bag_pick, bag_pick_c, partial_fisher_yates, reservoir};
pub use shelf::{MAX_PASSES, MAX_SHELVES, ShelfScratch, shelf_pass, shelf_passes};
use shuffles::{
    ASF_POKER, FISHER_YATES, FISHER_YATES_FORWARD, NAIVE_SWAP, ROGUELIKE_SHUFFLE, SATTOLO, passes_until,
};
pub(crate) use shuffles::{SWAP_SHUFFLES, SwapShuffle};
pub use shuffles::{
    asf_poker, fisher_yates, fisher_yates_forward, insert_with_retry, naive_repeated, naive_repeated_until,
    naive_swap, riffle, roguelike_shuffle, sattolo,
};
pub use sorts::{sort_comparator_insertion, sort_comparator_merge, sort_random_key, sort_random_key_u8};

/// The verdict an exact analysis would give at a given deck size.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Expectation {
    /// Every outcome (order or subset) is exactly (or, for float keys, all but negligibly)
    /// equally likely.
    Fair,
    /// Some outcomes are more likely than others.
    Biased,
}

/// Which family an entry belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// Rearranges a deck of `n` cards (`run ALG --n N`).
    Shuffle,
    /// Picks `k` of `n` items (`run ALG --n N --k K`).
    Sampler,
}

impl std::fmt::Display for Kind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Kind::Shuffle => "shuffle",
            Kind::Sampler => "sampler",
        })
    }
}

impl Expectation {
    /// Whether `verdict` is the one this expectation calls for: `pass` for a fair
    /// algorithm, `fail` for a biased one. `suspicious` and `inconclusive` meet neither:
    /// a result that is not shown one way or the other is not as it should be.
    ///
    /// This is the rule every command's exit status follows (`check` per case; `run`,
    /// `stream`, `exact`, `merge` and `report` per result, against the catalogue; `ingest`
    /// against a fair shuffle).
    pub fn is_met_by(self, verdict: Verdict) -> bool {
        matches!(
            (self, verdict),
            (Expectation::Fair, Verdict::Pass) | (Expectation::Biased, Verdict::Fail)
        )
    }
}

/// One result's verdict beside the one it should have: what an exit status is read from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Graded {
    /// The result's name as it ran (`naive-repeated:3`).
    pub name: String,
    /// What it should get.
    pub expected: Expectation,
    /// What it got.
    pub verdict: Verdict,
}

impl Graded {
    /// Whether the verdict is the expected one ([`Expectation::is_met_by`]).
    pub fn as_expected(&self) -> bool {
        self.expected.is_met_by(self.verdict)
    }
}

impl std::fmt::Display for Expectation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Expectation::Fair => "fair",
            Expectation::Biased => "biased",
        })
    }
}

/// The one parameter an entry may take after a colon.
#[derive(Clone, Copy, Debug, Serialize, schemars::JsonSchema)]
pub struct Parameter {
    /// Its name in the docs, e.g. `K`.
    pub name: &'static str,
    /// What it means.
    pub meaning: &'static str,
    /// Its value when omitted.
    pub default: &'static str,
}

/// One algorithm of the catalogue.
#[derive(Clone, Copy, Debug, Serialize, schemars::JsonSchema)]
pub struct CatalogueEntry {
    /// The name used on the command line.
    pub name: &'static str,
    /// One line saying what it does.
    pub summary: &'static str,
    /// The source text(s) it comes from (files in the seed index).
    pub origin: &'static str,
    /// `None`: fair at every size. `Some(m)`: biased for decks (or sets of items) of `m`
    /// or more (and trivially fair below). Samplers run only with `1 <= k < n`.
    #[serde(skip)]
    pub biased_from: Option<usize>,
    /// The parameter it takes, if any.
    pub parameter: Option<Parameter>,
    #[serde(skip)]
    algorithm: Algorithm,
}

impl CatalogueEntry {
    /// The verdict it is known to get on a deck of `n` cards.
    pub fn expected_at(&self, n: usize) -> Expectation {
        match self.biased_from {
            Some(from) if n >= from => Expectation::Biased,
            _ => Expectation::Fair,
        }
    }

    /// The verdict it is known to get on decks of realistic size, in words for `list`.
    pub fn expected_in_words(&self) -> String {
        match (self.biased_from, self.kind()) {
            (None, _) => "fair".to_string(),
            // A sampler runs with 1 <= k < n, so n >= 2 always holds.
            (Some(2), Kind::Sampler) => "biased (any k)".to_string(),
            (Some(from), _) => format!("biased (n >= {from})"),
        }
    }

    /// Whether it shuffles or samples.
    pub fn kind(&self) -> Kind {
        self.algorithm.kind()
    }

    /// What runs when the entry is named without a parameter.
    pub fn algorithm(&self) -> Algorithm {
        self.algorithm
    }
}

/// What an entry runs: a shuffle or a sampler.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Algorithm {
    /// Rearranges a deck.
    Permutation(PermutationAlgorithm),
    /// Picks `k` of `n` items.
    Sampler(SamplerAlgorithm),
}

impl Algorithm {
    /// Its family.
    pub fn kind(&self) -> Kind {
        match self {
            Algorithm::Permutation(_) => Kind::Shuffle,
            Algorithm::Sampler(_) => Kind::Sampler,
        }
    }

    /// The shuffle, if it is one.
    pub fn as_permutation(&self) -> Option<PermutationAlgorithm> {
        match *self {
            Algorithm::Permutation(algorithm) => Some(algorithm),
            Algorithm::Sampler(_) => None,
        }
    }

    /// The sampler, if it is one.
    pub fn as_sampler(&self) -> Option<SamplerAlgorithm> {
        match *self {
            Algorithm::Sampler(algorithm) => Some(algorithm),
            Algorithm::Permutation(_) => None,
        }
    }
}

/// How a catalogue shuffle rearranges a deck. Parameters that default to a function of
/// the deck size are kept as `None` until a run fixes `n` ([`PermutationAlgorithm::resolve`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PermutationAlgorithm {
    /// [`naive_swap`]
    NaiveSwap,
    /// [`fisher_yates`]
    FisherYates,
    /// [`fisher_yates_forward`]
    FisherYatesForward,
    /// [`sattolo`]
    Sattolo,
    /// [`roguelike_shuffle`]
    RoguelikeShuffle,
    /// [`naive_repeated`]; `passes: None` means one pass per card.
    NaiveRepeated {
        /// Number of naive passes.
        passes: Option<u32>,
    },
    /// [`sort_random_key`]
    SortRandomKey,
    /// [`sort_random_key_u8`]
    SortRandomKeyU8,
    /// [`sort_comparator_insertion`]
    SortComparatorInsertion,
    /// [`sort_comparator_merge`]
    SortComparatorMerge,
    /// [`insert_with_retry`]
    InsertWithRetry,
    /// [`riffle`]
    Riffle,
    /// [`asf_poker`]
    AsfPoker,
    /// [`riffles`]: `times` Gilbert–Shannon–Reeds riffles of the deck handed in.
    Riffles {
        /// Number of riffles (1 to [`MAX_RIFFLES`]).
        times: u32,
    },
    /// [`dealer_riffles`]: the previous deal riffled `times` times. Its deals depend on
    /// each other: see [`PermutationAlgorithm::carries_deck_between_deals`].
    DealerRiffles {
        /// Number of riffles per deal (1 to [`MAX_RIFFLES`]).
        times: u32,
    },
    /// [`overhands`]: `times` overhand shuffles in Pemantle's model.
    Overhand {
        /// Number of overhand shuffles.
        times: u32,
    },
    /// [`shelf_passes`]: `passes` passes through a casino shelf shuffler with `shelves`
    /// shelves (Diaconis, Fulman & Holmes 2013).
    Shelf {
        /// Number of shelves (1 to [`MAX_SHELVES`]).
        shelves: u32,
        /// Number of passes (1 to [`MAX_PASSES`]).
        passes: u32,
    },
}

/// The most riffles `riffles:K` and `dealer-riffles:K` take: far past the point where
/// any deck the tool runs (2,000 cards need about 17) is mixed, and the most the exact
/// closed form ([`crate::exact::riffles`]) computes.
pub const MAX_RIFFLES: u32 = 64;

/// Scratch space reused across trials so that simulating an algorithm that needs a second
/// array does not allocate once per shuffle; and the deck a dealer carries from one deal
/// to the next ([`Workspace::start_dealing`]).
#[derive(Debug)]
pub struct Workspace<T> {
    cards: Vec<T>,
    flags: Vec<bool>,
    f64_keys: Vec<(f64, T)>,
    u8_keys: Vec<(u8, T)>,
    dealer: DealerState,
    shelf: ShelfScratch<T>,
    /// The words of the last swap shuffle run through this workspace, planned for its
    /// deck size: `(shuffle id, cards, plan)`.
    plan: Option<(u8, usize, DrawPlan)>,
}

impl<T> Default for Workspace<T> {
    fn default() -> Self {
        Self {
            cards: Vec::new(),
            flags: Vec::new(),
            f64_keys: Vec::new(),
            u8_keys: Vec::new(),
            dealer: DealerState::default(),
            shelf: ShelfScratch::default(),
            plan: None,
        }
    }
}

impl<T> Workspace<T> {
    /// Starts a series of deals: a dealer who carries the deck
    /// ([`PermutationAlgorithm::carries_deck_between_deals`]) starts again from the deck it
    /// is handed next, and from then on each shuffle through this workspace continues from
    /// the previous one. The engine calls this at the start of every chunk, so that a
    /// chunk's deals depend on `(seed, chunk)` alone. Without it every shuffle is the
    /// first deal of a new dealer (what exact enumeration and `seeds` need).
    pub fn start_dealing(&mut self) {
        self.dealer.start_series();
    }
}

/// Shuffles every deck: the loop each arm of `shuffle_each` compiles into. A macro, so
/// that the shuffle is called directly in the loop, not through a closure: with its
/// batched draws ([`crate::randomness::batched`]) a shuffle is too large for the compiler
/// to inline a closure that calls it, and a 3-card Fisher–Yates called out of line, its
/// deck's length unknown, ran at a seventh of its speed.
macro_rules! each {
    ($decks:expr, $rng:expr, |$deck:ident, $source:ident| $body:expr) => {{
        // The arms name the source `rng`, as the function does: the same binding.
        #[allow(clippy::redundant_locals)]
        let $source = $rng;
        for mut deck in $decks {
            $source.begin_trial();
            let $deck: &mut [_] = deck.as_mut();
            $body;
        }
    }};
    ($decks:expr, $rng:expr, $shuffle:path) => {
        each!($decks, $rng, |deck, rng| $shuffle(deck, rng))
    };
}

/// A swap shuffle over every deck, its words planned ([`planned_words`]), through
/// [`each!`]'s loop: the shuffle called directly. A shared loop that took the shuffle as
/// a closure was compiled as a call per deck for the ASF poker's shuffle on 13 cards,
/// sending the generator's state to memory and back at every deck (0.84x of the
/// unplanned build's speed, issue 43).
macro_rules! each_swap {
    ($decks:expr, $rng:expr, $workspace:expr, $shuffle:expr) => {
        each!($decks, $rng, |deck, rng| {
            let plan = planned_words(&mut $workspace.plan, $shuffle, deck.len());
            $shuffle.shuffle_with(deck, rng, plan)
        })
    };
}

impl PermutationAlgorithm {
    /// Fixes parameters that default to a function of the deck size.
    pub fn resolve(self, n: usize) -> Self {
        match self {
            PermutationAlgorithm::NaiveRepeated { passes: None } => PermutationAlgorithm::NaiveRepeated {
                passes: Some(default_passes(n)),
            },
            other => other,
        }
    }

    /// Whether each shuffle continues from the previous one (a dealer who carries the
    /// deck) instead of rearranging the deck handed in afresh. Such an algorithm's deals
    /// are not independent: a tally of single deals misses what it does, a random path
    /// describes only a series' first deal (so it is never tallied by path, and its
    /// enumerated law is not the law of its deals), and its deals are only reproducible
    /// within a series started by [`Workspace::start_dealing`].
    pub fn carries_deck_between_deals(&self) -> bool {
        matches!(self, PermutationAlgorithm::DealerRiffles { .. })
    }

    /// The swap shuffle this algorithm is, if it is one: its draws and swaps, which
    /// `exact` walks by swapping.
    pub(crate) fn swap_shuffle(&self) -> Option<SwapShuffle> {
        match self {
            PermutationAlgorithm::NaiveSwap => Some(NAIVE_SWAP),
            PermutationAlgorithm::FisherYates => Some(FISHER_YATES),
            PermutationAlgorithm::FisherYatesForward => Some(FISHER_YATES_FORWARD),
            PermutationAlgorithm::Sattolo => Some(SATTOLO),
            PermutationAlgorithm::RoguelikeShuffle => Some(ROGUELIKE_SHUFFLE),
            PermutationAlgorithm::AsfPoker => Some(ASF_POKER),
            _ => None,
        }
    }

    /// The id of the swap shuffle this algorithm is ([`SWAP_SHUFFLES`]), if it is one: the
    /// simulator compiles a loop for each alone.
    pub(crate) fn swap_shuffle_id(&self) -> Option<u8> {
        self.swap_shuffle().map(|shuffle| shuffle.id)
    }

    /// The bounds of the draws one shuffle of `n` cards makes, in order, for algorithms
    /// whose draws do not depend on earlier answers; `None` for the others (sorts, retries,
    /// coin-driven merges) and for schedules too long to be worth listing.
    ///
    /// A fixed schedule makes the sequence of answers (the random path) a complete
    /// description of a shuffle, which the simulator uses to tally small decks by path
    /// (see `simulate`). Tests check every schedule against the draws the code really makes.
    pub fn draw_schedule(&self, n: usize) -> Option<Vec<u64>> {
        /// Beyond this many draws the path space exceeds 2^64 for any deck worth tallying.
        const LONGEST_LISTED: usize = 64;
        let cards = n as u64;
        match self.resolve(n) {
            PermutationAlgorithm::NaiveSwap => Some(vec![cards; n]),
            PermutationAlgorithm::FisherYates | PermutationAlgorithm::FisherYatesForward => {
                Some((2..=cards).rev().collect())
            }
            PermutationAlgorithm::Sattolo => Some((1..cards).rev().collect()),
            PermutationAlgorithm::RoguelikeShuffle => Some((1..cards).collect()),
            PermutationAlgorithm::AsfPoker if n >= 2 => Some(vec![cards - 1; n]),
            PermutationAlgorithm::AsfPoker => Some(Vec::new()),
            PermutationAlgorithm::NaiveRepeated { passes: Some(passes) } => {
                let draws = n.checked_mul(passes as usize)?;
                (draws <= LONGEST_LISTED).then(|| vec![cards; draws])
            }
            // One coin per slot between adjacent cards, per shuffle.
            PermutationAlgorithm::Overhand { times } => {
                let draws = n.saturating_sub(1).checked_mul(times as usize)?;
                (draws <= LONGEST_LISTED).then(|| vec![2; draws])
            }
            // One draw per card and pass: a shelf and a side.
            PermutationAlgorithm::Shelf { shelves, passes } => {
                let draws = n.checked_mul(passes as usize)?;
                (draws <= LONGEST_LISTED).then(|| vec![2 * u64::from(shelves); draws])
            }
            // Riffles draw from the packets' sizes, which depend on the cut; a dealer's
            // deal depends on the previous one, so a path does not describe it.
            PermutationAlgorithm::Riffles { .. } | PermutationAlgorithm::DealerRiffles { .. } => None,
            _ => None,
        }
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
    /// The batch form of [`PermutationAlgorithm::shuffle`] and the only place that
    /// matches on the algorithm: the match runs once per batch and each arm is a tight
    /// loop the compiler specialises, instead of a dispatch per shuffle.
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
    /// [`naive_repeated_until`]): once it says so, those deals end part way, and
    /// the decks are the caller's to throw away. Every other shape never asks.
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
        match *self {
            PermutationAlgorithm::NaiveSwap => each_swap!(decks, rng, workspace, NAIVE_SWAP),
            PermutationAlgorithm::FisherYates => each_swap!(decks, rng, workspace, FISHER_YATES),
            PermutationAlgorithm::FisherYatesForward => {
                each_swap!(decks, rng, workspace, FISHER_YATES_FORWARD)
            }
            PermutationAlgorithm::Sattolo => each_swap!(decks, rng, workspace, SATTOLO),
            PermutationAlgorithm::RoguelikeShuffle => {
                each_swap!(decks, rng, workspace, ROGUELIKE_SHUFFLE)
            }
            PermutationAlgorithm::NaiveRepeated { passes } => {
                each!(decks, rng, |deck, rng| {
                    let cards = deck.len();
                    let passes = passes.unwrap_or_else(|| default_passes(cards));
                    let plan = planned_words(&mut workspace.plan, NAIVE_SWAP, cards);
                    passes_until(passes, cards, &stop, || NAIVE_SWAP.shuffle_with(deck, rng, plan))
                })
            }
            PermutationAlgorithm::SortRandomKey => each!(decks, rng, |deck, rng| {
                sort_random_key(deck, rng, &mut workspace.f64_keys)
            }),
            PermutationAlgorithm::SortRandomKeyU8 => each!(decks, rng, |deck, rng| {
                sort_random_key_u8(deck, rng, &mut workspace.u8_keys)
            }),
            PermutationAlgorithm::SortComparatorInsertion => each!(decks, rng, sort_comparator_insertion),
            PermutationAlgorithm::SortComparatorMerge => each!(decks, rng, |deck, rng| {
                sort_comparator_merge(deck, rng, &mut workspace.cards)
            }),
            PermutationAlgorithm::InsertWithRetry => each!(decks, rng, |deck, rng| {
                insert_with_retry(deck, rng, &mut workspace.flags, &mut workspace.cards)
            }),
            PermutationAlgorithm::Riffle => {
                each!(decks, rng, |deck, rng| riffle(deck, rng, &mut workspace.cards))
            }
            PermutationAlgorithm::AsfPoker => each_swap!(decks, rng, workspace, ASF_POKER),
            PermutationAlgorithm::Riffles { times } => each!(decks, rng, |deck, rng| {
                riffles(deck, rng, times, &mut workspace.cards)
            }),
            PermutationAlgorithm::DealerRiffles { times } => each!(decks, rng, |deck, rng| {
                dealer_riffles(deck, rng, times, &mut workspace.dealer, &mut workspace.cards)
            }),
            PermutationAlgorithm::Overhand { times } => {
                each!(decks, rng, |deck, rng| overhands_until(deck, rng, times, &stop))
            }
            PermutationAlgorithm::Shelf { shelves, passes } => each!(decks, rng, |deck, rng| {
                shelf_passes(deck, rng, shelves, passes, &mut workspace.shelf)
            }),
        }
    }
}

/// The largest decks a swap shuffle draws for without a plan: the engine's fixed sizes
/// (`simulate`'s loops compiled for decks of up to ten cards).
const UNPLANNED_CARDS: usize = 10;

/// `shuffle`'s words planned for decks of `n` cards ([`SwapShuffle::shuffle_with`]), kept
/// in `kept` for the next deck and batch; `None` on decks the engine compiles at their
/// size (up to [`UNPLANNED_CARDS`]), where the words' products fold into constants where
/// the shuffle draws and a plan read from memory would be slower (a tenth, on 10 cards).
#[inline(always)]
fn planned_words(
    kept: &mut Option<(u8, usize, DrawPlan)>,
    shuffle: SwapShuffle,
    n: usize,
) -> Option<&DrawPlan> {
    if n <= UNPLANNED_CARDS {
        return None;
    }
    if !matches!(kept, Some((id, cards, _)) if *id == shuffle.id && *cards == n) {
        *kept = Some((shuffle.id, n, shuffle.plan(n)));
    }
    kept.as_ref().map(|(_, _, plan)| plan)
}

/// `naive-repeated` without a parameter makes one pass per card.
fn default_passes(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// How a catalogue sampler picks `k` of the items `0..n`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SamplerAlgorithm {
    /// [`bag_pick`]
    BagPick,
    /// [`bag_pick_c`]
    BagPickC,
    /// [`partial_fisher_yates`]
    PartialFisherYates,
    /// [`reservoir`]
    Reservoir,
}

/// Scratch space a sampler reuses across trials.
#[derive(Debug, Default)]
pub struct SamplerWorkspace {
    deck: Vec<u16>,
}

impl SamplerAlgorithm {
    /// `None` if the order of the picks is uniformly random as well as the subset (so the
    /// ordered selections can be tested); otherwise why it is not, for the report.
    pub fn order_not_random(&self) -> Option<&'static str> {
        match self {
            SamplerAlgorithm::BagPick => Some("bag-pick outputs its picks in increasing order"),
            SamplerAlgorithm::BagPickC => Some("bag-pick-c always outputs k, k-1, ..., 1"),
            SamplerAlgorithm::PartialFisherYates => None,
            SamplerAlgorithm::Reservoir => Some("a reservoir item keeps the slot it replaced"),
        }
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
    /// The batch form of [`SamplerAlgorithm::sample`] and the only place that matches on
    /// the algorithm: the match runs once per batch and each arm is a tight loop.
    #[inline]
    pub fn sample_each<R: Randomness + ?Sized>(
        &self,
        n: usize,
        times: u64,
        rng: &mut R,
        out: &mut [u16],
        workspace: &mut SamplerWorkspace,
        mut record: impl FnMut(&[u16]),
    ) {
        match self {
            SamplerAlgorithm::BagPick => {
                repeat(times, rng, out, &mut record, |rng, out| bag_pick(n, rng, out))
            }
            SamplerAlgorithm::BagPickC => {
                repeat(times, rng, out, &mut record, |rng, out| bag_pick_c(n, rng, out))
            }
            SamplerAlgorithm::PartialFisherYates => repeat(times, rng, out, &mut record, |rng, out| {
                partial_fisher_yates(n, rng, out, &mut workspace.deck)
            }),
            SamplerAlgorithm::Reservoir => {
                repeat(times, rng, out, &mut record, |rng, out| reservoir(n, rng, out))
            }
        }
    }
}

/// Samples `times` times: the loop each arm of `sample_each` compiles into.
#[inline(always)]
fn repeat<R: Randomness + ?Sized>(
    times: u64,
    rng: &mut R,
    out: &mut [u16],
    record: &mut impl FnMut(&[u16]),
    mut sample: impl FnMut(&mut R, &mut [u16]),
) {
    for _ in 0..times {
        rng.begin_trial();
        sample(rng, out);
        record(out);
    }
}

#[cfg(test)]
mod tests;
