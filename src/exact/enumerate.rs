//! Every random path of an algorithm, followed one by one, with its exact probability.
//!
//! The algorithms draw only through [`Randomness::below`], so the same code that is
//! simulated can be driven by a source that answers from a list instead of a generator.
//! [`Replay`] answers from a prefix and extends it with zeros; after each run the last
//! answer that can still grow is increased and everything after it dropped (an odometer
//! whose digits have the bounds the algorithm asked for). That walks the tree of draws
//! depth first, visiting every leaf once, whether the bounds are fixed (Fisher–Yates:
//! `n, n−1, …`) or depend on earlier answers (a merge sort asking coins until a half runs
//! out). A leaf's probability is the product over its draws of each answer's
//! probability: `1/bound` from the default source, and under a flawed source the share of
//! its raw outputs that give the answer ([`DrawLaw`]: `rand() % 3` answers 0 with
//! probability 10923/32768). Answers no raw output gives are not walked at all.
//!
//! Probabilities stay exact: each leaf's is a fraction of integers, leaves are summed per
//! denominator (most algorithms have a single one, `n^n` for the naive swap), and at the
//! end the sums are put over the least common multiple of the denominators. Every
//! product and sum is checked: an overflow is an error, never a wrong number (or a
//! silently rounded one). The walk is split over the first two draws and runs in
//! parallel; its result does not depend on the thread count.

mod paths;
mod swaps;

use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;

use crate::catalogue::generators::{GeneratorSpec, StreamScenario};
use crate::catalogue::items::Items;
use crate::catalogue::{PermutationAlgorithm, SamplerAlgorithm, SamplerWorkspace, Workspace};
use crate::error::{Error, Result};
use crate::format::group_thousands;
use crate::randomness::{DrawLaw, Randomness};
use crate::simulate::Progress;
use crate::tally::combinadic;
use crate::tally::lehmer::{MAX_RANKED_N, factorial, falling_factorial, partial_rank, rank};
use crate::tally::subsets::subset_cells;
use paths::{gcd, walk};
use swaps::walk_swaps;

/// The most random paths an enumeration may walk (about a minute on two cores).
pub const MAX_PATHS: u64 = 2_000_000_000;

/// The most items a sampler may pick from when its paths are enumerated.
pub const MAX_SAMPLER_N: usize = 20;

/// The walk is split over its first two draws when they have at most this many answer
/// pairs, else over the first draw only.
const MOST_PARTS: u64 = 4096;

/// The most draws one path may make before the walk gives up on the algorithm.
pub const MAX_DEPTH: usize = 10_000;

/// A source that replays a list of answers and extends it with zeros.
#[derive(Debug, Default)]
pub struct Replay {
    answers: Vec<u64>,
    bounds: Vec<u64>,
    /// Set when the algorithm drew a float or went deeper than [`MAX_DEPTH`].
    unenumerable: Option<&'static str>,
}

impl Randomness for Replay {
    #[inline]
    fn below(&mut self, n: u64) -> u64 {
        let position = self.bounds.len();
        if position >= MAX_DEPTH {
            self.unenumerable
                .get_or_insert("it makes more than 10,000 draws on one path");
            return 0;
        }
        self.bounds.push(n);
        match self.answers.get(position) {
            Some(&answer) => answer,
            None => {
                self.answers.push(0);
                0
            }
        }
    }

    /// Its `below_each` is the trait's default, `below` for each bound: the shuffles ask it
    /// bound by bound, the walk runs them on every path (387 million times for a 9-card
    /// naive swap), and gathering the bounds into words cost a third of it.
    #[inline]
    fn draws_one_by_one(&self) -> bool {
        true
    }

    fn unit(&mut self) -> f64 {
        self.unenumerable.get_or_insert(DRAWS_FLOATS);
        0.0
    }
}

/// Outcome probabilities summed per path denominator, for one part of the walk.
#[derive(Clone, Debug, Default)]
struct Counts {
    /// `(denominator, summed numerators per outcome)`; few distinct denominators, so a
    /// list. The numerators of one denominator sum to at most the denominator (they are
    /// probabilities), so they cannot overflow where the denominator fits.
    by_denominator: Vec<(u128, Vec<u128>)>,
    /// The same for paths of probability exactly `1 / denominator` (every path under the
    /// default source), counted per outcome in 8 bytes a cell instead of 16: a 9-card
    /// walk's table (9! cells per worker, read at random) then takes half the cache. At
    /// most [`MAX_PATHS`] paths, so the counts fit.
    unit_paths: Vec<(u128, Vec<u64>)>,
    paths: u64,
}

/// The cells of `denominator` among `tables`, added (zeroed) if new.
fn cells_of<C: Clone + Default>(
    tables: &mut Vec<(u128, Vec<C>)>,
    denominator: u128,
    cells: usize,
) -> &mut [C] {
    let slot = match tables.iter().position(|(d, _)| *d == denominator) {
        Some(slot) => slot,
        None => {
            tables.push((denominator, vec![C::default(); cells]));
            tables.len() - 1
        }
    };
    &mut tables[slot].1
}

/// Adds `from`'s tables into `into`'s, cell by cell where they share a denominator.
fn add_tables<C: Copy + std::ops::AddAssign>(into: &mut Vec<(u128, Vec<C>)>, from: Vec<(u128, Vec<C>)>) {
    for (denominator, counts) in from {
        match into.iter_mut().find(|(d, _)| *d == denominator) {
            Some((_, mine)) => mine.iter_mut().zip(&counts).for_each(|(a, &b)| *a += b),
            None => into.push((denominator, counts)),
        }
    }
}

impl Counts {
    fn add(&mut self, (numerator, denominator): (u128, u128), outcome: usize, cells: usize) {
        self.paths += 1;
        if numerator == 1 {
            cells_of(&mut self.unit_paths, denominator, cells)[outcome] += 1;
        } else {
            cells_of(&mut self.by_denominator, denominator, cells)[outcome] += numerator;
        }
    }

    fn merge(mut self, other: Counts) -> Counts {
        self.paths += other.paths;
        add_tables(&mut self.by_denominator, other.by_denominator);
        add_tables(&mut self.unit_paths, other.unit_paths);
        self
    }
}

/// An exact law over a table of outcomes: `numerators[i] / denominator` each.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExactLaw {
    /// Random paths walked.
    pub paths: u64,
    /// The common denominator (the least common multiple of the paths' denominators).
    pub denominator: u128,
    /// One numerator per outcome; they sum to `denominator` exactly.
    pub numerators: Vec<u128>,
}

impl ExactLaw {
    /// Outcome `i`'s probability as a reduced fraction.
    pub fn fraction(&self, i: usize) -> (u128, u128) {
        let divisor = gcd(self.numerators[i], self.denominator).max(1);
        (self.numerators[i] / divisor, self.denominator / divisor)
    }

    /// Outcome `i`'s probability as a float.
    pub fn probability(&self, i: usize) -> f64 {
        self.numerators[i] as f64 / self.denominator as f64
    }

    /// Every outcome's probability.
    pub fn probabilities(&self) -> Vec<f64> {
        (0..self.numerators.len()).map(|i| self.probability(i)).collect()
    }

    /// Half the sum of |p − 1/cells|: the total variation distance from uniform.
    pub fn total_variation(&self) -> f64 {
        let uniform = 1.0 / self.numerators.len() as f64;
        0.5 * self
            .probabilities()
            .iter()
            .map(|p| (p - uniform).abs())
            .sum::<f64>()
    }

    /// The outcomes that never occur.
    pub fn impossible(&self) -> Vec<usize> {
        (0..self.numerators.len())
            .filter(|&i| self.numerators[i] == 0)
            .collect()
    }

    /// The largest numerator over the smallest positive one (1 for a uniform law).
    pub fn max_ratio(&self) -> f64 {
        let positive = self.numerators.iter().copied().filter(|&n| n > 0);
        let most = positive.clone().max().unwrap_or(0);
        let least = positive.min().unwrap_or(1);
        most as f64 / least as f64
    }
}

/// Why `algorithm` cannot be enumerated with its draws answered by `law`, if it cannot.
pub fn not_enumerable(algorithm: PermutationAlgorithm, law: DrawLaw) -> Option<String> {
    let why = algorithm.facts(|shuffle| shuffle.not_enumerable())?;
    let floats = if why.draws_floats {
        floats_problem(law)
    } else {
        String::new()
    };
    Some(format!("{}{floats}{}", why.reason, why.instead))
}

/// What the reason [`Replay`] gives when asked for a float stands for.
const DRAWS_FLOATS: &str = "it draws floating-point numbers";

/// Why floats are not walked under `law`. The default source's have no finite list of
/// answers. A flawed source's do: `rand() / 32768` is one of 32,768 values, Delphi's
/// `RandSeed / 2^32` one of 2^32. But every float multiplies the paths by that many, so
/// three keys from `rand()` already make 2^45 paths, far beyond [`MAX_PATHS`], and only a
/// 2-card sort would fit (for one bit of information: its two keys tie with probability
/// 1/32768, and a tie keeps the order). So floats stay refused under every source.
fn floats_problem(law: DrawLaw) -> String {
    match law.float_values() {
        None => ", which have no finite list of answers".to_string(),
        Some(values) => format!(
            "; under this source each is one of {} values, so every float multiplies the \
             paths by as many, and a few floats make more paths than the {} a walk may visit",
            group_thousands(u64::try_from(values).unwrap_or(u64::MAX)),
            group_thousands(MAX_PATHS)
        ),
    }
}

/// The error for a walk given up on for `reason` (a [`Replay`] reason), under `law`.
fn refused(reason: &str, law: DrawLaw) -> Error {
    let reason = match reason {
        DRAWS_FLOATS => format!("{DRAWS_FLOATS}{}", floats_problem(law)),
        other => other.to_string(),
    };
    Error::Usage(format!("cannot enumerate this algorithm: {reason}"))
}

/// The exact law of `algorithm` over the `n!` orders of `n` cards (Lehmer ranks), its
/// draws answered by `law`.
pub fn enumerate_permutations(
    algorithm: PermutationAlgorithm,
    n: usize,
    law: DrawLaw,
    progress: &dyn Progress,
) -> Result<ExactLaw> {
    enumerate_permutations_within(algorithm, n, law, MAX_PATHS, progress)
}

/// [`enumerate_permutations`] walking at most `max_paths` paths (an error beyond).
pub fn enumerate_permutations_within(
    algorithm: PermutationAlgorithm,
    n: usize,
    law: DrawLaw,
    max_paths: u64,
    progress: &dyn Progress,
) -> Result<ExactLaw> {
    let algorithm = algorithm.resolve(n);
    if let Some(reason) = not_enumerable(algorithm, law) {
        return Err(Error::Usage(format!("cannot enumerate this algorithm: {reason}")));
    }
    if n > MAX_RANKED_N {
        return Err(Error::BadOption {
            option: "--n",
            problem: format!(
                "must be at most {MAX_RANKED_N} to enumerate every order (got {n}); \
                 --positions gives exact position matrices for larger decks"
            ),
        });
    }
    check_path_count(schedule_size(algorithm, n), max_paths)?;
    let cells = factorial(n).expect("n <= 10") as usize;
    if let (DrawLaw::Uniform, Some(shuffle)) = (law, algorithm.swap_shuffle())
        && let Some(law) = walk_swaps(shuffle, n, cells, progress)
    {
        return law;
    }
    walk_replayed(algorithm, n, cells, law, max_paths, progress)
}

/// The general walk of a shuffle: the shuffle replayed on every path (see [`Replay`]).
fn walk_replayed(
    algorithm: PermutationAlgorithm,
    n: usize,
    cells: usize,
    law: DrawLaw,
    max_paths: u64,
    progress: &dyn Progress,
) -> Result<ExactLaw> {
    walk(
        cells,
        law,
        max_paths,
        || {
            let mut deck: Vec<u16> = Vec::with_capacity(n);
            let mut workspace = Workspace::default();
            move |source: &mut Replay| {
                deck.clear();
                deck.extend(0..n as u16);
                algorithm.shuffle(&mut deck, source, &mut workspace);
                rank(&deck)
            }
        },
        progress,
    )
}

/// The exact law of `sampler` picking `k` of `n` items: over subsets (colex ranks), or
/// over ordered selections for samplers that promise a random order; its draws answered
/// by `law`.
pub fn enumerate_selections(
    sampler: SamplerAlgorithm,
    n: usize,
    k: usize,
    law: DrawLaw,
    progress: &dyn Progress,
) -> Result<ExactLaw> {
    if n > MAX_SAMPLER_N {
        return Err(Error::BadOption {
            option: "--n",
            problem: format!(
                "must be at most {MAX_SAMPLER_N} to enumerate a sampler (got {n}): its paths grow like n!"
            ),
        });
    }
    let ordered = sampler.promises_order();
    let cells = if ordered {
        falling_factorial(n, k)
    } else {
        subset_cells(n, k)
    }
    .filter(|&cells| cells <= factorial(MAX_RANKED_N).expect("10! fits"))
    .ok_or_else(|| Error::BadOption {
        option: "--n",
        problem: format!("{n} items with --k {k} have too many outcomes to enumerate (over 10!)"),
    })? as usize;
    walk(
        cells,
        law,
        MAX_PATHS,
        || {
            let mut out = vec![0u16; k];
            let mut sorted = vec![0u16; k];
            let mut workspace = SamplerWorkspace::default();
            move |source: &mut Replay| {
                sampler.sample(n, source, &mut out, &mut workspace);
                if ordered {
                    partial_rank(&out, n)
                } else {
                    sorted.copy_from_slice(&out);
                    sorted.sort_unstable();
                    combinadic::rank(&sorted) as usize
                }
            }
        },
        progress,
    )
}

/// The bounds of every draw of `algorithm` on `n` cards, when they do not depend on the
/// answers. 8-bit keys are `n` draws of 256: a fixed schedule the simulator does not list
/// (it never tallies them by path), known here so that a deck with too many paths is
/// refused at once.
fn schedule_of(algorithm: PermutationAlgorithm, n: usize) -> Option<Vec<u64>> {
    algorithm.resolve(n).facts(|shuffle| shuffle.fixed_bounds(n))
}

/// The number of random paths of `algorithm` on `n` cards, when known in advance.
pub fn known_paths(algorithm: PermutationAlgorithm, n: usize) -> Option<u64> {
    schedule_of(algorithm, n)?
        .iter()
        .try_fold(1u64, |paths, &bound| paths.checked_mul(bound))
}

/// The exact law of the first cycle of the bag `spec` deals from one copy of each of
/// `items` (at most 10): the order of the items, as a Lehmer rank; its draws answered by
/// `law`.
pub fn enumerate_cycle(
    spec: &GeneratorSpec,
    items: &Items,
    law: DrawLaw,
    progress: &dyn Progress,
) -> Result<ExactLaw> {
    let m = items.len();
    if m > MAX_RANKED_N {
        return Err(Error::BadOption {
            option: "--items",
            problem: format!("must be at most {MAX_RANKED_N} items to enumerate a cycle (got {m})"),
        });
    }
    walk(
        factorial(m).expect("m <= 10") as usize,
        law,
        MAX_PATHS,
        || {
            let scenario = StreamScenario { add_every: None };
            let mut cycle = Vec::with_capacity(m);
            move |source: &mut Replay| {
                let mut generator = spec.build(items, &scenario);
                cycle.clear();
                generator.draw_each(source, m as u64, &mut |item| cycle.push(item));
                rank(&cycle)
            }
        },
        progress,
    )
}

/// For an algorithm with a fixed schedule: the draws one shuffle of `n` cards makes and
/// its number of random paths (`None`: more than 2^64), counted without listing the
/// schedule, which for `naive-repeated:4294967295` would be 17 billion draws long. The
/// shuffles repeated in rounds (naive passes, riffles, overhands, shelf passes) are
/// counted here even where their schedules are too long to list: the simulator's check
/// enumerates laws of up to a million paths, and `riffles:7` on 10 cards (2^70 paths)
/// used to be walked until a million paths had passed before it was given up on, a third
/// of a second of every such run (issue 43).
fn schedule_size(algorithm: PermutationAlgorithm, n: usize) -> Option<(u64, Option<u64>)> {
    if let Some(rounds) = algorithm.resolve(n).facts(|shuffle| shuffle.rounds(n)) {
        return Some(rounds_of(rounds.draws, rounds.rounds, rounds.bound));
    }
    schedule_of(algorithm, n).map(|schedule| {
        let paths = schedule
            .iter()
            .try_fold(1u64, |paths, &bound| paths.checked_mul(bound));
        (schedule.len() as u64, paths)
    })
}

/// The draws and paths of `rounds` rounds of `per_round` draws from `0..bound`.
fn rounds_of(per_round: usize, rounds: u32, bound: u64) -> (u64, Option<u64>) {
    let draws = (per_round as u64).saturating_mul(u64::from(rounds));
    let paths = u32::try_from(draws)
        .ok()
        .and_then(|draws| bound.checked_pow(draws));
    (draws, paths)
}

/// Refuses a fixed schedule with paths longer than [`MAX_DEPTH`] draws, or more paths
/// than `max_paths`, before any work starts: the answer comes at once, not after the
/// walk has run into the limit.
fn check_path_count(size: Option<(u64, Option<u64>)>, max_paths: u64) -> Result<()> {
    let Some((draws, paths)) = size else {
        return Ok(());
    };
    if draws > MAX_DEPTH as u64 {
        return Err(Error::Usage(format!(
            "cannot enumerate this algorithm: it makes {} draws on every path, and enumeration \
             follows paths of at most {} draws",
            group_thousands(draws),
            group_thousands(MAX_DEPTH as u64)
        )));
    }
    match paths {
        Some(paths) if paths <= max_paths => Ok(()),
        _ => Err(Error::BadOption {
            option: "--n",
            problem: format!(
                "gives {} random paths; enumeration walks at most {max_paths} (about a minute); \
                 use a smaller deck",
                paths.map_or_else(|| "more than 2^64".to_string(), |p| p.to_string())
            ),
        }),
    }
}

#[cfg(test)]
mod tests;
