use super::*;

#[test]
fn derived_tables_match_direct_counting() {
    // The same decks recorded by code (n = 4) and counted by hand.
    let decks: [[u16; 4]; 5] = [
        [0, 1, 2, 3],
        [1, 0, 2, 3],
        [1, 2, 3, 0],
        [1, 2, 3, 0],
        [3, 2, 1, 0],
    ];
    let mut recorder = PermutationRecorder::new(4, TallyOptions::default());
    for deck in &decks {
        recorder.record(deck);
    }
    let tally = recorder.finish();
    assert_eq!(tally.trials, 5);
    let counts = tally.permutation_counts.as_ref().unwrap();
    assert_eq!(counts.iter().sum::<u64>(), 5);
    assert_eq!(counts[rank(&[1, 2, 3, 0])], 2);
    // Fixed points: 4, 2, 0, 0, 0. Cycles: 4, 3, 1, 1, 2.
    assert_eq!(tally.fixed_point_counts.unwrap(), vec![3, 0, 1, 0, 1]);
    assert_eq!(tally.cycle_counts.unwrap(), vec![0, 2, 1, 1, 1]);
    let positions = tally.position_counts.unwrap();
    // Card 0 ended at position 0 once, 1 once, 3 three times.
    assert_eq!(&positions[0..4], &[1, 1, 0, 3]);
    for item in 0..4 {
        assert_eq!(positions[item * 4..item * 4 + 4].iter().sum::<u64>(), 5);
    }
}

#[test]
fn ranked_decks_derive_the_same_tables() {
    // n = 5 is counted by Lehmer rank; one batch and one single deck.
    let decks: [[u16; 5]; 3] = [[0, 1, 2, 3, 4], [1, 2, 3, 4, 0], [0, 2, 1, 4, 3]];
    let mut recorder = PermutationRecorder::new(5, TallyOptions::default());
    recorder.record_batch(&decks);
    recorder.record(&[4, 3, 2, 1, 0]);
    let tally = recorder.finish();
    assert_eq!(tally.trials, 4);
    let counts = tally.permutation_counts.as_ref().unwrap();
    assert_eq!(counts.len(), 120);
    assert_eq!((counts[0], counts[119], counts.iter().sum::<u64>()), (1, 1, 4));
    // Fixed points: 5, 0, 1 (card 0), 1 (card 2). Cycles: 5, 1, 3, 3.
    assert_eq!(tally.fixed_point_counts.unwrap(), vec![1, 2, 0, 0, 0, 1]);
    assert_eq!(tally.cycle_counts.unwrap(), vec![0, 1, 0, 2, 0, 1]);
    let positions = tally.position_counts.unwrap();
    // Card 4 ended at positions 4, 3, 3 and 0.
    assert_eq!(&positions[20..25], &[1, 0, 0, 2, 1]);
}

#[test]
fn listed_decks_finish_as_counted_ones_and_add_to_them() {
    let listed = TallyOptions {
        listed: true,
        ..TallyOptions::default()
    };
    let decks: Vec<Vec<u16>> = (0..9u16)
        .map(|shift| (0..9u16).map(|card| (card * 2 + shift) % 9).collect())
        .collect();
    let (mut counted, mut written) = (
        PermutationRecorder::new(9, TallyOptions::default()),
        PermutationRecorder::new(9, listed),
    );
    assert!(matches!(written.counts, Counts::Listed(_)));
    for deck in &decks {
        counted.record(deck);
        written.record_times(deck, 2);
        counted.record(deck);
    }
    let mut total = PermutationRecorder::new(9, TallyOptions::default());
    total.merge(&written);
    assert_eq!(written.clone().finish(), counted.clone().finish());
    assert_eq!(total.finish(), counted.finish());
    // Below nine cards, or in order, the orders are counted as ever.
    assert!(matches!(
        PermutationRecorder::new(8, listed).counts,
        Counts::Ranked(_)
    ));
}

#[test]
fn large_decks_keep_only_the_tables_asked_for() {
    let options = TallyOptions {
        positions: true,
        cycle_structure: false,
        ..TallyOptions::default()
    };
    let mut recorder = PermutationRecorder::new(12, options);
    let deck: Vec<u16> = (0..12).rev().collect();
    recorder.record(&deck);
    let tally = recorder.finish();
    assert!(tally.permutation_counts.is_none());
    assert!(tally.fixed_point_counts.is_none() && tally.cycle_counts.is_none());
    let positions = tally.position_counts.unwrap();
    assert_eq!(positions[11 * 12], 1, "card 11 went to position 0");
    assert_eq!(positions.iter().sum::<u64>(), 12);
}

#[test]
fn footprints_follow_the_counting_scheme() {
    let all = TallyOptions::default();
    assert_eq!(PermutationRecorder::footprint(3, all), 64 * 8);
    assert_eq!(PermutationRecorder::footprint(10, all), 3_628_800 * 8);
    // Positions, fixed points and cycles, rising sequences.
    assert_eq!(
        PermutationRecorder::footprint(2000, all),
        (2000 * 2000 + 3 * 2001) * 8
    );
    // In order too: the relative permutations' tables again, and a chunk of hashed
    // decks kept for the repeats (16,384 deals of 16 bytes and 4,000 bytes each).
    let sequence = TallyOptions {
        serial: true,
        repeats: true,
        ..all
    };
    assert_eq!(
        PermutationRecorder::footprint(2000, sequence),
        2 * (2000 * 2000 + 3 * 2001) * 8 + 16_384 * (16 + 4000)
    );
}

#[test]
fn adding_finished_tallies_is_merging_their_recorders() {
    for n in [4, 5, 11] {
        let decks: Vec<Vec<u16>> = (0..n as u16)
            .map(|shift| (0..n as u16).map(|card| (card + shift) % n as u16).collect())
            .collect();
        let record = |part: &[Vec<u16>]| {
            let mut recorder = PermutationRecorder::new(n, TallyOptions::default());
            for deck in part {
                recorder.record(deck);
            }
            recorder
        };
        let mut whole = record(&decks[..1]);
        whole.merge(&record(&decks[1..]));
        let mut added = record(&decks[..1]).finish();
        added.add(&record(&decks[1..]).finish());
        let whole = whole.finish();
        assert_eq!(added, whole, "n = {n}");
        if let Some(counts) = &whole.permutation_counts {
            assert_eq!(PermutationTally::from_order_counts(n, counts.clone()), whole);
        }
    }
}

#[test]
fn merging_adds_counts() {
    let mut a = PermutationRecorder::new(11, TallyOptions::default());
    let mut b = PermutationRecorder::new(11, TallyOptions::default());
    let identity: Vec<u16> = (0..11).collect();
    a.record(&identity);
    b.record(&identity);
    b.record(&identity);
    a.merge(&b);
    let tally = a.finish();
    assert_eq!(tally.trials, 3);
    assert_eq!(tally.fixed_point_counts.unwrap()[11], 3);
    assert_eq!(tally.cycle_counts.unwrap()[11], 3);
}
