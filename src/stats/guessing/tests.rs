use super::*;
use crate::stats::laws::cycle_count_law;

/// `P(X >= x)` by brute force: every outcome of the `deals · n` Bernoulli(1/k) guesses.
fn brute_force_tail(n: usize, deals: usize, x: u64) -> f64 {
    let probabilities: Vec<f64> = (0..deals).flat_map(|_| (1..=n).map(|k| 1.0 / k as f64)).collect();
    let m = probabilities.len();
    let mut tail = 0.0;
    for outcome in 0u32..(1 << m) {
        let mut probability = 1.0;
        for (bit, &p) in probabilities.iter().enumerate() {
            probability *= if outcome >> bit & 1 == 1 { p } else { 1.0 - p };
        }
        if u64::from(outcome.count_ones()) >= x {
            tail += probability;
        }
    }
    tail
}

/// The `deals`-fold law by plain convolution, one deal at a time, nothing dropped.
fn plain_law(n: usize, deals: usize) -> Vec<f64> {
    let one = one_deal_law(n);
    let mut law = vec![1.0];
    for _ in 0..deals {
        let mut next = vec![0.0; law.len() + n];
        for (i, &a) in law.iter().enumerate() {
            for (j, &b) in one.iter().enumerate() {
                next[i + j] += a * b;
            }
        }
        law = next;
    }
    law
}

fn p(value: PValue) -> f64 {
    10f64.powf(value.log10())
}

#[test]
fn one_deal_is_the_law_of_cycles_with_mean_h_n() {
    for n in [1, 2, 3, 7, 52] {
        let law = one_deal_law(n);
        let cycles = cycle_count_law(n);
        for (a, b) in law.iter().zip(&cycles) {
            assert!((a - b).abs() < 1e-15, "n = {n}");
        }
        let mean: f64 = law.iter().enumerate().map(|(k, p)| k as f64 * p).sum();
        assert!((mean - fair_expected_correct(n)).abs() < 1e-12);
        let variance: f64 = law
            .iter()
            .enumerate()
            .map(|(k, p)| (k as f64 - mean).powi(2) * p)
            .sum();
        assert!((variance - fair_variance(n)).abs() < 1e-12);
    }
    // H_52, the figure of the 2013 paper.
    assert!((fair_expected_correct(52) - 4.538_044).abs() < 1e-6);
}

#[test]
fn exact_tails_match_brute_force_on_small_cases() {
    for (n, deals) in [(2, 1), (3, 1), (3, 2), (4, 2), (3, 4), (5, 3), (6, 3)] {
        for x in 0..=(n * deals) as u64 {
            let exact = p(guessing_p_value(n, deals as u64, x));
            let brute = brute_force_tail(n, deals, x);
            assert!(
                (exact - brute).abs() <= 1e-12 * brute.max(1e-300) + 1e-300,
                "n = {n}, deals = {deals}, x = {x}: {exact} vs {brute}"
            );
        }
    }
}

#[test]
fn exact_tails_match_plain_convolution_far_into_the_tail() {
    // Up to 60 deals of 10 cards: relative agreement even where p is 1e-200.
    for (n, deals) in [(10, 60), (52, 7), (3, 200)] {
        let law = plain_law(n, deals);
        let mut tail = 0.0;
        let mut checked = 0;
        for x in (0..law.len()).rev() {
            tail += law[x];
            if tail < 1e-280 || tail == 0.0 {
                continue;
            }
            let exact = guessing_p_value(n, deals as u64, x as u64).log10();
            assert!(
                (exact - tail.log10()).abs() < 1e-9,
                "n = {n}, deals = {deals}, x = {x}: log10 {exact} vs {}",
                tail.log10()
            );
            checked += 1;
        }
        assert!(checked > 20);
    }
}

#[test]
fn the_chernoff_bound_is_an_upper_bound_and_takes_over_beyond_the_cells_kept() {
    for (n, deals) in [(10, 60), (52, 7)] {
        let law = plain_law(n, deals);
        let mut tail = 0.0;
        for x in (0..law.len()).rev() {
            tail += law[x];
            if tail > 1e-300 {
                assert!(chernoff_bound(n, deals as u64, x as u64).log10() >= tail.log10() - 1e-9);
            }
        }
    }
    // All 52 cards of each of 4 deals guessed: (1/52!)^4, about 10^-271.
    let every = guessing_p_value(52, 4, 208).log10();
    assert!((every - (-4.0 * 67.906_2)).abs() < 0.01, "{every}");
    // 8,192 deals of 52 cards, 3 correct per deal more than chance: far below 1e-300.
    assert!(guessing_p_value(52, 8_192, 8_192 * 8).is_below_floor());
}

#[test]
fn the_mean_has_p_about_one_half_and_large_runs_are_quick() {
    let deals = 8_192u64;
    let n = 52;
    let mean = (deals as f64 * fair_expected_correct(n)).round() as u64;
    let p_mean = p(guessing_p_value(n, deals, mean));
    assert!((0.45..0.55).contains(&p_mean), "{p_mean}");
    // Three standard deviations above the mean: about 1.35e-3 (normal), exactly a bit more
    // (the law is skewed right).
    let sd = (deals as f64 * fair_variance(n)).sqrt();
    let p3 = p(guessing_p_value(n, deals, mean + (3.0 * sd).round() as u64));
    assert!((1.0e-3..2.5e-3).contains(&p3), "{p3}");
}

#[test]
fn the_quick_narrow_law_gives_the_wide_laws_p_values_where_it_is_trusted() {
    // 8,192 deals of 5 cards, as the game plays them: from below the mean to far in the
    // upper tail, the p-value kept from the narrow law is the wide law's to 1e-8.
    let per_deal: Vec<f64> = (1..=5).map(|k| 1.0 / k as f64).collect();
    let one_deal = law_of(&per_deal);
    let quick = ScaledLaw::new(&one_deal, QUICK_DROP_BELOW).power(8_192);
    let wide = ScaledLaw::new(&one_deal, DROP_BELOW).power(8_192);
    let mean = 8_192.0 * fair_expected_correct(5);
    let sd = (8_192.0 * fair_variance(5)).sqrt();
    let mut trusted = 0;
    for z in -4..=14 {
        let correct = (mean + z as f64 * sd) as u64;
        let exact = wide.upper_tail(correct).unwrap();
        match quick
            .upper_tail(correct)
            .filter(|p| p.log10() > QUICK_TRUSTED_ABOVE)
        {
            Some(p) => {
                trusted += 1;
                assert!(
                    (p.log10() - exact.log10()).abs() < 1e-8 / std::f64::consts::LN_10,
                    "{correct}: {} against {}",
                    p.log10(),
                    exact.log10()
                );
            }
            // Not trusted: the p-value is the wide law's, far in the tail.
            None => assert!(exact.log10() < -20.0, "{correct}: {}", exact.log10()),
        }
        assert_eq!(guessing_p_value(5, 8_192, correct).log10(), {
            let quick = quick
                .upper_tail(correct)
                .filter(|p| p.log10() > QUICK_TRUSTED_ABOVE);
            quick.unwrap_or(exact).log10()
        });
    }
    // About ten standard deviations are trusted; the rest go to the wide law.
    assert!((12..19).contains(&trusted), "{trusted}");
    // The narrow law is a fraction of the wide one's width.
    assert!(
        quick.cells.len() * 2 < wide.cells.len(),
        "{} and {}",
        quick.cells.len(),
        wide.cells.len()
    );
}
