//! The check on deals dealt by real Java and real Node (the committed fixtures), on
//! longer streams of the Java model (itself checked against OpenJDK's output), and on
//! fair deals, which must never be called predictable.

use rand::SeedableRng;
use rand::seq::SliceRandom;

use super::*;
use crate::seeds::recover::Direction;
use crate::seeds::recover::java::JavaRandom;

/// Deals as lines of labels, numbered as `ingest` numbers them: by the first line, or
/// by `deck` when given.
struct Deals {
    first: Vec<u16>,
    labels: Vec<String>,
    deck_given: bool,
    deals: u64,
}

impl Deals {
    fn new(lines: &[Vec<String>], deck: Option<&[String]>) -> Self {
        let labels = deck.map_or_else(|| lines[0].clone(), <[String]>::to_vec);
        let first = lines
            .iter()
            .flat_map(|line| {
                line.iter()
                    .map(|label| labels.iter().position(|known| known == label).unwrap() as u16)
            })
            .collect();
        Self {
            first,
            labels,
            deck_given: deck.is_some(),
            deals: lines.len() as u64,
        }
    }

    /// The check with a budget no machine under any load spends (the recoveries here
    /// take well under a second on one core): what it finds does not hang on the clock.
    fn check(&self) -> Option<Predictability> {
        self.check_within(Duration::from_secs(600))
    }

    fn check_within(&self, budget: Duration) -> Option<Predictability> {
        check_predictability(
            &IngestedDeals {
                first: &self.first,
                n: self.labels.len(),
                labels: &self.labels,
                deck_given: self.deck_given,
                deals: self.deals,
            },
            budget,
            &[],
            &NoProgress,
        )
    }
}

fn lines_of(text: &str) -> Vec<Vec<String>> {
    text.lines()
        .map(|line| line.split(' ').map(str::to_string).collect())
        .collect()
}

/// `count` deals of `n` cards (labelled from 1) by `Collections.shuffle(list, new
/// Random(seed))`, fresh lists or the same list again.
fn java_deals(seed: i64, n: u16, count: usize, carried: bool) -> Vec<Vec<String>> {
    let mut random = JavaRandom::new(seed);
    let mut deck: Vec<u16> = (0..n).collect();
    (0..count)
        .map(|_| {
            if !carried {
                deck = (0..n).collect();
            }
            Direction::Descending.deal(&mut deck, |bound| random.next_int(bound));
            deck.iter().map(|card| (card + 1).to_string()).collect()
        })
        .collect()
}

#[test]
fn real_java_and_node_deals_are_predictable_and_the_next_deal_is_theirs() {
    for (text, runtime, shuffle) in [
        (
            include_str!("../../../tests/fixtures/recover/java-seed42-52.txt"),
            "java",
            "Collections.shuffle",
        ),
        (
            include_str!("../../../tests/fixtures/recover/node-fisher-yates-seed7-52.txt"),
            "v8",
            "Fisher-Yates",
        ),
        (
            include_str!("../../../tests/fixtures/recover/node-lodash-seed9-52.txt"),
            "v8",
            "lodash _.shuffle",
        ),
    ] {
        let lines = lines_of(text);
        // The first two deals shown: the third is what the runtime dealt next.
        let predictability = Deals::new(&lines[..2], None).check().unwrap();
        let found = predictability
            .found
            .as_ref()
            .unwrap_or_else(|| panic!("{predictability:?}"));
        assert_eq!((found.runtime, found.shuffle), (runtime, shuffle));
        assert_eq!(found.next_deal.as_ref(), Some(&lines[2]), "{runtime} {shuffle}");
        assert_eq!((found.deals_checked, found.deals_matched, found.deals), (2, 2, 2));
        assert!(found.sentence().starts_with("predictable: these deals are"));
        assert!(found.sentence().ends_with(&lines[2].join(" ")));
    }
}

#[test]
fn fair_deals_are_not_predictable_by_either_runtime_fresh_or_carried() {
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(31);
    for n in [8u16, 52] {
        let lines: Vec<Vec<String>> = (0..64)
            .map(|_| {
                let mut deck: Vec<u16> = (1..=n).collect();
                deck.shuffle(&mut rng);
                deck.iter().map(u16::to_string).collect()
            })
            .collect();
        let predictability = Deals::new(&lines, None).check().unwrap();
        assert!(predictability.found.is_none(), "{predictability:?}");
        assert_eq!(predictability.deals_examined, 64);
        // Every recovery ran to its end and found no state; none was skipped. At 8 cards
        // the summed engines' search cannot run, and the lines say so.
        let expected: Vec<String> = if n == 8 {
            let too_small = "deals of 8 cards are too small for the search of a summed xorshift128+";
            vec![
                "java, fresh: no state".to_string(),
                format!("v8, fresh: no state, but V8's summed eras (2026 on) were not searched: {too_small}"),
                "java, carried: no state".to_string(),
                format!(
                    "v8, carried: no state, but V8's summed eras (2026 on) were not searched: {too_small}"
                ),
            ]
        } else {
            [
                "java, fresh: no state",
                "v8, fresh: no state",
                "spidermonkey, fresh: no state",
                "java, carried: no state",
                "v8, carried: no state",
                "spidermonkey, carried: no state",
            ]
            .map(str::to_string)
            .to_vec()
        };
        // (Each line may go on with what its search left out: Java's rejection loop.)
        assert_eq!(
            predictability.tried.len(),
            expected.len(),
            "n = {n}: {predictability:?}"
        );
        for (tried, expected) in predictability.tried.iter().zip(&expected) {
            assert!(tried.starts_with(expected.as_str()), "n = {n}: {tried}");
        }
        let skipped_at_8 = [
            "spidermonkey, fresh: deals of 8 cards",
            "spidermonkey, carried: deals of 8 cards",
        ];
        assert_eq!(
            predictability.skipped.len(),
            if n == 8 { 2 } else { 0 },
            "{predictability:?}"
        );
        for (skipped, expected) in predictability.skipped.iter().zip(skipped_at_8) {
            assert!(skipped.starts_with(expected), "{skipped}");
        }
    }
}

#[test]
fn a_long_java_stream_is_followed_to_the_deal_after_its_last() {
    // 500 deals of 10 cards: 64 examined, every one of the 500 compared.
    let all = java_deals(2024, 10, 501, false);
    let deals = Deals::new(&all[..500], None);
    let found = deals.check().unwrap().found.unwrap();
    assert_eq!((found.deals_checked, found.deals_matched), (500, 500));
    assert_eq!(found.next_deal.as_ref(), Some(&all[500]));
    assert_eq!(found.seed.as_deref(), Some("new Random(2024L)"));
    // The same list shuffled again and again: found as carried decks.
    let carried = java_deals(7, 12, 101, true);
    let found = Deals::new(&carried[..100], None).check().unwrap().found.unwrap();
    assert!(found.carried);
    assert_eq!(found.next_deal.as_ref(), Some(&carried[100]));
    assert!(found.evidence().contains("--runtime java --carried"));
}

#[test]
fn a_deal_the_generator_did_not_deal_ends_what_it_predicts() {
    let mut all = java_deals(99, 52, 200, false);
    all[150] = java_deals(100, 52, 1, false).remove(0);
    let found = Deals::new(&all, None).check().unwrap().found.unwrap();
    assert_eq!((found.deals_checked, found.deals_matched), (200, 150));
    assert_eq!(found.next_deal, None);
    assert!(
        found
            .sentence()
            .contains("up to deal 150; deal 151 is not the generator's next"),
        "{}",
        found.sentence()
    );
}

#[test]
fn names_need_the_unshuffled_order_and_small_decks_are_not_tried() {
    let named: Vec<String> = "A B C D E F G H I J".split(' ').map(str::to_string).collect();
    let numbers = java_deals(5, 10, 30, false);
    let relabelled: Vec<Vec<String>> = numbers
        .iter()
        .map(|deal| {
            deal.iter()
                .map(|card| named[card.parse::<usize>().unwrap() - 1].clone())
                .collect()
        })
        .collect();
    // Without --deck the order of names is not known: skipped, and said why.
    let predictability = Deals::new(&relabelled, None).check().unwrap();
    assert!(predictability.found.is_none() && predictability.tried.is_empty());
    assert!(predictability.skipped[0].contains("--deck"), "{predictability:?}");
    // With it, the same deals are Java's.
    let found = Deals::new(&relabelled, Some(&named)).check().unwrap().found;
    assert_eq!(found.map(|found| found.runtime), Some("java"));
    // Decks under 8 cards are not tried at all.
    assert!(Deals::new(&java_deals(5, 7, 40, false), None).check().is_none());
}

#[test]
fn a_spent_budget_skips_what_it_did_not_finish_and_never_says_no_state() {
    let deals = Deals::new(&java_deals(3, 52, 10, false), None);
    let predictability = deals.check_within(Duration::ZERO).unwrap();
    assert!(predictability.found.is_none() && predictability.tried.is_empty());
    assert_eq!(predictability.skipped.len(), 6, "{predictability:?}");
    for skipped in &predictability.skipped {
        assert!(skipped.contains("the budget of 0 s ran out"), "{skipped}");
    }
    let searched = predictability.searched();
    for said in [
        "no recovery of a runtime's generator was run; skipped: ",
        "java, fresh: the budget of 0 s ran out",
        "v8, carried: the budget of 0 s ran out",
        "spidermonkey, fresh: the budget of 0 s ran out",
    ] {
        assert!(searched.contains(said), "{searched}");
    }
}

#[test]
fn the_default_budget_tries_only_the_quick_part_of_the_engines_that_take_seconds_and_says_how() {
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(41);
    let lines: Vec<Vec<String>> = (0..3)
        .map(|_| {
            let mut deck: Vec<u16> = (1..=52).collect();
            deck.shuffle(&mut rng);
            deck.iter().map(u16::to_string).collect()
        })
        .collect();
    // 7 s can never leave the 8 s a summed search needs: not tried (Java's
    // search of these deals, about 0.2 s, would have to slow 35-fold to spend the budget
    // and make the line "ran out" instead).
    assert!(BUDGET < Duration::from_secs(7));
    let predictability = Deals::new(&lines, None)
        .check_within(Duration::from_secs(7))
        .unwrap();
    assert!(predictability.found.is_none());
    // V8's first-word eras take milliseconds and are tried; its 2026 eras and
    // SpiderMonkey are not, and the lines say how to try them.
    let how = "--unpredictable gives the check 20 s";
    let v8 = &predictability.tried[1];
    assert!(
        v8.starts_with("v8, fresh: no state, but V8's summed eras (2026 on) were not tried")
            && v8.contains(how),
        "{predictability:?}"
    );
    let spidermonkey = &predictability.skipped[0];
    assert!(
        spidermonkey.starts_with("spidermonkey, fresh: not tried, its search takes seconds")
            && spidermonkey.contains(how),
        "{predictability:?}"
    );
}
