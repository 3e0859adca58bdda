//! Every order of a small deck, read once: for each Lehmer rank of an `n`-card deck
//! (`n <= MAX_RANKED_N`), its cards, fixed points, cycles and rising sequences, packed in
//! one `u64`.
//!
//! Why: the tables a run shows (card × position, fixed points, cycles, rising sequences)
//! follow from its `n!` order counts, and deriving them walks every order. Walking them
//! one by one (unrank, then count fixed points, cycles and rising sequences) cost about
//! 0.4 s for 10 cards; at the end of a run that is paid once, but the live page (`serve`)
//! derives them several times a second from what each step added. So the orders are
//! walked once per process, depth first, each statistic kept up to date as a card is
//! placed (a few operations per node of the tree of prefixes), and each derivation after
//! that is a table lookup per order that came out.

use std::sync::OnceLock;

use super::lehmer::{MAX_RANKED_N, factorial};

/// Bits of a packed order: the card at position `p` in bits `4p..4p+4`, then the fixed
/// points, the cycles and the rising sequences, 4 bits each (at most 10 of anything).
const CARD_BITS: u32 = 4;
const FIXED_SHIFT: u32 = 40;
const CYCLES_SHIFT: u32 = 44;
const RISING_SHIFT: u32 = 48;

/// One order, unpacked on demand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape(u64);

impl Shape {
    /// The card at `position`.
    #[inline]
    pub fn card(self, position: usize) -> usize {
        ((self.0 >> (CARD_BITS * position as u32)) & 0xf) as usize
    }

    #[inline]
    pub fn fixed_points(self) -> usize {
        ((self.0 >> FIXED_SHIFT) & 0xf) as usize
    }

    #[inline]
    pub fn cycles(self) -> usize {
        ((self.0 >> CYCLES_SHIFT) & 0xf) as usize
    }

    #[inline]
    pub fn rising_sequences(self) -> usize {
        ((self.0 >> RISING_SHIFT) & 0xf) as usize
    }
}

/// The shapes of every order of an `n`-card deck, by Lehmer rank, made once per process.
///
/// # Panics
/// If `n > MAX_RANKED_N`.
pub fn shapes(n: usize) -> &'static [Shape] {
    static TABLES: [OnceLock<Vec<Shape>>; MAX_RANKED_N + 1] = [const { OnceLock::new() }; MAX_RANKED_N + 1];
    assert!(
        n <= MAX_RANKED_N,
        "orders are read one by one up to {MAX_RANKED_N} cards"
    );
    TABLES[n].get_or_init(|| walk(n))
}

/// The state of the walk: a prefix of the order placed, and what it already decides.
struct Walk {
    n: usize,
    out: Vec<Shape>,
    /// The card at each placed position, packed as in a [`Shape`].
    cards: u64,
    /// Cards placed, one bit each.
    used: u16,
    /// The mapping position -> card, placed so far, is a set of paths and closed cycles:
    /// `start[t]` is the first node of the path that ends at `t`, `end[s]` the last node of
    /// the path that starts at `s` (a node on no edge yet is a path of its own).
    start: [u8; MAX_RANKED_N],
    end: [u8; MAX_RANKED_N],
}

fn walk(n: usize) -> Vec<Shape> {
    let mut walk = Walk {
        n,
        out: Vec::with_capacity(factorial(n).expect("n <= 10") as usize),
        cards: 0,
        used: 0,
        start: std::array::from_fn(|node| node as u8),
        end: std::array::from_fn(|node| node as u8),
    };
    if n == 0 {
        walk.out.push(Shape(0));
    } else {
        walk.place(0, 0, 0, 1);
    }
    walk.out
}

impl Walk {
    /// Places a card at `position` in every way, smallest card first (so that the orders
    /// come out in lexicographic order, which is Lehmer rank order), given the fixed
    /// points, closed cycles and descents of the inverse so far (`rising` counts the
    /// rising sequences: 1 plus those descents).
    fn place(&mut self, position: usize, fixed: u64, cycles: u64, rising: u64) {
        let n = self.n;
        for card in 0..n {
            let bit = 1u16 << card;
            if self.used & bit != 0 {
                continue;
            }
            // Rising sequences: each pair of cards (v, v + 1) is judged when its second
            // card is placed: card + 1 already placed (above this card) is a descent of
            // the inverse; card - 1 already placed is not.
            let descents = u64::from(card + 1 < n && self.used & (bit << 1) != 0);
            let fixed = fixed + u64::from(card == position);
            // The edge position -> card closes a cycle when card starts the path that
            // ends at position; otherwise it joins the two paths.
            let (head, tail) = (self.start[position], self.end[card]);
            let closes = usize::from(head) == card;
            let cycles = cycles + u64::from(closes);
            let (saved_start, saved_end) = (self.start[usize::from(tail)], self.end[usize::from(head)]);
            if !closes {
                self.start[usize::from(tail)] = head;
                self.end[usize::from(head)] = tail;
            }
            self.used |= bit;
            self.cards |= (card as u64) << (CARD_BITS * position as u32);
            if position + 1 == n {
                self.out.push(Shape(
                    self.cards
                        | fixed << FIXED_SHIFT
                        | cycles << CYCLES_SHIFT
                        | (rising + descents) << RISING_SHIFT,
                ));
            } else {
                self.place(position + 1, fixed, cycles, rising + descents);
            }
            self.cards &= !(0xf << (CARD_BITS * position as u32));
            self.used &= !bit;
            self.start[usize::from(tail)] = saved_start;
            self.end[usize::from(head)] = saved_end;
        }
    }
}

/// The tables a run of `n`-card decks shows, derived from order counts (or from what a
/// step added to them): adds `count` of each order to `positions` (`n × n`, card-major),
/// `fixed`, `cycles` and `rising` (`n + 1` each).
pub struct Derived<'a> {
    pub positions: &'a mut [u64],
    pub fixed: &'a mut [u64],
    pub cycles: &'a mut [u64],
    pub rising: &'a mut [u64],
}

impl Derived<'_> {
    /// Adds `count` deals of the order whose shape is `shape`.
    #[inline]
    pub fn add(&mut self, n: usize, shape: Shape, count: u64) {
        for position in 0..n {
            self.positions[shape.card(position) * n + position] += count;
        }
        self.fixed[shape.fixed_points()] += count;
        self.cycles[shape.cycles()] += count;
        self.rising[shape.rising_sequences()] += count;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tally::lehmer::unrank;
    use crate::tally::rising::rising_sequences;
    use crate::tally::structure::{cycle_count, fixed_points};

    #[test]
    fn every_shape_is_its_orders() {
        // Against the one-order-at-a-time functions, for every order of every size the
        // walk serves but 9 and 10 (whose walks the same code makes, only deeper).
        for n in 0..=8 {
            let table = shapes(n);
            assert_eq!(table.len() as u64, factorial(n).unwrap(), "n = {n}");
            let mut visited = Vec::new();
            for (rank, &shape) in table.iter().enumerate() {
                let mut order = vec![0u16; n];
                unrank(rank, &mut order);
                let cards: Vec<u16> = (0..n).map(|position| shape.card(position) as u16).collect();
                assert_eq!(cards, order, "n = {n}, rank {rank}");
                assert_eq!(shape.fixed_points(), fixed_points(&order), "{order:?}");
                assert_eq!(shape.cycles(), cycle_count(&order, &mut visited), "{order:?}");
                assert_eq!(shape.rising_sequences(), rising_sequences(&order), "{order:?}");
            }
        }
    }

    #[test]
    fn ten_cards_end_on_the_reversed_deck() {
        let table = shapes(10);
        let last = *table.last().unwrap();
        let reversed: Vec<usize> = (0..10).rev().collect();
        assert_eq!((0..10).map(|p| last.card(p)).collect::<Vec<_>>(), reversed);
        // The reversed deck of 10: no fixed point, 5 transpositions, 10 rising sequences.
        assert_eq!(
            (last.fixed_points(), last.cycles(), last.rising_sequences()),
            (0, 5, 10)
        );
        assert_eq!(table[0].fixed_points(), 10);
    }
}
