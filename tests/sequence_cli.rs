//! What no single deal shows, end to end: the cases that passed before the serial,
//! rising-sequence, too-even and repeated-deck tests existed, each written the way an
//! outside program writes them, must now fail with the test that caught them named in
//! words; and the exact law of riffles must reproduce Bayer and Diaconis's table.
//!
//! Every verdict here is far from its threshold (α = 1e-6): the smallest adjusted
//! p-values are below 1e-100 where a fail is asserted, so no seed can flip one.

mod binary;

use binary::{command, exits_as_its_json, json_of, shuffle_audit, write_file};
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use serde_json::Value;

/// One GSR riffle of `deck`: a binomial cut, then each card dropped from a packet with
/// probability proportional to the packet's size (Bayer & Diaconis 1992), written plainly
/// as a user's program would, independently of the catalogue's code.
fn riffle(deck: &mut Vec<u16>, rng: &mut Xoshiro256PlusPlus) {
    let cut = (0..deck.len()).filter(|_| rng.random_bool(0.5)).count();
    let (left, right) = deck.split_at(cut);
    let (mut left, mut right) = (left.to_vec(), right.to_vec());
    left.reverse();
    right.reverse();
    let mut merged = Vec::with_capacity(deck.len());
    while !left.is_empty() || !right.is_empty() {
        let (a, b) = (left.len() as u64, right.len() as u64);
        if rng.random_range(0..a + b) < a {
            merged.push(left.pop().unwrap());
        } else {
            merged.push(right.pop().unwrap());
        }
    }
    *deck = merged;
}

fn lines_of(decks: impl Iterator<Item = Vec<u16>>) -> String {
    let mut text = String::new();
    for deck in decks {
        let words: Vec<String> = deck.iter().map(u16::to_string).collect();
        text.push_str(&words.join(" "));
        text.push('\n');
    }
    text
}

/// `ingest FILE` of `text`: its JSON (the exit status checked against it) and its
/// standard error.
fn ingest(text: &str, flags: &str) -> (Value, String) {
    let dir = tempfile::tempdir().unwrap();
    let path = write_file(dir.path(), "deals.txt", text);
    let mut ingest = command(&format!("ingest {path} {flags}"));
    ingest.args(["--json", "-"]);
    let output = exits_as_its_json(ingest, None);
    assert_eq!(output.status.code(), Some(1), "each case here is biased");
    let json: Value = serde_json::from_slice(&output.stdout).unwrap();
    (json, String::from_utf8(output.stderr).unwrap())
}

/// The named test of the first result.
fn test<'a>(json: &'a Value, name: &str) -> &'a Value {
    json["results"][0]["tests"]
        .as_array()
        .unwrap()
        .iter()
        .find(|test| test["name"] == name)
        .unwrap_or_else(|| panic!("no test {name}"))
}

/// `log10` of the adjusted p-value; JSON's `null` is a p-value of exactly 0 (`χ² = 0` on
/// its lower tail), whose logarithm no JSON number holds.
fn log10_p(test: &Value) -> f64 {
    match &test["log10_p_adjusted"] {
        Value::Null => {
            assert_eq!(test["p_adjusted"].as_f64(), Some(1e-300), "{test}");
            f64::NEG_INFINITY
        }
        log10 => log10.as_f64().unwrap(),
    }
}

#[test]
fn a_dealer_who_riffles_the_last_hand_three_times_is_caught_by_the_serial_tests() {
    // 6 cards, 300,000 deals: each deal alone is nearly uniform after many riffles, but
    // three riffles of the previous deck leave at most 8 rising sequences in the
    // relative permutation where a fair one has about 3.5 of 6 spread over 1..6.
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(14);
    let mut deck: Vec<u16> = (0..6).collect();
    let deals = (0..300_000).map(|_| {
        for _ in 0..3 {
            riffle(&mut deck, &mut rng);
        }
        deck.clone()
    });
    let (json, stderr) = ingest(&lines_of(deals), "");
    assert_eq!(json["results"][0]["verdict"], "fail");
    for name in [
        "serial-permutations",
        "serial-positions",
        "serial-rising-sequences",
    ] {
        assert!(
            log10_p(test(&json, name)) < -100.0,
            "{name}: {}",
            test(&json, name)
        );
    }
    // The deals one at a time tell nothing.
    assert!(
        log10_p(test(&json, "positions")) > -3.0,
        "{}",
        test(&json, "positions")
    );
    assert!(
        stderr.contains("fail: caught by serial-") && stderr.contains("each deal depends on the one before"),
        "{stderr}"
    );
}

#[test]
fn decks_from_a_short_seed_repeat_and_the_deck_space_is_estimated() {
    // Every deck of 52 cards from a fresh 16-bit seed (a 32-bit one needs 300,000 deals to
    // show 11 repeats; 16 bits show thousands in 20,000): N²/(2D) ≈ 3,050 repeats are
    // expected where a fair shuffle expects 10^-60.
    let deals = (0..20_000u64).map(|i| {
        let seed = Xoshiro256PlusPlus::seed_from_u64(i).random_range(0..1u64 << 16);
        let mut deck: Vec<u16> = (0..52).collect();
        deck.shuffle(&mut Xoshiro256PlusPlus::seed_from_u64(seed));
        deck
    });
    let (json, stderr) = ingest(&lines_of(deals), "");
    let repeats = &json["results"][0]["repeats"];
    let count = repeats["count"].as_u64().unwrap();
    assert!((2_500..3_700).contains(&count), "{repeats}");
    let bits = repeats["estimated_decks"]["log2"].as_f64().unwrap();
    assert!((15.8..16.2).contains(&bits), "about 2^16 decks: {repeats}");
    assert!(stderr.contains("fail: caught by repeats"), "{stderr}");
    assert!(stderr.contains("dealt twice"), "{stderr}");
}

#[test]
fn the_orders_in_turn_are_too_even_and_follow_from_each_other() {
    // The 24 orders of 4 cards in turn, 1,000 times over: no randomness at all. Every
    // order exactly 1,000 times has χ² = 0 on 23 df, and the chance of counts that even is
    // the multinomial's, 10^-42.7 (the χ² law's lower tail, 0, would overstate it).
    let mut orders = Vec::new();
    let mut order: Vec<u16> = (0..4).collect();
    for _ in 0..24 {
        orders.push(order.clone());
        order = next_permutation(order);
    }
    let deals = (0..1_000).flat_map(|_| orders.clone());
    let (json, stderr) = ingest(&lines_of(deals), "");
    let permutations = test(&json, "permutations");
    assert_eq!(permutations["too_even"], true, "{permutations}");
    assert!(log10_p(permutations) < -40.0, "{permutations}");
    assert!(stderr.contains("fail: caught by "), "{stderr}");
}

fn next_permutation(mut order: Vec<u16>) -> Vec<u16> {
    let n = order.len();
    let Some(i) = (0..n - 1).rev().find(|&i| order[i] < order[i + 1]) else {
        order.reverse();
        return order;
    };
    let j = (i + 1..n).rev().find(|&j| order[j] > order[i]).unwrap();
    order.swap(i, j);
    order[i + 1..].reverse();
    order
}

#[test]
fn randomize_inside_the_loop_is_caught_by_its_too_even_counts() {
    // Text 004: Delphi's Randomize before every shuffle, the clock moving 1 ms each: the
    // seeds walk in step and the orders come out more evenly than chance (χ² 0.04 on 23
    // df, which passed before the lower tail was tested).
    let json =
        json_of("run fisher-yates --n 4 --source clock-reseed --clock-step 1 --trials 600000 --seed 1");
    let result = &json["results"][0];
    assert_eq!(result["verdict"], "fail");
    let permutations = test(&json, "permutations");
    assert_eq!(permutations["too_even"], true, "{permutations}");
    let output =
        command("run fisher-yates --n 4 --source clock-reseed --clock-step 1 --trials 600000 --seed 1")
            .output()
            .unwrap();
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert!(
        stdout.contains("  caught by ") && stdout.contains("too even"),
        "{stdout}"
    );
}

#[test]
fn riffles_and_dealers_fail_as_the_issue_asks() {
    let json = json_of("run riffles:7 --n 52 --trials 1000000 --seed 1");
    assert_eq!(json["results"][0]["verdict"], "fail");
    assert!(log10_p(test(&json, "rising-sequences")) < -100.0);
    let json = json_of("run dealer-riffles:3 --n 52 --trials 200000 --seed 1");
    assert_eq!(json["results"][0]["verdict"], "fail");
    assert!(log10_p(test(&json, "serial-rising-sequences")) < -100.0);
    // Both are biased in the catalogue: the status is 0, the verdicts as expected.
    shuffle_audit()
        .args([
            "run",
            "dealer-riffles:3",
            "--n",
            "52",
            "--trials",
            "200000",
            "--seed",
            "1",
        ])
        .assert()
        .success()
        .stdout(predicates::str::contains("caught by serial-"));
}

#[test]
fn exact_riffles_reproduce_the_seven_shuffles_table() {
    // Bayer & Diaconis (1992), total variation for 52 cards after K riffles, K = 1..10.
    let table = [
        1.000, 1.000, 1.000, 1.000, 0.924, 0.614, 0.334, 0.167, 0.085, 0.043,
    ];
    for (k, published) in table.iter().enumerate() {
        let json = json_of(&format!("exact riffles:{} --n 52", k + 1));
        let result = &json["results"][0];
        let tv = result["total_variation"].as_f64().unwrap();
        assert_eq!((tv * 1000.0).round() / 1000.0, *published, "K = {}: {tv}", k + 1);
        assert_eq!(result["verdict"], "fail");
        assert_eq!(result["samples_needed"]["test"], "rising-sequences");
        assert_eq!(result["rising_sequence_law"].as_array().unwrap().len(), 52);
    }
    let output = command("exact riffles:7 --n 52").output().unwrap();
    assert_eq!(output.status.code(), Some(0), "biased, as the catalogue says");
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert!(stdout.contains("closed form"), "{stdout}");
    assert!(!stdout.contains("every random path enumerated"), "{stdout}");
    assert!(
        stdout.contains("total variation from uniform: 0.334061"),
        "{stdout}"
    );
    assert!(stdout.contains("most likely: the fresh deck"), "{stdout}");
}

#[test]
fn csv_carries_the_sequence_tables_with_their_expectations() {
    // A dealer's deals in order: the serial tables and the repeats row, each expectation
    // what a fair shuffle gives (the Eulerian law for rising sequences).
    let output = command("run dealer-riffles:3 --n 16 --trials 20000 --seed 3 --csv -")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    let mut reader = csv::Reader::from_reader(output.stdout.as_slice());
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    let table =
        |name: &str| -> Vec<&csv::StringRecord> { rows.iter().filter(|row| &row[1] == name).collect() };
    for name in [
        "rising_sequences",
        "serial_rising_sequences",
        "serial_cycles",
        "serial_fixed_points",
    ] {
        assert_eq!(table(name).len(), 17, "{name}: r or k from 0 to 16");
        let counted: u64 = table(name).iter().map(|row| row[4].parse::<u64>().unwrap()).sum();
        let expected: f64 = table(name).iter().map(|row| row[5].parse::<f64>().unwrap()).sum();
        assert!(
            (expected - counted as f64).abs() < 1e-6 * counted as f64,
            "{name}: {counted} vs {expected}"
        );
    }
    assert_eq!(table("serial_position").len(), 256);
    // A fair 16-card deck has one rising sequence with probability 1/16!: none expected.
    let one = table("rising_sequences")[1];
    assert!(one[5].parse::<f64>().unwrap() < 1e-6, "{one:?}");
    let repeats = table("repeats");
    assert_eq!(repeats.len(), 1);
    assert_eq!(&repeats[0][4], "0");
}
