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
//! The code follows the model literally, every draw through [`Randomness`], so that it
//! can be simulated, enumerated path by path, and compared with that closed form:
//!
//! - the cut: `n` fair coins (`below(2)`), the number of heads `c` being the size of the
//!   top packet, so `c ~ Binomial(n, 1/2)`;
//! - the drop: the new deck is built from the bottom up. While both packets hold cards,
//!   with `L` cards left in the top packet and `R` in the bottom one, the bottom card of
//!   the top packet drops when `below(L + R) < L` (probability `L/(L+R)`), else the bottom
//!   card of the bottom packet; once a packet is empty the rest of the other lands on top
//!   unchanged (it would drop with probability 1 anyway, so no draw is made for it).
//!
//! Given the cut, every interleaving of the two packets then has probability
//! `c!(n−c)!/n!`, as in the GSR model (dropping from the bottom or the top gives the same
//! law; the bottom is how hands do it).

use crate::randomness::Randomness;

/// One Gilbert–Shannon–Reeds riffle of `deck` (position 0 on top): a binomial cut from
/// `n` fair coins, then cards dropped from the bottoms of the two packets with
/// probability proportional to their sizes (see the module docs). `merged` is scratch
/// space owned by the caller, so that a simulation does not allocate per shuffle.
pub fn gsr_riffle<T: Copy, R: Randomness + ?Sized>(deck: &mut [T], rng: &mut R, merged: &mut Vec<T>) {
    let n = deck.len();
    let cut = (0..n).map(|_| rng.below(2) as usize).sum::<usize>();
    merged.clear();
    merged.extend_from_slice(deck);
    // The top packet is `deck[..cut]`, the bottom one `deck[cut..]`.
    let (mut left_in_top, mut left_in_bottom) = (cut, n - cut);
    // The slot the next dropped card lands in, counted from the top: the pile grows upward.
    // Each drop leaves one card fewer in the packets, so `slot + 1` is `L + R`.
    let mut slot = n;
    while left_in_top > 0 && left_in_bottom > 0 {
        slot -= 1;
        let from_top = rng.below(slot as u64 + 1) < left_in_top as u64;
        // Which packet drops is a coin the processor cannot foresee: the card is picked
        // by a select of its index and the counts move by arithmetic, with no branch to
        // mispredict on every other drop (the draws and the deck are the same as with
        // `if from_top { … } else { … }`).
        let from = if from_top {
            left_in_top - 1
        } else {
            cut + left_in_bottom - 1
        };
        merged[slot] = deck[from];
        left_in_top -= usize::from(from_top);
        left_in_bottom -= usize::from(!from_top);
    }
    // What is left of one packet lands on top, in its order.
    let rest = if left_in_top > 0 {
        &deck[..left_in_top]
    } else {
        &deck[cut..cut + left_in_bottom]
    };
    merged[..rest.len()].copy_from_slice(rest);
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
    fn a_riffle_driven_by_hand_drops_from_the_bottoms() {
        // Coins 1, 1, 0, 0, 1 cut 3 cards (0 1 2) over 2 (3 4). Drops from the bottom:
        // below(5) = 0 < 3 drops 2 (bottom slot); below(4) = 3 >= 2 drops 4; below(3) = 0
        // drops 1; below(2) = 1 >= 1 drops 3; the top packet's 0 lands on top.
        let mut deck = [0u16, 1, 2, 3, 4];
        let mut answers = Answers(vec![1, 1, 0, 0, 1, 0, 3, 0, 1].into_iter());
        gsr_riffle(&mut deck, &mut answers, &mut Vec::new());
        assert_eq!(deck, [0, 3, 1, 4, 2]);
        assert!(answers.0.next().is_none(), "every answer was used");
        // All heads: the whole deck is the top packet and nothing is interleaved.
        let mut deck = [0u16, 1, 2];
        gsr_riffle(
            &mut deck,
            &mut Answers(vec![1, 1, 1].into_iter()),
            &mut Vec::new(),
        );
        assert_eq!(deck, [0, 1, 2]);
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
