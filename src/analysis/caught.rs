//! Which test decided a verdict, in words a user can act on.
//!
//! A table of ten p-values does not tell a newcomer what is wrong with a shuffle; the
//! name of the test that caught it, and what that test failing means, does. This is the
//! one place that says it, so the terminal, `ingest`'s last line and the library
//! assertion's message say the same thing.

use super::TestReport;

/// The test with the smallest adjusted p-value and what its failing means:
/// `caught by serial-positions (adjusted p < 1e-300): each deal depends on the one before:
/// cards move from their places in the deal before to some places more often than chance`.
/// `None` when no test ran. Meant for a verdict of fail or suspicious: for a pass it
/// still names the smallest p-value, which then means nothing.
pub fn caught_by(tests: &[TestReport]) -> Option<String> {
    let test = tests
        .iter()
        .filter(|test| test.p_adjusted.is_some())
        .min_by(|a, b| {
            let log10 = |test: &TestReport| test.p_adjusted.map_or(0.0, |p| p.log10());
            log10(a).total_cmp(&log10(b))
        })?;
    let p = test.p_adjusted?;
    Some(format!(
        "caught by {} (adjusted p {}): {}",
        test.name,
        if p.is_below_floor() {
            p.to_string()
        } else {
            format!("= {p}")
        },
        what_it_shows(test)
    ))
}

/// What a test rejecting says about the shuffle.
pub fn what_it_shows(test: &TestReport) -> String {
    if test.too_even() {
        return format!(
            "too even to be random: the {} come out more evenly than chance allows, as a program \
             that deals in turn or from a pattern does",
            counted_thing(test.name)
        );
    }
    let (serial, base) = match test.name.strip_prefix("serial-") {
        Some(base) => (true, base),
        None => (false, test.name),
    };
    let words = match base {
        "permutations" => "some orders come out more often than others",
        "positions" if serial => {
            "cards move from their places in the deal before to some places more often than chance"
        }
        "positions" => "cards land in some positions more often than chance",
        "fixed-points" if serial => {
            "cards stay where the deal before had them more or less often than chance"
        }
        "fixed-points" => "cards stay in their starting place more or less often than chance",
        "cycles" => {
            "the number of cycles is wrong, as when every card must move (Sattolo) or a swap is missing"
        }
        "rising-sequences" if serial => {
            "runs of cards keep their order from one deal to the next, as when a dealer riffles the last hand too few times"
        }
        "rising-sequences" => "runs of cards stay in their starting order, as after too few riffles",
        "overlap" => "consecutive selections share items more or less often than independent draws do",
        "repeats" => {
            "decks are dealt twice far more often than a fair shuffle allows: the program can deal only a small set of decks, as from a short seed"
        }
        "guessing" => {
            return format!(
                "a player who studied the first deals, samples or draws names more of the next ones than \
                 chance allows: the flaw can be exploited (strategy: {})",
                test.description
            );
        }
        "subsets" => "some subsets come out more often than others",
        "ordered" => "the order within a selection is not uniform",
        "inclusion" => "some items are picked more often than others",
        "frequencies" => "some items come up more or less often than their weights say",
        "run-lengths" => "items come in runs longer or shorter than independent draws make",
        "gaps" => "the waits between an item's appearances are not what the draws promise",
        "cycle-positions" => "within the bag's cycles, items favour some positions",
        "cycle-repeats" => {
            "a cycle starts with the item that ended the cycle before more or less often than chance"
        }
        _ => test.description,
    };
    if serial {
        format!("each deal depends on the one before: {words}")
    } else {
        words.to_string()
    }
}

/// What a test counts, for "the … come out more evenly": `orders`, `card positions`.
fn counted_thing(name: &str) -> &'static str {
    match name.trim_start_matches("serial-") {
        "permutations" => "orders",
        "positions" => "card positions",
        "fixed-points" => "counts of cards left in place",
        "cycles" => "cycle counts",
        "rising-sequences" => "counts of rising sequences",
        "subsets" => "subsets",
        "ordered" => "orders within selections",
        "inclusion" => "items",
        "overlap" => "overlaps of consecutive selections",
        "frequencies" => "item counts",
        "run-lengths" => "run lengths",
        "gaps" => "gaps",
        _ => "outcomes",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::{TestOutcome, report};
    use crate::stats::chi_square::LowerTail;
    use crate::stats::chi_square::Tail;
    use crate::stats::{Fit, PMethod, PValue};

    /// A test that ran with adjusted p-value `10^log10_p`, decided by its lower tail
    /// (counts too even) or its upper one.
    fn ran(name: &'static str, log10_p: f64, too_even: bool) -> TestReport {
        let p = PValue::from_log10(log10_p);
        let (upper, lower) = match too_even {
            true => (PValue::from_log10(0.0), p),
            false => (p, PValue::from_log10(0.0)),
        };
        let fit = Fit::Computed {
            statistic: 1.0,
            df: 5,
            cells: 6,
            p,
            tail: Tail::Both {
                upper,
                lower,
                lower_method: PMethod::ChiSquare,
            },
            method: PMethod::ChiSquare,
            lower: LowerTail::ChiSquare,
        };
        let mut test = report(name, "a description", TestOutcome::Fit(fit));
        test.p_adjusted = Some(p);
        test
    }

    #[test]
    fn names_the_smallest_p_value_and_says_what_it_means() {
        let tests = [
            ran("positions", -1.0, false),
            ran("serial-rising-sequences", -400.0, false),
            ran("cycles", -20.0, false),
        ];
        let line = caught_by(&tests).unwrap();
        assert_eq!(
            line,
            "caught by serial-rising-sequences (adjusted p < 1e-300): each deal depends on the one \
             before: runs of cards keep their order from one deal to the next, as when a dealer \
             riffles the last hand too few times"
        );
        let tests = [ran("permutations", -12.0, true), ran("positions", -0.5, false)];
        let line = caught_by(&tests).unwrap();
        assert!(
            line.starts_with("caught by permutations (adjusted p = 1.0e-12): too even"),
            "{line}"
        );
        assert!(caught_by(&[]).is_none());
    }

    #[test]
    fn serial_tests_say_the_deals_depend_on_each_other() {
        for name in ["serial-cycles", "serial-permutations", "serial-positions"] {
            let words = what_it_shows(&ran(name, -9.0, false));
            assert!(
                words.starts_with("each deal depends on the one before: "),
                "{words}"
            );
        }
        // An unknown name falls back on the test's own description.
        assert_eq!(what_it_shows(&ran("windows", -9.0, false)), "a description");
        // A stream's tests say what is wrong, not what a fair stream does.
        let words = what_it_shows(&ran("cycle-repeats", -9.0, false));
        assert!(words.contains("more or less often than chance"), "{words}");
    }
}
