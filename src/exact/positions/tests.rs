use super::*;
use crate::catalogue::{SHUFFLES, Workspace};
use crate::randomness::{Randomness, SimulationSource};

/// Every catalogue shuffle with its default parameters, read off the registry.
fn all() -> Vec<PermutationAlgorithm> {
    SHUFFLES
        .iter()
        .map(|entry| {
            entry
                .algorithm()
                .as_permutation()
                .expect("SHUFFLES lists shuffles")
        })
        .collect()
}

/// The swap shuffles, as the source texts write them: the ones whose position matrix has
/// an exact method.
const SWAPPING: [PermutationAlgorithm; 7] = [
    PermutationAlgorithm::NaiveSwap,
    PermutationAlgorithm::FisherYates,
    PermutationAlgorithm::FisherYatesForward,
    PermutationAlgorithm::Sattolo,
    PermutationAlgorithm::RoguelikeShuffle,
    PermutationAlgorithm::NaiveRepeated { passes: None },
    PermutationAlgorithm::AsfPoker,
];

fn matrix(algorithm: PermutationAlgorithm, n: usize) -> Vec<f64> {
    exact_position_matrix(algorithm, n, DrawLaw::Uniform).unwrap()
}

fn assert_close(actual: f64, expected: f64, tolerance: f64, what: &str) {
    assert!(
        (actual - expected).abs() <= tolerance,
        "{what}: {actual} is not {expected} (to {tolerance})"
    );
}

/// Records every bound asked for; answers with `answers` in turn, or at random.
struct Scripted<'a> {
    bounds: Vec<u64>,
    answers: Vec<u64>,
    random: Option<&'a mut SimulationSource>,
}

impl Randomness for Scripted<'_> {
    fn below(&mut self, n: u64) -> u64 {
        let answer = match &mut self.random {
            Some(source) => {
                let answer = source.below(n);
                self.answers.push(answer);
                answer
            }
            None => self.answers[self.bounds.len()],
        };
        self.bounds.push(n);
        answer
    }
    fn unit(&mut self) -> f64 {
        panic!("a swapping shuffle drew a float")
    }
}

fn steps_of(schedule: &Schedule) -> Vec<SwapStep> {
    let passes = schedule.passes as usize;
    schedule.pass.repeat(passes)
}

#[test]
fn step_lists_match_the_draws_and_swaps_the_code_makes() {
    let mut random = SimulationSource::from_seed(21);
    let mut workspace = Workspace::default();
    let mut checked = 0;
    for algorithm in SWAPPING.into_iter().chain([
        PermutationAlgorithm::NaiveRepeated { passes: Some(1) },
        PermutationAlgorithm::NaiveRepeated { passes: Some(3) },
    ]) {
        for n in 0..=12usize {
            let steps = steps_of(&swap_schedule(algorithm, n).unwrap());
            let bounds: Vec<u64> = steps.iter().map(|step| step.len as u64).collect();

            // All answers 0: the bounds asked for, in order.
            let mut zeros = Scripted {
                bounds: Vec::new(),
                answers: vec![0; steps.len()],
                random: None,
            };
            let mut deck: Vec<u16> = (0..n as u16).collect();
            algorithm.shuffle(&mut deck, &mut zeros, &mut workspace);
            assert_eq!(zeros.bounds, bounds, "{algorithm:?} on {n} cards");

            // Random answers: the steps, applied by hand, give the same deck.
            for _ in 0..50 {
                let mut source = Scripted {
                    bounds: Vec::new(),
                    answers: Vec::new(),
                    random: Some(&mut random),
                };
                let mut deck: Vec<u16> = (0..n as u16).collect();
                algorithm.shuffle(&mut deck, &mut source, &mut workspace);
                assert_eq!(source.bounds, bounds, "{algorithm:?} on {n} cards");
                let mut by_hand: Vec<u16> = (0..n as u16).collect();
                for (step, &answer) in steps.iter().zip(&source.answers) {
                    by_hand.swap(step.i, step.low + answer as usize);
                }
                assert_eq!(by_hand, deck, "{algorithm:?} on {n} cards");
            }
            checked += 1;
        }
    }
    assert_eq!(checked, 9 * 13);
}

/// The position matrix by running the real code on every path of its draw schedule,
/// each path weighted by the product of its answers' probabilities under `law`.
fn enumerated(algorithm: PermutationAlgorithm, n: usize, law: DrawLaw) -> Vec<f64> {
    let schedule = algorithm.draw_schedule(n).unwrap();
    let paths: u64 = schedule.iter().product();
    let answer_probabilities: Vec<Vec<f64>> =
        schedule.iter().map(|&bound| law.probabilities(bound)).collect();
    let mut matrix = vec![0.0; n * n];
    let mut workspace = Workspace::default();
    let mut answers = vec![0u64; schedule.len()];
    for path in 0..paths {
        let mut rest = path;
        for (answer, &bound) in answers.iter_mut().zip(&schedule).rev() {
            *answer = rest % bound;
            rest /= bound;
        }
        let mut replay = Scripted {
            bounds: Vec::new(),
            answers: answers.clone(),
            random: None,
        };
        let mut deck: Vec<u16> = (0..n as u16).collect();
        algorithm.shuffle(&mut deck, &mut replay, &mut workspace);
        assert_eq!(replay.bounds, schedule);
        let weight: f64 = answers
            .iter()
            .zip(&answer_probabilities)
            .map(|(&answer, probabilities)| probabilities[answer as usize])
            .product();
        for (position, &card) in deck.iter().enumerate() {
            matrix[usize::from(card) * n + position] += weight;
        }
    }
    matrix
}

#[test]
fn matrices_match_enumeration_of_every_path() {
    let mut checked = 0;
    for n in 1..=5usize {
        let mut algorithms = SWAPPING.to_vec();
        algorithms.push(PermutationAlgorithm::NaiveRepeated { passes: Some(1) });
        if n <= 4 {
            algorithms.push(PermutationAlgorithm::NaiveRepeated { passes: Some(2) });
        }
        if n <= 3 {
            algorithms.push(PermutationAlgorithm::NaiveRepeated { passes: Some(3) });
        }
        for algorithm in algorithms {
            // naive-repeated defaults to n passes: 4^16 paths at n = 4.
            let paths = algorithm
                .draw_schedule(n)
                .map(|schedule| schedule.iter().product::<u64>());
            if paths.is_none_or(|paths| paths > 100_000) {
                continue;
            }
            // Every source whose draws are independent: the chain under each law
            // against the paths weighted by the same law.
            for law in [DrawLaw::Uniform, DrawLaw::RandMod, DrawLaw::MultiplyShift] {
                let exact = exact_position_matrix(algorithm, n, law).unwrap();
                let counted = enumerated(algorithm, n, law);
                for (cell, (&e, &c)) in exact.iter().zip(&counted).enumerate() {
                    let what = format!("{algorithm:?} n={n} {law:?} cell {cell}");
                    assert_close(e, c, 1e-12, &what);
                }
            }
            checked += 1;
        }
    }
    // asf-poker adds n = 1..=5.
    assert_eq!(checked, 45);
}

#[test]
fn naive_swap_on_three_cards_matches_the_27_paths_by_hand() {
    // Orders 123, 132, 213, 231, 312, 321 come from 4, 5, 5, 5, 4, 4 of the 27 paths.
    // Card 1 is first in 123 and 132 (4 + 5), second in 213 and 312 (5 + 4), third in
    // 231 and 321 (5 + 4); card 2 is first in 213, 231 (10), second in 123, 321 (8),
    // third in 132, 312 (9); card 3 is first in 312, 321 (8), second in 132, 231 (10).
    let by_hand = [9.0, 9.0, 9.0, 10.0, 8.0, 9.0, 8.0, 10.0, 9.0].map(|paths| paths / 27.0);
    let exact = matrix(PermutationAlgorithm::NaiveSwap, 3);
    for (cell, (&e, &h)) in exact.iter().zip(&by_hand).enumerate() {
        assert_close(e, h, 1e-15, &format!("cell {cell}"));
    }
}

#[test]
fn naive_swap_on_52_cards_has_the_known_bias() {
    let n = 52;
    let exact = matrix(PermutationAlgorithm::NaiveSwap, n);
    let ratio = |card: usize, position: usize| exact[card * n + position] * n as f64;
    // The top position holds card 2 too often and card 52 too rarely.
    assert_close(ratio(1, 0), 1.352, 5e-4, "card 2 on top");
    assert_close(ratio(51, 0), 0.743, 5e-4, "card 52 on top");
    let uniform = 1.0 / n as f64;
    for k in 0..n {
        assert_close(exact[k], uniform, 1e-12, "card 1's row");
        assert_close(exact[k * n + n - 1], uniform, 1e-12, "the bottom column");
    }
}

#[test]
fn rows_and_columns_sum_to_one() {
    for algorithm in SWAPPING
        .into_iter()
        .chain([PermutationAlgorithm::NaiveRepeated { passes: Some(3) }])
    {
        for n in (1..=20).chain([31, 52, 64, 100]) {
            if matches!(algorithm, PermutationAlgorithm::NaiveRepeated { passes: None }) && n > 52 {
                continue; // n passes: O(n³ log n), slow for nothing in a test
            }
            let exact = matrix(algorithm, n);
            for k in 0..n {
                let row: f64 = exact[k * n..(k + 1) * n].iter().sum();
                let column: f64 = (0..n).map(|card| exact[card * n + k]).sum();
                assert_close(row, 1.0, 1e-12, &format!("{algorithm:?} n={n} row {k}"));
                assert_close(column, 1.0, 1e-12, &format!("{algorithm:?} n={n} col {k}"));
            }
            assert!(exact.iter().all(|&p| p >= 0.0), "{algorithm:?} n={n}");
        }
    }
}

#[test]
fn fisher_yates_both_ways_is_uniform() {
    for algorithm in [
        PermutationAlgorithm::FisherYates,
        PermutationAlgorithm::FisherYatesForward,
    ] {
        for n in 1..=100 {
            assert_eq!(
                position_matrix_method(algorithm, n, DrawLaw::Uniform),
                PositionMethod::Uniform
            );
            let exact = matrix(algorithm, n);
            for &p in &exact {
                assert_close(p, 1.0 / n as f64, 1e-12, &format!("{algorithm:?} n={n}"));
            }
        }
    }
}

#[test]
fn sattolo_and_roguelike_never_leave_a_card_in_place() {
    // Both produce only single n-cycles, so every other position is equally likely.
    for algorithm in [
        PermutationAlgorithm::Sattolo,
        PermutationAlgorithm::RoguelikeShuffle,
    ] {
        for n in 2..=100 {
            let exact = matrix(algorithm, n);
            for card in 0..n {
                for position in 0..n {
                    let expected = if card == position {
                        0.0
                    } else {
                        1.0 / (n - 1) as f64
                    };
                    let p = exact[card * n + position];
                    assert_close(p, expected, 1e-12, &format!("{algorithm:?} n={n}"));
                }
            }
        }
    }
}

#[test]
fn one_naive_pass_repeated_is_the_naive_swap() {
    for n in 0..=60 {
        let once = PermutationAlgorithm::NaiveRepeated { passes: Some(1) };
        assert_eq!(
            matrix(once, n),
            matrix(PermutationAlgorithm::NaiveSwap, n),
            "n={n}"
        );
    }
    // Zero passes leave every card in place; more passes approach uniform.
    let none = matrix(PermutationAlgorithm::NaiveRepeated { passes: Some(0) }, 3);
    assert_eq!(none, vec![1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0]);
    let n = 52;
    let distance = |passes| {
        matrix(PermutationAlgorithm::NaiveRepeated { passes: Some(passes) }, n)
            .iter()
            .map(|p| (p - 1.0 / n as f64).abs())
            .fold(0.0, f64::max)
    };
    assert!(distance(2) < distance(1) / 10.0);
}

#[test]
fn exactly_the_swapping_shuffles_have_an_exact_matrix() {
    for algorithm in all() {
        let method = position_matrix_method(algorithm, 6, DrawLaw::Uniform);
        assert_eq!(
            exact_position_matrix(algorithm, 6, DrawLaw::Uniform).is_some(),
            method.is_exact(),
            "{algorithm:?}"
        );
        assert_eq!(method.is_exact(), SWAPPING.contains(&algorithm), "{algorithm:?}");
    }
    // The oracle names only catalogue shuffles.
    assert!(SWAPPING.iter().all(|swapping| all().contains(swapping)));
    assert_eq!(
        PositionMethod::Unavailable.to_string(),
        "no exact method here: needs enumeration or simulation"
    );
}

#[test]
fn the_poker_shuffle_never_leaves_the_last_card_last() {
    // random(51)+1 never targets card 52: the last card moves only at the last step,
    // and then to one of the other positions. Every other cell is reachable.
    for n in [2, 3, 4, 52] {
        let cells = matrix(PermutationAlgorithm::AsfPoker, n);
        let last = n - 1;
        assert_eq!(cells[last * n + last], 0.0, "n = {n}");
        // (Two cards always swap, which empties the whole diagonal; see below.)
        let zeros = cells.iter().filter(|&&p| p == 0.0).count();
        assert_eq!(zeros, if n == 2 { 2 } else { 1 }, "n = {n}: {cells:?}");
        for card in 0..n {
            let row: f64 = cells[card * n..(card + 1) * n].iter().sum();
            assert_close(row, 1.0, 1e-12, "row sum");
        }
    }
    // Two cards: one path, and it always swaps them.
    assert_eq!(
        matrix(PermutationAlgorithm::AsfPoker, 2),
        vec![0.0, 1.0, 1.0, 0.0]
    );
}

#[test]
fn empty_and_single_card_decks() {
    for algorithm in SWAPPING {
        assert_eq!(matrix(algorithm, 0), Vec::<f64>::new());
        assert_eq!(matrix(algorithm, 1), vec![1.0]);
    }
}

#[test]
fn the_weighted_chain_sees_what_the_sources_bias_does() {
    // Fisher–Yates on 3 cards swaps the bottom with the card at j = rand() % 3, which
    // is 0 or 1 10,923 times in 32,768 and 2 only 10,922 times, then the middle with
    // k = rand() % 2, even. Card 3 stays at the bottom when j = 2: 10922/32768. It
    // reaches the top when j = 0 and k = 1, or j = 1 and k = 0: 10923/32768. Card 1
    // stays on top when k = 1 and j is 1 or 2: (10923 + 10922)/65536.
    let n = 3;
    let msvc = exact_position_matrix(PermutationAlgorithm::FisherYates, n, DrawLaw::RandMod).unwrap();
    assert_eq!(msvc[2 * n + 2], 10_922.0 / 32_768.0);
    assert_eq!(msvc[2 * n], 10_923.0 / 32_768.0);
    assert_eq!(msvc[0], 21_845.0 / 65_536.0);
    assert!(!crate::exact::is_uniform(&msvc, n));
    // Delphi's Random(3) gives 0 to one seed more than 1 and 2: card 1 lands at the
    // bottom 1431655766 times in 2^32, ×(1 + 2/2^32), a bias of 4.7e-10 that the
    // uniformity check must still see (the smallest a source makes; see
    // UNIFORM_TOLERANCE).
    let delphi = exact_position_matrix(PermutationAlgorithm::FisherYates, n, DrawLaw::MultiplyShift).unwrap();
    assert_eq!(delphi[2], 1_431_655_766.0 / 4_294_967_296.0);
    assert!((delphi[2] * 3.0 - 1.0 - 2.0 / 4_294_967_296.0).abs() < 1e-15);
    assert!(!crate::exact::is_uniform(&delphi, n));
    for law in [DrawLaw::RandMod, DrawLaw::MultiplyShift] {
        assert_eq!(
            position_matrix_method(PermutationAlgorithm::FisherYates, n, law),
            PositionMethod::WeightedMarkovChain
        );
    }
}

#[test]
fn draws_a_source_makes_uniform_give_the_uniform_chain() {
    // 32,768 is a multiple of 2, 4 and 8: rand() % 8 is exactly uniform, and so is
    // every draw of the naive swap on 8 cards and of Fisher–Yates on 2.
    let naive = PermutationAlgorithm::NaiveSwap;
    assert_eq!(
        position_matrix_method(naive, 8, DrawLaw::RandMod),
        PositionMethod::MarkovChain
    );
    assert_eq!(
        exact_position_matrix(naive, 8, DrawLaw::RandMod),
        exact_position_matrix(naive, 8, DrawLaw::Uniform)
    );
    assert_eq!(
        position_matrix_method(PermutationAlgorithm::FisherYates, 2, DrawLaw::MultiplyShift),
        PositionMethod::Uniform
    );
    assert_eq!(
        position_matrix_method(naive, 7, DrawLaw::RandMod),
        PositionMethod::WeightedMarkovChain
    );
    assert_eq!(
        position_matrix_method(PermutationAlgorithm::Riffle, 7, DrawLaw::RandMod),
        PositionMethod::Unavailable
    );
}

#[test]
fn the_weighted_steps_round_far_below_the_uniform_tolerance() {
    // The weighted step given exactly uniform weights must stay at 1/n up to rounding,
    // and that rounding must lie far below UNIFORM_TOLERANCE, the bias the smallest
    // source makes far above it (previous tests): Fisher–Yates, the longest chain per
    // card, on the largest deck, for a few cards (all 2000 rows would take seconds).
    let n = 2000;
    let Schedule { pass, .. } = swap_schedule(PermutationAlgorithm::FisherYates, n).unwrap();
    let mut worst = 0.0f64;
    for card in [0, 1, n / 2, n - 2, n - 1] {
        let mut row = vec![0.0; n];
        row[card] = 1.0;
        for &step in &pass {
            apply_weighted_step(&mut row, step, &DrawLaw::Uniform.probabilities(step.len as u64));
        }
        worst = row
            .iter()
            .map(|&p| (p * n as f64 - 1.0).abs())
            .fold(worst, f64::max);
    }
    assert!(worst < 1e-13, "rounding {worst:e}");
    assert!(worst < crate::exact::UNIFORM_TOLERANCE / 100.0);
}

#[test]
fn fisher_yates_under_rand_mod_on_52_cards() {
    // The first step puts card v at the bottom with weight #{r : r % 52 = v}: 631 for
    // the 8 cards v < 32768 mod 52 = 8, 630 for the rest.
    let n = 52;
    let exact = exact_position_matrix(PermutationAlgorithm::FisherYates, n, DrawLaw::RandMod).unwrap();
    for card in 0..n {
        let expected = if card < 8 { 631.0 } else { 630.0 } / 32_768.0;
        assert_close(exact[card * n + n - 1], expected, 1e-15, &format!("card {card}"));
    }
    for k in 0..n {
        let row: f64 = exact[k * n..(k + 1) * n].iter().sum();
        let column: f64 = (0..n).map(|card| exact[card * n + k]).sum();
        assert_close(row, 1.0, 1e-12, "row");
        assert_close(column, 1.0, 1e-12, "column");
    }
}
