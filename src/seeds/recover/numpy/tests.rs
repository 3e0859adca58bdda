//! The search on a window around the seeds of deals real numpy 2.4 dealt
//! (`scripts/seeded/numpy_deal.py`: `np.random.shuffle` and `np.random.permutation`).

use std::sync::atomic::AtomicBool;

use super::*;
use crate::seeds::recover::draws::Observed;
use crate::seeds::recover::seeded::Seeded;
use crate::seeds::recover::{Control, Recovery, recover};
use crate::simulate::NoProgress;

#[test]
fn masks_are_the_smallest_all_ones_at_least_the_max() {
    let masks: Vec<u32> = [0, 1, 2, 3, 51, 64, u32::MAX].map(mask_of).to_vec();
    assert_eq!(masks, [0, 1, 3, 3, 63, 127, u32::MAX]);
    // An interval of one number draws nothing.
    let mut generator = Numpy.generator(0, 7);
    let mut copy = generator.clone();
    assert_eq!(generator.below(1), 0);
    assert_eq!(generator.below(52), copy.below(52));
}

fn fixture(name: &str) -> Observed {
    let text = std::fs::read_to_string(format!(
        "{}/tests/fixtures/recover/{name}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let deals = text
        .lines()
        .map(|line| {
            line.split(' ')
                .map(|card| card.parse::<u16>().unwrap() - 1)
                .collect()
        })
        .collect();
    Observed {
        deals,
        carried: false,
    }
}

/// The search of `observed` on 2^20 seeds around `around`, predicting `predict` deals.
fn searched(observed: &Observed, around: u64, predict: usize) -> Recovery {
    let stop = AtomicBool::new(false);
    let control = Control {
        stop: &stop,
        progress: &NoProgress,
        window: Some(around - (1 << 19)..around + (1 << 19)),
    };
    recover(&Seeded(Numpy), observed, predict, &control).unwrap()
}

#[test]
fn one_real_deal_names_its_seed_and_the_next_deals() {
    let all = fixture("numpy-seed2499700527-52.txt");
    let recovery = searched(&all.first(1), 2_499_700_527, all.deals.len() - 1);
    assert!(recovery.pinned());
    let seed = recovery.candidates[0].seed.clone().unwrap();
    assert_eq!(
        (seed.value, seed.usage.as_str()),
        (2_499_700_527, "np.random.seed(2499700527)")
    );
    assert_eq!(recovery.predicted, all.deals[1..]);
}

/// `np.random.permutation(13)`: 32.5 bits a deal, so three deals pin the seed with room.
#[test]
fn permutations_of_thirteen_name_their_seed() {
    let all = fixture("numpy-permutation-seed4151254019-13.txt");
    let recovery = searched(&all.first(3), 4_151_254_019, all.deals.len() - 3);
    assert!(recovery.pinned());
    assert_eq!(recovery.candidates[0].seed.as_ref().unwrap().value, 4_151_254_019);
    assert_eq!(recovery.predicted, all.deals[3..]);
}

#[test]
fn an_edited_deal_has_no_seed() {
    let mut edited = fixture("numpy-seed2499700527-52.txt");
    edited.deals[1].swap(3, 40);
    let recovery = searched(&edited, 2_499_700_527, 1);
    assert!(recovery.complete && recovery.candidates.is_empty());
}
