//! The check on deals dealt by real Java and real Node (the committed fixtures), on
//! longer streams of the Java model (itself checked against OpenJDK's output), and on
//! fair deals, which must never be called predictable.

use rand::SeedableRng;
use rand::seq::SliceRandom;

use super::*;
use crate::run::Verdict;
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
            None,
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

/// The check of `runtime` on fresh or carried decks.
fn check_of<'a>(predictability: &'a Predictability, runtime: &str, carried: bool) -> &'a GeneratorCheck {
    predictability
        .checks
        .iter()
        .find(|check| check.runtime == runtime && check.carried == carried)
        .unwrap_or_else(|| panic!("no check of {runtime}: {predictability:?}"))
}

#[test]
fn fair_deals_are_not_predictable_and_every_runtime_is_listed_with_what_came_of_it() {
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(31);
    for n in [8u16, 52] {
        let lines: Vec<Vec<String>> = (0..100)
            .map(|_| {
                let mut deck: Vec<u16> = (1..=n).collect();
                deck.shuffle(&mut rng);
                deck.iter().map(u16::to_string).collect()
            })
            .collect();
        let predictability = Deals::new(&lines, None).check().unwrap();
        assert!(predictability.found.is_none(), "{predictability:?}");
        // 64 deals of 8 cards show 64 × 15.3 bits; 67 show the 1,024 asked for.
        assert_eq!(predictability.deals_examined, if n == 8 { 67 } else { 64 });
        // Every runtime of the registry but `js` (which only tries the others), on fresh
        // and on carried decks.
        let runtimes = RUNTIMES.iter().filter(|runtime| !runtime.tries_others()).count();
        assert_eq!(predictability.checks.len(), 2 * runtimes, "{predictability:?}");
        for carried in [false, true] {
            // Java's and V8's searches ran to their end and found no state (Java's
            // rejection loop, V8's summed eras at 8 cards: each says what it left out).
            for runtime in ["java", "v8"] {
                assert_eq!(check_of(&predictability, runtime, carried).outcome, Outcome::None);
            }
            let spidermonkey = check_of(&predictability, "spidermonkey", carried);
            if n == 8 {
                assert_eq!(spidermonkey.outcome, Outcome::NotTried);
                assert!(
                    spidermonkey.detail.as_ref().unwrap().contains("too small"),
                    "{spidermonkey:?}"
                );
                assert!(
                    check_of(&predictability, "v8", carried)
                        .detail
                        .as_ref()
                        .unwrap()
                        .contains("summed eras (2026 on) were not searched: deals of 8 cards are too small")
                );
            } else {
                assert_eq!(spidermonkey.outcome, Outcome::None);
            }
            // The runtimes searched seed by seed are not tried unless asked, and say how.
            for runtime in ["php", "python", "numpy", "dotnet", "jsc"] {
                let seeded = check_of(&predictability, runtime, carried);
                assert_eq!(seeded.outcome, Outcome::NotTried);
                assert_eq!(
                    seeded.how.as_deref(),
                    Some(format!("--seed-search {runtime}").as_str())
                );
            }
        }
        // So the verdict is unknown, never "not predictable", and the headline says why.
        assert_eq!(predictability.verdict(), Verdict::Unknown);
        let lines = predictability.lines();
        assert!(
            lines[0].starts_with("predictability: unknown: no state found, but "),
            "{lines:?}"
        );
        assert!(!lines[0].contains("not predictable"), "{lines:?}");
        assert!(
            lines
                .iter()
                .any(|line| line.starts_with("  tried java (java.util.Random), fresh and carried: no state")),
            "{lines:?}"
        );
        assert!(
            lines.iter().any(|line| line.starts_with(
                "  not tried php, numpy, python, c-rand, jsc, fast-shuffle (fresh and \
                                                carried): "
            ) && line
                .ends_with("to search them: --seed-search NAME (NAME: one of them)")),
            "{lines:?}"
        );
    }
}

#[test]
fn decks_of_every_size_are_checked_and_a_small_decks_runtimes_say_what_they_need() {
    // 30 real Node 20 deals of 5 cards (26 pin the state): V8's, with Java, which needs 6
    // cards, said not tried and why.
    let lines = lines_of(include_str!(
        "../../../tests/fixtures/recover/node20-fisher-yates-5.txt"
    ));
    let predictability = Deals::new(&lines[..29], None).check().unwrap();
    assert_eq!(predictability.deals_examined, 29);
    let found = predictability
        .found
        .as_ref()
        .unwrap_or_else(|| panic!("{predictability:?}"));
    assert_eq!(found.runtime, "v8");
    assert_eq!(found.next_deal.as_ref(), Some(&lines[29]));
    let java = check_of(&predictability, "java", false);
    assert_eq!(java.outcome, Outcome::NotTried);
    assert!(
        java.detail.as_ref().unwrap().contains("at least 6 cards"),
        "{java:?}"
    );
    // Too few of them to pin it: more deals asked for, as a count.
    let predictability = Deals::new(&lines[..12], None).check().unwrap();
    assert!(predictability.found.is_none());
    let v8 = check_of(&predictability, "v8", false);
    assert_eq!(v8.outcome, Outcome::NotTried);
    assert!(
        v8.detail.as_ref().unwrap().contains("give about 13 more deals"),
        "{v8:?}"
    );
    assert_eq!(predictability.verdict(), Verdict::Unknown);
    // Decks of 2 and 3 cards: examined by the thousand and hundreds, no runtime that
    // recovers a state whole can search them, and each says so.
    for (n, examined) in [(2u16, 1024), (3, 397)] {
        let deals = java_deals(5, n, 1500, false);
        let predictability = Deals::new(&deals, None).check().unwrap();
        assert_eq!(predictability.deals_examined, examined);
        for runtime in ["java", "v8", "spidermonkey"] {
            assert_eq!(
                check_of(&predictability, runtime, false).outcome,
                Outcome::NotTried
            );
        }
    }
    // One card is no deal: nothing to check.
    assert!(Deals::new(&[vec!["1".to_string()]], None).check().is_none());
}

#[test]
fn a_reseed_among_the_first_deals_is_named_and_both_states_found() {
    // Three deals of new Random(1), then three of new Random(2): no state deals all six.
    let mut deals = java_deals(1, 52, 3, false);
    let second = java_deals(2, 52, 4, false);
    deals.extend_from_slice(&second[..3]);
    let predictability = Deals::new(&deals, None).check().unwrap();
    let found = predictability
        .found
        .as_ref()
        .unwrap_or_else(|| panic!("{predictability:?}"));
    assert_eq!(found.seed.as_deref(), Some("new Random(1L)"));
    assert_eq!(found.deals_matched, 3);
    let again = found.reseeded.as_ref().unwrap();
    assert_eq!((again.at_deal, again.deals_matched), (4, 6));
    assert_eq!(again.seed.as_deref(), Some("new Random(2L)"));
    assert_eq!(found.next_deal.as_ref(), Some(&second[3]));
    assert!(
        found
            .sentence()
            .contains("up to deal 3, then seeded again: deal 4 starts a new state"),
        "{}",
        found.sentence()
    );
    assert!(
        found.evidence().contains("from deal 4, state "),
        "{}",
        found.evidence()
    );
    let java = check_of(&predictability, "java", false);
    assert_eq!(
        java.detail.as_deref(),
        Some("seeded again at deal 4, both states found")
    );
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
    // Deal 151 shuffled by a fair generator: no Java state deals it.
    let mut all = java_deals(99, 52, 200, false);
    let mut fair: Vec<u16> = (1..=52).collect();
    fair.shuffle(&mut rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(151));
    all[150] = fair.iter().map(u16::to_string).collect();
    let found = Deals::new(&all, None).check().unwrap().found.unwrap();
    assert_eq!((found.deals_checked, found.deals_matched), (200, 150));
    assert_eq!((&found.next_deal, &found.reseeded), (&None, &None));
    assert!(
        found
            .sentence()
            .contains("up to deal 150; deal 151 is not the generator's next"),
        "{}",
        found.sentence()
    );
    // Deal 151 by new Random(100), then new Random(99)'s again: its state is found too,
    // and it deals only that deal.
    all[150] = java_deals(100, 52, 1, false).remove(0);
    let found = Deals::new(&all, None).check().unwrap().found.unwrap();
    let again = found.reseeded.as_ref().unwrap();
    assert_eq!((again.at_deal, again.deals_matched), (151, 151));
    assert_eq!(again.seed.as_deref(), Some("new Random(100L)"));
    assert!(
        found.sentence().contains(
            "up to deal 150, then seeded again: deal 151 starts a new state, found too up to deal 151; deal 152 is \
             not the generator's next"
        ),
        "{}",
        found.sentence()
    );
}

#[test]
fn names_need_the_unshuffled_order() {
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
    // Without --deck the order of names is not known: not tried, and said why.
    let predictability = Deals::new(&relabelled, None).check().unwrap();
    assert!(predictability.found.is_none());
    assert!(
        predictability
            .checks
            .iter()
            .all(|check| check.outcome == Outcome::NotTried
                && check.detail.as_ref().unwrap().contains("--deck")),
        "{predictability:?}"
    );
    // With it, the same deals are Java's.
    let found = Deals::new(&relabelled, Some(&named)).check().unwrap().found;
    assert_eq!(found.map(|found| found.runtime), Some("java"));
}

#[test]
fn a_spent_budget_skips_what_it_did_not_finish_and_never_says_no_state() {
    let deals = Deals::new(&java_deals(3, 52, 10, false), None);
    let predictability = deals.check_within(Duration::ZERO).unwrap();
    assert!(predictability.found.is_none());
    assert!(
        predictability
            .checks
            .iter()
            .all(|check| check.outcome == Outcome::NotTried)
    );
    for runtime in ["java", "v8", "spidermonkey"] {
        for carried in [false, true] {
            let check = check_of(&predictability, runtime, carried);
            assert!(
                check
                    .detail
                    .as_ref()
                    .unwrap()
                    .contains("the budget of 0 s ran out"),
                "{check:?}"
            );
            assert!(
                check.how.as_ref().unwrap().contains("--unpredictable"),
                "{check:?}"
            );
        }
    }
    let lines = predictability.lines();
    let runtimes = RUNTIMES.iter().filter(|runtime| !runtime.tries_others()).count();
    assert!(
        lines[0].starts_with(&format!(
            "predictability: unknown: no state found, but {runtimes} of {runtimes}"
        )),
        "{lines:?}"
    );
    assert!(
        lines.iter().any(|line| line.starts_with(
            "  not tried java, v8, spidermonkey (fresh and carried): the budget of 0 s ran out"
        )),
        "{lines:?}"
    );
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
    let how = "--unpredictable, which gives the check 20 s";
    let v8 = check_of(&predictability, "v8", false);
    assert_eq!(v8.outcome, Outcome::None);
    assert!(
        v8.detail
            .as_ref()
            .unwrap()
            .starts_with("but V8's summed eras (2026 on) were not tried")
            && v8.how.as_ref().unwrap().contains(how),
        "{predictability:?}"
    );
    let spidermonkey = check_of(&predictability, "spidermonkey", false);
    assert_eq!(spidermonkey.outcome, Outcome::NotTried);
    assert!(
        spidermonkey
            .detail
            .as_ref()
            .unwrap()
            .starts_with("its search takes seconds")
            && spidermonkey.how.as_ref().unwrap().contains(how),
        "{predictability:?}"
    );
}
