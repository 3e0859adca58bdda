//! The guessing game as one test of a result, and as a figure a player understands.
//!
//! The game's tally ([`crate::tally::guessing`]) says how many cards the strategy chosen
//! on the studied deals named in the deals it then played. Under a fair shuffle that count
//! follows an exact law whatever the strategy ([`crate::stats::guessing`]), so its upper
//! tail is the p-value of a test in the same Holm family as the others. The figure for
//! people is the mean per deal beside the fair `H_n`: "a player who studied 8,192 of these
//! deals names 6.10 of the next 52 cards (fair: 4.54)".

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

use super::{TestOutcome, TestReport, report};
use crate::stats::guessing::{fair_expected_correct, guessing_p_value};
use crate::stats::sample_mean::mean_and_half_width;
use crate::stats::{PMethod, PValue};
use crate::tally::guessing::{GuessingTally, Strategy};

/// What the game says.
#[derive(Clone, Debug, PartialEq)]
pub struct GuessingFinding {
    /// Cards per deal.
    pub n: usize,
    /// The strategy played.
    pub strategy: Strategy,
    /// Deals studied.
    pub training_deals: u64,
    /// Deals played.
    pub deals: u64,
    /// Right guesses in all on the played deals.
    pub correct: u64,
    /// Mean right guesses per played deal.
    pub mean: f64,
    /// Its 95 % interval (the mean ± 1.96 standard errors, from the deals' spread).
    pub interval: (f64, f64),
    /// What any strategy gets on average from a fair shuffle: `H_n`.
    pub fair: f64,
    /// `mean − fair`.
    pub excess: f64,
    /// The exact p-value of so many right guesses or more under a fair shuffle.
    pub p: PValue,
    /// Right guesses at each position, over the played deals.
    pub by_position: Vec<u64>,
}

impl GuessingFinding {
    /// The finding of the game `tally`.
    pub fn of(tally: &GuessingTally) -> Self {
        let (mean, half) =
            mean_and_half_width(tally.correct as f64, tally.correct_squares as f64, tally.deals);
        let fair = fair_expected_correct(tally.n);
        Self {
            n: tally.n,
            strategy: tally.strategy,
            training_deals: tally.training_deals,
            deals: tally.deals,
            correct: tally.correct,
            mean,
            interval: (mean - half, mean + half),
            fair,
            excess: mean - fair,
            p: cached_p_value(tally.n, tally.deals, tally.correct),
            by_position: tally.by_position.clone(),
        }
    }

    /// The game's line among the run's tests, named `guessing`.
    pub fn test_report(&self) -> TestReport {
        report("guessing", self.strategy.description(), self.outcome())
    }

    /// The test as a test of the result, in the same family as the others.
    pub fn outcome(&self) -> TestOutcome {
        TestOutcome::Count {
            observed: self.correct,
            expected: self.deals as f64 * self.fair,
            p: self.p,
            // The Poisson-binomial law, summed (a Chernoff bound only for tails below
            // 1e-290, where it is conservative).
            method: PMethod::Exact,
        }
    }

    /// `a player who studied 8,192 of these deals names 6.10 of the next 52 cards (fair:
    /// 4.54)`.
    pub fn sentence(&self) -> String {
        format!(
            "a player who studied {} of these deals names {:.2} of the next {} cards (fair: {:.2})",
            crate::format::group_thousands(self.training_deals),
            self.mean,
            self.n,
            self.fair
        )
    }
}

/// [`guessing_p_value`], remembered: the live page analyses the same game at every step,
/// and the exact law of 8,192 deals takes a good part of a second to compute.
fn cached_p_value(n: usize, deals: u64, correct: u64) -> PValue {
    /// `(n, deals, correct)` to its p-value.
    type Cache = Mutex<HashMap<(usize, u64, u64), PValue>>;
    static CACHE: OnceLock<Cache> = OnceLock::new();
    let cache = CACHE.get_or_init(|| Mutex::new(HashMap::new()));
    let key = (n, deals, correct);
    if let Some(&p) = cache
        .lock()
        .unwrap_or_else(|poison| poison.into_inner())
        .get(&key)
    {
        return p;
    }
    let p = guessing_p_value(n, deals, correct);
    let mut cache = cache.lock().unwrap_or_else(|poison| poison.into_inner());
    if cache.len() >= 256 {
        cache.clear();
    }
    cache.insert(key, p);
    p
}
