//! Asserting, in `cargo test`, that a shuffle someone wrote is fair.
//!
//! A crate that shuffles adds `shuffle-audit` as a dev-dependency and writes one line in
//! a test; the test fails with a readable report (the verdict, every test's statistic and
//! p-values, the most and least frequent orders, the seed and how to reproduce) when the
//! shuffle is biased:
//!
//! ```
//! use rand::RngExt;
//!
//! /// Durstenfeld's Fisher-Yates, as a user might write it.
//! fn my_shuffle<T>(items: &mut [T], rng: &mut impl rand::Rng) {
//!     for i in (1..items.len()).rev() {
//!         items.swap(i, rng.random_range(0..=i));
//!     }
//! }
//!
//! shuffle_audit::assert_fair_shuffle(|deck, rng| my_shuffle(deck, rng));
//! ```
//!
//! [`FairShuffleAudit`] sets the deck size, trials, seed, threads and α, and its
//! [`run`](FairShuffleAudit::run) returns the [`ShuffleAudit`] instead of panicking:
//!
//! ```
//! use rand::RngExt;
//! use shuffle_audit::{FairShuffleAudit, Verdict};
//!
//! /// The naive swap: every card swapped with any card. n^n paths onto n! orders.
//! fn naive_shuffle<T>(items: &mut [T], rng: &mut impl rand::Rng) {
//!     for i in 0..items.len() {
//!         items.swap(i, rng.random_range(0..items.len()));
//!     }
//! }
//!
//! let audit = FairShuffleAudit::new()
//!     .n(4)
//!     .trials(100_000)
//!     .seed(7)
//!     .run(|deck, rng| naive_shuffle(deck, rng))
//!     .unwrap();
//! assert_eq!(audit.verdict(), Verdict::Fail);
//! assert!(audit.report().contains("permutations"));
//! ```
//!
//! The shuffle is handed a deck `[0, 1, ..., n-1]` (fresh before every trial) and an
//! [`AuditRng`], a rand generator over the engine's per-chunk stream, so the audit is as
//! reproducible as a catalogue run: same seed, same result, whatever the thread count.
//! A deck that comes back with a card lost or duplicated is a broken shuffle, reported
//! with the trial and the deck, never tallied. A `suspicious` first result is confirmed
//! before it counts ([`crate::stats::confirm`]): one re-run with an independent seed and
//! four times the trials, whose verdict is the one that counts.

mod report;

pub use report::{AuditOutcome, ShuffleAudit};

use crate::analysis::analyse_permutations;
use crate::error::{Error, Result};
use crate::simulate::{
    AuditRng, CHUNK_TRIALS, Engine, MAX_THREADS, check_thread_count, simulate_user_shuffle,
};
use crate::stats::Thresholds;
use crate::stats::confirm::confirm;
use crate::stats::verdict::DEFAULT_ALPHA;
use crate::tally::MAX_N;

/// The default deck size: six cards, 720 orders.
///
/// Small enough that every order is tallied and expects hundreds of shuffles, large
/// enough that a bias which needs a few cards to show (the naive swap is fair on two)
/// has them. The classic biases are caught after a few hundred to a few thousand
/// shuffles at six cards; see [`DEFAULT_TRIALS`].
pub const DEFAULT_N: usize = 6;

/// The default number of shuffles: 300,000.
///
/// `shuffle-audit exact <algorithm> --n 6` gives the shuffles the permutation test needs
/// to catch each classic bias at α = 1e-6 with 99 % power:
///
/// | bias                                                      | shuffles needed | margin |
/// |-----------------------------------------------------------|----------------:|-------:|
/// | naive swap (`naive-swap`)                                 |           4,399 |   68 × |
/// | off-by-one `random(i)`, Sattolo-like (`sattolo`)          |              63 | 4700 × |
/// | sort by a random comparator, merge sort (`sort-comparator-merge`) |     458 |  650 × |
/// | sort by a random comparator, insertion sort (`sort-comparator-insertion`) | 75 | 4000 × |
///
/// A shuffle that never leaves the last card last (`random(n-1)`, the 1999 online-poker
/// bug) leaves a sixth of the orders empty. If the other orders stay equally likely, the
/// permutation test's noncentrality is `T/5` (`T/6` from the empty orders, `T/30` from the
/// others at 6/5 of their share); at α = 1e-6 and 99 % power the test on 719 df needs a
/// noncentrality of about 310, so under 2,000 shuffles catch it, and the position test,
/// whose last column is all wrong, a few hundred.
///
/// Every one of the 720 orders then expects 417 shuffles and every card × position cell
/// 50,000, far above the 5 the χ² approximation needs. The run takes 0.01 to 0.04 s in an
/// optimised build and 0.15 to 0.62 s in an unoptimised one, on two busy cores
/// (`scripts/bench.sh` measures it; the figures are in the README).
pub const DEFAULT_TRIALS: u64 = 300_000;

/// The default seed. Fixed, so that a test passes or fails the same way on every run and
/// every machine; change it with [`FairShuffleAudit::seed`].
pub const DEFAULT_SEED: u64 = 0x5EED;

/// Asserts that `shuffle` is fair: it shuffles a deck of [`DEFAULT_N`] cards
/// [`DEFAULT_TRIALS`] times with seed [`DEFAULT_SEED`], and panics with the audit's report
/// unless the verdict is `pass` (see [`FairShuffleAudit::assert`]).
///
/// `shuffle(deck, rng)` must shuffle `deck` in place, drawing only from `rng`.
#[track_caller]
pub fn assert_fair_shuffle<F>(shuffle: F)
where
    F: Fn(&mut [usize], &mut AuditRng) + Sync,
{
    FairShuffleAudit::new().assert(shuffle);
}

/// An audit of a user's shuffle, with its settings. Build it with [`FairShuffleAudit::new`]
/// and the setters, then [`assert`](FairShuffleAudit::assert) or
/// [`run`](FairShuffleAudit::run).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FairShuffleAudit {
    n: usize,
    trials: u64,
    seed: u64,
    threads: Option<usize>,
    alpha: f64,
}

impl Default for FairShuffleAudit {
    fn default() -> Self {
        Self::new()
    }
}

impl FairShuffleAudit {
    /// The defaults: [`DEFAULT_N`] cards, [`DEFAULT_TRIALS`] shuffles, [`DEFAULT_SEED`],
    /// every core, α = 1e-6.
    pub fn new() -> Self {
        Self {
            n: DEFAULT_N,
            trials: DEFAULT_TRIALS,
            seed: DEFAULT_SEED,
            threads: None,
            alpha: DEFAULT_ALPHA,
        }
    }

    /// Cards in the deck (2 to 2,000). Up to 10 every order is tallied; above, the
    /// position, fixed-point and cycle tests run.
    pub fn n(self, n: usize) -> Self {
        Self { n, ..self }
    }

    /// Shuffles in the first run (a suspicious result is confirmed with four times more).
    pub fn trials(self, trials: u64) -> Self {
        Self { trials, ..self }
    }

    /// The seed. The result depends on it and on nothing else.
    pub fn seed(self, seed: u64) -> Self {
        Self { seed, ..self }
    }

    /// Worker threads (1 to 256; by default every core). The result does not depend on it.
    pub fn threads(self, threads: usize) -> Self {
        Self {
            threads: Some(threads),
            ..self
        }
    }

    /// The significance level for `fail` (between 0 and 1; by default 1e-6).
    pub fn alpha(self, alpha: f64) -> Self {
        Self { alpha, ..self }
    }

    /// Audits `shuffle` and panics with the report unless its verdict is `pass` with
    /// every test run: a biased shuffle fails, a doubtful one fails after its
    /// confirmation run, and too few trials for a test fail too (they prove nothing).
    /// Settings out of range and a broken shuffle (a card lost or duplicated) panic with
    /// a one-line message.
    #[track_caller]
    pub fn assert<F>(&self, shuffle: F)
    where
        F: Fn(&mut [usize], &mut AuditRng) + Sync,
    {
        match self.run(shuffle) {
            Ok(audit) if audit.passed() => {}
            Ok(audit) => panic!("{}", audit.report()),
            Err(error) => panic!("shuffle-audit: {error}"),
        }
    }

    /// Audits `shuffle` and returns what came out, whatever the verdict. Fails only on
    /// settings out of range and on a broken shuffle.
    pub fn run<F>(&self, shuffle: F) -> Result<ShuffleAudit>
    where
        F: Fn(&mut [usize], &mut AuditRng) + Sync,
    {
        let thresholds = self.validate()?;
        let engine = Engine::new(self.threads_for(self.trials))?;
        let confirmed = confirm(
            self.seed,
            self.trials,
            |seed, trials| {
                let tally =
                    simulate_user_shuffle(&engine, self.n, trials, seed, &shuffle).map_err(|broken| {
                        Error::BrokenShuffle {
                            trial: broken.trial,
                            seed,
                            deck: format!("{:?}", broken.deck),
                            problem: broken.problem,
                        }
                    })?;
                let analysis = analyse_permutations(&tally, &thresholds);
                Ok(AuditOutcome { tally, analysis })
            },
            |outcome| outcome.analysis.verdict,
        )?;
        Ok(ShuffleAudit {
            settings: *self,
            runs: confirmed,
        })
    }

    /// Checks the settings, so that an audit never starts with a value it cannot honour.
    fn validate(&self) -> Result<Thresholds> {
        let bad = |option, problem: String| Err(Error::BadOption { option, problem });
        if self.n < 2 {
            return bad(
                "n()",
                format!(
                    "must be at least 2 (got {}): a deck of fewer cards has only one order",
                    self.n
                ),
            );
        }
        if self.n > MAX_N {
            return bad("n()", format!("must be at most {MAX_N} (got {})", self.n));
        }
        if self.trials == 0 {
            return bad("trials()", "must be at least 1".to_string());
        }
        if let Some(threads) = self.threads
            && check_thread_count(threads).is_err()
        {
            return bad(
                "threads()",
                format!("must be between 1 and {MAX_THREADS} (got {threads})"),
            );
        }
        Thresholds::new(self.alpha).or_else(|_| {
            bad(
                "alpha()",
                format!(
                    "must be a probability between 0 and 1 (exclusive), not {}",
                    self.alpha
                ),
            )
        })
    }

    /// The worker threads to start: as asked or every core, but not more than the
    /// chunks of the longest run (the confirmation's) would keep busy.
    fn threads_for(&self, trials: u64) -> usize {
        let cores = std::thread::available_parallelism().map_or(1, usize::from);
        let chunks = trials
            .saturating_mul(crate::stats::confirm::CONFIRMATION_FACTOR)
            .div_ceil(CHUNK_TRIALS);
        let wanted = self.threads.unwrap_or(cores.min(MAX_THREADS));
        wanted.min(usize::try_from(chunks).unwrap_or(usize::MAX)).max(1)
    }
}
