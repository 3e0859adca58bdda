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
    paths: u64,
}

impl Counts {
    fn add(&mut self, (numerator, denominator): (u128, u128), outcome: usize, cells: usize) {
        self.paths += 1;
        let slot = match self.by_denominator.iter().position(|(d, _)| *d == denominator) {
            Some(slot) => slot,
            None => {
                self.by_denominator.push((denominator, vec![0; cells]));
                self.by_denominator.len() - 1
            }
        };
        self.by_denominator[slot].1[outcome] += numerator;
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

/// Why `algorithm` cannot be enumerated with its draws answered by `law`, if it cannot.
pub fn not_enumerable(algorithm: PermutationAlgorithm, law: DrawLaw) -> Option<String> {
    match algorithm {
        PermutationAlgorithm::SortRandomKey => Some(format!(
            "it sorts by random floating-point keys{} (sort-random-key-u8 has 8-bit keys and \
             can be enumerated on small decks)",
            floats_problem(law)
        )),
        PermutationAlgorithm::InsertWithRetry => Some(
            "it draws again whenever an index is taken, so its paths have no bound on their length"
                .to_string(),
        ),
        _ => None,
    }
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
/// schedule, which for `naive-repeated:4294967295` would be 17 billion draws long.
fn schedule_size(algorithm: PermutationAlgorithm, n: usize) -> Option<(u64, Option<u64>)> {
    match algorithm.resolve(n) {
        PermutationAlgorithm::NaiveRepeated { passes: Some(passes) } => {
            let draws = (n as u64).saturating_mul(u64::from(passes));
            let paths = u32::try_from(draws)
                .ok()
                .and_then(|draws| (n as u64).checked_pow(draws));
            Some((draws, paths))
        }
        algorithm => schedule_of(algorithm, n).map(|schedule| {
            let paths = schedule
                .iter()
                .try_fold(1u64, |paths, &bound| paths.checked_mul(bound));
            (schedule.len() as u64, paths)
        }),
    }
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

/// Walks every path of the experiment `make()` builds (one per worker), each run
/// returning the outcome's cell in `0..cells`, its draws answered by `law`.
fn walk<E>(
    cells: usize,
    law: DrawLaw,
    max_paths: u64,
    make: impl Fn() -> E + Sync,
    progress: &dyn Progress,
) -> Result<ExactLaw>
where
    E: FnMut(&mut Replay) -> usize,
{
    let prefixes = split(&mut make(), law)?;
    let walked = AtomicU64::new(0);
    let budget = Budget {
        walked: &walked,
        max_paths,
    };
    // Each worker adds its parts into one table (10! cells of 16 bytes for 10 cards):
    // a table per part would allocate and clear one for each of up to 4096 parts.
    let counts = prefixes
        .par_iter()
        .try_fold(Counts::default, |counts, prefix| {
            walk_from(prefix, &mut make(), counts, cells, law, &budget, progress)
        })
        .try_reduce(Counts::default, |a, b| Ok(a.merge(b)))?;
    combine(counts, law)
}

/// The possible answers of a draw from `0..bound` under `law`, in order.
fn answers(law: DrawLaw, bound: u64) -> impl Iterator<Item = u64> {
    std::iter::successors(Some(0), move |&answer| law.next_answer(answer, bound))
}

/// The prefixes that split the walk into parts: every answer to the first draw, and to
/// the second as well while that makes at most [`MOST_PARTS`] parts.
fn split<E: FnMut(&mut Replay) -> usize>(experiment: &mut E, law: DrawLaw) -> Result<Vec<Vec<u64>>> {
    let mut prefixes = vec![Vec::new()];
    for level in 0..2 {
        let bounds = prefixes
            .iter()
            .map(|prefix| Ok(run(experiment, prefix, law)?.1.get(level).copied()))
            .collect::<Result<Vec<Option<u64>>>>()?;
        // A path that ends before the level is a part of its own.
        let parts: u64 = bounds
            .iter()
            .map(|bound| bound.map_or(1, |bound| answers(law, bound).count() as u64))
            .sum();
        if level > 0 && parts > MOST_PARTS {
            break;
        }
        prefixes = prefixes
            .into_iter()
            .zip(bounds)
            .flat_map(|(prefix, bound)| match bound {
                Some(bound) => answers(law, bound)
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
fn run<E: FnMut(&mut Replay) -> usize>(
    experiment: &mut E,
    answers: &[u64],
    law: DrawLaw,
) -> Result<(usize, Vec<u64>)> {
    let mut replay = Replay {
        answers: answers.to_vec(),
        ..Replay::default()
    };
    let outcome = experiment(&mut replay);
    match replay.unenumerable {
        Some(reason) => Err(refused(reason, law)),
        None => Ok((outcome, replay.bounds)),
    }
}

/// Every leaf below `prefix`, depth first, added to `counts`.
fn walk_from<E: FnMut(&mut Replay) -> usize>(
    prefix: &[u64],
    experiment: &mut E,
    mut counts: Counts,
    cells: usize,
    law: DrawLaw,
    budget: &Budget<'_>,
    progress: &dyn Progress,
) -> Result<Counts> {
    const REPORT_EVERY: u64 = 1 << 12;
    let mut replay = Replay {
        answers: prefix.to_vec(),
        ..Replay::default()
    };
    let mut unreported = 0;
    loop {
        replay.bounds.clear();
        let outcome = experiment(&mut replay);
        if let Some(reason) = replay.unenumerable {
            return Err(refused(reason, law));
        }
        let depth = replay.bounds.len();
        replay.answers.truncate(depth);
        counts.add(path_probability(&replay, law)?, outcome, cells);
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
            if let Some(next) = law.next_answer(replay.answers[last], replay.bounds[last]) {
                replay.answers[last] = next;
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

/// The probability of the path `replay` took, as `(numerator, denominator)`: the product
/// of its answers' probabilities, each a fraction whose denominator depends on its bound
/// alone ([`DrawLaw::fraction`]), so that paths share few denominators.
fn path_probability(replay: &Replay, law: DrawLaw) -> Result<(u128, u128)> {
    let product = match law {
        // The default source, on every path of the walk: 1 over the product of the bounds.
        DrawLaw::Uniform => replay
            .bounds
            .iter()
            .try_fold(1u128, |d, &bound| d.checked_mul(u128::from(bound)))
            .map(|denominator| (1, denominator)),
        _ => replay.answers.iter().zip(&replay.bounds).try_fold(
            (1u128, 1u128),
            |(numerator, denominator), (&answer, &bound)| {
                let (p, q) = law.fraction(answer, bound);
                Some((numerator.checked_mul(p)?, denominator.checked_mul(q)?))
            },
        ),
    };
    product.ok_or_else(|| overflow("a path's probability", law))
}

/// Puts the sums of every denominator over their least common multiple.
fn combine(counts: Counts, law: DrawLaw) -> Result<ExactLaw> {
    let denominator = counts
        .by_denominator
        .iter()
        .try_fold(1u128, |l, &(d, _)| lcm(l, d))
        .ok_or_else(|| overflow("the common denominator", law))?;
    let cells = counts.by_denominator.first().map_or(0, |(_, c)| c.len());
    let mut numerators = vec![0u128; cells];
    for (d, cell_counts) in &counts.by_denominator {
        let scale = denominator / d;
        for (numerator, &sum) in numerators.iter_mut().zip(cell_counts) {
            *numerator = sum
                .checked_mul(scale)
                .and_then(|term| numerator.checked_add(term))
                .ok_or_else(|| overflow("a probability's numerator", law))?;
        }
    }
    Ok(ExactLaw {
        paths: counts.paths,
        denominator,
        numerators,
    })
}

fn overflow(what: &str, law: DrawLaw) -> Error {
    let hint = match law.denominator_bits() {
        Some(bits) => format!(
            " (under this source one draw's probability is a fraction over as much as 2^{bits}, \
             and 128 bits are sure to hold only {} of those; try fewer cards, or --positions \
             for the exact position matrix)",
            127 / bits
        ),
        None => String::new(),
    };
    Error::Usage(format!(
        "cannot enumerate this algorithm exactly: {what} does not fit in 128 bits{hint}"
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
        law_under(algorithm, n, DrawLaw::Uniform)
    }

    fn law_under(algorithm: PermutationAlgorithm, n: usize, draws: DrawLaw) -> ExactLaw {
        let law = enumerate_permutations(algorithm, n, draws, &NoProgress).unwrap();
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
            let law = enumerate_selections(sampler, 6, 3, DrawLaw::Uniform, &NoProgress).unwrap();
            assert_eq!(
                law.numerators.iter().sum::<u128>(),
                law.denominator,
                "{sampler:?}"
            );
        }
        // BAG-PICK is exactly uniform over the 20 subsets; its C code always gives one.
        let fair =
            enumerate_selections(SamplerAlgorithm::BagPick, 6, 3, DrawLaw::Uniform, &NoProgress).unwrap();
        assert!((0..20).all(|i| fair.fraction(i) == (1, 20)));
        let c_code =
            enumerate_selections(SamplerAlgorithm::BagPickC, 6, 3, DrawLaw::Uniform, &NoProgress).unwrap();
        assert_eq!(c_code.impossible().len(), 19);
    }

    #[test]
    fn floats_retries_and_huge_path_counts_are_refused() {
        let message = |result: Result<ExactLaw>| result.unwrap_err().to_string();
        assert!(
            message(enumerate_permutations(
                PermutationAlgorithm::SortRandomKey,
                3,
                DrawLaw::Uniform,
                &NoProgress
            ))
            .contains("floating-point")
        );
        assert!(
            message(enumerate_permutations(
                PermutationAlgorithm::InsertWithRetry,
                3,
                DrawLaw::Uniform,
                &NoProgress
            ))
            .contains("no bound")
        );
        assert!(
            message(enumerate_permutations(
                PermutationAlgorithm::NaiveSwap,
                10,
                DrawLaw::Uniform,
                &NoProgress
            ))
            .contains("random paths")
        );
        assert!(
            message(enumerate_permutations(
                PermutationAlgorithm::NaiveSwap,
                11,
                DrawLaw::Uniform,
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
        let weighted = |threads| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap()
                .install(|| law_under(PermutationAlgorithm::Riffle, 4, DrawLaw::RandMod))
        };
        assert_eq!(weighted(1), weighted(3));
    }

    #[test]
    fn fisher_yates_on_3_cards_under_rand_mod_by_hand() {
        // The bottom card is swapped with the one at j = rand() % 3 (0 and 1 come up
        // 10,923 times in 32,768, 2 only 10,922), then the middle with k = rand() % 2
        // (even). The six (j, k) give six different orders: j = 2 leaves the bottom card
        // in place, giving 1 2 3 (k = 1) and 2 1 3 (k = 0) at 10922/65536 = 5461/32768
        // each; the other four orders come at 10923/65536.
        let law = law_under(PermutationAlgorithm::FisherYates, 3, DrawLaw::RandMod);
        assert_eq!(law.paths, 6);
        for order in [[0, 1, 2], [1, 0, 2]] {
            assert_eq!(fraction_of(&law, &order), (5461, 32_768), "{order:?}");
        }
        for order in [[0, 2, 1], [1, 2, 0], [2, 0, 1], [2, 1, 0]] {
            assert_eq!(fraction_of(&law, &order), (10_923, 65_536), "{order:?}");
        }
    }

    #[test]
    fn weighted_paths_match_a_brute_force_product_of_weights() {
        // Every path of a fixed schedule, its probability the product of the raw-output
        // counts of its answers over the product of the raw-output totals, summed per
        // order by hand and reduced: the walk must give the same fractions.
        let fixed = [
            PermutationAlgorithm::NaiveSwap,
            PermutationAlgorithm::FisherYates,
            PermutationAlgorithm::FisherYatesForward,
            PermutationAlgorithm::Sattolo,
            PermutationAlgorithm::RoguelikeShuffle,
            PermutationAlgorithm::AsfPoker,
        ];
        let mut checked = 0;
        for draws in [DrawLaw::Uniform, DrawLaw::RandMod, DrawLaw::MultiplyShift] {
            for algorithm in fixed {
                for n in 2..=4usize {
                    let schedule = algorithm.draw_schedule(n).unwrap();
                    // 128 bits hold the unreduced product of at most three 2^32 totals.
                    if draws == DrawLaw::MultiplyShift && schedule.len() > 3 {
                        continue;
                    }
                    let total: u128 = schedule.iter().map(|&bound| draws.outputs(bound)).product();
                    let mut by_hand = vec![0u128; factorial(n).unwrap() as usize];
                    let paths: u64 = schedule.iter().product();
                    let mut workspace = Workspace::default();
                    for path in 0..paths {
                        let mut answers = vec![0u64; schedule.len()];
                        let mut rest = path;
                        for (answer, &bound) in answers.iter_mut().zip(&schedule).rev() {
                            *answer = rest % bound;
                            rest /= bound;
                        }
                        let weight: u128 = answers
                            .iter()
                            .zip(&schedule)
                            .map(|(&answer, &bound)| draws.weight(answer, bound))
                            .product();
                        let mut replay = Replay {
                            answers,
                            ..Replay::default()
                        };
                        let mut deck: Vec<u16> = (0..n as u16).collect();
                        algorithm.shuffle(&mut deck, &mut replay, &mut workspace);
                        by_hand[rank(&deck)] += weight;
                    }
                    let walked = law_under(algorithm, n, draws);
                    for (cell, &numerator) in by_hand.iter().enumerate() {
                        let divisor = gcd(numerator, total).max(1);
                        let expected = match numerator {
                            0 => (0, 1),
                            _ => (numerator / divisor, total / divisor),
                        };
                        let walked_fraction = match walked.numerators[cell] {
                            0 => (0, 1),
                            _ => walked.fraction(cell),
                        };
                        assert_eq!(
                            walked_fraction, expected,
                            "{algorithm:?} n={n} {draws:?} cell {cell}"
                        );
                    }
                    checked += 1;
                }
            }
        }
        assert!(checked >= 40, "{checked}");
    }

    #[test]
    fn a_power_of_two_range_makes_rand_mod_exactly_uniform() {
        // 32,768 is a multiple of 4: rand() % 4 is exactly uniform, and the 4-card naive
        // swap under it has exactly its usual law.
        assert_eq!(
            law_under(PermutationAlgorithm::NaiveSwap, 4, DrawLaw::RandMod),
            law(PermutationAlgorithm::NaiveSwap, 4)
        );
        // Fisher–Yates on 4 cards draws from 3 too: no longer uniform.
        let biased = law_under(PermutationAlgorithm::FisherYates, 4, DrawLaw::RandMod);
        assert!(biased.max_ratio() > 1.0);
        assert!(biased.impossible().is_empty());
    }

    #[test]
    fn flawed_sources_keep_every_law_summing_to_exactly_one() {
        for draws in [DrawLaw::RandMod, DrawLaw::MultiplyShift] {
            for algorithm in [
                PermutationAlgorithm::SortComparatorMerge,
                PermutationAlgorithm::SortComparatorInsertion,
                PermutationAlgorithm::Riffle,
            ] {
                law_under(algorithm, 4, draws);
            }
            let sampler = enumerate_selections(SamplerAlgorithm::BagPick, 5, 2, draws, &NoProgress).unwrap();
            assert_eq!(sampler.numerators.iter().sum::<u128>(), sampler.denominator);
        }
        // 8-bit keys: 256 divides both sources' ranges, so the law is the uniform one's.
        assert_eq!(
            law_under(PermutationAlgorithm::SortRandomKeyU8, 2, DrawLaw::RandMod),
            law(PermutationAlgorithm::SortRandomKeyU8, 2)
        );
    }

    #[test]
    fn what_a_flawed_source_cannot_enumerate_is_refused_with_the_reason() {
        let message = |algorithm, n, draws| {
            enumerate_permutations(algorithm, n, draws, &NoProgress)
                .unwrap_err()
                .to_string()
        };
        // Delphi's draws are fractions over 2^32: 6 draws from 7, 6, 5, 3 (and exact 4
        // and 2) do not fit in 128 bits.
        let overflow = message(PermutationAlgorithm::FisherYates, 7, DrawLaw::MultiplyShift);
        assert!(
            overflow.contains("does not fit in 128 bits")
                && overflow.contains("2^32")
                && overflow.contains("--positions"),
            "{overflow}"
        );
        law_under(PermutationAlgorithm::FisherYates, 6, DrawLaw::MultiplyShift);
        // rand()'s floats are a finite list, but far too long to walk.
        let floats = message(PermutationAlgorithm::SortRandomKey, 3, DrawLaw::RandMod);
        assert!(
            floats.contains("32,768 values") && floats.contains("2,000,000,000"),
            "{floats}"
        );
        let floats = message(PermutationAlgorithm::SortRandomKey, 3, DrawLaw::Uniform);
        assert!(floats.contains("no finite list"), "{floats}");
    }
}
