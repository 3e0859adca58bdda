//! What a flaw is worth: the card-guessing game, played against an exact law.
//!
//! Turn the cards of a shuffled deck up one at a time and name each before it shows,
//! remembering every card seen ("complete feedback"). Against a fair shuffle the next card
//! is uniform over the unseen ones whatever came before, so no strategy expects more than
//! `H_n = 1 + 1/2 + … + 1/n` correct guesses (4.54 of 52 cards). Diaconis, Fulman and
//! Holmes convinced a casino-machine maker with this game where total variation had not
//! (Ann. Appl. Probab. 23(4), 2013): it is what a player, a cheat or a bot can gain.
//!
//! Where the law of orders is known exactly, the best any player can do is known too.
//! Guesses do not change what is shown, so the best strategy names, after each prefix of
//! the deal, the card most likely to come next, and it expects
//!
//! `Σ over every prefix p of the deal of max_c P(p followed by c)`
//!
//! correct guesses ([`optimal_from_law`]; for ordered selections of `k` items, the same
//! sum over prefixes shorter than `k`, against the fair `1/n + … + 1/(n−k+1)`). Lehmer
//! ranks are lexicographic, so the orders that share a prefix are a block of consecutive
//! ranks, and the sum is taken level by level over block sums, in exact integers when
//! the law's numerators allow.
//!
//! For GSR riffles ([`riffle`]): one riffle for any deck up to 2,000 cards by a recursion
//! over what a player knows (no order enumerated); `K` riffles of up to 10 cards from the
//! closed-form law over every order; beyond, where the optimal strategy is an open
//! problem, the value of a stated strategy, a lower bound. For one pass of the shelf
//! shuffler on any deck, the optimal value by simulated deals, each valued with the exact
//! law of the next card after every prefix ([`shelf_optimal`]); for several passes, a
//! stated strategy's value ([`shelf`]).

pub mod riffle;
pub mod shelf;
pub mod shelf_optimal;

use std::ops::Add;

use serde::Serialize;

use super::enumerate::ExactLaw;

/// The strategy behind an optimal value.
pub const OPTIMAL_STRATEGY: &str =
    "optimal with complete feedback: after each card, name the most likely of the unseen cards";

/// How a figure of the game was found.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum GuessingValue {
    /// The best any player can do, exactly: `fraction` when it is an exact ratio of
    /// integers (`numerator / denominator`, as text), else a float.
    Optimal {
        /// `"numerator/denominator"`, when the sum was taken in exact integers.
        fraction: Option<String>,
    },
    /// The expected correct guesses of a stated (not optimal) strategy: a lower bound on
    /// the optimal value. `half_width` is the 95 % interval's half-width when simulated
    /// (`None` when computed exactly), over `deals` deals from `seed`.
    LowerBound {
        /// Half-width of the 95 % interval of the mean (simulated values).
        half_width: Option<f64>,
        /// Deals simulated.
        deals: Option<u64>,
        /// Their seed.
        seed: Option<u64>,
    },
}

/// The guessing game against one exact law.
#[derive(Clone, Debug, PartialEq)]
pub struct Guessing {
    /// How many cards are guessed (`n`, or `k` for ordered selections).
    pub cards: usize,
    /// Out of how many (`n`).
    pub deck: usize,
    /// Expected correct guesses: optimal, or a lower bound ([`GuessingValue`]).
    pub expected_correct: f64,
    /// What a fair shuffle allows: `1/n + 1/(n−1) + … + 1/(n−cards+1)`.
    pub fair_expected_correct: f64,
    /// The strategy, in words.
    pub strategy: String,
    /// How the value was computed, in words.
    pub method: String,
    /// Optimal or a lower bound.
    pub value: GuessingValue,
}

impl Guessing {
    /// Expected correct guesses beyond a fair deck's.
    pub fn excess(&self) -> f64 {
        self.expected_correct - self.fair_expected_correct
    }

    /// Whether the value is the optimal one (not a lower bound).
    pub fn is_optimal(&self) -> bool {
        matches!(self.value, GuessingValue::Optimal { .. })
    }

    /// `4.27 of 6 cards where a fair deck allows 2.45`, with `at least` for a bound.
    pub fn sentence(&self) -> String {
        let bound = if self.is_optimal() { "" } else { "at least " };
        let interval = match self.value {
            GuessingValue::LowerBound {
                half_width: Some(half_width),
                ..
            } => format!(" ± {half_width:.2}"),
            _ => String::new(),
        };
        format!(
            "{bound}{:.2}{interval} of {} cards where a fair deck allows {:.2}",
            self.expected_correct, self.cards, self.fair_expected_correct
        )
    }
}

/// `1/n + 1/(n−1) + … + 1/(n−k+1)`: the expected correct guesses of any strategy that
/// names `k` items drawn one by one without replacement from `n`, uniformly (`H_n` for
/// a whole deck).
pub fn fair_value(n: usize, k: usize) -> f64 {
    (0..k.min(n)).map(|i| 1.0 / (n - i) as f64).sum()
}

/// The optimal expected correct guesses against an enumerated law over the ordered
/// selections of `k` of `n` items in lexicographic (Lehmer, or partial Lehmer) rank
/// order, `k = n` for whole orders.
pub fn optimal_from_law(law: &ExactLaw, n: usize, k: usize) -> Guessing {
    let exact = law.denominator.checked_mul(k as u128).is_some();
    let (expected_correct, fraction) = if exact {
        // Every level's block sums are probabilities (at most the denominator), and the
        // sum of maxima is at most k denominators: no overflow.
        let numerator = sum_of_maxima(law.numerators.clone(), n, k);
        let divisor = gcd(numerator, law.denominator).max(1);
        (
            numerator as f64 / law.denominator as f64,
            Some(format!("{}/{}", numerator / divisor, law.denominator / divisor)),
        )
    } else {
        (sum_of_maxima(law.probabilities(), n, k), None)
    };
    Guessing {
        cards: k,
        deck: n,
        expected_correct,
        fair_expected_correct: fair_value(n, k),
        strategy: OPTIMAL_STRATEGY.to_string(),
        method: "the sum over every prefix of the deal of its likeliest next card, from the enumerated law"
            .to_string(),
        value: GuessingValue::Optimal { fraction },
    }
}

/// `Σ_prefixes max_c P(prefix + c)` for masses over the ordered selections of `k` of `n`
/// items in lexicographic rank order (`masses.len() == n!/(n−k)!`).
///
/// The selections sharing their first `L − 1` items are consecutive, `n − L + 1` of them
/// per prefix at level `L`: each level adds the largest mass of every such block, then
/// collapses each block to its sum, the mass of the shorter prefix.
pub fn sum_of_maxima<T>(mut masses: Vec<T>, n: usize, k: usize) -> T
where
    T: Copy + Default + PartialOrd + Add<Output = T>,
{
    let mut total = T::default();
    for level in (1..=k).rev() {
        let block = n - level + 1;
        debug_assert_eq!(masses.len() % block, 0);
        let collapsed = masses
            .chunks(block)
            .map(|children| {
                let (mut largest, mut sum) = (children[0], T::default());
                for &mass in children {
                    if mass > largest {
                        largest = mass;
                    }
                    sum = sum + mass;
                }
                total = total + largest;
                sum
            })
            .collect();
        masses = collapsed;
    }
    total
}

fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

#[cfg(test)]
mod tests;
