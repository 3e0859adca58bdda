//! The seed search on a toy runtime (the Microsoft C `rand()` on 2^20 seeds, replayed by
//! the default filter): it finds the seed that dealt, only inside its window, the same
//! whatever the threads, and a stopped search says where to resume.

use std::sync::atomic::AtomicBool;

use super::*;
use crate::seeds::recover::{Recovery, ShuffleCode, recover};
use crate::simulate::{Engine, NoProgress};

struct Toy;

static TOY: About = About {
    name: "toy",
    aliases: &[],
    summary: "a toy for the tests",
    generator: "a toy LCG",
    state_bits: 20,
    shuffles: &[ShuffleCode {
        name: "rand() % (i + 1)",
        code: "for (i = n - 1; i > 0; i--) swap(i, rand() % (i + 1))",
    }],
    versions: "none",
    instead: "anything",
    min_cards: 2,
};

#[derive(Clone)]
struct ToyDraws(u32);

impl Draws for ToyDraws {
    fn below(&mut self, bound: u32) -> u32 {
        self.0 = self.0.wrapping_mul(214_013).wrapping_add(2_531_011);
        (self.0 >> 16 & 0x7fff) % bound
    }
    fn boxed(&self) -> Box<dyn Draws> {
        Box::new(self.clone())
    }
}

impl SeededRuntime for Toy {
    fn about(&self) -> &'static About {
        &TOY
    }
    fn seeds(&self) -> Range<u64> {
        0..1 << 20
    }
    fn direction(&self, _shuffle: usize) -> Direction {
        Direction::Descending
    }
    fn generator(&self, _shuffle: usize, seed: u64) -> Box<dyn Draws> {
        Box::new(ToyDraws(seed as u32))
    }
    fn seed(&self, seed: u64) -> Seed {
        Seed {
            value: seed as i64,
            usage: format!("srand({seed})"),
        }
    }
}

/// `deals` deals of `n` cards from `seed`, fresh decks.
fn dealt(seed: u64, n: usize, deals: usize) -> Observed {
    let mut generator = Toy.generator(0, seed);
    crate::seeds::recover::tests::dealt_by(n, deals, |bound| generator.below(bound))
}

fn searched(observed: &Observed, window: Option<Range<u64>>, threads: usize, stop: bool) -> Recovery {
    let stop = AtomicBool::new(stop);
    let control = Control {
        stop: &stop,
        progress: &NoProgress,
        window,
        quick_only: false,
    };
    Engine::new(threads)
        .unwrap()
        .install(|| recover(&Seeded(Toy), observed, 2, &control))
        .unwrap()
}

#[test]
fn one_deal_names_its_seed_and_the_next_deals() {
    let all = dealt(777_777, 20, 3);
    let recovery = searched(&all.first(1), None, 2, false);
    assert!(recovery.pinned());
    assert_eq!(recovery.candidates[0].seed.as_ref().unwrap().value, 777_777);
    assert_eq!(recovery.predicted, all.deals[1..3]);
    let seeds = recovery.seeds.unwrap();
    assert_eq!((seeds.searched, seeds.resume()), (1 << 20, None));
}

#[test]
fn a_window_without_the_seed_finds_none_and_one_outside_the_space_is_refused() {
    let all = dealt(777_777, 20, 1);
    let recovery = searched(&all, Some(0..700_000), 2, false);
    assert!(recovery.complete && recovery.candidates.is_empty());
    assert_eq!(recovery.seeds.unwrap().searched, 700_000);
    let stop = AtomicBool::new(false);
    let control = Control {
        stop: &stop,
        progress: &NoProgress,
        window: Some(0..(1 << 20) + 1),
        quick_only: false,
    };
    let refused = Seeded(Toy).search(&all, &control).err().unwrap();
    assert!(
        refused.contains("not a window of toy's seeds, which are 0..1048576"),
        "{refused}"
    );
}

#[test]
fn small_decks_list_the_first_seeds_in_order_and_count_the_rest_whatever_the_threads() {
    // Two cards tell one bit: about half the seeds deal them.
    let all = dealt(5, 2, 1);
    let one = searched(&all, None, 1, false);
    let two = searched(&all, None, 2, false);
    assert_eq!(one.candidates.len(), MOST_LISTED);
    assert!(one.unlisted > 400_000, "{}", one.unlisted);
    assert!(!one.pinned() && !one.predictable());
    let seeds = |recovery: &Recovery| -> Vec<i64> {
        recovery
            .candidates
            .iter()
            .map(|c| c.seed.as_ref().unwrap().value)
            .collect()
    };
    assert_eq!((seeds(&one), one.unlisted), (seeds(&two), two.unlisted));
    assert!(seeds(&one).windows(2).all(|pair| pair[0] < pair[1]));
}

#[test]
fn a_stopped_search_says_the_window_that_resumes_it() {
    let all = dealt(777_777, 20, 1);
    let recovery = searched(&all, Some(1000..500_000), 2, true);
    assert!(!recovery.complete && !recovery.pinned());
    let seeds = recovery.seeds.unwrap();
    assert_eq!(seeds.resume(), Some(1000..500_000));
    assert_eq!(seeds.searched, 0);
}

#[test]
fn a_stopped_search_says_what_it_searched_from_where_it_began_and_how_to_resume() {
    let stopped_at = |window: Range<u64>, searched_until: u64| SeedsSearched {
        window,
        searched_until,
        searched: 0,
        space: 0..1 << 32,
        runtime: "jsc",
    };
    let whole = stopped_at(0..1 << 32, 1 << 20);
    assert_eq!(whole.searched_so_far(), "every seed below 1048576 was searched");
    assert_eq!(whole.resume_with("jsc").unwrap(), "--window 1048576..4294967296");
    // Under `js`, which refuses --window, the resume names the runtime searched.
    assert_eq!(
        whole.resume_with("js").unwrap(),
        "--runtime jsc --window 1048576..4294967296"
    );
    // A resumed window did not search the seeds before it.
    let resumed = stopped_at(1000..5000, 3000);
    assert_eq!(resumed.searched_so_far(), "the seeds 1000..3000 were searched");
    assert_eq!(
        stopped_at(1000..5000, 1000).searched_so_far(),
        "no seed was searched to its end"
    );
    assert!(
        stopped_at(1000..5000, 5000).resume_with("jsc").is_none(),
        "not stopped"
    );
}
