//! The exact law of `K` Gilbert–Shannon–Reeds riffles, in closed form, for decks of up to
//! 2,000 cards: no path is enumerated.
//!
//! Bayer and Diaconis ("Trailing the dovetail shuffle to its lair", Ann. Appl. Probab. 2
//! (1992) 294–313) showed that `K` GSR riffles of `n` cards (`riffles:K`,
//! [`crate::catalogue::riffles`]) deal an order with `r` rising sequences with probability
//!
//! `P_r = C(2^K + n − r, n) / 2^(Kn)`,
//!
//! zero when `r > 2^K`. Everything else follows from `P_r` and the number of orders with
//! `r` rising sequences, `A(n, r − 1)` (Eulerian numbers, [`crate::stats::eulerian`]):
//!
//! - the law of `r` after the riffles, `A(n, r−1) · P_r`;
//! - the total variation from uniform, `½ Σ_r A(n, r−1) · |P_r − 1/n!|`, which reproduces
//!   Bayer and Diaconis's table for 52 cards (1.000 for up to 4 riffles, then 0.924,
//!   0.614, 0.334, 0.167, …: "seven shuffles");
//! - the most likely order, the fresh deck (`r = 1`), and the least likely possible ones,
//!   `r = min(n, 2^K)` rising sequences;
//! - the trials the rising-sequence χ² test needs to catch the riffles.
//!
//! # In log space
//!
//! `n!` and `2^(Kn)` are far beyond an `f64` (`2000!` is about `10^5736`), and the
//! binomial coefficient of a number near `2^64` cannot be taken from log-gamma values
//! without losing every digit. But the ratio to uniform is a product of `n` factors near 1:
//!
//! `n! · P_r = C(a + n − r, n) · n! / a^n = Π_{j=1..n} (1 + (j − r)/a)`,  `a = 2^K`,
//!
//! so `ln(n! P_r) = Σ_j ln_1p((j − r)/a)`, exact to a few units in the last place for any
//! `K` up to 64, and `|P_r · n! − 1|` comes from `expm1` of that sum without cancellation.
//! Each term of the total variation is `exp(ln(A(n, r−1)/n!) + ln|n! P_r − 1|)`, so neither
//! factor ever has to exist as an `f64` on its own. The figures are as accurate as the
//! Eulerian law they use: for few riffles the mass lies in its far tail, where logarithms
//! near `−10^4` (2,000 cards) are good to about `1e-10`; the total variation and the law of
//! `r` after the riffles are then good to a few `1e-10` (measured), and to `1e-12` on 52
//! cards (Bayer and Diaconis's table, checked against exact rational arithmetic).

use crate::catalogue::MAX_RIFFLES;
use crate::error::{Error, Result};
use crate::stats::eulerian::ln_rising_sequence_law;
use crate::stats::power::{PooledLawPower, pooled_law_trials_needed};
use crate::tally::MAX_N;

/// Where the figures of a riffle law come from, as the terminal header, the JSON and the
/// HTML report name it.
pub const METHOD: &str = "closed form of Bayer & Diaconis (1992): no path enumerated";

/// One class of orders of the riffled deck: all orders with the same number of rising
/// sequences, which `K` riffles deal with the same probability.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RiffleOrderClass {
    /// The number of rising sequences of the orders in the class.
    pub rising_sequences: usize,
    /// `ln P(one given order of the class)`.
    pub ln_probability: f64,
    /// `ln(n! · P)`: the log of how many times more likely than under a fair shuffle one
    /// order of the class is (`−∞` for impossible orders).
    pub ln_ratio_to_uniform: f64,
    /// `ln A(n, r − 1)`: the log of the number of orders in the class.
    pub ln_orders: f64,
}

/// The exact law of `K` GSR riffles of `n` cards.
#[derive(Clone, Debug, PartialEq)]
pub struct RiffleLaw {
    /// Cards.
    pub n: usize,
    /// Riffles.
    pub riffles: u32,
    /// `ln(n! · P(one order with r rising sequences))` for `r` in `0..=n` (entry 0 is
    /// unused and `−∞`, as are impossible orders, `r > 2^K`).
    pub ln_ratio_to_uniform: Vec<f64>,
    /// `P(the riffled deck has r rising sequences)` for `r` in `0..=n`.
    pub rising_sequence_law: Vec<f64>,
    /// The total variation distance from uniform over the `n!` orders.
    pub total_variation: f64,
    /// The most likely order, the fresh deck (one rising sequence).
    pub most_likely: RiffleOrderClass,
    /// The least likely orders that can come out: `min(n, 2^K)` rising sequences.
    pub least_likely: RiffleOrderClass,
    /// The share of the `n!` orders that `K` riffles can never deal (`r > 2^K`).
    pub impossible_share: f64,
}

impl RiffleLaw {
    /// The class of orders with `r` rising sequences (`1 <= r <= n`), `ln_eulerian`
    /// being the law of `r` under a fair shuffle.
    fn class(&self, r: usize, ln_eulerian: &[f64]) -> RiffleOrderClass {
        let ln_factorial = ln_factorial(self.n);
        RiffleOrderClass {
            rising_sequences: r,
            ln_probability: self.ln_ratio_to_uniform[r] - ln_factorial,
            ln_ratio_to_uniform: self.ln_ratio_to_uniform[r],
            ln_orders: ln_eulerian[r] + ln_factorial,
        }
    }

    /// The trials the χ² test of the number of rising sequences against the Eulerian law
    /// (pooled for that many trials) needs to catch these riffles at `alpha` with
    /// [`super::POWER`], with the test's noncentrality per trial and degrees of freedom
    /// there; `None` when no `u64` number of trials is enough.
    pub fn rising_sequence_test_power(&self, alpha: f64) -> Option<PooledLawPower> {
        let eulerian = ln_rising_sequence_law(self.n);
        let null: Vec<f64> = eulerian.iter().map(|&ln_p| ln_p.exp()).collect();
        // Q_r − E_r = E_r · (n! P_r − 1), computed as such so that a bias of 1e-12 is not
        // lost in the difference of two probabilities, and in log space, where E_r alone
        // underflows and n! P_r alone overflows.
        let shift: Vec<f64> = eulerian
            .iter()
            .zip(&self.ln_ratio_to_uniform)
            .map(|(&ln_e, &ln_ratio)| {
                let size = (ln_e + ln_abs_exp_m1(ln_ratio)).exp();
                if ln_ratio > 0.0 { size } else { -size }
            })
            .collect();
        pooled_law_trials_needed(&null, &shift, alpha, super::POWER)
    }
}

/// `ln n!`, summed from logarithms (exact to rounding; `ln_gamma` would do as well).
fn ln_factorial(n: usize) -> f64 {
    (2..=n).map(|k| (k as f64).ln()).sum()
}

/// `ln |e^x − 1|` for any `x` (`x = −∞` gives `ln 1 = 0`, `x = 0` gives `−∞`).
fn ln_abs_exp_m1(x: f64) -> f64 {
    if x > 700.0 {
        // e^x − 1 = e^x (1 − e^-x), and e^x alone would overflow.
        x + (-(-x).exp()).ln_1p()
    } else {
        x.exp_m1().abs().ln()
    }
}

/// The exact law of `riffles` GSR riffles of `n` cards (`2 <= n <= 2,000`,
/// `1 <= riffles <= 64`), in closed form (see the module docs). `O(n²)`, milliseconds.
pub fn riffle_law(n: usize, riffles: u32) -> Result<RiffleLaw> {
    if !(2..=MAX_N).contains(&n) {
        return Err(Error::BadOption {
            option: "--n",
            problem: format!("must be between 2 and {MAX_N} for the riffles' closed form (got {n})"),
        });
    }
    if !(1..=MAX_RIFFLES).contains(&riffles) {
        return Err(Error::BadParameter {
            spec: format!("riffles:{riffles}"),
            problem: format!("the closed form takes 1 to {MAX_RIFFLES} riffles"),
        });
    }
    let a = 2f64.powi(riffles as i32);
    let ln_eulerian = ln_rising_sequence_law(n);

    let mut ln_ratio_to_uniform = vec![f64::NEG_INFINITY; n + 1];
    for (r, slot) in ln_ratio_to_uniform.iter_mut().enumerate().skip(1) {
        // Π_{j=1..n} (1 + (j − r)/a), which has the factor 0 (j = r − a) exactly when
        // r > a: those orders are impossible (and later factors would be negative).
        if (r as f64) <= a {
            *slot = (1..=n).map(|j| ((j as f64 - r as f64) / a).ln_1p()).sum();
        }
    }

    let mut rising_sequence_law = vec![0.0; n + 1];
    let mut total_variation = 0.0;
    let mut impossible_share = 0.0;
    for r in 1..=n {
        let (ln_e, ln_ratio) = (ln_eulerian[r], ln_ratio_to_uniform[r]);
        rising_sequence_law[r] = (ln_e + ln_ratio).exp();
        total_variation += 0.5 * (ln_e + ln_abs_exp_m1(ln_ratio)).exp();
        if ln_ratio == f64::NEG_INFINITY {
            impossible_share += ln_e.exp();
        }
    }

    let mut law = RiffleLaw {
        n,
        riffles,
        ln_ratio_to_uniform,
        rising_sequence_law,
        // Rounding in the sum can pass 1 by an ulp when nearly every order is impossible.
        total_variation: total_variation.min(1.0),
        most_likely: RiffleOrderClass {
            rising_sequences: 1,
            ln_probability: 0.0,
            ln_ratio_to_uniform: 0.0,
            ln_orders: 0.0,
        },
        least_likely: RiffleOrderClass {
            rising_sequences: 1,
            ln_probability: 0.0,
            ln_ratio_to_uniform: 0.0,
            ln_orders: 0.0,
        },
        impossible_share: impossible_share.min(1.0),
    };
    // P_r falls with r: the fresh deck is the most likely order, the possible orders with
    // the most rising sequences the least likely.
    let most_sequences = n.min(1usize.checked_shl(riffles).unwrap_or(usize::MAX));
    law.most_likely = law.class(1, &ln_eulerian);
    law.least_likely = law.class(most_sequences, &ln_eulerian);
    Ok(law)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalogue::PermutationAlgorithm;
    use crate::exact::enumerate::enumerate_permutations;
    use crate::randomness::DrawLaw;
    use crate::simulate::NoProgress;
    use crate::tally::lehmer::{factorial, unrank};
    use crate::tally::rising::rising_sequences;

    /// Bayer & Diaconis (1992): the total variation distance from uniform of `K` riffles
    /// of 52 cards, 1.000 for up to four riffles, then 0.924, 0.614, 0.334, 0.167, 0.085,
    /// 0.043 (rounded to three decimals), and about halving with each riffle after that.
    ///
    /// The figures are also checked against the exact value of the formula, summed in
    /// rational arithmetic on big integers (Python 3's `fractions`, every `A(52, k)` and
    /// `C(2^K + 52 − r, 52)` exact), to 1e-12. Eleven and twelve riffles give exactly
    /// 0.0215024 and 0.0107549: to three decimals 0.022 and 0.011, where tables that
    /// continue Bayer and Diaconis's row often print the truncated 0.021 and 0.010.
    #[test]
    fn reproduces_bayer_and_diaconis_for_52_cards() {
        let published = [
            1.000, 1.000, 1.000, 1.000, 0.924, 0.614, 0.334, 0.167, 0.085, 0.043,
        ];
        let exact = [
            1.0,
            1.0,
            1.0,
            0.9999995334313746,
            0.9237329293962945,
            0.6135495965656284,
            0.33406099946815154,
            0.16715864192695742,
            0.08542019340906182,
            0.042945548921035026,
            0.021502375949235434,
            0.010754893495669948,
        ];
        for (k, &expected) in exact.iter().enumerate() {
            let riffles = k as u32 + 1;
            let tv = riffle_law(52, riffles).unwrap().total_variation;
            assert!(
                (tv - expected).abs() < 1e-12,
                "{riffles} riffles: {tv} vs {expected}"
            );
            if let Some(&table) = published.get(k) {
                assert_eq!((tv * 1000.0).round() / 1000.0, table, "{riffles} riffles: {tv}");
            }
            if riffles >= 11 {
                // The continued table's 0.021 and 0.010, truncated.
                assert_eq!((tv * 1000.0).floor() / 1000.0, [0.021, 0.010][k - 10]);
            }
        }
    }

    /// The closed form against the law found by walking every random path of the
    /// catalogue's own `riffles:K` code: the same probability for every order, to
    /// rounding, and exactly the same orders impossible. This ties the implementation to
    /// the formula (a wrong cut or a wrong drop rule changes many orders' probabilities).
    #[test]
    fn equals_the_enumerated_law_of_the_catalogue_code() {
        for (n, times) in [
            (2, 1),
            (2, 3),
            (3, 1),
            (3, 2),
            (3, 3),
            (4, 1),
            (4, 2),
            (5, 1),
            (6, 1),
        ] {
            let enumerated = enumerate_permutations(
                PermutationAlgorithm::Riffles { times },
                n,
                DrawLaw::Uniform,
                &NoProgress,
            )
            .unwrap();
            let law = riffle_law(n, times).unwrap();
            let ln_factorial = ln_factorial(n);
            let mut deck = vec![0u16; n];
            for rank in 0..factorial(n).unwrap() as usize {
                unrank(rank, &mut deck);
                let r = rising_sequences(&deck);
                let closed_form = (law.ln_ratio_to_uniform[r] - ln_factorial).exp();
                let walked = enumerated.probability(rank);
                assert!(
                    (closed_form - walked).abs() <= 1e-14 * walked.max(1e-300),
                    "{n} cards, {times} riffles, {deck:?}: {closed_form} vs {walked}"
                );
                assert_eq!(walked == 0.0, closed_form == 0.0);
            }
            assert!((law.total_variation - enumerated.total_variation()).abs() < 1e-14);
        }
    }

    #[test]
    fn small_decks_by_hand() {
        // One riffle of 3 cards: the fresh deck 4/8, each of the four two-sequence orders
        // 1/8, the reversed deck impossible.
        let law = riffle_law(3, 1).unwrap();
        let p = |r: usize| (law.ln_ratio_to_uniform[r] - 6f64.ln()).exp();
        assert!((p(1) - 0.5).abs() < 1e-15);
        assert!((p(2) - 0.125).abs() < 1e-15);
        assert_eq!(p(3), 0.0);
        assert!((law.impossible_share - 1.0 / 6.0).abs() < 1e-15);
        // TV = ½ (|1/2 − 1/6| + 4 |1/8 − 1/6| + 1/6) = 1/3.
        assert!((law.total_variation - 1.0 / 3.0).abs() < 1e-15);
        assert_eq!(law.most_likely.rising_sequences, 1);
        assert_eq!(law.least_likely.rising_sequences, 2);
        assert!((law.most_likely.ln_ratio_to_uniform - 3f64.ln()).abs() < 1e-15);
        assert!((law.least_likely.ln_orders - 4f64.ln()).abs() < 1e-15);
    }

    #[test]
    fn every_deck_size_and_riffle_count_gives_a_law() {
        for n in [2, 10, 52, 500, 2000] {
            for riffles in [1, 2, 7, 11, 20, 40, 64] {
                let law = riffle_law(n, riffles).unwrap();
                // For few riffles the mass lies in the Eulerian law's far tail, whose
                // logarithms (near -10^4 at 2,000 cards) carry absolute errors near 1e-10
                // (measured: the sum is off by at most 3e-10).
                let total: f64 = law.rising_sequence_law.iter().sum();
                assert!(
                    (total - 1.0).abs() < 1e-9,
                    "{n} cards, {riffles}: sums to {total}"
                );
                assert!((0.0..=1.0).contains(&law.total_variation));
                // The share of impossible orders is a floor for the distance.
                assert!(law.total_variation >= law.impossible_share - 1e-9);
                assert!((0.0..=1.0).contains(&law.impossible_share));
                assert!(law.most_likely.ln_ratio_to_uniform >= law.least_likely.ln_ratio_to_uniform);
                assert!(law.least_likely.ln_ratio_to_uniform > f64::NEG_INFINITY);
            }
        }
        // 2,000 cards need about 17 riffles (3/2 log2 n): far from mixed at 11, mixed at 22.
        assert!(riffle_law(2000, 11).unwrap().total_variation > 0.999);
        assert!(riffle_law(2000, 22).unwrap().total_variation < 0.05);
        // 64 riffles leave a bias of order n²/2^65, still positive and exact.
        let tv = riffle_law(52, 64).unwrap().total_variation;
        assert!(tv > 0.0 && tv < 1e-15, "{tv}");
        // Refusals, one line each.
        for (n, riffles) in [(1, 7), (2001, 7), (52, 0), (52, 65)] {
            let error = riffle_law(n, riffles).unwrap_err().to_string();
            assert!(!error.contains('\n') && !error.is_empty());
        }
    }

    #[test]
    fn the_rising_sequence_test_catches_few_riffles_fast_and_many_slowly() {
        let needed = |n: usize, riffles: u32| {
            riffle_law(n, riffles)
                .unwrap()
                .rising_sequence_test_power(1e-6)
                .map(|power| power.trials)
        };
        // Every deck size works, its tails far below f64 included.
        for n in [2, 3, 100, 2000] {
            for riffles in [1, 7, 30] {
                let power = riffle_law(n, riffles).unwrap().rising_sequence_test_power(1e-6);
                assert!(power.is_none_or(|power| power.noncentrality_per_trial.is_finite()));
            }
        }
        assert!(
            needed(2000, 7).unwrap() < 100,
            "7 riffles of 2,000 cards are far from mixed"
        );
        // More riffles, more deals needed. Up to five riffles of 52 cards are caught as
        // soon as a test at 1e-6 with 99 % power can be made at all (27 deals; at most 32
        // rising sequences where a fair deck has 26.5 ± 2.1 is plain to see); from six on
        // each riffle halves the bias and so about quadruples the deals (measured: 30, 80,
        // 370, 1,620, 6,826, 28,346, 117,023 for 6 to 12 riffles).
        assert_eq!(needed(52, 1), needed(52, 5));
        let mut previous = needed(52, 5).unwrap();
        for riffles in [6, 7, 8, 9, 10, 11, 12] {
            let trials = needed(52, riffles).unwrap();
            assert!(trials > previous, "{riffles} riffles: {trials} after {previous}");
            previous = trials;
        }
        let ratio = needed(52, 12).unwrap() as f64 / needed(52, 11).unwrap() as f64;
        assert!((3.0..5.0).contains(&ratio), "{ratio}");
        let power = riffle_law(52, 7)
            .unwrap()
            .rising_sequence_test_power(1e-6)
            .unwrap();
        assert!(power.df >= 2.0 && power.noncentrality_per_trial > 0.0);
    }
}
