//! The generators' state machines, each written as its source text has it and drawing
//! only through [`Randomness`]; kept apart from the specs above them (names, parameters,
//! shapes, verdicts), which say what a stream should be, while these say what it does.

use super::*;

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
    pub(super) cumulative: Vec<u64>,
}

impl Iid {
    pub(super) fn new(units: &[u64]) -> Self {
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
    pub(super) thresholds: Vec<f64>,
}

impl IfElse {
    pub(super) fn new(units: &[u64]) -> Self {
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
    pub(super) fn new(copies: &[u64]) -> Self {
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
    pub(super) fn new(copies: &[u64], add_every: Option<u64>) -> Self {
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
    pub(super) fn new(items: usize) -> Self {
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
    pub(super) fn new(weights: &[f64], step: f64) -> Self {
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
    pub(super) fn new(copies: &[u64]) -> Self {
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
