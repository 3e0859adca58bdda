use super::*;
use crate::randomness::{Randomness, SimulationSource};
use crate::stats::guessing::poisson_binomial_p_value;

#[test]
fn never_below_the_exact_binomial_tail() {
    // With a constant p the count is binomial: the exact tail is the smallest valid
    // p-value, and the martingale's may only be larger (it is a bound), here at every
    // count from the mean to all right.
    for (guesses, p) in [(50u64, 0.5), (400, 0.1), (2_000, 1.0 / 7.0), (100, 0.01)] {
        let mean = (guesses as f64 * p).ceil() as u64;
        for correct in mean..=guesses {
            let mut martingale = Martingale::default();
            for t in 0..guesses {
                martingale.record(p, t < correct);
            }
            let exact = poisson_binomial_p_value(&[p], guesses, correct);
            let bound = martingale.p_value();
            assert!(
                bound.log10() >= exact.log10() - 1e-9,
                "{guesses} guesses at {p}, {correct} right: {} < exact {}",
                bound.log10(),
                exact.log10()
            );
        }
    }
}

#[test]
fn costs_at_most_the_grid_over_the_best_chernoff_bound_and_finds_clear_excess() {
    // 10,000 guesses at 1/10, 1,500 right (z ≈ 16.7): the exact tail is about 1e-54.
    let mut martingale = Martingale::default();
    for t in 0..10_000 {
        martingale.record(0.1, t % 20 < 3);
    }
    let exact = poisson_binomial_p_value(&[0.1], 10_000, 1_500).log10();
    let bound = martingale.p_value().log10();
    assert!(exact < -50.0 && bound < -45.0, "exact {exact}, bound {bound}");
    assert!(
        bound - exact < 4.0,
        "within a few orders of magnitude: {bound} vs {exact}"
    );
    // At the mean, nothing.
    let mut fair = Martingale::default();
    for t in 0..10_000 {
        fair.record(0.1, t % 10 == 0);
    }
    assert_eq!(fair.p_value(), PValue::ONE);
}

/// The share of `runs` sequences of `steps` guesses, each right with the probability the
/// history gives it, whose p-value is below `alpha`.
fn false_alarms(runs: u64, steps: usize, alpha: f64, chance: impl Fn(&[bool]) -> f64) -> u64 {
    let mut alarms = 0;
    for seed in 0..runs {
        let mut source = SimulationSource::from_seed(seed);
        let mut martingale = Martingale::default();
        let mut history = Vec::with_capacity(steps);
        for _ in 0..steps {
            let p = chance(&history);
            let right = source.unit() < p;
            martingale.record(p, right);
            history.push(right);
        }
        alarms += u64::from(martingale.p_value().is_below(alpha));
    }
    alarms
}

#[test]
fn a_fair_history_dependent_source_false_alarms_below_nominal() {
    // The chance of the next guess depends on the last outcome (0.3 after a right guess,
    // 0.05 after a wrong one): not a Poisson-binomial count, yet the test holds its level.
    // 1,000 runs at alpha = 0.05 would give 50 alarms to a test at its level (sd 6.9); the
    // mixture is conservative and gives far fewer, so 50 cannot be reached by chance, and
    // a test that ignored the mixture's price (the best λ chosen afterwards) would come
    // near or past it.
    let alarms = false_alarms(1_000, 500, 0.05, |history| match history.last() {
        Some(true) => 0.3,
        _ => 0.05,
    });
    assert!(alarms <= 50, "{alarms} false alarms in 1,000 at 5 %");
    let constant = false_alarms(1_000, 500, 0.05, |_| 0.2);
    assert!(constant <= 50, "{constant} false alarms in 1,000 at 5 %");
}

#[test]
fn a_source_that_beats_its_stated_chances_is_caught() {
    // Stated 0.05 after a wrong guess, but really 0.1: 20,000 guesses give about 900
    // more right guesses than stated (sd about 30): caught every time.
    let mut source = SimulationSource::from_seed(7);
    let mut martingale = Martingale::default();
    for _ in 0..20_000 {
        martingale.record(0.05, source.unit() < 0.1);
    }
    assert!(martingale.p_value().log10() < -20.0, "{:?}", martingale.p_value());
}
