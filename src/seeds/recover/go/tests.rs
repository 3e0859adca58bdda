//! Go's generator against real Go's output (Go 1.19.8: `rand.NewSource(s).Int63()` and
//! the dealer `scripts/seeded/go_deal.go`), the fast filter against the replay on 2^16
//! seeds (rejections included), and a search that finds a real deal's seed in a window.

use super::*;
use crate::seeds::recover::seeded::{Seeded, deals};
use crate::seeds::recover::tests::{fixture, parse_deal, searched_in};
use crate::seeds::recover::{Observed, Recovery};

#[test]
fn int63_is_gos_for_seeds_reduced_negative_and_zero() {
    // From `rand.New(rand.NewSource(s))`, three `Int63()` each, printed by Go 1.19.8.
    let cases: [(i64, [u64; 3]); 5] = [
        (1, [5577006791947779410, 8674665223082153551, 6129484611666145821]),
        (0, [8717895732742165505, 2259404117704393152, 6050128673802995827]),
        (
            89482311,
            [8717895732742165505, 2259404117704393152, 6050128673802995827],
        ),
        (-5, [1811683815564572222, 4427849682616757295, 188166459856594692]),
        (
            2147483654,
            [8475284246537043955, 2135276795452531224, 2226407336114473942],
        ),
    ];
    for (seed, expected) in cases {
        let mut source = GoSource::new(seed);
        let got: Vec<u64> = (0..3).map(|_| source.int63()).collect();
        assert_eq!(got, expected, "seed {seed}");
    }
}

#[test]
fn the_jumped_outputs_are_the_sources() {
    for seed in [1u32, 2, 89482311, 2147483646] {
        let mut source = GoSource::new(i64::from(seed));
        for k in 0..TAP {
            assert_eq!(output(start(seed), k), source.int63(), "seed {seed}, output {k}");
        }
    }
}

const SHUFFLE_42: &str = "3 6 8 10 7 9 2 5 1 4\n6 5 9 8 4 1 3 2 10 7";
const PERM_42: &str = "8 6 9 10 3 2 7 1 4 5\n4 8 5 7 10 3 6 2 9 1";

#[test]
fn both_shuffles_deal_what_go_dealt() {
    // `go run scripts/seeded/go_deal.go 42 10 2 [perm]`.
    for (shuffle, dealt) in [(0, SHUFFLE_42), (1, PERM_42)] {
        let mut generator = Go.generator(shuffle, 42);
        for line in dealt.lines() {
            let mut deck: Vec<u16> = (0..10).collect();
            Go.direction(shuffle)
                .deal(&mut deck, |bound| generator.below(bound));
            assert_eq!(deck, parse_deal(line), "shuffle {shuffle}");
        }
    }
}

/// The seeds of `seeds` that the default filter (a replay of each) passes, and those
/// the fast one passes.
fn both_filters(shuffle: usize, draws: &[Draw], seeds: Range<u64>) -> (Vec<u64>, Vec<u64>) {
    let replayed: Vec<u64> = seeds
        .clone()
        .filter(|&seed| deals(Go.generator(shuffle, seed), draws))
        .collect();
    let mut fast = Vec::new();
    Go.filter(shuffle, draws, seeds, &mut fast);
    (replayed, fast)
}

/// The first `count` draws of `seed` under `shuffle`, with bounds `bound(k)`.
fn drawn(shuffle: usize, seed: u64, count: usize, bound: impl Fn(usize) -> u32) -> Vec<Draw> {
    let mut generator = Go.generator(shuffle, seed);
    (0..count)
        .map(|k| {
            let bound = bound(k);
            Draw {
                bound,
                value: generator.below(bound),
            }
        })
        .collect()
}

#[test]
fn the_fast_filter_passes_every_seed_the_replay_passes_and_few_others() {
    let seeds = 0..1u64 << 16;
    for shuffle in [0, 1] {
        let deal_bounds = |k: usize| match shuffle {
            0 => 52 - k as u32,
            _ => k as u32 + 1,
        };
        let cases = [
            // A deal of seed 12345's, and of seed 0's (Go's 89482311).
            drawn(shuffle, 12_345, 51, deal_bounds),
            drawn(shuffle, 0, 51, deal_bounds),
            // Bounds of 3·2^29, which reject a quarter of the numbers: the filter must
            // pass the seeds whose draws it cannot tell without the replay.
            drawn(shuffle, 777, 3, |_| 3 << 29),
            // Small bounds that many seeds draw.
            drawn(shuffle, 4_000, 3, |k| k as u32 + 2),
        ];
        for draws in cases {
            let (replayed, fast) = both_filters(shuffle, &draws, seeds.clone());
            assert!(!replayed.is_empty(), "shuffle {shuffle}: {draws:?}");
            let mut kept = fast.clone();
            kept.retain(|&seed| deals(Go.generator(shuffle, seed), &draws));
            assert_eq!(kept, replayed, "shuffle {shuffle}: {draws:?}");
            assert!(fast.windows(2).all(|pair| pair[0] < pair[1]));
            if draws[0].bound <= 52 {
                // Deals' bounds reject one number in 2^26 or fewer: the filter's draws
                // leave a few seeds per block.
                assert!(fast.len() <= replayed.len() + 16, "{} passed", fast.len());
            }
        }
    }
}

fn searched(observed: &Observed, window: Range<u64>) -> Recovery {
    searched_in(&Seeded(Go), observed, window, 3)
}

#[test]
fn one_real_deal_names_its_seed_and_the_next_deals_in_a_window() {
    for (name, shuffle) in [("go-seed1000000-52.txt", 0), ("go-perm-seed123456789-52.txt", 1)] {
        let all = fixture(name);
        let seed = if shuffle == 0 { 1_000_000 } else { 123_456_789 };
        let recovery = searched(&all.first(1), seed - (1 << 19)..seed + (1 << 19));
        assert!(recovery.pinned(), "{name}");
        let found = &recovery.candidates[0];
        assert_eq!(found.seed.as_ref().unwrap().value, seed as i64);
        assert_eq!(found.shuffle.name, ABOUT.shuffles[shuffle].name);
        assert_eq!(recovery.predicted, all.deals[1..]);
    }
}

#[test]
fn an_edited_deal_has_no_seed() {
    let mut edited = fixture("go-seed1000000-52.txt").first(1);
    edited.deals[0].swap(3, 40);
    let recovery = searched(&edited, 1_000_000 - (1 << 19)..1_000_000 + (1 << 19));
    assert!(recovery.complete && recovery.candidates.is_empty());
}

#[test]
fn the_portable_filter_passes_what_the_wide_one_passes() {
    let draws = drawn(0, 40_000, 51, |k| 52 - k as u32);
    for (shuffle, which) in SHUFFLES.into_iter().enumerate() {
        let (mut portable, mut wide) = (Vec::new(), Vec::new());
        filter_body(which, &draws, 0..1 << 16, &mut portable);
        Go.filter(shuffle, &draws, 0..1 << 16, &mut wide);
        assert_eq!(portable, wide);
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            let mut avx2 = Vec::new();
            // SAFETY: the processor has AVX2 (checked above).
            unsafe { filter_avx2(which, &draws, 0..1 << 16, &mut avx2) };
            assert_eq!(avx2, wide);
        }
    }
}
