//! The fair law a guess of the next item is scored against: how likely each item is to
//! come next, given the stated weights and what has been seen.
//!
//! A sampler promises a uniform selection (in a random order, or listed in increasing
//! order); a stream promises independent draws by weight, or a shuffle bag that deals a
//! fixed multiset in a uniformly random order and is refilled after each cycle. In every
//! case the chance of each item next is a known function of the history, which is all the
//! guessing test needs ([`crate::stats::martingale`]); where it does not depend on the
//! history at all ([`LawState::fixed`]), the count of right guesses has an exact
//! Poisson-binomial law.

/// The fair law of a sequence of items.
#[derive(Clone, Debug, PartialEq)]
pub enum FairLaw {
    /// `k` distinct items of `n` in a uniformly random order: the next one is uniform
    /// over the items not yet picked.
    OrderedSelection {
        /// Items to pick from.
        n: usize,
    },
    /// A uniform `k`-subset of `n` items listed in increasing order.
    SortedSelection {
        /// Items to pick from.
        n: usize,
        /// Items picked.
        k: usize,
    },
    /// Independent draws with these probabilities.
    Iid {
        /// One per item, summing to 1.
        probabilities: Vec<f64>,
    },
    /// A shuffle bag: each cycle deals `slots` draws without replacement from a bag of
    /// `copies` (refilled at each cycle's start; `slots` is the bag's size, or half of it
    /// for a bag that deals half and discards the rest).
    Bag {
        /// Copies of each item in the bag.
        copies: Vec<u64>,
        /// Draws per cycle.
        slots: u64,
    },
}

impl FairLaw {
    /// How many items there are.
    pub fn items(&self) -> usize {
        match self {
            FairLaw::OrderedSelection { n } | FairLaw::SortedSelection { n, .. } => *n,
            FairLaw::Iid { probabilities } => probabilities.len(),
            FairLaw::Bag { copies, .. } => copies.len(),
        }
    }

    /// What the best player names per sample of a uniform `k`-subset of `n` listed in
    /// increasing order: at each step the likeliest next item is the one just above the
    /// last, with chance `r/L` (`r` picks left among the `L` items above the last), so the
    /// value is `k/n + Σ_t Σ_a P(X_(t−1) = a) · (k−t+1)/(n−1−a)`, the order statistics'
    /// law being `C(a, t−2) C(n−1−a, k−t+1) / C(n, k)`.
    pub fn sorted_fair_value(n: usize, k: usize) -> f64 {
        let mut ln_factorial = vec![0.0f64; n + 1];
        for i in 1..=n {
            ln_factorial[i] = ln_factorial[i - 1] + (i as f64).ln();
        }
        let ln_choose = |a: usize, b: usize| ln_factorial[a] - ln_factorial[b] - ln_factorial[a - b];
        let mut value = k as f64 / n as f64;
        for t in 2..=k {
            let r = k - t + 1;
            for a in (t - 2)..n {
                if n - 1 - a < r {
                    break;
                }
                let ln_p = ln_choose(a, t - 2) + ln_choose(n - 1 - a, r) - ln_choose(n, k);
                value += ln_p.exp() * r as f64 / (n - 1 - a) as f64;
            }
        }
        value
    }

    /// A fresh state at the start of a sample or stream.
    pub fn start(&self) -> LawState<'_> {
        let items = self.items();
        let ln_factorial = match self {
            FairLaw::SortedSelection { n, .. } => {
                let mut table = vec![0.0f64; n + 1];
                for i in 1..=*n {
                    table[i] = table[i - 1] + (i as f64).ln();
                }
                table
            }
            _ => Vec::new(),
        };
        let mut state = LawState {
            law: self,
            seen: vec![false; items],
            left: vec![0; items],
            left_total: 0,
            done: 0,
            last: None,
            ln_factorial,
        };
        state.reset();
        state
    }
}

/// Where a sequence stands under its fair law.
#[derive(Clone, Debug)]
pub struct LawState<'a> {
    law: &'a FairLaw,
    seen: Vec<bool>,
    left: Vec<u64>,
    left_total: u64,
    /// Items seen since the start (selections) or since the cycle's start (bags).
    done: u64,
    last: Option<usize>,
    ln_factorial: Vec<f64>,
}

impl LawState<'_> {
    /// Back to the start of a sample or stream.
    pub fn reset(&mut self) {
        self.seen.fill(false);
        self.done = 0;
        self.last = None;
        self.refill();
    }

    fn refill(&mut self) {
        if let FairLaw::Bag { copies, .. } = self.law {
            self.left.copy_from_slice(copies);
            self.left_total = copies.iter().sum();
        }
        self.done = 0;
    }

    /// The chance that `item` comes next.
    pub fn probability(&self, item: usize) -> f64 {
        match self.law {
            FairLaw::OrderedSelection { n } => {
                if self.seen[item] {
                    0.0
                } else {
                    1.0 / (*n as u64 - self.done) as f64
                }
            }
            FairLaw::SortedSelection { n, k } => {
                // r picks left among the items above the last one: the next is g with
                // probability C(n−1−g, r−1) / C(above, r).
                let (n, r) = (*n, *k - self.done as usize);
                let above = self.last.map_or(n, |last| n - 1 - last);
                let lowest = self.last.map_or(0, |last| last + 1);
                if r == 0 || item < lowest || item + r > n {
                    return 0.0;
                }
                let ln_choose = |a: usize, b: usize| {
                    self.ln_factorial[a] - self.ln_factorial[b] - self.ln_factorial[a - b]
                };
                (ln_choose(n - 1 - item, r - 1) - ln_choose(above, r)).exp()
            }
            FairLaw::Iid { probabilities } => probabilities[item],
            FairLaw::Bag { .. } => self.left[item] as f64 / self.left_total as f64,
        }
    }

    /// The likeliest item now (the lowest of those tied) and its chance: what the best
    /// player against the fair law guesses.
    pub fn likeliest(&self) -> (usize, f64) {
        match self.law {
            FairLaw::OrderedSelection { .. } => {
                let item = self.seen.iter().position(|&seen| !seen).expect("an item is left");
                (item, self.probability(item))
            }
            FairLaw::SortedSelection { .. } => {
                let item = self.last.map_or(0, |last| last + 1);
                (item, self.probability(item))
            }
            FairLaw::Iid { probabilities } => most(probabilities.iter().copied()),
            FairLaw::Bag { .. } => {
                let (item, _) = most(self.left.iter().map(|&left| left as f64));
                (item, self.probability(item))
            }
        }
    }

    /// The chance every possible item has next, when it is the same for all of them and
    /// does not depend on what has been seen (a uniform order, equal independent draws, a
    /// bag of one of each): then the right guesses are independent Bernoullis with known
    /// chances, whatever the strategy.
    pub fn fixed(&self) -> Option<f64> {
        match self.law {
            FairLaw::OrderedSelection { n } => Some(1.0 / (*n as u64 - self.done) as f64),
            FairLaw::SortedSelection { .. } => None,
            FairLaw::Iid { probabilities } => {
                let positive = probabilities.iter().filter(|&&p| p > 0.0);
                let first = *positive.clone().next()?;
                positive.clone().all(|&p| p == first).then_some(first)
            }
            FairLaw::Bag { copies, .. } => copies
                .iter()
                .all(|&c| c <= 1)
                .then(|| 1.0 / self.left_total as f64),
        }
    }

    /// Shows `item`.
    pub fn observe(&mut self, item: usize) {
        self.last = Some(item);
        self.seen[item] = true;
        self.done += 1;
        if let FairLaw::Bag { slots, .. } = self.law {
            self.left[item] = self.left[item].saturating_sub(1);
            self.left_total = self.left_total.saturating_sub(1);
            if self.done == *slots || self.left_total == 0 {
                self.refill();
            }
        }
    }
}

/// The index of the largest value (the first of those tied) and the value.
fn most(values: impl Iterator<Item = f64>) -> (usize, f64) {
    values.enumerate().fold(
        (0, f64::NEG_INFINITY),
        |best, (i, v)| if v > best.1 { (i, v) } else { best },
    )
}
