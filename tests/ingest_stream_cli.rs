//! `shuffle-audit ingest --kind stream` run as users run it: streams written by "another
//! program" (the catalogue's own generators, driven by the library with a fixed seed),
//! read from files and standard input, with their verdicts, exit codes and one-line
//! errors.
//!
//! Why these cannot flake: every stream comes from a fixed seed, so its tallies and
//! verdicts are the same on every run. A fair stream passes unless a Holm-adjusted p-value
//! falls below 1e-3, which the calibrated tests allow for under one seed in a thousand
//! (and these seeds are the first tried); the biased streams fail by χ² statistics tens of
//! thousands past what α = 1e-6 needs (quoted beside each case), which no seed could close.

mod binary;

use std::collections::BTreeMap;

use binary::{shuffle_audit, usage_error_of, write_file as write};
use serde_json::Value;
use shuffle_audit::SimulationSource;
use shuffle_audit::catalogue::generators::{GeneratorSpec, StreamScenario};
use shuffle_audit::stream::items::Items;

const WEIGHTS: &str = "A:50,B:25,C:20,D:5";

/// `count` items dealt by the catalogue generator `generator` on `items`, from `seed`,
/// by their names.
fn dealt(generator: &str, items: &str, count: u64, seed: u64) -> Vec<String> {
    let items = Items::parse(items).unwrap();
    let mut generator = GeneratorSpec::parse(generator)
        .unwrap()
        .build(&items, &StreamScenario { add_every: None });
    let mut source = SimulationSource::from_seed(seed);
    let mut names = Vec::with_capacity(count as usize);
    generator.draw_each(&mut source, count, &mut |item| {
        names.push(items.names[usize::from(item)].clone())
    });
    names
}

/// The items as lines of `per_line` items, separated as `separator` says.
fn lines_of(items: &[String], per_line: usize, separator: &str) -> String {
    let mut out = String::new();
    for line in items.chunks(per_line) {
        out.push_str(&line.join(separator));
        out.push('\n');
    }
    out
}

/// `ingest --kind stream ARGS... --json -` on standard input: its JSON, exit status and
/// standard error.
fn ingest_stream(input: impl Into<Vec<u8>>, args: &[&str]) -> (Value, i32, String) {
    let output = shuffle_audit()
        .args(["ingest", "--kind", "stream"])
        .args(args)
        .args(["--json", "-"])
        .write_stdin(input.into())
        .output()
        .unwrap();
    let stderr = String::from_utf8(output.stderr).unwrap();
    let json = serde_json::from_slice(&output.stdout).unwrap_or_else(|_| panic!("no JSON; stderr: {stderr}"));
    (json, output.status.code().unwrap(), stderr)
}

/// The one-line error of `ingest --kind stream ARGS` on `input`, after checking status 2.
fn error_of(input: &str, args: &[&str]) -> String {
    let mut ingest = shuffle_audit();
    ingest
        .args(["ingest", "--kind", "stream"])
        .args(args)
        .write_stdin(input);
    usage_error_of(ingest)
}

/// The tallies of a stream's JSON result, without timings and thread counts.
fn tallies(json: &Value) -> Value {
    let result = &json["results"][0];
    serde_json::json!([
        json["length"],
        result["frequencies"],
        result["run_lengths"],
        result["gaps"],
        result["windows"],
        result["tests"],
        result["verdict"],
    ])
}

fn test_statistic(json: &Value, test: &str) -> f64 {
    let tests = json["results"][0]["tests"].as_array().unwrap();
    let found = tests.iter().find(|t| t["name"] == test).unwrap();
    found["statistic"]
        .as_f64()
        .unwrap_or_else(|| panic!("{test} did not run: {found}"))
}

#[test]
fn a_fair_stream_passes_and_its_tallies_are_a_direct_count_across_blocks() {
    // 3,000,000 i.i.d. draws one per line ("A\n"): 6 MB, more than one 4 MiB block, so
    // runs and gaps cross block edges and any slip in stitching them would show against
    // the direct count below.
    let draws = dealt("iid", WEIGHTS, 3_000_000, 1);
    let dir = tempfile::tempdir().unwrap();
    let file = write(dir.path(), "stream.txt", lines_of(&draws, 1, " "));
    assert!(std::fs::metadata(&file).unwrap().len() > 4 << 20);
    let run = |threads: &str| {
        let output = shuffle_audit()
            .args(["ingest", &file, "--kind", "stream", "--weights", WEIGHTS])
            .args(["-j", threads, "--json", "-"])
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(0), "{output:?}");
        serde_json::from_slice::<Value>(&output.stdout).unwrap()
    };
    let json = run("2");
    assert_eq!(
        json["results"][0]["verdict"], "pass",
        "{}",
        json["results"][0]["tests"]
    );
    assert_eq!(json["command"], "ingest");
    assert!(json.get("seed").is_none(), "no seed made this stream");

    let mut frequencies = BTreeMap::new();
    let mut runs: BTreeMap<u64, u64> = BTreeMap::new();
    let mut longest_gap: BTreeMap<&str, u64> = BTreeMap::new();
    let mut last_seen: BTreeMap<&str, usize> = BTreeMap::new();
    let mut current_run = 0;
    for (index, item) in draws.iter().enumerate() {
        *frequencies.entry(item.as_str()).or_insert(0u64) += 1;
        if index > 0 && draws[index - 1] != *item {
            *runs.entry(current_run).or_insert(0) += 1;
            current_run = 0;
        }
        current_run += 1;
        if let Some(last) = last_seen.insert(item, index) {
            let gap = longest_gap.entry(item).or_insert(0);
            *gap = (*gap).max((index - last) as u64);
        }
    }
    let result = &json["results"][0];
    for frequency in result["frequencies"].as_array().unwrap() {
        let name = frequency["name"].as_str().unwrap();
        assert_eq!(frequency["count"], frequencies[name], "{name}");
    }
    let counted: BTreeMap<u64, u64> = result["run_lengths"]["distribution"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| (row["value"].as_u64().unwrap(), row["count"].as_u64().unwrap()))
        .collect();
    assert_eq!(counted, runs, "complete runs (the last, cut off, is not one)");
    for item in result["gaps"]["per_item"].as_array().unwrap() {
        let name = item["name"].as_str().unwrap();
        assert_eq!(item["longest"], longest_gap[name], "{name}");
    }
    // One thread or two, the same tallies and findings.
    assert_eq!(tallies(&run("1")), tallies(&json));
}

#[test]
fn many_items_per_line_and_standard_input_give_what_one_per_line_gives() {
    let draws = dealt("iid", WEIGHTS, 200_000, 2);
    let (one_per_line, status, _) = ingest_stream(lines_of(&draws, 1, " "), &["--weights", WEIGHTS]);
    assert_eq!(status, 0);
    let (many, _, _) = ingest_stream(lines_of(&draws, 13, ", "), &["--weights", WEIGHTS]);
    assert_eq!(tallies(&many), tallies(&one_per_line));
    assert_eq!(many["input"]["lines_read"], 200_000 / 13 + 1);
    assert_eq!(many["input"]["items_read"], 200_000);

    let dir = tempfile::tempdir().unwrap();
    let file = write(dir.path(), "my stream.txt", lines_of(&draws, 7, " "));
    let output = shuffle_audit()
        .args([
            "ingest",
            &file,
            "--kind",
            "stream",
            "--weights",
            WEIGHTS,
            "--json",
            "-",
        ])
        .output()
        .unwrap();
    let from_file: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(tallies(&from_file), tallies(&one_per_line));
    assert_eq!(
        from_file["input"]["command"],
        format!("shuffle-audit ingest '{file}' --kind stream --weights A:50,B:25,C:20,D:5")
    );
}

#[test]
fn a_stream_off_its_declared_weights_fails_with_status_1() {
    // Drawn with weights 50:25:20:5 but declared equal (--deck): 200,000 draws expect
    // 50,000 of each and see about 100,000 A, 50,000 B, 40,000 C and 10,000 D, a χ² near
    // 84,000 on 3 df where α = 1e-6 needs 32.
    let draws = dealt("iid", WEIGHTS, 200_000, 3);
    let (json, status, stderr) = ingest_stream(lines_of(&draws, 10, " "), &["--deck", "A B C D"]);
    assert_eq!(status, 1, "{stderr}");
    assert_eq!(json["results"][0]["verdict"], "fail");
    assert!(test_statistic(&json, "frequencies") > 50_000.0);
    assert!(
        stderr.contains(
            "fail (smallest adjusted p-value < 1e-300): the stream does not behave as independent draws"
        ),
        "{stderr}"
    );
}

#[test]
fn shuffle_bags_declared_independent_fail_on_their_runs_and_gaps() {
    // A bag of one of each of 4 items never runs longer than 2; independent draws run 3 or
    // longer in 1 run of 16 (about 4,700 of 75,000 runs in 100,000 draws): the run-length
    // χ² is about 17,700 on 7 df, where α = 1e-6 needs about 40.
    let draws = dealt("shuffle-bag", "4", 100_000, 4);
    let (json, status, _) = ingest_stream(lines_of(&draws, 10, " "), &["--deck", "1 2 3 4"]);
    assert_eq!(status, 1);
    assert_eq!(json["results"][0]["verdict"], "fail");
    assert!(test_statistic(&json, "run-lengths") > 1_000.0);
    // Text 003's C# bag deals its weights exactly in every 100 draws, so frequencies pass;
    // its gaps give it away: the worst item's gap χ² is about 680 on 118 df here, where
    // α = 1e-6 (even after Bonferroni over 4 items) needs under 215.
    let draws = dealt("shuffle-bag-csharp", WEIGHTS, 400_000, 4);
    let (json, status, _) = ingest_stream(lines_of(&draws, 10, " "), &["--weights", WEIGHTS]);
    assert_eq!(status, 1);
    assert_eq!(json["results"][0]["verdict"], "fail");
    assert_eq!(test_statistic(&json, "frequencies"), 0.0, "whole bags");
    assert!(test_statistic(&json, "gaps") > 500.0);
}

#[test]
fn an_unknown_item_stops_with_its_line_or_skips_that_line_whole() {
    let mut input = lines_of(&dealt("iid", WEIGHTS, 40_000, 5), 4, " ");
    input.push_str("A B Z C\n# a comment\nD D\n");
    assert_eq!(
        error_of(&input, &["--weights", WEIGHTS]),
        "shuffle-audit: error: line 10001: unknown item 'Z' (the items from --weights are A B C D)"
    );
    let (json, status, _) = ingest_stream(input.clone(), &["--weights", WEIGHTS, "--skip-invalid"]);
    assert_eq!(status, 0, "{json}");
    assert_eq!(
        json["input"]["items_read"], 40_002,
        "the line with Z adds none of its items"
    );
    assert_eq!(json["input"]["lines_skipped"], 1);
    assert_eq!(
        json["input"]["skipped"],
        serde_json::json!([{"reason": "unknown item", "count": 1, "first_line": 10001}])
    );
    let text = shuffle_audit()
        .args([
            "ingest",
            "--kind",
            "stream",
            "--weights",
            WEIGHTS,
            "--skip-invalid",
        ])
        .write_stdin(input)
        .output()
        .unwrap();
    let text = String::from_utf8(text.stdout).unwrap();
    assert!(
        text.contains("skipped 1 malformed line: 1 unknown item (first: line 10001)"),
        "{text}"
    );
}

#[test]
fn options_that_do_not_fit_a_stream_are_refused() {
    assert_eq!(
        error_of("A B\n", &["--k", "2"]),
        "shuffle-audit: error: --k applies to --kind selections"
    );
    assert!(error_of("A B\n", &["--deck", "A B", "--weights", "A:1,B:2"]).contains("cannot be used with"));
    assert_eq!(
        error_of("A B\n", &["--weights", "A:1,A:2"]),
        "shuffle-audit: error: --weights item 'A' is given twice"
    );
    assert_eq!(
        error_of("A A A\n", &[]),
        "shuffle-audit: error: standard input holds only one distinct item ('A'): name the others with --deck or \
         --weights"
    );
    assert_eq!(
        error_of("A\n", &["--deck", "A B"]),
        "shuffle-audit: error: 1 item in standard input: a stream needs at least 2 to test"
    );
    let output = shuffle_audit()
        .args(["ingest", "--weights", "A:1,B:1"])
        .write_stdin("A B\nB A\n")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("--weights applies to --kind stream"));
}

#[test]
fn without_deck_or_weights_the_items_are_the_tokens_seen_with_a_note() {
    let draws = dealt("iid", "4", 100_000, 6);
    let input = lines_of(&draws, 5, " ");
    let (seen, status, stderr) = ingest_stream(input.clone(), &[]);
    assert_eq!(status, 0, "{stderr}");
    let (declared, _, _) = ingest_stream(input.clone(), &["--deck", "1 2 3 4"]);
    let names = |json: &Value| -> Vec<String> {
        json["results"][0]["items"]
            .as_array()
            .unwrap()
            .iter()
            .map(|item| item["name"].as_str().unwrap().to_string())
            .collect()
    };
    // Numbered in order of first appearance: the same tallies once named alike.
    let mut order = names(&seen);
    order.sort();
    assert_eq!(order, names(&declared));
    assert_eq!(names(&seen)[0], draws[0]);
    let note = "the items are the 4 seen in the stream; an item that never comes out cannot be missed this way: \
                give --deck or --weights to test for it";
    assert!(stderr.contains(note), "{stderr}");
    assert_eq!(seen["notes"][0], note);
    assert_eq!(seen["input"]["deck_from"], "first appearance in the input");

    // The same two passes from a file (read twice) as from standard input (spooled).
    let dir = tempfile::tempdir().unwrap();
    let file = write(dir.path(), "stream.txt", &input);
    let output = shuffle_audit()
        .args(["ingest", &file, "--kind", "stream", "--json", "-"])
        .output()
        .unwrap();
    let from_file: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(tallies(&from_file), tallies(&seen));

    // An item the generator never deals is missed without --deck, and caught with it.
    let (missing, status, _) = ingest_stream(input, &["--deck", "1 2 3 4 5"]);
    assert_eq!(status, 1);
    assert_eq!(missing["results"][0]["never_drawn"], serde_json::json!(["5"]));
}

#[test]
fn hostile_item_names_are_escaped_in_every_export() {
    // A name may hold quotes, just not start with one (a leading quote is list syntax).
    let names = ["<script>alert(1)</script>", "&\"'<b>", "ok"];
    let spec = names.join(" ");
    let draws: Vec<String> = dealt("iid", "3", 30_000, 7)
        .iter()
        .map(|item| names[item.parse::<usize>().unwrap() - 1].to_string())
        .collect();
    let dir = tempfile::tempdir().unwrap();
    let file = write(dir.path(), "hostile.txt", lines_of(&draws, 6, " "));
    let report = dir.path().join("report");
    let csv = dir.path().join("tallies.csv");
    let json = dir.path().join("results.json");
    shuffle_audit()
        .args(["ingest", &file, "--kind", "stream", "--deck", &spec])
        .args(["--report", report.to_str().unwrap()])
        .args(["--csv", csv.to_str().unwrap(), "--json", json.to_str().unwrap()])
        .assert()
        .success();
    let json: Value = serde_json::from_str(&std::fs::read_to_string(json).unwrap()).unwrap();
    assert_eq!(json["results"][0]["items"][1]["name"], names[1]);
    let csv = std::fs::read_to_string(csv).unwrap();
    assert!(csv.contains(",frequency,\"&\"\"'<b>\","), "{csv}");
    let mut pages = 0;
    for entry in std::fs::read_dir(&report).unwrap() {
        let path = entry.unwrap().path();
        let content = std::fs::read_to_string(&path).unwrap();
        if let Some("html" | "svg") = path.extension().and_then(|e| e.to_str()) {
            pages += 1;
            assert!(!content.contains("<script>alert"), "{}", path.display());
            assert!(!content.contains("<b>"), "{}", path.display());
            if path.extension().unwrap() == "svg" {
                roxmltree::Document::parse(&content).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            }
        }
    }
    assert!(pages >= 2, "an HTML page and its charts");
    let index = std::fs::read_to_string(report.join("index.html")).unwrap();
    assert!(index.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
    assert!(
        index.contains("shuffle-audit ingest"),
        "the report says it read a stream"
    );
}
