//! Riffle shuffles as people do them, in the Gilbert–Shannon–Reeds (GSR) model.
//!
//! Gilbert and Shannon (Gilbert 1955) and, independently, Reeds (1981) modelled a riffle
//! as a cut whose size is binomial, followed by an interleaving in which the next card
//! drops from a packet with probability proportional to the cards left in it. Diaconis
//! (1988) found the model a good description of real shuffles, and Bayer and Diaconis
//! ("Trailing the dovetail shuffle to its lair", Ann. Appl. Probab. 2 (1992) 294–313)
//! derived the law of `K` such riffles exactly: an order with `r` rising sequences has
//! probability `C(2^K + n − r, n) / 2^(Kn)`, which gives their "seven shuffles" for 52
//! cards ([`crate::exact::riffles`]).
//!
//! The code follows the model through the description that draws least, every draw
//! through [`Randomness`], so that it can be simulated, enumerated path by path, and
//! compared with that closed form: `n` fair coins, one per slot of the new deck from the
//! top. The number of heads `c` is the size of the top packet (so `c ~ Binomial(n, 1/2)`),
//! and slot `s` takes the next card of the top packet when coin `s` is heads, else the
//! next card of the bottom packet; there are exactly `c` heads, so both packets run out
//! together. Each of the `2^n` coin sequences is one (cut, interleaving) pair, so a cut of
//! `c` has probability `C(n, c) / 2^n` and, given it, every interleaving of the two packets
//! `1 / C(n, c)`: the GSR law, in which the next card drops from a packet with probability
//! proportional to the cards left in it (Bayer and Diaconis's "sequential" and "all
//! interleavings equally likely" descriptions are the same law).
//!
//! A riffle thus needs one random bit per card: the default source deals 64 coins from
//! one word (`Randomness::coins`), any other source one `below(2)` per card, in slot order.
//! (Until issue 33 the cards dropped from the bottoms of the packets, each drop a draw
//! `below(L + R) < L`: the same law, from `2n − 1` draws instead of `n` coins.)

use crate::catalogue::shuffle::{CheckCase, Rounds, Shuffle, ShuffleFacts, whole_number, Stop};
use crate::catalogue::{Algorithm, CatalogueEntry, MAX_RIFFLES, Parameter, PermutationAlgorithm, Workspace};
use crate::randomness::Randomness;

/// One Gilbert–Shannon–Reeds riffle of `deck` (position 0 on top): `n` fair coins, the
/// heads both the size of the top packet and the slots it drops into (see the module
/// docs). `merged` is scratch space owned by the caller, so that a simulation does not
/// allocate per shuffle.
pub fn gsr_riffle<T: Copy, R: Randomness + ?Sized>(deck: &mut [T], rng: &mut R, merged: &mut Vec<T>) {
    let n = deck.len();
    // The coins, 64 to a word, slot `s` in bit `s % 64` of word `s / 64`. Decks of up to
    // 1,024 cards keep them on the stack.
    let words = n.div_ceil(64);
    let mut on_stack = [0u64; 16];
    let mut on_heap = Vec::new();
    let coins: &mut [u64] = if words <= on_stack.len() {
        &mut on_stack[..words]
    } else {
        on_heap.resize(words, 0);
        &mut on_heap
    };
    for (index, word) in coins.iter_mut().enumerate() {
        *word = rng.coins((n - 64 * index).min(64) as u32);
    }
    let cut = coins.iter().map(|word| word.count_ones() as usize).sum::<usize>();
    merged.clear();
    merged.extend_from_slice(deck);
    // The top packet is `deck[..cut]`, the bottom one `deck[cut..]`.
    let (mut next_top, mut next_bottom) = (0, cut);
    for (slot, card) in merged.iter_mut().enumerate() {
        // Which packet drops is a coin the processor cannot foresee: the card is picked
        // by a select and the cursors move by arithmetic, with no branch to mispredict.
        let heads = (coins[slot / 64] >> (slot % 64)) & 1 == 1;
        *card = deck[if heads { next_top } else { next_bottom }];
        next_top += usize::from(heads);
        next_bottom += usize::from(!heads);
    }
    deck.copy_from_slice(merged);
}

/// `times` GSR riffles of `deck` in a row ([`gsr_riffle`]).
pub fn riffles<T: Copy, R: Randomness + ?Sized>(
    deck: &mut [T],
    rng: &mut R,
    times: u32,
    merged: &mut Vec<T>,
) {
    for _ in 0..times {
        gsr_riffle(deck, rng, merged);
    }
}

/// `riffles:K` in the catalogue: [`riffles`], `times` of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Riffles {
    /// Number of riffles (1 to [`MAX_RIFFLES`]).
    pub times: u32,
}

impl Shuffle for Riffles {
    const ENTRIES: &'static [CatalogueEntry] = &[
        CatalogueEntry {
            name: "riffles",
            summary: "K Gilbert-Shannon-Reeds riffles: a binomial cut, then cards dropped from the packets in proportion to their sizes",
            origin: "Gilbert (1955), Reeds (1981); Bayer & Diaconis, \"Trailing the dovetail shuffle to its lair\", Ann. Appl. Probab. 2 (1992) 294-313 (seven riffles for 52 cards)",
            biased_from: Some(2),
            parameter: Some(Parameter {
                name: "K",
                meaning: "number of riffles, 1 to 64",
                default: "7",
            }),
            algorithm: Algorithm::Permutation(PermutationAlgorithm::Riffles { times: 7 }),
        },
    ];

    const CHECKS: &'static [CheckCase] = &[
        // Biased, if barely: seven GSR riffles (Bayer & Diaconis's seven) still favour
        // orders with few rising sequences. The permutation test needs 198,901 shuffles
        // at n = 5 (its noncentrality from the closed-form law of `exact::riffles`, by
        // `stats::power`). 2 M is 10.1x; measured p = 1e-248.
        CheckCase {
            name: "riffles",
            n: 5,
            trials: 2_000_000,
            seed: 18,
        },
    ];

    fn with_parameter(_entry: &CatalogueEntry, parameter: &Parameter, value: &str) -> Result<Self, String> {
        Ok(Self {
            times: whole_number(parameter, value, MAX_RIFFLES)?,
        })
    }

    #[inline(always)]
    fn shuffle<T: Copy, R: Randomness + ?Sized>(
        self,
        deck: &mut [T],
        rng: &mut R,
        workspace: &mut Workspace<T>,
        _stop: &impl Stop,
    ) {
        riffles(deck, rng, self.times, &mut workspace.cards)
    }
}

impl ShuffleFacts for Riffles {
    fn parameter_shown(&self, _entry: &CatalogueEntry) -> Option<String> {
        Some(self.times.to_string())
    }

    /// One coin per card and riffle ([`gsr_riffle`]).
    fn rounds(&self, n: usize) -> Option<Rounds> {
        Some(Rounds {
            draws: n,
            rounds: self.times,
            bound: 2,
        })
    }

    fn gsr_riffles(&self) -> Option<u32> {
        Some(self.times)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::randomness::SimulationSource;
    use crate::tally::rising::rising_sequences;

    /// Answers from a list, for driving one riffle by hand.
    struct Answers(std::vec::IntoIter<u64>);

    impl Randomness for Answers {
        fn below(&mut self, n: u64) -> u64 {
            let answer = self.0.next().expect("the riffle asked for more draws than given");
            assert!(answer < n);
            answer
        }
        fn unit(&mut self) -> f64 {
            unreachable!()
        }
    }

    #[test]
    fn a_riffle_driven_by_hand_interleaves_by_its_coins() {
        // Coins 1, 0, 1, 1, 0: three heads cut 3 cards (0 1 2) over 2 (3 4); slots 0, 2
        // and 3 take the top packet's cards in order, slots 1 and 4 the bottom packet's.
        let mut deck = [0u16, 1, 2, 3, 4];
        let mut answers = Answers(vec![1, 0, 1, 1, 0].into_iter());
        gsr_riffle(&mut deck, &mut answers, &mut Vec::new());
        assert_eq!(deck, [0, 3, 1, 2, 4]);
        assert!(answers.0.next().is_none(), "every answer was used");
        // All heads: the whole deck is the top packet and nothing is interleaved.
        let mut deck = [0u16, 1, 2];
        gsr_riffle(
            &mut deck,
            &mut Answers(vec![1, 1, 1].into_iter()),
            &mut Vec::new(),
        );
        assert_eq!(deck, [0, 1, 2]);
        // 130 cards take three words of coins (64, 64, 2), in slot order: heads on the
        // first 65 slots cut 65 cards on top and leave the deck as it was.
        let mut deck: Vec<u16> = (0..130).collect();
        let coins = (0..130).map(|slot| u64::from(slot < 65)).collect::<Vec<_>>();
        gsr_riffle(&mut deck, &mut Answers(coins.into_iter()), &mut Vec::new());
        assert_eq!(deck, (0..130).collect::<Vec<_>>());
    }

    #[test]
    fn one_riffle_of_three_cards_has_the_gsr_law() {
        // GSR on 3 cards: the identity 4/8, each of the four orders with two rising
        // sequences 1/8 (Bayer–Diaconis: C(2 + 3 - r, 3) / 8). Exhaustively over the eight
        // coin sequences, through the default `coins`.
        let mut counts = std::collections::HashMap::new();
        for coins in 0..8u64 {
            let mut deck = [0u16, 1, 2];
            let answers = (0..3).map(|bit| (coins >> bit) & 1).collect::<Vec<_>>();
            gsr_riffle(&mut deck, &mut Answers(answers.into_iter()), &mut Vec::new());
            *counts.entry(deck).or_insert(0) += 1;
        }
        assert_eq!(counts[&[0, 1, 2]], 4);
        assert_eq!(counts.len(), 5);
        assert!(
            counts
                .iter()
                .all(|(deck, &count)| count == 1 || *deck == [0, 1, 2])
        );
    }

    #[test]
    fn k_riffles_leave_at_most_two_to_the_k_rising_sequences() {
        let mut rng = SimulationSource::from_seed(41);
        let mut merged = Vec::new();
        for times in 1..=4u32 {
            let mut most = 0;
            for _ in 0..2000 {
                let mut deck: Vec<u16> = (0..40).collect();
                riffles(&mut deck, &mut rng, times, &mut merged);
                most = most.max(rising_sequences(&deck));
            }
            assert!(most <= 1 << times, "{times} riffles: {most} rising sequences");
            // The bound is reached in practice (40 cards, 2000 deals: 2^K is typical).
            assert!(most >= (1 << times) - 1, "{times} riffles: at most {most}");
        }
    }
}
