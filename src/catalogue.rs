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

pub mod generators;
pub mod items;
mod long_deals;
pub(crate) mod names;
pub mod sampler;
mod samplers;
pub mod shuffle;
mod shuffles;
mod swaps;

use std::any::TypeId;

use serde::Serialize;

use crate::error::{Error, Result};
use crate::randomness::batched::DrawPlan;
use crate::stats::Verdict;

pub use names::{AlgorithmSpec, suggestion_among};
pub use samplers::*;
pub use shuffles::*;

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
    /// The verdict on `n` cards (or items) of an algorithm biased from `biased_from` on
    /// (`None`: never), and fair below.
    pub fn on_deck_of(n: usize, biased_from: Option<usize>) -> Self {
        match biased_from {
            Some(from) if n >= from => Expectation::Biased,
            _ => Expectation::Fair,
        }
    }

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
        Expectation::on_deck_of(n, self.biased_from)
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

/// The most riffles `riffles:K` and `dealer-riffles:K` take: far past the point where
/// any deck the tool runs (2,000 cards need about 17) is mixed, and the most the exact
/// closed form ([`crate::exact::riffles`]) computes.
pub const MAX_RIFFLES: u32 = 64;

/// Scratch space reused across trials so that simulating an algorithm that needs a second
/// array does not allocate once per shuffle; and the deck a dealer carries from one deal
/// to the next ([`Workspace::start_dealing`]).
/// Each shuffle's file takes the fields it needs.
#[derive(Debug)]
pub struct Workspace<T> {
    cards: Vec<T>,
    flags: Vec<bool>,
    f64_keys: Vec<(f64, T)>,
    u8_keys: Vec<(u8, T)>,
    dealer: DealerState,
    shelf: ShelfScratch<T>,
    /// The words of the last swap shuffle run through this workspace, planned for its
    /// deck size: `(the catalogue shuffle's type, cards, plan)`.
    plan: Option<(TypeId, usize, DrawPlan)>,
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

/// Scratch space a sampler reuses across trials.
#[derive(Debug, Default)]
pub struct SamplerWorkspace {
    deck: Vec<u16>,
}

/// The lists one after the other, as an array of their total length `N`.
pub(crate) const fn concatenated<E: Copy, const N: usize>(lists: &[&[E]]) -> [E; N] {
    // Every slot is written below; the first item only fills the array until then.
    let mut all = [lists[0][0]; N];
    let (mut next, mut list) = (0, 0);
    while list < lists.len() {
        let mut item = 0;
        while item < lists[list].len() {
            all[next] = lists[list][item];
            next += 1;
            item += 1;
        }
        list += 1;
    }
    assert!(next == N, "the length is the lists' total");
    all
}

/// Every entry of both families: shuffles first, then samplers.
pub fn entries() -> impl Iterator<Item = &'static CatalogueEntry> {
    SHUFFLES.iter().chain(SAMPLERS)
}

#[cfg(test)]
mod tests;
