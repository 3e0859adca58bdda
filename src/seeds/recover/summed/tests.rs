use super::*;
use crate::seeds::recover::draws::Direction;
use crate::simulate::NoProgress;

/// `deals` deals of `n` cards from `generator` through `shuffle` (cards from 0).
fn dealt(mut generator: Box<dyn Draws>, shuffle: JsShuffle, n: usize, deals: usize) -> Observed {
    let direction = shuffle.direction();
    Observed {
        deals: (0..deals)
            .map(|_| {
                let mut deck: Vec<u16> = (0..n as u16).collect();
                direction.deal(&mut deck, |bound| generator.below(bound));
                deck
            })
            .collect(),
        carried: false,
    }
}

const STATE: (u64, u64) = (0x9e37_79b9_7f4a_7c15, 0xd1b5_4a32_d192_ed03);

#[test]
fn each_era_is_recovered_from_one_deal_of_52_cards_and_no_other_era_deals_it() {
    let stop = AtomicBool::new(false);
    for (era, shuffle) in [
        (&V8_FORWARDS, JsShuffle::FisherYates),
        (&V8_BACKWARDS, JsShuffle::Lodash),
        (&LOW_53, JsShuffle::FisherYates),
    ] {
        let observed = dealt(generator(STATE, era.kept, era.order), shuffle, 52, 1);
        let found = search(&observed, shuffle, era.kept, era.order, &stop, &NoProgress)
            .unwrap()
            .unwrap();
        assert_eq!(found, vec![STATE], "{}", era.label);
    }
}

#[test]
fn a_deal_from_another_generator_finds_no_state() {
    // A xorshift128+ deal whose doubles come from the first word (V8 up to 2025): no sum deals it.
    let stop = AtomicBool::new(false);
    let mut random = MathRandom::at(STATE, CACHE - 1, Conversion::Divide53);
    let mut deck: Vec<u16> = (0..52).collect();
    Direction::Descending.deal(&mut deck, |bound| random.below(bound));
    let observed = Observed {
        deals: vec![deck],
        carried: false,
    };
    let found = search(
        &observed,
        JsShuffle::FisherYates,
        Kept::Top53,
        Order::Stream,
        &stop,
        &NoProgress,
    )
    .unwrap()
    .unwrap();
    assert!(found.is_empty());
}

#[test]
fn too_few_cards_are_refused_with_a_reason() {
    let stop = AtomicBool::new(false);
    // Twelve deals of 10 cards hold 261 bits, but no two runs of their draws are narrow
    // enough to meet within the lists' bound: the search says so rather than run for hours.
    let observed = dealt(
        generator(STATE, Kept::Low53, Order::Stream),
        JsShuffle::FisherYates,
        10,
        12,
    );
    let reason = search(
        &observed,
        JsShuffle::FisherYates,
        Kept::Low53,
        Order::Stream,
        &stop,
        &NoProgress,
    )
    .unwrap_err();
    assert!(reason.contains("deals of 10 cards are too small"), "{reason}");
}

/// Counts the progress reported and sets `stop` once it reaches `stop_at`.
struct Counted<'a> {
    reported: std::sync::atomic::AtomicU64,
    stop_at: u64,
    stop: &'a AtomicBool,
}

impl Progress for Counted<'_> {
    fn advance(&self, parts: u64) {
        use std::sync::atomic::Ordering::Relaxed;
        if self.reported.fetch_add(parts, Relaxed) + parts >= self.stop_at {
            self.stop.store(true, Relaxed);
        }
    }
}

#[test]
fn every_search_reports_its_share_of_the_progress_and_a_stopped_one_says_how_far_it_got() {
    let eras = [&V8_FORWARDS, &V8_BACKWARDS];
    // Lodash over the backwards era is searched last: all four searches run.
    let observed = dealt(
        generator(STATE, Kept::Top53, Order::FreshCacheBackwards),
        JsShuffle::Lodash,
        52,
        3,
    );
    let stop = AtomicBool::new(false);
    let counted = Counted {
        reported: Default::default(),
        stop_at: u64::MAX,
        stop: &stop,
    };
    let found = search_eras(&observed, &eras, &stop, &counted);
    assert_eq!(found.candidates.len(), 1);
    assert_eq!(counted.reported.into_inner(), progress_of(&eras));
    assert_eq!(found.searched.len(), 4);
    assert!(found.how_far().is_none(), "not stopped");

    // Stopped once the first search is done: the second says it was stopped, after the first.
    let stop = AtomicBool::new(false);
    let counted = Counted {
        reported: Default::default(),
        stop_at: PROGRESS_PER_SOLVE,
        stop: &stop,
    };
    let found = search_eras(&observed, &eras, &stop, &counted);
    assert!(!found.complete && found.candidates.is_empty());
    let how_far = found.how_far().unwrap();
    assert_eq!(
        how_far,
        format!(
            "stopped in the search of Fisher-Yates over {}; searched to the end before it: Fisher-Yates over {}",
            V8_BACKWARDS.label, V8_FORWARDS.label
        )
    );
}
