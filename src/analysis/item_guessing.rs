//! The item guessing game as one test of a sampler's or a stream's result, and as a figure
//! a player understands.
//!
//! The game's tally ([`crate::tally::item_game`]) says how many items the strategy chosen
//! on the studied samples or draws named in the ones it then played, and what chance the
//! fair law gave each guess. Where those chances do not depend on the history (a uniform
//! order, equal independent draws, a bag of one of each) the count has an exact
//! Poisson-binomial law, as in the card game ([`crate::stats::guessing`]); elsewhere the
//! p-value is the martingale bound of [`crate::stats::martingale`], valid whatever the
//! history. The figure for people is the mean per window beside the fair one: "a player
//! who studied 8,192 of these samples names 1.30 of the next 3 items (fair: 0.92)".

use super::{TestOutcome, TestReport, report};
use crate::stats::guessing::poisson_binomial_p_value;
use crate::stats::martingale::Martingale;
use crate::stats::sample_mean::mean_and_half_width;
use crate::stats::{PMethod, PValue};
use crate::tally::item_game::{ItemGameTally, ItemStrategy};

/// How the p-value was computed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ItemNull {
    /// Exactly: the chances did not depend on the history (Poisson-binomial).
    Exact,
    /// By the martingale bound (conservative): the chances depended on the history.
    Martingale,
}

impl ItemNull {
    /// Its name, as in JSON.
    pub fn name(self) -> &'static str {
        match self {
            ItemNull::Exact => "exact-poisson-binomial",
            ItemNull::Martingale => "martingale-bound",
        }
    }
}

/// What the game says.
#[derive(Clone, Debug, PartialEq)]
pub struct ItemGuessingFinding {
    /// Guesses per window.
    pub window: usize,
    /// What the studied units are called (`samples`, `draws`).
    pub unit: &'static str,
    /// The strategy played.
    pub strategy: ItemStrategy,
    /// Windows studied (samples, or windows of draws).
    pub training_windows: u64,
    /// Draws or samples studied, for the sentence.
    pub studied: u64,
    /// Windows played.
    pub windows: u64,
    /// Right guesses in all on the played windows.
    pub correct: u64,
    /// Mean right guesses per played window.
    pub mean: f64,
    /// Its 95 % interval (the mean ± 1.96 standard errors, from the windows' spread).
    pub interval: (f64, f64),
    /// What the best player gets per window from a fair source, on average.
    pub fair: f64,
    /// What a fair source gives the strategy played, per window, on average.
    pub null_mean: f64,
    /// `mean − fair`.
    pub excess: f64,
    /// The p-value of so many right guesses or more under the fair law.
    pub p: PValue,
    /// How it was computed.
    pub null: ItemNull,
    /// Right guesses at each place of the window, over the played windows.
    pub by_position: Vec<u64>,
}

impl ItemGuessingFinding {
    /// The finding of the game `tally`.
    pub fn of(tally: &ItemGameTally) -> Self {
        let windows = tally.windows.max(1) as f64;
        let (mean, half) =
            mean_and_half_width(tally.correct as f64, tally.correct_squares as f64, tally.windows);
        let fair = tally.fair_best / windows;
        let (p, null) = match &tally.exact {
            Some(per_window) => (
                poisson_binomial_p_value(per_window, tally.windows, tally.correct),
                ItemNull::Exact,
            ),
            None => {
                let mut martingale = Martingale::default();
                for &(chance, right) in &tally.guesses {
                    martingale.record(chance, right);
                }
                (martingale.p_value(), ItemNull::Martingale)
            }
        };
        let studied = if tally.unit == "samples" {
            tally.training_windows
        } else {
            tally.training_windows * tally.window as u64
        };
        Self {
            window: tally.window,
            unit: tally.unit,
            strategy: tally.strategy,
            training_windows: tally.training_windows,
            studied,
            windows: tally.windows,
            correct: tally.correct,
            mean,
            interval: (mean - half, mean + half),
            fair,
            null_mean: tally.null_expected / windows,
            excess: mean - fair,
            p,
            null,
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
            expected: self.null_mean * self.windows as f64,
            p: self.p,
            method: match self.null {
                ItemNull::Exact => PMethod::Exact,
                ItemNull::Martingale => PMethod::Bound,
            },
        }
    }

    /// `a player who studied 8,192 of these samples names 1.30 of the next 3 items (fair:
    /// 0.92)`.
    pub fn sentence(&self) -> String {
        format!(
            "a player who studied {} of these {} names {:.2} of the next {} items (fair: {:.2})",
            crate::format::group_thousands(self.studied),
            self.unit,
            self.mean,
            self.window,
            self.fair
        )
    }

    /// The line the text report prints under a result.
    pub fn line(&self) -> String {
        format!(
            "{}: 95 % interval {:.2} to {:.2}, strategy {}, p {} ({})",
            self.sentence(),
            self.interval.0,
            self.interval.1,
            self.strategy.name(),
            self.p,
            match self.null {
                ItemNull::Exact => "exact",
                ItemNull::Martingale => "martingale bound",
            }
        )
    }
}
