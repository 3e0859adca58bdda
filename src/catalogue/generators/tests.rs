use super::*;
use crate::randomness::SimulationSource;

fn draws(name: &str, items: &str, scenario: &StreamScenario, count: u64) -> Vec<u16> {
    let spec = GeneratorSpec::parse(name).unwrap();
    let items = Items::parse(items).unwrap();
    let mut generator = spec.build(&items, scenario);
    let mut rng = SimulationSource::from_seed(7);
    let mut out = Vec::new();
    generator.draw_each(&mut rng, count, &mut |item| out.push(item));
    out
}

const PLAIN: StreamScenario = StreamScenario { add_every: None };

#[test]
fn whole_bags_deal_every_copy_once_per_cycle() {
    for name in [
        "refill-list",
        "shuffle-bag",
        "shuffle-bag-csharp",
        "tetris-7-bag",
        "boggle-rounded",
    ] {
        let items = if name == "tetris-7-bag" {
            "7"
        } else {
            "A:3,B:2,C:1,D:1"
        };
        let out = draws(name, items, &PLAIN, 7 * 40);
        for cycle in out.chunks(7) {
            let mut counts = [0u64; 7];
            for &item in cycle {
                counts[item as usize] += 1;
            }
            let expected: &[u64] = if name == "tetris-7-bag" {
                &[1; 7]
            } else if name == "boggle-rounded" {
                // 3000/2000/1000/1000 copies: a cycle is 7000 draws, not 7.
                continue;
            } else {
                &[3, 2, 1, 1, 0, 0, 0]
            };
            assert_eq!(&counts[..expected.len()], expected, "{name}");
        }
    }
}

#[test]
fn the_csharp_bag_alternates_two_items_deterministically() {
    // random.Next(1) is always 0: the two slots swap every cycle.
    let out = draws("shuffle-bag-csharp", "A:1,B:1", &PLAIN, 8);
    assert_eq!(out, [0, 1, 1, 0, 0, 1, 1, 0]);
}

#[test]
fn boggle_copies_follow_text_003() {
    let items = Items::parse("boggle").unwrap();
    let truncated = GeneratorSpec::parse("boggle-truncated").unwrap();
    let copies = truncated.bag_copies(&items).unwrap().unwrap();
    assert_eq!(copies[0], 12_000, "E: (int)12.702 * 1000");
    // Text 003's index names J, X, Q and Z; V (0.978) and K (0.772) truncate to 0 too.
    assert_eq!(&copies[20..], &[0; 6], "V, K, J, X, Q, Z get no copies");
    assert_eq!(copies.iter().sum::<u64>(), 88_000, "text 003's ShuffleBag(88000)");
    assert_eq!(truncated.expected(&items), Expectation::Biased);
    let rounded = GeneratorSpec::parse("boggle-rounded").unwrap();
    let copies = rounded.bag_copies(&items).unwrap().unwrap();
    assert_eq!(copies[0], 12_702);
    assert_eq!(copies.iter().sum::<u64>(), 99_965);
    assert_eq!(rounded.expected(&items), Expectation::Fair);
    assert_eq!(truncated.expected(&Items::parse("7").unwrap()), Expectation::Fair);
}

#[test]
fn additions_in_mid_sequence_reset_the_cursor() {
    let scenario = StreamScenario { add_every: Some(2) };
    let spec = GeneratorSpec::parse("shuffle-bag").unwrap();
    let items = Items::parse("A:1,B:1,C:1").unwrap();
    assert_eq!(spec.shape(&items, &scenario).unwrap(), None);
    assert_eq!(spec.largest_bag(&items, &scenario, 10).unwrap(), 3 * 5);
    let out = draws("shuffle-bag", "A:1,B:1,C:1", &scenario, 10);
    assert_eq!(out.len(), 10);
    // Without additions, a cycle of 3 never repeats an item; with them it may.
    let plain = draws("shuffle-bag", "A:1,B:1,C:1", &PLAIN, 30);
    assert!(
        plain
            .chunks(3)
            .all(|cycle| cycle[0] != cycle[1] && cycle[1] != cycle[2] && cycle[0] != cycle[2])
    );
}

#[test]
fn if_else_and_iid_read_the_same_weights() {
    let iid = Iid::new(&[50, 25, 20, 5]);
    assert_eq!(iid.cumulative, [50, 75, 95, 100]);
    let if_else = IfElse::new(&[50, 25, 20, 5]);
    assert_eq!(if_else.thresholds, [0.5, 0.75, 0.95], "text 000's chain");
}

#[test]
fn zero_weights_are_never_drawn() {
    // Not unrandomness with U > 0: it raises every weight by U after each draw, so an
    // item of weight 0 becomes drawable after the first draw, as in the Matlab code.
    for name in ["iid", "if-else", "unrandomness:0", "boggle-truncated"] {
        // (boggle-truncated would also drop A:0.5, so it gets 1.5.)
        let items = if name == "boggle-truncated" {
            "A:1.5,B:0,C:2"
        } else {
            "A:0.5,B:0,C:2"
        };
        let out = draws(name, items, &PLAIN, 20_000);
        assert!(!out.contains(&1), "{name} drew an item of weight 0");
        assert!(out.contains(&0) && out.contains(&2), "{name}");
    }
}

#[test]
fn double_bag_half_deals_half_of_twice_the_copies() {
    let out = draws("double-bag-half", "A:1,B:1,C:1", &PLAIN, 3 * 200);
    for cycle in out.chunks(3) {
        for item in 0..3u16 {
            assert!(cycle.iter().filter(|&&x| x == item).count() <= 2);
        }
    }
    // Some cycle deals an item twice (a plain bag never would).
    assert!(
        out.chunks(3)
            .any(|cycle| cycle[0] == cycle[1] || cycle[1] == cycle[2] || cycle[0] == cycle[2])
    );
}

#[test]
fn bad_items_for_a_generator_are_explained() {
    let message = |name: &str, items: &str| {
        GeneratorSpec::parse(name)
            .unwrap()
            .bag_copies(&Items::parse(items).unwrap())
            .unwrap_err()
            .to_string()
    };
    assert!(message("shuffle-bag", "boggle").contains("not all whole numbers"));
    assert!(message("tetris-7-bag", "A:2,B:1").contains("weights must be equal"));
    assert!(message("boggle-truncated", "A:0.5,B:0.7").contains("would be empty"));
    assert!(message("refill-list", "A:100000000,B:1").contains("more than"));
    let error = GeneratorSpec::parse("unrandomness:-1").unwrap_err().to_string();
    assert!(error.contains("must be a number from 0"), "{error}");
    let name = |text: &str| GeneratorSpec::parse(text).unwrap().display_name();
    assert_eq!(name("unrandomness:-0"), "unrandomness:0");
    assert_eq!(name("unrandomness:1e-320"), "unrandomness:1e-320");
    assert_eq!(name("unrandomness:1e12"), "unrandomness:1e12");
    assert_eq!(name("unrandomness:0.5"), "unrandomness:0.5");
    let error = GeneratorSpec::parse("shuffle-bags").unwrap_err().to_string();
    assert!(error.contains("did you mean 'shuffle-bag'"), "{error}");
    let error = GeneratorSpec::parse("iid:3").unwrap_err().to_string();
    assert!(error.contains("takes no parameter"), "{error}");
}
