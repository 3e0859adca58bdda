//! `shuffle-audit seeds reach` as users run it: the counts in the text and the JSON,
//! checked against the decks dealt seed by seed in this test (through the library's
//! sources and catalogue shuffle, not the command's code); the 52-card sentence; the
//! msvc-rand-mod aliasing; thread counts; and every bad input refused in one line.

mod binary;

use std::collections::HashSet;

use binary::{command, json_of};
use predicates::prelude::*;
use serde_json::Value;
use shuffle_audit::catalogue::{AlgorithmSpec, Workspace};
use shuffle_audit::format::group_thousands;
use shuffle_audit::randomness::{FlawedSource, SimulationSource, SourceKind};

/// The distinct decks `algorithm` deals on `n` cards from each seed of `seeds`.
fn dealt(source: &str, algorithm: &str, n: usize, seeds: std::ops::Range<u64>) -> HashSet<Vec<u16>> {
    let kind = SourceKind::parse(source, None).unwrap();
    let shuffle = AlgorithmSpec::parse(algorithm)
        .unwrap()
        .algorithm
        .as_permutation()
        .unwrap();
    let mut workspace = Workspace::default();
    seeds
        .map(|seed| {
            let mut generator = match FlawedSource::from_state(kind, seed as u32) {
                Some(flawed) => SimulationSource::Flawed(flawed),
                None => SimulationSource::from_seed(seed),
            };
            let mut deck: Vec<u16> = (0..n as u16).collect();
            shuffle.shuffle(&mut deck, &mut generator, &mut workspace);
            deck
        })
        .collect()
}

fn permutation(example: &Value) -> Vec<u16> {
    example["permutation"]
        .as_array()
        .unwrap()
        .iter()
        .map(|card| card.as_u64().unwrap() as u16)
        .collect()
}

#[test]
fn a_small_deck_is_counted_exactly_and_its_missing_orders_are_never_dealt() {
    let truth = dealt("msvc-rand-mod", "naive-swap", 7, 0..1 << 12);
    let json = json_of("seeds reach --source msvc-rand-mod --algorithm naive-swap --n 7 --seed-bits 12");
    assert_eq!(json["command"], "seeds reach");
    assert_eq!(json["source"]["name"], "msvc-rand-mod");
    assert!(json["source"]["definition"].as_str().unwrap().contains("214013"));
    assert_eq!(json["algorithm"], "naive-swap");
    assert_eq!(json["n"], 7);
    assert_eq!(json["seeds"]["chosen_by"], "seed-bits");
    assert_eq!(json["seeds"]["seed_bits"], 12);
    assert_eq!(json["seeds"]["count"], 4096);
    assert_eq!(json["seeds"]["meaning"], "srand(seed)");
    assert_eq!(json["orders_total"]["exact"], 5040);
    assert_eq!(json["orders_total"]["decimal"], "5040");
    assert_eq!(json["reachable_bound"]["count"], 4096);
    let reachable = &json["reachable"];
    assert_eq!(reachable["method"], "bitset");
    assert_eq!(reachable["exact"], true);
    assert_eq!(reachable["count"], truth.len() as u64);
    assert_eq!(reachable["standard_error"], 0.0);
    let examples = json["examples"].as_array().unwrap();
    assert!(!examples.is_empty());
    for example in examples {
        assert_eq!(example["dealt"], false);
        assert!(example["rank"].is_u64());
        assert!(!truth.contains(&permutation(example)), "{example}");
    }
    assert!(json["elapsed_seconds"].as_f64().unwrap() >= 0.0);
    assert!(json["seeds_per_second"].as_f64().unwrap() > 0.0);

    command("seeds reach --source msvc-rand-mod --algorithm naive-swap --n 7 --seed-bits 12")
        .assert()
        .success()
        .stdout(predicate::str::contains(format!(
            "reachable: {} of 5,040 orders",
            group_thousands(truth.len() as u64)
        )))
        .stdout(predicate::str::contains("counted exactly (a bit for every order)"))
        .stdout(predicate::str::contains("seeds: 0..4,096 (2^12), 4,096 seeds, each srand(seed)"))
        .stdout(predicate::str::contains(
            "reproduce: shuffle-audit seeds reach --n 7 --algorithm naive-swap --source msvc-rand-mod --seed-bits 12",
        ));
}

#[test]
fn fifty_two_cards_get_the_bound_in_plain_words() {
    // log2(52!) = 225.581..., so 2^10 seeds leave one deal in 2^215.6.
    command("seeds reach --source delphi --n 52 --seed-bits 10")
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "Only 1,024 of the 80,658,175,170,943,878,571,660,636,856,403,766,975,289,505,440,883,277,824,000,000,000,000 \
             possible deals can ever come out: one in about 2^215.6.",
        ))
        .stdout(predicate::str::contains("52! = 80,658,175,170,943,878,571,660,636,856,403,766,975,289,505,440,883,277,824,000,000,000,000 (2^225.58)"))
        .stdout(predicate::str::contains("reachable at most: min(seeds, 52!) = 1,024 (2^10.00)"))
        .stdout(predicate::str::contains("unreachable, proven"))
        .stdout(predicate::str::contains(
            "identity         1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52",
        ));
}

#[test]
fn larger_decks_are_estimated_and_say_so() {
    // 2^21 seeds on 20 cards: more distinct orders than the sample's 2^20, so it samples.
    // Delphi's 2^21 states deal 2^21 different decks (checked for 2^14 of them below);
    // the estimate's relative standard error is about 0.1 %, and 5 of them are allowed.
    let json = json_of("seeds reach --source delphi --n 20 --seed-bits 21");
    let reachable = &json["reachable"];
    assert_eq!(reachable["method"], "distinct-sampling");
    assert_eq!(reachable["exact"], false);
    assert!(reachable.get("count").is_none());
    assert!(reachable["sampling_level"].as_u64().unwrap() >= 1);
    let estimate = reachable["estimate"].as_f64().unwrap();
    let error = reachable["standard_error"].as_f64().unwrap();
    assert!(
        (estimate - 2f64.powi(21)).abs() <= 5.0 * error,
        "{estimate} ± {error}"
    );
    assert_eq!(dealt("delphi", "fisher-yates", 20, 0..1 << 14).len(), 1 << 14);
    assert_eq!(json["orders_total"]["exact"], Value::Null, "20! is past 2^53");
    assert_eq!(json["orders_total"]["decimal"], "2432902008176640000");
    assert_eq!(json["examples"].as_array().unwrap().len(), 6);

    command("seeds reach --source delphi --n 20 --seed-bits 21")
        .assert()
        .success()
        .stdout(predicate::str::contains("an estimate, not a count"))
        .stdout(predicate::str::contains("adaptive distinct sampling"))
        .stdout(predicate::str::contains("within 3 standard errors of the bound"));
}

#[test]
fn msvc_rand_deals_one_deck_for_two_seeds_2_to_the_31_apart() {
    // The second window repeats the first one's decks exactly: bit 31 of the state never
    // reaches rand(). Thirteen cards are counted exactly while they fit in the sample.
    let line =
        "seeds reach --source msvc-rand-mod --n 13 --seed-range 0..10000 --seed-range 2147483648..2147493648";
    let json = json_of(line);
    let first = dealt("msvc-rand-mod", "fisher-yates", 13, 0..10_000);
    let second = dealt("msvc-rand-mod", "fisher-yates", 13, (1 << 31)..(1 << 31) + 10_000);
    assert_eq!(first, second);
    assert_eq!(json["reachable"]["exact"], true);
    assert_eq!(json["reachable"]["count"], first.len() as u64);
    assert_eq!(json["seeds"]["count"], 20_000);
    assert_eq!(json["seeds_per_reachable_order"], 20_000.0 / first.len() as f64);
    command(line)
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "seeds: 0..10,000 and 2,147,483,648..2,147,493,648, 20,000 seeds",
        ))
        .stdout(predicate::str::contains("dealt by 2.00 seeds on average"));
}

#[test]
fn the_result_does_not_depend_on_the_thread_count() {
    for line in [
        "seeds reach --source delphi --algorithm asf-poker --n 9 --seed-bits 18",
        "seeds reach --source msvc-rand-mod --n 20 --seed-bits 21",
    ] {
        let one = json_of(&format!("{line} --threads 1"));
        let two = json_of(&format!("{line} --threads 2"));
        assert_eq!(one["threads"], 1);
        assert_eq!(two["threads"], 2);
        assert_eq!(one["reachable"], two["reachable"], "{line}");
        assert_eq!(one["examples"], two["examples"], "{line}");
    }
}

#[test]
fn clock_reseed_walks_milliseconds_of_a_day() {
    let truth = dealt("clock-reseed", "sattolo", 6, 86_000_000..86_400_000);
    // Sattolo deals only the 5! = 120 single cycles of 6 cards.
    assert!(truth.len() <= 120);
    command("seeds reach --source clock-reseed --clock-step 2 --algorithm sattolo --n 6 --seed-range 86000000..86400000")
        .assert()
        .success()
        .stdout(predicate::str::contains("each Randomize with the clock reading seed ms"))
        .stdout(predicate::str::contains(format!("reachable: {} of 720 orders", truth.len())))
        .stdout(predicate::str::contains("--source clock-reseed --clock-step 2 --seed-range 86000000..86400000"))
        // The identity is not a single cycle: the first missing order.
        .stdout(predicate::str::contains("rank 0    1 2 3 4 5 6"));
    command("seeds reach --help")
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "a day of milliseconds (0..86400000) for clock-reseed",
        ))
        .stdout(predicate::str::contains("At most 2^40 seeds"));
}

#[test]
fn bad_input_is_one_line_and_exit_2() {
    let cases = [
        (
            "seeds reach --source delphi --n 5 --seed-bits 33",
            "--seed-bits must be at most 32 (got 33): delphi's state has 32 bits",
        ),
        (
            "seeds reach --source clock-reseed --n 5 --seed-bits 27",
            "--seed-bits must be at most 26 (got 27): clock-reseed's clock reads 0 to 86,399,999 ms",
        ),
        (
            "seeds reach --source delphi --n 5 --seed-bits 0",
            "--seed-bits must be at least 1",
        ),
        (
            "seeds reach --n 5",
            "--source xoshiro is seeded with a 64-bit value (seed_from_u64), far too many to enumerate: \
             give --seed-bits B or --seed-range A..B",
        ),
        (
            "seeds reach --n 5 --seed-bits 41",
            "--seed-bits must be at most 40 (got 41)",
        ),
        (
            "seeds reach --n 5 --seed-range 0..2000000000000",
            "at most 2^40 = 1,099,511,627,776 are enumerated in one run",
        ),
        (
            "seeds reach --source delphi --n 5 --seed-range 5..5",
            "--seed-range 5..5 is empty",
        ),
        (
            "seeds reach --source delphi --n 5 --seed-range 9..5",
            "--seed-range 9..5 is empty",
        ),
        (
            "seeds reach --source delphi --n 5 --seed-range 0..4294967297",
            "--seed-range 0..4294967297 goes past 4294967296: delphi's state has 32 bits",
        ),
        (
            "seeds reach --source clock-reseed --n 5 --seed-range 0..86400001",
            "goes past 86400000: clock-reseed's clock reads 0 to 86,399,999 ms",
        ),
        (
            "seeds reach --source delphi --n 5 --seed-range 0..10 --seed-range 5..20",
            "--seed-range 0..10 and 5..20 overlap",
        ),
        (
            "seeds reach --source delphi --n 5 --seed-range 5-10",
            "expected A..B",
        ),
        (
            "seeds reach --source delphi --n 5 --seed-range 1..=5",
            "the end is excluded",
        ),
        (
            "seeds reach --source delphi --n 5 --seed-bits 4 --seed-range 0..5",
            "cannot be used with",
        ),
        (
            "seeds reach --source delphi --n 1 --seed-bits 4",
            "--n must be at least 2 (got 1)",
        ),
        (
            "seeds reach --source delphi --n 2001 --seed-bits 4",
            "--n must be at most 2000 (got 2001)",
        ),
        ("seeds reach --source delphi --n -3 --seed-bits 4", "--n"),
        (
            "seeds reach --source delphi --n 5 --seed-bits 4 --algorithm bag-pick",
            "bag-pick is a sampler (it picks k of n items); seeds reach deals whole decks",
        ),
        (
            "seeds reach --source delphi --n 5 --seed-bits 4 --algorithm fisher-yate",
            "did you mean 'fisher-yates'",
        ),
        (
            "seeds reach --source rand --n 5 --seed-bits 4",
            "unknown source 'rand'",
        ),
        (
            "seeds reach --source delphi --clock-step 2 --n 5 --seed-bits 4",
            "--clock-step only applies to --source clock-reseed",
        ),
        (
            "seeds reach --source delphi --n 5 --seed-bits 4 --threads 0",
            "--threads must be between 1 and 256 (got 0)",
        ),
        (
            "seeds reach --source delphi --n 5 --seed-bits 4 --json /nonexistent/dir/x.json",
            "the directory /nonexistent/dir does not exist",
        ),
    ];
    for (args, message) in cases {
        let output = command(args).assert().code(2).get_output().clone();
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert!(stderr.starts_with("shuffle-audit: "), "{args:?}: {stderr}");
        assert!(stderr.contains(message), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: not one line: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert!(output.stdout.is_empty(), "{args:?}: printed before failing");
    }
}

#[test]
fn json_to_a_file_is_written_and_the_text_still_printed() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("reach.json");
    command(&format!(
        "seeds reach --source delphi --n 4 --seed-bits 8 --json {}",
        path.display()
    ))
    .assert()
    .success()
    .stdout(predicate::str::contains(
        "reachable: 24 of 24 orders (every order)",
    ));
    let json: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(
        json["reachable"]["count"],
        dealt("delphi", "fisher-yates", 4, 0..256).len() as u64
    );
    let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert_eq!(names.len(), 1, "no temporary file is left behind");
}
