//! `serve` on a shared machine, time: Stop, a closed tab and SIGTERM end any run within
//! 200 ms, even one whose single deal takes seconds; the first update of a run comes at
//! once, before its exact law; and a stream always ends with an update that says how the
//! run ended. Each through the real binary, over its socket.
//!
//! The long run is `naive-repeated:100000` on 2,000 cards: one deal is 2·10⁸ swaps (a
//! second or more), and a step of it is at least a chunk of 16,384 deals per worker, so a
//! run that stops only between steps, or between deals, runs on for seconds to hours after
//! Stop.
//!
//! Margins: the server's own work between Stop and the end of the run is a few
//! milliseconds (the engine looks at the stop every 65,536 cards moved, about a tenth of a
//! millisecond of work): 200 ms is what is promised, and `scripts/probe_serve.sh` prints
//! what it takes (tens of milliseconds). The tests assert the mechanism rather than the
//! wall clock of a loaded 2-core CI machine: the step under way is cut short (the last
//! update counts no deal of it), the server is idle after, and the end comes within
//! [`BOUND`], ten times the promise and still thousands of times less than a run that
//! stops only between steps or deals would take. The CPU the server uses after the run
//! ended is read from /proc: a run still dealing would use up to two cores, about a
//! CPU-second in half a second; the bound is a tenth of that, far above an idle server's
//! few milliseconds.

mod served;

use std::time::{Duration, Instant};

use served::{Server, time_until};

/// What the tests allow for what is promised within 200 ms (see the module docs).
const BOUND: Duration = Duration::from_secs(2);

/// A run whose deals take seconds each (see the module docs): 7 chunks, so that both
/// workers deal from the first step on.
const LONG: &str = r#"{"algorithm":"naive-repeated:100000","n":"2000","trials":"1e5","seed":"1"}"#;

/// The CPU the server uses over the next half second (after a run ended, it is idle).
fn cpu_over_half_a_second(server: &Server) -> f64 {
    let before = server.cpu_seconds();
    std::thread::sleep(Duration::from_millis(500));
    server.cpu_seconds() - before
}

/// Starts the run `body`, lets it deal for 0.7 s, presses Stop, and checks that the
/// stream's last update says `stopped` with nothing tallied (the step cut short is
/// thrown away, not added), that it came within [`BOUND`], and that the server is idle
/// after. `what` names the run in the message.
fn stop_ends_inside_the_deals(body: &str, what: &str) {
    let server = Server::start(&[]);
    let id = server.start_run(body);
    let mut events = server.events(&id);
    assert_eq!(events.next_update().unwrap().json()["phase"], "running");
    // Well into the first deals (the first step is a chunk of deals of seconds each per worker).
    std::thread::sleep(Duration::from_millis(700));
    // Two workers dealing use about a CPU-second in half a second on an idle machine; a
    // tenth of that shows they are at work however loaded the machine is.
    let dealing = cpu_over_half_a_second(&server);
    assert!(dealing > 0.1, "the run is dealing: {dealing:.2} CPU-s");
    let stopped = Instant::now();
    assert_eq!(server.post(&format!("/api/runs/{id}/stop"), b"").status, 204);
    let last = events
        .rest()
        .into_iter()
        .rfind(|event| event.name == "snapshot")
        .unwrap();
    let took = last.at - stopped;
    let update = last.json();
    assert_eq!(update["phase"], "stopped", "{update}");
    assert_eq!(update["deals"], 0, "a step cut short is not added");
    eprintln!("Stop ended {what} in {:.1} ms", took.as_secs_f64() * 1e3);
    assert!(took < BOUND, "Stop took {took:?}");
    let idle = cpu_over_half_a_second(&server);
    assert!(idle < 0.1, "the server used {idle:.2} CPU-s after Stop");
}

/// Stop ends a run at once, in the middle of its first deals.
#[test]
fn stop_ends_a_run_inside_its_deals() {
    stop_ends_inside_the_deals(LONG, "the run");
}

/// Stop ends a run dealt at a chosen speed (the page's slider) as fast, inside its deals:
/// at 1,000 deals a second a slow step of this run is about a hundred deals of a second
/// or more each, which a run that stops only between steps would deal on for a minute.
#[test]
fn stop_ends_a_throttled_run_inside_its_deals() {
    stop_ends_inside_the_deals(
        r#"{"algorithm":"naive-repeated:100000","n":"2000","trials":"1e5","seed":"1","speed":"1000"}"#,
        "the throttled run",
    );
}

/// A closed tab (the event stream dropped) ends its run at once: the run's slot is free
/// again (a fifth run can start where four ran), and the server is idle after.
#[test]
fn a_closed_stream_ends_its_run_at_once() {
    let server = Server::start(&[]);
    let ids: Vec<String> = (0..4).map(|_| server.start_run(LONG)).collect();
    let mut streams: Vec<_> = ids.iter().map(|id| server.events(id)).collect();
    for stream in &mut streams {
        stream.next_update().unwrap();
    }
    std::thread::sleep(Duration::from_millis(500));
    assert_eq!(server.post("/api/runs", LONG.as_bytes()).status, 503, "four run");
    let closed = Instant::now();
    streams.remove(0).close();
    let mut fifth = None;
    let took = time_until(Duration::from_secs(5), || {
        let answer = server.post("/api/runs", LONG.as_bytes());
        let started = answer.status == 201;
        if started {
            fifth = Some(answer.json()["id"].as_str().unwrap().to_string());
        }
        started
    })
    .map(|_| closed.elapsed());
    eprintln!("a closed stream freed its run's slot in {took:?}");
    assert!(took.is_some_and(|took| took < BOUND), "{took:?}");
    // Stop the others (and the fifth, never watched): the server goes idle.
    for id in ids.iter().skip(1).chain(fifth.as_ref()) {
        assert_eq!(server.post(&format!("/api/runs/{id}/stop"), b"").status, 204);
    }
    std::thread::sleep(Duration::from_millis(200));
    let idle = cpu_over_half_a_second(&server);
    assert!(
        idle < 0.1,
        "the server used {idle:.2} CPU-s after every run stopped"
    );
}

/// SIGTERM ends the process, runs and all, at once, with 143, and frees its port.
#[test]
fn sigterm_ends_the_server_and_its_runs_at_once() {
    let mut server = Server::start(&[]);
    let id = server.start_run(LONG);
    let mut events = server.events(&id);
    events.next_update().unwrap();
    std::thread::sleep(Duration::from_millis(500));
    let signalled = Instant::now();
    // SAFETY: kill sends a signal to the process this test started.
    unsafe { libc::kill(server.child.id() as i32, libc::SIGTERM) };
    let mut status = None;
    let took = time_until(Duration::from_secs(5), || {
        status = server.child.try_wait().unwrap();
        status.is_some()
    })
    .map(|_| signalled.elapsed());
    eprintln!("SIGTERM ended the server in {took:?}");
    assert!(took.is_some_and(|took| took < BOUND), "{took:?}");
    assert_eq!(status.unwrap().code(), Some(143));
    assert!(
        std::net::TcpStream::connect(&server.address).is_err(),
        "the port still answers"
    );
}

/// The first update of a run comes at once, before the exact law (10-card Fisher–Yates:
/// 10! paths, a CPU-second or more, which the first update used to wait for).
///
/// Margin: the server makes the first update in about a millisecond (there is nothing
/// tallied to draw yet): 300 ms is what is promised, and `scripts/probe_serve.sh` prints
/// what it takes. What is asserted does not depend on load: the first event is an update,
/// not the exact law, and the exact event comes after it; and the first update came within
/// a second, a third of what the exact law alone takes on an idle machine (more on a
/// loaded one), which the first update used to wait for.
#[test]
fn the_first_update_comes_at_once_and_the_exact_law_when_ready() {
    let server = Server::start(&[]);
    let id = server.start_run(r#"{"algorithm":"fisher-yates","n":"10","trials":"2e6","seed":"1"}"#);
    let opened = Instant::now();
    let mut events = server.events(&id);
    let first = events.next().unwrap();
    let took = first.at - opened;
    eprintln!(
        "the first update came {:.1} ms after the stream was opened",
        took.as_secs_f64() * 1e3
    );
    assert_eq!(first.name, "snapshot", "{first:?}");
    assert!(took < Duration::from_secs(1), "the first update took {took:?}");
    let rest = events.rest();
    let names: Vec<&str> = rest.iter().map(|event| event.name.as_str()).collect();
    let exact = names
        .iter()
        .position(|name| *name == "exact")
        .expect("an exact event");
    assert_eq!(names.iter().filter(|name| **name == "exact").count(), 1);
    assert!(
        exact < names.len() - 1,
        "the exact event comes before the last update: {names:?}"
    );
    assert!(rest[exact].json()["svg"].as_str().unwrap().starts_with("<svg"));
    assert_eq!(rest.last().unwrap().json()["phase"], "done");
}

/// Every stream ends with an update that says how the run ended, with its view or with a
/// one-line error: never an empty one (`data: {}`), which left the page waiting. Runs too
/// short for some charts (3 deals of 12 cards) included.
#[test]
fn a_stream_always_ends_with_an_update_that_says_how_the_run_ended() {
    let server = Server::start(&[]);
    for request in [
        r#"{"algorithm":"fisher-yates","n":"12","trials":"3","seed":"1"}"#,
        r#"{"algorithm":"naive-swap","n":"13","trials":"2","seed":"1"}"#,
        r#"{"algorithm":"riffle","n":"2000","trials":"1","seed":"1"}"#,
    ] {
        let id = server.start_run(request);
        let mut events = server.events(&id);
        let last = events
            .rest()
            .into_iter()
            .rfind(|event| event.name == "snapshot")
            .unwrap();
        let update = last.json();
        match update["phase"].as_str() {
            Some("done") => assert!(update["view"].is_object(), "{request}: {update}"),
            Some("failed") => {
                let error = update["error"].as_str().unwrap();
                assert!(!error.is_empty() && !error.contains('\n'), "{request}: {error}");
            }
            _ => panic!("{request}: {update}"),
        }
    }
}
