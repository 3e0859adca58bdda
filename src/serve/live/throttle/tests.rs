use std::sync::Arc;
use std::thread::JoinHandle;

use super::*;
use crate::run::{RunSettings, run};
use crate::serve::live::LiveReport;
use crate::serve::request::{LiveRequest, RunRequest};
use crate::simulate::{CHUNK_TRIALS, NoProgress};

/// A live run of the request `json` (two threads), started and watched.
fn start(json: &str) -> (Arc<LiveRun>, JoinHandle<()>) {
    let request = RunRequest::from_json(json.as_bytes())
        .unwrap()
        .resolve(2)
        .unwrap();
    let live = LiveRun::new(request);
    drop(live.watch());
    let runner = live.clone();
    (live, std::thread::spawn(move || runner.run()))
}

/// Waits (at most 60 s) until the run has tallied more than `deals`.
fn wait_beyond(live: &LiveRun, deals: u64) {
    let started = Instant::now();
    while live.progress().trials <= deals && live.phase() == Phase::Running {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "the run never passed {deals}"
        );
        std::thread::sleep(Duration::from_millis(2));
    }
}

/// Stops the run and says how long its thread took to end.
fn stop(live: &LiveRun, runner: JoinHandle<()>) -> Duration {
    let asked = Instant::now();
    live.stop();
    runner.join().unwrap();
    asked.elapsed()
}

/// The live run's tallies are exactly those `run --trials T` (the library's `run`, the
/// command's code) makes with the same seed, `T` the deals it tallied.
fn assert_tallies_are_runs(live: &LiveRun) -> u64 {
    let LiveRequest::Run(request) = &live.request else {
        panic!("a shuffle's or a sampler's run")
    };
    let trials = live.progress().trials;
    assert!(trials > 0);
    let settings = RunSettings {
        trials,
        ..request.settings.clone()
    };
    let expected = run(std::slice::from_ref(&request.spec), &settings, &NoProgress).unwrap();
    let Some(LiveReport::Run(report)) = live.report(false) else {
        panic!("no report after {trials} deals")
    };
    let name = request.spec.entry.name;
    match (report.results.first(), report.sampler_results.first()) {
        (Some(result), _) => assert!(
            result.tally == expected.results[0].tally,
            "{name} after {trials} deals: not run's tally"
        ),
        (None, Some(result)) => assert!(
            result.tally == expected.sampler_results[0].tally,
            "{name} after {trials} samples: not run's tally"
        ),
        (None, None) => panic!("an empty report"),
    }
    trials
}

#[test]
fn speeds_are_read_as_counts_or_full() {
    assert_eq!(Speed::parse("full").unwrap(), Speed::Full);
    assert_eq!(Speed::parse(" ").unwrap(), Speed::Full);
    assert_eq!(Speed::parse("1e3").unwrap().to_bits(), 1000);
    assert_eq!(Speed::parse("20").unwrap().to_bits(), 20);
    for bad in ["0", "fast", "-5", "2.5"] {
        let message = Speed::parse(bad).unwrap_err().to_string();
        assert!(message.contains("for 'speed'"), "{bad}: {message}");
    }
}

/// At 20 deals a second the run has dealt about 20 × t deals after t seconds: never more
/// than the pace allows (20 × t + 1, t counted from before the run started), and, on a
/// loaded machine, at least a third of it (each step costs well under a millisecond on 3
/// cards, against the 100 ms between steps). And it stops at once: the run waits between
/// steps in glances of a few milliseconds (within 1 s here, for a loaded machine: a run
/// that slept through its wait would take 50,000 s to deal its 1e6 deals).
#[test]
fn a_run_at_20_deals_a_second_deals_20_a_second_and_stops_at_once() {
    let before = Instant::now();
    let (live, runner) = start(r#"{"algorithm":"naive-swap","n":3,"trials":"1e6","seed":7,"speed":"20"}"#);
    std::thread::sleep(Duration::from_millis(1500));
    let (dealt, seconds) = (live.counted(), before.elapsed().as_secs_f64());
    assert!(
        dealt as f64 <= 20.0 * seconds + 1.0,
        "{dealt} deals in {seconds:.2} s"
    );
    assert!(
        dealt as f64 >= 20.0 * 1.5 / 3.0,
        "{dealt} deals in {seconds:.2} s"
    );
    let took = stop(&live, runner);
    assert!(took < Duration::from_secs(1), "stopped after {took:?}");
    assert_eq!(live.phase(), Phase::Stopped);
    assert_tallies_are_runs(&live);
}

/// Stopped inside the first chunk, inside a later one, and run to its end (a short last
/// chunk), a slow run's tallies are `run --trials T`'s: a shuffle tallied in order (a
/// flawed source: consecutive pairs and repeats within each chunk), a 10-card deck (its
/// order counts summarised as the steps add them), and a sampler. Inside the first chunk
/// at 1,000 deals a second: its first step comes after 0.1 s, and even 16 s late on a
/// loaded machine it would still be inside the chunk (16,384 deals).
#[test]
fn a_slow_run_tallies_what_run_tallies_wherever_it_stops() {
    let requests = [
        r#"{"algorithm":"fisher-yates","source":"delphi","n":5,"trials":40000,"seed":3,"speed":"SPEED"}"#,
        r#"{"algorithm":"naive-swap","n":10,"trials":40000,"seed":4,"speed":"SPEED"}"#,
        r#"{"algorithm":"bag-pick-c","n":6,"k":2,"trials":40000,"seed":5,"speed":"SPEED"}"#,
    ];
    for json in requests {
        let (live, runner) = start(&json.replace("SPEED", "1000"));
        wait_beyond(&live, 0);
        stop(&live, runner);
        let first = assert_tallies_are_runs(&live);
        assert!(first < CHUNK_TRIALS, "{json}: {first} deals in the first step");

        let json = json.replace("SPEED", "60000");
        let (live, runner) = start(&json);
        wait_beyond(&live, CHUNK_TRIALS);
        stop(&live, runner);
        assert!(assert_tallies_are_runs(&live) > CHUNK_TRIALS);

        let (live, runner) = start(&json);
        runner.join().unwrap();
        assert_eq!(live.phase(), Phase::Done, "{json}");
        assert_eq!(assert_tallies_are_runs(&live), 40000);
    }
}

/// The speed changes while the run runs: slow inside a chunk, then full (the engine's
/// steps go on from the last whole chunk, the page's tally never going back), then slow
/// again; each state is `run`'s.
#[test]
fn a_speed_changed_while_the_run_runs_keeps_its_tallies_runs() {
    let (live, runner) = start(r#"{"algorithm":"naive-swap","n":4,"trials":"3e8","seed":9,"speed":"50000"}"#);
    wait_beyond(&live, CHUNK_TRIALS + 1);
    let slow = live.progress().trials;
    live.set_speed(Speed::Full);
    let started = Instant::now();
    let mut shown = slow;
    while shown <= slow + 10 * CHUNK_TRIALS {
        let now = live.progress().trials;
        assert!(now >= shown, "the tally went back from {shown} to {now} deals");
        assert!(started.elapsed() < Duration::from_secs(60), "no full speed");
        shown = now;
    }
    live.set_speed(Speed::parse("1000").unwrap());
    // Once the full step under way ends (however long that takes on a loaded machine),
    // 1,000 deals a second: at most about 600 in 0.5 s, where full speed deals millions.
    let started = Instant::now();
    loop {
        let before = live.progress().trials;
        std::thread::sleep(Duration::from_millis(500));
        let dealt = live.progress().trials - before;
        if dealt <= 1000 {
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "{dealt} deals in 0.5 s at 1,000 a second"
        );
    }
    stop(&live, runner);
    assert!(assert_tallies_are_runs(&live) > slow);
}
