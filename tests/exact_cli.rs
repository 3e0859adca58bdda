//! `shuffle-audit exact` as users run it: the 3-card example of the README, the JSON
//! fields, samplers, and the algorithms and sizes that cannot be enumerated.

mod binary;

use binary::{command, json_of};
use predicates::prelude::*;

#[test]
fn the_3_card_naive_swap_has_27_paths_and_two_probabilities() {
    command("exact naive-swap fisher-yates --n 3")
        .assert()
        .success()
        .stdout(predicate::str::contains("naive-swap: 27 random paths, 6 orders"))
        .stdout(predicate::str::contains(
            "1 2 3          4/27   0.148148148     0.8889",
        ))
        .stdout(predicate::str::contains(
            "2 3 1          5/27   0.185185185     1.1111",
        ))
        .stdout(predicate::str::contains("ratio 1.2500"))
        .stdout(predicate::str::contains("fisher-yates: 6 random paths, 6 orders"))
        .stdout(predicate::str::contains(
            "every possible order equally likely, at 1/6",
        ));
}

#[test]
fn json_gives_every_outcome_exactly() {
    let json = json_of("exact naive-swap --n 3");
    assert_eq!(json["command"], "exact");
    let result = &json["results"][0];
    assert_eq!(result["algorithm"], "naive-swap");
    assert_eq!(result["paths"], 27);
    assert_eq!(result["denominator"], 27);
    let outcomes = result["outcomes"].as_array().unwrap();
    assert_eq!(outcomes.len(), 6);
    assert_eq!(outcomes[0]["permutation"], serde_json::json!([0, 1, 2]));
    assert_eq!(outcomes[0]["numerator"], 4);
    assert_eq!(outcomes[0]["denominator"], 27);
    assert_eq!(outcomes[0]["fraction"], "4/27");
    assert!((outcomes[1]["probability"].as_f64().unwrap() - 5.0 / 27.0).abs() < 1e-15);
    let numerators: u64 = outcomes.iter().map(|o| o["numerator"].as_u64().unwrap()).sum();
    assert_eq!(numerators, 27, "the law sums to exactly 1");
    assert!((result["total_variation"].as_f64().unwrap() - 1.0 / 18.0).abs() < 1e-15);
    assert!((result["max_ratio"].as_f64().unwrap() - 1.25).abs() < 1e-15);
    assert_eq!(result["impossible"], 0);
}

#[test]
fn samplers_are_enumerated_over_their_selections() {
    command("exact bag-pick bag-pick-c --n 6 --k 3 --sort")
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "bag-pick: 636 random paths, 20 selections",
        ))
        .stdout(predicate::str::contains(
            "every possible selection equally likely, at 1/20",
        ))
        .stdout(predicate::str::contains(
            "{2 3 4}           1   1.000000000    20.0000",
        ))
        .stdout(predicate::str::contains("impossible selections: 19 of 20"));
    let json = json_of("exact partial-fisher-yates --n 4 --k 2");
    let outcomes = json["results"][0]["outcomes"].as_array().unwrap();
    assert_eq!(outcomes.len(), 12, "4 x 3 ordered selections");
    assert_eq!(outcomes[0]["selection"].as_array().unwrap().len(), 2);
}

#[test]
fn what_cannot_be_enumerated_is_refused_with_the_reason() {
    for (line, reason) in [
        ("exact sort-random-key --n 3", "floating-point keys"),
        ("exact insert-with-retry --n 3", "no bound on their length"),
        ("exact naive-swap --n 11", "--n must be at most 10"),
        (
            "exact naive-swap --n 10",
            "random paths; enumeration walks at most",
        ),
        ("exact bag-pick --n 5", "give --k"),
        ("exact naive-swap --n 3 --k 2", "--k applies to samplers"),
        (
            "exact partial-fisher-yates --n 70000 --k 1",
            "at most 20 to enumerate a sampler",
        ),
        ("exact naive-swap --n 52 --positions --k 3", "takes no --k"),
        (
            "exact naive-swap --n 52 --positions -j 0",
            "--threads must be between",
        ),
        ("exact naive-swap --n 2001 --positions", "between 2 and 2000"),
    ] {
        command(line)
            .assert()
            .code(2)
            .stdout("")
            .stderr(predicate::str::contains(reason));
    }
}

#[test]
fn samples_needed_and_position_matrices_for_large_decks() {
    command("exact naive-swap --n 3")
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "the permutation test catches this bias at alpha 1e-6 with 99 % power after about 5,222 shuffles",
        ));
    // Billions of passes mix the deck completely: uniform, not rounding noise called a bias.
    // The catalogue calls every naive-repeated biased (its n^(Kn) paths cannot divide
    // evenly among n! orders), but the bias is far below what a position matrix holds in
    // floating point: the verdict says pass, and the exit status says that this is not
    // what the catalogue promises.
    command("exact naive-repeated:4000000000 --n 60 --positions")
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "naive-repeated:4000000000 is pass where the catalogue says biased",
        ))
        .stdout(predicate::str::contains(
            "every card is equally likely at every position",
        ))
        .stdout(predicate::str::contains("none could show a bias"));
    // The merge sort's coin comparator leaves every position uniform (its bias is in the
    // orders): the position matrix passes what the catalogue calls biased, and the exit
    // status says so.
    command("exact naive-swap fisher-yates sort-comparator-merge --n 52 --positions")
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "sort-comparator-merge is pass where the catalogue says biased",
        ))
        .stdout(predicate::str::contains(
            "most likely: card 2 at position 1 x1.3522",
        ))
        .stdout(predicate::str::contains("card 52 at position 1 x0.7429"))
        .stdout(predicate::str::contains(
            "every card is equally likely at every position (1/52, within floating-point rounding)",
        ))
        .stdout(predicate::str::contains("no exact method here"));
    let json = json_of("exact naive-swap --n 52 --positions");
    let result = &json["results"][0];
    assert_eq!(result["position_method"], "markov-chain");
    let matrix = result["position_matrix"].as_array().unwrap();
    assert_eq!(matrix.len(), 52);
    let top_of_card_2 = matrix[1][0].as_f64().unwrap();
    assert!((top_of_card_2 * 52.0 - 1.3522).abs() < 1e-4, "{top_of_card_2}");
    for row in matrix {
        let sum: f64 = row.as_array().unwrap().iter().map(|p| p.as_f64().unwrap()).sum();
        assert!((sum - 1.0).abs() < 1e-12);
    }
    assert!(result["samples_needed"]["trials"].as_u64().unwrap() > 0);
    assert_eq!(
        json_of("exact fisher-yates --n 5")["results"][0]["samples_needed"]["trials"],
        serde_json::Value::Null
    );
}

#[test]
fn exact_writes_a_report_of_the_law_and_of_position_matrices() {
    use shuffle_audit::report::chart::{count_bars, count_cells};
    let parent = tempfile::tempdir().unwrap();
    let laws = parent.path().join("laws");
    command("exact naive-swap fisher-yates --n 3 --report")
        .arg(&laws)
        .assert()
        .success();
    let read = |path: std::path::PathBuf| std::fs::read_to_string(path).unwrap();
    let chart = read(laws.join("01-naive-swap-law.svg"));
    roxmltree::Document::parse(&chart).unwrap();
    assert_eq!(count_bars(&chart), 6, "one bar per order");
    assert!(chart.contains("the equal share (exact law: no band)"));
    let page = read(laws.join("index.html"));
    assert!(page.contains("<span class=\"verdict fail\">fail</span>"));
    assert!(
        page.contains("<span class=\"verdict pass\">pass</span>"),
        "Fisher-Yates is exactly uniform"
    );
    assert!(page.contains("shuffle-audit exact naive-swap fisher-yates --n 3"));
    assert!(page.contains("4/27"));
    let positions = parent.path().join("positions");
    command("exact naive-swap --n 12 --positions --report")
        .arg(&positions)
        .assert()
        .success();
    let map = read(positions.join("01-naive-swap-positions.svg"));
    roxmltree::Document::parse(&map).unwrap();
    assert_eq!(count_cells(&map), 144);
    assert!(map.contains("exactly as"));
}

#[test]
fn one_cycle_of_each_bag_is_enumerated() {
    // Text 000's bag deals each of the 4! orders at 1/24; text 003's C# bag never deals
    // the item under its cursor, which makes its first cycle Sattolo's: only the 3! = 6
    // orders that are one single cycle, at 1/6 each.
    command("exact shuffle-bag shuffle-bag-csharp tetris-7-bag --items 4")
        .assert()
        .success()
        .stdout(predicate::str::contains("the first cycle of bags of 4 items"))
        .stdout(predicate::str::contains(
            "shuffle-bag: 24 random paths, 24 orders",
        ))
        .stdout(predicate::str::contains(
            "every possible order equally likely, at 1/24",
        ))
        .stdout(predicate::str::contains(
            "shuffle-bag-csharp: 6 random paths, 24 orders",
        ))
        .stdout(predicate::str::contains("impossible orders: 18 of 24"));
    for (line, reason) in [
        (
            "exact iid --items 4",
            "only a bag that deals one copy of each item",
        ),
        (
            "exact refill-list --items A:2,B:1",
            "only a bag that deals one copy of each item",
        ),
        ("exact shuffle-bag --items 4 --n 4", "cannot be used with"),
    ] {
        command(line)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(reason));
    }
}

#[test]
fn the_guessing_game_is_in_the_text_and_the_json() {
    // The naive swap of 3 cards: 17/9 correct guesses where a fair deck allows 11/6.
    let json = json_of("exact naive-swap fisher-yates --n 3");
    let game = &json["results"][0]["guessing"];
    assert_eq!(game["optimal"], true);
    assert_eq!(game["optimal_fraction"], "17/9");
    assert!((game["optimal_expected_correct"].as_f64().unwrap() - 17.0 / 9.0).abs() < 1e-12);
    assert!((game["fair_expected_correct"].as_f64().unwrap() - 11.0 / 6.0).abs() < 1e-12);
    assert!((game["excess"].as_f64().unwrap() - 1.0 / 18.0).abs() < 1e-12);
    assert!(game["lower_bound"].is_null());
    assert_eq!(json["results"][1]["guessing"]["optimal_fraction"], "11/6");
    // One riffle of 52 cards without enumeration; three riffles as a labelled bound.
    command("exact riffles:1 riffles:3 --n 52")
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "guessing game, the best player with complete feedback: 31.17 of 52 cards where a fair deck allows 4.54",
        ))
        .stdout(predicate::str::contains(
            "guessing game, a lower bound (no optimal strategy is known): at least 9.",
        ));
    let json = json_of("exact riffles:3 --n 52");
    let game = &json["results"][0]["guessing"];
    assert_eq!(game["optimal"], false);
    assert!(game["optimal_expected_correct"].is_null());
    let bound = game["lower_bound"].as_f64().unwrap();
    let interval = game["interval_95"].as_array().unwrap();
    assert!(interval[0].as_f64().unwrap() < bound && bound < interval[1].as_f64().unwrap());
    // Position matrices and unordered subsets are not dealt one by one: no game.
    let json = json_of("exact naive-swap --n 5 --positions");
    assert!(json["results"][0]["guessing"].is_null());
    let json = json_of("exact bag-pick --n 5 --k 2");
    assert!(json["results"][0]["guessing"].is_null());
}
