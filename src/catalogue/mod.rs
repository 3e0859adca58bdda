//! The catalogue: every algorithm the tool can audit, with where it comes from and what
//! verdict it deserves.
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
pub mod generators;
pub mod items;
mod overhand;
mod riffles;
mod samplers;
mod shuffles;
mod sorts;

use serde::Serialize;

use crate::error::{Error, Result};
use crate::randomness::Randomness;
use crate::stats::Verdict;

pub use dealer::{DealerState, dealer_riffles};
pub use overhand::{overhand, overhands};
pub use riffles::{gsr_riffle, riffles};
pub use samplers::{bag_pick, bag_pick_c, partial_fisher_yates, reservoir};
pub use shuffles::{
    asf_poker, fisher_yates, fisher_yates_forward, insert_with_retry, naive_repeated, naive_swap, riffle,
    roguelike_shuffle, sattolo,
};
pub use sorts::{sort_comparator_insertion, sort_comparator_merge, sort_random_key, sort_random_key_u8};

/// The verdict an exact analysis would give at a given deck size.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Expectation {
    /// Every outcome (order or subset) is exactly (or, for float keys, all but negligibly)
    /// equally likely.
    Fair,
    /// Some outcomes are more likely than others.
    Biased,
}

/// Which family an entry belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
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
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Parameter {
    /// Its name in the docs, e.g. `K`.
    pub name: &'static str,
    /// What it means.
    pub meaning: &'static str,
    /// Its value when omitted.
    pub default: &'static str,
}

/// One algorithm of the catalogue.
#[derive(Clone, Copy, Debug, Serialize)]
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
    /// The verdict it deserves on a deck of `n` cards.
    pub fn expected_at(&self, n: usize) -> Expectation {
        match self.biased_from {
            Some(from) if n >= from => Expectation::Biased,
            _ => Expectation::Fair,
        }
    }

    /// The verdict it deserves on decks of realistic size, in words for `list`.
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
}

impl<T> Default for Workspace<T> {
    fn default() -> Self {
        Self {
            cards: Vec::new(),
            flags: Vec::new(),
            f64_keys: Vec::new(),
            u8_keys: Vec::new(),
            dealer: DealerState::default(),
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
        match *self {
            PermutationAlgorithm::NaiveSwap => each(decks, rng, naive_swap),
            PermutationAlgorithm::FisherYates => each(decks, rng, fisher_yates),
            PermutationAlgorithm::FisherYatesForward => each(decks, rng, fisher_yates_forward),
            PermutationAlgorithm::Sattolo => each(decks, rng, sattolo),
            PermutationAlgorithm::RoguelikeShuffle => each(decks, rng, roguelike_shuffle),
            PermutationAlgorithm::NaiveRepeated { passes } => each(decks, rng, |deck, rng| {
                let passes = passes.unwrap_or_else(|| default_passes(deck.len()));
                naive_repeated(deck, rng, passes)
            }),
            PermutationAlgorithm::SortRandomKey => each(decks, rng, |deck, rng| {
                sort_random_key(deck, rng, &mut workspace.f64_keys)
            }),
            PermutationAlgorithm::SortRandomKeyU8 => each(decks, rng, |deck, rng| {
                sort_random_key_u8(deck, rng, &mut workspace.u8_keys)
            }),
            PermutationAlgorithm::SortComparatorInsertion => each(decks, rng, sort_comparator_insertion),
            PermutationAlgorithm::SortComparatorMerge => each(decks, rng, |deck, rng| {
                sort_comparator_merge(deck, rng, &mut workspace.cards)
            }),
            PermutationAlgorithm::InsertWithRetry => each(decks, rng, |deck, rng| {
                insert_with_retry(deck, rng, &mut workspace.flags, &mut workspace.cards)
            }),
            PermutationAlgorithm::Riffle => {
                each(decks, rng, |deck, rng| riffle(deck, rng, &mut workspace.cards))
            }
            PermutationAlgorithm::AsfPoker => each(decks, rng, asf_poker),
            PermutationAlgorithm::Riffles { times } => each(decks, rng, |deck, rng| {
                riffles(deck, rng, times, &mut workspace.cards)
            }),
            PermutationAlgorithm::DealerRiffles { times } => each(decks, rng, |deck, rng| {
                dealer_riffles(deck, rng, times, &mut workspace.dealer, &mut workspace.cards)
            }),
            PermutationAlgorithm::Overhand { times } => {
                each(decks, rng, |deck, rng| overhands(deck, rng, times))
            }
        }
    }
}

/// Shuffles every deck: the loop each arm of `shuffle_each` compiles into.
#[inline(always)]
fn each<T, R: Randomness + ?Sized, D: AsMut<[T]>>(
    decks: impl Iterator<Item = D>,
    rng: &mut R,
    mut shuffle: impl FnMut(&mut [T], &mut R),
) {
    for mut deck in decks {
        rng.begin_trial();
        shuffle(deck.as_mut(), rng);
    }
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

/// Every shuffle in the catalogue, in the order `list` prints them.
pub const SHUFFLES: &[CatalogueEntry] = &[
    CatalogueEntry {
        name: "naive-swap",
        summary: "for each i, swap a[i] with a[random(n)]",
        origin: "texts 001 (SimpleListShuffle) and 004 (the first listing)",
        biased_from: Some(3),
        parameter: None,
        algorithm: Algorithm::Permutation(PermutationAlgorithm::NaiveSwap),
    },
    CatalogueEntry {
        name: "fisher-yates",
        summary: "Durstenfeld's Fisher-Yates: from the end, swap a[i] with a[random(i+1)]",
        origin: "texts 001 (ListShuffle) and 004 (Knuth-Fisher-Yates)",
        biased_from: None,
        parameter: None,
        algorithm: Algorithm::Permutation(PermutationAlgorithm::FisherYates),
    },
    CatalogueEntry {
        name: "fisher-yates-forward",
        summary: "Fisher-Yates from the front: swap a[i] with a[i + random(n-i)]",
        origin: "text 004's comments (knuth1)",
        biased_from: None,
        parameter: None,
        algorithm: Algorithm::Permutation(PermutationAlgorithm::FisherYatesForward),
    },
    CatalogueEntry {
        name: "sattolo",
        summary: "from the end, swap a[i] with a[random(i)]: the exclusive-bound off-by-one",
        origin: "text 003 (the shuffle bag's random.Next(position))",
        biased_from: Some(2),
        parameter: None,
        algorithm: Algorithm::Permutation(PermutationAlgorithm::Sattolo),
    },
    CatalogueEntry {
        name: "roguelike-shuffle",
        summary: "text 002's SHUFFLE as printed: swap a[f] with a[random(f)], random(0) = 0",
        origin: "text 002 (SHUFFLE pseudocode and C code)",
        biased_from: Some(2),
        parameter: None,
        algorithm: Algorithm::Permutation(PermutationAlgorithm::RoguelikeShuffle),
    },
    CatalogueEntry {
        name: "naive-repeated",
        summary: "the naive swap pass repeated K times",
        origin: "text 004's comments (\"shuffle more\")",
        biased_from: Some(3),
        parameter: Some(Parameter {
            name: "K",
            meaning: "number of naive passes",
            default: "n",
        }),
        algorithm: Algorithm::Permutation(PermutationAlgorithm::NaiveRepeated { passes: None }),
    },
    CatalogueEntry {
        name: "sort-random-key",
        summary: "stable sort by a random f64 key per card",
        origin: "text 004's comments (sort_by { rand })",
        biased_from: None,
        parameter: None,
        algorithm: Algorithm::Permutation(PermutationAlgorithm::SortRandomKey),
    },
    CatalogueEntry {
        name: "sort-random-key-u8",
        summary: "stable sort by a random 8-bit key per card; ties keep the original order",
        origin: "text 004's comments (sort by random number, with small keys)",
        biased_from: Some(2),
        parameter: None,
        algorithm: Algorithm::Permutation(PermutationAlgorithm::SortRandomKeyU8),
    },
    CatalogueEntry {
        name: "sort-comparator-insertion",
        summary: "insertion sort with a comparator that returns a fair coin",
        origin: "text 004's comments (arr.sort(function () { return Math.sin(Math.random() * 360); }))",
        biased_from: Some(3),
        parameter: None,
        algorithm: Algorithm::Permutation(PermutationAlgorithm::SortComparatorInsertion),
    },
    CatalogueEntry {
        name: "sort-comparator-merge",
        summary: "top-down merge sort with a comparator that returns a fair coin",
        origin: "text 004's comments (arr.sort(function () { return Math.sin(Math.random() * 360); }))",
        biased_from: Some(3),
        parameter: None,
        algorithm: Algorithm::Permutation(PermutationAlgorithm::SortComparatorMerge),
    },
    CatalogueEntry {
        name: "insert-with-retry",
        summary: "put each card at a random index of a new array, drawing again if taken",
        origin: "text 004's comments (insert into a random array index)",
        biased_from: None,
        parameter: None,
        algorithm: Algorithm::Permutation(PermutationAlgorithm::InsertWithRetry),
    },
    CatalogueEntry {
        name: "riffle",
        summary: "one riffle: split in half, merge taking from a half chosen by a coin",
        origin: "text 004's comments (split into two lists and merge at random)",
        biased_from: Some(3),
        parameter: None,
        algorithm: Algorithm::Permutation(PermutationAlgorithm::Riffle),
    },
    CatalogueEntry {
        name: "asf-poker",
        summary: "the 1999 online-poker shuffle: for each i, swap a[i] with a[random(n-1)] (card n never a target)",
        origin: "text 001 (the online-poker case) and text 004's comments (the link to it)",
        biased_from: Some(2),
        parameter: None,
        algorithm: Algorithm::Permutation(PermutationAlgorithm::AsfPoker),
    },
    CatalogueEntry {
        name: "riffles",
        summary: "K Gilbert-Shannon-Reeds riffles: a binomial cut, then cards dropped from the packets in proportion to their sizes",
        origin: "Gilbert (1955), Reeds (1981); Bayer & Diaconis, \"Trailing the dovetail shuffle to its lair\", Ann. Appl. Probab. 2 (1992) 294-313 (seven riffles for 52 cards)",
        biased_from: Some(2),
        parameter: Some(Parameter {
            name: "K",
            meaning: "number of riffles, 1 to 64",
            default: "7",
        }),
        algorithm: Algorithm::Permutation(PermutationAlgorithm::Riffles { times: 7 }),
    },
    CatalogueEntry {
        name: "dealer-riffles",
        summary: "a dealer who riffles the previous deal's deck K times (GSR) and deals it: each deal depends on the last",
        origin: "the card-room habit of riffling the last hand's cards a few times (\"most people shuffle cards three or four times\": Diaconis in G. Kolata, New York Times, 9 Jan 1990); riffles as in Bayer & Diaconis (1992)",
        biased_from: Some(2),
        parameter: Some(Parameter {
            name: "K",
            meaning: "riffles per deal, 1 to 64",
            default: "3",
        }),
        algorithm: Algorithm::Permutation(PermutationAlgorithm::DealerRiffles { times: 3 }),
    },
    CatalogueEntry {
        name: "overhand",
        summary: "K overhand shuffles in Pemantle's model: each gap between cards a cut with probability 1/2, each packet reversed",
        origin: "R. Pemantle, \"An analysis of overhand shuffles\", J. Theoret. Probab. 2 (1989) 37-49, as stated by J. Jonasson, Ann. Appl. Probab. 16 (2006) 231-243 (n^2 log n shuffles needed)",
        biased_from: Some(3),
        parameter: Some(Parameter {
            name: "K",
            meaning: "number of overhand shuffles",
            default: "1",
        }),
        algorithm: Algorithm::Permutation(PermutationAlgorithm::Overhand { times: 1 }),
    },
];

/// Every sampler in the catalogue, in the order `list` prints them.
pub const SAMPLERS: &[CatalogueEntry] = &[
    CatalogueEntry {
        name: "bag-pick",
        summary: "text 002's BAG-PICK: keep item i when random(items left) < picks left",
        origin: "text 002 (BAG-PICK pseudocode)",
        biased_from: None,
        parameter: None,
        algorithm: Algorithm::Sampler(SamplerAlgorithm::BagPick),
    },
    CatalogueEntry {
        name: "bag-pick-c",
        summary: "text 002's BagPick C code as printed: stores the picks left (x--), not the item (i)",
        origin: "text 002 (BagPick C code)",
        biased_from: Some(2),
        parameter: None,
        algorithm: Algorithm::Sampler(SamplerAlgorithm::BagPickC),
    },
    CatalogueEntry {
        name: "partial-fisher-yates",
        summary: "the first k steps of Fisher-Yates from the end; the cards moved, in order",
        origin: "text 004's comments (\"run KFY for m steps and take the cards you've selected\")",
        biased_from: None,
        parameter: None,
        algorithm: Algorithm::Sampler(SamplerAlgorithm::PartialFisherYates),
    },
    CatalogueEntry {
        name: "reservoir",
        summary: "Algorithm R: keep items 0..k, then item i replaces slot random(i+1) if < k",
        origin: "Algorithm R (Vitter 1985; Knuth TAOCP 3.4.2), the streaming counterpart of text 002's BAG-PICK",
        biased_from: None,
        parameter: None,
        algorithm: Algorithm::Sampler(SamplerAlgorithm::Reservoir),
    },
];

/// Every entry of both families: shuffles first, then samplers.
pub fn entries() -> impl Iterator<Item = &'static CatalogueEntry> {
    SHUFFLES.iter().chain(SAMPLERS)
}

/// An algorithm as named on the command line, parsed against the catalogue.
#[derive(Clone, Copy, Debug)]
pub struct AlgorithmSpec {
    /// Its catalogue entry.
    pub entry: &'static CatalogueEntry,
    /// What runs, parameters filled in (possibly still defaulting to a function of `n`).
    pub algorithm: Algorithm,
}

impl AlgorithmSpec {
    /// Parses `name` or `name:parameter`.
    pub fn parse(text: &str) -> Result<Self> {
        let (name, parameter) = match text.split_once(':') {
            Some((name, parameter)) => (name, Some(parameter)),
            None => (text, None),
        };
        let entry = entries()
            .find(|entry| entry.name == name)
            .ok_or_else(|| Error::UnknownAlgorithm {
                name: name.to_string(),
                suggestion: suggestion_for(name),
            })?;
        let bad = |problem: String| Error::BadParameter {
            spec: text.to_string(),
            problem,
        };
        let algorithm = match (entry.algorithm, parameter, entry.parameter) {
            (algorithm, None, _) => algorithm,
            (Algorithm::Sampler(_), Some(_), None) => {
                return Err(bad(format!(
                    "{} takes no parameter (give the number of picks with --k)",
                    entry.name
                )));
            }
            (_, Some(_), None) => {
                return Err(bad(format!("{} takes no parameter", entry.name)));
            }
            (
                Algorithm::Permutation(PermutationAlgorithm::NaiveRepeated { .. }),
                Some(value),
                Some(parameter),
            ) => {
                let passes = parse_positive(value).ok_or_else(|| {
                    bad(format!(
                        "{} ({}) must be a whole number from 1 to {}, not '{value}'",
                        parameter.name,
                        parameter.meaning,
                        u32::MAX
                    ))
                })?;
                Algorithm::Permutation(PermutationAlgorithm::NaiveRepeated { passes: Some(passes) })
            }
            (
                Algorithm::Permutation(
                    shape @ (PermutationAlgorithm::Riffles { .. }
                    | PermutationAlgorithm::DealerRiffles { .. }),
                ),
                Some(value),
                Some(parameter),
            ) => {
                let times = parse_positive(value)
                    .filter(|&times| times <= MAX_RIFFLES)
                    .ok_or_else(|| {
                        bad(format!(
                            "{} ({}) must be a whole number from 1 to {MAX_RIFFLES}, not '{value}'",
                            parameter.name, parameter.meaning
                        ))
                    })?;
                Algorithm::Permutation(match shape {
                    PermutationAlgorithm::Riffles { .. } => PermutationAlgorithm::Riffles { times },
                    _ => PermutationAlgorithm::DealerRiffles { times },
                })
            }
            (Algorithm::Permutation(PermutationAlgorithm::Overhand { .. }), Some(value), Some(parameter)) => {
                let times = parse_positive(value).ok_or_else(|| {
                    bad(format!(
                        "{} ({}) must be a whole number from 1 to {}, not '{value}'",
                        parameter.name,
                        parameter.meaning,
                        u32::MAX
                    ))
                })?;
                Algorithm::Permutation(PermutationAlgorithm::Overhand { times })
            }
            (_, Some(_), Some(_)) => unreachable!("every entry with a parameter is parsed above"),
        };
        Ok(Self { entry, algorithm })
    }

    /// The name with its parameter as it will run on `n` cards, e.g. `naive-repeated:3`.
    pub fn display_name(&self, n: usize) -> String {
        match self.algorithm {
            Algorithm::Permutation(algorithm) => match algorithm.resolve(n) {
                PermutationAlgorithm::NaiveRepeated { passes: Some(passes) } => {
                    format!("{}:{passes}", self.entry.name)
                }
                PermutationAlgorithm::Riffles { times }
                | PermutationAlgorithm::DealerRiffles { times }
                | PermutationAlgorithm::Overhand { times } => format!("{}:{times}", self.entry.name),
                _ => self.entry.name.to_string(),
            },
            Algorithm::Sampler(_) => self.entry.name.to_string(),
        }
    }

    /// Its family.
    pub fn kind(&self) -> Kind {
        self.algorithm.kind()
    }
}

fn parse_positive(text: &str) -> Option<u32> {
    text.parse::<u32>().ok().filter(|&value| value >= 1)
}

/// "; did you mean 'a' or 'b'?" for the catalogue entries closest to `typed`, or "".
fn suggestion_for(typed: &str) -> String {
    if generators::GENERATORS.iter().any(|entry| entry.name == typed) {
        return format!("; '{typed}' is a stream generator: shuffle-audit stream {typed} --items ...");
    }
    suggestion_among(typed, entries().map(|entry| entry.name))
}

/// "; did you mean 'a' or 'b'?" for the `names` closest to `typed`, or "" if none is close.
pub(crate) fn suggestion_among<'a>(typed: &str, names: impl Iterator<Item = &'a str>) -> String {
    if typed.contains(',') {
        return "; separate names with spaces, not commas".to_string();
    }
    let mut close: Vec<(usize, &str)> = names
        .map(|name| (edit_distance(typed, name), name))
        .filter(|&(distance, name)| {
            distance <= (typed.len() / 3).max(2)
                || (typed.len() >= 3 && name.contains(typed))
                || typed.contains(name)
        })
        .collect();
    close.sort();
    let names: Vec<String> = close
        .iter()
        .take(3)
        .map(|(_, name)| format!("'{name}'"))
        .collect();
    match names.len() {
        0 => String::new(),
        1 => format!("; did you mean {}?", names[0]),
        _ => format!(
            "; did you mean {} or {}?",
            names[..names.len() - 1].join(", "),
            names[names.len() - 1]
        ),
    }
}

/// Levenshtein distance, by the two-row dynamic programme.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut current = vec![i + 1; b.len() + 1];
        for (j, &cb) in b.iter().enumerate() {
            let substitution = previous[j] + usize::from(ca != cb);
            current[j + 1] = substitution.min(previous[j + 1] + 1).min(current[j] + 1);
        }
        previous = current;
    }
    previous[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::randomness::SimulationSource;

    /// The shuffle an entry of `SHUFFLES` runs.
    fn shuffle_of(entry: &CatalogueEntry) -> PermutationAlgorithm {
        entry
            .algorithm
            .as_permutation()
            .unwrap_or_else(|| panic!("{} is listed as a shuffle", entry.name))
    }

    #[test]
    fn names_are_unique_across_both_families_and_parse_back() {
        let all: Vec<&CatalogueEntry> = entries().collect();
        assert_eq!(all.len(), SHUFFLES.len() + SAMPLERS.len());
        for (i, entry) in all.iter().enumerate() {
            assert!(all[..i].iter().all(|other| other.name != entry.name));
            let spec = AlgorithmSpec::parse(entry.name).unwrap();
            assert_eq!(spec.entry.name, entry.name);
            assert_eq!(spec.kind(), entry.kind());
        }
        assert!(SHUFFLES.iter().all(|entry| entry.kind() == Kind::Shuffle));
        assert!(SAMPLERS.iter().all(|entry| entry.kind() == Kind::Sampler));
    }

    #[test]
    fn every_shuffle_returns_a_permutation_of_its_input() {
        let mut rng = SimulationSource::from_seed(11);
        let mut workspace = Workspace::default();
        // In a series, so that the dealer carries its deck from trial to trial (and
        // starts again whenever the deck size changes).
        workspace.start_dealing();
        for entry in SHUFFLES {
            for n in 0..=40usize {
                for _ in 0..20 {
                    let mut deck: Vec<u16> = (0..n as u16).collect();
                    shuffle_of(entry).shuffle(&mut deck, &mut rng, &mut workspace);
                    let mut sorted = deck.clone();
                    sorted.sort_unstable();
                    assert_eq!(sorted, (0..n as u16).collect::<Vec<_>>(), "{}", entry.name);
                }
            }
        }
    }

    /// Records the bound of every draw and answers at random.
    struct RecordingSource {
        inner: SimulationSource,
        bounds: Vec<u64>,
    }

    impl Randomness for RecordingSource {
        fn below(&mut self, n: u64) -> u64 {
            self.bounds.push(n);
            self.inner.below(n)
        }
        fn unit(&mut self) -> f64 {
            panic!("an algorithm with a fixed draw schedule drew a float")
        }
    }

    #[test]
    fn declared_draw_schedules_match_the_draws_made() {
        let mut source = RecordingSource {
            inner: SimulationSource::from_seed(3),
            bounds: Vec::new(),
        };
        let mut workspace = Workspace::default();
        let mut checked = 0;
        for entry in SHUFFLES {
            for n in 0..=12usize {
                let Some(schedule) = shuffle_of(entry).draw_schedule(n) else {
                    continue;
                };
                // Different answers must never change the bounds asked for.
                for _ in 0..200 {
                    source.bounds.clear();
                    let mut deck: Vec<u16> = (0..n as u16).collect();
                    shuffle_of(entry).shuffle(&mut deck, &mut source, &mut workspace);
                    assert_eq!(source.bounds, schedule, "{} on {n} cards", entry.name);
                }
                checked += 1;
            }
        }
        // Seven fixed-schedule entries (asf-poker and overhand among them) at 13 sizes,
        // naive-repeated (K = n) while n² <= 64.
        assert_eq!(checked, 7 * 13 + 9);
        let explicit = AlgorithmSpec::parse("naive-repeated:2")
            .unwrap()
            .algorithm
            .as_permutation()
            .unwrap();
        assert_eq!(explicit.draw_schedule(3), Some(vec![3; 6]));
        assert_eq!(
            explicit.draw_schedule(40),
            None,
            "80 draws is past the listing limit"
        );
    }

    #[test]
    fn riffles_dealers_and_overhands_parse_their_counts() {
        let spec = AlgorithmSpec::parse("riffles").unwrap();
        assert_eq!(
            spec.algorithm,
            Algorithm::Permutation(PermutationAlgorithm::Riffles { times: 7 })
        );
        assert_eq!(spec.display_name(52), "riffles:7");
        let spec = AlgorithmSpec::parse("dealer-riffles").unwrap();
        assert_eq!(spec.display_name(52), "dealer-riffles:3");
        let spec = AlgorithmSpec::parse("dealer-riffles:64").unwrap();
        assert_eq!(
            spec.algorithm,
            Algorithm::Permutation(PermutationAlgorithm::DealerRiffles { times: 64 })
        );
        assert_eq!(
            AlgorithmSpec::parse("overhand").unwrap().display_name(9),
            "overhand:1"
        );
        assert_eq!(
            AlgorithmSpec::parse("overhand:2500").unwrap().display_name(52),
            "overhand:2500"
        );
        for bad in [
            "riffles:0",
            "riffles:65",
            "dealer-riffles:x",
            "overhand:0",
            "riffles:-1",
        ] {
            let error = AlgorithmSpec::parse(bad).unwrap_err().to_string();
            assert!(error.contains("must be a whole number"), "{bad}: {error}");
            assert!(!error.contains('\n'), "one line: {error}");
        }
        let error = AlgorithmSpec::parse("riffles:65").unwrap_err().to_string();
        assert!(error.contains("from 1 to 64"), "{error}");
    }

    #[test]
    fn every_new_shuffle_begins_one_trial_per_deal() {
        // begin_trial is how a clock-reseeded source re-seeds before every deal; a dealer
        // who carries the deck must still begin each of its deals.
        struct CountingTrials {
            inner: SimulationSource,
            trials: u64,
        }
        impl Randomness for CountingTrials {
            fn below(&mut self, n: u64) -> u64 {
                self.inner.below(n)
            }
            fn unit(&mut self) -> f64 {
                self.inner.unit()
            }
            fn begin_trial(&mut self) {
                self.trials += 1;
            }
        }
        for algorithm in [
            PermutationAlgorithm::Riffles { times: 2 },
            PermutationAlgorithm::DealerRiffles { times: 2 },
            PermutationAlgorithm::Overhand { times: 2 },
        ] {
            let mut source = CountingTrials {
                inner: SimulationSource::from_seed(4),
                trials: 0,
            };
            let mut workspace = Workspace::default();
            workspace.start_dealing();
            let mut decks = [[0u16, 1, 2, 3, 4, 5]; 7];
            algorithm.shuffle_each(decks.iter_mut(), &mut source, &mut workspace);
            assert_eq!(source.trials, 7, "{algorithm:?}");
        }
    }

    #[test]
    fn only_the_dealer_carries_its_deck_and_it_has_no_draw_schedule() {
        for entry in SHUFFLES {
            let algorithm = shuffle_of(entry);
            let carries = algorithm.carries_deck_between_deals();
            assert_eq!(carries, entry.name == "dealer-riffles", "{}", entry.name);
            if carries {
                // A path would describe only a series' first deal: never tallied by path.
                assert!((0..=12).all(|n| algorithm.draw_schedule(n).is_none()));
            }
        }
    }

    /// `P(order) = C(2^K + n − r, n) / 2^(Kn)` for an order with `r` rising sequences
    /// (Bayer & Diaconis 1992), as exact integers over `2^(Kn)`, indexed by Lehmer rank.
    fn gsr_law(n: usize, times: u32) -> (Vec<u128>, u128) {
        use crate::tally::lehmer::{factorial, unrank};
        use crate::tally::rising::rising_sequences;
        let binomial = |top: u128, k: u128| (0..k).fold(1u128, |c, i| c * (top - i) / (i + 1));
        let a = 1u128 << times;
        let mut deck = vec![0u16; n];
        let numerators = (0..factorial(n).unwrap() as usize)
            .map(|rank| {
                unrank(rank, &mut deck);
                let r = rising_sequences(&deck) as u128;
                if r > a {
                    0
                } else {
                    binomial(a + n as u128 - r, n as u128)
                }
            })
            .collect();
        (numerators, 1u128 << (u128::from(times) * n as u128))
    }

    /// Tallies `trials` shuffles of `n` cards by Lehmer rank, in a series of deals.
    fn tally_ranks(algorithm: PermutationAlgorithm, n: usize, trials: u64, seed: u64) -> Vec<u64> {
        use crate::tally::lehmer::{factorial, rank};
        let mut rng = SimulationSource::from_seed(seed);
        let mut workspace = Workspace::default();
        let mut counts = vec![0u64; factorial(n).unwrap() as usize];
        for _ in 0..trials {
            let mut deck: Vec<u16> = (0..n as u16).collect();
            algorithm.shuffle(&mut deck, &mut rng, &mut workspace);
            counts[rank(&deck)] += 1;
        }
        counts
    }

    /// The simulated riffles against the exact GSR law on 5 cards, by a χ² test over the
    /// possible orders (27 after one riffle, 119 after two). A correct implementation
    /// gives a p-value uniform on (0, 1), below 1e-6 one seed in a million; the seeds are
    /// fixed, so the outcome is too (measured: p = 0.333 and 0.734). A wrong law fails by
    /// far: 93 of the 120 orders are impossible after one riffle, so a uniform shuffle
    /// deals one in 78 % of its shuffles (measured: 757 of 1,000), and a uniform cut in
    /// place of the binomial one would make the fresh deck 0.43 likely instead of
    /// 6/32 = 0.19, some 900 standard errors away at 320,000 shuffles.
    #[test]
    fn riffles_on_five_cards_follow_the_exact_gsr_law() {
        use crate::stats::Fit;
        use crate::stats::chi_square::law_fit;
        let n = 5;
        let trials = 320_000;
        for times in [1u32, 2] {
            let (numerators, denominator) = gsr_law(n, times);
            assert_eq!(numerators.iter().sum::<u128>(), denominator);
            let counts = tally_ranks(
                PermutationAlgorithm::Riffles { times },
                n,
                trials,
                600 + u64::from(times),
            );
            let possible: Vec<usize> = (0..counts.len()).filter(|&i| numerators[i] > 0).collect();
            assert_eq!(possible.len(), if times == 1 { 27 } else { 119 });
            let impossible_seen: u64 = (0..counts.len())
                .filter(|&i| numerators[i] == 0)
                .map(|i| counts[i])
                .sum();
            assert_eq!(impossible_seen, 0, "{times} riffles dealt an impossible order");
            let observed: Vec<u64> = possible.iter().map(|&i| counts[i]).collect();
            let law: Vec<f64> = possible
                .iter()
                .map(|&i| numerators[i] as f64 / denominator as f64)
                .collect();
            match law_fit(&observed, &law, trials) {
                Fit::Computed { p, .. } => assert!(!p.is_below(1e-6), "{times} riffles: p = {p}"),
                Fit::TooFewTrials { needed } => panic!("needs {needed} trials"),
            }
        }
        // Known biased against the same law: a uniform shuffle deals impossible orders.
        let (numerators, _) = gsr_law(n, 1);
        let uniform = tally_ranks(PermutationAlgorithm::FisherYates, n, 1000, 5);
        let impossible: u64 = (0..uniform.len())
            .filter(|&i| numerators[i] == 0)
            .map(|i| uniform[i])
            .sum();
        assert!(impossible > 500, "{impossible}");
    }

    /// A dealer who riffles the previous deck 3 times: each deal alone looks uniform, but
    /// each deal relative to the previous one is 3 riffles, far from uniform.
    ///
    /// Relative permutations of 20,000 consecutive pairs on 5 cards: the law of 3 riffles
    /// (total variation 0.166 from uniform) puts 2.9 times the uniform mass on the
    /// identity, and the permutation χ² (119 df) rejects uniformity with p = 1e-777
    /// (measured; the threshold is 1e-100). Fisher–Yates, dealt the same way, gives
    /// uniform relative permutations and passes (its p-value is uniform on (0, 1); fixed
    /// seed, measured p = 0.786). Every 10th deal alone passes the uniform test: after 30
    /// riffles the 5-card deck is within 1.1e-9 of uniform in total variation, and deals
    /// 10 apart are correlated by at most 8^-10 (the second eigenvalue of 3 riffles is
    /// 1/8), so the thinned deals are all but independent uniform draws (measured
    /// p = 0.614; Fisher–Yates 0.645).
    #[test]
    fn a_dealers_consecutive_deals_depend_on_each_other() {
        use crate::stats::Fit;
        use crate::stats::chi_square::uniform_fit;
        use crate::tally::lehmer::rank;
        use crate::tally::relative::RelativePermutation;
        let n = 5;
        let relative_and_thinned = |algorithm: PermutationAlgorithm, seed: u64| {
            let mut rng = SimulationSource::from_seed(seed);
            let mut workspace = Workspace::default();
            workspace.start_dealing();
            let mut calculator = RelativePermutation::new();
            let (mut relative_counts, mut thinned_counts) = (vec![0u64; 120], vec![0u64; 120]);
            let mut previous: Vec<u16> = (0..n as u16).collect();
            let mut relative = vec![0u16; n];
            for deal in 0..100_000u64 {
                let mut deck: Vec<u16> = (0..n as u16).collect();
                algorithm.shuffle(&mut deck, &mut rng, &mut workspace);
                if deal < 20_000 && deal > 0 {
                    calculator.compute(&previous, &deck, &mut relative);
                    relative_counts[rank(&relative)] += 1;
                }
                if deal % 10 == 9 {
                    thinned_counts[rank(&deck)] += 1;
                }
                previous = deck;
            }
            let p = |counts: &[u64]| match uniform_fit(counts, counts.iter().sum()) {
                Fit::Computed { p, .. } => p,
                Fit::TooFewTrials { needed } => panic!("needs {needed}"),
            };
            (p(&relative_counts), p(&thinned_counts))
        };
        let (relative, thinned) = relative_and_thinned(PermutationAlgorithm::DealerRiffles { times: 3 }, 70);
        assert!(relative.is_below(1e-100), "relative permutations: p = {relative}");
        assert!(!thinned.is_below(1e-6), "every 10th deal: p = {thinned}");
        let (relative, thinned) = relative_and_thinned(PermutationAlgorithm::FisherYates, 71);
        assert!(
            !relative.is_below(1e-6),
            "Fisher-Yates relative permutations: p = {relative}"
        );
        assert!(!thinned.is_below(1e-6), "Fisher-Yates deals: p = {thinned}");
    }

    #[test]
    fn parameters_parse_and_default_to_n() {
        let spec = AlgorithmSpec::parse("naive-repeated:3").unwrap();
        assert_eq!(
            spec.algorithm,
            Algorithm::Permutation(PermutationAlgorithm::NaiveRepeated { passes: Some(3) })
        );
        assert_eq!(spec.display_name(10), "naive-repeated:3");
        let spec = AlgorithmSpec::parse("naive-repeated").unwrap();
        assert_eq!(spec.display_name(7), "naive-repeated:7");
    }

    #[test]
    fn bad_names_and_parameters_are_explained() {
        let error = AlgorithmSpec::parse("fisher-yate").unwrap_err().to_string();
        assert!(error.contains("did you mean 'fisher-yates'"), "{error}");
        let error = AlgorithmSpec::parse("naive-repeated:abc")
            .unwrap_err()
            .to_string();
        assert!(error.contains("must be a whole number"), "{error}");
        let error = AlgorithmSpec::parse("naive-repeated:0").unwrap_err().to_string();
        assert!(error.contains("not '0'"), "{error}");
        let error = AlgorithmSpec::parse("fisher-yates:2").unwrap_err().to_string();
        assert!(error.contains("takes no parameter"), "{error}");
        let error = AlgorithmSpec::parse("sattolo-shuffle").unwrap_err().to_string();
        assert!(error.contains("did you mean 'sattolo'"), "{error}");
        let error = AlgorithmSpec::parse("naive-swap,fisher-yates")
            .unwrap_err()
            .to_string();
        assert!(error.contains("with spaces, not commas"), "{error}");
        let error = AlgorithmSpec::parse("quantum-bogo").unwrap_err().to_string();
        assert!(!error.contains("did you mean"), "{error}");
    }

    #[test]
    fn samplers_parse_with_suggestions_and_refuse_parameters() {
        let spec = AlgorithmSpec::parse("bag-pick").unwrap();
        assert_eq!(spec.algorithm, Algorithm::Sampler(SamplerAlgorithm::BagPick));
        assert_eq!(spec.display_name(10), "bag-pick");
        let error = AlgorithmSpec::parse("bag-pik").unwrap_err().to_string();
        assert!(error.contains("did you mean 'bag-pick'"), "{error}");
        let error = AlgorithmSpec::parse("partial-fisher-yate")
            .unwrap_err()
            .to_string();
        assert!(error.contains("'partial-fisher-yates'"), "{error}");
        let error = AlgorithmSpec::parse("reservoir-sampling")
            .unwrap_err()
            .to_string();
        assert!(error.contains("did you mean 'reservoir'"), "{error}");
        let error = AlgorithmSpec::parse("bag-pick:3").unwrap_err().to_string();
        assert!(
            error.contains("takes no parameter (give the number of picks with --k)"),
            "{error}"
        );
    }

    #[test]
    fn every_sampler_picks_k_distinct_items_of_n() {
        let mut rng = SimulationSource::from_seed(12);
        let mut workspace = SamplerWorkspace::default();
        for entry in SAMPLERS {
            let sampler = entry.algorithm.as_sampler().unwrap();
            for n in 2..=40usize {
                for k in 1..n {
                    let mut out = vec![0u16; k];
                    for _ in 0..10 {
                        sampler.sample(n, &mut rng, &mut out, &mut workspace);
                        let mut sorted = out.clone();
                        sorted.sort_unstable();
                        sorted.dedup();
                        assert_eq!(sorted.len(), k, "{} repeated an item: {out:?}", entry.name);
                        assert!(out.iter().all(|&item| usize::from(item) < n), "{}", entry.name);
                    }
                }
            }
        }
    }

    #[test]
    fn sample_each_hands_every_selection_to_the_recorder() {
        let mut rng = SimulationSource::from_seed(13);
        let mut out = [0u16; 3];
        let mut seen = Vec::new();
        SamplerAlgorithm::BagPickC.sample_each(
            6,
            4,
            &mut rng,
            &mut out,
            &mut SamplerWorkspace::default(),
            |selection| seen.push(selection.to_vec()),
        );
        assert_eq!(seen, vec![vec![3, 2, 1]; 4]);
        assert!(SamplerAlgorithm::PartialFisherYates.promises_order());
        assert!(!SamplerAlgorithm::Reservoir.promises_order());
    }

    #[test]
    fn edit_distance_matches_hand_counts() {
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("same", "same"), 0);
    }

    #[test]
    fn sattolo_and_roguelike_never_leave_a_card_in_place() {
        let mut rng = SimulationSource::from_seed(5);
        for algorithm in [
            PermutationAlgorithm::Sattolo,
            PermutationAlgorithm::RoguelikeShuffle,
        ] {
            for _ in 0..1000 {
                let mut deck: Vec<u16> = (0..9).collect();
                algorithm.shuffle(&mut deck, &mut rng, &mut Workspace::default());
                assert!(deck.iter().enumerate().all(|(i, &card)| card as usize != i));
            }
        }
    }
}
