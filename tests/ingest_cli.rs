//! `shuffle-audit ingest` run as users run it: samples written by "another program"
//! (made here with the library's own algorithms and a fixed seed), read from files and
//! standard input, with their verdicts, exit codes, one-line errors, and hostile tokens.

mod binary;

use std::collections::HashMap;

use binary::{shuffle_audit, shuffled_lines, usage_error_of, write_file as write};
use predicates::prelude::*;
use serde_json::Value;
use shuffle_audit::SimulationSource;
use shuffle_audit::catalogue::{AlgorithmSpec, SamplerWorkspace};

/// `samples` lines, each `k` of `names` picked by the sampler `algorithm`.
fn sampled_lines(algorithm: &str, names: &[&str], k: usize, samples: usize, seed: u64) -> String {
    let sampler = AlgorithmSpec::parse(algorithm)
        .unwrap()
        .algorithm
        .as_sampler()
        .unwrap();
    let mut rng = SimulationSource::from_seed(seed);
    let mut workspace = SamplerWorkspace::default();
    let mut picks = vec![0u16; k];
    let mut out = String::new();
    for _ in 0..samples {
        sampler.sample(names.len(), &mut rng, &mut picks, &mut workspace);
        let line: Vec<&str> = picks.iter().map(|&item| names[usize::from(item)]).collect();
        out.push_str(&line.join(","));
        out.push('\n');
    }
    out
}

/// `ingest ARGS... --json -` on `input` (standard input), its JSON and exit status.
fn ingest_json(input: impl Into<Vec<u8>>, args: &[&str]) -> (Value, i32) {
    let output = shuffle_audit()
        .arg("ingest")
        .args(args)
        .args(["--json", "-"])
        .write_stdin(input.into())
        .output()
        .unwrap();
    let json = serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|_| panic!("no JSON; stderr: {}", String::from_utf8_lossy(&output.stderr)));
    (json, output.status.code().unwrap())
}

/// The one-line error of `ingest ARGS` on `input`, after checking the exit status is 2.
fn error_of(input: impl Into<Vec<u8>>, args: &[&str]) -> String {
    let mut ingest = shuffle_audit();
    ingest.arg("ingest").args(args).write_stdin(input.into());
    usage_error_of(ingest)
        .strip_prefix("shuffle-audit: error: ")
        .unwrap()
        .to_string()
}

const CARDS: [&str; 4] = ["♠A", "♥K", "♦Q", "♣J"];

#[test]
fn fair_samples_pass_and_their_counts_are_the_lines_counted_directly() {
    // 240,000 Fisher-Yates shuffles of 4 cards: 10,000 expected per order. A fair
    // shuffle fails at alpha = 1e-6 once in a million seeds; this seed is fixed.
    let lines = shuffled_lines("fisher-yates", &CARDS, 240_000, 11);
    let (json, status) = ingest_json(lines.clone(), &[]);
    assert_eq!(status, 0, "{json}");
    let result = &json["results"][0];
    assert_eq!(result["verdict"], "pass");
    assert_eq!(json["command"], "ingest");
    assert!(json.get("seed").is_none(), "ingested samples have no seed");
    assert_eq!(json["input"]["samples_read"], 240_000);
    // The first line fixes the deck: its order numbers the cards.
    let first: Vec<&str> = lines.lines().next().unwrap().split(' ').collect();
    assert_eq!(result["labels"], serde_json::json!(first));
    // Every order's count is the number of lines that hold it, line 1 aside: it is the
    // deck the others are read against, not one of the orders.
    let mut direct: HashMap<String, u64> = HashMap::new();
    for line in lines.lines().skip(1) {
        *direct.entry(line.to_string()).or_default() += 1;
    }
    let permutations = result["permutations"].as_array().unwrap();
    assert_eq!(permutations.len(), 24);
    for entry in permutations {
        let names: Vec<&str> = entry["permutation"]
            .as_array()
            .unwrap()
            .iter()
            .map(|card| first[card.as_u64().unwrap() as usize])
            .collect();
        assert_eq!(
            entry["count"].as_u64(),
            Some(direct.get(&names.join(" ")).copied().unwrap_or(0)),
            "{names:?}"
        );
    }
    assert_eq!(result["trials"], 240_000 - 1);
}

#[test]
fn naive_swap_samples_fail_with_status_1() {
    // The naive swap on 4 cards puts some orders at 1.35x and others at 0.70x their share
    // (exact law): 240,000 samples give a chi-square in the thousands, p below 1e-300.
    let dir = tempfile::tempdir().unwrap();
    let file = write(
        dir.path(),
        "naive.txt",
        shuffled_lines("naive-swap", &CARDS, 240_000, 12),
    );
    shuffle_audit()
        .args(["ingest", &file])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("naive.txt: FAIL (tested against: a fair shuffle)"))
        .stdout(predicate::str::contains("most frequent orders: ♥K"))
        // The last line names the test that caught it, and what that means.
        .stderr(predicate::str::contains(
            "shuffle-audit: fail: caught by permutations (adjusted p < 1e-300): some orders come out more often than others",
        ));
}

#[test]
fn too_few_samples_are_not_a_pass() {
    shuffle_audit()
        .arg("ingest")
        .write_stdin("A B C\nB C A\n")
        .assert()
        .code(1)
        .stdout(predicate::str::contains("INCONCLUSIVE"))
        .stderr(predicate::str::contains(
            // 30 for the 6 orders, 31 for the 30 consecutive pairs the serial tests need.
            "inconclusive: too few samples (2) for every test to run; they need at least 31",
        ));
}

#[test]
fn selections_pass_when_fair_and_fail_when_biased() {
    let items = ["a", "b", "c", "d", "e", "f"];
    let deck = "a b c d e f";
    // Partial Fisher-Yates picks 3 of 6 with every ordered selection equally likely:
    // 60,000 samples expect 500 per ordered selection.
    let fair = sampled_lines("partial-fisher-yates", &items, 3, 60_000, 21);
    let (json, status) = ingest_json(fair, &["--kind", "selections", "--deck", deck, "--ordered"]);
    assert_eq!(status, 0, "{json}");
    let result = &json["results"][0];
    assert_eq!(result["verdict"], "pass");
    assert_eq!(
        result["tests"][1]["status"], "computed",
        "--ordered tests the order"
    );
    let inclusion: u64 = result["inclusion"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["count"].as_u64().unwrap())
        .sum();
    assert_eq!(inclusion, 180_000, "three picks per sample");
    // bag-pick lists its picks sorted: fair as subsets, but with --ordered the order
    // test sees one order in six.
    let sorted = sampled_lines("bag-pick", &items, 3, 60_000, 22);
    let (json, status) = ingest_json(
        sorted.clone(),
        &["--kind", "selections", "--deck", deck, "--ordered"],
    );
    assert_eq!(
        (status, &json["results"][0]["verdict"]),
        (1, &Value::from("fail"))
    );
    let (json, status) = ingest_json(sorted, &["--kind", "selections", "--deck", deck]);
    assert_eq!(
        (status, &json["results"][0]["verdict"]),
        (0, &Value::from("pass")),
        "{json}"
    );
    // bag-pick-c always picks the same three: item a is never chosen, and said so.
    shuffle_audit()
        .args(["ingest", "--kind", "selections", "--deck", deck])
        .write_stdin(sampled_lines("bag-pick-c", &items, 3, 1_000, 23))
        .assert()
        .code(1)
        .stdout(predicate::str::contains("items never chosen: a e f"));
}

#[test]
fn selections_without_a_deck_take_the_items_seen_and_say_what_that_cannot_catch() {
    let items = ["a", "b", "c", "d", "e", "f"];
    // 60,000 fair picks of 3 of 6, as above: about 3,000 per subset.
    let fair = sampled_lines("partial-fisher-yates", &items, 3, 60_000, 21);
    let output = shuffle_audit()
        .args(["ingest", "--kind", "selections", "--json", "-"])
        .write_stdin(fair.clone())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let seen: Value = serde_json::from_slice(&output.stdout).unwrap();
    let note = "the deck is the 6 items seen in the samples; an item the sampler never picks cannot be missed \
                this way: give --deck to test for it";
    assert!(String::from_utf8_lossy(&output.stderr).contains(note));
    assert_eq!(seen["notes"][0], note);
    assert_eq!(
        seen["input"]["deck_from"],
        "the items seen in the samples, sorted"
    );
    // The deck in sorted order (not in order of first appearance, which would make the
    // first sample the subset of items 0..k every time), given as --deck, reads the same
    // tallies.
    let mut sorted: Vec<&str> = fair
        .split([',', '\n'])
        .filter(|token| !token.is_empty())
        .collect();
    sorted.sort();
    sorted.dedup();
    assert_eq!(seen["results"][0]["labels"], serde_json::json!(sorted));
    let deck = sorted.join(" ");
    let (declared, _) = ingest_json(fair.clone(), &["--kind", "selections", "--deck", &deck]);
    assert_eq!(seen["results"][0]["subsets"], declared["results"][0]["subsets"]);
    assert_eq!(seen["results"][0]["tests"], declared["results"][0]["tests"]);
    // bag-pick-c never picks a, e or f: without --deck they are not items at all and its
    // three picks are one subset of three, which no test can fault; --deck catches it.
    let stuck = sampled_lines("bag-pick-c", &items, 3, 1_000, 23);
    assert_eq!(
        error_of(stuck.clone(), &["--kind", "selections"]),
        "line 1: a sample of 3 of 3 items: k must be between 1 and n-1 (picking none or all has only one subset)"
    );
    let (_, status) = ingest_json(stuck, &["--kind", "selections", "--deck", "a b c d e f"]);
    assert_eq!(status, 1);
}

#[test]
fn every_malformed_line_is_named_by_its_number() {
    let head = "# a comment\nA B C D\n\nB A D C\n";
    let cases: [(&str, &[&str], &str); 8] = [
        ("A B C D E\n", &[], "line 5: expected 4 items, found 5"),
        ("A B C\n", &[], "line 5: expected 4 items, found 3"),
        (
            "A B Z D\n",
            &[],
            "line 5: unknown item 'Z' (the deck from line 2 is A B C D)",
        ),
        ("A B A D\n", &[], "line 5: item 'A' appears twice"),
        (
            "A,B,C,\u{202E}D\n",
            &[],
            "line 5: unknown item '\\u{202e}D' (the deck from line 2 is A B C D)",
        ),
        (
            "A B C <b>\n",
            &[],
            "line 5: unknown item '<b>' (the deck from line 2 is A B C D)",
        ),
        (
            "A B\n",
            &["--kind", "selections", "--deck", "A B C D", "--k", "3"],
            "line 2: expected 3 items, found 4",
        ),
        (
            "D C Z A\n",
            &["--kind", "selections", "--deck", "A B C D E", "--k", "4"],
            "line 5: unknown item 'Z' (the deck from --deck is A B C D E)",
        ),
    ];
    for (tail, args, message) in cases {
        let input = format!("{head}{tail}");
        assert_eq!(error_of(input, args), message, "{tail:?} {args:?}");
    }
    let mut invalid = head.as_bytes().to_vec();
    invalid.extend_from_slice(b"A B C \xff\n");
    assert_eq!(error_of(invalid, &[]), "line 5: not valid UTF-8 text");
}

#[test]
fn the_deck_line_and_the_input_as_a_whole_are_checked() {
    assert_eq!(
        error_of("# only\n\nA B A\n", &[]),
        "line 3: item 'A' appears twice: the cards of a deck must be told apart, so every item of line 3 \
         must be different"
    );
    assert_eq!(
        error_of("", &[]),
        "no samples in standard input: every line is blank or a comment"
    );
    assert_eq!(
        error_of("# nothing\n\n", &[]),
        "no samples in standard input: every line is blank or a comment"
    );
    assert_eq!(
        error_of("A\n", &[]),
        "line 1: the deck has 1 item: a deck of fewer than 2 cards has only one order"
    );
    let big: Vec<String> = (0..2001).map(|i| i.to_string()).collect();
    assert_eq!(
        error_of(big.join(" "), &[]),
        "line 1: the deck has 2001 items; at most 2000 are supported"
    );
    assert_eq!(
        error_of("A B C\n", &["--kind", "selections", "--deck", "A B C"]),
        "line 1: a sample of 3 of 3 items: k must be between 1 and n-1 (picking none or all has only one subset)"
    );
    // Without --deck the deck is the items seen: two items picked two at a time is no choice.
    assert_eq!(
        error_of("A B\nB A\n", &["--kind", "selections"]),
        "line 1: a sample of 2 of 2 items: k must be between 1 and n-1 (picking none or all has only one subset)"
    );
    assert_eq!(
        error_of("A B\n", &["--k", "2"]),
        "--k applies to --kind selections"
    );
    assert_eq!(
        error_of("A B\n", &["--deck", " , "]),
        "--deck must name at least 2 items (got 0): fewer leave nothing to choose between"
    );
    assert_eq!(
        error_of("C B A\nA B D\n", &["--deck", "A B C"]),
        "line 2: unknown item 'D' (the deck from --deck is A B C)"
    );
    assert_eq!(
        error_of("A B\n", &["--kind", "selections", "--deck", "A B A"]),
        "--deck item 'A' appears twice: the cards of a deck must be told apart, so every item of --deck must be \
         different"
    );
    assert!(error_of("A\n", &["/no/such/file"]).starts_with("cannot open /no/such/file: "));
}

#[test]
fn hostile_tokens_are_refused() {
    let long = "W".repeat(65);
    assert_eq!(
        error_of(format!("{long} B\n"), &[]),
        format!(
            "line 1: item '{}…' is 65 characters long; at most 64 are allowed",
            "W".repeat(40)
        )
    );
    assert_eq!(
        error_of("a\u{202E}b c\n", &[]),
        "line 1: item 'a\\u{202e}b' contains a bidirectional control character (U+202E)"
    );
    assert_eq!(
        error_of("a\0b c\n", &[]),
        "line 1: item 'a\\u{0}b' contains a control character (U+0000)"
    );
    assert_eq!(
        error_of(b"\xff\xfe c\n".to_vec(), &[]),
        "line 1: item '\u{fffd}\u{fffd}' is not valid UTF-8"
    );
    // A 10 MB line (no newline at all) is refused at the line cap, not read whole.
    let huge = "A ".repeat(5 << 20);
    assert_eq!(
        error_of(format!("A B\n{huge}"), &[]),
        "line 2: longer than 1 MiB: not a line of samples (is the input one sample per line?)"
    );
    assert_eq!(
        error_of(huge, &["--skip-invalid"]),
        "line 1: longer than 1 MiB: not a line of samples (is the input one sample per line?)"
    );
}

#[test]
fn hostile_tokens_that_are_valid_names_are_escaped_everywhere() {
    // (A name may not start with a quote: that is list syntax. It may hold one.)
    let names = ["<script>alert(1)</script>", "&\"'<b>", "ok"];
    let dir = tempfile::tempdir().unwrap();
    let file = write(
        dir.path(),
        "hostile.txt",
        shuffled_lines("fisher-yates", &names, 3_000, 31),
    );
    let report = dir.path().join("report");
    let csv = dir.path().join("tallies.csv");
    let json = dir.path().join("results.json");
    let output = shuffle_audit()
        .args(["ingest", &file, "--report", report.to_str().unwrap()])
        .args(["--csv", csv.to_str().unwrap(), "--json", json.to_str().unwrap()])
        .assert()
        .success();
    let text = String::from_utf8(output.get_output().stdout.clone()).unwrap();
    assert!(
        text.contains("<script>alert(1)</script> &\"'<b> ok"),
        "the terminal shows tokens as they are"
    );
    let json: Value = serde_json::from_str(&std::fs::read_to_string(json).unwrap()).unwrap();
    // Cards are numbered in the order of the first line, which is a shuffled deck.
    let contents = std::fs::read_to_string(&file).unwrap();
    let first_line: Vec<&str> = contents.lines().next().unwrap().split(' ').collect();
    assert_eq!(json["results"][0]["labels"], serde_json::json!(first_line));
    let csv = std::fs::read_to_string(csv).unwrap();
    // Orders hold a quote: the field is quoted and the quote doubled.
    assert!(csv.contains(",permutation,\""), "{csv}");
    assert!(csv.contains("&\"\"'<b>") && !csv.contains(" &\"'<b>"), "{csv}");
    for line in csv.lines().skip(1) {
        // Every row still has six fields once quoted fields are read as one.
        let mut fields = 1;
        let mut quoted = false;
        for c in line.chars() {
            match c {
                '"' => quoted = !quoted,
                ',' if !quoted => fields += 1,
                _ => {}
            }
        }
        assert_eq!(fields, 6, "{line}");
    }
    let mut pages = 0;
    for entry in std::fs::read_dir(&report).unwrap() {
        let path = entry.unwrap().path();
        let content = std::fs::read_to_string(&path).unwrap();
        match path.extension().and_then(|e| e.to_str()) {
            Some("html") | Some("svg") => {
                pages += 1;
                assert!(!content.contains("<script>alert"), "{}", path.display());
                assert!(!content.contains("<b>"), "{}", path.display());
                if path.extension().unwrap() == "svg" {
                    roxmltree::Document::parse(&content)
                        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
                }
            }
            _ => {}
        }
    }
    assert!(pages >= 2, "an HTML page and its charts");
    let index = std::fs::read_to_string(report.join("index.html")).unwrap();
    assert!(index.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
}

#[test]
fn skipped_lines_are_counted_by_reason() {
    let mut input = shuffled_lines("fisher-yates", &["x", "y", "z"], 3_000, 41);
    input.push_str("x y\nx x z\nx y w\nx y\n");
    let (json, status) = ingest_json(input.clone(), &["--skip-invalid"]);
    assert_eq!(status, 0, "{json}");
    assert_eq!(json["input"]["samples_read"], 3_000);
    assert_eq!(json["input"]["lines_skipped"], 4);
    assert_eq!(
        json["input"]["skipped"],
        serde_json::json!([
            {"reason": "wrong number of items", "count": 2, "first_line": 3001},
            {"reason": "unknown item", "count": 1, "first_line": 3003},
            {"reason": "repeated item", "count": 1, "first_line": 3002},
        ])
    );
    shuffle_audit()
        .args(["ingest", "--skip-invalid"])
        .write_stdin(input)
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "skipped 4 malformed lines: 2 wrong number of items (first: line 3001); 1 unknown item (first: line \
             3003); 1 repeated item (first: line 3002)",
        ));
    assert_eq!(
        error_of(
            "a\n# b\nc d e\n",
            &[
                "--skip-invalid",
                "--kind",
                "selections",
                "--deck",
                "a b c d",
                "--k",
                "2"
            ]
        ),
        "no samples in standard input: all 2 lines with items were malformed and skipped (the first at line 1)"
    );
}

#[test]
fn results_and_the_first_error_do_not_depend_on_the_thread_count() {
    // 1.2 million lines (9.6 MB): several blocks, shared among the workers.
    let lines = shuffled_lines("fisher-yates", &["0", "1", "2", "3"], 1_200_000, 51);
    let strip = |mut json: Value| {
        for key in ["elapsed_seconds", "trials_per_second", "threads"] {
            json.as_object_mut().unwrap().remove(key);
        }
        json["results"][0]
            .as_object_mut()
            .unwrap()
            .remove("elapsed_seconds");
        json
    };
    let runs: Vec<Value> = ["1", "2", "3"]
        .iter()
        .map(|threads| strip(ingest_json(lines.clone(), &["-j", threads]).0))
        .collect();
    assert_eq!(runs[0], runs[1]);
    assert_eq!(runs[0], runs[2]);
    // Two bad lines, in different blocks: the first is reported whichever block a
    // worker finishes first.
    let mut bad: Vec<&str> = lines.lines().collect();
    bad[1_100_000] = "0 1 2";
    bad[700_000] = "0 1 2 9";
    let bad = bad.join("\n");
    for threads in ["1", "2", "3"] {
        assert_eq!(
            error_of(bad.clone(), &["-j", threads]),
            format!(
                "line 700001: unknown item '9' (the deck from line 1 is {})",
                lines.lines().next().unwrap()
            )
        );
    }
}

#[test]
fn a_file_reads_as_standard_input_does_and_the_command_repeats_it() {
    let dir = tempfile::tempdir().unwrap();
    let lines = shuffled_lines("fisher-yates", &["p", "q", "r"], 3_000, 61);
    let file = write(dir.path(), "my samples.txt", &lines);
    let output = shuffle_audit()
        .args(["ingest", &file, "--json", "-"])
        .output()
        .unwrap();
    let from_file: Value = serde_json::from_slice(&output.stdout).unwrap();
    let (from_stdin, _) = ingest_json(lines, &[]);
    assert_eq!(from_stdin["input"]["command"], "shuffle-audit ingest -");
    assert_eq!(
        from_file["results"][0]["permutations"],
        from_stdin["results"][0]["permutations"]
    );
    assert_eq!(
        from_file["input"]["command"],
        format!("shuffle-audit ingest '{file}'")
    );
    assert_eq!(from_stdin["input"]["source"], "standard input");
}

#[test]
fn an_output_never_replaces_the_input_and_a_byte_order_mark_is_not_a_token() {
    let dir = tempfile::tempdir().unwrap();
    let lines = shuffled_lines("fisher-yates", &["A", "B", "C"], 6_000, 3);
    let samples = write(dir.path(), "samples.txt", &lines);
    for option in ["--csv", "--json"] {
        shuffle_audit()
            .args(["ingest", &samples, option, &samples])
            .assert()
            .code(2)
            .stderr(format!(
                "shuffle-audit: error: {option} names {samples}, which is also an input; give the output another file\n"
            ));
    }
    assert_eq!(
        std::fs::read_to_string(&samples).unwrap(),
        lines,
        "the samples are intact"
    );

    // Windows editors start UTF-8 files with U+FEFF; it must not become part of card 1.
    let plain = ingest_json(lines.clone(), &[]);
    let marked = ingest_json([b"\xEF\xBB\xBF".as_slice(), lines.as_bytes()].concat(), &[]);
    assert_eq!(plain.1, 0);
    assert_eq!(marked.1, 0);
    assert_eq!(plain.0["results"][0]["labels"], marked.0["results"][0]["labels"]);
    assert_eq!(
        plain.0["results"][0]["permutations"],
        marked.0["results"][0]["permutations"]
    );
}

#[test]
fn a_pass_with_a_test_left_out_for_too_few_samples_is_not_a_pass() {
    // 1,000 fair shuffles of 6 cards: the position, fixed-point and cycle tests run (and
    // pass at this seed), but the 720 orders would need 3,600 to be tested: the gate must
    // not call that fair, as `assert_fair_shuffle` does not.
    let lines = shuffled_lines("fisher-yates", &["A", "B", "C", "D", "E", "F"], 1_000, 5);
    shuffle_audit()
        .args(["ingest", "-"])
        .write_stdin(lines)
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "inconclusive: too few samples (1000) for every test to run; they need at least 3601",
        ));
}

#[test]
fn skip_invalid_says_it_cannot_skip_the_line_that_fixes_the_deck() {
    assert_eq!(
        error_of("A A B\nA B C\n", &["--skip-invalid"]),
        "line 1: item 'A' appears twice: the cards of a deck must be told apart, so every \
         item of line 1 must be different (--skip-invalid cannot skip the line that fixes the deck; give --deck)"
    );
}

#[test]
fn the_line_that_fixes_the_deck_is_the_reference_not_an_order() {
    // Without --deck, line 1 numbers the cards: read against itself it is the deck in
    // order, every time. Tallied, it added the same order, n fixed points and one rising
    // sequence to every input, which fair inputs of a few deals were then charged with
    // (rising sequences at 8 cards and 60 deals: p <= 0.1 in 11.2 % of 10,000 fair
    // inputs). It is the reference: the orders are the other lines', and the serial
    // tests still pair it with the next deal.
    let lines = "C A D B E\nA B C D E\nE D C B A\nB A C E D\n";
    let (json, _) = ingest_json(lines, &[]);
    let result = &json["results"][0];
    assert_eq!(json["trials"], 4, "every line is read");
    assert_eq!(result["trials"], 3, "{result}");
    let count_of = |table: &str| -> Vec<u64> {
        result[table]
            .as_array()
            .unwrap()
            .iter()
            .map(|cell| cell["count"].as_u64().unwrap())
            .collect()
    };
    // In line 1's numbering (C=0 A=1 D=2 B=3 E=4) the three orders are 1 3 0 2 4, 4 2 0 3 1
    // and 3 1 0 4 2: one fixed point each (cards 4, 3 and 1); none is the deck in order.
    assert_eq!(count_of("fixed_points"), [0, 3, 0, 0, 0, 0]);
    assert_eq!(count_of("fixed_points").iter().sum::<u64>(), 3);
    assert_eq!(
        count_of("rising_sequences")[1],
        0,
        "the deck in order is not counted"
    );
    assert_eq!(result["serial"]["pairs"], 3, "line 1 still pairs with line 2");
    assert_eq!(
        json["input"]["deck_from"],
        "the first line, the deck the other deals are read against"
    );
    // Given as --deck, the deck is not a line: all four lines are orders.
    let (declared, _) = ingest_json(lines, &["--deck", "C A D B E"]);
    assert_eq!(declared["results"][0]["trials"], 4);
    assert_eq!(
        declared["results"][0]["fixed_points"][5]["count"], 1,
        "line 1, in order"
    );
    // One line: nothing to tally but the reference, and no number made up for it.
    let (single, status) = ingest_json("A B C\n", &[]);
    assert_eq!(status, 1);
    assert_eq!(single["results"][0]["trials"], 0);
    assert!(single["results"][0]["total_variation"].is_null(), "{single}");
}
