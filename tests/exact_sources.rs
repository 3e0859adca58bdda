//! Exact analysis under the flawed sources (`exact --source`), and the modulo bias of
//! `msvc-rand-mod` caught by a simulation whose size the exact analysis predicts.

mod binary;
mod common;

use binary::{command, json_of};
use common::run_settings;
use predicates::prelude::*;
use shuffle_audit::analysis::TestOutcome;
use shuffle_audit::catalogue::AlgorithmSpec;
use shuffle_audit::exact::{ExactSettings, exact};
use shuffle_audit::randomness::SourceKind;
use shuffle_audit::run::{AlgorithmResult, RunSettings, run};
use shuffle_audit::simulate::NoProgress;
use shuffle_audit::stats::{Fit, Verdict};

#[test]
fn the_3_card_fisher_yates_under_rand_mod_is_exact_and_says_in_which_model() {
    // rand() % 3 gives 2 one time in 32,768 less than 0 and 1: the two orders that keep
    // the bottom card get 10922/65536, the other four 10923/65536 (the unit tests derive
    // this by hand). The source breaks what the catalogue promises for Fisher–Yates:
    // exit status 1.
    command("exact fisher-yates --n 3 --source msvc-rand-mod")
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "under msvc-rand-mod, exact in the source's model: each rand() taken as uniform on 0..32767",
        ))
        .stdout(predicate::str::contains("1 2 3    5461/32768"))
        .stdout(predicate::str::contains("1 3 2   10923/65536"))
        .stdout(predicate::str::contains(
            "1 2 3    5461/32768   0.166656494   0.999939",
        ))
        .stdout(predicate::str::contains("ratio 1.000092"));
    let json = json_of("exact fisher-yates --n 3 --source msvc-rand-mod");
    assert_eq!(json["source"]["name"], "msvc-rand-mod");
    assert!(json["model"].as_str().unwrap().contains("rand() % n"));
    let result = &json["results"][0];
    assert_eq!(result["uniform"], false);
    assert_eq!(result["denominator"], 65_536);
    assert!(
        result["samples_needed"]["noncentrality_per_trial"]
            .as_f64()
            .unwrap()
            > 0.0
    );
    assert_eq!(result["samples_needed"]["df"], 5.0);
    // The default source records itself too, and has no model to state.
    let fair = json_of("exact fisher-yates --n 3");
    assert_eq!(fair["source"]["name"], "xoshiro");
    assert!(fair.get("model").is_none());
    assert_eq!(fair["results"][0]["uniform"], true);
}

#[test]
fn position_matrices_under_a_source_are_computed_not_assumed_uniform() {
    command("exact fisher-yates --n 52 --positions --source msvc-rand-mod")
        .assert()
        .code(1)
        .stdout(predicate::str::contains("method: exact in the source's model"))
        .stdout(predicate::str::contains(
            "most likely: card 1 at position 52 x1.0013",
        ))
        .stdout(predicate::str::contains("the position test catches this bias"));
    let json = json_of("exact fisher-yates --n 52 --positions --source msvc-rand-mod");
    assert_eq!(json["results"][0]["position_method"], "weighted-markov-chain");
    assert_eq!(
        json_of("exact fisher-yates --n 52 --positions")["results"][0]["position_method"],
        "uniform"
    );
    // Delphi's bias is a few parts in 10^9: seen, with the decimals it needs.
    command("exact fisher-yates --n 3 --positions --source delphi")
        .assert()
        .code(1)
        .stdout(predicate::str::contains("card 1 at position 3 x1.00000000047"));
}

#[test]
fn what_a_source_cannot_analyse_exactly_is_refused_in_one_line() {
    for (line, reasons) in [
        (
            "exact fisher-yates --n 3 --source clock-reseed",
            &[
                "--source clock-reseed cannot be analysed exactly",
                "not independent",
                "seeds reach",
            ][..],
        ),
        (
            "exact fisher-yates --n 52 --positions --source clock-reseed --clock-step 1",
            &["not independent"][..],
        ),
        (
            "exact sort-random-key --n 3 --source msvc-rand-mod",
            &["32,768 values"][..],
        ),
        (
            "exact fisher-yates --n 7 --source delphi",
            &["does not fit in 128 bits", "--positions"][..],
        ),
        (
            "exact fisher-yates --n 3 --source rand",
            &["unknown source 'rand'"][..],
        ),
    ] {
        let assert = command(line).assert().code(2).stdout("");
        let stderr = String::from_utf8(assert.get_output().stderr.clone()).unwrap();
        assert_eq!(stderr.lines().count(), 1, "{line}: {stderr}");
        for reason in reasons {
            assert!(stderr.contains(reason), "{line}: {stderr}");
        }
    }
}

#[test]
fn an_exact_report_under_a_source_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("report");
    command("exact fisher-yates --n 12 --positions --source msvc-rand-mod --report")
        .arg(&out)
        .assert()
        .code(1);
    let page = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert!(page.contains("shuffle-audit exact fisher-yates --n 12 --positions --source msvc-rand-mod"));
    assert!(page.contains("Under msvc-rand-mod, exact in the source&#39;s model"));
    let map = std::fs::read_to_string(out.join("01-fisher-yates-positions.svg")).unwrap();
    assert!(map.contains("exact position matrix · under msvc-rand-mod"));
    // The 12-card bias is about 0.03 %: the scale reaches it rather than ×1.05.
    assert!(!map.contains("×1.05"), "the scale did not come down to the bias");
}

fn run_fisher_yates(n: usize, trials: u64, seed: u64, source: SourceKind) -> AlgorithmResult {
    let settings = RunSettings {
        source,
        ..run_settings(n, None, trials, seed)
    };
    let spec = AlgorithmSpec::parse("fisher-yates").unwrap();
    run(&[spec], &settings, &NoProgress).unwrap().results.remove(0)
}

/// The exact position test's noncentrality per shuffle and degrees of freedom for
/// Fisher–Yates on `n` cards under `source`.
fn exact_detection(n: usize, source: SourceKind) -> (f64, f64) {
    let settings = ExactSettings {
        n,
        k: None,
        threads: 2,
        positions: true,
        alpha: 1e-6,
        items: None,
        source,
    };
    let spec = AlgorithmSpec::parse("fisher-yates").unwrap();
    let report = exact(&[spec], &settings, &NoProgress).unwrap();
    let detection = report.results[0].detection.expect("a biased matrix");
    (detection.noncentrality_per_trial, detection.df)
}

/// The modulo bias of `rand() % n` on a deck where it is large enough to see quickly.
///
/// The relative bias of one draw is about 1/floor(32768/n), so it grows with the deck:
/// 0.16 % at 52 cards, where the exact position test needs 9.2 × 10^7 shuffles, 6 % at
/// 2000. The exact noncentrality per shuffle δ(n) (0.31 at 2000 cards) says how many
/// shuffles each deck needs; what a shuffle costs grows like n and the test's noise like
/// √df ≈ n, so the cost of a sure detection goes like n²/δ(n), smallest at the largest
/// deck `run` takes: 2000 cards and 100,000 shuffles (about 3 s of CPU).
///
/// Why it cannot flake. Under msvc-rand-mod the scaled position statistic is close to a
/// noncentral χ² with df = 1999² = 3,996,001 and λ = 10^5 · δ ≈ 31,460, so about
/// df + λ with sd √(2 df + 4 λ) ≈ 2,850. The verdict fails when the smallest
/// Holm-adjusted p-value is below 1e-6, so certainly when the position test's p is below
/// 1e-6 / 3, that is above df + 14,050 (4.97 √(2 df)). Five sd below its mean the
/// statistic is still df + 17,200, p ≈ 6e-10: a miss would take a 5-sd fluke. With
/// xoshiro the same seed passes; a fair shuffle is flagged suspicious or worse with
/// probability under 1e-3 for any seed, and the seed was the first one tried. The runs
/// are deterministic (fixed seed, any thread count), so the verdicts never change unless
/// the engine's streams do.
#[test]
fn msvc_rand_mod_fails_a_2000_card_fisher_yates_that_xoshiro_passes() {
    let (n, trials, seed) = (2000, 100_000, 1);
    let biased = run_fisher_yates(n, trials, seed, SourceKind::MsvcRandMod);
    assert_eq!(
        biased.analysis.verdict,
        Verdict::Fail,
        "{:?}",
        biased.analysis.tests
    );
    let fair = run_fisher_yates(n, trials, seed, SourceKind::Xoshiro);
    assert_eq!(fair.analysis.verdict, Verdict::Pass, "{:?}", fair.analysis.tests);

    // The exact noncentrality, against the simulation of the real generator: the mean of
    // the scaled position statistic is exactly df + (N - 1) δ in the source's model, and
    // the statistic of one run lies within a few sd of it (5 sd: a 1-in-3-million miss,
    // if the model holds; the LCG's own correlations would show here as a gap).
    let (delta, df) = exact_detection(n, SourceKind::MsvcRandMod);
    assert_eq!(df, 3_996_001.0);
    let statistic = biased
        .analysis
        .tests
        .iter()
        .find(|test| test.name == "positions")
        .and_then(|test| match test.outcome {
            TestOutcome::Fit(Fit::Computed { statistic, .. }) => Some(statistic),
            _ => None,
        })
        .expect("the position test ran");
    let mean = df + (trials - 1) as f64 * delta;
    let sd = (2.0 * df + 4.0 * trials as f64 * delta).sqrt();
    assert!(
        (statistic - mean).abs() < 5.0 * sd,
        "statistic {statistic}, model {mean} ± {sd}"
    );
    // And the margin worked out above: λ - 5 sd stays above the Holm-adjusted critical
    // value (df + 4.97 √(2 df), the normal approximation, close at this df).
    let lambda = trials as f64 * delta;
    assert!(
        lambda - 5.0 * sd > 4.97 * (2.0 * df).sqrt(),
        "λ {lambda}, sd {sd}"
    );
}
