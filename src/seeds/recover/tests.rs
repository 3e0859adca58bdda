//! The whole recovery, runtime by runtime, on the deals the real runtimes dealt.

use std::sync::atomic::AtomicBool;

use super::*;
use crate::simulate::NoProgress;

/// Deals written one per line, cards numbered from 1 (the fixtures' format; a line of `#`
/// is a comment), fresh decks.
pub(super) fn observed(text: &str) -> Observed {
    Observed {
        deals: text
            .lines()
            .filter(|line| !line.starts_with('#'))
            .map(parse_deal)
            .collect(),
        carried: false,
    }
}

/// `count` deals of `n` cards, fresh decks, by the descending loop drawing `below(bound)`.
pub(super) fn dealt_by(n: usize, count: usize, mut below: impl FnMut(u32) -> u32) -> Observed {
    let deals = (0..count)
        .map(|_| {
            let mut deck: Vec<u16> = (0..n as u16).collect();
            Direction::Descending.deal(&mut deck, &mut below);
            deck
        })
        .collect();
    Observed {
        deals,
        carried: false,
    }
}

/// One deal written as the fixtures write it, cards numbered from 1.
pub(super) fn parse_deal(line: &str) -> Vec<u16> {
    line.split_whitespace()
        .map(|card| card.parse::<u16>().unwrap() - 1)
        .collect()
}

/// The fixture `name` of `tests/fixtures/recover/`, fresh decks.
pub(super) fn fixture(name: &str) -> Observed {
    let path = format!("{}/tests/fixtures/recover/{name}", env!("CARGO_MANIFEST_DIR"));
    observed(&std::fs::read_to_string(path).unwrap())
}

/// `runtime`'s search of the seeds of `window` for `observed`, predicting `predict`
/// deals, on two threads (the answer does not depend on them).
pub(super) fn searched_in(
    runtime: &dyn Runtime,
    observed: &Observed,
    window: std::ops::Range<u64>,
    predict: usize,
) -> Recovery {
    let stop = AtomicBool::new(false);
    let control = Control {
        stop: &stop,
        progress: &NoProgress,
        window: Some(window),
        quick_only: false,
    };
    crate::simulate::Engine::new(2)
        .unwrap()
        .install(|| recover(runtime, observed, predict, &control))
        .unwrap()
}

/// The 2^20 seeds around `seed`.
pub(super) fn around(seed: u64) -> std::ops::Range<u64> {
    seed - (1 << 19)..seed + (1 << 19)
}

fn recovered(runtime: &str, deals: &Observed, predict: usize) -> Result<Recovery> {
    let stop = AtomicBool::new(false);
    let control = Control {
        stop: &stop,
        progress: &NoProgress,
        window: None,
        quick_only: false,
    };
    recover(runtime_named(runtime).unwrap(), deals, predict, &control)
}

#[test]
fn java_predicts_the_deals_after_the_first() {
    let all = observed(include_str!("../../../tests/fixtures/recover/java-seed42-52.txt"));
    let first = all.first(1);
    let recovery = recovered("java", &first, 2).unwrap();
    assert!(recovery.pinned());
    assert_eq!(recovery.deals_used, 1);
    assert_eq!(
        recovery.candidates[0].seed.as_ref().map(|seed| seed.value),
        Some(42)
    );
    assert_eq!(recovery.predicted, all.deals[1..3]);
}

#[test]
fn node_predicts_the_third_deal_from_two() {
    for (file, seed) in [
        (
            include_str!("../../../tests/fixtures/recover/node-fisher-yates-seed7-52.txt"),
            7,
        ),
        (
            include_str!("../../../tests/fixtures/recover/node-lodash-seed9-52.txt"),
            9,
        ),
    ] {
        let all = observed(file);
        let first = all.first(2);
        let recovery = recovered("node", &first, 1).unwrap();
        assert!(recovery.pinned(), "{seed}");
        assert_eq!(recovery.predicted, all.deals[2..3], "{seed}");
        let found = recovery.candidates[0].seed.as_ref().unwrap();
        assert_eq!(
            (found.value, found.usage.clone()),
            (seed, format!("node --random-seed={seed}"))
        );
    }
}

/// A fresh Node's first deal of 52 cards gives away the rest: of the states that deal it
/// (one state shifted in its cache), one alone is where V8's seeding leads.
#[test]
fn node_predicts_a_fresh_process_from_one_deal() {
    let all = observed(include_str!(
        "../../../tests/fixtures/recover/node-fisher-yates-seed7-52.txt"
    ));
    let first = all.first(1);
    let recovery = recovered("node", &first, 2).unwrap();
    assert!(recovery.pinned());
    assert_eq!(recovery.predicted, all.deals[1..3]);
    let note = recovery.candidates[0].note.clone().unwrap();
    assert!(
        note.contains("only this one is where V8's own seeding leads"),
        "{note}"
    );
}

/// Real Node (`node --random-seed=4`, lodash's `_.shuffle` of 4 cards): 40 deals pin the
/// state and the next 20 are what Node dealt. Three states deal the 40 deals, the others
/// the real one shifted by one and two places in the cache: a deck of 4 shows nothing of
/// the numbers drawn where the cache is refilled (lodash's last draw of each deal,
/// `floor(x · 1)`, falls on every refill), so only V8's seeding tells them apart.
#[test]
fn node_small_deck_predicts_from_forty_deals() {
    let all = observed(include_str!(
        "../../../tests/fixtures/recover/node-lodash-seed4-4.txt"
    ));
    let first = all.first(40);
    let recovery = recovered("node", &first, 20).unwrap();
    assert!(recovery.pinned());
    assert_eq!(recovery.predicted, all.deals[40..60]);
    assert_eq!(
        recovery.candidates[0].seed.as_ref().map(|seed| seed.value),
        Some(4)
    );
    let note = recovery.candidates[0].note.clone().unwrap();
    assert!(note.contains("3 states deal these deals"), "{note}");
    // Too few deals still say so rather than guess.
    let twenty = all.first(20);
    let message = recovered("node", &twenty, 1).err().unwrap().to_string();
    assert!(message.contains("unknown: give "), "{message}");
    assert!(
        message.ends_with(" more deal") || message.ends_with(" more deals"),
        "{message}"
    );
}

#[test]
fn too_few_deals_and_too_small_decks_are_one_line_errors() {
    let all = observed(include_str!(
        "../../../tests/fixtures/recover/node-fisher-yates-seed-5-10.txt"
    ));
    let two = all.first(2);
    let message = recovered("java", &two, 0).err().unwrap().to_string();
    assert!(message.contains("2 deals of 10 cards are too few"), "{message}");
    assert!(message.contains("needs"), "{message}");
    let message = recovered("node", &two, 0).err().unwrap().to_string();
    let more: usize = message
        .split("unknown: give about ")
        .nth(1)
        .and_then(|rest| rest.strip_suffix(" more deals"))
        .and_then(|count| count.parse().ok())
        .unwrap_or_else(|| panic!("no count of deals in: {message}"));
    // Two deals of 10 cards settle about 40 of 128 bits: several more are needed.
    assert!((2..=12).contains(&more), "{message}");
    let three = Observed {
        deals: vec![vec![2, 0, 1]; 40],
        carried: false,
    };
    let message = recovered("java", &three, 0).err().unwrap().to_string();
    assert!(message.contains("at least 6 cards"), "{message}");
    assert!(
        runtime_named("jav")
            .err()
            .unwrap()
            .contains("did you mean 'java'")
    );
}
