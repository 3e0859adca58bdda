//! The guessing game of samplers and streams (issue 22, item 2) as users run it: the
//! biased sampler and bag are caught by it with the strategy named, the fair ones pass, and
//! the game is the same whatever the thread count or shard layout.

mod binary;

use binary::{command, json_of, merged, shard_files};
use predicates::prelude::*;
use serde_json::Value;

/// The `guessing` test and object of a result.
fn game_of(result: &Value) -> (Value, Value) {
    let test = result["tests"]
        .as_array()
        .unwrap()
        .iter()
        .find(|test| test["name"] == "guessing")
        .unwrap_or_else(|| panic!("no guessing test in {result}"))
        .clone();
    (test, result["guessing"].clone())
}

/// Text 002's C code writes k, k−1, …, 1 every time: a player who studied 8,192 samples
/// names all 3 items of every next sample (fair: 1.12), so the martingale bound is below
/// 1e-300. The three fair samplers' players stay within a few hundredths of the fair
/// value; their p-values at this fixed seed (1.0, 0.26, 1.0) are far from any threshold,
/// and the bound is conservative (a fair sampler's raw p is below 1e-6 with probability
/// below 1e-6 whatever the seed).
#[test]
fn bag_pick_c_is_caught_by_the_game_and_the_fair_samplers_pass_it() {
    let json =
        json_of("run bag-pick bag-pick-c partial-fisher-yates reservoir --n 8 --k 3 --trials 20000 --seed 1");
    let results = json["results"].as_array().unwrap();
    let (test, game) = game_of(&results[1]);
    assert!(test["log10_p_value"].as_f64().unwrap() < -300.0, "{test}");
    assert_eq!(game["strategy"], "position");
    assert_eq!(game["mean_correct"], 3.0);
    assert_eq!(game["null"], "martingale-bound");
    assert!(
        (game["fair_expected_correct"].as_f64().unwrap() - 1.12).abs() < 0.01,
        "{game}"
    );
    for index in [0, 2, 3] {
        let (test, game) = game_of(&results[index]);
        assert!(test["p_value"].as_f64().unwrap() > 0.1, "{test}");
        assert!(game["excess"].as_f64().unwrap().abs() < 0.05, "{game}");
        assert_eq!(results[index]["verdict"], "pass");
    }
    // partial-fisher-yates promises a random order: each pick is uniform over the items
    // not yet picked, so the count is exactly Poisson-binomial.
    assert_eq!(game_of(&results[2]).1["null"], "exact-poisson-binomial");
    command("run bag-pick-c --n 8 --k 3 --trials 20000 --seed 1")
        .assert()
        .code(0)
        .stdout(predicate::str::contains(
            "a player who studied 8,192 of these samples names 3.00 of the next 3 items (fair: 1.12)",
        ))
        .stdout(predicate::str::contains("strategy position"));
}

/// Text 003's Boggle bag truncates the weights before multiplying: six letters vanish and
/// the others come out more often than the stated weights say. Against a bag of the stated
/// weights the player who always names the likeliest letter gets 13.59 of 100 where a
/// correct bag allows 12.71, about ten standard errors: p 4.8e-21 by the martingale bound
/// at this seed. The corrected bag and independent draws pass (p 1.0).
#[test]
fn the_truncated_boggle_bag_is_caught_by_the_game_and_the_rounded_one_passes() {
    let json = json_of(
        "stream boggle-truncated boggle-rounded iid --items boggle --length 10000 --streams 30 --seed 1",
    );
    let results = json["results"].as_array().unwrap();
    let (test, game) = game_of(&results[0]);
    assert!(test["log10_p_value"].as_f64().unwrap() < -15.0, "{test}");
    assert_eq!(game["strategy"], "most-likely");
    assert_eq!(game["unit"], "draws");
    assert_eq!(game["window"], 100);
    for result in &results[1..] {
        let (test, _) = game_of(result);
        assert!(test["p_value"].as_f64().unwrap() > 0.1, "{test}");
        assert_eq!(result["verdict"], "pass");
    }
}

/// A stream re-seeded from a clock before every draw deals the same item again and again:
/// the player who names the last item's successor is right nearly every time.
#[test]
fn a_clock_reseeded_stream_is_caught_by_the_game() {
    let json = json_of(
        "stream iid shuffle-bag --items 7 --length 10000 --streams 30 --seed 4 --source clock-reseed",
    );
    for result in json["results"].as_array().unwrap() {
        let (test, game) = game_of(result);
        assert!(test["log10_p_value"].as_f64().unwrap() < -300.0, "{test}");
        assert!(game["excess"].as_f64().unwrap() > 1.0, "{game}");
    }
}

/// The game studies and plays the first samples or streams, a rule on their numbers: the
/// same on 1 and 2 threads, and the shards merged give the whole run's game.
#[test]
fn the_item_game_does_not_depend_on_threads_or_shards() {
    let line = "run partial-fisher-yates bag-pick --n 7 --k 3 --trials 40000 --seed 9";
    let games = |json: &Value| -> Vec<Value> {
        json["results"]
            .as_array()
            .unwrap()
            .iter()
            .map(|result| result["guessing"].clone())
            .collect()
    };
    let one = json_of(&format!("{line} --threads 1"));
    assert!(games(&one).iter().all(|game| game.is_object()));
    assert_eq!(games(&one), games(&json_of(&format!("{line} --threads 2"))));
    let directory = tempfile::tempdir().unwrap();
    let shards = shard_files(directory.path(), line, 3);
    assert_eq!(games(&one), games(&merged(&shards)));

    let line = "stream shuffle-bag iid --items A:3,B:2,C:1 --length 600 --streams 500 --seed 9";
    let one = json_of(&format!("{line} --threads 1"));
    assert!(games(&one).iter().all(|game| game.is_object()));
    assert_eq!(games(&one), games(&json_of(&format!("{line} --threads 2"))));
}
