//! The fast filter against the replay it stands for: on ranges of 2^16 seeds, at every
//! vector width this processor runs, for both runtimes' draws, it passes exactly the
//! seeds whose replay deals the draws (and, when the draws need more outputs than it
//! follows, a superset of them that the replay then trims to the same).

use super::*;
use crate::seeds::recover::numpy::Interval;
use crate::seeds::recover::php::RangeDraw;

/// The draws of `deals` fresh deals of `n` cards from `seed`'s generator.
fn dealt<B: Bounded>(bounded: B, seed: u32, n: usize, deals: usize) -> Vec<Draw> {
    let mut generator = MtDraws::new(seed, bounded);
    let mut draws = Vec::new();
    for _ in 0..deals {
        for i in (1..n as u32).rev() {
            draws.push(Draw {
                bound: i + 1,
                value: generator.below(i + 1),
            });
        }
    }
    draws
}

/// Draws below `bound` (one above or at 2^31, where most outputs are redrawn) from
/// `seed`'s generator.
fn wide<B: Bounded>(bounded: B, seed: u32, bound: u32, count: usize) -> Vec<Draw> {
    let mut generator = MtDraws::new(seed, bounded);
    (0..count)
        .map(|_| Draw {
            bound,
            value: generator.below(bound),
        })
        .collect()
}

fn replayed<B: Bounded>(bounded: B, draws: &[Draw], seeds: Range<u64>) -> Vec<u64> {
    seeds
        .filter(|&seed| {
            let mut generator = MtDraws::new(seed as u32, bounded);
            draws.iter().all(|draw| generator.below(draw.bound) == draw.value)
        })
        .collect()
}

/// Every width passes what the replay passes on `seeds`: exactly when `exact`, else a
/// superset that the replay trims to the same.
fn agrees<B: Bounded>(bounded: B, draws: &[Draw], seeds: Range<u64>, exact: bool) -> usize {
    let expected = replayed(bounded, draws, seeds.clone());
    for width in Width::here() {
        let mut passed = Vec::new();
        filter_with(width, bounded, draws, seeds.clone(), &mut passed);
        assert!(
            passed.windows(2).all(|pair| pair[0] < pair[1]),
            "{width:?}: in order"
        );
        if exact {
            assert_eq!(passed, expected, "{width:?} on {seeds:?}");
        } else {
            let kept: Vec<u64> = passed
                .iter()
                .copied()
                .filter(|&seed| !replayed(bounded, draws, seed..seed + 1).is_empty())
                .collect();
            assert_eq!(kept, expected, "{width:?} on {seeds:?}");
        }
    }
    expected.len()
}

fn cases<B: Bounded>(bounded: B, wide_bound: u32) {
    let seed: u32 = 2_024_611_723;
    let around = u64::from(seed) - 12_345..u64::from(seed) + (1 << 16) - 12_345;
    // A deal of 52 cards: its seed alone; the first draws only: about one seed in 52·51.
    assert_eq!(
        agrees(bounded, &dealt(bounded, seed, 52, 1), around.clone(), true),
        1
    );
    let two = &dealt(bounded, seed, 52, 1)[..2];
    assert!(agrees(bounded, two, around.clone(), true) > 5);
    // Small decks, whose bounds are powers of two or just above one.
    for n in [2, 3, 5, 9, 17] {
        assert!(agrees(bounded, &dealt(bounded, seed, n, 1), around.clone(), true) >= 1);
    }
    // Bounds where the first output is redrawn a quarter or half of the time, and more.
    assert!(agrees(bounded, &wide(bounded, seed, wide_bound, 1), around.clone(), true) > 0);
    assert_eq!(
        agrees(bounded, &wide(bounded, seed, wide_bound, 3), around.clone(), true),
        1
    );
    // No draws: every seed; the last seeds below 2^32, whose last lanes wrap.
    assert_eq!(agrees(bounded, &[], 5..1000, true), 995);
    let top = (1 << 32) - 700..1 << 32;
    agrees(bounded, &dealt(bounded, u32::MAX - 3, 5, 2), top, true);
    // Two deals of 200 cards: more outputs than the follow-up reaches.
    let long = dealt(bounded, seed, 200, 2);
    assert_eq!(
        agrees(bounded, &long, around.start..around.start + 4096, false),
        0
    );
    assert_eq!(
        agrees(bounded, &long, u64::from(seed) - 50..u64::from(seed) + 50, false),
        1
    );
}

#[test]
fn php_draws_pass_the_fast_filter_exactly_as_they_replay() {
    cases(RangeDraw, 3 << 30);
}

#[test]
fn numpy_draws_pass_the_fast_filter_exactly_as_they_replay() {
    cases(Interval, (1 << 31) + 1);
}

#[test]
fn this_processor_runs_the_widest_width_it_has() {
    let here = Width::here();
    assert_eq!(here.last(), Some(&Width::Portable));
    assert_eq!(Width::best(), here[0]);
}
