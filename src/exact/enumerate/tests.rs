use super::*;
use crate::simulate::NoProgress;
use crate::tally::lehmer::unrank;

fn law(algorithm: PermutationAlgorithm, n: usize) -> ExactLaw {
    law_under(algorithm, n, DrawLaw::Uniform)
}

fn law_under(algorithm: PermutationAlgorithm, n: usize, draws: DrawLaw) -> ExactLaw {
    let law = enumerate_permutations(algorithm, n, draws, &NoProgress).unwrap();
    assert_eq!(
        law.numerators.iter().sum::<u128>(),
        law.denominator,
        "sums to exactly 1"
    );
    law
}

/// The catalogue's swap shuffles, read off the registry: each draws from bounds fixed by
/// the deck size and swaps two cards per draw.
fn swap_algorithms() -> Vec<PermutationAlgorithm> {
    let swapping: Vec<PermutationAlgorithm> = crate::catalogue::SHUFFLES
        .iter()
        .filter_map(|entry| entry.algorithm().as_permutation())
        .filter(|algorithm| algorithm.swap_shuffle().is_some())
        .collect();
    // The six of the source texts at least: the registry did not lose one.
    assert!(swapping.len() >= 6, "{swapping:?}");
    swapping
}

/// `work` run on a pool of `threads` threads.
fn on_threads<T: Send>(threads: usize, work: impl FnOnce() -> T + Send) -> T {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
        .install(work)
}

fn fraction_of(law: &ExactLaw, order: &[u16]) -> (u128, u128) {
    law.fraction(rank(order))
}

#[test]
fn naive_swap_on_3_cards_gives_4_27_and_5_27() {
    let law = law(PermutationAlgorithm::NaiveSwap, 3);
    assert_eq!(law.paths, 27);
    for order in [[0, 1, 2], [2, 0, 1], [2, 1, 0]] {
        assert_eq!(fraction_of(&law, &order), (4, 27), "{order:?}");
    }
    for order in [[0, 2, 1], [1, 0, 2], [1, 2, 0]] {
        assert_eq!(fraction_of(&law, &order), (5, 27), "{order:?}");
    }
    assert!((law.max_ratio() - 1.25).abs() < 1e-12);
}

#[test]
fn sattolo_gives_exactly_the_n_cycles() {
    for n in 2..=6 {
        let law = law(PermutationAlgorithm::Sattolo, n);
        let cycles = factorial(n - 1).unwrap() as u128;
        let mut order = vec![0u16; n];
        let mut visited = Vec::new();
        for cell in 0..law.numerators.len() {
            unrank(cell, &mut order);
            let one_cycle = crate::tally::structure::cycle_count(&order, &mut visited) == 1;
            let expected = if one_cycle { (1, cycles) } else { (0, 1) };
            assert_eq!(law.fraction(cell), expected, "n = {n}, {order:?}");
        }
    }
}

#[test]
fn a_right_to_left_insertion_sort_with_a_coin_comparator_on_3_cards() {
    // 1/4 to 1 2 3 and 2 1 3, 1/8 to the other four (the fact).
    let law = law(PermutationAlgorithm::SortComparatorInsertion, 3);
    assert_eq!(fraction_of(&law, &[0, 1, 2]), (1, 4));
    assert_eq!(fraction_of(&law, &[1, 0, 2]), (1, 4));
    for order in [[0, 2, 1], [1, 2, 0], [2, 0, 1], [2, 1, 0]] {
        assert_eq!(fraction_of(&law, &order), (1, 8), "{order:?}");
    }
}

#[test]
fn fisher_yates_is_exactly_uniform_up_to_8_cards() {
    for algorithm in [
        PermutationAlgorithm::FisherYates,
        PermutationAlgorithm::FisherYatesForward,
    ] {
        for n in 2..=8 {
            let law = law(algorithm, n);
            let cells = factorial(n).unwrap() as u128;
            assert!(
                (0..law.numerators.len()).all(|i| law.fraction(i) == (1, cells)),
                "{algorithm:?} on {n} cards"
            );
            assert_eq!(law.paths as u128, cells);
        }
    }
}

#[test]
fn variable_paths_and_samplers_sum_to_exactly_one() {
    for algorithm in [
        PermutationAlgorithm::SortComparatorMerge,
        PermutationAlgorithm::Riffle,
        PermutationAlgorithm::RoguelikeShuffle,
        PermutationAlgorithm::NaiveRepeated { passes: Some(2) },
    ] {
        law(algorithm, 5);
    }
    law(PermutationAlgorithm::SortRandomKeyU8, 2);
    for sampler in [
        SamplerAlgorithm::BagPick,
        SamplerAlgorithm::BagPickC,
        SamplerAlgorithm::PartialFisherYates,
        SamplerAlgorithm::Reservoir,
    ] {
        let law = enumerate_selections(sampler, 6, 3, DrawLaw::Uniform, &NoProgress).unwrap();
        assert_eq!(
            law.numerators.iter().sum::<u128>(),
            law.denominator,
            "{sampler:?}"
        );
    }
    // BAG-PICK is exactly uniform over the 20 subsets; its C code always gives one.
    let fair = enumerate_selections(SamplerAlgorithm::BagPick, 6, 3, DrawLaw::Uniform, &NoProgress).unwrap();
    assert!((0..20).all(|i| fair.fraction(i) == (1, 20)));
    let c_code =
        enumerate_selections(SamplerAlgorithm::BagPickC, 6, 3, DrawLaw::Uniform, &NoProgress).unwrap();
    assert_eq!(c_code.impossible().len(), 19);
}

#[test]
fn floats_retries_and_huge_path_counts_are_refused() {
    let message = |result: Result<ExactLaw>| result.unwrap_err().to_string();
    assert!(
        message(enumerate_permutations(
            PermutationAlgorithm::SortRandomKey,
            3,
            DrawLaw::Uniform,
            &NoProgress
        ))
        .contains("floating-point")
    );
    assert!(
        message(enumerate_permutations(
            PermutationAlgorithm::InsertWithRetry,
            3,
            DrawLaw::Uniform,
            &NoProgress
        ))
        .contains("no bound")
    );
    assert!(
        message(enumerate_permutations(
            PermutationAlgorithm::NaiveSwap,
            10,
            DrawLaw::Uniform,
            &NoProgress
        ))
        .contains("random paths")
    );
    assert!(
        message(enumerate_permutations(
            PermutationAlgorithm::NaiveSwap,
            11,
            DrawLaw::Uniform,
            &NoProgress
        ))
        .contains("at most 10")
    );
}

#[test]
fn the_law_does_not_depend_on_the_thread_count() {
    let on = |threads| on_threads(threads, || law(PermutationAlgorithm::SortComparatorMerge, 5));
    assert_eq!(on(1), on(3));
    let weighted = |threads| {
        on_threads(threads, || {
            law_under(PermutationAlgorithm::Riffle, 4, DrawLaw::RandMod)
        })
    };
    assert_eq!(weighted(1), weighted(3));
}

#[test]
fn swapping_down_the_tree_gives_the_replayed_law_of_every_swap_shuffle() {
    for algorithm in swap_algorithms() {
        let shuffle = algorithm.swap_shuffle().expect("a swap shuffle");
        for n in 0..=7 {
            let cells = factorial(n).unwrap() as usize;
            let swapped = walk_swaps(shuffle, n, cells, &NoProgress).unwrap().unwrap();
            let replayed =
                walk_replayed(algorithm, n, cells, DrawLaw::Uniform, MAX_PATHS, &NoProgress).unwrap();
            assert_eq!(swapped, replayed, "{algorithm:?} on {n} cards");
            assert_eq!(
                swapped,
                law(algorithm, n),
                "enumerate_permutations walks by swapping"
            );
        }
    }
    let on = |threads| on_threads(threads, || law(PermutationAlgorithm::NaiveSwap, 7));
    assert_eq!(on(1), on(3));
}

#[test]
fn the_rounds_counted_ahead_are_the_draws_and_paths_walked() {
    // Riffles, overhands, shelf passes and naive passes are counted without listing
    // their draws (schedule_size): the count must be what a walk of them finds.
    for name in [
        "riffles:1",
        "riffles:2",
        "overhand:1",
        "overhand:3",
        "shelf-passes:2,1",
        "naive-repeated:2",
    ] {
        let algorithm = crate::catalogue::AlgorithmSpec::parse(name)
            .unwrap()
            .algorithm
            .as_permutation()
            .unwrap();
        for n in 0..=5 {
            let (draws, paths) = schedule_size(algorithm, n).expect("counted ahead");
            let paths = paths.expect("few paths");
            if paths > 100_000 {
                continue;
            }
            let cells = factorial(n).unwrap() as usize;
            let walked = walk_replayed(
                algorithm.resolve(n),
                n,
                cells,
                DrawLaw::Uniform,
                MAX_PATHS,
                &NoProgress,
            )
            .unwrap();
            assert_eq!(walked.paths, paths, "{name} on {n} cards");
            let mut replay = Replay::default();
            algorithm.shuffle(
                &mut (0..n as u16).collect::<Vec<_>>(),
                &mut replay,
                &mut Workspace::default(),
            );
            assert_eq!(replay.bounds.len() as u64, draws, "{name} on {n} cards");
        }
    }
    // riffles:7 on 10 cards, the simulator check's case, is refused before any walk.
    let riffles = crate::catalogue::AlgorithmSpec::parse("riffles:7")
        .unwrap()
        .algorithm
        .as_permutation()
        .unwrap();
    assert_eq!(schedule_size(riffles, 10), Some((70, None)));
    assert!(enumerate_permutations_within(riffles, 10, DrawLaw::Uniform, 1_000_000, &NoProgress).is_err());
}

#[test]
fn fisher_yates_on_3_cards_under_rand_mod_by_hand() {
    // The bottom card is swapped with the one at j = rand() % 3 (0 and 1 come up
    // 10,923 times in 32,768, 2 only 10,922), then the middle with k = rand() % 2
    // (even). The six (j, k) give six different orders: j = 2 leaves the bottom card
    // in place, giving 1 2 3 (k = 1) and 2 1 3 (k = 0) at 10922/65536 = 5461/32768
    // each; the other four orders come at 10923/65536.
    let law = law_under(PermutationAlgorithm::FisherYates, 3, DrawLaw::RandMod);
    assert_eq!(law.paths, 6);
    for order in [[0, 1, 2], [1, 0, 2]] {
        assert_eq!(fraction_of(&law, &order), (5461, 32_768), "{order:?}");
    }
    for order in [[0, 2, 1], [1, 2, 0], [2, 0, 1], [2, 1, 0]] {
        assert_eq!(fraction_of(&law, &order), (10_923, 65_536), "{order:?}");
    }
}

#[test]
fn weighted_paths_match_a_brute_force_product_of_weights() {
    // Every path of a fixed schedule, its probability the product of the raw-output
    // counts of its answers over the product of the raw-output totals, summed per
    // order by hand and reduced: the walk must give the same fractions.
    let fixed = swap_algorithms();
    let mut checked = 0;
    for draws in [DrawLaw::Uniform, DrawLaw::RandMod, DrawLaw::MultiplyShift] {
        for &algorithm in &fixed {
            for n in 2..=4usize {
                let schedule = algorithm.draw_schedule(n).unwrap();
                // 128 bits hold the unreduced product of at most three 2^32 totals.
                if draws == DrawLaw::MultiplyShift && schedule.len() > 3 {
                    continue;
                }
                let total: u128 = schedule.iter().map(|&bound| draws.outputs(bound)).product();
                let mut by_hand = vec![0u128; factorial(n).unwrap() as usize];
                let paths: u64 = schedule.iter().product();
                let mut workspace = Workspace::default();
                for path in 0..paths {
                    let mut answers = vec![0u64; schedule.len()];
                    let mut rest = path;
                    for (answer, &bound) in answers.iter_mut().zip(&schedule).rev() {
                        *answer = rest % bound;
                        rest /= bound;
                    }
                    let weight: u128 = answers
                        .iter()
                        .zip(&schedule)
                        .map(|(&answer, &bound)| draws.weight(answer, bound))
                        .product();
                    let mut replay = Replay {
                        answers,
                        ..Replay::default()
                    };
                    let mut deck: Vec<u16> = (0..n as u16).collect();
                    algorithm.shuffle(&mut deck, &mut replay, &mut workspace);
                    by_hand[rank(&deck)] += weight;
                }
                let walked = law_under(algorithm, n, draws);
                for (cell, &numerator) in by_hand.iter().enumerate() {
                    let divisor = gcd(numerator, total).max(1);
                    let expected = match numerator {
                        0 => (0, 1),
                        _ => (numerator / divisor, total / divisor),
                    };
                    let walked_fraction = match walked.numerators[cell] {
                        0 => (0, 1),
                        _ => walked.fraction(cell),
                    };
                    assert_eq!(
                        walked_fraction, expected,
                        "{algorithm:?} n={n} {draws:?} cell {cell}"
                    );
                }
                checked += 1;
            }
        }
    }
    assert!(checked >= 40, "{checked}");
}

#[test]
fn a_power_of_two_range_makes_rand_mod_exactly_uniform() {
    // 32,768 is a multiple of 4: rand() % 4 is exactly uniform, and the 4-card naive
    // swap under it has exactly its usual law.
    assert_eq!(
        law_under(PermutationAlgorithm::NaiveSwap, 4, DrawLaw::RandMod),
        law(PermutationAlgorithm::NaiveSwap, 4)
    );
    // Fisher–Yates on 4 cards draws from 3 too: no longer uniform.
    let biased = law_under(PermutationAlgorithm::FisherYates, 4, DrawLaw::RandMod);
    assert!(biased.max_ratio() > 1.0);
    assert!(biased.impossible().is_empty());
}

#[test]
fn flawed_sources_keep_every_law_summing_to_exactly_one() {
    for draws in [DrawLaw::RandMod, DrawLaw::MultiplyShift] {
        for algorithm in [
            PermutationAlgorithm::SortComparatorMerge,
            PermutationAlgorithm::SortComparatorInsertion,
            PermutationAlgorithm::Riffle,
        ] {
            law_under(algorithm, 4, draws);
        }
        let sampler = enumerate_selections(SamplerAlgorithm::BagPick, 5, 2, draws, &NoProgress).unwrap();
        assert_eq!(sampler.numerators.iter().sum::<u128>(), sampler.denominator);
    }
    // 8-bit keys: 256 divides both sources' ranges, so the law is the uniform one's.
    assert_eq!(
        law_under(PermutationAlgorithm::SortRandomKeyU8, 2, DrawLaw::RandMod),
        law(PermutationAlgorithm::SortRandomKeyU8, 2)
    );
}

#[test]
fn what_a_flawed_source_cannot_enumerate_is_refused_with_the_reason() {
    let message = |algorithm, n, draws| {
        enumerate_permutations(algorithm, n, draws, &NoProgress)
            .unwrap_err()
            .to_string()
    };
    // Delphi's draws are fractions over 2^32: 6 draws from 7, 6, 5, 3 (and exact 4
    // and 2) do not fit in 128 bits.
    let overflow = message(PermutationAlgorithm::FisherYates, 7, DrawLaw::MultiplyShift);
    assert!(
        overflow.contains("does not fit in 128 bits")
            && overflow.contains("2^32")
            && overflow.contains("--positions"),
        "{overflow}"
    );
    law_under(PermutationAlgorithm::FisherYates, 6, DrawLaw::MultiplyShift);
    // rand()'s floats are a finite list, but far too long to walk.
    let floats = message(PermutationAlgorithm::SortRandomKey, 3, DrawLaw::RandMod);
    assert!(
        floats.contains("32,768 values") && floats.contains("2,000,000,000"),
        "{floats}"
    );
    let floats = message(PermutationAlgorithm::SortRandomKey, 3, DrawLaw::Uniform);
    assert!(floats.contains("no finite list"), "{floats}");
}
