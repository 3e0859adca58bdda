//! `shuffle-audit stream` run as users run it: the report, JSON and CSV contents, exit
//! codes and one-line errors.

mod binary;

use binary::{command, json_of};
use predicates::prelude::*;
use serde_json::Value;

#[test]
fn the_report_gives_verdicts_bounds_and_the_longest_runs() {
    command("stream iid shuffle-bag shuffle-bag-csharp --items A:50,B:25,C:20,D:5 --length 1e4 --streams 200 --seed 1")
        .assert()
        .success()
        .stdout(predicate::str::contains("iid: PASS (known to be: fair)"))
        .stdout(predicate::str::contains("shuffle-bag: PASS (known to be: fair)"))
        .stdout(predicate::str::contains("shuffle-bag-csharp: FAIL (known to be: biased)"))
        .stdout(predicate::str::contains("bag: 100 slots (A:50, B:25, C:20, D:5); cycles of 100 draws"))
        .stdout(predicate::str::contains("cycle-repeats"))
        .stdout(predicate::str::contains("run length"))
        .stdout(predicate::str::contains("longest run"))
        .stdout(predicate::str::contains(
            "reproduce: shuffle-audit stream iid shuffle-bag shuffle-bag-csharp --items A:50,B:25,C:20,D:5 --length 10000 --streams 200 --seed 1",
        ));
}

#[test]
fn boggle_truncated_names_the_letters_it_never_draws() {
    command("stream boggle-truncated --items boggle --length 2e5 --streams 4 --seed 2")
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "boggle-truncated: FAIL (known to be: biased)",
        ))
        .stdout(predicate::str::contains(
            "never drawn, although their weight is positive: V, K, J, X, Q, Z",
        ));
}

#[test]
fn json_has_the_documented_fields() {
    let json = json_of("stream tetris-7-bag iid --items 7 --length 7000 --streams 50 --seed 3 --threads 2");
    assert_eq!(json["command"], "stream");
    assert_eq!(json["seed"], 3);
    assert_eq!(json["length"], 7000);
    assert_eq!(json["streams"], 50);
    let results = json["results"].as_array().unwrap();
    assert_eq!(results.len(), 2);
    let bag = &results[0];
    assert_eq!(bag["generator"], "tetris-7-bag");
    assert_eq!(bag["items"].as_array().unwrap().len(), 7);
    assert_eq!(bag["bag"]["cycle_length"], 7);
    let frequencies = bag["frequencies"].as_array().unwrap();
    assert!(
        frequencies
            .iter()
            .all(|f| f["count"] == 50_000 && f["expected"] == 50_000.0)
    );
    assert!(bag["run_lengths"]["longest"].as_u64().unwrap() <= 2);
    assert_eq!(bag["gaps"]["longest"], 13);
    assert_eq!(bag["gaps"]["law"].as_array().unwrap().len(), 13);
    assert_eq!(bag["gaps"]["per_item"].as_array().unwrap().len(), 7);
    assert_eq!(bag["cycle_positions"]["bins"].as_array().unwrap().len(), 7);
    assert!(bag["cycle_repeats"]["cycle_pairs"].as_u64().unwrap() == 50 * 999);
    let tests: Vec<&str> = bag["tests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        tests,
        [
            "frequencies",
            "gaps",
            "cycle-positions",
            "cycle-repeats",
            "guessing"
        ]
    );
    assert!(
        bag["invariants"]
            .as_array()
            .unwrap()
            .iter()
            .all(|i| i["holds"] == true)
    );
    assert_eq!(bag["verdict"], "pass");
    let iid = &results[1];
    assert_eq!(iid["bag"], Value::Null);
    assert_eq!(iid["cycle_positions"], Value::Null);
    assert!(iid["run_lengths"]["law"].is_array());
    // The distribution adds up to the runs counted.
    let counted: u64 = iid["run_lengths"]["distribution"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| row["count"].as_u64().unwrap())
        .sum();
    assert_eq!(counted, iid["run_lengths"]["total"].as_u64().unwrap());
}

#[test]
fn stream_output_does_not_depend_on_the_thread_count() {
    let results = |threads: usize| {
        let mut json = json_of(&format!(
            "stream shuffle-bag unrandomness --items 5 --length 3000 --streams 9 --seed 4 --threads {threads}"
        ));
        for result in json["results"].as_array_mut().unwrap() {
            result.as_object_mut().unwrap().remove("elapsed_seconds");
        }
        json["results"].clone()
    };
    assert_eq!(results(1), results(3));
}

#[test]
fn csv_holds_every_table() {
    let output = command("stream refill-list iid --items A:2,B:1 --length 300 --streams 3 --seed 5 --csv -")
        .assert()
        .success();
    let text = String::from_utf8(output.get_output().stdout.clone()).unwrap();
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("generator,table,row,column,count,expected"));
    let rows: Vec<Vec<&str>> = lines.map(|line| line.split(',').collect()).collect();
    assert!(rows.iter().all(|row| row.len() == 6));
    for table in ["frequency", "run_length", "gap", "cycle_position"] {
        assert!(
            rows.iter().any(|row| row[0] == "refill-list" && row[1] == table),
            "{table}"
        );
    }
    let frequencies: u64 = rows
        .iter()
        .filter(|row| row[0] == "iid" && row[1] == "frequency")
        .map(|row| row[4].parse::<u64>().unwrap())
        .sum();
    assert_eq!(frequencies, 900);
}

#[test]
fn bad_input_gets_one_line_and_status_2() {
    for (line, message) in [
        ("stream shuffle-bags --items 7", "did you mean 'shuffle-bag'"),
        ("stream iid --items seven", "--items 'seven' is neither a count"),
        ("stream iid --items A:1,A:2", "item 'A' is given twice"),
        ("stream tetris-7-bag --items A:2,B:1", "the weights must be equal"),
        ("stream shuffle-bag --items boggle", "not all whole numbers"),
        (
            "stream iid --items 7 --add-every 5",
            "--add-every applies to the bags with a cursor",
        ),
        ("stream iid --items 7 --length 1", "--length must be at least 2"),
        ("stream iid --items 7 --streams 0", "--streams must be at least 1"),
        ("stream unrandomness:x --items 7", "must be a number from 0"),
        ("stream iid iid --items 7", "given twice"),
        ("stream iid --items 7 --length 1.5", "not a whole number"),
        ("stream iid", "--items"),
        (
            "stream bag-pick --items 3",
            "'bag-pick' is a shuffle or sampler: shuffle-audit run",
        ),
        (
            "run iid --n 5",
            "'iid' is a stream generator: shuffle-audit stream",
        ),
        ("stream iid --items A:1e3,B:1", "scientific notation"),
        ("stream iid --items A:1,,B:2", "empty item between commas"),
        ("stream tetris-7-bag --items A:2,B:1", "generator 'tetris-7-bag'"),
        // 64 workers, each holding a 50-million-slot bag, would need 32 GB.
        (
            "stream shuffle-bag --items A:49999999,B:1 --length 100 --streams 64 --threads 64",
            "--threads 64 would hold",
        ),
    ] {
        let output = command(line).assert().code(2);
        let stderr = String::from_utf8(output.get_output().stderr.clone()).unwrap();
        assert!(stderr.contains(message), "{line}: {stderr}");
        assert_eq!(stderr.trim_end().lines().count(), 1, "{line}: {stderr}");
        assert!(output.get_output().stdout.is_empty(), "{line}");
    }
}

#[test]
fn list_shows_the_generators() {
    command("list")
        .assert()
        .success()
        .stdout(predicate::str::contains("shuffle-bag-csharp"))
        .stdout(predicate::str::contains("unrandomness[:U]"))
        .stdout(predicate::str::contains("text 003 (ShuffleBag.Next)"));
}

#[test]
fn dev_stdout_is_standard_output_and_never_replaces_the_file_behind_it() {
    let directory = tempfile::tempdir().unwrap();
    let log = directory.path().join("log.txt");
    std::fs::write(&log, "IMPORTANT OLD LINE\n").unwrap();
    let appended = std::fs::OpenOptions::new().append(true).open(&log).unwrap();
    let status = std::process::Command::new(env!("CARGO_BIN_EXE_shuffle-audit"))
        .args("stream iid --items 3 --length 100 --streams 4 --seed 1 --json /dev/stdout".split(' '))
        .stdout(appended)
        .status()
        .unwrap();
    assert!(status.success());
    let text = std::fs::read_to_string(&log).unwrap();
    assert!(text.starts_with("IMPORTANT OLD LINE\n{"), "{text}");
    serde_json::from_str::<Value>(&text["IMPORTANT OLD LINE\n".len()..]).expect("only the JSON follows");
    // Standard output named twice is refused, as `-` twice is.
    command("stream iid --items 3 --json /dev/stdout --csv -")
        .assert()
        .code(2);
}

#[test]
fn a_report_reader_that_leaves_early_does_not_cost_the_exports() {
    // 1,000 items make a text report of about 84 KB, more than a pipe holds, so closing
    // the pipe at once breaks the report; the JSON must still be written whole.
    let directory = tempfile::tempdir().unwrap();
    let json_path = directory.path().join("out.json");
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_shuffle-audit"))
        .args("stream iid --items 1000 --length 2000 --streams 4 --seed 1 --json".split(' '))
        .arg(&json_path)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let output = child.wait_with_output().unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let json: Value = serde_json::from_str(&std::fs::read_to_string(&json_path).unwrap()).unwrap();
    assert_eq!(json["results"][0]["items"].as_array().unwrap().len(), 1000);
}

#[test]
fn untestable_cases_say_why_instead_of_asking_for_impossible_draws() {
    // Nothing can be tested: inconclusive, and so exit status 1.
    let output = command("stream iid shuffle-bag --items A:2,B:0 --length 1000 --streams 10 --seed 1")
        .assert()
        .code(1);
    let text = String::from_utf8(output.get_output().stdout.clone()).unwrap();
    assert!(text.contains("only one item has positive weight"), "{text}");
    assert!(text.contains("the bag holds a single item"), "{text}");
    assert!(!text.contains("18,446,744"), "{text}");
    // Weights 1e16 : 1 once made the pooling search loop for ever.
    command("stream iid --items A:10000000000000000,B:1 --length 100 --streams 3 --seed 1")
        .timeout(std::time::Duration::from_secs(60))
        .assert()
        .code(1)
        .stdout(predicate::str::contains("INCONCLUSIVE"));
}

#[test]
fn csv_totals_rows_cannot_be_mistaken_for_an_item_named_all() {
    let output = command("stream iid --items all:1,B:1 --length 500 --streams 4 --seed 2 --csv -")
        .assert()
        .success();
    let text = String::from_utf8(output.get_output().stdout.clone()).unwrap();
    let rows: Vec<Vec<&str>> = text
        .lines()
        .skip(1)
        .map(|line| line.split(',').collect())
        .collect();
    let item_runs: u64 = rows
        .iter()
        .filter(|row| row[1] == "run_length" && row[3] == "all")
        .map(|row| row[4].parse::<u64>().unwrap())
        .sum();
    let all_runs: u64 = rows
        .iter()
        .filter(|row| row[1] == "run_length" && row[3].is_empty())
        .map(|row| row[4].parse::<u64>().unwrap())
        .sum();
    assert!(item_runs > 0 && all_runs > item_runs, "{item_runs} {all_runs}");
    // Law rows carry the expected count; item rows leave it empty.
    assert!(
        rows.iter()
            .filter(|row| row[1] == "run_length" && row[3].is_empty())
            .all(|row| !row[5].is_empty())
    );
}
