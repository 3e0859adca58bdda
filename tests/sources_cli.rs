//! `--source` through the real binary: what `run` and `stream` record about the randomness
//! under the algorithms, that a flawed source is as reproducible as the default one
//! (thread counts, repeats, shards, the reproduce line), that each flaw shows where it
//! should, and the usage errors.
//!
//! Every run has a fixed seed, so each verdict below is the same on every machine; where a
//! verdict's margin can be derived rather than measured, the derivation is beside it.

mod binary;

use std::path::PathBuf;

use binary::{
    command, exits_as_its_json, json_of, shard_files, shuffle_audit, usage_error_of, without_timing,
};
use serde_json::Value;

/// Every source, with `clock-reseed` at its default step and at a step of its own.
const SOURCES: [&str; 5] = [
    "--source xoshiro",
    "--source msvc-rand-mod",
    "--source delphi",
    "--source clock-reseed",
    "--source clock-reseed --clock-step 0.5",
];

/// 3 full chunks of 16,384 trials and 5 more: the threads share 4 chunks.
const TRIALS: u64 = 3 * 16_384 + 5;

/// The JSON a run or stream command writes to standard output, without timing.
fn tallies_of(line: &str) -> Value {
    without_timing(&json_of(line))
}

/// The one line a usage error prints, with exit status 2 and nothing on standard output.
fn usage_error(line: &str) -> String {
    usage_error_of(command(line))
}

#[test]
fn run_and_stream_record_their_source_and_ingest_has_none() {
    for (line, what) in [
        ("run fisher-yates --n 3 --trials 1000 --seed 1", "run"),
        ("stream iid --items 3 --length 100 --streams 2 --seed 1", "stream"),
    ] {
        let json = json_of(line);
        assert_eq!(
            json["source"]["name"], "xoshiro",
            "{what}: the default is recorded too"
        );
        for (flags, name, clock_step_ms) in [
            ("--source msvc-rand-mod", "msvc-rand-mod", None),
            ("--source delphi", "delphi", None),
            ("--source clock-reseed", "clock-reseed", Some(0.001)),
            (
                "--source clock-reseed --clock-step 2.5",
                "clock-reseed",
                Some(2.5),
            ),
        ] {
            let json = json_of(&format!("{line} {flags}"));
            let source = json["source"].as_object().unwrap();
            assert_eq!(source["name"], name, "{what} {flags}");
            assert!(
                source["definition"].as_str().unwrap().len() > 50,
                "{what} {flags}"
            );
            assert!(
                source["origin"].as_str().unwrap().contains("text 00"),
                "{what} {flags}"
            );
            assert_eq!(
                source.get("clock_step_ms").and_then(Value::as_f64),
                clock_step_ms,
                "{what} {flags}"
            );
        }
    }
    let json = json_of("run fisher-yates --n 3 --trials 100 --seed 1 --source clock-reseed --clock-step 2.5");
    assert!(
        json["source"]["definition"]
            .as_str()
            .unwrap()
            .contains("advances 2.5 ms per trial")
    );
    // Samples read by `ingest` came from someone else's randomness: nothing to record.
    let dir = tempfile::tempdir().unwrap();
    let every_order = "1 2 3\n1 3 2\n2 1 3\n2 3 1\n3 1 2\n3 2 1\n".repeat(10);
    let samples = binary::write_file(dir.path(), "samples.txt", every_order);
    let items = binary::write_file(dir.path(), "items.txt", "A B C B A C\n".repeat(100));
    for line in [
        format!("ingest {samples}"),
        format!("ingest {items} --kind stream"),
    ] {
        // The verdict does not matter here (the periodic stream fails): only the record.
        let output = command(&line).args(["--json", "-"]).output().unwrap();
        let ingested: Value = serde_json::from_slice(&output.stdout).unwrap();
        assert!(ingested["results"].is_array(), "{line}");
        assert!(
            !ingested.as_object().unwrap().contains_key("source"),
            "{line}: {ingested}"
        );
    }
}

#[test]
fn every_source_gives_the_same_tallies_whatever_the_threads_and_each_its_own() {
    let mut fisher_yates_tallies = Vec::new();
    for flags in SOURCES {
        let run = format!("run naive-swap fisher-yates --n 4 --trials {TRIALS} --seed 5 {flags}");
        let one = tallies_of(&format!("{run} --threads 1"));
        assert_eq!(one, tallies_of(&format!("{run} --threads 2")), "{flags}");
        assert_eq!(
            one,
            tallies_of(&format!("{run} --threads 1")),
            "{flags}: the same twice"
        );
        fisher_yates_tallies.push(one["results"][1]["permutations"].clone());

        // Streams: the bag's state crosses every re-seeding of clock-reseed.
        let stream =
            format!("stream shuffle-bag iid --items A:5,B:3,C:1 --streams 6 --length 3000 --seed 5 {flags}");
        let one = tallies_of(&format!("{stream} --threads 1"));
        assert_eq!(one, tallies_of(&format!("{stream} --threads 2")), "{flags}");
    }
    for (i, first) in fisher_yates_tallies.iter().enumerate() {
        for (j, second) in fisher_yates_tallies.iter().enumerate().skip(i + 1) {
            assert_ne!(
                first, second,
                "{} and {} gave the same tallies",
                SOURCES[i], SOURCES[j]
            );
        }
    }
}

#[test]
fn clock_reseed_deals_the_same_deck_a_thousand_times_and_fails_fisher_yates_on_3_cards() {
    // The clock advances 1 µs per shuffle and reads whole milliseconds, so each block of
    // 1,000 shuffles is one deal repeated. 5,000 shuffles read 5 clock values: at most 5
    // of the 6 orders come out, each a multiple of 1,000 times. The smallest χ² that
    // allows (five orders at 1,000, one at 0, against 833.3 each) is 1,000 on 5 df,
    // p < 1e-200, whatever the seed: the verdict cannot be anything but fail.
    for seed in [1, 86_399_999] {
        let json = json_of(&format!(
            "run fisher-yates --n 3 --trials 5000 --seed {seed} --source clock-reseed"
        ));
        let result = &json["results"][0];
        assert_eq!(result["verdict"], "fail", "seed {seed}");
        let counts: Vec<u64> = result["permutations"]
            .as_array()
            .unwrap()
            .iter()
            .map(|order| order["count"].as_u64().unwrap())
            .collect();
        assert!(counts.iter().all(|count| count % 1000 == 0), "{counts:?}");
        assert!(counts.contains(&0), "{counts:?}");
        assert!(result["tests"][0]["statistic"].as_f64().unwrap() >= 1000.0);
        // No simulator check: the exact law assumes fair draws, which this source breaks.
        assert!(result["simulator_check"].is_null(), "{result}");
    }
}

#[test]
fn a_clock_that_moves_every_shuffle_deals_too_evenly_and_the_lower_tail_catches_it() {
    // With a 1 ms step every shuffle gets its own seed, and consecutive seeds: Delphi's
    // first output after RandSeed := s is s * 134775813 + 1, which moves by 3.1 % of its
    // range per millisecond, so the first draws sweep the range like a ruler. The orders
    // then come out far more evenly than chance would have them: at 100,000 shuffles the
    // permutation χ² is about 0.01 on 5 df, where a fair source falls below 0.05 once in
    // about 30,000 runs. Its lower tail (P(χ²₅ <= 0.01) ≈ 1e-9) fails it, and the serial
    // tests see the consecutive deals follow from each other.
    let json =
        json_of("run fisher-yates --n 3 --trials 100000 --seed 1 --source clock-reseed --clock-step 1");
    let result = &json["results"][0];
    let permutations = &result["tests"][0];
    let statistic = permutations["statistic"].as_f64().unwrap();
    assert!(statistic < 0.05, "χ² {statistic}");
    assert_eq!(permutations["too_even"], true);
    assert!(permutations["p_lower"].as_f64().unwrap() < 1e-6);
    assert_eq!(result["verdict"], "fail");
    assert!(
        result["tests"]
            .as_array()
            .unwrap()
            .iter()
            .any(|test| test["name"] == "serial-permutations" && test["p_adjusted"].as_f64().unwrap() < 1e-6),
        "{}",
        result["tests"]
    );
}

#[test]
fn clock_reseed_re_seeds_before_every_stream_item() {
    // One stream of 3,000 i.i.d. draws: the clock reads 3 values, one per block of 1,000
    // items, and every item of a block is the same first draw after the same seed.
    let json = json_of("stream iid --items 3 --streams 1 --length 3000 --seed 5 --source clock-reseed");
    let result = &json["results"][0];
    let counts: Vec<u64> = result["frequencies"]
        .as_array()
        .unwrap()
        .iter()
        .map(|item| item["count"].as_u64().unwrap())
        .collect();
    assert_eq!(counts.iter().sum::<u64>(), 3000);
    assert!(counts.iter().all(|count| count % 1000 == 0), "{counts:?}");
    assert!(result["run_lengths"]["longest"].as_u64().unwrap() >= 1000);
    assert_eq!(result["verdict"], "fail");
}

#[test]
fn msvc_rand_mod_fails_a_big_bound_quickly_and_passes_a_small_deck() {
    // Two items of weight 12,000: a draw is rand() % 24000, which gives 0..8767 two of
    // rand()'s 32,768 values each and 8768..23999 one, so A (0..11999) comes up with
    // probability 20,768 / 32,768 = 0.6338. 200,000 draws estimate it within 0.0011
    // (one standard error), so 0.6338 ± 0.01 is nine standard errors wide, and the
    // frequency χ² is about 14,000 on 1 df. From xoshiro the same stream passes at this
    // seed (smallest adjusted p 1.0).
    let line = "stream iid --items A:12000,B:12000 --length 10000 --streams 20 --seed 1";
    let json = json_of(&format!("{line} --source msvc-rand-mod"));
    let result = &json["results"][0];
    assert_eq!(result["verdict"], "fail");
    let share = result["frequencies"][0]["count"].as_f64().unwrap() / 200_000.0;
    assert!((share - 20_768.0 / 32_768.0).abs() < 0.01, "A's share {share}");
    assert_eq!(json_of(line)["results"][0]["verdict"], "pass");

    // On 5 cards the same source's bias is about 1 part in 10,000 per draw (rand() % 5
    // favours 0, 1 and 2 by 6,554 to 6,553): the χ² noncentrality of 600,000 shuffles is
    // about 0.005, nothing next to the 119 df's noise, so the run passes as a fair one
    // would (this seed: smallest adjusted p above 0.1).
    let json = json_of("run fisher-yates --n 5 --trials 600000 --seed 1 --source msvc-rand-mod");
    assert_eq!(json["results"][0]["verdict"], "pass");
}

#[test]
fn shards_of_a_flawed_source_merge_into_the_whole_run_and_sources_do_not_mix() {
    let dir = tempfile::tempdir().unwrap();
    for flags in &SOURCES[1..] {
        let line = format!("run naive-swap fisher-yates --n 4 --trials {TRIALS} --seed 11 {flags}");
        let files = shard_files(dir.path(), &line, 3);
        let mut merge = shuffle_audit();
        merge.arg("merge").args(&files).args(["--json", "-"]);
        let output = exits_as_its_json(merge, None);
        let merged: Value = serde_json::from_slice(&output.stdout).unwrap();
        assert_eq!(without_timing(&merged), tallies_of(&line), "{flags}");
    }
    // Shards of one seed drawn from different sources are not one run.
    let mixed: Vec<PathBuf> = ["delphi", "msvc-rand-mod"]
        .iter()
        .enumerate()
        .map(|(index, source)| {
            let path = dir.path().join(format!("{source}.json"));
            let mut shard = command(&format!(
                "run fisher-yates --n 4 --trials {TRIALS} --seed 11 --source {source} --shard {}/2",
                index + 1
            ));
            shard.arg("--json").arg(&path);
            exits_as_its_json(shard, Some(&path));
            path
        })
        .collect();
    let output = shuffle_audit()
        .arg("merge")
        .args(&mixed)
        .assert()
        .code(2)
        .stdout("");
    let stderr = String::from_utf8_lossy(&output.get_output().stderr).to_string();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("source is msvc-rand-mod, but") && stderr.contains("has delphi"),
        "{stderr}"
    );
    // Nor are two clock steps.
    let steps: Vec<PathBuf> = ["1", "2"]
        .iter()
        .enumerate()
        .map(|(index, step)| {
            let path = dir.path().join(format!("step-{step}.json"));
            let mut shard = command(&format!(
                "run fisher-yates --n 4 --trials {TRIALS} --seed 11 --source clock-reseed --clock-step {step} --shard {}/2",
                index + 1
            ));
            shard.arg("--json").arg(&path);
            exits_as_its_json(shard, Some(&path));
            path
        })
        .collect();
    let output = shuffle_audit().arg("merge").args(&steps).assert().code(2);
    let stderr = String::from_utf8_lossy(&output.get_output().stderr).to_string();
    assert!(
        stderr.contains("clock step 2 ms") && stderr.contains("clock step 1 ms"),
        "{stderr}"
    );
}

/// The reproduce line a run prints last when its seed came from the OS, as arguments.
fn reproduce_line(stdout: &[u8]) -> String {
    let text = String::from_utf8_lossy(stdout).to_string();
    let last = text.lines().last().unwrap();
    last.strip_prefix("reproduce: shuffle-audit ")
        .unwrap_or_else(|| panic!("no reproduce line: {last}"))
        .to_string()
}

#[test]
fn the_reproduce_line_names_the_source_and_reproduces_the_run() {
    for (line, flags) in [
        (
            "run fisher-yates --n 4 --trials 20000",
            "--source clock-reseed --clock-step 2.5",
        ),
        ("run fisher-yates --n 4 --trials 20000", "--source delphi"),
        (
            "stream iid --items 3 --length 1000 --streams 4",
            "--source msvc-rand-mod",
        ),
        (
            "stream iid --items 3 --length 1000 --streams 4",
            "--source clock-reseed",
        ),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let json_file = dir.path().join("first.json");
        let mut first_run = command(&format!("{line} {flags}"));
        first_run.arg("--json").arg(&json_file);
        let output = exits_as_its_json(first_run, Some(&json_file));
        let again = reproduce_line(&output.stdout);
        let wanted = if flags == "--source clock-reseed" {
            " --source clock-reseed --clock-step 0.001".to_string()
        } else {
            format!(" {flags}")
        };
        assert!(again.ends_with(&wanted), "{again}");
        let first: Value = serde_json::from_slice(&std::fs::read(&json_file).unwrap()).unwrap();
        assert_eq!(first["seed_origin"], "os");
        assert_eq!(without_timing(&first), tallies_of(&again), "{again}");
    }
    // With standard output taken by the JSON, the line goes to standard error.
    let output = exits_as_its_json(
        command("run fisher-yates --n 3 --trials 100 --source delphi --json -"),
        None,
    );
    let stderr = String::from_utf8_lossy(&output.stderr).to_string();
    assert!(
        stderr.starts_with("shuffle-audit: seed ") && stderr.trim_end().ends_with(" --source delphi"),
        "{stderr}"
    );
}

#[test]
fn bad_sources_and_clock_steps_are_one_line_usage_errors() {
    for base in [
        "run fisher-yates --n 3 --trials 100 --seed 1",
        "stream iid --items 3 --length 100 --streams 2 --seed 1",
    ] {
        let error = usage_error(&format!("{base} --source rand"));
        assert_eq!(
            error,
            "shuffle-audit: error: --source unknown source 'rand' (the sources are xoshiro, \
             msvc-rand-mod, delphi, clock-reseed)"
        );
        let error = usage_error(&format!("{base} --source delphi --clock-step 1"));
        assert_eq!(
            error,
            "shuffle-audit: error: --clock-step only applies to --source clock-reseed (the source is delphi)"
        );
        assert!(usage_error(&format!("{base} --clock-step 1")).contains("(the source is xoshiro)"));
        for (step, problem) in [
            (
                "abc",
                "expected milliseconds such as 1, 0.25 or 15.625 (got 'abc')",
            ),
            ("-1", "expected milliseconds such as 1, 0.25 or 15.625 (got '-1')"),
            ("0", "must be between 0.001 and 86400000 ms (got 0 µs)"),
            ("0.0001", "at most three decimals (got 0.0001)"),
            ("86400001", "must be between 0.001 and 86400000 ms"),
            (
                "1e3",
                "expected milliseconds such as 1, 0.25 or 15.625 (got '1e3')",
            ),
        ] {
            let error = usage_error(&format!("{base} --source clock-reseed --clock-step {step}"));
            assert!(
                error.contains(&format!("invalid value '{step}' for '--clock-step <MS>': "))
                    && error.contains(problem),
                "{step}: {error}"
            );
        }
    }
}
