use shuffle_audit::catalogue::generators::{GeneratorSpec, StreamScenario};
use shuffle_audit::simulate::NoProgress;
use shuffle_audit::stats::Verdict;
use shuffle_audit::stream::items::Items;
use shuffle_audit::stream::{StreamSettings, run_streams};

#[test]
fn streams_run_as_the_command_line_does() {
    let csharp_bag = GeneratorSpec::parse("shuffle-bag-csharp").unwrap();
    let settings = StreamSettings {
        items: Items::parse("7").unwrap(),
        length: 700,
        streams: 100,
        seed: Some(1),
        threads: 2,
        alpha: 1e-6,
        scenario: StreamScenario { add_every: None },
        source: Default::default(),
    };
    let report = run_streams(&[csharp_bag], &settings, &NoProgress).unwrap();
    assert_eq!(report.results[0].analysis.verdict, Verdict::Fail);
}
