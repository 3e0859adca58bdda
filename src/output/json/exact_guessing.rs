//! The guessing game of `exact` in JSON: the `guessing` object of each result
//! ([`crate::exact::guessing`]). `optimal_expected_correct` is the best player's expected
//! correct guesses where it is known, `null` where only a stated strategy's figure is
//! (several riffles of a large deck): that figure is then `lower_bound`, with its 95 %
//! interval when simulated. `fair_expected_correct` is what a fair deck allows
//! (`H_n`, or `1/n + … + 1/(n−k+1)` for ordered selections), `excess` the difference
//! between the figure given and it. The same object name carries the sample-based game of
//! `run` and `ingest`; there every figure is learned from deals, here it is exact.

use serde::Serialize;

use crate::exact::guessing::{Guessing, GuessingValue};

/// The `guessing` object.
#[derive(Serialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct GuessingJson<'a> {
    /// The strategy, in words.
    pub strategy: &'a str,
    /// Whether the figure is the optimal one.
    pub optimal: bool,
    /// The best player's expected correct guesses, when known.
    pub optimal_expected_correct: Option<f64>,
    /// The same as an exact fraction, when the sum was taken in integers.
    pub optimal_fraction: Option<&'a str>,
    /// A stated strategy's expected correct guesses: a lower bound on the optimal ones.
    pub lower_bound: Option<f64>,
    /// Its 95 % interval, when simulated.
    pub interval_95: Option<[f64; 2]>,
    /// Deals and seed of that simulation.
    pub deals: Option<u64>,
    /// The seed of that simulation.
    pub seed: Option<u64>,
    /// What a fair deck allows.
    pub fair_expected_correct: f64,
    /// The figure given minus the fair one.
    pub excess: f64,
    /// Cards guessed, out of `deck`.
    pub cards: usize,
    /// Cards in the deck (or items to pick from).
    pub deck: usize,
    /// How the figure was computed.
    pub method: &'a str,
}

impl<'a> GuessingJson<'a> {
    /// The object of one result's game.
    pub fn new(guessing: &'a Guessing) -> Self {
        let (fraction, bound) = match &guessing.value {
            GuessingValue::Optimal { fraction } => (fraction.as_deref(), None),
            GuessingValue::LowerBound {
                half_width,
                deals,
                seed,
            } => (None, Some((half_width, deals, seed))),
        };
        let value = guessing.expected_correct;
        Self {
            strategy: &guessing.strategy,
            optimal: bound.is_none(),
            optimal_expected_correct: bound.is_none().then_some(value),
            optimal_fraction: fraction,
            lower_bound: bound.map(|_| value),
            interval_95: bound
                .and_then(|(half_width, _, _)| *half_width)
                .map(|half_width| [value - half_width, value + half_width]),
            deals: bound.and_then(|(_, deals, _)| *deals),
            seed: bound.and_then(|(_, _, seed)| *seed),
            fair_expected_correct: guessing.fair_expected_correct,
            excess: guessing.excess(),
            cards: guessing.cards,
            deck: guessing.deck,
            method: &guessing.method,
        }
    }
}

/// The `"guessing": …` line of a result, `null` when the game does not apply.
pub(crate) fn line(guessing: Option<&Guessing>) -> String {
    let value = guessing.map(GuessingJson::new);
    format!(
        "      \"guessing\": {},",
        serde_json::to_string(&value).expect("plain data serialises")
    )
}
