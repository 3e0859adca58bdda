//! Monte Carlo p-values from a seeded simulation of the null, for the statistics whose
//! law is neither the χ² law at the counts at hand nor enumerable: the position matrix of
//! 3-card deals, the inclusion counts of a sampler over few items.
//!
//! As R's `chisq.test(simulate.p.value = TRUE)`: the statistic is computed again on data
//! drawn from the null, and the p-value is the share of replicates at least as extreme as
//! the observed one. Sequentially, after Besag & Clifford ("Sequential Monte Carlo
//! p-values", Biometrika 78 (1991) 301–304): replicates are drawn until
//! [`ENOUGH_AS_EXTREME`] of them are as extreme as the observed statistic (then the p-value
//! is that count over the replicates drawn), or until [`MOST_REPLICATES`] (then it is
//! `(extreme + 1) / (MOST_REPLICATES + 1)`). Either way `P(p <= α) <= α` under the null
//! for every `α`: the p-value is valid, not approximately so, at any sample size. A
//! typical statistic stops after a hundred or so replicates; only one in the far tail
//! draws them all, and then cannot go below about `1e-5`, which the report says.
//!
//! The seed is fixed by the caller from what the test is (its deck size and trials), never
//! from the data, and replicates are drawn one after another from it: the same input gives
//! the same p-value on every machine and with any number of threads.

use rand::SeedableRng;
use rand_distr::{Binomial, Distribution};
use rand_xoshiro::Xoshiro256PlusPlus;

use super::pvalue::PValue;

/// Replicates drawn at most.
pub const MOST_REPLICATES: u64 = 99_999;

/// Replicates at least as extreme as the observed statistic after which the simulation
/// stops: enough for the p-value's relative error to be about 15 %.
pub const ENOUGH_AS_EXTREME: u64 = 50;

/// Relative difference below which a replicate's statistic ties with the observed one
/// (and counts as extreme: ties count against the null, as in an exact test).
const TIE_TOLERANCE: f64 = 1e-10;

/// Which replicates count as extreme.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// Those at least the observed statistic (the upper tail).
    AtLeast,
    /// Those at most it (the lower tail: counts as even or more even).
    AtMost,
}

/// A simulated p-value and the replicates it took.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Simulated {
    /// The p-value.
    pub p: PValue,
    /// Replicates drawn.
    pub replicates: u64,
}

/// The sequential Monte Carlo p-value of `observed` on `side`, each replicate's statistic
/// drawn by `replicate` from one generator seeded with `seed`.
pub fn sequential_p_value(
    observed: f64,
    side: Side,
    seed: u64,
    mut replicate: impl FnMut(&mut Xoshiro256PlusPlus) -> f64,
) -> Simulated {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let tolerance = TIE_TOLERANCE * observed.abs() + 1e-13;
    let mut extreme = 0u64;
    for drawn in 1..=MOST_REPLICATES {
        let statistic = replicate(&mut rng);
        let as_extreme = match side {
            Side::AtLeast => statistic >= observed - tolerance,
            Side::AtMost => statistic <= observed + tolerance,
        };
        if as_extreme {
            extreme += 1;
            if extreme == ENOUGH_AS_EXTREME {
                return Simulated {
                    p: PValue::from_probability(extreme as f64 / drawn as f64),
                    replicates: drawn,
                };
            }
        }
    }
    Simulated {
        p: PValue::from_probability((extreme + 1) as f64 / (MOST_REPLICATES + 1) as f64),
        replicates: MOST_REPLICATES,
    }
}

/// Fills `counts` with one multinomial draw of `trials` over cells of these probabilities
/// (summing to 1), as a chain of binomials: cell `i` gets `Binomial(left, p_i / mass left)`.
/// Its cost does not grow with `trials`.
pub fn multinomial_into(
    rng: &mut Xoshiro256PlusPlus,
    trials: u64,
    probabilities: &[f64],
    counts: &mut [u64],
) {
    debug_assert_eq!(probabilities.len(), counts.len());
    let mut left = trials;
    let mut mass = 1.0;
    let last = counts.len() - 1;
    for (i, (&p, count)) in probabilities.iter().zip(counts.iter_mut()).enumerate() {
        if i == last || left == 0 {
            *count = if i == last { left } else { 0 };
            continue;
        }
        let share = (p / mass).clamp(0.0, 1.0);
        let drawn = Binomial::new(left, share)
            .expect("a share between 0 and 1")
            .sample(rng);
        *count = drawn;
        left -= drawn;
        mass -= p;
    }
}

/// A seed for the simulation of one test, from what the test is (never from the data):
/// its name and the sizes that shape its null law.
pub fn seed_for(test: &str, sizes: &[u64]) -> u64 {
    // FNV-1a over the name and the sizes: fixed across machines and releases of Rust
    // (std's hasher is randomly keyed per process).
    let mut hash = 0xcbf2_9ce4_8422_2325u64;
    let bytes = test
        .bytes()
        .chain(sizes.iter().flat_map(|size| size.to_le_bytes()));
    for byte in bytes {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    hash
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::RngExt;

    #[test]
    fn a_typical_statistic_stops_early_and_a_far_one_reaches_the_floor() {
        // The statistic is a uniform draw: P(U >= 0.3) = 0.7.
        let typical = sequential_p_value(0.3, Side::AtLeast, 7, |rng| rng.random::<f64>());
        assert!(typical.replicates < 200, "{typical:?}");
        assert!((10f64.powf(typical.p.log10()) - 0.7).abs() < 0.15, "{typical:?}");
        let far = sequential_p_value(2.0, Side::AtLeast, 7, |rng| rng.random::<f64>());
        assert_eq!(far.replicates, MOST_REPLICATES);
        assert!((10f64.powf(far.p.log10()) - 1e-5).abs() < 1e-12);
        // The lower side: P(U <= 0.001) = 0.001, resolved with the full count.
        let low = sequential_p_value(0.001, Side::AtMost, 7, |rng| rng.random::<f64>());
        let p = 10f64.powf(low.p.log10());
        assert!(p > 2e-4 && p < 5e-3, "{low:?}");
    }

    #[test]
    fn sequential_p_values_are_valid_under_the_null() {
        // Observed statistics drawn from the null itself: P(p <= α) <= α. 2,000 draws at
        // α = 0.05 expect 100 (at most); 150 is 5 standard deviations above it, so this
        // cannot fail by chance, while a p-value off by half would put 150 within reach.
        let mut source = Xoshiro256PlusPlus::seed_from_u64(1);
        let mut at_or_below = 0;
        for trial in 0..2_000u64 {
            let observed = source.random::<f64>();
            let p = sequential_p_value(observed, Side::AtLeast, trial, |rng| rng.random::<f64>());
            if p.p.log10() <= 0.05f64.log10() {
                at_or_below += 1;
            }
        }
        assert!((60..150).contains(&at_or_below), "{at_or_below}");
    }

    #[test]
    fn multinomial_draws_keep_the_total_and_the_means() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
        let law = [0.5, 0.25, 0.125, 0.125];
        let mut counts = [0u64; 4];
        let mut sums = [0u64; 4];
        for _ in 0..10_000 {
            multinomial_into(&mut rng, 1_000, &law, &mut counts);
            assert_eq!(counts.iter().sum::<u64>(), 1_000);
            for (sum, count) in sums.iter_mut().zip(counts) {
                *sum += count;
            }
        }
        // Means 500, 250, 125, 125 over 10^4 draws: standard errors below 0.16.
        for (sum, p) in sums.iter().zip(law) {
            let mean = *sum as f64 / 10_000.0;
            assert!((mean - 1_000.0 * p).abs() < 1.0, "{mean} vs {}", 1_000.0 * p);
        }
    }

    #[test]
    fn seeds_depend_on_the_test_and_its_sizes_only() {
        assert_eq!(seed_for("positions", &[3, 20]), seed_for("positions", &[3, 20]));
        assert_ne!(seed_for("positions", &[3, 20]), seed_for("positions", &[3, 21]));
        assert_ne!(seed_for("positions", &[3, 20]), seed_for("inclusion", &[3, 20]));
    }
}
