//! The terminal report of `seeds recover`: which generator and shuffle, how many deals
//! were read and searched, and the answer: the one state (with the seed that starts it)
//! and the next deals, or how many states deal the deals, or none.
//!
//! Deals are printed in the input's labels, one per line, so that a predicted deal can be
//! compared with the program's next deal by eye or by `diff`.

use crate::format::{counted, group_thousands};
use crate::ingest::recovery::RecoverReport;

/// States shown when several deal the deals.
const SHOWN: usize = 8;

/// The whole report.
pub fn render(report: &RecoverReport) -> String {
    let recovery = &report.recovery;
    let about = recovery.runtime;
    let shuffles: Vec<&str> = about.shuffles.iter().map(|shuffle| shuffle.name).collect();
    let mut text = format!(
        "seeds recover: {} under {}, from {} of {} cards{} ({})\n",
        about.generator,
        shuffles.join(" or "),
        counted(recovery.deals as u64, "deal"),
        recovery.n,
        if recovery.carried {
            ", each shuffling the deck the one before left"
        } else {
            ""
        },
        report.source,
    );
    let used = match recovery.deals_used {
        1 => "the first deal".to_string(),
        used => format!("the first {used} deals"),
    };
    let these = match recovery.deals {
        1 => "this deal".to_string(),
        deals => format!("these {deals} deals"),
    };
    text.push_str(&format!(
        "searched with {used} ({:.0} bits about a {}-bit state){}, in {:.2} s\n",
        recovery.deals_used as f64 * crate::seeds::recover::bits_per_deal(recovery.n),
        about.state_bits,
        if recovery.deals > recovery.deals_used {
            format!(
                ", then checked against all {}",
                group_thousands(recovery.deals as u64)
            )
        } else {
            String::new()
        },
        recovery.elapsed.as_secs_f64(),
    ));
    if let Some(seeds) = &recovery.seeds {
        text.push_str(&seeds_line(seeds, about.name, recovery.elapsed.as_secs_f64()));
    }
    // A runtime started from a small seed is searched seed by seed: say seeds.
    let state = if recovery.seeds.is_some() { "seed" } else { "state" };
    match recovery.candidates.len() {
        0 if recovery.complete => text.push_str(&format!(
            "no {} {state} deals {these}: they were not dealt by {} (or a deal was edited, or other \
             draws came between them){}\n",
            about.generator,
            shuffles.join(" or "),
            recovery
                .caveat
                .as_ref()
                .map_or(String::new(), |caveat| format!(", {caveat}"))
        )),
        0 => text.push_str(&format!(
            "no {} {state} found before the search was stopped{}\n",
            about.generator,
            recovery
                .caveat
                .as_ref()
                .map_or(String::new(), |caveat| format!(": {caveat}"))
        )),
        1 => {
            let candidate = &recovery.candidates[0];
            let all = if recovery.deals == 1 {
                "this deal".to_string()
            } else {
                format!("all {} deals", group_thousands(recovery.deals as u64))
            };
            // A search that did not end (stopped, or bits left unsettled) found one, but
            // has not ruled out others: nothing is known of the next deals yet.
            let found = if recovery.complete {
                format!("1 {state} deals {all}: every later deal is known")
            } else {
                format!(
                    "1 {state} found that deals {all}, {}",
                    recovery.caveat.as_deref().map_or_else(
                        || format!("but the search was stopped before every other {state} was ruled out"),
                        str::to_string
                    )
                )
            };
            text.push_str(&format!(
                "{found}\n  shuffle: {}\n  state: {}{}\n",
                candidate.shuffle.name,
                candidate.state,
                candidate.seed.as_ref().map_or(String::new(), |seed| format!(
                    " (seed {}: {})",
                    seed.value, seed.usage
                )),
            ));
            if let Some(note) = &candidate.note {
                text.push_str(&format!("  {note}\n"));
            }
        }
        _ => {
            let tell_apart = format!(
                ": give {} to tell them apart",
                recovery.more_deals_to_tell_apart()
            );
            text.push_str(&format!(
                "{} {} deal {these}{}\n",
                group_thousands(recovery.matching()),
                if recovery.seeds.is_some() {
                    "seeds"
                } else {
                    "states"
                },
                if recovery.predictable() {
                    ", and all deal the same next deals (they differ only in numbers the shuffle never \
                     shows): every later deal is known"
                } else {
                    &tell_apart
                }
            ));
            for candidate in recovery.candidates.iter().take(SHOWN) {
                text.push_str(&format!(
                    "  {} {}{}\n",
                    candidate.shuffle.name,
                    candidate.state,
                    candidate
                        .note
                        .as_ref()
                        .map_or(String::new(), |note| format!(": {note}"))
                ));
            }
            if recovery.matching() > SHOWN as u64 {
                let listed = crate::output::json::recover::LISTED as u64;
                text.push_str(&format!(
                    "  … and {} more (--json lists {})\n",
                    group_thousands(recovery.matching() - SHOWN as u64),
                    if recovery.matching() <= listed {
                        "them all".to_string()
                    } else {
                        format!("the first {}", group_thousands(listed))
                    }
                ));
            }
        }
    }
    if recovery.predict > 0 && recovery.pinned() && !recovery.predictable() {
        text.push_str(
            "the next deals depend on which V8 version made the doubles, which these deals do not tell: \
             give one more deal\n",
        );
    } else if recovery.predict > 0 && recovery.predictable() {
        text.push_str(&format!(
            "next {}:\n",
            counted(recovery.predicted.len() as u64, "deal")
        ));
        for (at, deal) in recovery.predicted.iter().enumerate() {
            text.push_str(&format!("  {}: {}\n", at + 1, report.labelled(deal).join(" ")));
        }
    }
    text.push_str(&format!("reproduce: {}\n", report.command));
    text
}

/// What a seed search covered, and how fast: "searched seeds 0..4294967296 (all of
/// php's), 68.2 M seeds/s", or where a stopped one got to.
fn seeds_line(seeds: &crate::seeds::recover::SeedsSearched, asked: &str, seconds: f64) -> String {
    let whole = seeds.window == seeds.space;
    let rate = seeds.searched as f64 / seconds.max(1e-9) / 1e6;
    match seeds.resume_with(asked) {
        None => format!(
            "searched seeds {}..{} ({}{} seeds), {rate:.1} M seeds/s\n",
            seeds.window.start,
            seeds.window.end,
            if whole { "every one of its " } else { "" },
            group_thousands(seeds.window.end - seeds.window.start),
        ),
        Some(resume) => format!(
            "stopped after {} of {} seeds: {}; resume with {resume}\n",
            group_thousands(seeds.searched),
            group_thousands(seeds.window.end - seeds.window.start),
            seeds.searched_so_far(),
        ),
    }
}
