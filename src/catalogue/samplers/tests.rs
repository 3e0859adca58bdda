use std::collections::BTreeMap;

use super::*;
use crate::catalogue::fisher_yates;
use crate::randomness::SimulationSource;

/// Answers from a script (then 0), recording the bound of every draw.
struct Scripted {
    answers: Vec<u64>,
    used: usize,
    bounds: Vec<u64>,
}

impl Randomness for Scripted {
    fn below(&mut self, n: u64) -> u64 {
        assert!(n >= 1, "a draw from an empty range");
        let answer = self.answers.get(self.used).copied().unwrap_or(0);
        assert!(answer < n);
        self.used += 1;
        self.bounds.push(n);
        answer
    }
    fn unit(&mut self) -> f64 {
        panic!("samplers draw no floats")
    }
}

/// Every random path of `sample` with its exact probability (as `1/Π bounds`), folded
/// into the law of what it writes. Paths are walked like an odometer: each run follows
/// the answers given so far and answers 0 beyond them, then the last answer that can
/// still grow is increased.
fn exact_law(k: usize, mut sample: impl FnMut(&mut Scripted, &mut [u16])) -> BTreeMap<Vec<u16>, f64> {
    let mut law = BTreeMap::new();
    let mut path: Vec<u64> = Vec::new();
    loop {
        let mut source = Scripted {
            answers: path.clone(),
            used: 0,
            bounds: Vec::new(),
        };
        let mut out = vec![0u16; k];
        sample(&mut source, &mut out);
        let probability = source.bounds.iter().map(|&b| 1.0 / b as f64).product::<f64>();
        *law.entry(out).or_insert(0.0) += probability;
        let mut answers = path;
        answers.resize(source.bounds.len(), 0);
        match (0..answers.len())
            .rev()
            .find(|&i| answers[i] + 1 < source.bounds[i])
        {
            Some(i) => {
                answers.truncate(i + 1);
                answers[i] += 1;
                path = answers;
            }
            None => break,
        }
    }
    law
}

fn sorted(selection: &[u16]) -> Vec<u16> {
    let mut sorted = selection.to_vec();
    sorted.sort_unstable();
    sorted
}

fn choose(n: usize, k: usize) -> usize {
    (0..k).fold(1, |c, i| c * (n - i) / (i + 1))
}

#[test]
fn bag_pick_gives_every_subset_exactly_the_same_probability_in_increasing_order() {
    for n in 1..=7 {
        for k in 0..=n {
            let law = exact_law(k, |rng, out| bag_pick(n, rng, out));
            assert_eq!(law.len(), choose(n, k), "n = {n}, k = {k}");
            for (subset, probability) in &law {
                assert_eq!(subset, &sorted(subset), "output in increasing order");
                assert!(subset.iter().all(|&item| usize::from(item) < n));
                assert!((probability * choose(n, k) as f64 - 1.0).abs() < 1e-12);
            }
        }
    }
}

#[test]
fn bag_pick_c_always_writes_k_down_to_1() {
    for n in 2..=7 {
        for k in 1..n {
            let law = exact_law(k, |rng, out| bag_pick_c(n, rng, out));
            let only: Vec<u16> = (1..=k as u16).rev().collect();
            assert_eq!(law.keys().collect::<Vec<_>>(), vec![&only], "n = {n}, k = {k}");
            assert!((law[&only] - 1.0).abs() < 1e-12);
        }
    }
}

#[test]
fn bag_pick_c_draws_exactly_what_bag_pick_draws() {
    let record = |sample: fn(usize, &mut Scripted, &mut [u16]), seed, n, k| {
        let mut random = SimulationSource::from_seed(seed);
        let answers: Vec<u64> = (0..n as u64).rev().map(|i| random.below(i + 1)).collect();
        let mut source = Scripted {
            answers,
            used: 0,
            bounds: Vec::new(),
        };
        sample(n, &mut source, &mut vec![0; k]);
        (source.bounds, source.used)
    };
    for seed in 0..200 {
        for (n, k) in [(6, 3), (10, 1), (10, 9), (52, 5)] {
            assert_eq!(
                record(bag_pick, seed, n, k),
                record(bag_pick_c, seed, n, k),
                "seed {seed}, n = {n}, k = {k}"
            );
        }
    }
}

#[test]
fn partial_fisher_yates_gives_every_ordered_selection_the_same_probability() {
    for n in 1..=6 {
        for k in 0..=n {
            let mut deck = Vec::new();
            let law = exact_law(k, |rng, out| partial_fisher_yates(n, rng, out, &mut deck));
            let ordered = (0..k).fold(1, |p, i| p * (n - i));
            assert_eq!(law.len(), ordered, "n = {n}, k = {k}");
            for probability in law.values() {
                assert!((probability * ordered as f64 - 1.0).abs() < 1e-12);
            }
        }
    }
}

#[test]
fn partial_fisher_yates_takes_the_cards_a_full_shuffle_moves_to_the_end_first() {
    // Draw for draw: through a source that answers one draw at a time (the default
    // source answers a word's worth at once, and a word split 4 ways is not the first
    // 4 answers of the same word split 8 ways).
    struct OneByOne(SimulationSource);
    impl Randomness for OneByOne {
        fn below(&mut self, n: u64) -> u64 {
            self.0.below(n)
        }
        fn unit(&mut self) -> f64 {
            self.0.unit()
        }
    }
    let mut deck = Vec::new();
    for seed in 0..100 {
        let (n, k) = (12, 4);
        let mut full: Vec<u16> = (0..n as u16).collect();
        fisher_yates(&mut full, &mut OneByOne(SimulationSource::from_seed(seed)));
        let mut out = vec![0u16; k];
        partial_fisher_yates(
            n,
            &mut OneByOne(SimulationSource::from_seed(seed)),
            &mut out,
            &mut deck,
        );
        let last_k_reversed: Vec<u16> = full[n - k..].iter().rev().copied().collect();
        assert_eq!(out, last_k_reversed, "seed {seed}");
    }
}

#[test]
fn reservoir_subsets_are_uniform_but_its_order_is_not() {
    for n in 1..=7 {
        for k in 0..=n {
            let law = exact_law(k, |rng, out| reservoir(n, rng, out));
            let mut subsets: BTreeMap<Vec<u16>, f64> = BTreeMap::new();
            for (selection, probability) in &law {
                *subsets.entry(sorted(selection)).or_insert(0.0) += probability;
            }
            assert_eq!(subsets.len(), choose(n, k), "n = {n}, k = {k}");
            for probability in subsets.values() {
                assert!((probability * choose(n, k) as f64 - 1.0).abs() < 1e-12);
            }
        }
    }
    // 3 items, k = 2: one draw from 3 gives [2, 1], [0, 2] or [0, 1]; the other three
    // orders never come out.
    let law = exact_law(2, |rng, out| reservoir(3, rng, out));
    let orders: Vec<&Vec<u16>> = law.keys().collect();
    assert_eq!(orders, [&vec![0, 1], &vec![0, 2], &vec![2, 1]]);
}
