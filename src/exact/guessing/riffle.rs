//! The guessing game against GSR riffles (`riffles:K`), without enumerating orders.
//!
//! # One riffle, exactly, for any deck
//!
//! One riffle is a uniformly random word of `n` letters T/B (Bayer & Diaconis): the cut is
//! the number of T's, the top packet's cards `0..c` go to the T positions in order and the
//! bottom packet's `c..n` to the B positions. Every word has probability `2^−n`; the
//! `n + 1` words `T^c B^(n−c)` all give the fresh deck. What a player knows after seeing a
//! prefix of the deal is one of two things:
//!
//! - **the deck so far is `0, 1, …, m − 1`**. The words that agree are the `2^(n−m)` that
//!   begin with `m` T's, and the `m` words `T^a B^(n−a)`, `a < m` (cut at `a`, every card
//!   since from the bottom packet). Card `m` comes next in `2^(n−m−1) + m + 1` of them,
//!   more than any other card, so the best guess is `m`. Card `m + j`, `j ≥ 1`, comes in
//!   `C(n−m−1, j)` of them: the word's next letter is the first B and the cut is `m + j`;
//! - **the cut `c` is known** (the first card out of order was `c`, the bottom packet's
//!   first card): with `t` cards of the top packet and `u` of the bottom one left, every
//!   interleaving of them is equally likely, the next card is the top packet's next with
//!   probability `t/(t + u)`, and the best guess is the next card of the larger packet.
//!   The expected correct guesses from there, `f(t, u)`, satisfy
//!   `f(t, u) = (max(t, u) + t·f(t−1, u) + u·f(t, u−1)) / (t + u)`, `f(t, 0) = t`,
//!   `f(0, u) = u`.
//!
//! So the optimal value is `Σ_m [P(fresh so far after m + 1 cards) +
//! 2^−(m+1) Σ_j P(Binomial(n−m−1, ½) = j) · f(j, n−m−1−j)]`: `O(n²)`, milliseconds for
//! 2,000 cards. Liu ("On card guessing game with one time riffle shuffle and complete
//! feedback", 2020) proved the same strategy optimal and the value
//! `n/2 + √(2n/π) + O(1)`; the tests check both that and every deck enumeration reaches.
//!
//! # More riffles
//!
//! Up to 10 cards the closed-form law of `K` riffles ([`crate::exact::riffles`]) is summed
//! over every order. Beyond, no optimal strategy is known (Krityakierne & Thanatipanonda,
//! 2021, showed that the one-riffle strategy is not optimal for two), so the figure is the
//! value of a stated strategy, a lower bound on the optimal one, simulated with the
//! catalogue's own riffle code from a fixed seed: [`RISING_SEQUENCE_STRATEGY`].

use crate::catalogue::riffles;
use crate::error::Result;
use crate::exact::riffle_law;
use crate::randomness::SimulationSource;
use crate::stats::sample_mean::mean_and_half_width;
use crate::tally::lehmer::{MAX_RANKED_N, factorial, unrank};
use crate::tally::rising::rising_sequences;

use super::{Guessing, GuessingValue, OPTIMAL_STRATEGY, fair_value, sum_of_maxima};

/// The stated strategy whose value is the lower bound for two riffles or more.
pub const RISING_SEQUENCE_STRATEGY: &str = "continue the last card's rising sequence: name the card after the last one seen, \
     or the smallest unseen card when that one has been seen";

/// The seed the lower bounds are simulated from.
pub const LOWER_BOUND_SEED: u64 = 22;

/// How many card moves (cards × riffles × deals) a simulated lower bound may cost.
const SIMULATION_BUDGET: f64 = 2e7;

/// The optimal expected correct guesses after one GSR riffle of `n` cards (module docs).
pub fn one_riffle_optimal(n: usize) -> f64 {
    if n == 0 {
        return 0.0;
    }
    // ln k! for the binomial weights.
    let mut ln_factorial = vec![0.0f64; n + 1];
    for k in 1..=n {
        ln_factorial[k] = ln_factorial[k - 1] + (k as f64).ln();
    }
    let ln_half = 0.5f64.ln();
    // later[s] = Σ_{j ≥ 1} P(Binomial(s, ½) = j) · f(j, s − j), filled row by row of f.
    let mut later = vec![0.0f64; n];
    // previous[u] = f(t − 1, u), row[u] = f(t, u), for u + t <= n − 1.
    let mut previous: Vec<f64> = (0..n).map(|u| u as f64).collect();
    for t in 1..n {
        let mut row = vec![0.0f64; n - t];
        row[0] = t as f64;
        for u in 1..n - t {
            let (tf, uf) = (t as f64, u as f64);
            row[u] = (tf.max(uf) + tf * previous[u] + uf * row[u - 1]) / (tf + uf);
        }
        for (u, &value) in row.iter().enumerate() {
            let s = t + u;
            let ln_weight = ln_factorial[s] - ln_factorial[t] - ln_factorial[u] + s as f64 * ln_half;
            later[s] += ln_weight.exp() * value;
        }
        previous = row;
    }
    let mut total = 0.0;
    for m in 0..n {
        let first = 0.5f64.powi(m as i32 + 1);
        // P(the first m + 1 cards are 0..=m) = (2^(n−m−1) + m + 1) / 2^n.
        let fresh = first + (m + 1) as f64 * 0.5f64.powi(n as i32);
        total += fresh + first * later[n - m - 1];
    }
    total
}

/// The guessing game after `times` GSR riffles of `n` cards (`2 <= n <= 2,000`): the
/// optimal value for one riffle or up to [`MAX_RANKED_N`] cards, else a simulated lower
/// bound (module docs).
pub fn riffles_guessing(n: usize, times: u32) -> Result<Guessing> {
    let fair_expected_correct = fair_value(n, n);
    if times == 1 {
        return Ok(Guessing {
            cards: n,
            deck: n,
            expected_correct: one_riffle_optimal(n),
            fair_expected_correct,
            strategy: format!(
                "{OPTIMAL_STRATEGY} (here: the next card of the fresh deck until one is out of \
                 order, then the next card of the larger packet)"
            ),
            method: "a recursion over the cards of each packet seen and what is known of the cut \
                     (no order enumerated)"
                .to_string(),
            value: GuessingValue::Optimal { fraction: None },
        });
    }
    if n <= MAX_RANKED_N {
        let law = riffle_law(n, times)?;
        let ln_factorial = (2..=n).map(|k| (k as f64).ln()).sum::<f64>();
        let mut deck = vec![0u16; n];
        let probabilities: Vec<f64> = (0..factorial(n).expect("n <= 10") as usize)
            .map(|rank| {
                unrank(rank, &mut deck);
                (law.ln_ratio_to_uniform[rising_sequences(&deck)] - ln_factorial).exp()
            })
            .collect();
        return Ok(Guessing {
            cards: n,
            deck: n,
            expected_correct: sum_of_maxima(probabilities, n, n),
            fair_expected_correct,
            strategy: OPTIMAL_STRATEGY.to_string(),
            method: "the sum over every prefix of the deal of its likeliest next card, from the \
                     closed-form law over every order"
                .to_string(),
            value: GuessingValue::Optimal { fraction: None },
        });
    }
    let deals = (SIMULATION_BUDGET / (n as f64 * f64::from(times))).clamp(2_000.0, 100_000.0) as u64;
    let (mean, half_width) = rising_sequence_strategy_value(n, times, deals, LOWER_BOUND_SEED);
    Ok(Guessing {
        cards: n,
        deck: n,
        expected_correct: mean,
        fair_expected_correct,
        strategy: RISING_SEQUENCE_STRATEGY.to_string(),
        method: format!(
            "a lower bound (the optimal strategy for {times} riffles is an open problem): the \
             strategy played on {deals} simulated deals, seed {LOWER_BOUND_SEED}, 95 % interval"
        ),
        value: GuessingValue::LowerBound {
            half_width: Some(half_width),
            deals: Some(deals),
            seed: Some(LOWER_BOUND_SEED),
        },
    })
}

/// The correct guesses of [`RISING_SEQUENCE_STRATEGY`] on one dealt deck.
pub fn rising_sequence_guesses(deck: &[u16], seen: &mut Vec<bool>) -> usize {
    let n = deck.len();
    seen.clear();
    seen.resize(n, false);
    let mut smallest_unseen = 0usize;
    let mut last: Option<usize> = None;
    let mut correct = 0;
    for &card in deck {
        let guess = match last {
            Some(previous) if previous + 1 < n && !seen[previous + 1] => previous + 1,
            _ => smallest_unseen,
        };
        let card = usize::from(card);
        correct += usize::from(guess == card);
        seen[card] = true;
        while smallest_unseen < n && seen[smallest_unseen] {
            smallest_unseen += 1;
        }
        last = Some(card);
    }
    correct
}

/// The mean correct guesses of [`RISING_SEQUENCE_STRATEGY`] over `deals` deals of `times`
/// GSR riffles of `n` fresh cards from `seed`, and the half-width of its 95 % interval
/// (1.96 standard errors: the deals are independent and their number large).
pub fn rising_sequence_strategy_value(n: usize, times: u32, deals: u64, seed: u64) -> (f64, f64) {
    let mut rng = SimulationSource::from_seed(seed);
    let (mut deck, mut merged, mut seen) = (Vec::with_capacity(n), Vec::new(), Vec::new());
    let (mut sum, mut sum_of_squares) = (0.0f64, 0.0f64);
    for _ in 0..deals {
        deck.clear();
        deck.extend(0..n as u16);
        riffles(&mut deck, &mut rng, times, &mut merged);
        let correct = rising_sequence_guesses(&deck, &mut seen) as f64;
        sum += correct;
        sum_of_squares += correct * correct;
    }
    mean_and_half_width(sum, sum_of_squares, deals)
}
