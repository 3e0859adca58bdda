//! Every random path of an algorithm, followed one by one, with its exact probability.
//!
//! The algorithms draw only through [`Randomness::below`], so the same code that is
//! simulated can be driven by a source that answers from a list instead of a generator.
//! [`Replay`] answers from a prefix and extends it with zeros; after each run the last
//! answer that can still grow is increased and everything after it dropped (an odometer
//! whose digits have the bounds the algorithm asked for). That walks the tree of draws
//! depth first, visiting every leaf once, whether the bounds are fixed (Fisher–Yates:
//! `n, n−1, …`) or depend on earlier answers (a merge sort asking coins until a half runs
//! out). A leaf's probability is the product of `1/bound` over its draws.
//!
//! Probabilities stay exact: leaves are counted per denominator (most algorithms have a
//! single one, `n^n` for the naive swap), and at the end the counts are put over the
//! least common multiple of the denominators. Every product and sum is checked: an
//! overflow is an error, never a wrong number. The walk is split over the first two
//! draws and runs in parallel; its result does not depend on the thread count.

use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;

use crate::catalogue::generators::{GeneratorSpec, StreamScenario};
use crate::catalogue::{PermutationAlgorithm, SamplerAlgorithm, SamplerWorkspace, Workspace};
use crate::error::{Error, Result};
use crate::randomness::Randomness;
use crate::simulate::Progress;
use crate::stream::items::Items;
use crate::tally::combinadic;
use crate::tally::lehmer::{MAX_RANKED_N, factorial, falling_factorial, partial_rank, rank};
use crate::tally::subsets::subset_cells;

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

    fn unit(&mut self) -> f64 {
        self.unenumerable
            .get_or_insert("it draws floating-point numbers, which have no finite list of answers");
        0.0
    }
}

/// Outcome counts per path denominator, for one part of the walk.
#[derive(Clone, Debug, Default)]
struct Counts {
    /// `(denominator, count per outcome)`; few distinct denominators, so a list.
    by_denominator: Vec<(u128, Vec<u64>)>,
    paths: u64,
}

impl Counts {
    fn add(&mut self, denominator: u128, outcome: usize, cells: usize) {
        self.paths += 1;
        let slot = match self.by_denominator.iter().position(|(d, _)| *d == denominator) {
            Some(slot) => slot,
            None => {
                self.by_denominator.push((denominator, vec![0; cells]));
                self.by_denominator.len() - 1
            }
        };
        self.by_denominator[slot].1[outcome] += 1;
    }

    fn merge(mut self, other: Counts) -> Counts {
        self.paths += other.paths;
        for (denominator, counts) in other.by_denominator {
            match self.by_denominator.iter_mut().find(|(d, _)| *d == denominator) {
                Some((_, mine)) => mine.iter_mut().zip(&counts).for_each(|(a, b)| *a += b),
                None => self.by_denominator.push((denominator, counts)),
            }
        }
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

/// Why `algorithm` cannot be enumerated, if it cannot.
pub fn not_enumerable(algorithm: PermutationAlgorithm) -> Option<&'static str> {
    match algorithm {
        PermutationAlgorithm::SortRandomKey => Some(
            "it sorts by random floating-point keys, which have no finite list of answers \
             (sort-random-key-u8 has 8-bit keys and can be enumerated on small decks)",
        ),
        PermutationAlgorithm::InsertWithRetry => {
            Some("it draws again whenever an index is taken, so its paths have no bound on their length")
        }
        _ => None,
    }
}

/// The exact law of `algorithm` over the `n!` orders of `n` cards (Lehmer ranks).
pub fn enumerate_permutations(
    algorithm: PermutationAlgorithm,
    n: usize,
    progress: &dyn Progress,
) -> Result<ExactLaw> {
    enumerate_permutations_within(algorithm, n, MAX_PATHS, progress)
}

/// [`enumerate_permutations`] walking at most `max_paths` paths (an error beyond).
pub fn enumerate_permutations_within(
    algorithm: PermutationAlgorithm,
    n: usize,
    max_paths: u64,
    progress: &dyn Progress,
) -> Result<ExactLaw> {
    let algorithm = algorithm.resolve(n);
    if let Some(reason) = not_enumerable(algorithm) {
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
    check_path_count(schedule_of(algorithm, n), max_paths)?;
    let cells = factorial(n).expect("n <= 10") as usize;
    walk(
        cells,
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
/// over ordered selections for samplers that promise a random order.
pub fn enumerate_selections(
    sampler: SamplerAlgorithm,
    n: usize,
    k: usize,
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
    match algorithm.resolve(n) {
        PermutationAlgorithm::SortRandomKeyU8 => Some(vec![256; n]),
        algorithm => algorithm.draw_schedule(n),
    }
}

/// The number of random paths of `algorithm` on `n` cards, when known in advance.
pub fn known_paths(algorithm: PermutationAlgorithm, n: usize) -> Option<u64> {
    schedule_of(algorithm, n)?
        .iter()
        .try_fold(1u64, |paths, &bound| paths.checked_mul(bound))
}

/// The exact law of the first cycle of the bag `spec` deals from one copy of each of
/// `items` (at most 10): the order of the items, as a Lehmer rank.
pub fn enumerate_cycle(spec: &GeneratorSpec, items: &Items, progress: &dyn Progress) -> Result<ExactLaw> {
    let m = items.len();
    if m > MAX_RANKED_N {
        return Err(Error::BadOption {
            option: "--items",
            problem: format!("must be at most {MAX_RANKED_N} items to enumerate a cycle (got {m})"),
        });
    }
    walk(
        factorial(m).expect("m <= 10") as usize,
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

/// Refuses a fixed schedule with more paths than `max_paths` before any work starts.
fn check_path_count(schedule: Option<Vec<u64>>, max_paths: u64) -> Result<()> {
    let Some(schedule) = schedule else {
        return Ok(());
    };
    let paths = schedule
        .iter()
        .try_fold(1u64, |paths, &bound| paths.checked_mul(bound));
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

/// Walks every path of the experiment `make()` builds (one per worker), each run
/// returning the outcome's cell in `0..cells`.
fn walk<E>(
    cells: usize,
    max_paths: u64,
    make: impl Fn() -> E + Sync,
    progress: &dyn Progress,
) -> Result<ExactLaw>
where
    E: FnMut(&mut Replay) -> usize,
{
    let prefixes = split(&mut make())?;
    let walked = AtomicU64::new(0);
    let budget = Budget {
        walked: &walked,
        max_paths,
    };
    let counts = prefixes
        .par_iter()
        .map(|prefix| walk_from(prefix, &mut make(), cells, &budget, progress))
        .try_reduce(Counts::default, |a, b| Ok(a.merge(b)))?;
    combine(counts)
}

/// The prefixes that split the walk into parts: every answer to the first draw, and to
/// the second as well while that makes at most [`MOST_PARTS`] parts.
fn split<E: FnMut(&mut Replay) -> usize>(experiment: &mut E) -> Result<Vec<Vec<u64>>> {
    let mut prefixes = vec![Vec::new()];
    for level in 0..2 {
        let bounds = prefixes
            .iter()
            .map(|prefix| Ok(run(experiment, prefix)?.1.get(level).copied()))
            .collect::<Result<Vec<Option<u64>>>>()?;
        // A path that ends before the level is a part of its own.
        let parts: u64 = bounds.iter().map(|bound| bound.unwrap_or(1)).sum();
        if level > 0 && parts > MOST_PARTS {
            break;
        }
        prefixes = prefixes
            .into_iter()
            .zip(bounds)
            .flat_map(|(prefix, bound)| match bound {
                Some(bound) => (0..bound)
                    .map(|answer| {
                        let mut longer = prefix.clone();
                        longer.push(answer);
                        longer
                    })
                    .collect(),
                None => vec![prefix],
            })
            .collect();
    }
    Ok(prefixes)
}

/// Runs `experiment` on `answers` (extended with zeros): its outcome and the bounds asked.
fn run<E: FnMut(&mut Replay) -> usize>(experiment: &mut E, answers: &[u64]) -> Result<(usize, Vec<u64>)> {
    let mut replay = Replay {
        answers: answers.to_vec(),
        ..Replay::default()
    };
    let outcome = experiment(&mut replay);
    match replay.unenumerable {
        Some(reason) => Err(Error::Usage(format!("cannot enumerate this algorithm: {reason}"))),
        None => Ok((outcome, replay.bounds)),
    }
}

/// Every leaf below `prefix`, depth first.
fn walk_from<E: FnMut(&mut Replay) -> usize>(
    prefix: &[u64],
    experiment: &mut E,
    cells: usize,
    budget: &Budget<'_>,
    progress: &dyn Progress,
) -> Result<Counts> {
    const REPORT_EVERY: u64 = 1 << 12;
    let mut counts = Counts::default();
    let mut replay = Replay {
        answers: prefix.to_vec(),
        ..Replay::default()
    };
    let mut unreported = 0;
    loop {
        replay.bounds.clear();
        let outcome = experiment(&mut replay);
        if let Some(reason) = replay.unenumerable {
            return Err(Error::Usage(format!("cannot enumerate this algorithm: {reason}")));
        }
        let depth = replay.bounds.len();
        replay.answers.truncate(depth);
        let denominator = replay
            .bounds
            .iter()
            .try_fold(1u128, |d, &bound| d.checked_mul(u128::from(bound)))
            .ok_or_else(|| overflow("a path's probability"))?;
        counts.add(denominator, outcome, cells);
        unreported += 1;
        if unreported == REPORT_EVERY {
            budget.spend(unreported)?;
            progress.advance(unreported);
            unreported = 0;
        }
        // The odometer: raise the deepest answer that can still grow, drop what follows.
        loop {
            if replay.answers.len() <= prefix.len() {
                budget.spend(unreported)?;
                progress.advance(unreported);
                return Ok(counts);
            }
            let last = replay.answers.len() - 1;
            if replay.answers[last] + 1 < replay.bounds[last] {
                replay.answers[last] += 1;
                break;
            }
            replay.answers.pop();
            replay.bounds.pop();
        }
    }
}

/// The paths all parts of a walk may take together: an algorithm whose paths are not
/// known in advance is given up on as soon as they pass the limit, in every part at once.
struct Budget<'a> {
    walked: &'a AtomicU64,
    max_paths: u64,
}

impl Budget<'_> {
    fn spend(&self, paths: u64) -> Result<()> {
        let walked = self.walked.fetch_add(paths, Ordering::Relaxed) + paths;
        if walked > self.max_paths {
            return Err(Error::Usage(format!(
                "cannot enumerate this algorithm here: it has more than {} random paths",
                self.max_paths
            )));
        }
        Ok(())
    }
}

/// Puts the counts of every denominator over their least common multiple.
fn combine(counts: Counts) -> Result<ExactLaw> {
    let denominator = counts
        .by_denominator
        .iter()
        .try_fold(1u128, |l, &(d, _)| lcm(l, d))
        .ok_or_else(|| overflow("the common denominator"))?;
    let cells = counts.by_denominator.first().map_or(0, |(_, c)| c.len());
    let mut numerators = vec![0u128; cells];
    for (d, cell_counts) in &counts.by_denominator {
        let scale = denominator / d;
        for (numerator, &count) in numerators.iter_mut().zip(cell_counts) {
            *numerator = u128::from(count)
                .checked_mul(scale)
                .and_then(|term| numerator.checked_add(term))
                .ok_or_else(|| overflow("a probability's numerator"))?;
        }
    }
    Ok(ExactLaw {
        paths: counts.paths,
        denominator,
        numerators,
    })
}

fn overflow(what: &str) -> Error {
    Error::Usage(format!(
        "cannot enumerate this algorithm exactly: {what} does not fit in 128 bits"
    ))
}

fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

fn lcm(a: u128, b: u128) -> Option<u128> {
    (a / gcd(a, b)).checked_mul(b)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::simulate::NoProgress;
    use crate::tally::lehmer::unrank;

    fn law(algorithm: PermutationAlgorithm, n: usize) -> ExactLaw {
        let law = enumerate_permutations(algorithm, n, &NoProgress).unwrap();
        assert_eq!(
            law.numerators.iter().sum::<u128>(),
            law.denominator,
            "sums to exactly 1"
        );
        law
    }

    fn fraction_of(law: &ExactLaw, order: &[u16]) -> (u128, u128) {
        law.fraction(rank(order))
    }

    #[test]
    fn naive_swap_on_3_cards_gives_4_27_and_5_27() {
        let law = law(PermutationAlgorithm::NaiveSwap, 3);
        assert_eq!(law.paths, 27);
        for order in [[0, 1, 2], [2, 0, 1], [2, 1, 0]] {
            assert_eq!(fraction_of(&law, &order), (4, 27), "{order:?}");
        }
        for order in [[0, 2, 1], [1, 0, 2], [1, 2, 0]] {
            assert_eq!(fraction_of(&law, &order), (5, 27), "{order:?}");
        }
        assert!((law.max_ratio() - 1.25).abs() < 1e-12);
    }

    #[test]
    fn sattolo_gives_exactly_the_n_cycles() {
        for n in 2..=6 {
            let law = law(PermutationAlgorithm::Sattolo, n);
            let cycles = factorial(n - 1).unwrap() as u128;
            let mut order = vec![0u16; n];
            let mut visited = Vec::new();
            for cell in 0..law.numerators.len() {
                unrank(cell, &mut order);
                let one_cycle = crate::tally::structure::cycle_count(&order, &mut visited) == 1;
                let expected = if one_cycle { (1, cycles) } else { (0, 1) };
                assert_eq!(law.fraction(cell), expected, "n = {n}, {order:?}");
            }
        }
    }

    #[test]
    fn a_right_to_left_insertion_sort_with_a_coin_comparator_on_3_cards() {
        // 1/4 to 1 2 3 and 2 1 3, 1/8 to the other four (the fact).
        let law = law(PermutationAlgorithm::SortComparatorInsertion, 3);
        assert_eq!(fraction_of(&law, &[0, 1, 2]), (1, 4));
        assert_eq!(fraction_of(&law, &[1, 0, 2]), (1, 4));
        for order in [[0, 2, 1], [1, 2, 0], [2, 0, 1], [2, 1, 0]] {
            assert_eq!(fraction_of(&law, &order), (1, 8), "{order:?}");
        }
    }

    #[test]
    fn fisher_yates_is_exactly_uniform_up_to_8_cards() {
        for algorithm in [
            PermutationAlgorithm::FisherYates,
            PermutationAlgorithm::FisherYatesForward,
        ] {
            for n in 2..=8 {
                let law = law(algorithm, n);
                let cells = factorial(n).unwrap() as u128;
                assert!(
                    (0..law.numerators.len()).all(|i| law.fraction(i) == (1, cells)),
                    "{algorithm:?} on {n} cards"
                );
                assert_eq!(law.paths as u128, cells);
            }
        }
    }

    #[test]
    fn variable_paths_and_samplers_sum_to_exactly_one() {
        for algorithm in [
            PermutationAlgorithm::SortComparatorMerge,
            PermutationAlgorithm::Riffle,
            PermutationAlgorithm::RoguelikeShuffle,
            PermutationAlgorithm::NaiveRepeated { passes: Some(2) },
        ] {
            law(algorithm, 5);
        }
        law(PermutationAlgorithm::SortRandomKeyU8, 2);
        for sampler in [
            SamplerAlgorithm::BagPick,
            SamplerAlgorithm::BagPickC,
            SamplerAlgorithm::PartialFisherYates,
            SamplerAlgorithm::Reservoir,
        ] {
            let law = enumerate_selections(sampler, 6, 3, &NoProgress).unwrap();
            assert_eq!(
                law.numerators.iter().sum::<u128>(),
                law.denominator,
                "{sampler:?}"
            );
        }
        // BAG-PICK is exactly uniform over the 20 subsets; its C code always gives one.
        let fair = enumerate_selections(SamplerAlgorithm::BagPick, 6, 3, &NoProgress).unwrap();
        assert!((0..20).all(|i| fair.fraction(i) == (1, 20)));
        let c_code = enumerate_selections(SamplerAlgorithm::BagPickC, 6, 3, &NoProgress).unwrap();
        assert_eq!(c_code.impossible().len(), 19);
    }

    #[test]
    fn floats_retries_and_huge_path_counts_are_refused() {
        let message = |result: Result<ExactLaw>| result.unwrap_err().to_string();
        assert!(
            message(enumerate_permutations(
                PermutationAlgorithm::SortRandomKey,
                3,
                &NoProgress
            ))
            .contains("floating-point")
        );
        assert!(
            message(enumerate_permutations(
                PermutationAlgorithm::InsertWithRetry,
                3,
                &NoProgress
            ))
            .contains("no bound")
        );
        assert!(
            message(enumerate_permutations(
                PermutationAlgorithm::NaiveSwap,
                10,
                &NoProgress
            ))
            .contains("random paths")
        );
        assert!(
            message(enumerate_permutations(
                PermutationAlgorithm::NaiveSwap,
                11,
                &NoProgress
            ))
            .contains("at most 10")
        );
    }

    #[test]
    fn the_law_does_not_depend_on_the_thread_count() {
        let on = |threads| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap()
                .install(|| law(PermutationAlgorithm::SortComparatorMerge, 5))
        };
        assert_eq!(on(1), on(3));
    }
}
