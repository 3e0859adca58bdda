//! Every chart of a report against the tally it draws: one bar per order, subset, item or
//! value of a law, whatever the result.

mod common;

use common::run_settings;
use shuffle_audit::catalogue::AlgorithmSpec;
use shuffle_audit::catalogue::generators::{GeneratorSpec, StreamScenario};
use shuffle_audit::report::chart::count_bars;
use shuffle_audit::report::{Document, run_document, stream_document};
use shuffle_audit::run::{RunSettings, run};
use shuffle_audit::simulate::NoProgress;
use shuffle_audit::stream::items::Items;
use shuffle_audit::stream::{StreamSettings, run_streams};

fn settings(n: usize, k: Option<usize>, trials: u64) -> RunSettings {
    run_settings(n, k, trials, 11)
}

fn specs(names: &[&str]) -> Vec<AlgorithmSpec> {
    names
        .iter()
        .map(|name| AlgorithmSpec::parse(name).unwrap())
        .collect()
}

/// The chart whose file name ends with `suffix`.
fn chart<'a>(document: &'a Document, suffix: &str) -> &'a str {
    &document
        .charts()
        .find(|chart| chart.file_name.ends_with(suffix))
        .unwrap_or_else(|| panic!("no chart {suffix}"))
        .svg
}

#[test]
fn shuffle_charts_have_one_bar_per_cell_of_the_tally() {
    for n in [3, 4, 6] {
        let report = run(&specs(&["naive-swap"]), &settings(n, None, 50_000), &NoProgress).unwrap();
        let document = run_document(&report);
        let tally = &report.results[0].tally;
        assert_eq!(
            count_bars(chart(&document, "-orders.svg")),
            tally.permutation_counts.as_ref().unwrap().len()
        );
    }
    // From 7 cards: no order bars, but card 1's positions and the top card, n bars each.
    let report = run(&specs(&["sattolo"]), &settings(9, None, 50_000), &NoProgress).unwrap();
    let document = run_document(&report);
    assert!(
        document
            .charts()
            .all(|chart| !chart.file_name.ends_with("-orders.svg"))
    );
    assert_eq!(count_bars(chart(&document, "-card-1.svg")), 9);
    assert_eq!(count_bars(chart(&document, "-top-card.svg")), 9);
    // Sattolo: every shuffle is one 9-cycle with no fixed point. The fixed-point bars run
    // while the law expects half a shuffle or more (0 to 7 of 9 cards left in place at
    // 50,000 shuffles, the last bar holding 7 and over); the cycle bars from 1 to 9 likewise.
    let tally = &report.results[0].tally;
    assert_eq!(tally.fixed_point_counts.as_ref().unwrap()[0], 50_000);
    assert!(count_bars(chart(&document, "-fixed-points.svg")) >= 6);
    assert!(count_bars(chart(&document, "-cycles.svg")) >= 6);
}

#[test]
fn sampler_charts_have_one_bar_per_subset_and_per_item() {
    let report = run(
        &specs(&["bag-pick", "bag-pick-c"]),
        &settings(6, Some(3), 20_000),
        &NoProgress,
    )
    .unwrap();
    let document = run_document(&report);
    assert_eq!(count_bars(chart(&document, "01-bag-pick-subsets.svg")), 20);
    assert_eq!(count_bars(chart(&document, "02-bag-pick-c-subsets.svg")), 20);
    assert_eq!(count_bars(chart(&document, "02-bag-pick-c-inclusion.svg")), 6);
}

#[test]
fn stream_charts_have_one_bar_per_item() {
    let settings = StreamSettings {
        source: Default::default(),
        items: Items::parse("A:10,B:5,C:4,D:1").unwrap(),
        length: 2_000,
        streams: 100,
        seed: Some(11),
        threads: 2,
        alpha: 1e-6,
        scenario: StreamScenario { add_every: None },
    };
    let generators = [
        GeneratorSpec::parse("iid").unwrap(),
        GeneratorSpec::parse("refill-list").unwrap(),
    ];
    let report = run_streams(&generators, &settings, &NoProgress).unwrap();
    let document = stream_document(&report);
    assert_eq!(count_bars(chart(&document, "01-iid-frequencies.svg")), 4);
    assert_eq!(count_bars(chart(&document, "02-refill-list-frequencies.svg")), 4);
    // The run-length law of i.i.d. draws is charted; a bag of weighted items has none.
    assert!(count_bars(chart(&document, "01-iid-runs.svg")) >= 10);
    assert!(
        document
            .charts()
            .all(|chart| chart.file_name != "02-refill-list-runs.svg")
    );
}
