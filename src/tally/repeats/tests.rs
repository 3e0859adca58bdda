use super::*;
use crate::randomness::SimulationSource;
use crate::randomness::fisher_yates_for_tests as fisher_yates;

/// Repeats by brute force: a set of decks.
fn brute_force(decks: &[Vec<u16>]) -> u64 {
    let distinct: std::collections::HashSet<&Vec<u16>> = decks.iter().collect();
    (decks.len() - distinct.len()) as u64
}

/// `deals` decks of `n` cards from a program with only `seeds` seeds: each deal
/// reseeds from a seed drawn from `0..seeds`, so decks repeat.
fn seeded_decks(n: usize, deals: usize, seeds: u64, seed: u64) -> Vec<Vec<u16>> {
    let mut pick = SimulationSource::from_seed(seed);
    (0..deals)
        .map(|_| {
            use crate::randomness::Randomness;
            let mut rng = SimulationSource::from_seed(pick.below(seeds));
            let mut deck: Vec<u16> = (0..n as u16).collect();
            fisher_yates(&mut deck, &mut rng);
            deck
        })
        .collect()
}

fn count(n: usize, decks: &[Vec<u16>], split: usize) -> RepeatCount {
    let mut counters: Vec<RepeatCounter> = Vec::new();
    for (part, chunk) in decks.chunks(split).enumerate() {
        let mut counter = RepeatCounter::new(n);
        for (j, deck) in chunk.iter().enumerate() {
            counter.record((part * split + j) as u64, deck);
        }
        counters.push(counter);
    }
    // Merge in reverse, as threads might finish.
    counters.reverse();
    RepeatCounter::merge_all(counters)
        .finish(&mut DealsInMemory(decks))
        .unwrap()
}

#[test]
fn counts_match_brute_force_for_ranked_and_hashed_decks() {
    for (n, seeds) in [(5usize, 1000u64), (20, 500), (21, 500), (52, 300), (300, 50)] {
        let decks = seeded_decks(n, 3000, seeds, n as u64);
        let expected = brute_force(&decks);
        assert!(expected > 1000, "{n} cards: the test needs repeats ({expected})");
        let whole = count(n, &decks, 3000);
        assert_eq!(whole.repeats, expected, "{n} cards");
        assert_eq!(whole.distinct + whole.repeats, 3000);
        // Any split into chunks, merged in any order, gives the same count.
        for split in [1, 7, 1000] {
            assert_eq!(count(n, &decks, split), whole, "{n} cards in chunks of {split}");
        }
        let top = &whole.most_repeated[0];
        assert_eq!(decks[top.first_deal as usize], top.deck);
        assert_eq!(
            decks.iter().filter(|deck| **deck == top.deck).count() as u64,
            top.times
        );
        assert!(
            whole
                .most_repeated
                .windows(2)
                .all(|pair| pair[0].times >= pair[1].times)
        );
    }
}

#[test]
fn verifying_in_many_passes_gives_the_same_count() {
    // A budget of one run per pass: every pass asks again for its candidates only.
    let decks = seeded_decks(52, 2000, 200, 8);
    let record = || {
        let mut counter = RepeatCounter::new(52);
        for (deal, deck) in decks.iter().enumerate() {
            counter.record(deal as u64, deck);
        }
        counter
    };
    let one_pass = record().finish(&mut DealsInMemory(&decks)).unwrap();
    let passes = record().finish_within(&mut DealsInMemory(&decks), 1).unwrap();
    assert_eq!(one_pass, passes);
    assert_eq!(one_pass.repeats, brute_force(&decks));
}

#[test]
fn equal_hashes_of_different_decks_are_told_apart() {
    // A lookup that answers with different decks than were recorded: the hashes of
    // the recorded decks meet, the decks handed back differ, so nothing is a repeat.
    let n = 30;
    let same: Vec<u16> = (0..n as u16).collect();
    let mut counter = RepeatCounter::new(n);
    for deal in 0..4 {
        counter.record(deal, &same);
    }
    let different: Vec<Vec<u16>> = (0..4)
        .map(|shift| {
            let mut deck = same.clone();
            deck.rotate_left(shift);
            deck
        })
        .collect();
    let count = counter.finish(&mut DealsInMemory(&different)).unwrap();
    assert_eq!(count.repeats, 0);
    assert_eq!(count.hash_collisions, 3);
    assert!(count.most_repeated.is_empty());
}

#[test]
fn the_lookup_is_asked_for_candidates_only_in_increasing_order() {
    struct Recording<'a> {
        decks: &'a [Vec<u16>],
        asked: Vec<u64>,
    }
    impl DealLookup for Recording<'_> {
        fn visit_deals(&mut self, deals: &[u64], visit: &mut dyn FnMut(u64, &[u16])) -> Result<()> {
            self.asked.extend_from_slice(deals);
            for &deal in deals {
                visit(deal, &self.decks[deal as usize]);
            }
            Ok(())
        }
    }
    let decks = seeded_decks(40, 500, 100, 3);
    let mut counter = RepeatCounter::new(40);
    for (deal, deck) in decks.iter().enumerate() {
        counter.record(deal as u64, deck);
    }
    let mut lookup = Recording {
        decks: &decks,
        asked: Vec::new(),
    };
    let count = counter.finish(&mut lookup).unwrap();
    assert_eq!(count.repeats, brute_force(&decks));
    assert!(lookup.asked.windows(2).all(|pair| pair[0] < pair[1]));
    // Only deals whose deck occurs more than once were asked for.
    for &deal in &lookup.asked {
        let deck = &decks[deal as usize];
        assert!(decks.iter().filter(|other| *other == deck).count() > 1);
    }
    // No repeats, no lookups.
    let fair = seeded_decks(40, 500, u64::MAX, 4);
    let mut counter = RepeatCounter::new(40);
    for (deal, deck) in fair.iter().enumerate() {
        counter.record(deal as u64, deck);
    }
    let mut lookup = Recording {
        decks: &fair,
        asked: Vec::new(),
    };
    assert_eq!(counter.finish(&mut lookup).unwrap().repeats, 0);
    assert!(lookup.asked.is_empty());
}

#[test]
fn a_lookup_that_loses_deals_is_an_error() {
    let decks = seeded_decks(25, 200, 10, 5);
    let mut counter = RepeatCounter::new(25);
    for (deal, deck) in decks.iter().enumerate() {
        counter.record(deal as u64, deck);
    }
    let mut lookup = LookupFn(|deal: u64, deck: &mut Vec<u16>| {
        if deal > 100 {
            return Err(Error::Input(format!("deal {deal} could not be read again")));
        }
        deck.extend_from_slice(&decks[deal as usize]);
        Ok(())
    });
    let error = counter.clone().finish(&mut lookup).unwrap_err().to_string();
    assert!(error.contains("could not be read again"), "{error}");
    let mut short = LookupFn(|_: u64, deck: &mut Vec<u16>| {
        deck.extend(0..24);
        Ok(())
    });
    let error = counter.finish(&mut short).unwrap_err().to_string();
    assert!(error.contains("24 cards instead of 25"), "{error}");
}

#[test]
fn ranks_round_trip_up_to_twenty_cards() {
    let mut rng = SimulationSource::from_seed(6);
    for n in [0usize, 1, 2, 7, 13, 20] {
        for _ in 0..50 {
            let mut deck: Vec<u16> = (0..n as u16).collect();
            fisher_yates(&mut deck, &mut rng);
            assert_eq!(unrank_u64(rank_u64(&deck), n), deck);
        }
    }
    let reversed: Vec<u16> = (0..20).rev().collect();
    assert_eq!(rank_u64(&reversed), 2_432_902_008_176_639_999);
    let ten: Vec<u16> = vec![3, 1, 4, 0, 9, 2, 6, 5, 8, 7];
    assert_eq!(rank_u64(&ten) as usize, crate::tally::lehmer::rank(&ten));
}

#[test]
fn an_entry_is_sixteen_bytes() {
    assert_eq!(std::mem::size_of::<Entry>(), 16);
}
