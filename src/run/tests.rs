use super::*;

fn settings(n: usize, k: Option<usize>) -> RunSettings {
    RunSettings {
        source: Default::default(),
        n,
        k,
        trials: 100_000,
        seed: Some(1),
        threads: 2,
        alpha: 1e-6,
        shard: None,
    }
}

fn specs(names: &[&str]) -> Vec<AlgorithmSpec> {
    names
        .iter()
        .map(|name| AlgorithmSpec::parse(name).unwrap())
        .collect()
}

fn error(settings: &RunSettings, names: &[&str]) -> String {
    settings.validate(&specs(names)).unwrap_err().to_string()
}

#[test]
fn k_goes_with_samplers_and_only_with_them() {
    assert!(
        settings(6, Some(3))
            .validate(&specs(&["bag-pick", "reservoir"]))
            .is_ok()
    );
    assert!(settings(6, None).validate(&specs(&["fisher-yates"])).is_ok());
    assert_eq!(
        error(&settings(6, None), &["reservoir"]),
        "reservoir is a sampler: give --k (how many of the n items it picks)"
    );
    assert!(error(&settings(6, Some(2)), &["sattolo"]).starts_with("--k applies to samplers (bag-pick, "));
    assert!(error(&settings(6, Some(2)), &["bag-pick", "sattolo"]).starts_with("one run holds"));
    for k in [0, 6, 7] {
        let message = error(&settings(6, Some(k)), &["bag-pick"]);
        assert!(message.starts_with("--k must be between 1 and n-1"), "{message}");
    }
    assert!(settings(6, Some(1)).validate(&specs(&["bag-pick"])).is_ok());
    assert!(settings(6, Some(5)).validate(&specs(&["bag-pick"])).is_ok());
}

#[test]
fn sampler_memory_counts_the_tables_each_sampler_keeps() {
    // 10!/1! ordered selections (29 MB) only for partial-fisher-yates.
    let mut many = settings(10, Some(9));
    many.threads = 256;
    many.trials = 1 << 40;
    assert!(many.validate(&specs(&["bag-pick", "reservoir"])).is_ok());
    let message = error(&many, &["partial-fisher-yates"]);
    assert!(message.contains("for n = 10, k = 9"), "{message}");
}

#[test]
fn notes_name_the_skipped_sampler_tests() {
    assert!(
        settings(6, Some(3))
            .notes(&specs(&["partial-fisher-yates"]))
            .is_empty()
    );
    let notes = settings(30, Some(15)).notes(&specs(&["bag-pick", "partial-fisher-yates"]));
    assert_eq!(notes.len(), 2, "{notes:?}");
    assert!(notes[0].starts_with("C(30, 15) subsets are more than 10!"));
    assert!(notes[1].contains("the ordered test of partial-fisher-yates is skipped"));
    // Without a sampler that promises an order there is no ordered test to skip.
    assert_eq!(settings(30, Some(15)).notes(&specs(&["reservoir"])).len(), 1);
}

#[test]
fn a_sampler_run_reports_sampler_results_only() {
    let report = run(
        &specs(&["bag-pick", "bag-pick-c"]),
        &settings(5, Some(2)),
        &crate::simulate::NoProgress,
    )
    .unwrap();
    assert!(report.results.is_empty());
    assert_eq!(report.names(), ["bag-pick", "bag-pick-c"]);
    assert_eq!(report.algorithm_count(), 2);
    assert_eq!(report.sampler_results[1].expected, Expectation::Biased);
    assert_eq!(
        report.sampler_results[1].tally.inclusion_counts,
        vec![0, 100_000, 100_000, 0, 0]
    );
}
