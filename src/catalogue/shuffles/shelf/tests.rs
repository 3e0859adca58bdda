use super::*;
use crate::randomness::SimulationSource;

/// Answers from a list, for driving a pass by hand.
struct Answers(std::vec::IntoIter<u64>);

impl Randomness for Answers {
    fn below(&mut self, n: u64) -> u64 {
        let answer = self.0.next().expect("the pass asked for more draws than given");
        assert!(answer < n);
        answer
    }
    fn unit(&mut self) -> f64 {
        unreachable!()
    }
}

#[test]
fn a_pass_driven_by_hand_builds_each_shelf_as_a_v() {
    // Two shelves, fed from the bottom: card 3 on top of shelf 0 (code 1), card 2 on top
    // of it (1), card 1 under shelf 0's pile (0), card 0 under shelf 1's (2). Shelf 0
    // reads 2 3 1 from the top, shelf 1 reads 0, and shelf 0 is stacked on top.
    let mut deck = [0u16, 1, 2, 3];
    let mut answers = Answers(vec![1, 1, 0, 2].into_iter());
    shelf_pass(&mut deck, &mut answers, 2, &mut ShelfScratch::default());
    assert_eq!(deck, [2, 3, 1, 0]);
    assert!(answers.0.next().is_none(), "one draw per card");
    // Every card on top of one shelf: the deck comes out reversed.
    let mut deck = [0u16, 1, 2, 3, 4];
    shelf_pass(
        &mut deck,
        &mut Answers(vec![1; 5].into_iter()),
        1,
        &mut ShelfScratch::default(),
    );
    assert_eq!(deck, [0, 1, 2, 3, 4]);
    let mut deck = [0u16, 1, 2, 3, 4];
    shelf_pass(
        &mut deck,
        &mut Answers(vec![0; 5].into_iter()),
        1,
        &mut ShelfScratch::default(),
    );
    assert_eq!(deck, [4, 3, 2, 1, 0]);
}

/// Read from the top, each shelf's pile rises then falls (in the cards' starting
/// positions), so a pass leaves no valley inside a shelf's block: at most `S − 1`
/// valleys, one per boundary between blocks. Two passes break that.
#[test]
fn one_pass_leaves_at_most_one_valley_between_shelves() {
    let valleys = |deck: &[u16]| deck.windows(3).filter(|w| w[0] > w[1] && w[1] < w[2]).count();
    let mut rng = SimulationSource::from_seed(22);
    let mut scratch = ShelfScratch::default();
    let mut most_after_two = 0;
    for shelves in [1, 2, 10] {
        for _ in 0..2000 {
            let mut deck: Vec<u16> = (0..52).collect();
            shelf_pass(&mut deck, &mut rng, shelves, &mut scratch);
            let mut sorted = deck.clone();
            sorted.sort_unstable();
            assert_eq!(sorted, (0..52).collect::<Vec<u16>>(), "a permutation");
            assert!(valleys(&deck) < shelves as usize, "{shelves} shelves: {deck:?}");
            shelf_passes(&mut deck, &mut rng, shelves, 1, &mut scratch);
            most_after_two = most_after_two.max(valleys(&deck));
        }
    }
    // Two passes of 10 shelves leave far more (a fair deck has about 17 of 52).
    assert!(most_after_two > 10, "{most_after_two}");
}

/// The machine as the module docs describe it, card by card from `codes` (the draws of
/// the cards fed, from the bottom up): each shelf a pile that cards join on top (odd
/// code) or under (even), the piles stacked shelf 0 on top.
fn machine_by_the_book(deck: &[u16], codes: &[u32], shelves: u32) -> Vec<u16> {
    let mut piles = vec![std::collections::VecDeque::new(); shelves as usize];
    for (&code, &card) in codes.iter().zip(deck.iter().rev()) {
        let pile = &mut piles[code as usize / 2];
        if code % 2 == 1 {
            pile.push_front(card);
        } else {
            pile.push_back(card);
        }
    }
    piles.into_iter().flatten().collect()
}

/// A pass draws its codes from words planned once per deck size and shelf count, kept in
/// the scratch: the same codes as words cut as they go ([`each_draw`], the draws before
/// the plan), and the source left where they leave it. The deck it deals is the machine's
/// by the book from those codes, on both of its paths: by rank from 2 to [`RANKED_UP_TO`]
/// cards, by the shelves' cursors above. The scratch is reused across sizes and shelf
/// counts in turn, so a plan kept for one must not deal another.
#[test]
fn planned_passes_draw_what_words_cut_as_they_go_draw() {
    use crate::randomness::batched::each_draw;
    let mut scratch = ShelfScratch::default();
    let mut rng = SimulationSource::from_seed(43);
    for shelves in [1, 2, 10, 13, 1000, 10] {
        for n in (0..=70).chain([200, 2_000, 52, 52, 3, 3, 8, 9]) {
            let mut plain = rng.clone();
            let unshuffled: Vec<u16> = (0..n as u16).rev().collect();
            let mut deck = unshuffled.clone();
            shelf_pass(&mut deck, &mut rng, shelves, &mut scratch);
            let bound = 2 * u64::from(shelves);
            let mut codes = Vec::new();
            each_draw(&mut plain, n, bound, |_| bound, |_, code| codes.push(code as u32));
            assert_eq!(
                deck,
                machine_by_the_book(&unshuffled, &codes, shelves),
                "{shelves} shelves, {n} cards"
            );
            if !(2..=RANKED_UP_TO).contains(&n) {
                assert_eq!(scratch.codes, codes, "{shelves} shelves, {n} cards");
            }
            assert_eq!(
                rng.below(1_000),
                plain.below(1_000),
                "{shelves} shelves, {n} cards"
            );
        }
    }
}
