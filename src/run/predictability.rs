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

/// What `ingest` tried, skipped and found ([`crate::ingest`] decides; this only holds it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Predictability {
    /// The input's first deals the recoveries were run on.
    pub deals_examined: usize,
    /// Each recovery run, and what came of it: `java, fresh: no state` (fresh decks, or
    /// `carried`: each deal shuffling the one before).
    pub tried: Vec<String>,
    /// Each recovery not run or not finished, and why: `node, carried: the 2 s budget ran
    /// out`, or why none could be (`the unshuffled order of the deck is not known …`).
    pub skipped: Vec<String>,
    /// The generator, when one state of a runtime deals the deals examined.
    pub found: Option<Predictable>,
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
        match &self.next_deal {
            Some(deal) => format!("{whose}: the next deal will be {}", deal.join(" ")),
            None if self.deals_matched < self.deals_checked => format!(
                "{whose} up to deal {}; deal {} is not the generator's next (reseeded, or other draws came \
                 between)",
                crate::format::group_thousands(self.deals_matched),
                crate::format::group_thousands(self.deals_matched + 1)
            ),
            None => format!("{whose}: every later deal is known"),
        }
    }

    /// How it was found, and what to do: the line under [`Predictable::sentence`].
    pub fn evidence(&self) -> String {
        let seed = self
            .seed
            .as_ref()
            .map_or_else(String::new, |seed| format!(", seed {seed}"));
        let deals = crate::format::group_thousands(self.deals);
        let matched = if self.deals_matched < self.deals_checked {
            format!(
                "it deals the input's first {} exactly, not deal {}",
                crate::format::group_thousands(self.deals_matched),
                crate::format::group_thousands(self.deals_matched + 1)
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
        format!(
            "State {}{seed}, recovered from {}; {matched}; `shuffle-audit seeds recover --runtime {}{}` \
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
    /// `predictability: tried on the first 64 deals: java, fresh: no state; …; skipped: …`:
    /// what was looked at.
    pub fn searched(&self) -> String {
        let mut line = if self.tried.is_empty() {
            "predictability: no recovery of a runtime's generator was run".to_string()
        } else {
            format!(
                "predictability: tried on the first {}: {}",
                crate::format::counted(self.deals_examined as u64, "deal"),
                self.tried.join("; ")
            )
        };
        if !self.skipped.is_empty() {
            line.push_str(&format!("; skipped: {}", self.skipped.join("; ")));
        }
        line
    }
}
