//! Exact position matrices: the probability that card `c` ends at position `p`, computed
//! without simulating a single shuffle.
//!
//! # Why one card's position is a Markov chain
//!
//! The swapping shuffles of the catalogue (naive swap, Fisher–Yates both ways, Sattolo,
//! text 002's shuffle, the repeated naive pass) are each a fixed list of steps "swap
//! `a[i]` with `a[j]`, `j` uniform on a range `R`", where `i` and `R` depend only on the
//! step number, never on the cards or on earlier answers. Follow one card. At a step
//! `(i, R)` with `m = |R|`:
//!
//! - if the card is at `i`, it moves to `j`, uniform on `R` (staying put when `j = i`);
//! - if it is at some `k` in `R` other than `i`, it moves to `i` with probability `1/m`
//!   (when `j = k`) and stays otherwise;
//! - anywhere else, it stays.
//!
//! What happens next depends only on where the card is now, because the draw that moves it
//! has the same distribution whatever the rest of the deck looks like: the card's position
//! is a (time-inhomogeneous) Markov chain. Its distribution after all steps is row `c` of
//! the matrix. Nothing about the joint order of the cards is claimed: that is what the
//! Markov argument loses, and why the order tallies still need enumeration or simulation.
//!
//! # Cost
//!
//! One step changes the distribution in `O(m) <= O(n)`: the mass at `i` spreads evenly
//! over `R`, and every other position of `R` sends `1/m` of its mass to `i`. A shuffle of
//! `n` steps costs `O(n²)` per card and `O(n³)` for the whole `n × n` matrix (rows are
//! computed in parallel). `K` repetitions of the same pass are a Markov chain with the
//! same transition matrix `P` each pass, so the matrix after `K` passes is `P^K`, computed
//! by repeated squaring in `O(n³ log K)`.
//!
//! Algorithms whose draws depend on the deck or on earlier answers (sorts with random
//! keys or comparators, the retrying insertion, the riffles' coin-driven merges, the
//! overhand shuffle's packet reversals) have no such chain here; [`exact_position_matrix`]
//! returns `None` for them.
//!
//! # Under a flawed source
//!
//! Nothing above needs `j` to be uniform, only that its law is the same whatever the
//! deck and the earlier draws: with answer `v` of probability `w(v)` (the source's
//! [`DrawLaw`], raw outputs taken as uniform and independent), a card at `i` moves to
//! `low + v` with probability `w(v)`, and a card at `low + v` moves to `i` with
//! probability `w(v)`. A step still costs `O(len)`. Fisher–Yates is then no longer
//! uniform by proof: its matrix is whatever the weighted chain computes
//! ([`PositionMethod::WeightedMarkovChain`]), unless every draw it makes happens to be
//! uniform under the source (`rand() % 8`).

use rayon::prelude::*;
use serde::Serialize;

use crate::catalogue::PermutationAlgorithm;
use crate::randomness::DrawLaw;

/// How [`exact_position_matrix`] knows an algorithm's position matrix, if it does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum PositionMethod {
    /// Exactly `1/n` in every cell, by the algorithm's proof of fairness (each of the `n!`
    /// paths gives a different order); the one-card Markov chain computes the same.
    Uniform,
    /// Exact, by propagating each card's position through the swap steps.
    MarkovChain,
    /// Exact in the source's model (each raw output uniform and independent), by
    /// propagating each card's position through the swap steps with each draw's answers
    /// weighted by their share of the raw outputs.
    WeightedMarkovChain,
    /// No exact method here.
    Unavailable,
}

impl PositionMethod {
    /// Whether [`exact_position_matrix`] returns a matrix.
    pub fn is_exact(self) -> bool {
        !matches!(self, PositionMethod::Unavailable)
    }

    /// The method in words, for the command line.
    pub fn description(self) -> &'static str {
        match self {
            PositionMethod::Uniform => {
                "exact: uniform by proof (1/n in every cell); the one-card Markov chain agrees"
            }
            PositionMethod::MarkovChain => {
                "exact: each card's position is a Markov chain over the swap steps (O(n^3))"
            }
            PositionMethod::WeightedMarkovChain => {
                "exact in the source's model: each card's position is a Markov chain over the \
                 swap steps, each answer of a draw weighted by its share of the source's raw \
                 outputs (O(n^3)); not uniform by proof, whatever the algorithm"
            }
            PositionMethod::Unavailable => "no exact method here: needs enumeration or simulation",
        }
    }
}

impl std::fmt::Display for PositionMethod {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.description())
    }
}

/// Which method gives `algorithm`'s exact position matrix on `n` cards with its draws
/// answered by `law`, if any.
pub fn position_matrix_method(algorithm: PermutationAlgorithm, n: usize, law: DrawLaw) -> PositionMethod {
    let biased_draws = swap_schedule(algorithm, n).is_some_and(|schedule| {
        schedule
            .pass
            .iter()
            .any(|step| !law.is_uniform_for(step.len as u64))
    });
    match algorithm.resolve(n) {
        _ if biased_draws => PositionMethod::WeightedMarkovChain,
        PermutationAlgorithm::FisherYates | PermutationAlgorithm::FisherYatesForward => {
            PositionMethod::Uniform
        }
        PermutationAlgorithm::NaiveSwap
        | PermutationAlgorithm::Sattolo
        | PermutationAlgorithm::RoguelikeShuffle
        | PermutationAlgorithm::AsfPoker
        | PermutationAlgorithm::NaiveRepeated { .. } => PositionMethod::MarkovChain,
        PermutationAlgorithm::SortRandomKey
        | PermutationAlgorithm::SortRandomKeyU8
        | PermutationAlgorithm::SortComparatorInsertion
        | PermutationAlgorithm::SortComparatorMerge
        | PermutationAlgorithm::InsertWithRetry
        | PermutationAlgorithm::Riffle
        | PermutationAlgorithm::Riffles { .. }
        | PermutationAlgorithm::DealerRiffles { .. }
        | PermutationAlgorithm::Overhand { .. } => PositionMethod::Unavailable,
    }
}

/// The exact position matrix of `algorithm` on `n` cards with its draws answered by
/// `law`: `matrix[card * n + position]` is the probability that the card that started at
/// `card` ends at `position` (rows are cards, columns positions, as in the project's
/// position tally). `None` for algorithms without an exact method
/// ([`position_matrix_method`]).
///
/// Costs `O(n³)` (`O(n³ log K)` for `K` naive passes): a few milliseconds for 52 cards.
pub fn exact_position_matrix(algorithm: PermutationAlgorithm, n: usize, law: DrawLaw) -> Option<Vec<f64>> {
    let Schedule { pass, passes } = swap_schedule(algorithm, n)?;
    let one_pass = chain_matrix(&pass, n, law);
    Some(matrix_power(&one_pass, n, passes))
}

/// One step of a swapping shuffle: swap `a[i]` with `a[low + below(len)]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct SwapStep {
    i: usize,
    low: usize,
    len: usize,
}

/// A shuffle as swap steps: `pass`, run `passes` times.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Schedule {
    pass: Vec<SwapStep>,
    passes: u32,
}

/// The swap steps of `algorithm` on `n` cards, read off the code in `catalogue::shuffles`
/// (tests replay the real code against them); `None` for algorithms that are not a fixed
/// list of uniform swaps.
fn swap_schedule(algorithm: PermutationAlgorithm, n: usize) -> Option<Schedule> {
    let step = |i, low, len| SwapStep { i, low, len };
    let pass: Vec<SwapStep> = match algorithm.resolve(n) {
        // for i in 0..n: swap(i, below(n))
        PermutationAlgorithm::NaiveSwap | PermutationAlgorithm::NaiveRepeated { .. } => {
            (0..n).map(|i| step(i, 0, n)).collect()
        }
        // for i in (1..n).rev(): swap(i, below(i + 1))
        PermutationAlgorithm::FisherYates => (1..n).rev().map(|i| step(i, 0, i + 1)).collect(),
        // for i in 0..n-1: swap(i, i + below(n - i))
        PermutationAlgorithm::FisherYatesForward => {
            (0..n.saturating_sub(1)).map(|i| step(i, i, n - i)).collect()
        }
        // for i in (1..n).rev(): swap(i, below(i))
        PermutationAlgorithm::Sattolo => (1..n).rev().map(|i| step(i, 0, i)).collect(),
        // for f in 0..n: swap(f, if f == 0 { 0 } else { below(f) }); f = 0 draws nothing
        // and swaps a[0] with itself, so it is no step at all.
        PermutationAlgorithm::RoguelikeShuffle => (1..n).map(|f| step(f, 0, f)).collect(),
        // for i in 0..n: swap(i, below(n - 1)); the last position is outside the range,
        // and a deck of one card draws nothing.
        PermutationAlgorithm::AsfPoker if n >= 2 => (0..n).map(|i| step(i, 0, n - 1)).collect(),
        PermutationAlgorithm::AsfPoker => Vec::new(),
        _ => return None,
    };
    let passes = match algorithm.resolve(n) {
        PermutationAlgorithm::NaiveRepeated { passes } => passes.expect("resolve fixes the number of passes"),
        _ => 1,
    };
    Some(Schedule { pass, passes })
}

/// The position matrix of one run of `steps`: every card's chain, rows in parallel.
fn chain_matrix(steps: &[SwapStep], n: usize, law: DrawLaw) -> Vec<f64> {
    // The answers' probabilities for each range length a step draws from, computed once
    // (at most n(n+1)/2 numbers), and only where they are not all equal.
    let mut weights: Vec<Option<Vec<f64>>> = vec![None; n + 1];
    for step in steps {
        if weights[step.len].is_none() && !law.is_uniform_for(step.len as u64) {
            weights[step.len] = Some(law.probabilities(step.len as u64));
        }
    }
    let mut matrix = vec![0.0; n * n];
    matrix
        .par_chunks_mut(n.max(1))
        .enumerate()
        .for_each(|(card, row)| {
            row[card] = 1.0;
            for &step in steps {
                match &weights[step.len] {
                    None => apply_step(row, step),
                    Some(weights) => apply_weighted_step(row, step, weights),
                }
            }
        });
    matrix
}

/// [`apply_step`] with answer `v` drawn with probability `weights[v]`, in `O(len)`.
fn apply_weighted_step(p: &mut [f64], SwapStep { i, low, len }: SwapStep, weights: &[f64]) {
    let range = low..low + len;
    // i receives the card at low + v with probability w(v), itself included when i is
    // in the range (j = i leaves it in place).
    let arriving: f64 = p[range.clone()]
        .iter()
        .zip(weights)
        .map(|(mass, w)| mass * w)
        .sum();
    // The card at i goes to low + v with probability w(v); a card at any other k of the
    // range leaves for i with probability w(k - low) and stays otherwise.
    let leaving = p[i];
    for (mass, &w) in p[range].iter_mut().zip(weights) {
        *mass = *mass * (1.0 - w) + leaving * w;
    }
    p[i] = arriving;
}

/// Moves one card's position distribution `p` through one swap step, in `O(len)`.
fn apply_step(p: &mut [f64], SwapStep { i, low, len }: SwapStep) {
    let m = len as f64;
    let range = low..low + len;
    let total: f64 = p[range.clone()].iter().sum();
    // Mass at i spreads evenly over the range; every other position of the range keeps
    // all but 1/m of its mass, which goes to i.
    let spread = p[i] / m;
    let keep = 1.0 - 1.0 / m;
    for mass in &mut p[range] {
        *mass = *mass * keep + spread;
    }
    // i receives 1/m of everything in the range: from itself when j = i (if i is in the
    // range), from each k when j = k.
    p[i] = total / m;
}

/// `matrix^power` for a row-major `n × n` matrix, by repeated squaring.
fn matrix_power(matrix: &[f64], n: usize, mut power: u32) -> Vec<f64> {
    let mut result: Option<Vec<f64>> = None;
    let mut square = matrix.to_vec();
    while power > 0 {
        if power & 1 == 1 {
            result = Some(match result {
                None => square.clone(),
                Some(result) => multiply(&result, &square, n),
            });
        }
        power >>= 1;
        if power > 0 {
            square = multiply(&square, &square, n);
            // Once a square is uniform to within rounding, every further product is
            // uniform (a doubly stochastic matrix times J/n is J/n), while more squarings
            // would only add rounding errors, which grow with the number of passes.
            let uniform = 1.0 / n as f64;
            if square.iter().all(|&p| (p - uniform).abs() < 1e-15) {
                return vec![uniform; n * n];
            }
        }
    }
    result.unwrap_or_else(|| {
        let mut identity = vec![0.0; n * n];
        for k in 0..n {
            identity[k * n + k] = 1.0;
        }
        identity
    })
}

/// `a × b` for row-major `n × n` matrices, rows in parallel.
fn multiply(a: &[f64], b: &[f64], n: usize) -> Vec<f64> {
    let mut product = vec![0.0; n * n];
    product
        .par_chunks_mut(n.max(1))
        .zip(a.par_chunks(n.max(1)))
        .for_each(|(out, a_row)| {
            for (&weight, b_row) in a_row.iter().zip(b.chunks(n)) {
                if weight != 0.0 {
                    for (cell, &value) in out.iter_mut().zip(b_row) {
                        *cell += weight * value;
                    }
                }
            }
        });
    product
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalogue::{SHUFFLES, Workspace};
    use crate::randomness::{Randomness, SimulationSource};

    const ALL: [PermutationAlgorithm; 16] = [
        PermutationAlgorithm::NaiveSwap,
        PermutationAlgorithm::FisherYates,
        PermutationAlgorithm::FisherYatesForward,
        PermutationAlgorithm::Sattolo,
        PermutationAlgorithm::RoguelikeShuffle,
        PermutationAlgorithm::NaiveRepeated { passes: None },
        PermutationAlgorithm::SortRandomKey,
        PermutationAlgorithm::SortRandomKeyU8,
        PermutationAlgorithm::SortComparatorInsertion,
        PermutationAlgorithm::SortComparatorMerge,
        PermutationAlgorithm::InsertWithRetry,
        PermutationAlgorithm::Riffle,
        PermutationAlgorithm::AsfPoker,
        PermutationAlgorithm::Riffles { times: 7 },
        PermutationAlgorithm::DealerRiffles { times: 3 },
        PermutationAlgorithm::Overhand { times: 1 },
    ];

    const SWAPPING: [PermutationAlgorithm; 7] = [
        PermutationAlgorithm::NaiveSwap,
        PermutationAlgorithm::FisherYates,
        PermutationAlgorithm::FisherYatesForward,
        PermutationAlgorithm::Sattolo,
        PermutationAlgorithm::RoguelikeShuffle,
        PermutationAlgorithm::NaiveRepeated { passes: None },
        PermutationAlgorithm::AsfPoker,
    ];

    fn matrix(algorithm: PermutationAlgorithm, n: usize) -> Vec<f64> {
        exact_position_matrix(algorithm, n, DrawLaw::Uniform).unwrap()
    }

    fn assert_close(actual: f64, expected: f64, tolerance: f64, what: &str) {
        assert!(
            (actual - expected).abs() <= tolerance,
            "{what}: {actual} is not {expected} (to {tolerance})"
        );
    }

    /// Records every bound asked for; answers with `answers` in turn, or at random.
    struct Scripted<'a> {
        bounds: Vec<u64>,
        answers: Vec<u64>,
        random: Option<&'a mut SimulationSource>,
    }

    impl Randomness for Scripted<'_> {
        fn below(&mut self, n: u64) -> u64 {
            let answer = match &mut self.random {
                Some(source) => {
                    let answer = source.below(n);
                    self.answers.push(answer);
                    answer
                }
                None => self.answers[self.bounds.len()],
            };
            self.bounds.push(n);
            answer
        }
        fn unit(&mut self) -> f64 {
            panic!("a swapping shuffle drew a float")
        }
    }

    fn steps_of(schedule: &Schedule) -> Vec<SwapStep> {
        let passes = schedule.passes as usize;
        schedule.pass.repeat(passes)
    }

    #[test]
    fn step_lists_match_the_draws_and_swaps_the_code_makes() {
        let mut random = SimulationSource::from_seed(21);
        let mut workspace = Workspace::default();
        let mut checked = 0;
        for algorithm in SWAPPING.into_iter().chain([
            PermutationAlgorithm::NaiveRepeated { passes: Some(1) },
            PermutationAlgorithm::NaiveRepeated { passes: Some(3) },
        ]) {
            for n in 0..=12usize {
                let steps = steps_of(&swap_schedule(algorithm, n).unwrap());
                let bounds: Vec<u64> = steps.iter().map(|step| step.len as u64).collect();

                // All answers 0: the bounds asked for, in order.
                let mut zeros = Scripted {
                    bounds: Vec::new(),
                    answers: vec![0; steps.len()],
                    random: None,
                };
                let mut deck: Vec<u16> = (0..n as u16).collect();
                algorithm.shuffle(&mut deck, &mut zeros, &mut workspace);
                assert_eq!(zeros.bounds, bounds, "{algorithm:?} on {n} cards");

                // Random answers: the steps, applied by hand, give the same deck.
                for _ in 0..50 {
                    let mut source = Scripted {
                        bounds: Vec::new(),
                        answers: Vec::new(),
                        random: Some(&mut random),
                    };
                    let mut deck: Vec<u16> = (0..n as u16).collect();
                    algorithm.shuffle(&mut deck, &mut source, &mut workspace);
                    assert_eq!(source.bounds, bounds, "{algorithm:?} on {n} cards");
                    let mut by_hand: Vec<u16> = (0..n as u16).collect();
                    for (step, &answer) in steps.iter().zip(&source.answers) {
                        by_hand.swap(step.i, step.low + answer as usize);
                    }
                    assert_eq!(by_hand, deck, "{algorithm:?} on {n} cards");
                }
                checked += 1;
            }
        }
        assert_eq!(checked, 9 * 13);
    }

    /// The position matrix by running the real code on every path of its draw schedule,
    /// each path weighted by the product of its answers' probabilities under `law`.
    fn enumerated(algorithm: PermutationAlgorithm, n: usize, law: DrawLaw) -> Vec<f64> {
        let schedule = algorithm.draw_schedule(n).unwrap();
        let paths: u64 = schedule.iter().product();
        let answer_probabilities: Vec<Vec<f64>> =
            schedule.iter().map(|&bound| law.probabilities(bound)).collect();
        let mut matrix = vec![0.0; n * n];
        let mut workspace = Workspace::default();
        let mut answers = vec![0u64; schedule.len()];
        for path in 0..paths {
            let mut rest = path;
            for (answer, &bound) in answers.iter_mut().zip(&schedule).rev() {
                *answer = rest % bound;
                rest /= bound;
            }
            let mut replay = Scripted {
                bounds: Vec::new(),
                answers: answers.clone(),
                random: None,
            };
            let mut deck: Vec<u16> = (0..n as u16).collect();
            algorithm.shuffle(&mut deck, &mut replay, &mut workspace);
            assert_eq!(replay.bounds, schedule);
            let weight: f64 = answers
                .iter()
                .zip(&answer_probabilities)
                .map(|(&answer, probabilities)| probabilities[answer as usize])
                .product();
            for (position, &card) in deck.iter().enumerate() {
                matrix[usize::from(card) * n + position] += weight;
            }
        }
        matrix
    }

    #[test]
    fn matrices_match_enumeration_of_every_path() {
        let mut checked = 0;
        for n in 1..=5usize {
            let mut algorithms = SWAPPING.to_vec();
            algorithms.push(PermutationAlgorithm::NaiveRepeated { passes: Some(1) });
            if n <= 4 {
                algorithms.push(PermutationAlgorithm::NaiveRepeated { passes: Some(2) });
            }
            if n <= 3 {
                algorithms.push(PermutationAlgorithm::NaiveRepeated { passes: Some(3) });
            }
            for algorithm in algorithms {
                // naive-repeated defaults to n passes: 4^16 paths at n = 4.
                let paths = algorithm
                    .draw_schedule(n)
                    .map(|schedule| schedule.iter().product::<u64>());
                if paths.is_none_or(|paths| paths > 100_000) {
                    continue;
                }
                // Every source whose draws are independent: the chain under each law
                // against the paths weighted by the same law.
                for law in [DrawLaw::Uniform, DrawLaw::RandMod, DrawLaw::MultiplyShift] {
                    let exact = exact_position_matrix(algorithm, n, law).unwrap();
                    let counted = enumerated(algorithm, n, law);
                    for (cell, (&e, &c)) in exact.iter().zip(&counted).enumerate() {
                        let what = format!("{algorithm:?} n={n} {law:?} cell {cell}");
                        assert_close(e, c, 1e-12, &what);
                    }
                }
                checked += 1;
            }
        }
        // asf-poker adds n = 1..=5.
        assert_eq!(checked, 45);
    }

    #[test]
    fn naive_swap_on_three_cards_matches_the_27_paths_by_hand() {
        // Orders 123, 132, 213, 231, 312, 321 come from 4, 5, 5, 5, 4, 4 of the 27 paths.
        // Card 1 is first in 123 and 132 (4 + 5), second in 213 and 312 (5 + 4), third in
        // 231 and 321 (5 + 4); card 2 is first in 213, 231 (10), second in 123, 321 (8),
        // third in 132, 312 (9); card 3 is first in 312, 321 (8), second in 132, 231 (10).
        let by_hand = [9.0, 9.0, 9.0, 10.0, 8.0, 9.0, 8.0, 10.0, 9.0].map(|paths| paths / 27.0);
        let exact = matrix(PermutationAlgorithm::NaiveSwap, 3);
        for (cell, (&e, &h)) in exact.iter().zip(&by_hand).enumerate() {
            assert_close(e, h, 1e-15, &format!("cell {cell}"));
        }
    }

    #[test]
    fn naive_swap_on_52_cards_has_the_known_bias() {
        let n = 52;
        let exact = matrix(PermutationAlgorithm::NaiveSwap, n);
        let ratio = |card: usize, position: usize| exact[card * n + position] * n as f64;
        // The top position holds card 2 too often and card 52 too rarely.
        assert_close(ratio(1, 0), 1.352, 5e-4, "card 2 on top");
        assert_close(ratio(51, 0), 0.743, 5e-4, "card 52 on top");
        let uniform = 1.0 / n as f64;
        for k in 0..n {
            assert_close(exact[k], uniform, 1e-12, "card 1's row");
            assert_close(exact[k * n + n - 1], uniform, 1e-12, "the bottom column");
        }
    }

    #[test]
    fn rows_and_columns_sum_to_one() {
        for algorithm in SWAPPING
            .into_iter()
            .chain([PermutationAlgorithm::NaiveRepeated { passes: Some(3) }])
        {
            for n in (1..=20).chain([31, 52, 64, 100]) {
                if matches!(algorithm, PermutationAlgorithm::NaiveRepeated { passes: None }) && n > 52 {
                    continue; // n passes: O(n³ log n), slow for nothing in a test
                }
                let exact = matrix(algorithm, n);
                for k in 0..n {
                    let row: f64 = exact[k * n..(k + 1) * n].iter().sum();
                    let column: f64 = (0..n).map(|card| exact[card * n + k]).sum();
                    assert_close(row, 1.0, 1e-12, &format!("{algorithm:?} n={n} row {k}"));
                    assert_close(column, 1.0, 1e-12, &format!("{algorithm:?} n={n} col {k}"));
                }
                assert!(exact.iter().all(|&p| p >= 0.0), "{algorithm:?} n={n}");
            }
        }
    }

    #[test]
    fn fisher_yates_both_ways_is_uniform() {
        for algorithm in [
            PermutationAlgorithm::FisherYates,
            PermutationAlgorithm::FisherYatesForward,
        ] {
            for n in 1..=100 {
                assert_eq!(
                    position_matrix_method(algorithm, n, DrawLaw::Uniform),
                    PositionMethod::Uniform
                );
                let exact = matrix(algorithm, n);
                for &p in &exact {
                    assert_close(p, 1.0 / n as f64, 1e-12, &format!("{algorithm:?} n={n}"));
                }
            }
        }
    }

    #[test]
    fn sattolo_and_roguelike_never_leave_a_card_in_place() {
        // Both produce only single n-cycles, so every other position is equally likely.
        for algorithm in [
            PermutationAlgorithm::Sattolo,
            PermutationAlgorithm::RoguelikeShuffle,
        ] {
            for n in 2..=100 {
                let exact = matrix(algorithm, n);
                for card in 0..n {
                    for position in 0..n {
                        let expected = if card == position {
                            0.0
                        } else {
                            1.0 / (n - 1) as f64
                        };
                        let p = exact[card * n + position];
                        assert_close(p, expected, 1e-12, &format!("{algorithm:?} n={n}"));
                    }
                }
            }
        }
    }

    #[test]
    fn one_naive_pass_repeated_is_the_naive_swap() {
        for n in 0..=60 {
            let once = PermutationAlgorithm::NaiveRepeated { passes: Some(1) };
            assert_eq!(
                matrix(once, n),
                matrix(PermutationAlgorithm::NaiveSwap, n),
                "n={n}"
            );
        }
        // Zero passes leave every card in place; more passes approach uniform.
        let none = matrix(PermutationAlgorithm::NaiveRepeated { passes: Some(0) }, 3);
        assert_eq!(none, vec![1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0]);
        let n = 52;
        let distance = |passes| {
            matrix(PermutationAlgorithm::NaiveRepeated { passes: Some(passes) }, n)
                .iter()
                .map(|p| (p - 1.0 / n as f64).abs())
                .fold(0.0, f64::max)
        };
        assert!(distance(2) < distance(1) / 10.0);
    }

    #[test]
    fn exactly_the_swapping_shuffles_have_an_exact_matrix() {
        for algorithm in ALL {
            let method = position_matrix_method(algorithm, 6, DrawLaw::Uniform);
            assert_eq!(
                exact_position_matrix(algorithm, 6, DrawLaw::Uniform).is_some(),
                method.is_exact(),
                "{algorithm:?}"
            );
            assert_eq!(method.is_exact(), SWAPPING.contains(&algorithm), "{algorithm:?}");
        }
        // Every catalogue shuffle is covered by ALL.
        for entry in SHUFFLES {
            let algorithm = entry.algorithm().as_permutation().unwrap();
            assert!(ALL.contains(&algorithm), "{}", entry.name);
        }
        assert_eq!(
            PositionMethod::Unavailable.to_string(),
            "no exact method here: needs enumeration or simulation"
        );
    }

    #[test]
    fn the_poker_shuffle_never_leaves_the_last_card_last() {
        // random(51)+1 never targets card 52: the last card moves only at the last step,
        // and then to one of the other positions. Every other cell is reachable.
        for n in [2, 3, 4, 52] {
            let cells = matrix(PermutationAlgorithm::AsfPoker, n);
            let last = n - 1;
            assert_eq!(cells[last * n + last], 0.0, "n = {n}");
            // (Two cards always swap, which empties the whole diagonal; see below.)
            let zeros = cells.iter().filter(|&&p| p == 0.0).count();
            assert_eq!(zeros, if n == 2 { 2 } else { 1 }, "n = {n}: {cells:?}");
            for card in 0..n {
                let row: f64 = cells[card * n..(card + 1) * n].iter().sum();
                assert_close(row, 1.0, 1e-12, "row sum");
            }
        }
        // Two cards: one path, and it always swaps them.
        assert_eq!(
            matrix(PermutationAlgorithm::AsfPoker, 2),
            vec![0.0, 1.0, 1.0, 0.0]
        );
    }

    #[test]
    fn empty_and_single_card_decks() {
        for algorithm in SWAPPING {
            assert_eq!(matrix(algorithm, 0), Vec::<f64>::new());
            assert_eq!(matrix(algorithm, 1), vec![1.0]);
        }
    }

    #[test]
    fn the_weighted_chain_sees_what_the_sources_bias_does() {
        // Fisher–Yates on 3 cards swaps the bottom with the card at j = rand() % 3, which
        // is 0 or 1 10,923 times in 32,768 and 2 only 10,922 times, then the middle with
        // k = rand() % 2, even. Card 3 stays at the bottom when j = 2: 10922/32768. It
        // reaches the top when j = 0 and k = 1, or j = 1 and k = 0: 10923/32768. Card 1
        // stays on top when k = 1 and j is 1 or 2: (10923 + 10922)/65536.
        let n = 3;
        let msvc = exact_position_matrix(PermutationAlgorithm::FisherYates, n, DrawLaw::RandMod).unwrap();
        assert_eq!(msvc[2 * n + 2], 10_922.0 / 32_768.0);
        assert_eq!(msvc[2 * n], 10_923.0 / 32_768.0);
        assert_eq!(msvc[0], 21_845.0 / 65_536.0);
        assert!(!crate::exact::is_uniform(&msvc, n));
        // Delphi's Random(3) gives 0 to one seed more than 1 and 2: card 1 lands at the
        // bottom 1431655766 times in 2^32, ×(1 + 2/2^32), a bias of 4.7e-10 that the
        // uniformity check must still see (the smallest a source makes; see
        // UNIFORM_TOLERANCE).
        let delphi =
            exact_position_matrix(PermutationAlgorithm::FisherYates, n, DrawLaw::MultiplyShift).unwrap();
        assert_eq!(delphi[2], 1_431_655_766.0 / 4_294_967_296.0);
        assert!((delphi[2] * 3.0 - 1.0 - 2.0 / 4_294_967_296.0).abs() < 1e-15);
        assert!(!crate::exact::is_uniform(&delphi, n));
        for law in [DrawLaw::RandMod, DrawLaw::MultiplyShift] {
            assert_eq!(
                position_matrix_method(PermutationAlgorithm::FisherYates, n, law),
                PositionMethod::WeightedMarkovChain
            );
        }
    }

    #[test]
    fn draws_a_source_makes_uniform_give_the_uniform_chain() {
        // 32,768 is a multiple of 2, 4 and 8: rand() % 8 is exactly uniform, and so is
        // every draw of the naive swap on 8 cards and of Fisher–Yates on 2.
        let naive = PermutationAlgorithm::NaiveSwap;
        assert_eq!(
            position_matrix_method(naive, 8, DrawLaw::RandMod),
            PositionMethod::MarkovChain
        );
        assert_eq!(
            exact_position_matrix(naive, 8, DrawLaw::RandMod),
            exact_position_matrix(naive, 8, DrawLaw::Uniform)
        );
        assert_eq!(
            position_matrix_method(PermutationAlgorithm::FisherYates, 2, DrawLaw::MultiplyShift),
            PositionMethod::Uniform
        );
        assert_eq!(
            position_matrix_method(naive, 7, DrawLaw::RandMod),
            PositionMethod::WeightedMarkovChain
        );
        assert_eq!(
            position_matrix_method(PermutationAlgorithm::Riffle, 7, DrawLaw::RandMod),
            PositionMethod::Unavailable
        );
    }

    #[test]
    fn the_weighted_steps_round_far_below_the_uniform_tolerance() {
        // The weighted step given exactly uniform weights must stay at 1/n up to rounding,
        // and that rounding must lie far below UNIFORM_TOLERANCE, the bias the smallest
        // source makes far above it (previous tests): Fisher–Yates, the longest chain per
        // card, on the largest deck, for a few cards (all 2000 rows would take seconds).
        let n = 2000;
        let Schedule { pass, .. } = swap_schedule(PermutationAlgorithm::FisherYates, n).unwrap();
        let mut worst = 0.0f64;
        for card in [0, 1, n / 2, n - 2, n - 1] {
            let mut row = vec![0.0; n];
            row[card] = 1.0;
            for &step in &pass {
                apply_weighted_step(&mut row, step, &DrawLaw::Uniform.probabilities(step.len as u64));
            }
            worst = row
                .iter()
                .map(|&p| (p * n as f64 - 1.0).abs())
                .fold(worst, f64::max);
        }
        assert!(worst < 1e-13, "rounding {worst:e}");
        assert!(worst < crate::exact::UNIFORM_TOLERANCE / 100.0);
    }

    #[test]
    fn fisher_yates_under_rand_mod_on_52_cards() {
        // The first step puts card v at the bottom with weight #{r : r % 52 = v}: 631 for
        // the 8 cards v < 32768 mod 52 = 8, 630 for the rest.
        let n = 52;
        let exact = exact_position_matrix(PermutationAlgorithm::FisherYates, n, DrawLaw::RandMod).unwrap();
        for card in 0..n {
            let expected = if card < 8 { 631.0 } else { 630.0 } / 32_768.0;
            assert_close(exact[card * n + n - 1], expected, 1e-15, &format!("card {card}"));
        }
        for k in 0..n {
            let row: f64 = exact[k * n..(k + 1) * n].iter().sum();
            let column: f64 = (0..n).map(|card| exact[card * n + k]).sum();
            assert_close(row, 1.0, 1e-12, "row");
            assert_close(column, 1.0, 1e-12, "column");
        }
    }
}
