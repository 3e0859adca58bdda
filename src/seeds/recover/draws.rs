//! Deals turned back into the numbers that dealt them, and numbers into deals.
//!
//! Why: a runtime's generator is recovered from what it drew, not from cards. Every
//! shuffle of the Fisher–Yates family is a bijection between its draw sequences and the
//! orders of the deck, so a deal gives back exactly the draws that made it, and a model
//! that reproduces the draws reproduces the deal. Two directions cover the shuffles that
//! real programs run:
//! - [`Direction::Descending`]: `for i = n-1 down to 1: swap(i, j)` with `j` in `0..=i`
//!   (draw bound `i + 1`): Java's `Collections.shuffle`, the JavaScript loop of every
//!   tutorial, PHP's `shuffle()`, numpy's `shuffle`.
//! - [`Direction::Ascending`]: `for i = 0 up to n-1: swap(i, i + j)` with `j` in `0..n-i`
//!   (bound `n - i`), lodash's `_.shuffle`, which also makes the last draw, of bound 1,
//!   that reveals nothing but still uses a number.
//! - [`Direction::InsideOut`]: `for i = 0 up to n-1: swap(i, j)` with `j` in `0..=i`
//!   (bound `i + 1`), the inside-out shuffle of Go's `rand.Perm` (`m[i] = m[j]; m[j] = i`
//!   is that swap on the deck `0..n`), whose first draw, of bound 1, still uses a number.
//! - [`Direction::DescendingReversed`]: the descending loop, the deck then read from its
//!   last place: npm fast-shuffle fills a new array from the front with the card each
//!   draw picks, the pool's last card filling the gap.
//!
//! Cards are numbered by their place in the unshuffled deck (`0..n`).

use std::ops::Range;

/// The values of `0..end` that draw `draw.value`, for a generator whose draw
/// `draw_of(value)` never falls as the value grows (a double scaled by the bound and
/// floored): one range, found by bisection through the real arithmetic (rounding
/// included), and empty when no value draws it.
pub fn values_drawing(draw: Draw, end: u64, draw_of: impl Fn(u64) -> u32) -> Range<u64> {
    // The first value drawing at least `target`, or `end`.
    let first_reaching = |target: u32| -> u64 {
        if draw_of(0) >= target {
            return 0;
        }
        // Invariant: `below` draws less than `target`; `reaching` (or the end) at least it.
        let (mut below, mut reaching) = (0u64, end);
        while reaching - below > 1 {
            let middle = below + (reaching - below) / 2;
            if draw_of(middle) >= target {
                reaching = middle;
            } else {
                below = middle;
            }
        }
        reaching
    };
    first_reaching(draw.value)..first_reaching(draw.value + 1)
}

/// One draw: the shuffle asked for a number below `bound` and got `value`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Draw {
    pub bound: u32,
    pub value: u32,
}

/// The order in which a shuffle walks the deck.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// From the last position down, each position swapped with one at or below it.
    Descending,
    /// From the first position up, each position swapped with one at or above it.
    Ascending,
    /// From the first position up, each position swapped with one at or below it.
    InsideOut,
    /// [`Direction::Descending`], the deck then reversed.
    DescendingReversed,
}

impl Direction {
    /// The numbers one deal of `n` cards draws.
    pub fn draws_per_deal(self, n: usize) -> usize {
        match self {
            Direction::Descending | Direction::DescendingReversed => n.saturating_sub(1),
            Direction::Ascending | Direction::InsideOut => n,
        }
    }

    /// Appends to `out` the draws that turn the deck `start` into `dealt` (both hold the
    /// same cards, `0..n` in some order).
    pub fn draws(self, start: &[u16], dealt: &[u16], out: &mut Vec<Draw>) {
        let n = start.len();
        let mut deck = start.to_vec();
        let mut place = vec![0usize; n];
        for (at, &card) in deck.iter().enumerate() {
            place[usize::from(card)] = at;
        }
        match self {
            Direction::Descending => {
                for i in (1..n).rev() {
                    let j = place[usize::from(dealt[i])];
                    out.push(Draw {
                        bound: (i + 1) as u32,
                        value: j as u32,
                    });
                    swap_tracked(&mut deck, &mut place, i, j);
                }
            }
            Direction::Ascending => {
                for i in 0..n {
                    let j = place[usize::from(dealt[i])];
                    out.push(Draw {
                        bound: (n - i) as u32,
                        value: (j - i) as u32,
                    });
                    swap_tracked(&mut deck, &mut place, i, j);
                }
            }
            Direction::DescendingReversed => {
                let reversed: Vec<u16> = dealt.iter().rev().copied().collect();
                Direction::Descending.draws(start, &reversed, out);
            }
            Direction::InsideOut => {
                // Undone from the last swap: before swap `i`, places `i..` still held the
                // starting deck, so the card `start[i]` is the one swap `i` moved to `j`.
                deck.copy_from_slice(dealt);
                for (at, &card) in deck.iter().enumerate() {
                    place[usize::from(card)] = at;
                }
                let mut undone = Vec::with_capacity(n);
                for i in (0..n).rev() {
                    let j = place[usize::from(start[i])];
                    undone.push(Draw {
                        bound: (i + 1) as u32,
                        value: j as u32,
                    });
                    swap_tracked(&mut deck, &mut place, i, j);
                }
                out.extend(undone.into_iter().rev());
            }
        }
    }

    /// Shuffles `deck` in place, asking `next(bound)` for each number as the shuffle does.
    pub fn deal(self, deck: &mut [u16], mut next: impl FnMut(u32) -> u32) {
        let n = deck.len();
        match self {
            Direction::Descending => {
                for i in (1..n).rev() {
                    let j = next((i + 1) as u32) as usize;
                    deck.swap(i, j);
                }
            }
            Direction::Ascending => {
                for i in 0..n {
                    let j = i + next((n - i) as u32) as usize;
                    deck.swap(i, j);
                }
            }
            Direction::InsideOut => {
                for i in 0..n {
                    let j = next((i + 1) as u32) as usize;
                    deck.swap(i, j);
                }
            }
            Direction::DescendingReversed => {
                Direction::Descending.deal(deck, next);
                deck.reverse();
            }
        }
    }
}

/// Swaps places `a` and `b` of `deck`, keeping `place` (where each card is) in step.
fn swap_tracked(deck: &mut [u16], place: &mut [usize], a: usize, b: usize) {
    deck.swap(a, b);
    place[usize::from(deck[a])] = a;
    place[usize::from(deck[b])] = b;
}

/// Deals as observed: `n` cards numbered by their place in the unshuffled deck, each deal
/// the deck in dealing order, in the order the deals were made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Observed {
    pub deals: Vec<Vec<u16>>,
    /// Each deal shuffled the deck the previous one left (`Collections.shuffle(list)` on
    /// the same list again), not a fresh deck in the unshuffled order.
    pub carried: bool,
}

impl Observed {
    /// Cards in a deck.
    pub fn n(&self) -> usize {
        self.deals.first().map_or(0, Vec::len)
    }

    /// The first `deals` deals, dealt the same way (for the tests that show a search
    /// only the opening deals of a fixture).
    #[cfg(test)]
    pub(crate) fn first(&self, deals: usize) -> Observed {
        Observed {
            deals: self.deals[..deals].to_vec(),
            carried: self.carried,
        }
    }

    /// The deck the deal numbered `deal` started from; `deal` may be one past the last
    /// (the next deal's).
    pub fn start_of(&self, deal: usize) -> Vec<u16> {
        if self.carried && deal > 0 {
            self.deals[deal - 1].clone()
        } else {
            (0..self.n() as u16).collect()
        }
    }

    /// The draws of the first `deals` deals under a shuffle walking in `direction`.
    pub fn draws(&self, direction: Direction, deals: usize) -> Vec<Draw> {
        let mut out = Vec::with_capacity(deals * direction.draws_per_deal(self.n()));
        for (at, dealt) in self.deals.iter().take(deals).enumerate() {
            direction.draws(&self.start_of(at), dealt, &mut out);
        }
        out
    }

    /// The next `count` deals after the observed ones, each dealt by `direction` from
    /// numbers `next(bound)`.
    pub fn predict(
        &self,
        direction: Direction,
        count: usize,
        mut next: impl FnMut(u32) -> u32,
    ) -> Vec<Vec<u16>> {
        let mut predicted: Vec<Vec<u16>> = Vec::with_capacity(count);
        for _ in 0..count {
            let mut deck = match predicted.last() {
                Some(last) if self.carried => last.clone(),
                None => self.start_of(self.deals.len()),
                Some(_) => (0..self.n() as u16).collect(),
            };
            direction.deal(&mut deck, &mut next);
            predicted.push(deck);
        }
        predicted
    }
}

/// The bits a deal of `n` cards carries about the generator that dealt it: log2(n!), as
/// much as its draws can tell whatever the generator.
pub fn bits_per_deal(n: usize) -> f64 {
    (2..=n).map(|k| (k as f64).log2()).sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand::seq::SliceRandom;

    #[test]
    fn draws_deal_back_the_deal_they_came_from_in_both_directions() {
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(7);
        for n in [1usize, 2, 3, 8, 52] {
            for direction in [
                Direction::Descending,
                Direction::Ascending,
                Direction::InsideOut,
                Direction::DescendingReversed,
            ] {
                let start: Vec<u16> = (0..n as u16).rev().collect();
                let mut dealt = start.clone();
                dealt.shuffle(&mut rng);
                let mut draws = Vec::new();
                direction.draws(&start, &dealt, &mut draws);
                assert_eq!(draws.len(), direction.draws_per_deal(n));
                assert!(draws.iter().all(|draw| draw.value < draw.bound));
                let mut replay = draws.iter();
                let mut deck = start.clone();
                direction.deal(&mut deck, |bound| {
                    let draw = replay.next().unwrap();
                    assert_eq!(draw.bound, bound);
                    draw.value
                });
                assert_eq!(deck, dealt, "{direction:?} on {n} cards");
            }
        }
    }

    #[test]
    fn the_descending_loop_draws_from_the_top_bound_down() {
        // 3 cards: swap(2, j < 3), then swap(1, j < 2). Dealing 2 0 1 from 0 1 2: the
        // card at the last place (1) came from place 1, then 0 from place 0.
        let mut draws = Vec::new();
        Direction::Descending.draws(&[0, 1, 2], &[2, 0, 1], &mut draws);
        assert_eq!(draws, [Draw { bound: 3, value: 1 }, Draw { bound: 2, value: 0 }]);
    }

    #[test]
    fn the_inside_out_loop_draws_from_bound_one_up() {
        // Go's Perm(3) with draws 0, 1, 0: m = [0], then m[1] = m[1]; m[1] = 1 → [0, 1],
        // then m[2] = m[0]; m[0] = 2 → [2, 1, 0].
        let mut draws = Vec::new();
        Direction::InsideOut.draws(&[0, 1, 2], &[2, 1, 0], &mut draws);
        let bounds_values: Vec<(u32, u32)> = draws.iter().map(|d| (d.bound, d.value)).collect();
        assert_eq!(bounds_values, [(1, 0), (2, 1), (3, 0)]);
    }

    #[test]
    fn carried_deals_start_from_the_previous_deal() {
        let observed = Observed {
            deals: vec![vec![2, 0, 1], vec![1, 2, 0]],
            carried: true,
        };
        assert_eq!(observed.start_of(1), vec![2, 0, 1]);
        assert_eq!(observed.start_of(2), vec![1, 2, 0]);
        let fresh = Observed {
            carried: false,
            ..observed.clone()
        };
        assert_eq!(fresh.start_of(1), vec![0, 1, 2]);
        // Zero draws leave each predicted deck as it started.
        assert_eq!(
            observed.predict(Direction::Ascending, 2, |_| 0),
            vec![vec![1, 2, 0]; 2]
        );
        assert_eq!(fresh.predict(Direction::Ascending, 1, |_| 0), vec![vec![0, 1, 2]]);
    }

    #[test]
    fn a_deck_of_52_carries_log2_52_factorial_bits() {
        assert!((bits_per_deal(52) - 225.58).abs() < 0.01);
        assert_eq!(bits_per_deal(1), 0.0);
    }
}
