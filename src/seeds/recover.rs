//! `seeds recover`: the generator of a real runtime recovered from the deals it dealt,
//! and its next deals predicted.
//!
//! Why: a shuffle can pass every statistical test and still be worthless to a card room.
//! `Collections.shuffle` and the JavaScript Fisher–Yates are fair deal by deal, but
//! `java.util.Random` has 48 bits of state and a deal of 52 cards shows about 225 bits
//! of what it drew: one deal fixes the state, and with it every later deal. V8's
//! `Math.random` shows itself in one deal of a fresh process, or two. The seed window of
//! [`super::crack`] is not needed: the deals alone say it.
//!
//! Each runtime is one module holding its generator, bit for bit as the runtime runs it,
//! and its search ([`java`], [`v8`]); this module holds what they share: the deals turned
//! back into draws ([`draws`]), the registry ([`RUNTIMES`]), which deals to use, and the
//! answer with its predictions. A recovery never guesses: every candidate is replayed
//! through the runtime's own arithmetic against every deal given, and the answer is one
//! state, none, or how many.

pub mod c_rand;
pub mod dotnet;
pub mod draws;
pub mod fast_shuffle;
mod gf2;
pub mod go;
mod go_cooked;
pub mod java;
pub mod js;
pub mod jsc;
pub mod mt19937;
pub mod mt_filter;
pub mod numpy;
pub mod php;
pub mod python;
mod runtimes;
pub mod seeded;
pub mod spidermonkey;
pub mod summed;
pub mod v8;
pub mod v8_runtime;
pub mod xorshift_sum;

use std::ops::Range;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use crate::error::{Error, Result};
use crate::simulate::Progress;

pub use draws::{Direction, Observed, bits_per_deal};
pub use runtimes::{RUNTIMES, runtime_named, runtimes_help, seeded_runtime_names, state_runtime_names};
pub use seeded::{SeedsSearched, check_window};

/// What one runtime is, for `list` and the reports.
#[derive(Debug)]
pub struct About {
    /// The name `--runtime` takes.
    pub name: &'static str,
    /// Other names `--runtime` takes for it (the browser or tool users know).
    pub aliases: &'static [&'static str],
    /// What it covers, in a few words for help texts (`--runtime`'s list).
    pub summary: &'static str,
    /// The generator, as its users know it.
    pub generator: &'static str,
    /// Bits of state the deals must pin.
    pub state_bits: u32,
    /// The shuffles it models, each with its code.
    pub shuffles: &'static [ShuffleCode],
    /// The runtime versions the model holds for, and what it was checked against.
    pub versions: &'static str,
    /// What to use instead.
    pub instead: &'static str,
    /// The smallest deck it recovers from.
    pub min_cards: usize,
}

/// One shuffle a runtime's programs run, as they write it.
#[derive(Debug)]
pub struct ShuffleCode {
    pub name: &'static str,
    pub code: &'static str,
}

/// A runtime whose generator can be recovered from deals.
pub trait Runtime: Sync {
    fn about(&self) -> &'static About;

    /// The work a search of `observed` will do, in the units its progress counts (for a
    /// progress bar's length; 0 when it is too quick to show one).
    fn work(&self, observed: &Observed) -> u64;

    /// Every state that deals every deal of `observed`, from as many of the first deals as
    /// pin it (the others are checked); or the one-line reason why the deals given are
    /// too few.
    fn search(&self, observed: &Observed, control: &Control<'_>) -> std::result::Result<Search, String>;

    /// The seeds the runtime starts from, when it is searched seed by seed
    /// ([`seeded`]); `None` when its state is recovered from the deals whole.
    fn seed_space(&self) -> Option<Range<u64>> {
        None
    }

    /// Whether a search may take seconds however few the deals (a summed xorshift128+,
    /// [`summed`]): checks on a budget try the others first.
    fn takes_seconds(&self) -> bool {
        false
    }

    /// Whether the runtime only tries others of the registry in turn (`js`): checks that
    /// go through every runtime skip it.
    fn tries_others(&self) -> bool {
        false
    }
}

/// What a search may use and how it reports.
pub struct Control<'a> {
    /// Set to stop the search (a budget spent, Ctrl-C).
    pub stop: &'a AtomicBool,
    /// Counts the work done.
    pub progress: &'a dyn Progress,
    /// The seeds to search (`--window`), for a runtime searched seed by seed; `None`
    /// searches them all.
    pub window: Option<Range<u64>>,
    /// Only what takes milliseconds (a budgeted check short of time): a runtime whose
    /// search takes seconds ([`Runtime::takes_seconds`]) does what it can quickly and says
    /// in its caveat what it left out, or refuses with [`NOT_TRIED`].
    pub quick_only: bool,
}

/// The refusal of a runtime whose every search takes seconds, under
/// [`Control::quick_only`].
pub const NOT_TRIED: &str = "not tried, its search takes seconds";

/// What a runtime's search found.
#[derive(Default)]
pub struct Search {
    /// The first deals searched with (the others were checked).
    pub deals_used: usize,
    pub candidates: Vec<Candidate>,
    /// States that deal the deals but were not listed (a seed search lists the first
    /// [`seeded::MOST_LISTED`]).
    pub unlisted: u64,
    /// Every state that deals the deals is among the candidates (false when the search
    /// was stopped before its end).
    pub complete: bool,
    /// What a "no state" answer does not rule out, when the search left a rare case out.
    pub caveat: Option<String>,
    /// The seeds searched, for a runtime searched seed by seed.
    pub seeds: Option<SeedsSearched>,
}

/// A generator state that deals every deal given.
pub struct Candidate {
    /// The shuffle it deals through.
    pub shuffle: &'static ShuffleCode,
    /// The state before the first deal, in hexadecimal.
    pub state: String,
    /// The seed that starts the generator in that state, when there is one.
    pub seed: Option<Seed>,
    /// What else the state needs to be read (V8: where in its cache the first deal's
    /// first number was).
    pub note: Option<String>,
    /// The generator positioned before the first deal, once for each way the runtime's
    /// versions may compute its numbers that deals what was seen.
    pub generators: Vec<Generator>,
    pub direction: Direction,
}

/// A seed, and how the runtime is given it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seed {
    pub value: i64,
    /// `new Random(42L)`, `node --random-seed=7`.
    pub usage: String,
}

/// A generator that deals, positioned before the first observed deal. (V8's carries its
/// 64-value cache, hence the box.)
#[derive(Clone, Debug)]
pub enum Generator {
    Java(java::JavaRandom),
    V8(Box<v8::MathRandom>),
    /// A runtime started from a seed, drawing as its shuffle draws.
    Seeded(Box<dyn seeded::Draws>),
}

impl Generator {
    fn below(&mut self, bound: u32) -> u32 {
        match self {
            Generator::Java(random) => random.next_int(bound),
            Generator::V8(random) => random.below(bound),
            Generator::Seeded(draws) => draws.below(bound),
        }
    }
}

impl Candidate {
    /// The generator (its first variant) dealing on from the end of `observed`, one deal
    /// at a time: for following a recovered state through a long input.
    pub fn dealer(&self, observed: &Observed) -> Dealer {
        let mut generator = self.generators[0].clone();
        for draw in observed.draws(self.direction, observed.deals.len()) {
            generator.below(draw.bound);
        }
        Dealer {
            generator,
            direction: self.direction,
            deck: observed.start_of(observed.deals.len()),
            carried: observed.carried,
        }
    }

    /// The `count` deals after the observed ones, once for each generator variant.
    fn predictions(&self, observed: &Observed, count: usize) -> Vec<Vec<Vec<u16>>> {
        let replayed = observed.draws(self.direction, observed.deals.len());
        self.generators
            .iter()
            .map(|generator| {
                let mut generator = generator.clone();
                for draw in &replayed {
                    generator.below(draw.bound);
                }
                observed.predict(self.direction, count, |bound| generator.below(bound))
            })
            .collect()
    }
}

/// A recovered generator dealing on ([`Candidate::dealer`]).
pub struct Dealer {
    generator: Generator,
    direction: Direction,
    /// The deck the next deal shuffles (the last deal, when decks are carried).
    deck: Vec<u16>,
    carried: bool,
}

impl Dealer {
    /// The next deal, cards numbered by their place in the unshuffled deck.
    pub fn next_deal(&mut self) -> Vec<u16> {
        let mut deal = if self.carried {
            self.deck.clone()
        } else {
            (0..self.deck.len() as u16).collect()
        };
        let generator = &mut self.generator;
        self.direction.deal(&mut deal, |bound| generator.below(bound));
        if self.carried {
            self.deck.clone_from(&deal);
        }
        deal
    }
}

/// The answer of `seeds recover`.
pub struct Recovery {
    pub runtime: &'static About,
    /// Cards in a deck.
    pub n: usize,
    /// Deals given, and the first `deals_used` of them searched with (the rest checked).
    pub deals: usize,
    pub deals_used: usize,
    /// Each deal shuffled the deck the one before left.
    pub carried: bool,
    pub candidates: Vec<Candidate>,
    /// Matching states beyond those listed (see [`Search::unlisted`]).
    pub unlisted: u64,
    /// Every matching state was found (false: the search was stopped).
    pub complete: bool,
    /// What a "no state" answer does not rule out (see [`Search::caveat`]).
    pub caveat: Option<String>,
    /// Every state found (and every version of the runtime) deals the same next deals.
    pub same_next_deals: bool,
    /// The next deals, when they are known ([`Recovery::predictable`]) and were asked for.
    pub predicted: Vec<Vec<u16>>,
    /// The predictions asked for.
    pub predict: usize,
    /// The seeds searched, for a runtime searched seed by seed.
    pub seeds: Option<SeedsSearched>,
    pub elapsed: Duration,
}

impl Recovery {
    /// One state explains every deal.
    pub fn pinned(&self) -> bool {
        self.complete && self.candidates.len() == 1 && self.unlisted == 0
    }

    /// How many states deal the deals (listed or not).
    pub fn matching(&self) -> u64 {
        self.candidates.len() as u64 + self.unlisted
    }

    /// About how many more deals tell the matching states apart, as the answer asks for
    /// them ("one more deal", "about 6 more deals"): each deal of `n` cards divides them by
    /// at most `n!` (by 6 for 3 cards), so at least one, and `log2(matching) / log2(n!)`.
    pub fn more_deals_to_tell_apart(&self) -> String {
        let bits = (self.matching().max(1) as f64).log2();
        match ((bits / bits_per_deal(self.n)).ceil() as u64).max(1) {
            1 => "one more deal".to_string(),
            more => format!("about {more} more deals"),
        }
    }

    /// Every later deal is known: one state deals the deals, or every state that does
    /// deals the same next deals (in every version of the runtime).
    pub fn predictable(&self) -> bool {
        self.complete && !self.candidates.is_empty() && self.same_next_deals
    }
}

/// Next deals compared between the states (and runtime versions) that deal the deals
/// given: when they all deal the same next 64, they differ only in numbers the shuffle
/// never shows (lodash's last draw of `floor(x · 1)`, say), and are one to a player.
const AGREEMENT_DEALS: usize = 64;

/// Matching states compared that way, at most; more are told apart by more deals.
const MOST_COMPARED: usize = 64;

/// Recovers `runtime`'s generator from `observed` and predicts `predict` deals after them.
pub fn recover(
    runtime: &dyn Runtime,
    observed: &Observed,
    predict: usize,
    control: &Control<'_>,
) -> Result<Recovery> {
    let about = runtime.about();
    let n = observed.n();
    if observed.deals.is_empty() {
        return Err(Error::Usage(
            "no deals to recover from: the input holds none".to_string(),
        ));
    }
    if n < about.min_cards {
        return Err(Error::Usage(format!(
            "{} cannot be recovered from decks of {n} cards: its search needs decks of at least {} cards",
            about.generator, about.min_cards
        )));
    }
    let started = Instant::now();
    let search = runtime.search(observed, control).map_err(Error::Usage)?;
    let mut predicted = Vec::new();
    let mut same_next_deals = false;
    if search.complete && search.unlisted == 0 && (1..=MOST_COMPARED).contains(&search.candidates.len()) {
        let horizon = predict.max(AGREEMENT_DEALS);
        let variants: Vec<Vec<Vec<u16>>> = search
            .candidates
            .iter()
            .flat_map(|candidate| candidate.predictions(observed, horizon))
            .collect();
        same_next_deals = variants.windows(2).all(|pair| pair[0] == pair[1]);
        if same_next_deals {
            predicted = variants.into_iter().next().unwrap_or_default();
            predicted.truncate(predict);
        }
    }
    Ok(Recovery {
        runtime: about,
        n,
        deals: observed.deals.len(),
        deals_used: search.deals_used,
        carried: observed.carried,
        candidates: search.candidates,
        unlisted: search.unlisted,
        complete: search.complete,
        caveat: search.caveat,
        same_next_deals,
        predicted,
        predict,
        seeds: search.seeds,
        elapsed: started.elapsed(),
    })
}

#[cfg(test)]
mod tests;
