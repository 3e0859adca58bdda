//! The search on a window around the seeds of deals real numpy 2.4 dealt
//! (`scripts/seeded/numpy_deal.py`: `np.random.shuffle` and `np.random.permutation`).

use super::*;
use crate::seeds::recover::Recovery;
use crate::seeds::recover::draws::Observed;
use crate::seeds::recover::seeded::Seeded;
use crate::seeds::recover::tests::{around, fixture, searched_in};

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

/// The search of `observed` on the 2^20 seeds around `seed`, predicting `predict` deals.
fn searched(observed: &Observed, seed: u64, predict: usize) -> Recovery {
    searched_in(&Seeded(Numpy), observed, around(seed), predict)
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
