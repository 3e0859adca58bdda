use super::*;
use crate::catalogue::generators::{GeneratorSpec, StreamScenario};
use crate::catalogue::items::Items;
use crate::exact::exact_bags;
use crate::randomness::SourceKind;
use crate::serve::request::RunRequest;
use crate::simulate::NoProgress;
use crate::tally::lehmer::unrank;

fn view_of_request(json: &str) -> ExactView {
    exact_view(
        &RunRequest::from_json(json.as_bytes())
            .unwrap()
            .resolve(1)
            .unwrap(),
        &NoProgress,
    )
}

/// Work for a run that was stopped.
struct Stopped;

impl Progress for Stopped {
    fn advance(&self, _trials: u64) {}

    fn cancelled(&self) -> bool {
        true
    }
}

/// The exact view of a stopped run is given up (the walk of 10! paths ends at its first
/// look at the run), and says why there is none.
#[test]
fn a_stopped_runs_exact_view_is_given_up_and_says_so() {
    for json in [
        r#"{"algorithm":"fisher-yates","n":"10"}"#,
        r#"{"algorithm":"bag-pick","n":"10","k":"5"}"#,
        r#"{"algorithm":"shuffle-bag","items":"8"}"#,
    ] {
        let request = RunRequest::from_json(json.as_bytes())
            .unwrap()
            .resolve(1)
            .unwrap();
        let view = exact_view(&request, &Stopped);
        assert!(view.svg.is_none(), "{json}");
        assert_eq!(
            view.note.as_deref(),
            Some("The run was stopped before its exact law was computed."),
            "{json}"
        );
    }
    let walked = crate::exact::enumerate::enumerate_permutations(
        crate::catalogue::PermutationAlgorithm::FisherYates,
        10,
        crate::randomness::DrawLaw::Uniform,
        &Stopped,
    );
    assert!(
        matches!(walked, Err(crate::error::Error::Cancelled)),
        "{walked:?}"
    );
}

fn law_of(generator: &str, items: &str) -> Result<DrawLaw, String> {
    draw_law(
        &GeneratorSpec::parse(generator).unwrap(),
        &Items::parse(items).unwrap(),
        &StreamScenario { add_every: None },
        SourceKind::Xoshiro,
    )
}

fn close(a: &[f64], b: &[f64]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-12)
}

#[test]
fn iid_draws_are_exactly_the_weights() {
    for generator in ["iid", "if-else", "unrandomness:0"] {
        let law = law_of(generator, "A:50,B:25,C:20,D:5").unwrap();
        assert!(
            close(&law.probabilities(), &[0.5, 0.25, 0.2, 0.05]),
            "{generator}"
        );
        assert!(law.is_stated(&Items::parse("A:50,B:25,C:20,D:5").unwrap()));
    }
    // The page's view: the law beside the frequencies, nothing to catch, counted in draws.
    let view = view_of_request(r#"{"algorithm":"iid","items":"A:50,B:25,C:20,D:5","seed":"1"}"#);
    assert_eq!(view.unit, Unit::Draws);
    assert_eq!(view.beside, "frequencies");
    assert!(view.uniform && view.trials_needed.is_none());
    assert_eq!(view.total_variation, Some(0.0));
    assert!(view.svg.as_deref().is_some_and(|svg| svg.starts_with("<svg")));
    assert!(close(view.draw_law.as_deref().unwrap(), &[0.5, 0.25, 0.2, 0.05]));
}

#[test]
fn a_fair_bags_every_draw_is_copies_over_slots_whatever_its_size() {
    // Several copies, and more items than are enumerated (12 > MAX_BAG_ITEMS).
    let law = law_of("shuffle-bag", "A:2,B:1,C:3").unwrap();
    assert_eq!((law.numerators.as_slice(), law.denominator), (&[2, 1, 3][..], 6));
    for generator in ["refill-list", "double-bag-half", "shuffle-bag", "tetris-7-bag"] {
        let view = view_of_request(&format!(
            r#"{{"algorithm":"{generator}","items":"12","seed":"1"}}"#
        ));
        assert_eq!(view.unit, Unit::Draws, "{generator}");
        assert!(view.uniform, "{generator}: {:?}", view.note);
        assert!(
            close(view.draw_law.as_deref().unwrap(), &[1.0 / 12.0; 12]),
            "{generator}"
        );
    }
}

/// The closed form against `exact`'s enumeration of a bag's first cycle: the chance of
/// each item at each slot, summed from the law of the cycle's orders, is `1/m` for a fair
/// bag; the C# bag's is not, which is why it gets no closed form.
#[test]
fn the_closed_form_agrees_with_the_enumerated_first_cycle() {
    let m = 5;
    let items = Items::parse("5").unwrap();
    let settings = ExactSettings {
        n: m,
        k: None,
        threads: 1,
        positions: false,
        alpha: 1e-6,
        items: None,
        source: SourceKind::Xoshiro,
    };
    for (generator, closed_form) in [
        ("tetris-7-bag", true),
        ("shuffle-bag", true),
        ("shuffle-bag-csharp", false),
    ] {
        let spec = GeneratorSpec::parse(generator).unwrap();
        let report = exact_bags(std::slice::from_ref(&spec), &items, &settings, &NoProgress).unwrap();
        let law = report.results[0].law.as_ref().unwrap();
        let mut slot_item = vec![0.0; m * m];
        let mut order = vec![0u16; m];
        for (rank, &numerator) in law.numerators.iter().enumerate() {
            unrank(rank, &mut order);
            for (slot, &item) in order.iter().enumerate() {
                slot_item[slot * m + usize::from(item)] += numerator as f64 / law.denominator as f64;
            }
        }
        let every_slot_fair = close(&slot_item, &vec![1.0 / m as f64; m * m]);
        assert_eq!(every_slot_fair, closed_form, "{generator}: {slot_item:?}");
        assert_eq!(law_of(generator, "5").is_ok(), closed_form, "{generator}");
        if closed_form {
            assert!(close(&law_of(generator, "5").unwrap().probabilities(), &[0.2; 5]));
        }
    }
}

#[test]
fn boggle_truncated_misses_the_weights_by_a_known_amount() {
    let items = Items::parse("boggle").unwrap();
    let law = law_of("boggle-truncated", "boggle").unwrap();
    assert!(!law.is_stated(&items));
    // Letters weighing less than 1 get no copies: (int)weight * 1000 = 0.
    let truncated = law.probabilities();
    let stated = items.probabilities();
    let missing: f64 = (0..items.len())
        .filter(|&item| truncated[item] == 0.0)
        .map(|item| stated[item])
        .sum();
    assert!(missing > 0.0);
    // The distance is at least the weight of the letters that never come out.
    assert!(law.distance_from_stated(&items) >= missing - 1e-12);
    let rounded = law_of("boggle-rounded", "boggle").unwrap();
    assert!(rounded.is_stated(&items));
}

#[test]
fn where_no_law_is_known_the_view_says_so() {
    for (json, words) in [
        (
            r#"{"algorithm":"shuffle-bag-csharp","items":"12","seed":"1"}"#,
            "No exact law",
        ),
        (
            r#"{"algorithm":"unrandomness:1","items":"A:3,B:1","seed":"1"}"#,
            "unequal weights",
        ),
        (
            r#"{"algorithm":"iid","items":"4","seed":"1","source":"delphi"}"#,
            "--source delphi",
        ),
        (
            r#"{"algorithm":"fisher-yates","n":"11","seed":"1"}"#,
            "at most 10 cards",
        ),
    ] {
        let view = view_of_request(json);
        assert!(view.svg.is_none(), "{json}");
        assert!(
            view.note.as_deref().is_some_and(|note| note.contains(words)),
            "{json}: {:?}",
            view.note
        );
    }
    // Unrandomness from equal weights: each draw is uniform, though not independent.
    let law = law_of("unrandomness:1", "4").unwrap();
    assert!(close(&law.probabilities(), &[0.25; 4]));
}
