//! What the user asked `ingest` for (`--kind`, `--k`, `--deck`, `--weights`, …): checked
//! once, before a byte is read, and written back as the command that reads the input the
//! same way (the reports print it, so that a reader can repeat the run).

use super::*;
use crate::format::shell_word;

/// What each line holds (`--kind`, and `kind` in a `check` suite).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SampleKind {
    /// A whole deck in some order (the first line's items).
    #[default]
    Permutations,
    /// `k` distinct items of a deck (`--deck`, or the tokens seen), a sampler's pick.
    Selections,
    /// One sequence of items across all lines (one or many per line), from a generator
    /// that should pick each item independently with its weight.
    Stream,
}

/// What the user asked for.
#[derive(Clone, Debug, PartialEq)]
pub struct IngestSettings {
    /// What each line holds.
    pub kind: SampleKind,
    /// Items per selection; `None` takes the first line's count.
    pub k: Option<usize>,
    /// The deck's names in card order (`--deck`); `None` takes the first line for
    /// permutations, and the tokens seen in the whole input for selections and streams.
    pub deck: Option<Vec<String>>,
    /// A stream's items with their intended weights (`--weights`, as `stream --items`);
    /// instead of `deck`, which gives equal weights.
    pub weights: Option<Items>,
    /// Selections whose order is promised to be random, and tested.
    pub ordered: bool,
    /// Count and skip malformed lines instead of stopping at the first.
    pub skip_invalid: bool,
    /// A deck whose deals give away their generator (decks of every size:
    /// [`super::predictability`]) counts as not wanted, whatever the tests say: for
    /// card-game servers (`--unpredictable`).
    pub unpredictable: bool,
    /// What the recoveries of that check may take together ([`super::predictability::BUDGET`]
    /// for `ingest`); a report that must come out the same on any machine gives them
    /// time enough never to be cut short.
    pub predictability_budget: std::time::Duration,
    /// Runtimes started from a small seed whose every seed is searched for the first deals
    /// (`--seed-search`), beyond the budgeted check; a search of 2^32 seeds takes a minute
    /// or more, so none is run unless named.
    pub seed_search: Vec<String>,
    /// Set (by the first Ctrl-C) to stop those seed searches where they are: the check then
    /// says which `--seed-search NAME:A..B` resumes each, and the report is written.
    pub seed_search_stop: Option<SeedSearchStop>,
    /// Worker threads.
    pub threads: usize,
    /// Significance level for `fail`.
    pub alpha: f64,
}

impl IngestSettings {
    /// Whole decks, the first line fixing the deck, nothing skipped: what `ingest FILE`
    /// does without options.
    pub fn permutations(threads: usize, alpha: f64) -> Self {
        Self {
            kind: SampleKind::Permutations,
            k: None,
            deck: None,
            weights: None,
            ordered: false,
            skip_invalid: false,
            unpredictable: false,
            predictability_budget: super::predictability::BUDGET,
            seed_search: Vec::new(),
            seed_search_stop: None,
            threads,
            alpha,
        }
    }

    /// The command that reads `source` the same way.
    pub fn command(&self, source: &str) -> String {
        let mut command = format!("shuffle-audit ingest {}", shell_word(source));
        match self.kind {
            SampleKind::Permutations => {}
            SampleKind::Selections => command.push_str(" --kind selections"),
            SampleKind::Stream => command.push_str(" --kind stream"),
        }
        if let Some(weights) = &self.weights {
            command.push_str(&format!(" --weights {}", shell_word(&weights.spec)));
        }
        if let Some(k) = self.k {
            command.push_str(&format!(" --k {k}"));
        }
        if let Some(deck) = &self.deck {
            command.push_str(&format!(" --deck {}", shell_word(&deck.join(" "))));
        }
        if self.ordered {
            command.push_str(" --ordered");
        }
        if self.skip_invalid {
            command.push_str(" --skip-invalid");
        }
        if self.unpredictable {
            command.push_str(" --unpredictable");
        }
        for runtime in &self.seed_search {
            command.push_str(&format!(" --seed-search {}", shell_word(runtime)));
        }
        if self.alpha != crate::stats::verdict::DEFAULT_ALPHA {
            command.push_str(&format!(
                " --alpha {}",
                crate::format::format_probability(self.alpha)
            ));
        }
        command
    }

    /// The runtimes of `--seed-search` (`NAME`, or `NAME:A..B` for the seeds A to B-1),
    /// or the one-line error naming one that is not a runtime, not searched seed by seed,
    /// or whose window is not among its seeds.
    pub fn seed_search_runtimes(&self) -> Result<Vec<SeedSearch>> {
        self.seed_search
            .iter()
            .map(|spec| {
                let bad = |problem: String| Error::BadOption {
                    option: "--seed-search",
                    problem,
                };
                let (name, window) = match spec.split_once(':') {
                    None => (spec.as_str(), None),
                    Some((name, window)) => (
                        name,
                        Some(crate::seeds::reach::parse_seed_range(window).map_err(bad)?),
                    ),
                };
                let runtime = crate::seeds::recover::runtime_named(name).map_err(bad)?;
                let Some(space) = runtime.seed_space() else {
                    return Err(bad(format!(
                        "{} is not started from a small seed; ingest already tries it on every input its search fits",
                        runtime.about().name
                    )));
                };
                if let Some(window) = &window {
                    crate::seeds::recover::check_window(runtime.about().name, window, &space).map_err(bad)?;
                }
                Ok(SeedSearch { runtime, window })
            })
            .collect()
    }

    pub(crate) fn validate(&self) -> Result<Thresholds> {
        crate::simulate::check_thread_count(self.threads)?;
        if let Some(deck) = &self.deck
            && deck.len() < 2
        {
            return Err(Error::BadOption {
                option: "--deck",
                problem: format!(
                    "must name at least 2 items (got {}): fewer leave nothing to choose between",
                    deck.len()
                ),
            });
        }
        let refused = |option, kind| {
            Err(Error::BadOption {
                option,
                problem: format!("applies to --kind {kind}"),
            })
        };
        if self.unpredictable && self.kind != SampleKind::Permutations {
            return refused("--unpredictable", "permutations");
        }
        if !self.seed_search.is_empty() && self.kind != SampleKind::Permutations {
            return refused("--seed-search", "permutations");
        }
        self.seed_search_runtimes()?;
        if self.kind != SampleKind::Selections {
            if self.k.is_some() {
                return refused("--k", "selections");
            }
            if self.ordered {
                return refused("--ordered", "selections");
            }
        }
        if self.kind == SampleKind::Stream {
            if self.deck.is_some() && self.weights.is_some() {
                return Err(Error::Usage(
                    "give the stream's items either with --deck (equal weights) or with --weights, not both"
                        .to_string(),
                ));
            }
            if let Some(deck) = &self.deck
                && deck.len() > MAX_ITEMS
            {
                return Err(Error::BadOption {
                    option: "--deck",
                    problem: format!("names {} items; a stream has at most {MAX_ITEMS}", deck.len()),
                });
            }
        } else if self.weights.is_some() {
            return refused("--weights", "stream");
        }
        Thresholds::new(self.alpha)
    }

    /// Whether the items are the tokens seen, which takes two passes over the input.
    pub fn items_from_input(&self) -> bool {
        self.kind != SampleKind::Permutations && self.deck.is_none() && self.weights.is_none()
    }
}

/// The note that says what items taken from the input cannot show.
pub(super) fn seen_items_note(count: usize, kind: SampleKind) -> String {
    match kind {
        SampleKind::Stream => format!(
            "the items are the {count} seen in the stream; an item that never comes out cannot be missed this \
             way: give --deck or --weights to test for it"
        ),
        _ => format!(
            "the deck is the {count} items seen in the samples; an item the sampler never picks cannot be \
             missed this way: give --deck to test for it"
        ),
    }
}

/// `--deck "A B C"` as its names, split as a line of samples is.
pub fn parse_deck(text: &str) -> Result<Vec<String>> {
    let names: Vec<String> = lines::tokens(text.as_bytes())
        .map_err(|problem| Error::BadOption {
            option: "--deck",
            problem,
        })?
        .map(|token| String::from_utf8_lossy(token).into_owned())
        .collect();
    let tokens: Vec<&[u8]> = names.iter().map(|name| name.as_bytes()).collect();
    Deck::new(&tokens, "--deck".to_string()).map_err(|problem| Error::BadOption {
        option: "--deck",
        problem,
    })?;
    Ok(names)
}

/// `--weights SPEC` as a stream's items, in `stream --items` syntax (`A:50,B:25`, `7`,
/// `boggle`); errors name `--weights`.
pub fn parse_weights(spec: &str) -> Result<Items> {
    Items::parse(spec).map_err(|error| match error {
        Error::BadOption { problem, .. } => Error::BadOption {
            option: "--weights",
            problem,
        },
        other => other,
    })
}

/// What stops `--seed-search`'s searches: a function that, called when they are about to
/// start, hands back the flag that stops them (the CLI's makes the first Ctrl-C set it
/// from then on, rather than end the process). Settings that hold the same are equal.
#[derive(Clone, Copy, Debug)]
pub struct SeedSearchStop(pub fn() -> &'static std::sync::atomic::AtomicBool);

impl PartialEq for SeedSearchStop {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::fn_addr_eq(self.0, other.0)
    }
}
