//! `serve`: the live page's server, in process (requests handed to the router, no socket)
//! and once through the real binary.
//!
//! What must hold: a catalogue run's download is `run`'s JSON for the same arguments
//! (timing aside), a deal file's is `ingest`'s; a bad request gets 400 and the command
//! line's one-line message; too large a body 413; a foreign `Host` or `Origin` 403; no
//! input whatever (fuzzed, fixed seed) gets a 5xx or stops the server answering; and the
//! binary prints its address, serves, and is gone after SIGTERM.

mod binary;

use std::sync::Arc;

use axum::Router;
use axum::body::{Body, to_bytes};
use axum::http::{Request, StatusCode, header};
use binary::{json_of, shuffle_audit, shuffled_lines, without_timing};
use serde_json::Value;
use shuffle_audit::serve::{MAX_BODY, Served, router};
use tower::ServiceExt;

const HOST: &str = "127.0.0.1:8123";

/// The binary as a plain process (assert_cmd's commands wait for it to end).
fn binary_command() -> std::process::Command {
    std::process::Command::new(env!("CARGO_BIN_EXE_shuffle-audit"))
}

fn app() -> (Router, Arc<Served>) {
    let served = Served::new(vec![HOST.to_string(), "localhost:8123".to_string()], 2);
    (router(served.clone()), served)
}

fn request(method: &str, uri: &str, body: impl Into<Body>) -> Request<Body> {
    Request::builder()
        .method(method)
        .uri(uri)
        .header(header::HOST, HOST)
        .body(body.into())
        .unwrap()
}

async fn send(app: &Router, request: Request<Body>) -> (StatusCode, Vec<u8>) {
    let response = app.clone().oneshot(request).await.unwrap();
    let status = response.status();
    let body = to_bytes(response.into_body(), usize::MAX).await.unwrap();
    (status, body.to_vec())
}

fn error_of(body: &[u8]) -> String {
    let json: Value = serde_json::from_slice(body).expect("errors are JSON");
    let message = json["error"].as_str().expect("an error message").to_string();
    assert!(!message.contains('\n'), "one line: {message}");
    message
}

/// The id a run or a session was given: 128 random bits in hex.
fn id_of(started: &[u8]) -> String {
    let id = serde_json::from_slice::<Value>(started).unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        id.len() == 32 && id.bytes().all(|byte| byte.is_ascii_hexdigit()),
        "{id}"
    );
    id
}

/// Starts a run and reads its whole event stream (it ends when the run does).
async fn run_to_the_end(app: &Router, body: &str) -> (String, String) {
    let (status, started) = send(app, request("POST", "/api/runs", body.to_string())).await;
    assert_eq!(
        status,
        StatusCode::CREATED,
        "{}",
        String::from_utf8_lossy(&started)
    );
    let id = id_of(&started);
    let (status, events) = send(
        app,
        request("GET", &format!("/api/runs/{id}/events"), Body::empty()),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    (id, String::from_utf8(events).unwrap())
}

/// The download of run `id` is valid against its schema and is what the command `line`
/// writes, timing aside.
async fn assert_download_is(app: &Router, id: &str, line: &str) {
    let (status, json) = send(
        app,
        request("GET", &format!("/api/runs/{id}/json"), Body::empty()),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{line}");
    let served_json: Value = serde_json::from_slice(&json).unwrap();
    binary::assert_valid(&served_json);
    assert_eq!(
        without_timing(&served_json),
        without_timing(&json_of(line)),
        "{line}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_catalogue_runs_download_is_runs_json() {
    let (app, served) = app();
    // Not a multiple of the chunk (16,384): the last step ends on a partial chunk.
    let line = "run naive-swap --n 4 --trials 300007 --seed 7";
    let (id, events) = run_to_the_end(
        &app,
        r#"{"algorithm":"naive-swap","source":"xoshiro","n":"4","trials":"300_007","seed":"7"}"#,
    )
    .await;
    let exact = exact_event(&events);
    let law = &json_of("exact naive-swap --n 4")["results"][0];
    assert_eq!(
        (&exact["unit"], &exact["trials_needed"], &exact["beside"]),
        (
            &Value::from("deals"),
            &law["samples_needed"]["trials"],
            &Value::from("positions")
        )
    );
    let last = events
        .lines()
        .rev()
        .find_map(|line| line.strip_prefix("data: "))
        .unwrap();
    let snapshot: Value = serde_json::from_str(last).unwrap();
    assert_eq!(snapshot["phase"], "done");
    assert_eq!(snapshot["deals"], 300_007);
    assert_eq!(snapshot["view"]["verdict"], "fail");
    let charts: Vec<&str> = snapshot["view"]["charts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|chart| chart["name"].as_str().unwrap())
        .collect();
    assert_eq!(charts, ["orders", "positions", "fixed-points", "cycles"]);
    assert_download_is(&app, &id, line).await;
    assert_eq!(served.jobs.running(), 0, "nothing left running");
}

/// A carried deck and a flawed source tally their deals in order too (the serial tests,
/// the repeats): their views while running come from the summary of both order counts
/// (5 to 10 cards), and the download is still `run`'s JSON, bit for bit (timing aside).
/// On 8 cards: a 10-card run's JSON holds 10! counts twice (420 MB), too much to parse
/// here; the summary itself is checked against the finished tally on 9 cards, steps
/// listed as a 10-card run's are, in `tally::permutation`'s tests.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn deals_in_order_download_runs_json() {
    let (app, served) = app();
    for (line, body) in [
        (
            "run dealer-riffles --n 8 --trials 100003 --seed 3",
            r#"{"algorithm":"dealer-riffles","n":"8","trials":"100003","seed":"3"}"#,
        ),
        (
            "run naive-swap --n 8 --trials 100003 --seed 3 --source delphi",
            r#"{"algorithm":"naive-swap","n":"8","trials":"100003","seed":"3","source":"delphi"}"#,
        ),
    ] {
        let (id, events) = run_to_the_end(&app, body).await;
        let snapshot = last_snapshot(&events);
        assert_eq!(snapshot["phase"], "done", "{line}");
        let tests: Vec<&str> = snapshot["view"]["tests"]
            .as_array()
            .unwrap()
            .iter()
            .map(|test| test["name"].as_str().unwrap())
            .collect();
        assert!(tests.contains(&"serial-permutations"), "{line}: {tests:?}");
        let exact = exact_event(&events);
        assert!(exact["svg"].is_null(), "{line}: no exact law here");
        assert!(
            exact["note"].as_str().is_some_and(|note| !note.is_empty()),
            "{line}"
        );
        assert_download_is(&app, &id, line).await;
    }
    assert_eq!(served.jobs.running(), 0, "nothing left running");
}

/// The data of the stream's `exact` event (the exact view, or what says why there is none).
fn exact_event(events: &str) -> Value {
    let mut lines = events.lines();
    lines
        .find(|line| *line == "event: exact")
        .expect("an exact event");
    let data = lines.next().unwrap().strip_prefix("data: ").unwrap();
    serde_json::from_str(data).unwrap()
}

/// The last update of an event stream, which carries the view of everything tallied.
fn last_snapshot(events: &str) -> Value {
    let last = events
        .lines()
        .rev()
        .find_map(|line| line.strip_prefix("data: "))
        .unwrap();
    serde_json::from_str(last).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_samplers_and_a_generators_downloads_are_runs_and_streams_json() {
    let (app, served) = app();
    // bag-pick-c keeps the wrong thing (text 002's C code): caught at once. Not a
    // multiple of the chunk, so the last step ends on a partial chunk.
    // Each with the exact law `exact` computes of it (the same arguments), sent before the
    // first update: its chart, its "samples needed" and in what unit.
    for (line, body, verdict, charts, exact_line, unit) in [
        (
            "run bag-pick-c --n 6 --k 2 --trials 100003 --seed 7",
            r#"{"algorithm":"bag-pick-c","n":"6","k":"2","trials":"100_003","seed":"7"}"#,
            "fail",
            vec!["subsets", "inclusion"],
            "exact bag-pick-c --n 6 --k 2",
            "samples",
        ),
        (
            "run reservoir --n 6 --k 2 --trials 100003 --seed 7",
            r#"{"algorithm":"reservoir","n":"6","k":"2","trials":"100003","seed":"7"}"#,
            "pass",
            vec!["subsets", "inclusion"],
            "exact reservoir --n 6 --k 2",
            "samples",
        ),
        // shuffle-bag-csharp never deals the cursor's slot (text 003): caught. 203 streams
        // are stepped over in more than one step. Its exact law is that of one cycle of the
        // bag, counted in cycles.
        (
            "stream shuffle-bag-csharp --items 5 --length 2000 --streams 203 --seed 7",
            r#"{"algorithm":"shuffle-bag-csharp","items":"5","length":"2000","streams":"203","seed":"7"}"#,
            "fail",
            vec![],
            "exact shuffle-bag-csharp --items 5",
            "cycles",
        ),
    ] {
        let (id, events) = run_to_the_end(&app, body).await;
        let exact = exact_event(&events);
        let law = &json_of(exact_line)["results"][0];
        assert_eq!(exact["unit"], unit, "{line}");
        assert_eq!(exact["uniform"], law["uniform"], "{line}");
        assert_eq!(
            exact["trials_needed"], law["samples_needed"]["trials"],
            "{line}: {exact}"
        );
        assert!(
            exact["svg"].as_str().unwrap().starts_with("<svg"),
            "{line}: the law's chart"
        );
        let draws_per_unit = if unit == "cycles" { 5 } else { 1 };
        assert_eq!(exact["draws_per_unit"], draws_per_unit, "{line}");
        let snapshot = last_snapshot(&events);
        assert_eq!(snapshot["phase"], "done", "{line}");
        assert_eq!(snapshot["view"]["verdict"], verdict, "{line}");
        let names: Vec<&str> = snapshot["view"]["charts"]
            .as_array()
            .unwrap()
            .iter()
            .map(|chart| chart["name"].as_str().unwrap())
            .collect();
        assert!(!names.is_empty(), "{line}: its report's charts");
        for chart in charts {
            assert!(
                names.iter().any(|name| name.ends_with(chart)),
                "{line}: {names:?}"
            );
        }
        assert_download_is(&app, &id, line).await;
    }
    // The catalogue the page lists: every name of `list`.
    let (status, catalogue) = send(&app, request("GET", "/api/catalogue", Body::empty())).await;
    assert_eq!(status, StatusCode::OK);
    let catalogue: Value = serde_json::from_slice(&catalogue).unwrap();
    let listed = binary_command().arg("list").output().unwrap();
    let listed = String::from_utf8(listed.stdout).unwrap();
    for group in ["shuffles", "samplers", "generators"] {
        let entries = catalogue[group].as_array().unwrap();
        assert!(!entries.is_empty(), "{group}");
        for entry in entries {
            let (name, summary) = (
                entry["name"].as_str().unwrap(),
                entry["summary"].as_str().unwrap(),
            );
            assert!(
                listed.contains(name) && listed.contains(summary),
                "{name} is not listed so"
            );
        }
    }
    assert_eq!(served.jobs.running(), 0, "nothing left running");
}

/// Updates come about 10 a second ([`UPDATE_INTERVAL`]) whatever the deck, and so do full
/// views (heat map, bars, every test with its p-value, the verdict): a 10-card run's
/// views are made from the summary of its 10! order counts kept as each step (at most
/// [`MAX_STEP`]) adds them. Counted over the whole stream of a run of a few seconds: at
/// most one update per interval (they are at least that far apart, by construction; +2
/// for the first and the last), and at least 2 a second of each, a fifth of the nominal
/// rate, so that a loaded machine (the run and the test share its cores) cannot make it
/// fail; the code before the summary gave one view every few seconds.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn updates_come_several_times_a_second_even_for_ten_cards() {
    use shuffle_audit::serve::live::MAX_STEP;
    use shuffle_audit::serve::routes::UPDATE_INTERVAL;
    assert!(MAX_STEP <= UPDATE_INTERVAL * 2);
    let (app, served) = app();
    let started = std::time::Instant::now();
    let (_, events) = run_to_the_end(
        &app,
        r#"{"algorithm":"naive-swap","n":"10","trials":"4e7","seed":"1"}"#,
    )
    .await;
    let seconds = started.elapsed().as_secs_f64();
    let updates: Vec<Value> = events
        .lines()
        .filter_map(|line| line.strip_prefix("data: "))
        .filter_map(|data| serde_json::from_str::<Value>(data).ok())
        .filter(|data| data.get("phase").is_some())
        .collect();
    let count = updates.len() as f64;
    assert!(
        seconds > 0.5,
        "the run took {seconds:.2} s: too short to count updates"
    );
    assert!(
        count <= seconds / UPDATE_INTERVAL.as_secs_f64() + 2.0,
        "{count} updates in {seconds:.2} s"
    );
    assert!(count >= 2.0 * seconds, "{count} updates in {seconds:.2} s");
    // The count moves between views, and never goes back.
    let deals: Vec<u64> = updates
        .iter()
        .map(|update| update["deals"].as_u64().unwrap())
        .collect();
    assert!(deals.windows(2).all(|pair| pair[0] <= pair[1]), "{deals:?}");
    let views: Vec<&Value> = updates
        .iter()
        .map(|update| &update["view"])
        .filter(|view| !view.is_null())
        .collect();
    let full = |view: &&&Value| {
        view["charts"].as_array().unwrap().len() == 3
            && view["tests"].as_array().unwrap().len() >= 5
            && !view["verdict"].is_null()
    };
    // The test of all 10! orders runs from 5 deals per order on (18,144,000 deals), in the
    // views made while the run runs too.
    let permutation_tests = views
        .iter()
        .filter(|view| view["deals"].as_u64().unwrap() >= 18_144_000)
        .map(|view| &view["tests"][0])
        .collect::<Vec<_>>();
    assert!(
        permutation_tests.len() >= 2,
        "{:?}",
        views
            .iter()
            .map(|view| view["deals"].as_u64().unwrap())
            .collect::<Vec<_>>()
    );
    for test in permutation_tests {
        assert_eq!(test["name"], "permutations");
        assert!(!test["p"].as_str().unwrap().is_empty(), "{test}");
    }
    let count_full = views.iter().filter(full).count() as f64;
    eprintln!("10 cards: {count} updates, {count_full} full views in {seconds:.2} s");
    assert!(
        count_full >= 2.0 * seconds,
        "{count_full} full views in {seconds:.2} s"
    );
    // The views follow the run, and the last is of every deal.
    let shown: Vec<u64> = views.iter().map(|view| view["deals"].as_u64().unwrap()).collect();
    assert!(shown.windows(2).all(|pair| pair[0] <= pair[1]), "{shown:?}");
    assert_eq!(shown.last(), Some(&40_000_000));
    assert_eq!(views.last().unwrap()["verdict"], "fail");
    assert_eq!(served.jobs.running(), 0, "nothing left running");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_deal_files_download_is_ingests_json() {
    let (app, _) = app();
    let deals = shuffled_lines("fisher-yates", &["A", "B", "C", "D"], 5000, 3);
    let (status, json) = send(&app, request("POST", "/api/ingest/json", deals.clone())).await;
    assert_eq!(status, StatusCode::OK);
    let dir = tempfile::tempdir().unwrap();
    let path = binary::write_file(dir.path(), "deals.txt", &deals);
    let mut ingest = binary_command();
    ingest
        .args(["ingest", "-", "--json", "-"])
        .stdin(std::fs::File::open(path).unwrap());
    let output = ingest.output().unwrap();
    let expected: Value = serde_json::from_slice(&output.stdout).unwrap();
    binary::assert_valid(&serde_json::from_slice(&json).unwrap());
    assert_eq!(
        without_timing(&serde_json::from_slice(&json).unwrap()),
        without_timing(&expected)
    );
    let (status, view) = send(&app, request("POST", "/api/ingest", deals)).await;
    assert_eq!(status, StatusCode::OK);
    let view: Value = serde_json::from_slice(&view).unwrap();
    assert_eq!(view["verdict"], "pass");
    assert_eq!(view["samples"], 5000);
}

/// "Your own shuffle" sends each deal once, a batch at a time; the server keeps them, so
/// what it says after the last batch, and downloads, is `ingest`'s of all the deals (the
/// pairs of consecutive deals across a batch boundary included).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn deals_sent_in_batches_are_ingested_as_one_file() {
    let (app, _) = app();
    let deals = shuffled_lines("naive-swap", &["1", "2", "3", "4"], 9000, 5);
    let (status, started) = send(
        &app,
        request("POST", "/api/own?kind=permutations&deck=1+2+3+4", Body::empty()),
    )
    .await;
    assert_eq!(
        status,
        StatusCode::CREATED,
        "{}",
        String::from_utf8_lossy(&started)
    );
    let id = id_of(&started);
    let lines: Vec<&str> = deals.lines().collect();
    let mut last = Value::Null;
    for batch in lines.chunks(2000) {
        let body = batch.join("\n") + "\n";
        let (status, view) = send(&app, request("POST", &format!("/api/own/{id}/deals"), body)).await;
        assert_eq!(status, StatusCode::OK, "{}", String::from_utf8_lossy(&view));
        last = serde_json::from_slice(&view).unwrap();
    }
    assert_eq!(last["samples"], 9000);
    assert_eq!(last["verdict"], "fail");
    let (status, json) = send(
        &app,
        request("GET", &format!("/api/own/{id}/json"), Body::empty()),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let (status, whole) = send(
        &app,
        request("POST", "/api/ingest/json?kind=permutations&deck=1+2+3+4", deals),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    binary::assert_valid(&serde_json::from_slice(&json).unwrap());
    assert_eq!(
        without_timing(&serde_json::from_slice(&json).unwrap()),
        without_timing(&serde_json::from_slice(&whole).unwrap())
    );
    let (status, body) = send(&app, request("POST", "/api/own/999/deals", "1 2 3 4\n")).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(error_of(&body).contains("no such session"));
    let (status, body) = send(&app, request("POST", "/api/own?deck=1+1", Body::empty())).await;
    assert_eq!(
        status,
        StatusCode::BAD_REQUEST,
        "{}",
        String::from_utf8_lossy(&body)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_requests_get_the_command_lines_message() {
    let (app, served) = app();
    for (body, message) in [
        (
            r#"{"algorithm":"naive-swap","n":"1"}"#,
            "--n must be at least 2 (got 1)",
        ),
        (
            r#"{"algorithm":"naive-swap","n":"x"}"#,
            "invalid value 'x' for '--n <N>'",
        ),
        (
            r#"{"algorithm":"naive-swap","n":3,"trials":"0"}"#,
            "--trials must be at least 1",
        ),
        (
            r#"{"algorithm":"naive-swap","n":3,"trials":"1.5"}"#,
            "is not a whole number",
        ),
        (r#"{"algorithm":"nope","n":3}"#, "unknown algorithm 'nope'"),
        (r#"{"algorithm":"naive-swap","n":3,"source":"rot13"}"#, "rot13"),
        (
            r#"{"algorithm":"naive-swap","n":3,"alpha":"2"}"#,
            "not a probability",
        ),
        (
            r#"{"algorithm":"naive-swap","n":3,"seed":"-1"}"#,
            "invalid value '-1' for '--seed <S>'",
        ),
        (r#"{"algorithm":"naive-swap","n":"3000"}"#, "--n must be at most"),
        (r#"{"algorithm":"bag-pick","n":3}"#, "is a sampler"),
        (r#"{"n":3}"#, "required"),
        ("not json", "not a run request"),
        (
            r#"{"algorithm":"naive-swap","n":3,"shell":"rm -rf"}"#,
            "not a run request",
        ),
    ] {
        let (status, body) = send(&app, request("POST", "/api/runs", body)).await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        let error = error_of(&body);
        assert!(error.contains(message), "{error} lacks {message}");
    }
    let (status, body) = send(&app, request("POST", "/api/ingest", "A B C\nA B\n")).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(error_of(&body).contains("line 2"), "{}", error_of(&body));
    let (status, _) = send(&app, request("GET", "/api/runs/99/json", Body::empty())).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(served.jobs.running(), 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn oversized_bodies_foreign_hosts_and_origins_are_refused() {
    let (app, _) = app();
    let (status, body) = send(&app, request("POST", "/api/ingest", vec![b'1'; MAX_BODY + 1])).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
    assert!(
        error_of(&body).contains("larger than 64 MB"),
        "{}",
        error_of(&body)
    );
    for host in [
        "evil.example:8123",
        "127.0.0.1:9999",
        "",
        "attacker.localhost:8123",
    ] {
        let mut foreign = request("GET", "/", Body::empty());
        foreign.headers_mut().insert(header::HOST, host.parse().unwrap());
        let (status, body) = send(&app, foreign).await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{host}");
        assert!(error_of(&body).contains("refused"));
    }
    let mut cross_site = request("POST", "/api/runs", r#"{"algorithm":"naive-swap","n":3}"#);
    cross_site
        .headers_mut()
        .insert(header::ORIGIN, "http://evil.example".parse().unwrap());
    let (status, _) = send(&app, cross_site).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let response = app
        .clone()
        .oneshot(request("GET", "/", Body::empty()))
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    assert!(response.headers().get("access-control-allow-origin").is_none());
    assert!(response.headers().get(header::CONTENT_SECURITY_POLICY).is_some());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn at_most_four_runs_at_once_and_a_closed_stream_stops_its_run() {
    let (app, served) = app();
    let long = r#"{"algorithm":"fisher-yates","n":"52","trials":"1e12","seed":"1"}"#;
    let mut ids = Vec::new();
    for _ in 0..4 {
        let (status, body) = send(&app, request("POST", "/api/runs", long)).await;
        assert_eq!(status, StatusCode::CREATED);
        ids.push(id_of(&body));
    }
    let (status, body) = send(&app, request("POST", "/api/runs", long)).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
    assert!(error_of(&body).contains("at most 4"));
    // A stream opened and dropped (a closed tab) stops its run; Stop stops the others.
    let response = app
        .clone()
        .oneshot(request(
            "GET",
            &format!("/api/runs/{}/events", ids[0]),
            Body::empty(),
        ))
        .await
        .unwrap();
    drop(response);
    for id in &ids[1..] {
        let (status, _) = send(
            &app,
            request("POST", &format!("/api/runs/{id}/stop"), Body::empty()),
        )
        .await;
        assert_eq!(status, StatusCode::NO_CONTENT);
    }
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while served.jobs.running() > 0 {
        assert!(std::time::Instant::now() < deadline, "runs still running");
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
}

/// A small fixed-seed generator (xorshift), so that the fuzzing is the same every time.
struct Fuzz(u64);

impl Fuzz {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn bytes(&mut self) -> Vec<u8> {
        let length = self.below(200);
        (0..length).map(|_| self.next() as u8).collect()
    }

    fn json(&mut self) -> String {
        let keys = [
            "algorithm",
            "n",
            "trials",
            "seed",
            "source",
            "alpha",
            "x",
            "k",
            "items",
            "length",
            "streams",
        ];
        let values = [
            "\"naive-swap\"",
            "\"3\"",
            "3",
            "-1",
            "1e400",
            "null",
            "[]",
            "{}",
            "\"\\u0000\"",
            "\"1e99\"",
            "\"fisher-yates\"",
            "\"riffles:0\"",
            "\"bag-pick\"",
            "\"shuffle-bag\"",
            "\"A:1,B:0\"",
            "18446744073709551616",
            "\"0.5\"",
            "true",
            "\"\"",
        ];
        let fields: Vec<String> = (0..self.below(5))
            .map(|_| {
                format!(
                    "\"{}\":{}",
                    keys[self.below(keys.len())],
                    values[self.below(values.len())]
                )
            })
            .collect();
        format!("{{{}}}", fields.join(","))
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_input_gets_a_server_error_or_stops_the_server() {
    let (app, served) = app();
    let routes = [
        ("POST", "/api/runs"),
        ("POST", "/api/ingest"),
        ("POST", "/api/ingest/json"),
        ("POST", "/api/ingest?kind=selections&k=2"),
        ("POST", "/api/ingest?kind=%FF&deck=A%20A"),
        ("GET", "/api/runs/1/events"),
        ("POST", "/api/runs/18446744073709551616/stop"),
        ("GET", "/api/runs/-1/json"),
        ("GET", "/api/catalogue"),
        ("PUT", "/api/runs"),
        ("GET", "/%00"),
    ];
    let mut fuzz = Fuzz(0x5eed_2024);
    for round in 0..400 {
        let (method, uri) = routes[fuzz.below(routes.len())];
        let body = match round % 3 {
            0 => fuzz.bytes(),
            1 => fuzz.json().into_bytes(),
            _ => {
                let deck: Vec<String> = (0..fuzz.below(5)).map(|_| fuzz.below(4).to_string()).collect();
                (0..fuzz.below(30))
                    .map(|_| deck.join(" ") + "\n")
                    .collect::<String>()
                    .into_bytes()
            }
        };
        // Runs started by the fuzzer are stopped at once: only their answers matter.
        let response = app.clone().oneshot(request(method, uri, body)).await.unwrap();
        let status = response.status();
        assert!(
            status.is_success() || status.is_client_error() || status == StatusCode::SERVICE_UNAVAILABLE,
            "{method} {uri}: {status}"
        );
        if uri.ends_with("/events") {
            drop(response);
        } else {
            let _ = to_bytes(response.into_body(), usize::MAX).await;
        }
        served.jobs.stop_all();
    }
    let (status, _) = send(&app, request("GET", "/api/catalogue", Body::empty())).await;
    assert_eq!(status, StatusCode::OK);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while served.jobs.running() > 0 {
        assert!(std::time::Instant::now() < deadline, "runs still running");
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
}

#[test]
fn the_binary_prints_its_address_serves_and_stops_on_sigterm() {
    use std::io::{BufRead, BufReader, Read, Write};
    let mut server = binary_command()
        .args(["serve", "--threads", "1"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(server.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let url = line
        .split_whitespace()
        .find(|word| word.starts_with("http://127.0.0.1:"))
        .unwrap_or_else(|| panic!("no address in {line:?}"));
    let address = url
        .trim_start_matches("http://")
        .trim_end_matches('/')
        .to_string();
    let get = |host: &str| {
        let mut stream = std::net::TcpStream::connect(&address).unwrap();
        write!(
            stream,
            "GET / HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"
        )
        .unwrap();
        let mut answer = String::new();
        stream.read_to_string(&mut answer).unwrap();
        answer
    };
    assert!(get(&address).starts_with("HTTP/1.1 200"));
    assert!(get("rebound.example").starts_with("HTTP/1.1 403"));
    // SIGTERM: the process exits with 143, and the port is free again.
    unsafe { libc::kill(server.id() as i32, libc::SIGTERM) };
    let status = server.wait().unwrap();
    assert_eq!(status.code(), Some(143));
    assert!(
        std::net::TcpStream::connect(&address).is_err(),
        "the port still answers"
    );
    let refused = shuffle_audit().args(["serve", "--port", "x"]).output().unwrap();
    assert_eq!(refused.status.code(), Some(2));
}
