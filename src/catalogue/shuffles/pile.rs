//! Pile shuffling: deal the deck into `K` piles, then stack the piles.
//!
//! Card players deal a deck round into a few piles, one card at a time, and gather the
//! piles again, to spread apart cards that were together; many take it for a shuffle.
//! It is not one. Dealing is a fixed rearrangement: card `i` (from the top) lands on pile
//! `i mod K`, on top of the cards dealt there before it, so a pile read from the top is
//! its cards in the reverse of the order they were dealt. Stacked in a fixed order (pile
//! 0 on top), every deck comes out the same: one order, whatever the deck size. Stacked
//! in a random order (`pile:K,random`, each of the `K!` orders of the piles equally
//! likely, drawn by Fisher–Yates), at most `K!` orders can come out of the `n!`: 24 of
//! the 8·10^67 orders of 52 cards for four piles. That is fair only when no pile gets two
//! cards (`n ≤ K`), and biased from `K + 1` cards on.
//!
//! The exact law is walked like any other (`exact pile:4,random --n 8`): no draw for the
//! fixed order, the draws `below(K), below(K − 1), …, below(2)` of the piles' order for
//! the random one, so at most `K!` paths.

use crate::catalogue::shuffle::{CheckCase, Shuffle, ShuffleFacts, Stop};
use crate::catalogue::{Algorithm, CatalogueEntry, Parameter, PermutationAlgorithm, Workspace};
use crate::randomness::Randomness;

/// The most piles `pile:K` takes: far more than any card player deals, few enough that
/// the piles' order fits on the stack.
pub const MAX_PILES: u32 = 100;

/// What `pile:K,random` writes after the number of piles.
const RANDOM_ORDER: &str = "random";

/// Deals `deck` (position 0 on top) into `piles` piles, one card at a time, each on top
/// of its pile, and stacks the piles: pile 0 on top, or, when `random`, the piles in an
/// order drawn by Fisher–Yates (`below(piles)` first). `dealt` is scratch space owned by
/// the caller, so that a simulation does not allocate per shuffle.
///
/// # Panics
///
/// If `piles` is not from 1 to [`MAX_PILES`] (`pile:K` refuses such a K with a message).
pub fn pile_shuffle<T: Copy, R: Randomness + ?Sized>(
    deck: &mut [T],
    rng: &mut R,
    piles: u32,
    random: bool,
    dealt: &mut Vec<T>,
) {
    assert!((1..=MAX_PILES).contains(&piles), "from 1 to {MAX_PILES} piles, not {piles}");
    let (n, piles) = (deck.len(), piles as usize);
    let mut order = [0u8; MAX_PILES as usize];
    let order = &mut order[..piles];
    for (slot, pile) in order.iter_mut().enumerate() {
        *pile = slot as u8;
    }
    if random {
        for last in (1..piles).rev() {
            let drawn = rng.below(last as u64 + 1) as usize;
            order.swap(last, drawn);
        }
    }
    dealt.clear();
    dealt.extend_from_slice(deck);
    let mut next = 0;
    for &pile in order.iter() {
        // Pile `pile` holds the cards `pile, pile + K, …`, the last dealt on top.
        for card in (usize::from(pile)..n).step_by(piles).rev() {
            deck[next] = dealt[card];
            next += 1;
        }
    }
}

/// `pile:K` and `pile:K,random` in the catalogue: [`pile_shuffle`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pile {
    /// Number of piles (1 to [`MAX_PILES`]).
    pub piles: u32,
    /// Whether the piles are stacked in a random order.
    pub random: bool,
}

impl Shuffle for Pile {
    const ENTRIES: &'static [CatalogueEntry] = &[CatalogueEntry {
        name: "pile",
        summary: "deal into K piles and stack them (',random': in a random order): a fixed rearrangement, so one order, or at most K! of the n! orders (24 for 4 piles)",
        origin: "the card players' pile shuffle: the deck dealt round into piles, the piles gathered again",
        biased_from: Some(2),
        parameter: Some(Parameter {
            name: "K[,random]",
            meaning: "piles, 1 to 100; ',random' stacks them in a random order",
            default: "4",
        }),
        algorithm: Algorithm::Permutation(PermutationAlgorithm::Pile {
            piles: 4,
            random: false,
        }),
    }];

    const CHECKS: &'static [CheckCase] = &[
        // Biased: one order of the 120, whatever it draws (nothing); exact: 2 shuffles
        // needed at n = 5. 20,000 is 10,000x.
        CheckCase {
            name: "pile:4",
            n: 5,
            trials: 20_000,
            seed: 33,
        },
        // Biased: 24 of the 720 orders of 6 cards; exact: 11 shuffles needed at n = 6.
        // 20,000 is 1,818x.
        CheckCase {
            name: "pile:4,random",
            n: 6,
            trials: 20_000,
            seed: 34,
        },
    ];

    fn with_parameter(_entry: &CatalogueEntry, parameter: &Parameter, value: &str) -> Result<Self, String> {
        let (piles, random) = match value.split_once(',') {
            Some((piles, RANDOM_ORDER)) => (piles, true),
            Some(_) => {
                return Err(format!(
                    "{} ({}) must be a number of piles, alone or followed by ',{RANDOM_ORDER}', not '{value}'",
                    parameter.name, parameter.meaning
                ));
            }
            None => (value, false),
        };
        let piles = piles
            .parse::<u32>()
            .ok()
            .filter(|piles| (1..=MAX_PILES).contains(piles))
            .ok_or_else(|| {
                format!(
                    "{} ({}) must start with a whole number from 1 to {MAX_PILES}, not '{value}'",
                    parameter.name, parameter.meaning
                )
            })?;
        Ok(Self { piles, random })
    }

    #[inline(always)]
    fn shuffle<T: Copy, R: Randomness + ?Sized>(
        self,
        deck: &mut [T],
        rng: &mut R,
        workspace: &mut Workspace<T>,
        _stop: &impl Stop,
    ) {
        pile_shuffle(deck, rng, self.piles, self.random, &mut workspace.cards)
    }
}

impl ShuffleFacts for Pile {
    fn parameter_shown(&self, _entry: &CatalogueEntry) -> Option<String> {
        Some(if self.random {
            format!("{},{RANDOM_ORDER}", self.piles)
        } else {
            self.piles.to_string()
        })
    }

    /// One order stacked as dealt is biased from two cards; piles in a random order are
    /// every order while no pile gets two cards.
    fn biased_from(&self, listed: Option<usize>) -> Option<usize> {
        if self.random { Some(self.piles as usize + 1) } else { listed }
    }

    /// The piles' order by Fisher–Yates, or nothing.
    fn draw_schedule(&self, _n: usize) -> Option<Vec<u64>> {
        Some(if self.random {
            (2..=u64::from(self.piles)).rev().collect()
        } else {
            Vec::new()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Answers from a list, checking each bound.
    struct Answers(Vec<(u64, u64)>);

    impl Randomness for Answers {
        fn below(&mut self, n: u64) -> u64 {
            let (bound, answer) = self.0.remove(0);
            assert_eq!(n, bound, "a draw from an unexpected range");
            answer
        }
        fn unit(&mut self) -> f64 {
            unreachable!("the pile shuffle draws no floats")
        }
    }

    #[test]
    fn dealt_piles_are_stacked_as_dealt_or_in_the_drawn_order() {
        // Three piles of 0..7: pile 0 is 0 3 6, pile 1 is 1 4, pile 2 is 2 5, each the
        // last dealt on top.
        let mut deck = [0u16, 1, 2, 3, 4, 5, 6];
        pile_shuffle(&mut deck, &mut Answers(Vec::new()), 3, false, &mut Vec::new());
        assert_eq!(deck, [6, 3, 0, 4, 1, 5, 2]);
        // Fisher-Yates on the piles' order [0 1 2]: below(3) = 0 swaps 2 and 0, then
        // below(2) = 0 swaps 1 and 2: the order [1 2 0].
        let mut deck = [0u16, 1, 2, 3, 4, 5, 6];
        let mut answers = Answers(vec![(3, 0), (2, 0)]);
        pile_shuffle(&mut deck, &mut answers, 3, true, &mut Vec::new());
        assert_eq!(deck, [4, 1, 5, 2, 6, 3, 0]);
        assert!(answers.0.is_empty(), "every answer was asked for");
        // More piles than cards: the empty piles add nothing.
        let mut deck = [0u16, 1];
        pile_shuffle(&mut deck, &mut Answers(Vec::new()), 5, false, &mut Vec::new());
        assert_eq!(deck, [0, 1]);
    }

    #[test]
    fn the_parameter_is_a_number_of_piles_and_maybe_a_random_order() {
        let entry = &Pile::ENTRIES[0];
        let parameter = entry.parameter.unwrap();
        let parse = |value| Pile::with_parameter(entry, &parameter, value);
        assert_eq!(parse("3"), Ok(Pile { piles: 3, random: false }));
        assert_eq!(parse("100,random"), Ok(Pile { piles: 100, random: true }));
        for wrong in ["0", "101", "3,shuffled", "x,random", "", ",random"] {
            let problem = parse(wrong).unwrap_err();
            assert!(problem.contains(&format!("not '{wrong}'")), "{problem}");
        }
        let shown = |piles, random| Pile { piles, random }.parameter_shown(entry);
        assert_eq!(shown(4, false).as_deref(), Some("4"));
        assert_eq!(shown(4, true).as_deref(), Some("4,random"));
    }

    #[test]
    fn random_piles_are_fair_until_a_pile_gets_two_cards() {
        let random = Pile { piles: 4, random: true };
        assert_eq!(random.biased_from(Some(2)), Some(5));
        assert_eq!(Pile { piles: 4, random: false }.biased_from(Some(2)), Some(2));
        assert_eq!(random.draw_schedule(9), Some(vec![4, 3, 2]));
        assert_eq!(Pile { piles: 4, random: false }.draw_schedule(9), Some(Vec::new()));
    }
}
