use super::*;
use crate::catalogue::generators::{GeneratorSpec, StreamScenario};
use crate::simulate::Engine;
use crate::simulate::tests::CancelledAfter;

/// A cancelled stream of 10¹² draws ends within milliseconds of the cancel, inside the
/// stream (the engine looks every 2²⁰ draws), not when its draws are done.
///
/// Margin: it stops within a block of draws (about a millisecond) of the cancel at 50 ms;
/// the bound, two seconds, is far below the hours the stream would run without a look
/// inside, and far above a loaded machine's scheduling delays.
#[test]
fn a_cancelled_stream_ends_inside_its_draws() {
    let engine = Engine::new(2).unwrap();
    let settings = StreamSettings {
        items: crate::catalogue::items::Items::parse("3").unwrap(),
        length: 1_000_000_000_000,
        streams: 2,
        seed: Some(1),
        threads: 2,
        alpha: 1e-6,
        scenario: StreamScenario { add_every: None },
        source: Default::default(),
    };
    let spec = GeneratorSpec::parse("iid").unwrap();
    let generator = GeneratorRun::new(&spec, &settings).unwrap();
    let cancel = CancelledAfter::new(50);
    generator.tally(&engine, 2, 1, &cancel);
    let took = cancel.from.elapsed();
    assert!(took < std::time::Duration::from_secs(2), "a stream: {took:?}");
}
