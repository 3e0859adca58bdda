//! Repeated decks: the birthday test of how many different decks a program can deal.
//!
//! A program that seeds its generator from a 32-bit number can deal at most `2^32` decks,
//! out of `52! ≈ 2^225.6`. Each deal alone can look perfectly uniform, yet decks repeat
//! after about `2^16` deals, where a fair shuffle of 52 cards would not repeat a deck in
//! the lifetime of the universe. Counting the deals identical to an earlier one
//! ([`crate::tally::repeats`]) catches that, and turns into an estimate of the number of
//! decks the program can deal.
//!
//! # The law of the number of repeats
//!
//! `N` deals, each uniform over `D` equally likely decks (`D = n!` for a fair shuffle).
//! The repeats `R = N − (number of distinct decks)` have mean
//!
//! `E[R] = N − D (1 − (1 − 1/D)^N) ≈ N(N−1)/(2D)`,
//!
//! computed here without cancellation for any `D` up to `2000!` (given as `ln D`): by the
//! alternating series `Σ_{k>=2} (−1)^k C(N,k) D^{1−k}` when `N/D < 1/2`, whose terms fall
//! by a factor below `N/D` each, and by `N + D·expm1(N·ln_1p(−1/D))` otherwise, where the
//! result is at least a fifth of `N` and nothing cancels.
//!
//! # When the Poisson law applies
//!
//! For `N` small against `D`, `R` is close to Poisson: by the Chen–Stein method (Arratia,
//! Goldstein & Gordon, "Two moments suffice for Poisson approximations", Ann. Probab. 17
//! (1989) 9–25), the number `W` of pairs of equal deals is within total variation
//! `min(1, 1/λ)·C(N,2)(4N−7)/D²` of Poisson(`λ = C(N,2)/D`) (pairs sharing a deal are
//! the only dependent ones, and three equal deals have probability `1/D²`); `R` differs
//! from `W` only when three deals are equal (probability at most `C(N,3)/D²`), and `E[R]`
//! from `λ` by less than that. The p-value `P(X >= R)`, `X ~ Poisson(E[R])`, is therefore
//! off by at most the sum of those bounds, about `(N/D)·(4·min(λ, 1) + 2λ/3)`. The p-value
//! reported is the smaller of two upper bounds on the exact tail, so never below it at any
//! number of deals (a bound, as `p_method` says): that Poisson tail plus the Chen–Stein
//! bound, and `λ^R / R!`, a union bound over the ways `R` deals can each equal an earlier
//! one, which keeps far tails far (see [`union_bound`]). The test
//! is made only where that bound is at most [`MAX_APPROXIMATION_ERROR`]: for 20 million
//! deals, decks of 19 cards or more; for a billion deals, 21 or more. Smaller decks repeat
//! by chance so often that the approximation is no longer good to the tail probabilities a
//! test needs; those decks have at most `20! ≈ 2.4·10^18` orders, and the permutation χ²
//! (up to 10 cards) or the other tests cover them. The test is one-sided:
//! only too many repeats are a flaw (too few would mean the shuffle avoids its past,
//! which the serial tests look at).
//!
//! # How many decks the program can deal
//!
//! When repeats are seen, `E[R | D] = R` is solved for `D` (by bisection on `ln D`:
//! `E[R | D]` falls as `D` grows), not just read as `N²/(2R)`, which is off once `R` is a
//! sizeable part of `N`. The 95 % interval maps the exact Poisson (Garwood) interval of
//! the mean of `R` through the same inversion: fewer repeats, more decks. It assumes `R`
//! is close to Poisson, i.e. the estimate is large against `N`; for a program with only a
//! few decks (`R` near `N`), the point estimate is still the solution of the equation but
//! the interval is wider than it needs to be.

use statrs::distribution::{ChiSquared, ContinuousCDF};
use statrs::function::gamma::{gamma_lr, ln_gamma};

use super::pvalue::PValue;

/// The test is made only where the Poisson law of the repeats is within this of their
/// real law in total variation (so every p-value is good to `1e-10` absolute, far below
/// the levels a test is read at).
pub const MAX_APPROXIMATION_ERROR: f64 = 1e-10;

/// `ln n!`: the log of the number of orders of `n` cards.
pub fn ln_deck_count(n: usize) -> f64 {
    ln_gamma(n as f64 + 1.0)
}

/// `ln C(N, 2)` for `N >= 2`.
fn ln_pairs(deals: u64) -> f64 {
    let n = deals as f64;
    n.ln() + (n - 1.0).ln() - std::f64::consts::LN_2
}

/// The expected number of repeats `E[R] = N − D(1 − (1 − 1/D)^N)` among `deals` deals
/// uniform over `D = e^ln_decks` decks (`D >= 1`, any size: `ln_decks` up to `ln 2000!`
/// and beyond). Below about `1e-308` it comes out as 0 ([`ln_expected_repeats`] does not).
pub fn expected_repeats(deals: u64, ln_decks: f64) -> f64 {
    ln_expected_repeats(deals, ln_decks).exp()
}

/// `ln E[R]` of [`expected_repeats`], finite however many decks there are (`-inf` only for
/// fewer than two deals, where no repeat can happen): 1,000 deals of 200 cards expect
/// about `10^-369` repeats, which an `f64` holds only as its logarithm.
pub fn ln_expected_repeats(deals: u64, ln_decks: f64) -> f64 {
    assert!(ln_decks >= 0.0, "at least one deck (ln D = {ln_decks})");
    if deals < 2 {
        return f64::NEG_INFINITY;
    }
    let n = deals as f64;
    let ln_ratio = n.ln() - ln_decks; // ln(N/D)
    if ln_ratio < -std::f64::consts::LN_2 {
        // E[R] = C(N,2)/D · (1 − (N−2)/(3D) + (N−2)(N−3)/(3·4·D²) − …): term k+1 is term
        // k times −(N−k)/((k+1) D), below N/D < 1/2 in size.
        let per_deck = (-ln_decks).exp();
        let mut term = 1.0f64;
        let mut sum = 1.0f64;
        for k in 2u64..deals {
            term *= -((deals - k) as f64) / ((k + 1) as f64) * per_deck;
            sum += term;
            if term.abs() <= 1e-17 * sum {
                break;
            }
        }
        ln_pairs(deals) - ln_decks + sum.ln()
    } else {
        let decks = ln_decks.exp();
        (n + decks * (n * (-1.0 / decks).ln_1p()).exp_m1()).max(0.0).ln()
    }
}

/// Whether the Poisson law of the repeats is good enough for a test, and how good.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum RepeatsOutcome {
    /// The test ran.
    Tested {
        /// `P(X >= R)` for `X ~ Poisson(E[R])` plus the bound on the approximation's
        /// error: small when there are too many repeats, and never below the exact tail.
        p: PValue,
        /// The Chen–Stein bound on the total variation between the Poisson law and the
        /// real law of the repeats (at most [`MAX_APPROXIMATION_ERROR`]).
        approximation_error: f64,
    },
    /// The deck space is too small against the number of deals for the Poisson law (the
    /// bound is above [`MAX_APPROXIMATION_ERROR`]); the permutation χ² covers such decks.
    NotApplicable {
        /// The Chen–Stein bound that was too large (capped at 1).
        approximation_error: f64,
    },
}

/// The birthday test of a run of deals.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RepeatsTest {
    /// Deals counted.
    pub deals: u64,
    /// Deals identical to an earlier deal.
    pub repeats: u64,
    /// The repeats a fair shuffle would give on average, `E[R]`.
    pub expected: f64,
    /// The p-value, or why there is none.
    pub outcome: RepeatsOutcome,
}

impl RepeatsTest {
    /// The p-value, when the test applies.
    pub fn p(&self) -> Option<PValue> {
        match self.outcome {
            RepeatsOutcome::Tested { p, .. } => Some(p),
            RepeatsOutcome::NotApplicable { .. } => None,
        }
    }
}

/// The Chen–Stein bound (see the module docs) on the total variation between the law of
/// the repeats among `deals` deals from `D = e^ln_decks` decks and Poisson(`E[R]`),
/// capped at 1.
pub fn poisson_approximation_error(deals: u64, ln_decks: f64) -> f64 {
    if deals < 2 {
        return 0.0;
    }
    let n = deals as f64;
    let ln_lambda = ln_pairs(deals) - ln_decks;
    // min(1, 1/λ) · C(N,2)(4N−7)/D² = C(N,2)(4N−7)/D² / max(1, λ).
    let ln_pair_term = ln_pairs(deals) + (4.0 * n - 7.0).ln() - 2.0 * ln_decks - ln_lambda.max(0.0);
    // P(three equal deals) and |E[R] − λ|, each at most C(N,3)/D².
    let ln_triples = if deals >= 3 {
        n.ln() + (n - 1.0).ln() + (n - 2.0).ln() - 6f64.ln() - 2.0 * ln_decks
    } else {
        f64::NEG_INFINITY
    };
    (ln_pair_term.exp() + 2.0 * ln_triples.exp()).min(1.0)
}

/// The birthday test: `repeats` deals identical to an earlier one among `deals` deals,
/// against a fair shuffle over `D = e^ln_decks` decks (`ln_decks = ln n!`,
/// [`ln_deck_count`]). Made only where the Poisson law applies (see the module docs).
///
/// # Panics
///
/// If `repeats >= deals` while `deals > 0` (at least the first deal is new).
pub fn repeats_test(deals: u64, repeats: u64, ln_decks: f64) -> RepeatsTest {
    assert!(
        deals == 0 || repeats < deals,
        "{repeats} repeats among {deals} deals: the first deal cannot be a repeat"
    );
    grouped_repeats_test(&[(deals, 1)], repeats, ln_decks)
}

/// [`repeats_test`] for repeats counted within separate groups of deals: `groups` holds
/// `(deals in a group, number of such groups)` (a run counts within each chunk of
/// 16,384 deals, so that the count adds across threads and shards). The groups are
/// independent, so the expected repeats and the Chen–Stein bounds add, and the total is
/// close to Poisson with the summed mean.
pub fn grouped_repeats_test(groups: &[(u64, u64)], repeats: u64, ln_decks: f64) -> RepeatsTest {
    let deals: u64 = groups.iter().map(|&(size, count)| size * count).sum();
    let ln_expected = grouped_ln_expected_repeats(groups, ln_decks);
    let expected = ln_expected.exp();
    let approximation_error = groups
        .iter()
        .map(|&(size, count)| count as f64 * poisson_approximation_error(size, ln_decks))
        .sum::<f64>()
        .min(1.0);
    let outcome = if approximation_error <= MAX_APPROXIMATION_ERROR {
        let poisson = plus_error(
            poisson_upper_tail_of_ln_mean(repeats, ln_expected),
            approximation_error,
        );
        let union = union_bound(repeats, grouped_ln_pairs(groups) - ln_decks);
        RepeatsOutcome::Tested {
            p: if union.log10() < poisson.log10() {
                union
            } else {
                poisson
            },
            approximation_error,
        }
    } else {
        RepeatsOutcome::NotApplicable { approximation_error }
    };
    RepeatsTest {
        deals,
        repeats,
        expected,
        outcome,
    }
}

/// `λ^k / k!` (at most 1), `λ = e^ln_lambda` the expected number of equal pairs: an upper
/// bound on `P(R >= k)` at any size. `R >= k` needs `k` deals each equal to a chosen
/// earlier deal of its group; dealt in order, each such equality has probability `1/D`
/// whatever came before, so each choice of the `k` deals and their partners has
/// probability `D^-k`, and there are at most `(pairs)^k / k!` choices. Where the Chen–Stein
/// bound would swamp a far tail (12 repeats among 300,000 deals of 52 cards: Poisson tail
/// `10^-700`, bound `10^-119`), this keeps the p-value's magnitude.
fn union_bound(k: u64, ln_lambda: f64) -> PValue {
    if k == 0 {
        return PValue::ONE;
    }
    let k_f = k as f64;
    PValue::from_log10(((k_f * ln_lambda - ln_gamma(k_f + 1.0)) / std::f64::consts::LN_10).min(0.0))
}

/// `ln Σ count · C(size, 2)` over the groups: the pairs of deals that can be equal.
fn grouped_ln_pairs(groups: &[(u64, u64)]) -> f64 {
    let pairs: f64 = groups
        .iter()
        .filter(|&&(size, _)| size >= 2)
        .map(|&(size, count)| count as f64 * ln_pairs(size).exp())
        .sum();
    pairs.ln()
}

/// `p + error`, at most 1, in log space: the Poisson tail plus the Chen–Stein bound on
/// how far any probability of the Poisson law is from the real law's, so that the p-value
/// is never below the exact one (the bound is below `1e-10`, and for large decks far
/// below: 20 million deals of 52 cards make it about `1e-53`).
fn plus_error(p: PValue, error: f64) -> PValue {
    if error <= 0.0 {
        return p;
    }
    let (larger, smaller) = if p.log10() >= error.log10() {
        (p.log10(), error.log10())
    } else {
        (error.log10(), p.log10())
    };
    PValue::from_log10(larger + (10f64.powf(smaller - larger)).ln_1p() / std::f64::consts::LN_10)
}

/// `ln Σ count · E[R | size deals]` over the groups, in log space (log-sum-exp), finite
/// where the sum underflows.
fn grouped_ln_expected_repeats(groups: &[(u64, u64)], ln_decks: f64) -> f64 {
    let terms: Vec<f64> = groups
        .iter()
        .filter(|&&(_, count)| count > 0)
        .map(|&(size, count)| (count as f64).ln() + ln_expected_repeats(size, ln_decks))
        .collect();
    let largest = terms.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if largest == f64::NEG_INFINITY {
        return largest;
    }
    largest + terms.iter().map(|term| (term - largest).exp()).sum::<f64>().ln()
}

/// `P(X >= k)` for `X ~ Poisson(e^ln_mean)`: [`poisson_upper_tail`] where the mean is a
/// normal `f64`, and below (a mean that underflows) `e^-mean · mean^k/k! · Σ …`, whose
/// other factors are 1 to double precision, taken in log space: finite, where the mean
/// as an `f64` would be 0 and the tail `-inf` in log10.
pub fn poisson_upper_tail_of_ln_mean(k: u64, ln_mean: f64) -> PValue {
    const SMALLEST_NORMAL_LN: f64 = -700.0;
    if k == 0 || ln_mean >= SMALLEST_NORMAL_LN {
        return poisson_upper_tail(k, ln_mean.exp());
    }
    let k_f = k as f64;
    PValue::from_log10((k_f * ln_mean - ln_gamma(k_f + 1.0)) / std::f64::consts::LN_10)
}

/// `Σ count · E[R | size deals]` over the groups.
fn grouped_expected_repeats(groups: &[(u64, u64)], ln_decks: f64) -> f64 {
    groups
        .iter()
        .map(|&(size, count)| count as f64 * expected_repeats(size, ln_decks))
        .sum()
}

/// Below this, the Poisson tail is summed in log space (statrs' value underflows).
const TAIL_RELIABLE_DOWN_TO: f64 = 1e-280;

/// `P(X >= k)` for `X ~ Poisson(mean)`, kept as a [`PValue`] far below `f64`'s range.
///
/// It is the regularized lower incomplete gamma `P(k, mean)` (statrs' `gamma_lr`) where
/// that is above `1e-280`; below, the tail is `pmf(k) · Σ_{i>=0} mean^i k!/(k+i)!`, summed
/// with `pmf(k)` as a logarithm (there `k` is far above the mean and the terms fall fast).
pub fn poisson_upper_tail(k: u64, mean: f64) -> PValue {
    assert!(
        mean >= 0.0 && mean.is_finite(),
        "a Poisson mean must be finite and >= 0, not {mean}"
    );
    if k == 0 {
        return PValue::ONE;
    }
    if mean == 0.0 {
        return PValue::from_log10(f64::NEG_INFINITY);
    }
    let direct = gamma_lr(k as f64, mean);
    if direct >= TAIL_RELIABLE_DOWN_TO {
        return PValue::from_probability(direct.min(1.0));
    }
    let k_f = k as f64;
    let ln_pmf = k_f * mean.ln() - mean - ln_gamma(k_f + 1.0);
    let mut term = 1.0f64;
    let mut sum = 1.0f64;
    for i in 1..10_000_000u64 {
        term *= mean / (k_f + i as f64);
        sum += term;
        if term <= 1e-17 * sum {
            break;
        }
    }
    PValue::from_log10((ln_pmf + sum.ln()) / std::f64::consts::LN_10)
}

/// How many different decks a program deals, estimated from its repeats.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DeckSpaceEstimate {
    /// `ln D` solving `E[R | D] = R`.
    pub ln_decks: f64,
    /// `ln` of the lower end of the 95 % interval (from the upper Garwood bound on the
    /// mean of `R`; 0, one deck, if that bound is beyond what any `D` gives).
    pub ln_decks_low: f64,
    /// `ln` of the upper end of the 95 % interval (from the lower Garwood bound).
    pub ln_decks_high: f64,
}

impl DeckSpaceEstimate {
    /// `log2 D`: the estimate in bits.
    pub fn bits(&self) -> f64 {
        self.ln_decks / std::f64::consts::LN_2
    }

    /// The 95 % interval in bits, low to high.
    pub fn bits_interval(&self) -> (f64, f64) {
        (
            self.ln_decks_low / std::f64::consts::LN_2,
            self.ln_decks_high / std::f64::consts::LN_2,
        )
    }
}

impl std::fmt::Display for DeckSpaceEstimate {
    /// `about 2^32.0 different decks (95 % interval 2^31.0 to 2^32.9)`, with a second or
    /// third decimal when the interval is narrower than 0.2 or 0.02 bits (many repeats),
    /// so that its ends do not print as the same number.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (low, high) = self.bits_interval();
        let decimals = match high - low {
            width if width >= 0.2 => 1,
            width if width >= 0.02 => 2,
            _ => 3,
        };
        write!(
            f,
            "about 2^{:.decimals$} different decks (95 % interval 2^{low:.decimals$} to 2^{high:.decimals$})",
            self.bits()
        )
    }
}

/// The `ln D` at which the groups of deals expect `mean` repeats in all
/// (`0 < mean <= Σ count·(size − 1)`), by bisection on `ln D`: `E[R | D]` falls as `D`
/// grows, from `Σ count·(size − 1)` at one deck.
fn ln_decks_for_mean(groups: &[(u64, u64)], mean: f64) -> f64 {
    let most: f64 = groups
        .iter()
        .map(|&(size, count)| count as f64 * size.saturating_sub(1) as f64)
        .sum();
    if mean >= most {
        return 0.0;
    }
    // E[R] <= E[pairs] = Σ count·C(size,2)/D, so at D = e·pairs/mean it is below the mean.
    let ln_all_pairs = groups
        .iter()
        .filter(|&&(size, _)| size >= 2)
        .map(|&(size, count)| (count as f64).ln() + ln_pairs(size))
        .fold(f64::NEG_INFINITY, super::eulerian::ln_add);
    let mut low = 0.0f64; // E(low) >= mean
    let mut high = ln_all_pairs - mean.ln() + 1.0; // E(high) < mean
    for _ in 0..200 {
        let middle = 0.5 * (low + high);
        if middle <= low || middle >= high {
            break;
        }
        if grouped_expected_repeats(groups, middle) >= mean {
            low = middle;
        } else {
            high = middle;
        }
    }
    0.5 * (low + high)
}

/// The number of different decks a program deals, from `repeats` repeats among `deals`
/// deals (see the module docs); `None` without a repeat (no finite estimate: the data
/// only bound `D` from below) or with `repeats >= deals`.
pub fn estimate_deck_space(deals: u64, repeats: u64) -> Option<DeckSpaceEstimate> {
    if repeats >= deals {
        return None;
    }
    estimate_deck_space_grouped(&[(deals, 1)], repeats)
}

/// [`estimate_deck_space`] for repeats counted within groups (see
/// [`grouped_repeats_test`]).
pub fn estimate_deck_space_grouped(groups: &[(u64, u64)], repeats: u64) -> Option<DeckSpaceEstimate> {
    let most: u64 = groups
        .iter()
        .map(|&(size, count)| count * size.saturating_sub(1))
        .sum();
    if repeats == 0 || repeats > most {
        return None;
    }
    let r = repeats as f64;
    // Garwood's exact 95 % interval for a Poisson mean seen as r:
    // [χ²_{2r}(0.025)/2, χ²_{2r+2}(0.975)/2].
    let quantile = |df: f64, p: f64| ChiSquared::new(df).expect("df is positive").inverse_cdf(p);
    let mean_low = quantile(2.0 * r, 0.025) / 2.0;
    let mean_high = quantile(2.0 * r + 2.0, 0.975) / 2.0;
    Some(DeckSpaceEstimate {
        ln_decks: ln_decks_for_mean(groups, r),
        ln_decks_low: ln_decks_for_mean(groups, mean_high),
        ln_decks_high: ln_decks_for_mean(groups, mean_low),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(actual: f64, expected: f64, relative: f64) -> bool {
        (actual - expected).abs() <= relative * expected.abs()
    }

    #[test]
    fn repeats_of_decks_too_many_for_a_double_get_a_finite_p_value() {
        // 300 deals of 200 cards: E[R] = C(300, 2)/200! ≈ 10^-370, 0 as an f64; 150 repeats
        // then had a Poisson tail of exactly 0 (log10 −∞, null in JSON).
        let test = grouped_repeats_test(&[(300, 1)], 150, ln_deck_count(200));
        assert_eq!(test.expected, 0.0);
        let RepeatsOutcome::Tested { p, .. } = test.outcome else {
            panic!("{:?}", test.outcome);
        };
        // P(X >= 150) = mean^150/150! to double precision, as a logarithm.
        let ln_mean = ln_pairs(300) - ln_deck_count(200);
        let log10 = (150.0 * ln_mean - ln_gamma(151.0)) / std::f64::consts::LN_10;
        assert!(p.log10().is_finite());
        assert!(
            (p.log10() - log10).abs() < 1e-9 * log10.abs(),
            "{p:?} vs 10^{log10}"
        );
        // Where the mean is still a normal double, both ways agree.
        for (k, ln_mean) in [(3u64, -690.0f64), (1, -699.9), (40, -650.0)] {
            let direct = poisson_upper_tail(k, ln_mean.exp()).log10();
            let logged = poisson_upper_tail_of_ln_mean(k, ln_mean).log10();
            assert!(
                (direct - logged).abs() < 1e-9 * direct.abs(),
                "{k}, {ln_mean}: {direct} vs {logged}"
            );
        }
        let below = poisson_upper_tail_of_ln_mean(3, -700.1).log10();
        let above = poisson_upper_tail_of_ln_mean(3, -699.9).log10();
        // Across the switch the tail moves as mean^3 does: 3 · 0.2 / ln 10 in log10.
        let step = 3.0 * 0.2 / std::f64::consts::LN_10;
        assert!(((above - below) - step).abs() < 1e-9, "{below} {above}");
    }

    #[test]
    fn groups_add_up_and_one_group_is_the_plain_test() {
        let ln_d = ln_deck_count(52);
        let one = repeats_test(300_000, 11, (2f64).powi(32).ln());
        let grouped = grouped_repeats_test(&[(300_000, 1)], 11, (2f64).powi(32).ln());
        assert_eq!(one, grouped);
        // Chunks of a run: 61 chunks of 16,384 and one of 1,000 deals.
        let groups = [(1_000, 1), (16_384, 61)];
        let test = grouped_repeats_test(&groups, 0, ln_d);
        assert_eq!(test.deals, 1_000 + 16_384 * 61);
        assert!(test.expected > 0.0 && test.expected < 1e-50);
        // A 32-bit deck space seen through chunks: the estimate comes back near 2^32.
        let ln_2_32 = (2f64).powi(32).ln();
        let groups = [(16_384, 10_000)];
        let expected = grouped_expected_repeats(&groups, ln_2_32);
        assert!((expected - 312.5).abs() < 1.0, "{expected}");
        let estimate = estimate_deck_space_grouped(&groups, 312).unwrap();
        assert!((estimate.bits() - 32.0).abs() < 0.01, "{}", estimate.bits());
        let (low, high) = estimate.bits_interval();
        assert!(low < 32.0 && 32.0 < high);
    }

    #[test]
    fn expected_repeats_match_high_precision_values() {
        // mpmath 1.3 at 60 digits: N - D (1 - (1 - 1/D)^N).
        let two_32 = 32.0 * std::f64::consts::LN_2;
        for (deals, ln_decks, expected) in [
            // 300,000 deals from 2^32 decks: about 10.5 repeats.
            (300_000u64, two_32, 10.477_100_101_037_93),
            // 2^16 deals from 2^32 decks: about one half.
            (65_536, two_32, 0.499_989_827_600_072_8),
            // As many deals as decks: close to N/e.
            (1_000_000, (1e6f64).ln(), 367_879.257_231_645_1),
            (10, 0.0, 9.0),
        ] {
            let e = expected_repeats(deals, ln_decks);
            assert!(close(e, expected, 1e-12), "{deals} deals: {e} vs {expected}");
        }
        // 52-card decks: N(N−1)/(2·52!) for any N that fits, without underflow trouble.
        // mpmath: 7.1469600018203178e-51 (52! = 8.0658175170943878572e67).
        let e = expected_repeats(1 << 30, ln_deck_count(52));
        assert!(close(e, 7.146_960_001_820_318e-51, 1e-12), "{e}");
        assert_eq!(expected_repeats(1_000_000, ln_deck_count(2000)), 0.0);
        assert_eq!(expected_repeats(1, 0.0), 0.0);
    }

    #[test]
    fn poisson_tails_match_high_precision_values() {
        // mpmath 1.3 at 60 digits: log10 of the regularized lower incomplete gamma P(k, m).
        for (k, mean, expected_log10) in [
            (10, 10.477_100_101_037_93, -0.221_727_714_265_180_05),
            (30, 10.5, -6.171_768_526_654_498),
            (500, 10.0, -638.420_597_479_217_8),
            (5, 1e-3, -17.079_543_153_807_16),
            (1, 2.0, -0.063_152_262_346_916_48),
            (9, 5.579_081_091_858_21e-58, -520.840_698_967_598),
        ] {
            let p = poisson_upper_tail(k, mean);
            assert!(
                (p.log10() - expected_log10).abs() < 1e-9 * expected_log10.abs().max(1.0),
                "P(X >= {k} | {mean}): 10^{} vs 10^{expected_log10}",
                p.log10()
            );
        }
        assert_eq!(poisson_upper_tail(0, 3.0), PValue::ONE);
        assert!(poisson_upper_tail(1, 0.0).is_below_floor());
    }

    #[test]
    fn the_union_bound_is_never_below_the_exact_tail() {
        // Every sequence of 5 deals from 4 decks (1,024), their repeats counted: the exact
        // P(R >= k) against λ^k/k! with λ = C(5, 2)/4.
        let (deals, decks) = (5u32, 4u64);
        let mut at_least = [0u64; 6];
        for sequence in 0..decks.pow(deals) {
            let mut seen = Vec::new();
            let mut repeats = 0;
            for place in 0..deals {
                let deck = sequence / decks.pow(place) % decks;
                if seen.contains(&deck) {
                    repeats += 1;
                } else {
                    seen.push(deck);
                }
            }
            for count in at_least.iter_mut().take(repeats + 1) {
                *count += 1;
            }
        }
        for k in 1..=4u64 {
            let exact = at_least[k as usize] as f64 / decks.pow(deals) as f64;
            let bound = 10f64.powf(union_bound(k, (10.0f64 / decks as f64).ln()).log10());
            assert!(bound >= exact, "k = {k}: bound {bound} below the exact {exact}");
        }
    }

    #[test]
    fn a_32_bit_seed_is_caught_on_52_cards_and_a_fair_shuffle_is_not() {
        let fair = ln_deck_count(52);
        // 300,000 deals with 9 repeats: what a 2^32-deck program gives (10.5 expected);
        // a fair shuffle expects 5.6e-58 and 9 have probability 10^-520.8 (mpmath).
        let test = repeats_test(300_000, 9, fair);
        assert!(
            close(test.expected, 5.579_081_091_858_21e-58, 1e-12),
            "{}",
            test.expected
        );
        let poisson = poisson_upper_tail_of_ln_mean(9, test.expected.ln());
        assert!((poisson.log10() + 520.840_698_967_598).abs() < 1e-9, "{poisson}");
        // The p-value is an upper bound on the exact tail: the Poisson tail plus the
        // Chen–Stein bound (about 1e-119 here) would swamp it, so the union bound
        // λ^9/9! decides, λ = C(300000, 2)/52!: within a hair of the Poisson tail.
        let p = test.p().expect("52-card decks are far beyond the Poisson limit");
        let RepeatsOutcome::Tested {
            approximation_error, ..
        } = test.outcome
        else {
            unreachable!()
        };
        assert!(approximation_error > 1e-125 && approximation_error < 1e-115);
        let lambda_log10 = (ln_pairs(300_000) - fair) / std::f64::consts::LN_10;
        let union_log10 = 9.0 * lambda_log10 - ln_gamma(10.0) / std::f64::consts::LN_10;
        assert!((p.log10() - union_log10).abs() < 1e-9, "{p}");
        assert!(p.log10() >= poisson.log10() && p.log10() - poisson.log10() < 1e-6);
        // No repeat at all: no evidence.
        assert_eq!(repeats_test(300_000, 0, fair).p(), Some(PValue::ONE));
        // 20 M deals: testable on 19 cards (λ = 0.0016, bound 1e-12), not on 18 (bound
        // 4.5e-10).
        assert!(repeats_test(20_000_000, 0, ln_deck_count(19)).p().is_some());
        let small = repeats_test(20_000_000, 5, ln_deck_count(18));
        assert!(
            matches!(small.outcome, RepeatsOutcome::NotApplicable { approximation_error } if approximation_error > 1e-10)
        );
        assert!(small.p().is_none());
        // A billion deals: 21 cards and up.
        assert!(repeats_test(1_000_000_000, 0, ln_deck_count(21)).p().is_some());
        assert!(repeats_test(1_000_000_000, 0, ln_deck_count(20)).p().is_none());
        // 10 cards and a million deals: repeats are the rule (E[R] ≈ 130,000 of 10!).
        let ten = repeats_test(1_000_000, 130_000, ln_deck_count(10));
        assert!(ten.p().is_none() && ten.expected > 100_000.0);
    }

    #[test]
    fn the_chen_stein_bound_grows_with_the_deals_per_deck() {
        let ln_decks = 60.0 * std::f64::consts::LN_2;
        let deals = 1u64 << 32; // λ = C(N, 2)/D ≈ 2^63 / 2^60 = 8
        let bound = poisson_approximation_error(deals, ln_decks);
        let n_over_d = deals as f64 / 2f64.powi(60);
        let approximately = n_over_d * (4.0 + 2.0 * 8.0 / 3.0);
        assert!(close(bound, approximately, 1e-3), "{bound} vs {approximately}");
        // Few deals: it shrinks like N³/D².
        assert!(poisson_approximation_error(1000, ln_decks) < 1e-26);
        assert_eq!(poisson_approximation_error(1, 0.0), 0.0);
        assert_eq!(poisson_approximation_error(1_000_000, 10f64.ln()), 1.0);
    }

    #[test]
    fn the_deck_space_of_a_32_bit_seed_is_estimated_in_bits() {
        // 300,000 deals from 2^32 decks expect 10.48 repeats; seeing exactly that many
        // gives back 2^32.
        let expected = expected_repeats(300_000, 32.0 * std::f64::consts::LN_2);
        let estimate = estimate_deck_space(300_000, expected.round() as u64).unwrap();
        assert!((estimate.bits() - 32.0).abs() < 0.1, "{}", estimate.bits());
        let (low, high) = estimate.bits_interval();
        assert!(low < 32.0 && 32.0 < high);
        // Garwood's interval for 10 events is 4.7954 to 18.3904 (mpmath): about ±1 bit
        // here, where E[R] is all but proportional to 1/D.
        assert!(
            (low - (estimate.bits() - (18.3904f64 / 10.0).log2())).abs() < 0.01,
            "{low}"
        );
        assert!(
            (high - (estimate.bits() + (10.0 / 4.7954f64).log2())).abs() < 0.01,
            "{high}"
        );
        assert_eq!(
            estimate.to_string(),
            format!(
                "about 2^{:.1} different decks (95 % interval 2^{low:.1} to 2^{high:.1})",
                estimate.bits()
            )
        );
        // The equation is solved, not N²/2R: a program with 1,000 decks dealt 10,000
        // times repeats 9,000 times; N²/2R would say 5,556 decks.
        let few = estimate_deck_space(10_000, 9_000).unwrap();
        assert!(
            (few.ln_decks.exp() - 1000.0).abs() < 1.0,
            "{}",
            few.ln_decks.exp()
        );
        // Many repeats, a narrow interval: more decimals.
        let many = estimate_deck_space(20_000_000, 46_620).unwrap();
        assert_eq!(
            many.to_string(),
            "about 2^32.00 different decks (95 % interval 2^31.98 to 2^32.01)"
        );
        // No repeat, no estimate; every deal a repeat but the first: one deck.
        assert_eq!(estimate_deck_space(1000, 0), None);
        assert_eq!(estimate_deck_space(1000, 1000), None);
        assert!(estimate_deck_space(1000, 999).unwrap().ln_decks < 1e-9);
    }
}
