//! `seeds reach` against brute force: the decks each seed deals, collected in a
//! `HashSet` by calling the catalogue shuffle with the source made by
//! `FlawedSource::from_state` (or `SimulationSource::from_seed` for xoshiro), one seed at
//! a time, without any of the code under test.

#![allow(
    clippy::single_range_in_vec_init,
    reason = "lists of seed ranges, often of one range"
)]

use std::collections::HashSet;
use std::ops::Range;

use super::*;
use crate::randomness::{ClockStep, FlawedSource, SimulationSource};
use crate::simulate::NoProgress;

const SOURCES: [&str; 4] = ["msvc-rand-mod", "delphi", "clock-reseed", "xoshiro"];

fn source(name: &str) -> SourceKind {
    // A clock step other than the default: it must not matter for one shuffle per seed.
    let step = (name == "clock-reseed").then(|| "7".parse::<ClockStep>().unwrap());
    SourceKind::parse(name, step).unwrap()
}

fn settings(source: SourceKind, algorithm: &str, n: usize, seeds: &[Range<u64>]) -> ReachSettings {
    ReachSettings {
        source,
        algorithm: AlgorithmSpec::parse(algorithm).unwrap(),
        n,
        seeds: SeedSpace::resolve(source, None, seeds).unwrap(),
        threads: 2,
        sample_capacity: DEFAULT_SAMPLE_CAPACITY,
    }
}

/// Every distinct deck the seeds deal, one seed at a time.
fn brute_force(settings: &ReachSettings) -> HashSet<Vec<u16>> {
    let algorithm = settings.algorithm.algorithm.as_permutation().unwrap();
    let mut workspace = Workspace::default();
    let mut decks = HashSet::new();
    for range in settings.seeds.ranges() {
        for seed in range.clone() {
            let mut generator = match FlawedSource::from_state(settings.source, seed as u32) {
                Some(flawed) => SimulationSource::Flawed(flawed),
                None => SimulationSource::from_seed(seed),
            };
            let mut deck: Vec<u16> = (0..settings.n as u16).collect();
            algorithm.shuffle(&mut deck, &mut generator, &mut workspace);
            decks.insert(deck);
        }
    }
    decks
}

fn run(settings: &ReachSettings) -> ReachReport {
    reach(settings, &NoProgress).unwrap()
}

#[test]
fn exact_counts_match_brute_force_for_every_source() {
    for name in SOURCES {
        for algorithm in ["fisher-yates", "naive-swap", "asf-poker"] {
            for n in 4..=6 {
                let settings = settings(source(name), algorithm, n, &[1000..1000 + 4096]);
                let truth = brute_force(&settings);
                let report = run(&settings);
                let case = format!("{name} {algorithm} n={n}");
                assert_eq!(
                    report.reachable,
                    Reachable::Exact {
                        count: truth.len() as u64
                    },
                    "{case}"
                );
                assert_eq!(report.method(), "bitset");
                for example in &report.examples {
                    assert!(!truth.contains(&example.order), "{case}: {example:?} is dealt");
                }
                let orders = report.orders.exact.unwrap();
                assert_eq!(report.examples.is_empty(), truth.len() as u64 == orders, "{case}");
            }
        }
    }
}

#[test]
fn a_full_sixteen_bit_space_reaches_every_five_card_order_unless_the_shuffle_cannot() {
    for name in ["msvc-rand-mod", "delphi"] {
        let fair = settings(source(name), "fisher-yates", 5, &[0..1 << 16]);
        let truth = brute_force(&fair);
        assert_eq!(truth.len(), 120, "{name}: brute force");
        let report = run(&fair);
        assert_eq!(report.reachable.exact_count(), Some(120));
        assert!(report.examples.is_empty());
        assert!(!report.seeds_are_fewer_than_orders());

        // asf-poker never leaves the last card last: 4! = 24 of the 120 orders are out.
        let poker = settings(source(name), "asf-poker", 5, &[0..1 << 16]);
        let truth = brute_force(&poker);
        let report = run(&poker);
        assert_eq!(report.reachable.exact_count(), Some(truth.len() as u64));
        assert!(truth.len() <= 96, "{name}: {}", truth.len());
        assert!(truth.iter().all(|deck| deck[4] != 4));
        assert_eq!(
            report.examples[0].order,
            [0, 1, 2, 3, 4],
            "the identity is missing first"
        );
    }
}

#[test]
fn thirteen_cards_are_counted_exactly_while_every_order_fits_in_the_sample() {
    for name in SOURCES {
        for algorithm in ["fisher-yates", "naive-swap"] {
            let settings = settings(source(name), algorithm, 13, &[5..5 + (1 << 14)]);
            let truth = brute_force(&settings);
            let report = run(&settings);
            assert_eq!(report.method(), "distinct-sampling");
            assert_eq!(
                report.reachable.exact_count(),
                Some(truth.len() as u64),
                "{name} {algorithm}"
            );
            assert_eq!(report.examples.len(), 6);
            for example in &report.examples {
                assert_eq!(example.dealt, truth.contains(&example.order), "{example:?}");
            }
        }
    }
}

#[test]
fn thirteen_card_estimates_are_within_their_stated_error() {
    // 2^14 seeds sampled down to at most 512 distinct orders: kept between 256 and 512,
    // a relative standard error of 4.4 % to 6.3 %. The seeds and the hash are fixed, so
    // each case gives one fixed answer; allowing 4 standard errors, a hash that sampled
    // the distinct orders uniformly would miss with probability 6e-5 per case, while a
    // sample that counted repeats or lost orders would miss by far more.
    for name in SOURCES {
        for algorithm in ["fisher-yates", "asf-poker"] {
            let mut settings = settings(source(name), algorithm, 13, &[0..1 << 14]);
            settings.sample_capacity = 512;
            let truth = brute_force(&settings).len() as f64;
            let report = run(&settings);
            let Reachable::Sampled(count) = report.reachable else {
                panic!("13 cards are sampled");
            };
            let case = format!("{name} {algorithm}: {count:?}, truth {truth}");
            assert!(count.level >= 5 && count.kept <= 512, "{case}");
            assert!(report.reachable.exact_count().is_none(), "{case}");
            let error = (report.reachable.estimate() - truth).abs();
            assert!(error <= 4.0 * report.reachable.standard_error(), "{case}");
        }
    }
}

#[test]
fn msvc_rand_deals_the_same_deck_from_seeds_two_to_the_31_apart() {
    // Bit 31 of the state never reaches rand(): the second window adds no new deck.
    let low = [0..1 << 14];
    let both = [0..1 << 14, (1 << 31)..(1 << 31) + (1 << 14)];
    let msvc = source("msvc-rand-mod");
    let alone = run(&settings(msvc, "fisher-yates", 13, &low));
    let together = settings(msvc, "fisher-yates", 13, &both);
    let report = run(&together);
    assert_eq!(report.reachable.exact_count(), alone.reachable.exact_count());
    assert_eq!(
        report.reachable.exact_count(),
        Some(brute_force(&together).len() as u64)
    );
    assert!(
        (report.seeds_per_order() - 2.0).abs() < 0.01,
        "{}",
        report.seeds_per_order()
    );
    // Delphi's Random uses every bit of its state: the second window doubles the count.
    let delphi = settings(source("delphi"), "fisher-yates", 13, &both);
    let report = run(&delphi);
    assert_eq!(
        report.reachable.exact_count(),
        Some(brute_force(&delphi).len() as u64)
    );
    assert!(report.reachable.estimate() > 1.99 * alone.reachable.estimate());
}

#[test]
fn results_do_not_depend_on_the_thread_count() {
    for (n, capacity) in [(6, DEFAULT_SAMPLE_CAPACITY), (13, 300), (30, 1000)] {
        let mut base = settings(source("msvc-rand-mod"), "naive-swap", n, &[77..77 + 200_000]);
        base.sample_capacity = capacity;
        let runs: Vec<ReachReport> = [1, 2, 3]
            .into_iter()
            .map(|threads| {
                let settings = ReachSettings {
                    threads,
                    ..base.clone()
                };
                run(&settings)
            })
            .collect();
        for report in &runs[1..] {
            assert_eq!(report.reachable, runs[0].reachable, "n = {n}");
            assert_eq!(report.examples, runs[0].examples, "n = {n}");
        }
        if n > MAX_BITSET_N {
            assert!(runs[0].reachable.exact_count().is_none(), "n = {n} is sampled");
        }
    }
}

#[test]
fn clock_reseed_is_delphi_seeded_with_the_clock_reading() {
    let window = [86_400_000 - 5000..86_400_000];
    let clock = run(&settings(source("clock-reseed"), "asf-poker", 20, &window));
    let delphi = run(&settings(source("delphi"), "asf-poker", 20, &window));
    assert_eq!(clock.reachable, delphi.reachable);
    assert_eq!(clock.examples, delphi.examples);
}

#[test]
fn samplers_and_decks_out_of_range_are_refused() {
    let delphi = source("delphi");
    let mut bad = settings(delphi, "bag-pick", 10, &[0..10]);
    let error = bad.validate().unwrap_err().to_string();
    assert!(error.contains("bag-pick is a sampler"), "{error}");
    bad.algorithm = AlgorithmSpec::parse("fisher-yates").unwrap();
    for n in [0, 1, MAX_N + 1] {
        bad.n = n;
        let error = reach(&bad, &NoProgress).unwrap_err().to_string();
        assert!(error.starts_with("--n must be"), "{error}");
    }
    bad.n = 5;
    bad.threads = 0;
    assert!(reach(&bad, &NoProgress).is_err());
}

#[test]
fn an_estimate_is_compared_with_the_bound() {
    // Delphi deals 2^21 different 20-card decks from 2^21 seeds (the brute force says
    // so for the first 2^14): the estimate meets the bound; msvc-rand-mod's two windows
    // 2^31 apart deal every deck twice, so half the bound is far outside 3 errors.
    let mut delphi = settings(source("delphi"), "fisher-yates", 20, &[0..1 << 21]);
    delphi.sample_capacity = 1 << 12;
    assert_eq!(
        brute_force(&settings(source("delphi"), "fisher-yates", 20, &[0..1 << 14])).len(),
        1 << 14
    );
    assert!(run(&delphi).estimate_meets_bound());
    let mut msvc = settings(
        source("msvc-rand-mod"),
        "fisher-yates",
        20,
        &[0..1 << 20, (1 << 31)..(1 << 31) + (1 << 20)],
    );
    msvc.sample_capacity = 1 << 12;
    let report = run(&msvc);
    assert!(!report.estimate_meets_bound());
    assert!(
        (report.seeds_per_order() - 2.0).abs() < 0.15,
        "{}",
        report.seeds_per_order()
    );
    // An exact count is never called an estimate.
    assert!(!run(&settings(source("delphi"), "fisher-yates", 20, &[0..1000])).estimate_meets_bound());
}

#[test]
fn the_report_states_the_bound_and_the_deck_count() {
    let report = run(&settings(source("delphi"), "fisher-yates", 52, &[0..1000]));
    assert_eq!(report.bound(), 1000);
    assert!(report.seeds_are_fewer_than_orders());
    assert_eq!(report.reachable.exact_count(), Some(1000));
    assert!(report.examples.iter().all(|example| !example.dealt));
    let small = run(&settings(source("delphi"), "fisher-yates", 3, &[0..1000]));
    assert_eq!(small.bound(), 6);
    assert_eq!(small.reachable.exact_count(), Some(6));
}
