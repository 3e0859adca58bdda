use shuffle_audit::catalogue::AlgorithmSpec;
use shuffle_audit::randomness::SourceKind;
use shuffle_audit::run::{RunSettings, run};
use shuffle_audit::simulate::NoProgress;
use shuffle_audit::stats::Verdict;

#[test]
fn runs_as_the_command_line_does() {
    let naive = AlgorithmSpec::parse("naive-swap").unwrap();
    let settings = RunSettings {
        n: 3,
        k: None,
        trials: 600_000,
        seed: Some(1),
        threads: 2,
        alpha: 1e-6,
        shard: None,
        source: SourceKind::Xoshiro,
    };
    let report = run(&[naive], &settings, &NoProgress).unwrap();
    assert_eq!(report.results[0].analysis.verdict, Verdict::Fail);

    // The randomness under an algorithm is a setting too: a clock that re-seeds Delphi's
    // Random before every shuffle repeats the same deal a thousand times in a row.
    let fisher_yates = AlgorithmSpec::parse("fisher-yates").unwrap();
    let clock = SourceKind::parse("clock-reseed", None).unwrap();
    let settings = RunSettings {
        source: clock,
        ..settings
    };
    let report = run(&[fisher_yates], &settings, &NoProgress).unwrap();
    assert_eq!(report.results[0].analysis.verdict, Verdict::Fail);

    // Samplers take `k` and report in `sampler_results`.
    let c_code = AlgorithmSpec::parse("bag-pick-c").unwrap();
    let settings = RunSettings {
        n: 6,
        k: Some(3),
        trials: 10_000,
        seed: Some(1),
        threads: 2,
        alpha: 1e-6,
        shard: None,
        source: SourceKind::Xoshiro,
    };
    let report = run(&[c_code], &settings, &NoProgress).unwrap();
    let result = &report.sampler_results[0];
    assert_eq!(result.analysis.verdict, Verdict::Fail);
    assert_eq!(result.analysis.items_never_chosen, [0, 4, 5]);
}
