use super::names::edit_distance;
use super::*;
use crate::randomness::{Randomness, SimulationSource};

/// The shuffle an entry of `SHUFFLES` runs.
fn shuffle_of(entry: &CatalogueEntry) -> PermutationAlgorithm {
    entry
        .algorithm
        .as_permutation()
        .unwrap_or_else(|| panic!("{} is listed as a shuffle", entry.name))
}

#[test]
fn names_are_unique_across_both_families_and_parse_back() {
    let all: Vec<&CatalogueEntry> = entries().collect();
    assert_eq!(all.len(), SHUFFLES.len() + SAMPLERS.len());
    for (i, entry) in all.iter().enumerate() {
        assert!(all[..i].iter().all(|other| other.name != entry.name));
        let spec = AlgorithmSpec::parse(entry.name).unwrap();
        assert_eq!(spec.entry.name, entry.name);
        assert_eq!(spec.kind(), entry.kind());
    }
    assert!(SHUFFLES.iter().all(|entry| entry.kind() == Kind::Shuffle));
    assert!(SAMPLERS.iter().all(|entry| entry.kind() == Kind::Sampler));
}

#[test]
fn every_shuffle_returns_a_permutation_of_its_input() {
    let mut rng = SimulationSource::from_seed(11);
    let mut workspace = Workspace::default();
    // In a series, so that the dealer carries its deck from trial to trial (and
    // starts again whenever the deck size changes).
    workspace.start_dealing();
    for entry in SHUFFLES {
        for n in 0..=40usize {
            for _ in 0..20 {
                let mut deck: Vec<u16> = (0..n as u16).collect();
                shuffle_of(entry).shuffle(&mut deck, &mut rng, &mut workspace);
                let mut sorted = deck.clone();
                sorted.sort_unstable();
                assert_eq!(sorted, (0..n as u16).collect::<Vec<_>>(), "{}", entry.name);
            }
        }
    }
}

/// Records the bound of every draw and answers at random.
struct RecordingSource {
    inner: SimulationSource,
    bounds: Vec<u64>,
}

impl Randomness for RecordingSource {
    fn below(&mut self, n: u64) -> u64 {
        self.bounds.push(n);
        self.inner.below(n)
    }
    fn unit(&mut self) -> f64 {
        panic!("an algorithm with a fixed draw schedule drew a float")
    }
}

#[test]
fn declared_draw_schedules_match_the_draws_made() {
    let mut source = RecordingSource {
        inner: SimulationSource::from_seed(3),
        bounds: Vec::new(),
    };
    let mut workspace = Workspace::default();
    let mut checked = 0;
    for entry in SHUFFLES {
        for n in 0..=12usize {
            let Some(schedule) = shuffle_of(entry).draw_schedule(n) else {
                continue;
            };
            // Different answers must never change the bounds asked for.
            for _ in 0..200 {
                source.bounds.clear();
                let mut deck: Vec<u16> = (0..n as u16).collect();
                shuffle_of(entry).shuffle(&mut deck, &mut source, &mut workspace);
                assert_eq!(source.bounds, schedule, "{} on {n} cards", entry.name);
            }
            checked += 1;
        }
    }
    // Ten fixed-schedule entries (asf-poker, overhand, the two shelf shufflers and the pile
    // shuffle among them) at 13 sizes, naive-repeated (K = n) while n² <= 64.
    assert_eq!(checked, 10 * 13 + 9);
    let explicit = AlgorithmSpec::parse("naive-repeated:2")
        .unwrap()
        .algorithm
        .as_permutation()
        .unwrap();
    assert_eq!(explicit.draw_schedule(3), Some(vec![3; 6]));
    assert_eq!(
        explicit.draw_schedule(40),
        None,
        "80 draws is past the listing limit"
    );
}

#[test]
fn riffles_dealers_and_overhands_parse_their_counts() {
    let spec = AlgorithmSpec::parse("riffles").unwrap();
    assert_eq!(
        spec.algorithm,
        Algorithm::Permutation(PermutationAlgorithm::Riffles { times: 7 })
    );
    assert_eq!(spec.display_name(52), "riffles:7");
    let spec = AlgorithmSpec::parse("dealer-riffles").unwrap();
    assert_eq!(spec.display_name(52), "dealer-riffles:3");
    let spec = AlgorithmSpec::parse("dealer-riffles:64").unwrap();
    assert_eq!(
        spec.algorithm,
        Algorithm::Permutation(PermutationAlgorithm::DealerRiffles { times: 64 })
    );
    assert_eq!(
        AlgorithmSpec::parse("overhand").unwrap().display_name(9),
        "overhand:1"
    );
    assert_eq!(
        AlgorithmSpec::parse("overhand:2500").unwrap().display_name(52),
        "overhand:2500"
    );
    for bad in [
        "riffles:0",
        "riffles:65",
        "dealer-riffles:x",
        "overhand:0",
        "riffles:-1",
    ] {
        let error = AlgorithmSpec::parse(bad).unwrap_err().to_string();
        assert!(error.contains("must be a whole number"), "{bad}: {error}");
        assert!(!error.contains('\n'), "one line: {error}");
    }
    let error = AlgorithmSpec::parse("riffles:65").unwrap_err().to_string();
    assert!(error.contains("from 1 to 64"), "{error}");
}

#[test]
fn every_new_shuffle_begins_one_trial_per_deal() {
    // begin_trial is how a clock-reseeded source re-seeds before every deal; a dealer
    // who carries the deck must still begin each of its deals.
    struct CountingTrials {
        inner: SimulationSource,
        trials: u64,
    }
    impl Randomness for CountingTrials {
        fn below(&mut self, n: u64) -> u64 {
            self.inner.below(n)
        }
        fn unit(&mut self) -> f64 {
            self.inner.unit()
        }
        fn begin_trial(&mut self) {
            self.trials += 1;
        }
    }
    for algorithm in [
        PermutationAlgorithm::Riffles { times: 2 },
        PermutationAlgorithm::DealerRiffles { times: 2 },
        PermutationAlgorithm::Overhand { times: 2 },
        PermutationAlgorithm::Shelf {
            shelves: 3,
            passes: 2,
        },
    ] {
        let mut source = CountingTrials {
            inner: SimulationSource::from_seed(4),
            trials: 0,
        };
        let mut workspace = Workspace::default();
        workspace.start_dealing();
        let mut decks = [[0u16, 1, 2, 3, 4, 5]; 7];
        algorithm.shuffle_each(decks.iter_mut(), &mut source, &mut workspace);
        assert_eq!(source.trials, 7, "{algorithm:?}");
    }
}

#[test]
fn only_the_dealer_carries_its_deck_and_it_has_no_draw_schedule() {
    for entry in SHUFFLES {
        let algorithm = shuffle_of(entry);
        let carries = algorithm.carries_deck_between_deals();
        assert_eq!(carries, entry.name == "dealer-riffles", "{}", entry.name);
        if carries {
            // A path would describe only a series' first deal: never tallied by path.
            assert!((0..=12).all(|n| algorithm.draw_schedule(n).is_none()));
        }
    }
}

/// `P(order) = C(2^K + n − r, n) / 2^(Kn)` for an order with `r` rising sequences
/// (Bayer & Diaconis 1992), as exact integers over `2^(Kn)`, indexed by Lehmer rank.
fn gsr_law(n: usize, times: u32) -> (Vec<u128>, u128) {
    use crate::tally::lehmer::{factorial, unrank};
    use crate::tally::rising::rising_sequences;
    let binomial = |top: u128, k: u128| (0..k).fold(1u128, |c, i| c * (top - i) / (i + 1));
    let a = 1u128 << times;
    let mut deck = vec![0u16; n];
    let numerators = (0..factorial(n).unwrap() as usize)
        .map(|rank| {
            unrank(rank, &mut deck);
            let r = rising_sequences(&deck) as u128;
            if r > a {
                0
            } else {
                binomial(a + n as u128 - r, n as u128)
            }
        })
        .collect();
    (numerators, 1u128 << (u128::from(times) * n as u128))
}

/// Tallies `trials` shuffles of `n` cards by Lehmer rank, in a series of deals.
fn tally_ranks(algorithm: PermutationAlgorithm, n: usize, trials: u64, seed: u64) -> Vec<u64> {
    use crate::tally::lehmer::{factorial, rank};
    let mut rng = SimulationSource::from_seed(seed);
    let mut workspace = Workspace::default();
    let mut counts = vec![0u64; factorial(n).unwrap() as usize];
    for _ in 0..trials {
        let mut deck: Vec<u16> = (0..n as u16).collect();
        algorithm.shuffle(&mut deck, &mut rng, &mut workspace);
        counts[rank(&deck)] += 1;
    }
    counts
}

/// The simulated riffles against the exact GSR law on 5 cards, by a χ² test over the
/// possible orders (27 after one riffle, 119 after two). A correct implementation
/// gives a p-value uniform on (0, 1), below 1e-6 one seed in a million; the seeds are
/// fixed, so the outcome is too (measured: p = 0.333 and 0.734). A wrong law fails by
/// far: 93 of the 120 orders are impossible after one riffle, so a uniform shuffle
/// deals one in 78 % of its shuffles (measured: 757 of 1,000), and a uniform cut in
/// place of the binomial one would make the fresh deck 0.43 likely instead of
/// 6/32 = 0.19, some 900 standard errors away at 320,000 shuffles.
#[test]
fn riffles_on_five_cards_follow_the_exact_gsr_law() {
    use crate::stats::Fit;
    use crate::stats::chi_square::law_fit;
    let n = 5;
    let trials = 320_000;
    for times in [1u32, 2] {
        let (numerators, denominator) = gsr_law(n, times);
        assert_eq!(numerators.iter().sum::<u128>(), denominator);
        let counts = tally_ranks(
            PermutationAlgorithm::Riffles { times },
            n,
            trials,
            600 + u64::from(times),
        );
        let possible: Vec<usize> = (0..counts.len()).filter(|&i| numerators[i] > 0).collect();
        assert_eq!(possible.len(), if times == 1 { 27 } else { 119 });
        let impossible_seen: u64 = (0..counts.len())
            .filter(|&i| numerators[i] == 0)
            .map(|i| counts[i])
            .sum();
        assert_eq!(impossible_seen, 0, "{times} riffles dealt an impossible order");
        let observed: Vec<u64> = possible.iter().map(|&i| counts[i]).collect();
        let law: Vec<f64> = possible
            .iter()
            .map(|&i| numerators[i] as f64 / denominator as f64)
            .collect();
        match law_fit(&observed, &law, trials) {
            Fit::Computed { p, .. } => assert!(!p.is_below(1e-6), "{times} riffles: p = {p}"),
            Fit::TooFewTrials { needed } => panic!("needs {needed} trials"),
        }
    }
    // Known biased against the same law: a uniform shuffle deals impossible orders.
    let (numerators, _) = gsr_law(n, 1);
    let uniform = tally_ranks(PermutationAlgorithm::FisherYates, n, 1000, 5);
    let impossible: u64 = (0..uniform.len())
        .filter(|&i| numerators[i] == 0)
        .map(|i| uniform[i])
        .sum();
    assert!(impossible > 500, "{impossible}");
}

/// A dealer who riffles the previous deck 3 times: each deal alone looks uniform, but
/// each deal relative to the previous one is 3 riffles, far from uniform.
///
/// Relative permutations of 20,000 consecutive pairs on 5 cards: the law of 3 riffles
/// (total variation 0.166 from uniform) puts 2.9 times the uniform mass on the
/// identity, and the permutation χ² (119 df) rejects uniformity with p = 1e-777
/// (measured; the threshold is 1e-100). Fisher–Yates, dealt the same way, gives
/// uniform relative permutations and passes (its p-value is uniform on (0, 1); fixed
/// seed, measured p = 0.786). Every 10th deal alone passes the uniform test: after 30
/// riffles the 5-card deck is within 1.1e-9 of uniform in total variation, and deals
/// 10 apart are correlated by at most 8^-10 (the second eigenvalue of 3 riffles is
/// 1/8), so the thinned deals are all but independent uniform draws (measured
/// p = 0.614; Fisher–Yates 0.645).
#[test]
fn a_dealers_consecutive_deals_depend_on_each_other() {
    use crate::stats::Fit;
    use crate::stats::chi_square::uniform_fit;
    use crate::tally::lehmer::rank;
    use crate::tally::relative::RelativePermutation;
    let n = 5;
    let relative_and_thinned = |algorithm: PermutationAlgorithm, seed: u64| {
        let mut rng = SimulationSource::from_seed(seed);
        let mut workspace = Workspace::default();
        workspace.start_dealing();
        let mut calculator = RelativePermutation::new();
        let (mut relative_counts, mut thinned_counts) = (vec![0u64; 120], vec![0u64; 120]);
        let mut previous: Vec<u16> = (0..n as u16).collect();
        let mut relative = vec![0u16; n];
        for deal in 0..100_000u64 {
            let mut deck: Vec<u16> = (0..n as u16).collect();
            algorithm.shuffle(&mut deck, &mut rng, &mut workspace);
            if deal < 20_000 && deal > 0 {
                calculator.compute(&previous, &deck, &mut relative);
                relative_counts[rank(&relative)] += 1;
            }
            if deal % 10 == 9 {
                thinned_counts[rank(&deck)] += 1;
            }
            previous = deck;
        }
        let p = |counts: &[u64]| match uniform_fit(counts, counts.iter().sum()) {
            Fit::Computed { p, .. } => p,
            Fit::TooFewTrials { needed } => panic!("needs {needed}"),
        };
        (p(&relative_counts), p(&thinned_counts))
    };
    let (relative, thinned) = relative_and_thinned(PermutationAlgorithm::DealerRiffles { times: 3 }, 70);
    assert!(relative.is_below(1e-100), "relative permutations: p = {relative}");
    assert!(!thinned.is_below(1e-6), "every 10th deal: p = {thinned}");
    let (relative, thinned) = relative_and_thinned(PermutationAlgorithm::FisherYates, 71);
    assert!(
        !relative.is_below(1e-6),
        "Fisher-Yates relative permutations: p = {relative}"
    );
    assert!(!thinned.is_below(1e-6), "Fisher-Yates deals: p = {thinned}");
}

#[test]
fn parameters_parse_and_default_to_n() {
    let spec = AlgorithmSpec::parse("naive-repeated:3").unwrap();
    assert_eq!(
        spec.algorithm,
        Algorithm::Permutation(PermutationAlgorithm::NaiveRepeated { passes: Some(3) })
    );
    assert_eq!(spec.display_name(10), "naive-repeated:3");
    let spec = AlgorithmSpec::parse("naive-repeated").unwrap();
    assert_eq!(spec.display_name(7), "naive-repeated:7");
}

#[test]
fn bad_names_and_parameters_are_explained() {
    let error = AlgorithmSpec::parse("fisher-yate").unwrap_err().to_string();
    assert!(error.contains("did you mean 'fisher-yates'"), "{error}");
    let error = AlgorithmSpec::parse("naive-repeated:abc")
        .unwrap_err()
        .to_string();
    assert!(error.contains("must be a whole number"), "{error}");
    let error = AlgorithmSpec::parse("naive-repeated:0").unwrap_err().to_string();
    assert!(error.contains("not '0'"), "{error}");
    let error = AlgorithmSpec::parse("fisher-yates:2").unwrap_err().to_string();
    assert!(error.contains("takes no parameter"), "{error}");
    let error = AlgorithmSpec::parse("sattolo-shuffle").unwrap_err().to_string();
    assert!(error.contains("did you mean 'sattolo'"), "{error}");
    let error = AlgorithmSpec::parse("naive-swap,fisher-yates")
        .unwrap_err()
        .to_string();
    assert!(error.contains("with spaces, not commas"), "{error}");
    let error = AlgorithmSpec::parse("quantum-bogo").unwrap_err().to_string();
    assert!(!error.contains("did you mean"), "{error}");
}

#[test]
fn samplers_parse_with_suggestions_and_refuse_parameters() {
    let spec = AlgorithmSpec::parse("bag-pick").unwrap();
    assert_eq!(spec.algorithm, Algorithm::Sampler(SamplerAlgorithm::BagPick));
    assert_eq!(spec.display_name(10), "bag-pick");
    let error = AlgorithmSpec::parse("bag-pik").unwrap_err().to_string();
    assert!(error.contains("did you mean 'bag-pick'"), "{error}");
    let error = AlgorithmSpec::parse("partial-fisher-yate")
        .unwrap_err()
        .to_string();
    assert!(error.contains("'partial-fisher-yates'"), "{error}");
    let error = AlgorithmSpec::parse("reservoir-sampling")
        .unwrap_err()
        .to_string();
    assert!(error.contains("did you mean 'reservoir'"), "{error}");
    let error = AlgorithmSpec::parse("bag-pick:3").unwrap_err().to_string();
    assert!(
        error.contains("takes no parameter (give the number of picks with --k)"),
        "{error}"
    );
}

#[test]
fn every_sampler_picks_k_distinct_items_of_n() {
    let mut rng = SimulationSource::from_seed(12);
    let mut workspace = SamplerWorkspace::default();
    for entry in SAMPLERS {
        let sampler = entry.algorithm.as_sampler().unwrap();
        for n in 2..=40usize {
            for k in 1..n {
                let mut out = vec![0u16; k];
                for _ in 0..10 {
                    sampler.sample(n, &mut rng, &mut out, &mut workspace);
                    let mut sorted = out.clone();
                    sorted.sort_unstable();
                    sorted.dedup();
                    assert_eq!(sorted.len(), k, "{} repeated an item: {out:?}", entry.name);
                    assert!(out.iter().all(|&item| usize::from(item) < n), "{}", entry.name);
                }
            }
        }
    }
}

#[test]
fn sample_each_hands_every_selection_to_the_recorder() {
    let mut rng = SimulationSource::from_seed(13);
    let mut out = [0u16; 3];
    let mut seen = Vec::new();
    SamplerAlgorithm::BagPickC.sample_each(
        6,
        4,
        &mut rng,
        &mut out,
        &mut SamplerWorkspace::default(),
        |selection| seen.push(selection.to_vec()),
    );
    assert_eq!(seen, vec![vec![3, 2, 1]; 4]);
    assert!(SamplerAlgorithm::PartialFisherYates.promises_order());
    assert!(!SamplerAlgorithm::Reservoir.promises_order());
}

#[test]
fn edit_distance_matches_hand_counts() {
    assert_eq!(edit_distance("kitten", "sitting"), 3);
    assert_eq!(edit_distance("", "abc"), 3);
    assert_eq!(edit_distance("same", "same"), 0);
}

#[test]
fn sattolo_and_roguelike_never_leave_a_card_in_place() {
    let mut rng = SimulationSource::from_seed(5);
    for algorithm in [
        PermutationAlgorithm::Sattolo,
        PermutationAlgorithm::RoguelikeShuffle,
    ] {
        for _ in 0..1000 {
            let mut deck: Vec<u16> = (0..9).collect();
            algorithm.shuffle(&mut deck, &mut rng, &mut Workspace::default());
            assert!(deck.iter().enumerate().all(|(i, &card)| card as usize != i));
        }
    }
}

#[test]
fn shelf_machines_parse_and_name_their_shelves_and_passes() {
    let parse = |text: &str| {
        AlgorithmSpec::parse(text).map(|spec| (spec.algorithm.as_permutation(), spec.display_name(52)))
    };
    assert_eq!(
        parse("shelf").unwrap(),
        (
            Some(PermutationAlgorithm::Shelf {
                shelves: 10,
                passes: 1
            }),
            "shelf:10".to_string()
        )
    );
    assert_eq!(
        parse("shelf:4").unwrap(),
        (
            Some(PermutationAlgorithm::Shelf {
                shelves: 4,
                passes: 1
            }),
            "shelf:4".to_string()
        )
    );
    assert_eq!(
        parse("shelf-passes").unwrap(),
        (
            Some(PermutationAlgorithm::Shelf {
                shelves: 10,
                passes: 2
            }),
            "shelf-passes:10,2".to_string()
        )
    );
    assert_eq!(
        parse("shelf-passes:6,3").unwrap(),
        (
            Some(PermutationAlgorithm::Shelf {
                shelves: 6,
                passes: 3
            }),
            "shelf-passes:6,3".to_string()
        )
    );
    // One pass named as passes keeps the name it was given.
    assert_eq!(parse("shelf-passes:10,1").unwrap().1, "shelf-passes:10,1");
    for bad in [
        "shelf:0",
        "shelf:1001",
        "shelf:10,2",
        "shelf:x",
        "shelf-passes:10",
        "shelf-passes:10,0",
        "shelf-passes:10,65",
        "shelf-passes:,2",
    ] {
        let error = parse(bad).unwrap_err().to_string();
        assert!(error.contains(bad) && !error.contains('\n'), "{bad}: {error}");
    }
}

/// The deals that can take seconds (`naive-repeated:K`, `overhand:K`) ask whether to stop
/// only between blocks of 65,536 cards moved, and end there when told; a deal that is
/// not stopped is exactly the plain repetition of its passes (the same draws, the same
/// deck), across block boundaries too.
#[test]
fn long_deals_are_the_plain_passes_and_stop_only_between_blocks() {
    for (passes, cards) in [(100_000, 10), (33, 2_000), (32, 2_000), (3, 3)] {
        let start: Vec<u16> = (0..cards as u16).collect();
        let (mut until, mut plain) = (start.clone(), start.clone());
        let (mut a, mut b) = (SimulationSource::from_seed(9), SimulationSource::from_seed(9));
        naive_repeated_until(&mut until, &mut a, passes, || false);
        for _ in 0..passes {
            naive_swap(&mut plain, &mut b);
        }
        assert_eq!(until, plain, "{passes} passes of {cards} cards");
        let (mut until, mut plain) = (start.clone(), start);
        overhands_until(&mut until, &mut a, passes, || false);
        for _ in 0..passes {
            overhand(&mut plain, &mut b);
        }
        assert_eq!(until, plain, "{passes} overhands of {cards} cards");
    }
    // 2,000 cards: a look every 32 passes; told to stop at the third, two blocks are made.
    let looks = std::cell::Cell::new(0);
    let mut made = 0;
    super::long_deals::passes_until(
        100_000,
        2_000,
        || {
            looks.set(looks.get() + 1);
            looks.get() == 3
        },
        || made += 1,
    );
    assert_eq!((made, looks.get()), (64, 3));
    super::long_deals::passes_until(32, 2_000, || panic!("a deal of one block never asks"), || {});
}

/// The engine's loop over a batch of decks (`shuffle_each`, which plans a swap shuffle's
/// words once per deck size, issue 43) deals exactly what the public function deals one
/// deck at a time (words cut and multiplied as it goes), and leaves the source where the
/// function leaves it: for every swap shuffle (and the naive pass repeated), on every
/// size from 0 to 70 cards and on 200 and 2,000 (words of 8, 7 and 5 draws, with a
/// shorter last word or none), from the default source and from a flawed one (which
/// answers draw by draw).
#[test]
fn planned_words_deal_what_the_shuffles_deal_one_by_one() {
    use crate::randomness::SourceKind;
    type Shuffle = fn(&mut [u16], &mut SimulationSource);
    let swap_shuffles: [(&str, Shuffle); 7] = [
        ("naive-swap", naive_swap),
        ("naive-repeated:3", |deck, rng| naive_repeated(deck, rng, 3)),
        ("fisher-yates", fisher_yates),
        ("fisher-yates-forward", fisher_yates_forward),
        ("sattolo", sattolo),
        ("roguelike-shuffle", roguelike_shuffle),
        ("asf-poker", asf_poker),
    ];
    let sizes = (0..=70).chain([200, 2_000]);
    for n in sizes {
        for (name, one_by_one) in swap_shuffles {
            let algorithm = AlgorithmSpec::parse(name)
                .unwrap()
                .algorithm
                .as_permutation()
                .unwrap();
            for kind in [SourceKind::Xoshiro, SourceKind::MsvcRandMod] {
                let decks = 20;
                let mut planned_source = SimulationSource::for_unit(kind, 7, n as u64, 0);
                let mut plain_source = planned_source.clone();
                let mut planned: Vec<Vec<u16>> = vec![(0..n as u16).collect(); decks];
                let mut workspace = Workspace::default();
                algorithm.shuffle_each(planned.iter_mut(), &mut planned_source, &mut workspace);
                for (deal, dealt) in planned.iter().enumerate() {
                    let mut deck: Vec<u16> = (0..n as u16).collect();
                    plain_source.begin_trial();
                    one_by_one(&mut deck, &mut plain_source);
                    assert_eq!(&deck, dealt, "{name} on {n} cards, {kind:?}, deal {deal}");
                }
                assert_eq!(
                    planned_source.below(1_000),
                    plain_source.below(1_000),
                    "{name} on {n} cards, {kind:?}: the sources drew differently"
                );
            }
        }
    }
}

/// The 8-bit sort keys read off the word's top bytes ([`sort_random_key_u8`], issue 43)
/// are exactly the draws of words cut as they go ([`each_draw`] with bounds of 256), and
/// leave the source where those leave it: on 0 to 70, 200 and 2,000 cards (seven keys a
/// word, with a shorter last word or none), from the default source and from a flawed
/// one (which answers draw by draw), deal after deal from one source.
#[test]
fn u8_keys_read_off_the_word_are_the_keys_each_draw_draws() {
    use crate::randomness::SourceKind;
    use crate::randomness::batched::each_draw;
    let plain_u8_sort = |deck: &mut Vec<u16>, rng: &mut SimulationSource| {
        let mut keyed: Vec<(u8, u16)> = deck.iter().map(|&card| (0, card)).collect();
        each_draw(rng, deck.len(), 256, |_| 256, |i, key| keyed[i].0 = key as u8);
        keyed.sort_by_key(|&(key, _)| key);
        *deck = keyed.into_iter().map(|(_, card)| card).collect();
    };
    for kind in [SourceKind::Xoshiro, SourceKind::MsvcRandMod] {
        let mut read = SimulationSource::for_unit(kind, 11, 0, 0);
        let mut plain = read.clone();
        let mut keyed = Vec::new();
        for n in (0..=70).chain([200, 2_000]) {
            let mut deck: Vec<u16> = (0..n as u16).collect();
            let mut expected = deck.clone();
            sort_random_key_u8(&mut deck, &mut read, &mut keyed);
            plain_u8_sort(&mut expected, &mut plain);
            assert_eq!(deck, expected, "{n} cards, {kind:?}");
            if n > 20 {
                assert_ne!(deck, (0..n as u16).collect::<Vec<_>>(), "{n} cards: shuffled");
            }
        }
        assert_eq!(
            read.below(1_000),
            plain.below(1_000),
            "{kind:?}: the sources drew differently"
        );
    }
}
