//! Tallying small decks by random path.
//!
//! An algorithm whose draws have a fixed schedule of bounds (Fisher–Yates draws from
//! `n, n-1, …, 2` whatever the answers) is a function of its answers: the random path,
//! written as one mixed-radix number, says everything about a shuffle. So each trial
//! runs the real algorithm through a source that also folds every answer into the path
//! number, and only the path is counted. The deck itself is never read back, the compiler
//! drops its dead stores, and what remains costs little more than the draws. At the end
//! each path that occurred is replayed once through the same algorithm code to find its
//! deck. The tally is exactly the one the deck-by-deck loop gives for the same seed:
//! the same numbers are drawn from the same streams in the same order.
//!
//! The replay checks that the algorithm really asks for the declared bounds, so a wrong
//! schedule cannot silently mix up paths.

use std::cell::Cell;

use super::{Engine, Progress};
use crate::catalogue::shuffle::{NeverStop, Shuffle, Visitor};
use crate::catalogue::{PermutationAlgorithm, Workspace};
use crate::randomness::{Randomness, SimulationSource};
use crate::tally::{PermutationRecorder, TallyOptions};

/// Path tallies are used up to this many paths per algorithm and deck size: 512 KiB of
/// counters per thread, small enough to stay in cache (Fisher–Yates up to 8 cards,
/// naive swap up to 6).
pub(super) const MAX_PATHS: u64 = 1 << 16;

/// The number of paths of a schedule (saturating).
pub(super) fn path_count(schedule: &[u64]) -> u64 {
    schedule
        .iter()
        .try_fold(1u64, |paths, &bound| paths.checked_mul(bound))
        .unwrap_or(u64::MAX)
}

/// Passes draws through and folds each answer into a mixed-radix path number.
struct PathTracker<'a, R: ?Sized> {
    source: &'a mut R,
    path: &'a Cell<usize>,
}

impl<R: Randomness + ?Sized> Randomness for PathTracker<'_, R> {
    #[inline]
    fn below(&mut self, n: u64) -> u64 {
        let answer = self.source.below(n);
        self.path.set(self.path.get() * n as usize + answer as usize);
        answer
    }

    /// The source's batched answers (the deck-by-deck loop draws the same), appended to
    /// the path as the one mixed-radix number they make. The default source hands that
    /// number over as it is (the high half of its word times the bounds' product): in a
    /// shuffle whose deck is never read, the answers themselves are then never computed.
    #[inline(always)]
    fn below_each(&mut self, bounds: &[u64], answers: &mut [u64]) -> u64 {
        let number = self.source.below_each(bounds, answers);
        let product = bounds
            .iter()
            .fold(1usize, |product, &bound| product.wrapping_mul(bound as usize));
        self.path.set(
            self.path
                .get()
                .wrapping_mul(product)
                .wrapping_add(number as usize),
        );
        number
    }

    /// The source's coins, folded first coin first (each a draw from `0..2`).
    #[inline]
    fn coins(&mut self, count: u32) -> u64 {
        let coins = self.source.coins(count);
        let path = (0..count).fold(self.path.get(), |path, bit| {
            path * 2 + ((coins >> bit) & 1) as usize
        });
        self.path.set(path);
        coins
    }

    fn unit(&mut self) -> f64 {
        unreachable!("algorithms with a fixed draw schedule draw no floats")
    }

    #[inline]
    fn begin_trial(&mut self) {
        self.source.begin_trial();
    }
}

fn count_paths<const N: usize>(
    algorithm: PermutationAlgorithm,
    start: [u16; N],
    count: u64,
    source: &mut SimulationSource,
    counts: &mut [u64],
    workspace: &mut Workspace<u16>,
) {
    algorithm.resolve(N).visit(CountPaths {
        start,
        count,
        source,
        counts,
        workspace,
    });
}

/// [`count_paths_of`], compiled for one shuffle alone ([`Alone`]).
struct CountPaths<'a, const N: usize> {
    start: [u16; N],
    count: u64,
    source: &'a mut SimulationSource,
    counts: &'a mut [u64],
    workspace: &'a mut Workspace<u16>,
}

impl<const N: usize> Visitor for CountPaths<'_, N> {
    type Output = ();

    fn visit<S: Shuffle>(self, shuffle: S) {
        let alone = Alone(shuffle, self.workspace);
        count_paths_of(alone, self.start, self.count, self.source, self.counts);
    }
}

/// One shuffle as [`count_paths_of`] runs it, trial start included.
trait Shuffler {
    fn shuffle<R: Randomness + ?Sized>(&mut self, deck: &mut [u16], rng: &mut R);
}

/// One catalogue shuffle alone, in a loop compiled for it. A loop compiled for one shuffle
/// keeps the generator's state in registers: in a loop compiled inside a match over
/// every shuffle, the other arms' calls took the generator's address, and its state was
/// stored at every shuffle (four stores for a 6-card Fisher–Yates of some forty
/// instructions); there a 3-card Sattolo ran at a tenth of its speed, its words' bounds no
/// longer constants (issue 43). Its deals never stop part way (a path has at most 64
/// draws).
struct Alone<'a, S>(S, &'a mut Workspace<u16>);

impl<S: Shuffle> Shuffler for Alone<'_, S> {
    #[inline(always)]
    fn shuffle<R: Randomness + ?Sized>(&mut self, deck: &mut [u16], rng: &mut R) {
        rng.begin_trial();
        self.0.shuffle(deck, rng, self.1, &NeverStop);
    }
}

/// Runs `count` shuffles of `start` and counts their paths; `counts` ends with the sink.
///
/// A function of its own, not inlined into the engine's closure, so that its `&mut`
/// arguments carry the no-alias guarantee: the compiler may then keep the generator state
/// and the path in registers (measured: 52 → 46 instructions per 3-card shuffle).
///
/// Handing out a fresh deck means the previous shuffle has finished and its path is
/// complete: it is counted and the next path starts from zero. Before the first shuffle
/// there is no previous one, so the path starts at the sink, whose count is thrown away.
/// (Counting after the shuffle instead, or a flag for the first deck, measured 15 to 20%
/// slower on 3-card decks: both keep the compiler from dropping the deck's dead stores.)
#[inline(never)]
fn count_paths_of<const N: usize>(
    mut shuffler: impl Shuffler,
    start: [u16; N],
    count: u64,
    source: &mut SimulationSource,
    counts: &mut [u64],
) {
    // The counters are a power of two in number (see `by_path`), so that a path masked
    // to them needs no bounds check; every path is below them, and the sink is the last.
    assert!(
        counts.len().is_power_of_two(),
        "path counters come in a power of two"
    );
    let mask = counts.len() - 1;
    let path = Cell::new(mask);
    crate::with_source!(source, |source| {
        // A copy of the generator on this function's stack, as in the deck-by-deck loop
        // (`permutations::tally_any_size`): its state then stays in registers instead of being
        // stored at every shuffle. It draws exactly what `source` would have.
        #[allow(clippy::clone_on_copy)]
        let mut local = source.clone();
        let mut tracker = PathTracker {
            source: &mut local,
            path: &path,
        };
        for _ in 0..count {
            counts[path.replace(0) & mask] += 1;
            let mut deck = start;
            shuffler.shuffle(&mut deck, &mut tracker);
        }
        *source = local;
    });
    counts[path.replace(0) & mask] += 1;
}

/// Gives back the answers of one recorded path, checking the bounds against the schedule.
struct Replay<'a> {
    schedule: &'a [u64],
    answers: &'a [u64],
    next: usize,
}

impl Randomness for Replay<'_> {
    fn below(&mut self, n: u64) -> u64 {
        assert_eq!(
            self.schedule.get(self.next),
            Some(&n),
            "an algorithm's draws do not follow its declared schedule"
        );
        self.next += 1;
        self.answers[self.next - 1]
    }

    fn unit(&mut self) -> f64 {
        unreachable!("algorithms with a fixed draw schedule draw no floats")
    }
}

/// Counters that share no cache line with anything else. Two threads bumping counters
/// that happen to share a line (a 3-card tally is 48 bytes) would stall each other on
/// every increment; this cost a fifth of the two-thread throughput.
struct CacheLineCounts {
    storage: Vec<u64>,
    offset: usize,
    len: usize,
}

impl CacheLineCounts {
    /// Covers two 64-byte lines, for processors that fetch lines in pairs.
    const ALIGN_BYTES: usize = 128;
    const PADDING: usize = Self::ALIGN_BYTES / std::mem::size_of::<u64>();

    fn new(len: usize) -> Self {
        let storage = vec![0u64; len + 2 * Self::PADDING];
        let offset = storage
            .as_ptr()
            .align_offset(Self::ALIGN_BYTES)
            .min(Self::PADDING);
        Self { storage, offset, len }
    }

    fn as_slice(&self) -> &[u64] {
        &self.storage[self.offset..self.offset + self.len]
    }

    fn as_mut_slice(&mut self) -> &mut [u64] {
        &mut self.storage[self.offset..self.offset + self.len]
    }
}

/// Tallies `trials` shuffles of `N`-card decks by `algorithm` by random path, `schedule`
/// being its draws: the tally the deck-by-deck loop gives for the same seed.
pub(super) fn tally_by_path<const N: usize>(
    engine: &Engine,
    algorithm: PermutationAlgorithm,
    trials: u64,
    seed: u64,
    options: TallyOptions,
    progress: &dyn Progress,
    schedule: &[u64],
) -> PermutationRecorder {
    let paths = usize::try_from(path_count(schedule)).expect("checked against MAX_PATHS");
    let start: [u16; N] = std::array::from_fn(|i| i as u16);
    let per_worker = engine.run_chunks(
        trials,
        seed,
        progress,
        // One counter per path, plus the sink `count_paths` needs, rounded up to a
        // power of two.
        || {
            (
                CacheLineCounts::new((paths + 1).next_power_of_two()),
                Workspace::default(),
            )
        },
        |(counts, workspace), source, count, _| {
            count_paths(algorithm, start, count, source, counts.as_mut_slice(), workspace);
        },
    );
    let mut totals = vec![0u64; paths];
    for (counts, _) in &per_worker {
        // zip stops at the last path, before the unused counters and the sink.
        for (total, &count) in totals.iter_mut().zip(counts.as_slice()) {
            *total += count;
        }
    }

    let mut recorder = PermutationRecorder::new(N, options);
    let mut answers = vec![0u64; schedule.len()];
    let mut workspace = Workspace::default();
    for (path, &count) in totals.iter().enumerate().filter(|&(_, &count)| count > 0) {
        // The last draw is the least significant digit.
        let mut rest = path as u64;
        for (answer, &bound) in answers.iter_mut().zip(schedule).rev() {
            *answer = rest % bound;
            rest /= bound;
        }
        let mut replay = Replay {
            schedule,
            answers: &answers,
            next: 0,
        };
        let mut deck = start;
        algorithm.shuffle(&mut deck, &mut replay, &mut workspace);
        assert_eq!(
            replay.next,
            schedule.len(),
            "an algorithm drew less than its schedule"
        );
        recorder.record_times(&deck, count);
    }
    recorder
}
