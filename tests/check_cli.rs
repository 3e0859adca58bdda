//! `shuffle-audit check` run as a CI job runs it: the default suite, suites from TOML,
//! exit codes (0 as expected, 1 not, 2 broken), the confirmation of a suspicious result,
//! the JUnit and JSON exports, one-line config errors and the spawning of command cases.
//!
//! Every case has a fixed seed, so each verdict below is the same on every machine and
//! whatever the thread count; the margins are given beside each.

mod binary;

use std::path::PathBuf;

use binary::{command, shuffle_audit};
use predicates::prelude::*;
use serde_json::Value;
use shuffle_audit::stats::confirm::confirmation_seed;

/// Writes `text` as a config in a fresh directory and returns both (the directory lives
/// as long as the handle).
fn config(text: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("suite.toml");
    std::fs::write(&path, text).unwrap();
    (dir, path)
}

/// A fair case that passes with a wide margin at its seed (adjusted p 0.24; a fair shuffle
/// reaches p < 1e-3 in about one seed in a thousand, and this seed is not one of them).
const FAIR_CASE: &str = r#"
[[case]]
algorithm = "fisher-yates"
n = 4
trials = 48000
seed = 3
expect = "fair"
"#;

/// Runs `check` on the suite at `path` with `args` and reads the JSON it writes.
fn json_of_check(path: &std::path::Path, args: &[&str]) -> Value {
    let mut check = shuffle_audit();
    check
        .arg("check")
        .arg("--config")
        .arg(path)
        .args(args)
        .args(["--json", "-"]);
    let output = check.assert().success();
    serde_json::from_slice(&output.get_output().stdout).expect("valid JSON on standard output")
}

fn check_with(path: &std::path::Path) -> assert_cmd::Command {
    let mut check = shuffle_audit();
    check.arg("check").arg("--config").arg(path).args(["-j", "2"]);
    check
}

#[test]
fn the_default_suite_passes_on_the_whole_catalogue() {
    // It takes under two seconds on 2 cores (release build).
    let output = command("check -j 2").assert().success();
    let stdout = String::from_utf8_lossy(&output.get_output().stdout).to_string();
    for line in [
        "naive-swap n=3",
        "fisher-yates n=5",
        "naive-repeated:2 n=4",
        "bag-pick-c n=6 k=3",
        "shuffle-bag-csharp items=A:50,B:25,C:20,D:5",
        "boggle-rounded items=boggle",
    ] {
        assert!(stdout.contains(line), "{line} missing from\n{stdout}");
    }
    assert!(stdout.contains("34 cases, 34 as expected, 0 not"), "{stdout}");
    assert!(!stdout.contains("NOT AS EXPECTED"), "{stdout}");

    // The suite's design, at its fixed seeds: biased cases fail by a wide margin
    // (measured: -log10 p >= 55, shuffle-bag-csharp the closest), fair ones pass far from
    // the suspicious band (measured: smallest adjusted p 0.20) and none needs confirming.
    let output = command("check -j 2 --json -").assert().success();
    let json: Value = serde_json::from_slice(&output.get_output().stdout).unwrap();
    for case in json["cases"].as_array().unwrap() {
        let log10_p = case["first"]["log10_p_adjusted_min"].as_f64().unwrap();
        assert!(case["confirmation"].is_null(), "{case}");
        match case["expected"].as_str().unwrap() {
            "biased" => assert!(log10_p <= -30.0, "{case}"),
            _ => assert!(log10_p >= -2.0, "{case}"),
        }
    }
}

#[test]
fn a_biased_algorithm_expected_fair_fails_the_gate_and_is_named() {
    // naive-swap at n = 3 needs 5,222 shuffles to fail (exact); 100,000 is 19 times that.
    let (_dir, path) = config(&format!(
        r#"{FAIR_CASE}
[[case]]
name = "our shuffle"
algorithm = "naive-swap"
n = 3
trials = 100000
seed = 1
expect = "fair"
"#
    ));
    check_with(&path)
        .assert()
        .code(1)
        .stdout(
            predicate::str::is_match(r"our shuffle\s+fair\s+fail\s+\d\.\de-\d{3}\s.* NOT AS EXPECTED")
                .unwrap(),
        )
        .stdout(predicate::str::contains("fisher-yates n=4"))
        // Under the case, the test that caught it, in words.
        .stdout(predicate::str::contains(
            "NOT AS EXPECTED\n  caught by permutations (adjusted p ",
        ))
        .stdout(predicate::str::contains(
            "check FAILED: not as expected: our shuffle",
        ));
}

#[test]
fn a_fair_algorithm_expected_biased_fails_the_gate() {
    // A fair shuffle never reaches p < 1e-6 at its seed (adjusted p well above 1e-3).
    let (_dir, path) = config(&FAIR_CASE.replace("\"fair\"", "\"biased\""));
    check_with(&path)
        .assert()
        .code(1)
        .stdout(predicate::str::is_match(r"fisher-yates n=4\s+biased\s+pass .* NOT AS EXPECTED").unwrap());
}

#[test]
fn generator_cases_run_streams() {
    // shuffle-bag-csharp fails at 1 M draws with p = 5e-56 in the default suite; 200 of
    // 10,000-draw streams double that. shuffle-bag passes.
    let (_dir, path) = config(
        r#"
[[case]]
generator = "shuffle-bag-csharp"
items = "A:50,B:25,C:20,D:5"
length = 10000
streams = 200
seed = 5
expect = "biased"

[[case]]
name = "the bag"
generator = "shuffle-bag"
items = "7"
length = 10000
streams = 50
seed = 5
expect = "fair"
"#,
    );
    let json = json_of_check(&path, &[]);
    let cases = json["cases"].as_array().unwrap();
    assert_eq!(cases[0]["name"], "shuffle-bag-csharp items=A:50,B:25,C:20,D:5");
    assert_eq!(cases[0]["kind"], "generator");
    assert_eq!(cases[0]["verdict"], "fail");
    assert_eq!(
        cases[0]["first"]["trials"], 200,
        "a generator's trials are its streams"
    );
    assert_eq!(cases[1]["name"], "the bag");
    assert_eq!(cases[1]["verdict"], "pass");
    assert_eq!(json["all_as_expected"], true);
}

#[test]
fn a_suspicious_result_is_re_run_with_an_independent_seed_and_four_times_the_trials() {
    // Found by searching seeds 0..8000 of this case (again when issue 33 batched the
    // draws): at seed 2629 the first run's smallest adjusted p is 4.9e-5, inside the
    // suspicious band (1e-6, 1e-3) by a factor of 20 on the high side and 49 on the low;
    // the re-run (9,600 shuffles) passes with p = 1.
    let (_dir, path) = config(
        r#"
[[case]]
name = "unlucky seed"
algorithm = "fisher-yates"
n = 4
trials = 2400
seed = 2629
expect = "fair"
# 9,600 deals are a little fewer than the 9,651 the permutation test needs to catch
# every bias of total variation 0.05: allowed, since this is about the confirmation.
allow_underpowered = true
"#,
    );
    let json = json_of_check(&path, &[]);
    let case = &json["cases"][0];
    assert_eq!(case["first"]["verdict"], "suspicious");
    assert_eq!(case["first"]["seed"], 2629);
    assert_eq!(case["first"]["trials"], 2400);
    assert_eq!(case["confirmation"]["seed"], confirmation_seed(2629));
    assert_eq!(case["confirmation"]["trials"], 9600);
    assert_eq!(case["confirmation"]["verdict"], "pass");
    assert_eq!(case["verdict"], "pass");
    assert_eq!(case["as_expected"], true);
    let first_p = case["first"]["p_adjusted_min"].as_f64().unwrap();
    assert!((1e-6..1e-3).contains(&first_p), "{first_p}");
    // The permutation test's raw p is reported for each run.
    let tests = case["first"]["tests"].as_array().unwrap();
    assert!(
        tests
            .iter()
            .any(|test| test["name"] == "permutations" && test["p_value"].is_f64())
    );

    check_with(&path)
        .assert()
        .success()
        .stdout(predicate::str::contains(format!(
            "suspicious (p=4.9e-5) → re-run with seed {}, 4x trials (9600): pass",
            confirmation_seed(2629)
        )));
}

#[test]
fn junit_xml_parses_and_counts_tests_failures_and_errors() {
    let (dir, path) = config(
        r#"
[[case]]
name = "fair <&> \"quoted\""
algorithm = "fisher-yates"
n = 4
trials = 48000
seed = 3
expect = "fair"

[[case]]
algorithm = "sattolo"
n = 4
trials = 20000
seed = 4
expect = "fair"

[[case]]
name = "broken program"
command = "exit 3"
expect = "fair"
"#,
    );
    let junit = dir.path().join("junit.xml");
    check_with(&path).arg("--junit").arg(&junit).assert().code(1);
    let xml = std::fs::read_to_string(&junit).unwrap();
    let document = roxmltree::Document::parse(&xml).expect("well-formed XML");
    let suite = document
        .descendants()
        .find(|node| node.has_tag_name("testsuite"))
        .unwrap();
    assert_eq!(suite.attribute("tests"), Some("3"));
    assert_eq!(suite.attribute("failures"), Some("1"));
    assert_eq!(suite.attribute("errors"), Some("1"));
    let cases: Vec<_> = suite
        .children()
        .filter(|node| node.has_tag_name("testcase"))
        .collect();
    assert_eq!(cases[0].attribute("name"), Some("fair <&> \"quoted\""));
    assert!(cases[0].children().all(|node| !node.has_tag_name("failure")));
    let failure = cases[1]
        .children()
        .find(|node| node.has_tag_name("failure"))
        .expect("sattolo expected fair fails");
    let message = failure.attribute("message").unwrap();
    assert!(message.starts_with("expected fair, got fail"), "{xml}");
    // Sattolo never leaves a card in place: the test that caught it says so.
    assert!(message.contains("): caught by "), "{message}");
    let error = cases[2]
        .children()
        .find(|node| node.has_tag_name("error"))
        .unwrap();
    assert!(
        error
            .attribute("message")
            .unwrap()
            .contains("exited with status 3")
    );
}

#[test]
fn config_errors_are_one_line_and_name_the_file_case_and_field() {
    let cases = [
        (
            "[[case]]\nalgorithm = \"fisher-yates\"\nn = 4\ntrails = 1000\nexpect = \"fair\"\n",
            "case 1 (fisher-yates): unknown field `trails`",
        ),
        (
            "[[case]]\nalgorithm = \"fisher-yates\"\nn = 4\nexpect = \"fair\"\n",
            "case 1 (fisher-yates): missing field 'trials'",
        ),
        (
            "[[case]]\nalgorithm = \"fisher-yates\"\nn = 4\ntrials = 10\nexpect = \"fair\"\n\
             [[case]]\nname = \"mine\"\nalgorithm = \"fisher-yates\"\nn = 4\ntrials = 10\nexpect = \"unfair\"\n",
            "case 2 (mine): field 'expect': unknown variant `unfair`, expected `fair` or `biased`",
        ),
        ("[[case]]\nalgorithm = \"fisher-yates\nn = 4\n", "line 2: "),
        (
            "[[case]]\nalgorithm = \"fisher-yates\"\nn = 1\ntrials = 10\nexpect = \"fair\"\n",
            "case 1 (fisher-yates): field 'n' must be at least 2",
        ),
        (
            "[[case]]\ngenerator = \"iid\"\nn = 3\nexpect = \"fair\"\n",
            "case 1 (iid): field 'n' does not apply to generator cases",
        ),
        (
            "[[case]]\nalgorithm = \"fisher-yate\"\nn = 4\ntrials = 10\nexpect = \"fair\"\n",
            "case 1 (fisher-yate): field 'algorithm': unknown algorithm 'fisher-yate'",
        ),
        (
            "[[case]]\ncommand = \"prog --count {trials}\"\nexpect = \"fair\"\n",
            "has a {trials} placeholder but no field 'trials'",
        ),
        ("alpha = 0.1\n", "unknown top-level key 'alpha'"),
        ("", "no [[case]] to run"),
    ];
    for (text, wanted) in cases {
        let (_dir, path) = config(text);
        let output = check_with(&path).assert().code(2);
        let stderr = String::from_utf8_lossy(&output.get_output().stderr).to_string();
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.starts_with("shuffle-audit: error: "), "{stderr}");
        assert!(stderr.contains("suite.toml: "), "{stderr}");
        assert!(stderr.contains(wanted), "wanted '{wanted}' in {stderr}");
        assert!(output.get_output().stdout.is_empty());
    }
}

#[test]
fn a_missing_program_stops_check_with_a_one_line_error() {
    let (_dir, path) = config(
        r#"
[[case]]
name = "ours"
command = ["/nonexistent/shuffler", "--seed", "{seed}"]
expect = "fair"
"#,
    );
    check_with(&path).assert().code(2).stderr(
        "shuffle-audit: error: case 'ours': cannot start '/nonexistent/shuffler': program not found\n",
    );
}

#[test]
fn a_program_exiting_with_an_error_makes_its_case_an_error() {
    // Its standard error passes through; the case is an error, the others still run.
    let (_dir, path) = config(&format!(
        r#"
[[case]]
name = "crashing shuffler"
command = "echo 'shuffler: out of cards' >&2; exit 3"
expect = "fair"
{FAIR_CASE}"#
    ));
    check_with(&path)
        .assert()
        .code(1)
        .stderr(predicate::str::contains("shuffler: out of cards"))
        .stdout(predicate::str::is_match(r"crashing shuffler\s+fair\s+error .* NOT AS EXPECTED").unwrap())
        .stdout(predicate::str::contains(
            "case 'crashing shuffler': the command exited with status 3",
        ))
        .stdout(predicate::str::is_match(r"fisher-yates n=4\s+fair\s+pass .* ok").unwrap());
}

#[test]
fn the_verdicts_do_not_depend_on_the_thread_count() {
    let (_dir, path) = config(
        r#"
[[case]]
algorithm = "naive-swap"
n = 4
trials = 100000
seed = 9
expect = "biased"
"#,
    );
    let p_of = |threads: &str| json_of_check(&path, &["-j", threads])["cases"][0]["first"]["tests"].clone();
    assert_eq!(p_of("1"), p_of("2"));
}

/// A naive swap of 3 cards written in awk: an outside program whose output `check` reads
/// with `ingest`. `{seed}` and `{trials}` let a confirmation ask it for fresh samples.
const AWK_NAIVE_SWAP: &str = "awk -v seed={seed} -v t={trials} 'BEGIN { srand(seed); \
    for (s = 0; s < t; s++) { for (i = 0; i < 3; i++) a[i] = i; \
    for (i = 0; i < 3; i++) { j = int(rand() * 3); x = a[i]; a[i] = a[j]; a[j] = x } \
    print a[0], a[1], a[2] } }'";

/// Durstenfeld's Fisher-Yates of 4 cards in awk, given as a program and its arguments
/// (no shell), printing comma-separated lines.
const AWK_FISHER_YATES: &str = r#"["awk", "-v", "seed={seed}", "-v", "t={trials}", "BEGIN { srand(seed); for (s = 0; s < t; s++) { for (i = 0; i < 4; i++) a[i] = i; for (i = 3; i > 0; i--) { j = int(rand() * (i + 1)); x = a[i]; a[i] = a[j]; a[j] = x } print a[0] \",\" a[1] \",\" a[2] \",\" a[3] } }"]"#;

#[test]
fn a_biased_external_command_fails_the_gate_and_a_fair_one_passes() {
    // 100,000 naive swaps of 3 cards: the exact law (4/27 against 5/27) needs 5,222 shuffles
    // to be caught at alpha 1e-6 with 99 % power, so 100,000 fail by hundreds of decades
    // (p below 1e-250 with every awk tried). The awk Fisher-Yates' p depends on the awk's
    // own rand() (mawk and gawk differ), so no single seed's p can be quoted; a fair
    // program fails this gate only when two independent seeds both land below 1e-3 (the
    // confirmation), about one run in a million.
    let (_dir, path) = config(&format!(
        r#"
[[case]]
name = "awk naive swap, claimed fair"
command = "{naive}"
trials = 100000
expect = "fair"

[[case]]
name = "awk naive swap, known biased"
command = "{naive}"
trials = 100000
expect = "biased"

[[case]]
name = "awk fisher-yates"
command = {fisher_yates}
trials = 100000
expect = "fair"
"#,
        naive = AWK_NAIVE_SWAP.replace('\\', "\\\\").replace('"', "\\\""),
        fisher_yates = AWK_FISHER_YATES,
    ));
    let output = check_with(&path).arg("--json").arg("-").assert().code(1);
    let json: Value = serde_json::from_slice(&output.get_output().stdout).unwrap();
    let cases = json["cases"].as_array().unwrap();
    assert_eq!(cases.len(), 3);
    assert_eq!(cases[0]["verdict"], "fail");
    assert_eq!(cases[0]["as_expected"], false);
    assert!(cases[0]["first"]["p_adjusted_min"].as_f64().unwrap() < 1e-100);
    // The samples the program actually printed, beside the trials it was asked for.
    assert_eq!(cases[0]["first"]["trials"], 100_000);
    assert_eq!(cases[0]["first"]["samples_read"], 100_000);
    assert_eq!(cases[1]["verdict"], "fail");
    assert_eq!(cases[1]["as_expected"], true);
    assert_eq!(cases[2]["verdict"], "pass");
    assert_eq!(cases[2]["as_expected"], true);
    assert_eq!(json["all_as_expected"], false);

    check_with(&path)
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "check FAILED: not as expected: awk naive swap, claimed fair",
        ));
}

#[test]
fn a_program_whose_output_is_malformed_makes_its_case_an_error() {
    let (_dir, path) = config(
        r#"
[[case]]
name = "short line"
command = "echo 'A B C'; echo 'A B'"
expect = "fair"
"#,
    );
    check_with(&path)
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "case 'short line': the output of echo 'A B C'; echo 'A B': line 2: expected 3 items, found 2",
        ));
}

#[test]
fn without_a_seed_placeholder_a_suspicious_result_cannot_be_confirmed() {
    // The very shuffles of the suspicious catalogue case above (fisher-yates, 4 cards,
    // 2,400 shuffles, seed 2629: one chunk, drawn from the chunk stream (2629, 0)),
    // written to a file by "another program" and read with the same card names (`deck`,
    // as `run` numbers them: the fixed-point, cycle and rising-sequence tests depend on
    // the names). `ingest` tallies them exactly as `run` did, and tests their order too
    // (serial tests, which pass): the same smallest raw p, the positions', in a Holm
    // family of 11 tests instead of 6 (the guessing test in both), so its adjusted p is
    // 11/6 of run's 4.9e-5, still
    // suspicious; `cat FILE` has no `{seed}`, so a re-run would read the same samples: the
    // result stays suspicious.
    use shuffle_audit::SimulationSource;
    use shuffle_audit::catalogue::{AlgorithmSpec, Workspace};
    let fisher_yates = AlgorithmSpec::parse("fisher-yates")
        .unwrap()
        .algorithm
        .as_permutation()
        .unwrap();
    let mut rng = SimulationSource::for_chunk(2629, 0);
    let mut workspace = Workspace::default();
    let mut lines = String::new();
    for _ in 0..2400 {
        let mut deck: Vec<usize> = (0..4).collect();
        fisher_yates.shuffle(&mut deck, &mut rng, &mut workspace);
        let words: Vec<String> = deck.iter().map(|card| card.to_string()).collect();
        lines.push_str(&words.join(" "));
        lines.push('\n');
    }
    let (dir, path) = config("");
    let samples = dir.path().join("samples.txt");
    std::fs::write(&samples, lines).unwrap();
    std::fs::write(
        &path,
        format!(
            "[[case]]\nname = \"recorded samples\"\ncommand = [\"cat\", {:?}]\ndeck = \"0 1 2 3\"\nexpect = \"fair\"\n",
            samples.to_str().unwrap()
        ),
    )
    .unwrap();
    let output = check_with(&path).arg("--json").arg("-").assert().code(1);
    let json: Value = serde_json::from_slice(&output.get_output().stdout).unwrap();
    let case = &json["cases"][0];
    assert_eq!(case["first"]["verdict"], "suspicious");
    let p = case["first"]["p_adjusted_min"].as_f64().unwrap();
    assert!((8.8e-5..9.2e-5).contains(&p), "11/6 of the p `run` gets: {p}");
    assert!(case["confirmation"].is_null());
    assert_eq!(case["verdict"], "suspicious");
    assert!(
        case["unconfirmed_because"]
            .as_str()
            .is_some_and(|why| why.contains("{seed}")),
        "{case}"
    );
}

#[test]
fn a_command_whose_output_is_a_stream_is_audited_as_ingest_kind_stream_audits_it() {
    // Streams dealt by catalogue generators from fixed seeds, written to files that `cat`
    // prints. A bag of one of each of 4 items never runs longer than 2 draws, where
    // independent draws do once in 16 runs: over 100,000 draws the run-length χ² is about
    // 17,700 on 7 df (α = 1e-6 needs about 40). The i.i.d. stream's tests pass at seed 5
    // (it is the fair stream `ingest_stream_cli` passes too), and a pass is required only
    // of the verdict after any confirmation.
    use shuffle_audit::SimulationSource;
    use shuffle_audit::catalogue::generators::{GeneratorSpec, StreamScenario};
    use shuffle_audit::stream::items::Items;
    let dealt = |generator: &str, count: u64, seed: u64| {
        let items = Items::parse("4").unwrap();
        let mut generator = GeneratorSpec::parse(generator)
            .unwrap()
            .build(&items, &StreamScenario { add_every: None });
        let mut source = SimulationSource::from_seed(seed);
        let mut text = String::new();
        generator.draw_each(&mut source, count, &mut |item| {
            text.push_str(&items.names[usize::from(item)]);
            text.push('\n');
        });
        text
    };
    let (dir, path) = config("");
    let bag = dir.path().join("bag.txt");
    let iid = dir.path().join("iid.txt");
    std::fs::write(&bag, dealt("shuffle-bag", 100_000, 4)).unwrap();
    std::fs::write(&iid, dealt("iid", 100_000, 5)).unwrap();
    std::fs::write(
        &path,
        format!(
            "[[case]]\nname = \"bag claimed independent\"\ncommand = [\"cat\", {bag:?}]\nkind = \"stream\"\n\
             deck = \"1 2 3 4\"\nexpect = \"fair\"\n\n\
             [[case]]\nname = \"independent draws\"\ncommand = [\"cat\", {iid:?}]\nkind = \"stream\"\n\
             weights = \"4\"\nexpect = \"fair\"\n",
        ),
    )
    .unwrap();
    let output = check_with(&path).arg("--json").arg("-").assert().code(1);
    let json: Value = serde_json::from_slice(&output.get_output().stdout).unwrap();
    let cases = json["cases"].as_array().unwrap();
    assert_eq!(cases[0]["verdict"], "fail");
    let runs = cases[0]["first"]["tests"]
        .as_array()
        .unwrap()
        .iter()
        .find(|test| test["name"] == "run-lengths")
        .expect("the run-length test ran");
    assert!(runs["p_adjusted"].as_f64().unwrap() < 1e-100, "{runs}");
    assert_eq!(cases[1]["verdict"], "pass");
    assert_eq!(cases[1]["as_expected"], true);
}

#[test]
fn ingest_options_of_a_command_case_are_checked_when_the_config_is_read() {
    // `k` belongs to selections: refused before any case runs, naming file, case and field.
    let (_dir, path) = config(
        r#"
[[case]]
name = "dealer"
command = "echo A B C"
k = 2
expect = "fair"
"#,
    );
    let output = check_with(&path).assert().code(2);
    let stderr = String::from_utf8(output.get_output().stderr.clone()).unwrap();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("suite.toml: case 1 (dealer): field 'k'"),
        "{stderr}"
    );
    // And the suite file is never an output.
    let (_dir, path) = config(FAIR_CASE);
    check_with(&path)
        .arg("--junit")
        .arg(&path)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("which is also an input"));
}

#[test]
fn a_program_that_runs_past_its_timeout_is_killed_and_its_case_is_an_error() {
    // One never prints, one never stops printing, and one leaves a background child
    // holding the pipe open: each is killed with its process group after its 1 s.
    let (dir, path) = config(
        r#"
[[case]]
name = "silent"
command = "sleep 60"
timeout = 1
expect = "fair"

[[case]]
name = "endless"
command = "yes 'A B C'"
timeout = 1
expect = "fair"

[[case]]
name = "orphan"
command = "echo 'A B C'; sleep 60 &"
timeout = 1
expect = "fair"
"#,
    );
    let junit = dir.path().join("junit.xml");
    let started = std::time::Instant::now();
    let output = check_with(&path).arg("--junit").arg(&junit).assert().code(1);
    assert!(
        started.elapsed().as_secs() < 50,
        "the programs were killed, not waited for"
    );
    let stdout = String::from_utf8_lossy(&output.get_output().stdout).to_string();
    for name in ["silent", "endless", "orphan"] {
        assert!(
            stdout.contains(&format!(
                "case '{name}': the command did not finish within 1 s (its `timeout`) and was killed"
            )),
            "{name}: {stdout}"
        );
    }
    let xml = std::fs::read_to_string(&junit).unwrap();
    let document = roxmltree::Document::parse(&xml).unwrap();
    assert_eq!(document.root_element().attribute("tests"), Some("3"));
}

#[test]
fn names_cannot_rewrite_the_terminal() {
    // An escape sequence in a name would recolour or move the CI log's cursor.
    let (_dir, path) = config(
        "[[case]]\nname = \"evil\\u001b[31m red\"\nalgorithm = \"fisher-yates\"\nn = 4\ntrials = 48000\nexpect = \"fair\"\n",
    );
    let output = check_with(&path).assert().code(2);
    let stderr = String::from_utf8(output.get_output().stderr.clone()).unwrap();
    assert!(!stderr.contains('\u{1b}'), "{stderr:?}");
    assert!(
        stderr.contains("case 1 (evil\\u{1b}[31m red): field 'name' holds the control"),
        "{stderr}"
    );
    // A command's own lines become its name with the newline written out.
    let (_dir, path) =
        config("[[case]]\ncommand = \"\"\"\necho A B C\necho B A C\"\"\"\nexpect = \"fair\"\n");
    let output = check_with(&path).assert().code(1);
    let stdout = String::from_utf8(output.get_output().stdout.clone()).unwrap();
    assert!(stdout.contains("echo A B C\\u{a}echo B A C"), "{stdout}");
}

/// Two items of weight 12,000: a draw is `below(24000)`. C's `rand() % 24000` gives
/// 0..8767 two of its 32,768 values each and the rest one, so A (0..11999) comes up
/// 20,768 times in 32,768 (0.634) instead of half the time.
const TWO_ITEMS_OF_24000: &str = "A:12000,B:12000";

#[test]
fn a_case_under_a_flawed_source_expected_biased_passes_the_gate() {
    // Margins. rand() % 24000: 200,000 draws put A at 0.634, against 0.5, a frequency χ²
    // of about 14,000 on 1 df (p < 1e-300); the same draws from xoshiro pass at this seed
    // with smallest adjusted p 1.0. Fisher-Yates on 3 cards re-seeded from a clock that
    // advances 1 µs per shuffle: 5,000 shuffles read 5 clock values, so at most 5 of the 6
    // orders come out, each a multiple of 1,000 times; the smallest χ² that allows (five
    // orders at 1,000, one at 0, against 833.3 each) is 1,000 on 5 df, p < 1e-200, whatever
    // the seed.
    let (_dir, path) = config(&format!(
        r#"
[[case]]
name = "rand() % 24000"
generator = "iid"
items = "{TWO_ITEMS_OF_24000}"
length = 10000
streams = 20
source = "msvc-rand-mod"
expect = "biased"

[[case]]
name = "xoshiro below(24000)"
generator = "iid"
items = "{TWO_ITEMS_OF_24000}"
length = 10000
streams = 20
expect = "fair"

[[case]]
name = "Randomize in the loop"
algorithm = "fisher-yates"
n = 3
trials = 5000
seed = 8
source = "clock-reseed"
expect = "biased"
"#
    ));
    let output = check_with(&path).assert().success();
    let stdout = String::from_utf8_lossy(&output.get_output().stdout).to_string();
    // No suite-wide source: each case's own is said under its line.
    assert!(stdout.starts_with("case "), "{stdout}");
    assert!(
        predicate::str::is_match(
            r"rand\(\) % 24000\s+biased\s+fail\s+< 1e-300 .* ok\n  source: msvc-rand-mod\n"
        )
        .unwrap()
        .eval(&stdout),
        "{stdout}"
    );
    assert!(
        predicate::str::is_match(r"xoshiro below\(24000\)\s+fair\s+pass .* ok\nRandomize")
            .unwrap()
            .eval(&stdout),
        "{stdout}"
    );
    assert!(
        stdout.contains("  source: clock-reseed (clock step 0.001 ms)\n"),
        "{stdout}"
    );

    let json = json_of_check(&path, &["-j", "2"]);
    assert_eq!(json["source"]["name"], "xoshiro");
    let cases = json["cases"].as_array().unwrap();
    let names: Vec<&str> = cases
        .iter()
        .map(|case| case["source"]["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["msvc-rand-mod", "xoshiro", "clock-reseed"]);
    assert_eq!(cases[2]["source"]["clock_step_ms"], 0.001);
    assert!(
        cases[0]["source"]["definition"]
            .as_str()
            .unwrap()
            .contains("rand() % n")
    );
    let verdicts: Vec<&str> = cases
        .iter()
        .map(|case| case["verdict"].as_str().unwrap())
        .collect();
    assert_eq!(verdicts, ["fail", "pass", "fail"]);
    assert_eq!(json["all_as_expected"], true);
}

#[test]
fn check_source_puts_a_flawed_source_under_every_case_that_names_none() {
    // fisher-yates on 4 cards, 20,000 shuffles: from xoshiro it passes at this seed
    // (smallest adjusted p 1.0). Under clock-reseed (1 µs per shuffle) they read 20 clock
    // values, so at least 4 of the 24 orders never come out, each expected 833.3 times:
    // χ² >= 4,000 on 23 df whatever the seed. The command prints all 6 orders of 3 cards
    // in turn, 100 times over: χ² = 0 (too even to be random) and each deal follows from
    // the one before, so it is caught as biased under any --source, which does not reach
    // it.
    let (dir, path) = config(
        r#"
[[case]]
algorithm = "fisher-yates"
n = 4
trials = 20000
seed = 1
expect = "fair"

[[case]]
name = "rand() % 24000"
generator = "iid"
items = "A:12000,B:12000"
length = 10000
streams = 20
source = "msvc-rand-mod"
expect = "biased"

[[case]]
name = "every order 100 times"
command = "for i in $(seq 100); do printf '1 2 3\n1 3 2\n2 1 3\n2 3 1\n3 1 2\n3 2 1\n'; done"
expect = "biased"
"#,
    );
    check_with(&path).assert().success();

    let junit = dir.path().join("junit.xml");
    let output = check_with(&path)
        .args(["--source", "clock-reseed", "--junit"])
        .arg(&junit)
        .assert()
        .code(1);
    let stdout = String::from_utf8_lossy(&output.get_output().stdout).to_string();
    assert!(
        stdout.starts_with(
            "source: clock-reseed (clock step 0.001 ms), under every algorithm and generator case \
             that names none of its own; command cases bring their own randomness\n"
        ),
        "{stdout}"
    );
    assert!(
        predicate::str::is_match(r"fisher-yates n=4\s+fair\s+fail\s+< 1e-300 .* NOT AS EXPECTED\n")
            .unwrap()
            .eval(&stdout),
        "{stdout}"
    );
    // The case with its own source keeps it, and says so as it differs from the suite's.
    assert!(
        stdout.contains("biased    fail           < 1e-300") && stdout.contains("  source: msvc-rand-mod\n"),
        "{stdout}"
    );
    assert!(
        predicate::str::is_match(r"every order 100 times\s+biased\s+fail .* ok\n")
            .unwrap()
            .eval(&stdout),
        "{stdout}"
    );
    assert!(
        stdout.ends_with("check FAILED: not as expected: fisher-yates n=4\n"),
        "{stdout}"
    );

    let xml = std::fs::read_to_string(&junit).unwrap();
    let document = roxmltree::Document::parse(&xml).expect("well-formed XML");
    let cases: Vec<_> = document
        .descendants()
        .filter(|node| node.has_tag_name("testcase"))
        .collect();
    let failure = cases[0]
        .children()
        .find(|node| node.has_tag_name("failure"))
        .unwrap();
    let message = failure.attribute("message").unwrap();
    assert!(
        message.starts_with(
            "expected fair, got fail (p=< 1e-300) under source clock-reseed (clock step 0.001 ms)"
        ),
        "{message}"
    );
    assert!(
        failure
            .text()
            .unwrap()
            .starts_with("source: clock-reseed (clock step 0.001 ms): Delphi's Random")
    );
    let body = |case: &roxmltree::Node| {
        case.children()
            .find(|node| node.has_tag_name("system-out"))
            .and_then(|node| node.text())
            .unwrap()
            .to_string()
    };
    assert!(body(&cases[1]).starts_with("source: msvc-rand-mod: the C library's rand()"));
    assert!(
        body(&cases[2]).starts_with(
            "source: the program's own (--source clock-reseed applies to algorithm and generator cases only)\n"
        ),
        "{}",
        body(&cases[2])
    );

    let output = check_with(&path)
        .args(["--source", "clock-reseed", "--json", "-"])
        .assert()
        .code(1);
    let json: Value = serde_json::from_slice(&output.get_output().stdout).unwrap();
    assert_eq!(json["source"]["name"], "clock-reseed");
    assert_eq!(json["cases"][0]["source"]["name"], "clock-reseed");
    assert_eq!(json["cases"][1]["source"]["name"], "msvc-rand-mod");
    assert!(json["cases"][2]["source"].is_null(), "a command brings its own");
    // Every shuffle of a 1,000-shuffle block is the same deal: no order is seen a number
    // of times that is not a multiple of 1,000. (Read from the run's own JSON.)
    let run = binary::json_of("run fisher-yates --n 4 --trials 20000 --seed 1 --source clock-reseed");
    for order in run["results"][0]["permutations"].as_array().unwrap() {
        assert_eq!(order["count"].as_u64().unwrap() % 1000, 0, "{order}");
    }
}

#[test]
fn a_suspicious_result_under_a_flawed_source_is_confirmed_under_the_same_source() {
    // Found by running seeds 1..4000 of this case: at seed 2797 the first run's smallest
    // adjusted p is 1.6e-5, inside the suspicious band (1e-6, 1e-3) by a factor of 16 on
    // the low side and 64 on the high. The confirmation must be the run of the same
    // source with the confirmation seed and 4x the trials: its p-values are compared
    // with that run's, and with the xoshiro run's, which differ.
    let (_dir, path) = config(
        r#"
[[case]]
algorithm = "fisher-yates"
n = 4
trials = 2400
seed = 2797
source = "delphi"
expect = "fair"
allow_underpowered = true # as above: about the confirmation
"#,
    );
    let json = json_of_check(&path, &[]);
    let case = &json["cases"][0];
    assert_eq!(case["first"]["verdict"], "suspicious");
    let confirmation = &case["confirmation"];
    assert_eq!(confirmation["seed"], confirmation_seed(2797));
    assert_eq!(confirmation["trials"], 9600);
    let p_values = |tests: &Value| -> Vec<f64> {
        tests
            .as_array()
            .unwrap()
            .iter()
            // Tests that could not run (the serial row of a run from xoshiro) have none.
            .filter_map(|test| test["p_value"].as_f64())
            .collect()
    };
    let rerun = |source: &str| {
        binary::json_of(&format!(
            "run fisher-yates --n 4 --trials 9600 --seed {} --source {source}",
            confirmation_seed(2797)
        ))
    };
    let confirmed = p_values(&confirmation["tests"]);
    assert_eq!(confirmed, p_values(&rerun("delphi")["results"][0]["tests"]));
    assert_ne!(confirmed, p_values(&rerun("xoshiro")["results"][0]["tests"]));
}

#[test]
fn bad_sources_on_the_command_line_or_in_a_config_are_one_line_errors() {
    let (_dir, path) = config(FAIR_CASE);
    for (args, wanted) in [
        (
            &["--source", "rand"][..],
            "shuffle-audit: error: --source unknown source 'rand' (the sources are xoshiro, msvc-rand-mod, \
             delphi, clock-reseed)\n",
        ),
        (
            &["--clock-step", "1"],
            "shuffle-audit: error: --clock-step only applies to --source clock-reseed (the source is xoshiro)\n",
        ),
        (
            &["--source", "clock-reseed", "--clock-step", "0"],
            "shuffle-audit: error: invalid value '0' for '--clock-step <MS>': must be between 0.001 and \
             86400000 ms (got 0 µs) (see --help)\n",
        ),
    ] {
        check_with(&path)
            .args(args)
            .assert()
            .code(2)
            .stdout("")
            .stderr(wanted);
    }
    let (_dir, path) = config(&FAIR_CASE.replace("expect", "source = \"msvc-rand\"\nexpect"));
    let output = check_with(&path).assert().code(2);
    let stderr = String::from_utf8_lossy(&output.get_output().stderr).to_string();
    assert!(
        stderr.ends_with("suite.toml: case 1 (fisher-yates): field 'source': unknown source 'msvc-rand' (the sources are xoshiro, msvc-rand-mod, delphi, clock-reseed)\n"),
        "{stderr}"
    );
    assert_eq!(stderr.lines().count(), 1);
}

#[test]
fn a_pass_on_too_few_samples_is_inconclusive_unless_allowed() {
    // 700 deals of 5 cards: the permutation test needs about 16,000 to catch every bias of
    // total variation 0.05 with 99 % power. Sattolo's shuffle is caught on as few (its
    // single cycles are far from uniform: exact, 31 deals needed at n = 4), and a fail
    // stands on any count.
    let suite = r#"
[[case]]
name = "few deals"
algorithm = "fisher-yates"
n = 5
trials = 700
expect = "fair"
[[case]]
name = "few but caught"
algorithm = "sattolo"
n = 4
trials = 700
expect = "biased"
"#;
    let (dir, path) = config(suite);
    let output = check_with(&path).assert().code(1);
    let stdout = String::from_utf8_lossy(&output.get_output().stdout).to_string();
    assert!(
        predicate::str::is_match(r"few deals\s+fair\s+inconclusive .* NOT AS EXPECTED")
            .unwrap()
            .eval(&stdout),
        "{stdout}"
    );
    assert!(
        stdout.contains(
            "NOT AS EXPECTED\n  underpowered: 700 samples, but its permutations test needs 16,109 to catch a \
             total variation of 0.05 with 99 % power: inconclusive (give it more trials, or allow it with \
             --allow-underpowered)\n"
        ),
        "{stdout}"
    );
    assert_eq!(stdout.matches("underpowered:").count(), 1, "{stdout}");
    assert!(
        stdout.contains("check FAILED: not as expected: few deals\n"),
        "{stdout}"
    );

    // JSON and JUnit carry the same verdict and why.
    let junit = dir.path().join("junit.xml");
    let output = check_with(&path)
        .args(["--json", "-", "--junit"])
        .arg(&junit)
        .assert()
        .code(1);
    let json: Value = serde_json::from_slice(&output.get_output().stdout).unwrap();
    binary::assert_valid(&json);
    let few = &json["cases"][0];
    assert_eq!(few["verdict"], "inconclusive");
    assert_eq!(few["first"]["verdict"], "pass", "the analysis' own verdict stays");
    assert_eq!(
        (
            few["underpowered"].as_bool(),
            few["underpowered_allowed"].as_bool()
        ),
        (Some(true), Some(false))
    );
    assert_eq!(
        few["power"],
        serde_json::json!({"test": "permutations", "samples": 700, "samples_needed": 16109,
                           "total_variation": 0.05, "power": 0.99})
    );
    let caught = &json["cases"][1];
    assert_eq!(
        (caught["verdict"].as_str(), caught["underpowered"].as_bool()),
        (Some("fail"), Some(false))
    );
    // On standard error, since the export has standard output, one warning per case.
    let stderr = String::from_utf8_lossy(&output.get_output().stderr).to_string();
    assert!(
        stderr.starts_with("shuffle-audit: warning: case 'few deals': underpowered: 700 samples"),
        "{stderr}"
    );
    assert_eq!(stderr.matches("warning").count(), 1, "{stderr}");
    let junit = std::fs::read_to_string(junit).unwrap();
    assert!(
        junit.contains("expected fair, got inconclusive") && junit.contains("underpowered: 700 samples"),
        "{junit}"
    );

    // Allowed for the suite, or for the case: the pass stands, and is still named.
    let output = check_with(&path).arg("--allow-underpowered").assert().success();
    let stdout = String::from_utf8_lossy(&output.get_output().stdout).to_string();
    assert!(
        stdout.contains("fair      pass") && stdout.contains("power: the pass stands (allowed)\n"),
        "{stdout}"
    );
    let (_dir, path) = config(&suite.replace(
        "trials = 700\nexpect = \"fair\"",
        "trials = 700\nexpect = \"fair\"\nallow_underpowered = true",
    ));
    let json = json_of_check(&path, &[]);
    assert_eq!(json["cases"][0]["verdict"], "pass");
    assert_eq!(json["cases"][0]["underpowered_allowed"], true);
    assert_eq!(json["all_as_expected"], true);
}

#[test]
fn every_p_value_in_checks_json_and_junit_says_how_it_was_computed() {
    // 150 deals of 4 cards: about 6 per order, where the χ² law's tails are off and the
    // exact law of the counts is read instead (issue 40). Underpowered, so inconclusive.
    let (dir, path) = config(
        r#"
[[case]]
algorithm = "fisher-yates"
n = 4
trials = 150
seed = 3
expect = "fair"
"#,
    );
    let junit = dir.path().join("junit.xml");
    let output = check_with(&path)
        .arg("--junit")
        .arg(&junit)
        .args(["--json", "-"])
        .assert()
        .code(1);
    let json: Value = serde_json::from_slice(&output.get_output().stdout).unwrap();
    let tests = json["cases"][0]["first"]["tests"].as_array().unwrap();
    let method_of = |name: &str| {
        tests
            .iter()
            .find(|test| test["name"] == name)
            .unwrap_or_else(|| panic!("no {name} in {tests:?}"))["p_method"]
            .clone()
    };
    assert_eq!(method_of("permutations"), "exact");
    assert_eq!(method_of("fixed-points"), "exact");
    assert_eq!(method_of("positions"), "chi-square");
    for test in tests {
        assert_eq!(test["p_value"].is_null(), test["p_method"].is_null(), "{test}");
    }
    let xml = std::fs::read_to_string(&junit).unwrap();
    assert!(
        xml.contains("; fixed-points p=") && xml.contains(" exact (adjusted "),
        "{xml}"
    );
}
