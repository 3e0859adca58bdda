//! Stream generators: endless sequences of items, i.i.d. or dealt from "shuffle bags",
//! as texts 000 and 003 describe them.
//!
//! Each generator is written as its source text has it (the Java `IntShuffleBag` with
//! its cursor, the C# bag with its exclusive bound, the Matlab "unrandomness" loop), and
//! draws only through [`Randomness`]. A generator is built for one stream from the items
//! and their weights ([`GeneratorSpec::build`]) and then asked for one item at a time.
//!
//! Besides the state machine, each generator declares its *shape*: whether it deals in
//! cycles (bags) and how many of each item a cycle holds, which is what the stream tests
//! need to know (a bag of `c` copies can never give a run longer than `2c`), and the
//! verdict it is known to get for the given items.

mod machines;

use serde::Serialize;

use super::{Expectation, Parameter, fisher_yates};
use crate::catalogue::items::Items;
use crate::error::{Error, Result};
use crate::randomness::Randomness;
pub use machines::{
    CursorBag, DoubleBagHalf, Draw, Generator, IfElse, Iid, RefillList, TetrisBag, Unrandomness,
};

/// The most slots a bag may have, counting the copies added by `--add-every` (each
/// worker thread holds one bag at a time).
pub const MAX_BAG_SLOTS: u64 = 50_000_000;

/// Which generator, with its parameter.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum GeneratorKind {
    /// Independent draws by weight: text 000's weight array.
    Iid,
    /// The same law through text 000's if/else chain on a uniform float.
    IfElse,
    /// Text 000's `SimpleShuffle`: refill and shuffle a list when empty, draw from the end.
    RefillList,
    /// Text 000's `IntShuffleBag`.
    ShuffleBag,
    /// Text 003's C# bag: `random.Next(currentPosition)`, an exclusive bound.
    ShuffleBagCsharp,
    /// One of each item per bag, shuffled and dealt in turn.
    TetrisBag,
    /// Text 000's comment: weights that move away from what was just drawn.
    Unrandomness {
        /// How far the weights move per draw.
        step: f64,
    },
    /// Text 000's comment: fill a bag with twice the items, draw half, refill.
    DoubleBagHalf,
    /// Text 003's Boggle bag: `(int)letter.Value * 1000` copies (truncated first).
    BoggleTruncated,
    /// The Boggle bag with each weight × 1000 rounded to the nearest whole copy.
    BoggleRounded,
}

/// One generator of the catalogue.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct GeneratorEntry {
    /// The name used on the command line.
    pub name: &'static str,
    /// One line saying what it does.
    pub summary: &'static str,
    /// The source text(s) it comes from.
    pub origin: &'static str,
    /// What it is known to be, in words.
    pub known_to_be: &'static str,
    /// What it is known to be whatever the items, if that does not depend on them.
    pub always: Option<Expectation>,
    /// The parameter it takes, if any.
    pub parameter: Option<Parameter>,
    #[serde(skip)]
    kind: GeneratorKind,
}

/// Every stream generator, in the order `list` prints them.
pub const GENERATORS: &[GeneratorEntry] = &[
    GeneratorEntry {
        name: "iid",
        summary: "each draw independent, by weight: below(total weight), walk the weights",
        origin: "text 000 (Bad Solution #2, the weight array)",
        known_to_be: "fair",
        always: Some(Expectation::Fair),
        parameter: None,
        kind: GeneratorKind::Iid,
    },
    GeneratorEntry {
        name: "if-else",
        summary: "the same law through an if/else chain on a uniform float in [0, 1)",
        origin: "text 000 (Bad Solution #1, the if/else chain)",
        known_to_be: "fair (must agree with iid)",
        always: Some(Expectation::Fair),
        parameter: None,
        kind: GeneratorKind::IfElse,
    },
    GeneratorEntry {
        name: "refill-list",
        summary: "a list of weight copies of each item, shuffled when empty, drawn from the end",
        origin: "text 000 (SimpleShuffle)",
        known_to_be: "fair",
        always: Some(Expectation::Fair),
        parameter: None,
        kind: GeneratorKind::RefillList,
    },
    GeneratorEntry {
        name: "shuffle-bag",
        summary: "one array and a cursor: swap a random slot in 0..=cursor to the cursor and deal it",
        origin: "text 000 (IntShuffleBag)",
        known_to_be: "fair",
        always: Some(Expectation::Fair),
        parameter: None,
        kind: GeneratorKind::ShuffleBag,
    },
    GeneratorEntry {
        name: "shuffle-bag-csharp",
        summary: "the same bag drawing random.Next(currentPosition): the cursor slot is never chosen",
        origin: "text 003 (ShuffleBag.Next)",
        known_to_be: "biased",
        always: Some(Expectation::Biased),
        parameter: None,
        kind: GeneratorKind::ShuffleBagCsharp,
    },
    GeneratorEntry {
        name: "tetris-7-bag",
        summary: "one of each item per bag, shuffled (Fisher-Yates) and dealt in turn",
        origin: "text 000 (Tetris: a shuffled sequence of all 7 pieces)",
        known_to_be: "fair",
        always: Some(Expectation::Fair),
        parameter: None,
        kind: GeneratorKind::TetrisBag,
    },
    GeneratorEntry {
        name: "unrandomness",
        summary: "draw by weight; then every weight grows by U and the drawn one loses m*U (m items)",
        origin: "text 000's comments (the Matlab \"unrandomness\" loop)",
        known_to_be: "fair for equal weights; biased for unequal weights when U > 0",
        always: None,
        parameter: Some(Parameter {
            name: "U",
            meaning: "how far the weights move per draw (0 = i.i.d.)",
            default: "1",
        }),
        kind: GeneratorKind::Unrandomness { step: 1.0 },
    },
    GeneratorEntry {
        name: "double-bag-half",
        summary: "fill a bag with twice the copies, draw half of it, discard the rest, refill",
        origin: "text 000's comments (\"fill a bag twice the size ... take out half\")",
        known_to_be: "fair",
        always: Some(Expectation::Fair),
        parameter: None,
        kind: GeneratorKind::DoubleBagHalf,
    },
    GeneratorEntry {
        name: "boggle-truncated",
        summary: "a shuffle bag of (int)weight * 1000 copies: truncates before multiplying",
        origin: "text 003 (amount = (int)letter.Value * 1000)",
        known_to_be: "biased unless every weight is whole (Boggle: V, K, J, X, Q, Z get no copies)",
        always: None,
        parameter: None,
        kind: GeneratorKind::BoggleTruncated,
    },
    GeneratorEntry {
        name: "boggle-rounded",
        summary: "a shuffle bag of round(weight * 1000) copies: the intended Boggle bag",
        origin: "text 003, corrected",
        known_to_be: "fair for weights with at most 3 decimals",
        always: None,
        parameter: None,
        kind: GeneratorKind::BoggleRounded,
    },
];

/// A generator as named on the command line.
#[derive(Clone, Copy, Debug)]
pub struct GeneratorSpec {
    /// Its catalogue entry.
    pub entry: &'static GeneratorEntry,
    /// What runs, parameter filled in.
    pub kind: GeneratorKind,
}

/// How a generator deals, for the tests that depend on it.
#[derive(Clone, Debug, PartialEq)]
pub struct BagShape {
    /// Draws per cycle.
    pub slots: u64,
    /// Copies of each item in the bag the cycle is drawn from.
    pub source_copies: Vec<u64>,
    /// Slots of that bag (`slots`, or twice it for `double-bag-half`).
    pub source_slots: u64,
    /// Whether every cycle deals exactly `source_copies` of each item (a whole bag).
    pub exact: bool,
    /// The most copies of each item one cycle can deal.
    pub most_per_cycle: Vec<u64>,
}

/// What a generator is built for: the items, and the scenario option.
#[derive(Clone, Debug, PartialEq)]
pub struct StreamScenario {
    /// After every this many draws, cursor bags receive one more copy of every item by
    /// weight (text 000's `add` in mid-sequence, which puts the cursor back at the end).
    pub add_every: Option<u64>,
}

/// `round(weight × 1000)` copies of each item (text 003's bag, corrected).
fn rounded_copies(items: &Items) -> Vec<u64> {
    items
        .units
        .iter()
        .map(|&units| {
            let thousandths = u128::from(units) * 1000;
            let scale = u128::from(items.scale);
            u64::try_from((2 * thousandths + scale) / (2 * scale)).unwrap_or(u64::MAX)
        })
        .collect()
}

impl GeneratorSpec {
    /// Parses `name` or `name:parameter`.
    pub fn parse(text: &str) -> Result<Self> {
        let (name, parameter) = match text.split_once(':') {
            Some((name, parameter)) => (name, Some(parameter)),
            None => (text, None),
        };
        let entry = GENERATORS
            .iter()
            .find(|entry| entry.name == name)
            .ok_or_else(|| Error::UnknownGenerator {
                name: name.to_string(),
                suggestion: if super::entries().any(|entry| entry.name == name) {
                    format!("; '{name}' is a shuffle or sampler: shuffle-audit run {name} --n ...")
                } else {
                    super::names::suggestion_among(name, GENERATORS.iter().map(|entry| entry.name))
                },
            })?;
        let kind = match (entry.kind, parameter) {
            (kind, None) => kind,
            (GeneratorKind::Unrandomness { .. }, Some(value)) => {
                let step: f64 = value
                    .trim()
                    .parse()
                    .ok()
                    .filter(|step: &f64| step.is_finite() && *step >= 0.0 && *step <= 1e12)
                    .map(|step| step + 0.0) // -0 is 0
                    .ok_or_else(|| Error::BadGenerator {
                        spec: text.to_string(),
                        problem: format!(
                            "U (how far the weights move per draw) must be a number from 0 to 1e12, not '{value}'"
                        ),
                    })?;
                GeneratorKind::Unrandomness { step }
            }
            (_, Some(_)) => {
                return Err(Error::BadGenerator {
                    spec: text.to_string(),
                    problem: format!("{} takes no parameter", entry.name),
                });
            }
        };
        Ok(Self { entry, kind })
    }

    /// The name with its parameter, e.g. `unrandomness:0.5`.
    pub fn display_name(&self) -> String {
        match self.kind {
            GeneratorKind::Unrandomness { step } if step != 0.0 && !(1e-3..1e6).contains(&step) => {
                format!("{}:{step:e}", self.entry.name)
            }
            GeneratorKind::Unrandomness { step } => format!("{}:{step}", self.entry.name),
            _ => self.entry.name.to_string(),
        }
    }

    /// Whether `--add-every` changes this generator (the bags with a cursor).
    pub fn takes_additions(&self) -> bool {
        matches!(
            self.kind,
            GeneratorKind::ShuffleBag
                | GeneratorKind::ShuffleBagCsharp
                | GeneratorKind::BoggleTruncated
                | GeneratorKind::BoggleRounded
        )
    }

    /// The copies of each item its bag holds, for bag generators; an error if the items
    /// cannot make a bag for it.
    pub fn bag_copies(&self, items: &Items) -> Result<Option<Vec<u64>>> {
        let bad = |problem: String| Error::BadGenerator {
            spec: self.display_name(),
            problem,
        };
        let copies = match self.kind {
            GeneratorKind::Iid | GeneratorKind::IfElse | GeneratorKind::Unrandomness { .. } => return Ok(None),
            GeneratorKind::RefillList
            | GeneratorKind::ShuffleBag
            | GeneratorKind::ShuffleBagCsharp
            | GeneratorKind::DoubleBagHalf => items.whole_weights().ok_or_else(|| {
                bad(format!(
                    "a bag holds whole copies of each item, but the weights in '{}' are not all whole numbers \
                     (boggle-truncated and boggle-rounded show two ways of making them whole)",
                    items.spec
                ))
            })?,
            GeneratorKind::TetrisBag => {
                if items.units.iter().any(|&units| units != items.units[0]) {
                    return Err(bad(format!(
                        "deals one of each item per bag, so the weights must be equal; give --items as a count, e.g. --items 7 (got '{}')",
                        items.spec
                    )));
                }
                vec![1; items.len()]
            }
            // C#'s `(int)letter.Value * 1000`: the cast binds tighter than the product.
            GeneratorKind::BoggleTruncated => items
                .units
                .iter()
                .map(|&units| (units / items.scale).saturating_mul(1000))
                .collect(),
            GeneratorKind::BoggleRounded => rounded_copies(items),
        };
        let slots = copies.iter().try_fold(0u64, |sum, &c| sum.checked_add(c));
        match slots {
            Some(0) => Err(bad(format!(
                "its bag for '{}' would be empty (every item gets 0 copies)",
                items.spec
            ))),
            Some(slots) if slots <= MAX_BAG_SLOTS => Ok(Some(copies)),
            _ => Err(bad(format!(
                "its bag for '{}' would hold more than {MAX_BAG_SLOTS} slots",
                items.spec
            ))),
        }
    }

    /// The bag a correct generator of this kind deals from, by the stated weights: its own
    /// bag, except for `boggle-truncated`, which means to hold `round(weight × 1000)`
    /// copies as `boggle-rounded` does (the truncation is its flaw).
    pub fn stated_copies(&self, items: &Items) -> Result<Option<Vec<u64>>> {
        match self.kind {
            GeneratorKind::BoggleTruncated => Ok(Some(rounded_copies(items))),
            _ => self.bag_copies(items),
        }
    }

    /// How it deals, for items it accepts (`None` for generators without cycles, and for
    /// cursor bags that receive items in mid-sequence, whose cycles no longer line up).
    pub fn shape(&self, items: &Items, scenario: &StreamScenario) -> Result<Option<BagShape>> {
        let Some(copies) = self.bag_copies(items)? else {
            return Ok(None);
        };
        if scenario.add_every.is_some() && self.takes_additions() {
            return Ok(None);
        }
        let slots: u64 = copies.iter().sum();
        Ok(Some(match self.kind {
            GeneratorKind::DoubleBagHalf => BagShape {
                slots,
                source_copies: copies.iter().map(|&c| 2 * c).collect(),
                source_slots: 2 * slots,
                exact: false,
                most_per_cycle: copies.iter().map(|&c| (2 * c).min(slots)).collect(),
            },
            _ => BagShape {
                slots,
                source_copies: copies.clone(),
                source_slots: slots,
                exact: true,
                most_per_cycle: copies,
            },
        }))
    }

    /// The slots a bag reaches after `length` draws with `scenario` (what memory it needs).
    pub fn largest_bag(&self, items: &Items, scenario: &StreamScenario, length: u64) -> Result<u64> {
        let Some(copies) = self.bag_copies(items)? else {
            return Ok(0);
        };
        let slots: u64 = copies.iter().sum();
        let factor = match self.kind {
            GeneratorKind::DoubleBagHalf => 2,
            _ => 1,
        };
        let additions = match scenario.add_every {
            Some(every) if self.takes_additions() => length.saturating_sub(1) / every,
            _ => 0,
        };
        Ok(slots
            .saturating_mul(factor)
            .saturating_mul(additions.saturating_add(1)))
    }

    /// The verdict it is known to get on these items.
    pub fn expected(&self, items: &Items) -> Expectation {
        let proportional = |copies: &[u64]| {
            let copies_total: u128 = copies.iter().map(|&c| u128::from(c)).sum();
            let units_total = u128::from(items.total_units());
            copies
                .iter()
                .zip(&items.units)
                .all(|(&c, &u)| u128::from(c) * units_total == u128::from(u) * copies_total)
        };
        let fair = match self.kind {
            GeneratorKind::ShuffleBagCsharp => false,
            GeneratorKind::Unrandomness { step } => {
                step == 0.0 || items.units.iter().all(|&units| units == items.units[0])
            }
            GeneratorKind::BoggleTruncated | GeneratorKind::BoggleRounded => match self.bag_copies(items) {
                Ok(Some(copies)) => proportional(&copies),
                _ => false,
            },
            _ => true,
        };
        if fair {
            Expectation::Fair
        } else {
            Expectation::Biased
        }
    }

    /// A fresh generator for one stream. The items must have been accepted by
    /// [`GeneratorSpec::bag_copies`].
    pub fn build(&self, items: &Items, scenario: &StreamScenario) -> Generator {
        let copies = self
            .bag_copies(items)
            .expect("the items were checked before the run")
            .unwrap_or_default();
        let add_every = scenario.add_every.filter(|_| self.takes_additions());
        match self.kind {
            GeneratorKind::Iid => Generator::Iid(Iid::new(&items.units)),
            GeneratorKind::IfElse => Generator::IfElse(IfElse::new(&items.units)),
            GeneratorKind::RefillList => Generator::RefillList(RefillList::new(&copies)),
            GeneratorKind::ShuffleBag | GeneratorKind::BoggleTruncated | GeneratorKind::BoggleRounded => {
                Generator::ShuffleBag(CursorBag::new(&copies, add_every))
            }
            GeneratorKind::ShuffleBagCsharp => {
                Generator::ShuffleBagCsharp(CursorBag::new(&copies, add_every))
            }
            GeneratorKind::TetrisBag => Generator::TetrisBag(TetrisBag::new(items.len())),
            GeneratorKind::Unrandomness { step } => {
                Generator::Unrandomness(Unrandomness::new(&items.weights(), step))
            }
            GeneratorKind::DoubleBagHalf => Generator::DoubleBagHalf(DoubleBagHalf::new(&copies)),
        }
    }
}

#[cfg(test)]
mod tests;
