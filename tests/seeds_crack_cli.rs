//! `shuffle-audit seeds crack` and `seeds deal` as users run them: the online-poker
//! deal recovered from five cards, a window that misses, thread counts, other sources
//! and shuffles, and every input mistake as a one-line error.
//!
//! The decks a seed deals are computed here from the library's generators and shuffles
//! called directly (not through `seeds deal`), so the round trip checks the command
//! against an independent dealing of the same deck.

mod binary;

use binary::shuffle_audit;
use predicates::prelude::*;
use serde_json::Value;
use shuffle_audit::catalogue::{asf_poker, fisher_yates};
use shuffle_audit::randomness::{DelphiRandom, MsvcRand};

/// 14:00:12.345 in milliseconds since midnight: `Randomize` at that moment.
const DEAL_MS: u32 = 50_412_345;

/// The deck the 1999 poker server dealt after `Randomize` at `ms`.
fn poker_deck(ms: u32) -> Vec<u16> {
    let mut deck: Vec<u16> = (1..=52).collect();
    asf_poker(&mut deck, &mut DelphiRandom::from_state(ms));
    deck
}

/// What the first of five players sees: the top card and his second hole card (position
/// 6, one card to each player in turn), then the flop after one burned card (positions
/// 12 to 14), as `--seen` and `--seen-at`.
fn five_seen(deck: &[u16]) -> [String; 2] {
    let at: Vec<String> = [6, 12, 13, 14]
        .iter()
        .map(|&position| format!("{position}:{}", deck[position - 1]))
        .collect();
    [deck[0].to_string(), at.join(",")]
}

fn crack(args: &[&str]) -> assert_cmd::Command {
    let mut command = shuffle_audit();
    command.args(["seeds", "crack"]).args(args);
    command
}

fn json(output: &[u8]) -> Value {
    serde_json::from_slice(output).expect("valid JSON on standard output")
}

#[test]
fn the_poker_deal_is_recovered_from_five_cards() {
    let deck = poker_deck(DEAL_MS);
    let [top, at] = five_seen(&deck);
    let args = [
        "--source",
        "delphi",
        "--algorithm",
        "asf-poker",
        "--window",
        "13:59:00..14:01:00",
        "--seen",
        &top,
        "--seen-at",
        &at,
    ];
    // Each of the 120,000 seeds shows these five cards by chance with probability
    // 1/311,875,200 (if its deal were random): a false match would turn up in about 4e-4
    // of such windows, so the true seed must be among the matches; this one's is alone
    // (the output says 1 seed), which the text assertion checks too.
    crack(&args)
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "seeds 13:59:00.000..14:01:00.000 (120,000 seeds)",
        ))
        .stdout(predicate::str::contains("1 seed deals what was seen"))
        .stdout(predicate::str::contains("seed 50412345 (14:00:12.345) deals:"))
        .stdout(predicate::str::contains(format!("1: [{}]", deck[0])));
    let output = crack(&args).args(["--json", "-"]).assert().success();
    let report = json(&output.get_output().stdout);
    assert_eq!(report["command"], "seeds crack");
    assert_eq!(report["source"]["name"], "delphi");
    assert_eq!(report["window"]["seeds"], 120_000);
    assert_eq!(report["seen"].as_array().unwrap().len(), 5);
    let found = report["found"].as_array().unwrap();
    let ours = found
        .iter()
        .find(|found| found["seed"] == DEAL_MS)
        .expect("the dealing seed is found");
    assert_eq!(ours["time_of_day"], "14:00:12.345");
    let recovered: Vec<u16> = serde_json::from_value(ours["deck"].clone()).unwrap();
    assert_eq!(recovered, deck, "the whole deck, everyone's cards");
    assert_eq!(report["matches"], found.len() as u64);
}

#[test]
fn deal_prints_the_deck_a_seed_deals() {
    let expected: Vec<String> = poker_deck(DEAL_MS).iter().map(u16::to_string).collect();
    for seed in ["50412345", "14:00:12.345"] {
        shuffle_audit()
            .args([
                "seeds",
                "deal",
                "--source",
                "delphi",
                "--algorithm",
                "asf-poker",
                "--seed",
                seed,
            ])
            .assert()
            .success()
            .stdout(format!("{}\n", expected.join(" ")));
    }
}

#[test]
fn a_window_that_misses_the_deal_finds_nothing_and_exits_1() {
    let [top, at] = five_seen(&poker_deck(DEAL_MS));
    crack(&[
        "--source",
        "delphi",
        "--algorithm",
        "asf-poker",
        "--window",
        "14:01:00..14:03:00",
        "--seen",
        &top,
        "--seen-at",
        &at,
    ])
    .assert()
    .code(1)
    .stdout(predicate::str::contains("no seed deals what was seen"))
    .stderr("shuffle-audit: no seed of 14:01:00.000..14:03:00.000 deals what was seen\n");
}

#[test]
fn the_answer_is_the_same_on_one_thread_and_two() {
    // Two cards seen: about 45 of 120,000 seeds match, so the list has something to
    // compare.
    let run = |threads: &str| {
        let output = crack(&[
            "--source",
            "delphi",
            "--algorithm",
            "asf-poker",
            "--window",
            "50340000..50460000",
            "--seen",
            "39 5",
            "--threads",
            threads,
            "--json",
            "-",
        ])
        .assert()
        .success();
        let mut report = json(&output.get_output().stdout);
        let object = report.as_object_mut().unwrap();
        object.remove("elapsed_seconds");
        object.remove("threads");
        report
    };
    let one = run("1");
    assert!(one["matches"].as_u64().unwrap() > 10, "{}", one["matches"]);
    assert_eq!(one, run("2"));
}

#[test]
fn other_sources_and_shuffles_round_trip() {
    // srand(1,700,000,123) (a Unix time, as srand(time(NULL)) gives) and a correct
    // Fisher-Yates on the C library's rand() % n.
    let seed = 1_700_000_123;
    let mut deck: Vec<u16> = (1..=52).collect();
    fisher_yates(&mut deck, &mut MsvcRand::from_state(seed));
    let top: Vec<String> = deck[..6].iter().map(u16::to_string).collect();
    let output = crack(&[
        "--source",
        "msvc-rand-mod",
        "--algorithm",
        "fisher-yates",
        "--window",
        "1699999000..=1700001000",
        "--seen",
        &top.join(" "),
        "--json",
        "-",
    ])
    .assert()
    .success();
    let report = json(&output.get_output().stdout);
    let found = report["found"].as_array().unwrap();
    let ours = found.iter().find(|found| found["seed"] == seed).expect("found");
    assert!(
        ours.get("time_of_day").is_none(),
        "a window of seeds, not of times"
    );
    let recovered: Vec<u16> = serde_json::from_value(ours["deck"].clone()).unwrap();
    assert_eq!(recovered, deck);
}

#[test]
fn the_json_can_go_to_a_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("crack.json");
    crack(&[
        "--source",
        "delphi",
        "--algorithm",
        "asf-poker",
        "--window",
        "0..1000",
        "--seen",
        "1",
        "--json",
        path.to_str().unwrap(),
    ])
    .assert()
    .success()
    .stdout(predicate::str::contains("seeds deal what was seen"));
    let report: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    assert_eq!(report["window"]["text"], "0..1000");
}

#[test]
fn mistakes_are_one_line_errors_with_exit_2() {
    let poker = ["--source", "delphi", "--algorithm", "asf-poker"];
    for (args, expected) in [
        (vec!["--window", "0..10"], "nothing seen"),
        (
            vec!["--window", "0..10", "--seen", "0"],
            "--seen '0' is not a card",
        ),
        (
            vec!["--window", "0..10", "--seen", "53"],
            "cards are labelled 1 to 52",
        ),
        (vec!["--window", "0..10", "--seen", "5 5"], "card 5 is seen twice"),
        (
            vec!["--window", "0..10", "--seen", "5", "--seen-at", "1:6"],
            "position 1 is given two cards, 5 and 6",
        ),
        (
            vec!["--window", "0..10", "--seen", "5", "--seen-at", "1:5"],
            "position 1 is given twice",
        ),
        (
            vec!["--window", "0..10", "--seen-at", "2=5"],
            "--seen-at '2=5' is not POS:CARD",
        ),
        (
            vec!["--window", "0..10", "--seen-at", "60:5"],
            "is not a position of the deck (1 to 52)",
        ),
        (
            vec!["--window", "10", "--seen", "5"],
            "--window '10' is not a range",
        ),
        (vec!["--window", "10..10", "--seen", "5"], "holds no seed"),
        (
            vec!["--window", "25:00..26:00", "--seen", "5"],
            "is not a time of day",
        ),
        (
            vec!["--window", "0..4294967297", "--seen", "5"],
            "is not a seed of delphi",
        ),
        (
            vec!["--window", "0..10", "--seen", "5", "--n", "1"],
            "--n must be between 2 and 2000",
        ),
        (
            vec!["--window", "0..10", "--seen", "5", "--threads", "0"],
            "--threads must be between 1",
        ),
    ] {
        let assert = crack(&poker).args(&args).assert().code(2);
        let stderr = String::from_utf8(assert.get_output().stderr.clone()).unwrap();
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
        assert!(stderr.starts_with("shuffle-audit: error: "), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
    }
    for (args, expected) in [
        (vec!["--algorithm", "bag-pick"], "bag-pick is a sampler"),
        (vec!["--algorithm", "asf-pokr"], "unknown algorithm 'asf-pokr'"),
        (
            vec!["--algorithm", "asf-poker", "--source", "rand"],
            "unknown source 'rand'",
        ),
        (
            vec!["--algorithm", "asf-poker", "--source", "clock-reseed"],
            "the milliseconds of a day",
        ),
    ] {
        crack(&args)
            .args(["--window", "0..86400001", "--seen", "5"])
            .assert()
            .code(2)
            .stderr(predicate::str::contains(expected));
    }
    shuffle_audit()
        .args(["seeds", "deal", "--algorithm", "asf-poker", "--source", "delphi", "--seed", "4294967296"])
        .assert()
        .code(2)
        .stderr("shuffle-audit: error: --seed 4294967296 is not a seed of delphi: its seeds are 0 to 4294967295 (a 32-bit state)\n");
    crack(&poker)
        .args(["--seen", "5"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--window"));
}
