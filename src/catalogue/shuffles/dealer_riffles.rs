//! Dealers who carry the deck from one deal to the next.
//!
//! A card-room dealer does not start each hand from a fresh deck: they gather the cards of
//! the last hand and riffle them a few times. Each deal is then the previous deal shuffled
//! again, and if the shuffling is too light the deals depend on each other, although each
//! deal alone, after the first few, is as uniform as can be measured. Every per-deal test
//! passes such a dealer; the relative permutation of consecutive deals
//! ([`crate::tally::relative`]) is exactly the dealer's shuffle (here `K` GSR riffles, far
//! from uniform for small `K`), which the rising-sequence test sees at once.
//!
//! # Where the carried deck lives, and why results still do not depend on threads
//!
//! The previous deal is kept in [`DealerState`], inside the [`super::Workspace`] the
//! engine gives each worker. Left as it is, a dealer would carry its deck across the
//! chunks a worker happens to run, and the tallies would depend on the thread count. So
//! carrying is switched on, and the dealer sent back to the fresh deck, by
//! [`super::Workspace::start_dealing`], which the engine calls at the start of every
//! chunk: each chunk is then one dealer's series of deals from the fresh deck, fixed by
//! `(seed, chunk)` alone, whatever worker runs it and whatever shard it belongs to.
//!
//! Everywhere else (exact enumeration, `seeds`, one-off shuffles) nobody calls it, and
//! every shuffle is the first deal of a new dealer: `K` riffles of the deck handed in,
//! the same draws and the same result as `riffles:K`. That default is what makes
//! a random path, or a seed, describe one deal completely.
//!
//! The state is the previous deal as positions in the deck handed in (16-bit ones up to
//! 65,536 cards), not as cards: the engine hands in the fresh deck every time, and a
//! dealer must not depend on what the caller left in the buffer.

use super::riffles::riffles;
use crate::catalogue::shuffle::{CheckCase, Shuffle, ShuffleFacts, whole_number, Stop};
use crate::catalogue::{Algorithm, CatalogueEntry, MAX_RIFFLES, Parameter, PermutationAlgorithm, Workspace};
use crate::randomness::Randomness;

/// The deck a dealer carries between deals, and whether it carries it at all.
#[derive(Clone, Debug, Default)]
pub struct DealerState {
    /// Whether deals follow on from each other (set by [`DealerState::start_series`]).
    in_series: bool,
    /// The previous deal of up to 65,536 cards, in 16-bit positions: half the bytes to
    /// riffle and copy of 32-bit ones (a 52-card deal is riffled seven times a deal).
    short: Arrangement<u16>,
    /// The previous deal of a larger deck.
    long: Arrangement<u32>,
}

/// The previous deal: `positions[i]` is the position, in the deck handed in, of the card
/// at position `i`. Empty when the next deal starts from the deck handed in.
#[derive(Clone, Debug, Default)]
struct Arrangement<P> {
    positions: Vec<P>,
    /// Scratch space for the riffles of the arrangement.
    merged: Vec<P>,
}

impl DealerState {
    /// A new dealer starts from the fresh deck, and from now on each deal is the previous
    /// one shuffled again.
    pub fn start_series(&mut self) {
        self.in_series = true;
        self.short.positions.clear();
        self.long.positions.clear();
    }
}

/// A dealer who riffles the previous deal's deck `times` times (GSR riffles,
/// [`super::riffles::gsr_riffle`]) and deals it.
///
/// In a series ([`DealerState::start_series`]) the result is the previous result riffled
/// again (the first deal of a series, or one after the deck size changed, riffles the
/// deck handed in); outside a series every call riffles the deck handed in, exactly as
/// `riffles` would. `scratch` is space owned by the caller.
pub fn dealer_riffles<T: Copy, R: Randomness + ?Sized>(
    deck: &mut [T],
    rng: &mut R,
    times: u32,
    dealer: &mut DealerState,
    scratch: &mut Vec<T>,
) {
    let in_series = dealer.in_series;
    // A deal in one kind of positions forgets the other's: after a change of deck size
    // the series starts again from the deck handed in, whichever sizes came before.
    if deck.len() <= 1 << 16 {
        dealer.long.positions.clear();
        deal(
            deck,
            rng,
            times,
            in_series,
            &mut dealer.short,
            scratch,
            |i| i as u16,
            usize::from,
        );
    } else {
        dealer.short.positions.clear();
        deal(
            deck,
            rng,
            times,
            in_series,
            &mut dealer.long,
            scratch,
            |i| i as u32,
            |p| p as usize,
        );
    }
}

/// [`dealer_riffles`] with positions of type `P` (`index` makes one, `position` reads it).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn deal<T: Copy, P: Copy, R: Randomness + ?Sized>(
    deck: &mut [T],
    rng: &mut R,
    times: u32,
    in_series: bool,
    arrangement: &mut Arrangement<P>,
    scratch: &mut Vec<T>,
    index: impl Fn(usize) -> P,
    position: impl Fn(P) -> usize,
) {
    let n = deck.len();
    if !in_series || arrangement.positions.len() != n {
        arrangement.positions.clear();
        arrangement.positions.extend((0..n).map(index));
    }
    riffles(&mut arrangement.positions, rng, times, &mut arrangement.merged);
    scratch.clear();
    scratch.extend_from_slice(deck);
    for (card, &from) in deck.iter_mut().zip(&arrangement.positions) {
        *card = scratch[position(from)];
    }
}

/// `dealer-riffles:K` in the catalogue: [`dealer_riffles`], `times` riffles a deal. Its
/// deals depend on each other ([`ShuffleFacts::deals_follow_by`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DealerRiffles {
    /// Number of riffles per deal (1 to [`MAX_RIFFLES`]).
    pub times: u32,
}

impl Shuffle for DealerRiffles {
    const ENTRIES: &'static [CatalogueEntry] = &[
        CatalogueEntry {
            name: "dealer-riffles",
            summary: "a dealer who riffles the previous deal's deck K times (GSR) and deals it: each deal depends on the last",
            origin: "the card-room habit of riffling the last hand's cards a few times (\"most people shuffle cards three or four times\": Diaconis in G. Kolata, New York Times, 9 Jan 1990); riffles as in Bayer & Diaconis (1992)",
            biased_from: Some(2),
            parameter: Some(Parameter {
                name: "K",
                meaning: "riffles per deal, 1 to 64",
                default: "3",
            }),
            algorithm: Algorithm::Permutation(PermutationAlgorithm::DealerRiffles { times: 3 }),
        },
    ];

    const CHECKS: &'static [CheckCase] = &[
        // Biased through its order: each deal alone is all but uniform (permutations
        // adjusted p 0.85 here), but each follows from the one before (3 riffles of the
        // previous deck): the serial tests fail it at p < 1e-300 with 20,000 deals.
        CheckCase {
            name: "dealer-riffles",
            n: 5,
            trials: 20_000,
            seed: 20,
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
        dealer_riffles(deck, rng, self.times, &mut workspace.dealer, &mut workspace.cards)
    }
}

impl ShuffleFacts for DealerRiffles {
    fn parameter_shown(&self, _entry: &CatalogueEntry) -> Option<String> {
        Some(self.times.to_string())
    }

    fn deals_follow_by(&self) -> Option<String> {
        Some(format!("riffles:{}", self.times))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::randomness::SimulationSource;
    use crate::tally::relative::relative_permutation;
    use crate::tally::rising::rising_sequences;

    #[test]
    fn outside_a_series_each_deal_is_riffles_of_the_deck_handed_in() {
        let mut dealer_rng = SimulationSource::from_seed(8);
        let mut riffle_rng = SimulationSource::from_seed(8);
        let mut dealer = DealerState::default();
        let (mut scratch, mut merged) = (Vec::new(), Vec::new());
        for _ in 0..100 {
            let mut dealt: Vec<u16> = (0..20).collect();
            dealer_riffles(&mut dealt, &mut dealer_rng, 3, &mut dealer, &mut scratch);
            let mut riffled: Vec<u16> = (0..20).collect();
            riffles(&mut riffled, &mut riffle_rng, 3, &mut merged);
            assert_eq!(dealt, riffled);
        }
    }

    #[test]
    fn in_a_series_each_deal_is_the_previous_one_riffled_again() {
        let mut rng = SimulationSource::from_seed(9);
        let mut dealer = DealerState::default();
        dealer.start_series();
        let mut scratch = Vec::new();
        let mut previous: Option<Vec<u16>> = None;
        let mut beyond_one_riffle = false;
        for _ in 0..200 {
            let mut deck: Vec<u16> = (0..30).collect();
            dealer_riffles(&mut deck, &mut rng, 1, &mut dealer, &mut scratch);
            // One riffle of the previous deal: relative to it, at most two rising
            // sequences, while the deal itself soon has many.
            if let Some(previous) = &previous {
                assert!(rising_sequences(&relative_permutation(previous, &deck)) <= 2);
            } else {
                assert!(
                    rising_sequences(&deck) <= 2,
                    "the first deal riffles the fresh deck"
                );
            }
            beyond_one_riffle |= rising_sequences(&deck) > 2;
            previous = Some(deck);
        }
        assert!(beyond_one_riffle, "the deck was carried from deal to deal");

        // A new series starts again from the fresh deck.
        dealer.start_series();
        let mut deck: Vec<u16> = (0..30).collect();
        dealer_riffles(&mut deck, &mut rng, 1, &mut dealer, &mut scratch);
        assert!(rising_sequences(&deck) <= 2);
    }

    #[test]
    fn the_carried_deal_does_not_depend_on_the_deck_handed_in() {
        // The state is positions, not cards: handing in labels other than 0..n relabels
        // the deal and nothing else.
        let mut rng_a = SimulationSource::from_seed(10);
        let mut rng_b = SimulationSource::from_seed(10);
        let (mut dealer_a, mut dealer_b) = (DealerState::default(), DealerState::default());
        dealer_a.start_series();
        dealer_b.start_series();
        let mut scratch = Vec::new();
        let mut scratch_b = Vec::new();
        for _ in 0..20 {
            let mut fresh: Vec<u16> = (0..10).collect();
            let mut letters: Vec<char> = "abcdefghij".chars().collect();
            dealer_riffles(&mut fresh, &mut rng_a, 2, &mut dealer_a, &mut scratch);
            dealer_riffles(&mut letters, &mut rng_b, 2, &mut dealer_b, &mut scratch_b);
            let relabelled: Vec<char> = fresh.iter().map(|&c| (b'a' + c as u8) as char).collect();
            assert_eq!(letters, relabelled);
        }
    }
}
