//! The decision rule a CI gate applies to a verdict: a `suspicious` result is confirmed
//! before it counts.
//!
//! A fair shuffle lands in the suspicious band (smallest adjusted p-value below 1e-3 but
//! not below α) about once in a thousand runs. Failing a build on that would be a false
//! alarm every few weeks for a busy project; ignoring it would let a small bias through.
//! So, as dieharder and PractRand do with borderline p-values, the case is run once more,
//! with an independent seed and four times the trials, and the second verdict is the one
//! that counts. A fair shuffle is then suspicious twice in about one run in a million; a
//! biased one that was borderline at the first size is clearly out at four times the
//! trials (its χ² noncentrality grows with the trials, four times over).
//!
//! `check`, `shuffle_audit::assert_fair_shuffle` and `scripts/calibrate.sh` all use this
//! one rule, so the false-alarm rate the script measures is the one the gate has.

use super::Verdict;
use crate::error::Result;
use crate::randomness::splitmix64_mix;

/// How many times the first run's trials the confirmation runs.
pub const CONFIRMATION_FACTOR: u64 = 4;

/// Keeps the confirmation seed apart from seeds users pick by hand (0, 1, 2, ...).
const CONFIRMATION_DOMAIN: u64 = 0x5EED_C0F1_2A7B_9D31;

/// The seed a confirmation runs with: fixed by the first seed (so a confirmed result is
/// reproducible), yet independent of it. Below 2^31, because a command case hands it to
/// an outside program as `{seed}`, and many read seeds as 32-bit signed integers (C's
/// `atoi`, Java's `Integer.parseInt`) or clamp larger ones (mawk's `srand` maps every seed
/// from 2^31 − 1 up to the same stream, so a larger confirmation seed would re-read the
/// same samples).
pub fn confirmation_seed(seed: u64) -> u64 {
    splitmix64_mix(seed ^ CONFIRMATION_DOMAIN) >> 33
}

/// One run of a case: its seed, trials, and what came out.
#[derive(Clone, Debug)]
pub struct Attempt<T> {
    /// The seed it ran with.
    pub seed: u64,
    /// The trials it ran.
    pub trials: u64,
    /// Its verdict.
    pub verdict: Verdict,
    /// Whatever the runner returned (the report, the analysis).
    pub outcome: T,
}

/// A case's first run and, when that was suspicious, its confirmation.
#[derive(Clone, Debug)]
pub struct Confirmed<T> {
    /// The run as asked.
    pub first: Attempt<T>,
    /// The re-run with [`confirmation_seed`] and [`CONFIRMATION_FACTOR`] times the
    /// trials, made only when the first run was suspicious.
    pub confirmation: Option<Attempt<T>>,
}

impl<T> Confirmed<T> {
    /// The verdict that counts: the confirmation's when there was one.
    pub fn verdict(&self) -> Verdict {
        self.last().verdict
    }

    /// The attempt whose verdict counts.
    pub fn last(&self) -> &Attempt<T> {
        self.confirmation.as_ref().unwrap_or(&self.first)
    }
}

/// Runs `run(seed, trials)` and, when its verdict is `suspicious`, runs it once more with
/// an independent seed and four times the trials. `verdict` reads a run's verdict.
pub fn confirm<T>(
    seed: u64,
    trials: u64,
    mut run: impl FnMut(u64, u64) -> Result<T>,
    verdict: impl Fn(&T) -> Verdict,
) -> Result<Confirmed<T>> {
    let mut attempt = |seed: u64, trials: u64| -> Result<Attempt<T>> {
        let outcome = run(seed, trials)?;
        Ok(Attempt {
            seed,
            trials,
            verdict: verdict(&outcome),
            outcome,
        })
    };
    let first = attempt(seed, trials)?;
    let confirmation = if first.verdict == Verdict::Suspicious {
        Some(attempt(
            confirmation_seed(seed),
            trials.saturating_mul(CONFIRMATION_FACTOR),
        )?)
    } else {
        None
    };
    Ok(Confirmed { first, confirmation })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_suspicious_result_is_run_again_with_four_times_the_trials() {
        let mut calls = Vec::new();
        // The first call is suspicious, the second passes.
        let confirmed = confirm(
            7,
            1000,
            |seed, trials| {
                calls.push((seed, trials));
                Ok(calls.len())
            },
            |call| {
                if *call == 1 {
                    Verdict::Suspicious
                } else {
                    Verdict::Pass
                }
            },
        )
        .unwrap();
        assert_eq!(calls, [(7, 1000), (confirmation_seed(7), 4000)]);
        assert_eq!(confirmed.first.verdict, Verdict::Suspicious);
        assert_eq!(confirmed.verdict(), Verdict::Pass);
        assert_eq!(confirmed.last().trials, 4000);

        for verdict in [Verdict::Pass, Verdict::Fail, Verdict::Inconclusive] {
            let mut runs = 0;
            let confirmed = confirm(
                7,
                1000,
                |_, _| {
                    runs += 1;
                    Ok(())
                },
                |()| verdict,
            )
            .unwrap();
            assert_eq!(runs, 1, "{verdict}");
            assert!(confirmed.confirmation.is_none());
            assert_eq!(confirmed.verdict(), verdict);
        }
    }

    #[test]
    fn confirmation_seeds_are_reproducible_distinct_and_fit_in_31_bits() {
        // 10,000 draws from 2^31 values collide with probability about 2 %; these do not.
        let seeds: std::collections::HashSet<u64> = (0..10_000).map(confirmation_seed).collect();
        assert_eq!(seeds.len(), 10_000);
        for seed in 0..10_000 {
            assert_ne!(confirmation_seed(seed), seed);
            assert!(confirmation_seed(seed) < 1 << 31);
        }
        assert_eq!(confirmation_seed(42), confirmation_seed(42));
    }
}
