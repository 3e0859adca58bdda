//! The item guessing game in JSON: the `guessing` object of a sampler's or a stream's
//! result. Its names match the shuffle game's where they mean the same (`strategy`,
//! `mean_correct`, `interval_95`, `fair_expected_correct`, `excess`, `p_value`).

use serde::Serialize;

use crate::analysis::ItemGuessingFinding;

/// What a player who studied some samples or draws makes of the next ones.
#[derive(Serialize, schemars::JsonSchema)]
pub(crate) struct ItemGuessingJson {
    /// The strategy played (`most-likely`, `position`, `successor`, and for streams `wait`).
    strategy: &'static str,
    /// What it does, in words.
    strategy_description: &'static str,
    /// What a window is made of (`samples`: one sample of k items; `draws`).
    unit: &'static str,
    /// Items guessed per window.
    window: usize,
    /// Windows studied (the first) and played (the next).
    training_windows: u64,
    played_windows: u64,
    /// Right guesses on the played windows, in all and per window.
    correct: u64,
    mean_correct: f64,
    /// The 95 % interval of `mean_correct`.
    interval_95: (f64, f64),
    /// What the best player names per window of a fair source, on average (along the
    /// histories seen).
    fair_expected_correct: f64,
    /// What a fair source gives the strategy played, per window, on average.
    null_expected_correct: f64,
    /// `mean_correct − fair_expected_correct`.
    excess: f64,
    /// The p-value of so many right guesses under the fair law (floored at 1e-300;
    /// `log10_p_value` is not), and how it was computed: `exact-poisson-binomial` or
    /// `martingale-bound` (conservative).
    p_value: f64,
    log10_p_value: f64,
    null: &'static str,
    /// Right guesses at each place of the window, over the played windows.
    correct_by_position: Vec<u64>,
    /// The finding in one sentence.
    text: String,
}

pub(crate) fn item_guessing_json(finding: &ItemGuessingFinding) -> ItemGuessingJson {
    ItemGuessingJson {
        strategy: finding.strategy.name(),
        strategy_description: finding.strategy.description(),
        unit: finding.unit,
        window: finding.window,
        training_windows: finding.training_windows,
        played_windows: finding.windows,
        correct: finding.correct,
        mean_correct: finding.mean,
        interval_95: finding.interval,
        fair_expected_correct: finding.fair,
        null_expected_correct: finding.null_mean,
        excess: finding.excess,
        p_value: finding.p.value_floored(),
        log10_p_value: finding.p.log10(),
        null: finding.null.name(),
        correct_by_position: finding.by_position.clone(),
        text: finding.sentence(),
    }
}
