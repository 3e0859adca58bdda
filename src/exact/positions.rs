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
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
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
    let swaps = algorithm.resolve(n).facts(|shuffle| shuffle.swaps());
    match swaps {
        Some(_) if biased_draws => PositionMethod::WeightedMarkovChain,
        Some(_) if algorithm.fair_at_every_size() => PositionMethod::Uniform,
        Some(_) => PositionMethod::MarkovChain,
        None => PositionMethod::Unavailable,
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

/// The swap steps of `algorithm` on `n` cards, read off its swaps
/// ([`crate::catalogue::shuffle::ShuffleFacts::swaps`]; tests replay the real code against
/// them); `None` for algorithms that are not a fixed list of uniform swaps.
fn swap_schedule(algorithm: PermutationAlgorithm, n: usize) -> Option<Schedule> {
    let swaps = algorithm.resolve(n).facts(|shuffle| shuffle.swaps())?;
    let pass = swaps
        .shuffle
        .steps(n)
        .into_iter()
        .map(|(i, low, len)| SwapStep { i, low, len })
        .collect();
    Some(Schedule {
        pass,
        passes: swaps.passes,
    })
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
mod tests;
