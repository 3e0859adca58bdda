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
//! verdict it deserves for the given items.

use serde::Serialize;

use super::{Expectation, Parameter, fisher_yates};
use crate::catalogue::items::Items;
use crate::error::{Error, Result};
use crate::randomness::Randomness;

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
    /// What it deserves, in words.
    pub deserves: &'static str,
    /// What it deserves whatever the items, if that does not depend on them.
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
        deserves: "fair",
        always: Some(Expectation::Fair),
        parameter: None,
        kind: GeneratorKind::Iid,
    },
    GeneratorEntry {
        name: "if-else",
        summary: "the same law through an if/else chain on a uniform float in [0, 1)",
        origin: "text 000 (Bad Solution #1, the if/else chain)",
        deserves: "fair (must agree with iid)",
        always: Some(Expectation::Fair),
        parameter: None,
        kind: GeneratorKind::IfElse,
    },
    GeneratorEntry {
        name: "refill-list",
        summary: "a list of weight copies of each item, shuffled when empty, drawn from the end",
        origin: "text 000 (SimpleShuffle)",
        deserves: "fair",
        always: Some(Expectation::Fair),
        parameter: None,
        kind: GeneratorKind::RefillList,
    },
    GeneratorEntry {
        name: "shuffle-bag",
        summary: "one array and a cursor: swap a random slot in 0..=cursor to the cursor and deal it",
        origin: "text 000 (IntShuffleBag)",
        deserves: "fair",
        always: Some(Expectation::Fair),
        parameter: None,
        kind: GeneratorKind::ShuffleBag,
    },
    GeneratorEntry {
        name: "shuffle-bag-csharp",
        summary: "the same bag drawing random.Next(currentPosition): the cursor slot is never chosen",
        origin: "text 003 (ShuffleBag.Next)",
        deserves: "biased",
        always: Some(Expectation::Biased),
        parameter: None,
        kind: GeneratorKind::ShuffleBagCsharp,
    },
    GeneratorEntry {
        name: "tetris-7-bag",
        summary: "one of each item per bag, shuffled (Fisher-Yates) and dealt in turn",
        origin: "text 000 (Tetris: a shuffled sequence of all 7 pieces)",
        deserves: "fair",
        always: Some(Expectation::Fair),
        parameter: None,
        kind: GeneratorKind::TetrisBag,
    },
    GeneratorEntry {
        name: "unrandomness",
        summary: "draw by weight; then every weight grows by U and the drawn one loses m*U (m items)",
        origin: "text 000's comments (the Matlab \"unrandomness\" loop)",
        deserves: "fair for equal weights; biased for unequal weights when U > 0",
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
        deserves: "fair",
        always: Some(Expectation::Fair),
        parameter: None,
        kind: GeneratorKind::DoubleBagHalf,
    },
    GeneratorEntry {
        name: "boggle-truncated",
        summary: "a shuffle bag of (int)weight * 1000 copies: truncates before multiplying",
        origin: "text 003 (amount = (int)letter.Value * 1000)",
        deserves: "biased unless every weight is whole (Boggle: V, K, J, X, Q, Z get no copies)",
        always: None,
        parameter: None,
        kind: GeneratorKind::BoggleTruncated,
    },
    GeneratorEntry {
        name: "boggle-rounded",
        summary: "a shuffle bag of round(weight * 1000) copies: the intended Boggle bag",
        origin: "text 003, corrected",
        deserves: "fair for weights with at most 3 decimals",
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
                    super::suggestion_among(name, GENERATORS.iter().map(|entry| entry.name))
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
            GeneratorKind::BoggleRounded => items
                .units
                .iter()
                .map(|&units| {
                    let thousandths = u128::from(units) * 1000;
                    let scale = u128::from(items.scale);
                    u64::try_from((2 * thousandths + scale) / (2 * scale)).unwrap_or(u64::MAX)
                })
                .collect(),
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

    /// The verdict it deserves on these items.
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

/// One item at a time, forever.
pub trait Draw {
    /// The next item (its number in the item list).
    fn draw<R: Randomness + ?Sized>(&mut self, rng: &mut R) -> u16;
}

/// A generator's state for one stream.
#[derive(Clone, Debug)]
pub enum Generator {
    /// [`Iid`]
    Iid(Iid),
    /// [`IfElse`]
    IfElse(IfElse),
    /// [`RefillList`]
    RefillList(RefillList),
    /// [`CursorBag`] with the inclusive bound (text 000).
    ShuffleBag(CursorBag<false>),
    /// [`CursorBag`] with the exclusive bound (text 003).
    ShuffleBagCsharp(CursorBag<true>),
    /// [`TetrisBag`]
    TetrisBag(TetrisBag),
    /// [`Unrandomness`]
    Unrandomness(Unrandomness),
    /// [`DoubleBagHalf`]
    DoubleBagHalf(DoubleBagHalf),
}

/// Text 000's weight array: `rand = nextInt(sum)`, then walk the cumulative weights to
/// the first that exceeds it.
#[derive(Clone, Debug)]
pub struct Iid {
    cumulative: Vec<u64>,
}

impl Iid {
    fn new(units: &[u64]) -> Self {
        let cumulative = units
            .iter()
            .scan(0u64, |sum, &units| {
                *sum += units;
                Some(*sum)
            })
            .collect();
        Self { cumulative }
    }
}

impl Draw for Iid {
    #[inline]
    fn draw<R: Randomness + ?Sized>(&mut self, rng: &mut R) -> u16 {
        let total = *self.cumulative.last().expect("at least two items");
        let target = rng.below(total);
        // The first item whose cumulative weight exceeds the target (text 000's
        // `for(k=0,pick=0;k<=rand;k+=weight[pick++])`), by binary search.
        self.cumulative.partition_point(|&sum| sum <= target) as u16
    }
}

/// Text 000's if/else chain (`if(rand<0.5) A else if(rand<0.75) B ...`), with the
/// thresholds computed from the weights: the first item whose cumulative share exceeds a
/// uniform float, the last item otherwise.
#[derive(Clone, Debug)]
pub struct IfElse {
    thresholds: Vec<f64>,
}

impl IfElse {
    fn new(units: &[u64]) -> Self {
        let total: u64 = units.iter().sum();
        let mut sum = 0u64;
        let thresholds = units[..units.len() - 1]
            .iter()
            .map(|&units| {
                sum += units;
                sum as f64 / total as f64
            })
            .collect();
        Self { thresholds }
    }
}

impl Draw for IfElse {
    #[inline]
    fn draw<R: Randomness + ?Sized>(&mut self, rng: &mut R) -> u16 {
        let value = rng.unit();
        self.thresholds
            .iter()
            .position(|&threshold| value < threshold)
            .unwrap_or(self.thresholds.len()) as u16
    }
}

/// Text 000's `SimpleShuffle`: when the list is empty, refill it (each item as many
/// times as its weight, in order) and `Collections.shuffle` it (Durstenfeld from the
/// end); every draw removes the last element.
#[derive(Clone, Debug)]
pub struct RefillList {
    fill: Vec<u16>,
    list: Vec<u16>,
}

impl RefillList {
    fn new(copies: &[u64]) -> Self {
        Self {
            fill: filled(copies),
            list: Vec::new(),
        }
    }
}

impl Draw for RefillList {
    #[inline]
    fn draw<R: Randomness + ?Sized>(&mut self, rng: &mut R) -> u16 {
        if self.list.is_empty() {
            self.list.extend_from_slice(&self.fill);
            fisher_yates(&mut self.list, rng);
        }
        self.list.pop().expect("refilled")
    }
}

/// The shuffle bag with one array and a cursor, text 000's `IntShuffleBag`
/// (`EXCLUSIVE = false`) and text 003's C# `ShuffleBag` (`EXCLUSIVE = true`).
///
/// ```text
/// next(): if cursor < 1 { cursor = size - 1; return data[0] }
///         grab = random(cursor + 1)      // text 003: random.Next(currentPosition)
///         swap data[grab], data[cursor]; cursor -= 1; return the grabbed item
/// ```
/// `add(item, quantity)` appends and puts the cursor back at the end, in mid-sequence too.
#[derive(Clone, Debug)]
pub struct CursorBag<const EXCLUSIVE: bool> {
    data: Vec<u16>,
    cursor: usize,
    copies: Vec<u64>,
    add_every: Option<u64>,
    since_addition: u64,
}

impl<const EXCLUSIVE: bool> CursorBag<EXCLUSIVE> {
    fn new(copies: &[u64], add_every: Option<u64>) -> Self {
        let mut bag = Self {
            data: Vec::new(),
            cursor: 0,
            copies: copies.to_vec(),
            add_every,
            since_addition: 0,
        };
        bag.add_all();
        bag
    }

    /// `add(item, copies)` for every item in order (items with no copies are skipped:
    /// `IntShuffleBag.add` refuses a quantity below 1).
    fn add_all(&mut self) {
        for (item, &copies) in self.copies.iter().enumerate() {
            if copies > 0 {
                self.data
                    .extend(std::iter::repeat_n(item as u16, copies as usize));
                self.cursor = self.data.len() - 1;
            }
        }
    }
}

impl<const EXCLUSIVE: bool> Draw for CursorBag<EXCLUSIVE> {
    #[inline]
    fn draw<R: Randomness + ?Sized>(&mut self, rng: &mut R) -> u16 {
        if let Some(every) = self.add_every {
            if self.since_addition == every {
                self.add_all();
                self.since_addition = 0;
            }
            self.since_addition += 1;
        }
        if self.cursor < 1 {
            self.cursor = self.data.len() - 1;
            return self.data[0];
        }
        let bound = if EXCLUSIVE { self.cursor } else { self.cursor + 1 };
        let grab = rng.index(bound);
        self.data.swap(grab, self.cursor);
        let item = self.data[self.cursor];
        self.cursor -= 1;
        item
    }
}

/// One of each item per bag: shuffle `0..m` with Fisher–Yates, deal it in order, repeat.
#[derive(Clone, Debug)]
pub struct TetrisBag {
    bag: Vec<u16>,
    next: usize,
}

impl TetrisBag {
    fn new(items: usize) -> Self {
        Self {
            bag: (0..items as u16).collect(),
            next: items,
        }
    }
}

impl Draw for TetrisBag {
    #[inline]
    fn draw<R: Randomness + ?Sized>(&mut self, rng: &mut R) -> u16 {
        if self.next == self.bag.len() {
            fisher_yates(&mut self.bag, rng);
            self.next = 0;
        }
        self.next += 1;
        self.bag[self.next - 1]
    }
}

/// The Matlab loop from text 000's comments, with the weights as the starting
/// probabilities (the comment's dice start at `[1 1 1 1 1 1]`, which `--items 6` gives):
///
/// ```text
/// cumprob = cumsum(probabilities) ./ sum(probabilities);
/// roll = find(cumprob >= rand, 1)            // here: the first with cumprob > u, u in [0, 1)
/// probabilities = probabilities + unrandomness;
/// probabilities(roll) = probabilities(roll) - m*unrandomness;   // the comment's 6 for 6 items
/// if min(probabilities) < 0, probabilities = probabilities - min(probabilities)
/// ```
/// Matlab's `rand` lies in `(0, 1)`; with `u` in `[0, 1)` the strict comparison keeps an
/// item of weight 0 from being drawn when `u = 0`.
#[derive(Clone, Debug)]
pub struct Unrandomness {
    probabilities: Vec<f64>,
    step: f64,
}

impl Unrandomness {
    fn new(weights: &[f64], step: f64) -> Self {
        Self {
            probabilities: weights.to_vec(),
            step,
        }
    }
}

impl Draw for Unrandomness {
    #[inline]
    fn draw<R: Randomness + ?Sized>(&mut self, rng: &mut R) -> u16 {
        let total: f64 = self.probabilities.iter().sum();
        let value = rng.unit();
        let mut cumulative = 0.0;
        let mut roll = None;
        let mut last_positive = 0;
        for (item, &probability) in self.probabilities.iter().enumerate() {
            cumulative += probability;
            if probability > 0.0 {
                last_positive = item;
            }
            if roll.is_none() && cumulative / total > value {
                roll = Some(item);
            }
        }
        // Rounding can leave the last cumulative share a hair below 1.
        let roll = roll.unwrap_or(last_positive);
        let items = self.probabilities.len() as f64;
        for probability in &mut self.probabilities {
            *probability += self.step;
        }
        self.probabilities[roll] -= items * self.step;
        let least = self.probabilities.iter().copied().fold(f64::INFINITY, f64::min);
        if least < 0.0 {
            for probability in &mut self.probabilities {
                *probability -= least;
            }
        }
        roll as u16
    }
}

/// Text 000's "fill a bag twice the size, take out half, discard the rest and repeat":
/// a bag of twice each item's copies; a cycle deals half of it (a partial Fisher–Yates
/// from the front) and the bag is refilled.
#[derive(Clone, Debug)]
pub struct DoubleBagHalf {
    fill: Vec<u16>,
    bag: Vec<u16>,
    next: usize,
}

impl DoubleBagHalf {
    fn new(copies: &[u64]) -> Self {
        let doubled: Vec<u64> = copies.iter().map(|&c| 2 * c).collect();
        let fill = filled(&doubled);
        let half = fill.len() / 2;
        Self {
            bag: fill.clone(),
            fill,
            next: half,
        }
    }
}

impl Draw for DoubleBagHalf {
    #[inline]
    fn draw<R: Randomness + ?Sized>(&mut self, rng: &mut R) -> u16 {
        let size = self.fill.len();
        if self.next == size / 2 {
            self.bag.copy_from_slice(&self.fill);
            self.next = 0;
        }
        let grab = self.next + rng.index(size - self.next);
        self.bag.swap(self.next, grab);
        self.next += 1;
        self.bag[self.next - 1]
    }
}

/// Each item repeated as many times as it has copies, in item order.
fn filled(copies: &[u64]) -> Vec<u16> {
    copies
        .iter()
        .enumerate()
        .flat_map(|(item, &copies)| std::iter::repeat_n(item as u16, copies as usize))
        .collect()
}

impl Generator {
    /// Draws `count` items, handing each to `sink`, in a loop compiled for this
    /// generator (the match runs once per call, not once per draw).
    #[inline]
    pub fn draw_each<R: Randomness + ?Sized>(&mut self, rng: &mut R, count: u64, sink: &mut impl FnMut(u16)) {
        match self {
            Generator::Iid(g) => draw_loop(g, rng, count, sink),
            Generator::IfElse(g) => draw_loop(g, rng, count, sink),
            Generator::RefillList(g) => draw_loop(g, rng, count, sink),
            Generator::ShuffleBag(g) => draw_loop(g, rng, count, sink),
            Generator::ShuffleBagCsharp(g) => draw_loop(g, rng, count, sink),
            Generator::TetrisBag(g) => draw_loop(g, rng, count, sink),
            Generator::Unrandomness(g) => draw_loop(g, rng, count, sink),
            Generator::DoubleBagHalf(g) => draw_loop(g, rng, count, sink),
        }
    }
}

#[inline(always)]
fn draw_loop<G: Draw, R: Randomness + ?Sized>(
    generator: &mut G,
    rng: &mut R,
    count: u64,
    sink: &mut impl FnMut(u16),
) {
    for _ in 0..count {
        rng.begin_trial();
        sink(generator.draw(rng));
    }
}

#[cfg(test)]
mod tests {
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
}
