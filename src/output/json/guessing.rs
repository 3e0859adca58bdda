//! The guessing game in JSON: the `guessing` object of a shuffle's result (`run`,
//! `ingest`, `merge`). Its names match the `exact` report's where they mean the same
//! (`strategy`, `fair_expected_correct`, `excess`).

use serde::Serialize;

use crate::analysis::GuessingFinding;

/// What a player who studied some deals makes of the next ones.
#[derive(Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub(crate) struct GuessingJson {
    /// The strategy played (`position`, `successor`, `rising-sequence`, and with deals in
    /// order `carried-position`, `carried-successor`, `carried-rising-sequence`).
    strategy: &'static str,
    /// What it does, in words.
    strategy_description: &'static str,
    /// Deals studied (the run's first), and deals played (the next ones).
    training_deals: u64,
    played_deals: u64,
    /// Right guesses on the played deals, in all and per deal.
    correct: u64,
    mean_correct: f64,
    /// The 95 % interval of `mean_correct`.
    interval_95: (f64, f64),
    /// `H_n`: what any strategy names per deal of a fair shuffle, on average.
    fair_expected_correct: f64,
    /// `mean_correct − fair_expected_correct`.
    excess: f64,
    /// The exact p-value of so many right guesses under a fair shuffle (floored at
    /// 1e-300; `log10_p_value` is not).
    p_value: f64,
    log10_p_value: f64,
    /// Right guesses at each position of the deal, over the played deals.
    correct_by_position: Vec<u64>,
    /// The finding in one sentence.
    text: String,
}

pub(crate) fn guessing_json(finding: &GuessingFinding) -> GuessingJson {
    GuessingJson {
        strategy: finding.strategy.name(),
        strategy_description: finding.strategy.description(),
        training_deals: finding.training_deals,
        played_deals: finding.deals,
        correct: finding.correct,
        mean_correct: finding.mean,
        interval_95: finding.interval,
        fair_expected_correct: finding.fair,
        excess: finding.excess,
        p_value: finding.p.value_floored(),
        log10_p_value: finding.p.log10(),
        correct_by_position: finding.by_position.clone(),
        text: finding.sentence(),
    }
}
