//! Sharded runs through the real binary: `run ... --shard I/K` on each shard, `merge` of
//! their JSON, and the merged report compared with the single run of the same seed. The
//! comparisons are exact (tallies and statistics equal, not close): the shards draw the
//! whole run's numbers, so nothing but timing and thread counts may differ.

mod binary;

use std::path::{Path, PathBuf};

use binary::{
    command, exits_as_its_json, merged, shard_files, shuffle_audit, status_of, usage_error_of, without_timing,
};
use predicates::prelude::*;
use serde_json::Value;

/// 3 full chunks of 16,384 and 5 trials more: 4 chunks, the last one partial.
const TRIALS: u64 = 3 * 16_384 + 5;

fn read_json(path: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

/// Runs `run {line} --json {dir}/{name}` and gives the file's path.
fn run_to(dir: &Path, line: &str, name: &str) -> PathBuf {
    let path = dir.join(name);
    let output = command(line).arg("--json").arg(&path).output().unwrap();
    assert_eq!(
        output.status.code(),
        Some(status_of(&read_json(&path))),
        "{line}: the exit status is the verdict's"
    );
    path
}

/// Merging K shards of `line` gives the single run's JSON, for several K, in any order.
fn shards_add_up_to_the_single_run(line: &str, counts: &[u64]) -> Value {
    let dir = tempfile::tempdir().unwrap();
    let whole = read_json(&run_to(dir.path(), &format!("{line} --threads 2"), "whole.json"));
    let expected = without_timing(&whole);
    for &count in counts {
        let mut files = shard_files(dir.path(), line, count);
        let shard = read_json(&files[0]);
        assert_eq!(shard["shard"]["count"], count);
        assert_eq!(shard["shard"]["run_trials"], TRIALS);
        assert_eq!(
            without_timing(&merged(&files)),
            expected,
            "{count} shards of {line}"
        );
        files.reverse();
        assert_eq!(
            without_timing(&merged(&files)),
            expected,
            "{count} shards of {line}, reversed"
        );
        files.rotate_left(1);
        assert_eq!(
            without_timing(&merged(&files)),
            expected,
            "{count} shards of {line}, rotated"
        );
    }
    whole
}

#[test]
fn shards_of_a_small_deck_add_up_to_the_single_run() {
    // n = 4 tallies every order; 4 chunks give at most 4 shards.
    let whole = shards_add_up_to_the_single_run(
        &format!("run naive-swap fisher-yates --n 4 --trials {TRIALS} --seed 11"),
        &[1, 3, 4],
    );
    // The merged verdicts are the single run's, which are what each algorithm is known to be:
    // the naive swap's bias on 4 cards is over 10 standard errors at 49,157 shuffles
    // (its worst order has ratio about 1.5), Fisher-Yates is uniform.
    assert_eq!(whole["results"][0]["verdict"], "fail");
    assert_eq!(whole["results"][1]["verdict"], "pass");
    assert!(whole["results"][0]["permutations"].is_array());
}

#[test]
fn shards_of_a_large_deck_add_up_to_the_single_run() {
    // n = 12 tallies the position matrix, fixed points and cycles, not the 12! orders.
    let whole = shards_add_up_to_the_single_run(
        &format!("run sattolo naive-repeated:2 --n 12 --trials {TRIALS} --seed 5"),
        &[3],
    );
    assert!(whole["results"][0]["permutations"].is_null());
    assert_eq!(whole["results"][1]["algorithm"], "naive-repeated:2");
}

#[test]
fn shards_of_a_sampler_run_add_up_to_the_single_run() {
    // partial-fisher-yates keeps its ordered selections too.
    let whole = shards_add_up_to_the_single_run(
        &format!("run partial-fisher-yates bag-pick-c --n 6 --k 3 --trials {TRIALS} --seed 3"),
        &[1, 3],
    );
    assert!(whole["results"][0]["ordered_selections"].is_array());
}

#[test]
fn merged_csv_is_the_single_runs_and_the_text_differs_only_in_timing() {
    let dir = tempfile::tempdir().unwrap();
    let line = format!("run naive-swap --n 3 --trials {TRIALS} --seed 9");
    let whole_csv = dir.path().join("whole.csv");
    let whole_text = command(&line).arg("--csv").arg(&whole_csv).assert().success();
    let files = shard_files(dir.path(), &line, 2);
    let merged_csv = dir.path().join("merged.csv");
    let merged_text = shuffle_audit()
        .arg("merge")
        .args(&files)
        .arg("--csv")
        .arg(&merged_csv)
        .assert()
        .success();
    assert_eq!(
        std::fs::read(&whole_csv).unwrap(),
        std::fs::read(&merged_csv).unwrap()
    );
    let stderr = String::from_utf8_lossy(&merged_text.get_output().stderr).to_string();
    assert_eq!(
        stderr,
        "shuffle-audit: merged 2 shards of a run of 49,157 shuffles per algorithm\n"
    );
    // The first line names the threads, the last but one the time taken.
    let timeless = |output: &assert_cmd::assert::Assert| -> Vec<String> {
        let text = String::from_utf8_lossy(&output.get_output().stdout).to_string();
        let lines: Vec<String> = text.lines().map(str::to_string).collect();
        let mut kept = lines[1..lines.len() - 2].to_vec();
        kept.push(lines[lines.len() - 1].clone());
        kept
    };
    assert_eq!(timeless(&whole_text), timeless(&merged_text));
    assert!(
        timeless(&merged_text)
            .last()
            .unwrap()
            .ends_with(&format!("--trials {TRIALS} --seed 9"))
    );
}

#[test]
fn a_shards_own_report_says_which_shard_of_which_run_it_is() {
    let output = command(&format!(
        "run fisher-yates --n 4 --trials {TRIALS} --seed 2 --shard 2/3 --threads 1"
    ))
    .assert()
    .success();
    let text = String::from_utf8_lossy(&output.get_output().stdout).to_string();
    // Four chunks: shard 2 of 3 runs only chunk 1, 16,384 shuffles.
    assert!(
        text.starts_with("shuffle-audit ")
            && text.contains(": 4 cards, 16,384 shuffles per algorithm, seed 2,"),
        "{text}"
    );
    assert!(
        text.contains("shard 2 of 3 of a run of 49,157 shuffles per algorithm;"),
        "{text}"
    );
    assert!(text.contains(&format!(
        "reproduce: shuffle-audit run fisher-yates --n 4 --trials {TRIALS} --seed 2 --shard 2/3"
    )));
    let dir = tempfile::tempdir().unwrap();
    let json = read_json(&run_to(
        dir.path(),
        &format!("run fisher-yates --n 4 --trials {TRIALS} --seed 2 --shard 2/3"),
        "s.json",
    ));
    assert_eq!(json["trials"], 16_384);
    assert_eq!(json["results"][0]["trials"], 16_384);
    assert_eq!(
        json["shard"],
        serde_json::json!({"index": 2, "count": 3, "run_trials": TRIALS})
    );
}

/// Runs `args` and checks that it fails with status 2 and one line of error containing
/// `message`.
fn fails_with(args: &[&std::ffi::OsStr], message: &str) {
    let mut command = shuffle_audit();
    command.args(args);
    let error = usage_error_of(command);
    assert!(error.contains(message), "expected '{message}' in: {error}");
}

fn args<'a>(line: &'a str, files: &'a [PathBuf]) -> Vec<&'a std::ffi::OsStr> {
    line.split_whitespace()
        .map(std::ffi::OsStr::new)
        .chain(files.iter().map(|file| file.as_os_str()))
        .collect()
}

#[test]
fn bad_shards_are_one_line_errors() {
    let run = format!("run fisher-yates --n 4 --trials {TRIALS} --seed 1");
    for (shard, message) in [
        ("0/4", "shards are numbered from 1 (1/4 to 4/4)"),
        ("5/4", "there are only 4 shards"),
        ("a/b", "'a/b' is not I/K"),
        ("1/0", "the number of shards must be at least 1"),
        ("-1/4", "is not I/K"),
        (
            "5/5",
            "make only 4 chunks of 16,384, so shard 5 would run nothing",
        ),
    ] {
        fails_with(&args(&format!("{run} --shard {shard}"), &[]), message);
    }
    fails_with(
        &args("run fisher-yates --n 4 --shard 1/2", &[]),
        "--shard 1/2 needs --seed",
    );
}

#[test]
fn merge_refuses_files_that_are_not_every_shard_of_one_run() {
    let dir = tempfile::tempdir().unwrap();
    let path = |name: &str| dir.path().join(name);
    let line = format!("run naive-swap --n 4 --trials {TRIALS} --seed 1");
    let four = shard_files(dir.path(), &line, 4);
    let merge = |files: &[PathBuf], message: &str| fails_with(&args("merge", files), message);

    merge(
        &[four[0].clone(), four[2].clone()],
        "shards 2/4 and 4/4 are missing",
    );
    merge(&four[..3], "shard 4/4 is missing");
    merge(
        &[four[0].clone(), four[1].clone(), four[1].clone()],
        "shard 2/4 is given twice",
    );
    let whole = run_to(dir.path(), &line, "whole.json");
    merge(&[whole.clone(), whole.clone()], "are both the whole run");
    merge(&[four[0].clone(), whole.clone()], "shard count is 1, but");

    // Another run: each difference is named.
    for (other, what) in [
        (
            format!("run naive-swap --n 4 --trials {TRIALS} --seed 2 --shard 2/4"),
            "seed is 2",
        ),
        (
            format!("run naive-swap --n 5 --trials {TRIALS} --seed 1 --shard 2/4"),
            "n is 5",
        ),
        (
            format!("run fisher-yates --n 4 --trials {TRIALS} --seed 1 --shard 2/4"),
            "algorithms is fisher-yates",
        ),
        (
            "run naive-swap --n 4 --trials 70000 --seed 1 --shard 2/4".to_string(),
            "run trials is 70000",
        ),
        (
            format!("run naive-swap --n 4 --trials {TRIALS} --seed 1 --alpha 0.01 --shard 2/4"),
            "alpha is 0.01",
        ),
    ] {
        let file = run_to(dir.path(), &other, "other.json");
        merge(&[four[0].clone(), file], what);
    }

    // Files that are not shards at all.
    merge(&[path("absent.json")], "cannot read");
    std::fs::write(path("broken.json"), "{\"tool\": ").unwrap();
    merge(&[path("broken.json")], "not valid JSON");
    std::fs::write(
        path("other.json"),
        "{\"name\": \"package\", \"version\": \"1.0.0\"}",
    )
    .unwrap();
    merge(&[path("other.json")], "not the JSON of a shuffle-audit run");
    std::fs::write(path("list.json"), "[1, 2, 3]").unwrap();
    merge(&[path("list.json")], "not the JSON of a shuffle-audit run");
    let stream = path("stream.json");
    command("stream iid --items 3 --length 100 --streams 10 --seed 1")
        .arg("--json")
        .arg(&stream)
        .assert()
        .success();
    merge(&[stream], "written by `shuffle-audit stream`");
}

/// Writes `file` changed by `edit` to `name` in the same directory.
fn tampered(file: &Path, name: &str, edit: impl FnOnce(&mut Value)) -> PathBuf {
    let mut json = read_json(file);
    edit(&mut json);
    let path = file.with_file_name(name);
    std::fs::write(&path, serde_json::to_vec(&json).unwrap()).unwrap();
    path
}

/// Moves one count from the second row of `rows` (objects with a `count`) to the first:
/// the total stays right, so only a check of how tables fit together can see it.
fn move_one_count(rows: &mut Value) {
    for (row, change) in [(0, 1), (1, -1)] {
        let count = rows[row]["count"].as_i64().unwrap();
        rows[row]["count"] = (count + change).into();
    }
}

#[test]
fn merge_refuses_tampered_tallies() {
    let dir = tempfile::tempdir().unwrap();
    let small = run_to(
        dir.path(),
        &format!("run naive-swap --n 4 --trials {TRIALS} --seed 1"),
        "small.json",
    );
    let large = run_to(
        dir.path(),
        &format!("run fisher-yates --n 12 --trials {TRIALS} --seed 1"),
        "large.json",
    );
    let sampler = run_to(
        dir.path(),
        &format!("run bag-pick --n 6 --k 2 --trials {TRIALS} --seed 1"),
        "sampler.json",
    );
    let refused = |file: &Path, edit: fn(&mut Value), message: &str| {
        let bad = tampered(file, "bad.json", edit);
        fails_with(&args("merge", &[bad]), message);
    };
    // The file as it is merges (into itself): what follows fails for the edit alone.
    for file in [&small, &large, &sampler] {
        merged(std::slice::from_ref(file));
    }
    refused(
        &small,
        |json| json["version"] = "0.0.1".into(),
        "written by shuffle-audit 0.0.1",
    );
    refused(
        &small,
        |json| json["trials"] = 1000.into(),
        "naive-swap: trials is 49157, but the run's is 1000",
    );
    refused(
        &small,
        |json| {
            let count = &mut json["results"][0]["permutations"][5]["count"];
            *count = (count.as_u64().unwrap() + 1).into();
        },
        "naive-swap: permutations adds up to",
    );
    refused(
        &small,
        |json| json["results"][0]["permutations"][1]["permutation"] = serde_json::json!([0, 1, 2, 3]),
        "permutations row 1 is [0, 1, 2, 3], where [0, 1, 3, 2] was expected",
    );
    refused(
        &small,
        |json| move_one_count(&mut json["results"][0]["fixed_points"]),
        "fixed_points does not follow from the permutation counts",
    );
    refused(
        &small,
        |json| json["results"][0]["algorithm"] = "no-such-shuffle".into(),
        "unknown algorithm",
    );
    refused(
        &small,
        |json| json["results"][0]["elapsed_seconds"] = (-1.0).into(),
        "not a duration",
    );
    refused(
        &large,
        |json| {
            json["results"][0]["position_matrix"]
                .as_array_mut()
                .unwrap()
                .pop();
        },
        "position_matrix is not 12 rows of 12 counts",
    );
    refused(
        &large,
        |json| {
            // Row sums stay right; columns 0 and 1 do not.
            let row = &mut json["results"][0]["position_matrix"][0];
            let (a, b) = (row[0].as_u64().unwrap(), row[1].as_u64().unwrap());
            row[0] = (a + 1).into();
            row[1] = (b - 1).into();
        },
        "a column of position_matrix adds up to",
    );
    refused(
        &large,
        |json| json["results"][0]["permutations"] = serde_json::json!([]),
        "permutations are listed, but decks of more than 10 cards do not tally them",
    );
    refused(
        &large,
        |json| json["results"][0]["cycles"] = Value::Null,
        "cycles is missing",
    );
    refused(
        &sampler,
        |json| move_one_count(&mut json["results"][0]["inclusion"]),
        "inclusion does not follow from the subset counts",
    );
    refused(
        &sampler,
        |json| json["results"][0]["subsets"] = Value::Null,
        "subsets is missing",
    );
}

#[test]
fn merge_recomputes_verdicts_at_a_new_alpha() {
    // The tallies do not depend on alpha: merging at another level changes only alpha
    // and what is graded with it.
    let dir = tempfile::tempdir().unwrap();
    let line = format!("run fisher-yates --n 4 --trials {TRIALS} --seed 4");
    let files = shard_files(dir.path(), &line, 2);
    // At alpha 0.5 a fair shuffle fails one of its tests (and exits 1) more often than
    // not: the exit status follows the JSON, whichever it is.
    let mut merge = shuffle_audit();
    merge
        .arg("merge")
        .args(&files)
        .args(["--alpha", "0.5", "--json", "-"]);
    let json: Value = serde_json::from_slice(&exits_as_its_json(merge, None).stdout).unwrap();
    let single: Value = serde_json::from_slice(
        &exits_as_its_json(command(&format!("{line} --alpha 0.5 --json -")), None).stdout,
    )
    .unwrap();
    assert_eq!(json["alpha"], 0.5);
    assert_eq!(without_timing(&json), without_timing(&single));
}

#[test]
fn a_shard_count_beyond_the_chunks_is_refused_for_every_shard() {
    // 40,000 trials are 3 chunks: no split into more than 3 shards can give each a chunk,
    // and shard 1 of a billion would otherwise be accepted and merge would wait for the
    // other 999,999,999 files.
    shuffle_audit()
        .args([
            "run",
            "fisher-yates",
            "--n",
            "4",
            "--trials",
            "40000",
            "--seed",
            "1",
        ])
        .args(["--shard", "1/1000000000"])
        .assert()
        .code(2)
        .stderr(predicate::str::starts_with(
            "shuffle-audit: error: --shard 1/1000000000",
        ));
}
