//! Whether ingested deals give away the generator that dealt them: what `ingest` found
//! when it tried to recover a real runtime's generator from the first deals, as plain
//! data that every renderer (text, JSON, the HTML and Markdown reports, the live page)
//! shows the same way.
//!
//! Why beside the verdict and not inside it: the statistical tests count outcomes, and a
//! shuffle driven by `java.util.Random` passes them all; that one deal gives away every
//! later one is a different fact, about the generator, which no count shows. The verdict
//! stays the tests'; this finding stands next to it (and `ingest --unpredictable` makes it
//! decide the exit status).

/// What `ingest` tried, did not try, and found ([`crate::ingest`] decides; this only holds it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Predictability {
    /// The input's first deals the recoveries were run on.
    pub deals_examined: usize,
    /// Every generator this version models, each on fresh and on carried decks: what its
    /// recovery found, or why it was not run and how to run it.
    pub checks: Vec<GeneratorCheck>,
    /// The generator, when one state of a runtime deals the deals examined.
    pub found: Option<Predictable>,
}

/// One generator's recovery on fresh decks or on carried ones (each deal shuffling the
/// one before).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GeneratorCheck {
    /// As `seeds recover --runtime` names it (`java`).
    pub runtime: &'static str,
    /// Its generator (`java.util.Random`).
    pub generator: &'static str,
    /// The decks were taken as carried.
    pub carried: bool,
    pub outcome: Outcome,
    /// What a search that ran left out ("but V8's summed eras were not tried: …"), or why
    /// one was not run ("its search needs decks of at least 6 cards").
    pub detail: Option<String>,
    /// How to run what was left out (`--seed-search php`, `--unpredictable`).
    pub how: Option<String>,
}

/// What one recovery came to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// One state deals every deal examined.
    State,
    /// One seed does.
    Seed,
    /// Several states or seeds (or one whose bits the deals leave unsettled) deal them:
    /// more deals would tell them apart.
    Several(u64),
    /// Searched, and nothing deals them (but see [`GeneratorCheck::detail`] for what the
    /// search left out).
    None,
    /// Not run.
    NotTried,
    /// Started, and stopped before its end (the budget spent, Ctrl-C).
    Stopped,
}

impl Outcome {
    /// `state`, `seed`, `several`, `none`, `not tried`: the JSON's and the text's word.
    pub fn word(self) -> &'static str {
        match self {
            Outcome::State => "state",
            Outcome::Seed => "seed",
            Outcome::Several(_) => "several",
            Outcome::None => "none",
            Outcome::NotTried => "not tried",
            Outcome::Stopped => "stopped",
        }
    }
}

impl GeneratorCheck {
    /// The search ran to its end over the whole model and its answer rules the
    /// generator in or out: several states left do not.
    pub fn settled(&self) -> bool {
        match self.outcome {
            Outcome::NotTried | Outcome::Stopped | Outcome::Several(_) => false,
            Outcome::None => self.detail.is_none(),
            Outcome::State | Outcome::Seed => true,
        }
    }

    /// `no state`, `2 seeds deal them`, `not tried`, with its detail.
    fn said(&self) -> String {
        let result = match self.outcome {
            Outcome::State => "predictable".to_string(),
            Outcome::Seed => "predictable, its seed found".to_string(),
            Outcome::Several(count) if count <= 1 => "a state deals them".to_string(),
            Outcome::Several(count) => format!(
                "{} states or seeds deal them",
                crate::format::group_thousands(count)
            ),
            Outcome::None => "no state".to_string(),
            Outcome::NotTried | Outcome::Stopped => String::new(),
        };
        match (&self.detail, result.is_empty()) {
            (Some(detail), true) => detail.clone(),
            (Some(detail), false) => format!("{result}, {detail}"),
            (None, _) => result,
        }
    }
}

/// Whether the deals give their generator away, as far as the checks could tell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// A generator was recovered: every later deal is known.
    Predictable,
    /// Every generator this version models was searched to its end, and none deals them.
    NotPredictable,
    /// Nothing was recovered, but some generator was not searched to its end (or several
    /// states are left): the deals may still give one away.
    Unknown,
}

impl Verdict {
    /// `predictable`, `not-predictable`, `unknown`: the JSON's word.
    pub fn word(self) -> &'static str {
        match self {
            Verdict::Predictable => "predictable",
            Verdict::NotPredictable => "not-predictable",
            Verdict::Unknown => "unknown",
        }
    }
}

/// A runtime's generator recovered from the deals: every later deal is known.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Predictable {
    /// The runtime, as `seeds recover --runtime` names it (`java`).
    pub runtime: &'static str,
    /// Its generator (`java.util.Random`).
    pub generator: &'static str,
    /// The shuffle that dealt them (`Collections.shuffle`).
    pub shuffle: &'static str,
    /// Each deal shuffled the deck the one before left.
    pub carried: bool,
    /// The first deals the state was recovered from.
    pub deals_used: usize,
    /// The input's first deals compared with what the recovered generator deals (those
    /// `ingest` kept, up to 16,384).
    pub deals_checked: u64,
    /// Of those, the deals from the first that it deals exactly.
    pub deals_matched: u64,
    /// The input's deals, all of them.
    pub deals: u64,
    /// The state before the first deal, in hexadecimal.
    pub state: String,
    /// How the runtime is given the seed that starts it there (`new Random(42L)`).
    pub seed: Option<String>,
    /// The deal after the input's last (deal `deals + 1`), in the input's labels, when
    /// the generator dealt every deal of the input (`None` when one did not match, or
    /// when the input is too long to deal through again).
    pub next_deal: Option<Vec<String>>,
    /// What to use instead (`SecureRandom`).
    pub instead: &'static str,
    /// The deal where the generator was seeded again (its deals stop being the first
    /// state's), with the new state, found too; `next_deal` is then the new state's.
    pub reseeded: Option<Reseeded>,
}

/// A new state of the same generator, from the deal where the first state's deals stop.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reseeded {
    /// The deal it starts at (1 for the first).
    pub at_deal: u64,
    pub state: String,
    pub seed: Option<String>,
    /// The input's deals, from the first, that the two states deal exactly.
    pub deals_matched: u64,
}

impl Predictable {
    /// `predictable: these deals are java.util.Random's (Collections.shuffle): the next
    /// deal will be 3 1 2 …`: the one sentence every report leads with.
    pub fn sentence(&self) -> String {
        let whose = format!(
            "predictable: these deals are {}'s ({}{})",
            self.generator,
            self.shuffle,
            if self.carried {
                ", each deal shuffling the one before"
            } else {
                ""
            }
        );
        let (whose, matched) = match &self.reseeded {
            Some(again) => (
                format!(
                    "{whose} up to deal {}, then seeded again: deal {} starts a new state, found too",
                    crate::format::group_thousands(again.at_deal - 1),
                    crate::format::group_thousands(again.at_deal)
                ),
                again.deals_matched,
            ),
            None => (whose, self.deals_matched),
        };
        match &self.next_deal {
            Some(deal) => format!("{whose}: the next deal will be {}", deal.join(" ")),
            None if matched < self.deals_checked => format!(
                "{whose} up to deal {}; deal {} is not the generator's next (reseeded, or other draws came \
                 between)",
                crate::format::group_thousands(matched),
                crate::format::group_thousands(matched + 1)
            ),
            None => format!("{whose}: every later deal is known"),
        }
    }

    /// How it was found, and what to do: the line under [`Predictable::sentence`].
    pub fn evidence(&self) -> String {
        // With a reseed, what the two states deal together.
        let deals_matched = self
            .reseeded
            .as_ref()
            .map_or(self.deals_matched, |again| again.deals_matched);
        let seed = self
            .seed
            .as_ref()
            .map_or_else(String::new, |seed| format!(", seed {seed}"));
        let deals = crate::format::group_thousands(self.deals);
        let matched = if deals_matched < self.deals_checked {
            format!(
                "it deals the input's first {} exactly, not deal {}",
                crate::format::group_thousands(deals_matched),
                crate::format::group_thousands(deals_matched + 1)
            )
        } else if self.deals_checked < self.deals {
            format!(
                "it deals the first {} of the input's {deals} exactly (the deals kept to compare)",
                crate::format::group_thousands(self.deals_checked)
            )
        } else {
            format!(
                "it deals {} exactly",
                match self.deals {
                    1 => "the input's deal".to_string(),
                    _ => format!("every one of the input's {deals} deals"),
                }
            )
        };
        let again = self.reseeded.as_ref().map_or_else(String::new, |again| {
            format!(
                "; from deal {}, state {}{}",
                crate::format::group_thousands(again.at_deal),
                again.state,
                again
                    .seed
                    .as_ref()
                    .map_or_else(String::new, |seed| format!(", seed {seed}"))
            )
        });
        format!(
            "State {}{seed}, recovered from {}{again}; {matched}; `shuffle-audit seeds recover --runtime {}{}` \
             shows it; use instead: {}",
            self.state,
            match self.deals_used {
                1 => "the first deal".to_string(),
                used => format!("the first {used} deals"),
            },
            self.runtime,
            if self.carried { " --carried" } else { "" },
            self.instead
        )
    }
}

impl Predictability {
    pub fn verdict(&self) -> Verdict {
        if self.found.is_some() {
            Verdict::Predictable
        } else if !self.checks.is_empty() && self.checks.iter().all(GeneratorCheck::settled) {
            Verdict::NotPredictable
        } else {
            Verdict::Unknown
        }
    }

    /// The runtimes not searched to their end, each once, in the order they were tried.
    pub fn untried(&self) -> Vec<&'static str> {
        let mut untried: Vec<&'static str> = Vec::new();
        for check in self.checks.iter().filter(|check| !check.settled()) {
            if !untried.contains(&check.runtime) {
                untried.push(check.runtime);
            }
        }
        untried
    }

    /// The runtimes searched, each once.
    fn runtimes(&self) -> Vec<&'static str> {
        let mut runtimes: Vec<&'static str> = Vec::new();
        for check in &self.checks {
            if !runtimes.contains(&check.runtime) {
                runtimes.push(check.runtime);
            }
        }
        runtimes
    }

    /// The one line that says what the checks came to, never "not predictable" while a
    /// generator went unsearched: `predictability: not predictable by any generator this
    /// version models (12, on the first 64 deals)`, or `predictability: unknown: no state
    /// found, but 9 of 12 generators were not searched to their end (…)`.
    pub fn headline(&self) -> String {
        let deals = match self.deals_examined {
            1 => "deal".to_string(),
            examined => format!("{} deals", crate::format::group_thousands(examined as u64)),
        };
        let all = self.runtimes().len();
        match self.verdict() {
            Verdict::Predictable => format!("predictability: predictable (the first {deals} examined)"),
            Verdict::NotPredictable => format!(
                "predictability: not predictable by any generator this version models ({all} searched to \
                 their end on the first {deals}: {})",
                self.runtimes().join(", ")
            ),
            Verdict::Unknown if self.deals_examined == 0 => format!(
                "predictability: unknown: no generator could be searched{}",
                self.checks
                    .first()
                    .and_then(|check| check.detail.as_ref())
                    .map_or_else(String::new, |why| format!(": {why}"))
            ),
            Verdict::Unknown => {
                let untried = self.untried();
                let several = self
                    .checks
                    .iter()
                    .any(|check| matches!(check.outcome, Outcome::Several(_)));
                format!(
                    "predictability: unknown: {}{} of {all} generators this version models {} not ruled out on \
                     the first {deals} ({}); see below for why, and how to search {} where there is a way",
                    if several {
                        "several states or seeds deal them, and "
                    } else {
                        "no state found, but "
                    },
                    untried.len(),
                    if untried.len() == 1 { "was" } else { "were" },
                    untried.join(", "),
                    if untried.len() == 1 { "it" } else { "them" }
                )
            }
        }
    }

    /// The headline, then one line per generator (its fresh and carried decks together
    /// when they came to the same), tried first, and those not tried unless one was found: `  tried java (java.util.Random), fresh
    /// and carried: no state`, `  not tried php (PHP's mt_rand), …: why; how`.
    pub fn lines(&self) -> Vec<String> {
        let mut lines = vec![self.headline()];
        if self.deals_examined == 0 {
            // Why none could be is the headline's.
            return lines;
        }
        let mut tried = Vec::new();
        let mut untried: Vec<(String, Vec<&'static str>)> = Vec::new();
        for runtime in self.runtimes() {
            let checks: Vec<&GeneratorCheck> = self
                .checks
                .iter()
                .filter(|check| check.runtime == runtime)
                .collect();
            let alike = checks.windows(2).all(|pair| {
                (pair[0].outcome, &pair[0].detail, &pair[0].how)
                    == (pair[1].outcome, &pair[1].detail, &pair[1].how)
            });
            let shown: Vec<(&GeneratorCheck, &str)> = if alike && checks.len() == 2 {
                vec![(checks[0], "fresh and carried")]
            } else {
                checks
                    .iter()
                    .map(|check| (*check, if check.carried { "carried" } else { "fresh" }))
                    .collect()
            };
            for (check, decks) in shown {
                let how = check
                    .how
                    .as_ref()
                    .map_or_else(String::new, |how| format!("; to search it: {how}"));
                match check.outcome {
                    // Runtimes not tried for the same reason share a line.
                    Outcome::NotTried if self.found.is_none() => {
                        let why = format!("({decks}): {}{}", check.said(), how.replace(runtime, "NAME"));
                        match untried.iter_mut().find(|(known, _)| *known == why) {
                            Some((_, runtimes)) => runtimes.push(runtime),
                            None => untried.push((why, vec![runtime])),
                        }
                    }
                    // Not needed once one was found, or not a generator of these deals.
                    Outcome::NotTried => {}
                    Outcome::Stopped => tried.push(format!(
                        "  stopped {runtime} ({}), {decks}: {}{how}",
                        check.generator,
                        check.said()
                    )),
                    _ => tried.push(format!(
                        "  tried {runtime} ({}), {decks}: {}{how}",
                        check.generator,
                        check.said()
                    )),
                }
            }
        }
        lines.extend(tried);
        lines.extend(untried.into_iter().map(|(why, runtimes)| {
            let why = match runtimes[..] {
                [one] => why.replace("NAME", one),
                _ if why.contains("NAME") => format!(
                    "{} (NAME: one of them)",
                    why.replace("to search it: ", "to search them: ")
                ),
                _ => why,
            };
            format!("  not tried {} {why}", runtimes.join(", "))
        }));
        lines
    }

    /// Each check as `seeds recover` would say it, for the JSON's `tried` list: `java,
    /// fresh: no state`.
    pub fn tried(&self) -> Vec<String> {
        self.checks
            .iter()
            .filter(|check| !matches!(check.outcome, Outcome::NotTried | Outcome::Stopped))
            .map(|check| check.one_line())
            .collect()
    }

    /// Each check not run or not finished, with why, for the JSON's `skipped` list.
    pub fn skipped(&self) -> Vec<String> {
        self.checks
            .iter()
            .filter(|check| matches!(check.outcome, Outcome::NotTried | Outcome::Stopped))
            .map(|check| check.one_line())
            .collect()
    }
}

impl GeneratorCheck {
    /// `java, fresh: no state`.
    fn one_line(&self) -> String {
        let how = self
            .how
            .as_ref()
            .map_or_else(String::new, |how| format!("; to search it: {how}"));
        format!(
            "{}, {}: {}{how}",
            self.runtime,
            if self.carried { "carried" } else { "fresh" },
            self.said()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(runtime: &'static str, outcome: Outcome, detail: Option<&str>) -> GeneratorCheck {
        GeneratorCheck {
            runtime,
            generator: "a generator",
            carried: false,
            outcome,
            detail: detail.map(str::to_string),
            how: None,
        }
    }

    #[test]
    fn not_predictable_only_when_every_generator_was_searched_to_its_end() {
        let mut predictability = Predictability {
            deals_examined: 64,
            checks: vec![
                check("java", Outcome::None, None),
                check("v8", Outcome::None, None),
            ],
            found: None,
        };
        assert_eq!(predictability.verdict(), Verdict::NotPredictable);
        assert!(
            predictability.headline().starts_with(
                "predictability: not predictable by any generator this version models (2 searched"
            ),
            "{}",
            predictability.headline()
        );
        // A search that left part of its model out, one not run, several states left:
        // each makes it unknown, and the headline never says "not predictable".
        for other in [
            check("v8", Outcome::None, Some("but V8's summed eras were not tried")),
            check(
                "v8",
                Outcome::NotTried,
                Some("the budget of 2 s ran out before it"),
            ),
            check("v8", Outcome::Several(3), Some("give one more deal")),
        ] {
            predictability.checks[1] = other;
            assert_eq!(predictability.verdict(), Verdict::Unknown);
            let headline = predictability.headline();
            assert!(
                headline.starts_with("predictability: unknown: ") && !headline.contains("not predictable"),
                "{headline}"
            );
            assert!(headline.contains("1 of 2 generators"), "{headline}");
        }
        // No check at all is not a "not predictable" either.
        predictability.checks.clear();
        assert_eq!(predictability.verdict(), Verdict::Unknown);
    }
}
