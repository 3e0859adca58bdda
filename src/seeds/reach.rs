//! `seeds reach`: shuffle a deck from every seed of a range and count the distinct orders
//! that come out, against `n!`.
//!
//! A program that seeds a 32-bit generator and shuffles 52 cards can deal at most 2^32
//! of the 52! ≈ 2^225.6 possible decks, however good its shuffle (text 001). This command
//! shows it by doing it: every seed of the range is the source's initial state as it is
//! (`srand(seed)`, `RandSeed := seed`, a clock reading `seed` ms, `seed_from_u64(seed)`),
//! the catalogue shuffle deals cards `0..n` from it, and the deals are counted.
//!
//! - Up to 12 cards every order has a bit ([`OrderBitset`]): the count is exact, and
//!   orders no seed deals are listed by rank.
//! - Beyond, the count is an estimate from a bounded sample of the distinct orders
//!   ([`DistinctSample`]), said as such with its standard error; a few fixed orders
//!   (identity, reversed, four pseudo-random ones) are compared with every deal, so
//!   those never dealt are *proven* unreachable from the range.
//!
//! The work is cut into units of consecutive seeds handed to the engine's workers
//! ([`Engine::for_each_unit`]). A unit's decks are dealt in batches through the
//! catalogue's batch loop ([`PermutationAlgorithm::shuffle_each`]) from a source that
//! starts over from the next seed before every deck (`SeedWalk`), so the shuffle is the
//! catalogue's own code and the match on the algorithm runs once per batch. Everything
//! recorded combines by union, so the result does not depend on `--threads`.

mod distinct;
mod order_bitset;
mod orders;
mod recording;
mod seed_space;

use std::time::{Duration, Instant};

use crate::catalogue::{AlgorithmSpec, PermutationAlgorithm, Workspace};
use crate::error::{Error, Result};
use crate::randomness::{ClockReseed, DelphiRandom, MsvcRand, Randomness, SourceKind, XoshiroSource};
use crate::simulate::{Engine, Progress};
use crate::tally::MAX_N;

pub use distinct::{DistinctCount, DistinctSample, Fingerprint};
pub use order_bitset::{MAX_BITSET_N, OrderBitset};
pub use orders::OrderCount;
pub use seed_space::{MAX_SEEDS, SeedSpace, SeedSpaceOrigin, parse_seed_range};

use recording::{DealRecorder, SampledOrders};

/// The most distinct orders the sample keeps beyond 12 cards: 2^20, so that the relative
/// standard error of the estimate is about 0.1 % and the sample takes at most 2^21
/// fingerprints of 16 bytes (32 MiB) between compactions, whatever the thread count.
pub const DEFAULT_SAMPLE_CAPACITY: usize = 1 << 20;

/// Consecutive seeds in a unit of work: big enough that handing out a unit costs nothing,
/// small enough that two threads share even a short range.
const UNIT_SEEDS: u64 = 1 << 16;

/// What `seeds reach` enumerates.
#[derive(Clone, Debug)]
pub struct ReachSettings {
    /// The generator whose seeds are walked.
    pub source: SourceKind,
    /// The catalogue shuffle that deals from each seed.
    pub algorithm: AlgorithmSpec,
    /// Cards in the deck (2 to [`MAX_N`]).
    pub n: usize,
    /// The seeds.
    pub seeds: SeedSpace,
    /// Worker threads. The result does not depend on it.
    pub threads: usize,
    /// The most distinct orders kept beyond 12 cards ([`DEFAULT_SAMPLE_CAPACITY`]).
    pub sample_capacity: usize,
}

impl ReachSettings {
    /// The shuffle to run, once every setting is known to be usable.
    pub fn validate(&self) -> Result<PermutationAlgorithm> {
        let bad = |option, problem: String| Err(Error::BadOption { option, problem });
        if self.n < 2 {
            return bad(
                "--n",
                format!(
                    "must be at least 2 (got {}): a smaller deck has only one order",
                    self.n
                ),
            );
        }
        if self.n > MAX_N {
            return bad("--n", format!("must be at most {MAX_N} (got {})", self.n));
        }
        if self.sample_capacity == 0 {
            return Err(Error::Usage(
                "the distinct sample needs room for at least one order".to_string(),
            ));
        }
        crate::simulate::check_thread_count(self.threads)?;
        let Some(algorithm) = self.algorithm.algorithm.as_permutation() else {
            return Err(Error::Usage(format!(
                "{} is a sampler (it picks k of n items); seeds reach deals whole decks with a \
                 shuffle such as fisher-yates or asf-poker",
                self.algorithm.entry.name
            )));
        };
        Ok(algorithm.resolve(self.n))
    }
}

/// How many distinct orders the seeds dealt.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Reachable {
    /// Counted over a bit per order (up to 12 cards): exact.
    Exact {
        /// Distinct orders dealt.
        count: u64,
    },
    /// Counted in a sample of the distinct orders (beyond 12 cards): an estimate, unless
    /// every order fitted in the sample.
    Sampled(DistinctCount),
}

impl Reachable {
    /// The count, when it is exact: always over the bitset, and for a sample that kept
    /// every distinct order (told apart by 128-bit fingerprints).
    pub fn exact_count(&self) -> Option<u64> {
        match self {
            Reachable::Exact { count } => Some(*count),
            Reachable::Sampled(sample) => sample.is_exact().then_some(sample.kept),
        }
    }

    /// The count or its estimate.
    pub fn estimate(&self) -> f64 {
        match self {
            Reachable::Exact { count } => *count as f64,
            Reachable::Sampled(sample) => sample.estimate(),
        }
    }

    /// The standard error of [`Reachable::estimate`]; zero for an exact count.
    pub fn standard_error(&self) -> f64 {
        match self {
            Reachable::Exact { .. } => 0.0,
            Reachable::Sampled(sample) => sample.standard_error(),
        }
    }
}

/// An order shown in the report: one no seed of the range deals, or a fixed candidate
/// order and whether some seed deals it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OrderExample {
    /// `rank 1,234`, or the candidate's name (`identity`).
    pub label: String,
    /// The order, cards from 0.
    pub order: Vec<u16>,
    /// Its Lehmer rank, for orders found missing from the bitset.
    pub rank: Option<u64>,
    /// Whether some seed of the range deals it (only a candidate can be dealt).
    pub dealt: bool,
}

/// The result of `seeds reach`.
#[derive(Clone, Debug)]
pub struct ReachReport {
    /// The generator whose seeds were walked.
    pub source: SourceKind,
    /// The shuffle, as it ran (`naive-repeated:3`).
    pub algorithm: String,
    /// Cards in the deck.
    pub n: usize,
    /// The seeds enumerated, every one of them.
    pub seeds: SeedSpace,
    /// `n!`.
    pub orders: OrderCount,
    /// How many distinct orders the seeds dealt.
    pub reachable: Reachable,
    /// Orders no seed of the range deals (up to 12 cards: the first few missing ranks and
    /// a few spread out; beyond: the candidates never dealt), then candidates dealt.
    pub examples: Vec<OrderExample>,
    /// Worker threads used.
    pub threads: usize,
    /// Wall-clock time of the enumeration.
    pub elapsed: Duration,
}

impl ReachReport {
    /// The most orders the seeds can reach: `min(seeds, n!)`.
    pub fn bound(&self) -> u64 {
        let seeds = self.seeds.count();
        self.orders.exact.map_or(seeds, |orders| orders.min(seeds))
    }

    /// Whether there are fewer seeds than orders, so that most orders can never come out.
    pub fn seeds_are_fewer_than_orders(&self) -> bool {
        !self.orders.at_most(self.seeds.count())
    }

    /// Whether the reachable count is an estimate within three standard errors of the
    /// bound `min(seeds, n!)`: then nothing shows that any two seeds deal the same order
    /// (or that any order is out of reach), and the estimate may exceed the bound by noise.
    pub fn estimate_meets_bound(&self) -> bool {
        match self.reachable {
            Reachable::Sampled(sample) if !sample.is_exact() => {
                (sample.estimate() - self.bound() as f64).abs() <= 3.0 * sample.standard_error()
            }
            _ => false,
        }
    }

    /// How many seeds deal each reachable order, on average: 1 when every seed deals an
    /// order of its own, 2 when seeds deal orders in pairs (`msvc-rand-mod`'s bit 31).
    pub fn seeds_per_order(&self) -> f64 {
        self.seeds.count() as f64 / self.reachable.estimate().max(1.0)
    }

    /// Seeds dealt per second of wall-clock time.
    pub fn seeds_per_second(&self) -> f64 {
        self.seeds.count() as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }

    /// Whether the count is exact or an estimate.
    pub fn method(&self) -> &'static str {
        match self.reachable {
            Reachable::Exact { .. } => "bitset",
            Reachable::Sampled(_) => "distinct-sampling",
        }
    }
}

/// What a seed is for `source`: the call a program makes with it.
pub fn seed_meaning(source: SourceKind) -> &'static str {
    match source {
        SourceKind::Xoshiro => "Xoshiro256PlusPlus::seed_from_u64(seed)",
        SourceKind::MsvcRandMod => "srand(seed)",
        SourceKind::Delphi => "RandSeed := seed",
        SourceKind::ClockReseed(_) => {
            "Randomize with the clock reading seed ms since midnight, i.e. RandSeed := seed \
             before the one shuffle (the clock step plays no part)"
        }
    }
}

/// Deals `settings.n` cards from every seed of `settings.seeds` and counts the distinct
/// orders. `progress` counts seeds.
pub fn reach(settings: &ReachSettings, progress: &dyn Progress) -> Result<ReachReport> {
    let algorithm = settings.validate()?;
    let engine = Engine::new(settings.threads)?;
    let started = Instant::now();
    let (reachable, examples) = if settings.n <= MAX_BITSET_N {
        let reached = OrderBitset::new(settings.n);
        deal_every_seed(&engine, settings, algorithm, &reached, progress);
        let missing = reached
            .missing_examples(3, 3)
            .into_iter()
            .map(|(rank, order)| OrderExample {
                label: format!("rank {}", crate::format::group_thousands(rank)),
                order,
                rank: Some(rank),
                dealt: false,
            })
            .collect();
        (
            Reachable::Exact {
                count: reached.count(),
            },
            missing,
        )
    } else {
        let sampled = SampledOrders::new(settings.n, settings.sample_capacity);
        deal_every_seed(&engine, settings, algorithm, &sampled, progress);
        let (count, candidates) = sampled.finish();
        let mut examples: Vec<OrderExample> = candidates
            .into_iter()
            .map(|(candidate, dealt)| OrderExample {
                label: candidate.name,
                order: candidate.order,
                rank: None,
                dealt,
            })
            .collect();
        // Undealt first: they are the unreachable examples.
        examples.sort_by_key(|example| example.dealt);
        (Reachable::Sampled(count), examples)
    };
    Ok(ReachReport {
        source: settings.source,
        algorithm: settings.algorithm.display_name(settings.n),
        n: settings.n,
        seeds: settings.seeds.clone(),
        orders: OrderCount::of(settings.n),
        reachable,
        examples,
        threads: engine.threads(),
        elapsed: started.elapsed(),
    })
}

/// Deals from every seed into `recorder`, with the source's concrete generator, so that
/// the inner loop is compiled for it.
fn deal_every_seed<D: DealRecorder>(
    engine: &Engine,
    settings: &ReachSettings,
    algorithm: PermutationAlgorithm,
    recorder: &D,
    progress: &dyn Progress,
) {
    let deal = Dealing {
        engine,
        seeds: &settings.seeds,
        algorithm,
        n: settings.n,
        progress,
    };
    // A 32-bit source's seeds were checked to be below 2^32 (SeedSpace::resolve), so
    // `seed as u32` is the seed itself.
    match settings.source {
        SourceKind::Xoshiro => deal.run(recorder, XoshiroSource::from_seed),
        SourceKind::MsvcRandMod => deal.run(recorder, |seed| MsvcRand::from_state(seed as u32)),
        SourceKind::Delphi => deal.run(recorder, |seed| DelphiRandom::from_state(seed as u32)),
        SourceKind::ClockReseed(step) => deal.run(recorder, move |seed| ClockReseed::new(step, seed, 0)),
    }
}

/// One enumeration's parameters.
struct Dealing<'a> {
    engine: &'a Engine,
    seeds: &'a SeedSpace,
    algorithm: PermutationAlgorithm,
    n: usize,
    progress: &'a dyn Progress,
}

/// A worker's decks and scratch space.
struct Dealer<W> {
    worker: W,
    decks: Vec<u16>,
    workspace: Workspace<u16>,
}

impl Dealing<'_> {
    /// Deals from every seed, the generator for seed `s` being `start(s)`.
    fn run<R, D>(&self, recorder: &D, start: impl Fn(u64) -> R + Sync)
    where
        R: Randomness,
        D: DealRecorder,
    {
        // Decks dealt per batch: about 64 KiB of cards, so that a batch stays in cache.
        let batch = (32_768 / self.n).clamp(1, 512);
        let n = self.n;
        let identity: Vec<u16> = (0..n as u16).collect();
        let dealers = self.engine.for_each_unit(
            self.seeds.unit_count(UNIT_SEEDS),
            self.progress,
            || Dealer {
                worker: recorder.worker(),
                decks: vec![0; batch * n],
                workspace: Workspace::default(),
            },
            |dealer, unit, unit_progress| {
                let seeds = self.seeds.unit(unit, UNIT_SEEDS);
                let mut first = seeds.start;
                while first < seeds.end {
                    let count = (seeds.end - first).min(batch as u64) as usize;
                    let decks = &mut dealer.decks[..count * n];
                    for deck in decks.chunks_exact_mut(n) {
                        deck.copy_from_slice(&identity);
                    }
                    let mut walk = SeedWalk {
                        source: start(first),
                        start: &start,
                        next_seed: first,
                    };
                    self.algorithm
                        .shuffle_each(decks.chunks_exact_mut(n), &mut walk, &mut dealer.workspace);
                    recorder.record(&mut dealer.worker, decks, n);
                    unit_progress.done(count as u64);
                    first += count as u64;
                }
                seeds.end - seeds.start
            },
        );
        for dealer in dealers {
            recorder.finish_worker(dealer.worker);
        }
    }
}

/// A source that starts over from the next seed at every trial: the catalogue's batch
/// loop calls [`Randomness::begin_trial`] before each deck, so deck `i` of a batch is
/// dealt by the generator `start(first + i)`, exactly as a program that seeds it and
/// shuffles once would deal it.
struct SeedWalk<'a, R, S> {
    source: R,
    start: &'a S,
    next_seed: u64,
}

impl<R: Randomness, S: Fn(u64) -> R> Randomness for SeedWalk<'_, R, S> {
    #[inline]
    fn below(&mut self, n: u64) -> u64 {
        self.source.below(n)
    }

    #[inline]
    fn unit(&mut self) -> f64 {
        self.source.unit()
    }

    #[inline]
    fn below_each(&mut self, bounds: &[u64], answers: &mut [u64]) -> u64 {
        self.source.below_each(bounds, answers)
    }

    #[inline]
    fn coins(&mut self, count: u32) -> u64 {
        self.source.coins(count)
    }

    /// The next seed's generator, then its own start of a trial (a clock-reseed source
    /// reads its clock there).
    #[inline]
    fn begin_trial(&mut self) {
        self.source = (self.start)(self.next_seed);
        self.next_seed += 1;
        self.source.begin_trial();
    }
}

#[cfg(test)]
mod tests;
