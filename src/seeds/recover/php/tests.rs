//! The model against what real PHP 8.2 printed (`mt_rand(0, max)` draws through the same
//! range as `shuffle()`; `scripts/seeded/php.php` dealt the fixtures), and the search on
//! a window around the fixtures' seeds.

use super::*;
use crate::seeds::recover::Recovery;
use crate::seeds::recover::draws::Direction;
use crate::seeds::recover::draws::Observed;
use crate::seeds::recover::seeded::Seeded;
use crate::seeds::recover::tests::{around, fixture, searched_in};

fn drawn(seed: u32, bounds: &[u32]) -> Vec<u32> {
    let mut generator = Php.generator(0, seed.into());
    bounds.iter().map(|&bound| generator.below(bound)).collect()
}

/// `mt_srand(42); mt_rand(0, 51), mt_rand(0, 50), mt_rand(0, 31)` and three
/// `mt_rand(0, 3221225471)`, whose outputs above 3221225471 are redrawn; seed 44's first
/// output is one (3585619732), and PHP printed the second.
#[test]
fn range_draws_are_phps_masked_redrawn_and_modulo() {
    let wide = 3 << 30;
    assert_eq!(
        drawn(42, &[52, 51, 32, wide, wide, wide]),
        [18, 14, 28, 787_846_414, 3_143_890_026, 2_571_218_620]
    );
    assert_eq!(
        drawn(44, &[wide, wide, wide]),
        [1_857_752_483, 450_095_857, 136_471_725]
    );
}

/// `php scripts/seeded/php.php 673671309 64013 1`: a deal that redraws once (one deal
/// of this size in two does). Its first cards, as PHP dealt them; without the redraw
/// the model deals 7822 31353 17764 ….
#[test]
fn a_deal_of_64013_cards_that_redraws_is_phps() {
    let mut generator = Php.generator(0, 673_671_309);
    let mut deck: Vec<u16> = (1..=64_013).collect();
    Direction::Descending.deal(&mut deck, |bound| generator.below(bound));
    assert_eq!(
        deck[..8],
        [55_575, 19_290, 36_870, 3_698, 45_314, 54_220, 48_763, 55_929]
    );
}

/// The search of `observed` on the 2^20 seeds around `seed`, predicting `predict` deals.
fn searched(observed: &Observed, seed: u64, predict: usize) -> Recovery {
    searched_in(&Seeded(Php), observed, around(seed), predict)
}

#[test]
fn one_real_deal_names_its_seed_and_the_next_deals() {
    let all = fixture("php-seed1635753968-52.txt");
    let recovery = searched(&all.first(1), 1_635_753_968, all.deals.len() - 1);
    assert!(recovery.pinned());
    let seed = recovery.candidates[0].seed.clone().unwrap();
    assert_eq!(
        (seed.value, seed.usage.as_str()),
        (1_635_753_968, "mt_srand(1635753968)")
    );
    assert_eq!(recovery.predicted, all.deals[1..]);
}

/// `str_shuffle` deals as `shuffle` does: ten-card deals, 22 bits each, two of them to
/// pin the seed.
#[test]
fn str_shuffle_deals_of_ten_cards_name_their_seed_in_two_deals() {
    let all = fixture("php-str-shuffle-seed3082999491-10.txt");
    let recovery = searched(&all.first(2), 3_082_999_491, all.deals.len() - 2);
    assert!(recovery.pinned());
    assert_eq!(recovery.candidates[0].seed.as_ref().unwrap().value, 3_082_999_491);
    assert_eq!(recovery.predicted, all.deals[2..]);
}

#[test]
fn an_edited_deal_has_no_seed() {
    let mut edited = fixture("php-seed1635753968-52.txt");
    edited.deals[1].swap(3, 40);
    let recovery = searched(&edited, 1_635_753_968, 1);
    assert!(recovery.complete && recovery.candidates.is_empty());
}
